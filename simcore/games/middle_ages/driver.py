"""Middle-Ages chunk driver: packs the rules, plays blocks of games on threads, writes the records.

What the adapter (:mod:`simcore.games.middle_ages.game`), the benchmarks and the tests call:
:func:`pack_rules` (RulesArrays → the rules vector ``rk``), :func:`run_chunk` (allocate the outputs,
call :func:`play_chunk`, return named arrays) and the record column names (:data:`PLAYER_COLS`).
:func:`play_chunk` splits its games into blocks shared by a pool of threads
(:mod:`simcore.blocks`); each block (the jitted, GIL-free :func:`play_games`) allocates its
workspace once and plays its games one after the other, writing the MA-9 ranks and MA-12 records
of each (:func:`write_outputs`). A game's stream depends only on (seed, game index), so results are
identical whatever the thread count or chunk size.
The ``rollout`` bot's Lord move (:func:`rollout_choice`, MA-11) lives here too: it plays games
forward with :func:`.kernel.advance`, and the kernel calls the decisions of :mod:`.bots`, so in
``bots.py`` it would close an import cycle; :func:`play_one` asks it whenever ``advance`` stops
at a rollout seat's move. Line-ups without a rollout seat and without ``debug`` are played by
:func:`play_games`, which calls neither the rollout bot nor the invariants, so that they are
compiled only when a run needs them (:func:`play_games_checked`).

Cold start (the first run after install compiles everything; ``benchmarks/bench_pipeline.py
--cold``): Numba optimises and generates machine code again, in every jitted function, for every
jitted function it calls that is not inlined. Hence no ``parallel=True`` here (its three extra
layers recompiled the whole kernel three more times) and the entry points above call ``advance``
directly rather than through more layers. May import numpy, numba, :mod:`simcore.rng`,
:mod:`simcore.blocks`, the constants of the rules module, the spec (its player columns give the
records' layout), :mod:`.layout`, :mod:`.bots` and :mod:`.kernel`; nothing of this game imports
this module but the adapter.
"""

from __future__ import annotations

import numpy as np
from numpy import uint64 as U
from numba import njit

from simcore.games.middle_ages.bots import strat_row, views
from simcore.games.middle_ages.kernel import (
    advance, beats, check_invariants, prepare_reset, reset, setup_game,
)
from simcore.games.middle_ages.layout import (
    E_COIN_OVERFLOW, G_ERROR, G_INDEX, G_NOPT, G_RESHUFFLES, G_RNG, G_ROT, G_TRACE_N, MAX_TRACE,
    MAXE, MAXP, MAXT, N_STRAT_COLS, PLS, R_COUNTED, R_EID, R_ELOSE, R_ELOSES, R_EPC, R_EPD, R_EPG,
    R_EPP, R_EPT, R_EREST, R_FEED0, R_IBASE, R_ICOUNT, R_NEVENTS, R_NTILES, R_NTYPES, R_PARAMS,
    R_PLOTSUP, R_SIZE, R_TCHEST, R_TIE, R_TNUM, R_TOWN, R_TPEAS, R_TSTACK, R_TTYPE, S_DENIAL,
    S_EVENTS, S_KIND, S_ORDER, S_ORDER_STEP, S_PLAYOUTS, STRAT_RANDOM, STRAT_ROLLOUT, STRAT_SEARCH, W_CB,
    W_CT,
    W_EG, W_EVORD, W_FN, W_ORDER, W_PL, W_RK, W_STRAT, W_TRACE, WS_SIZE, X_COINS, X_GRAVE_N, X_PENALTY,
)
from simcore.games.middle_ages.rules import (
    CHAMPS, MARCHE, N_EVENTS, N_PARAMS, N_TURNS, N_TYPES, P_CHAMPS_PER_PEASANT,
    P_MARCHE_PER_CHEST,
)
from simcore.games.middle_ages.spec import BEFORE_COLS, GAIN_COLS, SPEC, TILE_COLS, TURN_COLS
from simcore.blocks import play_blocks
from simcore.games.middle_ages.search import policy_rows, redeal, search_choice
from simcore.search import MAX_OPTIONS
from simcore.rng import next_u64, stream_state

# The rows of the int16 player records, derived from the spec's player columns (MA-12) in the
# spec's order: every player column but ``win_share`` (float32, written to its own array). The
# positions below are compile-time constants of write_outputs; reordering the spec's columns
# reorders the records, and the assertions keep each block (tiles, event gains, coins before an
# event, coins at the end of each turn) contiguous as the kernel writes it.
PLAYER_COLS = tuple(c.name for c in SPEC.player_columns if c.name != "win_share")
C_SCORE, C_RANK = PLAYER_COLS.index("score"), PLAYER_COLS.index("rank")
C_GRAVEYARD, C_PENALTY = PLAYER_COLS.index("graveyard"), PLAYER_COLS.index("penalty")
C_TILES, C_GAIN, C_BEFORE, C_TURN = (
    PLAYER_COLS.index(TILE_COLS[0]), PLAYER_COLS.index(GAIN_COLS[0]),
    PLAYER_COLS.index(BEFORE_COLS[0]), PLAYER_COLS.index(TURN_COLS[0]))
assert PLAYER_COLS[C_TILES:C_TILES + N_TYPES] == TILE_COLS
assert PLAYER_COLS[C_GAIN:C_GAIN + N_EVENTS] == GAIN_COLS
assert PLAYER_COLS[C_BEFORE:C_BEFORE + N_EVENTS] == BEFORE_COLS
assert PLAYER_COLS[C_TURN:C_TURN + N_TURNS] == TURN_COLS
assert len(PLAYER_COLS) == 4 + N_TYPES + 2 * N_EVENTS + N_TURNS


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
# One game, and the rollout bot (MA-11)
# ---------------------------------------------------------------------------------------------
ROLLOUT_WORLD = 1 << 20        # rollout worlds' keys: above every playout's j * 256 + k (j < 4096)


@njit(cache=True, _nrt=False)
def rollout_choice(ws, scratch, P):
    """The ``rollout`` bot's Lord move: for each legal move, k playouts to the end of the game
    with every seat playing its heuristic; the move with the best mean final margin (own coins
    minus the best opponent's) wins, ties to the earliest option.

    One draw of the game's stream seeds the playouts (so the main stream advances by exactly one
    draw per decision, as for every strategy); playout j, k uses stream_state(that draw, j*256+k).
    Before it plays, each playout re-deals what no player can see (the order of the face-down pile
    and of the orange stack, MA-7: :func:`.search.redeal`) from stream_state(that draw, WORLD + k),
    the same world for every move (common random numbers); the bot played out the true order
    before (review s46: reordering only the unseen tiles changed 248 of 900 of its moves).
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
            st2[G_RNG] = stream_state(base_seed, ROLLOUT_WORLD + rep)
            redeal(scratch)
            st2[G_RNG] = stream_state(base_seed, j * 256 + rep)
            advance(scratch, P, False, j, True)
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
def play_one(ws, scratch, P, debug, fs, stats, st2):
    """One whole game on a reset workspace; ``advance`` stops at a ``rollout`` or ``search``
    seat's Lord move, which :func:`rollout_choice` or :func:`.search.search_choice` picks."""
    _, _, strat = views(ws)
    # ``full = True`` passed, not left to the default: a literal True is the type play_games_full
    # passes too, so setup_game, advance and resolve_event compile once for both (an omitted
    # argument is a type of its own: a third compiled copy of the rules of play)
    setup_game(ws, P, True)
    if ws[G_ERROR] != 0:
        return
    any_rollout = False
    for q in range(P):
        if strat[U(q * N_STRAT_COLS + S_KIND)] >= STRAT_ROLLOUT:
            any_rollout = True
    forced = -1
    while advance(ws, P, any_rollout, forced, True) == 1:
        p = ws[U(W_ORDER + ws[U(G_INDEX)])]
        if strat[U(strat_row(ws, p, P) * N_STRAT_COLS + S_KIND)] == STRAT_SEARCH:
            forced = search_choice(ws, scratch, fs, stats, st2, P)
        else:
            forced = rollout_choice(ws, scratch, P)
    if debug:
        check_invariants(ws, P)


# ---------------------------------------------------------------------------------------------
# Records (MA-9, MA-12) and the chunk
# ---------------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def write_outputs(ws, P, g, out_i16, out_win, out_events, out_game):
    """MA-9 ranks and win shares and the MA-12 records of game row g.

    Column-major records (one contiguous row per record, so the columns need no strided copy):
    ``out_i16[c, g * P + seat]`` holds the player column ``PLAYER_COLS[c]`` (the spec's player
    columns but win_share, in the spec's order: score, rank, 8 tile counts, graveyard, penalty, 4
    event gains, 4 coins-before-event, 16 coins at the end of a turn);
    ``out_events[k, g]`` the 4 event ids, ``out_game[:, g]`` reshuffles and the error code.
    """
    _, rk, _ = views(ws)
    n_winners = 0
    for p in range(P):
        better = 0
        for q in range(P):
            if q != p and beats(ws, rk, q, p) > 0:
                better += 1
        out_i16[C_RANK, g * P + p] = better + 1
        if better == 0:
            n_winners += 1
    for p in range(P):
        row = g * P + p
        me = W_PL + p * PLS
        coins = ws[U(me + X_COINS)]
        if coins > 32767 or coins < -32768:
            ws[U(G_ERROR)] = E_COIN_OVERFLOW
        out_i16[C_SCORE, row] = coins
        out_win[row] = (1.0 / n_winners) if out_i16[C_RANK, row] == 1 else 0.0
        for t in range(N_TYPES):
            out_i16[C_TILES + t, row] = ws[U(W_FN + p * 8 + t)]
        out_i16[C_GRAVEYARD, row] = ws[U(me + X_GRAVE_N)]
        out_i16[C_PENALTY, row] = ws[U(me + X_PENALTY)]
        for k in range(N_EVENTS):
            a = ws[U(W_EG + p * N_EVENTS + k)]
            b = ws[U(W_CB + p * N_EVENTS + k)]
            if a > 32767 or a < -32768 or b > 32767 or b < -32768:
                ws[U(G_ERROR)] = E_COIN_OVERFLOW
            out_i16[C_GAIN + k, row] = a
            out_i16[C_BEFORE + k, row] = b
    overflow = False     # (one test at the end: no branch per value)
    for t in range(N_TURNS):
        for p in range(P):
            c = ws[U(W_CT + t * MAXP + p)]
            overflow |= (c > 32767) | (c < -32768)
            out_i16[C_TURN + t, g * P + p] = c
    if overflow:
        ws[U(G_ERROR)] = E_COIN_OVERFLOW
    for k in range(N_EVENTS):
        out_events[k, g] = rk[U(R_EID + ws[U(W_EVORD + k)])]
    out_game[0, g] = ws[U(G_RESHUFFLES)]
    out_game[1, g] = ws[U(G_ERROR)]


@njit(cache=True, inline="always", _nrt=False)
def load_block(ws, scratch, rk, strat, P):
    """A block's workspaces: the rules and strategy rows copied in (views), the reset copy made."""
    for i in range(R_SIZE):
        ws[W_RK + i] = rk[i]
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
    for i in range(R_SIZE):     # the tables prepare_reset derives into the rules copy (R_PLOTDOMS:
        scratch[W_RK + i] = ws[W_RK + i]    # the playouts' Palais reads it too)


@njit(cache=True, inline="always", _nrt=False)
def start_game(ws, game, seed, n_rot):
    """Reset the workspace for game number ``game``: deal ``game // n_rot``'s stream, rotation
    ``game % n_rot``."""
    reset(ws)
    ws[G_ROT] = game % n_rot
    ws.view(np.uint64)[G_RNG] = stream_state(seed, game // n_rot)


@njit(cache=True, inline="always", _nrt=False)
def copy_trace(ws, g, trace):
    for i in range(min(2 * ws[G_TRACE_N], trace.shape[1])):
        trace[g, i] = ws[W_TRACE + i]


@njit(cache=True, inline="always", _nrt=False)
def play_block(g0, g1, first_game, seed, P, rk, strat, n_rot, out_i16, out_win, out_events,
               out_game, trace, full):
    """The games of one block (see :func:`play_games`); ``full``: a compile-time switch, ``None``
    when no seat weighs events or denial, else ``True`` (:func:`.bots.heuristic_for`)."""
    record = trace.shape[1] > 0
    ws = np.zeros(WS_SIZE, np.int64)
    scratch = np.zeros(WS_SIZE, np.int64)
    load_block(ws, scratch, rk, strat, P)
    for g in range(g0, g1):
        start_game(ws, first_game + g, seed, n_rot)
        if not record:      # a full trace: the decisions record nothing (two stores each)
            ws[G_TRACE_N] = MAX_TRACE
        setup_game(ws, P, full)
        if ws[G_ERROR] == 0:
            advance(ws, P, False, -1, full)   # (no rollout seat: never stops before the end)
        write_outputs(ws, P, g, out_i16, out_win, out_events, out_game)
        if record:
            copy_trace(ws, g, trace)


@njit(cache=True, nogil=True)
def play_games(g0, g1, first_game, seed, P, rk, strat, n_rot, debug, out_i16, out_win,
               out_events, out_game, trace):
    """Play games ``first_game + g0 … first_game + g1 - 1`` of a chunk on one workspace, into rows
    ``g0 … g1 - 1`` of the outputs (jit-compiled by Numba, releases the GIL: :func:`play_chunk`
    runs blocks of a chunk on several threads). For line-ups without a ``rollout`` seat and without
    ``debug`` (:func:`play_games_checked` plays the others): this one never compiles the rollout
    bot nor the invariants, so the first run of the usual bots compiles less; and, for
    line-ups where no seat weighs events or denial (``balanced``, ``greedy``, ``random``, …;
    the others: :func:`play_games_full`), nor the heuristic's events-and-denial variant
    (:func:`.bots.decide_heuristic_full`).

    Parameters
    ----------
    g0, g1 : int
        The block: games ``g0 … g1 - 1`` of the chunk (output rows).
    first_game, seed : int
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
        Check the invariants after every game (error codes 10+); only :func:`play_games_checked`.
    out_i16 : int16[len(PLAYER_COLS), n_games * P]; out_win : float32[n_games * P];
    out_events : int8[4, n_games]; out_game : int16[2, n_games]
        Outputs (see :func:`write_outputs`).
    trace : int16[n_games, 2 * MAX_TRACE] or int16[1, 0]
        Decision trace (n_options, choice pairs) per game, or nothing when the width is 0.
    """
    play_block(g0, g1, first_game, seed, P, rk, strat, n_rot, out_i16, out_win, out_events,
               out_game, trace, None)


@njit(cache=True, nogil=True)
def play_games_full(g0, g1, first_game, seed, P, rk, strat, n_rot, debug, out_i16, out_win,
                    out_events, out_game, trace):
    """:func:`play_games` for line-ups where a seat weighs events or denial."""
    play_block(g0, g1, first_game, seed, P, rk, strat, n_rot, out_i16, out_win, out_events,
               out_game, trace, True)


# Four players, the default count and the one most panels seat, get entry points of their own that
# pass the count as a constant: the rules of play and the heuristic are compiled for it (advance
# and the heuristic keep a constant player count: ``njit_on_demand(literal=("P",))``; the other
# helpers are specialised on constants as Numba does), so LLVM folds the width of a row, the
# loops over the players and the seat arithmetic. Measured (bench_kernel_ab.py, 40 pairs of 3,000
# 4-player games, decisions identical): 0.91 of the time per random game, 0.92 per balanced one.
# Other counts share one compiled kernel (the count a variable), so a run at several counts
# compiles at most two, and the test suite (every count) compiles one more, not four.
@njit(cache=True, nogil=True)
def play_games_4p(g0, g1, first_game, seed, P, rk, strat, n_rot, debug, out_i16, out_win,
                  out_events, out_game, trace):
    """:func:`play_games` for 4 players (``P`` must be 4), with the count a compile-time constant."""
    play_block(g0, g1, first_game, seed, 4, rk, strat, n_rot, out_i16, out_win, out_events,
               out_game, trace, None)


@njit(cache=True, nogil=True)
def play_games_full_4p(g0, g1, first_game, seed, P, rk, strat, n_rot, debug, out_i16, out_win,
                       out_events, out_game, trace):
    """:func:`play_games_full` for 4 players (``P`` must be 4), the count a compile-time constant."""
    play_block(g0, g1, first_game, seed, 4, rk, strat, n_rot, out_i16, out_win, out_events,
               out_game, trace, True)


@njit(cache=True, nogil=True)
def play_games_checked(g0, g1, first_game, seed, P, rk, strat, n_rot, debug, out_i16, out_win,
                       out_events, out_game, trace):
    """:func:`play_games` for line-ups with a ``rollout`` seat (MA-11) or with ``debug`` (the
    invariants checked after every game): every game through :func:`play_one`."""
    record = trace.shape[1] > 0
    ws = np.zeros(WS_SIZE, np.int64)
    scratch = np.zeros(WS_SIZE, np.int64)
    load_block(ws, scratch, rk, strat, P)
    policy_rows(scratch, P)        # a searching seat plays its policy in playouts
    fs = np.zeros(1, np.float64)
    stats = np.zeros(2 * MAX_OPTIONS, np.float64)
    st2 = np.zeros(1, np.uint64)
    for g in range(g0, g1):
        start_game(ws, first_game + g, seed, n_rot)
        play_one(ws, scratch, P, debug, fs, stats, st2)
        write_outputs(ws, P, g, out_i16, out_win, out_events, out_game)
        if record:
            copy_trace(ws, g, trace)


def play_chunk(first_game, n_games, seed, P, rk, strat, n_rot, debug, out_i16, out_win,
               out_events, out_game, trace) -> None:
    """Play games ``first_game … first_game + n_games - 1``: blocks of :func:`play_games` (or
    :func:`play_games_full` when a seat weighs events or denial, :func:`play_games_checked` when a
    seat plays ``rollout`` or with ``debug``; for 4 players, :func:`play_games_4p` and
    :func:`play_games_full_4p` instead of the first two) on Numba's thread
    count of threads (:func:`simcore.blocks.play_blocks`); arguments as there."""
    checked = bool(debug) or bool(np.any(strat[:P, S_KIND] >= STRAT_ROLLOUT))   # rollout, search
    # the condition under which decide() calls decide_heuristic_full, for any seat
    full = bool(np.any((strat[:P, S_KIND] != STRAT_RANDOM)
                       & ((strat[:P, S_EVENTS] != 0.0) | (strat[:P, S_DENIAL] != 0.0))))
    if checked:
        play = play_games_checked
    elif P == 4:
        play = play_games_full_4p if full else play_games_4p
    else:
        play = play_games_full if full else play_games
    play_blocks(play, int(n_games), np.int64(first_game),
                np.uint64(seed), np.int64(P), rk, strat, np.int64(n_rot), bool(debug), out_i16,
                out_win, out_events, out_game, trace)


def random_strategies(n_players: int) -> np.ndarray:
    """Strategy rows for ``random`` at every seat."""
    return np.zeros((n_players, N_STRAT_COLS), np.float64)


CACHE_LINE = 64      # bytes


def record_stride(rows: int) -> int:
    """Entries per row of the int16 records (``out_i16``) for ``rows`` player rows: at least
    ``rows``, and an odd number of 64-byte cache lines.

    Why: a game writes one int16 to each of the 36 record rows (its 4 players' values side by
    side). With rows exactly ``rows`` entries long, as before, the chunk sizes the runner uses
    (131,072 games, and the ramp's 256, 512, 1024, ... before it) make every row a multiple of
    4,096 bytes long, so the 36 values of a game fall in one set of the L1 and L2 caches (which
    pick a line's set from the address bits below 4,096, resp. 65,536), a set that holds 12-16
    lines: every game evicted the lines of the game before and some of the workspace's. An odd
    number of lines per row puts 36 consecutive rows in 36 different sets at any chunk size.
    Measured (``bench_kernel_ab.py --games 131072``, one thread, decisions identical): see
    docs/middle_ages_engine.md, "Speed work"; the records' values are the same."""
    per_line = CACHE_LINE // np.dtype(np.int16).itemsize
    lines = -(-rows // per_line)
    return (lines | 1) * per_line


def run_chunk(rules, n_players: int, first_game: int, n_games: int, seed: int, strat=None, *,
              debug: bool = False, trace_decisions: bool = False, rk=None,
              rotate: bool = False) -> dict:
    """Allocate outputs, call :func:`play_chunk`, return named arrays (the Python entry point).

    Player arrays (``n_games * n_players`` rows, game-major then seat): ``score`` int32,
    ``win_share`` float32, ``rank`` int8, ``tiles`` int8 (rows x 8), ``graveyard`` int8,
    ``penalty`` int16, ``event_gain`` and ``coins_before_event`` int16 (rows x 4),
    ``coins_by_turn`` int16 (rows x 16: coins at the end of each turn, MA-12). Game arrays:
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
    # the records' rows an odd number of cache lines apart (record_stride): the kernel writes the
    # first ``rows`` entries of each (the array stays C-contiguous, the type it is compiled for),
    # and the columns below are views of them
    records = np.empty((len(PLAYER_COLS), record_stride(rows)), np.int16)
    out_i16 = records[:, :rows]
    out_win = np.empty(rows, np.float32)
    out_events = np.empty((N_EVENTS, n_games), np.int8)
    out_game = np.empty((2, n_games), np.int16)
    trace = np.full((n_games, 2 * MAX_TRACE) if trace_decisions else (1, 0), -1, np.int16)
    play_chunk(np.int64(first_game), np.int64(n_games), np.uint64(seed), np.int64(P), rk,
               np.ascontiguousarray(strat, np.float64), np.int64(P if rotate else 1), bool(debug),
               records, out_win, out_events, out_game, trace)
    out = dict(
        score=out_i16[C_SCORE].astype(np.int32), win_share=out_win,
        rank=out_i16[C_RANK].astype(np.int8),
        tiles=out_i16[C_TILES:C_TILES + N_TYPES].astype(np.int8).T,
        graveyard=out_i16[C_GRAVEYARD].astype(np.int8), penalty=out_i16[C_PENALTY],
        event_gain=out_i16[C_GAIN:C_GAIN + N_EVENTS].T,
        coins_before_event=out_i16[C_BEFORE:C_BEFORE + N_EVENTS].T,
        coins_by_turn=out_i16[C_TURN:C_TURN + N_TURNS].T, events=out_events.T,
        reshuffles=out_game[0].astype(np.int8), error=out_game[1],
    )
    if trace_decisions:
        out["trace"] = [[(int(row[2 * i]), int(row[2 * i + 1])) for i in range(MAX_TRACE)
                         if row[2 * i] >= 0] for row in trace]
    return out
