"""A before/after of two Médiévallons runs over the same deals compares each guild type's founded
share game by game (designer review 45 #1, #2): the share of a game's players founding one, paired
t over the games, as the seats' win shares are; where no game differs (a setting of another player
count) every guild row, the founders' win shares included, is untested, not "within noise".

Every expected number is recomputed here from the two runs' players.parquet with numpy and scipy."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from scipy import stats as sps

from analysis import analyse, open_runs
from analysis.compare import compare_runs
from simcore import runner

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

GAMES = 600


def _run(path, settings=()):
    prep = runner.prepare("medievallons", players=4, strategies="balanced", settings=settings)
    return runner.run(prep, games=GAMES, seed=11, out=path, quiet=True, raw=True)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("guild_pairing")
    return {"base": _run(root / "base"),
            # a 5-player setting: the 4-player games are the same games
            "same": _run(root / "end5", ("setup.end_card.5=yellow",)),
            # a change that plays: one Chevalier fewer in the deck (MV-1)
            "changed": _run(root / "fewer", ("deck.copies.chevalier=7",))}


def _compare(a, b):
    ra, rb = open_runs([a]), open_runs([b])
    return compare_runs(ra, rb, analyse(ra), analyse(rb)).table


def _founded(path, card):
    p = pl.read_parquet(path / "players.parquet").sort(["game", "seat"])
    return (p[f"founded_{card}"].to_numpy() > 0).reshape(-1, 4)


def test_a_setting_of_another_player_count_leaves_every_guild_row_untested(runs):
    for card in ("chevalier", "sorciere", "artisan"):        # the games are the same games
        assert np.array_equal(_founded(runs["base"], card), _founded(runs["same"], card))
    cmp = _compare(runs["base"], runs["same"])
    guild = cmp.filter(pl.col("metric").is_in(["guild_founded_share", "guild_founders_win_share"]))
    assert guild.height >= 13
    assert guild["same_games"].to_list() == [GAMES] * guild.height
    assert guild["family"].null_count() == guild.height
    assert guild["diff_low"].is_nan().all() and guild["p_value"].is_nan().all()


def test_founded_shares_are_paired_game_by_game(runs):
    cmp = _compare(runs["base"], runs["changed"])
    rows = {r["key"]: r for r in cmp.filter(pl.col("metric") == "guild_founded_share").iter_rows(named=True)}
    tested = 0
    for card, r in rows.items():
        d = _founded(runs["changed"], card).mean(axis=1) - _founded(runs["base"], card).mean(axis=1)
        assert r["diff"] == pytest.approx(d.mean(), abs=1e-12)
        if not d.any():
            assert r["same_games"] == GAMES
            continue
        assert r["paired"]
        half = sps.t.ppf(0.975, len(d) - 1) * d.std(ddof=1) / np.sqrt(len(d))
        assert (r["diff_low"], r["diff_high"]) == pytest.approx((d.mean() - half, d.mean() + half), abs=1e-12)
        tested += 1
    assert tested >= 5
    # the founders' win share (a ratio) stays unpaired where the games differ
    fw = cmp.filter((pl.col("metric") == "guild_founders_win_share") & (pl.col("key") == "chevalier"))
    assert fw.height == 1 and not fw["paired"][0] and fw["same_games"][0] is None
