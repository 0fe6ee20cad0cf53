"""Médiévallons bots (MV-8), the decisions: how the random and heuristic strategies choose among
the legal options, and the values they score them with. The rules of play
(:mod:`simcore.games.medievallons.kernel`) call :func:`ask` at every decision with the options
listed in ``ws[W_OPTS:]``; the seat's strategy row (in ``fs[F_STRAT:]``) says how to choose, with
exactly one draw of the game's stream per decision, and the decision is appended to the trace so
the reference engine can replay the game. A bot reads only what its player may see: its own hand,
every guild, the discard pile, hand and pile sizes, and ``W_KNOWN`` (cards it has seen in an
opponent's hand). The playout bot's action choice lives in
:mod:`simcore.games.medievallons.playout` (its other decisions are the heuristic ones made here),
because it plays games forward with the rules of play, which import this module. May import
numba, :mod:`simcore.rng`, :mod:`simcore.games.medievallons.layout` and the constants of
:mod:`simcore.games.medievallons.rules` -- never kernel, playout or driver, which import it.
"""

from __future__ import annotations

from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros
from numpy import uint64 as U

from simcore.games.medievallons.layout import (
    A_FOUND, A_PLAY, A_USE, D_ACTION, D_ASSASSIN, D_CHEVALIER, D_FOUND_SIZE, D_GIVE_ONE,
    D_GIVE_TWO, D_MAGICIEN, D_MARCHAND, D_MENDIANT, D_PRETRE, D_PRETRE_TAKE, D_REINFORCE_SIZE,
    D_REINFORCE_TYPE, D_RODEUR, E_NO_OPTION, F_ATTACK, F_FIXED, F_GAIN, F_HIDDEN, F_LEAD, F_LOSS,
    F_PROB, F_PV, F_PVOK, F_SCORE, F_SERIAL, F_SETD, F_SETV, F_STRAT, F_UNSEEN, GF, G_CTX_G,
    G_CTX_PLAYED, G_CTX_Q, G_DISC_N, G_ERROR, G_KIND, G_NGT_MASK, G_PLAYED, G_PREP_LEAD, G_PREP_STAMP,
    G_PV_PLAYED, G_ROT, G_SELF_ROW, G_TRACE_N, G_TURNS, MAXG, MAXP, MAX_TRACE, N_STRAT_COLS, PLS,
    R_COPIES, R_PARAMS, STRAT_RANDOM, S_ATTACK, S_BIAS, S_BREAK, S_DEFEND, S_DRAW, S_FOUND, S_HURT,
    S_KIND, S_LEADER, S_PROGRESS, S_SAVE, S_SETS, TS, W_BEST, W_DCNT, W_DISC, W_GUILD, W_HAND,
    W_KNOWN, W_NGT, W_OPTS, W_PL, W_RULES, W_TCNT, W_TRACE, X_GC, X_HANDN, X_NG,
)
from simcore.games.medievallons.rules import (
    ARTISAN, ASSASSIN, BOUFFON, CHEVALIER, ETOILE, MAGICIEN, MARCHAND, MENDIANT, MOINE, NOBLE,
    N_TYPES, PRETRE, P_ARTISAN_TAKES_PLAYED, P_MENDIANT_DRAWS_ON_TIE, P_MIN_GUILD, P_TO_WIN,
    RODEUR, SORCIERE,
)
from simcore.numba_cache import njit_on_demand
from simcore.rng import below

# The Numba cache stamp covers this whole folder (set by the registry, simcore.games).

# Numba's cache does not see edits to another file (measured with Numba 0.68: a cached caller kept
# the old code of an edited callee, and layout constants are frozen into the compiled code): after
# editing layout.py, bots.py, kernel.py or playout.py, delete the *.nbi / *.nbc files of
# simcore/games/medievallons/__pycache__ (or of NUMBA_CACHE_DIR) before trusting a run.
#
# Speed notes (each measured): helpers take (st, ws, fs) only and never allocate (_nrt=False);
# small ones are inlined (inline="always"). Values that vary between calls of a big helper travel
# through ws fields (G_KIND, G_PV_PLAYED, G_CTX_*), never as constant arguments: Numba compiles one
# specialization per literal argument value (`decide` once per decision kind). :func:`power_value`,
# which call sites feed constants, has an explicit signature instead. Per-decision caches (F_PV,
# F_PROB) are stamped with a decision serial rather than cleared, and a player's follow-up
# decisions in its own turn reuse the values priced for its action. Every computed index into ws,
# fs and sc is cast with ``U(...)`` (numpy.uint64), as in the Middle-Ages kernel: Numba wraps a
# negative signed index around (a compare and a select on every access) but not an unsigned one,
# and no index here is ever negative (tests/medievallons/test_mv_kernel_boundscheck.py plays every
# bot under NUMBA_BOUNDSCHECK=1). Measured with benchmarks/bench_kernel_ab.py --game medievallons
# (one process, decisions identical): random 0.85x, balanced 0.88x the CPU time per game.
# Data-dependent multiway branches cost more here than the work they select: the fixed powers'
# worth was a chain of tests on the card type (compiled to a jump table) at every option priced,
# and reading it from a table filled once per block (F_FIXED, :func:`fixed_value`) made a balanced
# game 0.95x (docs/medievallons_engine.md, fifth pass); :func:`score_options` is inlined into its
# one caller :func:`decide` (0.98x). Cutting work that stays predictable did not pay (same doc).


# =================================================================================================
# Where a bot reads the table
# =================================================================================================
@njit(cache=True, inline="always", _nrt=False)
def gslot(p, g):
    """Offset of guild slot g of player p (layout W_GUILD; MV-4). Here, in the lowest jitted
    module, so that the bots and the rules of play (which import this module) share one copy."""
    return W_GUILD + (p * MAXG + g) * GF


@njit(cache=True, inline="always", _nrt=False)
def seat_after(p, i, P):
    """The seat i places to p's left, (p + i) % P for 0 <= i < P, without the division (an integer
    division and Python's sign fix-up in every opponent loop: measured in power_value's profile)."""
    q = p + i
    return q - P if q >= P else q


@njit(cache=True, inline="always", _nrt=False)
def strat_row(ws, p, P):
    """Row of the strategy table playing seat p (seat rotation; playouts use one self-model row)."""
    if ws[G_SELF_ROW] >= 0:
        return ws[G_SELF_ROW]
    row = p + ws[G_ROT]
    return row - P if row >= P else row


# =================================================================================================
# Bot values (MV-8): only what the deciding player may see
# =================================================================================================
@njit(cache=True, inline="always", _nrt=False)
def set_value(k, m):
    """Worth of holding k cards of one type toward a guild of m (convex up to m, then slow)."""
    if k <= 0:
        return 0.0
    if k >= m:
        return 2.0 + 0.3 * (k - m)
    return 2.0 * k * k / (m * m)


@njit(cache=True, inline="always", _nrt=False)
def public_score(ws, q):
    """How far ahead q looks from the table: guilds, guild cards (kept in X_GC), cards in hand."""
    return 4.0 * ws[U(W_PL + q * PLS + X_NG)] + 0.4 * ws[U(W_PL + q * PLS + X_GC)] \
        + 0.1 * ws[U(W_PL + q * PLS + X_HANDN)]


@njit(cache=True, _nrt=False)
def init_values(ws, fs):
    """Once per block (after the strategy table): the set_value table for the rules' min_cards and
    the fixed powers' worth (F_FIXED)."""
    m = ws[U(W_RULES + R_PARAMS + P_MIN_GUILD)]
    for k in range(64):
        fs[U(F_SETV + k)] = set_value(k, m)
        fs[U(F_SETD + k)] = set_value(k + 1, m) - set_value(k, m)
    # the fixed powers' worth per strategy row and player count (fixed_value reads it)
    for P in range(2, MAXP + 1):
        for r in range(MAXP):
            sb = F_STRAT + r * N_STRAT_COLS
            for t in range(N_TYPES):
                if (FIXED_POWERS >> t) & 1:
                    fs[U(F_FIXED + (P - 2) * (MAXP * N_STRAT_COLS) + r * N_STRAT_COLS + t)] = \
                        fixed_power_value(fs, sb, P, t)


@njit(cache=True, _nrt=False)
def prepare_values(ws, fs, sb, p, P, lead):
    """Fill F_GAIN, F_LOSS (p's own hand and guilds) and, with ``lead``, F_LEAD (public); start a
    new serial for the lazy F_PV and F_PROB."""
    h = W_HAND + p * TS
    hb = ws[U(h + BOUFFON)]
    w_sets = fs[U(sb + S_SETS)]
    w_draw = fs[U(sb + S_DRAW)]
    # the lazy caches (F_PV, F_PROB) are valid while their stamp equals this decision's serial
    fs[F_SERIAL] += 1.0
    for t in range(N_TYPES):
        fs[U(F_LEAD + t)] = 0.0             # reused below as "p has a guild of type t"
    ng = ws[U(W_PL + p * PLS + X_NG)]
    for g in range(ng):
        gt = ws[U(gslot(p, g))]
        if gt >= 0:
            fs[U(F_LEAD + gt)] = 0.5
    best_gain = 0.0
    for t in range(N_TYPES):
        if t == BOUFFON:
            continue
        k = ws[U(h + t)]
        eff = min(k + hb, 62)
        base = w_draw + fs[U(sb + S_BIAS + t)]
        own = fs[U(F_LEAD + t)]
        gain = w_sets * (fs[U(F_SETD + eff)] + own) + base
        fs[U(F_GAIN + t)] = gain
        best_gain = max(best_gain, gain)
        # branch-free: the loss of a card not held is 0
        fs[U(F_LOSS + t)] = (w_sets * (fs[U(F_SETD + max(eff - 1, 0))] + own) + base) * (k > 0)
    # a Bouffon completes any set: worth the best other card, plus a little for flexibility
    fs[F_GAIN + BOUFFON] = best_gain + 0.2 * w_sets + fs[U(sb + S_BIAS + BOUFFON)]
    fs[F_LOSS + BOUFFON] = fs[F_GAIN + BOUFFON] * (hb > 0)
    if not lead:
        return
    best = -1.0
    for q in range(P):
        v = public_score(ws, q) if q != p else -2.0
        fs[U(F_LEAD + q)] = v
        if v > best:
            best = v
    for q in range(P):
        fs[U(F_LEAD + q)] = 1.0 if fs[U(F_LEAD + q)] >= best - 1e-9 else 0.0


@njit(cache=True, inline="always", _nrt=False)
def estimate_hands_here(ws, fs, P, p):
    """F_PROB[q, t]: p's estimate that opponent q holds a card of type t -- 1 if p has seen one
    there, else the expected number of type-t cards among q's unseen cards, capped at 1 (a cheap,
    monotone stand-in for 1 - (1 - f)^hidden). Unseen = copies - p's hand - guilds - discard pile
    - the card being played - cards p has seen in hands. Computed once per decision, on demand.

    The counts are whole numbers, summed in integers and stored once (the same values as
    subtracting them one by one in floats; measured: this function was 9% of a balanced game)."""
    kp = W_KNOWN + p * MAXP * TS          # what p has seen in each hand (row q: W_KNOWN[p, q])
    played = ws[G_PLAYED]
    total = 0
    # what p has seen in every hand, summed over all MAXP rows without a loop over the seats: the
    # rows of seats >= P and p's own row are always 0 (no rule writes them), and a loop over P
    # seats was vectorised with a run-time dispatch and a gather per type
    for t in range(N_TYPES):
        seen = ws[U(kp + t)] + ws[U(kp + TS + t)] + ws[U(kp + 2 * TS + t)] \
            + ws[U(kp + 3 * TS + t)] + ws[U(kp + 4 * TS + t)]
        u = ws[U(W_RULES + R_COPIES + t)] - ws[U(W_HAND + p * TS + t)] - ws[U(W_DCNT + t)] \
            - ws[U(W_TCNT + t)] - (played == t) - seen
        u = max(u, 0)
        fs[U(F_UNSEEN + t)] = u
        total += u
    inv = 1.0 / total if total > 0 else 0.0
    for q in range(P):
        if q == p:
            continue
        hidden = ws[U(W_PL + q * PLS + X_HANDN)]
        for t in range(N_TYPES):
            hidden -= ws[U(kp + q * TS + t)]
        hq = max(hidden, 0) * inv
        fs[U(F_HIDDEN + q)] = max(hidden, 0)
        for t in range(N_TYPES):
            e = min(hq * fs[U(F_UNSEEN + t)], 1.0)
            fs[U(F_PROB + q * TS + t)] = 1.0 if ws[U(kp + q * TS + t)] > 0 else e
    fs[U(F_HIDDEN + TS - 1)] = fs[F_SERIAL]


@njit(cache=True, _nrt=False)
def estimate_hands(ws, fs, P, p):
    """:func:`estimate_hands_here`, one compiled copy that the decisions call. The powers' pricing
    (:func:`power_value`) inlines it instead, as it does :func:`best_attack`: a call there passed
    two arrays of 7 words each and made power_value keep a frame for it (the search to the end
    0.967x the CPU time per game, balanced games 0.976x; docs/medievallons_engine.md, sixth
    pass)."""
    estimate_hands_here(ws, fs, P, p)


@njit(cache=True, inline="always", _nrt=False)
def prob_holds(ws, fs, P, p, q, t):
    """p's estimate that q holds a card of type t (see :func:`estimate_hands`)."""
    if fs[U(F_HIDDEN + TS - 1)] != fs[F_SERIAL]:
        estimate_hands(ws, fs, P, p)
    return fs[U(F_PROB + q * TS + t)]


@njit(cache=True, inline="always", _nrt=False)
def attack_value(ws, fs, sb, q, g, bouffon):
    """Worth of taking one card out of q's guild g: more if it breaks or untypes the guild."""
    s = gslot(q, g)
    lead = 1.0 + fs[U(sb + S_LEADER)] * fs[U(F_LEAD + q)]
    v = fs[U(sb + S_ATTACK)] * lead
    size = ws[U(s + 1)] + ws[U(s + 2)]
    if size <= ws[U(W_RULES + R_PARAMS + P_MIN_GUILD)]:
        v += fs[U(sb + S_BREAK)] * lead * (1.0 + 0.1 * size)
    elif bouffon == 0 and ws[U(s + 1)] == 1:
        v += 0.3 * fs[U(sb + S_ATTACK)] * lead       # the guild loses its power
    return v


@njit(cache=True, inline="always", _nrt=False)
def best_attack(ws, fs, sb, p, P, steal):
    """Best attack_value over the opponents' guild cards (+ the card's worth when it is stolen);
    -1.0 when no opponent has a guild. Both bests (Assassin: kept; Rôdeur: stolen) come from one
    sweep over the guilds, once per decision (stamped in F_PVOK[F_ATTACK]): a player holding an
    Assassin and a Rôdeur, or an Assassin card and an Assassin guild, asked for it up to four
    times."""
    if fs[U(F_PVOK + F_ATTACK)] != fs[F_SERIAL]:
        best = -1.0
        best_steal = -1.0
        for i in range(1, P):
            q = seat_after(p, i, P)
            ng = ws[U(W_PL + q * PLS + X_NG)]
            for g in range(ng):
                s = gslot(q, g)
                for b in range(2):
                    if (b == 0 and ws[U(s + 1)] > 0) or (b == 1 and ws[U(s + 2)] > 0):
                        v = attack_value(ws, fs, sb, q, g, b)
                        if v > best:
                            best = v
                        v += fs[U(F_GAIN + (BOUFFON if b == 1 else ws[U(s)]))]
                        if v > best_steal:
                            best_steal = v
        fs[U(F_PV + F_ATTACK)] = best
        fs[U(F_PV + F_ATTACK + 1)] = best_steal
        fs[U(F_PVOK + F_ATTACK)] = fs[F_SERIAL]
    return fs[U(F_PV + F_ATTACK + (1 if steal else 0))]


@njit(cache=True, inline="always", _nrt=False)
def base_power_value(ws, fs, sb, p, P, t):
    """Worth to p of resolving power t now (Artisan, Assassin, Rôdeur, Chevalier, Mendiant: the
    powers that depend on the table; the others are priced in cached_value); ws[G_PV_PLAYED] = 1
    when the power would come from a card played from the hand (a field, not an argument: see
    G_KIND)."""
    played = ws[G_PV_PLAYED]
    w_draw = fs[U(sb + S_DRAW)]
    w_hurt = fs[U(sb + S_HURT)]
    if t == ARTISAN:
        if ws[U(W_RULES + R_PARAMS + P_ARTISAN_TAKES_PLAYED)] != 0 and played != 0:
            return 0.0
        if ws[G_DISC_N] > 0:
            return fs[U(F_GAIN + ws[U(W_DISC + ws[G_DISC_N] - 1)])]
        return 0.0
    if t == ASSASSIN or t == RODEUR:
        v = best_attack(ws, fs, sb, p, P, t == RODEUR)
        if v < 0.0:
            return w_draw if played != 0 else 0.0
        return v
    if t == CHEVALIER:
        if fs[U(F_HIDDEN + TS - 1)] != fs[F_SERIAL]:      # prob_holds, its stamp read once
            estimate_hands_here(ws, fs, P, p)
        best = 0.0
        for i in range(1, P):
            q = seat_after(p, i, P)
            hurt = w_hurt * (1.0 + fs[U(sb + S_LEADER)] * fs[U(F_LEAD + q)])
            for u in range(N_TYPES):
                v = fs[U(F_PROB + q * TS + u)] * (fs[U(F_GAIN + u)] + hurt)
                if v > best:
                    best = v
        return best
    if t == MENDIANT:
        mine = ws[U(W_PL + p * PLS + X_HANDN)]
        most = 0
        lead = 0.0
        for q in range(P):
            if q != p and ws[U(W_PL + q * PLS + X_HANDN)] >= most:
                if ws[U(W_PL + q * PLS + X_HANDN)] > most:
                    lead = 0.0
                most = ws[U(W_PL + q * PLS + X_HANDN)]
                if fs[U(F_LEAD + q)] > lead:
                    lead = fs[U(F_LEAD + q)]
        if most == 0 or mine > most or (mine == most and ws[U(W_RULES + R_PARAMS + P_MENDIANT_DRAWS_ON_TIE)] != 0):
            return w_draw
        return w_draw + w_hurt * (1.0 + fs[U(sb + S_LEADER)] * lead)
    return 0.0     # the other powers are priced in cached_value


# MV-5 powers whose worth to the bots does not depend on the table (priced by fixed_power_value)
FIXED_POWERS = (1 << ETOILE) | (1 << MAGICIEN) | (1 << MARCHAND) | (1 << MOINE) | (1 << NOBLE) \
    | (1 << PRETRE)


@njit(cache=True, inline="always", _nrt=False)
def fixed_power_value(fs, sb, P, t):
    """Worth of a power in FIXED_POWERS: the row's draw and hurt weights and the player count."""
    w_draw = fs[U(sb + S_DRAW)]
    w_hurt = fs[U(sb + S_HURT)]
    if t == ETOILE:
        return w_draw - 0.5 * w_hurt * (P - 1)
    if t == MAGICIEN:
        return 1.3 * w_draw
    if t == MARCHAND:
        return 0.3 * w_draw
    if t == MOINE:
        return 2.0 * w_draw
    if t == NOBLE:
        return (1.7 * w_draw + 0.5 * w_hurt) if P == 2 else (1.5 * w_draw + w_hurt)
    return 0.6 * w_draw + 0.5 * w_hurt      # PRETRE


@njit(cache=True, inline="always", _nrt=False)
def fixed_value(fs, sb, P, t):
    """fixed_power_value(fs, sb, P, t), read from the table init_values fills (F_FIXED): its
    chain of tests on t followed the card types, which change from one option to the next."""
    return fs[U(F_FIXED + (P - 2) * (MAXP * N_STRAT_COLS) + (sb - F_STRAT) + t)]


@njit(cache=True, inline="always", _nrt=False)
def cached_value(ws, fs, sb, p, P, t, played):
    """base_power_value, computed once per decision (t is neither Bouffon nor Sorcière)."""
    i = TS * played + t
    if fs[U(F_PVOK + i)] != fs[F_SERIAL]:
        # the powers whose worth does not depend on the table are priced here, without a call
        if (FIXED_POWERS >> t) & 1:
            v = fixed_value(fs, sb, P, t)
        else:
            ws[G_PV_PLAYED] = played
            v = base_power_value(ws, fs, sb, p, P, t)
            if t == CHEVALIER or t == MENDIANT:
                # their worth does not depend on where the power comes from: priced once for both
                # slots (a hand of Chevaliers offers play, found and use)
                o = TS * (1 - played) + t
                fs[U(F_PV + o)] = v
                fs[U(F_PVOK + o)] = fs[F_SERIAL]
        fs[U(F_PV + i)] = v
        fs[U(F_PVOK + i)] = fs[F_SERIAL]
    return fs[U(F_PV + i)]


@njit(cache=True, inline="always", _nrt=False)
def power_of(ws, fs, sb, p, P, t, played):
    """:func:`power_value`, without the call for a power in FIXED_POWERS (the call passes two
    arrays of 7 words each; measured 0.95x the CPU time per balanced game)."""
    if (FIXED_POWERS >> t) & 1:
        return fixed_value(fs, sb, P, t)
    if t == BOUFFON:            # no power (MV-5)
        return 0.0
    i = TS * played + t         # priced already in this decision: no call (power_value's cache)
    if fs[U(F_PVOK + i)] == fs[F_SERIAL]:
        return fs[U(F_PV + i)]
    return power_value(ws, fs, sb, p, P, t, played)


@njit_on_demand("float64(int64[::1], float64[::1], int64, int64, int64, int64, int64)", literal=("P",),
                cache=True, _nrt=False)
def power_value(ws, fs, sb, p, P, t, played):
    """Worth of power t now (Sorcière: the best power it can copy, else a flip's average).

    One compiled copy (explicit signature: the call sites pass constant ``played`` flags, and an
    inlined copy per site made `decide` take 35 s to compile)."""
    if t == BOUFFON:
        return 0.0
    if t != SORCIERE:
        return cached_value(ws, fs, sb, p, P, t, played)
    i = TS * played + t
    if fs[U(F_PVOK + i)] == fs[F_SERIAL]:
        return fs[U(F_PV + i)]
    best = -1e9
    m = ws[G_NGT_MASK] & ~(1 << SORCIERE)     # the types of the guilds on the table, ascending
    while m != 0:
        u = trailing_zeros(m)
        m &= m - 1
        v = cached_value(ws, fs, sb, p, P, u, played)
        if v > best:
            best = v
    v = best if best > -1e9 else 0.8 * fs[U(sb + S_DRAW)]
    fs[U(F_PV + i)] = v
    fs[U(F_PVOK + i)] = fs[F_SERIAL]
    return v


@njit(cache=True, inline="always", _nrt=False)
def guild_threat(ws, p, g):
    """1 for a guild one attack breaks, 0.3 with one card to spare, else 0."""
    s = gslot(p, g)
    size = ws[U(s + 1)] + ws[U(s + 2)]
    m = ws[U(W_RULES + R_PARAMS + P_MIN_GUILD)]
    if size <= m:
        return 1.0
    if size == m + 1:
        return 0.3
    return 0.0


@njit(cache=True, inline="always", _nrt=False)
def action_score(ws, fs, sb, p, P, o):
    """Heuristic score of action code ``o`` (MV-3: play, found, reinforce, use) for seat p."""
    a = o // 16
    x = o % 16
    if a == A_PLAY:
        return power_of(ws, fs, sb, p, P, x, 1) \
            - fs[U(sb + S_SAVE)] * fs[U(F_LOSS + x)] + 0.01 * fs[U(sb + S_BIAS + x)]
    if a == A_FOUND:
        ng = ws[U(W_PL + p * PLS + X_NG)]
        if ng + 1 >= ws[U(W_RULES + R_PARAMS + P_TO_WIN)]:
            return 1e6
        return fs[U(sb + S_FOUND)] + fs[U(sb + S_PROGRESS)] * ng \
            + power_of(ws, fs, sb, p, P, x, 0) + fs[U(sb + S_BIAS + x)]
    s = gslot(p, x)
    gt = ws[U(s)]
    if a == A_USE:
        return power_of(ws, fs, sb, p, P, gt, 0) + 0.01 * fs[U(sb + S_BIAS + gt)]
    # A_REINFORCE: defence and a fresh power, for the cheapest card it can take
    if gt >= 0:
        cost = 1e9
        if ws[U(W_HAND + p * TS + gt)] > 0:
            cost = fs[U(F_LOSS + gt)]
        if ws[U(W_HAND + p * TS + BOUFFON)] > 0 and fs[F_LOSS + BOUFFON] < cost:
            cost = fs[F_LOSS + BOUFFON]
        pv = power_of(ws, fs, sb, p, P, gt, 0)
    else:
        cost = 1e9
        pv = 0.0
        for u in range(N_TYPES):
            if ws[U(W_HAND + p * TS + u)] > 0:
                if fs[U(F_LOSS + u)] < cost:
                    cost = fs[U(F_LOSS + u)]
                if u != BOUFFON:
                    v = power_of(ws, fs, sb, p, P, u, 0)
                    if v > pv:
                        pv = v
    return fs[U(sb + S_DEFEND)] * guild_threat(ws, p, x) + pv - fs[U(sb + S_SAVE)] * cost


@njit(cache=True, inline="always", _nrt=False)
def size_score(ws, fs, sb, kind, p, o):
    """found_size / reinforce_size option ``o`` = n_x * 32 + n_b: a bigger guild resists attacks
    (up to 2 cards over the minimum), the cards spent cost (MV-4)."""
    nx = o // 32
    nb = o % 32
    if kind == D_FOUND_SIZE:
        size = nx + nb
    else:
        s = gslot(p, ws[G_CTX_G])
        size = ws[U(s + 1)] + ws[U(s + 2)] + nx + nb
    extra = size - ws[U(W_RULES + R_PARAMS + P_MIN_GUILD)]
    if extra > 2:
        extra = 2
    return fs[U(sb + S_DEFEND)] * 0.5 * extra - fs[U(sb + S_SAVE)] * (
        nb * fs[F_LOSS + BOUFFON] + 0.25 * nx)


# action_score compiled as a function of its own, for option_score: inlined there, the planner's
# candidates and score_options's loop over the other kinds (which never reaches it: D_ACTION is
# scored by its own loop) each held a copy, ~10 s of Numba's IR copying per cold compile.
@njit(cache=True, _nrt=False)
def action_score_called(ws, fs, sb, p, P, o):
    """:func:`action_score`, one compiled copy that :func:`option_score` calls."""
    return action_score(ws, fs, sb, p, P, o)


@njit(cache=True, inline="always", _nrt=False)
def option_score(ws, fs, sb, kind, p, P, o):
    """Heuristic score of option code ``o`` of a decision of the given kind for seat p (MV-8).
    (:func:`score_options` scores a whole decision with the same expressions, kind by kind.)"""
    if kind == D_ACTION:
        return action_score_called(ws, fs, sb, p, P, o)
    if kind == D_FOUND_SIZE or kind == D_REINFORCE_SIZE:
        return size_score(ws, fs, sb, kind, p, o)
    if kind == D_REINFORCE_TYPE:
        if o == BOUFFON:
            return -0.5
        return power_of(ws, fs, sb, p, P, o, 0) + fs[U(sb + S_BIAS + o)]
    if kind == D_ASSASSIN or kind == D_RODEUR:
        q = o // 64
        g = (o % 64) // 2
        b = o % 2
        v = attack_value(ws, fs, sb, q, g, b)
        if kind == D_RODEUR:
            v += fs[U(F_GAIN + (BOUFFON if b == 1 else ws[U(gslot(q, g))]))]
        return v
    if kind == D_CHEVALIER:
        q = o // 16
        t = o % 16
        hurt = fs[U(sb + S_HURT)] * (1.0 + fs[U(sb + S_LEADER)] * fs[U(F_LEAD + q)])
        return prob_holds(ws, fs, P, p, q, t) * (fs[U(F_GAIN + t)] + hurt)
    if kind == D_MAGICIEN:
        return fs[U(F_GAIN + o)]
    if kind == D_MARCHAND or kind == D_PRETRE:
        return fs[U(sb + S_HURT)] * fs[U(sb + S_LEADER)] * fs[U(F_LEAD + o)] \
            + 0.1 * ws[U(W_PL + o * PLS + X_HANDN)]
    if kind == D_MENDIANT:
        return fs[U(F_LEAD + o)]
    if kind == D_GIVE_TWO:
        a = o // 16
        b = o % 16
        v = -fs[U(F_LOSS + a)] - fs[U(F_LOSS + b)]
        if a == b:   # the second copy of a pair is worth what remains after the first
            v += 0.25 * fs[U(sb + S_SETS)]
        return v
    if kind == D_GIVE_ONE:
        return -fs[U(F_LOSS + o)]
    if kind == D_PRETRE_TAKE:
        q = ws[G_CTX_Q]
        return fs[U(F_GAIN + o)] + 0.3 * fs[U(sb + S_HURT)] * ws[U(W_HAND + q * TS + o)]
    # D_SORCIERE
    return power_of(ws, fs, sb, p, P, o, ws[G_CTX_PLAYED])


@njit(cache=True, inline="always", _nrt=False)
def score_options(ws, fs, sb, kind, p, P, n):
    """The scores of the ``n`` options of a decision (W_OPTS) into F_SCORE; returns the best.

    The same expressions as :func:`option_score`, but the decision kind is tested once per
    decision rather than once per option, and what does not depend on the option (the hidden-hand
    estimate's stamp, the Chevalier's hurt per opponent) is read once: a game scores ~1,065
    options, most of them in the action (8.8 per decision) and Chevalier (39) lists."""
    best = -1e300
    if kind == D_ACTION:
        for j in range(n):
            sc = action_score(ws, fs, sb, p, P, ws[U(W_OPTS + j)])
            fs[U(F_SCORE + j)] = sc
            best = max(best, sc)
        return best
    if kind == D_CHEVALIER:
        if fs[U(F_HIDDEN + TS - 1)] != fs[F_SERIAL]:
            estimate_hands(ws, fs, P, p)
        w_hurt = fs[U(sb + S_HURT)]
        w_lead = fs[U(sb + S_LEADER)]
        for j in range(n):
            o = ws[U(W_OPTS + j)]
            q = o // 16
            t = o % 16
            hurt = w_hurt * (1.0 + w_lead * fs[U(F_LEAD + q)])
            sc = fs[U(F_PROB + q * TS + t)] * (fs[U(F_GAIN + t)] + hurt)
            fs[U(F_SCORE + j)] = sc
            best = max(best, sc)
        return best
    if kind == D_FOUND_SIZE or kind == D_REINFORCE_SIZE:
        for j in range(n):
            sc = size_score(ws, fs, sb, kind, p, ws[U(W_OPTS + j)])
            fs[U(F_SCORE + j)] = sc
            best = max(best, sc)
        return best
    for j in range(n):
        sc = option_score(ws, fs, sb, kind, p, P, ws[U(W_OPTS + j)])
        fs[U(F_SCORE + j)] = sc
        best = max(best, sc)
    return best


# =================================================================================================
# Decisions (MV-8): random and heuristic, one draw each, recorded for replay
# =================================================================================================
@njit(cache=True, inline="always", _nrt=False)
def record_decision(ws, n_options, choice):
    """Append (options offered, option chosen) to the decision trace W_TRACE (MV-9), for replay."""
    k = ws[G_TRACE_N]
    if k < MAX_TRACE:
        ws[U(W_TRACE + 2 * k)] = n_options
        ws[U(W_TRACE + 2 * k + 1)] = choice
        ws[G_TRACE_N] = k + 1


@njit(cache=True, inline="always", _nrt=False)
def ask(st, ws, fs, kind, p, n, P):
    """:func:`decide` a decision of the given kind (passed through ws, see G_KIND); the random
    bot and lone options are handled here without a call (same single draw)."""
    ws[G_KIND] = kind
    if n == 1 or (n > 1 and fs[U(F_STRAT + strat_row(ws, p, P) * N_STRAT_COLS + S_KIND)] == STRAT_RANDOM):
        c = below(st, n)
        record_decision(ws, n, c)
        return c
    return decide(st, ws, fs, p, n, P)


# One compiled copy: a caller that passes a constant option count (after `ask` is inlined, a
# `n = 0` before a loop reached it as Literal[int](0)) compiled decide and score_options again.
@njit_on_demand("int64(uint64[::1], int64[::1], float64[::1], int64, int64, int64)", literal=("P",),
                cache=True, _nrt=False)
def decide(st, ws, fs, p, n, P):
    """Index of the chosen option among ``n`` (listed in W_OPTS) for seat p (MV-8).

    Exactly one draw of the game's stream per decision: ``random`` draws below(n) (also when
    n == 1); a heuristic draws below(number of best-scored options) to break ties. (A playout
    seat's action decisions are made in :func:`playout_choice`; its other decisions are heuristic.)
    The decision is appended to the trace so the reference engine can replay the game.
    """
    kind = ws[G_KIND]
    if n <= 0:
        ws[G_ERROR] = E_NO_OPTION
        return 0
    sb = F_STRAT + strat_row(ws, p, P) * N_STRAT_COLS   # the seat's strategy row in fs
    if fs[U(sb + S_KIND)] == STRAT_RANDOM or n == 1:
        choice = below(st, n)       # a lone option: the heuristic's tie-break draw, below(1)
    else:
        # give / size / keep decisions price the cards in hand only: no leader needed
        lead = not (kind == D_FOUND_SIZE or kind == D_REINFORCE_SIZE or kind == D_MAGICIEN
                    or kind == D_GIVE_TWO or kind == D_GIVE_ONE or kind == D_PRETRE_TAKE)
        # A player's follow-up decisions in its own turn (sizes, targets, keeps) reuse the values
        # of its action decision (measured ~10% of the kernel time); give decisions always
        # re-price, as the hand has just changed (a Prêtre must not hand back what it took).
        stamp = (ws[G_TURNS] + (kind == D_ACTION)) * MAXP + p + 1   # the action precedes turns += 1
        if (stamp != ws[G_PREP_STAMP] or (lead and ws[G_PREP_LEAD] == 0)
                or kind == D_GIVE_ONE or kind == D_GIVE_TWO):
            prepare_values(ws, fs, sb, p, P, lead)
            ws[G_PREP_STAMP] = stamp
            ws[G_PREP_LEAD] = 1 if lead else 0
        # the best score, then the options within 1e-9 of it (two branch-free passes)
        best = score_options(ws, fs, sb, kind, p, P, n)
        n_best = 0
        for j in range(n):
            ws[U(W_BEST + n_best)] = j
            n_best += fs[U(F_SCORE + j)] >= best - 1e-9
        choice = ws[U(W_BEST + below(st, n_best))]
    record_decision(ws, n, choice)
    return choice
