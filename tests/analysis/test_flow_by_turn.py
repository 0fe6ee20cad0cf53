"""The game flow by turn (``coins_turn_t``, MA-12): the flow table, lead changes and the leader's
win share at every turn, each against a direct numpy computation on a synthetic run; runs with only
the four event checkpoints keep their old tables."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from analysis_runs import write_run
from scipy import stats as sps

from analysis import analyse, open_runs, seats

G, P, TURNS = 1500, 4, 16


def _synthetic(seed: int = 3) -> dict:
    """Coins as random walks (small integers, so leads are often shared), a final penalty, ranks
    and win shares from the final coins (ties share)."""
    rng = np.random.default_rng(seed)
    steps = rng.integers(0, 4, size=(G, P, TURNS)) + (np.arange(P) == 0)[None, :, None] * rng.integers(0, 2, size=(G, P, TURNS))
    coins = steps.cumsum(axis=2)                                  # [game, seat, turn]
    penalty = 10 * rng.integers(0, 2, size=(G, P))
    score = coins[:, :, -1] - penalty
    rank = 1 + (score[:, None, :] > score[:, :, None]).sum(axis=2)   # competition ranking
    best = score.max(axis=1, keepdims=True)
    win = (score == best) / (score == best).sum(axis=1, keepdims=True)
    cols = {"game": np.repeat(np.arange(G), P), "seat": np.tile(np.arange(P), G),
            "strategy": ["random"] * (G * P), "score": score.ravel(), "win_share": win.ravel(),
            "rank": rank.ravel(), "penalty": penalty.ravel()}
    for t in range(TURNS):
        cols[f"coins_turn_{t + 1}"] = coins[:, :, t].ravel()
    for k in range(4):            # the older family is present too: the per-turn one must win
        cols[f"coins_before_event_{k + 1}"] = coins[:, :, 4 * k + 3].ravel() - 1
    return dict(cols=cols, coins=coins, score=score, rank=rank, win=win)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    d = _synthetic()
    path = write_run(tmp_path_factory.mktemp("flow") / "run", d["cols"])
    return d, open_runs([path])


def _t_interval(x: np.ndarray) -> tuple[float, float, float]:
    m, n = x.mean(), len(x)
    h = sps.t.ppf(0.975, n - 1) * x.std(ddof=1) / np.sqrt(n)
    return m, m - h, m + h


def test_flow_table_is_mean_coins_by_turn_and_final_rank(run):
    d, rs = run
    f = seats.flow_table(rs)
    assert seats.checkpoint_kind(rs) == "turn"
    assert f["checkpoint"].n_unique() == TURNS + 1
    for t in range(TURNS + 1):
        values = d["coins"][:, :, t] if t < TURNS else d["score"]
        for r in np.unique(d["rank"]):
            x = values[d["rank"] == r].astype(float)
            row = f.filter((pl.col("checkpoint") == t + 1) & (pl.col("rank") == int(r))).row(0, named=True)
            assert row["players"] == len(x)
            assert row["label"] == (f"Turn {t + 1}" if t < TURNS else "Final score")
            assert row["turn"] == (t + 1 if t < TURNS else None)
            if len(x) > 1:
                m, lo, hi = _t_interval(x)
                assert (row["mean_coins"], row["ci_low"], row["ci_high"]) == pytest.approx((m, lo, hi))


def _sole_leaders(coins_t: np.ndarray) -> np.ndarray:
    """Per game, the seat with strictly the most coins, -1 when shared (written independently)."""
    out = np.full(coins_t.shape[0], -1)
    for g, row in enumerate(coins_t):
        top = np.flatnonzero(row == row.max())
        if len(top) == 1:
            out[g] = top[0]
    return out


def test_lead_changes_and_leader_wins_by_turn(run):
    d, rs = run
    o = {r["metric"]: r for r in seats.outcome_table(rs).iter_rows(named=True)}
    assert "lead_changes" not in o and "leader_wins_event_1" not in o
    leaders = np.stack([_sole_leaders(d["coins"][:, :, t]) for t in range(TURNS)], axis=1)
    changes = np.zeros(G, int)
    for g in range(G):
        last = -1
        for s in leaders[g]:
            if s >= 0:
                changes[g] += last >= 0 and s != last
                last = s
    m, lo, hi = _t_interval(changes.astype(float))
    r = o["lead_changes_by_turn"]
    assert (r["estimate"], r["ci_low"], r["ci_high"]) == pytest.approx((m, lo, hi))
    assert r["n"] == G
    counts = seats.lead_change_counts(rs)
    assert counts["games"].to_list()[: changes.max() + 1] == np.bincount(changes).tolist()
    for t in range(TURNS):
        sole = leaders[:, t] >= 0
        share = d["win"][np.flatnonzero(sole), leaders[sole, t]]
        r = o[f"leader_wins_turn_{t + 1}"]
        assert r["n"] == sole.sum()
        assert r["estimate"] == pytest.approx(share.mean())
        assert r["label"] == f"Leader at the end of turn {t + 1} wins"
    assert (leaders == -1).any() and changes.max() >= 2   # shared leads and repeated changes occur


def test_runs_without_the_per_turn_columns_keep_the_event_checkpoints(tmp_path):
    d = _synthetic(seed=4)
    old = {c: v for c, v in d["cols"].items() if not c.startswith("coins_turn_")}
    rs = open_runs([write_run(tmp_path / "old", old)])
    assert seats.checkpoint_kind(rs) == "event"
    f = seats.flow_table(rs)
    assert f.filter(pl.col("rank") == 1)["label"].to_list() == ["Turn 4", "Turn 8", "Turn 12", "Turn 16",
                                                                  "Final score"]
    x = (d["coins"][:, :, 7] - 1)[d["rank"] == 1].astype(float)
    row = f.filter((pl.col("checkpoint") == 2) & (pl.col("rank") == 1)).row(0, named=True)
    assert row["mean_coins"] == pytest.approx(x.mean())
    metrics = seats.outcome_table(rs)["metric"].to_list()
    assert "lead_changes" in metrics and "leader_wins_event_4" in metrics
    assert not any(m.startswith("leader_wins_turn_") or m == "lead_changes_by_turn" for m in metrics)


def test_analyse_carries_the_per_turn_flow(run):
    _, rs = run
    t = analyse(rs)
    assert t["flow"]["turn"].drop_nulls().unique().sort().to_list() == list(range(1, TURNS + 1))
    assert t["lead_changes"]["games"].sum() == G
