"""Report tests reuse the synthetic run factories of tests/analysis/analysis_runs.py."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest


_RUNS = str(Path(__file__).resolve().parents[1] / "analysis")
if _RUNS not in sys.path:
    sys.path.insert(0, _RUNS)


@pytest.fixture
def undrawn():
    """A test's reports written with 1x1 stand-ins for their figures (see undrawn_figures.py)."""
    from undrawn_figures import figures_undrawn

    with figures_undrawn():
        yield


@pytest.fixture(scope="session")
def harsh_lord_run(tmp_path_factory) -> Path:
    """``simulate --game seigneurial --strategies harsh-lord,random --games 20000`` (seed 0): its
    handful of games at the turn limit is what test_s46_rare_ends.py and test_s46_length_figure.py
    read (SAME_WORKER in tests/conftest.py keeps both on one xdist worker). Each played it (about
    1 s of CPU); the tests only read it and write their reports elsewhere."""
    from cli import _run

    run = tmp_path_factory.mktemp("harsh_lord") / "r"
    assert _run(["simulate", "--game", "seigneurial", "--strategies", "harsh-lord,random", "--games",
                 "20000", "--out", str(run), "-q"]) == 0
    return run


@pytest.fixture
def multipletests():
    """statsmodels' ``multipletests`` without its ``gc.collect()`` (tests/holm_reference.py)."""
    from holm_reference import multipletests as call

    return call
