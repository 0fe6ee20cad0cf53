"""The statistical decision of the regression check: pure functions of numbers, no I/O.

:func:`compare` decides pass / fail / inconclusive for every metric of a baseline against a run
(tests against the tolerance margin with Holm's correction, see its docstring and docs/ci.md) and
returns :class:`MetricResult` rows; :class:`CheckResult` combines them into the verdict and exit
code; :func:`check_configuration` and :func:`check_notes` judge a run's run.json (already read, a
dict) against a baseline; :func:`shifted` moves a baseline value (tests, benchmarks). Nothing here
reads or writes a file. May import numpy, the standard library, :mod:`analysis.stats`,
:mod:`simcore.errors` and the metric vocabulary of :mod:`analysis.check.measure` (:class:`Kind`,
:data:`KINDS`, :class:`Measurement`); never :mod:`analysis.check.baseline` (a :class:`Baseline` is
only read through its attributes; the name is imported for annotations alone), nor
:mod:`analysis.check.presentation`, nor any module that reads or writes files.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Sequence

import numpy as np

from analysis import stats
from analysis.check.measure import KINDS, Kind, Measurement
from simcore.errors import UsageError

if TYPE_CHECKING:  # annotations only: decision never loads the baseline-file module
    from analysis.check.baseline import Baseline

DEFAULT_ALPHA = 0.05
ON_INCONCLUSIVE = ("pass", "fail")   # what an inconclusive verdict counts as (CheckResult.exit_code)


@dataclass(frozen=True)
class MetricResult:
    """The verdict on one metric. Values in the metric's unit; p-values unadjusted and Holm-adjusted."""

    metric: str
    key: str
    label: str
    base: float
    base_low: float
    base_high: float
    base_se: float
    base_n: int
    value: float
    low: float
    high: float
    se: float
    n: int
    diff: float
    diff_se: float
    tolerance: float
    p_beyond: float
    p_beyond_adjusted: float
    p_within: float
    p_within_adjusted: float
    verdict: str          # "pass", "fail" or "inconclusive"

    @property
    def kind(self) -> Kind:
        return KINDS[self.metric]


def _sf(z: float) -> float:
    if math.isnan(z):
        return float("nan")
    return stats.normal_sf(z)


def _p_beyond(d: float, se: float, tol: float) -> float:
    """p-value of H0 "|Δ| ≤ tol" against "|Δ| > tol": one-sided test in the direction of d."""
    if se <= 0:
        return 0.0 if abs(d) > tol else 1.0
    return min(_sf((d - tol) / se), _sf((-d - tol) / se))


def _p_within(d: float, se: float, tol: float) -> float:
    """TOST p-value of H0 "|Δ| ≥ tol" against "|Δ| < tol": the larger of the two one-sided p."""
    if se <= 0:
        return 0.0 if abs(d) < tol else 1.0
    return max(_sf((d + tol) / se), _sf((tol - d) / se))


def compare(baseline: Sequence[Measurement], run: Sequence[Measurement], tolerances: Sequence[float],
            alpha: float = DEFAULT_ALPHA) -> list[MetricResult]:
    """Decide pass / fail / inconclusive for every baseline metric.

    ``baseline[i]`` is compared with the run metric of the same (metric, key); ``tolerances[i]`` is
    its accepted ± change. Raises :class:`UsageError` when the run lacks a baseline metric.

    For every metric, from the difference d = run − baseline of two independent estimates (standard
    error √(se_run² + se_base²)) and the tolerance δ:

    * **fail** — the data show |true difference| > δ: the one-sided z test of H0 "|Δ| ≤ δ" in the
      direction of d, p = P(Z > (|d| − δ)/se), has a Holm-adjusted p-value below α;
    * **pass** — the data show |true difference| < δ: two one-sided tests (TOST) of equivalence,
      p = max(P(Z > (d + δ)/se), P(Z > (δ − d)/se)), Holm-adjusted p below α;
    * **inconclusive** — neither: the sample cannot tell (too few games for the tolerance).

    Holm's correction runs over all checked metrics, separately for the fail tests and the
    equivalence tests, so the chance that a check of a configuration whose every metric is within
    tolerance fails is at most α (reached only when metrics sit exactly on the tolerance; ≈ 0 for an
    unchanged configuration), and the chance that a metric truly beyond tolerance is declared *pass*
    is at most α. The run's verdict (:class:`CheckResult`) is fail if any metric fails, pass if every
    metric passes, else inconclusive (exit code 0 with a warning, or 1 with
    ``on_inconclusive = "fail"``). docs/ci.md explains the choice and the measured error rates
    (benchmarks/bench_check_false_alarms.py).
    """
    by_key = {(m.metric, m.key): m for m in run}
    rows = []
    for b, tol in zip(baseline, tolerances):
        r = by_key.get((b.metric, b.key))
        if r is None:
            raise UsageError(f"the run has no {b.metric} for {b.key!r} (the baseline has; "
                             "was the run made with other players or strategies?)")
        d = r.value - b.value
        se = math.hypot(r.se, b.se)
        rows.append((b, r, d, se, float(tol), _p_beyond(d, se, tol), _p_within(d, se, tol)))
    p_beyond_adj = stats.holm([row[5] for row in rows]) if rows else np.array([])
    p_within_adj = stats.holm([row[6] for row in rows]) if rows else np.array([])
    out = []
    for (b, r, d, se, tol, pb, pw), pba, pwa in zip(rows, p_beyond_adj, p_within_adj):
        verdict = "fail" if pba < alpha else "pass" if pwa < alpha else "inconclusive"
        out.append(MetricResult(b.metric, b.key, b.label, b.value, b.ci_low, b.ci_high, b.se, b.n,
                                r.value, r.ci_low, r.ci_high, r.se, r.n, d, se, tol, pb, float(pba),
                                pw, float(pwa), verdict))
    return out


@dataclass
class CheckResult:
    """A check: every metric's verdict, the overall verdict, the exit code and what to say about it."""

    baseline: Baseline
    results: list[MetricResult]
    alpha: float
    on_inconclusive: str
    run_meta: dict
    run_path: str
    notes: list[str] = field(default_factory=list)

    @property
    def failed(self) -> list[MetricResult]:
        return [r for r in self.results if r.verdict == "fail"]

    @property
    def inconclusive(self) -> list[MetricResult]:
        return [r for r in self.results if r.verdict == "inconclusive"]

    @property
    def verdict(self) -> str:
        if self.failed:
            return "fail"
        return "inconclusive" if self.inconclusive else "pass"

    @property
    def exit_code(self) -> int:
        v = self.verdict
        return 1 if v == "fail" or (v == "inconclusive" and self.on_inconclusive == "fail") else 0

    @property
    def rules_changed(self) -> bool:
        return self.run_meta.get("rules_sha256") != self.baseline.rules_sha256


def check_configuration(baseline: Baseline, meta: dict) -> None:
    """Refuse a run that is not the baseline's configuration (game, players, strategies, seats)."""
    problems = []
    if meta.get("game") != baseline.game:
        problems.append(f"game {meta.get('game')!r} (baseline: {baseline.game!r})")
    if meta.get("players") != baseline.players:
        problems.append(f"{meta.get('players')} players (baseline: {baseline.players})")
    elif list(meta.get("strategies") or []) != baseline.strategies:
        problems.append(f"strategies {','.join(meta.get('strategies') or [])} "
                        f"(baseline: {','.join(baseline.strategies)})")
    if bool(meta.get("rotate_seats", False)) != baseline.rotate_seats:
        problems.append(f"rotate_seats {bool(meta.get('rotate_seats', False))} "
                        f"(baseline: {baseline.rotate_seats})")
    if problems:
        raise UsageError(f"the run is not the baseline's configuration: {'; '.join(problems)}")


def check_notes(baseline: Baseline, meta: dict) -> list[str]:
    """What a reader must know about a check: other rules, overlapping games, another engine."""
    notes = []
    sha = str(meta.get("rules_sha256", ""))
    if sha != baseline.rules_sha256:
        notes.append(f"rules differ from the baseline's: this run used {meta.get('rules_name', '?')} "
                     f"(sha256 {sha[:12]}…), the baseline {baseline.rules} (sha256 "
                     f"{baseline.rules_sha256[:12]}…); differences below include the rules change")
    if meta.get("seed") == baseline.seed:
        notes.append(f"this run has the baseline's seed {baseline.seed}: its games use the same random "
                     "streams as the baseline's, so the two estimates are not independent and the "
                     "check is not the statistical comparison it is meant to be (use another --seed)")
    if meta.get("engine", "kernel") != baseline.engine:
        notes.append(f"engine {meta.get('engine', 'kernel')} (baseline: {baseline.engine})")
    return notes



def shifted(baseline: Baseline, metric: str, key: str, by: float) -> Baseline:
    """A copy of ``baseline`` whose (metric, key) value is moved by ``by`` (tests and benchmarks)."""
    ms = [replace(m, value=m.value + by, ci_low=m.ci_low + by, ci_high=m.ci_high + by)
          if (m.metric, m.key) == (metric, key) else m for m in baseline.metrics]
    return replace(baseline, metrics=ms)



__all__ = ["CheckResult", "DEFAULT_ALPHA", "MetricResult", "ON_INCONCLUSIVE", "check_configuration",
           "check_notes", "compare", "shifted"]
