"""The tile figure draws a count held by under 1% of the players hollow, as outside the ranges the
headlines read (review 45 #8: 8 Casernes at ~94% drawn like the rest beside a headline whose range
stopped at 7). Which counts are rare is recomputed here from players.parquet."""

from __future__ import annotations

import numpy as np
import polars as pl

from analysis import analyse, open_runs
from reports.figures.middle_ages import tile_impact
from simcore import runner
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def test_rare_counts_are_hollow(tmp_path):
    run = runner.simulate("middle-ages", games=6000, seed=3, out=tmp_path / "r", quiet=True, raw=True)
    p = pl.read_parquet(run / "players.parquet")
    t = analyse(open_runs([run]))
    fig = tile_impact(t)
    seen_rare = 0
    for ax in fig.axes:
        name = ax.get_title()
        if not name:
            continue
        key = t["tiles"].filter(pl.col("tile_name") == name)["tile"][0]
        counts = p[f"tiles_{key}"].value_counts()
        col = counts.columns[0]
        held = dict(zip(counts[col].to_list(), counts["count"].to_list()))
        total = sum(held.values())
        hollow, filled = set(), set()
        for line in ax.get_lines():
            if line.get_marker() != "o":
                continue
            xs = {int(round(x)) for x in np.asarray(line.get_xdata(), float)}
            (hollow if line.get_markerfacecolor() in ("white", (1.0, 1.0, 1.0, 1.0)) else filled).update(xs)
        assert all(held[x] < 0.01 * total for x in hollow), (name, hollow)
        assert all(held[x] >= 0.01 * total for x in filled), (name, filled)
        seen_rare += len(hollow)
    assert seen_rare > 0
