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
    """statsmodels' ``multipletests``, the tests' independent reference for Holm's step-down,
    without the ``gc.collect()`` it runs after every Holm adjustment: a full collection of the test
    process (0.3-0.6 s of CPU in a process holding many reports' objects, against milliseconds in
    a small one); nothing of its result depends on it."""
    import gc

    from statsmodels.stats.multitest import multipletests as reference

    def call(*args, **kwargs):
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(gc, "collect", lambda generation=2: 0)
            return reference(*args, **kwargs)

    return call
