"""Review U #6: a before/after of a rule that changes a tile's worth (the Palais's income) showed
that tile only as a straight-line slope the page itself called a poor summary of its curve. The
Middle-Ages before/after now draws the win share by number of tiles held, before and after, for
the tile types whose slope moved clearly; checked here against the players' rows."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from analysis import analyse, open_runs, stats
from analysis.compare import compare_tables
from simcore import runner


@pytest.fixture(scope="module")
def palais(tmp_path_factory):
    root = tmp_path_factory.mktemp("tiles")
    b = runner.simulate("middle-ages", games=3000, seed=8, out=root / "base", quiet=True)
    v = runner.simulate("middle-ages", games=3000, seed=8, out=root / "palais", quiet=True,
                        settings=["income.palais.base=4"])
    tb, tv = analyse(open_runs([b])), analyse(open_runs([v]))
    return b, v, tb, tv, compare_tables(tb, tv, game="middle-ages")


def test_the_tile_types_whose_slope_moved_are_drawn_before_and_after_from_the_players_rows(palais):
    from reports.games.middle_ages import TILE_CURVES_SHOWN, comparison_figures
    from reports.sections import FigureSet

    b, v, tb, tv, cmp = palais
    figs = FigureSet()
    assert comparison_figures("comparison", tb, tv, "base", "palais", figs, cmp) == ["comparison_tiles"]
    moved = cmp.filter((pl.col("metric") == "tile_slope") & pl.col("significant")
                       & (pl.col("verdict") != stats.NOT_SHOWN))
    names = moved["key"].to_list()[:TILE_CURVES_SHOWN]
    assert names[0] == "Palais"                      # the rule changed its income: its slope moved most
    fig = figs["comparison_tiles"]
    shown = [ax for ax in fig.axes if ax.get_visible()]
    assert [ax.get_title() for ax in shown] == names
    caption = figs.captions["comparison_tiles"]
    assert caption.startswith(f"With palais, the straight-line slope of the win share per extra tile moved "
                              f"clearly for {moved.height} tile type")
    # each curve: the win share of the players ending with that many tiles, from players.parquet
    for run, k in ((b, 0), (v, 1)):
        rows = pl.read_parquet(run / "players.parquet")
        for ax, name in zip(shown, names):
            col = {"Église": "tiles_eglise", "Marché": "tiles_marche"}.get(name, f"tiles_{name.lower()}")
            line = ax.get_lines()[k]
            x, y = line.get_xdata(), line.get_ydata()
            truth = rows.group_by(col).agg(pl.col("win_share").mean(), pl.len()).sort(col)
            want = dict(zip(truth[col].to_list(), truth["win_share"].to_list()))
            assert len(x) >= 3
            for count, share in zip(x, y):
                assert share == pytest.approx(want[int(count)], abs=1e-6), (name, k, count)   # (float32 rows)


def test_no_slope_moved_no_tile_figure(palais):
    from reports.games.middle_ages import comparison_figures
    from reports.sections import FigureSet

    _, _, tb, _, cmp = palais
    same = cmp.with_columns(pl.lit(False).alias("significant"), pl.lit(stats.NOT_SHOWN).alias("verdict"))
    figs = FigureSet()
    assert comparison_figures("comparison", tb, tb, "base", "base", figs, same) == [] and not figs
