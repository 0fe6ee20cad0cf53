"""The rules diff of a before/after: every setting that differs between two runs' rules.

Each run directory records the rules it was played with (run.json ``rules_text``, the TOML after
any ``--set``; ``settings`` lists the ``--set`` lines; ``rules_name`` the file). :func:`rules_diff`
parses both texts and lists every dotted setting whose value differs (``income.palais.base: 3 →
4``), whatever made it differ: a ``--set``, an edited rules file or a tuned candidate's rules.
Arrays of tables (Middle-Ages ``[[events]]``) are compared element by element and named by their
``name``/``id`` key when they have one; plain lists (``setup.start_coins``) compare as one value.

May import polars and the standard library (tomllib).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass

import polars as pl


@dataclass(frozen=True)
class SettingChange:
    path: str
    before: object
    after: object

    @property
    def text(self) -> str:
        return f"{self.path}: {value_text(self.before)} → {value_text(self.after)}"


_MISSING = object()
SHOWN = 6            # settings named in the sentence; the table lists every one


def value_text(v: object) -> str:
    """A TOML value as a designer typed it (``[2, 1, 0, 0]``, ``true``, ``"x"``); ``(absent)``."""
    if v is _MISSING:
        return "(absent)"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return f'"{v}"'
    if isinstance(v, list):
        return "[" + ", ".join(value_text(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k} = {value_text(x)}" for k, x in v.items()) + "}"
    return str(v)


def _element_key(i: int, d: dict) -> str:
    for k in ("name", "id", "type"):
        if k in d and isinstance(d[k], (str, int)):
            return f"[{d[k]!s}]" if k != "name" else f'["{d[k]}"]'
    return f"[{i}]"


def flatten(table: dict, prefix: str = "") -> dict[str, object]:
    """Dotted path → leaf value; arrays of tables are flattened per element."""
    out: dict[str, object] = {}
    for k, v in table.items():
        path = f"{prefix}.{k}" if prefix else str(k)
        if isinstance(v, dict):
            out.update(flatten(v, path))
        elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            for i, x in enumerate(v):
                out.update(flatten(x, path + _element_key(i, x)))
        else:
            out[path] = v
    return out


def parse_rules(meta: dict) -> dict | None:
    """The rules table a run played with (None when run.json holds no parseable rules text)."""
    text = meta.get("rules_text")
    if not text:
        return None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None


def rules_diff(before_meta: dict, after_meta: dict) -> list[SettingChange] | None:
    """Every setting that differs between two runs (in the rules file's order), or None when
    either run has no readable rules text (then no diff can be said)."""
    a, b = parse_rules(before_meta), parse_rules(after_meta)
    if a is None or b is None:
        return None
    fa, fb = flatten(a), flatten(b)
    paths = list(fa) + [p for p in fb if p not in fa]
    return [SettingChange(p, fa.get(p, _MISSING), fb.get(p, _MISSING))
            for p in paths if fa.get(p, _MISSING) != fb.get(p, _MISSING)]


def origin(meta: dict) -> str:
    """How a run's rules were given, in words: its ``--set`` lines and the file they applied to."""
    name = str(meta.get("rules_name") or "the shipped rules")
    sets = meta.get("settings") or []
    base = name.split(" with --set")[0]
    if sets:
        return f"{base} with " + ", ".join(f"--set {s}" for s in sets)
    return base


def diff_table(changes: list[SettingChange]) -> pl.DataFrame:
    return pl.DataFrame({"Setting": [c.path for c in changes],
                         "Before": [value_text(c.before) for c in changes],
                         "After": [value_text(c.after) for c in changes]},
                        schema={"Setting": pl.String, "Before": pl.String, "After": pl.String})


def diff_sentences(changes: list[SettingChange] | None, before_label: str, after_label: str,
                   before_meta: dict, after_meta: dict) -> list[str]:
    """One sentence on what differs, then one per setting (``income.palais.base: 3 → 4``)."""
    if changes is None:
        return [f"The rules of {before_label} or {after_label} are not recorded in run.json, so the "
                f"settings that differ cannot be listed."]
    if not changes:
        same = ("" if before_meta.get("rules_sha256") != after_meta.get("rules_sha256")
                else " (same rules file hash)")
        return [f"{after_label} plays the same rule settings as {before_label}{same}: any difference "
                f"comes from the bots, the seed or the number of games."]
    n = len(changes)
    listed = "; ".join(c.text for c in changes[:SHOWN])
    more = f"; and {n - SHOWN} more in the table" if n > SHOWN else ""
    return [f"{after_label} changes {n} rule setting{'s' if n != 1 else ''} of {before_label}: "
            f"{listed}{more} (rules: {origin(after_meta)})."]
