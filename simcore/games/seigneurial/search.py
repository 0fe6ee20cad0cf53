"""Seigneurial search hooks (the game contract's ``search`` field): what the game-independent search
bot (:mod:`simcore.search`) needs to judge the Seigneur's rent (SG-5.3) and a Censitaire's placement
(SG-5.1) for a seat played by ``kind = "search"`` (its other decisions are its policy's).

The kernel's :func:`.kernel.play_game` plays a game in one call; :func:`play_on` plays the same
turns (:func:`.kernel.play_turn`'s order: the turn's start and winter, each Censitaire's placement,
the harvests, the rent, then the card windows, payments, accounting, progress and victory) from a
position saved in the workspace, stopping at a searching seat's placement or rent when asked
(stage in the Seigneur's spare record words X_STAGE, X_STAGE_P; options in W_OPTS, their count in
X_NOPT) and resuming with ``forced = j`` (spending no draw: :func:`search_choice` spent the
decision's one draw). Without stops it draws and asks exactly as
``play_game`` does (tests/conformance/test_search_hooks.py: the reference replays its games).

Hooks: copy a state (everything before W_TRACE; ``fs`` is shared); re-deal what the seat cannot see
(:func:`redeal`, SG-7: the Seigneur sees how many cards of each type a Censitaire holds, never their
values; a Censitaire sees its own hand and objective only): the values of the cards of every hand the
seat cannot see and of the draw pile are pooled per type (as counts: canonical) and dealt anew, each
hand keeping its number of cards of each type; for a Censitaire the other Censitaires' Objective
cards are dealt anew from the ones it does not hold; the order of the Censitaire and Seigneur card
piles is shuffled. Apply an option and play on with :func:`play_on`; the result is the seat's SG-6
win share (the winner 1; truncated: the Censitaires 1/C each) plus 1e-6 × its score (progress
toward its goal, percent): a tie-break between options of equal win share.
Known limit: which Censitaire and Seigneur cards the others hold is left as it is.

May import numba, :mod:`simcore.rng`, :mod:`simcore.search` and this game's layout, rules, bots and
kernel; the driver imports it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcore.games.seigneurial.bots import ask, record_decision
from simcore.games.seigneurial.kernel import (
    accounting, card_window, check_invariants, harvest, list_placements, payment, progress,
    progress_percent,
    rent_total, victory, winter, draw_sc,
)
from simcore.games.seigneurial.layout import (
    D_PLACE, D_RENT, F_STRAT, G_CC_PILE_N, G_ERROR, G_EXTRA, G_NRECV, G_OVER, G_RECV, G_RENT,
    G_RES_PILE_N, G_SC_HAND, G_SC_PILE_N, G_SQUARE, G_TRACE_N, G_TRACE_CAP, G_TURN, G_WINNER, HS, KIND_SEARCH,
    N_STRAT_COLS, PLS, RENT_CODE, R_NOBJ, R_OBJ, R_PARAMS, S_KIND, S_SEARCH, W_BEST, W_CC_PILE, W_HAND,
    W_OPTS, W_PL, W_RES_PILE, W_RULES, W_SC_DISC, W_SC_PILE, W_TRACE, X_GIVEN, X_HANDN, X_NT, X_OBJ,
    X_PLACED, X_POINTS, X_PROT, X_RES, X_SICK, X_TURNS_SICK,
)
from simcore.games.seigneurial.rules import (
    CHURCH, MAX_DECK, MILL, MIN_PLAYERS, N_RES, N_VALUES, P_GOAL, P_SC_PER_YEAR,
)
from simcore.rng import next_u64, shuffle_range
from simcore.search import (
    MAX_OPTIONS, best_mean, next_playout, plan, play_key, record, rows_play_policy,
    horizon, rows_search_again, settings, world_key,
)

# spare words of the Seigneur's player record (seat 0 uses none of X_NT + 3 … PLS - 1); X_LIMIT:
# a playout's last turn (0: none; a real game never sets it)
X_STAGE, X_STAGE_P, X_NOPT, X_LIMIT = 28, 29, 30, 31
assert X_NT + 3 <= X_STAGE and X_LIMIT < PLS
TURNS_PER_RESOURCE = 0.5    # the horizon's estimate: a Censitaire gathers about 2 resources a turn
RACE_SCALE = 1.0            # turns: how sharply the estimate separates the race's leader


@njit(cache=True, inline="always", _nrt=False)
def is_search(fs, p):
    return fs[F_STRAT + p * N_STRAT_COLS + S_KIND] == KIND_SEARCH


@njit(cache=True, _nrt=False)
def play_on(st, ws, fs, P, stop, forced, debug):
    """Play turns from the saved position to the end (0), or until a searching seat must place
    (SG-5.1) or set the rent (SG-5.3) when ``stop`` (1), or (a playout with a horizon) until turn
    ws[W_PL + X_LIMIT] is over (2). ``forced >= 0`` plays that option of the decision the last
    call stopped at."""
    s0 = W_PL
    while ws[G_OVER] == 0:
        if ws[s0 + X_STAGE] == 0:                       # play_turn's start (SG-4)
            if ws[s0 + X_LIMIT] > 0 and ws[G_TURN] >= ws[s0 + X_LIMIT]:
                return 2
            ws[G_TURN] += 1
            season = (ws[G_TURN] - 1) % 4
            for t in range(N_RES):
                ws[G_RECV + t] = 0
            ws[G_NRECV] = 0
            ws[G_EXTRA] = 0
            for p in range(1, P):
                b = W_PL + p * PLS
                ws[b + X_GIVEN] = 0
                ws[b + X_PROT] = 0
                ws[b + X_POINTS] = 0
            if season == 0:
                k = ws[W_RULES + R_PARAMS + P_SC_PER_YEAR]
                if k == 0:
                    k = P
                for _ in range(k):
                    c = draw_sc(st, ws)
                    if c >= 0:
                        ws[G_SC_HAND + c] += 1
            if season == 3:
                winter(st, ws, fs, P)
            ws[s0 + X_STAGE] = 1
            ws[s0 + X_STAGE_P] = 2               # 2 * seat + (sick step done)
        if ws[s0 + X_STAGE] == 1:                       # SG-5.1 placements, SG-5.2 harvests
            while ws[s0 + X_STAGE_P] < 2 * P:
                p = ws[s0 + X_STAGE_P] // 2
                b = W_PL + p * PLS
                if ws[s0 + X_STAGE_P] % 2 == 0:
                    if ws[b + X_SICK] > 0:
                        ws[b + X_TURNS_SICK] += 1
                    ws[s0 + X_STAGE_P] += 1
                church_used = 0
                mill_used = 0
                for q in range(1, p):
                    church_used += (ws[W_PL + q * PLS + X_PLACED] >> CHURCH) & 1
                    mill_used += (ws[W_PL + q * PLS + X_PLACED] >> MILL) & 1
                n = list_placements(ws, p, church_used, mill_used)
                m = 0
                if n > 0:
                    if forced >= 0:
                        j = forced
                        forced = -1
                        record_decision(ws, n, j)
                    elif stop and n > 1 and is_search(fs, p):
                        ws[s0 + X_NOPT] = n
                        return 1
                    else:
                        j = ask(st, ws, fs, D_PLACE, p, n, P)
                    m = ws[W_OPTS + j]
                ws[b + X_PLACED] = m
                ws[s0 + X_STAGE_P] = 2 * (p + 1)
            for p in range(1, P):
                harvest(st, ws, fs, P, p)
            ws[s0 + X_STAGE] = 2
        if ws[s0 + X_STAGE] == 2:                       # SG-5.3 the rent (kernel.set_rent)
            R = rent_total(ws, P)
            n = 0
            for g in range(R + 1):
                for w in range(R - g + 1):
                    ws[W_OPTS + n] = g * RENT_CODE + w
                    n += 1
            ws[G_RENT] = R
            ws[G_RENT + 1] = 0
            ws[G_RENT + 2] = 0
            if forced >= 0:
                j = forced
                forced = -1
                record_decision(ws, n, j)
            elif stop and n > 1 and is_search(fs, 0):
                ws[s0 + X_NOPT] = n
                return 1
            else:
                j = ask(st, ws, fs, D_RENT, 0, n, P)
            o = ws[W_OPTS + j]
            ws[G_RENT] = o // RENT_CODE
            ws[G_RENT + 1] = o % RENT_CODE
            ws[G_RENT + 2] = R - o // RENT_CODE - o % RENT_CODE
            ws[s0 + X_STAGE] = 3
        season = (ws[G_TURN] - 1) % 4                   # the rest of play_turn
        for p in range(1, P):
            card_window(st, ws, fs, P, p)
        for p in range(1, P):
            payment(st, ws, fs, P, p)
        if accounting(st, ws, fs, P):
            progress(st, ws, fs, P)
        if season == 3:
            for k in range(2):
                ws[W_SC_DISC + k] += ws[G_SC_HAND + k]
                ws[G_SC_HAND + k] = 0
        for p in range(1, P):
            b = W_PL + p * PLS
            if ws[b + X_SICK] > 0:
                ws[b + X_SICK] -= 1
        victory(st, ws, fs, P)
        ws[s0 + X_STAGE] = 0
        if debug:
            check_invariants(ws, P)
    return 0


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
    if seat > 0:                                       # the other Censitaires' Objective cards
        n = 0
        own = sc[W_PL + seat * PLS + X_OBJ]
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
def playout(ws, sc, fs, st2, P, seat, j, world, play, depth):
    """One playout of option j of the decision ``ws`` stopped at (see the module docstring),
    ``depth`` turns deep (0: to the end)."""
    for i in range(W_TRACE):
        sc[i] = ws[i]
    sc[G_TRACE_CAP] = 0                  # playouts record nothing
    sc[W_PL + X_LIMIT] = sc[G_TURN] + depth - 1 if depth > 0 else 0
    st2[0] = world
    redeal(st2, sc, P, seat)
    st2[0] = play
    play_on(st2, sc, fs, P, False, j, False)
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
def search_choice(st, ws, sc, fs, st2, stats, P):
    """The searching seat's placement or rent: one draw of the game's stream keys every playout."""
    s0 = W_PL
    seat = 0 if ws[s0 + X_STAGE] == 2 else ws[s0 + X_STAGE_P] // 2
    sb = F_STRAT + seat * N_STRAT_COLS
    playouts, budget, select, _ = settings(fs[sb:sb + N_STRAT_COLS], S_SEARCH)
    depth = horizon(fs[sb:sb + N_STRAT_COLS], S_SEARCH)
    base = next_u64(st)
    n = min(ws[s0 + X_NOPT], MAX_OPTIONS)
    # searching seats play their policy in playouts (fs is shared with the game: marked, restored)
    rows_play_policy(fs, F_STRAT, P, N_STRAT_COLS, S_KIND, S_SEARCH, KIND_SEARCH, True)
    total = plan(stats, n, playouts, budget)
    spent = 0
    while True:
        j, r = next_playout(stats, n, total, spent, select)
        if j < 0:
            break
        record(stats, j, playout(ws, sc, fs, st2, P, seat, j, world_key(base, r), play_key(base, j, r),
                                  depth))
        spent += 1
    rows_search_again(fs, F_STRAT, P, N_STRAT_COLS, S_KIND, S_SEARCH, KIND_SEARCH)
    return best_mean(stats, n)
