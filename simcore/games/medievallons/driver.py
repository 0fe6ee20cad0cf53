"""Médiévallons driver, what the adapter ``game.py`` calls: :func:`pack_rules` (rules -> the
rules vector), :func:`run_chunk` (allocates the outputs, runs :func:`play_chunk` -- blocks of
games on threads (:mod:`simcore.blocks`), each block allocating its workspaces once -- and returns the named
columns :data:`PLAYER_COLS` / :data:`GAME_COLS`), the loop of one game (:func:`play_one`, which
hands a playout or search seat's action to its bot; :func:`play_to_end` for line-ups without one,
through an entry point of their own, :func:`play_games`, which compiles neither bot) and the writing of the MV-7 ranks and win shares
and MV-9 records (:func:`write_outputs`). A game's stream depends only on (seed, deal index), so
results are identical whatever the thread count or chunk size. May import numpy, numba,
:mod:`simcore.rng`, :mod:`simcore.blocks`, the layout, the constants of the rules module, the spec (its player columns
give the records' layout) and the engine modules (bots,
kernel, playout); only callers (``game.py``, ``questions.py``, tests, benchmarks) import it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcore.games.medievallons.bots import init_values, strat_row
from simcore.games.medievallons.kernel import (
    check_invariants, compare_keys, finish, guild_cards, play_turns, reset, setup_game,
)
from simcore.games.medievallons.layout import (
    FS_SIZE, F_STRAT, G_CUR, G_ERROR, G_FORCED, G_LIMIT, G_OVER, G_RESHUF, G_ROT, G_STOP, G_TRACE_N,
    G_TURNS, G_WINNER, MAXC, MAXP, MAX_TRACE, N_STRAT_COLS, PLS, R_COPIES, R_NCARDS, R_PARAMS,
    R_SIZE, STRAT_PLAYOUT, STRAT_SEARCH, S_KIND, THIRD_GUILD, TS, WS_SIZE, W_FOUNDED, W_PL, W_POWERS, W_RULES, W_TRACE, X_HANDN, X_NG,
)
from simcore.games.medievallons.playout import playout_choice
from simcore.games.medievallons.search import search_choice
from simcore.search import MAX_OPTIONS
from simcore.games.medievallons.rules import CARD_TYPES, N_PARAMS, N_TYPES, POWER_TYPES
from simcore.games.medievallons.spec import SPEC
from simcore.blocks import play_blocks
from simcore.rng import stream_state


# =================================================================================================
# Rules and workspaces
# =================================================================================================
def pack_rules(rules) -> np.ndarray:
    """RulesArrays -> the flat int64 rules vector ``rk`` the kernel reads."""
    rk = np.zeros(R_SIZE, np.int64)
    rk[R_COPIES:R_COPIES + N_TYPES] = rules.copies
    rk[R_PARAMS:R_PARAMS + N_PARAMS] = rules.params
    rk[R_NCARDS] = int(rules.copies.sum())
    if rk[R_NCARDS] > MAXC:
        raise ValueError(f"kernel limit: at most {MAXC} cards")
    return rk


@njit(cache=True, _nrt=False)
def load_block(ws, sc, fs, rk, strat):
    """Once per block: the rules into ws (and the playout scratch), the strategy table and the
    set_value table into fs, so every helper takes (st, ws, fs) only -- fewer array arguments,
    cheaper calls."""
    for i in range(R_SIZE):
        ws[W_RULES + i] = rk[i]
        sc[W_RULES + i] = rk[i]
    for r in range(strat.shape[0]):
        for c in range(N_STRAT_COLS):
            fs[F_STRAT + r * N_STRAT_COLS + c] = strat[r, c]
    init_values(ws, fs)


# =================================================================================================
# One game
# =================================================================================================
# Inlined (Numba IR) into its one caller: compiled apart, each jitted function that reaches the
# rules of play links, optimises and emits machine code for all of them again (Numba links a
# callee's whole module into its caller's): ~4-5 s CPU per cold compile each (docs/testing.md).
@njit(cache=True, inline="always", _nrt=False)
def play_one(st, ws, sc, fs, st2, P, debug, stats):
    """One game from setup to the end (MV-2 … MV-7): the rules of play run the turns and, at each
    action of a seat played by the playout bot, stop for :func:`playout_choice` to choose it. This
    loop is the one place that calls both the rules of play and the playout bot, hence it lives in
    the driver (see the playout module for the import order)."""
    setup_game(st, ws, P)
    ws[G_STOP] = 1
    ws[G_LIMIT] = 1 << 40
    ws[G_FORCED] = -1
    while play_turns(st, ws, fs, P, debug) == 1:
        if fs[F_STRAT + strat_row(ws, ws[G_CUR], P) * N_STRAT_COLS + S_KIND] == STRAT_SEARCH:
            ws[G_FORCED] = search_choice(st, ws, sc, fs, st2, stats, P)
        else:
            ws[G_FORCED] = playout_choice(st, ws, sc, fs, st2, P, debug)
    finish(ws)
    if debug:
        check_invariants(ws, P)


# =================================================================================================
# Outputs (MV-7 ranks and win shares, MV-9 records)
# =================================================================================================
# Column j of out_i16 (write_outputs), derived from the spec's player columns (MV-9) in the spec's
# order, every one but ``win_share`` (float32, its own array): score, rank, guilds, hand, the
# founded block of 13 (rules.CARD_TYPES order) and the powers block of the 12 types with a power
# (rules.POWER_TYPES: not the Bouffon). The positions are compile-time constants of write_outputs;
# the assertions keep each block contiguous as the kernel writes it.
PLAYER_COLS = tuple(c.name for c in SPEC.player_columns if c.name != "win_share")
N_PLAYER_COLS = len(PLAYER_COLS)
C_SCORE, C_RANK, C_GUILDS, C_HAND = (PLAYER_COLS.index(c) for c in ("score", "rank", "guilds", "hand"))
C_FOUNDED = PLAYER_COLS.index(f"founded_{CARD_TYPES[0]}")
C_POWERS = PLAYER_COLS.index(f"powers_{CARD_TYPES[0]}")
assert PLAYER_COLS[C_FOUNDED:C_FOUNDED + N_TYPES] == tuple(f"founded_{t}" for t in CARD_TYPES)
assert PLAYER_COLS[C_POWERS:] == tuple(f"powers_{CARD_TYPES[t]}" for t in POWER_TYPES)
N_POWERS = len(POWER_TYPES)
assert N_PLAYER_COLS == 4 + N_TYPES + N_POWERS
GAME_COLS = ("turns", "end_reason", "reshuffles", "error")     # the columns of out_game


@njit(cache=True, _nrt=False)
def write_outputs(ws, P, g, out_i16, out_win, out_game):
    """MV-7 win shares and ranks and the MV-9 records of game row g (columns: PLAYER_COLS)."""
    reason = ws[G_OVER] - 1
    w = ws[G_WINNER]
    n_best = 0
    for p in range(P):
        better = 0
        for q in range(P):
            if q != p and q != w and compare_keys(ws, q, p) > 0:
                better += 1
        row = g * P + p
        if reason == THIRD_GUILD:
            out_i16[row, C_RANK] = 1 if p == w else 2 + better
        else:
            out_i16[row, C_RANK] = 1 + better
            if better == 0:
                n_best += 1
    for p in range(P):
        row = g * P + p
        if reason == THIRD_GUILD:
            out_win[row] = 1.0 if p == w else 0.0
        else:
            out_win[row] = (1.0 / n_best) if out_i16[row, C_RANK] == 1 else 0.0
        out_i16[row, C_SCORE] = guild_cards(ws, p)
        out_i16[row, C_GUILDS] = ws[W_PL + p * PLS + X_NG]
        out_i16[row, C_HAND] = ws[W_PL + p * PLS + X_HANDN]
        for t in range(N_TYPES):
            out_i16[row, C_FOUNDED + t] = ws[W_FOUNDED + p * TS + t]
        for j in range(N_POWERS):
            out_i16[row, C_POWERS + j] = ws[W_POWERS + p * TS + POWER_TYPES[j]]
    out_game[g, 0] = ws[G_TURNS]
    out_game[g, 1] = reason
    out_game[g, 2] = ws[G_RESHUF]
    out_game[g, 3] = ws[G_ERROR]


# =================================================================================================
# Many games (the Python entry points)
# =================================================================================================
@njit(cache=True, inline="always", _nrt=False)
def start_game(st, ws, first_game, g, seed, n_rot):
    """Reset the workspace for game ``first_game + g``: deal ``game // n_rot``'s stream, rotation
    ``game % n_rot``."""
    reset(ws)
    game = first_game + g
    ws[G_ROT] = game % n_rot
    st[0] = stream_state(seed, game // n_rot)


@njit(cache=True, inline="always", _nrt=False)
def copy_trace(ws, g, trace):
    for i in range(min(2 * ws[G_TRACE_N], trace.shape[1])):
        trace[g, i] = ws[W_TRACE + i]


@njit(cache=True, inline="always", _nrt=False)
def play_to_end(st, ws, fs, P, debug):
    """One game from setup to the end (MV-2 … MV-7) for a line-up without a playout or search
    seat: :func:`play_one` without its stops (``G_STOP = 0``), the same decisions."""
    setup_game(st, ws, P)
    ws[G_STOP] = 0
    ws[G_LIMIT] = 1 << 40
    ws[G_FORCED] = -1
    play_turns(st, ws, fs, P, debug)
    finish(ws)
    if debug:
        check_invariants(ws, P)


@njit(cache=True, nogil=True)
def play_games(g0, g1, first_game, seed, P, rk, strat, n_rot, debug, out_i16, out_win, out_game,
               trace):
    """Play games ``first_game + g0 … first_game + g1 - 1`` of a chunk on one set of workspaces,
    into rows ``g0 … g1 - 1`` of the outputs (jit-compiled by Numba, releases the GIL:
    :func:`play_chunk` runs blocks of a chunk on several threads). For line-ups without a
    ``playout`` (planner) or ``search`` seat (:func:`play_games_searching` plays the others): this
    one never compiles the playout bot nor the search, so the first run of the usual bots
    compiles less (cold, the default line-up: see docs/testing.md).

    Parameters
    ----------
    g0, g1 : int
        The block: games ``g0 … g1 - 1`` of the chunk (output rows).
    first_game, seed : int
        Game ``i = first_game + g`` is deal ``i // n_rot`` in rotation ``i % n_rot``; its stream is
        ``stream_state(seed, deal)``, so the rotations of a deal share every shuffle.
    P : int
        Players, 2-5.
    rk : int64[R_SIZE]
        Rules vector from :func:`pack_rules`.
    strat : float64[P, N_STRAT_COLS]
        One strategy row per seat (column 0 = kind).
    n_rot : int
        1, or P for seat rotation: in rotation k, seat s is played by strategy row (s + k) % P.
    debug : bool
        Check the invariants after every turn and at the end (error codes 10+).
    out_i16 : int16[n_games * P, N_PLAYER_COLS]; out_win : float32[n_games * P];
    out_game : int16[n_games, 4] (GAME_COLS: turns, end reason, reshuffles, error)
    trace : int16[n_games, 2 * MAX_TRACE] or int16[1, 0]
        Decision trace (n_options, choice pairs) per game, or nothing when the width is 0.
    """
    play_block(g0, g1, first_game, seed, P, rk, strat, n_rot, debug, out_i16, out_win, out_game, trace)


@njit(cache=True, nogil=True)
def play_games_searching(g0, g1, first_game, seed, P, rk, strat, n_rot, debug, out_i16, out_win,
                         out_game, trace):
    """:func:`play_games` for line-ups with a ``playout`` (planner) or ``search`` seat: every
    game through :func:`play_one`, which stops at such a seat's action for its bot."""
    play_block_searching(g0, g1, first_game, seed, P, rk, strat, n_rot, debug, out_i16, out_win,
                         out_game, trace)


# Four players, the default count, get entry points of their own that pass the count as a
# constant: the rules of play and the bots are compiled for it (``play_turns``, ``decide`` and
# ``power_value`` keep a constant count: ``njit_on_demand(literal=("P",))``; the other helpers are
# specialised on constants as Numba does), so LLVM folds the loops over seats and the seat
# arithmetic. Other counts share the entries compiled for any count. As in Middle-Ages
# (docs/middle_ages_engine.md, "Compiled variants").
@njit(cache=True, nogil=True)
def play_games_4p(g0, g1, first_game, seed, P, rk, strat, n_rot, debug, out_i16, out_win, out_game,
                  trace):
    """:func:`play_games` for 4 players (``P`` must be 4), the count a compile-time constant."""
    play_block(g0, g1, first_game, seed, 4, rk, strat, n_rot, debug, out_i16, out_win, out_game, trace)


@njit(cache=True, nogil=True)
def play_games_searching_4p(g0, g1, first_game, seed, P, rk, strat, n_rot, debug, out_i16, out_win,
                            out_game, trace):
    """:func:`play_games_searching` for 4 players (``P`` must be 4), the count a constant."""
    play_block_searching(g0, g1, first_game, seed, 4, rk, strat, n_rot, debug, out_i16, out_win,
                         out_game, trace)


@njit(cache=True, inline="always", _nrt=False)
def play_block(g0, g1, first_game, seed, P, rk, strat, n_rot, debug, out_i16, out_win, out_game, trace):
    """The games of one block, without a planner or search seat (:func:`play_games`)."""
    record = trace.shape[1] > 0
    st = np.zeros(1, np.uint64)
    ws = np.zeros(WS_SIZE, np.int64)
    sc = np.zeros(WS_SIZE, np.int64)
    fs = np.zeros(FS_SIZE, np.float64)
    load_block(ws, sc, fs, rk, strat)
    for g in range(g0, g1):
        start_game(st, ws, first_game, g, seed, n_rot)
        play_to_end(st, ws, fs, P, debug)
        write_outputs(ws, P, g, out_i16, out_win, out_game)
        if record:
            copy_trace(ws, g, trace)


@njit(cache=True, inline="always", _nrt=False)
def play_block_searching(g0, g1, first_game, seed, P, rk, strat, n_rot, debug, out_i16, out_win,
                         out_game, trace):
    """The games of one block with a planner or search seat (:func:`play_games_searching`)."""
    record = trace.shape[1] > 0
    st = np.zeros(1, np.uint64)
    st2 = np.zeros(1, np.uint64)
    ws = np.zeros(WS_SIZE, np.int64)
    sc = np.zeros(WS_SIZE, np.int64)
    fs = np.zeros(FS_SIZE, np.float64)
    stats = np.zeros(2 * MAX_OPTIONS, np.float64)
    load_block(ws, sc, fs, rk, strat)
    for g in range(g0, g1):
        start_game(st, ws, first_game, g, seed, n_rot)
        play_one(st, ws, sc, fs, st2, P, debug, stats)
        write_outputs(ws, P, g, out_i16, out_win, out_game)
        if record:
            copy_trace(ws, g, trace)


def entry_point(strat, P: int | None = None):
    """The jitted entry point that plays the line-up of strategy rows ``strat``:
    :func:`play_games_searching` when a row plays ``playout`` (planner) or ``search``, else
    :func:`play_games` (which never compiles those bots); for ``P`` = 4 players, their 4-player
    entries (:func:`play_games_4p`, :func:`play_games_searching_4p`)."""
    searching = bool(np.any(strat[:, S_KIND] >= STRAT_PLAYOUT))
    if P == 4:
        return play_games_searching_4p if searching else play_games_4p
    return play_games_searching if searching else play_games


def play_chunk(first_game, n_games, seed, P, rk, strat, n_rot, debug, out_i16, out_win, out_game,
               trace) -> None:
    """Play games ``first_game … first_game + n_games - 1``: blocks of :func:`play_games` (or
    :func:`play_games_searching` when a seat plays ``playout`` or ``search``) on Numba's thread
    count of threads (:func:`simcore.blocks.play_blocks`); arguments as there."""
    play_blocks(entry_point(strat, int(P)), int(n_games), np.int64(first_game), np.uint64(seed), np.int64(P), rk,
                strat, np.int64(n_rot), bool(debug), out_i16, out_win, out_game, trace)


def new_workspace(rules, strat=None) -> tuple[np.ndarray, np.ndarray]:
    """A reset (ws, fs) pair loaded with ``rules`` and strategy rows (tests, position studies)."""
    rk = pack_rules(rules)
    if strat is None:
        strat = random_strategies(MAXP)
    ws = np.zeros(WS_SIZE, np.int64)
    sc = np.zeros(WS_SIZE, np.int64)
    fs = np.zeros(FS_SIZE, np.float64)
    load_block(ws, sc, fs, rk, np.ascontiguousarray(strat, np.float64))
    reset(ws)
    return ws, fs


def random_strategies(n_players: int) -> np.ndarray:
    """Strategy rows for ``random`` at every seat."""
    return np.zeros((n_players, N_STRAT_COLS), np.float64)


def run_chunk(rules, n_players: int, first_game: int, n_games: int, seed: int, strat=None, *,
              debug: bool = False, trace_decisions: bool = False, rk=None,
              rotate: bool = False) -> dict:
    """Allocate outputs, call :func:`play_chunk`, return named arrays (the Python entry point).

    Player arrays (``n_games * n_players`` rows, game-major then seat): ``score`` int32,
    ``win_share`` float32, ``rank`` int8, ``guilds`` int8, ``hand`` int16, ``founded`` int8
    (rows x 13), ``powers`` int16 (rows x 13). Game arrays: ``turns`` int16, ``end_reason`` int8,
    ``reshuffles`` int8, ``error`` int16, and with ``trace_decisions`` a list of
    (n_options, choice) pairs per game in ``trace``.
    """
    P = int(n_players)
    if strat is None:
        strat = random_strategies(P)
    if rk is None:
        rk = pack_rules(rules)
    rows = n_games * P
    out_i16 = np.empty((rows, N_PLAYER_COLS), np.int16)
    out_win = np.empty(rows, np.float32)
    out_game = np.empty((n_games, 4), np.int16)
    trace = np.full((n_games, 2 * MAX_TRACE) if trace_decisions else (1, 0), -1, np.int16)
    play_chunk(np.int64(first_game), np.int64(n_games), np.uint64(seed), np.int64(P), rk,
               np.ascontiguousarray(strat, np.float64), np.int64(P if rotate else 1), bool(debug),
               out_i16, out_win, out_game, trace)
    powers = np.zeros((rows, N_TYPES), np.int16)     # by card type; the Bouffon has none (MV-5)
    powers[:, list(POWER_TYPES)] = out_i16[:, C_POWERS:C_POWERS + N_POWERS]
    out = dict(
        score=out_i16[:, C_SCORE].astype(np.int32), win_share=out_win,
        rank=out_i16[:, C_RANK].astype(np.int8),
        guilds=out_i16[:, C_GUILDS].astype(np.int8), hand=out_i16[:, C_HAND].copy(),
        founded=out_i16[:, C_FOUNDED:C_FOUNDED + N_TYPES].astype(np.int8),
        powers=powers,
        turns=out_game[:, 0].copy(), end_reason=out_game[:, 1].astype(np.int8),
        reshuffles=out_game[:, 2].astype(np.int8), error=out_game[:, 3].copy(),
    )
    if trace_decisions:
        out["trace"] = [[(int(row[2 * i]), int(row[2 * i + 1])) for i in range(MAX_TRACE)
                         if row[2 * i] >= 0] for row in trace]
    return out
