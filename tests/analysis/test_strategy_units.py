"""The strategy table names what its numbers are over: without deals, a strategy's mean win share
in a game is one unit, for the interval (``units``) and the p-value (``test_units``) alike; a
strategy that holds two seats in some games (rows ≠ games) gets the Student t interval of its
per-game means (review s60: it was Wilson's over its player rows, as if a game's seats were
independent), checked against scipy's t interval and one-sample t test on a hand-made run."""

from __future__ import annotations

import numpy as np
import pytest
from analysis_runs import write_run
from scipy.stats import ttest_1samp

from analysis import matchups, open_runs
from analysis.stats import share_mean_wilson


from holm_reference import multipletests  # noqa: E402  (statsmodels' Holm, without its gc.collect)


# 5 games, 3 players; the winner per game (seat index) and the line-ups
# (ten times over: counts of wins far from 0, where the repo's Wilson has its exact ends)
LINEUPS = [("A", "A", "B"), ("A", "B", "B"), ("A", "A", "B"), ("A", "B", "B"), ("A", "A", "B")] * 10
WINNER = [0, 1, 2, 0, 0, 1, 2, 0, 2, 1] * 5


def _run(tmp_path):
    cols = {"game": [], "seat": [], "strategy": [], "rank": [], "win_share": [], "score": []}
    for g, (lineup, w) in enumerate(zip(LINEUPS, WINNER)):
        for s, name in enumerate(lineup):
            cols["game"].append(g)
            cols["seat"].append(s)
            cols["strategy"].append(name)
            cols["rank"].append(1 if s == w else 2)
            cols["win_share"].append(1.0 if s == w else 0.0)
            cols["score"].append(5 if s == w else 3)
    return open_runs([write_run(tmp_path / "mixed", cols)])


def test_unpaired_interval_and_test_are_over_games(tmp_path):
    rs = _run(tmp_path)
    assert rs.cluster != "deal"
    t = matchups.strategy_table(rs)
    st = {r["strategy"]: r for r in t.iter_rows(named=True)}
    per_game = {"A": [], "B": []}
    rows = {"A": [0, 0.0], "B": [0, 0.0]}
    for lineup, w in zip(LINEUPS, WINNER):
        for name in ("A", "B"):
            mine = [s for s, x in enumerate(lineup) if x == name]
            per_game[name].append(np.mean([s == w for s in mine]))
            rows[name][0] += len(mine)
            rows[name][1] += sum(s == w for s in mine)
    p = []
    for name in ("A", "B"):
        r = st[name]
        n_rows, wins = rows[name]
        assert r["players"] == n_rows != len(LINEUPS)
        assert r["units"] == r["test_units"] == len(LINEUPS)     # the interval's n and the test's: games
        x = np.array(per_game[name], dtype=float)
        m, se = x.mean(), x.std(ddof=1) / np.sqrt(x.size)
        assert r["win_share"] == pytest.approx(m)                # the mean of the per-game means
        # Wilson's at the per-game means' effective games (review s62 #1), the t interval before
        lo, hi = share_mean_wilson(m, se * np.sqrt(x.size), x.size)
        assert (r["ci_low"], r["ci_high"]) == pytest.approx((float(lo), float(hi)), abs=1e-12)
        ref = ttest_1samp(per_game[name], 1 / 3).pvalue
        assert r["p_value"] == pytest.approx(ref, rel=1e-6)
        p.append(ref)
    adj = multipletests(p, method="holm")[1]
    assert [st["A"]["p_adjusted"], st["B"]["p_adjusted"]] == pytest.approx(list(adj), rel=1e-6)
