"""The Domain mixes' table (``analysis.tiles.domain_pairs``) sorted ties (same win share, same
players: e.g. several mixes held by one player who won) in a polars group_by's order, which changes
from run to run: the same run gave the report's figure and the exported CSV in another order each
time. Ties are now in name order, from the rows and from the statistics alike."""

from __future__ import annotations

import polars as pl
import pytest

from analysis import open_runs
from analysis.tiles import domain_pairs
from simcore import runner

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("dp") / "run"
    runner.simulate("middle-ages", games=16, seed=3, out=out, quiet=True, players=4,
                    strategies="random,random,balanced,greedy")
    return out


@pytest.mark.parametrize("source", ["rows", "stats"])
def test_ties_are_in_name_order_and_the_order_is_the_same_every_time(run, source):
    tables = [domain_pairs(open_runs([run], source=source)) for _ in range(6)]
    t = tables[0]
    ties = t.group_by(["win_share", "players"]).agg(pl.len().alias("n")).filter(pl.col("n") > 1)
    assert ties.height >= 1, "no tie to order: choose another run"
    for a, b in zip(t.iter_rows(named=True), t[1:].iter_rows(named=True)):
        if (a["win_share"], a["players"]) == (b["win_share"], b["players"]):
            assert a["pair"] < b["pair"], (a, b)
    for other in tables[1:]:
        assert other["pair"].to_list() == t["pair"].to_list()
