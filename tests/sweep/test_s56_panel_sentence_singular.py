"""A panel sweep's sentence names its smallest difference in the singular at exactly 1 ("at least
1 player turn", not "1 player turns": session 56, helper-201's leftover), and in the plural above it.
The wording lives in the analysis layer (analysis.sweep.panel_effects), which takes the singular
from simcore.numbers.singular (reports.text re-exports it). Effects are written by hand: nothing is
played."""

from __future__ import annotations

import polars as pl
import pytest

from analysis import stats
from analysis.sweep.panel_effects import sentences

CELLS = ["4p balanced", "5p balanced"]


def _effects(smallest: float) -> pl.DataFrame:
    cells = {CELLS[0]: (3.0, 2.5, 3.5), CELLS[1]: (4.0, 3.4, 4.6)}       # clearly past it in both
    return pl.DataFrame([{"parameter": "setup.turns", "from": "12", "to": "16", "at": "",
                          "metric": "mean_game_length", "label": "the mean game length",
                          "unit": "player turns", "share": False, "cell_label": c, "delta": d,
                          "low": lo, "high": hi, "smallest": smallest,
                          "verdict": stats.practical(d, lo, hi, smallest), "same_as": None,
                          "mirror": False} for c, (d, lo, hi) in cells.items()])


@pytest.mark.parametrize("smallest, words", [(1.0, "at least 1 player turn)"),
                                             (2.0, "at least 2 player turns)")])
def test_the_smallest_difference_is_singular_at_one(smallest, words):
    head = sentences(_effects(smallest), CELLS)[0]
    assert "clear and large enough to matter" in head, head
    assert words in head, head
