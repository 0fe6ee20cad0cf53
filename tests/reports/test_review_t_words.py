"""Review T (a quick read-only review at the end of session 32): two labels that said something
else than their numbers. A rotated run's matchup table headed its count "Meetings" though it counts
deals (2,000 deals of 24,000 meetings); a played check announced "greedy,balanced" for the line-up
greedy,balanced,balanced,balanced (the seats lost)."""

from __future__ import annotations

from types import SimpleNamespace

import polars as pl

from analysis import analyse, open_runs
from simcore import runner
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def test_a_rotated_runs_matchup_count_is_headed_as_deals(tmp_path):
    from reports.sections import matchup_rows

    run = runner.simulate("middle-ages", players=4, games=400, seed=2, out=tmp_path / "r", quiet=True,
                          strategies="balanced,balanced,balanced,greedy", rotate_seats=True)
    rows = matchup_rows(analyse(open_runs([run])))
    deals = pl.read_parquet(run / "players.parquet")["deal"].n_unique()
    assert "Meetings" not in rows.columns and rows["Deals (paired)"].to_list() == [deals] * rows.height


def test_a_played_check_announces_the_line_up_seat_by_seat():
    from cli.check import announce_line

    base = SimpleNamespace(game="middle-ages", title="Middle-Ages", players=4, rules="default",
                           strategies=["greedy", "balanced", "balanced", "balanced"])
    assert "(4 players, greedy,balanced,balanced,balanced)" in announce_line(base)
    base.strategies = ["balanced"] * 4
    assert "(4 players, 4×balanced)" in announce_line(base)
