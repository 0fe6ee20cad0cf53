"""statsmodels' ``multipletests``, the tests' independent reference for Holm's step-down (and the
other corrections), without the ``gc.collect()`` it runs after every Holm adjustment: a full
collection of the test process (0.2-0.6 s of CPU a call in a worker holding Numba, polars,
matplotlib and many reports' objects, against milliseconds in a small one). Nothing of its result
depends on it. The module sits in tests/, so every folder's tests import it (as the
``multipletests`` fixture of tests/reports/conftest.py does)."""

from __future__ import annotations


def multipletests(*args, **kwargs):
    import gc

    import pytest
    from statsmodels.stats.multitest import multipletests as reference

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(gc, "collect", lambda generation=2: 0)
        return reference(*args, **kwargs)
