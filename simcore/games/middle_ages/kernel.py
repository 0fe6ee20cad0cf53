"""Middle-Ages Numba kernel: plays many games in parallel, one RNG stream per game.

Implements MA-1 … MA-10 of ``shared/rules/middle_ages.md`` for 2-5 players, following the draw and
option order of ``docs/middle_ages_engine.md`` so that the pure-Python reference engine can replay
any game exactly. Everything here is jit-compiled by Numba (``cache=True``): functions take arrays
and scalars only, the rules arrive as :class:`~simcore.games.middle_ages.rules.RulesArrays` fields,
and results are written into preallocated output arrays. Games are split into blocks over a
``prange``; each block allocates its workspace once and plays its games one after the other. A
game's stream depends only on (seed, game index), so results are identical whatever the thread
count, the block split or the chunk size.

May import numpy, numba, :mod:`simcore.rng` and the integer constants of the rules module.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from simcore.games.middle_ages.rules import (
    CASERNE, CHAMPS, EGLISE, MARCHE, MOULIN, N_EVENTS, N_ROWS, N_TURNS, N_TYPES, PALAIS, REMPART,
    VILLAGE, P_ALLOW_NEGATIVE, P_CASERNE_PAYMENT, P_CHAMPS_PER_PEASANT, P_EMPTY_PENALTY,
    P_EXTRA_BONUS, P_EXTRA_TOKENS, P_MARCHE_PER_CHEST, P_MOULIN_PAYMENT, P_START_COINS, BLUE, ORANGE,
)
from simcore.rng import below, shuffle, stream_state

MAX_COLS = 6            # players + 1 <= 6 (MA-3)
MAX_OPTIONS = 64        # Palais pairs <= 8 x 8; every other decision lists fewer options

# Player scalar slots (pl[p, X]).
PL_COINS, PL_LORD_ROW, PL_LORD_COL, PL_SCOUT_ROW, PL_SCOUT_COL, PL_PEASANTS, PL_CHESTS, \
    PL_GRAVE_N, PL_TAKEN = range(9)
N_PL = 9
# Game scalar slots (gs[X]).
GS_PILE_POS, GS_PILE_LEN, GS_ORANGE_LEFT, GS_DISCARD_LEN, GS_RESHUFFLES, GS_EXTRA_SUPPLY, \
    GS_LEDGER, GS_ERROR, GS_TRACE_N = range(9)
N_GS = 9

# Decision kinds (MA-11); the reference engine uses the same names as strings.
D_PLACE, D_MOVE, D_SCOUT, D_RESTORE, D_EXTRA, D_PLOT = range(6)

# Error codes written to out_error (0 = fine). Debug-mode invariants use 10+.
E_TILES_RAN_OUT = 1
E_NO_LEGAL_MOVE = 2
E_COIN_OVERFLOW = 3
E_TILES_NOT_CONSERVED = 10
E_TAKEN_NOT_16 = 11
E_LEDGER = 12
E_SCOUT_LEFT_ON_ROW = 13

STRAT_RANDOM = 0


# ---------------------------------------------------------------------------------------------
# Coins (MA-10)
# ---------------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def change_coins(pl, p, amount, allow_negative):
    """Add ``amount`` to player p's coins; a loss takes at most what p has unless negatives are
    allowed (MA-10). Returns the change actually made."""
    if amount >= 0 or allow_negative:
        pl[p, PL_COINS] += amount
        return amount
    have = pl[p, PL_COINS]
    loss = -amount
    if loss > have:
        loss = have if have > 0 else 0
    pl[p, PL_COINS] -= loss
    return -loss


@njit(cache=True, inline="always")
def pay(pl, payer, payee, amount, allow_negative):
    """MA-10: the payee receives what the payer actually paid."""
    paid = -change_coins(pl, payer, -amount, allow_negative)
    pl[payee, PL_COINS] += paid


@njit(cache=True, inline="always")
def mint(pl, gs, p, amount, allow_negative):
    """Coins from the bank (Effects, Income, Events, penalty), kept in the debug ledger."""
    got = change_coins(pl, p, amount, allow_negative)
    gs[GS_LEDGER] += got
    return got


# ---------------------------------------------------------------------------------------------
# Fief and Graveyard
# ---------------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def add_to_fief(pl, fief, fief_n, p, tile, tile_type, tile_peasants, tile_chests):
    t = tile_type[tile]
    fief[p, t, fief_n[p, t]] = tile
    fief_n[p, t] += 1
    pl[p, PL_PEASANTS] += tile_peasants[tile]
    pl[p, PL_CHESTS] += tile_chests[tile]


@njit(cache=True, inline="always")
def bury_top(pl, fief, fief_n, grave, p, t, tile_peasants, tile_chests):
    """Move the most recently added tile of Domain t to the end of p's Graveyard."""
    fief_n[p, t] -= 1
    tile = fief[p, t, fief_n[p, t]]
    grave[p, pl[p, PL_GRAVE_N]] = tile
    pl[p, PL_GRAVE_N] += 1
    pl[p, PL_PEASANTS] -= tile_peasants[tile]
    pl[p, PL_CHESTS] -= tile_chests[tile]


@njit(cache=True, inline="always")
def unbury(pl, fief, fief_n, grave, p, idx, tile_type, tile_peasants, tile_chests):
    """MA-5 Village / MA-8 Restauration: Graveyard tile idx back to its Domain (order kept)."""
    tile = grave[p, idx]
    n = pl[p, PL_GRAVE_N]
    for i in range(idx, n - 1):
        grave[p, i] = grave[p, i + 1]
    pl[p, PL_GRAVE_N] = n - 1
    add_to_fief(pl, fief, fief_n, p, tile, tile_type, tile_peasants, tile_chests)


# ---------------------------------------------------------------------------------------------
# Decisions (MA-11)
# ---------------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def decide(st, gs, trace, g_row, kind, p, n_options, strat_kind):
    """Index of the chosen option among ``n_options`` (> 0) for seat p.

    ``random`` (MA-11) draws below(n) even when n == 1, as the protocol says. When ``trace`` has
    room, (n_options, choice) is appended so the reference engine can replay the game.
    """
    choice = below(st, n_options)
    k = gs[GS_TRACE_N]
    if 2 * k + 1 < trace.shape[1]:
        trace[g_row, 2 * k] = n_options
        trace[g_row, 2 * k + 1] = choice
        gs[GS_TRACE_N] = k + 1
    return choice


# ---------------------------------------------------------------------------------------------
# Tiles: drawing (MA-7) and dealing rows (MA-3)
# ---------------------------------------------------------------------------------------------
@njit(cache=True)
def draw_tile(st, gs, n_players, pile, orange, discard):
    """Next tile of the draw pile, switching source when it runs out (MA-7); -1 if none left."""
    while gs[GS_PILE_POS] == gs[GS_PILE_LEN]:
        if n_players >= 4 and gs[GS_ORANGE_LEFT] >= 0:
            n = gs[GS_ORANGE_LEFT]
            for i in range(n):
                pile[i] = orange[i]
            gs[GS_PILE_LEN] = n
            gs[GS_PILE_POS] = 0
            gs[GS_ORANGE_LEFT] = -1  # the orange stack is used up (or in the pile now)
        elif n_players != 4 and gs[GS_DISCARD_LEN] > 0:
            n = gs[GS_DISCARD_LEN]
            shuffle(st, discard, n)
            for i in range(n):
                pile[i] = discard[i]
            gs[GS_PILE_LEN] = n
            gs[GS_PILE_POS] = 0
            gs[GS_DISCARD_LEN] = 0
            gs[GS_RESHUFFLES] += 1
        else:
            return -1
    tile = pile[gs[GS_PILE_POS]]
    gs[GS_PILE_POS] += 1
    return tile


@njit(cache=True)
def deal_row(st, gs, n_players, pile, orange, discard, board, r, tile_number):
    """Draw players + 1 tiles into row r and stable-sort them by back number (MA-3)."""
    width = n_players + 1
    for c in range(width):
        tile = draw_tile(st, gs, n_players, pile, orange, discard)
        if tile < 0:
            gs[GS_ERROR] = E_TILES_RAN_OUT
            return
        # insertion sort: a new tile goes after every tile with an equal or smaller number
        j = c
        while j > 0 and tile_number[board[r, j - 1]] > tile_number[tile]:
            board[r, j] = board[r, j - 1]
            j -= 1
        board[r, j] = tile


# ---------------------------------------------------------------------------------------------
# Effects (MA-5) and Income (MA-6)
# ---------------------------------------------------------------------------------------------
@njit(cache=True)
def domain_income(p, d, fief_n, extra, plot, income_base, income_counts, params):
    """MA-6: (base + Extra-coin bonus) x tiles counted by Domain d (plus its Plot token's type)."""
    count = 0
    for t in range(N_TYPES):
        if income_counts[d, t] != 0:
            count += fief_n[p, t]
    if plot[p, d] >= 0:
        count += fief_n[p, plot[p, d]]
    per_tile = income_base[d]
    if extra[p, d] != 0:
        per_tile += params[P_EXTRA_BONUS]
    return per_tile * count


@njit(cache=True)
def apply_effect(st, gs, trace, g_row, p, t, r, d, n_players, strat_kind, pl, fief, fief_n, grave,
                 extra, plot, plot_sup, board, row_lord, row_scout, opts,
                 tile_type, tile_peasants, tile_chests, income_counts, params):
    """MA-5: the Effect of the Domain t where player p just placed a tile."""
    allow_neg = params[P_ALLOW_NEGATIVE] != 0
    if t == CHAMPS:
        mint(pl, gs, p, params[P_CHAMPS_PER_PEASANT] * pl[p, PL_PEASANTS], allow_neg)
    elif t == MOULIN:
        mine = fief_n[p, MOULIN]
        for q in range(n_players):
            if q != p and fief_n[q, MOULIN] < mine:
                pay(pl, q, p, params[P_MOULIN_PAYMENT], allow_neg)
    elif t == VILLAGE:
        n = pl[p, PL_GRAVE_N]
        if n > 0:
            idx = decide(st, gs, trace, g_row, D_RESTORE, p, n, strat_kind[p])
            unbury(pl, fief, fief_n, grave, p, idx, tile_type, tile_peasants, tile_chests)
    elif t == REMPART:
        n = 0
        for row in range(N_ROWS):
            if row == r or row == d:
                continue
            for c in range(n_players + 1):
                if board[row, c] >= 0 and row_lord[row, c] < 0 and row_scout[row, c] < 0:
                    opts[n] = row * MAX_COLS + c
                    n += 1
        if n > 0:
            k = decide(st, gs, trace, g_row, D_SCOUT, p, n, strat_kind[p])
            if pl[p, PL_SCOUT_ROW] >= 0:
                row_scout[pl[p, PL_SCOUT_ROW], pl[p, PL_SCOUT_COL]] = -1
            row = opts[k] // MAX_COLS
            c = opts[k] % MAX_COLS
            row_scout[row, c] = p
            pl[p, PL_SCOUT_ROW] = row
            pl[p, PL_SCOUT_COL] = c
    elif t == MARCHE:
        mint(pl, gs, p, params[P_MARCHE_PER_CHEST] * pl[p, PL_CHESTS], allow_neg)
    elif t == CASERNE:
        mine = fief_n[p, CASERNE]
        for q in range(n_players):
            if q != p and fief_n[q, REMPART] < mine:
                for dom in range(N_TYPES):
                    if fief_n[q, dom] > 0:
                        bury_top(pl, fief, fief_n, grave, q, dom, tile_peasants, tile_chests)
                        break
                pay(pl, q, p, params[P_CASERNE_PAYMENT], allow_neg)
    elif t == EGLISE:
        if gs[GS_EXTRA_SUPPLY] > 0:
            n = 0
            for dom in range(N_TYPES):
                if extra[p, dom] == 0:
                    opts[n] = dom
                    n += 1
            if n > 0:
                k = decide(st, gs, trace, g_row, D_EXTRA, p, n, strat_kind[p])
                extra[p, opts[k]] = 1
                gs[GS_EXTRA_SUPPLY] -= 1
    elif t == PALAIS:
        n = 0
        for tok in range(N_TYPES):
            if plot_sup[tok] <= 0:
                continue
            for dom in range(N_TYPES):
                if plot[p, dom] < 0 and income_counts[dom, tok] == 0:
                    opts[n] = tok * N_TYPES + dom
                    n += 1
        if n > 0:
            k = decide(st, gs, trace, g_row, D_PLOT, p, n, strat_kind[p])
            tok = opts[k] // N_TYPES
            plot[p, opts[k] % N_TYPES] = tok
            plot_sup[tok] -= 1


# ---------------------------------------------------------------------------------------------
# Events (MA-8)
# ---------------------------------------------------------------------------------------------
@njit(cache=True)
def resolve_event(st, gs, trace, g_row, e, k, n_players, strat_kind, pl, fief, fief_n, grave,
                  tile_type, tile_peasants, tile_chests, ev_per_tile, ev_per_peasant, ev_per_chest,
                  ev_per_graveyard, ev_per_domain, ev_lose, ev_restore, params,
                  coins_before, event_gain):
    """MA-8: Event card e (index into the rules' deck) fires as the k-th event of the game."""
    allow_neg = params[P_ALLOW_NEGATIVE] != 0
    for p in range(n_players):
        before = pl[p, PL_COINS]
        coins_before[p, k] = before
        gain = ev_per_peasant[e] * pl[p, PL_PEASANTS] + ev_per_chest[e] * pl[p, PL_CHESTS] \
            + ev_per_graveyard[e] * pl[p, PL_GRAVE_N]
        for t in range(N_TYPES):
            gain += ev_per_tile[e, t] * fief_n[p, t]
            if fief_n[p, t] > 0:
                gain += ev_per_domain[e]
        mint(pl, gs, p, gain, allow_neg)
        for t in range(N_TYPES):
            for _ in range(ev_lose[e, t]):
                if fief_n[p, t] > 0:
                    bury_top(pl, fief, fief_n, grave, p, t, tile_peasants, tile_chests)
        for _ in range(ev_restore[e]):
            n = pl[p, PL_GRAVE_N]
            if n > 0:
                idx = decide(st, gs, trace, g_row, D_RESTORE, p, n, strat_kind[p])
                unbury(pl, fief, fief_n, grave, p, idx, tile_type, tile_peasants, tile_chests)
        event_gain[p, k] = pl[p, PL_COINS] - before


# ---------------------------------------------------------------------------------------------
# Scoring (MA-9)
# ---------------------------------------------------------------------------------------------
@njit(cache=True)
def beats(p, q, pl, fief_n, tie_break):
    """1 if p ranks above q, -1 if below, 0 if fully tied (coins, then tie_break tile counts)."""
    if pl[p, PL_COINS] != pl[q, PL_COINS]:
        return 1 if pl[p, PL_COINS] > pl[q, PL_COINS] else -1
    for i in range(N_TYPES):
        t = tie_break[i]
        if fief_n[p, t] != fief_n[q, t]:
            return 1 if fief_n[p, t] > fief_n[q, t] else -1
    return 0


# ---------------------------------------------------------------------------------------------
# One game
# ---------------------------------------------------------------------------------------------
@njit(cache=True)
def play_game(st, gs, trace, g_row, n_players, strat_kind, debug,
              pl, fief, fief_n, grave, extra, plot, plot_sup, board, row_lord, row_scout,
              pile, orange, discard, opts, order, seen, coins_before, event_gain,
              tile_type, tile_number, tile_stack, tile_peasants, tile_chests,
              income_base, income_counts, plot_supply, tie_break, event_ids, ev_per_tile,
              ev_per_peasant, ev_per_chest, ev_per_graveyard, ev_per_domain, ev_lose, ev_restore,
              params, event_order):
    """Play one game on a cleared workspace (see :func:`reset`); results stay in the workspace."""
    n_tiles = tile_type.shape[0]
    allow_neg = params[P_ALLOW_NEGATIVE] != 0
    width = n_players + 1

    # MA-3.1 / protocol 1-2: the stacks, shuffled.
    nb = 0
    for i in range(n_tiles):
        if tile_stack[i] == BLUE:
            pile[nb] = i
            nb += 1
    shuffle(st, pile, nb)
    gs[GS_PILE_LEN] = nb
    gs[GS_ORANGE_LEFT] = -1
    if n_players >= 4:
        no = 0
        for i in range(n_tiles):
            if tile_stack[i] == ORANGE:
                orange[no] = i
                no += 1
        shuffle(st, orange, no)
        gs[GS_ORANGE_LEFT] = no
    # MA-3.3: the event cards.
    n_deck = event_ids.shape[0]
    for i in range(n_deck):
        event_order[i] = i
    shuffle(st, event_order, n_deck)
    # MA-3.2: four rows.
    for r in range(N_ROWS):
        deal_row(st, gs, n_players, pile, orange, discard, board, r, tile_number)
    if gs[GS_ERROR] != 0:
        return
    # MA-3.4: initial Lord placement on row 0, in seat order.
    for p in range(n_players):
        n = 0
        for c in range(width):
            if board[0, c] >= 0 and row_lord[0, c] < 0:
                opts[n] = c
                n += 1
        c = opts[decide(st, gs, trace, g_row, D_PLACE, p, n, strat_kind[p])]
        row_lord[0, c] = p
        pl[p, PL_LORD_ROW] = 0
        pl[p, PL_LORD_COL] = c

    for t in range(1, N_TURNS + 1):
        r = (t - 1) % N_ROWS
        d = t % N_ROWS
        # MA-4.1: discard the tile of row r with no Lord.
        for c in range(width):
            if board[r, c] >= 0 and row_lord[r, c] < 0:
                discard[gs[GS_DISCARD_LEN]] = board[r, c]
                gs[GS_DISCARD_LEN] += 1
                board[r, c] = -1
        # MA-4.2: the order of play is the left-to-right order of the Lords on row r.
        n_order = 0
        for c in range(width):
            if row_lord[r, c] >= 0:
                order[n_order] = row_lord[r, c]
                n_order += 1
        for i in range(n_order):
            p = order[i]
            c_from = pl[p, PL_LORD_COL]
            if t < N_TURNS:
                # MA-4.3a: a free tile of row d not reserved by another player's Scout.
                n = 0
                for c in range(width):
                    if board[d, c] >= 0 and row_lord[d, c] < 0 and \
                            (row_scout[d, c] < 0 or row_scout[d, c] == p):
                        opts[n] = c
                        n += 1
                if n == 0:
                    gs[GS_ERROR] = E_NO_LEGAL_MOVE
                    return
                c_to = opts[decide(st, gs, trace, g_row, D_MOVE, p, n, strat_kind[p])]
                row_lord[r, c_from] = -1
                row_lord[d, c_to] = p
                pl[p, PL_LORD_ROW] = d
                pl[p, PL_LORD_COL] = c_to
                if pl[p, PL_SCOUT_ROW] == d:  # the Scout comes home when the Lord lands on its row
                    row_scout[d, pl[p, PL_SCOUT_COL]] = -1
                    pl[p, PL_SCOUT_ROW] = -1
                    pl[p, PL_SCOUT_COL] = -1
            # MA-4.3b: take the tile the Lord left (turn 16: the one it stands on).
            tile = board[r, c_from]
            board[r, c_from] = -1
            add_to_fief(pl, fief, fief_n, p, tile, tile_type, tile_peasants, tile_chests)
            pl[p, PL_TAKEN] += 1
            ttype = tile_type[tile]
            # MA-4.3c and d: Effect, then Income.
            apply_effect(st, gs, trace, g_row, p, ttype, r, d, n_players, strat_kind, pl, fief,
                         fief_n, grave, extra, plot, plot_sup, board, row_lord, row_scout, opts,
                         tile_type, tile_peasants, tile_chests, income_counts, params)
            mint(pl, gs, p, domain_income(p, ttype, fief_n, extra, plot, income_base,
                                          income_counts, params), allow_neg)
        if t == N_TURNS:
            for p in range(n_players):  # the Lords leave the board at the end
                row_lord[r, pl[p, PL_LORD_COL]] = -1
        # MA-4.4: refill row r up to turn 12.
        if t <= 12:
            if debug:
                for c in range(width):
                    if row_scout[r, c] >= 0:
                        gs[GS_ERROR] = E_SCOUT_LEFT_ON_ROW
            deal_row(st, gs, n_players, pile, orange, discard, board, r, tile_number)
            if gs[GS_ERROR] != 0:
                return
        # MA-4.5: events at the end of turns 4, 8, 12, 16.
        if t % 4 == 0:
            k = t // 4 - 1
            resolve_event(st, gs, trace, g_row, event_order[k], k, n_players, strat_kind, pl, fief,
                          fief_n, grave, tile_type, tile_peasants, tile_chests, ev_per_tile,
                          ev_per_peasant, ev_per_chest, ev_per_graveyard, ev_per_domain, ev_lose,
                          ev_restore, params, coins_before, event_gain)

    # MA-9: the empty-Domain penalty.
    for p in range(n_players):
        empty = 0
        for t in range(N_TYPES):
            if fief_n[p, t] == 0:
                empty += 1
        got = mint(pl, gs, p, -params[P_EMPTY_PENALTY] * empty, allow_neg)
        seen[p] = -got  # penalty actually paid, stashed in `seen` until written out

    if debug:
        check_invariants(gs, n_players, pl, fief, fief_n, grave, board, pile, orange, discard,
                         tile_stack, params)


@njit(cache=True)
def check_invariants(gs, n_players, pl, fief, fief_n, grave, board, pile, orange, discard,
                     tile_stack, params):
    """Debug mode: every tile in exactly one place, 16 tiles taken each, coins = start + minted."""
    n_tiles = tile_stack.shape[0]
    count = np.zeros(n_tiles, np.int64)
    for r in range(N_ROWS):
        for c in range(MAX_COLS):
            if board[r, c] >= 0:
                count[board[r, c]] += 1
    for i in range(gs[GS_PILE_POS], gs[GS_PILE_LEN]):
        count[pile[i]] += 1
    if gs[GS_ORANGE_LEFT] > 0:
        for i in range(gs[GS_ORANGE_LEFT]):
            count[orange[i]] += 1
    for i in range(gs[GS_DISCARD_LEN]):
        count[discard[i]] += 1
    for p in range(n_players):
        for t in range(N_TYPES):
            for i in range(fief_n[p, t]):
                count[fief[p, t, i]] += 1
        for i in range(pl[p, PL_GRAVE_N]):
            count[grave[p, i]] += 1
        if pl[p, PL_TAKEN] != N_TURNS:
            gs[GS_ERROR] = E_TAKEN_NOT_16
    total = 0
    for p in range(n_players):
        total += pl[p, PL_COINS]
    if total != n_players * params[P_START_COINS] + gs[GS_LEDGER]:
        gs[GS_ERROR] = E_LEDGER
    for i in range(n_tiles):
        # with 2-3 players the orange stack stays in the box (MA-3.1)
        expected = 1 if (n_players >= 4 or tile_stack[i] == BLUE) else 0
        if count[i] != expected:
            gs[GS_ERROR] = E_TILES_NOT_CONSERVED


@njit(cache=True)
def reset(gs, pl, fief_n, extra, plot, plot_sup, plot_supply, board, row_lord, row_scout,
          coins_before, event_gain, params):
    gs[:] = 0
    gs[GS_EXTRA_SUPPLY] = params[P_EXTRA_TOKENS]
    pl[:, :] = 0
    pl[:, PL_COINS] = params[P_START_COINS]
    pl[:, PL_LORD_ROW] = -1
    pl[:, PL_LORD_COL] = -1
    pl[:, PL_SCOUT_ROW] = -1
    pl[:, PL_SCOUT_COL] = -1
    fief_n[:, :] = 0
    extra[:, :] = 0
    plot[:, :] = -1
    plot_sup[:] = plot_supply
    board[:, :] = -1
    row_lord[:, :] = -1
    row_scout[:, :] = -1
    coins_before[:, :] = 0
    event_gain[:, :] = 0


@njit(cache=True, parallel=True)
def play_chunk(first_game, n_games, seed, n_players, strat_kind, debug,
               tile_type, tile_number, tile_stack, tile_peasants, tile_chests,
               income_base, income_counts, plot_supply, tie_break, event_ids, ev_per_tile,
               ev_per_peasant, ev_per_chest, ev_per_graveyard, ev_per_domain, ev_lose, ev_restore,
               params,
               out_score, out_win, out_rank, out_tiles, out_grave, out_penalty, out_event_gain,
               out_coins_before, out_events, out_reshuffles, out_error, trace):
    """Play games ``first_game … first_game + n_games - 1`` (jit-compiled by Numba, parallel).

    Player outputs have ``n_games * n_players`` rows (game-major, then seat); game outputs have
    ``n_games`` rows. ``trace`` is (n_games, 2 * max_decisions) int16 to record every decision as
    (n_options, choice) for exact replay, or shape (1, 0) to record nothing. ``out_error[g]`` is 0
    for a clean game (see the ``E_*`` codes; debug=True adds the invariant checks).
    """
    P = n_players
    n_tiles = tile_type.shape[0]
    n_blocks = min(n_games, 256)
    record_trace = trace.shape[1] > 0
    for b in prange(n_blocks):
        g0 = b * n_games // n_blocks
        g1 = (b + 1) * n_games // n_blocks
        # Workspace, allocated once per block.
        st = np.zeros(1, np.uint64)
        gs = np.zeros(N_GS, np.int64)
        pl = np.zeros((P, N_PL), np.int64)
        fief = np.zeros((P, N_TYPES, n_tiles), np.int16)
        fief_n = np.zeros((P, N_TYPES), np.int64)
        grave = np.zeros((P, n_tiles), np.int16)
        extra = np.zeros((P, N_TYPES), np.int8)
        plot = np.zeros((P, N_TYPES), np.int8)
        plot_sup = np.zeros(N_TYPES, np.int8)
        board = np.zeros((N_ROWS, MAX_COLS), np.int16)
        row_lord = np.zeros((N_ROWS, MAX_COLS), np.int8)
        row_scout = np.zeros((N_ROWS, MAX_COLS), np.int8)
        pile = np.zeros(n_tiles, np.int16)
        orange = np.zeros(n_tiles, np.int16)
        discard = np.zeros(n_tiles, np.int16)
        opts = np.zeros(MAX_OPTIONS, np.int64)
        order = np.zeros(P, np.int64)
        seen = np.zeros(P, np.int64)
        coins_before = np.zeros((P, N_EVENTS), np.int64)
        event_gain = np.zeros((P, N_EVENTS), np.int64)
        event_order = np.zeros(event_ids.shape[0], np.int64)
        dummy_trace = np.zeros((1, 0), np.int16)
        for g in range(g0, g1):
            reset(gs, pl, fief_n, extra, plot, plot_sup, plot_supply, board, row_lord, row_scout,
                  coins_before, event_gain, params)
            st[0] = stream_state(seed, first_game + g)
            tr = trace if record_trace else dummy_trace
            play_game(st, gs, tr, g, P, strat_kind, debug, pl, fief, fief_n, grave, extra, plot,
                      plot_sup, board, row_lord, row_scout, pile, orange, discard, opts, order,
                      seen, coins_before, event_gain, tile_type, tile_number, tile_stack,
                      tile_peasants, tile_chests, income_base, income_counts, plot_supply,
                      tie_break, event_ids, ev_per_tile, ev_per_peasant, ev_per_chest,
                      ev_per_graveyard, ev_per_domain, ev_lose, ev_restore, params, event_order)
            write_outputs(g, P, gs, pl, fief_n, seen, coins_before, event_gain, event_ids,
                          event_order, tie_break, out_score, out_win, out_rank, out_tiles,
                          out_grave, out_penalty, out_event_gain, out_coins_before, out_events,
                          out_reshuffles, out_error)


@njit(cache=True)
def write_outputs(g, P, gs, pl, fief_n, penalty, coins_before, event_gain, event_ids, event_order,
                  tie_break, out_score, out_win, out_rank, out_tiles, out_grave, out_penalty,
                  out_event_gain, out_coins_before, out_events, out_reshuffles, out_error):
    """MA-9 ranks and win shares, MA-12 records, into row g of the outputs."""
    base = g * P
    n_winners = 0
    for p in range(P):
        better = 0
        for q in range(P):
            if q != p and beats(q, p, pl, fief_n, tie_break) > 0:
                better += 1
        out_rank[base + p] = better + 1
        if better == 0:
            n_winners += 1
    for p in range(P):
        row = base + p
        coins = pl[p, PL_COINS]
        out_score[row] = coins
        out_win[row] = (1.0 / n_winners) if out_rank[row] == 1 else 0.0
        for t in range(N_TYPES):
            out_tiles[row, t] = fief_n[p, t]
        out_grave[row] = pl[p, PL_GRAVE_N]
        out_penalty[row] = penalty[p]
        for k in range(N_EVENTS):
            out_event_gain[row, k] = event_gain[p, k]
            out_coins_before[row, k] = coins_before[p, k]
            if coins_before[p, k] > 32767 or coins_before[p, k] < -32768 or \
                    event_gain[p, k] > 32767 or event_gain[p, k] < -32768:
                gs[GS_ERROR] = E_COIN_OVERFLOW
    for k in range(N_EVENTS):
        out_events[g, k] = event_ids[event_order[k]]
    out_reshuffles[g] = gs[GS_RESHUFFLES]
    out_error[g] = gs[GS_ERROR]


def run_chunk(rules, n_players: int, first_game: int, n_games: int, seed: int,
              strat_kind=None, *, debug: bool = False, trace_decisions: int = 0) -> dict:
    """Allocate outputs, call :func:`play_chunk`, return the raw arrays (Python entry point).

    Returns a dict with player arrays (``score``, ``win_share``, ``rank``, ``tiles`` (rows x 8),
    ``graveyard``, ``penalty``, ``event_gain`` and ``coins_before_event`` (rows x 4)) and game arrays
    (``events`` (games x 4), ``reshuffles``, ``error``, and ``trace`` when asked for).
    """
    P = int(n_players)
    rows = n_games * P
    if strat_kind is None:
        strat_kind = np.zeros(P, np.int8)
    out = dict(
        score=np.empty(rows, np.int32), win_share=np.empty(rows, np.float32),
        rank=np.empty(rows, np.int8), tiles=np.empty((rows, N_TYPES), np.int8),
        graveyard=np.empty(rows, np.int8), penalty=np.empty(rows, np.int16),
        event_gain=np.empty((rows, N_EVENTS), np.int16),
        coins_before_event=np.empty((rows, N_EVENTS), np.int16),
        events=np.empty((n_games, N_EVENTS), np.int8), reshuffles=np.empty(n_games, np.int8),
        error=np.empty(n_games, np.int8),
    )
    trace = np.zeros((n_games, 2 * trace_decisions) if trace_decisions else (1, 0), np.int16)
    play_chunk(np.int64(first_game), np.int64(n_games), np.uint64(seed), np.int64(P),
               np.asarray(strat_kind, np.int8), bool(debug), *rules.kernel_args(),
               out["score"], out["win_share"], out["rank"], out["tiles"], out["graveyard"],
               out["penalty"], out["event_gain"], out["coins_before_event"], out["events"],
               out["reshuffles"], out["error"], trace)
    if trace_decisions:
        out["trace"] = trace
    return out
