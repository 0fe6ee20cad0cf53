"""Running a check: read a run directory, measure it and decide against a loaded baseline.

:func:`check` is the one function that combines the other modules: it reads the run's run.json,
refuses a run of another configuration (:func:`~analysis.check.decision.check_configuration`),
measures the run (:func:`~analysis.check.measure.measure_run`) and decides
(:func:`~analysis.check.decision.compare`), returning a
:class:`~analysis.check.decision.CheckResult`. It lives in its own module because it does I/O
(reading the run), which :mod:`analysis.check.decision` must not. May import the standard library,
:mod:`analysis.check.measure`, :mod:`analysis.check.baseline`, :mod:`analysis.check.decision` and
:mod:`simcore.rundir`; never :mod:`analysis.check.presentation` and never the runner (playing the
games of a check is :mod:`cli.check`'s job).
"""

from __future__ import annotations

from pathlib import Path

from analysis.check.baseline import Baseline, check_settings
from analysis.check.decision import CheckResult, check_configuration, check_notes, compare
from analysis.check.measure import measure_run
from simcore.rundir import read_meta


def check(baseline: Baseline, run: str | Path, *, alpha: float | None = None,
          on_inconclusive: str | None = None) -> CheckResult:
    """Check run directory ``run`` against ``baseline`` (see
    :func:`analysis.check.decision.compare`)."""
    meta = read_meta(run)
    check_configuration(baseline, meta)
    alpha = baseline.alpha if alpha is None else alpha
    on_inc = baseline.on_inconclusive if on_inconclusive is None else on_inconclusive
    check_settings(alpha, baseline.seed_offset, on_inc, {})
    _, measured = measure_run(run)
    results = compare(baseline.metrics, measured, [baseline.tolerance_of(m) for m in baseline.metrics],
                      alpha)
    return CheckResult(baseline, results, alpha, on_inc, meta, str(run), check_notes(baseline, meta))



__all__ = ["check"]
