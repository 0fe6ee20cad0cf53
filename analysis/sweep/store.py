"""The files of a sweep directory: ``sweep.json`` and ``variants/<id>/`` (run directories).

Reading only (the reports read sweeps through this module and :mod:`analysis.sweep.metrics`).

May import the standard library and :mod:`simcore.errors` / :mod:`simcore.rundir`.
"""

from __future__ import annotations

import json
from pathlib import Path

from simcore.errors import UsageError
from simcore.rundir import RUN_JSON

SWEEP_JSON = "sweep.json"
VARIANTS = "variants"


#: What the readers of a sweep's, a tune's and a panel sweep's plan file index without checking:
#: each key's type, and for a list the type of its items (and the keys each item must hold). A file
#: edited by hand into another shape (``[]``, ``"varies": 3``, no ``variants``) was a traceback
#: (review s62 rv267 #7); :func:`shape_problem` names what is wrong in one line.
PLAN_SHAPES: dict[str, dict[str, tuple]] = {
    "sweep.json": {"game": (str,), "games": (int,), "seed": (int,),
                   "varies": (list, dict, ("name",)), "variants": (list, dict, ("id", "values"))},
    "tune.json": {"game": (str,), "seed": (int,), "varies": (list, dict, ("name",)),
                  "targets": (list, dict, ("kind",))},
    "panel_sweep.json": {"game": (str,), "games": (int,), "seed": (int,), "panel": (dict,),
                         "varies": (list, dict, ("name",)), "variants": (list, dict, ("id", "values")),
                         "cells": (list,)},
}
_TYPE_WORDS = {str: "text", int: "a whole number", list: "a list", dict: "an object {...}"}


def shape_problem(data, name: str) -> str | None:
    """Why ``data``, the parsed content of plan file ``name`` (sweep.json, tune.json,
    panel_sweep.json), is not what the toolkit writes there (:data:`PLAN_SHAPES`), or None."""
    if not isinstance(data, dict):
        return f"must hold a JSON object {{...}}, not {type(data).__name__ if data is not None else 'null'}"
    for key, (kind, *item) in PLAN_SHAPES.get(name, {}).items():
        if key not in data:
            return f"no {key!r}"
        value = data[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            return f"{key!r} must be {_TYPE_WORDS[kind]}, not {json.dumps(value)[:40]}"
        if item:
            item_kind, keys = item
            for i, x in enumerate(value):
                if not isinstance(x, item_kind) or any(k not in x for k in keys):
                    return (f"{key!r}[{i}] must be {_TYPE_WORDS[item_kind]} with "
                            f"{', '.join(map(repr, keys))}, not {json.dumps(x)[:40]}")
    return None


def read_json(path: str | Path, name: str, what: str) -> dict:
    """The plan file ``name`` of a ``what`` directory, checked to be the shape the toolkit writes
    (:func:`shape_problem`); one-line :class:`UsageError` otherwise."""
    p = Path(path) / name
    if not p.is_file():
        raise UsageError(f"{path}: not a {what} directory (no {name})")
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise UsageError(f"{p}: invalid JSON ({exc})") from None
    except UnicodeDecodeError as exc:
        raise UsageError(f"{p}: not UTF-8 text (byte {exc.start})") from None
    except RecursionError:
        raise UsageError(f"{p}: invalid JSON (nested too deeply)") from None
    problem = shape_problem(data, name)
    if problem:
        raise UsageError(f"{p}: not as balance writes a {what}'s {name} ({problem}); was it edited "
                         "by hand? Play the " + what + " again into a new --out")
    return data


def read_sweep(path: str | Path) -> dict:
    """sweep.json of a sweep directory (one-line UsageError if ``path`` is not one)."""
    return read_json(path, SWEEP_JSON, "sweep")


def variant_dir(out: str | Path, variant_id: str) -> Path:
    return Path(out) / VARIANTS / variant_id


def finished_variants(out: str | Path, sweep: dict | None = None) -> list[dict]:
    """The variants of a sweep directory whose run directory is published."""
    sweep = sweep or read_sweep(out)
    return [v for v in sweep["variants"] if (variant_dir(out, v["id"]) / RUN_JSON).is_file()]


def check_variant(out: str | Path, sweep: dict, variant: dict, meta: dict) -> None:
    """One-line :class:`UsageError` unless the run directory of ``variant`` (its run.json
    ``meta``) played what sweep.json says it did: the sweep's games and seed (the variants share
    their deals), its player count and line-up where the sweep fixed them, and the variant's own
    settings (run.json's ``settings``, the ``--set`` it was played with; a run without that record is
    not checked on them). A variant directory
    copied from another, or a run played into it by hand, would otherwise be reported under this
    variant's label."""
    where = variant_dir(out, variant["id"])
    wrong = []
    if meta.get("games") != sweep.get("games"):
        wrong.append(f"{meta.get('games')} games, not the sweep's {sweep.get('games')}")
    if meta.get("seed") != sweep.get("seed"):
        wrong.append(f"seed {meta.get('seed')}, not the sweep's {sweep.get('seed')}")
    if sweep.get("players") is not None and meta.get("players") != sweep.get("players"):
        wrong.append(f"{meta.get('players')} players, not the sweep's {sweep.get('players')}")
    from simcore.config import format_value

    played = [str(x).strip() for x in meta.get("settings") or []]     # the run's --set, as given
    for name, value in (variant.get("values") or {}).items():
        if name == "players":
            if meta.get("players") != value:
                wrong.append(f"{meta.get('players')} players, not {value}")
        elif "settings" in meta and f"{name}={format_value(value)}" not in played:
            wrong.append(f"not played with {name}={format_value(value)}")
    if wrong:
        raise UsageError(f"{where}: does not match sweep.json's variant {variant['id']} "
                         f"({variant.get('label', '')}): {'; '.join(wrong)} (the directory or sweep.json "
                         "changed after the sweep wrote them; move the variant away and run the same "
                         "balance sweep again to play it anew)")

