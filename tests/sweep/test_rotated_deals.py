"""A rotated-seat sweep or tune reads its deals, not its games, as independent units.

With ``--rotate-seats`` every deal is played once per rotation of the line-up over the seats: a
deal's games share its cards and dice, so a strategy that a deal favours tends to win in several
of its rotations. The sweep's intervals and effects and the tune's target intervals read every
game as independent, and a strategy's share then covered its true value in ~3 samples of 4 when
it claimed 95 %. Here, on deals built with a known within-deal correlation, each interval covers
what it claims; a real rotated sweep gives the same intervals from its sums as from its rows
(tests/sweep/test_sweep_without_rows.py) and its per-deal reading is checked against the rows.
"""

from __future__ import annotations

import numpy as np
import pytest

from analysis.sweep.metrics import MetricInfo, VariantData, by_deal, mean_ci, share_ci
from analysis.tune.targets import evaluate, parse_targets

G = 4                  # games per deal (4 players, rotated)


def _deals(rng, deals: int, p: float, q: float) -> np.ndarray:
    """A strategy's win share per game over ``deals`` deals of G rotations: in a deal that
    favours it (probability q) it wins every rotation; otherwise each rotation independently with
    the probability that makes its mean ``p``."""
    favoured = rng.random(deals) < q
    rest = (p - q) / (1 - q)
    games = rng.random((deals, G)) < rest
    games[favoured] = True
    return games.astype(float).ravel()


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
@pytest.mark.parametrize("reader", ["share", "mean"])
def test_a_rotated_share_covers_what_it_claims(reader):
    rng = np.random.default_rng(11)
    p, q, reps = 0.3, 0.15, 1500
    new = old = 0
    for _ in range(reps):
        x = _deals(rng, 150, p, q)
        f = share_ci if reader == "share" else mean_ci
        _, lo, hi = f(x, G)
        new += lo <= p <= hi
        _, lo, hi = f(x)                       # game by game: the old reading
        old += lo <= p <= hi
    se = np.sqrt(0.95 * 0.05 / reps)
    assert abs(new / reps - 0.95) < 3 * se + 0.005, new / reps
    assert old / reps < 0.88, old / reps       # the correlation is strong enough to show it


def test_by_deal_is_the_mean_of_each_deals_games():
    x = np.arange(24, dtype=float).reshape(12, 2)
    d = by_deal(x, 4)
    assert d.shape == (3, 2)
    np.testing.assert_allclose(d[1], x[4:8].mean(axis=0))
    assert by_deal(x, 1) is not None and by_deal(x, 1).shape == x.shape
    assert by_deal(x[:10], 4).shape == (10, 2)          # not whole deals: left as games


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_rotated_tune_target_covers_what_it_claims():
    """The tune's ``no-dominant-strategy`` target on a rotated run: every strategy's simultaneous
    interval holds the true shares together in at least 95 % of runs (game by game: far fewer)."""
    rng = np.random.default_rng(5)
    truth = np.array([0.3, 0.25])
    reps, covered, covered_old = 600, 0, 0
    info = {f"strategy_win_share_{k}": MetricInfo(f"strategy_win_share_{k}", k, "pp", True) for k in "ab"}
    targets = parse_targets(["no-dominant-strategy:5"], "middle-ages")
    for _ in range(reps):
        cols = [_deals(rng, 200, t, 0.12) for t in truth]
        samples = dict(zip(info, cols))
        for g, tally in ((G, "new"), (1, "old")):
            v = VariantData(None, {"game": "middle-ages", "players": 4}, 4, samples, info,
                            np.zeros((len(cols[0]), 4)), 0.25, games_per_deal=g)
            j = evaluate(v, targets)
            rows = j.parts[0]["metrics"]
            ok = all(r["low"] <= t <= r["high"] for r, t in zip(rows, truth))
            if tally == "new":
                covered += ok
            else:
                covered_old += ok
    se = np.sqrt(0.95 * 0.05 / reps)
    assert covered / reps >= 0.95 - 3 * se, covered / reps
    assert covered_old / reps < 0.9, covered_old / reps


def test_a_real_rotated_sweep_reads_its_deals(tmp_path):
    """A Middle-Ages sweep of a mixed line-up with rotated seats: a strategy's interval on the
    sweep's variant table is the one over the deals of its own rows (grouped here by the rows'
    deal column), not game by game."""
    import polars as pl

    from analysis.sweep.metrics import load_variant, metric_table
    from analysis.sweep.play import plan_sweep, run_sweep

    plan = plan_sweep("middle-ages", varies=["income.palais.base=2..3"], games=800, seed=9,
                      players=4, strategies="balanced,greedy,random,balanced", rotate_seats=True, raw=True)
    run_sweep(plan, tmp_path / "sweep")
    vdir = next(p for p in sorted((tmp_path / "sweep" / "variants").iterdir()))
    v = load_variant(vdir)
    assert v.games_per_deal == 4
    row = next(r for r in metric_table(v) if r["metric"] == "strategy_win_share_greedy")
    p = pl.read_parquet(vdir / "players.parquet", columns=["game", "deal", "strategy", "win_share"])
    per_deal = (p.filter(pl.col("strategy") == "greedy").group_by("deal")
                .agg(pl.col("win_share").mean()).sort("deal")["win_share"].to_numpy())
    from analysis.stats import share_mean_wilson

    lo, hi = share_mean_wilson(per_deal.mean(), per_deal.std(ddof=1), per_deal.size)
    assert row["estimate"] == pytest.approx(per_deal.mean(), abs=1e-6)
    assert (row["low"], row["high"]) == (pytest.approx(float(lo), abs=1e-6), pytest.approx(float(hi), abs=1e-6))
