"""Seigneurial's land improvements: games played on with them, not merely reached (review s46 #2).

The improvements come at the end of the turn the Seigneur reaches the midpoint (SG-5.6), and SG-6
may end the game at the end of that same turn: such a game never plays a turn with them. The
headline counted those games as reaching the improvements (at 5 players 16% of games, 58% of them
ending that very turn), and the Seigneur's win share "in games that reach the improvements" was
pulled down by games he could not win. Checked against games.parquet counted here, through both
table paths (the statistics and the rows), and the headline's words against those counts."""

from __future__ import annotations

import html
import re

import polars as pl
import pytest

import undrawn_figures as undrawn
from analysis import open_runs
from analysis.games.seigneurial import improvement_table
from cli import _run
from reports.text import pct

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


@pytest.fixture(scope="module")
def run5(tmp_path_factory):
    run = tmp_path_factory.mktemp("sg5") / "r"
    assert _run(["simulate", "--game", "seigneurial", "--players", "5", "--games", "5000", "--seed", "3",
                 "--out", str(run), "-q"]) == 0
    return run


def _truth(run):
    g = pl.read_parquet(run / "games.parquet")
    reached = g["improvement_turn"] >= 0
    played = reached & (g["turns"] > g["improvement_turn"])
    lord = g["winner_role"].cast(pl.Utf8) == "seigneur"
    return g, reached, played, lord


@pytest.mark.parametrize("source", ["stats", "rows"])
def test_the_table_counts_games_played_with_the_improvements(run5, source):
    g, reached, played, lord = _truth(run5)
    assert 0 < played.sum() < reached.sum()              # some games end the turn they came
    t = improvement_table(open_runs([run5], source=source))
    before, after = t.row(0, named=True), t.row(1, named=True)
    assert after["games"] == played.sum() and before["games"] == g.height - played.sum()
    assert after["reached"] == reached.sum() and before["games"] + after["games"] == g.height
    assert after["seigneur_wins"] == pytest.approx((lord & played).sum())
    assert before["seigneur_wins"] == pytest.approx((lord & ~played).sum())
    assert after["mean_turns"] == pytest.approx(g.filter(played)["turns"].mean())
    assert before["mean_turns"] == pytest.approx(g.filter(~played)["turns"].mean())
    assert after["mean_improvement_turn"] == pytest.approx(g.filter(played)["improvement_turn"].mean())


def test_the_headline_says_played_with_and_reached(run5, tmp_path):
    g, reached, played, _ = _truth(run5)
    with undrawn.figures_undrawn():
        assert _run(["report", str(run5), "--out", str(tmp_path / "rep")]) == 0
    page = html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", (tmp_path / "rep" / "report.html").read_text())))
    m = re.search(r"([\d.]+)% \([\d.–]+\) of games are played on with the land improvements, which came "
                  r"on average at the end of turn [\d.]+; ([\d.]+)% of games reach them, (\d+)% of those "
                  r"ending on that very turn", page)
    assert m, page[page.find("land improvements") - 300:][:600]
    assert m[1] == pct(played.mean()) and m[2] == pct(reached.mean())
    assert m[3] == pct(1 - played.sum() / reached.sum(), 0)
    assert "of games reach the land improvements" not in page
