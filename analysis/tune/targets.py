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
comes from normal draws of every mean involved, with their covariance across games
(:func:`evaluate`); a target is *met* when its interval lies inside its tolerance. Every malformed
target, or one the game cannot measure, is a one-line :class:`~simcore.errors.UsageError`.

May import numpy, the standard library, :mod:`simcore` (registry, errors) and
:mod:`analysis.sweep.metrics`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from simcore import games as registry
from simcore.errors import UsageError

from analysis.sweep.metrics import VariantData, mean_ci

DEFAULT_TOL = 1.5          # percentage points
DRAWS = 2000
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


def _distance(t: Target, means: np.ndarray, fair: float | None) -> np.ndarray:
    """Objective of target ``t`` (in tolerance units) for rows of means (draws x columns)."""
    if t.kind == "seat-balance":
        return np.abs(means - fair).max(axis=1) / t.tol
    if t.kind == "role":
        return np.abs(means[:, 0] - t.aim) / t.tol
    if t.kind == "length":
        m = means[:, 0]
        return np.maximum(np.maximum(t.lo - m, m - t.hi), 0.0) / t.tol
    return np.maximum(means - fair, 0.0).max(axis=1) / t.tol


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


def evaluate(v: VariantData, targets: tuple[Target, ...], seed: int = 777) -> Judgement:
    """The objective of ``targets`` on ``v`` with its 95% interval, and whether each is met."""
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
    X = np.stack([v.samples[k] for k in cols], axis=1)
    X = np.where(np.isnan(X), np.nanmean(X, axis=0), X)
    n = X.shape[0]
    mean = X.mean(axis=0)
    cov = np.atleast_2d(np.cov(X, rowvar=False)) / n if n > 1 else np.zeros((len(cols),) * 2)
    draws = np.random.default_rng(seed).multivariate_normal(mean, cov, size=DRAWS, method="eigh")
    total_est = 0.0
    total_draws = np.zeros(DRAWS)
    parts = []
    all_met = True
    for t, (a, b) in zip(targets, spans):
        est = float(_distance(t, mean[None, a:b], v.fair)[0])
        d = _distance(t, draws[:, a:b], v.fair)
        total_est += est
        total_draws += d
        rows = []
        met = True
        for k, c in enumerate(cols[a:b]):
            m, lo, hi = mean_ci(v.samples[c])
            rows.append({"metric": c, "estimate": m, "low": lo, "high": hi})
            if t.kind == "seat-balance":
                met &= v.fair - t.tol <= lo and hi <= v.fair + t.tol
            elif t.kind == "role":
                met &= t.aim - t.tol <= lo and hi <= t.aim + t.tol
            elif t.kind == "length":
                met &= t.lo <= lo and hi <= t.hi
            else:
                met &= hi <= v.fair + t.tol
        all_met &= bool(met)
        parts.append({"target": t.text, "objective": est, "met": bool(met), "metrics": rows})
    # interval of the total, centred on the estimate (draws of a max of |.| are biased upwards)
    mid = float(np.median(total_draws))
    low = max(0.0, total_est + float(np.quantile(total_draws, 0.025)) - mid)
    high = total_est + float(np.quantile(total_draws, 0.975)) - mid
    return Judgement(total_est, low, high, all_met, n, parts)


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
