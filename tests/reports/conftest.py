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


@pytest.fixture
def multipletests():
    """statsmodels' ``multipletests`` without its ``gc.collect()`` (tests/holm_reference.py)."""
    from holm_reference import multipletests as call

    return call
