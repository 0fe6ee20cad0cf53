"""Measuring a run for the regression check: the checked metrics and how they are read off a run.

A metric is one :class:`Measurement` (win share per seat and per strategy, mean score per seat, each
with its 95 % interval, standard error and sample size) of a :class:`Kind` (unit, default tolerance);
:func:`measure` reads them off the analysis tables (:func:`analysis.seats.seat_table`,
:func:`analysis.matchups.strategy_table`) of a :class:`analysis.load.RunSet` and :func:`measure_run`
off a run directory. First module of :mod:`analysis.check`: it imports no other module of the
package. May import the standard library, :mod:`analysis` and its modules and :mod:`simcore.rundir`;
the modules that read runs are imported inside :func:`measure` and :func:`measure_run`, so importing
this module for its types (as :mod:`analysis.check.decision` does) reads nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from analysis import stats

Z95 = stats.z_quantile(0.95)   # two-sided 95 % normal quantile (1.96): interval half-width / se


@dataclass(frozen=True)
class Kind:
    """A kind of checked metric: its unit, the word for a difference, default tolerance."""

    unit: str            # unit of value / interval / se in the baseline ("%" or "coins")
    diff_unit: str       # how a difference is named ("points", "coins")
    tolerance: float     # default accepted change, in diff_unit
    scale: float         # analysis-table value × scale = value in unit


KINDS = {
    "seat_win_share": Kind("%", "points", 1.0, 100.0),
    "seat_mean_score": Kind("coins", "coins", 1.0, 1.0),
    "strategy_win_share": Kind("%", "points", 1.0, 100.0),
}
DEFAULT_TOLERANCE = {k: v.tolerance for k, v in KINDS.items()}


@dataclass(frozen=True)
class Measurement:
    """One metric of one run, in the metric's unit (win shares in %, scores in coins)."""

    metric: str
    key: str
    label: str
    value: float
    ci_low: float
    ci_high: float
    se: float
    n: int
    tolerance: float | None = None   # per-metric override from a baseline file

    @property
    def kind(self) -> Kind:
        return KINDS[self.metric]


def _se(low: float, high: float) -> float:
    """Standard error read off a 95 % interval (half-width / 1.96), as analysis.compare does."""
    return (high - low) / (2.0 * Z95)


def measure(rs) -> list[Measurement]:
    """The checked metrics of a :class:`analysis.load.RunSet`.

    Seat win shares (Wilson interval) and mean scores (t interval) from
    :func:`analysis.seats.seat_table`; strategy win shares from
    :func:`analysis.matchups.strategy_table` when the run has two strategies or more (with one
    strategy its win share is exactly 1/n and says nothing).
    """
    from analysis.matchups import has_matchups, strategy_table
    from analysis.seats import seat_table

    out: list[Measurement] = []
    seats = seat_table(rs)
    k = KINDS["seat_win_share"].scale
    for r in seats.iter_rows(named=True):
        out.append(Measurement("seat_win_share", r["seat_label"], f"{r['seat_label']} win share",
                               k * r["win_share"], k * r["ci_low"], k * r["ci_high"],
                               k * _se(r["ci_low"], r["ci_high"]), int(r["games"])))
    for r in seats.iter_rows(named=True):
        out.append(Measurement("seat_mean_score", r["seat_label"], f"{r['seat_label']} mean score",
                               r["mean_score"], r["score_ci_low"], r["score_ci_high"],
                               _se(r["score_ci_low"], r["score_ci_high"]), int(r["games"])))
    if has_matchups(rs):
        for r in strategy_table(rs).iter_rows(named=True):
            out.append(Measurement("strategy_win_share", r["strategy"], f"{r['strategy']} win share",
                                   k * r["win_share"], k * r["ci_low"], k * r["ci_high"],
                                   k * _se(r["ci_low"], r["ci_high"]), int(r["units"])))
    return out


def measure_run(run: str | Path) -> tuple[dict, list[Measurement]]:
    """(run.json, metrics) of one run directory."""
    from analysis import open_runs
    from simcore.rundir import read_meta

    meta = read_meta(run)
    return meta, measure(open_runs([run]))


__all__ = ["DEFAULT_TOLERANCE", "KINDS", "Kind", "Measurement", "Z95", "measure", "measure_run"]
