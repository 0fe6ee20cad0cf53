"""The statistical decision of the regression check: pure functions of numbers, no I/O.

The check is a **sequential likelihood-ratio test** on a normal approximation, one per metric and
direction, with fishtest's indifference zone (H0 at the tolerance, H1 at twice it) but Ville's
bounds, not the Wald bounds fishtest stops at (below, and docs/ci.md): :class:`SequentialTest` looks at the metrics
after every batch of games and decides each metric *fail* (shown to have moved beyond its
tolerance), *pass* (no move of twice the tolerance, at error β) or leaves it open; the check stops
as soon as one metric fails or every metric passes, and is *undecided* if the maximum number of
games comes first. :func:`compare` is one look at a finished run. :class:`MetricResult` and
:class:`CheckResult` carry the verdicts, the exit code and what to say about them;
:func:`check_configuration`, :func:`check_seed_differs` and :func:`check_notes` judge a run's
run.json (already read, a dict) against a baseline; :func:`plan_games` is the power calculation
behind the default maximum number of games (:class:`GamePlan`: what the maximum is made of and which
metrics the baseline's own error limits, :func:`limited_note`; a baseline too small to pass at all
is :class:`BaselineTooSmall`, a one-line :class:`UsageError`); :func:`metric_names` says labels
together; :func:`fixed_n_verdict` is the fixed-size test of the same hypotheses (benchmarks);
:func:`shifted` moves a baseline value (tests, benchmarks). Nothing here reads or writes a file.
May import numpy, the standard library, :mod:`analysis.stats`, :mod:`simcore.errors`, the games'
registry (:mod:`simcore.games`: :func:`game_title`, a game named by its title in a sentence) and the metric
vocabulary of :mod:`analysis.check.measure` (:class:`Kind`, :data:`KINDS`, :class:`Measurement`,
:func:`~analysis.check.measure.diff_unit_of`: a unit named in an error;
:func:`~analysis.check.measure.tested_se`: the error a rare share is tested with);
never :mod:`analysis.check.baseline` (a :class:`Baseline` is only read through its attributes; the
name is imported for annotations alone), nor :mod:`analysis.check.presentation`, nor any module
that reads or writes files.

**The test of one metric.** d is the change (run − baseline, or the mean paired difference new −
old rules on the same deals) with standard error s (√(s_run² + s_base²) against a baseline, whose
own error stays in every look; s_run of a win share with fewer than
:data:`~analysis.check.measure.FEW_UNITS` units won or not won is floored at a smoothed share's,
:func:`~analysis.check.measure.tested_se`, and every s_run pooled with the baseline's per-unit
error, :func:`run_error`, and, per direction, never below the Bernoulli error of the shares that
direction's hypotheses put a share of single games at, :func:`hypothesis_error`; a paired difference few units carry is floored, :func:`paired_error`),
and information I = 1/s². For the upward direction, H0: Δ = δ (the
tolerance) against H1: Δ = 2δ; the log-likelihood ratio of the normal model is
LLR⁺ = I · δ · (d − 1.5 δ), and LLR⁻ = I · δ · (−d − 1.5 δ) for the downward one. A direction
*rejects* H0 when its LLR reaches log(2m/α) (m metrics) and *accepts* it when its LLR falls to
log β; each direction stops at its first crossing. The metric fails when a direction rejects,
passes when both accepted. Because d after n games has the joint law of a Brownian motion in the
information scale (also with the baseline's fixed error inside every d), the LLR is a likelihood
ratio martingale and Ville's inequality bounds the errors whatever the stopping: P(fail | |Δ| ≤ δ)
≤ α/(2m) per direction, so ≤ α for the whole check (union over the 2m directions); P(pass | Δ ≥
2δ) ≤ β for that metric. Between δ and 2δ (the indifference zone, as in fishtest between elo0 and
elo1) either answer is acceptable. That holds for a normal d of known error; the errors are
estimated from the games, and d is near normal only over enough of them, so a look reads at least
:data:`MIN_UNITS` units and the errors are floored (review s46 #1: looks of one or two games broke
both rates; measured there).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Protocol, Sequence

from analysis import stats
from analysis.check.measure import KINDS, Kind, Measurement, diff_unit_of, tested_se
from simcore.errors import UsageError


class Baseline(Protocol):
    """What a decision reads of a baseline: :class:`analysis.check.baseline.Baseline` has it. A
    Protocol, not an import, so that baseline (which imports this module) and decision form no
    import cycle, not even a type-only one."""

    game: str
    players: int
    strategies: list[str]
    rotate_seats: bool
    engine: str
    seed: int
    rules: str
    rules_sha256: str
    metrics: list[Measurement]

DEFAULT_ALPHA = 0.05
DEFAULT_BETA = 0.05
DETECT = 2.0           # the change that must be caught with probability 1 − β: DETECT × tolerance
MAX_GAMES_FACTOR = 2.0  # default maximum = this × the games of the fixed-size test (plan_games)
ON_INCONCLUSIVE = ("pass", "fail")   # read from format-1 baseline files only (no longer used)
VERDICTS = ("pass", "fail", "undecided")


@dataclass(frozen=True)
class MetricResult:
    """The verdict on one metric at the last look. Values in the metric's unit.

    ``base*`` describe the baseline value (in paired mode: the old rules measured on the same deals),
    ``value``/``low``/``high``/``se``/``n`` this run's (``se`` its own, plug-in error),
    ``diff``/``diff_se`` the change tested (paired: the mean paired difference and its error;
    against a baseline ``diff_se`` is √(tested_se(run)² + s_base²), the error the test read, with a
    rare share's floor in it: not an interval to print, see
    :func:`analysis.check.presentation.diff_interval`). ``llr_up``/``llr_down`` are the two
    directions' log-likelihood ratios (frozen at their first crossing), ``fail_bound`` = log(2m/α),
    ``pass_bound`` = log β; ``decided_games`` the games played when the verdict was reached."""

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
    llr_up: float
    llr_down: float
    fail_bound: float
    pass_bound: float
    verdict: str          # "pass", "fail" or "undecided"
    decided_games: int | None = None
    # paired mode: the mean paired difference's own standard error (``diff_se`` is the error the
    # test reads, floored while few units changed: decision.paired_error), from which the
    # factor of a rare share is read (analysis.compare.paired_factor_interval); None elsewhere
    pair_se: float | None = None

    @property
    def kind(self) -> Kind:
        return KINDS[self.metric]


MIN_UNITS = 30
"""The fewest units (games, or deals with rotated seats) a check reads at a look: ``--batch``,
``[check] batch``, ``--games`` and a RUN below it are refused (one line, exit 2, before any game;
paired, :data:`MIN_PAIRED_UNITS`).

The test reads each metric's change as normal with a standard error estimated from the games
themselves; over a handful of games neither holds (one game has no error at all, a few give an
error that is often far too small), and looks every game or two failed identical rules and passed
a change of ten times the tolerance (review s46 #1). Measured on real Middle-Ages games resampled
into checks look by look as :mod:`analysis.check.play` makes them, against a baseline of 20,000
games, with the test as it was (no floors): identical rules FAILED 100/100 checks at looks of 1
game, 29/100 at 2, 3/100 at 3, 1/100 at 5 and 0/100 at 10, 20, 30, 50 and 100; paired, a change of
every seat's mean score by about ten times its tolerance (an event paying 40 coins a tile instead
of 3) PASSED 76/100 at 1, 64/100 at 2, 47/100 at 3, 18/100 at 5, 59/1,000 at 10, 3/1,000 at 20
and 0/1,000 at 30 and 50. 30 is the smallest look at which both held without the floors; with
them (:func:`run_error`, :func:`paired_error`) identical rules failed 0 of 40 checks at looks of 1,
2, 3, 5 and 10 games and the change passed 0 of 200 at 1 to 30."""

MIN_PAIRED_UNITS = 500
"""The fewest units a look of paired mode reads (``--against-rules``; :data:`MIN_UNITS`
otherwise). A paired difference is mostly exact zeros where a change touches few games, and a look
that happened to see none of them reads an error near 0; a change of twice the tolerance carried by
a few percent of the games then passes more often than β at small looks, floors or not (measured
on synthetic games, 200 checks each, with the floors of :func:`paired_error`: carried by 3% of the
games, 14.5% passed at looks of 30 units, 8% at 100, 2.5% at 200, 1.5% at 500, 1% at 1,000; by
1%, 56%, 40%, 16.5%, 3.5% and 1%; by 10% or more, at most 2% from 30 on). 500 is the smallest look
at which each held β (5%); the default look, a fiftieth of the maximum and at least 1,000 games,
is as large or larger. A change carried by fewer games still can pass unseen at the first looks
(a change no game of the look has shown is invisible to any test of those games)."""

#: One-sided 95 % upper limits of a Poisson count of k = 0 … 29 events, ½ χ²(0.95; 2k + 2): how
#: many units a change may touch while k were seen touched (:func:`paired_error`).
POISSON_UPPER = (2.9957, 4.7439, 6.2958, 7.7537, 9.1535, 10.513, 11.8424, 13.1481, 14.4346, 15.7052,
                 16.9622, 18.2075, 19.4426, 20.6686, 21.8865, 23.0971, 24.3012, 25.4992, 26.6918,
                 27.8792, 29.062, 30.2404, 31.4148, 32.5854, 33.7524, 34.9161, 36.0766, 37.2342,
                 38.3889, 39.541)
#: Below this many units that changed, a paired difference's error is floored (:func:`paired_error`).
FEW_CHANGED = len(POISSON_UPPER)


def llr(d: float, se: float, tol: float) -> tuple[float, float]:
    """(LLR⁺, LLR⁻): log-likelihood ratios of Δ = ±2δ against Δ = ±δ for a normal estimate d ± se.

    An error that is not a positive number (nan: one unit; 0: no unit varied) is no information,
    not certainty: (0, 0), no bound crossed (review s46 #1: a first look of one game, or a paired
    batch the change never touched, crossed a bound at once). :meth:`SequentialTest.look` floors
    the errors it reads (:func:`run_error`, :func:`paired_error`) so that a metric that varies
    never reaches here with 0; a metric that never varied in at least :data:`MIN_UNITS` units is
    read exactly there (:func:`exact_llr`)."""
    if not (se > 0 and math.isfinite(se)):
        return 0.0, 0.0
    up_mid, down_mid = d - 1.5 * tol, -d - 1.5 * tol
    info = 1.0 / (se * se)
    return info * tol * up_mid, info * tol * down_mid


def exact_llr(d: float, tol: float) -> tuple[float, float]:
    """The LLRs of a change measured without error (a metric every unit of which had one value, in
    the baseline and in the run): ±∞ by the side of 1.5δ the change lies on, 0 on it."""
    sign = lambda x: math.copysign(math.inf, x) if x != 0 else 0.0  # noqa: E731
    return sign(d - 1.5 * tol), sign(-d - 1.5 * tol)


PRIOR_UNITS = MIN_UNITS
"""How many of the run's own units the baseline's per-unit variance counts as in the error the
test reads for the run (:func:`run_error`): 30, the fewest a look reads."""


def run_error(b: Measurement, r: Measurement, base_units: float | None = None) -> float:
    """The error of the run's ``r`` the test reads against the baseline's ``b``: the run's
    per-unit variance (its own, :func:`~analysis.check.measure.tested_se`, a rare share's floored)
    pooled with the baseline's, which counts as :data:`PRIOR_UNITS` units of the run,
    s² = (30 · s_b² + (n − 1) · s_r²) / (30 + n − 1), over the run's n units: √(s² / n), and never
    below the run's own error (so only ever raised: a rare share keeps its floor). s_b² is
    b.se² · U_b, ``base_units`` U_b being the baseline's units in the run's unit (games, or deals:
    the baseline's games over the games of a deal); None: ``b.n``, for a run measured as the
    baseline was (a RUN directory).

    Review s46 #1: a run's plug-in error is nan after one unit and often far too small after a
    few, and read as exact it failed identical rules at once. Pooled, one unit is read on the
    baseline's variance (what an unchanged configuration has), a handful of units mostly on it,
    and thousands on their own (30 of 6,000: half a percent of the weight), so the committed
    baseline's check still decides where it did (a floor at the baseline's whole error, tried
    first, moved it from 6,000 to 9,000 games); a change that makes a metric vary less moves the
    pooled variance down as its units accrue. A larger error only makes the test more careful (a
    smaller information scales both LLRs down: Ville's bounds still hold). (A baseline whose every
    unit was alike, s_b = 0, adds nothing: the run's own error.) A bot on several seats of a
    baseline recorded over player rows brings its rows' variance per seat, above its variance per
    game (its seats' shares are negatively correlated): careful, not bold."""
    own = tested_se(r)
    n = r.n
    units = b.n if base_units is None else base_units
    if not (b.se > 0 and math.isfinite(b.se) and units > 0 and n > 0):
        return own
    prior = b.se * b.se * units                               # the baseline's per-unit variance
    if not (n > 1 and own == own and math.isfinite(own)):     # one unit: no variance of its own
        return math.sqrt(prior / n)
    pooled = (PRIOR_UNITS * prior + (n - 1) * own * own * n) / (PRIOR_UNITS + n - 1)
    return max(own, math.sqrt(pooled / n))     # never below its own (a rare share's floor kept)


def hypothesis_error(b: Measurement, r: Measurement, tol: float, direction: int) -> float:
    """A floor of the run's error for a share whose units are single games (``r.binary``), for
    one direction of the test (+1 upward, −1 downward): the Bernoulli error √(p(1 − p)/n) of the
    larger variance of the two shares that direction's hypotheses put the run at, p = b + δ and
    b + 2δ upward (b − δ and b − 2δ downward; clipped to [0, 1]), over the run's n units; 0
    elsewhere (a deal's mean of rotated games, a bot's mean over several seats, a difference).

    Review s53 #1: the plug-in error √(p̂(1 − p̂)/n) of a rare share is tiny when an early look
    happens to see few wins, and the normal likelihood ratio then accepts "no change of 2δ" at once
    (0 wins in 100 games: error 0.70 pp, LLR −3.5, past log β = −3.0, where the exact binomial
    ratio of those games is −0.97): a Seigneur's 0.4% share moved by twice its tolerance passed
    in 15-19% of checks looking every 30-100 games, a 2% share in 10%, against the β = 5%
    promised. The variance at a direction's hypotheses (a score test's) does not shrink with an
    unlucky look; a larger error only makes the test more careful (the LLRs scaled down), so α and
    β still hold, at the cost of more games for a rare share. A share near 25% is barely touched:
    p(1 − p) is flat there, and the direction away from ½ keeps its plug-in error."""
    if not (r.binary and r.n > 0 and tol > 0 and b.value == b.value):
        return 0.0
    scale = b.kind.scale
    worst = 0.0
    for k in (1.0, DETECT):
        p = min(max((b.value + direction * k * tol) / scale, 0.0), 1.0)
        worst = max(worst, p * (1.0 - p))
    return scale * math.sqrt(worst / r.n)


def paired_error(old: Measurement, new: Measurement, diff: Measurement) -> float:
    """The error of a paired difference the test reads: its own, but while fewer than
    :data:`FEW_CHANGED` (30) units changed (``diff.changed``, k) at least the error of a difference
    carried by as many units as a change may touch when k were seen touched (U(k),
    :data:`POISSON_UPPER`: 3.0 when none was), each differing as much as two independent plays of
    the unit do (the two sides' per-unit variances added) or as the largest difference seen
    (``diff.largest``), whichever is more: √(max(s_old² + s_new², largest²) · U(k)) / n.

    A difference few units carry is far from normal (mostly exact zeros, a few large values), and
    its own error is small exactly when the look happened to see few of them: measured on a
    change of twice the tolerance carried by 3% of the games (+133 coins each, synthetic games),
    a floor at 5 units changed and the two sides' variances alone passed it 26% of the time at
    looks of 30 games and 6.5% at 500; at 30 units and the largest difference, 14.5% and 1.5%
    (paired looks read at least :data:`MIN_PAIRED_UNITS` units, measured there).

    Review s46 #1: a paired batch that the change never touched has differences of exactly 0, an
    error of 0, and passed at once a change of ten times the tolerance that the next batch would
    have shown. With the floor a change must have been missed by many units before it passes:
    identical rules (no unit ever changes) still pass at the first look of a thousand games (the
    floor is then s·√6/n: 0.1 pp for a win share, a tenth of its 1 pp tolerance), while looks of a
    few units do not.
    ``diff.changed`` None (a difference measured elsewhere): no unit changed when the difference
    is 0 with no error, every unit when it has an error or is not 0."""
    own, n = diff.se, diff.n
    if not n >= 1:
        return own
    k = diff.changed
    if k is None:
        k = 0 if (diff.value == 0 and not own > 0) else n
    if k >= FEW_CHANGED:
        return own
    var = sum(m.se * m.se * m.n for m in (old, new) if m.n > 1 and m.se == m.se)   # per-unit s²
    if diff.largest is not None and diff.largest == diff.largest:
        var = max(var, diff.largest * diff.largest)
    floor = math.sqrt(var * POISSON_UPPER[int(k)]) / n
    return floor if not own >= floor else own


def _bounds(alpha: float, beta: float, m: int) -> tuple[float, float]:
    return math.log(2 * max(m, 1) / alpha), math.log(beta)


class SequentialTest:
    """The SPRT of every metric across looks (see the module docstring). Feed it one look at a time
    with :meth:`look`; :attr:`verdict` is "fail" as soon as a metric fails, "pass" once every metric
    passed, else "undecided"."""

    def __init__(self, n_metrics: int, alpha: float = DEFAULT_ALPHA, beta: float = DEFAULT_BETA) -> None:
        if not 0 < alpha < 0.5 or not 0 < beta < 0.5:
            raise UsageError(f"alpha {alpha} and beta {beta}: both must be between 0 and 0.5")
        self.m = n_metrics
        self.alpha, self.beta = alpha, beta
        self.fail_bound, self.pass_bound = _bounds(alpha, beta, n_metrics)
        self.state: list[list[str]] = [["open", "open"] for _ in range(n_metrics)]
        self.frozen: list[list[float | None]] = [[None, None] for _ in range(n_metrics)]
        self.decided: list[int | None] = [None] * n_metrics
        self.results: list[MetricResult] = []
        self.looks: list[tuple[int, int, int, int]] = []   # (games, failed, passed, open)

    def _metric_verdict(self, i: int) -> str:
        st = self.state[i]
        if "reject" in st:
            return "fail"
        return "pass" if st == ["accept", "accept"] else "undecided"

    def look(self, baseline: Sequence[Measurement], run: Sequence[Measurement], tolerances: Sequence[float],
             games: int, diff: Sequence[Measurement] | None = None,
             base_units: float | None = None) -> list[MetricResult]:
        """One look after ``games`` games. ``baseline[i]`` is matched with the run metric of the same
        (metric, key); ``diff`` (paired mode) gives the paired differences, whose own error is the
        whole error (the ``baseline`` then holds the old rules' values on the same deals).
        ``base_units``: the baseline's units (games, or deals) when the run's metrics are measured
        per unit of played games (:func:`run_error`). The errors read are floored
        (:func:`run_error`, :func:`paired_error`): a nan or 0 error is never certainty."""
        if len(baseline) != self.m:
            raise ValueError("one baseline metric per tested metric")
        by_key = {(m.metric, m.key): m for m in run}
        by_diff = {(m.metric, m.key): m for m in diff} if diff is not None else None
        out = []
        for i, (b, tol) in enumerate(zip(baseline, tolerances)):
            pair_se = None
            r = by_key.get((b.metric, b.key))
            if r is None:
                # (review C #8, session 42: "the run has no seat_win_share for …", an internal name)
                raise UsageError(f"{b.label}: the games checked have no {b.key!r} (the baseline "
                                 "has; were they played with other players or strategies?)")
            if not tol > 0:
                raise UsageError(f"{b.label}: tolerance {tol:g}: the sequential check needs a tolerance > 0")
            if by_diff is not None:
                dm = by_diff[(b.metric, b.key)]
                d, se, units = dm.value, paired_error(b, r, dm), dm.n
                pair_se = float(dm.se)
            else:
                # a rare share's run error floored for the test alone (tested_se: review S #3), and
                # every run error pooled with the baseline's per-unit one (run_error: s46 #1)
                d, se, units = r.value - b.value, math.hypot(run_error(b, r, base_units), b.se), r.n
            # 0 left after the floors: a metric that never varied, in the baseline and in at least
            # MIN_UNITS units of the run (or a paired difference every unit of which is the same)
            ups = exact_llr(d, tol) if se == 0 and units >= MIN_UNITS else llr(d, se, tol)
            if by_diff is None and r.binary and not (se == 0 and units >= MIN_UNITS):
                # each direction reads a share of single games with at least the error its own
                # hypotheses give it (hypothesis_error: review s53 #1, a rare share passed twice
                # its tolerance in 15-19% of checks)
                own = run_error(b, r, base_units)
                ups = tuple(llr(d, math.hypot(max(own, hypothesis_error(b, r, tol, sign)), b.se),
                                tol)[j] for j, sign in ((0, 1), (1, -1)))
            for j in (0, 1):
                if self.state[i][j] != "open":
                    continue
                if ups[j] >= self.fail_bound:
                    self.state[i][j], self.frozen[i][j] = "reject", ups[j]
                elif ups[j] <= self.pass_bound:
                    self.state[i][j], self.frozen[i][j] = "accept", ups[j]
            verdict = self._metric_verdict(i)
            if verdict != "undecided" and self.decided[i] is None:
                self.decided[i] = int(games)
            shown = [self.frozen[i][j] if self.frozen[i][j] is not None else ups[j] for j in (0, 1)]
            out.append(MetricResult(b.metric, b.key, b.label, b.value, b.ci_low, b.ci_high, b.se, b.n,
                                    r.value, r.ci_low, r.ci_high, r.se, r.n, d, se, float(tol),
                                    float(shown[0]), float(shown[1]), self.fail_bound, self.pass_bound,
                                    verdict, self.decided[i], pair_se))
        self.results = out
        v = [r.verdict for r in out]
        self.looks.append((int(games), v.count("fail"), v.count("pass"), v.count("undecided")))
        return out

    @property
    def verdict(self) -> str:
        v = [r.verdict for r in self.results]
        if "fail" in v:
            return "fail"
        return "pass" if v and all(x == "pass" for x in v) else "undecided"


def compare(baseline: Sequence[Measurement], run: Sequence[Measurement], tolerances: Sequence[float],
            alpha: float = DEFAULT_ALPHA, beta: float = DEFAULT_BETA) -> list[MetricResult]:
    """One look of the sequential test at a finished run (the check of an existing run directory):
    the same bounds, so the same error guarantees (Ville's inequality holds at any stopping time,
    a fixed one included). Raises :class:`UsageError` when the run lacks a baseline metric."""
    test = SequentialTest(len(baseline), alpha, beta)
    n = max((m.n for m in run), default=0)
    return test.look(baseline, run, tolerances, n)


def fixed_n_verdict(d: float, se: float, tol: float, alpha: float, m: int) -> str:
    """The fixed-size test of the same hypotheses (benchmarks): fail when a one-sided z test rejects
    |Δ| ≤ δ at level α/(2m) in either direction, else pass (no third answer)."""
    z = stats.z_quantile(1 - alpha / m)   # two-sided level 1 − α/m = one-sided α/(2m)
    return "fail" if se > 0 and (abs(d) - tol) / se > z else ("fail" if se == 0 and abs(d) > tol else "pass")


def fixed_information(tol: float, alpha: float, beta: float, m: int) -> float:
    """Information 1/s² at which the fixed-size test rejects at Δ = δ with probability α/(2m) and
    at Δ = DETECT·δ with probability 1 − β: ((z₁₋α/₂ₘ + z₁₋β) / ((DETECT − 1)·δ))²."""
    za = stats.z_quantile(1 - alpha / m)
    zb = stats.z_quantile(1 - 2 * beta)
    return ((za + zb) / ((DETECT - 1.0) * tol)) ** 2


def pass_information(tol: float, beta: float, m: int) -> float:
    """Information at which an unchanged configuration (Δ = 0) has crossed every pass bound with
    probability 1 − β: with x = δ√I, both LLRs of a metric are below log β when |d| < 1.5δ −
    |log β|/(Iδ), so 1.5x − |log β|/x = z₁₋β/₂ₘ."""
    z = stats.z_quantile(1 - beta / m)
    lb = abs(math.log(beta))
    x = (z + math.sqrt(z * z + 6.0 * lb)) / 3.0
    return (x / tol) ** 2


def games_for_information(info: float, sd: float, base_se: float) -> float:
    """Games whose run error s_r = sd/√n gives 1/(s_r² + s_base²) = info (inf when the baseline's
    own error alone is too large)."""
    room = 1.0 / info - base_se * base_se
    return sd * sd / room if room > 0 else math.inf


@dataclass(frozen=True)
class GamePlan:
    """The power calculation of :func:`plan_games`."""

    max_games: int                  # default maximum of a check
    fixed_games: int | None         # games of the fixed-size test with the same α, β (None: unreachable)
    limited: list[str]              # labels of metrics whose baseline error caps the power at 2δ
    # what max_games is made of: MAX_GAMES_FACTOR × basis_games, rounded up to a thousand, where
    # basis_games is the largest metric's need: a fixed-size test's games, or (basis_limited) the
    # games at which an unchanged configuration passes a metric in ``limited``
    basis_games: int = 0
    basis_limited: bool = False
    # games a baseline needs so that no metric is limited (its own error half the room the
    # fixed-size test leaves, for every metric in ``limited``), in thousands; None: none limited
    baseline_games: int | None = None


class BaselineTooSmall(UsageError):
    """A baseline whose own standard error leaves no room for an unchanged configuration to pass
    (:func:`plan_games`): one line, with what a caller rewording it needs (``label``, ``se`` in
    the metric's difference unit, ``n`` its games, ``tolerance``, ``games_hint`` the baseline
    games that would do: its error half the room; ``metric`` its kind)."""

    def __init__(self, message: str, *, metric: str, label: str, se: float, n: int,
                 tolerance: float, games_hint: int, counted: str | None = None) -> None:
        super().__init__(message)
        self.metric, self.label, self.se, self.n, self.tolerance = metric, label, se, n, tolerance
        self.games_hint = games_hint
        # what n counts, in games: "14,000 games", or "3,500 deals of 14,000 games" (a strategy's
        # share over rotated seats), "40,000 player rows of 20,000 games" (a bot on two seats)
        self.counted = counted if counted is not None else f"{n:,} games"


def games_per_unit(b: Measurement, games: int | None) -> float:
    """Games per unit of ``b.n`` in a baseline of ``games`` games (review s46 #5): 1 for a seat's or
    a role's metric (n counts games), the games of a deal for a strategy's share over rotated
    seats (n counts deals), 1/k for a bot on k seats measured over its player rows; 1 when
    ``games`` is not known. The power calculation's figures are turned into games with it."""
    if not games or not b.n > 0:
        return 1.0
    return float(games) / float(b.n)


def counted(b: Measurement, games: int | None) -> str:
    """What ``b.n`` counts, said in games: "14,000 games", "3,500 deals of 14,000 games",
    "40,000 player rows of 20,000 games"."""
    g = games_per_unit(b, games)
    if abs(g - 1.0) < 1e-9 or not games:
        return f"{b.n:,} games"
    return f"{b.n:,} {'deals' if g > 1 else 'player rows'} of {int(games):,} games"


def plan_games(baseline: Sequence[Measurement], tolerances: Sequence[float], alpha: float = DEFAULT_ALPHA,
               beta: float = DEFAULT_BETA, paired: bool = False, game: str | None = None,
               games: int | None = None) -> GamePlan:
    """The default maximum number of games of a check, from a power calculation on the baseline.

    ``games``: the baseline's games. Every figure of the plan is in games: a metric whose ``n``
    counts other units (deals of rotated seats, player rows of a bot on several seats) is turned
    into games by :func:`games_per_unit` (review s46 #5: a rotated baseline of 14,000 games, 3,500
    deals, was told to record "about 13,705 games"); without it, ``n`` is taken for games.

    For every metric, the per-unit standard deviation is the baseline's se·√n; the fixed-size test
    of the same hypotheses needs information :func:`fixed_information` (error α at the tolerance,
    power 1 − β at twice it), i.e. :func:`games_for_information` games given the baseline's own error
    (none in paired mode). The default maximum is :data:`MAX_GAMES_FACTOR` times the largest of
    those (the SPRT stops long before on clear cases; the margin keeps cases near 1.5δ, where it
    is slowest, from ending undecided). Where the baseline's error makes that power unreachable,
    the metric asks instead for the games at which an unchanged configuration passes with
    probability 1 − β (:func:`pass_information`), and is listed in ``limited``; if even that is
    unreachable, :class:`UsageError` (the baseline is too small for the tolerance), its standard
    error and tolerance in ``game``'s unit (pp, coins: review P #9 read "±0.02" with no unit)."""
    m = len(baseline)
    need, fixed, limited, lift = [], [], [], []
    for b, tol in zip(baseline, tolerances):
        if not tol > 0:
            raise UsageError(f"{b.label}: tolerance {tol:g}: the sequential check needs a tolerance > 0")
        sd = b.se * math.sqrt(max(b.n, 1))
        g = games_per_unit(b, games)        # games per unit of n (the check's units are the same)
        base_se = 0.0 if paired else b.se
        info_fix = fixed_information(tol, alpha, beta, m)
        n_fix = games_for_information(info_fix, sd, base_se)
        if math.isfinite(n_fix):
            fixed.append(g * n_fix)
            need.append((g * n_fix, False))
            continue
        n_pass = games_for_information(pass_information(tol, beta, m), sd, base_se)
        if not math.isfinite(n_pass):
            # a baseline whose error is at most half the room 1/I_pass leaves the other half to the
            # run; above the room itself an unchanged configuration can pass at all (review V #10:
            # "at least 21,815 games" read as the minimum, and a 20,000-game baseline was accepted)
            hint = _games_hint(b, tol, beta, m, games)
            least = int(math.floor(g * b.n * b.se ** 2 * pass_information(tol, beta, m))) + 1
            unit = diff_unit_of(b.metric, game)
            said = counted(b, games)
            raise BaselineTooSmall(
                f"{b.label}: the baseline's own standard error ({b.se:.3g} {unit}, "
                f"{said}) is too large for a tolerance of ±{tol:g} {unit}: even an unchanged "
                f"configuration could not pass; record a baseline of about {hint:,} games (it needs "
                f"more than {least - 1:,} to be accepted at all; {hint:,} leave the check's own games "
                "half the room) or raise the tolerance", metric=b.metric, label=b.label, se=b.se, n=b.n,
                tolerance=tol, games_hint=hint, counted=said)
        limited.append(b.label)
        # the baseline games whose error is half the room 1/I_fix: then the fixed-size power is
        # reached (sd² = n·se², the baseline's per-unit variance; g games a unit)
        lift.append(g * 2 * b.n * b.se ** 2 * info_fix)
        need.append((g * n_pass, True))
    basis, basis_limited = max(need) if need else (500.0, False)
    worst = MAX_GAMES_FACTOR * basis
    return GamePlan(int(math.ceil(worst / 1000.0)) * 1000, int(math.ceil(max(fixed))) if fixed else None,
                    limited, int(math.ceil(basis)), basis_limited,
                    int(math.ceil(max(lift) / 1000.0)) * 1000 if lift else None)


def _games_hint(b: Measurement, tol: float, beta: float, m: int, games: int | None = None) -> int:
    """The baseline games :class:`BaselineTooSmall` asks for: its own error half the room an
    unchanged configuration needs to pass at ``tol`` (:func:`pass_information`), in games
    (``games``: the baseline's, :func:`games_per_unit`)."""
    return int(math.ceil(games_per_unit(b, games) * 2 * b.n * b.se ** 2 * pass_information(tol, beta, m)))


def baseline_games_for(baseline: Sequence[Measurement], tolerances: Sequence[float],
                       alpha: float = DEFAULT_ALPHA, beta: float = DEFAULT_BETA,
                       games: int | None = None) -> dict[int, int]:
    """Which of these tolerances ``balance baseline`` refuses on these measurements, by the rule
    :func:`plan_games` applies (an unchanged configuration could not pass: :class:`BaselineTooSmall`):
    {index of the metric: the baseline games it asks for}, empty when it accepts them all (a
    check's advice to halve a tolerance, review C #3 (session 42): "balance baseline --tolerance
    0.5" was refused on the very baseline it was given for)."""
    m = len(baseline)
    refused = {}
    for i, (b, tol) in enumerate(zip(baseline, tolerances)):
        sd = b.se * math.sqrt(max(b.n, 1))
        if any(math.isfinite(games_for_information(info, sd, b.se))
               for info in (fixed_information(tol, alpha, beta, m), pass_information(tol, beta, m))):
            continue
        refused[i] = _games_hint(b, tol, beta, m, games)
    return refused


def metric_names(labels: Sequence[str]) -> str:
    """Metric labels said together: "Seat 1, Seat 2, Seat 3 and Seat 4 win shares" (labels
    sharing their last words, " win share" or " mean score", are grouped, in order)."""
    groups: dict[str, list[str]] = {}
    for label in labels:
        for tail in (" win share", " mean score"):
            if label.endswith(tail):
                groups.setdefault(tail + "s", []).append(label[: -len(tail)])
                break
        else:
            groups.setdefault("", []).append(label)
    parts = []
    for tail, heads in groups.items():
        said = heads[0] if len(heads) == 1 else ", ".join(heads[:-1]) + " and " + heads[-1]
        parts.append(said + (tail if len(heads) > 1 else tail[:-1]))
    return "; ".join(parts)


def limited_note(plan: GamePlan, baseline_games: int) -> str:
    """What a check says when the baseline's own error limits it (``plan.limited``), "" when it
    does not: more games cannot give these metrics the power at twice the tolerance; a baseline of
    more games can."""
    if not plan.limited:
        return ""
    return (f"this baseline's own error ({baseline_games:,} games) limits the power at twice the "
            f"tolerance for {metric_names(plan.limited)}: more check games cannot make up for it; record "
            f"a baseline of at least {plan.baseline_games:,} games")


def planned_baseline_games(players: int, tolerance: float, beta: float = DEFAULT_BETA,
                           n_metrics: int | None = None) -> tuple[float, float]:
    """Before a baseline is played: (fewest games, games to ask for) for a baseline of a
    ``players``-player configuration whose seat win shares a check can pass at ``tolerance`` (pp).

    The same rule as :func:`plan_games` (a baseline whose own error leaves no room for an unchanged
    configuration to pass, 1/I_pass ≤ s_base², is refused), with the per-game standard deviation a
    seat's win share will have, which is only known once played: here at least half the variance
    of a fair win-or-lose seat, ½·(1/P)(1 − 1/P), in pp² (ties and uneven seats lower it, never that
    far in practice), so fewer games than the first figure cannot make a usable baseline; the
    second is the later check's own hint (twice the fair seat's need). ``n_metrics`` defaults to
    2·players (seat win shares and scores), the fewest a baseline has, which asks the least."""
    p = 1.0 / max(int(players), 1)
    var_fair = (100.0 ** 2) * p * (1.0 - p)                      # pp² per game
    m = n_metrics if n_metrics is not None else 2 * max(int(players), 1)
    info = pass_information(tolerance, beta, m)
    return 0.5 * var_fair * info, 2.0 * var_fair * info


def default_batch(max_games: int, games_per_deal: int = 1, least_units: int = MIN_UNITS) -> int:
    """Games per look: about a fiftieth of the maximum, in whole thousands (at least 1,000), and a
    multiple of the games of one deal (rotated seats); at least ``least_units`` units (the fewest a
    look may read: :data:`MIN_UNITS`, paired :data:`MIN_PAIRED_UNITS`)."""
    b = max(1000, int(math.ceil(max_games / 50 / 1000.0)) * 1000)
    return max(int(math.ceil(b / games_per_deal)), int(least_units)) * games_per_deal


def _least_units(paired: bool) -> int:
    return MIN_PAIRED_UNITS if paired else MIN_UNITS


def _why(paired: bool) -> str:
    return ("the normal approximation behind the check's error rates" if not paired else
            "paired differences (a change carried by few games passes unseen too often)")


def check_games_enough(max_games: int, gpd: int, option: str = "--games", paired: bool = False) -> None:
    """A maximum below one look of :data:`~analysis.check.decision.MIN_UNITS` units (``paired``:
    :data:`~analysis.check.decision.MIN_PAIRED_UNITS`) is refused in one line (its only look would
    read too few units: :func:`analysis.check.play.check_batch`). Also ``balance baseline
    --check-games`` (review s58 #2: ``--check-games 10`` wrote ``games = 10``, which every check of
    the file then refused)."""
    units = _least_units(paired)
    least = units * gpd
    if max_games < least:
        what = f"{least} games" if gpd == 1 else f"{least} games ({units} deals of {gpd})"
        mode = " in paired mode (--against-rules)" if paired else ""
        raise UsageError(f"{option} {max_games}: must be at least {what}{mode}: a check that stops "
                         f"at fewer reads too few for {_why(paired)}")


@dataclass
class CheckResult:
    """A check: every metric's verdict, the overall verdict, the exit code and what to say about it."""

    baseline: Baseline
    results: list[MetricResult]
    alpha: float
    beta: float
    run_meta: dict
    run_path: str
    notes: list[str] = field(default_factory=list)
    games: int = 0                        # games played (per rule set)
    max_games: int = 0                    # the maximum the check could play
    looks: list[tuple[int, int, int, int]] = field(default_factory=list)
    paired: bool = False                  # new vs old rules on the same deals
    against_rules: str = ""               # the old rules file (paired mode)
    # the rule settings the checked rules change from those they are compared with (the
    # baseline's; in paired mode the old rules'), as analysis.rules_diff.SettingChange items: []
    # the same settings, None not known (a rules text is missing: only the sha256 can be said)
    rules_changes: list | None = None
    # the settings that differ but the baseline's player count does not read (left out of
    # rules_changes: analysis.check.baseline.unread_changes); the verdict line names them
    rules_unread: list = field(default_factory=list)
    # the metrics whose power at twice the tolerance the baseline's own error limits
    # (GamePlan.limited) and the baseline games that would lift it (GamePlan.baseline_games)
    limited: list[str] = field(default_factory=list)
    baseline_games_needed: int | None = None
    # the baseline's metrics this check left out, by label (the mean scores whose goal the checked
    # rules move: analysis.check.baseline.without_goal_scores); the verdict line names them
    left_out: list[str] = field(default_factory=list)
    # the strategy files the seats name whose text differs from the one the baseline measured,
    # one phrase each (Baseline.strategy_file_changes); the verdict line names them
    bots_changed: list[str] = field(default_factory=list)

    @property
    def failed(self) -> list[MetricResult]:
        return [r for r in self.results if r.verdict == "fail"]

    @property
    def undecided(self) -> list[MetricResult]:
        return [r for r in self.results if r.verdict == "undecided"]

    @property
    def verdict(self) -> str:
        if self.failed:
            return "fail"
        return "undecided" if self.undecided else "pass"

    @property
    def exit_code(self) -> int:
        """0 pass, 1 regression, 3 undecided at the maximum number of games (2 is a usage error,
        4 a problem of the machine: :data:`cli.check.EXIT_MACHINE`)."""
        return {"pass": 0, "fail": 1, "undecided": 3}[self.verdict]

    @property
    def rules_changed(self) -> bool:
        return self.run_meta.get("rules_sha256") != self.baseline.rules_sha256


def check_configuration(baseline: Baseline, meta: dict) -> None:
    """Refuse a run that is not the baseline's configuration (game, players, strategies, seats)."""
    problems = []
    if meta.get("game") != baseline.game:
        # the games' titles, not their command names (review C #8, session 42)
        problems.append(f"a game of {game_title(meta.get('game'))} (baseline: {game_title(baseline.game)})")
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


def check_seed_differs(baseline: Baseline, meta: dict, what: str) -> None:
    """Refuse a run played with the baseline's own seed (one :class:`UsageError` line): game i of
    both draws from the stream (seed, i), so its estimates are not independent of the baseline's
    and run − baseline is not the comparison the test's error rates are computed for (docs/ci.md
    §2: the seed must differ from the baseline's). ``what`` names the run in the message."""
    seed = meta.get("seed")
    if seed is None or seed != baseline.seed:
        return
    raise UsageError(f"{what}: played with the baseline's own seed {seed}: its games draw the same "
                     "random streams as the baseline's, so the check would not compare independent "
                     f"estimates; play the run with another --seed (e.g. {getattr(baseline, 'check_seed', seed + 1)}), or leave out "
                     "RUN and give its rules (--rules/--set): the check then plays them on a new seed")


def check_notes(baseline: Baseline, meta: dict, paired: bool = False,
                changes: list | None = None, played: bool = False,
                unread: list | None = None) -> list[str]:
    """What a reader must know about a check: other rules, another engine. (A run on the
    baseline's own seed is not noted but refused: :func:`check_seed_differs`.)
    ``paired``: the differences are new − old rules on the same deals, not run − baseline, so
    other rules than the baseline's are not mixed into them (revA #16) and the seed is not noted.
    ``changes``: the settings the run's rules change from the baseline's
    (:func:`analysis.check.baseline.rules_changes`); ``[]`` for a rules text that differs in
    comments or layout only, which the note then says. ``played``: the check played the rules
    file named in ``meta`` just now (not a RUN made elsewhere): when it is the very file the baseline
    measured, the note says that file changed since, not two files (review C #8, session 42).
    ``unread``: the settings that differ but the baseline's player count does not read
    (:func:`analysis.check.baseline.unread_changes`): with no other change, the note says that
    these are not read at that count, not that only comments or layout differ (review s61 #1)."""
    notes = []
    sha = str(meta.get("rules_sha256", ""))
    if sha != baseline.rules_sha256:
        then = ("; paired, so the differences below are these rules against the old ones on the same "
                "deals (the effect of the rules change), not against the baseline's values"
                if paired else "; differences below include the rules change")
        if changes == [] and not paired and unread:
            names = ", ".join(c.inline for c in unread[:3]) + (
                f" and {len(unread) - 3} more" if len(unread) > 3 else "")
            then = (f"; the settings that differ are not read at {baseline.players} players ({names}), "
                    "so these rules play the baseline's games")
        elif changes == [] and not paired:
            then = "; the rule settings are the same (only comments or layout differ)"
        notes.append(f"rules differ from the baseline's: {_rules_sources(baseline, meta, played)}{then}")
    if meta.get("engine", "kernel") != baseline.engine:
        notes.append(f"engine {meta.get('engine', 'kernel')} (baseline: {baseline.engine})")
    notes += strategy_notes(baseline, meta, paired)
    return notes


def strategy_notes(baseline: Baseline, meta: dict, paired: bool = False) -> list[str]:
    """What :func:`check_notes` says of the strategy files the seats name (review s61 #2): those
    whose text differs from the one the baseline measured (``meta["strategy_files"]``, by the
    seats' names), as a change of the rules is said; and, once, that a baseline written before it
    recorded them reads them relative to the working directory without telling an edit."""
    if not hasattr(baseline, "strategy_file_changes"):
        return []
    changed = baseline.strategy_file_changes(meta.get("strategy_files"))
    notes = []
    if changed:
        then = ("; paired, both rule sets play the bots as they are now, so the differences below are "
                "of the rules alone" if paired else "; differences below include that change of the bots")
        notes.append(f"strategy files edited since the baseline measured them: {'; '.join(changed)}{then}")
    if baseline.strategy_files is None and baseline.seat_files():
        notes.append(f"{baseline.path} was written before baselines recorded their strategy files: "
                     f"{', '.join(baseline.seat_files())} read relative to the working directory, "
                     "and an edit of them since is not told (regenerate the baseline with balance "
                     "baseline to record where they are and their sha256)")
    return notes



def game_title(game: str | None) -> str:
    """A game's title from its command name ("seigneurial" → "Seigneurial", "medievallons" →
    "Médiévallons"), as a designer names it; the name itself for a game not registered."""
    from simcore import games as registry

    try:
        return registry.get(str(game)).title
    except Exception:
        return str(game)


def _rules_sources(baseline: Baseline, meta: dict, played: bool) -> str:
    """Which rules the run and the baseline measured, for :func:`check_notes`: the one file that
    changed since the baseline measured it ("configs/rules.toml changed since the baseline measured
    it (sha256 895f… then, 63a0… now)"), else each: "this run used X (sha256 …), the baseline
    measured Y (sha256 …)", the shipped rules named so, not "default"."""
    import os

    sha, then_sha = str(meta.get("rules_sha256", ""))[:12], baseline.rules_sha256[:12]
    name = str(meta.get("rules_name", "?"))
    shipped = baseline.rules == "default"
    base_file = baseline.rules_file() if hasattr(baseline, "rules_file") else None
    if (played and base_file is not None and not name.startswith("<")
            and os.path.abspath(name) == os.path.abspath(base_file)):
        what, them = ("the rules shipped with the toolkit", "them") if shipped else (name, "it")
        return (f"{what} changed since the baseline measured {them} (sha256 {then_sha}… then, "
                f"{sha}… now)")
    measured = ("the rules shipped with the toolkit as they were then" if shipped else
                (str(base_file) if base_file is not None else baseline.rules))
    return f"this run used {name} (sha256 {sha}…), the baseline measured {measured} (sha256 {then_sha}…)"


def shifted(baseline: Baseline, metric: str, key: str, by: float) -> Baseline:
    """A copy of ``baseline`` whose (metric, key) value is moved by ``by`` (tests and benchmarks)."""
    ms = [replace(m, value=m.value + by, ci_low=m.ci_low + by, ci_high=m.ci_high + by)
          if (m.metric, m.key) == (metric, key) else m for m in baseline.metrics]
    return replace(baseline, metrics=ms)



__all__ = ["BaselineTooSmall", "CheckResult", "baseline_games_for", "game_title", "DEFAULT_ALPHA", "DEFAULT_BETA", "DETECT", "GamePlan",
           "MAX_GAMES_FACTOR", "MetricResult", "ON_INCONCLUSIVE", "SequentialTest", "VERDICTS",
           "check_configuration", "check_notes", "check_seed_differs", "limited_note", "metric_names",
           "compare", "default_batch", "fixed_information", "fixed_n_verdict", "games_for_information", "llr",
           "pass_information", "plan_games", "planned_baseline_games", "shifted", "MIN_UNITS", "POISSON_UPPER",
           "exact_llr", "paired_error", "strategy_notes", "run_error", "counted", "games_per_unit", "PRIOR_UNITS",
           "FEW_CHANGED", "MIN_PAIRED_UNITS", "check_games_enough"]
