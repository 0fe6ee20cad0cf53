"""Seigneurial driver, what the adapter ``game.py`` calls: :func:`pack_rules` (rules -> the rules
vector), :func:`run_chunk` (allocates the outputs, runs :func:`play_chunk` -- blocks of games on
threads (:mod:`simcore.blocks`), each block allocating its workspaces once -- and returns named
arrays) and the
writing of the SG-6 win shares and ranks and the SG-8 records (:func:`write_outputs`). A game's
stream depends only on (seed, game index), so results are identical whatever the thread count or
chunk size. May import numpy, numba, :mod:`simcore.rng`, :mod:`simcore.blocks`, the layout, the constants of the rules
module and the engine modules (bots, kernel); only callers (``game.py``, tests, benchmarks) import it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcore.games.seigneurial.kernel import (
    check_invariants, play_game, play_turns, progress_percent, reset, setup_game,
)
from simcore.games.seigneurial.search import search_choice
from simcore.search import MAX_OPTIONS
from simcore.games.seigneurial.layout import (
    FS_SIZE, F_STRAT, G_ERROR, G_FORCED, G_IMPROVE_TURN, G_OVER, G_SQUARE, G_STOP, G_TRACE_CAP,
    G_TRACE_N, G_TURN, G_WINNER, KIND_SEARCH, S_KIND, MAX_TRACE, N_STRAT_COLS, PLS, R_CCC, R_EFFECTS, R_NOBJ, R_OBJ, R_PARAMS, R_PAY_ORDER, R_RESC, R_SCC, R_SIZE,
    W_PL, W_RULES, W_TRACE, X_FAV_EARNED, X_OBJ, X_PAID, X_RES, X_SEIZED, X_TURNS_SICK,
)
from simcore.games.seigneurial.rules import MAX_PLAYERS, N_PARAMS, N_RES, N_VALUES
from simcore.blocks import play_blocks
from simcore.rng import stream_state


def pack_rules(rules) -> np.ndarray:
    """RulesArrays -> the flat int64 rules vector ``rk`` the kernel reads."""
    rk = np.zeros(R_SIZE, np.int64)
    rk[R_RESC:R_RESC + N_RES * N_VALUES] = rules.resource_counts.reshape(-1)
    rk[R_CCC:R_CCC + 3] = rules.censitaire_counts
    rk[R_SCC:R_SCC + 2] = rules.seigneur_counts
    rk[R_PAY_ORDER] = rules.pay_order
    rk[R_NOBJ] = rules.objectives.shape[0]
    rk[R_PARAMS:R_PARAMS + N_PARAMS] = rules.params
    rk[R_OBJ:R_OBJ + rules.objectives.size] = rules.objectives.reshape(-1)
    rk[R_EFFECTS:R_EFFECTS + len(rules.card_effects)] = rules.card_effects
    return rk


@njit(cache=True, _nrt=False)
def load_block(ws, fs, rk, strat):
    """Once per block: the rules into ws, the strategy rows into fs."""
    for i in range(R_SIZE):
        ws[W_RULES + i] = rk[i]
    for r in range(strat.shape[0]):
        for c in range(N_STRAT_COLS):
            fs[F_STRAT + r * N_STRAT_COLS + c] = strat[r, c]


# =================================================================================================
# Outputs (SG-6 win shares and ranks, SG-8 records)
# =================================================================================================
PLAYER_COLS = ("score", "rank", "grain", "wood", "fish", "favour", "turns_sick", "objective",
               "paid", "seized")            # the columns of out_i16
GAME_COLS = ("turns", "end_reason", "winning_seat", "seigneur_square", "improvement_turn", "error")


@njit(cache=True, _nrt=False)
def write_outputs(ws, P, g, out_i16, out_win, out_game):
    """SG-6 win shares (the winner 1; truncated: the Censitaires 1/C each) and ranks by (win share,
    score); the SG-8 records of game row g (columns: PLAYER_COLS, GAME_COLS)."""
    w = ws[G_WINNER]
    for p in range(P):
        row = g * P + p
        if w >= 0:
            out_win[row] = 1.0 if p == w else 0.0
        else:
            out_win[row] = 0.0 if p == 0 else 1.0 / (P - 1)
        out_i16[row, 0] = progress_percent(ws, P, p)
        b = W_PL + p * PLS
        for t in range(N_RES):
            out_i16[row, 2 + t] = ws[b + X_RES + t] if p > 0 else 0
        out_i16[row, 5] = ws[b + X_FAV_EARNED]
        out_i16[row, 6] = ws[b + X_TURNS_SICK]
        out_i16[row, 7] = ws[b + X_OBJ] if p > 0 else -1
        out_i16[row, 8] = ws[b + X_PAID]
        out_i16[row, 9] = ws[b + X_SEIZED]
    for p in range(P):
        r = 1
        a = g * P + p
        for q in range(P):
            c = g * P + q
            if out_win[c] > out_win[a] or (out_win[c] == out_win[a] and out_i16[c, 0] > out_i16[a, 0]):
                r += 1
        out_i16[a, 1] = r
    out_game[g, 0] = ws[G_TURN]
    out_game[g, 1] = ws[G_OVER] - 1
    out_game[g, 2] = w
    out_game[g, 3] = ws[G_SQUARE]
    out_game[g, 4] = ws[G_IMPROVE_TURN]
    out_game[g, 5] = ws[G_ERROR]


@njit(cache=True, nogil=True)
def play_games(g0, g1, first_game, seed, P, rk, strat, debug, out_i16, out_win, out_game, trace):
    """Play games ``first_game + g0 … first_game + g1 - 1`` of a chunk on one workspace, into rows
    ``g0 … g1 - 1`` of the outputs (jit-compiled by Numba, releases the GIL: :func:`play_chunk`
    runs blocks of a chunk on several threads). Game ``i`` draws from ``stream_state(seed, i)``.

    rk : int64[R_SIZE] from :func:`pack_rules`; strat : float64[P, N_STRAT_COLS] one row per seat;
    debug : check the invariants after setup and every turn (error codes 10+);
    out_i16 : int16[n_games * P, len(PLAYER_COLS)]; out_win : float32[n_games * P];
    out_game : int16[n_games, len(GAME_COLS)]; trace : int16[n_games, 2 * MAX_TRACE] or int16[1, 0]
    (decision trace, (n_options, choice) pairs, recorded when its width is not 0).
    """
    cap = trace.shape[1] // 2
    st = np.zeros(1, np.uint64)
    ws = np.zeros(W_TRACE + 2 * cap, np.int64)
    fs = np.zeros(FS_SIZE, np.float64)
    load_block(ws, fs, rk, strat)
    for g in range(g0, g1):
        reset(ws)
        ws[G_TRACE_CAP] = cap
        st[0] = stream_state(seed, first_game + g)
        play_game(st, ws, fs, P, debug)
        write_outputs(ws, P, g, out_i16, out_win, out_game)
        for i in range(2 * ws[G_TRACE_N]):
            trace[g, i] = ws[W_TRACE + i]


@njit(cache=True, nogil=True)
def play_games_search(g0, g1, first_game, seed, P, rk, strat, debug, out_i16, out_win, out_game,
                      trace):
    """:func:`play_games` for line-ups with a ``search`` seat: each game through
    :func:`.kernel.play_turns` with ws[G_STOP] = 1, which stops at every decision of a searching
    seat with two or more options for :func:`.search.search_choice` (same streams, same outputs)."""
    cap = trace.shape[1] // 2
    st = np.zeros(1, np.uint64)
    st2 = np.zeros(1, np.uint64)
    ws = np.zeros(W_TRACE + 2 * cap, np.int64)
    sc = np.zeros(2 * W_TRACE, np.int64)          # a playout's position, its world
    fs = np.zeros(FS_SIZE, np.float64)
    stats = np.zeros(2 * MAX_OPTIONS, np.float64)
    load_block(ws, fs, rk, strat)
    for i in range(W_TRACE):
        sc[i] = ws[i]
    for g in range(g0, g1):
        reset(ws)
        ws[G_TRACE_CAP] = cap
        st[0] = stream_state(seed, first_game + g)
        setup_game(st, ws, P)
        if debug:
            check_invariants(ws, P)
        ws[G_STOP] = 1
        while play_turns(st, ws, fs, P, debug) == 1:
            ws[G_FORCED] = search_choice(st, ws, sc, fs, st2, stats, P)
        write_outputs(ws, P, g, out_i16, out_win, out_game)
        for i in range(2 * ws[G_TRACE_N]):
            trace[g, i] = ws[W_TRACE + i]


# Blocks of games on a thread pool (simcore.blocks), not a ``parallel=True`` prange: Numba compiles
# a parfor as three more layers (body, gufunc wrapper, launcher) and links, optimises and emits
# the whole rules of play again in each (~9 s CPU of a cold compile of the plain line-ups).
def play_chunk(first_game, n_games, seed, P, rk, strat, debug, out_i16, out_win, out_game,
               trace) -> None:
    """Play games ``first_game … first_game + n_games - 1``: blocks of :func:`play_games` on
    Numba's thread count of threads (:func:`simcore.blocks.play_blocks`); arguments as there."""
    play_blocks(play_games, int(n_games), np.int64(first_game), np.uint64(seed), np.int64(P), rk,
                strat, bool(debug), out_i16, out_win, out_game, trace)


def play_chunk_search(first_game, n_games, seed, P, rk, strat, debug, out_i16, out_win, out_game,
                      trace) -> None:
    """:func:`play_chunk` for line-ups with a ``search`` seat (:func:`play_games_search`)."""
    play_blocks(play_games_search, int(n_games), np.int64(first_game), np.uint64(seed),
                np.int64(P), rk, strat, bool(debug), out_i16, out_win, out_game, trace)


def random_strategies(n_players: int) -> np.ndarray:
    """Strategy rows for ``random`` at every seat."""
    return np.zeros((n_players, N_STRAT_COLS), np.float64)


def new_workspace(rules, strat=None, n_players: int = MAX_PLAYERS) -> tuple[np.ndarray, np.ndarray]:
    """A reset (ws, fs) pair loaded with ``rules`` and strategy rows (tests)."""
    _cap = MAX_TRACE
    if strat is None:
        strat = random_strategies(n_players)
    ws = np.zeros(W_TRACE + 2 * _cap, np.int64)
    fs = np.zeros(FS_SIZE, np.float64)
    load_block(ws, fs, pack_rules(rules), np.ascontiguousarray(strat, np.float64))
    reset(ws)
    ws[G_TRACE_CAP] = _cap
    return ws, fs


def run_chunk(rules, n_players: int, first_game: int, n_games: int, seed: int, strat=None, *,
              debug: bool = False, trace_decisions: bool = False, rk=None) -> dict:
    """Allocate outputs, call :func:`play_chunk`, return named arrays (the Python entry point).

    Player arrays (``n_games * n_players`` rows, game-major then seat): ``score``, ``rank`` (int16),
    ``resources`` int16 (rows x 3), ``favour``, ``turns_sick``, ``objective``, ``paid``,
    ``seized``, ``win_share`` float32. Game arrays (int16): ``turns``, ``end_reason``,
    ``winning_seat``, ``seigneur_square``, ``improvement_turn``, ``error``; with
    ``trace_decisions`` a list of (n_options, choice) pairs per game in ``trace``.
    """
    P = int(n_players)
    if strat is None:
        strat = random_strategies(P)
    if rk is None:
        rk = pack_rules(rules)
    rows = n_games * P
    out_i16 = np.empty((rows, len(PLAYER_COLS)), np.int16)
    out_win = np.empty(rows, np.float32)
    out_game = np.empty((n_games, len(GAME_COLS)), np.int16)
    trace = np.full((n_games, 2 * MAX_TRACE) if trace_decisions else (1, 0), -1, np.int16)
    strat = np.ascontiguousarray(strat, np.float64)
    play = play_chunk_search if bool(np.any(strat[:P, S_KIND] == KIND_SEARCH)) else play_chunk
    play(np.int64(first_game), np.int64(n_games), np.uint64(seed), np.int64(P), rk, strat,
         bool(debug), out_i16, out_win, out_game, trace)
    out = {c: out_i16[:, j].copy() for j, c in enumerate(PLAYER_COLS) if c not in ("grain", "wood", "fish")}
    out["resources"] = out_i16[:, 2:5].copy()
    out["win_share"] = out_win
    out.update({c: out_game[:, j].copy() for j, c in enumerate(GAME_COLS)})
    if trace_decisions:
        pairs = trace.reshape(n_games, MAX_TRACE, 2)
        out["trace"] = [list(map(tuple, g[g[:, 0] >= 0].tolist())) for g in pairs]
    return out
