"""A panel sweep's sentences (revB #5, #6): they say that their counts of cells are not adjusted over
the cells, name the cells behind the minority counts and a cell where the parameter has no measured
effect, say where the other parameters were held, and add a sentence on the metric a parameter moves
most when that is not the headline (a payment order moves the Censitaire seats, not the Seigneur).
Effects are written by hand: nothing is played (well under a second)."""

from __future__ import annotations

import polars as pl

from analysis import stats
from analysis.sweep.panel_effects import sentences

CELLS = ["4p even-lord", "4p greedy-lord", "4p harsh-lord", "5p even-lord"]


def _rows(metric, label, cells, same_as=None, mirror=False):
    return [{"parameter": "payment.order", "from": '"seat"', "to": '"simultaneous"',
             "at": "track.goal.4 = 10 (the base rules' value)", "metric": metric, "label": label,
             "unit": "pp", "share": True, "cell_label": c, "delta": d, "low": lo, "high": hi,
             "smallest": 0.01, "verdict": stats.practical(d, lo, hi, 0.01), "same_as": same_as,
             "mirror": mirror} for c, (d, lo, hi) in cells.items()]


def _effects():
    # the 5-player cell has no measured effect (fewer than two finished variants there)
    seigneur = {CELLS[0]: (0.004, 0.002, 0.006), CELLS[1]: (0.69, 0.67, 0.71),
                CELLS[2]: (0.0001, -0.0002, 0.0004)}
    seat4 = {CELLS[0]: (-0.017, -0.02, -0.014), CELLS[1]: (-0.529, -0.55, -0.51),
             CELLS[2]: (-0.015, -0.019, -0.011)}
    return pl.DataFrame(_rows("role_win_share_seigneur", "the Seigneur's win share", seigneur)
                        + _rows("seat_win_share_1", "seat 1 (Seigneur)'s win share", seigneur,
                                same_as="role_win_share_seigneur")
                        + _rows("seat_win_share_4", "seat 4 (Censitaire)'s win share", seat4))


def test_the_cells_behind_the_minority_counts_and_the_unmeasured_cell_are_named():
    lines = sentences(_effects(), CELLS)
    head = lines[0]
    assert "with track.goal.4 = 10 (the base rules' value)" in head
    assert "up in 2, unclear in 1 of 4 cells (4p harsh-lord)" in head, head
    assert "not measured in 1 (fewer than two finished variants: 5p even-lord)" in head, head
    # given only the number of cells, the unmeasured cell is still counted
    assert "not measured in 1 (fewer than two finished variants)" in sentences(_effects(), 4)[0]


def test_the_metric_a_parameter_moves_most_gets_its_sentence_and_the_counts_their_caveat():
    lines = sentences(_effects(), CELLS)
    assert len(lines) == 3, lines
    assert "seat 4 (Censitaire)'s win share (the metric it moves most)" in lines[1]
    assert "lowers" not in lines[1] and "down in 3" in lines[1]       # one cell is not measured
    assert not any("seat 1 (Seigneur)" in x for x in lines)           # the Seigneur's share, again
    assert lines[-1].startswith("These counts of cells are not adjusted over the 4 cells")
    # asked for another metric, the sentences are that metric's alone
    only = sentences(_effects(), CELLS, "seat_win_share_4")
    assert len(only) == 1 and "moves most" not in only[0]
