"""A rotated-seat panel cell's sides and game length are read over its deals (statistics audit
s38 #1).

The panel read a rotated cell's seats over its deals (s37 #1) but still gave its sides (a game with
roles: ``role_win_share_<role>``, the sum of the role's seats' shares) and its game length the
intervals of its games (analysis.sweep.metrics.cell_summary: Wilson over the games, the normal
interval over the games). The games of a deal are not independent: where the rotations replay one
game, a cell of n games holds n/P outcomes. Measured (/tmp/s38/stats in the audit): a side's 95%
interval covered 71% of replayed 4-player cells of 100 deals, the game length's 67% of real
Médiévallons cells of 50 deals (4×balanced).

Now a side is read as a seat is (Wilson at the effective games, Kish, from the seats' per-deal
cross-products ``deal_win_cross``: analysis.panel._deal_share_interval) and the game length counts
each deal as one game (no per-deal sum of lengths is kept: analysis.length.deal_bound_interval).

No game with roles takes --rotate-seats today, so a rotated cell of one is built here from a real
Seigneurial run's files: its statistics' win sums replaced by synthetic deals' with a known truth,
games_per_deal = P and the per-deal sums a rotated run keeps (:func:`_fake_rotated_cell`)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from analysis.stats import wilson
from rewritten_runs import republish, seigneurial_run

P = 4


def _replayed(rng, deals: int, lead: float) -> np.ndarray:
    """(deals, P rotations, P seats) whole wins: seat 1 (a role of its own) wins a deal with chance
    ``lead``, the other seats (one role) equally often; the same winner in every rotation (the same
    game replayed: the worst case, design effect P)."""
    p = [lead] + [(1 - lead) / (P - 1)] * (P - 1)
    win = np.repeat(rng.choice(P, size=deals, p=p)[:, None], P, axis=1)
    return (np.arange(P)[None, None, :] == win[..., None]).astype(float)


def _sums(w: np.ndarray):
    """(total, per-game cross-products, games, per-deal cross-products) of (deals, g, P) wins."""
    D, g, _ = w.shape
    flat = w.reshape(D * g, P)
    per_deal = w.sum(axis=1)
    return flat.sum(axis=0), flat.T @ flat, D * g, per_deal.T @ per_deal


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_replayed_side_is_covered_at_its_level():
    """The side's interval (analysis.panel._deal_share_interval) over 1,000 replayed cells of 100
    deals: it covers the true share 0.3 in at least 92.5% (95% less 3 Monte Carlo sds, 0.7 pp).
    Wilson over the games covered 71%."""
    from analysis.panel import _deal_share_interval

    rng = np.random.default_rng(3811)
    reps, hits, games_hits = 1000, 0, 0
    for _ in range(reps):
        total, cross, G, deal_cross = _sums(_replayed(rng, 100, 0.3))
        _, lo, hi = _deal_share_interval(total, cross, G, deal_cross, P, [0])
        hits += lo <= 0.3 <= hi
        glo, ghi = wilson(total[0], G)
        games_hits += glo <= 0.3 <= ghi
    assert hits / reps >= 0.925, hits / reps
    assert games_hits / reps < 0.8, games_hits / reps        # the old reading, for the record


def test_a_side_with_no_deal_sums_or_no_variance_counts_each_deal_as_one_game():
    from analysis.panel import _deal_share_interval

    rng = np.random.default_rng(3812)
    total, cross, G, deal_cross = _sums(_replayed(rng, 50, 0.3))
    n, lo, hi = _deal_share_interval(total, cross, G, None, P, [0])
    assert n == 50 and (lo, hi) == pytest.approx(tuple(map(float, wilson(total[0] / P, 50))), rel=1e-12)
    # a side that won no game: no variance to read the design effect from, so the bound (D)
    w = np.zeros((50, P, P))
    w[..., 1] = 1.0
    total, cross, G, deal_cross = _sums(w)
    n, lo, hi = _deal_share_interval(total, cross, G, deal_cross, P, [0])
    assert n == 50 and lo == 0.0 and hi == pytest.approx(float(wilson(0.0, 50)[1]), rel=1e-12)


def _fake_rotated_cell(template: Path, out: Path, w: np.ndarray) -> Path:
    """``template``'s run directory with its statistics' win sums replaced by the deals ``w``
    ((deals, g, P) wins), read as a rotated-seat run (games_per_deal g, the per-deal sums, run.json's
    rotate_seats and integrity record)."""
    from simcore.accumulate import RunStats

    shutil.copytree(template, out)
    D, g, _ = w.shape
    G = D * g
    st = RunStats.read(template / "stats.json")
    L = int(st.layout["win_units"])
    new = RunStats(dict(st.layout, games_per_deal=g))
    new.fixed.update({k: a.copy() for k, a in st.fixed.items()})
    new.valued = st.valued
    f = new.fixed
    W = np.rint(w.reshape(G, P) * L).astype(np.int64)
    f["games"][0] = G
    f["cell_n"][:, 0] = G
    f["cell_win"][:, 0] = W.sum(0)
    f["cell_win_sq"][:, 0] = (W * W).sum(0)
    f["cell_outright"][:, 0] = (W == L).sum(0)
    f["cell_shared"][:, 0] = ((W > 0) & (W < L)).sum(0)
    f["win_cross"] = W.T @ W
    per_deal = W.reshape(D, g, P).sum(axis=1)
    f["deal_win_sq"] = (per_deal * per_deal).sum(axis=0)
    f["deal_win_cross"] = per_deal.T @ per_deal
    f["deal_score_sq"] = np.zeros(P, np.int64)
    new.write(out / "stats.json")
    assert json.loads((template / "run.json").read_text())["games"] == G
    return republish(template, out, rotate_seats=True)


@pytest.fixture(scope="module")
def seigneurial_400(tmp_path_factory) -> Path:
    return seigneurial_run(tmp_path_factory, 400, P)


def test_a_rotated_cells_sides_are_read_over_its_deals(seigneurial_400, tmp_path):
    """A rotated Seigneurial cell of 100 deals (seat 1 the Seigneur; each deal's Seigneur chance
    drawn, its four rotations drawn on their own given it): each side's row on the panel is the
    Wilson interval at its effective games, the games' variance of the side's share over its
    per-deal means' (Kish), computed here from the deals; the Seigneur's side is its seat 1 row.
    Game by game the rows had effective games 400 and the games' Wilson interval."""
    from analysis.panel import panel_table

    rng = np.random.default_rng(3813)
    q = rng.beta(1.5, 3.5, size=100)
    lord = rng.random((100, P)) < q[:, None]
    win = np.where(lord, 0, rng.integers(1, P, size=(100, P)))
    w = (np.arange(P)[None, None, :] == win[..., None]).astype(float)
    run = _fake_rotated_cell(seigneurial_400, tmp_path / "cell-0", w)
    cells = panel_table([run]).cells
    for role, seats in (("seigneur", [0]), ("censitaire", [1, 2, 3])):
        x = w[..., seats].sum(axis=-1)                 # the side's share per game, (deals, rotations)
        m = x.mean()
        n_eff = x.size * (x.var(ddof=1) / x.size) / (x.mean(axis=1).var(ddof=1) / x.shape[0])
        r = cells.filter(pl.col("metric") == f"role_win_share_{role}").row(0, named=True)
        assert r["estimate"] == pytest.approx(m, rel=1e-12)
        assert r["effective_games"] == pytest.approx(n_eff, rel=1e-9)
        lo, hi = wilson(m * n_eff, n_eff)
        assert (r["low"], r["high"]) == pytest.approx((float(lo), float(hi)), rel=1e-9)
    seat1 = cells.filter(pl.col("metric") == "seat_win_share_1").row(0, named=True)
    side = cells.filter(pl.col("metric") == "role_win_share_seigneur").row(0, named=True)
    assert (side["effective_games"], side["low"], side["high"]) == pytest.approx(
        (seat1["effective_games"], seat1["low"], seat1["high"]), rel=1e-12)


def test_a_rotated_cells_game_length_counts_each_deal_once(tmp_path):
    """A real rotated Médiévallons cell of 4×balanced, 30 deals (each deal's rotations replay one
    game, so every game of a deal has the same length): the panel's game-length row is the t
    interval of the deals' mean lengths (29 degrees of freedom), its effective games the deals;
    the run page's length interval is the same. Game by game it was the normal interval over
    the 120 games, about half as wide."""
    from scipy import stats as sps

    from analysis import open_runs
    from analysis.length import length_summary
    from analysis.panel import panel_table
    from simcore import runner

    run = runner.simulate("medievallons", players=P, games=P * 30, seed=7, out=tmp_path / "cell-0",
                          quiet=True, strategies="balanced", rotate_seats=True)
    turns = pl.read_parquet(run / "games.parquet", columns=["turns"])["turns"].cast(pl.Float64).to_numpy()
    x = turns.reshape(-1, P)
    assert np.all(x == x[:, :1])              # replayed: the bound is the deals' own t interval
    d = x.mean(axis=1)
    half = sps.t.ppf(0.975, d.size - 1) * d.std(ddof=1) / np.sqrt(d.size)
    r = panel_table([run]).cells.filter(pl.col("metric") == "game_length").row(0, named=True)
    assert r["effective_games"] == 30
    assert (r["low"], r["high"]) == pytest.approx((d.mean() - half, d.mean() + half), rel=1e-9)
    s = length_summary(open_runs([run])).row(0, named=True)
    assert (s["ci_low"], s["ci_high"]) == pytest.approx((d.mean() - half, d.mean() + half), rel=1e-9)


def test_the_deal_bound_on_games_not_replayed():
    """Rotations that differ: the interval's s² is the games' centred sum of squares over
    (games − g), on D − 1 degrees of freedom (checked by hand); one game a unit, the t interval."""
    from scipy import stats as sps

    from analysis.length import deal_bound_interval
    from analysis.stats import t_interval

    rng = np.random.default_rng(3814)
    x = rng.normal(50, 8, size=(40, P)) + rng.normal(0, 5, size=(40, 1))
    n, m = x.size, x.mean()
    ss = ((x - m) ** 2).sum()
    half = sps.t.ppf(0.975, 39) * np.sqrt(ss / (n - P)) / np.sqrt(40)
    lo, hi = deal_bound_interval(m, x.std(ddof=1), n, P)
    assert (float(lo), float(hi)) == pytest.approx((m - half, m + half), rel=1e-12)
    assert deal_bound_interval(m, 3.0, n, 1) == pytest.approx(t_interval(m, 3.0, n), rel=1e-12)
