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
:func:`~analysis.check.measure.tested_se`), and information I = 1/s². For the upward direction, H0: Δ = δ (the
tolerance) against H1: Δ = 2δ; the log-likelihood ratio of the normal model is
LLR⁺ = I · δ · (d − 1.5 δ), and LLR⁻ = I · δ · (−d − 1.5 δ) for the downward one. A direction
*rejects* H0 when its LLR reaches log(2m/α) (m metrics) and *accepts* it when its LLR falls to
log β; each direction stops at its first crossing. The metric fails when a direction rejects,
passes when both accepted. Because d after n games has the joint law of a Brownian motion in the
information scale (also with the baseline's fixed error inside every d), the LLR is a likelihood
ratio martingale and Ville's inequality bounds the errors whatever the batch sizes and the
stopping: P(fail | |Δ| ≤ δ) ≤ α/(2m) per direction, so ≤ α for the whole check (union over the 2m
directions); P(pass | Δ ≥ 2δ) ≤ β for that metric. Between δ and 2δ (the indifference zone, as in
fishtest between elo0 and elo1) either answer is acceptable.
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

    @property
    def kind(self) -> Kind:
        return KINDS[self.metric]


def llr(d: float, se: float, tol: float) -> tuple[float, float]:
    """(LLR⁺, LLR⁻): log-likelihood ratios of Δ = ±2δ against Δ = ±δ for a normal estimate d ± se."""
    up_mid, down_mid = d - 1.5 * tol, -d - 1.5 * tol
    if not se > 0:
        sign = lambda x: math.copysign(math.inf, x) if x != 0 else 0.0  # noqa: E731
        return sign(up_mid), sign(down_mid)
    info = 1.0 / (se * se)
    return info * tol * up_mid, info * tol * down_mid


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
             games: int, diff: Sequence[Measurement] | None = None) -> list[MetricResult]:
        """One look after ``games`` games. ``baseline[i]`` is matched with the run metric of the same
        (metric, key); ``diff`` (paired mode) gives the paired differences, whose own error is the
        whole error (the ``baseline`` then holds the old rules' values on the same deals)."""
        if len(baseline) != self.m:
            raise ValueError("one baseline metric per tested metric")
        by_key = {(m.metric, m.key): m for m in run}
        by_diff = {(m.metric, m.key): m for m in diff} if diff is not None else None
        out = []
        for i, (b, tol) in enumerate(zip(baseline, tolerances)):
            r = by_key.get((b.metric, b.key))
            if r is None:
                # (review C #8, session 42: "the run has no seat_win_share for …", an internal name)
                raise UsageError(f"{b.label}: the games checked have no {b.key!r} (the baseline "
                                 "has; were they played with other players or strategies?)")
            if not tol > 0:
                raise UsageError(f"{b.label}: tolerance {tol:g}: the sequential check needs a tolerance > 0")
            if by_diff is not None:
                dm = by_diff[(b.metric, b.key)]
                d, se = dm.value, dm.se
            else:
                # a rare share's run error floored for the test alone (tested_se): review S #3
                d, se = r.value - b.value, math.hypot(tested_se(r), b.se)
            ups = llr(d, se, tol)
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
                                    verdict, self.decided[i]))
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
                 tolerance: float, games_hint: int) -> None:
        super().__init__(message)
        self.metric, self.label, self.se, self.n, self.tolerance = metric, label, se, n, tolerance
        self.games_hint = games_hint


def plan_games(baseline: Sequence[Measurement], tolerances: Sequence[float], alpha: float = DEFAULT_ALPHA,
               beta: float = DEFAULT_BETA, paired: bool = False, game: str | None = None) -> GamePlan:
    """The default maximum number of games of a check, from a power calculation on the baseline.

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
        base_se = 0.0 if paired else b.se
        info_fix = fixed_information(tol, alpha, beta, m)
        n_fix = games_for_information(info_fix, sd, base_se)
        if math.isfinite(n_fix):
            fixed.append(n_fix)
            need.append((n_fix, False))
            continue
        n_pass = games_for_information(pass_information(tol, beta, m), sd, base_se)
        if not math.isfinite(n_pass):
            # a baseline whose error is at most half the room 1/I_pass leaves the other half to the
            # run; above the room itself an unchanged configuration can pass at all (review V #10:
            # "at least 21,815 games" read as the minimum, and a 20,000-game baseline was accepted)
            hint = _games_hint(b, tol, beta, m)
            least = int(math.floor(b.n * b.se ** 2 * pass_information(tol, beta, m))) + 1
            unit = diff_unit_of(b.metric, game)
            raise BaselineTooSmall(
                f"{b.label}: the baseline's own standard error ({b.se:.3g} {unit}, "
                f"{b.n:,} games) is too large for a tolerance of ±{tol:g} {unit}: even an unchanged "
                f"configuration could not pass; record a baseline of about {hint:,} games (it needs "
                f"more than {least - 1:,} to be accepted at all; {hint:,} leave the check's own games "
                "half the room) or raise the tolerance", metric=b.metric, label=b.label, se=b.se, n=b.n,
                tolerance=tol, games_hint=hint)
        limited.append(b.label)
        # the baseline games whose error is half the room 1/I_fix: then the fixed-size power is
        # reached (sd² = n·se², the baseline's per-game variance)
        lift.append(2 * b.n * b.se ** 2 * info_fix)
        need.append((n_pass, True))
    basis, basis_limited = max(need) if need else (500.0, False)
    worst = MAX_GAMES_FACTOR * basis
    return GamePlan(int(math.ceil(worst / 1000.0)) * 1000, int(math.ceil(max(fixed))) if fixed else None,
                    limited, int(math.ceil(basis)), basis_limited,
                    int(math.ceil(max(lift) / 1000.0)) * 1000 if lift else None)


def _games_hint(b: Measurement, tol: float, beta: float, m: int) -> int:
    """The baseline games :class:`BaselineTooSmall` asks for: its own error half the room an
    unchanged configuration needs to pass at ``tol`` (:func:`pass_information`)."""
    return int(math.ceil(2 * b.n * b.se ** 2 * pass_information(tol, beta, m)))


def baseline_games_for(baseline: Sequence[Measurement], tolerances: Sequence[float],
                       alpha: float = DEFAULT_ALPHA, beta: float = DEFAULT_BETA) -> dict[int, int]:
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
        refused[i] = _games_hint(b, tol, beta, m)
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


def default_batch(max_games: int, games_per_deal: int = 1) -> int:
    """Games per look: about a fiftieth of the maximum, in whole thousands (at least 1,000), and a
    multiple of the games of one deal (rotated seats)."""
    b = max(1000, int(math.ceil(max_games / 50 / 1000.0)) * 1000)
    return int(math.ceil(b / games_per_deal)) * games_per_deal


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
    # the metrics whose power at twice the tolerance the baseline's own error limits
    # (GamePlan.limited) and the baseline games that would lift it (GamePlan.baseline_games)
    limited: list[str] = field(default_factory=list)
    baseline_games_needed: int | None = None

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
        """0 pass, 1 regression, 3 undecided at the maximum number of games (2 is a usage error)."""
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
                changes: list | None = None, played: bool = False) -> list[str]:
    """What a reader must know about a check: other rules, another engine. (A run on the
    baseline's own seed is not noted but refused: :func:`check_seed_differs`.)
    ``paired``: the differences are new − old rules on the same deals, not run − baseline, so
    other rules than the baseline's are not mixed into them (revA #16) and the seed is not noted.
    ``changes``: the settings the run's rules change from the baseline's
    (:func:`analysis.check.baseline.rules_changes`); ``[]`` for a rules text that differs in
    comments or layout only, which the note then says. ``played``: the check played the rules
    file named in ``meta`` just now (not a RUN made elsewhere): when it is the very file the baseline
    measured, the note says that file changed since, not two files (review C #8, session 42)."""
    notes = []
    sha = str(meta.get("rules_sha256", ""))
    if sha != baseline.rules_sha256:
        then = ("; paired, so the differences below are these rules against the old ones on the same "
                "deals (the effect of the rules change), not against the baseline's values"
                if paired else "; differences below include the rules change")
        if changes == [] and not paired:
            then = "; the rule settings are the same (only comments or layout differ)"
        notes.append(f"rules differ from the baseline's: {_rules_sources(baseline, meta, played)}{then}")
    if meta.get("engine", "kernel") != baseline.engine:
        notes.append(f"engine {meta.get('engine', 'kernel')} (baseline: {baseline.engine})")
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
           "pass_information", "plan_games", "planned_baseline_games", "shifted"]
