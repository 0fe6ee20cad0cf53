"""Médiévallons Numba kernel: plays many games in parallel, one RNG stream per game.

Implements MV-2 … MV-7 of ``shared/rules/medievallons.md`` for 2-5 players, following the draw and
option order of ``docs/medievallons_engine.md`` so that the pure-Python reference engine
(:mod:`simcore.games.medievallons.reference`) replays any game exactly; the MV-8 bots (heuristic
and playout) are scored here from data rows (``strategies/medievallons.py``). Everything is
jit-compiled by Numba with ``cache=True``.

Layout, as in the Middle-Ages kernel (measured there: Numba increfs every array argument of every
jitted call): the whole state of a game lives in one int64 workspace ``ws`` at the fixed offsets
below, bot values in one float64 vector ``fs``. Each block copies the rules vector ``rk`` into
``ws[W_RULES:]`` and the strategy table into ``fs[F_STRAT:]`` once, so every helper takes
``(st, ws, fs)`` only: each array argument is passed as ~7 machine words, and cutting five arrays to
three measurably cheapened every call. Helpers never allocate and are compiled with
``_nrt=False``; small ones are inlined by Numba (``inline="always"``). Values that vary between
calls of a big helper travel through ``ws`` fields (G_KIND, G_CTX_PLAYED, …), never as constant
arguments: Numba compiles one specialization per literal argument value (measured: the turn loop
three times, ``decide`` once per decision kind); :func:`power_value`, which call sites feed
constants, has an explicit signature instead. Option lists are written branch-free (random play
20 -> 11 µs per game). Per-decision bot caches are stamped with a serial rather than cleared, and a
player's follow-up decisions in its own turn reuse the values priced for its action.
Games are split into blocks over a ``prange``; each block allocates its workspaces once. A game's
stream depends only on (seed, deal index), so results are identical whatever the thread count or
chunk size.

What a bot may read (MV-8): its own hand, every guild, the discard pile, hand sizes, the pile size,
and ``W_KNOWN`` -- per observer, the cards it has *seen* in each opponent's hand (public plays,
Chevalier answers, Prêtre looks, cards it gave) -- never another hand. The playout bot samples the
hidden cards anew (determinization) before each playout.

May import numpy, numba, :mod:`simcore.rng` and the constants of the rules module.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from simcore.games.medievallons.rules import (
    ARTISAN, ASSASSIN, BOUFFON, CHEVALIER, ETOILE, MAGICIEN, MARCHAND, MENDIANT, MOINE, N_PARAMS,
    N_TYPES, NOBLE, P_ARTISAN_TAKES_PLAYED, P_HAND_SIZE, P_MAX_TURNS, P_MENDIANT_DRAWS_ON_TIE,
    P_MIN_GUILD, P_RED_2, P_SORCIERE_FLIP_AGAIN, P_TO_WIN, PRETRE, RODEUR, SORCIERE,
)
from simcore.rng import below, next_u64, shuffle_range, stream_state

MAXP = 5             # players (MV-1)
TS = 16              # stride of a per-type vector (13 types used)
MAXG = 8             # guild slots per player (to_win <= 6)
GF = 4               # fields per guild slot: type (-1 = Bouffons only), n_type, n_bouffon
MAXC = 256           # cards (13 types x at most 16 copies)
MAX_OPTIONS = 512    # found_size <= 16 x 17 is the longest list
MAX_TRACE = 1024     # decisions recorded per game for replay

# ---- rules vector rk ----------------------------------------------------------------------------
R_COPIES = 0                      # [TS]
R_PARAMS = TS                     # params[P_*] at R_PARAMS + P_*
R_NCARDS = R_PARAMS + 16
R_SIZE = R_NCARDS + 1

# ---- workspace ws -------------------------------------------------------------------------------
(G_PILE_N, G_DISC_N, G_END_RED, G_OVER, G_WINNER, G_TURNS, G_CUR, G_RESHUF, G_ERROR, G_TRACE_N,
 G_ROT, G_NOPT, G_PLAYED, G_LOOK_N, G_SELF_ROW, G_CTX_T, G_CTX_Q, G_CTX_G, G_CTX_PLAYED, G_KIND,
 G_PV_PLAYED, G_STOP, G_FORCED, G_LIMIT, G_PREP_STAMP, G_PREP_LEAD) = range(26)
# Values that vary between calls are passed through these fields rather than as constant
# arguments: Numba compiles one specialization per *literal* argument value (measured: `decide`
# once per decision kind, the turn loop three times), which tripled compile time and code size.
PLS = 4                           # player record stride
X_HANDN, X_NG = 0, 1
W_PL = 32
W_HAND = W_PL + MAXP * PLS        # [MAXP x TS] cards per type in hand
W_GUILD = W_HAND + MAXP * TS      # [MAXP x MAXG x GF] guilds in founding order
W_FOUNDED = W_GUILD + MAXP * MAXG * GF   # [MAXP x TS]
W_POWERS = W_FOUNDED + MAXP * TS         # [MAXP x TS]
W_KNOWN = W_POWERS + MAXP * TS           # [observer x holder x TS] cards seen in a hand
W_DCNT = W_KNOWN + MAXP * MAXP * TS      # [TS] discard pile per type
W_LOOK = W_DCNT + TS                     # [4] Magicien's drawn cards
W_RESET_END = W_LOOK + 4                 # everything before here is cleared per game
W_RULES = W_RESET_END                    # [R_SIZE] the rules vector rk, copied once per block
W_OPTS = W_RULES + 64                    # [MAX_OPTIONS]
W_BEST = W_OPTS + MAX_OPTIONS            # [MAX_OPTIONS] scratch: tied best options
W_PILE = W_BEST + MAX_OPTIONS            # [MAXC] draw pile, top = last
W_DISC = W_PILE + MAXC                   # [MAXC] discard pile, top = last
W_TRACE = W_DISC + MAXC                  # (n_options, choice) pairs [2 x MAX_TRACE]
WS_SIZE = W_TRACE + 2 * MAX_TRACE

# ---- float scratch fs (bot values of the deciding player) ---------------------------------------
F_GAIN = 0                        # [TS] value of receiving a card of each type
F_LOSS = TS                       # [TS] value lost by giving away one card of each type
F_PV = 2 * TS                     # [2 x TS] value of resolving each power now: from a guild, then
                                  # from a played card (Artisan, Assassin, Rôdeur, Sorcière differ)
F_PVOK = 4 * TS                   # [2 x TS] the decision serial (F_SERIAL) F_PV was computed for
                                  # (lazy: measured cheaper than pricing every power up front)
F_LEAD = 6 * TS                   # [MAXP] 1.0 for the leading opponent(s)
F_UNSEEN = 7 * TS                 # [TS] cards of each type the decider has not seen; [TS-1] total
F_HIDDEN = 8 * TS                 # [MAXP] cards of each hand the decider has not seen; [TS-1] =
                                  # the decision serial F_PROB was computed for
F_SERIAL = F_HIDDEN + TS - 2      # decisions priced so far in this block (never reset: fs outlives
                                  # games and playouts, so stamps never collide)
F_PROB = 9 * TS                   # [MAXP x TS] the decider's estimate that q holds a type-t card
F_SETV = F_PROB + MAXP * TS       # [64] set_value(k) for k = 0 … 63 (min_cards is fixed per run)
F_SETD = F_SETV + 64              # [64] set_value(k + 1) - set_value(k)
F_STRAT = F_SETD + 64             # [MAXP x N_STRAT_COLS] the strategy table, copied once per block
F_SCORE = F_STRAT + 5 * 32        # [MAX_OPTIONS] option scores (playout bot pruning)
F_MEAN = F_SCORE + MAX_OPTIONS    # [MAX_OPTIONS] playout bot: summed playout values
FS_SIZE = F_MEAN + MAX_OPTIONS

# End reasons (MV-9): games.parquet end_reason; ws[G_OVER] = reason + 1 once the game is over.
THIRD_GUILD, EMPTY_PILE, TRUNCATED = 0, 1, 2
END_REASONS = ("third_guild", "empty_pile", "truncated")

# Decision kinds (MV-8); names as in the reference engine and the protocol.
(D_ACTION, D_FOUND_SIZE, D_REINFORCE_TYPE, D_REINFORCE_SIZE, D_ASSASSIN, D_RODEUR, D_CHEVALIER,
 D_MAGICIEN, D_MARCHAND, D_GIVE_TWO, D_MENDIANT, D_GIVE_ONE, D_PRETRE, D_PRETRE_TAKE,
 D_SORCIERE) = range(15)
DECISION_NAMES = ("action", "found_size", "reinforce_type", "reinforce_size", "assassin", "rodeur",
                  "chevalier", "magicien_keep", "marchand_partner", "give_two", "mendiant_target",
                  "give_one", "pretre_partner", "pretre_take", "sorciere")
A_PLAY, A_FOUND, A_REINFORCE, A_USE = 0, 1, 2, 3     # action option = kind * 16 + argument

# Error codes written to the records (0 = fine); debug-mode invariants use 10+.
E_NO_OPTION = 1
E_TOO_MANY_OPTIONS = 2
E_CARDS_NOT_CONSERVED = 10
E_GUILD_TOO_SMALL = 11
E_HAND_COUNT = 12
E_BAD_GUILD = 13
ERROR_TEXT = {
    E_NO_OPTION: "a decision was asked with no legal option",
    E_TOO_MANY_OPTIONS: "an option list overflowed the kernel's buffer",
    E_CARDS_NOT_CONSERVED: "invariant broken: cards not conserved",
    E_GUILD_TOO_SMALL: "invariant broken: a guild holds fewer than min_cards cards",
    E_HAND_COUNT: "invariant broken: a hand size disagrees with its cards",
    E_BAD_GUILD: "invariant broken: a guild's type disagrees with its cards",
}

# Strategy rows (float64[P, N_STRAT_COLS]), one per seat; see configs/medievallons/strategies.toml.
STRAT_RANDOM, STRAT_HEURISTIC, STRAT_PLAYOUT = 0, 1, 2
S_KIND = 0
FEATURES = ("found", "progress", "sets", "draw", "save", "attack", "break", "leader", "defend",
            "hurt")
(S_FOUND, S_PROGRESS, S_SETS, S_DRAW, S_SAVE, S_ATTACK, S_BREAK, S_LEADER, S_DEFEND,
 S_HURT) = range(1, 11)
S_PRIOR = 11             # playout bot: weight of its heuristic score against the playouts
S_BIAS = 16              # [13] per card type
S_PLAYOUTS = 29          # playout bot: determinized playouts per candidate action
S_HORIZON = 30           # playout bot: turns each playout looks ahead (0 = to the end)
S_CANDIDATES = 31        # playout bot: best heuristic actions examined by playouts
N_STRAT_COLS = 32


def pack_rules(rules) -> np.ndarray:
    """RulesArrays -> the flat int64 rules vector ``rk`` the kernel reads."""
    rk = np.zeros(R_SIZE, np.int64)
    rk[R_COPIES:R_COPIES + N_TYPES] = rules.copies
    rk[R_PARAMS:R_PARAMS + N_PARAMS] = rules.params
    rk[R_NCARDS] = int(rules.copies.sum())
    if rk[R_NCARDS] > MAXC:
        raise ValueError(f"kernel limit: at most {MAXC} cards")
    return rk


# =================================================================================================
# Piles, hands, knowledge
# =================================================================================================
@njit(cache=True, inline="always", _nrt=False)
def end_game(ws, reason, winner):
    """MV-6 / MV-7: the game is over (every caller returns as soon as it sees G_OVER)."""
    if ws[G_OVER] == 0:
        ws[G_OVER] = reason + 1
        ws[G_WINNER] = winner


@njit(cache=True, inline="always", _nrt=False)
def disc_push(ws, t):
    n = ws[G_DISC_N]
    ws[W_DISC + n] = t
    ws[G_DISC_N] = n + 1
    ws[W_DCNT + t] += 1


@njit(cache=True, inline="always", _nrt=False)
def disc_pop(ws):
    n = ws[G_DISC_N] - 1
    t = ws[W_DISC + n]
    ws[G_DISC_N] = n
    ws[W_DCNT + t] -= 1
    return t


@njit(cache=True, inline="always", _nrt=False)
def draw_card(st, ws):
    """MV-6: the top card of the draw pile, or -1 when the game ends (pile empty, End card yellow)."""
    if ws[G_PILE_N] == 0:
        if not refill(st, ws):
            return -1
    n = ws[G_PILE_N] - 1
    ws[G_PILE_N] = n
    return ws[W_PILE + n]


@njit(cache=True, _nrt=False)
def refill(st, ws):
    """MV-6, the draw pile being empty: a red End card turns yellow and the discard pile except
    its top card is shuffled into a new draw pile; False (the game ends) if it is still empty."""
    if ws[G_END_RED] != 0:
        ws[G_END_RED] = 0
        ws[G_RESHUF] += 1
        n = ws[G_DISC_N]
        if n > 0:
            top = ws[W_DISC + n - 1]
            m = n - 1
            shuffle_range(st, ws, W_DISC, m)
            for i in range(m):
                ws[W_PILE + i] = ws[W_DISC + i]
            ws[G_PILE_N] = m
            for t in range(TS):
                ws[W_DCNT + t] = 0
            ws[W_DISC] = top
            ws[W_DCNT + top] = 1
            ws[G_DISC_N] = 1
    if ws[G_PILE_N] == 0:
        end_game(ws, EMPTY_PILE, -1)
        return False
    return True


@njit(cache=True, inline="always", _nrt=False)
def hand_add(ws, p, t, k):
    ws[W_HAND + p * TS + t] += k
    ws[W_PL + p * PLS + X_HANDN] += k


@njit(cache=True, inline="always", _nrt=False)
def draw_to_hand(st, ws, p):
    """Draw one card into p's hand; False when the game ended instead."""
    t = draw_card(st, ws)
    if t < 0:
        return False
    hand_add(ws, p, t, 1)
    return True


@njit(cache=True, inline="always", _nrt=False)
def kn_public_out(ws, P, q, t, k):
    """Everyone saw k cards of type t leave q's hand (played, laid in a guild, Chevalier)."""
    for o in range(P):
        i = W_KNOWN + (o * MAXP + q) * TS + t
        ws[i] = ws[i] - k if ws[i] > k else 0


@njit(cache=True, inline="always", _nrt=False)
def kn_public_in(ws, P, q, t, k):
    """Everyone saw k cards of type t enter q's hand (Rôdeur, a broken guild, Artisan, Chevalier)."""
    for o in range(P):
        if o != q:
            ws[W_KNOWN + (o * MAXP + q) * TS + t] += k


@njit(cache=True, inline="always", _nrt=False)
def kn_private(ws, giver, receiver, t):
    """Only the two players saw a card of type t go from giver to receiver."""
    i = W_KNOWN + (receiver * MAXP + giver) * TS + t
    if ws[i] > 0:
        ws[i] -= 1
    ws[W_KNOWN + (giver * MAXP + receiver) * TS + t] += 1


@njit(cache=True, inline="always", _nrt=False)
def move_card(ws, giver, receiver, t):
    hand_add(ws, giver, t, -1)
    hand_add(ws, receiver, t, 1)


# =================================================================================================
# Guilds (MV-4)
# =================================================================================================
@njit(cache=True, inline="always", _nrt=False)
def gslot(p, g):
    return W_GUILD + (p * MAXG + g) * GF


@njit(cache=True, _nrt=False)
def remove_from_guild(ws, P, owner, g, bouffon):
    """One card out of guild g (a Bouffon or a card of its type); the guild breaks below
    ``min_cards``: its other cards return to the owner's hand. Returns the card's type."""
    s = gslot(owner, g)
    if bouffon != 0:
        ws[s + 2] -= 1
        card = BOUFFON
    else:
        card = ws[s]
        ws[s + 1] -= 1
        if ws[s + 1] == 0:
            ws[s] = -1
    if ws[s + 1] + ws[s + 2] < ws[W_RULES + R_PARAMS + P_MIN_GUILD]:
        if ws[s] >= 0 and ws[s + 1] > 0:
            hand_add(ws, owner, ws[s], ws[s + 1])
            kn_public_in(ws, P, owner, ws[s], ws[s + 1])
        if ws[s + 2] > 0:
            hand_add(ws, owner, BOUFFON, ws[s + 2])
            kn_public_in(ws, P, owner, BOUFFON, ws[s + 2])
        ng = ws[W_PL + owner * PLS + X_NG]
        for h in range(g, ng - 1):
            a = gslot(owner, h)
            for f in range(GF):
                ws[a + f] = ws[a + GF + f]
        ws[W_PL + owner * PLS + X_NG] = ng - 1
    return card


# =================================================================================================
# Bot values (MV-8): only what the deciding player may see
# =================================================================================================
@njit(cache=True, inline="always", _nrt=False)
def strat_row(ws, p, P):
    """Row of the strategy table playing seat p (seat rotation; playouts use one self-model row)."""
    if ws[G_SELF_ROW] >= 0:
        return ws[G_SELF_ROW]
    row = p + ws[G_ROT]
    return row - P if row >= P else row


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
    """How far ahead q looks from the table: guilds, guild cards, cards in hand."""
    ng = ws[W_PL + q * PLS + X_NG]
    cards = 0
    for g in range(ng):
        s = gslot(q, g)
        cards += ws[s + 1] + ws[s + 2]
    return 4.0 * ng + 0.4 * cards + 0.1 * ws[W_PL + q * PLS + X_HANDN]


@njit(cache=True, _nrt=False)
def init_values(ws, fs):
    """Once per block: the set_value table for the rules' min_cards."""
    m = ws[W_RULES + R_PARAMS + P_MIN_GUILD]
    for k in range(64):
        fs[F_SETV + k] = set_value(k, m)
        fs[F_SETD + k] = set_value(k + 1, m) - set_value(k, m)


@njit(cache=True, _nrt=False)
def prepare_values(ws, fs, sb, p, P, lead):
    """Fill F_GAIN, F_LOSS (p's own hand and guilds) and, with ``lead``, F_LEAD (public); start a
    new serial for the lazy F_PV and F_PROB."""
    h = W_HAND + p * TS
    hb = ws[h + BOUFFON]
    w_sets = fs[sb + S_SETS]
    w_draw = fs[sb + S_DRAW]
    # the lazy caches (F_PV, F_PROB) are valid while their stamp equals this decision's serial
    fs[F_SERIAL] += 1.0
    for t in range(N_TYPES):
        fs[F_LEAD + t] = 0.0             # reused below as "p has a guild of type t"
    ng = ws[W_PL + p * PLS + X_NG]
    for g in range(ng):
        gt = ws[gslot(p, g)]
        if gt >= 0:
            fs[F_LEAD + gt] = 0.5
    best_gain = 0.0
    for t in range(N_TYPES):
        if t == BOUFFON:
            continue
        k = ws[h + t]
        eff = min(k + hb, 62)
        base = w_draw + fs[sb + S_BIAS + t]
        own = fs[F_LEAD + t]
        gain = w_sets * (fs[F_SETD + eff] + own) + base
        fs[F_GAIN + t] = gain
        best_gain = max(best_gain, gain)
        # branch-free: the loss of a card not held is 0
        fs[F_LOSS + t] = (w_sets * (fs[F_SETD + max(eff - 1, 0)] + own) + base) * (k > 0)
    # a Bouffon completes any set: worth the best other card, plus a little for flexibility
    fs[F_GAIN + BOUFFON] = best_gain + 0.2 * w_sets + fs[sb + S_BIAS + BOUFFON]
    fs[F_LOSS + BOUFFON] = fs[F_GAIN + BOUFFON] * (hb > 0)
    if not lead:
        return
    best = -1.0
    for q in range(P):
        v = public_score(ws, q) if q != p else -2.0
        fs[F_LEAD + q] = v
        if v > best:
            best = v
    for q in range(P):
        fs[F_LEAD + q] = 1.0 if fs[F_LEAD + q] >= best - 1e-9 else 0.0


@njit(cache=True, _nrt=False)
def estimate_hands(ws, fs, P, p):
    """F_PROB[q, t]: p's estimate that opponent q holds a card of type t -- 1 if p has seen one
    there, else the expected number of type-t cards among q's unseen cards, capped at 1 (a cheap,
    monotone stand-in for 1 - (1 - f)^hidden). Unseen = copies - p's hand - guilds - discard pile
    - the card being played - cards p has seen in hands. Computed once per decision, on demand."""
    for t in range(N_TYPES):
        fs[F_UNSEEN + t] = ws[W_RULES + R_COPIES + t] - ws[W_HAND + p * TS + t] - ws[W_DCNT + t]
    if ws[G_PLAYED] >= 0:
        fs[F_UNSEEN + ws[G_PLAYED]] -= 1
    for q in range(P):
        ng = ws[W_PL + q * PLS + X_NG]
        for g in range(ng):
            s = gslot(q, g)
            fs[F_UNSEEN + BOUFFON] -= ws[s + 2]
            if ws[s] >= 0:
                fs[F_UNSEEN + ws[s]] -= ws[s + 1]
        if q != p:
            hidden = ws[W_PL + q * PLS + X_HANDN]
            for t in range(N_TYPES):
                k = ws[W_KNOWN + (p * MAXP + q) * TS + t]
                fs[F_UNSEEN + t] -= k
                hidden -= k
            fs[F_HIDDEN + q] = hidden if hidden > 0 else 0
    total = 0.0
    for t in range(N_TYPES):
        if fs[F_UNSEEN + t] < 0:
            fs[F_UNSEEN + t] = 0.0
        total += fs[F_UNSEEN + t]
    inv = 1.0 / total if total > 0 else 0.0
    for q in range(P):
        if q == p:
            continue
        hq = fs[F_HIDDEN + q] * inv
        for t in range(N_TYPES):
            if ws[W_KNOWN + (p * MAXP + q) * TS + t] > 0:
                e = 1.0
            else:
                e = hq * fs[F_UNSEEN + t]
                if e > 1.0:
                    e = 1.0
            fs[F_PROB + q * TS + t] = e
    fs[F_HIDDEN + TS - 1] = fs[F_SERIAL]


@njit(cache=True, inline="always", _nrt=False)
def prob_holds(ws, fs, P, p, q, t):
    """p's estimate that q holds a card of type t (see :func:`estimate_hands`)."""
    if fs[F_HIDDEN + TS - 1] != fs[F_SERIAL]:
        estimate_hands(ws, fs, P, p)
    return fs[F_PROB + q * TS + t]


@njit(cache=True, inline="always", _nrt=False)
def attack_value(ws, fs, sb, q, g, bouffon):
    """Worth of taking one card out of q's guild g: more if it breaks or untypes the guild."""
    s = gslot(q, g)
    lead = 1.0 + fs[sb + S_LEADER] * fs[F_LEAD + q]
    v = fs[sb + S_ATTACK] * lead
    size = ws[s + 1] + ws[s + 2]
    if size <= ws[W_RULES + R_PARAMS + P_MIN_GUILD]:
        v += fs[sb + S_BREAK] * lead * (1.0 + 0.1 * size)
    elif bouffon == 0 and ws[s + 1] == 1:
        v += 0.3 * fs[sb + S_ATTACK] * lead       # the guild loses its power
    return v


@njit(cache=True, _nrt=False)
def best_attack(ws, fs, sb, p, P, steal):
    """Best attack_value over the opponents' guild cards (+ the card's worth when it is stolen);
    -1.0 when no opponent has a guild."""
    best = -1.0
    for i in range(1, P):
        q = (p + i) % P
        ng = ws[W_PL + q * PLS + X_NG]
        for g in range(ng):
            s = gslot(q, g)
            for b in range(2):
                if (b == 0 and ws[s + 1] > 0) or (b == 1 and ws[s + 2] > 0):
                    v = attack_value(ws, fs, sb, q, g, b)
                    if steal:
                        v += fs[F_GAIN + (BOUFFON if b == 1 else ws[s])]
                    if v > best:
                        best = v
    return best


@njit(cache=True, _nrt=False)
def base_power_value(ws, fs, sb, p, P, t):
    """Worth to p of resolving power t now (Artisan, Assassin, Rôdeur, Chevalier, Mendiant: the
    powers that depend on the table; the others are priced in cached_value); ws[G_PV_PLAYED] = 1
    when the power would come from a card played from the hand (a field, not an argument: see
    G_KIND)."""
    played = ws[G_PV_PLAYED]
    w_draw = fs[sb + S_DRAW]
    w_hurt = fs[sb + S_HURT]
    if t == ARTISAN:
        if ws[W_RULES + R_PARAMS + P_ARTISAN_TAKES_PLAYED] != 0 and played != 0:
            return 0.0
        if ws[G_DISC_N] > 0:
            return fs[F_GAIN + ws[W_DISC + ws[G_DISC_N] - 1]]
        return 0.0
    if t == ASSASSIN or t == RODEUR:
        v = best_attack(ws, fs, sb, p, P, t == RODEUR)
        if v < 0.0:
            return w_draw if played != 0 else 0.0
        return v
    if t == CHEVALIER:
        best = 0.0
        for i in range(1, P):
            q = (p + i) % P
            hurt = w_hurt * (1.0 + fs[sb + S_LEADER] * fs[F_LEAD + q])
            for u in range(N_TYPES):
                v = prob_holds(ws, fs, P, p, q, u) * (fs[F_GAIN + u] + hurt)
                if v > best:
                    best = v
        return best
    if t == MENDIANT:
        mine = ws[W_PL + p * PLS + X_HANDN]
        most = 0
        lead = 0.0
        for q in range(P):
            if q != p and ws[W_PL + q * PLS + X_HANDN] >= most:
                if ws[W_PL + q * PLS + X_HANDN] > most:
                    lead = 0.0
                most = ws[W_PL + q * PLS + X_HANDN]
                if fs[F_LEAD + q] > lead:
                    lead = fs[F_LEAD + q]
        if most == 0 or mine > most or (mine == most and ws[W_RULES + R_PARAMS + P_MENDIANT_DRAWS_ON_TIE] != 0):
            return w_draw
        return w_draw + w_hurt * (1.0 + fs[sb + S_LEADER] * lead)
    return 0.0     # the other powers are priced in cached_value


@njit(cache=True, inline="always", _nrt=False)
def cached_value(ws, fs, sb, p, P, t, played):
    """base_power_value, computed once per decision (t is neither Bouffon nor Sorcière)."""
    i = TS * played + t
    if fs[F_PVOK + i] != fs[F_SERIAL]:
        w_draw = fs[sb + S_DRAW]
        w_hurt = fs[sb + S_HURT]
        # the powers whose worth does not depend on the table are priced here, without a call
        if t == ETOILE:
            v = w_draw - 0.5 * w_hurt * (P - 1)
        elif t == MAGICIEN:
            v = 1.3 * w_draw
        elif t == MARCHAND:
            v = 0.3 * w_draw
        elif t == MOINE:
            v = 2.0 * w_draw
        elif t == NOBLE:
            v = (1.7 * w_draw + 0.5 * w_hurt) if P == 2 else (1.5 * w_draw + w_hurt)
        elif t == PRETRE:
            v = 0.6 * w_draw + 0.5 * w_hurt
        else:
            ws[G_PV_PLAYED] = played
            v = base_power_value(ws, fs, sb, p, P, t)
        fs[F_PV + i] = v
        fs[F_PVOK + i] = fs[F_SERIAL]
    return fs[F_PV + i]


@njit("float64(int64[::1], float64[::1], int64, int64, int64, int64, int64)", cache=True,
      _nrt=False)
def power_value(ws, fs, sb, p, P, t, played):
    """Worth of power t now (Sorcière: the best power it can copy, else a flip's average).

    One compiled copy (explicit signature: the call sites pass constant ``played`` flags, and an
    inlined copy per site made `decide` take 35 s to compile)."""
    if t == BOUFFON:
        return 0.0
    if t != SORCIERE:
        return cached_value(ws, fs, sb, p, P, t, played)
    i = TS * played + t
    if fs[F_PVOK + i] == fs[F_SERIAL]:
        return fs[F_PV + i]
    best = -1e9
    for q in range(P):
        ng = ws[W_PL + q * PLS + X_NG]
        for g in range(ng):
            u = ws[gslot(q, g)]
            if u >= 0 and u != SORCIERE:
                v = cached_value(ws, fs, sb, p, P, u, played)
                if v > best:
                    best = v
    v = best if best > -1e9 else 0.8 * fs[sb + S_DRAW]
    fs[F_PV + i] = v
    fs[F_PVOK + i] = fs[F_SERIAL]
    return v


@njit(cache=True, inline="always", _nrt=False)
def guild_threat(ws, p, g):
    """1 for a guild one attack breaks, 0.3 with one card to spare, else 0."""
    s = gslot(p, g)
    size = ws[s + 1] + ws[s + 2]
    m = ws[W_RULES + R_PARAMS + P_MIN_GUILD]
    if size <= m:
        return 1.0
    if size == m + 1:
        return 0.3
    return 0.0


@njit(cache=True, inline="always", _nrt=False)
def option_score(ws, fs, sb, kind, p, P, o):
    """Heuristic score of option code ``o`` of a decision of the given kind for seat p (MV-8)."""
    m = ws[W_RULES + R_PARAMS + P_MIN_GUILD]
    if kind == D_ACTION:
        a = o // 16
        x = o % 16
        if a == A_PLAY:
            return power_value(ws, fs, sb, p, P, x, 1) \
                - fs[sb + S_SAVE] * fs[F_LOSS + x] + 0.01 * fs[sb + S_BIAS + x]
        if a == A_FOUND:
            ng = ws[W_PL + p * PLS + X_NG]
            if ng + 1 >= ws[W_RULES + R_PARAMS + P_TO_WIN]:
                return 1e6
            return fs[sb + S_FOUND] + fs[sb + S_PROGRESS] * ng \
                + power_value(ws, fs, sb, p, P, x, 0) + fs[sb + S_BIAS + x]
        s = gslot(p, x)
        gt = ws[s]
        if a == A_USE:
            return power_value(ws, fs, sb, p, P, gt, 0) + 0.01 * fs[sb + S_BIAS + gt]
        # A_REINFORCE: defence and a fresh power, for the cheapest card it can take
        if gt >= 0:
            cost = 1e9
            if ws[W_HAND + p * TS + gt] > 0:
                cost = fs[F_LOSS + gt]
            if ws[W_HAND + p * TS + BOUFFON] > 0 and fs[F_LOSS + BOUFFON] < cost:
                cost = fs[F_LOSS + BOUFFON]
            pv = power_value(ws, fs, sb, p, P, gt, 0)
        else:
            cost = 1e9
            pv = 0.0
            for u in range(N_TYPES):
                if ws[W_HAND + p * TS + u] > 0:
                    if fs[F_LOSS + u] < cost:
                        cost = fs[F_LOSS + u]
                    if u != BOUFFON:
                        v = power_value(ws, fs, sb, p, P, u, 0)
                        if v > pv:
                            pv = v
        return fs[sb + S_DEFEND] * guild_threat(ws, p, x) + pv - fs[sb + S_SAVE] * cost
    if kind == D_FOUND_SIZE or kind == D_REINFORCE_SIZE:
        nx = o // 32
        nb = o % 32
        if kind == D_FOUND_SIZE:
            size = nx + nb
        else:
            s = gslot(p, ws[G_CTX_G])
            size = ws[s + 1] + ws[s + 2] + nx + nb
        extra = size - m
        if extra > 2:
            extra = 2
        return fs[sb + S_DEFEND] * 0.5 * extra - fs[sb + S_SAVE] * (
            nb * fs[F_LOSS + BOUFFON] + 0.25 * nx)
    if kind == D_REINFORCE_TYPE:
        if o == BOUFFON:
            return -0.5
        return power_value(ws, fs, sb, p, P, o, 0) + fs[sb + S_BIAS + o]
    if kind == D_ASSASSIN or kind == D_RODEUR:
        q = o // 64
        g = (o % 64) // 2
        b = o % 2
        v = attack_value(ws, fs, sb, q, g, b)
        if kind == D_RODEUR:
            v += fs[F_GAIN + (BOUFFON if b == 1 else ws[gslot(q, g)])]
        return v
    if kind == D_CHEVALIER:
        q = o // 16
        t = o % 16
        hurt = fs[sb + S_HURT] * (1.0 + fs[sb + S_LEADER] * fs[F_LEAD + q])
        return prob_holds(ws, fs, P, p, q, t) * (fs[F_GAIN + t] + hurt)
    if kind == D_MAGICIEN:
        return fs[F_GAIN + o]
    if kind == D_MARCHAND or kind == D_PRETRE:
        return fs[sb + S_HURT] * fs[sb + S_LEADER] * fs[F_LEAD + o] \
            + 0.1 * ws[W_PL + o * PLS + X_HANDN]
    if kind == D_MENDIANT:
        return fs[F_LEAD + o]
    if kind == D_GIVE_TWO:
        a = o // 16
        b = o % 16
        v = -fs[F_LOSS + a] - fs[F_LOSS + b]
        if a == b:   # the second copy of a pair is worth what remains after the first
            v += 0.25 * fs[sb + S_SETS]
        return v
    if kind == D_GIVE_ONE:
        return -fs[F_LOSS + o]
    if kind == D_PRETRE_TAKE:
        q = ws[G_CTX_Q]
        return fs[F_GAIN + o] + 0.3 * fs[sb + S_HURT] * ws[W_HAND + q * TS + o]
    # D_SORCIERE
    return power_value(ws, fs, sb, p, P, o, ws[G_CTX_PLAYED])


@njit(cache=True, inline="always", _nrt=False)
def record_decision(ws, n_options, choice):
    k = ws[G_TRACE_N]
    if k < MAX_TRACE:
        ws[W_TRACE + 2 * k] = n_options
        ws[W_TRACE + 2 * k + 1] = choice
        ws[G_TRACE_N] = k + 1


@njit(cache=True, inline="always", _nrt=False)
def ask(st, ws, fs, kind, p, n, P):
    """:func:`decide` a decision of the given kind (passed through ws, see G_KIND); the random
    bot and lone options are handled here without a call (same single draw)."""
    ws[G_KIND] = kind
    if n == 1 or (n > 1 and fs[F_STRAT + strat_row(ws, p, P) * N_STRAT_COLS + S_KIND] == STRAT_RANDOM):
        c = below(st, n)
        record_decision(ws, n, c)
        return c
    return decide(st, ws, fs, p, n, P)


@njit(cache=True, _nrt=False)
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
    if fs[sb + S_KIND] == STRAT_RANDOM or n == 1:
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
        best = -1e300
        for j in range(n):
            sc = option_score(ws, fs, sb, kind, p, P, ws[W_OPTS + j])
            fs[F_SCORE + j] = sc
            best = max(best, sc)
        n_best = 0
        for j in range(n):
            ws[W_BEST + n_best] = j
            n_best += fs[F_SCORE + j] >= best - 1e-9
        choice = ws[W_BEST + below(st, n_best)]
    record_decision(ws, n, choice)
    return choice


# =================================================================================================
# Option lists (docs/medievallons_engine.md)
# =================================================================================================
@njit(cache=True, _nrt=False)
def list_types(ws, q):
    """give_one / pretre_take: the types in q's hand, ascending."""
    # Option lists are written branch-free (always store, advance by the condition): the
    # conditions follow the cards in hand and mispredict (measured: list_actions 340 -> cycles).
    n = 0
    for t in range(N_TYPES):
        ws[W_OPTS + n] = t
        n += ws[W_HAND + q * TS + t] > 0
    return n


@njit(cache=True, _nrt=False)
def list_pairs(ws, q):
    """give_two: unordered pairs a <= b of cards in q's hand."""
    n = 0
    for a in range(N_TYPES):
        ha = ws[W_HAND + q * TS + a]
        if ha == 0:
            continue
        ws[W_OPTS + n] = a * 17
        n += ha >= 2
        for b in range(a + 1, N_TYPES):
            ws[W_OPTS + n] = a * 16 + b
            n += ws[W_HAND + q * TS + b] > 0
    return n


@njit(cache=True, inline="always", _nrt=False)
def list_opponents(ws, p, P):
    for i in range(1, P):
        ws[W_OPTS + i - 1] = (p + i) % P
    return P - 1


@njit(cache=True, _nrt=False)
def list_actions(ws, p):
    """MV-3: play (types held), found, reinforce, use -- in protocol order."""
    h = W_HAND + p * TS
    m = ws[W_RULES + R_PARAMS + P_MIN_GUILD]
    hb = ws[h + BOUFFON]
    n = 0
    for t in range(N_TYPES):
        ws[W_OPTS + n] = A_PLAY * 16 + t
        n += ws[h + t] > 0
    need = m - hb          # a type t != Bouffon can found with hand[t] >= max(1, need)
    if need < 1:
        need = 1
    for t in range(N_TYPES):
        ws[W_OPTS + n] = A_FOUND * 16 + t
        n += ws[h + t] >= need if t != BOUFFON else hb >= m
    ng = ws[W_PL + p * PLS + X_NG]
    n_hand = ws[W_PL + p * PLS + X_HANDN]
    for g in range(ng):
        gt = ws[gslot(p, g)]
        if (gt < 0 and n_hand > 0) or (gt >= 0 and ws[h + gt] + hb > 0):
            ws[W_OPTS + n] = A_REINFORCE * 16 + g
            n += 1
    for g in range(ng):
        if ws[gslot(p, g)] >= 0:
            ws[W_OPTS + n] = A_USE * 16 + g
            n += 1
    return n


@njit(cache=True, _nrt=False)
def list_guild_cards(ws, p, P):
    """Assassin / Rôdeur: (owner, guild, bouffon) over the opponents' guilds."""
    n = 0
    for i in range(1, P):
        q = (p + i) % P
        ng = ws[W_PL + q * PLS + X_NG]
        for g in range(ng):
            s = gslot(q, g)
            if ws[s + 1] > 0:
                ws[W_OPTS + n] = q * 64 + g * 2
                n += 1
            if ws[s + 2] > 0:
                ws[W_OPTS + n] = q * 64 + g * 2 + 1
                n += 1
    return n


# =================================================================================================
# Powers (MV-5)
# =================================================================================================
@njit(cache=True, _nrt=False)
def give_one(st, ws, fs, P, giver, receiver):
    """The giver chooses one card of its hand for the receiver (nothing if its hand is empty)."""
    n = list_types(ws, giver)
    if n == 0:
        return
    ws[G_CTX_Q] = receiver
    t = ws[W_OPTS + ask(st, ws, fs, D_GIVE_ONE, giver, n, P)]
    move_card(ws, giver, receiver, t)
    kn_private(ws, giver, receiver, t)


@njit(cache=True, inline="always", _nrt=False)
def no_target(st, ws, p, played):
    """MV-5: Assassin or Rôdeur without an opposing guild: a played card is replaced by a draw."""
    if played != 0:
        draw_to_hand(st, ws, p)


@njit(cache=True, _nrt=False)
def sorciere_target(st, ws, fs, P, p):
    """MV-5 Sorcière: the power type to copy (a guild's, else a card turned over); -1 for none."""
    flags = W_BEST             # scratch: which types have a guild on the table
    for t in range(TS):
        ws[flags + t] = 0
    for q in range(P):
        for g in range(ws[W_PL + q * PLS + X_NG]):
            u = ws[gslot(q, g)]
            if u >= 0:
                ws[flags + u] = 1
    ws[flags + SORCIERE] = 0
    n = 0
    for t in range(N_TYPES):
        ws[W_OPTS + n] = t
        n += ws[flags + t]
    if n > 0:
        return ws[W_OPTS + ask(st, ws, fs, D_SORCIERE, p, n, P)]
    while True:
        t = draw_card(st, ws)
        if t < 0:
            return -1
        disc_push(ws, t)
        if t == SORCIERE and ws[W_RULES + R_PARAMS + P_SORCIERE_FLIP_AGAIN] != 0:
            continue
        if t == BOUFFON or t == SORCIERE:
            return -1
        return t


@njit(cache=True, _nrt=False)
def resolve_power(st, ws, fs, P, p, t):
    """MV-5: the power of type t for p; ws[G_CTX_PLAYED] = 1 when a card played from the hand
    caused it (set by the caller)."""
    played = ws[G_CTX_PLAYED]
    if t == BOUFFON:
        return
    ws[W_POWERS + p * TS + t] += 1
    if t == SORCIERE:
        t = sorciere_target(st, ws, fs, P, p)
        if t < 0 or ws[G_OVER] != 0:
            return
        ws[W_POWERS + p * TS + t] += 1
    if t == ARTISAN:
        if ws[W_RULES + R_PARAMS + P_ARTISAN_TAKES_PLAYED] != 0 and played != 0 and ws[G_PLAYED] >= 0:
            c = ws[G_PLAYED]
            ws[G_PLAYED] = -1
            hand_add(ws, p, c, 1)
            kn_public_in(ws, P, p, c, 1)
        elif ws[G_DISC_N] > 0:
            c = disc_pop(ws)
            hand_add(ws, p, c, 1)
            kn_public_in(ws, P, p, c, 1)
    elif t == ASSASSIN or t == RODEUR:
        n = list_guild_cards(ws, p, P)
        if n == 0:
            no_target(st, ws, p, played)
            return
        o = ws[W_OPTS + ask(st, ws, fs, D_ASSASSIN if t == ASSASSIN else D_RODEUR,
                               p, n, P)]
        card = remove_from_guild(ws, P, o // 64, (o % 64) // 2, o % 2)
        if t == ASSASSIN:
            disc_push(ws, card)
        else:
            hand_add(ws, p, card, 1)
            kn_public_in(ws, P, p, card, 1)
    elif t == CHEVALIER:
        n = 0
        for i in range(1, P):
            q = (p + i) % P
            for u in range(N_TYPES):
                ws[W_OPTS + n] = q * 16 + u
                n += 1
        o = ws[W_OPTS + ask(st, ws, fs, D_CHEVALIER, p, n, P)]
        q = o // 16
        u = o % 16
        if ws[W_HAND + q * TS + u] > 0:
            move_card(ws, q, p, u)
            kn_public_out(ws, P, q, u, 1)
            kn_public_in(ws, P, p, u, 1)
        else:
            for obs in range(P):      # everyone now knows q holds none
                ws[W_KNOWN + (obs * MAXP + q) * TS + u] = 0
    elif t == ETOILE:
        for i in range(P):
            if not draw_to_hand(st, ws, (p + i) % P):
                return
    elif t == MAGICIEN:
        ws[G_LOOK_N] = 0
        for i in range(3):
            c = draw_card(st, ws)
            if c < 0:
                return
            ws[W_LOOK + i] = c
            ws[G_LOOK_N] = i + 1
        n = 0
        for i in range(3):
            c = ws[W_LOOK + i]
            dup = False
            for j in range(n):
                if ws[W_OPTS + j] == c:
                    dup = True
            if not dup:
                ws[W_OPTS + n] = c
                n += 1
        keep = ws[W_OPTS + ask(st, ws, fs, D_MAGICIEN, p, n, P)]
        hand_add(ws, p, keep, 1)
        kept = False
        for i in range(3):
            c = ws[W_LOOK + i]
            if c == keep and not kept:
                kept = True
            else:
                disc_push(ws, c)
        ws[G_LOOK_N] = 0
    elif t == MARCHAND:
        while ws[W_PL + p * PLS + X_HANDN] < 2:
            if not draw_to_hand(st, ws, p):
                return
        n = list_opponents(ws, p, P)
        q = ws[W_OPTS + ask(st, ws, fs, D_MARCHAND, p, n, P)]
        ws[G_CTX_Q] = q
        n = list_pairs(ws, p)
        mine = ws[W_OPTS + ask(st, ws, fs, D_GIVE_TWO, p, n, P)]
        nq = ws[W_PL + q * PLS + X_HANDN]
        theirs_a = -1
        theirs_b = -1
        ws[G_CTX_Q] = p
        if nq >= 2:
            n = list_pairs(ws, q)
            o = ws[W_OPTS + ask(st, ws, fs, D_GIVE_TWO, q, n, P)]
            theirs_a = o // 16
            theirs_b = o % 16
        elif nq == 1:
            n = list_types(ws, q)
            theirs_a = ws[W_OPTS + ask(st, ws, fs, D_GIVE_ONE, q, n, P)]
        for c in (mine // 16, mine % 16):
            move_card(ws, p, q, c)
            kn_private(ws, p, q, c)
        for c in (theirs_a, theirs_b):
            if c >= 0:
                move_card(ws, q, p, c)
                kn_private(ws, q, p, c)
    elif t == MENDIANT:
        mine = ws[W_PL + p * PLS + X_HANDN]
        most = 0
        for i in range(1, P):
            q = (p + i) % P
            if ws[W_PL + q * PLS + X_HANDN] > most:
                most = ws[W_PL + q * PLS + X_HANDN]
        if most == 0 or mine > most or (mine == most and ws[W_RULES + R_PARAMS + P_MENDIANT_DRAWS_ON_TIE] != 0):
            draw_to_hand(st, ws, p)
            return
        n = 0
        for i in range(1, P):
            q = (p + i) % P
            if ws[W_PL + q * PLS + X_HANDN] == most:
                ws[W_OPTS + n] = q
                n += 1
        q = ws[W_OPTS + ask(st, ws, fs, D_MENDIANT, p, n, P)]
        k = below(st, most)
        c = 0
        for u in range(N_TYPES):
            if k < ws[W_HAND + q * TS + u]:
                c = u
                break
            k -= ws[W_HAND + q * TS + u]
        move_card(ws, q, p, c)
        kn_private(ws, q, p, c)
    elif t == MOINE:
        if draw_to_hand(st, ws, p):
            draw_to_hand(st, ws, p)
    elif t == NOBLE:
        if P == 2:
            give_one(st, ws, fs, P, 1 - p, p)
            draw_to_hand(st, ws, p)
        else:
            give_one(st, ws, fs, P, (p + 1) % P, p)
            give_one(st, ws, fs, P, (p + 2) % P, p)
    elif t == PRETRE:
        while ws[W_PL + p * PLS + X_HANDN] < 1:
            if not draw_to_hand(st, ws, p):
                return
        n = list_opponents(ws, p, P)
        q = ws[W_OPTS + ask(st, ws, fs, D_PRETRE, p, n, P)]
        for u in range(N_TYPES):       # p looks at q's hand
            ws[W_KNOWN + (p * MAXP + q) * TS + u] = ws[W_HAND + q * TS + u]
        n = list_types(ws, q)
        if n > 0:
            ws[G_CTX_Q] = q
            u = ws[W_OPTS + ask(st, ws, fs, D_PRETRE_TAKE, p, n, P)]
            move_card(ws, q, p, u)
            kn_private(ws, q, p, u)
        give_one(st, ws, fs, P, p, q)


# =================================================================================================
# Actions and turns (MV-3)
# =================================================================================================
@njit(cache=True, _nrt=False)
def do_action(st, ws, fs, P, p, code):
    """MV-3: carry out action ``code``; the power (if any) resolves at the end."""
    a = code // 16
    x = code % 16
    h = W_HAND + p * TS
    power = -1
    if a == A_PLAY:
        hand_add(ws, p, x, -1)
        kn_public_out(ws, P, p, x, 1)
        ws[G_PLAYED] = x
        power = x
    elif a == A_FOUND:
        m = ws[W_RULES + R_PARAMS + P_MIN_GUILD]
        n = 0
        if x == BOUFFON:
            for nb in range(m, ws[h + BOUFFON] + 1):
                ws[W_OPTS + n] = nb
                n += 1
        else:
            for nt in range(1, ws[h + x] + 1):
                for nb in range(ws[h + BOUFFON] + 1):
                    if nt + nb >= m:
                        ws[W_OPTS + n] = nt * 32 + nb
                        n += 1
        ws[G_CTX_T] = x
        o = ws[W_OPTS + ask(st, ws, fs, D_FOUND_SIZE, p, n, P)]
        nt = o // 32
        nb = o % 32
        if nt > 0:
            hand_add(ws, p, x, -nt)
            kn_public_out(ws, P, p, x, nt)
        if nb > 0:
            hand_add(ws, p, BOUFFON, -nb)
            kn_public_out(ws, P, p, BOUFFON, nb)
        g = ws[W_PL + p * PLS + X_NG]
        s = gslot(p, g)
        ws[s] = -1 if x == BOUFFON else x
        ws[s + 1] = nt
        ws[s + 2] = nb
        ws[W_PL + p * PLS + X_NG] = g + 1
        ws[W_FOUNDED + p * TS + x] += 1
        if g + 1 >= ws[W_RULES + R_PARAMS + P_TO_WIN]:
            end_game(ws, THIRD_GUILD, p)
            return
        power = x
    elif a == A_REINFORCE:
        s = gslot(p, x)
        ws[G_CTX_G] = x
        hb = ws[h + BOUFFON]
        gt = ws[s]
        at_least_one = False
        if gt < 0:
            n = 0
            for u in range(N_TYPES):
                if u != BOUFFON and ws[h + u] > 0:
                    ws[W_OPTS + n] = u
                    n += 1
            if hb > 0:
                ws[W_OPTS + n] = BOUFFON
                n += 1
            gt = ws[W_OPTS + ask(st, ws, fs, D_REINFORCE_TYPE, p, n, P)]
            at_least_one = True
        n = 0
        if gt == BOUFFON:
            for nb in range(1, hb + 1):
                ws[W_OPTS + n] = nb
                n += 1
        else:
            lo = 1 if at_least_one else 0
            for nx in range(lo, ws[h + gt] + 1):
                for nb in range(hb + 1):
                    if nx + nb >= 1:
                        ws[W_OPTS + n] = nx * 32 + nb
                        n += 1
        ws[G_CTX_T] = gt
        o = ws[W_OPTS + ask(st, ws, fs, D_REINFORCE_SIZE, p, n, P)]
        nx = o // 32
        nb = o % 32
        if nx > 0:
            hand_add(ws, p, gt, -nx)
            kn_public_out(ws, P, p, gt, nx)
            ws[s] = gt
            ws[s + 1] += nx
        if nb > 0:
            hand_add(ws, p, BOUFFON, -nb)
            kn_public_out(ws, P, p, BOUFFON, nb)
            ws[s + 2] += nb
        power = ws[s]
    else:   # A_USE
        power = ws[gslot(p, x)]
    if power >= 0:
        ws[G_CTX_PLAYED] = 1 if a == A_PLAY else 0
        resolve_power(st, ws, fs, P, p, power)
    if a == A_PLAY and ws[G_OVER] == 0 and ws[G_PLAYED] >= 0:
        disc_push(ws, ws[G_PLAYED])
        ws[G_PLAYED] = -1


@njit(cache=True, _nrt=False)
def play_turns(st, ws, fs, P, debug):
    """Play MV-3 turns from the position in ``ws`` until the game ends or ``turns`` reaches
    ws[G_LIMIT] (MV-7's max_turns ends the game as ``truncated``).

    Returns 0 then. With ws[G_STOP] = 1, returns 1 instead when a seat played by the playout bot
    must choose its action: the position is left at the start of that turn with the actions
    listed in W_OPTS (count in G_NOPT). Calling again with ws[G_FORCED] = j plays action j.
    """
    max_turns = ws[W_RULES + R_PARAMS + P_MAX_TURNS]
    stop_for_playout = ws[G_STOP] != 0
    forced = ws[G_FORCED]
    ws[G_FORCED] = -1
    turn_limit = ws[G_LIMIT]
    while ws[G_OVER] == 0:
        if ws[G_TURNS] >= max_turns:
            end_game(ws, TRUNCATED, -1)
            break
        if ws[G_TURNS] >= turn_limit:
            break
        p = ws[G_CUR]
        if ws[W_PL + p * PLS + X_HANDN] == 0 and ws[W_PL + p * PLS + X_NG] == 0:
            ws[G_TURNS] += 1
            ws[G_CUR] = p + 1 if p + 1 < P else 0
            if draw_to_hand(st, ws, p):
                draw_to_hand(st, ws, p)
        else:
            n = list_actions(ws, p)
            if n > 0:
                if forced >= 0:
                    j = forced
                    forced = -1
                    record_decision(ws, n, j)
                elif stop_for_playout and fs[F_STRAT + strat_row(ws, p, P) * N_STRAT_COLS + S_KIND] == STRAT_PLAYOUT:
                    ws[G_NOPT] = n
                    return 1
                else:
                    j = ask(st, ws, fs, D_ACTION, p, n, P)
                code = ws[W_OPTS + j]
                ws[G_TURNS] += 1
                ws[G_CUR] = p + 1 if p + 1 < P else 0
                do_action(st, ws, fs, P, p, code)
            else:
                ws[G_TURNS] += 1
                ws[G_CUR] = p + 1 if p + 1 < P else 0
            if ws[G_OVER] == 0:
                draw_to_hand(st, ws, p)
        if debug:
            check_invariants(ws, P)
    return 0


# =================================================================================================
# The playout bot (MV-8): determinized playouts over sampled hidden hands
# =================================================================================================
@njit(cache=True, _nrt=False)
def determinize(st2, sc, P, p):
    """Deal the cards p cannot see (opponents' hands + draw pile) anew: cards p has seen in a hand
    stay there; the rest are shuffled and dealt to fill every hand, the remainder is the pile."""
    pool = W_OPTS        # scratch: counts per type, then the card list (W_OPTS and W_BEST)
    for t in range(TS):
        sc[pool + t] = 0
    for i in range(sc[G_PILE_N]):
        sc[pool + sc[W_PILE + i]] += 1
    for i in range(1, P):
        q = (p + i) % P
        for t in range(N_TYPES):
            sc[pool + t] += sc[W_HAND + q * TS + t]
            sc[W_HAND + q * TS + t] = 0
    free = W_BEST
    for i in range(1, P):          # seen cards first, as far as the pool still has them
        q = (p + i) % P
        room = sc[W_PL + q * PLS + X_HANDN]
        for t in range(N_TYPES):
            k = sc[W_KNOWN + (p * MAXP + q) * TS + t]
            if k > sc[pool + t]:
                k = sc[pool + t]
            if k > room:
                k = room
            sc[W_HAND + q * TS + t] = k
            sc[pool + t] -= k
            room -= k
        sc[free + TS + q] = room
    n = 0
    for t in range(N_TYPES):
        for _ in range(sc[pool + t]):
            sc[W_PILE + n] = t
            n += 1
    shuffle_range(st2, sc, W_PILE, n)
    for i in range(1, P):
        q = (p + i) % P
        for _ in range(sc[free + TS + q]):
            n -= 1
            sc[W_HAND + q * TS + sc[W_PILE + n]] += 1
    sc[G_PILE_N] = n


@njit(cache=True, _nrt=False)
def position_value(ws, fs, P, p):
    """Playout result for p: +-10 if the game ended (shared wins: 10 / k), else p's standing
    minus the best opponent's -- guilds, guild cards, hand size, and the sets in hand (the worth a
    collector sees in cards about to be founded), scaled to stay below a win."""
    if ws[G_OVER] != 0:
        reason = ws[G_OVER] - 1
        if reason == THIRD_GUILD:
            return 10.0 if ws[G_WINNER] == p else -10.0
        ranks_better = 0
        ties = 1
        for q in range(P):
            if q != p:
                c = compare_keys(ws, q, p)
                if c > 0:
                    ranks_better += 1
                elif c == 0:
                    ties += 1
        return 10.0 / ties if ranks_better == 0 else -10.0
    mine = standing(ws, fs, p)
    best = -1e9
    for q in range(P):
        if q != p:
            best = max(best, standing(ws, fs, q))
    return mine - best


@njit(cache=True, inline="always", _nrt=False)
def standing(ws, fs, q):
    h = W_HAND + q * TS
    sets = 0.8 * ws[h + BOUFFON]
    for t in range(N_TYPES):
        sets += fs[F_SETV + min(ws[h + t], 62)] * (t != BOUFFON)
    return public_score(ws, q) + 0.5 * sets


@njit(cache=True, _nrt=False)
def playout_choice(st, ws, sc, fs, st2, P, debug):
    """The playout bot's action: the best few actions by its heuristic, each tried in the same
    determinized worlds (common random numbers): the hidden cards dealt anew, the action played,
    then every seat playing the bot's own heuristic for ``horizon`` turns (0 = to the end); the
    best mean position value wins, ties to the earliest option.

    One draw of the game's stream seeds everything (exactly one draw per decision, as for every
    strategy); world r uses ``stream_state(that draw, r)``.
    """
    p = ws[G_CUR]
    row = strat_row(ws, p, P)
    sb = F_STRAT + row * N_STRAT_COLS
    n = ws[G_NOPT]
    base_seed = next_u64(st)
    if n == 1:
        return 0
    # the candidates: an immediate win, else the best `candidates` options by the heuristic
    prepare_values(ws, fs, sb, p, P, ws[W_RULES + R_PARAMS + P_MIN_GUILD] > 0)
    ws[G_KIND] = D_ACTION
    kind = ws[G_KIND]
    for j in range(n):
        fs[F_SCORE + j] = option_score(ws, fs, sb, kind, p, P, ws[W_OPTS + j])
        if fs[F_SCORE + j] >= 1e6:
            return j
    k = int(fs[sb + S_CANDIDATES])
    if k < 1:
        k = 1
    if k > n:
        k = n
    for c in range(k):              # selection of the top k, ties to the earliest
        best = -1
        for j in range(n):
            taken = False
            for c2 in range(c):
                if ws[W_BEST + c2] == j:
                    taken = True
            if not taken and (best < 0 or fs[F_SCORE + j] > fs[F_SCORE + best] + 1e-9):
                best = j
        ws[W_BEST + c] = best
    for c in range(k):
        fs[F_MEAN + c] = 0.0
    reps = int(fs[sb + S_PLAYOUTS])
    if reps < 1:
        reps = 1
    horizon = int(fs[sb + S_HORIZON])
    limit = ws[G_TURNS] + horizon if horizon > 0 else 1 << 40
    for r in range(reps):
        for c in range(k):
            for i in range(W_TRACE):
                sc[i] = ws[i]
            sc[G_TRACE_N] = MAX_TRACE       # playouts record nothing
            sc[G_SELF_ROW] = row
            st2[0] = stream_state(base_seed, r)
            determinize(st2, sc, P, p)
            n2 = list_actions(sc, p)    # the same list: p's hand and guilds are unchanged
            if n2 != n:
                ws[G_ERROR] = E_NO_OPTION
            sc[G_STOP] = 0
            sc[G_FORCED] = ws[W_BEST + c]
            sc[G_LIMIT] = limit
            play_turns(st2, sc, fs, P, debug)
            fs[F_MEAN + c] += position_value(sc, fs, P, p)
            if sc[G_ERROR] != 0:
                ws[G_ERROR] = sc[G_ERROR]
    # W_BEST (the candidates) is only written by decisions on ws, and playouts run on sc.
    # The heuristic's own score is a prior: a candidate must beat the heuristic's favourite by
    # more than prior x (score gap), which tempers the winner's curse of picking a lucky mean.
    prior = fs[sb + S_PRIOR]
    top = fs[F_SCORE + ws[W_BEST]]
    for c in range(k):
        fs[F_MEAN + c] = fs[F_MEAN + c] / reps + prior * (fs[F_SCORE + ws[W_BEST + c]] - top)
    best_c = 0
    for c in range(1, k):
        d = fs[F_MEAN + c] - fs[F_MEAN + best_c]
        if d > 1e-9 or (abs(d) <= 1e-9 and ws[W_BEST + c] < ws[W_BEST + best_c]):
            best_c = c
    return ws[W_BEST + best_c]


# =================================================================================================
# One game
# =================================================================================================
@njit(cache=True, _nrt=False)
def load_block(ws, sc, fs, rk, strat):
    """Once per block: the rules into ws (and the playout scratch), the strategy table and the
    set_value table into fs, so every helper takes (st, ws, fs) only -- fewer array arguments,
    cheaper calls."""
    for i in range(R_SIZE):
        ws[W_RULES + i] = rk[i]
        sc[W_RULES + i] = rk[i]
    for r in range(strat.shape[0]):
        for c in range(N_STRAT_COLS):
            fs[F_STRAT + r * N_STRAT_COLS + c] = strat[r, c]
    init_values(ws, fs)


@njit(cache=True, _nrt=False)
def reset(ws):
    for i in range(W_RESET_END):
        ws[i] = 0
    ws[G_WINNER] = -1
    ws[G_PLAYED] = -1
    ws[G_SELF_ROW] = -1
    for p in range(MAXP):
        for g in range(MAXG):
            ws[gslot(p, g)] = -1


@njit(cache=True, _nrt=False)
def setup_game(st, ws, P):
    """MV-2: shuffle the deck, deal hand_size rounds from seat 0, start the discard pile."""
    n = 0
    for t in range(N_TYPES):
        for _ in range(ws[W_RULES + R_COPIES + t]):
            ws[W_PILE + n] = t
            n += 1
    shuffle_range(st, ws, W_PILE, n)
    for _ in range(ws[W_RULES + R_PARAMS + P_HAND_SIZE]):
        for p in range(P):
            n -= 1
            hand_add(ws, p, ws[W_PILE + n], 1)
    n -= 1
    disc_push(ws, ws[W_PILE + n])
    ws[G_PILE_N] = n
    ws[G_END_RED] = ws[W_RULES + R_PARAMS + P_RED_2 + P - 2]
    ws[G_CUR] = 0


@njit(cache=True, _nrt=False)
def finish(ws):
    """The game is over: cards still in the look zone, then the played card, go to the discards."""
    for i in range(ws[G_LOOK_N]):
        disc_push(ws, ws[W_LOOK + i])
    ws[G_LOOK_N] = 0
    if ws[G_PLAYED] >= 0:
        disc_push(ws, ws[G_PLAYED])
        ws[G_PLAYED] = -1


@njit(cache=True, _nrt=False)
def play_one(st, ws, sc, fs, st2, P, debug):
    setup_game(st, ws, P)
    ws[G_STOP] = 1
    ws[G_LIMIT] = 1 << 40
    ws[G_FORCED] = -1
    while play_turns(st, ws, fs, P, debug) == 1:
        ws[G_FORCED] = playout_choice(st, ws, sc, fs, st2, P, debug)
    finish(ws)
    if debug:
        check_invariants(ws, P)


@njit(cache=True, _nrt=False)
def check_invariants(ws, P):
    """Debug: cards conserved per type over every zone; guilds >= min_cards and well formed;
    hand sizes agree with the hands."""
    cnt = W_BEST           # scratch (free between decisions)
    for t in range(TS):
        ws[cnt + t] = 0
    for i in range(ws[G_PILE_N]):
        ws[cnt + ws[W_PILE + i]] += 1
    for i in range(ws[G_DISC_N]):
        ws[cnt + ws[W_DISC + i]] += 1
    for i in range(ws[G_LOOK_N]):
        ws[cnt + ws[W_LOOK + i]] += 1
    if ws[G_PLAYED] >= 0:
        ws[cnt + ws[G_PLAYED]] += 1
    m = ws[W_RULES + R_PARAMS + P_MIN_GUILD]
    for p in range(P):
        total = 0
        for t in range(N_TYPES):
            k = ws[W_HAND + p * TS + t]
            if k < 0:
                ws[G_ERROR] = E_HAND_COUNT
            ws[cnt + t] += k
            total += k
        if total != ws[W_PL + p * PLS + X_HANDN]:
            ws[G_ERROR] = E_HAND_COUNT
        for g in range(ws[W_PL + p * PLS + X_NG]):
            s = gslot(p, g)
            if ws[s + 1] + ws[s + 2] < m:
                ws[G_ERROR] = E_GUILD_TOO_SMALL
            if (ws[s] < 0) != (ws[s + 1] == 0) or ws[s + 2] < 0 or ws[s] == BOUFFON:
                ws[G_ERROR] = E_BAD_GUILD
            if ws[s] >= 0:
                ws[cnt + ws[s]] += ws[s + 1]
            ws[cnt + BOUFFON] += ws[s + 2]
    for t in range(N_TYPES):
        if ws[cnt + t] != ws[W_RULES + R_COPIES + t]:
            ws[G_ERROR] = E_CARDS_NOT_CONSERVED
    d = 0
    for t in range(N_TYPES):
        d += ws[W_DCNT + t]
    if d != ws[G_DISC_N]:
        ws[G_ERROR] = E_CARDS_NOT_CONSERVED


@njit(cache=True, _nrt=False)
def guild_cards(ws, p):
    c = 0
    for g in range(ws[W_PL + p * PLS + X_NG]):
        s = gslot(p, g)
        c += ws[s + 1] + ws[s + 2]
    return c


@njit(cache=True, _nrt=False)
def compare_keys(ws, a, b):
    """MV-7: 1 if a's (guilds, guild cards, hand) beats b's, -1 if below, 0 if equal."""
    x = ws[W_PL + a * PLS + X_NG]
    y = ws[W_PL + b * PLS + X_NG]
    if x != y:
        return 1 if x > y else -1
    x = guild_cards(ws, a)
    y = guild_cards(ws, b)
    if x != y:
        return 1 if x > y else -1
    x = ws[W_PL + a * PLS + X_HANDN]
    y = ws[W_PL + b * PLS + X_HANDN]
    if x != y:
        return 1 if x > y else -1
    return 0


N_PLAYER_COLS = 4 + 2 * N_TYPES    # score, rank, guilds, hand, founded[13], powers[13]


@njit(cache=True, _nrt=False)
def write_outputs(ws, P, g, out_i16, out_win, out_game):
    """MV-7 win shares and ranks and the MV-9 records of game row g (columns: PLAYER_COLS)."""
    reason = ws[G_OVER] - 1
    w = ws[G_WINNER]
    n_best = 0
    for p in range(P):
        better = 0
        for q in range(P):
            if q != p and q != w and compare_keys(ws, q, p) > 0:
                better += 1
        row = g * P + p
        if reason == THIRD_GUILD:
            out_i16[row, 1] = 1 if p == w else 2 + better
        else:
            out_i16[row, 1] = 1 + better
            if better == 0:
                n_best += 1
    for p in range(P):
        row = g * P + p
        if reason == THIRD_GUILD:
            out_win[row] = 1.0 if p == w else 0.0
        else:
            out_win[row] = (1.0 / n_best) if out_i16[row, 1] == 1 else 0.0
        out_i16[row, 0] = guild_cards(ws, p)
        out_i16[row, 2] = ws[W_PL + p * PLS + X_NG]
        out_i16[row, 3] = ws[W_PL + p * PLS + X_HANDN]
        for t in range(N_TYPES):
            out_i16[row, 4 + t] = ws[W_FOUNDED + p * TS + t]
            out_i16[row, 4 + N_TYPES + t] = ws[W_POWERS + p * TS + t]
    out_game[g, 0] = ws[G_TURNS]
    out_game[g, 1] = reason
    out_game[g, 2] = ws[G_RESHUF]
    out_game[g, 3] = ws[G_ERROR]


@njit(cache=True, parallel=True)
def play_chunk(first_game, n_games, seed, P, rk, strat, n_rot, debug, out_i16, out_win, out_game,
               trace):
    """Play games ``first_game … first_game + n_games - 1`` (jit-compiled by Numba, parallel).

    Parameters
    ----------
    first_game, n_games, seed : int
        Game ``i = first_game + g`` is deal ``i // n_rot`` in rotation ``i % n_rot``; its stream is
        ``stream_state(seed, deal)``, so the rotations of a deal share every shuffle.
    P : int
        Players, 2-5.
    rk : int64[R_SIZE]
        Rules vector from :func:`pack_rules`.
    strat : float64[P, N_STRAT_COLS]
        One strategy row per seat (column 0 = kind).
    n_rot : int
        1, or P for seat rotation: in rotation k, seat s is played by strategy row (s + k) % P.
    debug : bool
        Check the invariants after every turn and at the end (error codes 10+).
    out_i16 : int16[n_games * P, N_PLAYER_COLS]; out_win : float32[n_games * P];
    out_game : int16[n_games, 4] (turns, end reason, reshuffles, error)
    trace : int16[n_games, 2 * MAX_TRACE] or int16[1, 0]
        Decision trace (n_options, choice pairs) per game, or nothing when the width is 0.
    """
    n_blocks = min(n_games, 256)
    record = trace.shape[1] > 0
    for b in prange(n_blocks):
        g0 = b * n_games // n_blocks
        g1 = (b + 1) * n_games // n_blocks
        st = np.zeros(1, np.uint64)
        st2 = np.zeros(1, np.uint64)
        ws = np.zeros(WS_SIZE, np.int64)
        sc = np.zeros(WS_SIZE, np.int64)
        fs = np.zeros(FS_SIZE, np.float64)
        load_block(ws, sc, fs, rk, strat)
        for g in range(g0, g1):
            reset(ws)
            game = first_game + g
            ws[G_ROT] = game % n_rot
            st[0] = stream_state(seed, game // n_rot)
            play_one(st, ws, sc, fs, st2, P, debug)
            write_outputs(ws, P, g, out_i16, out_win, out_game)
            if record:
                for i in range(min(2 * ws[G_TRACE_N], trace.shape[1])):
                    trace[g, i] = ws[W_TRACE + i]


def new_workspace(rules, strat=None) -> tuple[np.ndarray, np.ndarray]:
    """A reset (ws, fs) pair loaded with ``rules`` and strategy rows (tests, position studies)."""
    rk = pack_rules(rules)
    if strat is None:
        strat = random_strategies(MAXP)
    ws = np.zeros(WS_SIZE, np.int64)
    sc = np.zeros(WS_SIZE, np.int64)
    fs = np.zeros(FS_SIZE, np.float64)
    load_block(ws, sc, fs, rk, np.ascontiguousarray(strat, np.float64))
    reset(ws)
    return ws, fs


def random_strategies(n_players: int) -> np.ndarray:
    """Strategy rows for ``random`` at every seat."""
    return np.zeros((n_players, N_STRAT_COLS), np.float64)


def run_chunk(rules, n_players: int, first_game: int, n_games: int, seed: int, strat=None, *,
              debug: bool = False, trace_decisions: bool = False, rk=None,
              rotate: bool = False) -> dict:
    """Allocate outputs, call :func:`play_chunk`, return named arrays (the Python entry point).

    Player arrays (``n_games * n_players`` rows, game-major then seat): ``score`` int32,
    ``win_share`` float32, ``rank`` int8, ``guilds`` int8, ``hand`` int16, ``founded`` int8
    (rows x 13), ``powers`` int16 (rows x 13). Game arrays: ``turns`` int16, ``end_reason`` int8,
    ``reshuffles`` int8, ``error`` int16, and with ``trace_decisions`` a list of
    (n_options, choice) pairs per game in ``trace``.
    """
    P = int(n_players)
    if strat is None:
        strat = random_strategies(P)
    if rk is None:
        rk = pack_rules(rules)
    rows = n_games * P
    out_i16 = np.empty((rows, N_PLAYER_COLS), np.int16)
    out_win = np.empty(rows, np.float32)
    out_game = np.empty((n_games, 4), np.int16)
    trace = np.full((n_games, 2 * MAX_TRACE) if trace_decisions else (1, 0), -1, np.int16)
    play_chunk(np.int64(first_game), np.int64(n_games), np.uint64(seed), np.int64(P), rk,
               np.ascontiguousarray(strat, np.float64), np.int64(P if rotate else 1), bool(debug),
               out_i16, out_win, out_game, trace)
    out = dict(
        score=out_i16[:, 0].astype(np.int32), win_share=out_win, rank=out_i16[:, 1].astype(np.int8),
        guilds=out_i16[:, 2].astype(np.int8), hand=out_i16[:, 3].copy(),
        founded=out_i16[:, 4:4 + N_TYPES].astype(np.int8),
        powers=out_i16[:, 4 + N_TYPES:4 + 2 * N_TYPES].copy(),
        turns=out_game[:, 0].copy(), end_reason=out_game[:, 1].astype(np.int8),
        reshuffles=out_game[:, 2].astype(np.int8), error=out_game[:, 3].copy(),
    )
    if trace_decisions:
        out["trace"] = [[(int(row[2 * i]), int(row[2 * i + 1])) for i in range(MAX_TRACE)
                         if row[2 * i] >= 0] for row in trace]
    return out
