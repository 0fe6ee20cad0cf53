"""Pig's rules of play, jit-compiled by Numba: one game per prange iteration, each with its own
stream (seed, game) and its own workspace; every decision spends exactly one draw (PG-5).
May import numpy, numba, :mod:`simcore.rng` and this game's bots."""

import numpy as np
from numba import njit, prange

from simcore.rng import below, stream_state

from .bots import HOLD, decide


@njit(cache=True)
def play_game(st, P, params, strat, ws, trace):
    """PG-1 … PG-4 into ``ws`` [4, P]: score, rolls, busts, best turn; returns (turns, end reason,
    decisions). ``trace`` (if long enough) gets (2, choice) per decision."""
    target, max_turns = params[0], params[1]
    ws[:, :] = 0
    turns, n_dec = 0, 0
    while turns < max_turns:
        seat = turns % P
        turns += 1
        total = 0
        while True:
            c = decide(st, strat[seat], total, ws[0, seat], target)
            if 2 * n_dec + 1 < trace.shape[0]:
                trace[2 * n_dec], trace[2 * n_dec + 1] = 2, c
            n_dec += 1
            if c == HOLD:
                ws[0, seat] += total
                ws[3, seat] = max(ws[3, seat], total)
                break
            die = 1 + below(st, 6)
            ws[1, seat] += 1
            if die == 1:
                ws[2, seat] += 1
                break
            total += die
        if ws[0, seat] >= target:
            return turns, 0, n_dec
    return turns, 1, n_dec


@njit(cache=True, parallel=True)
def play_chunk(first, n, seed, P, params, strat, out, turns, reason, trace):
    """Games first … first+n-1 into ``out`` [4, n*P] (int16), ``turns``, ``reason``; ``trace``
    [n, cap] records the decisions when cap > 0 (-1 ends a game's trace)."""
    for g in prange(n):
        st = np.zeros(1, np.uint64)
        st[0] = stream_state(seed, first + g)
        ws = np.zeros((4, P), np.int64)
        t, r, k = play_game(st, P, params, strat, ws, trace[g])
        if 2 * k < trace.shape[1]:
            trace[g, 2 * k] = -1
        for i in range(4):
            for s in range(P):
                out[i, g * P + s] = ws[i, s]
        turns[g], reason[g] = t, r
