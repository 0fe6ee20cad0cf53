"""Paired deals of rotated seats with a known factor, for the coverage of the gate's paired factor
interval (:func:`analysis.compare.paired_factor_interval`): the truth is built here with numpy
alone, game by game, and the interval is read the way ``balance check --against-rules`` reads it
(:class:`analysis.check.measure.PairedMeasure` over the units, one
:meth:`analysis.check.decision.SequentialTest.look`, then
:func:`analysis.check.presentation._factor_of`). Used by tests/check/test_s62_rotated_factor.py
and benchmarks/paired_factor_coverage.py (the table of docs/ci.md).

A unit is a deal of ``k`` games (k = the player count, the seats rotated once over the deal); its
value is the mean over those games of one side's win share, a tie split (1/2, 1/3). The same deal is
played under the old and the new rules: each game's win under the new rules reuses the old rules'
random number with probability ``shared`` (the two rule sets then agree on that game unless the
share moved), else an independent one; a deal's luck ``g`` (Gamma, mean 1, ``deal_shape``; None:
every deal alike) multiplies the win chance of every game of the deal under both rule sets, so
the games of a deal are correlated as a rotated deal's are. The expected share is p·E[tie share]
on each side, so the true factor new / old is ``factor`` exactly. May import numpy and the
project's check modules only."""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np

TIE_SHARES = np.array([1.0, 1 / 2, 1 / 3])
"""A won game's share of the side: alone, or tied with one or two others."""


@dataclass(frozen=True)
class Cell:
    """One simulated setting: ``k`` games a deal, ``wins`` expected wins of the side that wins
    less (in games, ties split), ``factor`` the true factor new / old (>= 1: the old side wins
    less; the interval is symmetric in the two sides), ``share`` that side's expected share of a
    game, ``ties`` the chances of a won game being shared by 2 and by 3 (None: never tied)."""
    k: int
    wins: float
    factor: float
    share: float = 0.004
    shared: float = 0.8
    deal_shape: float | None = 1.0
    ties: tuple[float, float] | None = (0.2, 0.1)

    @property
    def tie_probs(self) -> np.ndarray:
        t2, t3 = self.ties or (0.0, 0.0)
        return np.array([1.0 - t2 - t3, t2, t3])

    @property
    def mean_tie_share(self) -> float:
        return float(self.tie_probs @ TIE_SHARES)

    @property
    def deals(self) -> int:
        return max(2, int(round(self.wins / self.share / self.k)))


def simulate_units(rng: np.random.Generator, cell: Cell, reps: int) -> tuple[np.ndarray, np.ndarray]:
    """(old, new): ``reps`` × deals arrays of unit values (a deal's mean win share of the side,
    as a fraction) under the two rule sets, numpy only."""
    n, k = cell.deals, cell.k
    p_game = cell.share / cell.mean_tie_share            # the chance the side wins a game (old)
    q_old, q_new = p_game, p_game * cell.factor
    if cell.deal_shape is None:
        g = np.ones((reps, n, 1), dtype=np.float32)
    else:
        g = rng.gamma(cell.deal_shape, 1.0 / cell.deal_shape, size=(reps, n, 1)).astype(np.float32)
    u = rng.random((reps, n, k), dtype=np.float32)
    w = rng.random((reps, n, k), dtype=np.float32)
    # the new rules' random number: the old one (w < shared) or (w − shared)/(1 − shared), uniform
    # and independent of u given w >= shared
    v = u if cell.shared >= 1 else np.where(w < cell.shared, u, (w - cell.shared) / (1.0 - cell.shared))
    out = []
    for won in (u < q_old * g, v < q_new * g):
        rows = np.flatnonzero(won.reshape(reps * n, k).any(axis=1))
        per_deal = won.reshape(reps * n, k)[rows]
        r, j = np.nonzero(per_deal)
        share = TIE_SHARES[rng.choice(3, size=r.size, p=cell.tie_probs)]
        units = np.bincount(rows[r], weights=share, minlength=reps * n) / k
        out.append(units.reshape(reps, n))
    return out[0], out[1]


def gate_factor(old: np.ndarray, new: np.ndarray, games_per_deal: int):
    """(factor, low, high) of one paired check's units, read as the gate reads them (``None`` when
    the gate prints no interval): the role's win share of both rule sets and the paired difference
    measured unit by unit (:class:`~analysis.check.measure.PairedMeasure`, rotated: not binary), one
    look of the sequential test, then the presentation's factor
    (:func:`analysis.check.presentation._factor_of`)."""
    from analysis.check.decision import SequentialTest
    from analysis.check.measure import KINDS, PairedMeasure
    from analysis.check.presentation import _factor_of

    wanted = [("role_win_share", "seigneur")]
    scale = KINDS["role_win_share"].scale
    binary = [games_per_deal == 1]
    measure = PairedMeasure(wanted, ["Seigneur side win share"], binary)
    measure.add(scale * new[:, None], scale * old[:, None], old.size * games_per_deal)
    test = SequentialTest(1)
    (r,) = test.look(measure.old.measurements(), measure.new.measurements(), [1.0],
                     old.size * games_per_deal, diff=measure.differences())
    return _factor_of(SimpleNamespace(paired=True), r)


def coverage(cell: Cell, reps: int, seed: int, batch: int = 250) -> tuple[int, int, float, float]:
    """(covered, intervals, median width in log, share of reps without an interval) of ``reps``
    paired checks of ``cell``: how often the gate's interval holds the true factor."""
    rng = np.random.default_rng(seed)
    hit = seen = 0
    widths = []
    for start in range(0, reps, batch):
        old, new = simulate_units(rng, cell, min(batch, reps - start))
        for o, nw in zip(old, new):
            got = gate_factor(o, nw, cell.k)
            if got is None:
                continue
            _, lo, hi = got
            seen += 1
            hit += lo <= cell.factor <= hi
            widths.append(np.log(hi / lo))
    return hit, seen, float(np.median(widths)) if widths else float("nan"), 1.0 - seen / reps
