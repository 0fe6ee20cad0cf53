"""The game-length figure as a designer reads it (review s46 #13, #10): its legend covered the
tops of the mean and median lines, and its end-reason panel printed "0.0%" for 6 games of 20,000
at the turn limit as for none. Checked on the figure drawn with Agg: the lines end below the
legend's box, and each end's label is its share as games.parquet gives it."""

from __future__ import annotations

import polars as pl
import pytest

from analysis import analyse, open_runs
from reports.figures.common import game_length

# the tests' CPU over docs/testing.md's budget (session 63): this module runs in make test-slow
# and CI, not in make test
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def drawn(harsh_lord_run):
    # (the run: simulate --game seigneurial --strategies harsh-lord,random --games 20000, played
    # once for this file and test_s46_rare_ends.py, tests/reports/conftest.py)
    run = harsh_lord_run
    fig = game_length(analyse(open_runs([run])))
    fig.canvas.draw()
    return run, fig


def test_the_mean_and_median_lines_end_below_the_legend(drawn):
    _, fig = drawn
    ax = fig.axes[0]
    box = ax.get_legend().get_window_extent()
    lines = [ln for ln in ax.get_lines() if ln.get_label().startswith(("Mean", "Median"))]
    assert len(lines) == 2
    for ln in lines:
        top = ln.get_window_extent().y1
        assert top < box.y0, (ln.get_label(), top, box.y0)


def test_each_end_is_labelled_with_its_share(drawn):
    run, fig = drawn
    ends = pl.read_parquet(run / "games.parquet")["end_reason"]
    limit = float((ends == 2).mean())
    assert 0 < limit < 0.0005                          # a handful of games in 20,000
    texts = [t.get_text() for t in fig.axes[1].texts]
    assert f"{100 * limit:.2f}%" in texts and "0.0%" not in texts, texts
