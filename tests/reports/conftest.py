"""Report tests reuse the synthetic run factories of tests/analysis/analysis_runs.py, and share one
real Middle-Ages run and its report (``middle_ages_report``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

_RUNS = str(Path(__file__).resolve().parents[1] / "analysis")
if _RUNS not in sys.path:
    sys.path.insert(0, _RUNS)


@pytest.fixture(scope="session")
def middle_ages_report(tmp_path_factory) -> tuple[Path, Path]:
    """``simulate --games 2000 --seed 3`` (Middle-Ages, its 4 players and balanced line-up by
    default) and ``balance report RUN`` of it: (the run, the report's folder). Three test files
    read it (tests/conftest.py SAME_WORKER keeps them on one xdist worker): each played and drew the
    same run and report of its own (about 3 s of CPU each)."""
    from cli import _run

    root = tmp_path_factory.mktemp("ma2000")
    run, out = root / "run", root / "report"
    assert _run(["simulate", "--games", "2000", "--seed", "3", "--out", str(run), "--quiet"]) == 0
    meta = json.loads((run / "run.json").read_text(encoding="utf-8"))
    assert (meta["game"], meta["players"], meta["strategies"]) == ("middle-ages", 4, ["balanced"] * 4)
    assert _run(["report", str(run), "--out", str(out)]) == 0
    return run, out
