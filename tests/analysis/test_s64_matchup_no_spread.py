"""Session 64 (review 283 #2, the ladder's fix of session 63 carried to the strategy and matchup
tables): on a rotated-seat run a bot that won no game of any deal got a wider win-share interval
than one that won a single game in as many deals. :func:`analysis.matchups.strategy_table` read
deals without spread (every deal lost) as Wilson's over the deals, a run with one win as Wilson's
at its effective number of games (about the games): with 250 deals of 4 rotations, 0 wins read
0-1.51% and 1 win 0-0.57% (``balance simulate -n 400 --seed 2`` / ``--seed 7 -s
balanced,balanced,balanced,random --rotate-seats``: 0 of 400 games 0-3.70%, 1 of 400
0.006-1.43%). Now no spread reads Wilson's over the shares behind the deals (the strategy's player
rows; a pair's meetings for ``ahead_share`` and A's win share against B) with the t(n - 1) critical
value, as the ladder does.

Tables are built here from constructed rotated runs (seats, ranks and wins game by game, through
:class:`analysis.matchups.MatchupAccumulator`), and each expected end is statsmodels' Wilson
interval over the games at the level whose normal critical value is scipy's t(deals - 1); the
last test plays the two runs above (0.5 s of CPU with the kernels compiled) and reads them from their statistics."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from scipy import stats as sps
from statsmodels.stats.proportion import proportion_confint

from analysis import matchups, stats

PLAYERS = 4


def _t_wilson_high(successes: float, n: float, units: int) -> float:
    """statsmodels' Wilson upper end of successes/n at the normal level whose critical value is
    Student t(units - 1)'s at 95% (the strategy table's level over its units)."""
    alpha = 2.0 * float(sps.norm.sf(sps.t.ppf(0.975, units - 1)))
    return float(proportion_confint(successes, n, alpha=alpha, method="wilson")[1])


def _run(deals: int, weak_wins: int, weak_seats: int = 1, rotated: bool = True):
    """(run set, accumulator) of a constructed 4-player run: ``weak`` on ``weak_seats`` seats of
    every game, ``strong`` on the others; rotated (a deal of 4 games, the line-up shifted one seat a
    game) or not (every game its own unit). ``weak`` finishes behind every ``strong`` seat and wins
    nothing but in the first ``weak_wins`` deals' first games (a game in each), where its first
    seat wins, ahead of everyone."""
    per = PLAYERS if rotated else 1
    G = deals * per
    game = np.arange(G)
    shift = game % per
    seats = np.arange(PLAYERS)
    weak = ((seats[None, :] - shift[:, None]) % PLAYERS) < weak_seats       # (games, seats)
    strategy = np.where(weak, 1, 0).astype(np.int64)
    # ranks: strong seats first (by seat), then weak ones; in a won game the weak seats lead
    won = np.zeros(G, dtype=bool)
    won[np.arange(weak_wins) * per] = True
    first = np.where(won[:, None], weak, ~weak)
    order = np.argsort(~first, axis=1, kind="stable")
    rank = np.empty((G, PLAYERS), dtype=np.int64)
    np.put_along_axis(rank, order, np.arange(1, PLAYERS + 1)[None, :].repeat(G, axis=0), axis=1)
    win = (rank == 1).astype(np.float64)
    rs = SimpleNamespace(strategies=["strong", "weak"], n_players=PLAYERS,
                         cluster="deal" if rotated else "game", games_per_unit=per,
                         game=None, smallest=None, from_stats=False)
    acc = matchups.MatchupAccumulator(rs)
    acc.add(SimpleNamespace(n_games=G, cluster=game // per,
                            p={"strategy": strategy, "rank": rank, "win_share": win}))
    return rs, acc


def _weak_row(table):
    return table.filter(table["strategy"] == "weak").row(0, named=True)


def _weak_vs_strong(table):
    return table.filter((table["strategy"] == "weak") & (table["opponent"] == "strong")).row(0, named=True)


def test_s64_no_win_reads_no_wider_than_one_win_over_the_same_deals():
    # 250 deals of 4 rotations, weak on one seat: before 0-1.51% at 0 wins, 0-0.57% at 1
    deals = 250
    highs = []
    for wins in range(4):
        rs, acc = _run(deals, wins)
        r = _weak_row(matchups.strategy_table(rs, acc))
        assert r["players"] == deals * PLAYERS and r["units"] == deals
        assert abs(r["win_share"] - wins / (deals * PLAYERS)) < 1e-12
        highs.append(r["ci_high"])
    assert all(a < b for a, b in zip(highs, highs[1:])), highs
    # 0 of 1,000 games: Wilson's over the games, t(249)'s critical value
    assert abs(highs[0] - _t_wilson_high(0, deals * PLAYERS, deals)) < 1e-9, highs[0]
    rs, acc = _run(deals, 0)
    assert _weak_row(matchups.strategy_table(rs, acc))["ci_low"] == 0.0


def test_s64_a_pairs_no_spread_reads_its_meetings():
    # weak never ahead of strong and never winning where strong plays (every game): both the
    # ahead share and the win share against strong read Wilson's over the 1,000 meetings
    deals = 250
    rs, acc = _run(deals, 0)
    r = _weak_vs_strong(matchups.matchup_table(rs, acc))
    assert r["meetings"] == deals * PLAYERS and r["units"] == deals
    expected = _t_wilson_high(0, deals * PLAYERS, deals)
    assert r["ahead_share"] == 0.0 and abs(r["ci_high"] - expected) < 1e-9, r
    assert r["win_share"] == 0.0 and abs(r["win_ci_high"] - expected) < 1e-9, r
    # one game ahead of (and won against) all three strong seats: not narrower than none
    one = _weak_vs_strong(matchups.matchup_table(*_run(deals, 1)))
    assert r["ci_high"] < one["ci_high"] and r["win_ci_high"] < one["win_ci_high"], (r, one)
    # the mirror row, strong ahead of weak in every game: 1 - the same end
    mirror = matchups.matchup_table(rs, acc).filter(matchups.pl.col("strategy") == "strong").row(0, named=True)
    assert abs((1.0 - mirror["ci_low"]) - expected) < 1e-9 and mirror["ci_high"] == 1.0


@pytest.mark.parametrize("rotated", [True, False])
def test_s64_a_bot_on_two_seats_reads_its_player_rows(rotated):
    # weak on 2 of the 4 seats: its wins in a game exclude each other, so no win in G games is
    # no likelier than in 2G independent ones; one win gives about 2G effective games, and the
    # interval at no win is Wilson's over the 2G player rows (over the units it read wider than
    # at one win: rotated, 0-1.51% against 0-0.29%; unrotated, 1,000 games, 0-0.38% against 0-0.28%;
    # now 0-0.19% at no win, both)
    units = 250 if rotated else 1000
    rows = {}
    for wins in (0, 1):
        rs, acc = _run(units, wins, weak_seats=2, rotated=rotated)
        rows[wins] = _weak_row(matchups.strategy_table(rs, acc))
    r0, r1 = rows[0], rows[1]
    games = units * (PLAYERS if rotated else 1)
    assert r0["players"] == 2 * games and r0["units"] == units
    assert r0["ci_high"] <= r1["ci_high"], (r0, r1)
    assert abs(r0["ci_high"] - _t_wilson_high(0, 2 * games, units)) < 1e-9, r0


def test_s64_other_intervals_are_unchanged():
    # with spread (3 wins), the interval of the per-deal means' effective games, as before
    deals = 250
    rs, acc = _run(deals, 3)
    r = _weak_row(matchups.strategy_table(rs, acc))
    per_deal = np.zeros(deals)
    per_deal[:3] = 1 / PLAYERS
    lo, hi = stats.share_mean_wilson(per_deal.mean(), per_deal.std(ddof=1), deals)
    assert abs(r["ci_low"] - float(lo)) < 1e-12 and abs(r["ci_high"] - float(hi)) < 1e-12
    # as many games as units (a pair's meetings without deals): over the units, as before
    for n in (1, 2, 40, 1000):
        old = stats.share_mean_interval(0.0, 0.0, n)
        new = stats.share_mean_interval(0.0, 0.0, n, games=n)
        assert (float(old[1]), float(new[1])) == (float(stats.wilson(0.0, n)[1]),) * 2
    # one unit: Wilson's of the one unit, whatever its games (no spread can be read from one deal)
    assert float(stats.share_mean_interval(0.0, 0.0, 1, games=4)[1]) == float(stats.wilson(0.0, 1)[1])


def test_s64_played_runs_zero_wins_no_wider_than_one(tmp_path):
    # random against three balanced bots, 400 games of 100 rotated deals: seed 2 gives random no
    # win, seed 7 one (before: 0-3.70% against 0.006-1.43%; now 0-0.97% at no win)
    from analysis import open_runs
    from simcore import runner

    got = {}
    for seed in (2, 7):
        out = tmp_path / f"s{seed}"
        runner.simulate("middle-ages", games=400, seed=seed, out=out, quiet=True, threads=1,
                        strategies="balanced,balanced,balanced,random", rotate_seats=True)
        r = _random_row(matchups.strategy_table(open_runs([out], source="stats")))
        got[round(r["win_share"] * r["players"])] = r
    r0, r1 = got[0], got[1]
    assert r0["players"] == 400 and r0["units"] == 100
    assert r0["ci_high"] < r1["ci_high"], (r0, r1)
    assert abs(r0["ci_high"] - _t_wilson_high(0, 400, 100)) < 1e-9, r0


def _random_row(table):
    return table.filter(table["strategy"] == "random").row(0, named=True)


def test_s64_a_bot_on_two_censitaire_seats_reads_its_player_rows(tmp_path):
    # Seigneurial's table of bots within roles (analysis.roles) reads a bot on several seats of its
    # role the same way: random on two Censitaire seats, 400 games (unrotated) with no win (seed 2)
    # and one (seed 3). Before: 0-0.95% (Wilson's over the 400 games) against 0.003-0.71%
    from analysis import analyse, open_runs
    from simcore import runner

    got = {}
    for seed in (2, 3):
        out = tmp_path / f"sg{seed}"
        runner.simulate("seigneurial", players=4, games=400, seed=seed, out=out, quiet=True, threads=1,
                        strategies="standard,random,random,objective")
        r = _random_row(analyse(open_runs([out], source="stats"))["strategies"])
        assert r["role"] == "censitaire" and r["players"] == 800 and r["units"] == 400
        got[round(r["win_share"] * r["players"])] = r
    r0, r1 = got[0], got[1]
    assert r0["ci_high"] < r1["ci_high"], (r0, r1)
    assert abs(r0["ci_high"] - _t_wilson_high(0, 800, 400)) < 1e-9, r0
