"""Médiévallons rules of play, jit-compiled by Numba: setup (MV-2), turns and actions (MV-3),
founding, reinforcing and breaking guilds (MV-4), the card powers (MV-5), the empty draw pile
(MV-6), the end conditions and ranking keys (MV-7) of ``shared/rules/medievallons.md``, and the
debug-mode invariants, on one game's state in the int64 workspace ``ws`` (offsets in
:mod:`simcore.games.medievallons.layout`). Randomness is drawn and options are listed in the order
of ``docs/medievallons_engine.md``, so the pure-Python reference engine
(:mod:`simcore.games.medievallons.reference`) replays any game exactly. Every choice a player makes
goes to :func:`simcore.games.medievallons.bots.ask`; at a playout seat's action
:func:`play_turns` returns instead, and the game loop (:mod:`simcore.games.medievallons.driver`)
asks the playout bot, which plays forward with :func:`play_turns` -- so this module never needs
the playout bot and the imports stay one-way. May import numba, :mod:`simcore.rng`, the layout,
the constants of the rules module and :mod:`simcore.games.medievallons.bots` -- never playout or
driver, which import it.
"""

from __future__ import annotations

from types import FunctionType

from numba import njit, types
from numba.extending import overload
from numpy import uint64 as U

from simcore.games.medievallons.bots import ask, gslot, record_decision, seat_after, strat_row
from simcore.games.medievallons.layout import (
    A_FOUND, A_PLAY, A_REINFORCE, A_USE, D_ACTION, D_ASSASSIN, D_CHEVALIER, D_FOUND_SIZE,
    D_GIVE_ONE, D_GIVE_TWO, D_MAGICIEN, D_MARCHAND, D_MENDIANT, D_PRETRE, D_PRETRE_TAKE,
    D_REINFORCE_SIZE, D_REINFORCE_TYPE, D_RODEUR, D_SORCIERE, EMPTY_PILE, E_BAD_GUILD,
    E_CARDS_NOT_CONSERVED, E_GUILD_COUNTS, E_GUILD_TOO_SMALL, E_HAND_COUNT, F_STRAT, GF, G_CTX_G,
    G_CTX_PLAYED, G_CTX_Q, G_CTX_T, G_CUR, G_DISC_N, G_END_RED, G_ERROR, G_FORCED, G_LIMIT,
    G_LOOK_N, G_NGT_MASK, G_NOPT, G_OVER, G_PILE_N, G_PLAYED, G_RESHUF, G_SELF_ROW, G_STOP,
    G_TURNS, G_WINNER, MAXG, MAXP, N_STRAT_COLS, PLS, R_COPIES, R_PARAMS, STRAT_PLAYOUT, S_KIND,
    THIRD_GUILD, TRUNCATED, TS, W_BEST, W_DCNT, W_DISC, W_FOUNDED, W_HAND, W_KNOWN, W_LOOK, W_NGT,
    W_OPTS, W_PILE, W_PL, W_POWERS, W_RESET_END, W_RULES, W_TCNT, X_GC, X_HANDN, X_NG,
)
from simcore.games.medievallons.rules import (
    ARTISAN, ASSASSIN, BOUFFON, CHEVALIER, ETOILE, MAGICIEN, MARCHAND, MENDIANT, MOINE, NOBLE,
    N_TYPES, PRETRE, P_ARTISAN_TAKES_PLAYED, P_END_ON_LAST_CARD, P_HAND_SIZE, P_MAX_TURNS,
    P_MENDIANT_DRAWS_ON_TIE, P_MIN_GUILD, P_RED_2, P_SORCIERE_FLIP_AGAIN, P_TO_WIN, RODEUR,
    SORCIERE,
)
from simcore.rng import below, shuffle_range
from simcore.numba_cache import njit_on_demand

# Speed notes (each measured): helpers take (st, ws, fs) only -- each array argument costs ~7
# machine words per call -- and never allocate (_nrt=False); small ones are inlined. Option lists
# are written branch-free (random play 20 -> 11 µs per game). See also the notes in bots.py,
# including the one on Numba's cache and edits to other files.


# =================================================================================================
# Piles, hands, knowledge (MV-2, MV-6, MV-8)
# =================================================================================================
@njit(cache=True, inline="always", _nrt=False)
def end_game(ws, reason, winner):
    """MV-6 / MV-7: the game is over (every caller returns as soon as it sees G_OVER)."""
    if ws[G_OVER] == 0:
        ws[G_OVER] = reason + 1
        ws[G_WINNER] = winner


@njit(cache=True, inline="always", _nrt=False)
def disc_push(ws, t):
    """MV-3, MV-5, MV-6: card t onto the discard pile (kept per type in W_DCNT too)."""
    n = ws[G_DISC_N]
    ws[U(W_DISC + n)] = t
    ws[G_DISC_N] = n + 1
    ws[U(W_DCNT + t)] += 1


@njit(cache=True, inline="always", _nrt=False)
def disc_pop(ws):
    """MV-5 Artisan: the top card of the discard pile, taken off it."""
    n = ws[G_DISC_N] - 1
    t = ws[U(W_DISC + n)]
    ws[G_DISC_N] = n
    ws[U(W_DCNT + t)] -= 1
    return t


@njit(cache=True, inline="always", _nrt=False)
def draw_card(st, ws):
    """MV-6: the top card of the draw pile, or -1 when the game ends (pile empty, End card yellow).

    With ``end_card_timing = "last_card_taken"`` (rules value 1) the End card acts as the last
    card leaves the pile (:func:`refill`); the card is still returned when that ends the game
    (G_OVER), for the caller to put where the draw puts it and then stop."""
    # One compare on the hot path, against the rules value: 0 = an empty pile, 1 = the last card
    # too. Measured against the kernel without the setting (bench_kernel_ab, default rules):
    # random games 1.02-1.03x the CPU time, balanced 1.005-1.01x; a second test after taking the
    # card, or the book's logic in a separate function, measured the same.
    if ws[G_PILE_N] <= ws[U(W_RULES + R_PARAMS + P_END_ON_LAST_CARD)]:
        if not refill(st, ws):
            return -1
    n = ws[G_PILE_N] - 1
    ws[G_PILE_N] = n
    return ws[U(W_PILE + n)]


@njit(cache=True, _nrt=False)
def refill(st, ws):
    """MV-6, the End card showing: a red one turns yellow and the discard pile except its top card
    is shuffled into a new draw pile; False (the game ends) if the pile is still empty.

    With the book's timing a draw calls it with the last card still in the pile: that card leaves
    the pile first (so it is not under the reshuffled cards), the End card acts, then the card is
    put back on top for the draw to take; True then, the game ended (G_OVER) or not."""
    last = -1
    if ws[G_PILE_N] > 0:
        last = ws[W_PILE]
        ws[G_PILE_N] = 0
    if ws[G_END_RED] != 0:
        reshuffle(st, ws)
    n = ws[G_PILE_N]
    if n == 0:
        end_game(ws, EMPTY_PILE, -1)
    if last >= 0:
        ws[U(W_PILE + n)] = last
        ws[G_PILE_N] = n + 1
        return True
    return n > 0


@njit(cache=True, _nrt=False)
def reshuffle(st, ws):
    """MV-6, the End card red: it turns yellow and the discard pile except its top card is
    shuffled into a new draw pile (an empty discard pile stays empty)."""
    ws[G_END_RED] = 0
    ws[G_RESHUF] += 1
    n = ws[G_DISC_N]
    if n > 0:
        top = ws[U(W_DISC + n - 1)]
        m = n - 1
        shuffle_range(st, ws, W_DISC, m)
        for i in range(m):
            ws[U(W_PILE + i)] = ws[U(W_DISC + i)]
        ws[G_PILE_N] = m
        for t in range(TS):
            ws[U(W_DCNT + t)] = 0
        ws[W_DISC] = top
        ws[U(W_DCNT + top)] = 1
        ws[G_DISC_N] = 1


@njit(cache=True, inline="always", _nrt=False)
def hand_add(ws, p, t, k):
    """k cards of type t into p's hand (k < 0 takes them out); the hand size follows."""
    ws[U(W_HAND + p * TS + t)] += k
    ws[U(W_PL + p * PLS + X_HANDN)] += k


@njit(cache=True, inline="always", _nrt=False)
def draw_to_hand(st, ws, p):
    """Draw one card into p's hand; False when the game ended instead (or, the End card acting on
    the last card taken, right after it reached the hand)."""
    t = draw_card(st, ws)
    if t < 0:
        return False
    hand_add(ws, p, t, 1)
    return ws[G_OVER] == 0


@njit(cache=True, inline="always", _nrt=False)
def kn_public_out(ws, P, q, t, k):
    """Everyone saw k cards of type t leave q's hand (played, laid in a guild, Chevalier)."""
    for o in range(P):
        i = W_KNOWN + (o * MAXP + q) * TS + t
        ws[U(i)] = ws[U(i)] - k if ws[U(i)] > k else 0


@njit(cache=True, inline="always", _nrt=False)
def kn_public_in(ws, P, q, t, k):
    """Everyone saw k cards of type t enter q's hand (Rôdeur, a broken guild, Artisan, Chevalier)."""
    for o in range(P):
        if o != q:
            ws[U(W_KNOWN + (o * MAXP + q) * TS + t)] += k


@njit(cache=True, inline="always", _nrt=False)
def kn_private(ws, giver, receiver, t):
    """Only the two players saw a card of type t go from giver to receiver."""
    i = W_KNOWN + (receiver * MAXP + giver) * TS + t
    if ws[U(i)] > 0:
        ws[U(i)] -= 1
    ws[U(W_KNOWN + (giver * MAXP + receiver) * TS + t)] += 1


@njit(cache=True, inline="always", _nrt=False)
def move_card(ws, giver, receiver, t):
    """MV-5: one card of type t from the giver's hand to the receiver's."""
    hand_add(ws, giver, t, -1)
    hand_add(ws, receiver, t, 1)


# =================================================================================================
# Guilds (MV-4)
# =================================================================================================
@njit(cache=True, inline="always", _nrt=False)
def guild_count(ws, p, t, k):
    """k cards of type t (a guild's type, or the Bouffon) joined p's guilds (k < 0: left them):
    the kept counts X_GC and W_TCNT follow (layout: why they are kept)."""
    ws[U(W_PL + p * PLS + X_GC)] += k
    ws[U(W_TCNT + t)] += k


@njit(cache=True, inline="always", _nrt=False)
def ngt_add(ws, t, k):
    """k guilds of type t more on the table (k < 0: fewer): W_NGT and its bits G_NGT_MASK follow."""
    n = ws[U(W_NGT + t)] + k
    ws[U(W_NGT + t)] = n
    bit = 1 << t
    ws[G_NGT_MASK] = (ws[G_NGT_MASK] | bit) if n > 0 else (ws[G_NGT_MASK] & ~bit)


@njit(cache=True, _nrt=False)
def remove_from_guild(ws, P, owner, g, bouffon):
    """One card out of guild g (a Bouffon or a card of its type); the guild breaks below
    ``min_cards``: its other cards return to the owner's hand. Returns the card's type."""
    s = gslot(owner, g)
    if bouffon != 0:
        ws[U(s + 2)] -= 1
        card = BOUFFON
    else:
        card = ws[U(s)]
        ws[U(s + 1)] -= 1
        if ws[U(s + 1)] == 0:
            ws[U(s)] = -1
            ngt_add(ws, card, -1)
    guild_count(ws, owner, card, -1)
    if ws[U(s + 1)] + ws[U(s + 2)] < ws[U(W_RULES + R_PARAMS + P_MIN_GUILD)]:
        if ws[U(s)] >= 0 and ws[U(s + 1)] > 0:
            hand_add(ws, owner, ws[U(s)], ws[U(s + 1)])
            kn_public_in(ws, P, owner, ws[U(s)], ws[U(s + 1)])
            guild_count(ws, owner, ws[U(s)], -ws[U(s + 1)])
            ngt_add(ws, ws[U(s)], -1)
        if ws[U(s + 2)] > 0:
            hand_add(ws, owner, BOUFFON, ws[U(s + 2)])
            kn_public_in(ws, P, owner, BOUFFON, ws[U(s + 2)])
            guild_count(ws, owner, BOUFFON, -ws[U(s + 2)])
        ng = ws[U(W_PL + owner * PLS + X_NG)]
        for h in range(g, ng - 1):
            a = gslot(owner, h)
            for f in range(GF):
                ws[U(a + f)] = ws[U(a + GF + f)]
        ws[U(W_PL + owner * PLS + X_NG)] = ng - 1
    return card


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
        ws[U(W_OPTS + n)] = t
        n += ws[U(W_HAND + q * TS + t)] > 0
    return n


@njit(cache=True, _nrt=False)
def list_pairs(ws, q):
    """give_two: unordered pairs a <= b of cards in q's hand."""
    n = 0
    for a in range(N_TYPES):
        ha = ws[U(W_HAND + q * TS + a)]
        if ha == 0:
            continue
        ws[U(W_OPTS + n)] = a * 17
        n += ha >= 2
        for b in range(a + 1, N_TYPES):
            ws[U(W_OPTS + n)] = a * 16 + b
            n += ws[U(W_HAND + q * TS + b)] > 0
    return n


@njit(cache=True, inline="always", _nrt=False)
def list_opponents(ws, p, P):
    """Marchand / Prêtre partner (MV-5): the other seats from p's left."""
    for i in range(1, P):
        ws[U(W_OPTS + i - 1)] = seat_after(p, i, P)
    return P - 1


@njit(cache=True, _nrt=False)
def list_actions(ws, p):
    """MV-3: play (types held), found, reinforce, use -- in protocol order."""
    h = W_HAND + p * TS
    m = ws[U(W_RULES + R_PARAMS + P_MIN_GUILD)]
    hb = ws[U(h + BOUFFON)]
    n = 0
    for t in range(N_TYPES):
        ws[U(W_OPTS + n)] = A_PLAY * 16 + t
        n += ws[U(h + t)] > 0
    need = m - hb          # a type t != Bouffon can found with hand[t] >= max(1, need)
    if need < 1:
        need = 1
    for t in range(N_TYPES):
        ws[U(W_OPTS + n)] = A_FOUND * 16 + t
        n += ws[U(h + t)] >= need if t != BOUFFON else hb >= m
    ng = ws[U(W_PL + p * PLS + X_NG)]
    n_hand = ws[U(W_PL + p * PLS + X_HANDN)]
    for g in range(ng):
        gt = ws[U(gslot(p, g))]
        if (gt < 0 and n_hand > 0) or (gt >= 0 and ws[U(h + gt)] + hb > 0):
            ws[U(W_OPTS + n)] = A_REINFORCE * 16 + g
            n += 1
    for g in range(ng):
        if ws[U(gslot(p, g))] >= 0:
            ws[U(W_OPTS + n)] = A_USE * 16 + g
            n += 1
    return n


@njit(cache=True, _nrt=False)
def list_guild_cards(ws, p, P):
    """Assassin / Rôdeur: (owner, guild, bouffon) over the opponents' guilds."""
    n = 0
    for i in range(1, P):
        q = seat_after(p, i, P)
        ng = ws[U(W_PL + q * PLS + X_NG)]
        for g in range(ng):
            s = gslot(q, g)
            if ws[U(s + 1)] > 0:
                ws[U(W_OPTS + n)] = q * 64 + g * 2
                n += 1
            if ws[U(s + 2)] > 0:
                ws[U(W_OPTS + n)] = q * 64 + g * 2 + 1
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
    t = ws[U(W_OPTS + ask(st, ws, fs, D_GIVE_ONE, giver, n, P))]
    move_card(ws, giver, receiver, t)
    kn_private(ws, giver, receiver, t)


@njit(cache=True, inline="always", _nrt=False)
def no_target(st, ws, p, played):
    """MV-5: Assassin or Rôdeur without an opposing guild: a played card is replaced by a draw."""
    if played != 0:
        draw_to_hand(st, ws, p)


@njit(cache=True, _nrt=False)
def sorciere_target(st, ws, fs, P, p):
    """MV-5 Sorcière: the power type to copy (a guild's, else a card turned over: returned plus
    N_TYPES, so that a turned-over Artisan takes the card just turned over); -1 for none."""
    n = 0
    for t in range(N_TYPES):          # the types of the guilds on the table (W_NGT), ascending
        ws[U(W_OPTS + n)] = t
        n += (ws[U(W_NGT + t)] > 0) & (t != SORCIERE)
    if n > 0:
        return ws[U(W_OPTS + ask(st, ws, fs, D_SORCIERE, p, n, P))]
    while True:
        t = draw_card(st, ws)
        if t < 0:
            return -1
        disc_push(ws, t)
        if ws[G_OVER] != 0:           # it was the last card and the End card yellow
            return -1
        if t == SORCIERE and ws[U(W_RULES + R_PARAMS + P_SORCIERE_FLIP_AGAIN)] != 0:
            continue
        if t == BOUFFON or t == SORCIERE:
            return -1
        return t + N_TYPES


@njit(cache=True, _nrt=False)
def resolve_power(st, ws, fs, P, p, t):
    """MV-5: the power of type t for p; ws[G_CTX_PLAYED] = 1 when a card played from the hand
    caused it (set by the caller)."""
    played = ws[G_CTX_PLAYED]
    if t == BOUFFON:
        return
    ws[U(W_POWERS + p * TS + t)] += 1
    turned_over = False
    if t == SORCIERE:
        t = sorciere_target(st, ws, fs, P, p)
        if t < 0 or ws[G_OVER] != 0:
            return
        if t >= N_TYPES:
            t -= N_TYPES
            turned_over = True
        ws[U(W_POWERS + p * TS + t)] += 1
    if t == ARTISAN:
        # with artisan_takes_played_card the played card comes back, unless a played Sorcière
        # turned this Artisan over: it lies on top of the played card (review s51 #1)
        if (ws[U(W_RULES + R_PARAMS + P_ARTISAN_TAKES_PLAYED)] != 0 and played != 0 and not turned_over
                and ws[G_PLAYED] >= 0):
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
        o = ws[U(W_OPTS + ask(st, ws, fs, D_ASSASSIN if t == ASSASSIN else D_RODEUR,
                               p, n, P))]
        card = remove_from_guild(ws, P, o // 64, (o % 64) // 2, o % 2)
        if t == ASSASSIN:
            disc_push(ws, card)
        else:
            hand_add(ws, p, card, 1)
            kn_public_in(ws, P, p, card, 1)
    elif t == CHEVALIER:
        n = 0
        for i in range(1, P):
            q = seat_after(p, i, P)
            for u in range(N_TYPES):
                ws[U(W_OPTS + n)] = q * 16 + u
                n += 1
        o = ws[U(W_OPTS + ask(st, ws, fs, D_CHEVALIER, p, n, P))]
        q = o // 16
        u = o % 16
        if ws[U(W_HAND + q * TS + u)] > 0:
            move_card(ws, q, p, u)
            kn_public_out(ws, P, q, u, 1)
            kn_public_in(ws, P, p, u, 1)
        else:
            for obs in range(P):      # everyone now knows q holds none
                ws[U(W_KNOWN + (obs * MAXP + q) * TS + u)] = 0
    elif t == ETOILE:
        for i in range(P):
            if not draw_to_hand(st, ws, seat_after(p, i, P)):
                return
    elif t == MAGICIEN:
        ws[G_LOOK_N] = 0
        for i in range(3):
            c = draw_card(st, ws)
            if c < 0:
                return
            ws[U(W_LOOK + i)] = c
            ws[G_LOOK_N] = i + 1
            if ws[G_OVER] != 0:       # it was the last card and the End card yellow
                return
        n = 0
        for i in range(3):
            c = ws[U(W_LOOK + i)]
            dup = False
            for j in range(n):
                if ws[U(W_OPTS + j)] == c:
                    dup = True
            if not dup:
                ws[U(W_OPTS + n)] = c
                n += 1
        keep = ws[U(W_OPTS + ask(st, ws, fs, D_MAGICIEN, p, n, P))]
        hand_add(ws, p, keep, 1)
        kept = False
        for i in range(3):
            c = ws[U(W_LOOK + i)]
            if c == keep and not kept:
                kept = True
            else:
                disc_push(ws, c)
        ws[G_LOOK_N] = 0
    elif t == MARCHAND:
        while ws[U(W_PL + p * PLS + X_HANDN)] < 2:
            if not draw_to_hand(st, ws, p):
                return
        n = list_opponents(ws, p, P)
        q = ws[U(W_OPTS + ask(st, ws, fs, D_MARCHAND, p, n, P))]
        ws[G_CTX_Q] = q
        n = list_pairs(ws, p)
        mine = ws[U(W_OPTS + ask(st, ws, fs, D_GIVE_TWO, p, n, P))]
        nq = ws[U(W_PL + q * PLS + X_HANDN)]
        theirs_a = -1
        theirs_b = -1
        ws[G_CTX_Q] = p
        if nq >= 2:
            n = list_pairs(ws, q)
            o = ws[U(W_OPTS + ask(st, ws, fs, D_GIVE_TWO, q, n, P))]
            theirs_a = o // 16
            theirs_b = o % 16
        elif nq == 1:
            n = list_types(ws, q)
            theirs_a = ws[U(W_OPTS + ask(st, ws, fs, D_GIVE_ONE, q, n, P))]
        for c in (mine // 16, mine % 16):
            move_card(ws, p, q, c)
            kn_private(ws, p, q, c)
        for c in (theirs_a, theirs_b):
            if c >= 0:
                move_card(ws, q, p, c)
                kn_private(ws, q, p, c)
    elif t == MENDIANT:
        mine = ws[U(W_PL + p * PLS + X_HANDN)]
        most = 0
        for i in range(1, P):
            q = seat_after(p, i, P)
            if ws[U(W_PL + q * PLS + X_HANDN)] > most:
                most = ws[U(W_PL + q * PLS + X_HANDN)]
        if most == 0 or mine > most or (mine == most and ws[U(W_RULES + R_PARAMS + P_MENDIANT_DRAWS_ON_TIE)] != 0):
            draw_to_hand(st, ws, p)
            return
        n = 0
        for i in range(1, P):
            q = seat_after(p, i, P)
            if ws[U(W_PL + q * PLS + X_HANDN)] == most:
                ws[U(W_OPTS + n)] = q
                n += 1
        q = ws[U(W_OPTS + ask(st, ws, fs, D_MENDIANT, p, n, P))]
        k = below(st, most)
        c = 0
        for u in range(N_TYPES):
            if k < ws[U(W_HAND + q * TS + u)]:
                c = u
                break
            k -= ws[U(W_HAND + q * TS + u)]
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
            give_one(st, ws, fs, P, seat_after(p, 1, P), p)
            give_one(st, ws, fs, P, seat_after(p, 2, P), p)
    elif t == PRETRE:
        while ws[U(W_PL + p * PLS + X_HANDN)] < 1:
            if not draw_to_hand(st, ws, p):
                return
        n = list_opponents(ws, p, P)
        q = ws[U(W_OPTS + ask(st, ws, fs, D_PRETRE, p, n, P))]
        for u in range(N_TYPES):       # p looks at q's hand
            ws[U(W_KNOWN + (p * MAXP + q) * TS + u)] = ws[U(W_HAND + q * TS + u)]
        n = list_types(ws, q)
        if n > 0:
            ws[G_CTX_Q] = q
            u = ws[U(W_OPTS + ask(st, ws, fs, D_PRETRE_TAKE, p, n, P))]
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
        m = ws[U(W_RULES + R_PARAMS + P_MIN_GUILD)]
        n = 0
        if x == BOUFFON:
            for nb in range(m, ws[U(h + BOUFFON)] + 1):
                ws[U(W_OPTS + n)] = nb
                n += 1
        else:
            for nt in range(1, ws[U(h + x)] + 1):
                for nb in range(ws[U(h + BOUFFON)] + 1):
                    if nt + nb >= m:
                        ws[U(W_OPTS + n)] = nt * 32 + nb
                        n += 1
        ws[G_CTX_T] = x
        o = ws[U(W_OPTS + ask(st, ws, fs, D_FOUND_SIZE, p, n, P))]
        nt = o // 32
        nb = o % 32
        if nt > 0:
            hand_add(ws, p, x, -nt)
            kn_public_out(ws, P, p, x, nt)
        if nb > 0:
            hand_add(ws, p, BOUFFON, -nb)
            kn_public_out(ws, P, p, BOUFFON, nb)
        g = ws[U(W_PL + p * PLS + X_NG)]
        s = gslot(p, g)
        ws[U(s)] = -1 if x == BOUFFON else x
        ws[U(s + 1)] = nt
        ws[U(s + 2)] = nb
        if x != BOUFFON:
            ngt_add(ws, x, 1)
            guild_count(ws, p, x, nt)
        guild_count(ws, p, BOUFFON, nb)
        ws[U(W_PL + p * PLS + X_NG)] = g + 1
        ws[U(W_FOUNDED + p * TS + x)] += 1
        if g + 1 >= ws[U(W_RULES + R_PARAMS + P_TO_WIN)]:
            end_game(ws, THIRD_GUILD, p)
            return
        power = x
    elif a == A_REINFORCE:
        s = gslot(p, x)
        ws[G_CTX_G] = x
        hb = ws[U(h + BOUFFON)]
        gt = ws[U(s)]
        at_least_one = False
        if gt < 0:
            n = 0
            for u in range(N_TYPES):
                if u != BOUFFON and ws[U(h + u)] > 0:
                    ws[U(W_OPTS + n)] = u
                    n += 1
            if hb > 0:
                ws[U(W_OPTS + n)] = BOUFFON
                n += 1
            gt = ws[U(W_OPTS + ask(st, ws, fs, D_REINFORCE_TYPE, p, n, P))]
            at_least_one = True
        n = 0
        if gt == BOUFFON:
            for nb in range(1, hb + 1):
                ws[U(W_OPTS + n)] = nb
                n += 1
        else:
            lo = 1 if at_least_one else 0
            for nx in range(lo, ws[U(h + gt)] + 1):
                for nb in range(hb + 1):
                    if nx + nb >= 1:
                        ws[U(W_OPTS + n)] = nx * 32 + nb
                        n += 1
        ws[G_CTX_T] = gt
        o = ws[U(W_OPTS + ask(st, ws, fs, D_REINFORCE_SIZE, p, n, P))]
        nx = o // 32
        nb = o % 32
        if nx > 0:
            hand_add(ws, p, gt, -nx)
            kn_public_out(ws, P, p, gt, nx)
            if ws[U(s)] < 0:
                ngt_add(ws, gt, 1)
            ws[U(s)] = gt
            ws[U(s + 1)] += nx
            guild_count(ws, p, gt, nx)
        if nb > 0:
            hand_add(ws, p, BOUFFON, -nb)
            kn_public_out(ws, P, p, BOUFFON, nb)
            ws[U(s + 2)] += nb
            guild_count(ws, p, BOUFFON, nb)
        power = ws[U(s)]
    else:   # A_USE
        power = ws[U(gslot(p, x))]
    if power >= 0:
        ws[G_CTX_PLAYED] = 1 if a == A_PLAY else 0
        resolve_power(st, ws, fs, P, p, power)
    if a == A_PLAY and ws[G_OVER] == 0 and ws[G_PLAYED] >= 0:
        disc_push(ws, ws[G_PLAYED])
        ws[G_PLAYED] = -1


# One compiled copy: the search's playouts pass a constant debug=False, which compiled a second
# copy of the whole rules of play (debug is a run-time flag here, checked once per turn).
@njit_on_demand("int64(uint64[::1], int64[::1], float64[::1], int64, boolean)", literal=("P",),
                cache=True, _nrt=False)
def play_turns_any(st, ws, fs, P, debug):
    """Play MV-3 turns from the position in ``ws`` until the game ends or ``turns`` reaches
    ws[G_LIMIT] (MV-7's max_turns ends the game as ``truncated``).

    Returns 0 then. With ws[G_STOP] = 1, returns 1 instead when a seat played by the playout or the
    search bot (kinds >= STRAT_PLAYOUT) must choose its action: the position is left at the start of that turn with the actions
    listed in W_OPTS (count in G_NOPT). Calling again with ws[G_FORCED] = j plays action j.
    """
    max_turns = ws[U(W_RULES + R_PARAMS + P_MAX_TURNS)]
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
        if ws[U(W_PL + p * PLS + X_HANDN)] == 0 and ws[U(W_PL + p * PLS + X_NG)] == 0:
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
                elif stop_for_playout and fs[U(F_STRAT + strat_row(ws, p, P) * N_STRAT_COLS + S_KIND)] >= STRAT_PLAYOUT:
                    ws[G_NOPT] = n
                    return 1
                else:
                    j = ask(st, ws, fs, D_ACTION, p, n, P)
                code = ws[U(W_OPTS + j)]
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
# Setup and end of a game (MV-2, MV-7)
# =================================================================================================
@njit(cache=True, _nrt=False)
def reset(ws):
    """Before each game (MV-2): clear the per-game part of ws (below W_RESET_END)."""
    for i in range(W_RESET_END):
        ws[U(i)] = 0
    ws[G_WINNER] = -1
    ws[G_PLAYED] = -1
    ws[G_SELF_ROW] = -1
    for p in range(MAXP):
        for g in range(MAXG):
            ws[U(gslot(p, g))] = -1


@njit(cache=True, _nrt=False)
def setup_game(st, ws, P):
    """MV-2: shuffle the deck, deal hand_size rounds from seat 0 (a seat with a smaller per-seat
    hand is skipped in the rounds past it), start the discard pile."""
    n = 0
    for t in range(N_TYPES):
        for _ in range(ws[U(W_RULES + R_COPIES + t)]):
            ws[U(W_PILE + n)] = t
            n += 1
    shuffle_range(st, ws, W_PILE, n)
    most = 0
    for p in range(P):
        most = max(most, ws[U(W_RULES + R_PARAMS + P_HAND_SIZE + p)])
    for r in range(most):              # round r deals one card to every seat owed one (per seat)
        for p in range(P):
            if r < ws[U(W_RULES + R_PARAMS + P_HAND_SIZE + p)]:
                n -= 1
                hand_add(ws, p, ws[U(W_PILE + n)], 1)
    n -= 1
    disc_push(ws, ws[U(W_PILE + n)])
    ws[G_PILE_N] = n
    ws[G_END_RED] = ws[U(W_RULES + R_PARAMS + P_RED_2 + P - 2)]
    ws[G_CUR] = 0
    if n == 0 and ws[U(W_RULES + R_PARAMS + P_END_ON_LAST_CARD)] != 0:
        refill(st, ws)                 # the card turned face up was the last (MV-6, the book)


@njit(cache=True, _nrt=False)
def finish(ws):
    """The game is over: cards still in the look zone, then the played card, go to the discards."""
    for i in range(ws[G_LOOK_N]):
        disc_push(ws, ws[U(W_LOOK + i)])
    ws[G_LOOK_N] = 0
    if ws[G_PLAYED] >= 0:
        disc_push(ws, ws[G_PLAYED])
        ws[G_PLAYED] = -1


@njit(cache=True, _nrt=False)
def guild_cards(ws, p):
    """MV-7: the cards in p's guilds (its score, the second ranking key; kept in X_GC)."""
    return ws[U(W_PL + p * PLS + X_GC)]


@njit(cache=True, _nrt=False)
def compare_keys(ws, a, b):
    """MV-7: 1 if a's (guilds, guild cards, hand) beats b's, -1 if below, 0 if equal."""
    x = ws[U(W_PL + a * PLS + X_NG)]
    y = ws[U(W_PL + b * PLS + X_NG)]
    if x != y:
        return 1 if x > y else -1
    x = guild_cards(ws, a)
    y = guild_cards(ws, b)
    if x != y:
        return 1 if x > y else -1
    x = ws[U(W_PL + a * PLS + X_HANDN)]
    y = ws[U(W_PL + b * PLS + X_HANDN)]
    if x != y:
        return 1 if x > y else -1
    return 0


# =================================================================================================
# Debug invariants
# =================================================================================================
@njit(cache=True, _nrt=False)
def check_invariants(ws, P):
    """Debug (``debug=True``, after every turn and at the end): cards conserved (MV-1 deck) per
    type over every zone; guilds >= min_cards and well formed (MV-4); hand sizes agree with the
    hands; the kept guild counts (X_GC, W_TCNT, W_NGT) agree with the guilds. Writes an error code
    (10+) into ws[G_ERROR]."""
    check_guild_counts(ws, P)
    cnt = W_BEST           # scratch (free between decisions)
    for t in range(TS):
        ws[U(cnt + t)] = 0
    for i in range(ws[G_PILE_N]):
        ws[U(cnt + ws[U(W_PILE + i)])] += 1
    for i in range(ws[G_DISC_N]):
        ws[U(cnt + ws[U(W_DISC + i)])] += 1
    for i in range(ws[G_LOOK_N]):
        ws[U(cnt + ws[U(W_LOOK + i)])] += 1
    if ws[G_PLAYED] >= 0:
        ws[U(cnt + ws[G_PLAYED])] += 1
    m = ws[U(W_RULES + R_PARAMS + P_MIN_GUILD)]
    for p in range(P):
        total = 0
        for t in range(N_TYPES):
            k = ws[U(W_HAND + p * TS + t)]
            if k < 0:
                ws[G_ERROR] = E_HAND_COUNT
            ws[U(cnt + t)] += k
            total += k
        if total != ws[U(W_PL + p * PLS + X_HANDN)]:
            ws[G_ERROR] = E_HAND_COUNT
        for g in range(ws[U(W_PL + p * PLS + X_NG)]):
            s = gslot(p, g)
            if ws[U(s + 1)] + ws[U(s + 2)] < m:
                ws[G_ERROR] = E_GUILD_TOO_SMALL
            if (ws[U(s)] < 0) != (ws[U(s + 1)] == 0) or ws[U(s + 2)] < 0 or ws[U(s)] == BOUFFON:
                ws[G_ERROR] = E_BAD_GUILD
            if ws[U(s)] >= 0:
                ws[U(cnt + ws[U(s)])] += ws[U(s + 1)]
            ws[U(cnt + BOUFFON)] += ws[U(s + 2)]
    for t in range(N_TYPES):
        if ws[U(cnt + t)] != ws[U(W_RULES + R_COPIES + t)]:
            ws[G_ERROR] = E_CARDS_NOT_CONSERVED
    d = 0
    for t in range(N_TYPES):
        d += ws[U(W_DCNT + t)]
    if d != ws[G_DISC_N]:
        ws[G_ERROR] = E_CARDS_NOT_CONSERVED


@njit(cache=True, _nrt=False)
def check_guild_counts(ws, P):
    """Debug: X_GC, W_TCNT and W_NGT (and its bits G_NGT_MASK) recounted from the guilds (E_GUILD_COUNTS if they differ;
    checked first, so that a more specific guild error found later is the one reported)."""
    cnt = W_BEST           # scratch: [TS] cards per type, then [TS] guilds per type
    for t in range(2 * TS):
        ws[U(cnt + t)] = 0
    for p in range(P):
        c = 0
        for g in range(ws[U(W_PL + p * PLS + X_NG)]):
            s = gslot(p, g)
            c += ws[U(s + 1)] + ws[U(s + 2)]
            ws[U(cnt + BOUFFON)] += ws[U(s + 2)]
            if ws[U(s)] >= 0:
                ws[U(cnt + ws[U(s)])] += ws[U(s + 1)]
                ws[U(cnt + TS + ws[U(s)])] += 1
        if c != ws[U(W_PL + p * PLS + X_GC)]:
            ws[G_ERROR] = E_GUILD_COUNTS
    for t in range(TS):
        if ws[U(cnt + t)] != ws[U(W_TCNT + t)] or ws[U(cnt + TS + t)] != ws[U(W_NGT + t)]:
            ws[G_ERROR] = E_GUILD_COUNTS
        if ((ws[G_NGT_MASK] >> t) & 1) != (ws[U(W_NGT + t)] > 0):
            ws[G_ERROR] = E_GUILD_COUNTS


# =================================================================================================
# The whole turn in one function, for four players
# =================================================================================================
def with_callees(disp, name, **callees):
    """The Python function of the jitted ``disp``, under ``name``, calling the jitted functions
    ``callees`` (by their names in its code) instead of the module's: the same source compiled
    with other helpers inlined. Made at the end of the module, whose names its globals copy."""
    fn = disp.py_func
    glob = dict(fn.__globals__)
    glob.update(callees)
    out = FunctionType(fn.__code__.replace(co_name=name, co_qualname=name), glob, name,
                       fn.__defaults__, fn.__closure__)
    out.__qualname__ = name
    out.__module__ = fn.__module__
    out.__doc__ = fn.__doc__
    return out


# For four players (the count a constant) the turn's helpers are inlined into the turn loop
# (``play_turns_4p``): the action, the power it resolves and the option lists, without a call per
# turn or power (balanced 4-player games 0.95x the CPU time, random 0.86x). The other counts keep
# the calls (``play_turns_any``): each compiled copy of the whole turn costs ~4 s of a cold
# compile, and only the default count is worth it (docs/medievallons_engine.md, "Eighth pass").
_inl = dict(cache=True, inline="always", _nrt=False)
list_guild_cards_inlined = njit(**_inl)(list_guild_cards.py_func)
list_actions_inlined = njit(**_inl)(list_actions.py_func)
resolve_power_inlined = njit(**_inl)(with_callees(resolve_power, "resolve_power_inlined",
                                                  list_guild_cards=list_guild_cards_inlined))
do_action_inlined = njit(**_inl)(with_callees(do_action, "do_action_inlined",
                                              resolve_power=resolve_power_inlined))
play_turns_4p = njit_on_demand("int64(uint64[::1], int64[::1], float64[::1], int64, boolean)",
                               literal=("P",), cache=True, _nrt=False)(
    with_callees(play_turns_any, "play_turns_4p", do_action=do_action_inlined,
                 list_actions=list_actions_inlined))


def play_turns(st, ws, fs, P, debug):
    """MV-3 turns from the position in ``ws`` (see :func:`play_turns_any`, whose arguments and
    result these are). A jitted caller runs :func:`play_turns_4p` when ``P`` is the constant 4,
    else :func:`play_turns_any` (chosen when the caller compiles); a call from Python runs
    :func:`play_turns_any`."""
    return play_turns_any(st, ws, fs, P, debug)


@overload(play_turns, prefer_literal=True, inline="always", jit_options=dict(_nrt=False))
def _play_turns_compiled(st, ws, fs, P, debug):
    if isinstance(P, types.IntegerLiteral) and P.literal_value == 4:
        def four(st, ws, fs, P, debug):
            return play_turns_4p(st, ws, fs, P, debug)
        return four

    def any_count(st, ws, fs, P, debug):
        return play_turns_any(st, ws, fs, P, debug)
    return any_count
