"""Middle-Ages Numba kernel: plays many games in parallel, one RNG stream per game.

Implements MA-1 … MA-10 of ``shared/rules/middle_ages.md`` for 2-5 players, following the draw and
option order of ``docs/middle_ages_engine.md`` so that the pure-Python reference engine
(:mod:`simcore.games.middle_ages.reference`) replays any game exactly. Everything here is
jit-compiled by Numba with ``cache=True``.

Why the state is one flat array: Numba increments and decrements (atomically) the reference count of
every array passed to a jitted call, so helpers taking twenty arrays cost more than the game logic
they run (measured: ~120 ns per call). The whole state of a game therefore lives in one int64
workspace ``ws`` laid out at the fixed offsets below (sized for the maxima: 5 players, 128 tiles,
32 event cards). The rules vector ``rk``, the strategy rows and the RNG state are copied into it
too, so a jitted call passes one array; inside, :func:`views` gives them back as ``st, rk, strat``
(measured: 5% per game against passing four arrays).
Helpers that never allocate are compiled with ``_nrt=False`` (no reference counting at all;
measured 14 → 9 µs per game). Every index into ``ws`` and ``rk`` is cast with ``U(...)``
(uint64): Numba wraps negative signed indices around (a compare and a select on every access) but
not unsigned ones, and no index here is ever negative (the kernel runs clean under
``NUMBA_BOUNDSCHECK=1``); measured 15-20% per game. Loops whose tests depend on the deal
(legal moves, discards, turn order, Income counts, tied options) are written without branches
(``n += condition``): a mispredicted branch costs ~15 cycles, more than the arithmetic; measured
4% per game for each loop rewritten. The hot loops over the eight tile types run to ``rk[R_NTYPES]``
rather than to the constant 8: LLVM unrolls a loop of constant length into scalar code (Numba
leaves the SLP vectorizer off) but vectorizes a loop of unknown length, four types per AVX2
instruction (measured: 18% per balanced game for the three such loops of the decisions, 3% per
random game for the Income-count loop of :func:`count_change`; see :func:`heuristic_choice`).
Each change was kept only if the decisions stayed identical (decision traces compared) and
``benchmarks/bench_kernel_ab.py`` showed a gain.

Games are split into blocks over a ``prange``; each block allocates its workspace once. A game's
stream depends only on (seed, game index), so results are identical whatever the thread count or
chunk size.

May import numpy, numba, :mod:`simcore.rng` and the constants of the rules module.
"""

from __future__ import annotations

import numpy as np
from numpy import uint64 as U
from numba import njit, prange

from simcore.games.middle_ages.rules import (
    BLUE, CASERNE, CHAMPS, EGLISE, MARCHE, MOULIN, N_EVENTS, N_PARAMS, N_ROWS, N_TURNS, N_TYPES,
    ORANGE, PALAIS, P_ALLOW_NEGATIVE, P_CASERNE_PAYMENT, P_CHAMPS_PER_PEASANT, P_EMPTY_PENALTY,
    P_EXTRA_BONUS, P_EXTRA_TOKENS, P_MARCHE_PER_CHEST, P_MOULIN_PAYMENT, P_START_COINS, REMPART,
    VILLAGE,
)
from simcore.games.middle_ages.strategy_layout import (  # noqa: F401 (re-exported)
    FEATURES, N_STRAT_COLS, S_BIAS, S_COMBO, S_DEFENSE, S_DENIAL, S_EVENTS, S_FILL, S_KIND,
    S_ORDER, S_ORDER_STEP, S_PLAYOUTS, S_VALUE, STRAT_HEURISTIC, STRAT_RANDOM, STRAT_ROLLOUT,
)
from simcore.rng import below, next_u64, shuffle_range, stream_state

MAXP = 5            # players (MA-1)
MAXT = 128          # tiles in a table (rules.py allows 127)
MAXE = 32           # event cards in a deck
COLS = 8            # row stride on the board (players + 1 <= 6 columns used)
MAX_OPTIONS = 64    # Palais pairs <= 8 x 8; every other decision lists fewer
MAX_TRACE = 512     # decisions recorded per game for replay (a game makes at most ~400)

# ---- rules vector rk -------------------------------------------------------------------------
R_NTILES = 0
R_NEVENTS = 1
R_NTYPES = 2                      # N_TYPES, read at run time (see the decisions' loops over types)
R_PARAMS = 8                      # params[P_*] at R_PARAMS + P_*
R_TTYPE = R_PARAMS + 24
R_TNUM = R_TTYPE + MAXT
R_TSTACK = R_TNUM + MAXT
R_TPEAS = R_TSTACK + MAXT
R_TCHEST = R_TPEAS + MAXT
R_IBASE = R_TCHEST + MAXT         # [8]
R_ICOUNT = R_IBASE + 8            # [8 x 8] Domain d counts type t at d * 8 + t
R_PLOTSUP = R_ICOUNT + 64         # [8]
R_TIE = R_PLOTSUP + 8             # [8]
R_EID = R_TIE + 8                 # [MAXE]
R_EPT = R_EID + MAXE              # [MAXE x 8]
R_EPP = R_EPT + MAXE * 8
R_EPC = R_EPP + MAXE
R_EPG = R_EPC + MAXE
R_EPD = R_EPG + MAXE
R_ELOSE = R_EPD + MAXE            # [MAXE x 8]
R_EREST = R_ELOSE + MAXE * 8
R_FEED0 = R_EREST + MAXE          # `combo` per type before any token is placed [8]
R_TOWN = R_FEED0 + 8             # a tile's own Effect coins: its peasants (Champs) or chests (Marché) [MAXT]
R_COUNTED = R_TOWN + MAXT         # 1 if Domain d's Income counts type t, at t * 8 + d [8 x 8]
R_ELOSES = R_COUNTED + 64         # 1 if event card e makes players lose tiles [MAXE]
R_SIZE = R_ELOSES + MAXE

# ---- workspace ws ------------------------------------------------------------------------------
G_PILE_POS, G_PILE_LEN, G_ORANGE_LEFT, G_DISCARD_LEN, G_RESHUFFLES, G_EXTRA_SUPPLY, G_LEDGER, \
    G_ERROR, G_TRACE_N, G_TURN, G_INDEX, G_PHASE, G_ROT, G_NOPT, G_NORDER, G_RNG = range(16)
PLS = 16                          # player record stride
X_COINS, X_LORD_ROW, X_LORD_COL, X_SCOUT_ROW, X_SCOUT_COL, X_PEAS, X_CHESTS, X_GRAVE_N, \
    X_TAKEN, X_PENALTY, X_EMPTY, X_NPLOT = range(12)
W_PL = 16                         # [MAXP x PLS]
W_FN = W_PL + MAXP * PLS          # fief_n [MAXP x 8]
W_EXTRA = W_FN + MAXP * 8         # Extra-coin token under Domain [MAXP x 8]
W_PLOT = W_EXTRA + MAXP * 8       # Plot token type under Domain, -1 none [MAXP x 8]
W_PLOTSUP = W_PLOT + MAXP * 8     # Plot tokens left in the supply [8]
W_BOARD = W_PLOTSUP + 8           # tile id or -1 [4 x COLS]
W_LORD = W_BOARD + N_ROWS * COLS  # player or -1 [4 x COLS]
W_SCOUT = W_LORD + N_ROWS * COLS  # player or -1 [4 x COLS]
W_CNT = W_SCOUT + N_ROWS * COLS   # tiles counted by each Domain's Income, kept current [MAXP x 8]
W_FEED = W_CNT + MAXP * 8         # `combo` value of one more tile of each type (float64) [MAXP x 8]
W_PER = W_FEED + MAXP * 8         # coins per counted tile of each Domain's Income (base + Extra-coin) [MAXP x 8]
W_SELF = W_PER + MAXP * 8         # 1 if Domain x's Income counts its own tiles (table or Plot token) [MAXP x 8]
W_CB = W_SELF + MAXP * 8          # coins before event k [MAXP x 4]
W_EG = W_CB + MAXP * N_EVENTS     # event gain [MAXP x 4]
W_RESET_END = W_EG + MAXP * N_EVENTS   # everything before here is cleared per game
W_ORDER = W_RESET_END             # [8]
W_OPTS = W_ORDER + 8              # [MAX_OPTIONS]
W_EVORD = W_OPTS + MAX_OPTIONS    # shuffled deck (indices into the rules' deck) [MAXE]
W_PILE = W_EVORD + MAXE           # [MAXT]
W_ORANGE = W_PILE + MAXT          # [MAXT]
W_DISCARD = W_ORANGE + MAXT       # [MAXT]
# A player's tiles only move between their own Fief and Graveyard, and a player takes N_TURNS tiles
# in a game: a Domain stack or a Graveyard never holds more than STACK tiles, whatever the rules.
# (A small stride keeps these arrays in a few kilobytes: strides of 1 KB, as with MAXT, made them
# collide in the same cache sets.)
STACK = N_TURNS
W_GRAVE = W_DISCARD + MAXT        # [MAXP x STACK]
W_FIEF = W_GRAVE + MAXP * STACK   # Domain stacks [MAXP x 8 x STACK]
W_TRACE = W_FIEF + MAXP * 8 * STACK  # (n_options, choice) pairs [2 x MAX_TRACE]
W_COUNT = W_TRACE + 2 * MAX_TRACE    # scratch for the debug invariants [MAXT]
W_RK = W_COUNT + 2 * MAX_OPTIONS + 32      # W_COUNT [MAXT] and the decision scratch after it
W_STRAT = W_RK + R_SIZE           # a copy of the rules vector rk, then of the strategy rows (float64)
W_INIT = W_STRAT + MAXP * N_STRAT_COLS     # the state every game starts from [W_RESET_END]
WS_SIZE = W_INIT + W_RESET_END

# Decision kinds (MA-11); the reference engine names them "place", "move", "scout", "restore",
# "extra", "plot".
D_PLACE, D_MOVE, D_SCOUT, D_RESTORE, D_EXTRA, D_PLOT = range(6)
DECISION_NAMES = ("place", "move", "scout", "restore", "extra", "plot")

# Error codes written to out_error (0 = fine); debug-mode invariants use 10+.
E_TILES_RAN_OUT = 1
E_NO_LEGAL_MOVE = 2
E_COIN_OVERFLOW = 3
E_TILES_NOT_CONSERVED = 10
E_TAKEN_NOT_16 = 11
E_LEDGER = 12
E_SCOUT_LEFT_ON_ROW = 13
E_INCOME_CACHE = 14
ERROR_TEXT = {
    E_TILES_RAN_OUT: "the tiles ran out (MA-7)",
    E_NO_LEGAL_MOVE: "a player had no legal Lord move (MA-4)",
    E_COIN_OVERFLOW: "coins outside the int16 range of the records",
    E_TILES_NOT_CONSERVED: "invariant broken: tiles not conserved",
    E_TAKEN_NOT_16: "invariant broken: a player did not take 16 tiles",
    E_LEDGER: "invariant broken: transfers between players were not zero-sum",
    E_SCOUT_LEFT_ON_ROW: "invariant broken: a Scout stayed on a row being refilled",
    E_INCOME_CACHE: "invariant broken: the Income count cache disagrees with the Fief",
}

# Strategy rows (float64[P, N_STRAT_COLS]), one per seat: layout in strategy_layout.py.

# Explicit signatures for the helpers that call sites reach with constants (a decision kind,
# ``False``, ``-1``): Numba would otherwise compile one specialization per literal value (measured:
# decide x10, choose_tile_option x5, advance x4, more than half of a cold compile).
_WS = "int64[::1]"
SIG_HEURISTIC = f"int64({_WS}, int64, int64, int64, int64, int64)"
SIG_ADVANCE = f"int64({_WS}, int64, boolean, int64)"
# MA-11 `fill`: min(1, empty Domains / picks left) for 0-8 empty Domains and 1-31 picks left, at
# [empty * 32 + left] (a table, not a division per decision: measured 1.7% of a balanced game)
FILL_SHARE = np.array([min(1.0, e / max(left, 1)) for e in range(N_TYPES + 1) for left in range(32)])
W_BEST = W_COUNT         # scratch for tied best options (decisions never overlap the debug check)
W_TVAL = W_BEST + MAX_OPTIONS    # decide_heuristic scratch: type_values of one player [8]
W_TSCORE = W_TVAL + 8            # ... the tile-independent score of each type (float64) [8]
W_TOPP = W_TSCORE + 8            # ... the best opponent's value of each type (denial) [8]
W_SC = W_TOPP + 8                # ... each option's score (float64) [MAX_OPTIONS]
assert W_SC + MAX_OPTIONS <= WS_SIZE and W_COUNT + MAXT <= WS_SIZE


@njit(cache=True, inline="always", _nrt=False)
def views(ws):
    """The game's RNG state (``st``, uint64[1]), the rules vector (``rk``) and the strategy rows
    (``strat``, float64, row r at ``r * N_STRAT_COLS``): views into the workspace, so that jitted
    calls pass one array (Numba passes every array as 7-9 machine words)."""
    st = ws.view(np.uint64)[G_RNG:G_RNG + 1]
    rk = ws[W_RK:W_RK + R_SIZE]
    strat = ws.view(np.float64)[W_STRAT:W_STRAT + MAXP * N_STRAT_COLS]
    return st, rk, strat


def pack_rules(rules) -> np.ndarray:
    """RulesArrays → the flat int64 rules vector ``rk`` the kernel reads."""
    rk = np.zeros(R_SIZE, np.int64)
    n, e = rules.n_tiles, int(rules.event_ids.shape[0])
    if n > MAXT - 1 or e > MAXE:
        raise ValueError(f"kernel limits: at most {MAXT - 1} tiles and {MAXE} event cards")
    rk[R_NTILES], rk[R_NEVENTS], rk[R_NTYPES] = n, e, N_TYPES
    rk[R_PARAMS:R_PARAMS + N_PARAMS] = rules.params
    for off, arr in ((R_TTYPE, rules.tile_type), (R_TNUM, rules.tile_number),
                     (R_TSTACK, rules.tile_stack), (R_TPEAS, rules.tile_peasants),
                     (R_TCHEST, rules.tile_chests), (R_IBASE, rules.income_base),
                     (R_ICOUNT, rules.income_counts.ravel()), (R_PLOTSUP, rules.plot_supply),
                     (R_TIE, rules.tie_break), (R_EID, rules.event_ids),
                     (R_EPT, rules.event_per_tile.ravel()), (R_EPP, rules.event_per_peasant),
                     (R_EPC, rules.event_per_chest), (R_EPG, rules.event_per_graveyard),
                     (R_EPD, rules.event_per_domain), (R_ELOSE, rules.event_lose.ravel()),
                     (R_EREST, rules.event_restore)):
        rk[off:off + arr.size] = arr
    rk[R_COUNTED:R_COUNTED + 64] = (rules.income_counts.T != 0).ravel()
    rk[R_ELOSES:R_ELOSES + e] = rules.event_lose.reshape(e, -1).sum(axis=1) > 0
    per_peasant = int(rules.params[P_CHAMPS_PER_PEASANT])
    per_chest = int(rules.params[P_MARCHE_PER_CHEST])
    for i in range(n):
        t = int(rules.tile_type[i])
        rk[R_TOWN + i] = (per_peasant * int(rules.tile_peasants[i]) if t == CHAMPS else 0) + \
            (per_chest * int(rules.tile_chests[i]) if t == MARCHE else 0)
    for x in range(N_TYPES):   # the token-free part of feed_value, the start of W_FEED
        rk[R_FEED0 + x] = sum(int(rules.income_base[d]) for d in range(N_TYPES)
                              if d != x and rules.income_counts[d, x])
    return rk


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


# ---------------------------------------------------------------------------------------------
# Fief and Graveyard
# ---------------------------------------------------------------------------------------------
@njit(cache=True, inline="always", _nrt=False)
def count_change(ws, rk, p, t, delta):
    """Keep W_CNT current: every Domain whose Income counts type t (or whose Plot token is t);
    and the number of empty Domains (MA-9) in X_EMPTY."""
    n = ws[U(W_FN + p * 8 + t)]          # already updated by the caller
    if delta > 0 and n == 1:
        ws[U(W_PL + p * PLS + X_EMPTY)] -= 1
    elif delta < 0 and n == 0:
        ws[U(W_PL + p * PLS + X_EMPTY)] += 1
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
# Decisions (MA-11)
# ---------------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def strat_row(ws, p, P):
    """Row of the strategy table that plays seat p in this game (seat rotation shifts it)."""
    row = p + ws[U(G_ROT)]
    return row - P if row >= P else row


@njit(cache=True, _nrt=False)
def coins_of(ws, p):
    return ws[U(W_PL + p * PLS + X_COINS)]


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
    for x in range(rk[U(R_NTYPES)]):
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


@njit(SIG_HEURISTIC, cache=True, _nrt=False, error_model="numpy")
def decide_heuristic(ws, row, kind, p, n_options, P):
    """:func:`heuristic_choice` for a strategy that weighs neither events nor denial (such as
    ``balanced``): compiled without those two features' code, which is most of the function's
    size. The decisions are the same. Measured: 0.5-2% per balanced game (removing that code
    outright gained 2%; with the branch-free defence loop, 3.5% in all)."""
    return heuristic_choice(ws, row, kind, p, n_options, P, False)


@njit(SIG_HEURISTIC, cache=True, _nrt=False, error_model="numpy")
def decide_heuristic_full(ws, row, kind, p, n_options, P):
    """:func:`heuristic_choice` with every feature, for strategies that weigh events or denial."""
    return heuristic_choice(ws, row, kind, p, n_options, P, True)


@njit(cache=True, _nrt=False)
def record_decision(ws, n_options, choice):
    k = ws[U(G_TRACE_N)]
    if k < MAX_TRACE:
        ws[U(W_TRACE + 2 * k)] = n_options
        ws[U(W_TRACE + 2 * k + 1)] = choice
        ws[U(G_TRACE_N)] = k + 1


@njit(cache=True, inline="always", _nrt=False)
def decide(st, ws, rk, strat, kind, p, n_options, P):
    """Index of the chosen option among ``n_options`` (> 0) for seat p (MA-11).

    Options are listed in ``ws[U(W_OPTS:)]`` in the protocol's order (restore: Graveyard indices).
    Every decision consumes exactly one draw of the game's stream, whatever the strategy:
    ``random`` draws below(n) (also when n == 1); a heuristic draws below(number of best-scored
    options) to break ties (:func:`decide_heuristic`). (Rollout seats decide Lord moves in
    :func:`rollout_choice`; their other decisions are heuristic.) The decision is appended to the
    game's trace so the reference engine can replay the game exactly. Inlined where it is called,
    so a random decision costs no call.
    """
    row = p + ws[U(G_ROT)]            # (strat_row, written out)
    if row >= P:
        row -= P
    sr = row * N_STRAT_COLS
    if strat[U(sr + S_KIND)] == STRAT_RANDOM:
        choice = below(st, n_options)
    elif strat[U(sr + S_EVENTS)] == 0.0 and strat[U(sr + S_DENIAL)] == 0.0:
        choice = decide_heuristic(ws, row, kind, p, n_options, P)
    else:
        choice = decide_heuristic_full(ws, row, kind, p, n_options, P)
    k = ws[U(G_TRACE_N)]              # (record_decision, written out)
    if k < MAX_TRACE:
        ws[U(W_TRACE + 2 * k)] = n_options
        ws[U(W_TRACE + 2 * k + 1)] = choice
        ws[U(G_TRACE_N)] = k + 1
    return choice


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


@njit(cache=True, _nrt=False)
def deal_row(ws, P, r):
    """Draw players + 1 tiles into row r, stable-sorted by back number (MA-3)."""
    st, rk, _ = views(ws)
    row = W_BOARD + r * COLS
    for c in range(P + 1):
        tile = draw_tile(st, ws, P)
        if tile < 0:
            ws[U(G_ERROR)] = E_TILES_RAN_OUT
            return
        num = rk[U(R_TNUM + tile)]
        j = c          # insertion sort: after every tile with an equal or smaller number
        while j > 0 and rk[U(R_TNUM + ws[U(row + j - 1)])] > num:
            ws[U(row + j)] = ws[U(row + j - 1)]
            j -= 1
        ws[U(row + j)] = tile


# ---------------------------------------------------------------------------------------------
# Effects (MA-5) and Income (MA-6)
# ---------------------------------------------------------------------------------------------
@njit(cache=True, inline="always", _nrt=False)
def apply_effect(st, ws, rk, strat, P, p, t, r, d):
    """MA-5: the Effect of Domain t for player p, who just placed a tile there."""
    if t == CHAMPS:
        mint(ws, rk, p, rk[U(R_PARAMS + P_CHAMPS_PER_PEASANT)] * ws[U(W_PL + p * PLS + X_PEAS)])
    elif t == MOULIN:
        mine = ws[U(W_FN + p * 8 + MOULIN)]
        for q in range(P):
            if q != p and ws[U(W_FN + q * 8 + MOULIN)] < mine:
                pay(ws, rk, q, p, rk[U(R_PARAMS + P_MOULIN_PAYMENT)])
    elif t == VILLAGE:
        n = ws[U(W_PL + p * PLS + X_GRAVE_N)]
        if n > 0:
            unbury(ws, rk, p, decide(st, ws, rk, strat, D_RESTORE, p, n, P))
    elif t == REMPART:
        n = 0
        for row in range(N_ROWS):
            if row == r or row == d:
                continue
            for c in range(P + 1):
                cell = row * COLS + c
                if ws[U(W_BOARD + cell)] >= 0 and ws[U(W_LORD + cell)] < 0 and ws[U(W_SCOUT + cell)] < 0:
                    ws[U(W_OPTS + n)] = cell
                    n += 1
        if n > 0:
            cell = ws[U(W_OPTS + decide(st, ws, rk, strat, D_SCOUT, p, n, P))]
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
                if ws[U(W_EXTRA + p * 8 + dom)] == 0:
                    ws[U(W_OPTS + n)] = dom
                    n += 1
            if n > 0:
                dom = ws[U(W_OPTS + decide(st, ws, rk, strat, D_EXTRA, p, n, P))]
                ws[U(W_EXTRA + p * 8 + dom)] = 1
                ws[U(G_EXTRA_SUPPLY)] -= 1
                feed_extra(ws, rk, p, dom)
    elif t == PALAIS:
        n = 0
        for tok in range(N_TYPES):
            if ws[U(W_PLOTSUP + tok)] <= 0:
                continue
            for dom in range(N_TYPES):
                if ws[U(W_PLOT + p * 8 + dom)] < 0 and rk[U(R_ICOUNT + dom * 8 + tok)] == 0:
                    ws[U(W_OPTS + n)] = tok * 8 + dom
                    n += 1
        if n > 0:
            pair = ws[U(W_OPTS + decide(st, ws, rk, strat, D_PLOT, p, n, P))]
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
def resolve_event(ws, P, e, k):
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
                unbury(ws, rk, p, decide(st, ws, rk, strat, D_RESTORE, p, n, P))
        ws[U(W_EG + p * N_EVENTS + k)] = ws[U(me + X_COINS)] - before


# ---------------------------------------------------------------------------------------------
# One game
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
    ws[U(G_EXTRA_SUPPLY)] = rk[U(R_PARAMS + P_EXTRA_TOKENS)]
    for p in range(MAXP):
        me = W_PL + p * PLS
        ws[U(me + X_COINS)] = rk[U(R_PARAMS + P_START_COINS)]
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
def setup_game(ws, P):
    """MA-3 on a reset workspace: shuffle the stacks and the event deck, deal 4 rows, place Lords."""
    st, rk, strat = views(ws)
    n_tiles = rk[U(R_NTILES)]
    width = P + 1
    # protocol steps 1-3: the stacks and the event deck, shuffled.
    nb = 0
    for i in range(n_tiles):
        if rk[U(R_TSTACK + i)] == BLUE:
            ws[U(W_PILE + nb)] = i
            nb += 1
    shuffle_range(st, ws, W_PILE, nb)
    ws[U(G_PILE_LEN)] = nb
    ws[U(G_ORANGE_LEFT)] = -1
    if P >= 4:
        no = 0
        for i in range(n_tiles):
            if rk[U(R_TSTACK + i)] == ORANGE:
                ws[U(W_ORANGE + no)] = i
                no += 1
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
        c = ws[U(W_OPTS + decide(st, ws, rk, strat, D_PLACE, p, n, P))]
        ws[U(W_LORD + c)] = p
        ws[U(W_PL + p * PLS + X_LORD_ROW)] = 0
        ws[U(W_PL + p * PLS + X_LORD_COL)] = c
    ws[U(G_TURN)] = 1
    ws[U(G_PHASE)] = 0


@njit(SIG_ADVANCE, cache=True, _nrt=False)
def advance(ws, P, stop_for_rollout, forced):
    """Play MA-4 turns from the position saved in ``ws`` to the end of the game (MA-9 penalty).

    Returns 0 when the game is over. With ``stop_for_rollout``, returns 1 instead when a seat
    played by the ``rollout`` strategy must choose a Lord move: the position is saved and the
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
            for c in range(width):
                tile = ws[U(W_BOARD + rrow + c)]
                free = (tile >= 0) & (ws[U(W_LORD + rrow + c)] < 0)
                ws[U(W_DISCARD + n_discard)] = tile
                n_discard += free
                ws[U(W_BOARD + rrow + c)] = tile - free * (tile + 1)    # -1 if discarded
            ws[U(G_DISCARD_LEN)] = n_discard
            # MA-4.2: players act in the left-to-right order of their Lords on row r.
            n_order = 0
            for c in range(width):
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
                for c in range(width):
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
                elif stop_for_rollout and strat[U(strat_row(ws, p, P) * N_STRAT_COLS + S_KIND)] == STRAT_ROLLOUT:
                    ws[U(G_NOPT)] = n
                    return 1
                else:
                    j = decide(st, ws, rk, strat, D_MOVE, p, n, P)
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
            apply_effect(st, ws, rk, strat, P, p, ttype, r, d)
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
            resolve_event(ws, P, ws[U(W_EVORD + k)], k)
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


@njit(cache=True, _nrt=False)
def rollout_choice(ws, scratch, P):
    """The ``rollout`` bot's Lord move: for each legal move, k playouts to the end of the game
    with every seat playing its heuristic; the move with the best mean final margin (own coins
    minus the best opponent's) wins, ties to the earliest option.

    One draw of the game's stream seeds the playouts (so the main stream advances by exactly one
    draw per decision, as for every strategy); playout j, k uses stream_state(that draw, j*256+k).
    """
    st, _, strat = views(ws)
    st2 = scratch.view(np.uint64)
    p = ws[U(W_ORDER + ws[U(G_INDEX)])]
    row = strat_row(ws, p, P)
    n = ws[U(G_NOPT)]
    k = int(strat[U(row * N_STRAT_COLS + S_PLAYOUTS)])
    if k < 1:
        k = 1
    base_seed = next_u64(st)
    best = -1e300
    best_j = 0
    for j in range(n):
        total = 0.0
        for rep in range(k):
            for i in range(W_TRACE):       # (the trace is not needed by a playout; the rules and
                # strategy rows at the end of the workspace were copied once per block)
                scratch[i] = ws[U(i)]
            scratch[G_TRACE_N] = MAX_TRACE   # playouts record nothing
            st2[G_RNG] = stream_state(base_seed, j * 256 + rep)
            advance(scratch, P, False, j)
            mine = scratch[W_PL + p * PLS + X_COINS]
            other = -(1 << 40)
            for q in range(P):
                if q != p and scratch[W_PL + q * PLS + X_COINS] > other:
                    other = scratch[W_PL + q * PLS + X_COINS]
            total += mine - other
        if total / k > best + 1e-9:
            best = total / k
            best_j = j
    return best_j


@njit(cache=True, _nrt=False)
def play_one(ws, scratch, P, debug):
    """One whole game on a reset workspace."""
    _, _, strat = views(ws)
    setup_game(ws, P)
    if ws[G_ERROR] != 0:
        return
    any_rollout = False
    for q in range(P):
        if strat[U(q * N_STRAT_COLS + S_KIND)] == STRAT_ROLLOUT:
            any_rollout = True
    forced = -1
    while advance(ws, P, any_rollout, forced) == 1:
        forced = rollout_choice(ws, scratch, P)
    if debug:
        check_invariants(ws, P)


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
    if total != P * rk[U(R_PARAMS + P_START_COINS)] + ws[U(G_LEDGER)]:
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


@njit(cache=True, _nrt=False)
def write_outputs(ws, P, g, out_i16, out_win, out_events, out_game):
    """MA-9 ranks and win shares and the MA-12 records of game row g.

    Column-major records (one contiguous row per record, so the columns need no strided copy):
    ``out_i16[c, g * P + seat]`` holds, for c in order, score, rank, 8 tile counts, graveyard,
    penalty, 4 event gains, 4 coins-before-event (see :data:`PLAYER_COLS`);
    ``out_events[k, g]`` the 4 event ids, ``out_game[:, g]`` reshuffles and the error code.
    """
    _, rk, _ = views(ws)
    n_winners = 0
    for p in range(P):
        better = 0
        for q in range(P):
            if q != p and beats(ws, rk, q, p) > 0:
                better += 1
        out_i16[1, g * P + p] = better + 1
        if better == 0:
            n_winners += 1
    for p in range(P):
        row = g * P + p
        me = W_PL + p * PLS
        coins = ws[U(me + X_COINS)]
        if coins > 32767 or coins < -32768:
            ws[U(G_ERROR)] = E_COIN_OVERFLOW
        out_i16[0, row] = coins
        out_win[row] = (1.0 / n_winners) if out_i16[1, row] == 1 else 0.0
        for t in range(N_TYPES):
            out_i16[2 + t, row] = ws[U(W_FN + p * 8 + t)]
        out_i16[10, row] = ws[U(me + X_GRAVE_N)]
        out_i16[11, row] = ws[U(me + X_PENALTY)]
        for k in range(N_EVENTS):
            a = ws[U(W_EG + p * N_EVENTS + k)]
            b = ws[U(W_CB + p * N_EVENTS + k)]
            if a > 32767 or a < -32768 or b > 32767 or b < -32768:
                ws[U(G_ERROR)] = E_COIN_OVERFLOW
            out_i16[12 + k, row] = a
            out_i16[16 + k, row] = b
    for k in range(N_EVENTS):
        out_events[k, g] = rk[U(R_EID + ws[U(W_EVORD + k)])]
    out_game[0, g] = ws[U(G_RESHUFFLES)]
    out_game[1, g] = ws[U(G_ERROR)]


PLAYER_COLS = ("score", "rank", "tiles_champs", "tiles_moulin", "tiles_village", "tiles_rempart",
               "tiles_marche", "tiles_caserne", "tiles_eglise", "tiles_palais", "graveyard",
               "penalty", "event_gain_1", "event_gain_2", "event_gain_3", "event_gain_4",
               "coins_before_event_1", "coins_before_event_2", "coins_before_event_3",
               "coins_before_event_4")


@njit(cache=True, parallel=True)
def play_chunk(first_game, n_games, seed, P, rk, strat, n_rot, debug, out_i16, out_win,
               out_events, out_game, trace):
    """Play games ``first_game … first_game + n_games - 1`` (jit-compiled by Numba, parallel).

    Parameters
    ----------
    first_game, n_games, seed : int
        Game number ``i = first_game + g`` is deal ``i // n_rot`` played in rotation ``i % n_rot``;
        its stream is ``stream_state(seed, deal)``, so the rotations of a deal share every shuffle.
    P : int
        Players, 2-5.
    rk : int64[R_SIZE]
        Rules vector from :func:`pack_rules`.
    strat : float64[P, N_STRAT_COLS]
        One strategy row per seat (column 0 = kind).
    n_rot : int
        1, or P for seat rotation: in rotation k, seat s is played by strategy row (s + k) % P.
    debug : bool
        Check the invariants after every game (error codes 10+).
    out_i16 : int16[20, n_games * P]; out_win : float32[n_games * P];
    out_events : int8[4, n_games]; out_game : int16[2, n_games]
        Outputs (see :func:`write_outputs`).
    trace : int16[n_games, 2 * MAX_TRACE] or int16[1, 0]
        Decision trace (n_options, choice pairs) per game, or nothing when the width is 0.
    """
    n_blocks = min(n_games, 256)
    record = trace.shape[1] > 0
    for b in prange(n_blocks):
        g0 = b * n_games // n_blocks
        g1 = (b + 1) * n_games // n_blocks
        ws = np.zeros(WS_SIZE, np.int64)
        scratch = np.zeros(WS_SIZE, np.int64)
        for i in range(R_SIZE):         # the rules and strategy rows live in the workspace (views)
            ws[W_RK + i] = rk[i]
            scratch[W_RK + i] = rk[i]
        wf = ws.view(np.float64)
        sf = scratch.view(np.float64)
        for r in range(P):
            for c in range(N_STRAT_COLS):
                wf[W_STRAT + r * N_STRAT_COLS + c] = strat[r, c]
                sf[W_STRAT + r * N_STRAT_COLS + c] = strat[r, c]
            # the order feature's step between neighbouring columns (MA-11), not divided per decision
            wf[W_STRAT + r * N_STRAT_COLS + S_ORDER_STEP] = strat[r, S_ORDER] / P
            sf[W_STRAT + r * N_STRAT_COLS + S_ORDER_STEP] = strat[r, S_ORDER] / P
        prepare_reset(ws)
        wu = ws.view(np.uint64)
        for g in range(g0, g1):
            reset(ws)
            game = first_game + g
            ws[G_ROT] = game % n_rot
            wu[G_RNG] = stream_state(seed, game // n_rot)
            play_one(ws, scratch, P, debug)
            write_outputs(ws, P, g, out_i16, out_win, out_events, out_game)
            if record:
                for i in range(min(2 * ws[G_TRACE_N], trace.shape[1])):
                    trace[g, i] = ws[W_TRACE + i]


def random_strategies(n_players: int) -> np.ndarray:
    """Strategy rows for ``random`` at every seat."""
    return np.zeros((n_players, N_STRAT_COLS), np.float64)


def run_chunk(rules, n_players: int, first_game: int, n_games: int, seed: int, strat=None, *,
              debug: bool = False, trace_decisions: bool = False, rk=None,
              rotate: bool = False) -> dict:
    """Allocate outputs, call :func:`play_chunk`, return named arrays (the Python entry point).

    Player arrays (``n_games * n_players`` rows, game-major then seat): ``score`` int32,
    ``win_share`` float32, ``rank`` int8, ``tiles`` int8 (rows x 8), ``graveyard`` int8,
    ``penalty`` int16, ``event_gain`` and ``coins_before_event`` int16 (rows x 4). Game arrays:
    ``events`` int8 (games x 4), ``reshuffles`` int8, ``error`` int16, and with
    ``trace_decisions`` a list of (n_options, choice) pairs per game in ``trace``. The 2-D arrays
    are transposed views of column-major records: each column (``tiles[:, i]``) is contiguous.
    """
    P = int(n_players)
    if strat is None:
        strat = random_strategies(P)
    if rk is None:
        rk = pack_rules(rules)
    rows = n_games * P
    out_i16 = np.empty((len(PLAYER_COLS), rows), np.int16)
    out_win = np.empty(rows, np.float32)
    out_events = np.empty((N_EVENTS, n_games), np.int8)
    out_game = np.empty((2, n_games), np.int16)
    trace = np.full((n_games, 2 * MAX_TRACE) if trace_decisions else (1, 0), -1, np.int16)
    play_chunk(np.int64(first_game), np.int64(n_games), np.uint64(seed), np.int64(P), rk,
               np.ascontiguousarray(strat, np.float64), np.int64(P if rotate else 1), bool(debug),
               out_i16, out_win, out_events, out_game, trace)
    out = dict(
        score=out_i16[0].astype(np.int32), win_share=out_win, rank=out_i16[1].astype(np.int8),
        tiles=out_i16[2:10].astype(np.int8).T, graveyard=out_i16[10].astype(np.int8),
        penalty=out_i16[11], event_gain=out_i16[12:16].T,
        coins_before_event=out_i16[16:20].T, events=out_events.T,
        reshuffles=out_game[0].astype(np.int8), error=out_game[1],
    )
    if trace_decisions:
        out["trace"] = [[(int(row[2 * i]), int(row[2 * i + 1])) for i in range(MAX_TRACE)
                         if row[2 * i] >= 0] for row in trace]
    return out
