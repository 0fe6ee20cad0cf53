"""Slow, readable pure-Python reference engine of Middle-Ages (spec: shared/rules/middle_ages.md).

Its job is to be obviously right, not fast: every rule MA-1 … MA-12 is a small function on a mutable
:class:`GameState` that tests can build by hand, and :func:`play_game` plays one whole game. It draws
randomness and lists legal options exactly as ``docs/middle_ages_engine.md`` prescribes, so for the
same (seed, game) and the same strategies it plays the very game the Numba kernel plays, and it can
replay a kernel's decision sequence with :class:`ReplayStrategy`. It may import only the standard
library, numpy, :mod:`simcore.rng`, :mod:`simcore.errors`, :mod:`simcore.reference_strategies` and
:mod:`simcore.games.middle_ages.rules`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
import numpy as np

from simcore.errors import ConfigError
from simcore.games.middle_ages.rules import (
    BLUE, CASERNE, MAX_PLAYERS, MIN_PLAYERS, MOULIN, N_EVENTS, N_ROWS, N_TURNS, N_TYPES, ORANGE,
    P_ALLOW_NEGATIVE, P_CASERNE_PAYMENT, P_CHAMPS_PER_PEASANT, P_EMPTY_PENALTY, P_EXTRA_BONUS,
    P_EXTRA_TOKENS, P_MARCHE_PER_CHEST, P_MOULIN_PAYMENT, REMPART, RulesArrays,
)
from simcore.reference_strategies import RandomStrategy, ReplayStrategy  # noqa: F401 (re-exported)
from simcore.rng import PyStream

DOMAIN_NAMES = ("Champs", "Moulin", "Village", "Rempart", "Marché", "Caserne", "Église", "Palais")
LAST_REFILL_TURN = 12   # MA-4 step 4
EVENT_TURNS = (4, 8, 12, 16)  # MA-3 step 3, MA-4 step 5

# Decision kinds (MA-11), the ``kind`` argument of ``Strategy.choose``.
PLACE, MOVE, SCOUT, RESTORE, EXTRA, PLOT = "place", "move", "scout", "restore", "extra", "plot"
DECISION_KINDS = (PLACE, MOVE, SCOUT, RESTORE, EXTRA, PLOT)
# Each decision kind in the rules' words (MA-11), as ``balance replay`` names a decision
# (:func:`simcore.golden.decision_words`; the kind is the trace's name).
DECISION_WORDS = {PLACE: "Lord's starting tile", MOVE: "Lord moves to", SCOUT: "Rempart: Scout's tile",
                  RESTORE: "Graveyard tile to restore", EXTRA: "Église: Extra-coin token under",
                  PLOT: "Palais: Plot token"}


# --------------------------------------------------------------------------------------------
# State
# --------------------------------------------------------------------------------------------

class GameState:
    """Everything on the table during one game (mutable, built by :func:`setup_game` or by hand).

    Positions are ``(row, column)`` pairs; a row is a list of ``players + 1`` cells holding a tile id
    or None. ``fief[seat][domain]`` is a stack of tile ids (last = most recently added);
    ``graveyard[seat]`` lists tile ids in the order they entered it.
    """

    def __init__(self, rules: RulesArrays, n_players: int) -> None:
        if not MIN_PLAYERS <= n_players <= MAX_PLAYERS:
            raise ValueError(f"Middle-Ages needs {MIN_PLAYERS}-{MAX_PLAYERS} players, got {n_players}")
        P = n_players
        self.rules = rules
        self.n_players = P
        self.width = P + 1
        self.allow_negative = bool(rules.param(P_ALLOW_NEGATIVE))
        self.turn = 0                                  # 0 = setup, then 1 … 16
        self.rows: list[list[int | None]] = [[None] * self.width for _ in range(N_ROWS)]
        self.lord: list[tuple[int, int] | None] = [None] * P
        self.scout: list[tuple[int, int] | None] = [None] * P
        self.fief: list[list[list[int]]] = [[[] for _ in range(N_TYPES)] for _ in range(P)]
        self.graveyard: list[list[int]] = [[] for _ in range(P)]
        self.coins: list[int] = [rules.start_coins(s) for s in range(P)]   # MA-1: per seat
        self.extra_token: list[list[bool]] = [[False] * N_TYPES for _ in range(P)]
        self.plot_token: list[list[int]] = [[-1] * N_TYPES for _ in range(P)]  # -1 = none
        self.extra_supply = rules.param(P_EXTRA_TOKENS)
        self.plot_supply: list[int] = [int(x) for x in rules.plot_supply]
        # MA-3 / MA-7 tile sources
        self.pile: list[int] = []          # drawn from the front
        self.orange: list[int] | None = None   # orange reserve not yet used (4-5 players)
        self.box: list[int] = []           # tiles left in the box (orange with 2-3 players)
        self.discard: list[int] = []
        self.reshuffles = 0
        # MA-8 deck: indices into the rules' event arrays, in firing order
        self.event_deck: list[int] = []
        self.events_fired: list[int] = []  # event ids
        # records (MA-12) and bookkeeping for debug checks
        self.event_gain = [[0] * N_EVENTS for _ in range(P)]
        self.coins_before_event = [[0] * N_EVENTS for _ in range(P)]
        self.coins_by_turn = [[0] * N_TURNS for _ in range(P)]
        self.penalty = [0] * P
        self.tiles_taken = [0] * P
        self.transfers_paid = 0            # Moulin/Caserne: coins taken from victims
        self.transfers_received = 0        # Moulin/Caserne: coins given to attackers
        self.decisions: list[tuple[str, int, int]] = []

    # --- turn geometry (MA-4) ---
    @property
    def row_r(self) -> int:
        """MA-4: the row the Lords stand on at the start of the turn (being emptied)."""
        return (self.turn - 1) % N_ROWS

    @property
    def row_d(self) -> int:
        """MA-4: the destination row of the Lords this turn."""
        return (self.row_r + 1) % N_ROWS

    # --- queries ---
    def count(self, seat: int, tile_type: int) -> int:
        return len(self.fief[seat][tile_type])

    def fief_tiles(self, seat: int) -> list[int]:
        return [tid for stack in self.fief[seat] for tid in stack]

    def peasants(self, seat: int) -> int:
        return sum(int(self.rules.tile_peasants[t]) for t in self.fief_tiles(seat))

    def chests(self, seat: int) -> int:
        return sum(int(self.rules.tile_chests[t]) for t in self.fief_tiles(seat))

    def lord_at(self, pos: tuple[int, int]) -> int | None:
        for s, p in enumerate(self.lord):
            if p == pos:
                return s
        return None

    def scout_at(self, pos: tuple[int, int]) -> int | None:
        for s, p in enumerate(self.scout):
            if p == pos:
                return s
        return None

    # --- hand-building helpers (tests) ---
    def add_to_fief(self, seat: int, tile_id: int) -> None:
        """Put a tile on top of its Domain's stack (MA-4 3b, Village, Restauration)."""
        self.fief[seat][int(self.rules.tile_type[tile_id])].append(tile_id)


@dataclass
class GameRecord:
    """MA-12: what one game records, with the kernel's dtypes and shapes."""

    score: np.ndarray               # int32[P] final coins
    win_share: np.ndarray           # float32[P]
    rank: np.ndarray                # int8[P] competition ranking
    tiles: np.ndarray               # int8[P, 8] tiles per Domain at the end
    graveyard: np.ndarray           # int8[P]
    penalty: np.ndarray             # int16[P] coins actually lost at scoring
    event_gain: np.ndarray          # int16[P, 4]
    coins_before_event: np.ndarray  # int16[P, 4]
    events: np.ndarray              # int8[4] event ids in firing order
    reshuffles: int                 # int8 in the kernel
    coins_by_turn: np.ndarray       # int16[P, 16] coins at the end of each turn, its Event
    #                                 included, before the MA-9 penalty (MA-12; coins_turn_t)
    decisions: list = field(default_factory=list)  # (kind, n_options, chosen index) in order


# --------------------------------------------------------------------------------------------
# Logging helpers
# --------------------------------------------------------------------------------------------

def _say(log: list | None, text: str) -> None:
    if log is not None:
        log.append(text)


def tile_label(rules: RulesArrays, tile_id: int | None) -> str:
    """``Moulin(5)#17``: type, back number, tile id."""
    if tile_id is None:
        return "-"
    return f"{DOMAIN_NAMES[int(rules.tile_type[tile_id])]}({int(rules.tile_number[tile_id])})#{tile_id}"


def option_text(kind: str, option, state: GameState | None = None) -> str:
    """One option of a decision (MA-11) as ``balance replay`` lists it: a tile for the Lord or the
    Scout, where it lies and what it is (``row 1 c2 Village(8)#28``, read from the table ``state``
    at the decision; without it the place alone), a Graveyard tile, a Domain for the Extra-coin
    token, a Plot token and its Domain (``Moulin under Église``)."""
    rules = state.rules if state is not None else None

    def tile(row: int | None, c: int) -> str:
        if state is None:
            return f"c{c}" if row is None else f"row {row} c{c}"
        return f"row {row} c{c} {tile_label(rules, state.rows[row][c])}"

    if kind == PLACE:
        return tile(0, option)
    if kind == MOVE:
        return tile(state.row_d if state is not None else None, option)
    if kind == SCOUT:
        return tile(*option)
    if kind == RESTORE:
        return tile_label(rules, option) if rules is not None else f"#{option}"
    if kind == EXTRA:
        return DOMAIN_NAMES[option]
    if kind == PLOT:
        return f"{DOMAIN_NAMES[option[0]]} under {DOMAIN_NAMES[option[1]]}"
    return str(option)


def _row_text(state: GameState, row: int) -> str:
    cells = []
    for c, tid in enumerate(state.rows[row]):
        marks = []
        lord = state.lord_at((row, c))
        scout = state.scout_at((row, c))
        if lord is not None:
            marks.append(f"Lord P{lord}")
        if scout is not None:
            marks.append(f"Scout P{scout}")
        extra = f" [{', '.join(marks)}]" if marks else ""
        cells.append(f"c{c} {tile_label(state.rules, tid)}{extra}")
    return f"row {row}: " + " | ".join(cells)


def _fief_text(state: GameState, seat: int) -> str:
    parts = []
    for d in range(N_TYPES):
        n = state.count(seat, d)
        tok = ""
        if state.extra_token[seat][d]:
            tok += "+x"
        if state.plot_token[seat][d] >= 0:
            tok += f"+plot:{DOMAIN_NAMES[state.plot_token[seat][d]]}"
        if n or tok:
            parts.append(f"{DOMAIN_NAMES[d]} {n}{tok}")
    return ", ".join(parts) if parts else "empty"


# --------------------------------------------------------------------------------------------
# Decisions (MA-11) and coins (MA-10)
# --------------------------------------------------------------------------------------------

def decide(state: GameState, seat: int, kind: str, options: list, strategies: list, rng: PyStream):
    """MA-11: ask the seat's strategy to pick one of ``options``; None (no draw) when none is legal."""
    if not options:
        return None
    idx = strategies[seat].choose(kind, options, state, seat, rng)
    if not 0 <= idx < len(options):
        raise ValueError(f"strategy of seat {seat} returned {idx} for {len(options)} {kind} options")
    state.decisions.append((kind, len(options), idx))
    return options[idx]


def change_coins(state: GameState, seat: int, delta: int) -> int:
    """MA-10: add ``delta`` coins; a loss takes at most what the player has (unless allow_negative).

    Returns the change actually applied. A player already below zero (negative start coins) has
    nothing to lose, so a loss then takes 0.
    """
    if delta < 0 and not state.allow_negative:
        delta = -min(-delta, max(state.coins[seat], 0))
    state.coins[seat] += delta
    return delta


def pay(state: GameState, payer: int, payee: int, amount: int) -> int:
    """MA-10: ``payer`` pays ``payee`` up to ``amount``; the payee receives what was actually paid."""
    paid = -change_coins(state, payer, -amount)
    state.coins[payee] += paid
    state.transfers_paid += paid
    state.transfers_received += paid
    return paid


def lose_top_tile(state: GameState, seat: int, domain: int) -> int | None:
    """Move the most recently added tile of a Domain to the Graveyard (MA-5 Caserne, MA-8 lose)."""
    if not state.fief[seat][domain]:
        return None
    tid = state.fief[seat][domain].pop()
    state.graveyard[seat].append(tid)
    return tid


def restore_from_graveyard(state: GameState, seat: int, strategies: list, rng: PyStream,
                           log: list | None, why: str) -> int | None:
    """MA-5 Village / MA-8 Restauration: one chosen Graveyard tile goes back to its Domain.

    Options are the Graveyard tiles in the order they entered it (MA-11.3). No Effect, no Income.
    """
    tid = decide(state, seat, RESTORE, list(state.graveyard[seat]), strategies, rng)
    if tid is None:
        _say(log, f"      {why}: Graveyard empty, nothing restored")
        return None
    state.graveyard[seat].remove(tid)
    state.add_to_fief(seat, tid)
    _say(log, f"      {why}: restores {tile_label(state.rules, tid)} from the Graveyard")
    return tid


# --------------------------------------------------------------------------------------------
# MA-6 Income
# --------------------------------------------------------------------------------------------

def counted_types(state: GameState, seat: int, domain: int) -> list[int]:
    """MA-6: the tile types Domain ``domain`` counts (its table row plus its Plot token's type)."""
    types = [t for t in range(N_TYPES) if state.rules.income_counts[domain, t]]
    plot = state.plot_token[seat][domain]
    if plot >= 0 and plot not in types:
        types.append(plot)
    return types


def income(state: GameState, seat: int, domain: int) -> int:
    """MA-6: (base + Extra-coin bonus if the Domain holds the token) × counted tiles. Not applied."""
    per_tile = int(state.rules.income_base[domain])
    if state.extra_token[seat][domain]:
        per_tile += state.rules.param(P_EXTRA_BONUS)
    n = sum(state.count(seat, t) for t in counted_types(state, seat, domain))
    return per_tile * n


# --------------------------------------------------------------------------------------------
# MA-5 Domain Effects
# --------------------------------------------------------------------------------------------

def effect_champs(state, seat, strategies, rng, log):
    """MA-5 Champs: +champs_coins_per_peasant per Paysan symbol in the Fief (new tile included)."""
    n = state.peasants(seat)
    got = change_coins(state, seat, n * state.rules.param(P_CHAMPS_PER_PEASANT))
    _say(log, f"      effect Champs: {n} Paysan -> {got:+d}")


def effect_moulin(state, seat, strategies, rng, log):
    """MA-5 Moulin: every opponent (seat order) with fewer Moulins than you pays you (MA-10)."""
    mine = state.count(seat, MOULIN)
    amount = state.rules.param(P_MOULIN_PAYMENT)
    victims = []
    for opp in range(state.n_players):
        if opp != seat and state.count(opp, MOULIN) < mine:
            paid = pay(state, opp, seat, amount)
            victims.append(f"P{opp} pays {paid}")
    _say(log, f"      effect Moulin ({mine} Moulin): " + (", ".join(victims) or "no opponent has fewer"))


def effect_village(state, seat, strategies, rng, log):
    """MA-5 Village: bring one chosen Graveyard tile back (no Effect, no Income of its own)."""
    restore_from_graveyard(state, seat, strategies, rng, log, "effect Village")


def scout_options(state: GameState, seat: int) -> list[tuple[int, int]]:
    """MA-11.2: rows 0…3 except r and d, columns 0…P; tiles with no Lord and no Scout (own included)."""
    r, d = state.row_r, state.row_d
    options = []
    for row in range(N_ROWS):
        if row in (r, d):
            continue
        for c in range(state.width):
            pos = (row, c)
            if state.rows[row][c] is None:
                continue
            if state.lord_at(pos) is None and state.scout_at(pos) is None:
                options.append(pos)
    return options


def effect_rempart(state, seat, strategies, rng, log):
    """MA-5 Rempart: put (or move) your Scout on a free tile outside rows r and d; else nothing."""
    pos = decide(state, seat, SCOUT, scout_options(state, seat), strategies, rng)
    if pos is None:
        at = state.scout[seat]
        where = f"stays at row {at[0]} c{at[1]}" if at else "stays in hand"
        _say(log, f"      effect Rempart: no legal tile, Scout {where}")
        return
    state.scout[seat] = pos
    _say(log, f"      effect Rempart: Scout to row {pos[0]} c{pos[1]} "
              f"({tile_label(state.rules, state.rows[pos[0]][pos[1]])})")


def effect_marche(state, seat, strategies, rng, log):
    """MA-5 Marché: +marche_coins_per_chest per Coffre symbol in the Fief."""
    n = state.chests(seat)
    got = change_coins(state, seat, n * state.rules.param(P_MARCHE_PER_CHEST))
    _say(log, f"      effect Marché: {n} Coffre -> {got:+d}")


def effect_caserne(state, seat, strategies, rng, log):
    """MA-5 Caserne: attack (seat order) every opponent with fewer Remparts than your Casernes.

    Each victim loses the top tile of its leftmost non-empty Domain to its Graveyard, then pays
    (MA-10); a victim with no tile still pays.
    """
    mine = state.count(seat, CASERNE)
    amount = state.rules.param(P_CASERNE_PAYMENT)
    parts = []
    for opp in range(state.n_players):
        if opp == seat or state.count(opp, REMPART) >= mine:
            continue
        lost = None
        for d in range(N_TYPES):
            if state.fief[opp][d]:
                lost = lose_top_tile(state, opp, d)
                break
        paid = pay(state, opp, seat, amount)
        what = f"loses {tile_label(state.rules, lost)}" if lost is not None else "has no tile"
        parts.append(f"P{opp} {what}, pays {paid}")
    _say(log, f"      effect Caserne ({mine} Caserne): " + ("; ".join(parts) or "no victim"))


def effect_eglise(state, seat, strategies, rng, log):
    """MA-5 Église: if the supply has an Extra-coin token, put it under a Domain without one."""
    if state.extra_supply <= 0:
        _say(log, "      effect Église: no Extra-coin token left")
        return
    options = [d for d in range(N_TYPES) if not state.extra_token[seat][d]]
    d = decide(state, seat, EXTRA, options, strategies, rng)
    if d is None:
        _say(log, "      effect Église: every Domain already holds an Extra-coin token")
        return
    state.extra_token[seat][d] = True
    state.extra_supply -= 1
    _say(log, f"      effect Église: Extra-coin token under {DOMAIN_NAMES[d]} ({state.extra_supply} left)")


def plot_options(state: GameState, seat: int) -> list[tuple[int, int]]:
    """MA-11.5: (token type T, Domain D), T outer, D inner: T in supply, D without Plot token,
    D's Income does not already count T."""
    options = []
    for t in range(N_TYPES):
        if state.plot_supply[t] <= 0:
            continue
        for d in range(N_TYPES):
            if state.plot_token[seat][d] < 0 and not state.rules.income_counts[d, t]:
                options.append((t, d))
    return options


def effect_palais(state, seat, strategies, rng, log):
    """MA-5 Palais: place a legal Plot token; that Domain's Income then also counts its type."""
    choice = decide(state, seat, PLOT, plot_options(state, seat), strategies, rng)
    if choice is None:
        _say(log, "      effect Palais: no legal Plot token")
        return
    t, d = choice
    state.plot_supply[t] -= 1
    state.plot_token[seat][d] = t
    _say(log, f"      effect Palais: Plot token {DOMAIN_NAMES[t]} under {DOMAIN_NAMES[d]}")


EFFECTS = (effect_champs, effect_moulin, effect_village, effect_rempart,
           effect_marche, effect_caserne, effect_eglise, effect_palais)


def apply_effect(state: GameState, seat: int, tile_type: int, strategies: list, rng: PyStream,
                 log: list | None = None) -> None:
    """MA-5 (MA-4 3c): apply the Effect of Domain ``tile_type`` for ``seat``, completely.

    Rempart needs ``state.turn`` set (rows r and d are excluded).
    """
    EFFECTS[tile_type](state, seat, strategies, rng, log)


# --------------------------------------------------------------------------------------------
# MA-7 drawing, MA-3 setup
# --------------------------------------------------------------------------------------------

def _out_of_tiles(state: GameState) -> ConfigError:
    r = state.rules
    n_blue = int((r.tile_stack == BLUE).sum())
    n_orange = int((r.tile_stack == ORANGE).sum())
    return ConfigError(r.source.name, "tile_table",
                       f"not enough tiles for {state.n_players} players under MA-7 "
                       f"({n_blue} blue, {n_orange} orange)")


def draw_tile(state: GameState, rng: PyStream) -> int:
    """MA-7: draw from the front of the pile; when it is empty switch to the next source.

    2-3 players: the discard pile (shuffled, counted in ``reshuffles``); 4: the orange stack once;
    5: the orange stack, then the discard pile. No source left: ConfigError naming the player count.
    """
    discard_ok = state.n_players in (2, 3, 5)
    while not state.pile:
        if state.orange is not None:
            state.pile, state.orange = state.orange, None
        elif discard_ok and state.discard:
            pile, state.discard = state.discard, []
            rng.shuffle(pile)
            state.pile = pile
            state.reshuffles += 1
        else:
            raise _out_of_tiles(state)
    return state.pile.pop(0)


def fill_row(state: GameState, row: int, rng: PyStream) -> None:
    """MA-3 / MA-4 step 4: draw players + 1 tiles, stable-sort by back number, columns 0…P."""
    drawn = [draw_tile(state, rng) for _ in range(state.width)]
    drawn.sort(key=lambda tid: int(state.rules.tile_number[tid]))  # list.sort is stable
    state.rows[row] = drawn


def setup_game(rules: RulesArrays, n_players: int, strategies: list, rng: PyStream,
               log: list | None = None) -> GameState:
    """MA-3 in protocol order: blue shuffle, orange shuffle (4-5 p.), event deck, rows 0-3, Lords."""
    state = GameState(rules, n_players)
    ids = range(rules.n_tiles)
    blue = [i for i in ids if rules.tile_stack[i] == BLUE]
    orange = [i for i in ids if rules.tile_stack[i] == ORANGE]
    n_blue, n_orange = len(blue), len(orange)
    rng.shuffle(blue)
    state.pile = blue
    if n_players >= 4:
        rng.shuffle(orange)
        state.orange = orange
    else:
        state.box = orange
    deck = list(range(len(rules.event_ids)))
    rng.shuffle(deck)
    state.event_deck = deck[:N_EVENTS]
    for row in range(N_ROWS):
        fill_row(state, row, rng)

    _say(log, f"Setup: {n_players} players, {n_blue} blue tiles"
              + (f", {n_orange} orange tiles in reserve" if n_players >= 4 else ", orange stack unused"))
    _say(log, "  events: " + ", ".join(
        f"turn {EVENT_TURNS[k]}: {rules.event_names[e]} ({int(rules.event_ids[e])})"
        for k, e in enumerate(state.event_deck)))
    for row in range(N_ROWS):
        _say(log, "  " + _row_text(state, row))

    for seat in range(n_players):
        options = [c for c in range(state.width)
                   if state.rows[0][c] is not None and state.lord_at((0, c)) is None]
        c = decide(state, seat, PLACE, options, strategies, rng)
        state.lord[seat] = (0, c)
        _say(log, f"  P{seat} places its Lord on row 0 c{c} ({tile_label(rules, state.rows[0][c])})")
    return state


# --------------------------------------------------------------------------------------------
# MA-4 turns
# --------------------------------------------------------------------------------------------

def move_options(state: GameState, seat: int) -> list[int]:
    """MA-11.1 Lord move: columns of row d with a tile, no Lord, no Scout of another player."""
    d = state.row_d
    options = []
    for c in range(state.width):
        pos = (d, c)
        if state.rows[d][c] is None or state.lord_at(pos) is not None:
            continue
        owner = state.scout_at(pos)
        if owner is not None and owner != seat:
            continue
        options.append(c)
    return options


def player_action(state: GameState, seat: int, strategies: list, rng: PyStream,
                  log: list | None = None) -> None:
    """MA-4 step 3: move the Lord (a), take the tile left (b), Effect (c), Income (d)."""
    rules = state.rules
    r, d = state.row_r, state.row_d
    left = state.lord[seat]
    assert left is not None and left[0] == r
    if state.turn < N_TURNS:
        c = decide(state, seat, MOVE, move_options(state, seat), strategies, rng)
        assert c is not None, "MA-4: a Lord always has a legal tile"
        state.lord[seat] = (d, c)
        move = f"Lord row {r} c{left[1]} -> row {d} c{c}"
        if state.scout[seat] is not None and state.scout[seat][0] == d:
            state.scout[seat] = None
            move += ", Scout returns"
    else:
        move = f"Lord stays on row {r} c{left[1]}"
    tid = state.rows[r][left[1]]
    state.rows[r][left[1]] = None
    state.add_to_fief(seat, tid)
    state.tiles_taken[seat] += 1
    tile_type = int(rules.tile_type[tid])
    _say(log, f"    P{seat}: {move}; takes {tile_label(rules, tid)}")
    apply_effect(state, seat, tile_type, strategies, rng, log)
    gain = income(state, seat, tile_type)
    got = change_coins(state, seat, gain)
    _say(log, f"      income {DOMAIN_NAMES[tile_type]}: {got:+d} -> coins {state.coins[seat]}")


def play_turn(state: GameState, strategies: list, rng: PyStream, log: list | None = None) -> None:
    """MA-4: one turn (steps 1-5) for ``state.turn``, which the caller has already advanced."""
    rules = state.rules
    r = state.row_r
    _say(log, f"Turn {state.turn} (row {r} -> row {state.row_d})")
    _say(log, "  " + _row_text(state, r))
    # step 1: discard the tile without a Lord
    for c in range(state.width):
        if state.rows[r][c] is not None and state.lord_at((r, c)) is None:
            state.discard.append(state.rows[r][c])
            _say(log, f"  discard c{c} {tile_label(rules, state.rows[r][c])}")
            state.rows[r][c] = None
    # step 2: left to right by Lord column on row r
    order = sorted(range(state.n_players), key=lambda s: state.lord[s][1])
    for seat in order:
        player_action(state, seat, strategies, rng, log)
    # step 4
    if state.turn <= LAST_REFILL_TURN:
        fill_row(state, r, rng)
        _say(log, "  refill " + _row_text(state, r))
    # step 5
    if state.turn in EVENT_TURNS:
        k = EVENT_TURNS.index(state.turn)
        before = list(state.coins)
        gains = resolve_event(state, state.event_deck[k], strategies, rng, log)
        for s in range(state.n_players):
            state.coins_before_event[s][k] = before[s]
            state.event_gain[s][k] = gains[s]
    for s in range(state.n_players):
        state.coins_by_turn[s][state.turn - 1] = state.coins[s]
    _say(log, "  coins: " + ", ".join(f"P{s} {state.coins[s]}" for s in range(state.n_players)))


# --------------------------------------------------------------------------------------------
# MA-8 events
# --------------------------------------------------------------------------------------------

def event_coins(state: GameState, seat: int, e: int) -> int:
    """MA-8: the coin part of event ``e`` (index into the rules' event arrays), on the Fief as is."""
    rules = state.rules
    total = sum(int(rules.event_per_tile[e, t]) * state.count(seat, t) for t in range(N_TYPES))
    total += int(rules.event_per_peasant[e]) * state.peasants(seat)
    total += int(rules.event_per_chest[e]) * state.chests(seat)
    total += int(rules.event_per_graveyard[e]) * len(state.graveyard[seat])
    total += int(rules.event_per_domain[e]) * sum(1 for t in range(N_TYPES) if state.fief[seat][t])
    return total


def resolve_event(state: GameState, e: int, strategies: list, rng: PyStream,
                  log: list | None = None) -> list[int]:
    """MA-8: resolve event card ``e`` (index into the rules' event arrays) for every player.

    In seat order, each player: coins (summed, applied once with the MA-10 floor), then the
    ``lose`` list in board order (top tile of that type to the Graveyard), then ``restore``
    decisions. Returns the coins each player actually gained (signed).
    """
    rules = state.rules
    eid = int(rules.event_ids[e])
    state.events_fired.append(eid)
    _say(log, f"  Event {rules.event_names[e]} ({eid})")
    gains = []
    for seat in range(state.n_players):
        got = change_coins(state, seat, event_coins(state, seat, e))
        gains.append(got)
        lost = []
        for t in range(N_TYPES):
            for _ in range(int(rules.event_lose[e, t])):
                tid = lose_top_tile(state, seat, t)
                if tid is not None:
                    lost.append(tile_label(rules, tid))
        line = f"    P{seat}: coins {got:+d} -> {state.coins[seat]}"
        if rules.event_lose[e].any():
            line += "; loses " + (", ".join(lost) if lost else "nothing")
        _say(log, line)
        for _ in range(int(rules.event_restore[e])):
            restore_from_graveyard(state, seat, strategies, rng, log, "Restauration")
    return gains


# --------------------------------------------------------------------------------------------
# MA-9 scoring
# --------------------------------------------------------------------------------------------

def score_game(state: GameState, log: list | None = None) -> tuple[list[float], list[int]]:
    """MA-9: empty-Domain penalty (MA-10 floor), then ranks and win shares.

    Order key: coins, then tile counts in ``tie_break`` order. Equal keys share a rank (competition
    ranking 1, 1, 3) and, if first, share the win (1/k each). Returns (win_share, rank).
    """
    rules = state.rules
    P = state.n_players
    _say(log, "Final scoring")
    for s in range(P):
        empty = sum(1 for t in range(N_TYPES) if not state.fief[s][t])
        _say(log, f"  P{s} Fief: {_fief_text(state, s)}; Graveyard {len(state.graveyard[s])}")
        before = state.coins[s]
        state.penalty[s] = -change_coins(state, s, -empty * rules.param(P_EMPTY_PENALTY))
        _say(log, f"  P{s}: {before} coins, {empty} empty Domain(s) -> loses {state.penalty[s]}"
                  f" -> {state.coins[s]}")
    keys = [(state.coins[s],) + tuple(state.count(s, int(t)) for t in rules.tie_break) for s in range(P)]
    rank = [1 + sum(1 for o in range(P) if keys[o] > keys[s]) for s in range(P)]
    best = max(keys)
    winners = [s for s in range(P) if keys[s] == best]
    share = [1.0 / len(winners) if s in winners else 0.0 for s in range(P)]
    coins = [k[0] for k in keys]
    for s in range(P):
        tied = [o for o in range(P) if o != s and coins[o] == coins[s]]
        if tied:
            order = ", ".join(f"{DOMAIN_NAMES[int(t)]} {state.count(s, int(t))}" for t in rules.tie_break)
            _say(log, f"  tie-break P{s} (coins tied with {', '.join(f'P{o}' for o in tied)}): {order}")
    for s in range(P):
        _say(log, f"  P{s}: rank {rank[s]}, win share {share[s]:.4g}")
    return share, rank


# --------------------------------------------------------------------------------------------
# Whole game
# --------------------------------------------------------------------------------------------

def check_invariants(state: GameState) -> None:
    """Debug checks: every tile in exactly one place, 16 tiles taken each, zero-sum transfers."""
    places = [t for row in state.rows for t in row if t is not None]
    places += state.pile + (state.orange or []) + state.box + state.discard
    for s in range(state.n_players):
        places += state.fief_tiles(s) + state.graveyard[s]
    if sorted(places) != list(range(state.rules.n_tiles)):
        raise AssertionError(f"tiles not conserved: {len(places)} placed of {state.rules.n_tiles}")
    if state.turn == N_TURNS and state.tiles_taken != [N_TURNS] * state.n_players:
        raise AssertionError(f"tiles taken per player {state.tiles_taken}, expected {N_TURNS} each")
    if state.transfers_paid != state.transfers_received:
        raise AssertionError("Moulin/Caserne transfers are not zero-sum")


def play_game(rules: RulesArrays, n_players: int, seed: int, game: int, strategies=None,
              log: list | None = None, debug: bool = False) -> GameRecord:
    """Play one game (MA-3 … MA-9) with stream ``PyStream(seed, game)``; return its MA-12 record."""
    if strategies is None:
        strategies = [RandomStrategy() for _ in range(n_players)]
    if len(strategies) != n_players:
        raise ValueError(f"need {n_players} strategies, got {len(strategies)}")
    rng = PyStream(seed, game)
    _say(log, f"Middle-Ages reference game: {n_players} players, seed {seed}, game {game}")
    state = setup_game(rules, n_players, strategies, rng, log)
    if debug:
        check_invariants(state)
    for t in range(1, N_TURNS + 1):
        state.turn = t
        play_turn(state, strategies, rng, log)
        if debug:
            check_invariants(state)
    coins_before_scoring = sum(state.coins)
    share, rank = score_game(state, log)
    if debug:
        assert sum(state.coins) == coins_before_scoring - sum(state.penalty)
    P = n_players
    return GameRecord(
        score=np.array(state.coins, np.int32),
        win_share=np.array(share, np.float32),
        rank=np.array(rank, np.int8),
        tiles=np.array([[state.count(s, t) for t in range(N_TYPES)] for s in range(P)], np.int8),
        graveyard=np.array([len(g) for g in state.graveyard], np.int8),
        penalty=np.array(state.penalty, np.int16),
        event_gain=np.array(state.event_gain, np.int16),
        coins_before_event=np.array(state.coins_before_event, np.int16),
        events=np.array(state.events_fired, np.int8),
        reshuffles=int(state.reshuffles),
        coins_by_turn=np.array(state.coins_by_turn, np.int16),
        decisions=list(state.decisions),
    )


def record_table(record: GameRecord) -> list[str]:
    """The final MA-12 table of a record, one line per seat (used by the golden file)."""
    head = ("seat coins share rank " + " ".join(f"{n[:4]:>4}" for n in DOMAIN_NAMES)
            + " grave penalty  ev1  ev2  ev3  ev4 | before: ev1  ev2  ev3  ev4")
    lines = [head]
    for s in range(record.score.shape[0]):
        lines.append(
            f"P{s:<3} {int(record.score[s]):5d} {float(record.win_share[s]):5.3f} {int(record.rank[s]):4d} "
            + " ".join(f"{int(x):4d}" for x in record.tiles[s])
            + f" {int(record.graveyard[s]):5d} {int(record.penalty[s]):7d} "
            + " ".join(f"{int(x):4d}" for x in record.event_gain[s])
            + " |         " + " ".join(f"{int(x):4d}" for x in record.coins_before_event[s]))
    lines.append("coins at the end of turn " + " ".join(f"{t:4d}" for t in range(1, N_TURNS + 1)))
    for s in range(record.score.shape[0]):
        lines.append(f"P{s:<23} " + " ".join(f"{int(x):4d}" for x in record.coins_by_turn[s]))
    lines.append("events: " + " ".join(str(int(e)) for e in record.events)
                 + f"; reshuffles: {record.reshuffles}; decisions: {len(record.decisions)}")
    return lines
