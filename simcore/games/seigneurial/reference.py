"""Slow, readable pure-Python reference engine of Seigneurial (spec: shared/rules/seigneurial.md).

Its job is to be obviously right, not fast: every rule SG-1 … SG-6 is a small function on a mutable
:class:`GameState` that tests can build by hand, and :func:`play_game` plays one whole game. It
draws randomness and lists legal options in the order the *engine protocol* below fixes, so for the
same (seed, game) and the same decisions it plays the very game the Numba kernel plays; it replays
any kernel bot's decision trace with :class:`ReplayStrategy` (``consume_draw=True``).

Engine protocol (both engines)
------------------------------
* Seat 0 is the Seigneur, seats 1 … P-1 the Censitaires; "in seat order" means 1, 2, …
* A decision with no option is skipped; one with a single option is taken without asking (no draw,
  not recorded); otherwise the seat's strategy chooses an index, recorded as (kind, options, index).
* Setup (SG-1): the grain, wood and fish decks (cards listed by value ascending) are shuffled in
  that order, then the Censitaire deck and the Seigneur deck (listed by kind), then the Objective
  deck (by index); Censitaires 1, 2, … take the top Objective card; then each Censitaire in seat
  order draws its ``start_cards`` resource cards, types grain, wood, fish, grain, …
  A pile's top is its last element. An empty pile is rebuilt from its discard (listed by value or
  kind ascending) shuffled; with no discard either, nothing is drawn.
* A drawn resource card of value 0 is laid face up (SG-5.2), never held in the hand.
* A random card of a hand: ``below(cards in hand)`` indexes the cards listed by (type, value)
  ascending.
* A turn (season ``(turn - 1) % 4``: Spring, Summer, Autumn, Winter):
  1. Spring: the Seigneur draws his year's Seigneur cards (SG-3).
  2. Winter: each Censitaire pays the winter (SG-4) or a pawn falls sick.
  3. Positioning, then harvest, Censitaire by Censitaire, squares Field, Forest, River, Church,
     Mill (SG-5.1, 5.2).
  4. Rent split (SG-5.3); 5. each Censitaire's card window (SG-3); 6. payment (SG-5.4), the
     Censitaires in the order ``payment.order`` sets: "seat" 1, 2, … each seeing what was paid
     before; "rotating" the same, starting one seat later each turn; "simultaneous" in seat order,
     each choosing from the position before anyone paid (the rent received shows only its own
     payment while it pays);
  7. accounting: the Seigneur's card window, forced draws if short, favour, exchange, a Seigneur
     card if nothing was received, received cards discarded (SG-5.5); 8. progress and improvements
     (SG-5.6); 9. end of Winter: the Seigneur discards his cards; sick pawns recover a turn;
     10. victory (SG-6) and the turn bound.

It may import only the standard library, numpy, :mod:`simcore.rng`,
:mod:`simcore.reference_strategies`, :mod:`simcore.games.seigneurial.rules`,
:func:`simcore.contract.code_words` and the words of :mod:`simcore.games.seigneurial.spec` (SG-6's
tie-break, the end reasons' words: kernel-free).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from simcore.games.seigneurial.rules import (
    CACHETTE, CENSITAIRE_CARD_NAMES, CHURCH, CORVEE, MAX_PLAYERS, MILL, MIN_PLAYERS, N_RES,
    N_SQUARES, N_VALUES, P_BONUS, P_CC_HAND_LIMIT, P_CC_PLAY_LIMIT, P_CHURCH_CAP,
    P_FAVOUR_DISTRIBUTION, P_FAVOUR_PER_CARD, P_FORCED_AFTER, P_FORCED_BEFORE, P_MILL_CAP, P_PAWNS,
    P_SICK_TURNS, P_START_SQUARE, P_WINTER_PAYMENT, RECOLTE, REQUISITION, RESOURCE_TYPES,
    PAY_ROTATING, PAY_SIMULTANEOUS, SEIGNEUR_CARD_NAMES, SQUARE_NAMES, TROC, RulesArrays, objective_card, objective_label,
    objective_number, FX_CORVEE_DISCARDS, FX_RECOLTE_DRAWS, FX_REQUISITION_DRAWS, FX_TROC_DRAWS,
    FX_TROC_DISCARDS, FX_CACHETTE_HIDES,
)
from simcore.contract import code_words
from simcore.games.seigneurial.spec import END_WORDS, SG6_SAME_TURN
from simcore.reference_strategies import RandomStrategy, ReplayStrategy  # noqa: F401 (re-exported)
from simcore.rng import PyStream

# SG-8 end reasons: the int8 code of games.parquet and its name (run.json meta). SG-6: the
# Seigneur on the goal square is ``seigneur_goal`` when no Censitaire holds its objective and
# ``seigneur_goal_over_objective`` when one does (the tie-break "the Seigneur wins").
CENSITAIRE_OBJECTIVE, SEIGNEUR_GOAL, TRUNCATED, SEIGNEUR_GOAL_OVER_OBJECTIVE = 0, 1, 2, 3
END_REASONS = ("censitaire_objective", "seigneur_goal", "truncated", "seigneur_goal_over_objective")
SEASONS = ("Spring", "Summer", "Autumn", "Winter")
WINTER = 3


def end_words(code: int) -> str:
    """An end reason in the words the reports show for it (:func:`simcore.contract.code_words` of the spec's ``END_WORDS``, else the name
    capitalised: "Censitaire objective", "Seigneur goal, winning a tie (SG-6)"); the log and the
    final table a designer reads in ``balance replay`` say these, not the run.json name."""
    return code_words(END_REASONS, END_WORDS, code)

STOP = -1                      # the "stop" option of the card windows and of payment
DECISION_KINDS = ("winter", "place", "church_keep", "discard_card", "rent", "play_card",
                  "recolte_type", "troc_give", "troc_type", "pay", "seigneur_card",
                  "corvee_target", "draw_order", "requisition_target", "favour", "improve",
                  "tie_winner")
# Each decision kind in the rules' words (SG-3 … SG-7), as ``balance replay`` and the golden
# playthrough name a decision (:func:`simcore.golden.decision_words`; the kind is the trace's name).
DECISION_WORDS = {
    "winter": "Winter: cards to discard", "place": "positioning: squares",
    "church_keep": "Church: card to keep", "discard_card": "too many Censitaire cards: card to discard",
    "rent": "rent: grain/wood/fish asked", "play_card": "Censitaire card to play",
    "recolte_type": "Récolte: type to draw", "troc_give": "Troc: card to discard",
    "troc_type": "Troc: type to draw", "pay": "payment: next card",
    "seigneur_card": "Seigneur card to play", "corvee_target": "Corvée: target",
    "draw_order": "forced draws: next Censitaire", "requisition_target": "Réquisition: Censitaire to draw from",
    "favour": "favour: next point to", "improve": "land improvement: terrain",
    "tie_winner": "tied objectives: the Seigneur's pick",
}


class GameOver(Exception):
    """Raised when the game ends (SG-6); unwinds the turn."""


# --------------------------------------------------------------------------------------------
# State
# --------------------------------------------------------------------------------------------

class GameState:
    """Everything on the table during one game (built by :func:`setup_game` or by hand in tests).

    ``hand[p][t][v]`` counts the resource cards of type t and value v in Censitaire p's hand;
    ``laid[p][t]`` its 0-value cards of type t laid face up; piles are lists whose last element is
    the top, discards are counts (per value, per kind).
    """

    def __init__(self, rules: RulesArrays, n_players: int) -> None:
        if not MIN_PLAYERS <= n_players <= MAX_PLAYERS:
            raise ValueError(f"Seigneurial needs {MIN_PLAYERS}-{MAX_PLAYERS} players, got {n_players}")
        P = n_players
        self.rules = rules
        self.n_players = P
        self.res_pile: list[list[int]] = [[] for _ in range(N_RES)]
        self.res_disc = [[0] * N_VALUES for _ in range(N_RES)]
        self.cc_pile: list[int] = []
        self.cc_disc = [0] * 3
        self.sc_pile: list[int] = []
        self.sc_disc = [0] * 2
        self.hand = [[[0] * N_VALUES for _ in range(N_RES)] for _ in range(P)]
        self.laid = [[0] * N_RES for _ in range(P)]
        self.cc_hand = [[0] * 3 for _ in range(P)]
        self.sc_hand = [0, 0]
        self.objective = [-1] * P
        self.improved = [-1] * P           # the terrain each Censitaire improved (SG-5.6)
        self.sick_left = [0] * P
        self.turns_sick = [0] * P
        self.favour_held = [0] * P
        self.favour_earned = [0] * P
        self.paid = [0] * P
        self.seized = [0] * P
        self.square = rules.param(P_START_SQUARE)
        self.improvements_done = False
        self.improvement_turn = -1
        self.turns = 0
        self.end_reason: int | None = None
        self.winner = -1                   # seat, or -1 when the Censitaires share (truncated)
        # per turn
        self.rent = [0] * N_RES
        self.received = [0] * N_RES        # resources the Seigneur holds this turn, per type
        self.received_cards: list[tuple[int, int]] = []
        self.given = [0] * P               # resources each Censitaire gave this turn
        self.protected = [False] * P       # Cachette played this turn
        self.extra_draws = 0               # Réquisitions played this turn
        self.decisions: list[tuple[str, int, int]] = []

    # --- queries ---
    @property
    def censitaires(self) -> list[int]:
        return list(range(1, self.n_players))

    def season(self) -> int:
        return (self.turns - 1) % 4

    def hand_cards(self, p: int) -> int:
        return sum(sum(row) for row in self.hand[p])

    def cards_of_type(self, p: int, t: int) -> int:
        return sum(self.hand[p][t])

    def resources(self, p: int, t: int) -> int:
        """SG-1: resources of type t held = the values of p's cards of that type, summed."""
        return sum(v * n for v, n in enumerate(self.hand[p][t]))

    def total_resources(self, p: int) -> int:
        return sum(self.resources(p, t) for t in range(N_RES))

    def requirement(self, p: int) -> list[int]:
        return [int(x) for x in self.rules.objectives[self.objective[p]]]

    def holds_objective(self, p: int) -> bool:
        """SG-2: p holds at least the resources of every type its Objective card asks."""
        req = self.requirement(p)
        return all(self.resources(p, t) >= req[t] for t in range(N_RES))

    def hand_codes(self, p: int) -> list[tuple[int, int]]:
        """The distinct (type, value) cards in p's hand, ascending."""
        return [(t, v) for t in range(N_RES) for v in range(1, N_VALUES) if self.hand[p][t][v]]

    def card_at(self, p: int, k: int) -> tuple[int, int]:
        """The k-th card of p's hand, cards listed by (type, value) ascending."""
        for t in range(N_RES):
            for v in range(N_VALUES):
                if k < self.hand[p][t][v]:
                    return t, v
                k -= self.hand[p][t][v]
        raise IndexError(k)

    def resource_card_counts(self) -> list[list[int]]:
        """Cards of each type and value anywhere in the game (conservation check)."""
        c = [[0] * N_VALUES for _ in range(N_RES)]
        for t in range(N_RES):
            for v in self.res_pile[t]:
                c[t][v] += 1
            for v in range(N_VALUES):
                c[t][v] += self.res_disc[t][v]
            for p in range(self.n_players):
                for v in range(N_VALUES):
                    c[t][v] += self.hand[p][t][v]
                c[t][0] += self.laid[p][t]
        for t, v in self.received_cards:
            c[t][v] += 1
        return c

    # --- hand-building helpers (tests) ---
    def give(self, p: int, *cards: tuple[int, int]) -> None:
        for t, v in cards:
            self.hand[p][t][v] += 1


@dataclass
class GameRecord:
    """SG-8: what one game records, with the kernel's dtypes and shapes."""

    score: np.ndarray          # int16[P] progress toward own goal, percent
    win_share: np.ndarray      # float32[P]
    rank: np.ndarray           # int8[P]
    resources: np.ndarray      # int16[P, 3] held at the end per type
    favour: np.ndarray         # int16[P]
    turns_sick: np.ndarray     # int16[P]
    objective: np.ndarray      # int8[P] (-1 for the Seigneur)
    paid: np.ndarray           # int16[P]
    seized: np.ndarray         # int16[P]
    turns: int
    end_reason: int
    winner: int
    square: int
    improvement_turn: int
    decisions: list = field(default_factory=list)   # (kind, n_options, chosen index) in order


# --------------------------------------------------------------------------------------------
# Logging and decisions
# --------------------------------------------------------------------------------------------

def _say(log: list | None, text: str) -> None:
    if log is not None:
        log.append(text)


def card_text(card: tuple[int, int]) -> str:
    t, v = card
    return f"{RESOURCE_TYPES[t]} {v}"


def hand_text(state: GameState, p: int) -> str:
    parts = [f"{card_text((t, v))}x{state.hand[p][t][v]}" if state.hand[p][t][v] > 1 else
             card_text((t, v)) for t, v in state.hand_codes(p)]
    laid = [f"{RESOURCE_TYPES[t]} 0 laid x{n}" for t, n in enumerate(state.laid[p]) if n]
    return " ".join(parts + laid) or "(empty)"


def option_text(kind: str, option) -> str:
    if kind == "winter":
        return "decline (a pawn falls sick)" if option is None else " + ".join(map(card_text, option))
    if kind == "place":
        return "+".join(SQUARE_NAMES[s] for s in option) or "(nothing)"
    if kind in ("church_keep", "discard_card"):
        return CENSITAIRE_CARD_NAMES[option]
    if kind == "play_card":
        return "stop" if option == STOP else CENSITAIRE_CARD_NAMES[option]
    if kind == "seigneur_card":
        return "stop" if option == STOP else SEIGNEUR_CARD_NAMES[option]
    if kind in ("recolte_type", "troc_type", "improve"):
        return RESOURCE_TYPES[option]
    if kind in ("troc_give", "pay"):
        return "stop" if option is None else card_text(option)
    if kind == "rent":
        return "/".join(str(x) for x in option)
    return f"P{option}"


def decide(state: GameState, seat: int, kind: str, options: list, strategies: list,
           rng: PyStream, log: list | None = None):
    """Ask the seat's strategy for one of ``options``: None without options; a lone option is
    taken without asking (no draw, not recorded)."""
    if not options:
        return None
    if len(options) == 1:
        return options[0]
    idx = strategies[seat].choose(kind, options, state, seat, rng)
    if not 0 <= idx < len(options):
        raise ValueError(f"strategy of seat {seat} returned {idx} for {len(options)} {kind} options")
    state.decisions.append((kind, len(options), idx))
    return options[idx]


# --------------------------------------------------------------------------------------------
# Piles (SG-1, SG-3)
# --------------------------------------------------------------------------------------------

def _draw(pile: list[int], disc: list[int], rng: PyStream) -> int | None:
    """The top card of a pile; an empty pile is first rebuilt from its discard (listed ascending)
    shuffled; None when both are empty."""
    if not pile:
        for x, n in enumerate(disc):
            pile.extend([x] * n)
            disc[x] = 0
        rng.shuffle(pile)
    return pile.pop() if pile else None


def draw_resource(state: GameState, p: int, t: int, rng: PyStream, log: list | None = None) -> int | None:
    """SG-5.2: Censitaire p draws a resource card of type t; a 0 is laid face up."""
    v = _draw(state.res_pile[t], state.res_disc[t], rng)
    if v is None:
        _say(log, f"      the {RESOURCE_TYPES[t]} deck is empty: nothing drawn")
        return None
    if v == 0:
        state.laid[p][t] += 1
    else:
        state.hand[p][t][v] += 1
    return v


def draw_censitaire_card(state: GameState, rng: PyStream) -> int | None:
    return _draw(state.cc_pile, state.cc_disc, rng)


def draw_seigneur_card(state: GameState, rng: PyStream) -> int | None:
    return _draw(state.sc_pile, state.sc_disc, rng)


def discard_resource(state: GameState, p: int, card: tuple[int, int]) -> None:
    t, v = card
    state.hand[p][t][v] -= 1
    state.res_disc[t][v] += 1


def hand_limit(state: GameState, p: int, strategies, rng, log) -> None:
    """SG-3: holding more Censitaire cards than the limit, discard one of your choice."""
    while sum(state.cc_hand[p]) > state.rules.param(P_CC_HAND_LIMIT):
        held = [k for k in range(3) if state.cc_hand[p][k]]
        k = decide(state, p, "discard_card", held, strategies, rng)
        state.cc_hand[p][k] -= 1
        state.cc_disc[k] += 1
        _say(log, f"      P{p} holds too many Censitaire cards: discards {CENSITAIRE_CARD_NAMES[k]}")


# --------------------------------------------------------------------------------------------
# SG-1 / SG-2 setup
# --------------------------------------------------------------------------------------------

def setup_game(rules: RulesArrays, n_players: int, rng: PyStream, log: list | None = None) -> GameState:
    """SG-1, SG-2: shuffle the decks, deal the Objective cards, the compensation start cards."""
    state = GameState(rules, n_players)
    for t in range(N_RES):
        state.res_pile[t] = [v for v in range(N_VALUES) for _ in range(int(rules.resource_counts[t, v]))]
        rng.shuffle(state.res_pile[t])
    state.cc_pile = [k for k in range(3) for _ in range(int(rules.censitaire_counts[k]))]
    rng.shuffle(state.cc_pile)
    state.sc_pile = [k for k in range(2) for _ in range(int(rules.seigneur_counts[k]))]
    rng.shuffle(state.sc_pile)
    deck = list(range(rules.objectives.shape[0]))
    rng.shuffle(deck)
    for p in state.censitaires:
        state.objective[p] = deck.pop()
    for p in state.censitaires:
        for i in range(rules.start_cards(p)):
            draw_resource(state, p, i % N_RES, rng, log)
    _say(log, f"Setup: {n_players} players; Seigneur on square {state.square}, goal "
              f"{rules.goal(n_players)}, midpoint {rules.midpoint(n_players)}")
    for p in state.censitaires:
        i = state.objective[p]
        _say(log, f"  P{p} objective {objective_number(i)}: {objective_label(objective_card(rules, i))}"
                  + (f"; starts with {hand_text(state, p)}" if rules.start_cards(p) else ""))
    return state


# --------------------------------------------------------------------------------------------
# SG-4 winter
# --------------------------------------------------------------------------------------------

def winter_options(state: GameState, p: int) -> list:
    """SG-4: the sets of cards worth exactly the winter payment (in protocol order: nondecreasing
    sequences of (type, value) cards), else single cards worth more; then None = decline."""
    W = state.rules.param(P_WINTER_PAYMENT)
    codes = state.hand_codes(p)
    hand = state.hand[p]
    exact = []

    def avail(seq):
        return all(seq.count(c) <= hand[c[0]][c[1]] for c in seq)

    for i, a in enumerate(codes):
        if a[1] == W:
            exact.append((a,))
        elif a[1] < W:
            for j in range(i, len(codes)):
                b = codes[j]
                s2 = a[1] + b[1]
                if s2 == W and avail([a, b]):
                    exact.append((a, b))
                elif s2 < W:
                    for k in range(j, len(codes)):
                        c = codes[k]
                        if s2 + c[1] == W and avail([a, b, c]):
                            exact.append((a, b, c))
    if not exact:
        exact = [(c,) for c in codes if c[1] > W]
    return exact + [None]


def winter(state: GameState, strategies, rng, log) -> None:
    """SG-4: at the start of Winter each Censitaire discards cards worth exactly the payment (or,
    with no exact combination, one card worth more) or a pawn falls sick for ``sick_turns``."""
    for p in state.censitaires:
        choice = decide(state, p, "winter", winter_options(state, p), strategies, rng)
        if choice is None:
            state.sick_left[p] = state.rules.param(P_SICK_TURNS)
            _say(log, f"    Winter: P{p} does not pay; a pawn falls sick")
        else:
            for card in choice:
                discard_resource(state, p, card)
            _say(log, f"    Winter: P{p} discards {option_text('winter', choice)}")


# --------------------------------------------------------------------------------------------
# SG-5.1 positioning, SG-5.2 harvest
# --------------------------------------------------------------------------------------------

def placement_options(state: GameState, p: int, church_used: int, mill_used: int) -> list:
    """SG-5.1: the sets of distinct squares p's available pawns can take (as many pawns as it can
    place), ascending by bit mask (bit s = square s). A terrain whose type has a 0 laid is closed
    (SG-5.2); the Mill is open only with a 0 laid; a full shared square is closed."""
    rules = state.rules
    legal = 0
    for t in range(N_RES):
        if state.laid[p][t] == 0:
            legal |= 1 << t
    cap = rules.param(P_CHURCH_CAP)
    if cap == 0 or church_used < cap:
        legal |= 1 << CHURCH
    cap = rules.param(P_MILL_CAP)
    if sum(state.laid[p]) > 0 and (cap == 0 or mill_used < cap):
        legal |= 1 << MILL
    pawns = rules.param(P_PAWNS) - (1 if state.sick_left[p] > 0 else 0)
    k = min(pawns, bin(legal).count("1"))
    if k <= 0:
        return []
    return [tuple(s for s in range(N_SQUARES) if m >> s & 1)
            for m in range(1 << N_SQUARES) if m & ~legal == 0 and bin(m).count("1") == k]


def harvest(state: GameState, p: int, squares, strategies, rng, log) -> None:
    """SG-5.2: the draws of p's placed pawns, squares in order Field, Forest, River, Church, Mill."""
    rules = state.rules
    for s in squares:
        if s < N_RES:
            n = 1 + (rules.param(P_BONUS) if state.improved[p] == s else 0)
            got = [draw_resource(state, p, s, rng, log) for _ in range(n)]
            _say(log, f"      P{p} harvests {RESOURCE_TYPES[s]}: "
                      + ", ".join("-" if v is None else str(v) for v in got))
        elif s == CHURCH:
            a = draw_censitaire_card(state, rng)
            b = draw_censitaire_card(state, rng) if a is not None else None
            if a is None:
                _say(log, f"      P{p} at the Church: no Censitaire card left")
                continue
            keep, other = a, b
            if b is not None and a != b:
                keep = decide(state, p, "church_keep", [a, b], strategies, rng)
                other = b if keep == a else a
            if other is not None:
                state.cc_pile.insert(0, other)          # under the deck
            state.cc_hand[p][keep] += 1
            _say(log, f"      P{p} at the Church keeps {CENSITAIRE_CARD_NAMES[keep]}"
                      + (f", {CENSITAIRE_CARD_NAMES[other]} goes under the deck" if other is not None else ""))
            hand_limit(state, p, strategies, rng, log)
        else:   # MILL
            for t in range(N_RES):
                n = state.laid[p][t]
                if n:
                    state.laid[p][t] = 0
                    state.res_disc[t][0] += n
                    got = [draw_resource(state, p, t, rng, log) for _ in range(n)]
                    _say(log, f"      P{p} at the Mill discards {n} {RESOURCE_TYPES[t]} 0 and draws "
                              + ", ".join("-" if v is None else str(v) for v in got))


def positioning_and_harvest(state: GameState, strategies, rng, log) -> None:
    """SG-5.1 then SG-5.2 (sick pawns are counted here, SG-4)."""
    church_used = mill_used = 0
    placed = {}
    for p in state.censitaires:
        if state.sick_left[p] > 0:
            state.turns_sick[p] += 1
        squares = decide(state, p, "place", placement_options(state, p, church_used, mill_used),
                         strategies, rng) or ()
        church_used += CHURCH in squares
        mill_used += MILL in squares
        placed[p] = squares
        _say(log, f"    P{p} places on {option_text('place', squares)}"
                  + (" (a pawn is sick)" if state.sick_left[p] > 0 else ""))
    for p in state.censitaires:
        harvest(state, p, placed[p], strategies, rng, log)


# --------------------------------------------------------------------------------------------
# SG-5.3 rent, SG-3 Censitaire cards, SG-5.4 payment
# --------------------------------------------------------------------------------------------

def rent_total(state: GameState) -> int:
    return state.rules.rent(state.n_players, state.improvements_done)


def rent_options(total: int) -> list[tuple[int, int, int]]:
    """SG-5.3: every split (grain, wood, fish) of the rent total, grain then wood ascending."""
    return [(g, w, total - g - w) for g in range(total + 1) for w in range(total - g + 1)]


def set_rent(state: GameState, strategies, rng, log) -> None:
    state.rent = list(decide(state, 0, "rent", rent_options(rent_total(state)), strategies, rng))
    _say(log, f"    Rent: the Seigneur asks grain {state.rent[0]}, wood {state.rent[1]}, "
              f"fish {state.rent[2]}")


def card_window(state: GameState, p: int, strategies, rng, log) -> None:
    """SG-3: Censitaire p plays up to ``play_limit`` Censitaire cards, one at a time."""
    for _ in range(state.rules.param(P_CC_PLAY_LIMIT)):
        options = [STOP] + [k for k in range(3) if state.cc_hand[p][k] and (
            k == RECOLTE or (k == CACHETTE and not state.protected[p])
            or (k == TROC and state.hand_cards(p) > 0))]
        k = decide(state, p, "play_card", options, strategies, rng)
        if k == STOP:
            return
        state.cc_hand[p][k] -= 1
        state.cc_disc[k] += 1
        if k == RECOLTE:
            t = decide(state, p, "recolte_type", [0, 1, 2], strategies, rng)
            # SG-3 [assumption] card_effects: how many cards a Récolte draws (1 in the book's reading)
            vs = [draw_resource(state, p, t, rng, log)
                  for _ in range(state.rules.card_effect(FX_RECOLTE_DRAWS))]
            _say(log, f"      P{p} plays Récolte: draws {RESOURCE_TYPES[t]} {_values_text(vs)}")
        elif k == CACHETTE:
            state.protected[p] = True          # (played this turn: a second Cachette is not an option)
            _say(log, f"      P{p} plays Cachette: its hand is hidden this turn"
                 if state.rules.card_effect(FX_CACHETTE_HIDES)
                 else f"      P{p} plays Cachette (cachette_hides = false: it hides nothing)")
        else:
            card = decide(state, p, "troc_give", state.hand_codes(p), strategies, rng)
            if state.rules.card_effect(FX_TROC_DISCARDS):      # (troc_discards = 0: kept)
                discard_resource(state, p, card)
            t = decide(state, p, "troc_type", [x for x in range(N_RES) if x != card[0]], strategies, rng)
            vs = [draw_resource(state, p, t, rng, log)       # (card_effects: 1 in the book's reading)
                  for _ in range(state.rules.card_effect(FX_TROC_DRAWS))]
            gives = "discards" if state.rules.card_effect(FX_TROC_DISCARDS) else "keeps (troc_discards = 0)"
            _say(log, f"      P{p} plays Troc: {gives} {card_text(card)}, draws "
                      f"{RESOURCE_TYPES[t]} {_values_text(vs)}")


def _values_text(values: list) -> str:
    """The values of the cards a card drew, in the log ("3", "3, 0"; "-": none left to draw)."""
    return ", ".join("-" if v is None else str(v) for v in values) if values else "nothing"


def payment(state: GameState, p: int, strategies, rng, log) -> None:
    """SG-5.4: Censitaire p gives resource cards, one at a time, until it stops."""
    gave = []
    while state.hand_cards(p) > 0:
        card = decide(state, p, "pay", [None] + state.hand_codes(p), strategies, rng)
        if card is None:
            break
        t, v = card
        state.hand[p][t][v] -= 1
        state.received_cards.append(card)
        state.received[t] += v
        state.given[p] += v
        state.paid[p] += v
        gave.append(card)
    _say(log, f"    P{p} pays " + (", ".join(map(card_text, gave)) if gave else "nothing"))


def payment_order(state: GameState) -> list[int]:
    """SG-5.4 ``payment.order``: the Censitaires in the order they pay this turn -- seat order
    ("seat", "simultaneous"), or seat order starting one seat later each turn ("rotating": turn 1
    from Censitaire seat 1, turn 2 from seat 2, …)."""
    cens = state.censitaires
    if state.rules.pay_order != PAY_ROTATING:
        return cens
    k = (state.turns - 1) % len(cens)
    return cens[k:] + cens[:k]


def payments(state: GameState, strategies, rng, log) -> None:
    """SG-5.4: the Censitaires pay in :func:`payment_order`. Under ``payment.order =
    "simultaneous"`` (the book's hourglass) every Censitaire chooses from the position before anyone
    paid this turn: while it pays, ``state.received`` shows only what it gave itself; what the others
    gave is added once all have paid."""
    order = payment_order(state)
    if state.rules.pay_order == PAY_ROTATING:
        _say(log, f"    Payment in turn, P{order[0]} first")
    if state.rules.pay_order != PAY_SIMULTANEOUS:
        for p in order:
            payment(state, p, strategies, rng, log)
        return
    _say(log, "    Payment at once: no Censitaire sees what the others give")
    before = list(state.received)                 # the position before anyone pays
    total = list(state.received)
    for p in order:
        state.received = list(before)
        payment(state, p, strategies, rng, log)
        total = [total[t] + state.received[t] - before[t] for t in range(N_RES)]
    state.received = total


# --------------------------------------------------------------------------------------------
# SG-5.5 accounting
# --------------------------------------------------------------------------------------------

def rent_met(state: GameState) -> bool:
    return all(state.received[t] >= state.rent[t] for t in range(N_RES))


def seigneur_card_window(state: GameState, strategies, rng, log) -> None:
    """SG-3 / SG-7: the Seigneur plays Seigneur cards, one at a time (Réquisition only when short)."""
    while True:
        options = [STOP]
        if state.sc_hand[REQUISITION] and not rent_met(state):
            options.append(REQUISITION)
        if state.sc_hand[CORVEE] and any(state.hand_cards(p) for p in state.censitaires):
            options.append(CORVEE)
        k = decide(state, 0, "seigneur_card", options, strategies, rng)
        if k == STOP:
            return
        state.sc_hand[k] -= 1
        state.sc_disc[k] += 1
        if k == REQUISITION:
            n = state.rules.card_effect(FX_REQUISITION_DRAWS)    # (card_effects: 1 in the book)
            state.extra_draws += n
            _say(log, "      the Seigneur plays Réquisition: "
                      + ("one extra forced draw" if n == 1 else f"{n} extra forced draws"))
        else:
            q = decide(state, 0, "corvee_target",
                       [p for p in state.censitaires if state.hand_cards(p)], strategies, rng)
            gone = []
            for _ in range(state.rules.card_effect(FX_CORVEE_DISCARDS)):   # (1 in the book)
                if not state.hand_cards(q):
                    break
                card = state.card_at(q, rng.below(state.hand_cards(q)))
                discard_resource(state, q, card)
                gone.append(card_text(card))
            _say(log, f"      the Seigneur plays Corvée on P{q}: it discards "
                      f"{', '.join(gone) if gone else 'nothing'}")


def forced_draw(state: GameState, p: int, rng: PyStream, log, what: str = "forced draw") -> None:
    """SG-5.5: a random card of p's hand; kept if its type is still missing, else given back
    (``what``: how the log names the draw, "Réquisition draw" for a Réquisition's, SG-3)."""
    t, v = state.card_at(p, rng.below(state.hand_cards(p)))
    if state.received[t] < state.rent[t]:
        state.hand[p][t][v] -= 1
        state.received_cards.append((t, v))
        state.received[t] += v
        state.seized[p] += v
        _say(log, f"      {what} from P{p}: {card_text((t, v))}, kept")
    else:
        _say(log, f"      {what} from P{p}: {card_text((t, v))}, given back")


def forced_draws(state: GameState, strategies, rng, log) -> None:
    """SG-5.5 short rent: Censitaires not hidden by a Cachette, those who gave least first (ties:
    the Seigneur's choice), at most 1 draw each before the improvements, 2 after; then one draw
    per Réquisition from a Censitaire of his choice; he stops once the rent is met."""
    rules = state.rules
    limit = rules.param(P_FORCED_AFTER if state.improvements_done else P_FORCED_BEFORE)
    hidden = state.protected if rules.card_effect(FX_CACHETTE_HIDES) else [False] * state.n_players
    unvisited = [p for p in state.censitaires if not hidden[p]]
    while unvisited and not rent_met(state):
        least = min(state.given[p] for p in unvisited)
        p = decide(state, 0, "draw_order", [q for q in unvisited if state.given[q] == least],
                   strategies, rng)
        unvisited.remove(p)
        for _ in range(limit):
            if rent_met(state) or state.hand_cards(p) == 0:
                break
            forced_draw(state, p, rng, log)
    for _ in range(state.extra_draws):
        if rent_met(state):
            break
        eligible = [p for p in state.censitaires if not hidden[p] and state.hand_cards(p)]
        if not eligible:
            break
        forced_draw(state, decide(state, 0, "requisition_target", eligible, strategies, rng), rng, log,
                    "Réquisition draw")


def award_favour(state: GameState, met_voluntarily: bool, strategies, rng, log) -> None:
    """SG-5.4 / SG-5.5: favour points, then every ``per_card`` points become a Censitaire card."""
    rules = state.rules
    points = [0] * state.n_players
    if met_voluntarily and rules.param(P_FAVOUR_DISTRIBUTION):
        left = rent_total(state)
        while left > 0:
            eligible = [p for p in state.censitaires if state.given[p] - points[p] > 0]
            room = sum(state.given[p] - points[p] for p in eligible)
            if len(eligible) == 1 or room <= left:
                for p in eligible:
                    k = min(state.given[p] - points[p], left)
                    points[p] += k
                    left -= k
                break
            p = decide(state, 0, "favour", eligible, strategies, rng)
            points[p] += 1
            left -= 1
        _say(log, "    Favour from the Seigneur: " + ", ".join(f"P{p} {points[p]}" for p in state.censitaires))
    else:
        for p in state.censitaires:
            points[p] = state.given[p]
    per_card = rules.param(P_FAVOUR_PER_CARD)
    for p in state.censitaires:
        state.favour_earned[p] += points[p]
        state.favour_held[p] += points[p]
        while state.favour_held[p] >= per_card:
            state.favour_held[p] -= per_card
            k = draw_censitaire_card(state, rng)
            if k is not None:
                state.cc_hand[p][k] += 1
                _say(log, f"      P{p} exchanges {per_card} favour for a {CENSITAIRE_CARD_NAMES[k]}")
                hand_limit(state, p, strategies, rng, log)


def accounting(state: GameState, strategies, rng, log) -> bool:
    """SG-5.5; returns whether the whole rent was received."""
    met_voluntarily = rent_met(state)
    seigneur_card_window(state, strategies, rng, log)
    if not rent_met(state):
        forced_draws(state, strategies, rng, log)
    award_favour(state, met_voluntarily, strategies, rng, log)
    if not state.received_cards:
        k = draw_seigneur_card(state, rng)
        if k is not None:
            state.sc_hand[k] += 1
        _say(log, "    the Seigneur received nothing: draws a Seigneur card")
    for t, v in state.received_cards:
        state.res_disc[t][v] += 1
    met = rent_met(state)
    _say(log, f"    Accounting: received grain {state.received[0]}, wood {state.received[1]}, "
              f"fish {state.received[2]}: rent {'met' if met else 'short'}")
    state.received_cards = []
    return met


# --------------------------------------------------------------------------------------------
# SG-5.6 progress, SG-6 victory, one turn
# --------------------------------------------------------------------------------------------

def progress(state: GameState, met: bool, strategies, rng, log) -> None:
    """SG-5.6: one square for the whole rent; at the midpoint each Censitaire improves a terrain."""
    if not met:
        return
    state.square += 1
    _say(log, f"    the Seigneur advances to square {state.square}")
    if not state.improvements_done and state.square >= state.rules.midpoint(state.n_players):
        state.improvements_done = True
        state.improvement_turn = state.turns
        for p in state.censitaires:
            state.improved[p] = decide(state, p, "improve", [0, 1, 2], strategies, rng)
            _say(log, f"    land improvement: P{p} improves its {SQUARE_NAMES[state.improved[p]]}")


def victory(state: GameState, strategies, rng, log) -> None:
    """SG-6 at the end of a turn: the Seigneur on the goal square wins -- ``seigneur_goal`` when no
    Censitaire holds its objective, ``seigneur_goal_over_objective`` when one does (the tie-break
    "Seigneur and Censitaire on the same turn: the Seigneur wins"); else a Censitaire holding its
    objective; several: most resources, still tied: the Seigneur's pick. The turn bound ends the
    game as ``truncated``."""
    if state.square >= state.rules.goal(state.n_players):
        over = any(state.holds_objective(p) for p in state.censitaires)
        state.end_reason = SEIGNEUR_GOAL_OVER_OBJECTIVE if over else SEIGNEUR_GOAL
        state.winner = 0
    else:
        done = [p for p in state.censitaires if state.holds_objective(p)]
        if done:
            best = max(state.total_resources(p) for p in done)
            tied = [p for p in done if state.total_resources(p) == best]
            state.winner = decide(state, 0, "tie_winner", tied, strategies, rng)
            state.end_reason = CENSITAIRE_OBJECTIVE
        elif state.turns >= state.rules.max_turns:
            state.end_reason, state.winner = TRUNCATED, -1
    if state.end_reason is not None:
        _say(log, f"Game over after turn {state.turns}: {end_words(state.end_reason)}"
                  + (f", P{state.winner} wins" if state.winner >= 0 else ", the Censitaires share the win"))
        raise GameOver


def play_turn(state: GameState, strategies: list, rng: PyStream, log: list | None = None) -> None:
    """One season (SG-4, SG-5, SG-6)."""
    state.turns += 1
    season = state.season()
    rules = state.rules
    P = state.n_players
    _say(log, f"Turn {state.turns} ({SEASONS[season]}), Seigneur on square {state.square}")
    for p in state.censitaires:
        _say(log, f"  P{p}: {hand_text(state, p)}; cards " + (" ".join(
            f"{CENSITAIRE_CARD_NAMES[k]}x{n}" for k, n in enumerate(state.cc_hand[p]) if n) or "-"))
    state.received = [0] * N_RES
    state.received_cards = []
    state.given = [0] * P
    state.protected = [False] * P
    state.extra_draws = 0
    if season == 0:
        for _ in range(rules.seigneur_cards_per_year(P)):
            k = draw_seigneur_card(state, rng)
            if k is not None:
                state.sc_hand[k] += 1
        _say(log, f"    Spring: the Seigneur holds Réquisition x{state.sc_hand[0]}, "
                  f"Corvée x{state.sc_hand[1]}")
    if season == WINTER:
        winter(state, strategies, rng, log)
    positioning_and_harvest(state, strategies, rng, log)
    set_rent(state, strategies, rng, log)
    for p in state.censitaires:
        card_window(state, p, strategies, rng, log)
    payments(state, strategies, rng, log)
    met = accounting(state, strategies, rng, log)
    progress(state, met, strategies, rng, log)
    if season == WINTER:
        for k in range(2):
            state.sc_disc[k] += state.sc_hand[k]
            state.sc_hand[k] = 0
    for p in state.censitaires:
        if state.sick_left[p] > 0:
            state.sick_left[p] -= 1
    victory(state, strategies, rng, log)


# --------------------------------------------------------------------------------------------
# Invariants, scoring, a whole game
# --------------------------------------------------------------------------------------------

def check_invariants(state: GameState) -> None:
    """Debug: resource cards conserved per type and value over piles, discards, hands, laid cards
    and the Seigneur's pile; Censitaire and Seigneur cards conserved; favour held below one card's
    worth; the Seigneur's square within the track."""
    rules = state.rules
    counts = state.resource_card_counts()
    expected = rules.resource_counts.tolist()
    if counts != expected:
        raise AssertionError(f"resource cards not conserved: {counts} != {expected}")
    cc = [state.cc_pile.count(k) + state.cc_disc[k] + sum(state.cc_hand[p][k] for p in range(state.n_players))
          for k in range(3)]
    if cc != rules.censitaire_counts.tolist():
        raise AssertionError(f"Censitaire cards not conserved: {cc}")
    sc = [state.sc_pile.count(k) + state.sc_disc[k] + state.sc_hand[k] for k in range(2)]
    if sc != rules.seigneur_counts.tolist():
        raise AssertionError(f"Seigneur cards not conserved: {sc}")
    for p in state.censitaires:
        if not 0 <= state.favour_held[p] < rules.param(P_FAVOUR_PER_CARD):
            raise AssertionError(f"P{p} holds {state.favour_held[p]} favour points")
        if sum(state.cc_hand[p]) > rules.param(P_CC_HAND_LIMIT):
            raise AssertionError(f"P{p} holds {sum(state.cc_hand[p])} Censitaire cards")
        if min(min(row) for row in state.hand[p]) < 0:
            raise AssertionError(f"P{p} holds a negative count of cards")
    if not 0 <= state.square <= rules.goal(state.n_players):
        raise AssertionError(f"the Seigneur is on square {state.square}")


def progress_percent(state: GameState, p: int) -> int:
    """The score: progress toward the seat's own goal, percent (floor)."""
    if p == 0:
        return min(100, 100 * state.square // state.rules.goal(state.n_players))
    req = state.requirement(p)
    got = sum(min(state.resources(p, t), req[t]) for t in range(N_RES))
    return 100 * got // sum(req)


def score_game(state: GameState) -> tuple[list[float], list[int], list[int]]:
    """SG-6: win shares (the winner 1; truncated: the Censitaires 1/C each), scores and ranks by
    (win share, score)."""
    P = state.n_players
    if state.winner >= 0:
        share = [1.0 if s == state.winner else 0.0 for s in range(P)]
    else:
        share = [0.0] + [1.0 / (P - 1)] * (P - 1)
    score = [progress_percent(state, s) for s in range(P)]
    key = list(zip(share, score))
    rank = [1 + sum(1 for q in range(P) if key[q] > key[s]) for s in range(P)]
    return share, score, rank


def play_game(rules: RulesArrays, n_players: int, seed: int, game: int, strategies=None,
              log: list | None = None, debug: bool = False) -> GameRecord:
    """Play one game with stream ``PyStream(seed, game)``; return its SG-8 record."""
    if strategies is None:
        strategies = [RandomStrategy() for _ in range(n_players)]
    if len(strategies) != n_players:
        raise ValueError(f"need {n_players} strategies, got {len(strategies)}")
    rng = PyStream(seed, game)
    _say(log, f"Seigneurial reference game: {n_players} players, seed {seed}, game {game}")
    state = setup_game(rules, n_players, rng, log)
    if debug:
        check_invariants(state)
    try:
        while True:
            play_turn(state, strategies, rng, log)
            if debug:
                check_invariants(state)
    except GameOver:
        pass
    if debug:
        check_invariants(state)
    share, score, rank = score_game(state)
    P = n_players
    for s in range(P):
        _say(log, f"  P{s}: {'Seigneur' if s == 0 else 'Censitaire'}; progress {score[s]}%; "
                  f"rank {rank[s]}, win share {share[s]:.4g}")
    return GameRecord(
        score=np.array(score, np.int16),
        win_share=np.array(share, np.float32),
        rank=np.array(rank, np.int8),
        resources=np.array([[state.resources(s, t) for t in range(N_RES)] for s in range(P)], np.int16),
        favour=np.array(state.favour_earned, np.int16),
        turns_sick=np.array(state.turns_sick, np.int16),
        objective=np.array(state.objective, np.int8),
        paid=np.array(state.paid, np.int16),
        seized=np.array(state.seized, np.int16),
        turns=state.turns, end_reason=int(state.end_reason), winner=state.winner,
        square=state.square, improvement_turn=state.improvement_turn,
        decisions=list(state.decisions),
    )


def record_table(record: GameRecord) -> list[str]:
    """The final SG-8 table of a record, one line per seat (used by the golden file and ``balance
    replay``).

    The ``objective`` column names the card as the log's setup lines and the reports' Objective-card
    table do (:func:`objective_number`, from #1), not by the record's 0-based index (players.parquet's
    value): one file numbering the same card #12 in its header and 11 in its table sent a designer to
    the wrong row of the report's card table. The Seigneur, who holds no card (index -1), shows ``-``.
    Only the text changes: the replay checks the record's own arrays against the run's row."""
    lines = ["seat role        share rank score grain wood fish favour sick objective paid seized"]
    for s in range(record.score.shape[0]):
        role = "seigneur" if s == 0 else "censitaire"
        card = int(record.objective[s])
        card_text = objective_number(card) if card >= 0 else "-"
        lines.append(f"P{s:<3} {role:<10} {float(record.win_share[s]):5.3f} {int(record.rank[s]):4d} "
                     f"{int(record.score[s]):5d} " + " ".join(f"{int(x):5d}" for x in record.resources[s])
                     + f" {int(record.favour[s]):6d} {int(record.turns_sick[s]):4d} "
                       f"{card_text:>9} {int(record.paid[s]):4d} {int(record.seized[s]):6d}")
    lines.append(f"turns: {record.turns}; end: {end_words(record.end_reason)}; winner: "
                 f"{'P' + str(record.winner) if record.winner >= 0 else 'the Censitaires'}; "
                 f"Seigneur's square: {record.square}; "
                 + (f"improvements at turn {record.improvement_turn}; " if record.improvement_turn >= 0
                    else "improvements: never; ")
                 + f"decisions: {len(record.decisions)}")
    return lines


# ---------------------------------------------------------------------------------------------
# How the game was decided (SG-6), for ``balance replay`` (simcore.replay.ending_lines)
# ---------------------------------------------------------------------------------------------

def _seats(seats) -> str:
    """``P2``, ``P2 and P3``, ``P2, P3 and P4`` (1-based, as the log prints seats)."""
    names = [f"P{s + 1}" for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _holdings(seats, total) -> str:
    """``P2's 10`` / ``P2's 10 and P3's 12``: the resources each of ``seats`` held."""
    said = [f"P{s + 1}'s {total[s]}" for s in seats]
    if not said:
        return ""
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]


# SG-6 (shared/rules/seigneurial.md), in the rule's words (its tie-break: spec.SG6_SAME_TURN)
_SG6_MOST = "Several Censitaires: the one with most resources"
_SG6_PICK = "still tied: chosen at random (the Seigneur's pick)"


def ending_words(rules, record, P: int) -> list[str]:
    """SG-6 at the end of the last turn, read from the final record (what the victory check saw:
    the game ends on that check): the Seigneur on the goal square wins, even when a Censitaire holds
    its objective on the same turn (``seigneur_goal_over_objective``; a run written before that end
    reason existed calls it ``seigneur_goal`` too, read here from the holdings); else a Censitaire
    holding its objective; several: the one with
    most resources (card values summed), still tied: the Seigneur's pick; the 200-turn bound
    (``truncated``) is a Seigneur loss whose win the Censitaires share. A winner the final
    holdings do not explain is said as such, never explained by a rule that did not decide it."""
    end = END_REASONS[int(record.end_reason)] if 0 <= int(record.end_reason) < len(END_REASONS) \
        else str(record.end_reason)
    T, w = int(record.turns), int(record.winner)
    total = {s: int(np.asarray(record.resources[s]).sum()) for s in range(1, P)}
    holders = [s for s in range(1, P)
               if all(int(record.resources[s][t]) >= int(x)
                      for t, x in enumerate(rules.objectives[int(record.objective[s])]))]
    head = f"How the game was decided (SG-6), at the end of turn {T}: "
    if end == "truncated":
        C = P - 1
        return [head + f"the turn limit ({int(rules.max_turns)} turns) was reached with no winner; "
                f"the game is truncated, counted as a Seigneur loss, and the {C} Censitaires share "
                f"the win (1/{C} each)."]
    if end in ("seigneur_goal", "seigneur_goal_over_objective") and w == 0 \
            and (end == "seigneur_goal" or holders):
        # (a run written before the tie-break had its own reason called both seigneur_goal)
        goal = f"the Seigneur reached the goal square ({int(rules.goal(P))})"
        if not holders:
            return [head + f"{goal} and no Censitaire held its objective: the Seigneur wins."]
        held = "held its objective" if len(holders) == 1 else "held their objectives"
        return [head + f"{goal} and {_seats(holders)} {held}; the tie-break \"{SG6_SAME_TURN}\" "
                f"gave the win to the Seigneur."]
    if end == "censitaire_objective" and w in holders:
        if holders == [w]:
            return [head + f"P{w + 1} alone held its objective: a Censitaire holding its objective "
                    "wins; no tie to break."]
        best = max(total[s] for s in holders)
        tied = [s for s in holders if total[s] == best]
        held = f"{_seats(holders)} held their objectives"
        behind = _holdings([s for s in holders if s not in tied], total)      # ("" when all tied)
        if tied == [w]:
            return [head + f"{held}; the tie-break \"{_SG6_MOST}\" gave the win to P{w + 1}, "
                    f"with {best} resources (against {behind})."]
        if w in tied:
            most = (f"each held {best} resources" if len(tied) == len(holders) else
                    f"{_seats(tied)} held the most, {best} each (against {behind})")
            return [head + f"{held} and {most}: \"{_SG6_MOST}; {_SG6_PICK}\": the Seigneur "
                    f"picked P{w + 1}, who wins."]
    who = "the Seigneur" if w == 0 else f"P{w + 1}" if w > 0 else "no single seat"
    return [head + f"{end_words(record.end_reason)}, {who} wins; the final holdings do not show which part of "
            "SG-6 decided it."]
