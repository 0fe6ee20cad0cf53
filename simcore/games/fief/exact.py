"""Exact Fief combat odds (FF-7) by dynamic programming over (attacker points, defender points).

A combat is a Markov chain on (a, d): in a round each side inflicts a loss whose distribution
depends only on its own current points (FF-1 dice count, FF-4 d'Arc while she stands) and the
loser's terrain (FF-2), and both losses are removed at once (FF-3). Every transition leaves (a, d)
or lowers a or d, so the expected value of any terminal quantity is solved in increasing (a, d)
order; the only cycle is the round where nobody loses, a self-loop divided out exactly:

    V_fight(a, d) = (e_round + sum_{(x, y) != (0, 0)} P_a(x) P_d(y) V_enter(a - y, d - x)
                     + P_a(0) P_d(0) m) / (1 - P_a(0) P_d(0) q_fight)
    V_enter(a, d) = m + q_fight V_fight(a, d)

where ``m`` is the mercy part (FF-3: the asking side surrenders with probability ``q``) and
``q_fight`` the probability nobody surrenders at the start of the round. Dice-sum distributions
are exact convolutions; arithmetic is float64. With soldiers removed before Lords and d'Arc
falling last (the defaults), one solve covers every starting cell of a grid; otherwise each cell
is solved on its own.

May import numpy, numba and the rules / kernel constants of this package.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcore.games.fief.kernel import (
    NQ, Q_ATT_CAPTURED, Q_ATT_LORDS, Q_ATT_PTS, Q_ATT_WINS, Q_ATT_WINS_MERCY, Q_BOTH_WIPED,
    Q_DEF_CAPTURED, Q_DEF_HOLDS, Q_DEF_HOLDS_MERCY, Q_DEF_LORDS, Q_DEF_PTS, Q_ROUNDS,
)
from simcore.games.fief.rules import (
    DARC_ATTACKER, DARC_DEFENDER, DIE_SIDES, GRANT_ONE, OPEN, P_DARC_BONUS, P_DARC_FIRST,
    P_GRANT_THRESHOLD, P_LORDS_FIRST, P_MERCY_BEFORE_FIRST, P_MERCY_DEFENDER_FIRST,
    P_MERCY_NEEDS_LORD, FiefRules,
)


def dice_sum_pmf(n: int) -> np.ndarray:
    """Exact distribution of the sum of n six-sided dice: ``pmf[s]`` for s = 0 … 6n."""
    pmf = np.zeros(1)
    pmf[0] = 1.0
    face = np.zeros(DIE_SIDES + 1)
    face[1:] = 1.0 / DIE_SIDES
    for _ in range(n):
        pmf = np.convolve(pmf, face)
    return pmf


def _lords_left(points: np.ndarray, p0: int, lords0: int, lords_first: bool) -> np.ndarray:
    if lords_first:
        return np.maximum(0, lords0 - (p0 - points))
    return np.minimum(lords0, points)


def side_arrays(rules: FiefRules, p0: int, lords0: int, row: int, darc: bool, k: int):
    """Per current points p = 0 … p0 of one side: loss pmf it inflicts (read in ``row``, the other
    side's terrain), Lords left, and whether it asks for mercy (FF-1 … FF-4)."""
    par = rules.params
    lords_first = bool(par[P_LORDS_FIRST])
    pts = np.arange(p0 + 1)
    ll = _lords_left(pts, p0, lords0, lords_first)
    if par[P_DARC_FIRST]:
        darc_on = darc & (ll == lords0) & (ll >= 1)
    else:
        darc_on = darc & (ll >= 1)
    loss = rules.loss
    max_loss = int(loss[row].max())
    pmf = np.zeros((p0 + 1, max_loss + 1))
    bonus = int(par[P_DARC_BONUS])
    cache: dict[int, np.ndarray] = {}
    for p in range(1, p0 + 1):
        n = rules.dice_for(p)
        if n not in cache:
            cache[n] = dice_sum_pmf(n)
        sums = cache[n]
        shift = bonus if darc_on[p] else 0
        for s in range(n, len(sums)):
            pmf[p, loss[row, s + shift]] += sums[s]
    asks = (k >= 0) & (pts <= k) & (pts >= 1)
    if par[P_MERCY_NEEDS_LORD]:
        asks &= ll >= 1
    return pmf, ll.astype(np.int64), asks


@njit(cache=True)
def mercy_granted(attacker_asks, defender_asks, grant, defender_first):
    """FF-3: the chances that the attacker's (qa) and the defender's (qd) surrender is granted at
    the start of a round, the first asker first (the defender's with ``defender_first``), the
    other only if the first was not granted."""
    qa1 = grant if attacker_asks else 0.0
    qd1 = grant if defender_asks else 0.0
    if defender_first:
        return (1.0 - qd1) * qa1, qd1
    return qa1, (1.0 - qa1) * qd1


@njit(cache=True)
def solve(pa, pd, lla, lld, ask_a, ask_d, grant, defender_first, v_enter, v_fight):
    """Fill ``v_enter[a, d, Q_*]`` and ``v_fight[a, d, Q_*]`` for every a <= A, d <= D (jit-compiled by Numba).

    pa[a, x]: P(attacker with a points inflicts x); pd[d, y]: P(defender with d inflicts y);
    lla/lld: Lords left by points; ask_a/ask_d: the side asks for mercy at these points.
    """
    A = pa.shape[0] - 1
    D = pd.shape[0] - 1
    nx = pa.shape[1]
    ny = pd.shape[1]
    m = np.zeros(NQ)
    acc = np.zeros(NQ)
    for a in range(A + 1):
        for d in range(D + 1):
            if a == 0 or d == 0:
                if a > 0:
                    v_enter[a, d, Q_ATT_WINS] = 1.0
                    v_enter[a, d, Q_ATT_PTS] = a
                    v_enter[a, d, Q_ATT_LORDS] = lla[a]
                elif d > 0:
                    v_enter[a, d, Q_DEF_HOLDS] = 1.0
                    v_enter[a, d, Q_DEF_PTS] = d
                    v_enter[a, d, Q_DEF_LORDS] = lld[d]
                else:
                    v_enter[a, d, Q_BOTH_WIPED] = 1.0
                continue
            # FF-3 mercy at the start of a round: first asker, then the other.
            qa, qd = mercy_granted(ask_a[a], ask_d[d], grant, defender_first)
            qfight = 1.0 - qa - qd
            m[:] = 0.0
            # attacker surrenders: defender holds, attacker's Lords captured
            m[Q_DEF_HOLDS] += qa
            m[Q_DEF_HOLDS_MERCY] += qa
            m[Q_DEF_PTS] += qa * d
            m[Q_DEF_LORDS] += qa * lld[d]
            m[Q_ATT_CAPTURED] += qa * lla[a]
            # defender surrenders
            m[Q_ATT_WINS] += qd
            m[Q_ATT_WINS_MERCY] += qd
            m[Q_ATT_PTS] += qd * a
            m[Q_ATT_LORDS] += qd * lla[a]
            m[Q_DEF_CAPTURED] += qd * lld[d]
            acc[:] = 0.0
            for x in range(nx):
                px = pa[a, x]
                if px == 0.0:
                    continue
                d2 = d - x if x < d else 0
                for y in range(ny):
                    if x == 0 and y == 0:
                        continue
                    p = px * pd[d, y]
                    if p == 0.0:
                        continue
                    a2 = a - y if y < a else 0
                    for j in range(NQ):
                        acc[j] += p * v_enter[a2, d2, j]
            p0 = pa[a, 0] * pd[d, 0]
            denom = 1.0 - p0 * qfight
            for j in range(NQ):
                v_fight[a, d, j] = (acc[j] + p0 * m[j]) / denom
            v_fight[a, d, Q_ROUNDS] += 1.0 / denom
            for j in range(NQ):
                v_enter[a, d, j] = m[j] + qfight * v_fight[a, d, j]


def _solve_side_pair(rules, a0, d0, la, ld, terrain, darc, mercy):
    pa, lla, ask_a = side_arrays(rules, a0, la, terrain, darc == DARC_ATTACKER, mercy[0])
    pd, lld, ask_d = side_arrays(rules, d0, ld, OPEN, darc == DARC_DEFENDER, mercy[1])
    v_enter = np.zeros((a0 + 1, d0 + 1, NQ))
    v_fight = np.zeros((a0 + 1, d0 + 1, NQ))
    grant = rules.param(P_GRANT_THRESHOLD) / GRANT_ONE
    solve(pa, pd, lla, lld, ask_a, ask_d, grant, bool(rules.param(P_MERCY_DEFENDER_FIRST)),
          v_enter, v_fight)
    return v_fight if not rules.param(P_MERCY_BEFORE_FIRST) else v_enter


def exact_grid(rules: FiefRules, attackers, defenders, terrain: int, darc: int, lords_attacker: int,
               lords_defender: int, mercy: tuple[int, int]) -> np.ndarray:
    """Exact expected quantities ``[i, j, Q_*]`` for attacker ``attackers[i]`` vs ``defenders[j]``.

    Each cell's armies have ``min(lords, points)`` Lords. FF-1 … FF-4 with the given mercy policy.
    """
    attackers = [int(a) for a in attackers]
    defenders = [int(d) for d in defenders]
    out = np.zeros((len(attackers), len(defenders), NQ))
    shared = not rules.param(P_LORDS_FIRST) and not rules.param(P_DARC_FIRST)
    if shared:
        v = _solve_side_pair(rules, max(attackers), max(defenders), lords_attacker, lords_defender,
                             terrain, darc, mercy)
        for i, a in enumerate(attackers):
            for j, d in enumerate(defenders):
                out[i, j] = v[a, d]
        return out
    for i, a in enumerate(attackers):
        for j, d in enumerate(defenders):
            v = _solve_side_pair(rules, a, d, min(lords_attacker, a), min(lords_defender, d),
                                 terrain, darc, mercy)
            out[i, j] = v[a, d]
    return out


def exact_combat(rules: FiefRules, attacker: int, defender: int, terrain: int, darc: int = 0,
                 lords_attacker: int = 1, lords_defender: int = 1,
                 mercy: tuple[int, int] = (-1, -1)) -> np.ndarray:
    """Exact expected quantities ``[Q_*]`` of one matchup."""
    return exact_grid(rules, [attacker], [defender], terrain, darc, lords_attacker, lords_defender,
                      mercy)[0, 0]


# ---------------------------------------------------------------------------------------------
# The distribution of the number of rounds (what the Monte Carlo check of rounds is tested against)
# ---------------------------------------------------------------------------------------------

ROUNDS_TAIL = 1e-13          # rounds distributions are cut where less than this is left
MAX_ROUNDS_WORK = 2 * 10**9  # states x rounds x loss pairs the rounds distributions may cost


@njit(cache=True)
def rounds_layers(pa, pd, ask_a, ask_d, grant, defender_first, before_first, cell_a, cell_d, out):
    """``out[c, r]`` = P(the combat from (cell_a[c], cell_d[c]) lasts exactly r rounds), for
    r < out.shape[1] (jit-compiled by Numba). The chain of :func:`solve`, layer by layer: a round
    is one roll of both sides (the kernel's ``rounds``); a granted mercy ends the combat at the
    start of a round without one; with ``before_first`` mercy may end it before the first.

        fight_r(a, d) = sum_{x, y} P_a(x) P_d(y) enter_{r-1}(a - y, d - x)      (r >= 1)
        enter_0(a, d) = 1 - q_fight(a, d),  enter_r(a, d) = q_fight(a, d) fight_r(a, d)  (r >= 1)

    and a finished combat (a = 0 or d = 0) has enter_0 = 1.
    """
    A = pa.shape[0] - 1
    D = pd.shape[0] - 1
    nx = pa.shape[1]
    ny = pd.shape[1]
    R = out.shape[1]
    qfight = np.ones((A + 1, D + 1))
    for a in range(1, A + 1):
        for d in range(1, D + 1):
            qa, qd = mercy_granted(ask_a[a], ask_d[d], grant, defender_first)
            qfight[a, d] = 1.0 - qa - qd
    enter = np.zeros((A + 1, D + 1))
    fight = np.zeros((A + 1, D + 1))
    for a in range(A + 1):
        for d in range(D + 1):
            enter[a, d] = 1.0 if (a == 0 or d == 0) else 1.0 - qfight[a, d]
    for c in range(cell_a.shape[0]):
        out[c, 0] = enter[cell_a[c], cell_d[c]] if before_first else 0.0
    for r in range(1, R):
        for a in range(1, A + 1):
            for d in range(1, D + 1):
                acc = 0.0
                for x in range(nx):
                    px = pa[a, x]
                    if px == 0.0:
                        continue
                    d2 = d - x if x < d else 0
                    for y in range(ny):
                        p = px * pd[d, y]
                        if p == 0.0:
                            continue
                        a2 = a - y if y < a else 0
                        acc += p * enter[a2, d2]
                fight[a, d] = acc
        for a in range(A + 1):
            for d in range(D + 1):
                enter[a, d] = 0.0 if (a == 0 or d == 0) else qfight[a, d] * fight[a, d]
        for c in range(cell_a.shape[0]):
            out[c, r] = enter[cell_a[c], cell_d[c]] if before_first else fight[cell_a[c], cell_d[c]]


def _rounds_pair(rules, a0, d0, la, ld, terrain, darc, mercy, cell_a, cell_d, tail):
    pa, _, ask_a = side_arrays(rules, a0, la, terrain, darc == DARC_ATTACKER, mercy[0])
    pd, _, ask_d = side_arrays(rules, d0, ld, OPEN, darc == DARC_DEFENDER, mercy[1])
    grant = rules.param(P_GRANT_THRESHOLD) / GRANT_ONE
    before = bool(rules.param(P_MERCY_BEFORE_FIRST))
    per_round = (a0 + 1) * (d0 + 1) * pa.shape[1] * pd.shape[1]
    R = 64
    while True:
        out = np.zeros((len(cell_a), R))
        rounds_layers(pa, pd, ask_a, ask_d, grant, bool(rules.param(P_MERCY_DEFENDER_FIRST)),
                      before, np.asarray(cell_a, np.int64), np.asarray(cell_d, np.int64), out)
        left = 1.0 - out.sum(axis=1)
        if left.max() <= tail:
            out[:, -1] += np.maximum(left, 0.0)     # (at most ``tail``: keeps each a distribution)
            return out, per_round * R
        R *= 2
        if per_round * R > MAX_ROUNDS_WORK:
            return None, per_round * R


def rounds_pmf_grid(rules: FiefRules, attackers, defenders, terrain: int, darc: int,
                    lords_attacker: int, lords_defender: int, mercy: tuple[int, int],
                    tail: float = ROUNDS_TAIL) -> np.ndarray | None:
    """The exact distribution of a combat's rounds, ``pmf[i, j, r]`` = P(attackers[i] against
    defenders[j] lasts r rounds), as :func:`exact_grid` sets the cells up (FF-1 … FF-4, mercy).

    Rounds are unbounded (a round where nobody loses repeats), so the distributions are cut at the
    first length R (a power of two, at least 64) where less than ``tail`` of every cell's
    probability lies beyond, and that remainder is put on the last length kept. None when that
    would cost more than MAX_ROUNDS_WORK (a grid of hundreds of points a side)."""
    attackers = [int(a) for a in attackers]
    defenders = [int(d) for d in defenders]
    shared = not rules.param(P_LORDS_FIRST) and not rules.param(P_DARC_FIRST)
    if shared:
        ca = [a for a in attackers for _ in defenders]
        cd = [d for _ in attackers for d in defenders]
        out, _ = _rounds_pair(rules, max(attackers), max(defenders), lords_attacker,
                              lords_defender, terrain, darc, mercy, ca, cd, tail)
        return None if out is None else out.reshape(len(attackers), len(defenders), -1)
    cells, work = [], 0
    for a in attackers:
        for d in defenders:
            out, w = _rounds_pair(rules, a, d, min(lords_attacker, a), min(lords_defender, d),
                                  terrain, darc, mercy, [a], [d], tail)
            work += w
            if out is None or work > MAX_ROUNDS_WORK:
                return None
            cells.append(out[0])
    R = max(len(c) for c in cells)
    pmf = np.zeros((len(cells), R))
    for k, c in enumerate(cells):
        pmf[k, :len(c)] = c
    return pmf.reshape(len(attackers), len(defenders), R)
