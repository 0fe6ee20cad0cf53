"""Middle-Ages search hooks (the game contract's ``search`` field): what the game-independent search
bot (:mod:`simcore.search`) needs to judge a Lord move (MA-4.3a) of a seat played by ``kind =
"search"``.

The kernel's :func:`.kernel.advance` stops at such a move (the position saved, the legal moves in
W_OPTS, their count in G_NOPT; the same stop the ``rollout`` bot uses) and resumes with ``forced =
j``; :func:`search_choice` picks ``j`` with the loop of :mod:`simcore.search` and the hooks below:

- copy a state: the per-game part of the workspace (everything before W_TRACE; the rules and the
  strategy rows at the end of the scratch workspace are copied once per block, with every searching
  seat's row switched to its playout policy by :func:`policy_rows`);
- re-deal what the seat cannot see (:func:`redeal`): the order of the face-down draw pile and of
  the orange stack (MA-3, MA-7). Which tiles they hold is known to every player (every other tile is
  on the board, in a Fief, a Graveyard or the face-up discard), and so are the Event cards (laid face
  up in their firing order, MA-3): the tiles left are put in a canonical order (sorted), then
  shuffled from the playout's world stream, so the result does not depend on the true order;
- apply an option and play on: ``advance(sc, P, False, j, True)`` with every seat on its own bot (a
  searching seat on its policy);
- the result: the seat's MA-9 win share (1, 1/k for a k-way tie, 0).

May import numpy, numba, :mod:`simcore.rng`, :mod:`simcore.search` and this game's layout, bots and
kernel; the driver imports it (never the other way round).
"""

from __future__ import annotations

import numpy as np
from numpy import uint64 as U
from numba import njit

from simcore.games.middle_ages.bots import strat_row, views
from simcore.games.middle_ages.kernel import advance, beats
from simcore.games.middle_ages.layout import (
    G_INDEX, G_NOPT, G_ORANGE_LEFT, G_PILE_LEN, G_PILE_POS, G_RNG, G_TRACE_N, MAX_TRACE,
    N_STRAT_COLS, S_KIND, STRAT_SEARCH, S_SEARCH, W_ORANGE, W_ORDER, W_PILE, W_STRAT, W_TRACE,
)
from simcore.rng import next_u64, shuffle_range
from simcore.search import (
    MAX_OPTIONS, best_mean, next_playout, plan, play_key, record, rows_play_policy, settings,
    world_key,
)


@njit(cache=True, _nrt=False)
def policy_rows(scratch, P):
    """In the scratch workspace's strategy rows, a searching seat plays its playout policy."""
    rows_play_policy(scratch.view(np.float64), W_STRAT, P, N_STRAT_COLS, S_KIND, S_SEARCH,
                     STRAT_SEARCH, False)


@njit(cache=True, inline="always", _nrt=False)
def sort_range(ws, start, n):
    for i in range(1, n):
        v = ws[U(start + i)]
        j = i
        while j > 0 and ws[U(start + j - 1)] > v:
            ws[U(start + j)] = ws[U(start + j - 1)]
            j -= 1
        ws[U(start + j)] = v


@njit(cache=True, _nrt=False)
def redeal(sc):
    """Re-deal what no player can see (MA-7): the order of the rest of the draw pile and of the
    orange stack, canonical first (sorted), then shuffled from the workspace's stream."""
    st, _, _ = views(sc)
    pos = sc[U(G_PILE_POS)]
    n = sc[U(G_PILE_LEN)] - pos
    sort_range(sc, W_PILE + pos, n)
    shuffle_range(st, sc, W_PILE + pos, n)
    no = sc[U(G_ORANGE_LEFT)]
    if no > 0:
        sort_range(sc, W_ORANGE, no)
        shuffle_range(st, sc, W_ORANGE, no)


@njit(cache=True, _nrt=False)
def win_share(ws, P, p):
    """MA-9: p's win share at the end of the game."""
    _, rk, _ = views(ws)
    winners = 0
    mine = True
    for q in range(P):
        better = 0
        for o in range(P):
            if o != q and beats(ws, rk, o, q) > 0:
                better += 1
        if better == 0:
            winners += 1
        elif q == p:
            mine = False
    return 1.0 / winners if mine else 0.0


@njit(cache=True, _nrt=False)
def playout(ws, sc, fs, st2, P, seat, j, world, play):
    """One playout of Lord move j (see the module docstring)."""
    for i in range(W_TRACE):
        sc[U(i)] = ws[U(i)]
    sc[U(G_TRACE_N)] = MAX_TRACE           # playouts record nothing
    stv = sc.view(np.uint64)
    stv[G_RNG] = world
    redeal(sc)
    stv[G_RNG] = play
    advance(sc, P, False, j, True)    # (`full` as play_one passes it: one compiled variant)
    return win_share(sc, P, seat)


@njit(cache=True, _nrt=False)
def search_choice(ws, sc, fs, stats, st2, P):
    """The searching seat's Lord move: one draw of the game's stream keys every playout."""
    st, _, strat = views(ws)
    p = ws[U(W_ORDER + ws[U(G_INDEX)])]
    row = strat_row(ws, p, P)
    playouts, budget, select, _ = settings(strat[row * N_STRAT_COLS:(row + 1) * N_STRAT_COLS],
                                           S_SEARCH)
    base = next_u64(st)
    n = min(ws[U(G_NOPT)], MAX_OPTIONS)
    total = plan(stats, n, playouts, budget)
    spent = 0
    while True:
        j, r = next_playout(stats, n, total, spent, select)
        if j < 0:
            break
        record(stats, j, playout(ws, sc, fs, st2, P, p, j, world_key(base, r), play_key(base, j, r)))
        spent += 1
    return best_mean(stats, n)
