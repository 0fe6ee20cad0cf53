"""The panel page of a game with roles (revB #1, #2): Seigneurial's one Seigneur against three
Censitaires has no fair share per seat, so the page never judges a seat against 1/P; it gives each
side's win share per cell and each Censitaire seat's share of the Censitaires' wins against an equal
split (as a run's page does, analysis.roles), adjusted over the panel. Its share intervals are
Wilson intervals: no win in 2,000 games is 0 to 0.19%, never "0.0% (-0.0 to 0.0)"."""

from __future__ import annotations

import html as html_mod
import re

import numpy as np
import polars as pl
import pytest
from statsmodels.stats.proportion import proportion_confint

from analysis import open_runs, panel
from analysis.roles import role_seat_table
from reports.panel import build_panel_report
from tests.analysis.analysis_runs import write_run

GAMES = 2000


def _cell(path, censitaires, seigneur_wins=0, lineup=("even-lord", "fair-share"), seed=3):
    """A 4-player Seigneurial run: the Seigneur (seat 1) wins ``seigneur_wins`` games, the other games
    go to the Censitaire seats 2-4 with probabilities ``censitaires``."""
    rng = np.random.default_rng(seed)
    winner = 1 + rng.choice(3, size=GAMES, p=np.asarray(censitaires) / sum(censitaires))
    winner[:seigneur_wins] = 0
    game = np.repeat(np.arange(GAMES), 4)
    seat = np.tile(np.arange(4), GAMES)
    win = (seat == np.repeat(winner, 4)).astype(float)
    lord, tenant = lineup
    return write_run(path, {"game": game, "seat": seat,
                            "strategy": [lord if s == 0 else tenant for s in seat],
                            "score": rng.integers(0, 20, size=game.size), "win_share": win,
                            "rank": np.where(win > 0, 1, 2), "role": ["seigneur" if s == 0 else "censitaire"
                                                                    for s in seat]},
                     game="seigneurial", strategies=[lord, tenant, tenant, tenant])


@pytest.fixture(scope="module")
def cells(tmp_path_factory):
    d = tmp_path_factory.mktemp("sgpanel")
    # the review's greedy-lord + 3×dutiful: seat 2 takes ~5% of the Censitaires' wins, seat 4 ~63%;
    # the Seigneur never wins
    greedy = _cell(d / "cell-1", (0.05, 0.32, 0.63), lineup=("greedy-lord", "dutiful"))
    # even seats, the Seigneur wins 3 games of 2,000
    even = _cell(d / "cell-2", (1, 1, 1), seigneur_wins=3, seed=4)
    return d, greedy, even


def test_the_finding_of_a_game_with_roles_is_by_side_and_within_a_role_never_against_1_over_p(cells):
    d, greedy, even = cells
    t = panel.panel_table([d])
    text = t.finding
    # the sides (the Seigneur's, then the other), then the Censitaires' split: the page's lead
    assert t.roles and len(t.lead) == 3, t.lead
    assert "1/P" not in text and "fair seat share" not in text, text
    assert t.cells.filter(pl.col("metric").str.starts_with("seat_win_share_"))["fair"].is_null().all()
    # each side's win share over the cells, the cells named
    assert t.lead[0].startswith("The finding, by side: the Seigneur's win share runs from 0.0% (0.0–0.2) "
                                "in 4p greedy-lord + 3×dutiful to 0.15% (0.03–0.44) in 4p even-lord + "
                                "3×fair-share"), t.lead[0]
    assert t.lead[1].startswith("The other side: the Censitaires' win share runs from "), t.lead[1]
    # the real finding: within the Censitaires, in the greedy cell, with the run page's numbers
    seats = role_seat_table(open_runs([greedy])).filter(pl.col("role") == "censitaire").sort("share_of_role")
    lo, hi = seats.row(0, named=True), seats.row(-1, named=True)
    within = t.lead[2]
    assert within.startswith("Censitaire seats split the Censitaires' wins unequally in 1 of the 2 cells"), within
    assert "in that cell (4p greedy-lord + 3×dutiful), by at least 1 pp of the Censitaires' wins (clear and " \
           "large enough to matter)" in within, within
    assert "in the other, 4p even-lord + 3×fair-share, no seat is clearly off it" in within, within
    # (at the tables' rounding, halves away from zero: reports.text.pct_ci; review s42 A #1, #13)
    from reports.text import pct_ci

    gap = (f"The largest clear gap is in 4p greedy-lord + 3×dutiful (2,000 Censitaire wins): Seat 4 takes "
           f"{pct_ci(hi['share_of_role'], hi['share_low'], hi['share_high'])} of the "
           f"Censitaires' wins and Seat 2 {pct_ci(lo['share_of_role'], lo['share_low'], lo['share_high'])}, "
           f"against an equal 33.3% each")
    assert gap in within, within
    assert "Holm over the panel's 6 seat × cell comparisons" in within, within


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_page_prints_the_analysis_lead_as_it_is(cells, tmp_path):
    """The lead of a panel of a game with roles is worded once, in the analysis layer
    (analysis.panel.role_finding); the page and the command line print it as it is."""
    d, _, _ = cells
    printed: list[str] = []
    build_panel_report([d], tmp_path / "rep", answers=printed)
    assert printed[1:] == [f"  {x}" for x in panel.panel_table([d]).lead], printed


def test_the_seats_within_a_role_are_adjusted_over_every_cell_by_holm(cells, multipletests):
    d, greedy, even = cells
    t = panel.panel_table([d])
    rows = t.cells.filter(pl.col("metric").str.starts_with("role_seat_share_"))
    assert rows.height == 6
    # the panel's p-values: Holm over all 6 of the cells' own (unadjusted) p-values
    want = multipletests(rows["p_value"].to_numpy(), method="holm")[1]
    np.testing.assert_allclose(rows["p_panel"].to_numpy(), want, rtol=1e-12)
    # the cells' own tests: each Censitaire seat's wins among the Censitaires' N wins against
    # Binomial(N, 1/3), exact (scipy's binomtest: the games are independent and every win is one
    # seat's; the Wald test of the run page was anti-conservative at a few dozen wins of the role,
    # the statistics audit of session 37)
    from scipy.stats import binomtest

    for run, part in ((greedy, rows.filter(pl.col("cell") == 0)), (even, rows.filter(pl.col("cell") == 1))):
        own = role_seat_table(open_runs([run])).filter(pl.col("role") == "censitaire").sort("seat")
        wins = [int(round(w)) for w in own["wins"].to_list()]
        assert all(abs(w - x) < 1e-9 for w, x in zip(wins, own["wins"].to_list()))
        exact = [binomtest(w, sum(wins), 1 / len(wins)).pvalue for w in wins]
        np.testing.assert_allclose(part["p_value"].to_numpy(), exact, rtol=1e-9)
        np.testing.assert_allclose(part["estimate"].to_numpy(), own["share_of_role"].to_numpy(), rtol=1e-12)
    assert rows.filter(pl.col("cell") == 1)["clear"].sum() == 0
    assert rows.filter(pl.col("cell") == 0, pl.col("seat").is_in([2, 4]))["clear"].all()


def test_share_intervals_on_the_panel_are_wilson_and_never_leave_0_to_1(cells):
    d, greedy, even = cells
    t = panel.panel_table([d])
    shares = t.cells.filter(pl.col("share"))
    assert (shares["low"] >= 0).all() and (shares["high"] <= 1).all() and (shares["high"] > shares["low"]).all()
    lord = t.cells.filter(pl.col("metric") == "role_win_share_seigneur").sort("cell")
    # no win in 2,000 games: the Wilson interval, 0 to 0.19% (statsmodels' score interval at 0 wins)
    want = proportion_confint(0, GAMES, alpha=0.05, method="wilson")
    assert lord["low"][0] == 0.0 and lord["high"][0] == pytest.approx(want[1], rel=1e-9)
    cens = t.cells.filter(pl.col("metric") == "role_win_share_censitaire").sort("cell")
    assert cens["high"][0] == 1.0 and cens["low"][0] == pytest.approx(1 - want[1], rel=1e-9)
    seat3 = t.cells.filter(pl.col("metric") == "seat_win_share_3", pl.col("cell") == 1).row(0, named=True)
    want = proportion_confint(seat3["estimate"] * GAMES, GAMES, alpha=0.05, method="wilson")
    assert (seat3["low"], seat3["high"]) == pytest.approx(want, rel=1e-9)


def test_the_cell_table_prints_an_interval_of_no_win_in_20000_games_with_its_width():
    """The review's panel: 0 Seigneur wins in 20,000 games printed "0.0% (0.0 to 0.0)"; its Wilson
    interval is 0 to 0.019%, printed with the decimals that show it."""
    from reports.panel import _cell_metric_table

    high = proportion_confint(0, 20000, alpha=0.05, method="wilson")[1]
    rows = pl.DataFrame([{"cell": 0, "label": "4p c", "players": 4, "games": 20000, "what": "the Seigneur's win share",
                          "share": True, "estimate": 0.0, "low": 0.0, "high": high}])
    assert _cell_metric_table(rows)["the Seigneur's win share"][0] == "0.00% (0.00–0.02)"


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_panel_page_of_a_game_with_roles(cells, tmp_path):
    d, _, _ = cells
    html = build_panel_report([d], tmp_path / "rep").read_text(encoding="utf-8")
    text = html_mod.unescape(re.sub(r"<[^>]+>", " ", html))
    assert "1/P" not in text and "fair seat share" not in text
    assert "Who wins, by side and by seat within a role, per cell" in text and "no fair share per seat" in text
    assert "Seat 2's share of the Censitaires' wins" in text
    # an interval never prints as one value or below 0
    assert "0.0% (0.0–0.2)" in text and "100.0% (99.8–100.0)" in text
    assert "-0.0" not in text and not re.search(r"(\d+\.\d+)% \(\1–\1\)", text)
