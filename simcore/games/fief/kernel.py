"""Fief Numba kernels: combats (FF-1 … FF-4), plague (FF-5) and the bishop's intervention (FF-6).

Everything here is jit-compiled by Numba (``cache=True``) and takes arrays and scalars only: the
rules arrive as the arrays of :class:`~simcore.games.fief.rules.FiefRules` (``dice_thresholds``,
``loss``, ``params``). Each combat draws from its own stream, ``stream_state(seed, index)``, so a
combat's result depends only on (seed, index), never on the thread count, block split or chunk
size. Parallelism is a ``prange`` over blocks of combats (or over grid cells), each block writing
its own slice of preallocated output arrays.

Draw order of one combat (the reference in ``reference.py`` follows it draw for draw):
for each round, (1) the mercy check (FF-3), which draws ``below(2**30)`` for an ask only when the
grant probability is strictly between 0 and 1, the first asker first; (2) the attacker's dice, one
``below(6) + 1`` per die; (3) the defender's dice. A combat given ``forced`` dice reads its dice
from that array first (the seed's worked example, FF-3), then from the stream.

A side's state is its points; its Lords left follow from the points and the removal order
(FF-3: soldiers before Lords by default), and d'Arc (FF-4) fights while she is among them.

May import numpy, numba, :mod:`simcore.rng` and the integer constants of the rules module.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from simcore.games.fief.rules import (
    DARC_ATTACKER, DARC_DEFENDER, GRANT_ONE, OPEN, P_DARC_BONUS, P_DARC_FIRST,
    P_GRANT_THRESHOLD, P_LORDS_FIRST, P_MERCY_BEFORE_FIRST, P_MERCY_DEFENDER_FIRST,
    P_MERCY_NEEDS_LORD, P_PLAGUE_LORD_SURVIVES, P_PLAGUE_ROUND_UP, P_REVOLT_SUCCESS,
)
from simcore.rng import below, stream_state

# Winner codes (games.parquet ``winner``).
ATTACKER_WINS, DEFENDER_HOLDS, BOTH_WIPED = 0, 1, 2

# Per-combat quantities summed by the grid kernel and computed by the exact solver (exact.py).
Q_ATT_WINS, Q_DEF_HOLDS, Q_BOTH_WIPED, Q_ATT_WINS_MERCY, Q_DEF_HOLDS_MERCY, Q_ROUNDS, Q_ATT_PTS, \
    Q_DEF_PTS, Q_ATT_LORDS, Q_DEF_LORDS, Q_ATT_CAPTURED, Q_DEF_CAPTURED = range(12)
NQ = 12


@njit(cache=True, inline="always")
def lords_left(points, points0, lords0, lords_first):
    """FF-3: Lords still standing when a side that started with (points0, lords0) has ``points``."""
    if lords_first:
        lost = points0 - points
        return lords0 - lost if lost < lords0 else 0
    return lords0 if lords0 < points else points


@njit(cache=True, inline="always")
def darc_fights(points, points0, lords0, lords_first, darc_first):
    """FF-4: d'Arc is still in the fight (she is one of the side's Lords)."""
    ll = lords_left(points, points0, lords0, lords_first)
    if darc_first:
        return ll == lords0 and ll >= 1
    return ll >= 1


@njit(cache=True, inline="always")
def n_dice(points, thresholds):
    """FF-1: one die per threshold <= points."""
    n = 0
    for t in thresholds:
        if t <= points:
            n += 1
    return n


@njit(cache=True, inline="always")
def _die(st, forced, pos):
    if pos[0] < forced.shape[0]:
        v = forced[pos[0]]
        pos[0] += 1
        return v
    return below(st, 6) + 1


@njit(cache=True, inline="always")
def _asks(points, points0, lords0, k, params):
    """FF-3: a side asks for mercy when its points are at most k (and it still has a Lord)."""
    if k < 0 or points > k:
        return False
    if params[P_MERCY_NEEDS_LORD] and lords_left(points, points0, lords0, params[P_LORDS_FIRST]) < 1:
        return False
    return True


@njit(cache=True, inline="always")
def _granted(st, params):
    thr = params[P_GRANT_THRESHOLD]
    if thr >= GRANT_ONE:
        return True
    if thr <= 0:
        return False
    return below(st, GRANT_ONE) < thr


@njit(cache=True)
def fight(a0, d0, la0, ld0, terrain, darc, k_att, k_def, thresholds, loss, params, st, forced, pos):
    """One combat (FF-3) from (attacker points a0 with la0 Lords) against (d0, ld0).

    The defender stands in ``terrain``, the attacker in open ground. Returns
    ``(winner, by_mercy, rounds, a, d, att_lords_left, def_lords_left, att_captured, def_captured)``.
    """
    lf = params[P_LORDS_FIRST]
    df = params[P_DARC_FIRST]
    bonus = params[P_DARC_BONUS]
    before_first = params[P_MERCY_BEFORE_FIRST]
    def_first = params[P_MERCY_DEFENDER_FIRST]
    a = a0
    d = d0
    rounds = 0
    while a > 0 and d > 0:
        if rounds > 0 or before_first:
            # FF-3 mercy: the asking side's Lords are captured, its soldiers removed; combat ends.
            for turn in range(2):
                defender_turn = (turn == 0) == (def_first == 1)
                if defender_turn:
                    if _asks(d, d0, ld0, k_def, params) and _granted(st, params):
                        return (ATTACKER_WINS, 1, rounds, a, 0, lords_left(a, a0, la0, lf), 0, 0,
                                lords_left(d, d0, ld0, lf))
                else:
                    if _asks(a, a0, la0, k_att, params) and _granted(st, params):
                        return (DEFENDER_HOLDS, 1, rounds, 0, d, 0, lords_left(d, d0, ld0, lf),
                                lords_left(a, a0, la0, lf), 0)
        # FF-1/FF-4: both sides roll at once, each from its current points.
        sa = 0
        for _ in range(n_dice(a, thresholds)):
            sa += _die(st, forced, pos)
        if darc == DARC_ATTACKER and darc_fights(a, a0, la0, lf, df):
            sa += bonus
        sd = 0
        for _ in range(n_dice(d, thresholds)):
            sd += _die(st, forced, pos)
        if darc == DARC_DEFENDER and darc_fights(d, d0, ld0, lf, df):
            sd += bonus
        # FF-2: the loss is read in the terrain of the side that loses; removed simultaneously.
        to_def = loss[terrain, sa]
        to_att = loss[OPEN, sd]
        a = a - to_att if to_att < a else 0
        d = d - to_def if to_def < d else 0
        rounds += 1
    if a > 0:
        winner = ATTACKER_WINS
    elif d > 0:
        winner = DEFENDER_HOLDS
    else:
        winner = BOTH_WIPED
    return (winner, 0, rounds, a, d, lords_left(a, a0, la0, lf), lords_left(d, d0, ld0, lf), 0, 0)


@njit(cache=True)
def fight_forced(a0, d0, la0, ld0, terrain, darc, k_att, k_def, thresholds, loss, params, seed,
                 index, forced):
    """:func:`fight` with its dice read from ``forced`` first (then from the stream)."""
    st = np.empty(1, np.uint64)
    st[0] = stream_state(seed, index)
    pos = np.zeros(1, np.int64)
    r = fight(a0, d0, la0, ld0, terrain, darc, k_att, k_def, thresholds, loss, params, st, forced, pos)
    return r, pos[0]


@njit(cache=True, parallel=True, nogil=True)
def combat_chunk(first, n, seed, a0, d0, la0, ld0, terrain, darc, k_att, k_def, thresholds, loss,
                 params, out_winner, out_mercy, out_rounds, out_a, out_d, out_lla, out_lld,
                 out_capa, out_capd):
    """Combats ``first … first+n-1`` of one matchup into ``out_*[0:n]`` (one stream per combat)."""
    n_blocks = min(n, 1024)
    forced = np.zeros(0, np.int64)
    for b in prange(n_blocks):
        lo = b * n // n_blocks
        hi = (b + 1) * n // n_blocks
        st = np.empty(1, np.uint64)
        pos = np.zeros(1, np.int64)
        for i in range(lo, hi):
            st[0] = stream_state(seed, first + i)
            r = fight(a0, d0, la0, ld0, terrain, darc, k_att, k_def, thresholds, loss, params, st,
                      forced, pos)
            out_winner[i] = r[0]
            out_mercy[i] = r[1]
            out_rounds[i] = r[2]
            out_a[i] = r[3]
            out_d[i] = r[4]
            out_lla[i] = r[5]
            out_lld[i] = r[6]
            out_capa[i] = r[7]
            out_capd[i] = r[8]


@njit(cache=True, parallel=True)
def combat_grid(cell_seeds, att_pts, def_pts, att_lords, def_lords, terrain, darc, k_att, k_def,
                n, thresholds, loss, params, out_sum, out_sumsq):
    """Monte Carlo over a grid: ``n`` combats per cell, summed into ``out_sum[cell, Q_*]`` and
    ``out_sumsq[cell, Q_*]`` (each cell's combats in index order, so sums are reproducible).

    Combat i of cell c uses the stream ``stream_state(cell_seeds[c], i)``.
    """
    forced = np.zeros(0, np.int64)
    for c in prange(att_pts.shape[0]):
        st = np.empty(1, np.uint64)
        pos = np.zeros(1, np.int64)
        q = np.zeros(NQ, np.float64)
        for i in range(n):
            st[0] = stream_state(cell_seeds[c], i)
            r = fight(att_pts[c], def_pts[c], att_lords[c], def_lords[c], terrain, darc, k_att, k_def,
                      thresholds, loss, params, st, forced, pos)
            q[:] = 0.0
            if r[0] == ATTACKER_WINS:
                q[Q_ATT_WINS] = 1.0
                q[Q_ATT_WINS_MERCY] = r[1]
            elif r[0] == DEFENDER_HOLDS:
                q[Q_DEF_HOLDS] = 1.0
                q[Q_DEF_HOLDS_MERCY] = r[1]
            else:
                q[Q_BOTH_WIPED] = 1.0
            q[Q_ROUNDS] = r[2]
            q[Q_ATT_PTS] = r[3]
            q[Q_DEF_PTS] = r[4]
            q[Q_ATT_LORDS] = r[5]
            q[Q_DEF_LORDS] = r[6]
            q[Q_ATT_CAPTURED] = r[7]
            q[Q_DEF_CAPTURED] = r[8]
            for j in range(NQ):
                out_sum[c, j] += q[j]
                out_sumsq[c, j] += q[j] * q[j]


@njit(cache=True, parallel=True)
def plague_grid(cell_seeds, soldiers, lords, i0, i1, params, out_soldiers_left, out_lords_hist):
    """FF-5 Monte Carlo: plagues ``i0 … i1 - 1`` of every cell, added to ``out_lords_hist[c, k]``
    (the plagues in which k Lords survive); plague i of a cell draws from its own stream, so the
    plagues can be played in any batches of indices (:func:`.calamity.plague_mc`).

    Soldiers lose half, rounded per ``params[P_PLAGUE_ROUND_UP]`` (no draw); each Lord then rolls
    one die (``below(6) + 1``, in Lord order) and survives on ``params[P_PLAGUE_LORD_SURVIVES]`` or more.
    """
    for c in prange(soldiers.shape[0]):
        s = soldiers[c]
        removed = (s + 1) // 2 if params[P_PLAGUE_ROUND_UP] else s // 2
        out_soldiers_left[c] = s - removed
        st = np.empty(1, np.uint64)
        for i in range(i0, i1):
            st[0] = stream_state(cell_seeds[c], i)
            k = 0
            for _ in range(lords[c]):
                if below(st, 6) + 1 >= params[P_PLAGUE_LORD_SURVIVES]:
                    k += 1
            out_lords_hist[c, k] += 1


@njit(cache=True, parallel=True)
def revolt_grid(cell_seeds, conviction, i0, i1, params, out_success):
    """FF-6 Monte Carlo: the bishop's interventions ``i0 … i1 - 1`` of every cell; adds their
    successes (die + points >= target) to ``out_success[c]`` (batches of indices, as
    :func:`plague_grid`)."""
    for c in prange(conviction.shape[0]):
        st = np.empty(1, np.uint64)
        wins = 0
        for i in range(i0, i1):
            st[0] = stream_state(cell_seeds[c], i)
            if below(st, 6) + 1 + conviction[c] >= params[P_REVOLT_SUCCESS]:
                wins += 1
        out_success[c] += wins
