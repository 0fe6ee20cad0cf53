"""A rotated-seat run's intervals that the statistics keep no per-deal sums for (event cards,
tiles, game flow, game length, roles, Objective cards) count each deal as one game
(:attr:`analysis.load.RunSet.games_per_unit`): they must be at least as wide as an exact reading
over the deals, computed here from the player and game rows with numpy alone (the cluster-robust
standard error of a ratio of sums, the deals as clusters). Read game by game they were about half
as wide (review T: 1.75-2 times too narrow), and fail here."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from scipy import stats as sps

from analysis import analyse, open_runs
from simcore import runner

DEALS = 150
Z = sps.norm.ppf(0.975)


@pytest.fixture(scope="module")
def rotated(tmp_path_factory):
    out = tmp_path_factory.mktemp("rot") / "r"
    run = runner.simulate("middle-ages", players=4, games=4 * DEALS, seed=11, out=out, quiet=True,
                          strategies="balanced,balanced,balanced,greedy", rotate_seats=True)
    rs = open_runs([run])
    p = pl.read_parquet(out / "players.parquet").sort("game", "seat")
    g = pl.read_parquet(out / "games.parquet").sort("game")
    return rs, analyse(rs), p, g


def _cluster_half_width(y: np.ndarray, n: np.ndarray) -> float:
    """Half the width of the 95% interval of Σy / Σn with the deals as clusters (y, n: per deal)."""
    r = y.sum() / n.sum()
    D = len(y)
    var = D / (D - 1) * ((y - r * n) ** 2).sum() / n.sum() ** 2
    return Z * np.sqrt(var)


def _per_deal(p: pl.DataFrame, g: pl.DataFrame, value: np.ndarray, mask: np.ndarray):
    """Per deal: the sum of ``value`` over the games where ``mask`` holds, and their count."""
    deal = p.filter(pl.col("seat") == 0).sort("game")["deal"].to_numpy()
    D = deal.max() + 1
    y = np.bincount(deal, weights=np.where(mask, value, 0.0), minlength=D)
    n = np.bincount(deal, weights=mask.astype(float), minlength=D)
    return y, n


def _half(row, lo: str, hi: str) -> float:
    return (row[hi] - row[lo]) / 2


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_run_is_read_as_rotated(rotated):
    rs, _, p, _ = rotated
    assert rs.games_per_unit == 4
    assert p["deal"].n_unique() == DEALS


def test_the_winners_lead_and_the_leaders_win_share_are_no_narrower_than_the_deals_say(rotated):
    _, t, p, g = rotated
    w = p["win_share"].to_numpy().reshape(-1, 4)
    score = np.sort(p["score"].to_numpy().reshape(-1, 4), axis=1)
    lead = (score[:, -1] - score[:, -2]).astype(float)
    coins = p["coins_turn_8"].to_numpy().reshape(-1, 4)
    sole = (coins == coins.max(axis=1, keepdims=True)).sum(axis=1) == 1
    leader_won = w[np.arange(len(w)), coins.argmax(axis=1)]
    o = {r["metric"]: r for r in t["outcomes"].iter_rows(named=True)}
    every = np.ones(len(w), bool)
    for metric, value, games in (("score_spread", lead, every), ("leader_wins_turn_8", leader_won, sole)):
        y, n = _per_deal(p, g, value, games)
        assert o[metric]["estimate"] == pytest.approx(y.sum() / n.sum()), metric
        exact = _cluster_half_width(y, n)
        assert exact > 0, metric
        assert _half(o[metric], "ci_low", "ci_high") >= 0.97 * exact, metric


def test_an_event_cards_mean_gain_is_no_narrower_than_the_deals_say(rotated):
    _, t, p, g = rotated
    ev = t["events"].filter(pl.col("slot") == 0).sort("games", descending=True)
    checked = 0
    for row in ev.head(3).iter_rows(named=True):
        ys, ns = 0.0, 0.0
        for k in range(1, 5):
            fired = g[f"event_{k}"].to_numpy() == row["event"]
            gain = p[f"event_gain_{k}"].to_numpy().reshape(-1, 4).mean(axis=1)
            y, n = _per_deal(p, g, gain, fired)
            ys, ns = ys + y, ns + n
        assert row["mean_gain"] == pytest.approx(ys.sum() / ns.sum())
        exact = _cluster_half_width(ys, ns)
        if exact > 0:
            assert _half(row, "gain_ci_low", "gain_ci_high") >= 0.97 * exact, row["event_name"]
            checked += 1
    assert checked >= 2


def test_a_tile_counts_win_share_is_no_narrower_than_the_deals_say(rotated):
    _, t, p, g = rotated
    row = t["tiles"].filter(pl.col("tile") == t["tiles"]["tile"][0]).sort("players", descending=True).row(0, named=True)
    col = next(c for c in p.columns if c.startswith("tiles_") and c.endswith(row["tile"].split("_")[-1]))
    held = (p[col].to_numpy() == row["tiles"]).reshape(-1, 4)
    w = p["win_share"].to_numpy().reshape(-1, 4)
    every = np.ones(len(w), bool)
    y, _ = _per_deal(p, g, (w * held).sum(axis=1), every)
    players, _ = _per_deal(p, g, held.sum(axis=1).astype(float), every)
    assert players.sum() == row["players"] and row["win_share"] == pytest.approx(y.sum() / players.sum())
    exact = _cluster_half_width(y, players)
    assert _half(row, "ci_low", "ci_high") >= 0.97 * exact
