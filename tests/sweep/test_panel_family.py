"""The panel's finding adjusts its per-cell calls over its family (every seat of every cell,
Bonferroni) and names that family in its sentence: on a synthetic panel where each cell's own 95%
interval calls the seat clearly above 1/P in every cell, the adjusted calls (checked against
statsmodels' Bonferroni over the score tests' two-sided p-values, the test a Wilson interval
inverts, and statsmodels' Wilson interval at level 1 − 0.05/m) do not."""

from __future__ import annotations

import re
from types import SimpleNamespace

import numpy as np
import polars as pl
from scipy.stats import norm
from statsmodels.stats.proportion import proportion_confint

from analysis import panel

P = 4
FAIR = 1 / P
Z95 = norm.ppf(0.975)
# seat 1's z statistic against 1/P in each cell: clear on its own at 95% in all three cells (2.2 > 1.96),
# clear after Bonferroni over 3 × 4 = 12 seat × cell comparisons only in the last (z_12 ≈ 2.87)
SEAT1_Z = (2.2, 2.3, 5.0)
SE = 0.01
GAMES = 1875             # the binomial se of a share of 1/P over these games: sqrt(0.25 · 0.75 / 1875) = 1 pp


from holm_reference import multipletests  # noqa: E402  (statsmodels' Holm, without its gc.collect)


def _cells() -> pl.DataFrame:
    rows = []
    for k, z1 in enumerate(SEAT1_Z):
        for s in range(1, P + 1):
            est = FAIR + (z1 * SE if s == 1 else -1.0 * SE)
            rows.append({"cell": k, "label": f"4p cell {k}", "players": P, "games": GAMES, "run": f"r{k}",
                         "metric": f"seat_win_share_{s}", "what": f"seat {s}", "share": True,
                         "estimate": est, "low": est - Z95 * SE, "high": est + Z95 * SE, "fair": FAIR})
    return pl.DataFrame(rows)


def test_unadjusted_intervals_call_every_cell_clear_and_the_adjusted_only_one():
    cells = _cells()
    seats = cells.filter(pl.col("metric").str.starts_with("seat_win_share_"))
    seat1 = seats.filter(pl.col("metric") == "seat_win_share_1")
    assert (seat1["low"] > seat1["fair"]).all()              # each cell on its own: clear in all 3

    # independent: the score test's two-sided p of every seat × cell against 1/P (se at 1/P: 1 pp),
    # Bonferroni and Holm over all 12
    z = ((seats["estimate"] - seats["fair"]) / np.sqrt(FAIR * (1 - FAIR) / GAMES)).to_numpy()
    p = 2 * norm.sf(np.abs(z))
    bonf = multipletests(p, alpha=0.05, method="bonferroni")[0]
    holm = multipletests(p, alpha=0.05, method="holm")[0]
    is1 = (seats["metric"] == "seat_win_share_1").to_numpy()
    assert bonf[is1].tolist() == [False, False, True] == holm[is1].tolist()

    adj, m, zc = panel.adjusted_seat_intervals(cells)
    assert m == 12
    np.testing.assert_allclose(zc, norm.ppf(1 - 0.05 / 24), rtol=1e-9)
    # each adjusted interval is the seat's Wilson interval at level 1 − 0.05/12 (never a normal
    # interval, which leaves [0, 1] near a share of 0 or 1)
    lo, hi = proportion_confint(seats["estimate"].to_numpy() * GAMES, GAMES, alpha=0.05 / 12, method="wilson")
    np.testing.assert_allclose(adj["adj_low"].to_numpy(), lo, rtol=1e-9)
    np.testing.assert_allclose(adj["adj_high"].to_numpy(), hi, rtol=1e-9)
    clear = ((adj["adj_low"] > adj["fair"]) | (adj["adj_high"] < adj["fair"])).to_numpy()
    assert clear.tolist() == bonf.tolist()                   # interval excludes 1/P ⇔ Bonferroni rejects

    text = panel.finding(cells, SimpleNamespace(roles_alike=True), n=3, smallest=0.03)
    assert text.startswith("The finding does not hold in every cell: Seat 1 wins more"), text
    assert "in 1 of 3 cells (1 above, 2 unclear)" in text, text
    # cell 2 is 5 pp above 1/P, its adjusted interval 2.06 to 8.11 pp above: at 3 pp the games cannot
    # tell whether it matters (the size is read on that interval, not on the estimate) ...
    assert re.search(r"in that cell, perhaps by 3 pp or more \(clear, may matter: these games cannot tell\);",
                     text), text
    # ... and at 2 pp the whole interval is beyond it: large enough to matter
    text2 = panel.finding(cells, SimpleNamespace(roles_alike=True), n=3, smallest=0.02)
    assert re.search(r"in that cell, by at least 2 pp \(clear and large enough to matter\);", text2), text2
    # the family named is the one adjusted
    assert "simultaneous over the panel's 12 seat × cell comparisons" in text and "Bonferroni" in text, text
    assert "at most 5%" in text and "2.5%" not in text


def test_every_cell_is_said_only_when_every_adjusted_interval_is_on_one_side():
    cells = _cells().with_columns(
        pl.when(pl.col("metric") == "seat_win_share_1").then(FAIR + 6 * SE).otherwise(pl.col("estimate"))
        .alias("estimate"))
    cells = cells.with_columns((pl.col("estimate") - Z95 * SE).alias("low"),
                               (pl.col("estimate") + Z95 * SE).alias("high"))
    text = panel.finding(cells, SimpleNamespace(roles_alike=True), n=3, smallest=0.01)
    assert text.startswith("The finding holds in every cell: Seat 1 wins more than a fair seat share (1/P) in all 3 cells")


def test_a_seat_that_some_cells_do_not_have_is_not_counted_unclear_there():
    """Over 3- and 4-player cells, seat 4 exists only at 4 players: the 3-player cells are named
    as having no seat 4, not counted among the cells where its call is unclear."""
    four = _cells().with_columns(
        pl.when(pl.col("metric") == "seat_win_share_4").then(FAIR + 6 * SE)
        .otherwise(FAIR - 2 * SE).alias("estimate")).filter(pl.col("cell") < 2)
    three = pl.DataFrame([{"cell": 2 + k, "label": f"3p cell {k}", "players": 3, "games": 1000,
                           "run": f"t{k}", "metric": f"seat_win_share_{s}", "what": f"seat {s}",
                           "share": True, "estimate": 1 / 3, "fair": 1 / 3}
                          for k in range(2) for s in (1, 2, 3)])
    cells = pl.concat([four, three], how="diagonal").with_columns(
        (pl.col("estimate") - Z95 * SE).alias("low"), (pl.col("estimate") + Z95 * SE).alias("high"))
    text = panel.finding(cells, SimpleNamespace(roles_alike=True), n=4, smallest=0.01)
    assert "Seat 4 wins more" in text, text
    assert "unclear" not in text and "in both cells with a seat 4" in text, text
    assert "2 of the 4 cells have no seat 4 (3 players)" in text, text
    assert not text.startswith("The finding holds in every cell:"), text
