"""Middle-Ages bots, jit-compiled: every decision a seat makes (MA-11) and how the workspace is read.

The rules of play (:mod:`.kernel`) call :func:`decide` (inlined) wherever the rules ask a player to
choose; it dispatches on the seat's strategy row: ``random`` draws an option, a heuristic scores
every option on the MA-11 features (:func:`heuristic_choice`, compiled twice: without and with the
events and denial features). The decisions read the game state and write their scratch only at
the offsets of :mod:`.layout`, and never change the game. This is the lowest jitted module, so it
also holds what every jitted module needs to read the workspace (:func:`views`,
:func:`strat_row`, :func:`record_decision`). (One Numba cache stamp covers this whole folder,
set by the registry: :mod:`simcore.cache_folders`.) May import numpy, numba,
:mod:`simcore.rng`, the constants of the rules module and
:mod:`.layout`, nothing else of this game: the kernel imports this module. (Hence the
``rollout`` bot's Lord move, which plays games forward with :func:`.kernel.advance`, lives in
:mod:`.driver`: here it would make an import cycle.)

Speed notes. The hot loops over the eight tile types run to ``rk[R_NTYPES]`` rather than to the
constant 8, so that LLVM vectorizes them (see :func:`heuristic_choice`; measured: 18% per balanced
game for the three such loops). Every decision is inlined where the rules call it, so a random
decision costs no call; the heuristic's body is compiled once per feature set with an explicit
signature (:data:`.layout.SIG_HEURISTIC`), on demand (:func:`simcore.numba_cache.njit_on_demand`:
not at import). Each change was kept only if the decisions stayed
identical (decision traces compared) and ``benchmarks/bench_kernel_ab.py`` showed a gain.
"""

from __future__ import annotations

import numpy as np
from numpy import uint64 as U
from numba import njit

from simcore.games.middle_ages.layout import (
    COLS, D_EXTRA, D_MOVE, D_PLACE, D_PLOT, D_SCOUT, G_EXTRA_SUPPLY, G_ROT, G_RNG, G_TRACE_N,
    G_TURN, MAX_TRACE, MAXP, N_STRAT_COLS, PLS, R_EPC, R_EPD, R_EPP, R_EPT, R_ELOSE, R_IBASE,
    R_NTYPES, R_PARAMS, R_SIZE, R_TCHEST, R_TOWN, R_TPEAS, R_TTYPE, S_BIAS, S_COMBO, S_DEFENSE,
    S_DENIAL, S_EVENTS, S_FILL, S_KIND, S_ORDER_STEP, S_VALUE, SIG_HEURISTIC, STACK,
    STRAT_RANDOM, W_BEST, W_BOARD, W_CNT, W_EVORD, W_EXTRA, W_FEED, W_FN, W_GRAVE, W_OPTS, W_PER,
    W_PL, W_PLOT, W_PLOTSUP, W_RK, W_SC, W_SELF, W_STRAT, W_TOPP, W_TRACE, W_TSCORE, W_TVAL,
    X_CHESTS, X_COINS, X_EMPTY, X_GRAVE_N, X_PEAS,
)
from simcore.games.middle_ages.rules import (
    CASERNE, CHAMPS, EGLISE, MARCHE, MOULIN, N_EVENTS, N_ROWS, N_TURNS, N_TYPES, PALAIS,
    P_ALLOW_NEGATIVE, P_CASERNE_PAYMENT, P_CHAMPS_PER_PEASANT, P_EMPTY_PENALTY, P_EXTRA_BONUS,
    P_MARCHE_PER_CHEST, P_MOULIN_PAYMENT, REMPART, VILLAGE,
)
from simcore.numba_cache import njit_on_demand, njit_unliteral
from simcore.rng import below

# The Numba cache stamp covers this whole folder (set by the registry, simcore.games).

# MA-11 `fill`: min(1, empty Domains / picks left) for 0-8 empty Domains and 1-31 picks left, at
# [empty * 32 + left] (a table, not a division per decision: measured 1.7% of a balanced game)
FILL_SHARE = np.array([min(1.0, e / max(left, 1)) for e in range(N_TYPES + 1) for left in range(32)])


# ---------------------------------------------------------------------------------------------
# Reading the workspace
# ---------------------------------------------------------------------------------------------
@njit(cache=True, inline="always", _nrt=False)
def views(ws):
    """The game's RNG state (``st``, uint64[1]), the rules vector (``rk``) and the strategy rows
    (``strat``, float64, row r at ``r * N_STRAT_COLS``): views into the workspace, so that jitted
    calls pass one array (Numba passes every array as 7-9 machine words)."""
    st = ws.view(np.uint64)[G_RNG:G_RNG + 1]
    rk = ws[W_RK:W_RK + R_SIZE]
    strat = ws.view(np.float64)[W_STRAT:W_STRAT + MAXP * N_STRAT_COLS]
    return st, rk, strat


@njit(cache=True, _nrt=False)
def strat_row(ws, p, P):
    """Row of the strategy table that plays seat p in this game (seat rotation shifts it)."""
    row = p + ws[U(G_ROT)]
    return row - P if row >= P else row


@njit_unliteral(cache=True, _nrt=False)
def record_decision(ws, n_options, choice):
    k = ws[U(G_TRACE_N)]
    if k < MAX_TRACE:
        ws[U(W_TRACE + 2 * k)] = n_options
        ws[U(W_TRACE + 2 * k + 1)] = choice
        ws[U(G_TRACE_N)] = k + 1


# ---------------------------------------------------------------------------------------------
# The heuristic (MA-11)
# ---------------------------------------------------------------------------------------------
@njit(cache=True, inline="always", _nrt=False)
def type_values(ws, rk, q, P, out):
    """MA-11 `value` of one more tile of each type for q, without the tile's own peasants and
    chests (added per option): the Income of its Domain with it (MA-6) plus its Effect (MA-5).
    Written to ``ws[U(out + x)]`` for all eight types at once, each type's formula written out (no
    branch on the type: options come in any order, and a mispredicted branch costs more than
    the arithmetic)."""
    bonus = rk[U(R_PARAMS + P_EXTRA_BONUS)]
    qb = q * 8
    for x in range(rk[U(R_NTYPES)]):     # (loops over types run to R_NTYPES: see heuristic_choice)
        ws[U(out + x)] = ws[U(W_PER + qb + x)] * (ws[U(W_CNT + qb + x)] + ws[U(W_SELF + qb + x)])
    mq = W_PL + q * PLS
    ws[U(out + CHAMPS)] += rk[U(R_PARAMS + P_CHAMPS_PER_PEASANT)] * ws[U(mq + X_PEAS)]
    ws[U(out + MARCHE)] += rk[U(R_PARAMS + P_MARCHE_PER_CHEST)] * ws[U(mq + X_CHESTS)]
    # Moulin / Caserne: opponents with fewer Moulins pay; opponents with fewer Remparts than our
    # Casernes pay (what they can, MA-10)
    negative_ok = rk[U(R_PARAMS + P_ALLOW_NEGATIVE)] != 0
    pay_m = rk[U(R_PARAMS + P_MOULIN_PAYMENT)]
    pay_c = rk[U(R_PARAMS + P_CASERNE_PAYMENT)]
    mills = ws[U(W_FN + qb + MOULIN)] + 1
    barracks = ws[U(W_FN + qb + CASERNE)] + 1
    vm = 0
    vc = 0
    for o in range(P):
        have = max(ws[U(W_PL + o * PLS + X_COINS)], 0)
        paid_m = pay_m if negative_ok else min(pay_m, have)
        paid_c = pay_c if negative_ok else min(pay_c, have)
        other = o != q
        vm += paid_m * (other & (ws[U(W_FN + o * 8 + MOULIN)] < mills))
        vc += paid_c * (other & (ws[U(W_FN + o * 8 + REMPART)] < barracks))
    ws[U(out + MOULIN)] += vm
    ws[U(out + CASERNE)] += vc
    # Village: a tile back is about one Income's worth
    ws[U(out + VILLAGE)] += 2 * rk[U(R_IBASE + VILLAGE)] * (ws[U(mq + X_GRAVE_N)] > 0)
    # Église: the Extra-coin token on the free Domain whose Income counts the most tiles.
    # Palais: best Plot token: most tiles of an available type, under the richest free Domain
    # (ignoring which Domains already count it: a cheap upper estimate)
    top = 0
    most = 0
    richest = 0
    for d in range(rk[U(R_NTYPES)]):
        free = ws[U(W_EXTRA + qb + d)] == 0
        top = max(top, ws[U(W_CNT + qb + d)] * free)
        most = max(most, ws[U(W_FN + qb + d)] * (ws[U(W_PLOTSUP + d)] > 0))
        richest = max(richest, ws[U(W_PER + qb + d)] * (ws[U(W_PLOT + qb + d)] < 0))
    ws[U(out + EGLISE)] += top * bonus * (ws[U(G_EXTRA_SUPPLY)] > 0)
    ws[U(out + PALAIS)] += most * richest


@njit(cache=True, inline="always", _nrt=False)
def track_best(j, sc, best, second, argj):
    """After option j scored ``sc``: the best score so far, the best of the other options, and
    the first option that scored the best (no branch)."""
    second = max(second, min(best, sc))
    argj = j if sc > best else argj
    return max(best, sc), second, argj


@njit(cache=True, inline="always", _nrt=False)
def pick_best(st, ws, wf, n_options, best, second, argj):
    """One option among those scored within 1e-9 of ``best`` (scores in ``wf[U(W_SC:)]``), by one
    draw of the game's stream. ``second`` is the highest score of the options other than
    ``argj``, the first that scored ``best`` (:func:`track_best`): when it is more than 1e-9 below,
    ``argj`` is the only one, and the list of tied options is not built (the draw is still taken)."""
    if second < best - 1e-9:
        below(st, 1)
        return argj
    n_best = 0
    for j in range(n_options):      # (without a branch: which options tie is unpredictable)
        ws[U(W_BEST + n_best)] = j
        n_best += wf[U(W_SC + j)] >= best - 1e-9
    return ws[U(W_BEST + below(st, n_best))]


@njit(cache=True, inline="always", _nrt=False)
def tile_option(ws, rk, wf, tile, add, w_value, w_denial, w_events, first_event, pb):
    """Score of an option bringing ``tile`` (MA-11): its type's score (W_TSCORE) + ``add`` (the
    order term of a Lord move, else 0.0) + value x its own Effect coins (R_TOWN), then denial and
    events for the bots that weigh them. (Added in this order, as the decision traces expect.)"""
    x = rk[U(R_TTYPE + tile)]
    tt = rk[U(R_TOWN + tile)]
    sc = wf[U(W_TSCORE + x)] + add + w_value * tt
    if w_denial != 0.0:
        sc += w_denial * max(ws[U(W_TOPP + x)] + tt, 0)
    if w_events != 0.0:
        # MA-3: the four cards are public; those firing after the tile arrives still matter
        ev = 0
        for kk in range(first_event, N_EVENTS):
            e = ws[U(W_EVORD + kk)]
            ev += rk[U(R_EPT + e * 8 + x)] + rk[U(R_EPP + e)] * rk[U(R_TPEAS + tile)] \
                + rk[U(R_EPC + e)] * rk[U(R_TCHEST + tile)] - 3 * rk[U(R_ELOSE + e * 8 + x)]
            if ws[U(W_FN + pb + x)] == 0:
                ev += rk[U(R_EPD + e)]
        sc += w_events * ev
    return sc


@njit(cache=True, inline="always", _nrt=False)
def heuristic_choice(ws, row, kind, p, n_options, P, full):
    """Option chosen by the heuristic strategy of row ``row`` (MA-11), ties broken by one draw.

    Tokens (MA-11.4-5, Église Domain and Palais token/Domain): value x the Income the token adds
    per future Income of its Domain, plus bias. Decisions that bring a tile (MA-11.1-3: Lord
    placement and moves, the Rempart Scout, Village/Restauration) are all scored in one flat loop:

    Score of an option = bias[type] + order x (leftmost = 1) + value x (Effect + Income now, MA-5,
    MA-6) + fill x (MA-9 penalty saved, scaled by picks left) + combo x (other Incomes fed) +
    events x (coins from the public cards still to fire) + defense x (Caserne attacks a Rempart
    stops) + denial x (the tile's value to the opponent who values it most). A Scout option in the
    row the Lord cannot reach next turn counts half. Ties are broken by one draw of the stream.

    Speed: this is most of a heuristic bot's time. Everything that depends only on the tile type
    (value without the tile's own peasants/chests, fill, combo, defense, bias) is computed for all
    eight types once per decision (:func:`type_values`, no branch on the type) into the scratch row
    W_TSCORE; each option then adds its order, its peasant/chest term and events.

    The loops over the eight types run to ``rk[R_NTYPES]`` (= N_TYPES), not to the constant: LLVM
    unrolls a loop of constant length 8 into scalar code (Numba leaves the SLP vectorizer off),
    whereas a loop of unknown length goes through the loop vectorizer, four types per AVX2
    instruction. For the three loops over types in this function and :func:`type_values` that
    made a balanced game 18% faster (the same kernel with ``range(N_TYPES)`` instead, 30 shuffled
    runs, one process). W_FEED is float64 for the same reason: AVX2 has no int64 → float64
    conversion. The best option and the runner-up are tracked while scoring
    (:func:`track_best`), so the list of tied options is built only when there is a tie.

    ``full`` is a compile-time constant (this function is inlined into :func:`decide_heuristic`,
    where it is False and the events and denial code is compiled out, and into
    :func:`decide_heuristic_full`).
    """
    if p < 0 or row < 0 or P < 2 or n_options < 1 or kind < 0:
        return 0     # (never: tells LLVM every index below is non-negative, dropping wraparound)
    st, rk, strat = views(ws)
    if n_options == 1:
        return below(st, 1)     # nothing to score (the decision still takes its one draw)
    wf = ws.view(np.float64)        # (the same memory: W_TSCORE and W_SC hold floats)
    sr = row * N_STRAT_COLS
    w_value = strat[U(sr + S_VALUE)]
    if kind == D_EXTRA or kind == D_PLOT:
        bonus = rk[U(R_PARAMS + P_EXTRA_BONUS)]
        best = -1e300
        second = -1e300
        argj = 0
        if kind == D_EXTRA:     # (one loop per kind: no test of the kind per option)
            for j in range(n_options):
                o = ws[U(W_OPTS + j)]
                sc = w_value * ws[U(W_CNT + p * 8 + o)] * bonus + strat[U(sr + S_BIAS + o)]
                wf[U(W_SC + j)] = sc
                best, second, argj = track_best(j, sc, best, second, argj)
        else:
            for j in range(n_options):
                o = ws[U(W_OPTS + j)]
                tok = o >> 3
                dom = o & 7
                per = ws[U(W_PER + p * 8 + dom)]
                sc = w_value * ws[U(W_FN + p * 8 + tok)] * per \
                    + 0.5 * (strat[U(sr + S_BIAS + tok)] + strat[U(sr + S_BIAS + dom)])
                wf[U(W_SC + j)] = sc
                best, second, argj = track_best(j, sc, best, second, argj)
        return pick_best(st, ws, wf, n_options, best, second, argj)
    t = ws[U(G_TURN)]
    width = P + 1
    if kind == D_PLACE:
        tiles_row = 0
        taken = 1
    elif kind == D_MOVE:
        tiles_row = t % N_ROWS
        taken = t + 1
    elif kind == D_SCOUT:
        tiles_row = (t + 1) % N_ROWS    # the row the next Lord move reaches
        taken = t + 2
    else:
        tiles_row = -1
        taken = t
    w_fill = strat[U(sr + S_FILL)]
    w_combo = strat[U(sr + S_COMBO)]
    w_events = strat[U(sr + S_EVENTS)] if full else 0.0
    w_defense = strat[U(sr + S_DEFENSE)]
    w_denial = strat[U(sr + S_DENIAL)] if full else 0.0
    left = N_TURNS - taken + 1
    fill_coins = rk[U(R_PARAMS + P_EMPTY_PENALTY)] * FILL_SHARE[
        U(ws[U(W_PL + p * PLS + X_EMPTY)] * 32 + (left if left > 1 else 1))]
    first_event = (taken + 3) // 4 - 1
    if first_event < 0:
        first_event = 0
    # Once per decision, every term that depends only on the tile type.
    type_values(ws, rk, p, P, W_TVAL)
    pb = p * 8
    fill_add = w_fill * fill_coins
    for x in range(N_TYPES):
        sx = strat[U(sr + S_BIAS + x)] + w_value * ws[U(W_TVAL + x)] + w_combo * wf[U(W_FEED + pb + x)]
        wf[U(W_TSCORE + x)] = sx + (fill_add if ws[U(W_FN + pb + x)] == 0 else 0.0)
    if w_defense != 0.0:
        # Rempart: opponents whose Casernes would attack us now and no longer after one more
        mine = ws[U(W_FN + pb + REMPART)]
        n_stop = 0
        for o in range(P):      # (without a branch)
            n_stop += (o != p) & (ws[U(W_FN + o * 8 + CASERNE)] == mine + 1)
        wf[U(W_TSCORE + REMPART)] += w_defense * n_stop * (rk[U(R_PARAMS + P_CASERNE_PAYMENT)] + 2)
    if w_denial != 0.0:
        # the opponent who values each type most (their own peasants/chests included)
        for x in range(N_TYPES):
            ws[U(W_TOPP + x)] = -(1 << 40)
        for k in range(1, P):
            q = p + k
            if q >= P:
                q -= P
            type_values(ws, rk, q, P, W_TVAL)
            for x in range(N_TYPES):
                ws[U(W_TOPP + x)] = max(ws[U(W_TOPP + x)], ws[U(W_TVAL + x)])
    # Per option: its order, the tile's own peasants or chests (R_TOWN), denial, events; one loop
    # per kind of option list (no branch on the kind inside).
    best = -1e300
    second = -1e300
    argj = 0
    if kind == D_PLACE or kind == D_MOVE:
        order_step = strat[U(sr + S_ORDER_STEP)]     # w_order / P, written once per block
        base = W_BOARD + tiles_row * COLS
        for j in range(n_options):
            c = ws[U(W_OPTS + j)]
            sc = tile_option(ws, rk, wf, ws[U(base + c)], order_step * (width - 1 - c), w_value,
                             w_denial, w_events, first_event, pb)
            wf[U(W_SC + j)] = sc
            best, second, argj = track_best(j, sc, best, second, argj)
    elif kind == D_SCOUT:
        for j in range(n_options):
            cell = ws[U(W_OPTS + j)]
            sc = tile_option(ws, rk, wf, ws[U(W_BOARD + cell)], 0.0, w_value,
                             w_denial, w_events, first_event, pb)
            if cell // COLS != tiles_row:
                sc *= 0.5       # a Scout out of the next move's reach counts half
            wf[U(W_SC + j)] = sc
            best, second, argj = track_best(j, sc, best, second, argj)
    else:
        base = W_GRAVE + p * STACK       # restore: options are Graveyard indices
        for j in range(n_options):
            sc = tile_option(ws, rk, wf, ws[U(base + j)], 0.0, w_value,
                             w_denial, w_events, first_event, pb)
            wf[U(W_SC + j)] = sc
            best, second, argj = track_best(j, sc, best, second, argj)
    return pick_best(st, ws, wf, n_options, best, second, argj)


@njit_on_demand(SIG_HEURISTIC, literal=("P",), cache=True, _nrt=False, error_model="numpy")
def decide_heuristic(ws, row, kind, p, n_options, P):
    """:func:`heuristic_choice` for a strategy that weighs neither events nor denial (such as
    ``balanced``): compiled without those two features' code, which is most of the function's
    size. The decisions are the same. Measured: 0.5-2% per balanced game (removing that code
    outright gained 2%; with the branch-free defence loop, 3.5% in all)."""
    return heuristic_choice(ws, row, kind, p, n_options, P, False)


@njit_on_demand(SIG_HEURISTIC, literal=("P",), cache=True, _nrt=False, error_model="numpy")
def decide_heuristic_full(ws, row, kind, p, n_options, P):
    """:func:`heuristic_choice` with every feature, for strategies that weigh events or denial."""
    return heuristic_choice(ws, row, kind, p, n_options, P, True)


@njit_on_demand(SIG_HEURISTIC, literal=("P",), cache=True, _nrt=False)
def heuristic_for(ws, row, kind, p, n_options, P, full):
    """:func:`decide_heuristic_full`, or :func:`decide_heuristic` when ``full`` is ``None``.

    ``full`` is a compile-time switch: ``None`` for code compiled for a line-up in which no seat
    weighs events or denial, else ``True``. Numba prunes ``is None`` tests on an argument's type
    before typing the function (a test of a literal ``False`` it would not prune), so the ``None``
    specialisation never references, and never compiles, :func:`decide_heuristic_full`. It is only
    reached for a seat that weighs events or denial, so that specialisation never runs."""
    if full is None:
        return decide_heuristic(ws, row, kind, p, n_options, P)
    return decide_heuristic_full(ws, row, kind, p, n_options, P)


# ---------------------------------------------------------------------------------------------
# Every decision (MA-11)
# ---------------------------------------------------------------------------------------------
@njit(cache=True, inline="always", _nrt=False)
def decide(st, ws, rk, strat, kind, p, n_options, P, full=True):
    """Index of the chosen option among ``n_options`` (> 0) for seat p (MA-11).

    Options are listed in ``ws[U(W_OPTS:)]`` in the protocol's order (restore: Graveyard indices).
    Every decision consumes exactly one draw of the game's stream, whatever the strategy:
    ``random`` draws below(n) (also when n == 1); a heuristic draws below(number of best-scored
    options) to break ties (:func:`decide_heuristic`). (Rollout seats decide Lord moves in
    :func:`.driver.rollout_choice`; their other decisions are heuristic.) The decision is appended
    to the game's trace so the reference engine can replay the game exactly. Inlined where it is
    called, so a random decision costs no call.

    ``full`` (a compile-time switch, see :func:`heuristic_for`) says whether a seat of the line-up
    may weigh events or denial: with ``None`` the compiled rules of play never reference
    :func:`decide_heuristic_full`, so it is compiled only for line-ups that need it (a fifth of a
    cold compile; :func:`.driver.play_chunk` chooses; callers that do not say get ``True``: every
    decision as before).
    """
    row = p + ws[U(G_ROT)]            # (strat_row, written out)
    if row >= P:
        row -= P
    sr = row * N_STRAT_COLS
    # (a single option is taken here with its one draw, as the heuristic would, without its call:
    # 0.972 of the time per balanced game, 0.980 per random one, bench_kernel_ab, 40 pairs)
    if strat[U(sr + S_KIND)] == STRAT_RANDOM or n_options == 1:
        choice = below(st, n_options)
    elif strat[U(sr + S_EVENTS)] == 0.0 and strat[U(sr + S_DENIAL)] == 0.0:
        choice = decide_heuristic(ws, row, kind, p, n_options, P)
    else:
        choice = heuristic_for(ws, row, kind, p, n_options, P, full)
    k = ws[U(G_TRACE_N)]              # (record_decision, written out)
    if k < MAX_TRACE:
        ws[U(W_TRACE + 2 * k)] = n_options
        ws[U(W_TRACE + 2 * k + 1)] = choice
        ws[U(G_TRACE_N)] = k + 1
    return choice
