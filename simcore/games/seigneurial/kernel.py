"""Seigneurial rules of play, jit-compiled by Numba: setup (SG-1, SG-2), the seasons and winter
(SG-4), a turn's positioning, harvest, rent, Censitaire cards, payment, accounting and progress
(SG-3, SG-5), victory and the turn bound (SG-6), and the debug-mode invariants, on one game's state
in the int64 workspace ``ws`` (offsets in :mod:`simcore.games.seigneurial.layout`). Randomness is
drawn and options are listed in the order of the engine protocol (the docstring of
:mod:`simcore.games.seigneurial.reference`), so the pure-Python reference engine replays any game
exactly. Every choice goes to :func:`simcore.games.seigneurial.bots.ask`. May import numba,
:mod:`simcore.rng`, the layout, the constants of the rules module and
:mod:`simcore.games.seigneurial.bots` -- never the driver, which imports it.
"""

from __future__ import annotations

from numba import njit

from simcore.games.seigneurial.bots import ask, hand_add, list_winter, record_decision
from simcore.games.seigneurial.layout import (
    CENSITAIRE_OBJECTIVE, D_CHURCH_KEEP, D_CORVEE_TARGET, D_DISCARD_CARD, D_DRAW_ORDER, D_FAVOUR,
    D_IMPROVE, D_PAY, D_PLACE, D_PLAY_CARD, D_RECOLTE_TYPE, D_RENT, D_REQUISITION_TARGET,
    D_SEIGNEUR_CARD, D_TIE_WINNER, D_TROC_GIVE, D_TROC_TYPE, D_WINTER, E_CARDS_NOT_CONSERVED,
    E_FAVOUR_OUT_OF_BOUNDS, E_HAND_COUNT, E_RESOURCES_NOT_CONSERVED, E_TRACK_OUT_OF_BOUNDS, F_STRAT,
    G_CC_PILE_N, G_CUR, G_DECIDER, G_ERROR, G_EXTRA, G_FORCED, G_IMPROVED, G_IMPROVE_TURN, G_KIND,
    G_LIMIT, G_NOPT, G_NRECV, G_OVER, G_PAY_HELD, G_PHASE, G_RECV, G_REG, G_REG2, G_RENT,
    G_RES_PILE_N, G_SC_HAND, G_SC_PILE_N, G_SQUARE, G_STEP, G_STOP, G_SUB, G_TURN, G_WINNER, HS,
    KIND_SEARCH, N_STRAT_COLS, OPT_STOP, PH_CARDS, PH_END, PH_FAVOUR, PH_FORCED, PH_HARVEST,
    PH_PAY, PH_PLACE, PH_PROGRESS, PH_RENT, PH_SEIGNEUR_CARDS, PH_START, PH_WINTER, PLS,
    RENT_CODE, R_CCC, R_EFFECTS, R_NOBJ, R_OBJ, R_PARAMS, R_PAY_ORDER, R_RESC, R_SCC, SEIGNEUR_GOAL,
    SEIGNEUR_GOAL_OVER_OBJECTIVE, S_KIND, TRUNCATED, W_BEST, W_CC_DISC, W_CC_PILE, W_HAND, W_OPTS,
    W_PAY_HELD_CARDS, W_PL,
    W_RECV_CARDS, W_RESET_END, W_RES_DISC, W_RES_PILE, W_RULES, W_SC_DISC, W_SC_PILE, X_CC,
    X_FAV_EARNED, X_FAV_HELD, X_GIVEN, X_GIVEN_NT, X_HANDN, X_IMPROVED, X_LAID, X_NT, X_OBJ,
    X_PAID, X_PLACED, X_POINTS, X_PROT, X_RES, X_SEIZED, X_SICK, X_TURNS_SICK,
)
from simcore.games.seigneurial.rules import (
    CACHETTE, CHURCH, CORVEE, MAX_DECK, MILL, MIN_PLAYERS, N_RES, N_SQUARES, N_VALUES, P_BONUS,
    P_CC_HAND_LIMIT, P_CC_PLAY_LIMIT, P_CHURCH_CAP, P_FAVOUR_DISTRIBUTION, P_FAVOUR_PER_CARD,
    P_FORCED_AFTER, P_FORCED_BEFORE, P_GOAL, P_MAX_TURNS, P_MIDPOINT, P_MILL_CAP, P_PAWNS,
    P_RENT_AFTER, P_RENT_BEFORE, P_SC_PER_YEAR, P_SICK_TURNS, P_START_CARDS, P_START_SQUARE,
    PAY_ROTATING, PAY_SIMULTANEOUS, RECOLTE, REQUISITION, TROC, FX_CORVEE_DISCARDS, FX_RECOLTE_DRAWS,
    FX_REQUISITION_DRAWS, FX_TROC_DRAWS, FX_TROC_DISCARDS, FX_CACHETTE_HIDES,
)
from simcore.rng import below, shuffle_range


@njit(cache=True, inline="always", _nrt=False)
def rp(ws, i):
    """params[i] of the rules (SG-1 … SG-6 settings)."""
    return ws[W_RULES + R_PARAMS + i]


# =================================================================================================
# Piles (SG-1, SG-3): top = last; an empty pile is rebuilt from its discard, listed ascending,
# shuffled
# =================================================================================================
@njit(cache=True, _nrt=False)
def draw_resource(st, ws, p, t):
    """SG-5.2: Censitaire p draws a card of type t (a 0 is laid face up); its value, or -1."""
    pile = W_RES_PILE + t * MAX_DECK
    n = ws[G_RES_PILE_N + t]
    if n == 0:
        d = W_RES_DISC + t * N_VALUES
        for v in range(N_VALUES):
            for _ in range(ws[d + v]):
                ws[pile + n] = v
                n += 1
            ws[d + v] = 0
        shuffle_range(st, ws, pile, n)
        if n == 0:
            return -1
    n -= 1
    ws[G_RES_PILE_N + t] = n
    v = ws[pile + n]
    if v == 0:
        ws[W_PL + p * PLS + X_LAID + t] += 1
    else:
        hand_add(ws, p, t, v, 1)
    return v


@njit(cache=True, _nrt=False)
def draw_card(st, ws, pile, count, disc, kinds):
    """The top card of a Censitaire or Seigneur pile (count at ws[count]), or -1."""
    n = ws[count]
    if n == 0:
        for k in range(kinds):
            for _ in range(ws[disc + k]):
                ws[pile + n] = k
                n += 1
            ws[disc + k] = 0
        shuffle_range(st, ws, pile, n)
        if n == 0:
            return -1
    n -= 1
    ws[count] = n
    return ws[pile + n]


@njit(cache=True, inline="always", _nrt=False)
def draw_cc(st, ws):
    return draw_card(st, ws, W_CC_PILE, G_CC_PILE_N, W_CC_DISC, 3)


@njit(cache=True, inline="always", _nrt=False)
def draw_sc(st, ws):
    return draw_card(st, ws, W_SC_PILE, G_SC_PILE_N, W_SC_DISC, 2)


@njit(cache=True, inline="always", _nrt=False)
def discard_resource(ws, p, code):
    """Card code t * 8 + v from p's hand to its deck's discard pile."""
    hand_add(ws, p, code // N_VALUES, code % N_VALUES, -1)
    ws[W_RES_DISC + code] += 1


@njit(cache=True, inline="always", _nrt=False)
def card_at(ws, p, k):
    """The code t * 8 + v of the k-th card of p's hand (cards by (type, value) ascending)."""
    h = W_HAND + p * HS
    for c in range(HS):
        if k < ws[h + c]:
            return c
        k -= ws[h + c]
    return -1


@njit(cache=True, inline="always", _nrt=False)
def list_hand(ws, p, start):
    """The distinct card codes of p's hand, ascending, into W_OPTS from ``start``; the new end."""
    h = W_HAND + p * HS
    n = start
    for c in range(HS):
        ws[W_OPTS + n] = c
        n += (ws[h + c] > 0) & (c % N_VALUES != 0)
    return n


# =================================================================================================
# The resumable turn: every decision goes through decide(); a phase keeps its place in ws
# =================================================================================================
# A turn is the sequence of phases PH_START … PH_END (ws[G_PHASE]); inside a phase, the seat to act
# is ws[G_CUR], its step ws[G_STEP] (the square harvested, the Censitaire card played, the
# Réquisition drawn) and ws[G_SUB] the step's next decision (a card's second choice), with what the
# step drew or chose before it in G_REG / G_REG2. A phase function returns 1 when a decision
# stopped it (decide() returned -1): it then has changed nothing since its last saved place, so
# calling it again lists the same options and resumes there. Listing options never draws.

@njit(cache=True, inline="always", _nrt=False)
def decide(st, ws, fs, kind, p, n, P):
    """Seat p's choice among the n options in W_OPTS: the forced option of a resumed stop
    (recorded, no draw: the search spent the decision's draw), or -1 to stop for the search when
    ws[G_STOP] and p is a searching seat with two or more options, else :func:`bots.ask`."""
    if n > 1:
        f = ws[G_FORCED]
        if f >= 0:
            ws[G_FORCED] = -1
            record_decision(ws, n, f)
            return f
        if ws[G_STOP] != 0 and fs[F_STRAT + p * N_STRAT_COLS + S_KIND] == KIND_SEARCH:
            ws[G_NOPT] = n
            ws[G_DECIDER] = p
            ws[G_KIND] = kind
            return -1
    return ask(st, ws, fs, kind, p, n, P)


@njit(cache=True, _nrt=False)
def hand_limit(st, ws, fs, P, p):
    """SG-3: holding more Censitaire cards than the limit, discard one of your choice (1: stopped;
    resumable: the state is the cards held)."""
    b = W_PL + p * PLS
    while ws[b + X_CC] + ws[b + X_CC + 1] + ws[b + X_CC + 2] > rp(ws, P_CC_HAND_LIMIT):
        n = 0
        for k in range(3):
            ws[W_OPTS + n] = k
            n += ws[b + X_CC + k] > 0
        j = decide(st, ws, fs, D_DISCARD_CARD, p, n, P)
        if j < 0:
            return 1
        k = ws[W_OPTS + j]
        ws[b + X_CC + k] -= 1
        ws[W_CC_DISC + k] += 1
    return 0


# =================================================================================================
# Setup (SG-1, SG-2)
# =================================================================================================
@njit(cache=True, _nrt=False)
def reset(ws):
    """Before each game: clear the per-game part of ws (below W_RESET_END)."""
    for i in range(W_RESET_END):
        ws[i] = 0
    ws[G_WINNER] = -1
    ws[G_IMPROVE_TURN] = -1
    ws[G_FORCED] = -1


@njit(cache=True, _nrt=False)
def setup_game(st, ws, P):
    """SG-1, SG-2: shuffle the decks (grain, wood, fish, Censitaire, Seigneur, Objective), deal
    the Objective cards and the compensation start cards, put the Seigneur on his square."""
    for t in range(N_RES):
        pile = W_RES_PILE + t * MAX_DECK
        n = 0
        for v in range(N_VALUES):
            for _ in range(ws[W_RULES + R_RESC + t * N_VALUES + v]):
                ws[pile + n] = v
                n += 1
        shuffle_range(st, ws, pile, n)
        ws[G_RES_PILE_N + t] = n
    n = 0
    for k in range(3):
        for _ in range(ws[W_RULES + R_CCC + k]):
            ws[W_CC_PILE + n] = k
            n += 1
    shuffle_range(st, ws, W_CC_PILE, n)
    ws[G_CC_PILE_N] = n
    n = 0
    for k in range(2):
        for _ in range(ws[W_RULES + R_SCC + k]):
            ws[W_SC_PILE + n] = k
            n += 1
    shuffle_range(st, ws, W_SC_PILE, n)
    ws[G_SC_PILE_N] = n
    n = ws[W_RULES + R_NOBJ]
    for i in range(n):
        ws[W_BEST + i] = i
    shuffle_range(st, ws, W_BEST, n)
    ws[W_PL + X_OBJ] = -1
    for p in range(1, P):
        n -= 1
        b = W_PL + p * PLS
        ws[b + X_OBJ] = ws[W_BEST + n]
        ws[b + X_IMPROVED] = -1
    for p in range(1, P):
        for i in range(rp(ws, P_START_CARDS + p - 1)):
            draw_resource(st, ws, p, i % N_RES)
    ws[G_SQUARE] = rp(ws, P_START_SQUARE)


# =================================================================================================
# Turn start and winter (SG-3, SG-4), positioning and harvest (SG-5.1, SG-5.2)
# =================================================================================================
@njit(cache=True, _nrt=False)
def start_turn(st, ws, P):
    """A new season: this turn's records cleared; in Spring the Seigneur draws his year's Seigneur
    cards (SG-3)."""
    ws[G_TURN] += 1
    for t in range(N_RES):
        ws[G_RECV + t] = 0
    ws[G_NRECV] = 0
    ws[G_EXTRA] = 0
    for p in range(1, P):
        b = W_PL + p * PLS
        ws[b + X_GIVEN] = 0
        for t in range(N_RES):
            ws[b + X_GIVEN_NT + t] = 0
        ws[b + X_PROT] = 0
        ws[b + X_POINTS] = 0
    if (ws[G_TURN] - 1) % 4 == 0:
        k = rp(ws, P_SC_PER_YEAR)
        if k == 0:
            k = P
        for _ in range(k):
            c = draw_sc(st, ws)
            if c >= 0:
                ws[G_SC_HAND + c] += 1


@njit(cache=True, _nrt=False)
def winter(st, ws, fs, P):
    """SG-4: each Censitaire (from ws[G_CUR]) discards cards worth exactly the payment (else one
    worth more) or a pawn falls sick for ``sick_turns``. 1: stopped."""
    for p in range(ws[G_CUR], P):
        n = list_winter(ws, p, True)
        ws[W_OPTS + n] = OPT_STOP
        j = decide(st, ws, fs, D_WINTER, p, n + 1, P)
        if j < 0:
            return 1
        o = ws[W_OPTS + j]
        if o == OPT_STOP:
            ws[W_PL + p * PLS + X_SICK] = rp(ws, P_SICK_TURNS)
        else:
            k = o % 4
            codes = o // 4
            for _ in range(k):
                discard_resource(ws, p, codes % 32)
                codes //= 32
        ws[G_CUR] = p + 1
    return 0


@njit(cache=True, _nrt=False)
def list_placements(ws, p, church_used, mill_used):
    """SG-5.1: the sets of distinct squares (bit masks, ascending) for as many pawns as p can
    place; a terrain with a 0 laid is closed, the Mill open only with a 0 laid, full squares closed."""
    b = W_PL + p * PLS
    legal = 0
    laid = 0
    for t in range(N_RES):
        if ws[b + X_LAID + t] == 0:
            legal |= 1 << t
        laid += ws[b + X_LAID + t]
    cap = rp(ws, P_CHURCH_CAP)
    if cap == 0 or church_used < cap:
        legal |= 1 << CHURCH
    cap = rp(ws, P_MILL_CAP)
    if laid > 0 and (cap == 0 or mill_used < cap):
        legal |= 1 << MILL
    pawns = rp(ws, P_PAWNS) - (1 if ws[b + X_SICK] > 0 else 0)
    n_legal = 0
    for s in range(N_SQUARES):
        n_legal += (legal >> s) & 1
    k = pawns if pawns < n_legal else n_legal
    if k <= 0:
        return 0
    n = 0
    for m in range(1 << N_SQUARES):
        if m & ~legal == 0:
            c = 0
            for s in range(N_SQUARES):
                c += (m >> s) & 1
            if c == k:
                ws[W_OPTS + n] = m
                n += 1
    return n


@njit(cache=True, _nrt=False)
def positioning(st, ws, fs, P):
    """SG-5.1: each Censitaire (from ws[G_CUR]) places its pawns; the Church and Mill places the
    earlier Censitaires took count against the caps. A sick pawn's turn is counted first (SG-4).
    1: stopped."""
    if ws[G_SUB] == 0:
        for p in range(1, P):
            b = W_PL + p * PLS
            if ws[b + X_SICK] > 0:
                ws[b + X_TURNS_SICK] += 1
        ws[G_SUB] = 1
    for p in range(ws[G_CUR], P):
        church_used = 0
        mill_used = 0
        for q in range(1, p):
            church_used += (ws[W_PL + q * PLS + X_PLACED] >> CHURCH) & 1
            mill_used += (ws[W_PL + q * PLS + X_PLACED] >> MILL) & 1
        n = list_placements(ws, p, church_used, mill_used)
        m = 0
        if n > 0:
            j = decide(st, ws, fs, D_PLACE, p, n, P)
            if j < 0:
                return 1
            m = ws[W_OPTS + j]
        ws[W_PL + p * PLS + X_PLACED] = m
        ws[G_CUR] = p + 1
    return 0


@njit(cache=True, _nrt=False)
def church(st, ws, fs, P, p):
    """SG-5.1 the Church: draw 2 Censitaire cards (kept in G_REG, G_REG2), keep 1, the other goes
    under the deck; then the hand limit (SG-3). Steps in ws[G_SUB]. 1: stopped."""
    b = W_PL + p * PLS
    if ws[G_SUB] == 0:
        a = draw_cc(st, ws)
        if a < 0:
            return 0
        ws[G_REG] = a
        ws[G_REG2] = draw_cc(st, ws)
        ws[G_SUB] = 1
    if ws[G_SUB] == 1:
        a = ws[G_REG]
        c = ws[G_REG2]
        keep = a
        other = c
        if c >= 0 and a != c:
            ws[W_OPTS] = a
            ws[W_OPTS + 1] = c
            j = decide(st, ws, fs, D_CHURCH_KEEP, p, 2, P)
            if j < 0:
                return 1
            keep = ws[W_OPTS + j]
            other = c if keep == a else a
        if other >= 0:                       # under the deck
            n = ws[G_CC_PILE_N]
            for i in range(n, 0, -1):
                ws[W_CC_PILE + i] = ws[W_CC_PILE + i - 1]
            ws[W_CC_PILE] = other
            ws[G_CC_PILE_N] = n + 1
        ws[b + X_CC + keep] += 1
        ws[G_SUB] = 2
    if hand_limit(st, ws, fs, P, p):
        return 1
    ws[G_SUB] = 0
    return 0


@njit(cache=True, _nrt=False)
def harvest(st, ws, fs, P):
    """SG-5.2: the draws of each Censitaire's pawns (from ws[G_CUR], square ws[G_STEP]), squares
    in order Field, Forest, River, Church, Mill. 1: stopped (at the Church)."""
    for p in range(ws[G_CUR], P):
        b = W_PL + p * PLS
        m = ws[b + X_PLACED]
        for s in range(ws[G_STEP], N_SQUARES):
            if (m >> s) & 1 == 0:
                continue
            if s < N_RES:
                k = 1 + (rp(ws, P_BONUS) if ws[b + X_IMPROVED] == s else 0)
                for _ in range(k):
                    draw_resource(st, ws, p, s)
            elif s == CHURCH:
                ws[G_STEP] = s
                if church(st, ws, fs, P, p):
                    return 1
            else:
                for t in range(N_RES):
                    k = ws[b + X_LAID + t]
                    if k > 0:
                        ws[b + X_LAID + t] = 0
                        ws[W_RES_DISC + t * N_VALUES] += k
                        for _ in range(k):
                            draw_resource(st, ws, p, t)
        ws[G_STEP] = 0
        ws[G_CUR] = p + 1
    return 0


# =================================================================================================
# Rent (SG-5.3), Censitaire cards (SG-3), payment (SG-5.4)
# =================================================================================================
@njit(cache=True, inline="always", _nrt=False)
def rent_total(ws, P):
    base = P_RENT_AFTER if ws[G_IMPROVED] != 0 else P_RENT_BEFORE
    return rp(ws, base + P - MIN_PLAYERS)


@njit(cache=True, _nrt=False)
def set_rent(st, ws, fs, P):
    """SG-5.3: the Seigneur splits the rent total over the three types. 1: stopped."""
    R = rent_total(ws, P)
    n = 0
    for g in range(R + 1):
        for w in range(R - g + 1):
            ws[W_OPTS + n] = g * RENT_CODE + w
            n += 1
    ws[G_RENT] = R                  # the total, for the bot (see option_score)
    ws[G_RENT + 1] = 0
    ws[G_RENT + 2] = 0
    j = decide(st, ws, fs, D_RENT, 0, n, P)
    if j < 0:
        return 1
    o = ws[W_OPTS + j]
    ws[G_RENT] = o // RENT_CODE
    ws[G_RENT + 1] = o % RENT_CODE
    ws[G_RENT + 2] = R - o // RENT_CODE - o % RENT_CODE
    return 0


@njit(cache=True, inline="always", _nrt=False)
def card_effect(ws, e):
    """SG-3 [assumption]: how much a card does (rules.CARD_EFFECTS, ``FX_*``; 1 each by default)."""
    return ws[W_RULES + R_EFFECTS + e]


@njit(cache=True, _nrt=False)
def card_window(st, ws, fs, P, p):
    """SG-3: Censitaire p plays up to ``play_limit`` Censitaire cards, one at a time (cards played:
    ws[G_STEP]; a card's second choice pending: ws[G_SUB] 1 Récolte's type, 2 Troc's card, 3 Troc's
    type, the card given in G_REG). 1: stopped."""
    b = W_PL + p * PLS
    while ws[G_STEP] < rp(ws, P_CC_PLAY_LIMIT):
        if ws[G_SUB] == 0:
            ws[W_OPTS] = OPT_STOP
            n = 1
            ws[W_OPTS + n] = RECOLTE
            n += ws[b + X_CC + RECOLTE] > 0
            ws[W_OPTS + n] = CACHETTE
            n += (ws[b + X_CC + CACHETTE] > 0) & (ws[b + X_PROT] == 0)
            ws[W_OPTS + n] = TROC
            n += (ws[b + X_CC + TROC] > 0) & (ws[b + X_HANDN] > 0)
            if n == 1:
                return 0
            j = decide(st, ws, fs, D_PLAY_CARD, p, n, P)
            if j < 0:
                return 1
            k = ws[W_OPTS + j]
            if k == OPT_STOP:
                return 0
            ws[b + X_CC + k] -= 1
            ws[W_CC_DISC + k] += 1
            if k == CACHETTE:
                ws[b + X_PROT] = 1
                ws[G_STEP] += 1
                continue
            ws[G_SUB] = 1 if k == RECOLTE else 2
        if ws[G_SUB] == 1:
            for t in range(N_RES):
                ws[W_OPTS + t] = t
            j = decide(st, ws, fs, D_RECOLTE_TYPE, p, N_RES, P)
            if j < 0:
                return 1
            t = ws[W_OPTS + j]
            for _ in range(card_effect(ws, FX_RECOLTE_DRAWS)):    # 1 card in the book's reading
                draw_resource(st, ws, p, t)
        else:
            if ws[G_SUB] == 2:
                n = list_hand(ws, p, 0)
                j = decide(st, ws, fs, D_TROC_GIVE, p, n, P)
                if j < 0:
                    return 1
                c = ws[W_OPTS + j]
                if card_effect(ws, FX_TROC_DISCARDS):     # 0: the card given is kept
                    discard_resource(ws, p, c)
                ws[G_REG] = c
                ws[G_SUB] = 3
            n = 0
            for t in range(N_RES):
                ws[W_OPTS + n] = t
                n += t != ws[G_REG] // N_VALUES
            j = decide(st, ws, fs, D_TROC_TYPE, p, n, P)
            if j < 0:
                return 1
            t = ws[W_OPTS + j]
            for _ in range(card_effect(ws, FX_TROC_DRAWS)):       # 1 card in the book's reading
                draw_resource(st, ws, p, t)
        ws[G_SUB] = 0
        ws[G_STEP] += 1
    return 0


@njit(cache=True, _nrt=False)
def card_windows(st, ws, fs, P):
    """SG-3: each Censitaire's card window in seat order (from ws[G_CUR]). 1: stopped."""
    for p in range(ws[G_CUR], P):
        if card_window(st, ws, fs, P, p):
            return 1
        ws[G_STEP] = 0
        ws[G_SUB] = 0
        ws[G_CUR] = p + 1
    return 0


@njit(cache=True, _nrt=False)
def pay(st, ws, fs, P, p):
    """SG-5.4: Censitaire p gives resource cards, one at a time, until it stops or holds none; what
    it gives goes to G_RECV and W_RECV_CARDS (and its X_GIVEN, X_GIVEN_NT, X_PAID). 1: stopped
    (resumable: the state is the hand). The search's worlds replay earlier payers with it."""
    b = W_PL + p * PLS
    while ws[b + X_HANDN] > 0:
        ws[W_OPTS] = OPT_STOP
        n = list_hand(ws, p, 1)
        j = decide(st, ws, fs, D_PAY, p, n, P)
        if j < 0:
            return 1
        c = ws[W_OPTS + j]
        if c == OPT_STOP:
            break
        t = c // N_VALUES
        v = c % N_VALUES
        hand_add(ws, p, t, v, -1)
        ws[W_RECV_CARDS + c] += 1
        ws[G_NRECV] += 1
        ws[G_RECV + t] += v
        ws[b + X_GIVEN] += v
        ws[b + X_GIVEN_NT + t] += 1
        ws[b + X_PAID] += v
    return 0


@njit(cache=True, _nrt=False)
def payment(st, ws, fs, P):
    """SG-5.4: each Censitaire pays (:func:`pay`); ws[G_CUR] is the next payer's place in the order
    ``payment.order`` sets: "seat" 1, 2, …; "rotating" starting one seat later each turn;
    "simultaneous" in seat order, but each payer chooses from the position before anyone paid
    (what the ones before it gave is kept aside, its value in G_PAY_HELD out of G_RECV, its cards in
    W_PAY_HELD_CARDS out of W_RECV_CARDS, until the last has paid; G_RECV is 0 when payment starts:
    only payment and forced draws fill it). 1: stopped (resumable)."""
    order = ws[W_RULES + R_PAY_ORDER]
    C = P - 1
    first = (ws[G_TURN] - 1) % C if order == PAY_ROTATING else 0
    for i in range(ws[G_CUR], P):
        if pay(st, ws, fs, P, 1 + (i - 1 + first) % C):
            return 1
        if order == PAY_SIMULTANEOUS:
            for t in range(N_RES):
                ws[G_PAY_HELD + t] += ws[G_RECV + t]
                ws[G_RECV + t] = 0
            for c in range(HS):
                ws[W_PAY_HELD_CARDS + c] += ws[W_RECV_CARDS + c]
                ws[W_RECV_CARDS + c] = 0
        ws[G_CUR] = i + 1
    if order == PAY_SIMULTANEOUS:
        for t in range(N_RES):
            ws[G_RECV + t] += ws[G_PAY_HELD + t]
            ws[G_PAY_HELD + t] = 0
        for c in range(HS):
            ws[W_RECV_CARDS + c] += ws[W_PAY_HELD_CARDS + c]
            ws[W_PAY_HELD_CARDS + c] = 0
    return 0


# =================================================================================================
# Accounting (SG-5.5)
# =================================================================================================
@njit(cache=True, inline="always", _nrt=False)
def rent_met(ws):
    return (ws[G_RECV] >= ws[G_RENT]) & (ws[G_RECV + 1] >= ws[G_RENT + 1]) & (
        ws[G_RECV + 2] >= ws[G_RENT + 2])


@njit(cache=True, _nrt=False)
def seigneur_card_window(st, ws, fs, P):
    """SG-3 / SG-7: the Seigneur plays Seigneur cards one at a time (Réquisition only when short);
    a Corvée's target is chosen next (ws[G_SUB] = 1 while pending). 1: stopped."""
    while True:
        if ws[G_SUB] == 0:
            ws[W_OPTS] = OPT_STOP
            n = 1
            if ws[G_SC_HAND + REQUISITION] > 0 and not rent_met(ws):
                ws[W_OPTS + n] = REQUISITION
                n += 1
            if ws[G_SC_HAND + CORVEE] > 0:
                anyone = False
                for q in range(1, P):
                    if ws[W_PL + q * PLS + X_HANDN] > 0:
                        anyone = True
                if anyone:
                    ws[W_OPTS + n] = CORVEE
                    n += 1
            if n == 1:
                return 0
            j = decide(st, ws, fs, D_SEIGNEUR_CARD, 0, n, P)
            if j < 0:
                return 1
            k = ws[W_OPTS + j]
            if k == OPT_STOP:
                return 0
            ws[G_SC_HAND + k] -= 1
            ws[W_SC_DISC + k] += 1
            if k == REQUISITION:
                ws[G_EXTRA] += card_effect(ws, FX_REQUISITION_DRAWS)   # 1 in the book's reading
                continue
            ws[G_SUB] = 1
        n = 0
        for q in range(1, P):
            ws[W_OPTS + n] = q
            n += ws[W_PL + q * PLS + X_HANDN] > 0
        j = decide(st, ws, fs, D_CORVEE_TARGET, 0, n, P)
        if j < 0:
            return 1
        q = ws[W_OPTS + j]
        for _ in range(card_effect(ws, FX_CORVEE_DISCARDS)):      # 1 card in the book's reading
            if ws[W_PL + q * PLS + X_HANDN] == 0:
                break
            c = card_at(ws, q, below(st, ws[W_PL + q * PLS + X_HANDN]))
            discard_resource(ws, q, c)
        ws[G_SUB] = 0


@njit(cache=True, _nrt=False)
def forced_draw(st, ws, p):
    """SG-5.5: a random card of p's hand; kept if its type is still missing, else given back."""
    c = card_at(ws, p, below(st, ws[W_PL + p * PLS + X_HANDN]))
    t = c // N_VALUES
    if ws[G_RECV + t] < ws[G_RENT + t]:
        v = c % N_VALUES
        hand_add(ws, p, t, v, -1)
        ws[W_RECV_CARDS + c] += 1
        ws[G_NRECV] += 1
        ws[G_RECV + t] += v
        ws[W_PL + p * PLS + X_SEIZED] += v


@njit(cache=True, _nrt=False)
def forced_draws(st, ws, fs, P):
    """SG-5.5 short rent: the Censitaires not hidden by a Cachette, who gave least first (ties: the
    Seigneur's choice), ``forced_draws_before`` / ``_after`` draws each (those visited: the bit
    mask G_REG2); then (ws[G_SUB] = 1) one draw per Réquisition (drawn: ws[G_STEP]) from a
    Censitaire of his choice; he stops once the rent is met. 1: stopped."""
    if ws[G_SUB] == 0:
        limit = rp(ws, P_FORCED_AFTER if ws[G_IMPROVED] != 0 else P_FORCED_BEFORE)
        if ws[G_STEP] == 0:                   # first entry: the Censitaires hidden are visited
            visited = 0
            hides = card_effect(ws, FX_CACHETTE_HIDES) != 0     # 0: a Cachette hides nothing
            for q in range(1, P):
                if hides and ws[W_PL + q * PLS + X_PROT] != 0:
                    visited |= 1 << q
            ws[G_REG2] = visited
            ws[G_STEP] = 1
        while not rent_met(ws):
            visited = ws[G_REG2]
            least = 1 << 40
            for q in range(1, P):
                if (visited >> q) & 1 == 0 and ws[W_PL + q * PLS + X_GIVEN] < least:
                    least = ws[W_PL + q * PLS + X_GIVEN]
            if least == 1 << 40:
                break
            n = 0
            for q in range(1, P):
                ws[W_OPTS + n] = q
                n += ((visited >> q) & 1 == 0) & (ws[W_PL + q * PLS + X_GIVEN] == least)
            j = decide(st, ws, fs, D_DRAW_ORDER, 0, n, P)
            if j < 0:
                return 1
            p = ws[W_OPTS + j]
            ws[G_REG2] = visited | (1 << p)
            for _ in range(limit):
                if rent_met(ws) or ws[W_PL + p * PLS + X_HANDN] == 0:
                    break
                forced_draw(st, ws, p)
        ws[G_SUB] = 1
        ws[G_STEP] = 0
    while ws[G_STEP] < ws[G_EXTRA]:
        if rent_met(ws):
            break
        n = 0
        hides = card_effect(ws, FX_CACHETTE_HIDES) != 0
        for q in range(1, P):
            b = W_PL + q * PLS
            ws[W_OPTS + n] = q
            n += ((ws[b + X_PROT] == 0) | (not hides)) & (ws[b + X_HANDN] > 0)
        if n == 0:
            break
        j = decide(st, ws, fs, D_REQUISITION_TARGET, 0, n, P)
        if j < 0:
            return 1
        forced_draw(st, ws, ws[W_OPTS + j])
        ws[G_STEP] += 1
    return 0


@njit(cache=True, _nrt=False)
def award_favour(st, ws, fs, P):
    """SG-5.4 / SG-5.5: favour points -- the Seigneur's distribution, point by point (left:
    G_REG), when the rent was met of the Censitaires' own accord (G_REG = 1 on entry), else 1 per
    resource given -- then (ws[G_SUB] = 2) every ``per_card`` points become a Censitaire card,
    Censitaire by Censitaire from ws[G_CUR] (its points added: ws[G_STEP] = 1), each within the
    hand limit. 1: stopped."""
    if ws[G_SUB] == 0:
        if ws[G_REG] != 0 and rp(ws, P_FAVOUR_DISTRIBUTION) != 0:
            ws[G_REG] = rent_total(ws, P)
            ws[G_SUB] = 1
        else:
            for q in range(1, P):
                b = W_PL + q * PLS
                ws[b + X_POINTS] = ws[b + X_GIVEN]
            ws[G_SUB] = 2
    if ws[G_SUB] == 1:
        left = ws[G_REG]
        while left > 0:
            n = 0
            room = 0
            for q in range(1, P):
                b = W_PL + q * PLS
                r = ws[b + X_GIVEN] - ws[b + X_POINTS]
                ws[W_OPTS + n] = q
                n += r > 0
                room += r
            if n == 1 or room <= left:
                for j in range(n):
                    b = W_PL + ws[W_OPTS + j] * PLS
                    k = ws[b + X_GIVEN] - ws[b + X_POINTS]
                    if k > left:
                        k = left
                    ws[b + X_POINTS] += k
                    left -= k
                break
            j = decide(st, ws, fs, D_FAVOUR, 0, n, P)
            if j < 0:
                return 1
            ws[W_PL + ws[W_OPTS + j] * PLS + X_POINTS] += 1
            left -= 1
            ws[G_REG] = left
        ws[G_SUB] = 2
    per_card = rp(ws, P_FAVOUR_PER_CARD)
    for q in range(ws[G_CUR], P):
        b = W_PL + q * PLS
        if ws[G_STEP] == 0:
            ws[b + X_FAV_EARNED] += ws[b + X_POINTS]
            ws[b + X_FAV_HELD] += ws[b + X_POINTS]
            ws[G_STEP] = 1
        while True:
            if hand_limit(st, ws, fs, P, q):
                return 1
            if ws[b + X_FAV_HELD] < per_card:
                break
            ws[b + X_FAV_HELD] -= per_card
            k = draw_cc(st, ws)
            if k >= 0:
                ws[b + X_CC + k] += 1
        ws[G_STEP] = 0
        ws[G_CUR] = q + 1
    return 0


@njit(cache=True, _nrt=False)
def close_accounts(st, ws):
    """SG-5.5's end: a Seigneur card if nothing was received; the cards received go to their
    discard piles. Returns 1 when the whole rent was received."""
    if ws[G_NRECV] == 0:
        k = draw_sc(st, ws)
        if k >= 0:
            ws[G_SC_HAND + k] += 1
    for c in range(HS):
        ws[W_RES_DISC + c] += ws[W_RECV_CARDS + c]
        ws[W_RECV_CARDS + c] = 0
    return rent_met(ws)


# =================================================================================================
# Progress (SG-5.6), victory (SG-6), the turn
# =================================================================================================
@njit(cache=True, _nrt=False)
def progress(st, ws, fs, P):
    """SG-5.6: one square for the whole rent (ws[G_SUB] = 0); at the midpoint each Censitaire
    (from ws[G_CUR]) improves a terrain. 1: stopped."""
    if ws[G_SUB] == 0:
        ws[G_SQUARE] += 1
        if ws[G_IMPROVED] != 0 or ws[G_SQUARE] < rp(ws, P_MIDPOINT + P - MIN_PLAYERS):
            return 0
        ws[G_IMPROVED] = 1
        ws[G_IMPROVE_TURN] = ws[G_TURN]
        ws[G_SUB] = 1
    for p in range(ws[G_CUR], P):
        for t in range(N_RES):
            ws[W_OPTS + t] = t
        j = decide(st, ws, fs, D_IMPROVE, p, N_RES, P)
        if j < 0:
            return 1
        ws[W_PL + p * PLS + X_IMPROVED] = ws[W_OPTS + j]
        ws[G_CUR] = p + 1
    return 0


@njit(cache=True, inline="always", _nrt=False)
def holds_objective(ws, p):
    """SG-2: p holds at least what its Objective card asks of every type."""
    b = W_PL + p * PLS
    o = W_RULES + R_OBJ + 3 * ws[b + X_OBJ]
    return (ws[b + X_RES] >= ws[o]) & (ws[b + X_RES + 1] >= ws[o + 1]) & (ws[b + X_RES + 2] >= ws[o + 2])


@njit(cache=True, _nrt=False)
def victory(st, ws, fs, P):
    """SG-6 at the end of a turn: the Seigneur on the goal square wins (even if a Censitaire holds
    its objective: the tie-break "Seigneur and Censitaire on the same turn: the Seigneur wins",
    recorded as its own end reason SEIGNEUR_GOAL_OVER_OBJECTIVE; SEIGNEUR_GOAL when none holds it);
    else a Censitaire holding its objective, several: the most resources, still tied: the
    Seigneur's pick. The turn bound ends the game as truncated. 1: stopped."""
    if ws[G_SQUARE] >= rp(ws, P_GOAL + P - MIN_PLAYERS):
        reason = SEIGNEUR_GOAL
        for p in range(1, P):
            if holds_objective(ws, p):
                reason = SEIGNEUR_GOAL_OVER_OBJECTIVE
        ws[G_OVER] = reason + 1
        ws[G_WINNER] = 0
        return 0
    best = -1
    for p in range(1, P):
        if holds_objective(ws, p):
            b = W_PL + p * PLS
            tot = ws[b + X_RES] + ws[b + X_RES + 1] + ws[b + X_RES + 2]
            if tot > best:
                best = tot
    if best >= 0:
        n = 0
        for p in range(1, P):
            b = W_PL + p * PLS
            ws[W_OPTS + n] = p
            n += holds_objective(ws, p) & (ws[b + X_RES] + ws[b + X_RES + 1] + ws[b + X_RES + 2] == best)
        j = decide(st, ws, fs, D_TIE_WINNER, 0, n, P)
        if j < 0:
            return 1
        ws[G_WINNER] = ws[W_OPTS + j]
        ws[G_OVER] = CENSITAIRE_OBJECTIVE + 1
    elif ws[G_TURN] >= rp(ws, P_MAX_TURNS):
        ws[G_OVER] = TRUNCATED + 1
        ws[G_WINNER] = -1
    return 0


@njit(cache=True, _nrt=False)
def end_of_turn(st, ws, fs, P):
    """SG-3 end of Winter: the Seigneur discards his cards; sick pawns recover a turn (once:
    ws[G_SUB] = 1 after); then victory (SG-6). 1: stopped."""
    if ws[G_SUB] == 0:
        if (ws[G_TURN] - 1) % 4 == 3:
            for k in range(2):
                ws[W_SC_DISC + k] += ws[G_SC_HAND + k]
                ws[G_SC_HAND + k] = 0
        for p in range(1, P):
            b = W_PL + p * PLS
            if ws[b + X_SICK] > 0:
                ws[b + X_SICK] -= 1
        ws[G_SUB] = 1
    return victory(st, ws, fs, P)


@njit(cache=True, _nrt=False)
def play_turns(st, ws, fs, P, debug):
    """Play on from where the game stands (a turn's phase in ws[G_PHASE], the engine protocol's
    order: turn start, winter, positioning, harvest, rent, card windows, payment, the Seigneur's
    cards, forced draws, favour, progress, the turn's end and victory) until the game is over (0);
    with ws[G_STOP] = 1 until a searching seat must choose among two or more options (1: its seat
    in ws[G_DECIDER], options in W_OPTS, their count in ws[G_NOPT]; call again with
    ws[G_FORCED] = the option's index); with ws[G_LIMIT] > 0 (a playout's horizon) until turn
    ws[G_LIMIT] is over (2). ``debug``: the invariants after every turn."""
    while ws[G_OVER] == 0:
        ph = ws[G_PHASE]
        if ph == PH_START:
            if ws[G_LIMIT] > 0 and ws[G_TURN] >= ws[G_LIMIT]:
                return 2
            start_turn(st, ws, P)
            nxt = PH_WINTER if (ws[G_TURN] - 1) % 4 == 3 else PH_PLACE
        elif ph == PH_WINTER:
            if winter(st, ws, fs, P):
                return 1
            nxt = PH_PLACE
        elif ph == PH_PLACE:
            if positioning(st, ws, fs, P):
                return 1
            nxt = PH_HARVEST
        elif ph == PH_HARVEST:
            if harvest(st, ws, fs, P):
                return 1
            nxt = PH_RENT
        elif ph == PH_RENT:
            if set_rent(st, ws, fs, P):
                return 1
            nxt = PH_CARDS
        elif ph == PH_CARDS:
            if card_windows(st, ws, fs, P):
                return 1
            nxt = PH_PAY
        elif ph == PH_PAY:
            if payment(st, ws, fs, P):
                return 1
            nxt = PH_SEIGNEUR_CARDS
        elif ph == PH_SEIGNEUR_CARDS:
            if seigneur_card_window(st, ws, fs, P):
                return 1
            nxt = PH_FAVOUR if rent_met(ws) else PH_FORCED
        elif ph == PH_FORCED:
            if forced_draws(st, ws, fs, P):
                return 1
            nxt = PH_FAVOUR
        elif ph == PH_FAVOUR:
            if award_favour(st, ws, fs, P):
                return 1
            nxt = PH_PROGRESS if close_accounts(st, ws) else PH_END
        elif ph == PH_PROGRESS:
            if progress(st, ws, fs, P):
                return 1
            nxt = PH_END
        else:
            if end_of_turn(st, ws, fs, P):
                return 1
            nxt = PH_START
            if debug:
                check_invariants(ws, P)
        if nxt == PH_SEIGNEUR_CARDS:
            ws[G_REG] = rent_met(ws)          # met of the Censitaires' own accord (award_favour)
        ws[G_PHASE] = nxt
        ws[G_CUR] = 1
        ws[G_STEP] = 0
        ws[G_SUB] = 0
    return 0


@njit(cache=True, _nrt=False)
def play_game(st, ws, fs, P, debug):
    """One game from setup to the end (SG-1 … SG-6)."""
    setup_game(st, ws, P)
    if debug:
        check_invariants(ws, P)
    play_turns(st, ws, fs, P, debug)


# =================================================================================================
# Score and debug invariants
# =================================================================================================
@njit(cache=True, _nrt=False)
def progress_percent(ws, P, p):
    """The score: progress toward the seat's own goal, percent (floor)."""
    if p == 0:
        v = 100 * ws[G_SQUARE] // rp(ws, P_GOAL + P - MIN_PLAYERS)
        return v if v < 100 else 100
    b = W_PL + p * PLS
    o = W_RULES + R_OBJ + 3 * ws[b + X_OBJ]
    got = 0
    for t in range(N_RES):
        got += min(ws[b + X_RES + t], ws[o + t])
    return 100 * got // (ws[o] + ws[o + 1] + ws[o + 2])


@njit(cache=True, _nrt=False)
def check_invariants(ws, P):
    """Debug (``debug=True``, after setup and every turn): resource cards conserved per type and
    value over piles, discards, hands and laid cards; Censitaire and Seigneur cards conserved;
    hand totals agree with the counts; favour held below one card's worth and Censitaire cards
    within the hand limit; the Seigneur's square on the track. Writes an error code (10+)."""
    cnt = W_BEST          # scratch
    for c in range(HS):
        ws[cnt + c] = ws[W_RES_DISC + c] + ws[W_RECV_CARDS + c] + ws[W_PAY_HELD_CARDS + c]
    for t in range(N_RES):
        for i in range(ws[G_RES_PILE_N + t]):
            ws[cnt + t * N_VALUES + ws[W_RES_PILE + t * MAX_DECK + i]] += 1
    for p in range(1, P):
        b = W_PL + p * PLS
        tot = 0
        for t in range(N_RES):
            nt = 0
            res = 0
            ws[cnt + t * N_VALUES] += ws[b + X_LAID + t]
            for v in range(N_VALUES):
                k = ws[W_HAND + p * HS + t * N_VALUES + v]
                if k < 0:
                    ws[G_ERROR] = E_HAND_COUNT
                ws[cnt + t * N_VALUES + v] += k
                nt += k
                res += k * v
            if nt != ws[b + X_NT + t] or res != ws[b + X_RES + t]:
                ws[G_ERROR] = E_HAND_COUNT
            tot += nt
        if tot != ws[b + X_HANDN]:
            ws[G_ERROR] = E_HAND_COUNT
        if not 0 <= ws[b + X_FAV_HELD] < rp(ws, P_FAVOUR_PER_CARD):
            ws[G_ERROR] = E_FAVOUR_OUT_OF_BOUNDS
        if ws[b + X_CC] + ws[b + X_CC + 1] + ws[b + X_CC + 2] > rp(ws, P_CC_HAND_LIMIT):
            ws[G_ERROR] = E_FAVOUR_OUT_OF_BOUNDS
    for c in range(HS):
        if ws[cnt + c] != ws[W_RULES + R_RESC + c]:
            ws[G_ERROR] = E_RESOURCES_NOT_CONSERVED
    for k in range(3):
        c = ws[W_CC_DISC + k]
        for i in range(ws[G_CC_PILE_N]):
            c += ws[W_CC_PILE + i] == k
        for p in range(1, P):
            c += ws[W_PL + p * PLS + X_CC + k]
        if c != ws[W_RULES + R_CCC + k]:
            ws[G_ERROR] = E_CARDS_NOT_CONSERVED
    for k in range(2):
        c = ws[W_SC_DISC + k] + ws[G_SC_HAND + k]
        for i in range(ws[G_SC_PILE_N]):
            c += ws[W_SC_PILE + i] == k
        if c != ws[W_RULES + R_SCC + k]:
            ws[G_ERROR] = E_CARDS_NOT_CONSERVED
    if not 0 <= ws[G_SQUARE] <= rp(ws, P_GOAL + P - MIN_PLAYERS):
        ws[G_ERROR] = E_TRACK_OUT_OF_BOUNDS
