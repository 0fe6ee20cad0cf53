"""Measuring a run for the regression check: the checked metrics and how they are read off a run.

A metric is one :class:`Measurement` (win share per seat and per strategy, mean score per seat, each
with its 95 % interval, standard error and sample size) of a :class:`Kind` (unit, default tolerance);
:func:`measure` reads them off the analysis tables (:func:`analysis.seats.seat_table`,
:func:`analysis.matchups.strategy_table`) of a :class:`analysis.load.RunSet` and :func:`measure_run`
off a run directory. :class:`UnitMeasure` measures the same metrics batch by batch from the games a
sequential check plays (one value per unit: a game, or a deal with rotated seats), and
:class:`PairedMeasure` the paired differences of two rule sets played on the same deals;
:func:`tested_se` is the error the sequential test reads for a run's metric (a rare share's
floored, the Measurement's own left plug-in). First
module of :mod:`analysis.check`: it imports no other module of the package. May import the standard library, :mod:`analysis` and its modules and :mod:`simcore.rundir`;
the modules that read runs are imported inside :func:`measure` and :func:`measure_run`, so importing
this module for its types (as :mod:`analysis.check.decision` does) reads nothing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Sequence

import numpy as np

from analysis import stats

Z95 = stats.z_quantile(0.95)   # two-sided 95 % normal quantile (1.96): interval half-width / se


@dataclass(frozen=True)
class Kind:
    """A kind of checked metric: its unit, the word for a difference, default tolerance."""

    unit: str            # unit of value / interval / se: "%", or "score" (the game's score unit)
    diff_unit: str       # how a difference is named ("pp" for percentage points, "score")
    tolerance: float     # default accepted change, in diff_unit
    scale: float         # analysis-table value × scale = value in unit


KINDS = {
    "seat_win_share": Kind("%", "pp", 1.0, 100.0),
    "seat_mean_score": Kind("score", "score", 1.0, 1.0),
    "strategy_win_share": Kind("%", "pp", 1.0, 100.0),
    "role_win_share": Kind("%", "pp", 1.0, 100.0),     # games the role's side wins (asymmetric games)
}


def unit_of(metric: str, game: str | None = None) -> str:
    """The unit ``metric`` is measured in: "%" for win shares; for mean scores the unit the game's
    spec names (coins for Middle-Ages, guild cards for Médiévallons; :func:`analysis.load.score_unit`)."""
    from analysis.load import score_unit

    unit = KINDS[metric].unit
    return unit if unit != "score" else score_unit(game)


def diff_unit_of(metric: str, game: str | None = None) -> str:
    """How a change of ``metric`` is named: "pp" (percentage points) or the score unit; a score in
    a percentage unit ("% of own goal") changes by points of it, "pp of own goal", as the reports
    say (review s53 #6: "-0.53 % of own goal" read as a relative change)."""
    if KINDS[metric].unit == "%":
        return "pp"
    unit = unit_of(metric, game)
    return "pp" + unit[1:] if unit.startswith("%") else unit
DEFAULT_TOLERANCE = {k: v.tolerance for k, v in KINDS.items()}


@dataclass(frozen=True)
class Measurement:
    """One metric of one run, in the metric's unit (win shares in %, scores in the score unit)."""

    metric: str
    key: str
    label: str
    value: float
    ci_low: float
    ci_high: float
    se: float
    n: int
    tolerance: float | None = None   # per-metric override from a baseline file
    # paired differences only (:class:`PairedMeasure`): the units whose difference is not 0 and
    # the largest difference of one unit (in absolute value), which the test's floor of a paired
    # error reads (:func:`analysis.check.decision.paired_error`); None elsewhere
    changed: int | None = None
    largest: float | None = None
    # a share measured on units that are each one game's 0 or 1 (:func:`binary_units`, set by
    # :class:`UnitMeasure`): the test then also floors its error at the shares its hypotheses put
    # the run at (:func:`analysis.check.decision.hypothesis_error`); False elsewhere
    binary: bool = False

    @property
    def kind(self) -> Kind:
        return KINDS[self.metric]


def _se(low: float, high: float) -> float:
    """Standard error read off a 95 % interval (half-width / 1.96), as analysis.compare does."""
    return (high - low) / (2.0 * Z95)


def measure(rs, keep_copies: bool = False) -> list[Measurement]:
    """The checked metrics of a :class:`analysis.load.RunSet`.

    Seat win shares (Wilson interval) and mean scores (t interval) from
    :func:`analysis.seats.seat_table`; strategy win shares from
    :func:`analysis.matchups.strategy_table` when the run has two strategies or more (with one
    strategy its win share is exactly 1/n and says nothing); in a game with roles, the share of
    games each role's side wins (:func:`analysis.roles.role_table`). A row that repeats a row kept
    (a role's only seat, a bot on exactly one seat or one role's seats, the second role's side) is
    left out, so that a number is tested once (:func:`_copies`); ``keep_copies`` keeps them (a
    check of a run directory against a baseline written before the copies were left out matches
    the baseline's rows, whatever it holds).
    """
    from analysis.matchups import has_matchups, strategy_table
    from analysis.roles import has_roles, role_table
    from analysis.seats import seat_table

    out: list[Measurement] = []
    seats = seat_table(rs)
    k = KINDS["seat_win_share"].scale
    roles = role_table(rs) if has_roles(rs) else None
    seat_roles, copies = _copies(rs, roles)
    if keep_copies:
        copies = set()
    shown = {} if roles is None else dict(zip(roles["role"], roles["role_label"]))
    named = {s: f"Seat {s + 1} ({shown.get(r, r)})" for s, r in enumerate(seat_roles)}
    for r in seats.iter_rows(named=True):
        if ("seat_win_share", r["seat_label"]) in copies:
            continue
        out.append(Measurement("seat_win_share", r["seat_label"], f"{named.get(r['seat'], r['seat_label'])} win share",
                               k * r["win_share"], k * r["ci_low"], k * r["ci_high"],
                               k * _se(r["ci_low"], r["ci_high"]), int(r["games"])))
    for r in seats.iter_rows(named=True):
        out.append(Measurement("seat_mean_score", r["seat_label"], f"{named.get(r['seat'], r['seat_label'])} mean score",
                               r["mean_score"], r["score_ci_low"], r["score_ci_high"],
                               _se(r["score_ci_low"], r["score_ci_high"]), int(r["games"])))
    if has_matchups(rs):
        # a bot on several seats of a game, seats not rotated, is measured per game (the mean of
        # its seats' shares, what a played check measures, :func:`unit_values`: its n the games,
        # its interval Wilson's at those means' effective games), as the strategy table itself reads it
        # (review s46 #5, then s60: the table and the exports now give the same interval)
        for r in strategy_table(rs).iter_rows(named=True):
            if ("strategy_win_share", r["strategy"]) in copies:
                continue
            value, low, high, units = r["win_share"], r["ci_low"], r["ci_high"], int(r["units"])
            out.append(Measurement("strategy_win_share", r["strategy"], f"{r['strategy']} win share",
                                   k * value, k * low, k * high, k * _se(low, high), units))
    if roles is not None:
        for r in roles.iter_rows(named=True):
            if ("role_win_share", r["role"]) in copies:
                continue
            out.append(Measurement("role_win_share", r["role"], f"{r['role_label']} side win share",
                                   k * r["win_share"], k * r["ci_low"], k * r["ci_high"],
                                   k * _se(r["ci_low"], r["ci_high"]), int(r["games"])))
    return out


def _copies(rs, roles) -> tuple[list[str], set[tuple[str, str]]]:
    """(the role of every seat, [] in a game without roles; the (metric, key) rows that repeat a
    row kept). A number is tested once: review R #3, a Seigneurial check tested one number up to
    three times (Seat 1, the Seigneur side and the Seigneur's only bot) and its mirror (the
    Censitaire side: the sides' shares add up to 1 in every game), so one change gave four FAIL
    lines and the error allowance was split over the copies. Left out:

    * in a game with roles, the win share of a role's only seat (the role's side's share) and, with
      two roles, the second role's (the first's mirror);
    * in any game played without seat rotation and with one line-up, the win share of a bot that
      plays exactly one seat (its share is that seat's, game by game: review S #4, Seigneurial
      ``greedy-lord,fair-share,objective,fair-share`` tested "Seat 3 (Censitaire) win share" and
      "objective win share", 49.625 both, twice; Middle-Ages ``greedy,balanced,balanced,balanced``
      greedy's and Seat 1's) or exactly one role's seats (its share is the role's over its seats, a
      fixed multiple); and of a line-up of two bots, the second's share (the first's mirror: the
      seats' shares add up to 1 in every game). A bot on several seats that are not one role's
      (fair-share on seats 2 and 4 there), beside other bots, is the mean of those seats' shares, no
      row's copy, and is kept. The two-bot mirror holds with seat rotation as well (every game's
      shares still add up to 1), so it is left out of a rotated run too."""
    seat_roles = list(rs.spec.seat_roles(rs.n_players)) if roles is not None and rs.spec is not None else []
    copies: set[tuple[str, str]] = set()
    seats_of = ({r: {s for s, x in enumerate(seat_roles) if x == r} for r in roles["role"]}
                if seat_roles else {})
    for r, seats in seats_of.items():
        if len(seats) == 1:
            copies.add(("seat_win_share", f"Seat {next(iter(seats)) + 1}"))
    metas = rs.metas
    lineups = {tuple(m.get("strategies") or ()) for m in metas}
    if len(lineups) == 1:
        lineup = next(iter(lineups))
        if not any(m.get("rotate_seats") for m in metas):
            for bot in set(lineup):
                mine = {s for s, b in enumerate(lineup) if b == bot}
                if len(mine) == 1 or any(mine == seats for seats in seats_of.values()):
                    copies.add(("strategy_win_share", bot))
        bots = list(dict.fromkeys(lineup))
        if len(bots) == 2:
            # two bots: the second's share is the first's mirror (the seats' shares add up to 1
            # in every game: greedy,balanced,balanced,balanced's balanced is (1 − greedy's)/3),
            # with seat rotation too (review s47: tested twice, alpha split once more for nothing)
            copies.add(("strategy_win_share", bots[1]))
    if seat_roles and roles.height == 2:
        copies.add(("role_win_share", roles["role"][1]))
    return seat_roles, copies


def measure_run(run: str | Path, keep_copies: bool = False) -> tuple[dict, list[Measurement]]:
    """(run.json, metrics) of one run directory (``keep_copies``: :func:`measure`)."""
    from analysis import open_runs
    from simcore.rundir import read_meta

    meta = read_meta(run)
    return meta, measure(open_runs([run]), keep_copies=keep_copies)


def binary_units(wanted: Sequence[tuple[str, str]], strategies: Sequence[str],
                 games_per_deal: int) -> list[bool]:
    """Per (metric, key) of ``wanted``: whether :func:`unit_values` gives each unit one game's share
    of one seat or one role (0 or 1 but for a shared win), whose interval is Wilson's; not a bot's
    mean over the several seats it plays, nor any share of a deal of ``games_per_deal`` > 1 games
    (a rotated run's unit), whose interval is Wilson's at the units' means' effective games
    (:func:`analysis.stats.share_mean_interval`)."""
    if games_per_deal > 1:
        return [False] * len(wanted)
    return [metric != "strategy_win_share" or list(strategies).count(key) == 1 for metric, key in wanted]


def unit_values(players: dict, n_players: int, games_per_deal: int, wanted: Sequence[tuple[str, str]],
                strategies: Sequence[str]) -> np.ndarray:
    """Per-unit values of the (metric, key) pairs ``wanted``, in each metric's unit: a matrix with one
    row per unit (a game, or a deal of ``games_per_deal`` games) and one column per metric.

    ``players`` holds a chunk's player columns (row = game × seat, as a game adapter returns them):
    ``win_share``, ``score`` and, for strategy metrics, ``strategy``, for role metrics ``role``. A
    strategy's value in a game is the mean win share of its seats in that game; a role's, the sum of
    its seats' win shares (the share of the game its side won)."""
    P = n_players
    w = np.asarray(players["win_share"], dtype=np.float64).reshape(-1, P)
    G = w.shape[0]
    cols = []
    strat = None
    for metric, key in wanted:
        k = KINDS[metric].scale
        if metric in ("seat_win_share", "seat_mean_score"):
            seat = int(key.removeprefix("Seat ")) - 1
            if metric == "seat_win_share":
                cols.append(k * w[:, seat])
            else:
                cols.append(np.asarray(players["score"], dtype=np.float64).reshape(-1, P)[:, seat])
        elif metric == "strategy_win_share":
            if strat is None:
                raw = players["strategy"]
                raw = raw.to_numpy(zero_copy_only=False) if hasattr(raw, "to_numpy") else np.asarray(raw)
                strat = np.asarray(raw, dtype=object).reshape(-1, P)
            mine = strat == key
            with np.errstate(invalid="ignore", divide="ignore"):
                cols.append(k * (w * mine).sum(axis=1) / mine.sum(axis=1))
        elif metric == "role_win_share":
            raw = players["role"]
            raw = raw.to_numpy(zero_copy_only=False) if hasattr(raw, "to_numpy") else np.asarray(raw)
            roles = np.asarray(raw, dtype=object).reshape(-1, P)
            cols.append(k * (w * (roles == key)).sum(axis=1))
        else:
            raise ValueError(f"unknown metric {metric}")
    x = np.column_stack(cols) if cols else np.zeros((G, 0))
    if games_per_deal > 1:
        x = x.reshape(G // games_per_deal, games_per_deal, -1).mean(axis=1)
    return x


FEW_UNITS = 5
"""Below this many units won (or not won) a share's plug-in standard error √(p̂(1 − p̂)/n) is not
trusted by the test: with every unit of a first batch one way it is 0, and the test then read the
change on the baseline's error alone (statistics audit R #3: a 3% share, no change, looks every
100 games: the check FAILED 5.65% of the time, above its α of 5%, from first batches without a
win). :func:`tested_se` then takes at least the error of the share smoothed by half a unit each
way, (x + ½) / (n + 1) (Jeffreys' prior)."""


def tested_se(m: Measurement) -> float:
    """The standard error the sequential test uses for the run's ``m``: its own ``m.se``, but for a
    win share with fewer than :data:`FEW_UNITS` units won or not won at least the error of the
    share smoothed by half a unit each way (:data:`FEW_UNITS`), read off ``m.value`` and ``m.n``.

    The floor is the test's alone (:meth:`analysis.check.decision.SequentialTest.look` calls this),
    not the measurement's: ``Measurement.se`` stays the share's plug-in error, and no interval is
    printed from the floor (review S #3: the floored error of 0 wins in 100 games, 0.70 pp, put
    into the Measurement and printed as diff ± 1.96·se, read "change −1.82 to +0.94 pp" from a
    baseline of 0.44%: below what is possible, and short of the +3.3 pp the run's own Wilson
    interval allows; a share's change interval is Newcombe's from the two shares' intervals,
    :func:`analysis.check.presentation.diff_interval`). Paired differences (not shares) and
    scores keep their own error; so does a share with no unit (n = 0)."""
    kind = KINDS[m.metric]
    se = m.se
    if kind.unit != "%" or not m.n > 0:
        return se
    won = m.value / kind.scale * m.n
    if min(won, m.n - won) >= FEW_UNITS:
        return se
    smooth = (won + 0.5) / (m.n + 1.0)
    floor = kind.scale * math.sqrt(smooth * (1.0 - smooth) / m.n)
    return floor if not se >= floor else se     # a nan error (one unit) takes the floor too


class UnitMeasure:
    """The checked metrics of a growing sample, batch by batch: per metric the count of units, their
    mean and centred sum of squares (:class:`analysis.stats.Moments`, merged batch after batch so
    the result does not depend on how a batch was cut into chunks).

    A win share's own 95 % interval is Wilson's (:func:`analysis.stats.wilson`, the share of its
    units won, as the baseline's intervals are: not a symmetric mean ± 1.96 se, which at 22 wins
    in 1,000 games read 1.3–3.1 % against Wilson's 1.5–3.3 %); a mean score's is mean ± 1.96 se.
    The standard error is the units' own either way (for a share the plug-in √(p̂(1 − p̂)/n),
    0 for a first batch without a win); the test floors a share's at a smoothed share's while it
    has fewer than :data:`FEW_UNITS` units won or not won (:func:`tested_se`), not here, so no
    interval is drawn from that floor. ``differences``: the values are
    paired differences (:class:`PairedMeasure`), not shares, so every interval is symmetric."""

    def __init__(self, wanted: Sequence[tuple[str, str]], labels: Sequence[str],
                 differences: bool = False, binary: Sequence[bool] | None = None) -> None:
        self.wanted = list(wanted)
        self.labels = list(labels)
        self.moments = stats.Moments.zeros(len(self.wanted))
        self.games = 0
        self.differences = differences
        # per metric: is each unit's value one game's 0-or-1 share (a seat, a role, a bot on one
        # seat)? Else (a bot on several seats: their mean; a deal of rotated games: its mean) the
        # share's interval is Wilson's at the units' effective games (stats.share_mean_interval), as
    # the baseline's (review s47:
        # Wilson over 7,000 games read 24.5-26.5% where the games give 24.9-26.1%)
        self.binary = list(binary) if binary is not None else [True] * len(self.wanted)

    def add(self, values: np.ndarray, games: int) -> None:
        """Add one batch: ``values`` from :func:`unit_values` (all chunks of the batch, in order)."""
        self.moments = self.moments.merge(stats.Moments.of_columns(values))
        self.games += int(games)

    def measurements(self) -> list[Measurement]:
        mean, sd = self.moments.mean_sd()
        n = self.moments.n
        out = []
        for i, ((metric, key), label) in enumerate(zip(self.wanted, self.labels)):
            se = float(sd[i] / np.sqrt(n[i])) if n[i] > 1 else float("nan")
            low, high = float(mean[i] - Z95 * se), float(mean[i] + Z95 * se)
            kind = KINDS[metric]
            if kind.unit == "%" and not self.differences and n[i] > 0:
                if self.binary[i]:
                    lo, hi = stats.wilson(mean[i] / kind.scale * n[i], n[i])
                else:
                    lo, hi = stats.share_mean_interval(mean[i] / kind.scale, sd[i] / kind.scale, n[i])
                low, high = float(lo) * kind.scale, float(hi) * kind.scale
            out.append(Measurement(metric, key, label, float(mean[i]), low, high, se, int(n[i]),
                                   binary=bool(kind.unit == "%" and not self.differences
                                               and self.binary[i])))
        return out


class PairedMeasure:
    """Paired differences new − old of every checked metric, unit by unit (the same deals played
    under two rule sets), with the two sides' own means for display."""

    def __init__(self, wanted: Sequence[tuple[str, str]], labels: Sequence[str],
                 binary: Sequence[bool] | None = None) -> None:
        self.new = UnitMeasure(wanted, labels, binary=binary)
        self.old = UnitMeasure(wanted, labels, binary=binary)
        self.diff = UnitMeasure(wanted, labels, differences=True)
        self.changed = np.zeros(len(self.diff.wanted), dtype=np.int64)
        self.largest = np.zeros(len(self.diff.wanted))

    @property
    def games(self) -> int:
        return self.new.games

    def add(self, new: np.ndarray, old: np.ndarray, games: int) -> None:
        self.new.add(new, games)
        self.old.add(old, games)
        d = new - old
        self.diff.add(d, games)
        # the units the change touched, per metric (a nan unit, a bot absent from a game, is none)
        if d.size:
            seen = np.abs(np.nan_to_num(d, nan=0.0))
            self.changed += (seen != 0).sum(axis=0).astype(np.int64)
            self.largest = np.maximum(self.largest, seen.max(axis=0))

    def differences(self) -> list[Measurement]:
        """The paired differences new − old, each with the units whose difference is not 0 and the
        largest difference of one unit (``changed``, ``largest``: the test floors the error of a
        difference that few units carry, :func:`analysis.check.decision.paired_error`)."""
        return [replace(m, changed=int(k), largest=float(x))
                for m, k, x in zip(self.diff.measurements(), self.changed, self.largest)]


__all__ = ["DEFAULT_TOLERANCE", "FEW_UNITS", "KINDS", "Kind", "Measurement", "PairedMeasure", "UnitMeasure", "Z95",
           "measure", "measure_run", "tested_se", "unit_values"]
