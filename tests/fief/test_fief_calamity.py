"""Plague (FF-5) and the bishop's intervention (FF-6): exact tables, kernel, reference."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from scipy import stats

from simcore.games.fief import kernel as K
from simcore.games.fief import reference as ref
from simcore.games.fief.calamity import (
    PLAGUE_KEY, REVOLT_KEY, plague_exact, plague_mc, revolt_table, soldiers_removed,
)
from simcore.rng import stream_state

from fief_helpers import variant


def test_plague_removes_half_the_soldiers_rounded_down(rules):
    """FF-5 [assumption]: "retire la moitié, on arrondit au chiffre inférieur": 5 soldiers lose 2."""
    assert [soldiers_removed(rules, s) for s in (0, 1, 4, 5, 30)] == [0, 0, 2, 2, 15]


def test_plague_rounding_up_is_a_setting():
    """FF-5: removed_rounding = "up" reads the sentence the other way: 5 soldiers lose 3."""
    up = variant(removed_rounding='"up"')
    assert [soldiers_removed(up, s) for s in (1, 5)] == [1, 3]


def test_plague_lords_survive_on_four_or_more(rules):
    """FF-5: each Lord rolls one die, 4+ survives: Lords left are binomial(n, 1/2)."""
    d = plague_exact(rules, [3], [1, 2, 3, 4])
    for n in range(1, 5):
        p = d.filter(pl.col("lords") == n).sort("lords_left")["probability"].to_list()
        assert p == pytest.approx([math.comb(n, k) / 2 ** n for k in range(n + 1)])
    assert set(d["soldiers_left"]) == {2}


def test_plague_kernel_matches_reference_and_exact(rules):
    """FF-5: kernel counts equal the reference's (same streams) and agree with the exact table."""
    soldiers, lords, n, seed = [0, 7], [1, 3], 4000, 12
    mc = plague_mc(rules, soldiers, lords, n, seed)
    for s in soldiers:
        for L in lords:
            cell_seed = int(stream_state(np.uint64(seed), np.uint64(PLAGUE_KEY | (s << 20) | L)))
            counts = np.zeros(L + 1, np.int64)
            for i in range(n):
                left, alive = ref.plague(rules, s, L, seed=cell_seed, index=i)
                assert left == s - s // 2
                counts[alive] += 1
            got = mc.filter((pl.col("soldiers") == s) & (pl.col("lords") == L)).sort("lords_left")
            assert np.allclose(got["probability"].to_numpy(), counts / n)
            k = counts[0]
            assert stats.binomtest(int(k), n, 0.5 ** L).pvalue > 6.3e-5      # within 4 sigma


def test_bishop_success_against_ecus(rules):
    """FF-6: die + 1 point per 500 écus, 4+ ends the revolt: 1/2, 2/3, 5/6, 1, 1; MC agrees."""
    t = revolt_table(rules, 2000, method="both", games=20_000, seed=4)
    ex = t.filter(pl.col("method") == "exact")
    assert ex["ecus"].to_list() == [0, 500, 1000, 1500, 2000]
    assert ex["p_success"].to_list() == pytest.approx([1 / 2, 2 / 3, 5 / 6, 1, 1])
    assert ex["p_bishop_stoned"].to_list() == pytest.approx([1 / 2, 1 / 3, 1 / 6, 0, 0])
    mc = t.filter(pl.col("method") == "mc")
    for p_ex, p_mc in zip(ex["p_success"], mc["p_success"]):
        assert abs(p_mc - p_ex) <= 4 * math.sqrt(p_ex * (1 - p_ex) / 20_000) + 1e-12


def test_bishop_kernel_matches_reference(rules):
    """FF-6: the kernel's interventions are the reference's, stream for stream."""
    points = np.array([0, 1, 2], np.int64)
    seeds = np.array([stream_state(np.uint64(9), np.uint64(REVOLT_KEY | int(c))) for c in points],
                     np.uint64)
    wins = np.zeros(3, np.int64)
    K.revolt_grid(seeds, points, np.int64(0), np.int64(500), rules.params, wins)
    for c in range(3):
        assert wins[c] == sum(ref.bishop(rules, c, seed=int(seeds[c]), index=i) for i in range(500))


def test_monte_carlo_grids_play_in_batches_that_change_no_number(rules, monkeypatch):
    """FF-5, FF-6 by Monte Carlo in batches of game indices (one jitted call defers Python's
    signal handlers, so a large grid in one call stayed deaf to Ctrl-C and SIGTERM for minutes):
    with a batch of a few games' work, the kernels are called many times and every table is the
    one played in a single call, count for count."""
    from simcore.games.fief import calamity as C

    whole_plague = plague_mc(rules, [3, 8], [1, 4], 700, 5)
    whole_revolt = revolt_table(rules, 1500, method="mc", games=700, seed=5)
    calls = {"plague": 0, "revolt": 0}
    real_p, real_r = K.plague_grid, K.revolt_grid

    def count(name, fn):
        def call(*a):
            calls[name] += 1
            return fn(*a)
        return call

    # a game index's work: plague 2 x ((1+1) + (1+4)) = 14 over its four cells, so 97 // 14 = 6
    # games a call; revolt 1 per cell, 4 cells (0-1500 écus), 24 games a call
    monkeypatch.setattr(C, "MC_BATCH_WORK", 97)
    monkeypatch.setattr(K, "plague_grid", count("plague", real_p))
    monkeypatch.setattr(K, "revolt_grid", count("revolt", real_r))
    assert plague_mc(rules, [3, 8], [1, 4], 700, 5).equals(whole_plague)
    assert revolt_table(rules, 1500, method="mc", games=700, seed=5).equals(whole_revolt)
    assert calls["plague"] == 117 and calls["revolt"] == 30     # ceil(700 / 6), ceil(700 / 24)
