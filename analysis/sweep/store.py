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


def read_json(path: str | Path, name: str, what: str) -> dict:
    p = Path(path) / name
    if not p.is_file():
        raise UsageError(f"{path}: not a {what} directory (no {name})")
    try:
        return json.loads(p.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise UsageError(f"{p}: invalid JSON ({exc})") from None


def read_sweep(path: str | Path) -> dict:
    """sweep.json of a sweep directory (one-line UsageError if ``path`` is not one)."""
    return read_json(path, SWEEP_JSON, "sweep")


def variant_dir(out: str | Path, variant_id: str) -> Path:
    return Path(out) / VARIANTS / variant_id


def finished_variants(out: str | Path, sweep: dict | None = None) -> list[dict]:
    """The variants of a sweep directory whose run directory is published."""
    sweep = sweep or read_sweep(out)
    return [v for v in sweep["variants"] if (variant_dir(out, v["id"]) / RUN_JSON).is_file()]
