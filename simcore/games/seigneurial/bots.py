"""Seigneurial bots (SG-7), the decisions: how the random and policy strategies choose among the
legal options the rules of play (:mod:`simcore.games.seigneurial.kernel`) list in ``ws[W_OPTS:]``,
with exactly one draw of the game's stream per asked decision (random: the choice; policy: the
tie-break among its best-scored options); a decision with one option is taken without asking. Every
asked decision is appended to the trace so the reference engine can replay the game. Also the hand
helpers both modules need (:func:`hand_add`, :func:`list_winter`). A bot reads only what its seat may
see (SG-7): a Censitaire its own hand, Objective card and Censitaire cards, the rent and what has
been paid; the Seigneur the number of cards of each type in each hand (the public record of draws
and payments shows it, never the values), the cards in hand and what each Censitaire gave.

May import numba, :mod:`simcore.rng`, the layout and the constants of
:mod:`simcore.games.seigneurial.rules` -- never kernel or driver, which import it.
"""

from __future__ import annotations

from numba import njit

from simcore.games.seigneurial.layout import (
    D_CHURCH_KEEP, D_CORVEE_TARGET, D_DISCARD_CARD, D_DRAW_ORDER, D_FAVOUR, D_IMPROVE, D_PAY,
    D_PLACE, D_PLAY_CARD, D_RECOLTE_TYPE, D_RENT, D_REQUISITION_TARGET, D_SEIGNEUR_CARD,
    D_TROC_GIVE, D_TROC_TYPE, D_WINTER, E_NO_OPTION, F_SCORE, F_STRAT, G_KIND, G_PAY_STAMP,
    G_PAY_START, G_PAY_TARGET, G_RECV, G_RENT, G_TRACE_CAP, G_TRACE_N, G_TURN, G_ERROR, HS,
    KIND_RANDOM, N_STRAT_COLS, OPT_STOP, PLS, RENT_CODE, R_OBJ, R_PARAMS, S_CARDS, S_CHURCH,
    S_CORVEE, S_FAVOUR, S_KIND, S_OBJECTIVE, S_PAY, S_RENT, S_REQUISITION, S_RESERVE, S_SPARE,
    S_WINTER, W_BEST, W_HAND, W_OPTS, W_PL, W_RULES, W_TRACE, X_GIVEN, X_HANDN, X_IMPROVED,
    X_LAID, X_NT, X_OBJ, X_POINTS, X_RES,
)
from simcore.games.seigneurial.rules import (
    CACHETTE, CHURCH, CORVEE, MILL, N_RES, N_SQUARES, N_VALUES, P_BONUS, P_WINTER_PAYMENT, RECOLTE,
    REQUISITION,
)
from simcore.rng import below

# The Numba cache stamp covers this whole folder (set by the registry, simcore.games).


# =================================================================================================
# Hands (SG-1): counts per (type, value), with the totals kept beside them
# =================================================================================================
@njit(cache=True, inline="always", _nrt=False)
def hand_add(ws, p, t, v, k):
    """k cards of type t and value v into p's hand (k < 0 takes them out); totals follow."""
    ws[W_HAND + p * HS + t * N_VALUES + v] += k
    b = W_PL + p * PLS
    ws[b + X_HANDN] += k
    ws[b + X_NT + t] += k
    ws[b + X_RES + t] += v * k


@njit(cache=True, _nrt=False)
def list_winter(ws, p, write):
    """SG-4: the sets of cards worth exactly the winter payment (nondecreasing card codes
    t * 8 + v, depth first), else single cards worth more; written to W_OPTS when ``write``.
    Returns how many (without the "decline" option)."""
    W = ws[W_RULES + R_PARAMS + P_WINTER_PAYMENT]
    h = W_HAND + p * HS
    n = 0
    for a in range(HS):
        va = a % N_VALUES
        if va == 0 or ws[h + a] == 0 or va > W:
            continue
        if va == W:
            if write:
                ws[W_OPTS + n] = 1 + 4 * a
            n += 1
            continue
        for b in range(a, HS):
            vb = b % N_VALUES
            if vb == 0 or ws[h + b] < 1 + (b == a) or va + vb > W:
                continue
            if va + vb == W:
                if write:
                    ws[W_OPTS + n] = 2 + 4 * (a + 32 * b)
                n += 1
                continue
            for c in range(b, HS):
                vc = c % N_VALUES
                if vc == 0 or va + vb + vc != W:
                    continue
                if ws[h + c] < 1 + (c == a) + (c == b):
                    continue
                if write:
                    ws[W_OPTS + n] = 3 + 4 * (a + 32 * (b + 32 * c))
                n += 1
    if n == 0:
        for a in range(HS):
            if a % N_VALUES > W and ws[h + a] > 0:
                if write:
                    ws[W_OPTS + n] = 1 + 4 * a
                n += 1
    return n


@njit(cache=True, inline="always", _nrt=False)
def need(ws, p, t):
    """What p's Objective card still asks of type t (0 when held)."""
    b = W_PL + p * PLS
    r = ws[W_RULES + R_OBJ + 3 * ws[b + X_OBJ] + t] - ws[b + X_RES + t]
    return r if r > 0 else 0


# =================================================================================================
# Option scores of the policy bots (SG-7)
# =================================================================================================
# One function per kind of decision, each compiled once: the callers of ``ask`` pass the kind
# as a constant, and Numba compiles a jitted function once per constant value it is called with
# (ask: 27 specialisations, one per call site's constants). With the scores of every kind in one
# function, each of its 18 specialisations compiled all of them (Seigneurial's cold compile:
# ~110 s CPU); a single signature instead (one generic compile) cost ~6% of kernel time (the
# kind no longer a constant in the caller). Here ``option_score`` is only the dispatch, folded
# away in each specialisation, and the scoring code below is compiled once per kind. The seat
# and option are passed on as plain integers (``p + 0``: an arithmetic result is never a
# constant) so that a seat given as the constant 0 (the Seigneur's decisions) adds no compile.
@njit(cache=True, _nrt=False)
def _score_winter(ws, fs, sb, p, o):
    spare = fs[sb + S_SPARE]
    if o == OPT_STOP:
        w = fs[sb + S_WINTER]
        if w == 0:
            return -1000.0
        if w == 1:
            return 1.0
        return -9.5
    n = o % 4
    codes = o // 4
    cost = 0.0
    for i in range(n):
        c = codes % 32
        codes //= 32
        t = c // N_VALUES
        cost += c % N_VALUES + (10.0 * spare if need(ws, p, t) > 0 else 0.0)
    return -cost


@njit(cache=True, _nrt=False)
def _score_place(ws, fs, sb, p, o):
    b = W_PL + p * PLS
    v = 0.0
    for s in range(N_SQUARES):
        if (o >> s) & 1:
            if s < N_RES:
                k = 1.0 + (ws[W_RULES + R_PARAMS + P_BONUS] if ws[b + X_IMPROVED] == s else 0)
                v += k * (1.0 + (fs[sb + S_OBJECTIVE] if need(ws, p, s) > 0 else 0.0))
            elif s == CHURCH:
                v += fs[sb + S_CHURCH]
            else:
                for t in range(N_RES):
                    v += ws[b + X_LAID + t] * (
                        1.0 + (fs[sb + S_OBJECTIVE] if need(ws, p, t) > 0 else 0.0))
    return v


@njit(cache=True, _nrt=False)
def _card_value(fs, sb, o):
    """How much a Censitaire card is worth keeping (D_CHURCH_KEEP; D_DISCARD_CARD negates it)."""
    if o == RECOLTE:
        return 2.0
    if o == CACHETTE:
        return 2.0 if fs[sb + S_PAY] == 0 else 0.5
    return 1.5 if fs[sb + S_CARDS] != 0 else 0.0


@njit(cache=True, _nrt=False)
def _score_play_card(ws, fs, sb, p, o):
    b = W_PL + p * PLS
    if o == OPT_STOP:
        return 0.0
    if fs[sb + S_CARDS] == 0:
        return -1.0
    if o == RECOLTE:
        return 1.0
    if o == CACHETTE:
        return 1.0 if fs[sb + S_PAY] == 0 else -1.0
    needy = False      # TROC: a card of a type not needed for one that is
    spare_card = False
    for t in range(N_RES):
        if need(ws, p, t) > 0:
            needy = True
        elif ws[b + X_NT + t] > 0:
            spare_card = True
    return 1.0 if needy and spare_card else -1.0


@njit(cache=True, _nrt=False)
def _score_need(ws, p, o):
    return float(need(ws, p, o))


@njit(cache=True, _nrt=False)
def _score_troc_give(ws, p, o):
    t = o // N_VALUES
    return -float(o % N_VALUES) - (10.0 if need(ws, p, t) > 0 else 0.0)


@njit(cache=True, _nrt=False)
def _score_pay(ws, fs, sb, p, o):
    if o == OPT_STOP:
        return 0.0
    t = o // N_VALUES
    v = o % N_VALUES
    left = ws[G_PAY_TARGET + t] - (ws[G_RECV + t] - ws[G_PAY_START + t])
    if left <= 0:
        return -1.0
    s = float(min(v, left)) - 0.25 * max(0, v - left)
    if fs[sb + S_SPARE] != 0 and need(ws, p, t) > 0:
        s -= 10.0
    if fs[sb + S_RESERVE] != 0 and list_winter(ws, p, False) > 0:
        hand_add(ws, p, t, v, -1)
        if list_winter(ws, p, False) == 0:
            s -= 5.0
        hand_add(ws, p, t, v, 1)
    return s


@njit(cache=True, _nrt=False)
def _score_rent(ws, fs, sb, P, o):
    g = o // RENT_CODE
    w = o % RENT_CODE
    R = ws[G_RENT] + ws[G_RENT + 1] + ws[G_RENT + 2]      # the total, set before asking
    f = R - g - w
    pol = fs[sb + S_RENT]
    if pol == 0:
        return -float((3 * g - R) ** 2 + (3 * w - R) ** 2 + (3 * f - R) ** 2)
    h0 = 0
    h1 = 0
    h2 = 0
    for q in range(1, P):
        h0 += ws[W_PL + q * PLS + X_NT]
        h1 += ws[W_PL + q * PLS + X_NT + 1]
        h2 += ws[W_PL + q * PLS + X_NT + 2]
    v = float(g * h0 + w * h1 + f * h2)
    return v if pol == 1 else -v


@njit(cache=True, _nrt=False)
def _score_seigneur_card(ws, fs, sb, o):
    if o == OPT_STOP:
        return 0.0
    if o == REQUISITION:
        return 1.0 if fs[sb + S_REQUISITION] != 0 else -1.0
    c = fs[sb + S_CORVEE]
    if c == 1 or (c == 2 and (ws[G_TURN] - 1) % 4 == 3):
        return 1.0
    return -1.0


@njit(cache=True, _nrt=False)
def _score_target(ws, o):
    """D_DRAW_ORDER, D_REQUISITION_TARGET: the share of the Censitaire's cards of types still owed."""
    q = W_PL + o * PLS
    if ws[q + X_HANDN] == 0:
        return -1.0
    m = 0
    for t in range(N_RES):
        if ws[G_RECV + t] < ws[G_RENT + t]:
            m += ws[q + X_NT + t]
    return m / ws[q + X_HANDN]


@njit(cache=True, _nrt=False)
def _score_favour(ws, fs, sb, o):
    q = W_PL + o * PLS
    pol = fs[sb + S_FAVOUR]
    if pol == 0:
        return -float(ws[q + X_POINTS])
    if pol == 1:
        return float(ws[q + X_GIVEN] - ws[q + X_POINTS])
    return -float(ws[q + X_HANDN])


@njit(cache=True, _nrt=False)
def option_score(ws, fs, sb, kind, p, P, o):
    """Score of option code ``o`` of a decision of the given kind for seat p (the higher, the
    better; ties are broken by one draw)."""
    p = p + 0          # plain integers from here (see above)
    o = o + 0
    if kind == D_WINTER:
        return _score_winter(ws, fs, sb, p, o)
    if kind == D_PLACE:
        return _score_place(ws, fs, sb, p, o)
    if kind == D_CHURCH_KEEP:
        return _card_value(fs, sb, o)
    if kind == D_DISCARD_CARD:
        return -_card_value(fs, sb, o)
    if kind == D_PLAY_CARD:
        return _score_play_card(ws, fs, sb, p, o)
    if kind == D_RECOLTE_TYPE or kind == D_TROC_TYPE or kind == D_IMPROVE:
        return _score_need(ws, p, o)
    if kind == D_TROC_GIVE:
        return _score_troc_give(ws, p, o)
    if kind == D_PAY:
        return _score_pay(ws, fs, sb, p, o)
    if kind == D_RENT:
        return _score_rent(ws, fs, sb, P + 0, o)
    if kind == D_SEIGNEUR_CARD:
        return _score_seigneur_card(ws, fs, sb, o)
    if kind == D_CORVEE_TARGET:
        return float(ws[W_PL + o * PLS + X_HANDN])
    if kind == D_DRAW_ORDER or kind == D_REQUISITION_TARGET:
        return _score_target(ws, o)
    if kind == D_FAVOUR:
        return _score_favour(ws, fs, sb, o)
    return 0.0     # D_TIE_WINNER: no preference


# =================================================================================================
# Decisions: one draw each, recorded for replay
# =================================================================================================
@njit(cache=True, inline="always", _nrt=False)
def record_decision(ws, n_options, choice):
    """Append (options offered, option chosen) to the decision trace W_TRACE, for replay."""
    k = ws[G_TRACE_N]
    if k < ws[G_TRACE_CAP]:
        ws[W_TRACE + 2 * k] = n_options
        ws[W_TRACE + 2 * k + 1] = choice
        ws[G_TRACE_N] = k + 1


@njit(cache=True, _nrt=False)
def prepare_pay(ws, fs, sb, p, P):
    """The paying Censitaire's targets per type, once per payment (SG-5.4): nothing ("none"); its
    share of the rent of each type ("share": the rent split evenly over the Censitaires, the odd
    units going round the seats turn by turn so no seat always pays them), at most what is still
    missing; or all that is still missing ("all")."""
    stamp = ws[G_TURN] * 8 + p
    if ws[G_PAY_STAMP] == stamp:
        return
    ws[G_PAY_STAMP] = stamp
    pol = fs[sb + S_PAY]
    C = P - 1
    for t in range(N_RES):
        missing = ws[G_RENT + t] - ws[G_RECV + t]
        if missing < 0:
            missing = 0
        if pol == 0:
            missing = 0
        elif pol == 1:
            r = ws[G_RENT + t]
            share = r // C + (1 if (p - 1 + ws[G_TURN] + t) % C < r % C else 0)
            if share < missing:
                missing = share
        ws[G_PAY_TARGET + t] = missing
        ws[G_PAY_START + t] = ws[G_RECV + t]


@njit(cache=True, _nrt=False)
def ask(st, ws, fs, kind, p, n, P):
    """The index of the option seat p chooses among the ``n`` listed in W_OPTS: 0 without asking
    when n == 1; else one draw -- random: below(n); policy: below(number of best-scored options)
    -- and the decision is recorded."""
    if n <= 1:
        if n <= 0:
            ws[G_ERROR] = E_NO_OPTION
        return 0
    sb = F_STRAT + p * N_STRAT_COLS
    if fs[sb + S_KIND] == KIND_RANDOM:
        c = below(st, n)
    else:
        ws[G_KIND] = kind
        if kind == D_PAY:
            prepare_pay(ws, fs, sb, p, P)
        best = -1e300
        for j in range(n):
            sc = option_score(ws, fs, sb, kind, p, P, ws[W_OPTS + j])
            fs[F_SCORE + j] = sc
            if sc > best:
                best = sc
        n_best = 0
        for j in range(n):
            ws[W_BEST + n_best] = j
            n_best += fs[F_SCORE + j] >= best - 1e-9
        c = ws[W_BEST + below(st, n_best)]
    record_decision(ws, n, c)
    return c
