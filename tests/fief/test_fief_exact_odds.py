"""Exact odds (FF-7) by dynamic programming, against closed forms and against Monte Carlo."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from simcore.games.fief import kernel as K
from simcore.games.fief.exact import dice_sum_pmf, exact_combat, exact_grid
from simcore.games.fief.odds import mc_grid
from simcore.games.fief.rules import DARC_SIDES, TERRAINS

from fief_helpers import variant

PROBS = (K.Q_ATT_WINS, K.Q_DEF_HOLDS, K.Q_BOTH_WIPED, K.Q_ATT_WINS_MERCY, K.Q_DEF_HOLDS_MERCY)
MEANS = (K.Q_ROUNDS, K.Q_ATT_PTS, K.Q_DEF_PTS, K.Q_ATT_LORDS, K.Q_DEF_LORDS, K.Q_ATT_CAPTURED,
         K.Q_DEF_CAPTURED)
Z_MAX = 4.0
TAIL = 2 * stats.norm.sf(Z_MAX)          # two-sided probability beyond 4 standard errors


def test_dice_sum_distributions_are_exact():
    """FF-1: sums of 1, 2 and 3 dice (7 with two dice: 6/36; 10 or 11 with three: 27/216)."""
    assert np.allclose(dice_sum_pmf(1)[1:], 1 / 6)
    assert dice_sum_pmf(2)[7] == pytest.approx(6 / 36)
    assert dice_sum_pmf(3)[10] == pytest.approx(27 / 216) == dice_sum_pmf(3)[11]
    assert dice_sum_pmf(3).sum() == pytest.approx(1.0)


def test_one_against_one_in_open_ground_matches_the_closed_form(rules):
    """FF-2/FF-3: one die each, open column: a loss with probability 5/6 each side, nobody loses
    with probability 1/36 (the round repeats): P(A) = P(D) = 1/7, P(both) = 5/7, E[rounds] = 36/35."""
    v = exact_combat(rules, 1, 1, TERRAINS.index("open"))
    assert v[K.Q_ATT_WINS] == pytest.approx(1 / 7)
    assert v[K.Q_DEF_HOLDS] == pytest.approx(1 / 7)
    assert v[K.Q_BOTH_WIPED] == pytest.approx(5 / 7)
    assert v[K.Q_ROUNDS] == pytest.approx(36 / 35)


def test_probabilities_add_up_and_lords_are_accounted_for(rules):
    """FF-3: every combat ends in exactly one way; Lords left + captured <= Lords at the start."""
    for t in range(3):
        g = exact_grid(rules, range(1, 31), range(1, 21), t, 0, 2, 1, (3, 2))
        total = g[..., K.Q_ATT_WINS] + g[..., K.Q_DEF_HOLDS] + g[..., K.Q_BOTH_WIPED]
        assert np.allclose(total, 1.0)
        assert np.all(g[..., K.Q_ATT_LORDS] + g[..., K.Q_ATT_CAPTURED] <= 2 + 1e-12)


def test_bigger_armies_win_more_often(rules):
    """FF-7 sanity: for each defence and terrain, P(attacker wins) at 30 points beats 1 point, and
    a castle and a city protect better than open ground."""
    g = np.stack([exact_grid(rules, range(1, 31), range(1, 21), t, 0, 1, 1, (-1, -1))[..., 0]
                  for t in range(3)])
    assert np.all(g[:, -1, :] > g[:, 0, :])
    assert np.all(g[1] <= g[0] + 1e-12) and np.all(g[2] <= g[1] + 1e-12)


def disagreements(ex, s, sq, attackers, defenders, games):
    """Cells where Monte Carlo sums ``s``/``sq`` and exact values ``ex`` differ by more than 4
    standard errors: probabilities judged by the exact binomial tail (cells near 0 or 1 are far
    from normal), means by 4 sample standard errors plus one combat's worth, (a + d) / games,
    since a rare outcome missing from (or once present in) the sample moves a mean that much."""
    bad = []
    for q in PROBS:
        k = np.rint(s[..., q]).astype(np.int64)
        p = np.clip(ex[..., q], 0.0, 1.0)
        pval = np.minimum(1.0, 2 * np.minimum(stats.binom.cdf(k, games, p),
                                              stats.binom.sf(k - 1, games, p)))
        bad += [(q, i, j, k[i, j] / games, p[i, j]) for i, j in zip(*np.nonzero(pval < TAIL))]
    one_combat = (np.array(attackers)[:, None] + np.array(defenders)[None, :]) / games
    for q in MEANS:
        mean = s[..., q] / games
        var = np.maximum(sq[..., q] / games - mean ** 2, 0) * games / (games - 1)
        se = np.sqrt(var / games)
        far = np.abs(mean - ex[..., q]) > Z_MAX * se + one_combat
        bad += [(q, i, j, mean[i, j], ex[i, j, q]) for i, j in zip(*np.nonzero(far))]
    return bad


def assert_mc_agrees(rules, attackers, defenders, terrain, darc, la, ld, mercy, games, seed):
    """FF-7: every quantity of every cell within 4 standard errors of the exact value.

    Over thousands of comparisons a few exceed 4 standard errors by chance (6.3e-5 each), so a
    cell that does is played again on fresh streams with 10 times the combats and must then be
    within 4 standard errors: a real discrepancy persists (and grows in z), a fluke does not.
    """
    ex = exact_grid(rules, attackers, defenders, terrain, darc, la, ld, mercy)
    s, sq = mc_grid(rules, attackers, defenders, terrain, darc, la, ld, mercy, games, seed)
    persisting = []
    for cell in sorted({(i, j) for _, i, j, _, _ in disagreements(ex, s, sq, attackers, defenders,
                                                                   games)}):
        a, d = [attackers[cell[0]]], [defenders[cell[1]]]
        s2, sq2 = mc_grid(rules, a, d, terrain, darc, la, ld, mercy, 10 * games, seed + 1_000_003)
        again = disagreements(ex[cell[0]:cell[0] + 1, cell[1]:cell[1] + 1], s2, sq2, a, d, 10 * games)
        persisting += [(q, a[0], d[0], got, want) for q, _, _, got, want in again]
    assert not persisting, f"{TERRAINS[terrain]} d'Arc {DARC_SIDES[darc]} mercy {mercy}: {persisting[:10]}"


@pytest.mark.parametrize("terrain", range(3))
def test_monte_carlo_agrees_with_exact_over_the_whole_grid(rules, terrain):
    """FF-7: the kernel's combats and the exact odds agree on the full 30 x 20 grid of each
    terrain (5 000 combats per cell): wins, holds, both wiped, rounds, points and Lords left.

    5 000 combats (was 20 000; the slow version plays 100 000) still catch a small kernel mistake
    over the grid's 600 cells. Planted in the kernel once: a die showing 5 for one six in ten (its
    mean 1/60 low) failed every terrain (3-5 cells past 4 standard errors, a first one persisting on
    the replay at 10 times the combats, in the mean number of rounds); a die counted from one point
    below its threshold (FF-1) failed 365-409 cells of every terrain, the attacker's loss read in the
    defender's terrain (FF-2) 592 cells of the castle and the city."""
    assert_mc_agrees(rules, list(range(1, 31)), list(range(1, 21)), terrain, 0, 1, 1, (-1, -1),
                     5_000, seed=2024)


SETTINGS = {
    "default": {},
    "lords first, d'Arc first (one solve per cell)": {"lords_removed": '"first"', "removed": '"first"'},
    "mercy granted half the time, before round 1": {"grant_probability": "0.5",
                                                    "ask_before_first_round": "true"},
    "attacker asks first, no Lord needed": {"first_to_ask": '"attacker"', "requires_lords": "false"},
}


@pytest.mark.parametrize("name", list(SETTINGS))
@pytest.mark.parametrize("darc", [1, 2])
def test_monte_carlo_agrees_with_exact_under_every_setting(name, darc):
    """FF-3/FF-4: d'Arc on either side, both mercy thresholds, every [assumption] setting."""
    rules = variant(**SETTINGS[name])
    atts = [1, 2, 4, 7, 9, 13, 18]
    defs = [1, 3, 6, 8, 12, 15]
    for terrain in range(3):
        assert_mc_agrees(rules, atts, defs, terrain, darc, 2, 2, (3, 2), 10_000, seed=7)


@pytest.mark.slow
@pytest.mark.parametrize("darc", [0, 1, 2])
@pytest.mark.parametrize("terrain", range(3))
def test_monte_carlo_agrees_with_exact_over_the_whole_grid_slow(rules, terrain, darc):
    """FF-7 (slow): the full grid with 100 000 combats per cell, d'Arc on either side."""
    assert_mc_agrees(rules, list(range(1, 31)), list(range(1, 21)), terrain, darc, 2, 1, (-1, 2),
                     100_000, seed=99)
