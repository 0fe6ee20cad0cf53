"""Skill ladder: each bot against copies of each other bot, with seat rotation.

A cell (A, B) is ``players``-player games of one A against ``players - 1`` copies of B, every deal
played once per rotation of the seats (so A sits in every seat equally often and seat effects cancel,
as in duplicate formats and fishtest's paired games). The figure is A's mean win share, with its
95% Wilson interval; the fair share is 1 / players.

May import numpy and :mod:`simcore`, :mod:`strategies`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simcore.games.middle_ages import driver as D
from simcore.games.middle_ages import rules as R
from simcore.stats import wilson_interval
from strategies import middle_ages as S


@dataclass(frozen=True)
class Cell:
    bot: str
    opponent: str
    games: int
    win_share: float
    std_error: float
    ci_low: float
    ci_high: float
    fair: float

    @property
    def margin_in_se(self) -> float:
        """How many standard errors the bot's share lies above the fair share."""
        return (self.win_share - self.fair) / self.std_error if self.std_error > 0 else float("inf")


def duel(bot: str, opponent: str, games: int, *, players: int = 4, seed: int = 0,
         rules=None) -> Cell:
    """One ``bot`` against ``players - 1`` copies of ``opponent``; ``games`` rounded up to whole
    rotations."""
    rules = rules or R.load()
    deals = -(-games // players)
    n = deals * players
    _, rows = S.resolve([bot] + [opponent] * (players - 1), players)
    out = D.run_chunk(rules, players, 0, n, seed, rows, rotate=True)
    w = out["win_share"].reshape(-1, players).astype(np.float64)
    rotation = np.arange(n) % players
    seat_of_bot = (-rotation) % players   # rotation k: seat s plays strategy row (s + k) % P
    mine = w[np.arange(n), seat_of_bot]
    # paired by deal: the mean over the P rotations of a deal is one independent observation
    per_deal = mine.reshape(deals, players).mean(axis=1)
    mean = float(mine.mean())
    se = float(per_deal.std(ddof=1) / np.sqrt(deals)) if deals > 1 else float("nan")
    lo, hi = wilson_interval(mean, n)
    return Cell(bot, opponent, n, mean, se, lo, hi, 1.0 / players)


def ladder(bots: list[str], games: int, *, players: int = 4, seed: int = 0) -> list[Cell]:
    rules = R.load()
    return [duel(a, b, games, players=players, seed=seed, rules=rules)
            for a in bots for b in bots if a != b]
