"""Middle-Ages rules of play, jit-compiled: set-up, turns, tile Effects, Events, scoring, invariants.

Implements MA-1 … MA-10 of ``shared/rules/middle_ages.md`` for 2-5 players on the workspace laid
out in :mod:`.layout`, following the draw and option order of ``docs/middle_ages_engine.md`` so that
the pure-Python reference engine (:mod:`simcore.games.middle_ages.reference`) replays any game
exactly: :func:`setup_game` (MA-3), :func:`advance` (the MA-4 turns to the MA-9 penalty), the
Effects (:func:`apply_effect`, MA-5) and Income (MA-6), drawing tiles (MA-7), Events
(:func:`resolve_event`, MA-8), coins (MA-10), the ranking (:func:`beats`, MA-9) and the debug
invariants (:func:`check_invariants`). Wherever the rules ask a player to choose, they call
:func:`.bots.decide`, inlined. May import numpy, numba, :mod:`simcore.rng`, the constants of the
rules module, :mod:`.layout` and :mod:`.bots`; never :mod:`.driver`, which imports this module to
play whole games (and holds the ``rollout`` bot, which plays games forward with :func:`advance`).

Speed notes. Everything here is jit-compiled by Numba with ``cache=True``. Helpers that never
allocate are compiled with ``_nrt=False`` (no reference counting at all; measured 14 → 9 µs per
game). Every index into ``ws`` and ``rk`` is cast with ``U(...)`` (uint64): Numba wraps negative
signed indices around (a compare and a select on every access) but not unsigned ones, and no index
here is ever negative (the kernel runs clean under ``NUMBA_BOUNDSCHECK=1``); measured 15-20% per
game. Loops whose tests depend on the deal (legal moves, discards, turn order, Income counts, tied
options) are written without branches (``n += condition``): a mispredicted branch costs ~15
cycles, more than the arithmetic; measured 4% per game for each loop rewritten. The Income-count
loop of :func:`count_change` runs to ``rk[R_NTYPES]`` rather than to the constant 8 so that LLVM
vectorizes it (measured 3% per random game; see :func:`.bots.heuristic_choice`). Each change was
kept only if the decisions stayed identical (decision traces compared) and
``benchmarks/bench_kernel_ab.py`` showed a gain.
"""

from __future__ import annotations

import numpy as np
from numpy import uint64 as U
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from simcore.games.middle_ages.bots import decide, record_decision, strat_row, views
from simcore.games.middle_ages.layout import (
    COLS, D_EXTRA, D_MOVE, D_PLACE, D_PLOT, D_RESTORE, D_SCOUT, E_INCOME_CACHE, E_LEDGER,
    E_NO_LEGAL_MOVE, E_SCOUT_LEFT_ON_ROW, E_TAKEN_NOT_16, E_TILES_NOT_CONSERVED, E_TILES_RAN_OUT,
    G_DISCARD_LEN, G_ERROR, G_EXTRA_SUPPLY, G_INDEX, G_LEDGER, G_NOPT, G_NORDER, G_ORANGE_LEFT,
    G_PHASE, G_PILE_LEN, G_PILE_POS, G_RESHUFFLES, G_TURN, MAXP, N_STRAT_COLS, PLS, R_COUNTED,
    R_ELOSE, R_ELOSES, R_EPC, R_EPD, R_EPG, R_EPP, R_EPT, R_EREST, R_FEED0, R_IBASE, R_ICOUNT,
    R_BLUE, R_NBLUE, R_NEVENTS, R_NORANGE, R_NTILES, R_NTYPES, R_ORANGE, R_PARAMS, R_PLOTDOMS, R_PLOTSUP,
    R_TCHEST, R_TIE, R_TNUM, R_TPEAS, ROW_CELLS,
    R_TSTACK, R_TTYPE, S_KIND, SIG_ADVANCE, STACK, STRAT_ROLLOUT, W_BOARD, W_CB, W_CNT, W_COUNT,
    W_CT, W_DEAL, W_DISCARD, W_EG, W_EVORD, W_EXTRA, W_FEED, W_FIEF, W_FN, W_GRAVE, W_INIT, W_LORD,
    W_OPTS, W_ORANGE, W_ORDER, W_PER, W_PILE, W_PL, W_PLOT, W_PLOTSUP, W_RESET_END, W_SCOUT, W_SELF,
    X_CHESTS, X_COINS, X_EMPTY, X_GRAVE_N, X_LORD_COL, X_LORD_ROW, X_NPLOT, X_PEAS, X_PENALTY,
    X_SCOUT_COL, X_SCOUT_ROW, X_TAKEN,
)
from simcore.games.middle_ages.rules import (
    BLUE, CASERNE, CHAMPS, EGLISE, MARCHE, MOULIN, N_EVENTS, N_ROWS, N_TURNS, N_TYPES, ORANGE,
    PALAIS, P_ALLOW_NEGATIVE, P_CASERNE_PAYMENT, P_CHAMPS_PER_PEASANT, P_EMPTY_PENALTY,
    P_EXTRA_BONUS, P_EXTRA_TOKENS, P_MARCHE_PER_CHEST, P_MOULIN_PAYMENT, P_START_COINS, REMPART,
    VILLAGE,
)
from simcore.numba_cache import njit_on_demand
from simcore.rng import shuffle_range


# ---------------------------------------------------------------------------------------------
# Coins (MA-10)
# ---------------------------------------------------------------------------------------------
@njit(cache=True, inline="always", _nrt=False)
def change_coins(ws, rk, p, amount):
    """Add ``amount`` to p's coins; a loss takes at most what p has unless negatives are allowed
    (MA-10). Returns the change actually made."""
    i = W_PL + p * PLS + X_COINS
    if amount >= 0 or rk[U(R_PARAMS + P_ALLOW_NEGATIVE)] != 0:
        ws[U(i)] += amount
        return amount
    loss = -amount
    have = ws[U(i)] if ws[U(i)] > 0 else 0
    if loss > have:
        loss = have
    ws[U(i)] -= loss
    return -loss


@njit(cache=True, inline="always", _nrt=False)
def pay(ws, rk, payer, payee, amount):
    """MA-10: the payee receives what the payer actually paid."""
    paid = -change_coins(ws, rk, payer, -amount)
    ws[U(W_PL + payee * PLS + X_COINS)] += paid


@njit(cache=True, inline="always", _nrt=False)
def mint(ws, rk, p, amount):
    """Coins from or to the bank (Effects, Income, Events, penalty), kept in the debug ledger."""
    got = change_coins(ws, rk, p, amount)
    ws[U(G_LEDGER)] += got
    return got


@njit(cache=True, _nrt=False)
def coins_of(ws, p):
    return ws[U(W_PL + p * PLS + X_COINS)]


# ---------------------------------------------------------------------------------------------
# Fief and Graveyard
# ---------------------------------------------------------------------------------------------
@njit(cache=True, inline="always", _nrt=False)
def count_change(ws, rk, p, t, delta):
    """Keep W_CNT current: every Domain whose Income counts type t (or whose Plot token is t);
    and the number of empty Domains (MA-9) in X_EMPTY."""
    n = ws[U(W_FN + p * 8 + t)]          # already updated by the caller
    # (without a branch: whether the Domain was empty is a coin toss to the branch predictor)
    ws[U(W_PL + p * PLS + X_EMPTY)] += ((delta < 0) & (n == 0)) - ((delta > 0) & (n == 1))
    # the Domains whose Income counts t by the table or by a Plot token of type t (never both);
    # all eight without a branch, in a loop LLVM vectorizes (its length is read at run time)
    for d in range(rk[U(R_NTYPES)]):
        ws[U(W_CNT + p * 8 + d)] += delta * (
            (rk[U(R_COUNTED + t * 8 + d)] != 0) | (ws[U(W_PLOT + p * 8 + d)] == t))


@njit(cache=True, inline="always", _nrt=False)
def add_to_fief(ws, rk, p, tile):
    """Put ``tile`` on top of its Domain stack in p's Fief."""
    t = rk[U(R_TTYPE + tile)]
    n = ws[U(W_FN + p * 8 + t)]
    ws[U(W_FIEF + (p * 8 + t) * STACK + n)] = tile
    ws[U(W_FN + p * 8 + t)] = n + 1
    ws[U(W_PL + p * PLS + X_PEAS)] += rk[U(R_TPEAS + tile)]
    ws[U(W_PL + p * PLS + X_CHESTS)] += rk[U(R_TCHEST + tile)]
    count_change(ws, rk, p, t, 1)


@njit(cache=True, inline="always", _nrt=False)
def bury_top(ws, rk, p, t):
    """Move the most recently added tile of p's Domain t to the end of p's Graveyard."""
    n = ws[U(W_FN + p * 8 + t)] - 1
    ws[U(W_FN + p * 8 + t)] = n
    tile = ws[U(W_FIEF + (p * 8 + t) * STACK + n)]
    g = ws[U(W_PL + p * PLS + X_GRAVE_N)]
    ws[U(W_GRAVE + p * STACK + g)] = tile
    ws[U(W_PL + p * PLS + X_GRAVE_N)] = g + 1
    ws[U(W_PL + p * PLS + X_PEAS)] -= rk[U(R_TPEAS + tile)]
    ws[U(W_PL + p * PLS + X_CHESTS)] -= rk[U(R_TCHEST + tile)]
    count_change(ws, rk, p, t, -1)


@njit(cache=True, inline="always", _nrt=False)
def unbury(ws, rk, p, idx):
    """MA-5 Village / MA-8 Restauration: Graveyard tile idx back to its Domain (order kept)."""
    base = W_GRAVE + p * STACK
    tile = ws[U(base + idx)]
    n = ws[U(W_PL + p * PLS + X_GRAVE_N)]
    for i in range(idx, n - 1):
        ws[U(base + i)] = ws[U(base + i + 1)]
    ws[U(W_PL + p * PLS + X_GRAVE_N)] = n - 1
    add_to_fief(ws, rk, p, tile)


# ---------------------------------------------------------------------------------------------
# The `combo` cache the decisions read (W_FEED, MA-11)
# ---------------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def feed_value(ws, rk, p, x):
    """MA-11 feature `combo` of tile type x for p: the Income per tile of every other Domain that
    counts x (by the income table or its Plot token), plus the Extra-coin bonus on x's own Domain.
    The kernel keeps it in W_FEED, updated when a token is placed (:func:`feed_extra`, the Palais
    branch of :func:`apply_effect`); this full sum is the debug check of that cache."""
    bonus = rk[U(R_PARAMS + P_EXTRA_BONUS)]
    c = 0
    for d in range(N_TYPES):
        if d != x and (rk[U(R_ICOUNT + d * 8 + x)] != 0 or ws[U(W_PLOT + p * 8 + d)] == x):
            c += rk[U(R_IBASE + d)] + (bonus if ws[U(W_EXTRA + p * 8 + d)] != 0 else 0)
    if ws[U(W_EXTRA + p * 8 + x)] != 0:
        c += bonus
    return c


@njit(cache=True, inline="always", _nrt=False)
def feed_extra(ws, rk, p, d):
    """W_FEED after an Extra-coin token lands on p's Domain d: d itself and every other type
    that d's Income counts (by the table or its Plot token) gain the bonus."""
    bonus = rk[U(R_PARAMS + P_EXTRA_BONUS)]
    plot = ws[U(W_PLOT + p * 8 + d)]
    for x in range(N_TYPES):
        if x == d or rk[U(R_ICOUNT + d * 8 + x)] != 0 or plot == x:
            ws.view(np.float64)[U(W_FEED + p * 8 + x)] += bonus
    ws[U(W_PER + p * 8 + d)] += bonus


# ---------------------------------------------------------------------------------------------
# Tiles: drawing (MA-7) and dealing rows (MA-3)
# ---------------------------------------------------------------------------------------------
@njit(cache=True, inline="always", _nrt=False)
def draw_tile(st, ws, P):
    """Next tile of the draw pile, switching source when it runs out (MA-7); -1 if none left."""
    while ws[U(G_PILE_POS)] == ws[U(G_PILE_LEN)]:
        if P >= 4 and ws[U(G_ORANGE_LEFT)] >= 0:
            n = ws[U(G_ORANGE_LEFT)]
            for i in range(n):
                ws[U(W_PILE + i)] = ws[U(W_ORANGE + i)]
            ws[U(G_PILE_LEN)] = n
            ws[U(G_PILE_POS)] = 0
            ws[U(G_ORANGE_LEFT)] = -1   # the orange stack is in the pile now
        elif P != 4 and ws[U(G_DISCARD_LEN)] > 0:
            n = ws[U(G_DISCARD_LEN)]
            shuffle_range(st, ws, W_DISCARD, n)
            for i in range(n):
                ws[U(W_PILE + i)] = ws[U(W_DISCARD + i)]
            ws[U(G_PILE_LEN)] = n
            ws[U(G_PILE_POS)] = 0
            ws[U(G_DISCARD_LEN)] = 0
            ws[U(G_RESHUFFLES)] += 1
        else:
            return -1
    tile = ws[U(W_PILE + ws[U(G_PILE_POS)])]
    ws[U(G_PILE_POS)] += 1
    return tile


# a sort key above every tile's (back number <= 99, times COLS, plus the draw index): place_row
SLOT_PAST = 1 << 20


@njit(cache=True, _nrt=False)
def deal_row(ws, P, r):
    """Draw players + 1 tiles into row r, stable-sorted by back number (MA-3).

    Each tile goes straight to its place: the tiles with a smaller number, and those drawn earlier
    with the same number, go left of it (the stable order an insertion sort gives), i.e. those
    with a smaller key ``number * COLS + draw index`` (one comparison per pair; the draw index is
    below COLS). Counted without a branch: an insertion sort's comparisons depend on the deal and
    were mispredicted (measured: the sort was ~9% of a random game's samples under perf). When
    the pile holds the whole row (every deal but the one that empties it) the tiles are read
    straight from it; otherwise one by one (:func:`draw_tile`, MA-7). If the tiles run out, the
    tiles drawn so far are placed the same way."""
    st, rk, _ = views(ws)
    row = W_BOARD + r * COLS
    width = P + 1
    pos = ws[U(G_PILE_POS)]
    n = 0
    if pos + width <= ws[U(G_PILE_LEN)]:
        for c in range(width):
            tile = ws[U(W_PILE + pos + c)]
            ws[U(W_DEAL + c)] = tile
            ws[U(W_DEAL + COLS + c)] = rk[U(R_TNUM + tile)] * COLS + c
        ws[U(G_PILE_POS)] = pos + width
        n = width
    else:
        for c in range(width):
            tile = draw_tile(st, ws, P)
            if tile < 0:
                ws[U(G_ERROR)] = E_TILES_RAN_OUT
                break
            ws[U(W_DEAL + n)] = tile
            ws[U(W_DEAL + COLS + n)] = rk[U(R_TNUM + tile)] * COLS + n
            n += 1
    place_row(ws, row, n)


@njit(cache=True, inline="always", _nrt=False)
def place_row(ws, row, n):
    """MA-3: put the ``n`` (<= 6) tiles drawn for a row (W_DEAL, their keys after them) at their places:
    each at the number of keys smaller than its own. Written out for six slots, the slots past
    ``n`` holding a key above every tile's (``SLOT_PAST + slot``) and the tile -1, so that they
    land, as -1, on the cells past the tiles (empty: a row is dealt only once cleared, and the
    cells past the row's width are never used): 30 independent compares without a branch or a
    loop (LLVM vectorized the loop over n keys into a 4-wide step, a remainder and a horizontal
    sum per tile: the sort was half of ``deal_row``'s samples, ``deal_row`` 10% of a random game's).
    Measured (``bench_kernel_ab.py --check-traces``, 30 pairs of 3,000 games, decisions identical):
    0.934 of the time per random game (fastest runs 0.910), 0.984 per balanced game (0.948)."""
    kd = W_DEAL + COLS
    k0 = ws[U(kd)] if 0 < n else SLOT_PAST
    k1 = ws[U(kd + 1)] if 1 < n else SLOT_PAST + 1
    k2 = ws[U(kd + 2)] if 2 < n else SLOT_PAST + 2
    k3 = ws[U(kd + 3)] if 3 < n else SLOT_PAST + 3
    k4 = ws[U(kd + 4)] if 4 < n else SLOT_PAST + 4
    k5 = ws[U(kd + 5)] if 5 < n else SLOT_PAST + 5
    t0 = ws[U(W_DEAL)] if 0 < n else -1
    t1 = ws[U(W_DEAL + 1)] if 1 < n else -1
    t2 = ws[U(W_DEAL + 2)] if 2 < n else -1
    t3 = ws[U(W_DEAL + 3)] if 3 < n else -1
    t4 = ws[U(W_DEAL + 4)] if 4 < n else -1
    t5 = ws[U(W_DEAL + 5)] if 5 < n else -1
    ws[U(row + (k1 < k0) + (k2 < k0) + (k3 < k0) + (k4 < k0) + (k5 < k0))] = t0
    ws[U(row + (k0 < k1) + (k2 < k1) + (k3 < k1) + (k4 < k1) + (k5 < k1))] = t1
    ws[U(row + (k0 < k2) + (k1 < k2) + (k3 < k2) + (k4 < k2) + (k5 < k2))] = t2
    ws[U(row + (k0 < k3) + (k1 < k3) + (k2 < k3) + (k4 < k3) + (k5 < k3))] = t3
    ws[U(row + (k0 < k4) + (k1 < k4) + (k2 < k4) + (k3 < k4) + (k5 < k4))] = t4
    ws[U(row + (k0 < k5) + (k1 < k5) + (k2 < k5) + (k3 < k5) + (k4 < k5))] = t5


# ---------------------------------------------------------------------------------------------
# Effects (MA-5) and Income (MA-6)
# ---------------------------------------------------------------------------------------------
@njit(cache=True, inline="always", _nrt=False)
def apply_effect(st, ws, rk, strat, P, p, t, r, d, full=True):
    """MA-5: the Effect of Domain t for player p, who just placed a tile there."""
    if t == CHAMPS:
        mint(ws, rk, p, rk[U(R_PARAMS + P_CHAMPS_PER_PEASANT)] * ws[U(W_PL + p * PLS + X_PEAS)])
    elif t == MOULIN:
        mine = ws[U(W_FN + p * 8 + MOULIN)]
        negative_ok = rk[U(R_PARAMS + P_ALLOW_NEGATIVE)] != 0
        payment = rk[U(R_PARAMS + P_MOULIN_PAYMENT)]
        # (pay written out without a branch, MA-10 floor included: which opponents owe is a coin
        # toss to the branch predictor; bench_kernel_ab, 40 pairs: 0.976 of a random game)
        for q in range(P):
            owes = (q != p) & (ws[U(W_FN + q * 8 + MOULIN)] < mine)
            have = max(ws[U(W_PL + q * PLS + X_COINS)], 0)
            paid = (payment if negative_ok else min(payment, have)) * owes
            ws[U(W_PL + q * PLS + X_COINS)] -= paid
            ws[U(W_PL + p * PLS + X_COINS)] += paid
    elif t == VILLAGE:
        n = ws[U(W_PL + p * PLS + X_GRAVE_N)]
        if n > 0:
            unbury(ws, rk, p, decide(st, ws, rk, strat, D_RESTORE, p, n, P, full))
    elif t == REMPART:
        n = 0
        for row in range(N_ROWS):
            if row == r or row == d:
                continue
            for c in range(ROW_CELLS):      # (without a branch, as the Lord moves)
                cell = row * COLS + c
                ws[U(W_OPTS + n)] = cell
                n += (ws[U(W_BOARD + cell)] >= 0) & (ws[U(W_LORD + cell)] < 0) & \
                    (ws[U(W_SCOUT + cell)] < 0)
        if n > 0:
            cell = ws[U(W_OPTS + decide(st, ws, rk, strat, D_SCOUT, p, n, P, full))]
            me = W_PL + p * PLS
            if ws[U(me + X_SCOUT_ROW)] >= 0:
                ws[U(W_SCOUT + ws[U(me + X_SCOUT_ROW)] * COLS + ws[U(me + X_SCOUT_COL)])] = -1
            ws[U(W_SCOUT + cell)] = p
            ws[U(me + X_SCOUT_ROW)] = cell // COLS
            ws[U(me + X_SCOUT_COL)] = cell % COLS
    elif t == MARCHE:
        mint(ws, rk, p, rk[U(R_PARAMS + P_MARCHE_PER_CHEST)] * ws[U(W_PL + p * PLS + X_CHESTS)])
    elif t == CASERNE:
        mine = ws[U(W_FN + p * 8 + CASERNE)]
        for q in range(P):
            if q != p and ws[U(W_FN + q * 8 + REMPART)] < mine:
                for dom in range(N_TYPES):      # leftmost non-empty Domain
                    if ws[U(W_FN + q * 8 + dom)] > 0:
                        bury_top(ws, rk, q, dom)
                        break
                pay(ws, rk, q, p, rk[U(R_PARAMS + P_CASERNE_PAYMENT)])
    elif t == EGLISE:
        if ws[U(G_EXTRA_SUPPLY)] > 0:
            n = 0
            for dom in range(N_TYPES):
                ws[U(W_OPTS + n)] = dom
                n += ws[U(W_EXTRA + p * 8 + dom)] == 0
            if n > 0:
                dom = ws[U(W_OPTS + decide(st, ws, rk, strat, D_EXTRA, p, n, P, full))]
                ws[U(W_EXTRA + p * 8 + dom)] = 1
                ws[U(G_EXTRA_SUPPLY)] -= 1
                feed_extra(ws, rk, p, dom)
    elif t == PALAIS:
        # the legal pairs as the bits tok * 8 + dom of one word: for each token type still in
        # the supply, p's Domains with no Plot token whose Income table does not count it
        # (R_PLOTDOMS); then listed in increasing bit order, i.e. T outer, D inner (at most 64
        # options: W_OPTS holds MAX_OPTIONS). (Before: a branch-free loop over the 64 pairs,
        # ~10 instructions each, on every Palais placed.)
        free = 0
        for dom in range(N_TYPES):
            free |= (1 if ws[U(W_PLOT + p * 8 + dom)] < 0 else 0) << dom
        legal = 0
        for tok in range(N_TYPES):
            left = ws[U(W_PLOTSUP + tok)] > 0
            legal |= ((free & rk[U(R_PLOTDOMS + tok)]) if left else 0) << (tok * 8)
        n = 0
        while legal != 0:
            ws[U(W_OPTS + n)] = trailing_zeros(legal)
            n += 1
            legal &= legal - 1
        if n > 0:
            pair = ws[U(W_OPTS + decide(st, ws, rk, strat, D_PLOT, p, n, P, full))]
            tok = pair >> 3
            dom = pair & 7
            ws[U(W_PLOT + p * 8 + dom)] = tok
            ws[U(W_PLOTSUP + tok)] -= 1
            ws[U(W_CNT + p * 8 + dom)] += ws[U(W_FN + p * 8 + tok)]
            ws[U(W_PL + p * PLS + X_NPLOT)] += 1
            if tok != dom:      # W_FEED: Domain dom's Income now counts tok as well
                ws.view(np.float64)[U(W_FEED + p * 8 + tok)] += ws[U(W_PER + p * 8 + dom)]
            else:
                ws[U(W_SELF + p * 8 + dom)] = 1


# ---------------------------------------------------------------------------------------------
# Events (MA-8)
# ---------------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def resolve_event(ws, P, e, k, full=True):
    """MA-8: card e of the rules' deck fires as the k-th event; players in seat order."""
    st, rk, strat = views(ws)
    for p in range(P):
        me = W_PL + p * PLS
        before = ws[U(me + X_COINS)]
        ws[U(W_CB + p * N_EVENTS + k)] = before
        gain = rk[U(R_EPP + e)] * ws[U(me + X_PEAS)] + rk[U(R_EPC + e)] * ws[U(me + X_CHESTS)] \
            + rk[U(R_EPG + e)] * ws[U(me + X_GRAVE_N)]
        for t in range(N_TYPES):
            n_t = ws[U(W_FN + p * 8 + t)]
            gain += rk[U(R_EPT + e * 8 + t)] * n_t + rk[U(R_EPD + e)] * (n_t > 0)
        mint(ws, rk, p, gain)
        if rk[U(R_ELOSES + e)] != 0:
            for t in range(N_TYPES):
                for _ in range(rk[U(R_ELOSE + e * 8 + t)]):
                    if ws[U(W_FN + p * 8 + t)] > 0:
                        bury_top(ws, rk, p, t)
        for _ in range(rk[U(R_EREST + e)]):
            n = ws[U(me + X_GRAVE_N)]
            if n > 0:
                unbury(ws, rk, p, decide(st, ws, rk, strat, D_RESTORE, p, n, P, full))
        ws[U(W_EG + p * N_EVENTS + k)] = ws[U(me + X_COINS)] - before


# ---------------------------------------------------------------------------------------------
# One game: set-up (MA-3) and turns (MA-4)
# ---------------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def reset(ws):
    """Start a game: the per-game part of the workspace from the copy :func:`prepare_reset` keeps
    (one block copy)."""
    for i in range(W_RESET_END):
        ws[U(i)] = ws[U(W_INIT + i)]


@njit(cache=True, _nrt=False)
def prepare_reset(ws):
    """Write the state every game starts from (before MA-3's set-up), and keep a copy of it at
    W_INIT for :func:`reset`."""
    _, rk, _ = views(ws)
    for i in range(W_RESET_END):
        ws[U(i)] = 0
    # MA-3: each stack's ids in increasing order (R_BLUE, R_ORANGE: every game's shuffle starts
    # from them), listed once per block from the tile table in the workspace's copy of the rules
    nb = 0
    no = 0
    for i in range(rk[U(R_NTILES)]):
        if rk[U(R_TSTACK + i)] == BLUE:
            rk[U(R_BLUE + nb)] = i
            nb += 1
        elif rk[U(R_TSTACK + i)] == ORANGE:
            rk[U(R_ORANGE + no)] = i
            no += 1
    rk[U(R_NBLUE)] = nb
    rk[U(R_NORANGE)] = no
    # MA-5 Palais: for each Plot token type, the Domains whose Income table does not count it
    # (bit d), so that a Palais lists its legal pairs from bit masks (apply_effect)
    for tok in range(N_TYPES):
        doms = 0
        for dom in range(N_TYPES):
            if rk[U(R_ICOUNT + dom * 8 + tok)] == 0:
                doms |= 1 << dom
        rk[U(R_PLOTDOMS + tok)] = doms
    ws[U(G_EXTRA_SUPPLY)] = rk[U(R_PARAMS + P_EXTRA_TOKENS)]
    for p in range(MAXP):
        me = W_PL + p * PLS
        ws[U(me + X_COINS)] = rk[U(R_PARAMS + P_START_COINS + p)]   # MA-1: per seat
        ws[U(me + X_LORD_ROW)] = -1
        ws[U(me + X_LORD_COL)] = -1
        ws[U(me + X_SCOUT_ROW)] = -1
        ws[U(me + X_SCOUT_COL)] = -1
    for i in range(MAXP * 8):
        ws[U(W_PLOT + i)] = -1
    for p in range(MAXP):
        ws[U(W_PL + p * PLS + X_EMPTY)] = N_TYPES
        for x in range(N_TYPES):
            ws.view(np.float64)[U(W_FEED + p * 8 + x)] = rk[U(R_FEED0 + x)]
            ws[U(W_PER + p * 8 + x)] = rk[U(R_IBASE + x)]
            ws[U(W_SELF + p * 8 + x)] = rk[U(R_ICOUNT + x * 8 + x)] != 0
    for t in range(8):
        ws[U(W_PLOTSUP + t)] = rk[U(R_PLOTSUP + t)]
    for i in range(N_ROWS * COLS):
        ws[U(W_BOARD + i)] = -1
        ws[U(W_LORD + i)] = -1
        ws[U(W_SCOUT + i)] = -1
    for i in range(W_RESET_END):
        ws[U(W_INIT + i)] = ws[U(i)]


@njit(cache=True, _nrt=False)
def setup_game(ws, P, full=True):
    """MA-3 on a reset workspace: shuffle the stacks and the event deck, deal 4 rows, place Lords."""
    st, rk, strat = views(ws)
    width = P + 1
    # protocol steps 1-3: the stacks and the event deck, shuffled.
    # (each stack's ids in increasing order are listed in the rules copy, R_BLUE and R_ORANGE, by
    # prepare_reset once per block: a copy, not a scan of the tile table with a branch per tile)
    nb = rk[U(R_NBLUE)]
    for i in range(nb):
        ws[U(W_PILE + i)] = rk[U(R_BLUE + i)]
    shuffle_range(st, ws, W_PILE, nb)
    ws[U(G_PILE_LEN)] = nb
    ws[U(G_ORANGE_LEFT)] = -1
    if P >= 4:
        no = rk[U(R_NORANGE)]
        for i in range(no):
            ws[U(W_ORANGE + i)] = rk[U(R_ORANGE + i)]
        shuffle_range(st, ws, W_ORANGE, no)
        ws[U(G_ORANGE_LEFT)] = no
    n_deck = rk[U(R_NEVENTS)]
    for i in range(n_deck):
        ws[U(W_EVORD + i)] = i
    shuffle_range(st, ws, W_EVORD, n_deck)
    # MA-3.2: four rows.
    for r in range(N_ROWS):
        deal_row(ws, P, r)
    if ws[U(G_ERROR)] != 0:
        return
    # MA-3.4: Lords on row 0, in seat order.
    ws[U(G_TURN)] = 0
    for p in range(P):
        n = 0
        for c in range(width):
            if ws[U(W_BOARD + c)] >= 0 and ws[U(W_LORD + c)] < 0:
                ws[U(W_OPTS + n)] = c
                n += 1
        c = ws[U(W_OPTS + decide(st, ws, rk, strat, D_PLACE, p, n, P, full))]
        ws[U(W_LORD + c)] = p
        ws[U(W_PL + p * PLS + X_LORD_ROW)] = 0
        ws[U(W_PL + p * PLS + X_LORD_COL)] = c
    ws[U(G_TURN)] = 1
    ws[U(G_PHASE)] = 0


@njit_on_demand(SIG_ADVANCE, literal=("P",), cache=True, _nrt=False)
def advance(ws, P, stop_for_rollout, forced, full=True):
    """Play MA-4 turns from the position saved in ``ws`` to the end of the game (MA-9 penalty).

    Returns 0 when the game is over. With ``stop_for_rollout``, returns 1 instead when a seat
    played by the ``rollout`` or the ``search`` strategy (kinds >= STRAT_ROLLOUT) must choose a Lord move: the position is saved and the
    legal moves are listed in W_OPTS (count in G_NOPT). Calling again with ``forced = j`` plays
    option j for that move and goes on. Playouts call it with ``stop_for_rollout = False``.
    """
    st, rk, strat = views(ws)
    width = P + 1
    t = ws[U(G_TURN)]
    while t <= N_TURNS:
        r = (t - 1) % N_ROWS
        d = t % N_ROWS
        rrow = r * COLS
        drow = d * COLS
        if ws[U(G_PHASE)] == 0:
            # MA-4.1: discard the tile of row r that holds no Lord.
            # (These two loops run without branches: which cells hold what is unpredictable.)
            n_discard = ws[U(G_DISCARD_LEN)]
            for c in range(ROW_CELLS):
                tile = ws[U(W_BOARD + rrow + c)]
                free = (tile >= 0) & (ws[U(W_LORD + rrow + c)] < 0)
                ws[U(W_DISCARD + n_discard)] = tile
                n_discard += free
                ws[U(W_BOARD + rrow + c)] = tile - free * (tile + 1)    # -1 if discarded
            ws[U(G_DISCARD_LEN)] = n_discard
            # MA-4.2: players act in the left-to-right order of their Lords on row r.
            n_order = 0
            for c in range(ROW_CELLS):
                lord = ws[U(W_LORD + rrow + c)]
                ws[U(W_ORDER + n_order)] = lord
                n_order += lord >= 0
            ws[U(G_NORDER)] = n_order
            ws[U(G_INDEX)] = 0
            ws[U(G_PHASE)] = 1
        while ws[U(G_INDEX)] < ws[U(G_NORDER)]:
            p = ws[U(W_ORDER + ws[U(G_INDEX)])]
            me = W_PL + p * PLS
            c_from = ws[U(me + X_LORD_COL)]
            if t < N_TURNS:
                # MA-4.3a: a free tile of row d that no other player's Scout reserves.
                n = 0       # MA-4.3a legal moves (written out: a jitted call per action costs ~15 ns)
                for c in range(ROW_CELLS):
                    # without a branch (which tiles are free is a coin toss to the CPU's predictor)
                    cell = drow + c
                    scout = ws[U(W_SCOUT + cell)]
                    ws[U(W_OPTS + n)] = c
                    n += (ws[U(W_BOARD + cell)] >= 0) & (ws[U(W_LORD + cell)] < 0) & \
                        ((scout < 0) | (scout == p))
                if n == 0:
                    ws[U(G_ERROR)] = E_NO_LEGAL_MOVE
                    return 0
                if forced >= 0:
                    j = forced
                    forced = -1
                    record_decision(ws, n, j)
                elif stop_for_rollout and strat[U(strat_row(ws, p, P) * N_STRAT_COLS + S_KIND)] >= STRAT_ROLLOUT:
                    ws[U(G_NOPT)] = n
                    return 1
                else:
                    j = decide(st, ws, rk, strat, D_MOVE, p, n, P, full)
                c_to = ws[U(W_OPTS + j)]
                ws[U(W_LORD + rrow + c_from)] = -1
                ws[U(W_LORD + drow + c_to)] = p
                ws[U(me + X_LORD_ROW)] = d
                ws[U(me + X_LORD_COL)] = c_to
                if ws[U(me + X_SCOUT_ROW)] == d:   # the Scout comes home
                    ws[U(W_SCOUT + drow + ws[U(me + X_SCOUT_COL)])] = -1
                    ws[U(me + X_SCOUT_ROW)] = -1
                    ws[U(me + X_SCOUT_COL)] = -1
            # MA-4.3b: take the tile the Lord left (turn 16: the one it stands on).
            tile = ws[U(W_BOARD + rrow + c_from)]
            ws[U(W_BOARD + rrow + c_from)] = -1
            add_to_fief(ws, rk, p, tile)
            ws[U(me + X_TAKEN)] += 1
            ttype = rk[U(R_TTYPE + tile)]
            # MA-4.3c-d: the Effect in full, then the Income.
            apply_effect(st, ws, rk, strat, P, p, ttype, r, d, full)
            # MA-6: (base + Extra-coin bonus, W_PER) x tiles counted by the Domain (W_CNT)
            mint(ws, rk, p, ws[U(W_PER + p * 8 + ttype)] * ws[U(W_CNT + p * 8 + ttype)])
            ws[U(G_INDEX)] += 1
        if t == N_TURNS:
            for c in range(width):          # the Lords leave the board
                ws[U(W_LORD + rrow + c)] = -1
        # MA-4.4: refill row r up to turn 12.
        if t <= 12:
            for c in range(width):
                if ws[U(W_SCOUT + rrow + c)] >= 0:
                    ws[U(G_ERROR)] = E_SCOUT_LEFT_ON_ROW
            deal_row(ws, P, r)
            if ws[U(G_ERROR)] != 0:
                return 0
        # MA-4.5: an Event at the end of turns 4, 8, 12 and 16.
        if t % 4 == 0:
            k = t // 4 - 1
            resolve_event(ws, P, ws[U(W_EVORD + k)], k, full)
        # MA-12: every player's coins at the end of turn t (its Event included), turn-major
        for p in range(P):
            ws[U(W_CT + (t - 1) * MAXP + p)] = ws[U(W_PL + p * PLS + X_COINS)]
        t += 1
        ws[U(G_TURN)] = t
        ws[U(G_PHASE)] = 0

    # MA-9: the empty-Domain penalty.
    for p in range(P):
        empty = 0
        for tt in range(N_TYPES):
            if ws[U(W_FN + p * 8 + tt)] == 0:
                empty += 1
        ws[U(W_PL + p * PLS + X_PENALTY)] = -mint(ws, rk, p, -rk[U(R_PARAMS + P_EMPTY_PENALTY)] * empty)
    return 0


# ---------------------------------------------------------------------------------------------
# The end: invariants (debug) and ranking (MA-9)
# ---------------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def check_invariants(ws, P):
    """Debug mode: every tile in exactly one place, 16 tiles taken each, coins = start + minted."""
    _, rk, _ = views(ws)
    n_tiles = rk[U(R_NTILES)]
    for i in range(n_tiles):
        ws[U(W_COUNT + i)] = 0
    for i in range(N_ROWS * COLS):
        if ws[U(W_BOARD + i)] >= 0:
            ws[U(W_COUNT + ws[U(W_BOARD + i)])] += 1
    for i in range(ws[U(G_PILE_POS)], ws[U(G_PILE_LEN)]):
        ws[U(W_COUNT + ws[U(W_PILE + i)])] += 1
    for i in range(max(ws[U(G_ORANGE_LEFT)], 0)):
        ws[U(W_COUNT + ws[U(W_ORANGE + i)])] += 1
    for i in range(ws[U(G_DISCARD_LEN)]):
        ws[U(W_COUNT + ws[U(W_DISCARD + i)])] += 1
    total = 0
    for p in range(P):
        for t in range(N_TYPES):
            for i in range(ws[U(W_FN + p * 8 + t)]):
                ws[U(W_COUNT + ws[U(W_FIEF + (p * 8 + t) * STACK + i)])] += 1
        for i in range(ws[U(W_PL + p * PLS + X_GRAVE_N)]):
            ws[U(W_COUNT + ws[U(W_GRAVE + p * STACK + i)])] += 1
        if ws[U(W_PL + p * PLS + X_TAKEN)] != N_TURNS:
            ws[U(G_ERROR)] = E_TAKEN_NOT_16
        for d in range(N_TYPES):
            c = 0
            for t in range(N_TYPES):
                if rk[U(R_ICOUNT + d * 8 + t)] != 0 or ws[U(W_PLOT + p * 8 + d)] == t:
                    c += ws[U(W_FN + p * 8 + t)]
            if c != ws[U(W_CNT + p * 8 + d)]:
                ws[U(G_ERROR)] = E_INCOME_CACHE
        empty = 0
        for t in range(N_TYPES):
            if ws[U(W_FN + p * 8 + t)] == 0:
                empty += 1
        if empty != ws[U(W_PL + p * PLS + X_EMPTY)]:
            ws[U(G_ERROR)] = E_INCOME_CACHE
        for x in range(N_TYPES):
            if feed_value(ws, rk, p, x) != ws.view(np.float64)[U(W_FEED + p * 8 + x)]:
                ws[U(G_ERROR)] = E_INCOME_CACHE
            per = rk[U(R_IBASE + x)] + (rk[U(R_PARAMS + P_EXTRA_BONUS)] if ws[U(W_EXTRA + p * 8 + x)] else 0)
            counts_self = rk[U(R_ICOUNT + x * 8 + x)] != 0 or ws[U(W_PLOT + p * 8 + x)] == x
            if per != ws[U(W_PER + p * 8 + x)] or counts_self != (ws[U(W_SELF + p * 8 + x)] != 0):
                ws[U(G_ERROR)] = E_INCOME_CACHE
        total += ws[U(W_PL + p * PLS + X_COINS)]
    start = 0
    for p in range(P):
        start += rk[U(R_PARAMS + P_START_COINS + p)]
    if total != start + ws[U(G_LEDGER)]:
        ws[U(G_ERROR)] = E_LEDGER
    for i in range(n_tiles):
        # with 2-3 players the orange stack stays in the box (MA-3.1)
        expected = 1 if (P >= 4 or rk[U(R_TSTACK + i)] == BLUE) else 0
        if ws[U(W_COUNT + i)] != expected:
            ws[U(G_ERROR)] = E_TILES_NOT_CONSERVED


@njit(cache=True, _nrt=False)
def beats(ws, rk, p, q):
    """1 if p ranks above q, -1 if below, 0 if fully tied (MA-9: coins, then tie-break types)."""
    cp = ws[U(W_PL + p * PLS + X_COINS)]
    cq = ws[U(W_PL + q * PLS + X_COINS)]
    if cp != cq:
        return 1 if cp > cq else -1
    for i in range(N_TYPES):
        t = rk[U(R_TIE + i)]
        a = ws[U(W_FN + p * 8 + t)]
        b = ws[U(W_FN + q * 8 + t)]
        if a != b:
            return 1 if a > b else -1
    return 0
