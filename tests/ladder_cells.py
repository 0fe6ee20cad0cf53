"""Test helper (not a test module): a made-up rotated ladder cell, as :func:`analysis.ladder.duel`
builds one. Imported as ``from ladder_cells import rotated_cell`` (tests/ is on the path, as for
page_tables)."""

from __future__ import annotations

import numpy as np

from analysis import ladder as L


def rotated_cell(bot: str, opp: str, wins: int, seed: int, deals: int, players: int = 4) -> L.Cell:
    """A rotated cell of ``wins`` in ``deals`` × ``players`` games, the wins placed at random."""
    w = np.zeros(deals * players)
    w[np.random.default_rng(seed).choice(w.size, wins, replace=False)] = 1.0
    w = w.reshape(deals, players)
    mean, se, lo, hi = L.deal_interval(w)
    return L.Cell(bot, opp, w.size, mean, se, lo, hi, 1 / players, per_deal=w.mean(axis=1))
