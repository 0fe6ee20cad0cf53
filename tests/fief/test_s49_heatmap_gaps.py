"""A Fief heat map of a grid with gaps (``--attackers 1-5,8,12-20``) puts every cell on its own
points, the skipped ones blank (review s49 #1: the 15 rows were stretched over 20 points, so the
cell at the tick "12" held 14 attackers and the 50 % border of defender 1 sat at 3.2 points, not
on the cell edge at 2.5)."""

from __future__ import annotations

import numpy as np

from reports.figures import fief as figs
from simcore.games.fief.odds import odds_frame
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

ATTACKERS = [*range(1, 6), 8, *range(12, 21)]


def test_each_cell_sits_on_its_own_points_and_gaps_are_blank(rules):
    odds = odds_frame(rules, ATTACKERS, range(1, 4), ["open"])
    fig = figs.heatmap_figure(odds, "open", (0.5,))
    im = fig.axes[0].images[0]
    grid = np.asarray(im.get_array().filled(np.nan) if np.ma.isMaskedArray(im.get_array())
                      else im.get_array(), dtype=float)
    x0, x1, y0, y1 = im.get_extent()
    assert (y0, y1) == (0.5, 20.5) and grid.shape[0] == 20      # one row per point, 1 … 20
    rows = {a: grid[int(a - 1)] for a in range(1, 21)}
    for a in ATTACKERS:
        want = odds.filter((odds["attacker"] == a) & (odds["defender"] == 2))["p_attacker_wins"][0]
        assert rows[a][1] == want, a
    for a in (6, 7, 9, 10, 11):
        assert np.isnan(rows[a]).all(), a
    # the 50 % border of defender 1 lies on a cell edge (a whole number + 0.5)
    segs = [s for c in fig.axes[0].collections for s in c.get_segments()]
    ys = {round(float(y), 6) for s in segs for _, y in s}
    assert ys and all(abs(y - round(y - 0.5) - 0.5) < 1e-9 for y in ys), ys


def test_the_legend_says_what_a_blank_cell_is_only_when_there_is_one(rules):
    gaps = figs.heatmap_figure(odds_frame(rules, ATTACKERS, range(1, 4), ["open"]), "open", (0.5,))
    whole = figs.heatmap_figure(odds_frame(rules, range(1, 6), range(1, 4), ["open"]), "open", (0.5,))
    said = [[t.get_text() for t in f.legends[0].get_texts()] for f in (gaps, whole)]
    assert "blank: not in the grid" in said[0] and "blank: not in the grid" not in said[1]
