"""Raw rows exported as CSV write a Float32 column at the 7 significant digits it holds, as every
other CSV of the toolkit does (review s46 export #11: a 3-way shared win read 0.3333333432674408,
digits of the storage, not of the game). Checked on a run with such ties, against players.parquet."""

from __future__ import annotations

import polars as pl

from cli import _run
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def test_a_three_way_tie_reads_as_its_seven_digits(tmp_path):
    run = tmp_path / "r"
    assert _run(["simulate", "--game", "medievallons", "--players", "3", "--games", "20000", "--out", str(run),
                 "-q"]) == 0
    stored = pl.read_parquet(run / "players.parquet")["win_share"]
    assert stored.dtype == pl.Float32 and (stored.cast(pl.Float64).round(6) == 0.333333).sum() > 0
    assert _run(["export", str(run), "--what", "players", "--out", str(tmp_path / "p.csv")]) == 0
    text = (tmp_path / "p.csv").read_text()
    assert "0.3333333432674408" not in text and ",0.3333333," in text
    back = pl.read_csv(tmp_path / "p.csv", schema_overrides={"win_share": pl.Float64})["win_share"]
    assert ((back - stored.cast(pl.Float64)).abs() < 5e-8).all()
