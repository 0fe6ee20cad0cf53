"""A rotated seat that never won (or always won) is read over its deals, not its games.

A rotated-seat run's seat interval is Wilson's at the effective number of games (the games over the
design effect, Kish, from the deals' sd). A seat with no wins (or only wins) has no variance to read
the design effect from: the seat table fell back to all n games, so a seat that never won in 30
deals of 4 rotations had the upper end of Wilson at 0/120 (3.1%), not at 0/30 (11.4%): up to g = 4
times too low, where the games of a deal may be one game replayed. It now counts each deal as one
game (the design effect is at most g), as a panel's side rows do (analysis.panel).

The expected ends are statsmodels' Wilson interval at D trials, computed here independently."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import polars as pl
import pytest
from statsmodels.stats.proportion import proportion_confint

from analysis.seats import _seat_table, seat_table

P, DEALS = 4, 30


def _rotated(rng, winners_from) -> np.ndarray:
    """(deals, P rotations, P seats) whole wins, one winner a game drawn from the seats
    ``winners_from`` (the others never win)."""
    winner = rng.choice(winners_from, size=(DEALS, P))
    return (np.arange(P)[None, None, :] == winner[..., None]).astype(float)


def _rows(w: np.ndarray) -> pl.DataFrame:
    """players rows of a rotated run: run, deal, rotation, seat, win_share, score, rank."""
    d, r, s = np.meshgrid(np.arange(DEALS), np.arange(P), np.arange(P), indexing="ij")
    return pl.DataFrame({"run": np.zeros(w.size, np.int32), "deal": d.ravel(), "rotation": r.ravel(),
                         "seat": s.ravel().astype(np.int8), "win_share": w.ravel(),
                         "score": 10.0 * w.ravel() + s.ravel(), "rank": 2 - w.ravel()})


class _RotatedRows(SimpleNamespace):
    """What the seat table reads of a rotated run's rows (analysis.load.RunSet's names)."""

    n_players, from_stats, cluster = P, False, "deal"

    def smallest_of(self, kind):
        return 0.01

    def players(self, columns=None):
        # with a ``run`` column, as RunSet.players gives it
        keep = [c for c in (columns or self.rows.columns) if c != "run"] + ["run"]
        return self.rows.lazy().select(keep)


def _agg(w: np.ndarray) -> pl.DataFrame:
    """The seat table's aggregate of (deals, P, P) wins, as analysis.seats builds it."""
    games = np.full(P, DEALS * P)
    wins = w.sum(axis=(0, 1))
    p = wins / games
    return pl.DataFrame({"seat": np.arange(P, dtype=np.int8), "games": games, "wins": wins,
                         "_w2": ((w - p) ** 2).sum(axis=(0, 1)), "_m": np.zeros(P), "_m2": np.zeros(P),
                         "mean_rank": np.ones(P), "_deal_sq": (w.sum(axis=1) ** 2).sum(axis=0),
                         "_gpd": np.full(P, P), "_deal_score_sq": np.zeros(P)})


def _wilson(successes: int, trials: int) -> tuple[float, float]:
    return proportion_confint(successes, trials, alpha=0.05, method="wilson")


@pytest.mark.parametrize("read", ["aggregate", "rows"])
def test_a_seat_that_never_won_is_read_over_its_deals(read):
    w = _rotated(np.random.default_rng(3901), [0, 1, 2])         # seat 4 never wins
    assert w[..., 3].sum() == 0 and np.all(w[..., :3].sum(axis=(0, 1)) > 0)
    t = (_seat_table(SimpleNamespace(n_players=P, smallest_of=lambda kind: 0.01), _agg(w))
         if read == "aggregate" else seat_table(_RotatedRows(rows=_rows(w))))
    r = t.row(3, named=True)
    lo, hi = _wilson(0, DEALS)
    assert r["wins"] == 0 and r["games"] == DEALS * P
    assert r["effective_games"] == DEALS
    assert r["ci_low"] == pytest.approx(lo, abs=1e-12) and r["ci_high"] == pytest.approx(hi, rel=1e-9)
    # the old reading, at the games, was 4 times narrower above: what this guards against
    assert r["ci_high"] > 3 * _wilson(0, DEALS * P)[1]


def test_a_seat_that_won_every_game_is_read_over_its_deals():
    w = _rotated(np.random.default_rng(3902), [1])               # seat 2 wins every game
    t = _seat_table(SimpleNamespace(n_players=P, smallest_of=lambda kind: 0.01), _agg(w))
    lo, hi = _wilson(DEALS, DEALS)
    r = t.row(1, named=True)
    assert r["effective_games"] == DEALS
    assert r["ci_low"] == pytest.approx(lo, rel=1e-9) and r["ci_high"] == pytest.approx(hi, abs=1e-12)
    for s in (0, 2, 3):                                           # and those that never won
        r = t.row(s, named=True)
        assert r["effective_games"] == DEALS and r["ci_high"] == pytest.approx(_wilson(0, DEALS)[1], rel=1e-9)


def test_a_seat_that_won_some_games_still_reads_its_design_effect():
    # not the fallback: the Kish effective games, between the deals and the games
    w = _rotated(np.random.default_rng(3903), [0, 1, 2])
    t = _seat_table(SimpleNamespace(n_players=P, smallest_of=lambda kind: 0.01), _agg(w))
    n_eff = t["effective_games"].to_numpy()[:3]
    assert np.all(n_eff > DEALS) and np.all(n_eff != DEALS * P)
