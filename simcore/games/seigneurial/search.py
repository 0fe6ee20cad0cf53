"""Seigneurial search hooks (the game contract's ``search`` field): what the game-independent search
bot (:mod:`simcore.search`) needs to judge every decision of a seat played by ``kind = "search"``
that offers two or more options -- the Seigneur's rent split (SG-5.3), Seigneur cards (SG-3),
Corvée target, draw order (SG-5.5), Réquisition target, favour point by point (SG-5.5) and the
pick among tied Censitaires (SG-6); a Censitaire's winter payment (SG-4), placement (SG-5.1),
Church card kept and card discarded over the hand limit (SG-3), Censitaire cards played, Récolte
type, Troc card and type (SG-3), each card paid (SG-5.4) and the terrain improved (SG-5.6).

The rules of play are the kernel's own: :func:`.kernel.play_turns` plays from a position saved in
the workspace (the turn's phase and place in it) and, with ws[G_STOP] = 1, stops at a searching
seat's decision (its seat in G_DECIDER, options in W_OPTS, their count in G_NOPT); called again
with ws[G_FORCED] = j it plays option j there (recorded, spending no draw: :func:`search_choice`
spent the decision's one draw) and goes on. One turn order serves the kernel's games, the search
bot's games and its playouts (tests/conformance/test_search_hooks.py: the reference replays them).

Hooks: copy a state (everything before W_TRACE; ``fs`` is shared); re-deal what the seat cannot see
(:func:`redeal`, SG-7: the Seigneur sees how many cards of each type a Censitaire holds, never their
values; a Censitaire sees its own hand and objective only): the values of the cards of every hand the
seat cannot see and of the draw pile are pooled per type (as counts: canonical) and dealt anew, each
hand keeping its number of cards of each type; the Objective cards of the Censitaires other than
the seat are dealt anew from the ones it does not hold (they lie face down: the Seigneur sees none);
the order of the Censitaire and Seigneur card piles is shuffled. A Censitaire paying under
payment.order "simultaneous" (SG-5.4) chooses from the position before anyone paid this turn, so
what the Censitaires before it paid is hidden too: the world undoes their payments before the deal
(:func:`unpay_earlier`: their cards back in their hands, the cards they gave pooled with the hidden
ones; the kernel keeps those cards in W_PAY_HELD_CARDS and their counts per type in X_GIVEN_NT) and
lets their bots pay again after it, from the world's stream (:func:`pay_earlier`), so every option
of the decision meets the same earlier payments; the seat's own cards of this payment stay paid
(tests/seigneurial/test_sg_search_simultaneous.py). Apply an option and play on with
:func:`.kernel.play_turns`; the result is the seat's SG-6 win share (the winner 1; truncated: the
Censitaires 1/C each) plus 1e-6 × its score (progress toward its goal, percent): a tie-break
between options of equal win share.
Known limit: which Censitaire and Seigneur cards the others hold is left as it is.

May import numba, :mod:`simcore.rng`, :mod:`simcore.search` and this game's layout, rules and
kernel; the driver imports it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcore.games.seigneurial.kernel import pay, play_turns, progress_percent
from simcore.games.seigneurial.layout import (
    F_STRAT, G_CC_PILE_N, G_CUR, G_DECIDER, G_ERROR, G_FORCED, G_LIMIT, G_NOPT, G_NRECV, G_OVER,
    G_PAY_HELD, G_PAY_STAMP, G_PHASE, G_RECV, G_RES_PILE_N, G_SC_PILE_N, G_SQUARE, G_STOP,
    G_TRACE_CAP, G_TRACE_N, G_TURN, G_WINNER, HS, KIND_SEARCH, N_STRAT_COLS, PH_PAY, PLS, R_NOBJ,
    R_OBJ, R_PARAMS, R_PAY_ORDER, S_KIND, S_SEARCH, W_BEST, W_CC_PILE, W_HAND, W_OPTS,
    W_PAY_HELD_CARDS, W_PL, W_RECV_CARDS, W_RES_PILE, W_RULES, W_SC_PILE, W_TRACE, X_GIVEN,
    X_GIVEN_NT, X_HANDN, X_NT, X_OBJ, X_PAID, X_RES,
)
from simcore.games.seigneurial.rules import (
    MAX_DECK, MIN_PLAYERS, N_RES, N_VALUES, P_GOAL, PAY_SIMULTANEOUS,
)
from simcore.rng import next_u64, shuffle_range
from simcore.search import (
    MAX_OPTIONS, best_mean, horizon, next_playout, plan, play_key, record, rows_play_policy,
    rows_search_again, settings, world_key,
)

W_WORLD = W_TRACE            # the scratch workspace sc: a playout's position, then its world
TURNS_PER_RESOURCE = 0.5    # the horizon's estimate: a Censitaire gathers about 2 resources a turn
RACE_SCALE = 1.0            # turns: how sharply the estimate separates the race's leader


@njit(cache=True, _nrt=False)
def redeal(st, sc, P, seat):
    """Deal anew what ``seat`` cannot see (see the module docstring), from sc's stream ``st``."""
    pool = W_BEST                    # scratch: values per type, then the pile
    for t in range(N_RES):
        for v in range(N_VALUES):
            sc[pool + v] = 0
        pile = W_RES_PILE + t * MAX_DECK
        for i in range(sc[G_RES_PILE_N + t]):
            sc[pool + sc[pile + i]] += 1
        for q in range(1, P):
            if q == seat:
                continue
            h = W_HAND + q * HS + t * N_VALUES
            for v in range(N_VALUES):
                sc[pool + v] += sc[h + v]
                sc[h + v] = 0
            sc[W_PL + q * PLS + X_RES + t] = 0
        n = 0                    # hands hold no 0 (laid face up, SG-5.2): dealt from the rest
        for v in range(1, N_VALUES):                   # canonical: ascending values
            for _ in range(sc[pool + v]):
                sc[pile + n] = v
                n += 1
        shuffle_range(st, sc, pile, n)
        for q in range(1, P):
            if q == seat:
                continue
            b = W_PL + q * PLS
            h = W_HAND + q * HS + t * N_VALUES
            for _ in range(sc[b + X_NT + t]):
                n -= 1
                v = sc[pile + n]
                sc[h + v] += 1
                sc[b + X_RES + t] += v
        for _ in range(sc[pool]):
            sc[pile + n] = 0
            n += 1
        shuffle_range(st, sc, pile, n)
        sc[G_RES_PILE_N + t] = n
    shuffle_range(st, sc, W_CC_PILE, sc[G_CC_PILE_N])
    shuffle_range(st, sc, W_SC_PILE, sc[G_SC_PILE_N])
    # the Objective cards of the Censitaires other than the seat (each lies face down before its
    # Censitaire: the book's set-up, step 7; the Seigneur sees none of them), dealt anew from those
    # the seat does not hold
    n = 0
    own = sc[W_PL + seat * PLS + X_OBJ] if seat > 0 else -1
    for o in range(sc[W_RULES + R_NOBJ]):
        if o != own:
            sc[pool + n] = o
            n += 1
    shuffle_range(st, sc, pool, n)
    for q in range(1, P):
        if q != seat:
            n -= 1
            sc[W_PL + q * PLS + X_OBJ] = sc[pool + n]


@njit(cache=True, _nrt=False)
def turns_left(sc, P, q):
    """The horizon's estimate of the turns seat q still needs: the Seigneur one per square to his
    goal (SG-6), a Censitaire TURNS_PER_RESOURCE per resource its objective still lacks (SG-2)."""
    if q == 0:
        return float(sc[W_RULES + R_PARAMS + P_GOAL + P - MIN_PLAYERS] - sc[G_SQUARE])
    b = W_PL + q * PLS
    o = W_RULES + R_OBJ + 3 * sc[b + X_OBJ]
    missing = 0
    for t in range(N_RES):
        missing += max(sc[o + t] - sc[b + X_RES + t], 0)
    return TURNS_PER_RESOURCE * missing


@njit(cache=True, _nrt=False)
def race_estimate(sc, P, seat):
    """The seat's chance in the race, estimated where a playout stops at its horizon: a logistic
    of (the best other seat's turns left - its own), the Seigneur winning a tie (SG-6)."""
    mine = turns_left(sc, P, seat)
    best = 1e9
    for q in range(P):
        if q != seat:
            best = min(best, turns_left(sc, P, q))
    d = best - mine + (0.5 if seat == 0 else -0.5)
    return 1.0 / (1.0 + np.exp(-d / RACE_SCALE))


@njit(cache=True, _nrt=False)
def copy_position(src, dst):
    """The position: all of the workspace but the options and the scratch (W_OPTS … W_RES_PILE:
    a resumed decision lists its options again, every user of W_BEST writes it before reading)."""
    for i in range(W_OPTS):
        dst[i] = src[i]
    for i in range(W_RES_PILE, W_TRACE):
        dst[i] = src[i]


@njit(cache=True, inline="always", _nrt=False)
def paying_blind(w, seat):
    """The seat is a Censitaire paying under payment.order "simultaneous" (SG-5.4): it chooses
    from the position before anyone paid this turn, so what the payers before it gave is hidden."""
    return (w[G_PHASE] == PH_PAY) & (w[W_RULES + R_PAY_ORDER] == PAY_SIMULTANEOUS) & (
        w[G_CUR] == seat) & (seat > 1)


@njit(cache=True, _nrt=False)
def unpay_earlier(w, seat):
    """SG-5.4 "simultaneous": the Censitaires before ``seat`` (seat order) take back what they gave
    this turn, as the seat saw them before the payment: their cards of each type back in their
    hands (X_GIVEN_NT; the values are dealt anew by :func:`redeal`, so the cards they gave, held in
    W_PAY_HELD_CARDS, go into the draw piles, which redeal pools with the hidden hands), their
    X_GIVEN and X_PAID, the value held (G_PAY_HELD) and G_NRECV as before they paid. The seat's own
    cards of this payment (W_RECV_CARDS, G_RECV, its counters) stay paid: it knows them."""
    for q in range(1, seat):
        b = W_PL + q * PLS
        for t in range(N_RES):
            k = w[b + X_GIVEN_NT + t]
            w[b + X_NT + t] += k
            w[b + X_HANDN] += k
            w[b + X_GIVEN_NT + t] = 0
        w[b + X_PAID] -= w[b + X_GIVEN]
        w[b + X_GIVEN] = 0
    for t in range(N_RES):
        pile = W_RES_PILE + t * MAX_DECK
        n = w[G_RES_PILE_N + t]
        for v in range(1, N_VALUES):
            h = W_PAY_HELD_CARDS + t * N_VALUES + v
            for _ in range(w[h]):
                w[pile + n] = v
                n += 1
            w[G_NRECV] -= w[h]
            w[h] = 0
        w[G_RES_PILE_N + t] = n
        w[G_PAY_HELD + t] = 0
    w[G_PAY_STAMP] = 0           # the paying bots' targets are worked out anew (bots.prepare_pay)


@njit(cache=True, _nrt=False)
def pay_earlier(st, w, fs, P, seat):
    """SG-5.4 "simultaneous", in a world where :func:`unpay_earlier` and :func:`redeal` ran: the
    Censitaires before ``seat`` pay again (:func:`.kernel.pay`, each on its bot -- a searching one
    on its playout policy -- from the world's stream ``st``), each from the position before anyone
    paid (G_RECV 0; what it gave is then held as the kernel holds it), while the seat's own cards
    of this payment are set aside."""
    own0 = w[G_RECV]
    own1 = w[G_RECV + 1]
    own2 = w[G_RECV + 2]
    for t in range(N_RES):
        w[G_RECV + t] = 0
    for c in range(HS):              # the seat's own cards aside (the held block is empty here)
        w[W_PAY_HELD_CARDS + c] = w[W_RECV_CARDS + c]
        w[W_RECV_CARDS + c] = 0
    for q in range(1, seat):
        pay(st, w, fs, P, q)
        for t in range(N_RES):
            w[G_PAY_HELD + t] += w[G_RECV + t]
            w[G_RECV + t] = 0
    for c in range(HS):              # the earlier payers' cards held, the seat's own back
        k = w[W_RECV_CARDS + c]
        w[W_RECV_CARDS + c] = w[W_PAY_HELD_CARDS + c]
        w[W_PAY_HELD_CARDS + c] = k
    w[G_RECV] = own0
    w[G_RECV + 1] = own1
    w[G_RECV + 2] = own2


@njit(cache=True, _nrt=False)
def deal_world(ws, sc, fs, st2, P, seat, world):
    """World ``world`` of the decision ``ws`` stopped at: the position with what ``seat`` cannot
    see re-dealt, into sc[W_WORLD:] (kept there for every option's playout in that world). A
    Censitaire paying under "simultaneous" does not see what the payers before it gave this turn:
    their payments are undone before the deal and played again after it, from the world's stream
    (:func:`unpay_earlier`, :func:`pay_earlier`), so every option meets the same earlier payments."""
    w = sc[W_WORLD:W_WORLD + W_TRACE]
    copy_position(ws, w)
    w[G_TRACE_CAP] = 0                   # playouts record nothing
    w[G_TRACE_N] = 0
    w[G_STOP] = 0
    w[G_FORCED] = -1
    st2[0] = world
    blind = paying_blind(w, seat)
    if blind:
        unpay_earlier(w, seat)
    redeal(st2, w, P, seat)
    if blind:
        pay_earlier(st2, w, fs, P, seat)


@njit(cache=True, _nrt=False)
def play_world(ws, sc, fs, st2, P, seat, j, play, depth):
    """Option j played in the world of sc[W_WORLD:] (:func:`deal_world`) from the stream
    ``play``, ``depth`` turns deep (0: to the end): the seat's result (see the module docstring)."""
    copy_position(sc[W_WORLD:W_WORLD + W_TRACE], sc)
    sc[G_FORCED] = j
    sc[G_LIMIT] = sc[G_TURN] + depth - 1 if depth > 0 else 0
    st2[0] = play
    play_turns(st2, sc, fs, P, False)
    if sc[G_ERROR] != 0:
        ws[G_ERROR] = sc[G_ERROR]
    if sc[G_OVER] == 0:
        return race_estimate(sc, P, seat)
    w = sc[G_WINNER]
    if w >= 0:
        share = 1.0 if w == seat else 0.0
    else:
        share = 0.0 if seat == 0 else 1.0 / (P - 1)
    # a tie-break far below one win in any number of playouts: the seat's progress toward its
    # goal (the score, percent). The Seigneur wins ~1% of games against the standard Censitaires,
    # so without it nearly every rent option scores 0 and the search would take the first option.
    return share + 1e-6 * progress_percent(sc, P, seat)


@njit(cache=True, _nrt=False)
def playout(ws, sc, fs, st2, P, seat, j, world, play, depth):
    """One playout of option j of the decision ``ws`` stopped at, in world ``world`` from the
    stream ``play``, ``depth`` turns deep (0: to the end). ``sc`` holds at least 2 x W_TRACE words
    (the playout's position, then its world)."""
    deal_world(ws, sc, fs, st2, P, seat, world)
    return play_world(ws, sc, fs, st2, P, seat, j, play, depth)


@njit(cache=True, _nrt=False)
def search_choice(st, ws, sc, fs, st2, stats, P):
    """The searching seat's decision ws stopped at (see :func:`.kernel.play_turns`): the index of
    its option; one draw of the game's stream keys every playout. ``sc``: at least 2 x W_TRACE
    words. Each world is dealt once for all the options played in it (common random numbers)."""
    seat = ws[G_DECIDER]
    sb = F_STRAT + seat * N_STRAT_COLS
    playouts, budget, select, _ = settings(fs[sb:sb + N_STRAT_COLS], S_SEARCH)
    depth = horizon(fs[sb:sb + N_STRAT_COLS], S_SEARCH)
    base = next_u64(st)
    n = min(ws[G_NOPT], MAX_OPTIONS)
    # searching seats play their policy in playouts (fs is shared with the game: marked, restored)
    rows_play_policy(fs, F_STRAT, P, N_STRAT_COLS, S_KIND, S_SEARCH, KIND_SEARCH, True)
    total = plan(stats, n, playouts, budget)
    spent = 0
    dealt = -1                # the world in sc[W_WORLD:]: flat search plays world r for every option
    while True:
        j, r = next_playout(stats, n, total, spent, select)
        if j < 0:
            break
        if r != dealt:
            deal_world(ws, sc, fs, st2, P, seat, world_key(base, r))
            dealt = r
        record(stats, j, play_world(ws, sc, fs, st2, P, seat, j, play_key(base, j, r), depth))
        spent += 1
    rows_search_again(fs, F_STRAT, P, N_STRAT_COLS, S_KIND, S_SEARCH, KIND_SEARCH)
    return best_mean(stats, n)
