"""The game-independent search bot: flat Monte Carlo or UCB1 over the options of one decision.

Written once for every game; each game folder provides the hooks (``simcore/games/<game>/search.py``,
named by the spec's ``search`` field) and runs, at a searching seat's decision, the loop

    total = plan(stats, n, playouts, budget); spent = 0
    while True:
        j, r = next_playout(stats, n, total, spent, select)
        if j < 0: break
        record(stats, j, playout(ws, sc, ..., seat, j, world_key(base, r), play_key(base, j, r)))
        spent += 1
    choice = best_mean(stats, n)

with its own playout hook, a jitted function ``playout(ws, sc, ..., seat, option, world, play)``
that copies the position ``ws`` to the scratch workspace ``sc``, re-deals there what ``seat`` cannot
see from the stream ``world`` (determinisation, consistent with what the seat has seen), applies
``option``, plays to the end with the playout policy drawing from the stream ``play``, and returns
the seat's win share (1, 1/k for a k-way shared win, 0). (The loop is the game's, not a function
here taking the hook as an argument: Numba compiles such a call, but cannot cache the caller,
which would then compile again in every process.)

Streams (reproducible for any thread count, chunk size or worker count): the decision spends one
draw ``base`` of the game's own stream, keyed on (seed, game), exactly like every other bot; playout
``r`` of option ``j`` draws from ``stream_state(stream_state(base, j + 1), r)`` and its world is
dealt from ``stream_state(stream_state(base, 0), r)``, so every option is judged in the same sampled
worlds (common random numbers) and each playout has its own key (seed, game, decision, option,
playout).

Selection (``select``): ``flat`` gives every option ``playouts`` playouts (or, with a ``budget`` per
decision, ``max(1, budget // n)``); ``ucb`` gives every option one playout, then spends the rest of
the budget (``budget``, or ``playouts × n``) on the option maximising ``mean + C·√(ln N / n_j)``
(UCB1, ``C = √2``; ties to the earliest option). Either way the chosen option is the one with the
best mean win share, ties to the earliest option. Strategy-row convention, shared by every game: three
float columns from the game's ``S_SEARCH``: playouts per option, budget per decision (0: use
playouts), and ``(horizon * 2 + select) * 4 + policy kind`` (written by
:func:`strategies.search.pack_settings`, read by :func:`settings` and :func:`horizon`).

Horizon (``horizon`` turns, 0: to the end): a playout stops that many turns after the decision
and the game's hook values the position instead of the result (an estimate of the seat's win
share from its standing); a game that ends earlier is scored by its result.

May import numpy, numba and :mod:`simcore.rng`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcore.rng import stream_state

SELECT_FLAT, SELECT_UCB = 0, 1
SELECT_NAMES = ("flat", "ucb")   # as strategies.search writes them (pack_settings)
UCB_C = np.sqrt(2.0)
MAX_OPTIONS = 256          # the stats buffer a game passes holds 2 * MAX_OPTIONS floats


@njit(cache=True, inline="always", _nrt=False)
def world_key(base, r):
    """The stream state world ``r`` of a decision is dealt from (same for every option)."""
    return stream_state(stream_state(base, np.uint64(0)), np.uint64(r))


@njit(cache=True, inline="always", _nrt=False)
def play_key(base, j, r):
    """The stream state playout ``r`` of option ``j`` plays from."""
    return stream_state(stream_state(base, np.uint64(j + 1)), np.uint64(r))


@njit(cache=True, inline="always", _nrt=False)
def settings(row, s_search):
    """(playouts per option, budget per decision, select, policy kind) of a strategy row."""
    packed = int(row[s_search + 2])
    return int(row[s_search]), int(row[s_search + 1]), (packed // 4) % 2, packed % 4


@njit(cache=True, inline="always", _nrt=False)
def horizon(row, s_search):
    """The playouts' horizon of a strategy row: turns played after the decision before the
    position is valued (0: to the end of the game)."""
    return int(row[s_search + 2]) // 8


@njit(cache=True, inline="always", _nrt=False)
def best_mean(stats, n):
    """The option with the best mean (stats[j] sum, stats[MAX_OPTIONS + j] count), ties to the
    earliest option."""
    best = -1.0
    best_j = 0
    for j in range(n):
        c = stats[MAX_OPTIONS + j]
        m = stats[j] / c if c > 0 else -1.0
        if m > best + 1e-12:
            best = m
            best_j = j
    return best_j


@njit(cache=True, _nrt=False)
def plan(stats, n, playouts, budget):
    """Clear the statistics of ``n`` options; the number of playouts this decision spends
    (``budget``, or ``playouts`` per option; at least one per option)."""
    for j in range(n):
        stats[j] = 0.0
        stats[MAX_OPTIONS + j] = 0.0
    total = budget if budget > 0 else playouts * n
    return total if total > n else n


@njit(cache=True, _nrt=False)
def next_playout(stats, n, total, spent, select):
    """(option, playout number) of the next playout, or (-1, 0) when the decision is done.
    Flat: playout r of every option in option order, r = 0, 1, … (budget // n each); UCB1: one
    playout for every option, then the option maximising mean + C·√(ln N / n_j), ties to the
    earliest option."""
    if select == SELECT_FLAT:
        if spent >= (total // n) * n:
            return -1, 0
        return spent % n, spent // n
    if spent >= total:
        return -1, 0
    if spent < n:
        return spent, 0
    lg = np.log(spent)
    best = -1e300
    bj = 0
    for j in range(n):
        c = stats[MAX_OPTIONS + j]
        u = stats[j] / c + UCB_C * np.sqrt(lg / c)
        if u > best + 1e-12:
            best = u
            bj = j
    return bj, int(stats[MAX_OPTIONS + bj])


@njit(cache=True, _nrt=False)
def rows_play_policy(rows, first, P, n_cols, s_kind, s_search, kind_search, mark):
    """Switch every searching seat's strategy row (``rows[first + r * n_cols …]``, r < P) to its
    playout policy's kind, so that in playouts it plays its policy. ``mark``: the packed column is
    stored as ``-1 - packed`` (negative: marked), so :func:`rows_search_again` can restore the row
    (a table shared by the real game and its playouts); without it the switch is for good (a
    playout-only copy)."""
    for r in range(P):
        b = first + r * n_cols
        if rows[b + s_kind] == kind_search:
            rows[b + s_kind] = int(rows[b + s_search + 2]) % 4
            if mark:
                rows[b + s_search + 2] = -1.0 - rows[b + s_search + 2]


@njit(cache=True, _nrt=False)
def rows_search_again(rows, first, P, n_cols, s_kind, s_search, kind_search):
    """Undo :func:`rows_play_policy` with ``mark``: the marked rows search again."""
    for r in range(P):
        b = first + r * n_cols
        if rows[b + s_search + 2] < 0.0:
            rows[b + s_search + 2] = -1.0 - rows[b + s_search + 2]
            rows[b + s_kind] = kind_search


@njit(cache=True, inline="always", _nrt=False)
def record(stats, j, result):
    """One playout of option j gave the searching seat ``result`` (its win share)."""
    stats[j] += result
    stats[MAX_OPTIONS + j] += 1.0
