"""Médiévallons search hooks (the game contract's ``search`` field): what the game-independent
search bot (:mod:`simcore.search`) needs to judge the action (MV-3) of a seat played by ``kind =
"search"``.

The rules of play (:func:`.kernel.play_turns`) stop at the start of such a seat's turn (the
actions listed in W_OPTS, their count in G_NOPT; the stop the ``playout`` bot uses) and resume
with ws[G_FORCED] = j. :func:`search_choice` picks j with the loop of :mod:`simcore.search` and
these hooks:

- copy a state: the per-game part of the workspace (everything before W_TRACE; ``fs``, the rules
  and strategy table, is shared);
- re-deal what the seat cannot see (MV-8): the opponents' hands and the draw pile, dealt anew from
  the cards the seat has not seen, keeping in each hand the cards it has seen there and every hand's
  size (:func:`.playout.determinize`, which pools the hidden cards as counts per type, so the deal
  does not depend on how the hidden cards really lie);
- apply an option and play on: ``play_turns`` with ws[G_FORCED] = j to the end of the game, every
  seat on its own bot, a searching seat on its playout policy (its row's kind is switched to the
  policy's for the duration of the search);
- the result: the seat's MV-7 win share.

May import numba, :mod:`simcore.rng`, :mod:`simcore.search` and this game's layout, bots, kernel
and playout modules; the driver imports it.
"""

from __future__ import annotations

from numba import njit

from simcore.games.medievallons.bots import strat_row
from simcore.games.medievallons.kernel import play_turns
from simcore.games.medievallons.layout import (
    F_STRAT, G_CUR, G_ERROR, G_FORCED, G_LIMIT, G_NOPT, G_OVER, G_SELF_ROW, G_STOP, G_TRACE_N, G_TURNS,
    MAX_TRACE,
    N_STRAT_COLS, STRAT_SEARCH, S_KIND, S_SEARCH, W_TRACE,
)
from simcore.games.medievallons.playout import determinize, position_value
from simcore.rng import next_u64
from simcore.search import (
    MAX_OPTIONS, best_mean, next_playout, plan, play_key, record, rows_play_policy,
    horizon, rows_search_again, settings, world_key,
)


@njit(cache=True, _nrt=False)
def playout(ws, sc, fs, st2, P, seat, j, world, play, depth):
    """One playout of action j (see the module docstring), ``depth`` turns deep (MV-3 turns, one
    seat's each; 0: to the end)."""
    for i in range(W_TRACE):
        sc[i] = ws[i]
    sc[G_TRACE_N] = MAX_TRACE           # playouts record nothing
    sc[G_SELF_ROW] = -1                 # every seat on its own row
    st2[0] = world
    determinize(st2, sc, P, seat)
    st2[0] = play
    sc[G_STOP] = 0
    sc[G_FORCED] = j
    sc[G_LIMIT] = sc[G_TURNS] + depth if depth > 0 else 1 << 40
    play_turns(st2, sc, fs, P, False)
    if sc[G_ERROR] != 0:
        ws[G_ERROR] = sc[G_ERROR]
    v = position_value(sc, fs, P, seat)   # +10 / k for a k-way win, -10 for a loss
    if sc[G_OVER] == 0:                   # at the horizon: the standing against the best
        return min(max((v + 10.0) / 20.0, 0.0), 1.0)   # opponent, on the playout bot's scale
    return v / 10.0 if v > 0 else 0.0


@njit(cache=True, _nrt=False)
def search_choice(st, ws, sc, fs, st2, stats, P):
    """The searching seat's action: one draw of the game's stream keys every playout."""
    p = ws[G_CUR]
    row = strat_row(ws, p, P)
    sb = F_STRAT + row * N_STRAT_COLS
    playouts, budget, select, _ = settings(fs[sb:sb + N_STRAT_COLS], S_SEARCH)
    depth = horizon(fs[sb:sb + N_STRAT_COLS], S_SEARCH)
    base = next_u64(st)
    n = min(ws[G_NOPT], MAX_OPTIONS)
    if n <= 1:
        return 0
    # searching seats play their policy in playouts (fs is shared with the game: marked, restored)
    rows_play_policy(fs, F_STRAT, P, N_STRAT_COLS, S_KIND, S_SEARCH, STRAT_SEARCH, True)
    total = plan(stats, n, playouts, budget)
    spent = 0
    while True:
        j, r = next_playout(stats, n, total, spent, select)
        if j < 0:
            break
        record(stats, j, playout(ws, sc, fs, st2, P, p, j, world_key(base, r), play_key(base, j, r),
                                  depth))
        spent += 1
    rows_search_again(fs, F_STRAT, P, N_STRAT_COLS, S_KIND, S_SEARCH, STRAT_SEARCH)
    return best_mean(stats, n)
