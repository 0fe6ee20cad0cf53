"""One number is tested once in a before/after (review s48 Seigneurial #2, #3): a bot that holds
one seat in every game has that seat's win share, and a one-seat role's seat (and the ending that
is its win) repeat the role's share even when the role never wins in one of the runs."""

from __future__ import annotations

import polars as pl
import pytest

from analysis import analyse, open_runs
from analysis.compare import compare_runs
from simcore import runner

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def _compare(root, game, games, players, strategies=None, settings=(), seed=4):
    kw = dict(games=games, seed=seed, quiet=True, players=players)
    if strategies:
        kw["strategies"] = strategies
    base = runner.simulate(game, out=root / "base", **kw)
    var = runner.simulate(game, out=root / "var", settings=list(settings), **kw)
    brs, vrs = open_runs([base]), open_runs([var])
    bt, vt = analyse(brs), analyse(vrs)
    return bt, vt, compare_runs(brs, vrs, bt, vt)


def test_a_bot_on_one_seat_is_tested_as_that_seat(tmp_path):
    bt, vt, c = _compare(tmp_path, "middle-ages", 1500, 4, "eventwise,balanced,greedy,random",
                         ["income.palais.base=4"])
    t = c.table
    seats = {r["key"]: r for r in t.filter(pl.col("metric") == "seat_win_share").iter_rows(named=True)}
    assert len(seats) == 4
    bots = t.filter(pl.col("metric") == "strategy_win_share")
    assert bots.height == 0, bots.select("key", "base", "variant")
    # each bot's share left out, named after its seat, and truly that seat's number in both runs
    why = {lab: w for lab, w in c.dropped if "the bot holds that seat" in w}
    assert len(why) == 4, c.dropped
    for tabs in (bt, vt):
        by_seat = {r["seat"]: r["win_share"] for r in tabs["seats"].iter_rows(named=True)}
        by_bot = {r["strategy"]: r["win_share"] for r in tabs["strategies"].iter_rows(named=True)}
        for seat, bot in enumerate(["eventwise", "balanced", "greedy", "random"]):
            assert by_bot[bot] == pytest.approx(by_seat[seat], abs=1e-15)


def test_rotated_bots_are_still_tested(tmp_path):
    # with --rotate-seats a bot plays every seat: its share is its own number, tested
    base = runner.simulate("middle-ages", games=1200, seed=4, quiet=True, players=4,
                           strategies="eventwise,balanced,greedy,random", rotate_seats=True,
                           out=tmp_path / "rb")
    var = runner.simulate("middle-ages", games=1200, seed=4, quiet=True, players=4,
                          strategies="eventwise,balanced,greedy,random", rotate_seats=True,
                          out=tmp_path / "rv", settings=["income.palais.base=4"])
    brs, vrs = open_runs([base]), open_runs([var])
    rot = compare_runs(brs, vrs, analyse(brs), analyse(vrs))
    assert rot.table.filter(pl.col("metric") == "strategy_win_share").height == 4


def test_a_role_that_never_wins_in_one_run_is_tested_once(tmp_path):
    # 5 players, shipped rules: the Seigneur never wins; with a shorter goal he sometimes does
    bt, vt, c = _compare(tmp_path, "seigneurial", 3000, 5, settings=["track.goal.5=9"], seed=0)
    lord = bt["roles"].filter(pl.col("role") == "seigneur")["win_share"][0]
    lord_v = vt["roles"].filter(pl.col("role") == "seigneur")["win_share"][0]
    assert lord == 0 and lord_v > 0
    t = c.table
    tested = t.filter(pl.col("family").is_not_null())
    sides = tested.filter(pl.col("metric") == "role_win_share")
    assert sides.height == 1
    same = tested.filter(pl.col("metric").is_in(["seat_win_share", "end_reason_share"])
                         & (pl.col("base") == sides["base"][0]) & (pl.col("variant") == sides["variant"][0]))
    assert same.height == 0, same.select("metric", "key", "base", "variant")
    assert any("Seat 1" in lab and "the same number as" in why for lab, why in c.dropped), c.dropped
