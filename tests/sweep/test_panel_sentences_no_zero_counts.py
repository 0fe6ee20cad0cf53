"""Panel sentences never print a count of 0 ("clear but small in 0 of 3 cells", "in 0 of those 1",
"up in 0"): only the counts that are not 0, the last followed by "of N cells", and the counts
printed still add up to the cells they split; when nothing is clear the sentence says so in words.
Checked on constructed cases: every cell large enough to matter, a mix, none clear — both for a
panel sweep's sentences (analysis.sweep.panel_effects.sentences) and a panel page's finding
(analysis.panel.finding)."""

from __future__ import annotations

import re
from types import SimpleNamespace

import polars as pl
import pytest

from analysis import panel
from analysis.sweep.panel_effects import in_cells, sentences
from tests.sweep.test_panels import _effects


def _no_zero(text: str) -> None:
    assert not re.search(r"\bin 0\b|\b0 (above|below|unclear)\b", text), text


def _by_size(text: str) -> int:
    """The cells a panel sweep sentence words by size: the sum of the counts "… in k" of its last
    list (after its last "): ", up to "of N cells")."""
    part = text.rsplit("): ", 1)[1].split(" cells", 1)[0]
    return sum(int(k) for k in re.findall(r" in (\d+)", part))


LARGE3 = [(-0.02, -0.03, -0.01), (-0.19, -0.21, -0.17), (-0.05, -0.06, -0.04)]
MIXED = [(-0.05, -0.06, -0.04), (-0.002, -0.003, -0.001), (0.01, -0.001, 0.02)]


@pytest.mark.parametrize("rows, smallest, want", [
    # all three clearly down, all large enough to matter at 1 pp
    (LARGE3, 0.01, "clear and large enough to matter (at least 1 pp) in 3 of 3 cells."),
    # at 3 pp the −2 pp cell (−3 to −1) may matter, the other two matter
    (LARGE3, 0.03, "clear and large enough to matter (at least 3 pp) in 2, clear, may matter (these games "
                   "cannot tell whether it reaches 3 pp) in 1 of 3 cells."),
    # all three clear but small at 30 pp
    (LARGE3, 0.30, ": clear but small (less than 30 pp) in 3 of 3 cells."),
    # mixed ways: two down (one large, one small), none up, one unclear
    (MIXED, 0.01, "does not move the seigneurs' win share the same way in every cell: down in 2, unclear in 1 "
                  "of 3 cells (cell 2);"),
])
def test_a_panel_sweep_sentence_prints_only_the_counts_that_are_not_zero(rows, smallest, want):
    s = sentences(_effects(rows, smallest), 3)[0]
    assert want in s, s
    _no_zero(s)
    clear = sum(lo > 0 or hi < 0 for _, lo, hi in rows)
    assert _by_size(s) == clear, s                     # the counts printed add up to the clear cells


def test_a_mixed_panel_sweep_sentence_splits_its_clear_cells_by_size_without_zeros():
    s = sentences(_effects(MIXED), 3)[0]
    assert s.endswith(": clear and large enough to matter (at least 1 pp) in 1, clear but small in 1 of 3 "
                      "cells."), s
    _no_zero(s)


def test_a_panel_sweep_sentence_where_no_cell_is_clear_says_so_in_words():
    s = sentences(_effects([(0.001, -0.01, 0.012), (-0.002, -0.02, 0.01), (0.0, 0.0, 0.0)]), 3)[0]
    assert s.startswith("Moving track.goal.4 from 8 to 12 moves the seigneurs' win share clearly in none of "
                        "the 3 cells: unchanged in 1 (cell 2: no game's outcome moved), unclear in 2 of 3 cells;"), s
    assert "same way" not in s and "large enough" not in s, s
    _no_zero(s)


def test_in_cells_leaves_out_zero_counts_and_returns_none_when_all_are_zero():
    assert in_cells([("up", 0), ("down", 2), ("unchanged", 1, "(no game's outcome moved)")], 3) == \
        "down in 2, unchanged in 1 of 3 cells (no game's outcome moved)"
    assert in_cells([("large", 0), ("small", 0)], 3) is None


# --- the panel page's finding: seat 1 of 4, three cells, se 1 pp, its own 95% intervals ---------
P, FAIR, SE, Z95 = 4, 0.25, 0.01, 1.959963984540054   # 1,875 games: a binomial se of 1 pp at 1/P


def _cells(seat1_off: tuple[float, ...]) -> pl.DataFrame:
    """Seat 1 ``off`` (in se) above 1/P in each cell; the other seats share the rest."""
    rows = []
    for k, off in enumerate(seat1_off):
        for s in range(1, P + 1):
            est = FAIR + (off * SE if s == 1 else -off * SE / (P - 1))
            rows.append({"cell": k, "label": f"4p cell {k}", "players": P, "games": 1875, "run": f"r{k}",
                         "metric": f"seat_win_share_{s}", "what": f"seat {s}", "share": True,
                         "estimate": est, "low": est - Z95 * SE, "high": est + Z95 * SE, "fair": FAIR})
    return pl.DataFrame(rows)


def _finding(off, smallest):
    return panel.finding(_cells(off), SimpleNamespace(roles_alike=True), n=len(off), smallest=smallest)


def test_a_finding_in_every_cell_all_large_says_in_all_of_them():
    # 12 se above 1/P; Bonferroni z over 12 seat x cell ~ 2.87: adjusted (Wilson) interval 8.9 to 15.2 pp
    text = _finding((12, 12, 12), 0.05)
    assert "in all 3 cells; by at least 5 pp (clear and large enough to matter) in all 3 of them;" in text, text
    _no_zero(text)


def test_a_finding_with_cells_of_each_size_prints_only_the_sizes_present():
    # Bonferroni z over 16 seat x cell ~ 2.95: seat 1's adjusted (Wilson) intervals 10.7-17.4, 8.8-15.3,
    # 2.0-8.2 pp above 1/P and one unclear cell (1 se); against 10 pp one of each size
    text = _finding((14, 12, 5, 1), 0.10)
    assert "in 3 of 4 cells (3 above, 1 unclear); of those 3, by at least 10 pp (clear and large enough to " \
           "matter) in 1, perhaps by 10 pp or more (clear, may matter: these games cannot tell) in 1, by less " \
           "than 10 pp (clear but small) in 1;" in text, text
    _no_zero(text)
    two = _finding((12, 5, 5, 1), 0.10)
    assert "of those 3, perhaps by 10 pp or more (clear, may matter: these games cannot tell) in 1, by less " \
           "than 10 pp (clear but small) in 2;" in two, two
    _no_zero(two)
    _no_zero(text)
    one = _finding((2, 2, 5), 0.03)
    assert "in 1 of 3 cells (1 above, 2 unclear); in that cell, perhaps by 3 pp or more (clear, may matter: " \
           "these games cannot tell);" in one, one
    _no_zero(one)


def test_a_finding_where_no_cell_is_clear_says_none_in_words():
    text = _finding((1, 1.5, 0.5), 0.01)
    assert "wins more than a fair seat share (1/P) in none of the 3 cells (3 unclear);" in text, text
    assert "large enough" not in text and "of those" not in text, text
    _no_zero(text)
