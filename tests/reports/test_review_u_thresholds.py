"""Review U #3: a before/after's count sentence printed the smallest difference that matters of
the tile slopes as "0.01 pp per tile" (the fraction 0.01, which is 1 pp per tile, with "pp" after
it), and the lead changes per game were sized against the game's score amount ("2 lead changes" in
Middle-Ages, two thirds of their mean of 3) where the page says a mean count per game is sized
against 0.01 a game."""

from __future__ import annotations

import polars as pl
import pytest

from analysis import analyse, open_runs, stats
from analysis.compare import compare_tables
from analysis.load import smallest_difference
from simcore import runner


def test_the_thresholds_are_printed_in_the_unit_of_their_rows():
    from reports.text import _small_thresholds

    rows = pl.DataFrame({"metric": ["seat_win_share", "tile_slope", "lead_changes_by_turn", "seat_mean_score"],
                         "key": ["Seat 1", "Palais", "all", "Seat 1"],
                         "kind": ["proportion", "slope", "mean", "mean"],
                         "smallest": [0.01, 0.01, 0.01, 2.0], "verdict": [stats.SMALL] * 4})
    assert _small_thresholds(rows, "coins") == "1 pp for shares, 1 pp per tile, 0.01 lead changes, 2 coins"
    two = rows.with_columns(pl.Series("smallest", [0.02, 0.005, 0.01, 2.0]))
    assert _small_thresholds(two, "coins").startswith("2 pp for shares, 0.5 pp per tile, ")


@pytest.fixture(scope="module")
def palais(tmp_path_factory):
    root = tmp_path_factory.mktemp("review_u")
    b = runner.simulate("middle-ages", games=2000, seed=5, out=root / "base", quiet=True)
    v = runner.simulate("middle-ages", games=2000, seed=5, out=root / "palais", quiet=True,
                        settings=["income.palais.base=4"])
    return compare_tables(analyse(open_runs([b])), analyse(open_runs([v])), game="middle-ages")


def test_lead_changes_are_sized_as_a_count_per_game_not_in_coins(palais):
    lead = palais.filter(pl.col("metric").str.starts_with("lead_changes"))
    assert lead.height == 1
    # the page's rule: 0.01 a game for a mean count (reports.sections' "How this is measured")
    assert lead["smallest"].to_list() == [pytest.approx(0.01)]
    assert smallest_difference("middle-ages", "score") != pytest.approx(0.01)     # (what it was sized on)
    coins = palais.filter(pl.col("metric") == "seat_mean_score")["smallest"].unique().to_list()
    assert coins == [pytest.approx(smallest_difference("middle-ages", "score"))]
    tiles = palais.filter(pl.col("metric") == "tile_slope")["smallest"].unique().to_list()
    assert tiles == [pytest.approx(0.01)]
