"""Médiévallons playout bot (MV-8): chooses its action by playing the game forward in sampled
worlds. A seat it plays makes :func:`simcore.games.medievallons.kernel.play_turns` stop at the
start of its turn; the game loop (:func:`simcore.games.medievallons.driver.play_one`) then calls
:func:`playout_choice`, which deals the cards its player cannot see anew (determinization), plays
each of its best few heuristic actions forward with the rules of play on a scratch workspace and
returns the best; its other decisions are the heuristic ones of
:mod:`simcore.games.medievallons.bots`. Placement: the rules of play call the decisions of
``bots.py`` while this bot calls the rules of play, so in ``bots.py`` it would make a Python
import cycle (bots -> kernel -> bots); here it imports both and neither imports it, giving the
one-way order layout <- bots <- kernel <- playout <- driver. May import numba,
:mod:`simcore.rng`, the layout, the constants of the rules module, bots and kernel -- never the
driver.
"""

from __future__ import annotations

from numba import njit
from numpy import uint64 as U

from simcore.games.medievallons.bots import (
    option_score, prepare_values, public_score, seat_after, strat_row,
)
from simcore.games.medievallons.kernel import compare_keys, list_actions, play_turns
from simcore.games.medievallons.layout import (
    D_ACTION, E_NO_OPTION, F_MEAN, F_SCORE, F_SETV, F_STRAT, G_CUR, G_ERROR, G_FORCED, G_KIND,
    G_LIMIT, G_NOPT, G_OVER, G_PILE_N, G_SELF_ROW, G_STOP, G_TRACE_N, G_TURNS, G_WINNER, MAXP,
    MAX_TRACE, N_STRAT_COLS, PLS, R_PARAMS, S_CANDIDATES, S_HORIZON, S_PLAYOUTS, S_PRIOR,
    THIRD_GUILD, TS, W_BEST, W_HAND, W_KNOWN, W_OPTS, W_PILE, W_PL, W_RULES, W_TRACE, X_HANDN,
)
from simcore.games.medievallons.rules import BOUFFON, N_TYPES, P_MIN_GUILD
from simcore.rng import next_u64, shuffle_range, stream_state


@njit(cache=True, _nrt=False)
def determinize(st2, sc, P, p):
    """Deal the cards p cannot see (opponents' hands + draw pile) anew: cards p has seen in a hand
    stay there; the rest are shuffled and dealt to fill every hand, the remainder is the pile."""
    pool = W_OPTS        # scratch: counts per type, then the card list (W_OPTS and W_BEST)
    for t in range(TS):
        sc[U(pool + t)] = 0
    for i in range(sc[G_PILE_N]):
        sc[U(pool + sc[U(W_PILE + i)])] += 1
    for i in range(1, P):
        q = seat_after(p, i, P)
        for t in range(N_TYPES):
            sc[U(pool + t)] += sc[U(W_HAND + q * TS + t)]
            sc[U(W_HAND + q * TS + t)] = 0
    free = W_BEST
    for i in range(1, P):          # seen cards first, as far as the pool still has them
        q = seat_after(p, i, P)
        room = sc[U(W_PL + q * PLS + X_HANDN)]
        for t in range(N_TYPES):
            k = sc[U(W_KNOWN + (p * MAXP + q) * TS + t)]
            if k > sc[U(pool + t)]:
                k = sc[U(pool + t)]
            if k > room:
                k = room
            sc[U(W_HAND + q * TS + t)] = k
            sc[U(pool + t)] -= k
            room -= k
        sc[U(free + TS + q)] = room
    n = 0
    for t in range(N_TYPES):
        for _ in range(sc[U(pool + t)]):
            sc[U(W_PILE + n)] = t
            n += 1
    shuffle_range(st2, sc, W_PILE, n)
    for i in range(1, P):
        q = seat_after(p, i, P)
        for _ in range(sc[U(free + TS + q)]):
            n -= 1
            sc[U(W_HAND + q * TS + sc[U(W_PILE + n)])] += 1
    sc[G_PILE_N] = n


@njit(cache=True, _nrt=False)
def position_value(ws, fs, P, p):
    """Playout result for p: +-10 if the game ended (shared wins: 10 / k), else p's standing
    minus the best opponent's -- guilds, guild cards, hand size, and the sets in hand (the worth a
    collector sees in cards about to be founded), scaled to stay below a win."""
    if ws[G_OVER] != 0:
        reason = ws[G_OVER] - 1
        if reason == THIRD_GUILD:
            return 10.0 if ws[G_WINNER] == p else -10.0
        ranks_better = 0
        ties = 1
        for q in range(P):
            if q != p:
                c = compare_keys(ws, q, p)
                if c > 0:
                    ranks_better += 1
                elif c == 0:
                    ties += 1
        return 10.0 / ties if ranks_better == 0 else -10.0
    mine = standing(ws, fs, p)
    best = -1e9
    for q in range(P):
        if q != p:
            best = max(best, standing(ws, fs, q))
    return mine - best


@njit(cache=True, inline="always", _nrt=False)
def standing(ws, fs, q):
    h = W_HAND + q * TS
    sets = 0.8 * ws[U(h + BOUFFON)]
    for t in range(N_TYPES):
        sets += fs[U(F_SETV + min(ws[U(h + t)], 62))] * (t != BOUFFON)
    return public_score(ws, q) + 0.5 * sets


# Inlined (Numba IR) into its one caller: compiled apart, each jitted function that reaches the
# rules of play links, optimises and emits machine code for all of them again (Numba links a
# callee's whole module into its caller's): ~4-5 s CPU per cold compile each (docs/testing.md).
@njit(cache=True, inline="always", _nrt=False)
def playout_choice(st, ws, sc, fs, st2, P, debug):
    """The playout bot's action: the best few actions by its heuristic, each tried in the same
    determinized worlds (common random numbers): the hidden cards dealt anew, the action played,
    then every seat playing the bot's own heuristic for ``horizon`` turns (0 = to the end); the
    best mean position value wins, ties to the earliest option.

    One draw of the game's stream seeds everything (exactly one draw per decision, as for every
    strategy); world r uses ``stream_state(that draw, r)``.
    """
    p = ws[G_CUR]
    row = strat_row(ws, p, P)
    sb = F_STRAT + row * N_STRAT_COLS
    n = ws[G_NOPT]
    base_seed = next_u64(st)
    if n == 1:
        return 0
    # the candidates: an immediate win, else the best `candidates` options by the heuristic
    prepare_values(ws, fs, sb, p, P, ws[U(W_RULES + R_PARAMS + P_MIN_GUILD)] > 0)
    ws[G_KIND] = D_ACTION
    kind = ws[G_KIND]
    for j in range(n):
        fs[U(F_SCORE + j)] = option_score(ws, fs, sb, kind, p, P, ws[U(W_OPTS + j)])
        if fs[U(F_SCORE + j)] >= 1e6:
            return j
    k = int(fs[U(sb + S_CANDIDATES)])
    if k < 1:
        k = 1
    if k > n:
        k = n
    for c in range(k):              # selection of the top k, ties to the earliest
        best = -1
        for j in range(n):
            taken = False
            for c2 in range(c):
                if ws[U(W_BEST + c2)] == j:
                    taken = True
            if not taken and (best < 0 or fs[U(F_SCORE + j)] > fs[U(F_SCORE + best)] + 1e-9):
                best = j
        ws[U(W_BEST + c)] = best
    for c in range(k):
        fs[U(F_MEAN + c)] = 0.0
    reps = int(fs[U(sb + S_PLAYOUTS)])
    if reps < 1:
        reps = 1
    horizon = int(fs[U(sb + S_HORIZON)])
    limit = ws[G_TURNS] + horizon if horizon > 0 else 1 << 40
    for r in range(reps):
        for c in range(k):
            for i in range(W_TRACE):
                sc[U(i)] = ws[U(i)]
            sc[G_TRACE_N] = MAX_TRACE       # playouts record nothing
            sc[G_SELF_ROW] = row
            st2[0] = stream_state(base_seed, r)
            determinize(st2, sc, P, p)
            n2 = list_actions(sc, p)    # the same list: p's hand and guilds are unchanged
            if n2 != n:
                ws[G_ERROR] = E_NO_OPTION
            sc[G_STOP] = 0
            sc[G_FORCED] = ws[U(W_BEST + c)]
            sc[G_LIMIT] = limit
            play_turns(st2, sc, fs, P, debug)
            fs[U(F_MEAN + c)] += position_value(sc, fs, P, p)
            if sc[G_ERROR] != 0:
                ws[G_ERROR] = sc[G_ERROR]
    # W_BEST (the candidates) is only written by decisions on ws, and playouts run on sc.
    # The heuristic's own score is a prior: a candidate must beat the heuristic's favourite by
    # more than prior x (score gap), which tempers the winner's curse of picking a lucky mean.
    prior = fs[U(sb + S_PRIOR)]
    top = fs[U(F_SCORE + ws[W_BEST])]
    for c in range(k):
        fs[U(F_MEAN + c)] = fs[U(F_MEAN + c)] / reps + prior * (fs[U(F_SCORE + ws[U(W_BEST + c)])] - top)
    best_c = 0
    for c in range(1, k):
        d = fs[U(F_MEAN + c)] - fs[U(F_MEAN + best_c)]
        if d > 1e-9 or (abs(d) <= 1e-9 and ws[U(W_BEST + c)] < ws[U(W_BEST + best_c)]):
            best_c = c
    return ws[U(W_BEST + best_c)]
