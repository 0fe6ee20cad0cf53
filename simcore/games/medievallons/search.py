"""Médiévallons search hooks (the game contract's ``search`` field): what the game-independent
search bot (:mod:`simcore.search`) needs to judge the action (MV-3) of a seat played by ``kind =
"search"``.

The rules of play (:func:`.kernel.play_turns`) stop at the start of such a seat's turn (the
actions listed in W_OPTS, their count in G_NOPT; the stop the ``playout`` bot uses) and resume
with ws[G_FORCED] = j. :func:`search_choice` picks j with the loop of :mod:`simcore.search` and
these hooks:

- copy a state: the per-game part of the workspace (everything before W_RESET_END, and the discard
  pile; ``fs``, the rules and strategy table, is shared);
- re-deal what the seat cannot see (MV-8): the opponents' hands and the draw pile, dealt anew from
  the cards the seat has not seen, keeping in each hand the cards it has seen there and every hand's
  size (:func:`.playout.determinize`, which pools the hidden cards as counts per type, so the deal
  does not depend on how the hidden cards really lie);
- apply an option and play on: ``play_turns`` with ws[G_FORCED] = j to the end of the game, every
  seat on its own bot, a searching seat on its playout policy (its row's kind is switched to the
  policy's for the duration of the search);
- the result: the seat's MV-7 win share.

World r of a decision is the same for every option (common random numbers), so
:func:`search_choice` deals it once (:func:`deal_world`, kept in ``sc``'s trace region W_WORLD:
playouts record no trace) and each option's playout starts from a copy of it
(:func:`play_from_world`): ~1,000 words instead of the whole 2,472-word workspace and one
re-deal per world instead of one per playout. The streams are those of :func:`playout` (the
contract's hook: a world dealt and one option played), so the decisions are identical. A flat
search also skips the remaining playouts of an option that can no longer be chosen (its sum plus
its playouts left below the best sum so far; results lie in [0, 1]): the same choice with 6-12%
fewer playouts (see :func:`search_choice`; tests/medievallons/test_mv_search_pruning.py).

May import numba, :mod:`simcore.rng`, :mod:`simcore.search` and this game's layout, bots, kernel
and playout modules; the driver imports it.
"""

from __future__ import annotations

from numba import njit

from simcore.games.medievallons.bots import strat_row
from simcore.games.medievallons.kernel import play_turns
from simcore.games.medievallons.layout import (
    F_STRAT, G_CUR, G_DISC_N, G_ERROR, G_FORCED, G_LIMIT, G_NOPT, G_OVER, G_PILE_N, G_SELF_ROW,
    G_STOP, G_TRACE_N, G_TURNS, MAX_TRACE, N_STRAT_COLS, STRAT_SEARCH, S_KIND, S_SEARCH, W_BEST,
    W_DISC, W_OPTS, W_PILE, W_RESET_END, W_WORLD,
)
from simcore.games.medievallons.playout import determinize, position_value
from simcore.rng import next_u64
from simcore.search import (
    MAX_OPTIONS, SELECT_FLAT, best_mean, next_playout, plan, play_key, record, rows_play_policy,
    horizon, rows_search_again, settings, world_key,
)


@njit(cache=True, _nrt=False)
def deal_world(ws, sc, st2, P, seat, world):
    """World ``world`` of a decision: the position of ``ws`` in ``sc`` (its per-game part, the
    rules, the draw pile) with what ``seat`` cannot see dealt anew from that stream (MV-8), kept
    in sc[W_WORLD:] (the per-game part, then the dealt draw pile) for :func:`play_from_world`."""
    for i in range(W_OPTS):             # the per-game part and the rules (constant: copied once)
        sc[i] = ws[i]
    for i in range(ws[G_PILE_N]):
        sc[W_PILE + i] = ws[W_PILE + i]
    sc[G_TRACE_N] = MAX_TRACE           # playouts record nothing (the world lies over the trace)
    sc[G_SELF_ROW] = -1                 # every seat on its own row
    st2[0] = world
    determinize(st2, sc, P, seat)
    for i in range(W_RESET_END):
        sc[W_WORLD + i] = sc[i]
    for i in range(sc[G_PILE_N]):
        sc[W_WORLD + W_RESET_END + i] = sc[W_PILE + i]


# Inlined into search_choice (and the playout hook): see search_choice.
@njit(cache=True, inline="always", _nrt=False)
def play_from_world(ws, sc, fs, st2, P, seat, j, play, depth):
    """Action j played in the world :func:`deal_world` left in ``sc``, then the game played on from
    the stream ``play``, ``depth`` turns deep (0: to the end); the seat's result in [0, 1]."""
    for i in range(W_RESET_END):
        sc[i] = sc[W_WORLD + i]
    for i in range(sc[G_PILE_N]):
        sc[W_PILE + i] = sc[W_WORLD + W_RESET_END + i]
    for i in range(ws[G_DISC_N]):       # the discard pile: public, never re-dealt
        sc[W_DISC + i] = ws[W_DISC + i]
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
def playout(ws, sc, fs, st2, P, seat, j, world, play, depth):
    """One playout of action j (see the module docstring), ``depth`` turns deep (MV-3 turns, one
    seat's each; 0: to the end): the world dealt, the action played, the game played on."""
    deal_world(ws, sc, st2, P, seat, world)
    return play_from_world(ws, sc, fs, st2, P, seat, j, play, depth)


# Inlined (Numba IR) into its one caller: compiled apart, each jitted function that reaches the
# rules of play links, optimises and emits machine code for all of them again (Numba links a
# callee's whole module into its caller's): ~4-5 s CPU per cold compile each (docs/testing.md).
@njit(cache=True, inline="always", _nrt=False)
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
    dealt = -1                          # the world sc holds (flat: r = 0, 1, … in turn)
    # Flat search: an option that can no longer be chosen stops early. A playout's result lies in
    # [0, 1] (play_from_world) and every option gets `rounds` playouts, so option j's final sum is
    # at most its sum now + its playouts left, and the leader's at least its sum now (`lead`, the
    # largest sum so far: a dropped option never holds it). j is dropped when that bound falls
    # short of `lead` by 1e-9 per playout -- far above best_mean's tie tolerance and the rounding
    # of the sums -- so the choice is the full search's; the other options' playouts keep their
    # own streams and worlds. Measured at horizon 0: 12% fewer playouts, all of them bad options.
    flat = select == SELECT_FLAT
    rounds = total // n                 # flat: the playouts each option gets
    margin = 1e-9 * rounds
    lead = 0.0
    alive = n
    for j in range(n):
        ws[W_BEST + j] = 1              # still in the running (ws's scratch: playouts use sc)
    while True:
        j, r = next_playout(stats, n, total, spent, select)
        if j < 0:
            break
        spent += 1
        if flat:
            if ws[W_BEST + j] == 0:
                continue
            if r > 0 and stats[j] + (rounds - r) < lead - margin:
                ws[W_BEST + j] = 0
                stats[j] = -stats[MAX_OPTIONS + j]      # best_mean: a mean of -1, never chosen
                alive -= 1
                if alive == 1:
                    break
                continue
        if r != dealt:
            deal_world(ws, sc, st2, P, p, world_key(base, r))
            dealt = r
        record(stats, j, play_from_world(ws, sc, fs, st2, P, p, j, play_key(base, j, r), depth))
        lead = max(lead, stats[j])
    rows_search_again(fs, F_STRAT, P, N_STRAT_COLS, S_KIND, S_SEARCH, STRAT_SEARCH)
    return best_mean(stats, n)
