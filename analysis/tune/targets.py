"""``--target``: what a tune aims for, judged on per-game samples with intervals.

* ``seat-balance[:TOL]`` — every seat's win share within the fair share 1/P ± TOL percentage
  points (default 1.5). Objective: the largest seat distance from 1/P, in units of TOL.
* ``role=NAME:SHARE[:TOL]`` — the win share of the seats playing role NAME (asymmetric games)
  within SHARE ± TOL pp. SHARE is ``45%``, ``45`` or ``0.45`` (a number above 1 is read as a
  percentage); TOL is in percentage points (``5`` or ``5pp``). Objective: the distance from SHARE in units of TOL.
* ``length=A..B`` — the mean game length (turns) between A and B. Objective: the distance of the
  mean outside [A, B] in units of the half-width (B − A) / 2.
* ``no-dominant-strategy[:TOL]`` — no strategy's win share (per seat it holds) above 1/P + TOL pp
  (a line-up with at least two strategies). Objective: the largest excess over 1/P, in units of TOL.

The objective of several targets is their sum (0 = every target at its aim). Its 95% interval
has the Balance interval's construction (:func:`objective_interval`): simultaneous intervals on
every mean involved, from their joint covariance across games, mapped through each target's
distance, then max and sum; a target is *met* when the simultaneous intervals of its means lie
inside its tolerance (:func:`evaluate`). :func:`race` is the racing decision of a candidate
against the incumbent on the same games, its error spent across the rungs; :func:`race_cells`
the same over a panel, paired per cell (worst cell or weighted mean). Every malformed
target, or one the game cannot measure, is a one-line :class:`~simcore.errors.UsageError`.

May import numpy, the standard library, :mod:`simcore` (registry, errors), :mod:`analysis.stats`
and :mod:`analysis.sweep.metrics`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from simcore import games as registry
from simcore.errors import UsageError

from analysis import stats
from analysis.sweep.metrics import VariantData

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
    if percent or v > 1:
        v /= 100.0
    if not 0 <= v <= 1:
        raise UsageError(f"{what}: the win share {text} must be from 0 to 100% (45%, 45 or 0.45)")
    return v


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
        if parts[0] not in names:
            raise UsageError(f"{what}: unknown role {parts[0]!r} (known: {', '.join(names)})")
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
        if not any(c.name == "turns" for c in spec.game_columns):
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


def parse_targets(texts, game: str, option: str = "--target") -> tuple[Target, ...]:
    out = tuple(parse_target(t, game, option) for t in (texts or ()))
    if not out:
        raise UsageError(f"{option}: give at least one target (e.g. --target seat-balance)")
    return out


def check_lineup(targets: tuple[Target, ...], strategy_names: list[str], option: str = "--target") -> None:
    """``no-dominant-strategy`` needs at least two strategies in the line-up."""
    for t in targets:
        if t.kind == "no-dominant-strategy" and len(set(strategy_names)) < 2:
            raise UsageError(f"{option} {t.text}: the line-up has one strategy "
                             f"({strategy_names[0]}); give several with --strategies")


def _columns(v: VariantData, t: Target) -> list[str]:
    if t.kind == "seat-balance":
        return [f"seat_win_share_{s + 1}" for s in range(v.n_players)]
    if t.kind == "role":
        return [f"role_win_share_{t.role}"]
    if t.kind == "length":
        return ["game_length"]
    return sorted(k for k in v.samples if k.startswith("strategy_win_share_"))


@dataclass
class Judgement:
    objective: float
    low: float
    high: float
    met: bool
    games: int
    parts: list[dict]            # per target: text, estimate(s), interval(s), met, objective

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


def _matrix(v: VariantData, targets: tuple[Target, ...], games: int | None = None
            ) -> tuple[list[str], list[tuple[int, int]], np.ndarray]:
    cols: list[str] = []
    spans = []
    for t in targets:
        c = _columns(v, t)
        missing = [k for k in c if k not in v.samples]
        if missing or not c:
            raise UsageError(f"--target {t.text}: these games do not measure it "
                             f"({', '.join(missing) or 'no strategy columns'})")
        spans.append((len(cols), len(cols) + len(c)))
        cols += c
    X = np.stack([v.samples[k][:games] for k in cols], axis=1)
    return cols, spans, X


def objective_interval(mean: np.ndarray, cov: np.ndarray, targets: tuple[Target, ...],
                       spans: list[tuple[int, int]], fair: float | None,
                       level: float = stats.LEVEL) -> tuple[float, float, float, np.ndarray, np.ndarray]:
    """(objective, low, high, column lows, column highs): the objective Σ_t max_j d_tj / tol_t
    with the Balance interval's construction — simultaneous intervals on every column of every
    target from their joint covariance (:func:`analysis.stats.simultaneous`), each mapped through
    its distance from the target's band, then max over a target's columns and sum over targets.
    When all column intervals hold, the objective's holds: coverage ≥ ``level`` at a true 0 (a
    balanced game) as elsewhere; tests/analysis/test_tune_targets_coverage.py measures it."""
    low, high, _ = stats.simultaneous(mean, cov, level)
    est = lo_sum = hi_sum = 0.0
    for t, (a, b) in zip(targets, spans):
        blo, bhi = _band(t, fair)
        dlo, dhi = stats.band_distance_range(low[a:b], high[a:b], blo, bhi)
        est += float(stats.band_distance(mean[a:b], blo, bhi).max()) / t.tol
        lo_sum += float(dlo.max()) / t.tol
        hi_sum += float(dhi.max()) / t.tol
    return est, lo_sum, hi_sum, low, high


def evaluate(v: VariantData, targets: tuple[Target, ...], seed: int = 777,
             games: int | None = None) -> Judgement:
    """The objective of ``targets`` on ``v`` (its first ``games`` games; all by default) with its
    95% interval (:func:`objective_interval`), and whether each target is met: every column's
    *simultaneous* interval inside the target's tolerance, so "met" holds for all seats at once
    with 95% confidence. (``seed`` is accepted for compatibility: nothing here is random.)"""
    cols, spans, X = _matrix(v, targets, games)
    n = X.shape[0]
    mean, cov = stats.mean_cov(X)
    if n < 2:
        cov = np.zeros((len(cols),) * 2)
    est, low, high, clow, chigh = objective_interval(mean, cov, targets, spans, v.fair)
    parts = []
    all_met = True
    for t, (a, b) in zip(targets, spans):
        blo, bhi = _band(t, v.fair)
        obj = float(stats.band_distance(mean[a:b], blo, bhi).max()) / t.tol
        met = _within(t, v.fair, clow[a:b], chigh[a:b])
        all_met &= met
        rows = [{"metric": c, "estimate": float(mean[a + k]), "low": float(clow[a + k]),
                 "high": float(chigh[a + k])} for k, c in enumerate(cols[a:b])]
        parts.append({"target": t.text, "objective": obj, "met": met, "metrics": rows,
                      "intervals": "simultaneous 95% over every column of every target"})
    return Judgement(est, low, high, all_met, n, parts)


def _race_bounds(candidate: VariantData, incumbent: VariantData, targets: tuple[Target, ...],
                 level: float) -> tuple[float, float, float, float, float, float]:
    """(candidate's objective, low, high, incumbent's objective, low, high) on the same games:
    one simultaneous family at ``level`` over both configurations' columns, with their joint
    covariance across the paired games, so both objectives' intervals hold together."""
    n = candidate.n_games
    if incumbent.n_games < n:
        raise ValueError(f"the incumbent played {incumbent.n_games} games, fewer than the "
                         f"candidate's {n}: race on the incumbent's games")
    cols_c, spans, Xc = _matrix(candidate, targets)
    _, _, Xi = _matrix(incumbent, targets, n)
    k = Xc.shape[1]
    mean, cov = stats.mean_cov(np.concatenate([Xc, Xi], axis=1))
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
    return (*out[0], *out[1])


def race(candidate: VariantData, incumbent: VariantData, targets: tuple[Target, ...], rung: int,
         rungs: int, alpha: float = 0.05) -> tuple[str, float, float, float]:
    """Racing decision after rung ``rung`` (1-based) of ``rungs``: the candidate against the
    incumbent (the best candidate so far) on the *same games* — the candidate's games and the
    incumbent's first as many (same seed: common random numbers; the incumbent must have played
    at least as many). Smaller objective is better.

    Returns (decision, difference, low, high): the objective difference candidate − incumbent and
    its interval, at level 1 − α/``rungs`` (the error spent evenly across the rungs, Bonferroni),
    built from one simultaneous family over both configurations' columns with their joint
    covariance across the paired games (both objectives' intervals hold together, so the
    difference lies between low_c − high_i and high_c − low_i). ``"drop"`` when low > 0 (shown
    worse), ``"better"`` when high < 0 (shown better: the search may take it as the new incumbent,
    but the final claim is the held-out confirmation's, :func:`evaluate` on fresh games),
    ``"continue"`` otherwise. Over a whole race, a candidate as good as the incumbent is dropped
    with probability at most α whatever the rung sizes."""
    if not 1 <= rung <= rungs:
        raise ValueError(f"rung {rung} outside 1..{rungs}")
    ec, lc, hc, ei, li, hi_ = _race_bounds(candidate, incumbent, targets, 1 - alpha / rungs)
    d_low, d_high = lc - hi_, hc - li
    decision = "drop" if d_low > 0 else ("better" if d_high < 0 else "continue")
    return decision, ec - ei, d_low, d_high


def race_cells(candidates: list[VariantData], incumbents: list[VariantData],
               targets: tuple[Target, ...], rung: int, rungs: int, *, aggregate: str = "worst",
               weights=None, alpha: float = 0.05) -> tuple[str, float, float, float, list[int]]:
    """:func:`race` over a panel: in every cell the candidate and the incumbent on the *same games*
    of that cell (paired per cell), the error spent across the rungs and split over the cells
    (level 1 − α/(rungs·cells) per cell, Bonferroni), so that every cell's intervals hold together.

    ``aggregate="worst"``: the difference of the worst cells, max_k c_k − max_k i_k. It is at least
    c_j − i_j for the incumbent's worst cell j, which is one of the cells whose interval reaches the
    highest low end of the incumbent's cells (the *binding* cells); so its low end is the smallest
    per-cell low end over those (one binding cell: that cell's difference on its common games, as
    :func:`race` bounds it). Its high end is symmetric over the candidate's possible worst cells.
    ``aggregate="mean"``: the weighted mean of the paired per-cell differences.

    Returns (decision, difference, low, high, the incumbent's binding cells); decisions as in
    :func:`race`."""
    if not 1 <= rung <= rungs:
        raise ValueError(f"rung {rung} outside 1..{rungs}")
    if len(candidates) != len(incumbents) or not candidates:
        raise ValueError("one candidate and one incumbent per cell")
    level = 1 - alpha / (rungs * len(candidates))
    parts = [_race_bounds(c, i, targets, level) for c, i in zip(candidates, incumbents)]
    ec, lc, hc, ei, li, hi_ = (np.array(x) for x in zip(*parts))
    if aggregate == "worst":
        binding = [k for k in range(len(parts)) if hi_[k] >= li.max()]
        could_be_worst = [k for k in range(len(parts)) if hc[k] >= lc.max()]
        d_low = min(lc[k] - hi_[k] for k in binding)
        d_high = max(hc[k] - li[k] for k in could_be_worst)
        diff = float(ec.max() - ei.max())
    elif aggregate == "mean":
        w = np.asarray(weights if weights is not None else [1.0] * len(parts), float)
        w = w / w.sum()
        d_low, d_high = float(w @ (lc - hi_)), float(w @ (hc - li))
        diff = float(w @ (ec - ei))
        binding = list(range(len(parts)))
    else:
        raise ValueError(f"aggregate {aggregate!r}")
    decision = "drop" if d_low > 0 else ("better" if d_high < 0 else "continue")
    return decision, diff, float(d_low), float(d_high), binding


def sentence(j: Judgement, targets: tuple[Target, ...], fair: float | None, settings: str,
             games: int, seed: int) -> str:
    """Whether the confirmation run meets the targets, in words."""
    bits = []
    for t, p in zip(targets, j.parts):
        ms = p["metrics"]
        if t.kind == "seat-balance":
            shown = "; ".join(f"seat {i + 1} {100 * r['estimate']:.1f}% ({100 * r['low']:.1f} to "
                              f"{100 * r['high']:.1f})" for i, r in enumerate(ms))
            bits.append(f"every seat within {100 * fair:.1f}% ± {100 * t.tol:.1f} pp: "
                        f"{'yes' if p['met'] else 'no'} ({shown})")
        elif t.kind == "role":
            r = ms[0]
            bits.append(f"the {t.role.title()} side's win share {100 * r['estimate']:.1f}% ({100 * r['low']:.1f} to "
                        f"{100 * r['high']:.1f}) against {100 * t.aim:.1f}% ± {100 * t.tol:.1f} pp: "
                        f"{'met' if p['met'] else 'not met'}")
        elif t.kind == "length":
            r = ms[0]
            bits.append(f"mean length {r['estimate']:.1f} turns ({r['low']:.1f} to {r['high']:.1f}) "
                        f"in {t.lo:g}..{t.hi:g}: {'met' if p['met'] else 'not met'}")
        else:
            shown = "; ".join(f"{r['metric'].removeprefix('strategy_win_share_')} "
                              f"{100 * r['estimate']:.1f}% (up to {100 * r['high']:.1f})" for r in ms)
            bits.append(f"no strategy above {100 * fair:.1f}% + {100 * t.tol:.1f} pp: "
                        f"{'met' if p['met'] else 'not met'} ({shown})")
    verdict = "Target met" if j.met else "Target NOT met"
    # the fresh seed is recorded in result.json; a 19-digit number does not belong in a headline
    return (f"{verdict} with {settings}, confirmed on {games:,} fresh games: "
            + "; ".join(bits) + ".")
