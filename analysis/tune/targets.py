"""``--target``: what a tune aims for, judged on per-game samples with intervals.

* ``seat-balance[:TOL]`` — every seat's win share within the fair share 1/P ± TOL percentage
  points (default 1.5). Objective: the largest seat distance from 1/P, in units of TOL.
* ``role=NAME:SHARE[:TOL]`` — the win share of the seats playing role NAME (asymmetric games)
  within SHARE ± TOL pp. SHARE is ``45%``, ``45`` or ``0.45`` (a number above 1 is read as a
  percentage; a bare ``1`` is refused: write ``1%`` or ``100%``); TOL is in percentage points
  (``5`` or ``5pp``); a band reaching 0% or 100% is warned of (a side that never, or always,
  wins meets it). Objective: the distance from SHARE in units of TOL.
* ``length=A..B`` — the mean game length (turns) between A and B. Objective: the distance of the
  mean outside [A, B] in units of the half-width (B − A) / 2.
* ``no-dominant-strategy[:TOL]`` — no strategy's win share (per seat it holds) above 1/P + TOL pp
  (a line-up with at least two strategies). Objective: the largest excess over 1/P, in units of TOL.

The objective of several targets is their sum (0 = every target at its aim); one metric takes one
target (a second on it, or on the other side of a two-sided game, is refused: :func:`parse_targets`).
Its 95% interval has the Balance interval's construction (:func:`objective_interval`): simultaneous
intervals on every mean involved, from their joint covariance across games (a win share's a Wilson
interval at the family's level, :func:`share_intervals`: never outside 0 to 100%), mapped through each target's
distance, then max and sum; a target is *met* when the simultaneous intervals of its means lie
inside its tolerance (:func:`evaluate`). :func:`race` is the racing decision of a candidate
against the incumbent on the same games, its error spent across the rungs; :func:`race_cells`
the same over a panel, paired per cell (worst cell or weighted mean). A rotated-seat run
(``--rotate-seats``) is read over its deals, its independent units
(:func:`analysis.sweep.metrics.by_deal`). Every malformed
target, or one the game cannot measure, is a one-line :class:`~simcore.errors.UsageError`; so is,
before any game, one every rule set meets or one the confirmation's games cannot confirm
(:func:`check_reachable`). A tolerance or an aim prints at the decimals it was typed with
(:func:`pp_text`).

May import numpy, the standard library, :mod:`simcore` (registry, errors, numbers), :mod:`analysis.stats`
and :mod:`analysis.sweep.metrics`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from simcore import games as registry
from simcore.errors import UsageError
from simcore.numbers import rounded

from analysis import stats
from analysis.stats import band_difference_range  # noqa: F401  (re-exported: tests import it here)
from analysis.sweep.metrics import VariantData, by_deal, joint_mean_cov

DEFAULT_TOL = 1.5          # percentage points
_NUM = r"[+-]?(?:\d+\.?\d*|\.\d+)"


@dataclass(frozen=True)
class Target:
    text: str
    kind: str                   # seat-balance, role, length, no-dominant-strategy
    tol: float                  # as a fraction for shares, turns for length
    role: str = ""
    aim: float = 0.0            # role share
    lo: float = 0.0             # length range
    hi: float = 0.0

    def to_json(self) -> dict:
        return {"text": self.text, "kind": self.kind, "tol": self.tol, "role": self.role,
                "aim": self.aim, "lo": self.lo, "hi": self.hi}


def _pp(text: str, what: str) -> float:
    try:
        v = float(text.strip().removesuffix("pp").removesuffix("%"))
    except ValueError:
        raise UsageError(f"{what}: {text!r} is not a number of percentage points") from None
    if not 0 < v < 100:
        raise UsageError(f"{what}: the tolerance must be between 0 and 100 percentage points")
    return v / 100.0


def _share(text: str, what: str) -> float:
    """A win share as ``45%``, ``45`` or ``0.45`` (a number above 1 is a percentage)."""
    t = text.strip()
    percent = t.endswith("%")
    try:
        v = float(t.removesuffix("%"))
    except ValueError:
        raise UsageError(f"{what}: {text!r} is not a win share (45%, 45 or 0.45)") from None
    if not percent and v == 1:
        # (review s48 tune #3: "1" was read as 100% and "1.3" as 1.3%)
        raise UsageError(f"{what}: the win share {text} could be 1% or 100%: write 1% or 100%")
    if percent or v > 1:
        v /= 100.0
    if not 0 <= v <= 1:
        raise UsageError(f"{what}: the win share {text} must be from 0 to 100% (45%, 45 or 0.45)")
    return v


def takes_length_target(game: str) -> bool:
    """Whether ``game`` records a game length in turns (a game column ``turns``), so that a
    ``length=A..B`` target can be tuned or judged: Médiévallons and Seigneurial do; Middle-Ages (16
    turns, MA-4) and a Fief combat (its length is in rounds of one combat, FF-3) do not."""
    spec = registry.specs().get(game)
    return spec is not None and any(c.name == "turns" for c in spec.game_columns)


def parse_target(text: str, game: str, option: str = "--target") -> Target:
    """One ``--target`` for ``game`` (see the module docstring)."""
    what = f"{option} {text}"
    spec = registry.get(game)
    s = text.strip()
    head, _, rest = s.partition("=") if "=" in s else (s.split(":")[0], "", "")
    head = head.strip().lower()
    if head in ("seat-balance", "no-dominant-strategy"):
        parts = s.split(":")
        if len(parts) > 2:
            raise UsageError(f"{what}: expected {head} or {head}:TOL (TOL in percentage points)")
        tol = _pp(parts[1], what) if len(parts) == 2 else DEFAULT_TOL / 100
        if head == "seat-balance" and not spec.roles_alike:
            raise UsageError(f"{what}: {spec.title}'s seats play different roles, so there is no "
                             "single fair share (use role=NAME:SHARE)")
        return Target(s, head, tol)
    if head == "role":
        parts = rest.split(":")
        if len(parts) not in (2, 3):
            raise UsageError(f"{what}: expected role=NAME:SHARE[:TOL] (e.g. role=seigneur:0.45)")
        names = [r.name for r in spec.roles]
        if spec.roles_alike:
            raise UsageError(f"{what}: every seat of {spec.title} plays the same role (use seat-balance)")
        role = spec.role_named(parts[0])
        if role is None:
            raise UsageError(f"{what}: unknown role {parts[0]!r} (known: {', '.join(names)})")
        parts[0] = role
        aim = _share(parts[1], what)
        tol = _pp(parts[2], what) if len(parts) == 3 else DEFAULT_TOL / 100
        return Target(s, "role", tol, role=parts[0], aim=aim)
    if head == "length":
        m = re.fullmatch(rf"\s*({_NUM})\s*\.\.\s*({_NUM})\s*", rest)
        if not m:
            raise UsageError(f"{what}: expected length=A..B (mean turns from A to B)")
        lo, hi = float(m.group(1)), float(m.group(2))
        if not hi > lo:
            raise UsageError(f"{what}: the range must run from a smaller to a larger length")
        if not takes_length_target(game):
            raise UsageError(f"{what}: {spec.title} does not record a game length (a fixed number "
                             "of turns)")
        return Target(s, "length", (hi - lo) / 2, lo=lo, hi=hi)
    raise UsageError(f"{what}: unknown target (seat-balance[:TOL], role=NAME:SHARE[:TOL], "
                     "length=A..B, no-dominant-strategy[:TOL])")


def tightened(t: Target, factor: float) -> Target:
    """``t`` with its tolerance scaled by ``factor`` (a length range shrunk about its middle)."""
    from dataclasses import replace

    if t.kind == "length":
        mid, half = (t.lo + t.hi) / 2, (t.hi - t.lo) / 2 * factor
        return replace(t, lo=mid - half, hi=mid + half)
    return replace(t, tol=t.tol * factor)


def parse_targets(texts, game: str, option: str = "--target",
                  one_per_metric: bool = False) -> tuple[Target, ...]:
    """Every ``--target``. ``one_per_metric`` (a tune, which minimises their sum): a second target
    on a metric already targeted is refused, as no rules meet two bands at once and the sum mixes
    them (review D #3); a report or a skill question judges each as given (a band and a
    narrower one of the same share, met and unclear)."""
    out = tuple(parse_target(t, game, option) for t in (texts or ()))
    if not out:
        raise UsageError(f"{option}: give at least one target (e.g. --target seat-balance)")
    seen: dict[tuple, Target] = {}
    for t in out if one_per_metric else ():   # two on one metric: no rules meet both (review D #3)
        key = (t.kind, t.role)
        if key in seen:
            raise UsageError(f"{option} {t.text}: {_metric_words(t, game)} already has a target "
                             f"({seen[key].text}); give one")
        seen[key] = t
    # (a target on each of two sides stays allowed: the Seigneur's 35% ± 10 and the Censitaires'
    # 65% ± 5 is a designer's way of asking for the narrower band; docs/sweep.md's examples)
    return out


def _metric_words(t: Target, game: str) -> str:
    """What a target measures, in the game's words: "the Seigneur side's win share"."""
    if t.kind == "role":
        spec = registry.get(game)
        label = next((r.display for r in spec.roles if r.name == t.role), t.role)
        return f"the {label} side's win share"
    return {"seat-balance": "the seats' balance", "length": "the game length",
            "no-dominant-strategy": "the strategies' win shares"}.get(t.kind, t.kind)


def check_lineup(targets: tuple[Target, ...], strategy_names: list[str], option: str = "--target") -> None:
    """``no-dominant-strategy`` needs at least two strategies in the line-up."""
    for t in targets:
        if t.kind == "no-dominant-strategy" and len(set(strategy_names)) < 2:
            raise UsageError(f"{option} {t.text}: the line-up has one strategy "
                             f"({strategy_names[0]}); give several with --strategies")


#: An estimated confirmation interval up to this many times the tolerance is a warning, not a
#: refusal: the estimate is the interval of a share exactly at its aim with a binomial variance
#: p(1 − p), the confirmation's own on independent games (:func:`share_intervals`, shared wins
#: and all); over a rotated run's deals the interval can be smaller.
REACH_SLACK = 1.1


def family_critical(targets: tuple[Target, ...], players: int, strategies: int,
                    level: float = stats.LEVEL) -> tuple[float, int]:
    """(c, columns): the max-|t| critical value of a confirmation's family at ``players`` players
    (:func:`analysis.stats.simultaneous`: every column of every target), from the correlation its
    columns have at the aim, and the number of columns. A seat-balance target's seats, each at
    1/P and one winner a game, correlate at −1/(P − 1) (2 seats: one column's worth, c = 1.96);
    any other column is taken as independent (a larger c: the estimate errs wide)."""
    blocks = []
    for t in targets:
        if t.kind == "seat-balance":
            r = -1.0 / (players - 1) if players > 1 else 0.0
            b = np.full((players, players), r)
            np.fill_diagonal(b, 1.0)
            blocks.append(b)
        else:
            blocks.append(np.eye(max(strategies, 1) if t.kind == "no-dominant-strategy" else 1))
    k = sum(len(b) for b in blocks)
    corr, at = np.zeros((k, k)), 0
    for b in blocks:
        corr[at:at + len(b), at:at + len(b)] = b
        at += len(b)
    return float(stats.max_abs_normal_quantile(corr, level)), k


def at_aim_half_width(p: float, games: int, c: float) -> float:
    """The half-width (the larger side) of a win share's confirmation interval when the share is
    exactly ``p`` on ``games`` games: the Wilson interval at the per-column level 2Φ(c) − 1 the
    family's critical value ``c`` stands for, as :func:`share_intervals` builds it."""
    lo, hi = stats.wilson(p * games, games, math.erf(c / math.sqrt(2.0)))
    return float(max(p - lo, hi - p))


def games_to_confirm(p: float, tol: float, c: float) -> int:
    """The confirmation games at which a share at ``p`` gets an interval of half the tolerance
    either side, the sizing balance tune prints for its skill commands
    (:func:`cli.tune.follow_up_games`), n = z²·p(1−p)/(tol/2)², here with the confirmation's own
    critical value ``c`` as z, rounded up to a thousand: a share within half the tolerance of its
    aim then reads met."""
    return int(math.ceil(c * c * p * (1 - p) / (tol / 2) ** 2 / 1000.0)) * 1000


def check_reachable(targets: tuple[Target, ...], cells, confirm_games: int, game: str,
                    option: str = "--target", level: float | None = None) -> list[str]:
    """Refuse, before any game, a target the tune cannot answer (review s46 #4), in one line
    (:class:`~simcore.errors.UsageError`): one every rule set meets (its band holds every share
    it judges: a seat-balance band reaching 0%, which a seat that never wins meets; a role's band
    holding 0 to 100%; a strategy's reaching 100%), or one ``confirm_games`` cannot confirm (a
    share exactly at its aim gets a confirmation interval wider than the band:
    :func:`at_aim_half_width`, so the verdict could only read unclear or not met), naming the
    ``--confirm-games`` that would (:func:`games_to_confirm`). ``cells``: (players, distinct
    strategies) of every line-up the tune plays (the size of each confirmation's family).
    Returns the warning lines of a role band that reaches 0% or 100% (a side that never, or
    always, wins meets it) and of a borderline confirmation (the interval wider than the band by
    at most :data:`REACH_SLACK` times: shared wins may make it narrower than estimated). A length
    target is not checked (its spread is not known before games). ``level``: the confirmation's,
    by default that of a tune that stops when met (:func:`confirmation_level`: each of its attempts
    is read at 1 − 0.05/5, review s62 #3), so the games asked for can confirm at it."""
    level = confirmation_level(True) if level is None else level
    spec = registry.get(game)
    wide: dict[str, tuple] = {}     # per target: the cell where its confirmation is widest
    edges: dict[str, str] = {}      # per role target whose band reaches 0% or 100%: its warning
    counts = {x[0] for x in cells}
    for players, strategies in sorted(set(cells)):
        fair = 1.0 / players
        c = family = None
        for t in targets:
            what = f"{option} {t.text}"
            at = f"at {players} players " if len(counts) > 1 or t.kind != "role" else ""
            if t.kind == "seat-balance" and t.tol >= fair:
                raise UsageError(
                    f"{what}: {at}the band {100 * fair:.1f}% ± {pp_text(t.tol)} pp runs from "
                    f"{signed(100 * (fair - t.tol), 1)}% to {100 * (fair + t.tol):.1f}%: it reaches "
                    "0%, so a seat that never wins meets it and it cannot tell a balanced table "
                    f"from a broken one; give a tolerance below {100 * fair:.1f} pp (the default "
                    f"is {DEFAULT_TOL:g})")
            if t.kind == "role" and t.aim - t.tol <= 0 and t.aim + t.tol >= 1:
                raise UsageError(
                    f"{what}: the band {pp_text(t.aim)}% ± {pp_text(t.tol)} pp holds every win "
                    f"share from 0 to 100%, so every rule set meets it; give a tolerance below "
                    f"{100 * max(t.aim, 1 - t.aim):.1f} pp")
            if t.kind == "role" and (t.aim - t.tol <= 0 or t.aim + t.tol >= 1) and t.text not in edges:
                # said, not refused: a side's band may hold 0% on purpose (review s48 tune #3:
                # role=seigneur:1.3 took a band from −0.2% to 2.8% without a word)
                never = t.aim - t.tol <= 0
                side = next((r.display for r in spec.roles if r.name == t.role), t.role)
                edges[t.text] = (
                    f"Warning: {what}: the band {pp_text(t.aim)}% ± {pp_text(t.tol)} pp runs from "
                    f"{signed(100 * (t.aim - t.tol), 1)}% to {100 * (t.aim + t.tol):.1f}%: it reaches "
                    f"{'0' if never else '100'}%, so a {side} side that {'never' if never else 'always'} "
                    "wins meets it")
            if t.kind == "no-dominant-strategy" and fair + t.tol >= 1:
                raise UsageError(
                    f"{what}: {at}the band's top, {100 * fair:.1f}% + {pp_text(t.tol)} pp, is 100% "
                    "or more, so every rule set meets it; give a tolerance below "
                    f"{100 * (1 - fair):.1f} pp")
            if t.kind not in ("seat-balance", "role"):
                continue
            p = fair if t.kind == "seat-balance" else t.aim
            if c is None:
                c, family = family_critical(targets, players, strategies, level=level)
            half = at_aim_half_width(p, confirm_games, c)
            if half <= t.tol or (t.text in wide and half / t.tol <= wide[t.text][0]):
                continue
            who = (f"a seat at exactly {100 * fair:.1f}%" if t.kind == "seat-balance" else
                   f"the {next((r.display for r in spec.roles if r.name == t.role), t.role)} side "
                   f"at exactly {pp_text(t.aim)}%")
            said = (f"{what}: {at}{who} gets a confirmation interval of about ± {100 * half:.2f} pp "
                    f"on --confirm-games {confirm_games:,} ("
                    + (f"{level_text(level)} together over the {family} shares judged" if family > 1
                       else level_text(level))
                    + f"), wider than the target's ± {pp_text(t.tol)} pp")
            wide[t.text] = (half / t.tol, games_to_confirm(p, t.tol, c), said)
    refused = [w for w in wide.values() if w[0] > REACH_SLACK]
    if refused:
        _, n, said = max(refused, key=lambda w: w[1])
        raise UsageError(f"{said}, so the confirmation can only read unclear or not met; give "
                         f"--confirm-games {n:,} or more (a share within half the tolerance of its "
                         "aim then reads met) or a wider tolerance")
    return list(edges.values()) + [
        f"Warning: {said}, so even rules exactly at the aim would read unclear (a warning, not a "
        "refusal: the estimate assumes no shared wins, which would narrow it); --confirm-games "
        f"{n:,} would tell" for _, n, said in wide.values()]


def _columns(v: VariantData, t: Target) -> list[str]:
    if t.kind == "seat-balance":
        return [f"seat_win_share_{s + 1}" for s in range(v.n_players)]
    if t.kind == "role":
        return [f"role_win_share_{t.role}"]
    if t.kind == "length":
        return ["game_length"]
    return sorted(k for k in v.keys if k.startswith("strategy_win_share_"))


@dataclass
class Judgement:
    objective: float
    low: float
    high: float
    met: bool
    games: int
    parts: list[dict]            # per target: text, estimate(s), interval(s), met, objective
    # over a panel of k cells, the objective's interval at level 1 − 0.05/k (Bonferroni over the
    # cells), which the worst cell's interval is built from so that it holds at 95%
    # (:func:`analysis.tune.cells.aggregate`); None for a lone line-up (its own interval is it)
    panel_low: float | None = None
    panel_high: float | None = None

    def to_json(self) -> dict:
        return {"objective": self.objective, "low": self.low, "high": self.high, "met": self.met,
                "games": self.games, "targets": self.parts}


def _band(t: Target, fair: float | None) -> tuple[float, float]:
    """The band [lo, hi] each column of target ``t`` is measured against (its distance outside
    the band, over ``t.tol``, is the target's objective)."""
    if t.kind == "seat-balance":
        return fair, fair
    if t.kind == "role":
        return t.aim, t.aim
    if t.kind == "length":
        return t.lo, t.hi
    return -np.inf, fair


def _within(t: Target, fair: float | None, lo: np.ndarray, hi: np.ndarray) -> bool:
    """Whether intervals [lo, hi] of the target's columns lie inside its tolerance."""
    if t.kind == "seat-balance":
        return bool(np.all(fair - t.tol <= lo) and np.all(hi <= fair + t.tol))
    if t.kind == "role":
        return bool(np.all(t.aim - t.tol <= lo) and np.all(hi <= t.aim + t.tol))
    if t.kind == "length":
        return bool(np.all(t.lo <= lo) and np.all(hi <= t.hi))
    return bool(np.all(hi <= fair + t.tol))


def _outside(t: Target, fair: float | None, lo: np.ndarray, hi: np.ndarray) -> bool:
    """Whether some column's interval [lo, hi] lies wholly outside the target's tolerance: the
    target is then shown missed (with the simultaneous intervals, at 95% together), not merely
    not shown met."""
    if t.kind == "seat-balance":
        return bool(np.any(lo > fair + t.tol) or np.any(hi < fair - t.tol))
    if t.kind == "role":
        return bool(np.any(lo > t.aim + t.tol) or np.any(hi < t.aim - t.tol))
    if t.kind == "length":
        return bool(np.any(lo > t.hi) or np.any(hi < t.lo))
    return bool(np.any(lo > fair + t.tol))


def outcome(part: dict) -> str:
    """A judged target (or a cell: its targets) in one word: "met" (every interval inside the
    tolerance), "missed" (some interval wholly outside it) or "unclear" (neither: an interval
    straddles the tolerance's edge, so the games cannot tell; more games would)."""
    if part.get("met"):
        return "met"
    return "missed" if part.get("missed", True) else "unclear"


def cell_outcome(parts: list[dict]) -> str:
    """The outcome of a cell (or a line-up) over all its targets: met when every target is met,
    missed when any target is missed, else unclear."""
    words = [outcome(p) for p in parts]
    if all(w == "met" for w in words):
        return "met"
    return "missed" if "missed" in words else "unclear"


def _matrix(v: VariantData, targets: tuple[Target, ...], games: int | None = None
            ) -> tuple[list[str], list[tuple[int, int]], np.ndarray]:
    cols: list[str] = []
    spans = []
    for t in targets:
        c = _columns(v, t)
        missing = [k for k in c if k not in v.keys]
        if missing or not c:
            raise UsageError(f"--target {t.text}: these games do not measure it "
                             f"({', '.join(missing) or 'no strategy columns'})")
        spans.append((len(cols), len(cols) + len(c)))
        cols += c
    if v.joint is not None:
        return cols, spans, None            # no rows: the moments come from the sums (_moments)
    X = np.stack([v.samples[k][:games] for k in cols], axis=1)
    return cols, spans, X


def _moments(v: VariantData, cols: list[str], X) -> tuple[int, np.ndarray, np.ndarray]:
    """(games, mean, covariance of the mean) of the columns: from the rows ``X``, or from the
    exact sums of a run played without them (a confirmation above the row limit). A rotated-seat
    run is read over its deals (:func:`analysis.sweep.metrics.by_deal` from the rows,
    :func:`analysis.sweep.metrics.joint_mean_cov` from the sums)."""
    g = v.games_per_deal
    if X is None:
        mean, cov = joint_mean_cov(v.joint, [(v.vid, k) for k in cols])
        return v.joint.n, mean, cov
    mean, cov = stats.mean_cov(by_deal(X, g))
    return X.shape[0], mean, cov


#: the columns that are win shares (each game's share, 0 to 1): their intervals stay in [0, 1]
SHARE_COLUMNS = ("seat_win_share_", "role_win_share_")


def share_intervals(mean, cov, low, high, c: float, cols: list[str], n: int,
                    level: float = stats.LEVEL, deal: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """The simultaneous intervals ``low``, ``high`` (est ± ``c``·se, :func:`analysis.stats.simultaneous`)
    with each win-share column's (:data:`SHARE_COLUMNS`) replaced by a Wilson interval
    (:func:`analysis.stats.wilson`) at the per-column level the family's critical value stands for,
    2Φ(c) − 1 (Bonferroni over the columns when no column varies): on the ``n`` games where they are
    independent (``deal`` 1), a shared win's part counting as that part of a success, the interval
    the run page, a sweep's page and ``balance export`` give a win share
    (:func:`analysis.sweep.metrics.share_ci_sums`, :func:`analysis.roles.role_table`), so the same
    games read the same interval everywhere (review 247 #1: a Fief tune's "84.6 to 85.4" where the
    run page of its confirmation read 84.5–85.5 for the same 20,000 combats; the tune matched a
    binomial variance to the measured one, which a mutual wipe-out's half win makes smaller); over
    the deals of a rotated run (``deal`` > 1), on the deals' effective count (the binomial variance
    matched to the measured one, p(1 − p)/se², else ``n`` games), as a rotated run's page reads its
    shares (:func:`analysis.stats.share_mean_wilson`). A share's interval then never leaves [0, 1],
    and at 0.1% on 1,000 games it is not "(−0.1 to 0.3)" (review D #5; its coverage at shares near
    0 is measured in tests/test_s42_G_tune.py)."""
    low, high = np.array(low, float), np.array(high, float)
    mean = np.asarray(mean, float)
    var = np.clip(np.diag(np.atleast_2d(cov)), 0.0, None)
    k = len(cols)
    one = math.erf(c / math.sqrt(2.0)) if c > 0 else 1.0 - (1.0 - level) / max(k, 1)
    for j, name in enumerate(cols):
        if not name.startswith(SHARE_COLUMNS):
            continue
        p = float(np.clip(mean[j], 0.0, 1.0))
        m = (p * (1 - p) / var[j] if deal > 1 and var[j] > 0 and 0 < p < 1 else float(n))
        lo, hi = stats.wilson(p * m, m, one)
        low[j], high[j] = float(lo), float(hi)
    return low, high


def objective_interval(mean: np.ndarray, cov: np.ndarray, targets: tuple[Target, ...],
                       spans: list[tuple[int, int]], fair: float | None,
                       level: float = stats.LEVEL, cols: list[str] | None = None,
                       n: int | None = None, deal: int = 1) -> tuple[float, float, float, np.ndarray, np.ndarray]:
    """(objective, low, high, column lows, column highs): the objective Σ_t max_j d_tj / tol_t
    with the Balance interval's construction — simultaneous intervals on every column of every
    target from their joint covariance (:func:`analysis.stats.simultaneous`; a win share's, with
    its column names ``cols``, the games ``n`` and the games per ``deal``, a Wilson interval at the
    same simultaneous level, :func:`share_intervals`, so never below 0 or above 100%), each mapped through
    its distance from the target's band, then max over a target's columns and sum over targets.
    When all column intervals hold, the objective's holds: coverage ≥ ``level`` at a true 0 (a
    balanced game) as elsewhere; tests/analysis/test_tune_targets_coverage.py measures it."""
    low, high, c = stats.simultaneous(mean, cov, level)
    if cols is not None and n:
        low, high = share_intervals(mean, cov, low, high, c, cols, n, level, deal)
    est = lo_sum = hi_sum = 0.0
    for t, (a, b) in zip(targets, spans):
        blo, bhi = _band(t, fair)
        dlo, dhi = stats.band_distance_range(low[a:b], high[a:b], blo, bhi)
        est += float(stats.band_distance(mean[a:b], blo, bhi).max()) / t.tol
        lo_sum += float(dlo.max()) / t.tol
        hi_sum += float(dhi.max()) / t.tol
    return est, lo_sum, hi_sum, low, high


def evaluate(v: VariantData, targets: tuple[Target, ...], seed: int = 777,
             games: int | None = None, cells: int = 1, level: float = stats.LEVEL) -> Judgement:
    """The objective of ``targets`` on ``v`` (its first ``games`` games; all by default) with its
    95% interval (:func:`objective_interval`), and whether each target is met: every column's
    *simultaneous* interval inside the target's tolerance, so "met" holds for all seats at once
    with 95% confidence. ``cells`` > 1 (``v`` is one cell of a panel of that many): also the
    objective's interval at level 1 − 0.05/cells (``panel_low``, ``panel_high``), from which the
    panel's worst-cell interval is built (:func:`analysis.tune.cells.aggregate`: the largest of the
    cells' 95% lows and highs covers the worst cell's objective far less often than 95%, 0.73 of the
    time over 12 cells at the same distance; review s59 fx229 #3). ``level``: the simultaneous
    intervals' level, 95% by default; a tune's confirmation attempts read each at 1 − 0.05/5 so that
    the five it may make hold at 95% together (review s62 #3: :func:`confirmation_level`),
    and a panel's cells then at 1 − (1 − ``level``)/cells. (``seed`` is accepted for
    compatibility: nothing here is random.)"""
    cols, spans, X = _matrix(v, targets, games)
    if X is None and games is not None and games != v.n_games:
        raise ValueError(f"the first {games} games of a run without rows: only all {v.n_games}")
    n, mean, cov = _moments(v, cols, X)
    if n < 2:
        cov = np.zeros((len(cols),) * 2)
    deal = int(v.games_per_deal or 1)
    est, low, high, clow, chigh = objective_interval(mean, cov, targets, spans, v.fair, level=level,
                                                     cols=cols, n=n, deal=deal)
    parts = []
    all_met = True
    for t, (a, b) in zip(targets, spans):
        blo, bhi = _band(t, v.fair)
        obj = float(stats.band_distance(mean[a:b], blo, bhi).max()) / t.tol
        met = _within(t, v.fair, clow[a:b], chigh[a:b])
        missed = _outside(t, v.fair, clow[a:b], chigh[a:b])
        all_met &= met
        rows = [{"metric": c, "estimate": float(mean[a + k]), "low": float(clow[a + k]),
                 "high": float(chigh[a + k])} for k, c in enumerate(cols[a:b])]
        parts.append({"target": t.text, "objective": obj, "met": met, "missed": missed,
                      "metrics": rows,
                      "intervals": f"simultaneous {level_text(level)} over every column of every target"})
    judged = Judgement(est, low, high, all_met, n, parts)
    if cells > 1:
        _, judged.panel_low, judged.panel_high, _, _ = objective_interval(
            mean, cov, targets, spans, v.fair, level=panel_level(cells, alpha=1.0 - level), cols=cols,
            n=n, deal=deal)
    return judged


#: The most candidates a tune confirms on fresh games (each one not confirmed is set aside and the
#: search goes on: :func:`analysis.tune.search.run_tune`).
MAX_CONFIRMATIONS = 5


def confirmation_level(stop_when_met: bool, alpha: float = 0.05) -> float:
    """The level each confirmation attempt's simultaneous intervals are read at: 1 − ``alpha``/m,
    m the attempts the search may make (:data:`MAX_CONFIRMATIONS` when it stops at a met target and
    sets aside a candidate not confirmed; one with ``--keep-going``). Bonferroni: the chance that
    some attempt reads "met" for a candidate that misses the target is at most ``alpha``, whichever
    attempt it is (review s62 #3: at 95% each, a candidate at the edge read unclear on one seed and
    met on the next; five attempts at 95% read met in 11.5% of 2,000 simulated tunes with every candidate at the edge (3.2% at 99% each),
    tests/sweep/test_s62_confirmation_family.py)."""
    return 1.0 - alpha / (MAX_CONFIRMATIONS if stop_when_met else 1)



def level_text(level: float) -> str:
    """A level in words as the pages print it: 0.95 → "95%", 0.99 → "99%", 0.9875 → "98.75%"."""
    return f"{level * 100:.4g}%"


def panel_level(cells: int, alpha: float = 0.05) -> float:
    """The level of each cell's objective interval over a panel of ``cells`` cells, 1 − α/cells
    (Bonferroni): every cell's interval then holds its objective together with probability at least
    1 − α, and so does the interval of their largest, from the largest low to the largest high."""
    return 1.0 - alpha / max(int(cells), 1)


@dataclass(frozen=True)
class RaceBounds:
    """One race look on the same games, from one simultaneous family (:func:`race_bounds`): the
    candidate's and the incumbent's objectives with their intervals, and the interval of their
    difference built from the per-game differences. All hold together at the family's level."""
    candidate: float
    candidate_low: float
    candidate_high: float
    incumbent: float
    incumbent_low: float
    incumbent_high: float
    low: float                  # of candidate − incumbent
    high: float

    @property
    def difference(self) -> float:
        return self.candidate - self.incumbent


def race_bounds(candidate: VariantData, incumbent: VariantData, targets: tuple[Target, ...],
                level: float) -> RaceBounds:
    """The paired race interval of candidate − incumbent on the same games (the candidate's games
    and the incumbent's first as many: common random numbers).

    One simultaneous max-|t| family at ``level`` (:func:`analysis.stats.simultaneous`) over the
    incumbent's columns X_i, the per-game differences D = X_c − X_i *and* the candidate's columns
    X_c = X_i + D, from their joint covariance across the games (the third block costs a slightly
    larger critical value and keeps the bound no looser than the unpaired one when the pairing is
    weak: per-game correlations of 0.5 between start-coin settings 8 coins apart, 0.95 between
    settings 2 coins apart, measured on 4-seat Middle-Ages). For every column the range
    of d(x_i + δ) − d(x_i) over the box of the two intervals (:func:`analysis.stats.band_difference_range`, d the
    target's band distance / tolerance). Per target, max_j f_j − max_j g_j (f the candidate's
    distances, g the incumbent's) is at least f_j − g_j at the incumbent's farthest column j, one
    of the columns whose interval may be the largest, and at least (any column's sure f) − (the
    most g_j can be): the smallest over those columns of the better of the two; and at most, the
    same way, the largest over the columns that may be the candidate's farthest
    (:func:`analysis.stats.max_distance_change`, which argues it; no wider than the objectives' own
    interval difference from the same family), summed over the targets. When the pairing makes D's interval
    narrow, this is much narrower than the difference of two objective intervals
    (:func:`race_interval_unpaired`; docs/sweep.md has the figures)."""
    n = candidate.n_games
    if incumbent.n_games < n:
        raise ValueError(f"the incumbent played {incumbent.n_games} games, fewer than the "
                         f"candidate's {n}: race on the incumbent's games")
    _, spans, Xc = _matrix(candidate, targets)
    _, _, Xi = _matrix(incumbent, targets, n)
    k = Xc.shape[1]
    g = math.lcm(candidate.games_per_deal, incumbent.games_per_deal)      # (rotated: over the deals)
    mean, cov = stats.mean_cov(by_deal(np.concatenate([Xi, Xc - Xi, Xc], axis=1), g))
    if n < 2:
        cov = np.zeros((3 * k,) * 2)
    low, high, _ = stats.simultaneous(mean, cov, level)
    mi, il, ih = mean[:k], low[:k], high[:k]
    md, dl, dh = mean[k:2 * k], low[k:2 * k], high[k:2 * k]
    # the candidate's own columns: their interval, and incumbent + difference (both hold)
    cl, ch = np.maximum(low[2 * k:], il + dl), np.minimum(high[2 * k:], ih + dh)
    tot = np.zeros(8)       # candidate est, low, high, incumbent est, low, high, diff low, high
    for t, (a, b) in zip(targets, spans):
        blo, bhi = _band(t, candidate.fair)
        sl = slice(a, b)
        g_lo, g_hi = stats.band_distance_range(il[sl], ih[sl], blo, bhi)
        f_lo, f_hi = stats.band_distance_range(cl[sl], ch[sl], blo, bhi)
        d_low, d_high = stats.max_distance_change(il[sl], ih[sl], dl[sl], dh[sl], cl[sl], ch[sl], blo, bhi)
        fc = float(stats.band_distance(mi[sl] + md[sl], blo, bhi).max())
        fi = float(stats.band_distance(mi[sl], blo, bhi).max())
        tot += np.array([fc, f_lo.max(), f_hi.max(), fi, g_lo.max(), g_hi.max(), d_low, d_high]) / t.tol
    return RaceBounds(*(float(x) for x in tot))


def race_interval_unpaired(candidate: VariantData, incumbent: VariantData,
                           targets: tuple[Target, ...], level: float) -> tuple[float, float, float]:
    """(difference, low, high) of candidate − incumbent by the construction racing used before the
    paired one: one simultaneous family over both configurations' columns, then low_c − high_i and
    high_c − low_i. Valid, but it spends the pairing: kept only to measure what
    :func:`race_bounds` gains (tests/analysis/test_race_paired.py, benchmarks/bench_race_paired.py)."""
    n = candidate.n_games
    _, spans, Xc = _matrix(candidate, targets)
    _, _, Xi = _matrix(incumbent, targets, n)
    k = Xc.shape[1]
    g = math.lcm(candidate.games_per_deal, incumbent.games_per_deal)
    mean, cov = stats.mean_cov(by_deal(np.concatenate([Xc, Xi], axis=1), g))
    low, high, _ = stats.simultaneous(mean, cov, level)
    out = []
    for off in (0, k):
        est = lo_sum = hi_sum = 0.0
        for t, (a, b) in zip(targets, spans):
            blo, bhi = _band(t, candidate.fair)
            dlo, dhi = stats.band_distance_range(low[off + a:off + b], high[off + a:off + b], blo, bhi)
            est += float(stats.band_distance(mean[off + a:off + b], blo, bhi).max()) / t.tol
            lo_sum += float(dlo.max()) / t.tol
            hi_sum += float(dhi.max()) / t.tol
        out.append((est, lo_sum, hi_sum))
    (ec, lc, hc), (ei, li, hi_) = out
    return ec - ei, lc - hi_, hc - li


def race(candidate: VariantData, incumbent: VariantData, targets: tuple[Target, ...], rung: int,
         rungs: int, alpha: float = 0.05) -> tuple[str, float, float, float]:
    """Racing decision after rung ``rung`` (1-based) of ``rungs``: the candidate against the
    incumbent (the best candidate so far) on the *same games* — the candidate's games and the
    incumbent's first as many (same seed: common random numbers; the incumbent must have played
    at least as many). Smaller objective is better.

    Returns (decision, difference, low, high): the objective difference candidate − incumbent and
    its paired interval (:func:`race_bounds`: one simultaneous family over the incumbent's columns
    and the per-game differences), at level 1 − α/``rungs`` (the error spent evenly across the
    rungs, Bonferroni). ``"drop"`` when low > 0 (shown worse), ``"better"`` when high < 0 (shown
    better: the search may take it as the new incumbent, but the final claim is the held-out
    confirmation's, :func:`evaluate` on fresh games), ``"continue"`` otherwise. Over a whole race,
    a candidate as good as the incumbent is dropped with probability at most α whatever the rung
    sizes."""
    if not 1 <= rung <= rungs:
        raise ValueError(f"rung {rung} outside 1..{rungs}")
    b = race_bounds(candidate, incumbent, targets, 1 - alpha / rungs)
    decision = "drop" if b.low > 0 else ("better" if b.high < 0 else "continue")
    return decision, b.difference, b.low, b.high


def race_cells(candidates: list[VariantData], incumbents: list[VariantData],
               targets: tuple[Target, ...], rung: int, rungs: int, *, aggregate: str = "worst",
               weights=None, alpha: float = 0.05) -> tuple[str, float, float, float, list[int]]:
    """:func:`race` over a panel: in every cell the candidate and the incumbent on the *same games*
    of that cell (paired per cell, :func:`race_bounds`), the error spent across the rungs and split
    over the cells (level 1 − α/(rungs·cells) per cell, Bonferroni), so that every cell's intervals
    hold together.

    ``aggregate="worst"``: the difference of the worst cells, max_k c_k − max_k i_k. It is at least
    c_j − i_j for the incumbent's worst cell j, which is one of the cells whose interval reaches the
    highest low end of the incumbent's cells (the *binding* cells); so its low end is the smallest
    paired low end over those (one binding cell: that cell's paired difference). Its high end is
    symmetric over the candidate's possible worst cells. Both are intersected with the worst
    cells' own interval difference (the same family). ``aggregate="mean"``: the weighted mean of
    the paired per-cell differences.

    Returns (decision, difference, low, high, the incumbent's binding cells); decisions as in
    :func:`race`."""
    if not 1 <= rung <= rungs:
        raise ValueError(f"rung {rung} outside 1..{rungs}")
    if len(candidates) != len(incumbents) or not candidates:
        raise ValueError("one candidate and one incumbent per cell")
    level = 1 - alpha / (rungs * len(candidates))
    parts = [race_bounds(c, i, targets, level) for c, i in zip(candidates, incumbents)]
    ec, lc, hc, ei, li, hi_, dlo, dhi = (np.array([getattr(p, f) for p in parts]) for f in (
        "candidate", "candidate_low", "candidate_high", "incumbent", "incumbent_low",
        "incumbent_high", "low", "high"))
    if aggregate == "worst":
        binding = [k for k in range(len(parts)) if hi_[k] >= li.max()]
        could_be_worst = [k for k in range(len(parts)) if hc[k] >= lc.max()]
        d_low = max(min(dlo[k] for k in binding), lc.max() - hi_.max())
        d_high = min(max(dhi[k] for k in could_be_worst), hc.max() - li.max())
        diff = float(ec.max() - ei.max())
    elif aggregate == "mean":
        w = np.asarray(weights if weights is not None else [1.0] * len(parts), float)
        w = w / w.sum()
        d_low, d_high = float(w @ dlo), float(w @ dhi)
        diff = float(w @ (ec - ei))
        binding = list(range(len(parts)))
    else:
        raise ValueError(f"aggregate {aggregate!r}")
    decision = "drop" if d_low > 0 else ("better" if d_high < 0 else "continue")
    return decision, diff, float(d_low), float(d_high), binding


_WORDS = {"met": "met", "missed": "not met", "unclear": "unclear"}
UNCLEAR = "unclear: an interval straddles the tolerance's edge, so these games cannot tell; more games would"


def edge_digits(values, edges, digits: int = 1, more: int = 2) -> int:
    """The decimals, from ``digits`` up to ``digits + more``, at which every one of ``values``
    printed lies on the same side of every band edge printed as the value itself does (revF #2):
    an interval's upper end of 27.0169% against a band edge of 27.0% prints "27.02", not "27.0",
    so a reader sees why the target is unclear. Values and edges in the unit they are printed in
    (% for shares); an infinite edge (a band open on one side) is ignored. At the cap, the cap."""
    vals = [float(v) for v in values if v is not None and np.isfinite(v)]
    eds = [float(e) for e in edges if e is not None and np.isfinite(e)]

    def shown(x: float, d: int) -> float:       # (as it is printed: :func:`signed`)
        return rounded(x, d)

    for d in range(digits, digits + more + 1):
        if all(np.sign(shown(v, d) - shown(e, d)) == np.sign(round(v - e, 9)) for v in vals for e in eds):
            return d
    return digits + more


def interval_text(est: float, low: float, high: float, edges, scale: float = 100.0,
                  unit: str = "%") -> str:
    """``26.2% (25.5 to 26.9)``: an estimate and its interval, with as many decimals as
    :func:`edge_digits` needs for every end to show its side of the band's ``edges`` (all three at
    one precision: "26.25% (25.48 to 27.02)")."""
    d = edge_digits([scale * est, scale * low, scale * high], [scale * e for e in edges])
    # an interval that is not a point never prints as one (review s48 tune #8: "0.4% (0.4 to
    # 0.4)"): more decimals, up to 3, until its ends differ
    while d < 3 and high > low and signed(scale * low, d) == signed(scale * high, d):
        d += 1
    return f"{signed(scale * est, d)}{unit} ({signed(scale * low, d)} to {signed(scale * high, d)})"


def pp_digits(*shares: float, least: int = 1, most: int = 4) -> int:
    """The decimals at which every one of ``shares`` (fractions) prints exactly in percent (points),
    at least ``least``, at most ``most``: a tolerance or an aim printed at the decimals it was typed
    with ("± 1.25 pp", "± 0.01 pp", "45.25%"; "± 2.0 pp" as before), so the band printed is the
    band judged (review s46 #7: ``seat-balance:1.25`` read "± 1.2 pp", ``0.01`` "± 0.0 pp")."""
    for d in range(least, most + 1):
        if all(abs(round(100 * x, d) - 100 * x) < 1e-9 for x in shares):
            return d
    return most


def pp_text(share: float) -> str:
    """A tolerance or an aim (a fraction) in percent (points) at :func:`pp_digits`' decimals:
    0.0125 → "1.25", 0.02 → "2.0", 0.0001 → "0.01"."""
    return f"{100 * share:.{pp_digits(share)}f}"


def signed(x: float, d: int) -> str:
    """``x`` with ``d`` decimals and a true minus sign ("−0.4", as the pages print it), a half
    rounded away from zero as every table rounds it (:func:`simcore.numbers.rounded`; review s61
    #1: an exact 7.15% printed "7.1%" in the verdict, "7.2%" in the tables beside it)."""
    return f"{rounded(x, d):.{d}f}".replace("-", "\u2212")


def target_bits(j: Judgement, targets: tuple[Target, ...], fair: float | None) -> list[str]:
    """Each target of a judgement in words, with its estimates and simultaneous 95% intervals:
    "met" only when every interval lies inside the tolerance, "not met" only when one lies wholly
    outside it, else "unclear" (the games cannot tell which)."""
    bits = []
    for t, p in zip(targets, j.parts):
        ms = p["metrics"]
        said = _WORDS[outcome(p)]
        if t.kind == "seat-balance":
            edges = (fair - t.tol, fair + t.tol)
            shown = "; ".join(f"seat {i + 1} {interval_text(r['estimate'], r['low'], r['high'], edges)}"
                              for i, r in enumerate(ms))
            bits.append(f"every seat within {100 * fair:.1f}% ± {pp_text(t.tol)} pp: {said} ({shown})")
        elif t.kind == "role":
            r = ms[0]
            shown = interval_text(r["estimate"], r["low"], r["high"], (t.aim - t.tol, t.aim + t.tol))
            bits.append(f"the {t.role.title()} side's win share {shown} "
                        f"against {pp_text(t.aim)}% ± {pp_text(t.tol)} pp: {said}")
        elif t.kind == "length":
            r = ms[0]
            shown = interval_text(r["estimate"], r["low"], r["high"], (t.lo, t.hi), 1.0, " turns")
            bits.append(f"mean length {shown} in {t.lo:g}..{t.hi:g}: {said}")
        else:
            top = 100 * (fair + t.tol)
            shown = "; ".join(f"{r['metric'].removeprefix('strategy_win_share_')} "
                              f"{signed(100 * r['estimate'], d := edge_digits([100 * r['estimate'], 100 * r['high']], [top]))}% "
                              f"(up to {signed(100 * r['high'], d)})" for r in ms)
            bits.append(f"no strategy above {100 * fair:.1f}% + {pp_text(t.tol)} pp: {said} ({shown})")
    return bits


VERDICTS = {"met": "Target met", "missed": "Target NOT met",
            "unclear": "Target not confirmed (unclear)"}


def sentence(j: Judgement, targets: tuple[Target, ...], fair: float | None, settings: str,
             games: int, seed: int, where: str = "",
             scope: str = "this line-up and player count") -> str:
    """Whether the confirmation run meets the targets, in words. ``where``: the player count and
    line-up it was played with ("4p 4×balanced"), named in the sentence with the words that the
    fix was confirmed there only: a tuned fix says whom it holds for. (It said "the only line-up
    and player count played", false for a tune that searched --vary players=2..5: the search
    played several counts, the confirmation one.) ``scope``: what ``where`` names, for a game
    without line-ups ("this combat": a Fief tune, its spec's ``played_as_scope``)."""
    said = cell_outcome(j.parts)
    at = f" for {where} (confirmed for {scope} only)" if where else ""
    why = f" ({UNCLEAR})" if any(outcome(p) == "unclear" for p in j.parts) else ""
    # the fresh seed is recorded in result.json; a 19-digit number does not belong in a headline
    return (f"{VERDICTS[said]}{at} with {settings}, confirmed on {games:,} fresh games: "
            + "; ".join(target_bits(j, targets, fair)) + why + ".")