"""Session 56 designer review, leftover #4: on a panel's skill page each cell's gain sentence ended
with the searching seat "over all its games" against the bots, its "95% interval" that cell's
alone and its verdict ("clearly more, so the budgets do measure stronger play") read on it, while
the sentence's seats are clear by Holm over every (cell, seat) comparison of the page and named
"every gain sentence of the page": k cells made k such claims at 5% each. On a panel of several
cells the overall comparisons are now one family too (Bonferroni over the cells that have one, each
interval at level 1 − 0.05/k), the verdict is read on that interval, and the clause prints both,
each named: the cell's own 95% interval ("for this cell alone, not adjusted") and the one its
verdict is read on ("all k cells' overall comparisons at once"). Checked against the interval computed here
from the counts (Wald's for the difference of the two weighted means, scipy's normal quantile).
A page of one cell keeps its one 95% interval and words."""

from __future__ import annotations

import re

import numpy as np
import polars as pl
import pytest
from scipy.stats import norm

from reports.skill import gain_sentence
from tests.reports.test_s55_gain_family_over_cells import BOT, CELLS, _table

# 4×greedy: every seat 27.5% of 400 games against the bots' 25.0% of 4,000: over its 1,600 games
# +2.5 pp, clear on the cell's own 95% interval (+0.3 to +4.7 pp), not on the 3 cells' at once
PANEL = {**CELLS, "4p 4×greedy": ([(110, 400)] * 4, [1000] * 4)}


def _interval(cell, level):
    """The overall difference's Wald interval from the counts (the bots' seats of the same games:
    the multinomial variance of their weighted mean)."""
    top, bot = PANEL[cell]
    wins, n = np.array([x for x, _ in top], float), np.array([m for _, m in top], float)
    w, w0 = wins / n, np.array(bot, float) / BOT
    c = n / n.sum()
    p, p0 = (w * n + 1) / (n + 2), (w0 * BOT + 1) / (BOT + 2)
    var = (c ** 2 * p * (1 - p) / n).sum() + max(0.0, (c ** 2 * p0).sum() - (c * p0).sum() ** 2) / BOT
    d = (c * w).sum() - (c * w0).sum()
    z = norm.ppf(1 - (1 - level) / 2)
    return d - z * np.sqrt(var), d + z * np.sqrt(var)


def _number(text: str) -> float:
    return float(text.replace("−", "-")) / 100


def _clause(words: str) -> str:
    return words.split("; over all its", 1)[1]


def test_each_cells_overall_clause_names_its_own_interval_and_the_panels_it_is_read_on():
    table = _table(PANEL)
    k = len(PANEL)
    for cell in PANEL:
        words = _clause(gain_sentence(table.filter(pl.col("cell") == cell), family=table))
        m = re.search(r"\(95% interval for this cell alone, not adjusted, ([−+]?[\d.]+) to ([−+]?[\d.]+) pp; "
                      rf"all {k} cells' overall comparisons at once, Bonferroni at 98.33% each, "
                      r"([−+]?[\d.]+) to ([−+]?[\d.]+) pp; both Wald's", words)
        assert m, (cell, words)
        own, joint = _interval(cell, 0.95), _interval(cell, 1 - 0.05 / k)
        for text, end in zip(m.groups(), (*own, *joint)):
            assert abs(_number(text) - end) <= 0.5 * 10 ** -(len(text.split(".")[1]) + 2) + 1e-12, (cell, text, end)


def test_the_verdict_is_read_on_the_interval_it_names():
    table = _table(PANEL)
    words = gain_sentence(table.filter(pl.col("cell") == "4p 4×greedy"), family=table)
    own, joint = _interval("4p 4×greedy", 0.95), _interval("4p 4×greedy", 1 - 0.05 / len(PANEL))
    assert own[0] > 0 and joint[0] < 0            # the design: clear alone, not at once
    clause = _clause(words)
    assert "), not clearly different" in clause, clause
    assert "clearly the stronger player" not in words, words
    assert words.endswith("nor over all its games; play more games before reading the trend as a "
                          "searching seat's gain."), words
    # a cell clear on both: "clearly more", read on the panel's interval
    words = _clause(gain_sentence(table.filter(pl.col("cell") == "4p 4×balanced"), family=table))
    assert "), clearly more, by enough to matter" in words, words


def test_one_cell_keeps_its_one_95_interval():
    one = {"4p 4×greedy": PANEL["4p 4×greedy"]}
    table = _table(one)
    words = gain_sentence(table, family=table)
    assert words == gain_sentence(table)
    assert "(95% interval +0.3 to +4.7 pp, Wald's for the difference of the two means" in words, words
    assert "over all its games one searching seat clearly gains on the bots" in words, words
