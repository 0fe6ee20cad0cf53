"""events_summary.parquet against the rows it sums, over many chunks (review s48 Dask #1: after
the win shares were summed in units, merging the chunks' parts added the units too, and every
``win_share_sum`` came out divided by the number of chunks)."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from simcore import runner

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


@pytest.mark.parametrize("chunk", [700, 3000])
def test_every_cell_is_the_rows_sum(tmp_path, chunk):
    run = runner.simulate("middle-ages", games=3000, seed=6, quiet=True, raw=True, chunk_size=chunk,
                          out=tmp_path / "run")
    ev = pl.read_parquet(run / "events_summary.parquet")
    p = pl.read_parquet(run / "players.parquet").join(pl.read_parquet(run / "games.parquet"), on="game")
    for k in range(1, 5):
        want = (p.group_by(pl.col(f"event_{k}").alias("event"), "seat")
                 .agg(pl.len().alias("players"), pl.col(f"event_gain_{k}").cast(pl.Float64).sum().alias("g"),
                      pl.col("win_share").cast(pl.Float64).sum().alias("w")))
        got = ev.filter(pl.col("slot") == k).join(want, on=["event", "seat"], how="full", coalesce=True)
        assert got["players"].to_list() == got["players_right"].to_list()
        np.testing.assert_allclose(got["gain_sum"], got["g"], rtol=0, atol=0)
        np.testing.assert_allclose(got["win_share_sum"], got["w"], rtol=1e-9)
        assert got["win_share_sum"].sum() == pytest.approx(3000, rel=1e-12)    # one win a game
