"""Slow, readable pure-Python reference engine of Médiévallons (spec: shared/rules/medievallons.md).

Its job is to be obviously right, not fast: every rule MV-2 … MV-7 is a small function on a mutable
:class:`GameState` that tests can build by hand, and :func:`play_game` plays one whole game. It
draws randomness and lists legal options exactly as ``docs/medievallons_engine.md`` prescribes, so
for the same (seed, game) and the same decisions it plays the very game the Numba kernel plays; it
replays any kernel bot with :class:`ReplayStrategy`. It may import only the standard library, numpy,
:mod:`simcore.rng`, :mod:`simcore.reference_strategies`, :mod:`simcore.games.medievallons.rules`,
:func:`simcore.contract.code_words` and the end reasons' words of
:mod:`simcore.games.medievallons.spec` (kernel-free).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from simcore.games.medievallons.rules import (
    ARTISAN, ASSASSIN, BOUFFON, CARD_NAMES, CHEVALIER, ETOILE, MAGICIEN, MARCHAND, MAX_PLAYERS,
    MENDIANT, MIN_PLAYERS, MOINE, N_TYPES, NOBLE, P_ARTISAN_TAKES_PLAYED, P_MENDIANT_DRAWS_ON_TIE,
    P_SORCIERE_FLIP_AGAIN, POWER_TYPES, PRETRE, RODEUR, SORCIERE, RulesArrays, with_article,
)
from simcore.contract import code_words
from simcore.games.medievallons.spec import END_WORDS
from simcore.reference_strategies import RandomStrategy, ReplayStrategy  # noqa: F401 (re-exported)
from simcore.rng import PyStream

# MV-9 end reasons: the int8 code of games.parquet and its name (run.json meta).
THIRD_GUILD, EMPTY_PILE, TRUNCATED = 0, 1, 2
END_REASONS = ("third_guild", "empty_pile", "truncated")


def end_words(code: int) -> str:
    """An end reason in the words the reports show for it (:func:`simcore.contract.code_words` of the spec's ``END_WORDS``: "Guild goal
    reached", "Draw pile ran out", "Turn limit reached"; else the name capitalised); the log and
    the final table a designer reads in ``balance replay`` say these, not the run.json name."""
    return code_words(END_REASONS, END_WORDS, code)

# Decision kinds (MV-8), the ``kind`` argument of ``Strategy.choose`` (docs/medievallons_engine.md).
DECISION_KINDS = ("action", "found_size", "reinforce_type", "reinforce_size", "assassin", "rodeur",
                  "chevalier", "magicien_keep", "marchand_partner", "give_two", "mendiant_target",
                  "give_one", "pretre_partner", "pretre_take", "sorciere")
# Each decision kind in the rules' words (MV-3, MV-5), as ``balance replay`` and the golden
# playthrough name a decision (:func:`simcore.golden.decision_words`; the kind is the trace's name).
DECISION_WORDS = {
    "action": "action", "found_size": "found a guild: how many cards",
    "reinforce_type": "reinforce a Bouffon guild: type", "reinforce_size": "reinforce a guild: how many cards",
    "assassin": "Assassin: card to discard", "rodeur": "Rôdeur: card to take",
    "chevalier": "Chevalier: player and card asked", "magicien_keep": "Magicien: card to keep",
    "marchand_partner": "Marchand: partner", "give_two": "Marchand: two cards to give",
    "give_one": "card to give", "mendiant_target": "Mendiant: player to take from",
    "pretre_partner": "Prêtre: hand to look at", "pretre_take": "Prêtre: card to take",
    "sorciere": "Sorcière: guild power to copy",
}

PLAYED, GUILD = "played", "guild"        # where a power comes from (Assassin/Rôdeur without target)


class GameOver(Exception):
    """Raised the moment the game ends (MV-6 empty pile, MV-7 third guild); unwinds every power."""


# --------------------------------------------------------------------------------------------
# State
# --------------------------------------------------------------------------------------------

@dataclass
class Guild:
    """MV-4: a guild on the table. ``type`` is None for a guild of Bouffons only."""

    type: int | None
    n_type: int
    n_bouffon: int

    @property
    def size(self) -> int:
        return self.n_type + self.n_bouffon

    def label(self) -> str:
        name = CARD_NAMES[self.type] if self.type is not None else "Bouffons"
        return f"{name}[{self.n_type}+{self.n_bouffon}B]" if self.n_bouffon else f"{name}[{self.n_type}]"


class GameState:
    """Everything on the table during one game (built by :func:`setup_game` or by hand in tests).

    Piles are lists of card types whose **last element is the top**. ``hands[p][t]`` counts the
    cards of type t in p's hand; ``guilds[p]`` lists p's guilds in founding order.
    """

    def __init__(self, rules: RulesArrays, n_players: int) -> None:
        if not MIN_PLAYERS <= n_players <= MAX_PLAYERS:
            raise ValueError(f"Médiévallons needs {MIN_PLAYERS}-{MAX_PLAYERS} players, got {n_players}")
        P = n_players
        self.rules = rules
        self.n_players = P
        self.pile: list[int] = []
        self.discard: list[int] = []
        self.end_red = rules.end_card_red(P)
        self.hands: list[list[int]] = [[0] * N_TYPES for _ in range(P)]
        self.guilds: list[list[Guild]] = [[] for _ in range(P)]
        self.played: list[int] = []          # MV-3: the card being played, until it is discarded
        self.look: list[int] = []            # MV-5 Magicien: cards drawn, not yet kept or discarded
        self.turns = 0
        self.current = 0                     # seat to act next
        self.reshuffles = 0
        self.end_reason: int | None = None
        self.winner: int | None = None       # MV-7: the player who founded the winning guild
        self.founded = [[0] * N_TYPES for _ in range(P)]
        self.powers = [[0] * N_TYPES for _ in range(P)]
        self.decisions: list[tuple[str, int, int]] = []

    # --- queries ---
    def hand_size(self, seat: int) -> int:
        return sum(self.hands[seat])

    def guild_cards(self, seat: int) -> int:
        return sum(g.size for g in self.guilds[seat])

    def opponents(self, seat: int) -> list[int]:
        """Opponents in turn order: seat + 1, seat + 2, … (mod P)."""
        return [(seat + i) % self.n_players for i in range(1, self.n_players)]

    def card_counts(self) -> list[int]:
        """Cards of each type anywhere in the game (conservation check)."""
        c = [0] * N_TYPES
        for t in self.pile + self.discard + self.played + self.look:
            c[t] += 1
        for p in range(self.n_players):
            for t in range(N_TYPES):
                c[t] += self.hands[p][t]
            for g in self.guilds[p]:
                c[BOUFFON] += g.n_bouffon
                if g.type is not None:
                    c[g.type] += g.n_type
        return c

    # --- hand-building helpers (tests) ---
    def give(self, seat: int, *types: int) -> None:
        for t in types:
            self.hands[seat][t] += 1


@dataclass
class GameRecord:
    """MV-9: what one game records, with the kernel's dtypes and shapes."""

    score: np.ndarray          # int32[P] cards in guilds at the end
    win_share: np.ndarray      # float32[P]
    rank: np.ndarray           # int8[P]
    guilds: np.ndarray         # int8[P] guilds on the table at the end
    hand: np.ndarray           # int16[P] cards in hand at the end
    founded: np.ndarray        # int8[P, 13] guilds founded per type
    powers: np.ndarray         # int16[P, 13] powers resolved per type (Bouffon column always 0)
    turns: int
    end_reason: int
    reshuffles: int
    decisions: list = field(default_factory=list)   # (kind, n_options, chosen index) in order


# --------------------------------------------------------------------------------------------
# Logging helpers
# --------------------------------------------------------------------------------------------

def _say(log: list | None, text: str) -> None:
    if log is not None:
        log.append(text)


def a_card(t: int) -> str:
    """Card type ``t`` with its article: "a Prêtre", "an Étoile" (:func:`rules.with_article`)."""
    return with_article(CARD_NAMES[t])


def hand_text(hand: list[int]) -> str:
    parts = [f"{CARD_NAMES[t]}x{n}" if n > 1 else CARD_NAMES[t] for t, n in enumerate(hand) if n]
    return " ".join(parts) if parts else "(empty)"


def option_text(kind: str, option) -> str:
    if kind == "action":
        what, arg = option
        return f"{what} {CARD_NAMES[arg]}" if what in ("play", "found") else f"{what} guild {arg + 1}"
    if kind in ("reinforce_type", "magicien_keep", "give_one", "pretre_take", "sorciere"):
        return CARD_NAMES[option]
    if kind == "give_two":
        return f"{CARD_NAMES[option[0]]} + {CARD_NAMES[option[1]]}"
    if kind == "chevalier":
        return f"P{option[0]} for {a_card(option[1])}"
    if kind in ("assassin", "rodeur"):
        return f"P{option[0]} guild {option[1] + 1} ({'a Bouffon' if option[2] else 'a type card'})"
    if kind in ("found_size", "reinforce_size"):
        return f"{option[0]} + {option[1]} Bouffon(s)"
    return f"P{option}"


# --------------------------------------------------------------------------------------------
# Decisions (MV-8)
# --------------------------------------------------------------------------------------------

def decide(state: GameState, seat: int, kind: str, options: list, strategies: list,
           rng: PyStream, log: list | None = None):
    """Ask the seat's strategy for one of ``options`` (None, without a draw, when there is none)."""
    if not options:
        return None
    idx = strategies[seat].choose(kind, options, state, seat, rng)
    if not 0 <= idx < len(options):
        raise ValueError(f"strategy of seat {seat} returned {idx} for {len(options)} {kind} options")
    state.decisions.append((kind, len(options), idx))
    return options[idx]


def types_in(hand: list[int]) -> list[int]:
    return [t for t in range(N_TYPES) if hand[t] > 0]


def pairs_in(hand: list[int]) -> list[tuple[int, int]]:
    """``give_two`` options: unordered pairs a <= b of cards in the hand."""
    return [(a, b) for a in range(N_TYPES) for b in range(a, N_TYPES)
            if hand[a] and hand[b] and (a != b or hand[a] >= 2)]


# --------------------------------------------------------------------------------------------
# MV-6 drawing, MV-2 setup
# --------------------------------------------------------------------------------------------

def end_game(state: GameState, reason: int, winner: int | None = None) -> None:
    """MV-6 / MV-7: the game ends at once; unwinds whatever is resolving."""
    state.end_reason = reason
    state.winner = winner
    raise GameOver


def _reshuffle_if_red(state: GameState, rng: PyStream, log: list | None) -> None:
    """MV-6, the End card showing: a red one turns yellow and the discard pile except its top card
    is shuffled into a new draw pile."""
    if state.end_red:
        state.end_red = False
        state.reshuffles += 1
        rest, state.discard = state.discard[:-1], state.discard[-1:]
        rng.shuffle(rest)
        state.pile = rest
        _say(log, f"      End card turns yellow: {len(rest)} discarded cards reshuffled into the draw pile")


def _end_if_empty(state: GameState) -> bool:
    """MV-6: the draw pile is empty and the End card yellow (the game ends)?"""
    return not state.pile and not state.end_red


def draw_card(state: GameState, rng: PyStream, log: list | None = None, put=None) -> int:
    """MV-6: take the top card of the draw pile; a red End card reshuffles the discards once.

    ``put(t)`` puts the card where the draw puts it (a hand, the Magicien's look zone, the
    Sorcière's discard; None: the caller does). Returns the card type; ends the game (GameOver)
    when the End card shows yellow: ``end_card_timing = "empty_draw"`` (the spec) when the draw
    finds the pile empty; ``"last_card_taken"`` (the book) the moment the last card is taken --
    a red End card reshuffles then, before the card lands; a yellow one ends the game once the card
    is put.
    """
    if not state.pile:
        _reshuffle_if_red(state, rng, log)
    if not state.pile:
        _say(log, "      the draw pile is empty and the End card yellow: the game ends")
        end_game(state, EMPTY_PILE)
    t = state.pile.pop()
    book = state.rules.end_on_last_card
    if book and not state.pile:
        _say(log, f"      the last card of the draw pile is taken ({CARD_NAMES[t]}): the End card shows")
        _reshuffle_if_red(state, rng, log)
    if put is not None:
        put(t)
    if book and _end_if_empty(state):
        _say(log, "      the draw pile is empty and the End card yellow: the game ends")
        end_game(state, EMPTY_PILE)
    return t


def draw_to_hand(state: GameState, seat: int, rng: PyStream, log: list | None = None) -> int:
    def put(t: int) -> None:
        state.hands[seat][t] += 1

    return draw_card(state, rng, log, put)


def setup_game(rules: RulesArrays, n_players: int, rng: PyStream,
               log: list | None = None) -> GameState:
    """MV-2: shuffle the deck, deal ``hand_size`` rounds from seat 0, turn the top card face up."""
    state = GameState(rules, n_players)
    deck = [t for t in range(N_TYPES) for _ in range(int(rules.copies[t]))]
    rng.shuffle(deck)
    state.pile = deck
    hands = [rules.hand(seat) for seat in range(n_players)]
    for r in range(max(hands)):        # per-seat hands: a seat stops once it has its own count
        for seat in range(n_players):
            if r < hands[seat]:
                state.hands[seat][state.pile.pop()] += 1
    state.discard.append(state.pile.pop())
    _say(log, f"Setup: {n_players} players, {len(deck) + sum(hands) + 1} cards, "
              f"End card {'red' if state.end_red else 'yellow'} side up")
    for seat in range(n_players):
        _say(log, f"  P{seat} hand: {hand_text(state.hands[seat])}")
    _say(log, f"  discard: {CARD_NAMES[state.discard[-1]]}; draw pile {len(state.pile)} cards")
    if rules.end_on_last_card and not state.pile:     # the card turned face up was the last
        _reshuffle_if_red(state, rng, log)
        if _end_if_empty(state):
            _say(log, "      the draw pile is empty and the End card yellow: the game ends")
            state.end_reason = EMPTY_PILE
    return state


# --------------------------------------------------------------------------------------------
# MV-4 guilds
# --------------------------------------------------------------------------------------------

def remove_from_guild(state: GameState, owner: int, g: int, bouffon: int,
                      log: list | None = None) -> int:
    """Take one card (a Bouffon, or a card of the guild's type) out of guild g; break it (MV-4) if
    it falls below ``min_cards``: its other cards go back to the owner's hand. Returns the card."""
    guild = state.guilds[owner][g]
    if bouffon:
        guild.n_bouffon -= 1
        card = BOUFFON
    else:
        guild.n_type -= 1
        card = guild.type
        if guild.n_type == 0:
            guild.type = None
    if guild.size < state.rules.min_guild:
        del state.guilds[owner][g]
        if guild.type is not None:
            state.hands[owner][guild.type] += guild.n_type
        state.hands[owner][BOUFFON] += guild.n_bouffon
        _say(log, f"      P{owner}'s guild {g + 1} breaks up: {guild.size} card(s) back to the hand")
    return card


def copyable_types(state: GameState) -> list[int]:
    """MV-5 Sorcière: types of the guilds on the table with a power to copy (not Sorcière)."""
    found = {g.type for gs in state.guilds for g in gs if g.type is not None and g.type != SORCIERE}
    return sorted(found)


def guild_card_options(state: GameState, seat: int) -> list[tuple[int, int, int]]:
    """MV-5 Assassin / Rôdeur: (owner, guild, bouffon) over the opponents' guilds."""
    options = []
    for q in state.opponents(seat):
        for g, guild in enumerate(state.guilds[q]):
            if guild.n_type > 0:
                options.append((q, g, 0))
            if guild.n_bouffon > 0:
                options.append((q, g, 1))
    return options


# --------------------------------------------------------------------------------------------
# MV-5 powers
# --------------------------------------------------------------------------------------------

def power_artisan(state, seat, source, strategies, rng, log):
    """Artisan: the top card of the discard pile to the hand (the played card is not on it yet);
    with ``artisan_takes_played_card`` the card just played comes back instead, unless a played
    Sorcière turned this Artisan over (then on top of the played card: the Sorcière passes the
    source ``GUILD``)."""
    if state.rules.param(P_ARTISAN_TAKES_PLAYED) and source == PLAYED and state.played:
        t = state.played.pop()
        state.hands[seat][t] += 1
        _say(log, f"      Artisan: takes back the played {CARD_NAMES[t]}")
    elif state.discard:
        t = state.discard.pop()
        state.hands[seat][t] += 1
        _say(log, f"      Artisan: takes the {CARD_NAMES[t]} on top of the discard pile")
    else:
        _say(log, "      Artisan: the discard pile is empty")


def _no_target(state, seat, source, rng, log, name):
    """MV-5: Assassin or Rôdeur with no opposing guild: a played card is replaced by a draw."""
    if source == PLAYED:
        _say(log, f"      {name}: no opposing guild; draws a replacement card")
        draw_to_hand(state, seat, rng, log)
    else:
        _say(log, f"      {name}: no opposing guild; nothing happens")


def power_assassin(state, seat, source, strategies, rng, log):
    """Assassin: a card of an opponent's guild goes to the discard pile (the guild may break)."""
    choice = decide(state, seat, "assassin", guild_card_options(state, seat), strategies, rng)
    if choice is None:
        _no_target(state, seat, source, rng, log, "Assassin")
        return
    q, g, bouffon = choice
    _say(log, f"      Assassin: discards {option_text('assassin', choice)}")
    state.discard.append(remove_from_guild(state, q, g, bouffon, log))


def power_rodeur(state, seat, source, strategies, rng, log):
    """Rôdeur: a card of an opponent's guild goes to the player's hand (the guild may break)."""
    choice = decide(state, seat, "rodeur", guild_card_options(state, seat), strategies, rng)
    if choice is None:
        _no_target(state, seat, source, rng, log, "Rôdeur")
        return
    q, g, bouffon = choice
    if log is not None:      # said before the card leaves: a guild it breaks breaks after the take
        taken = BOUFFON if bouffon else state.guilds[q][g].type
        _say(log, f"      Rôdeur: takes {a_card(taken)} from P{q}'s guild {g + 1}")
    card = remove_from_guild(state, q, g, bouffon, log)
    state.hands[seat][card] += 1


def power_chevalier(state, seat, source, strategies, rng, log):
    """Chevalier: name a player and a type; if they hold one, they give it."""
    options = [(q, t) for q in state.opponents(seat) for t in range(N_TYPES)]
    q, t = decide(state, seat, "chevalier", options, strategies, rng)
    if state.hands[q][t]:
        state.hands[q][t] -= 1
        state.hands[seat][t] += 1
        _say(log, f"      Chevalier: asks P{q} for {a_card(t)} and gets it")
    else:
        _say(log, f"      Chevalier: asks P{q} for {a_card(t)}; P{q} has none")


def power_etoile(state, seat, source, strategies, rng, log):
    """Étoile: every player draws a card, in turn order starting with the player."""
    _say(log, "      Étoile: every player draws a card")
    for i in range(state.n_players):
        draw_to_hand(state, (seat + i) % state.n_players, rng, log)


def power_magicien(state, seat, source, strategies, rng, log):
    """Magicien: draw 3, keep 1, discard the other 2 (in the order drawn)."""
    for _ in range(3):
        draw_card(state, rng, log, lambda c: state.look.append(c))
    options = list(dict.fromkeys(state.look))
    keep = decide(state, seat, "magicien_keep", options, strategies, rng)
    drawn = state.look
    drawn.remove(keep)
    state.hands[seat][keep] += 1
    state.discard.extend(drawn)
    state.look = []
    _say(log, f"      Magicien: keeps {a_card(keep)}, discards "
              + " and ".join(CARD_NAMES[t] for t in drawn))


def power_marchand(state, seat, source, strategies, rng, log):
    """Marchand: swap 2 cards with another player; each side chooses the cards it gives."""
    while state.hand_size(seat) < 2:
        draw_to_hand(state, seat, rng, log)
    q = decide(state, seat, "marchand_partner", state.opponents(seat), strategies, rng)
    mine = decide(state, seat, "give_two", pairs_in(state.hands[seat]), strategies, rng)
    n_q = state.hand_size(q)
    if n_q >= 2:
        theirs = list(decide(state, q, "give_two", pairs_in(state.hands[q]), strategies, rng))
    elif n_q == 1:
        theirs = [decide(state, q, "give_one", types_in(state.hands[q]), strategies, rng)]
    else:
        theirs = []
    for t in mine:
        state.hands[seat][t] -= 1
        state.hands[q][t] += 1
    for t in theirs:
        state.hands[q][t] -= 1
        state.hands[seat][t] += 1
    _say(log, f"      Marchand with P{q}: gives {' + '.join(CARD_NAMES[t] for t in mine)}, gets "
              + (" + ".join(CARD_NAMES[t] for t in theirs) or "nothing"))


def power_mendiant(state, seat, source, strategies, rng, log):
    """Mendiant: a random card from the opponent with the most cards; draw instead if you hold the
    most yourself (tie included unless ``mendiant_draws_on_tie = false``)."""
    mine = state.hand_size(seat)
    most = max(state.hand_size(q) for q in state.opponents(seat))
    on_tie = bool(state.rules.param(P_MENDIANT_DRAWS_ON_TIE))
    if most == 0 or mine > most or (mine == most and on_tie):
        _say(log, f"      Mendiant: holds {mine} cards, most opponent {most}: draws a card")
        draw_to_hand(state, seat, rng, log)
        return
    targets = [q for q in state.opponents(seat) if state.hand_size(q) == most]
    q = decide(state, seat, "mendiant_target", targets, strategies, rng)
    k = rng.below(most)
    for t in range(N_TYPES):
        if k < state.hands[q][t]:
            break
        k -= state.hands[q][t]
    state.hands[q][t] -= 1
    state.hands[seat][t] += 1
    _say(log, f"      Mendiant: takes a random card from P{q}: {a_card(t)}")


def power_moine(state, seat, source, strategies, rng, log):
    """Moine: draw 2 cards."""
    _say(log, "      Moine: draws 2 cards")
    draw_to_hand(state, seat, rng, log)
    draw_to_hand(state, seat, rng, log)


def _give_one(state, giver, receiver, strategies, rng, log, why):
    t = decide(state, giver, "give_one", types_in(state.hands[giver]), strategies, rng)
    if t is None:
        _say(log, f"      {why}: P{giver} has no card to give")
        return
    state.hands[giver][t] -= 1
    state.hands[receiver][t] += 1
    _say(log, f"      {why}: P{giver} gives P{receiver} {a_card(t)}")


def power_noble(state, seat, source, strategies, rng, log):
    """Noble: the next 2 players each give a card of their choice; at 2 players the other player
    gives one and you draw one."""
    P = state.n_players
    if P == 2:
        _give_one(state, (seat + 1) % 2, seat, strategies, rng, log, "Noble")
        draw_to_hand(state, seat, rng, log)
        return
    for i in (1, 2):
        _give_one(state, (seat + i) % P, seat, strategies, rng, log, "Noble")


def power_pretre(state, seat, source, strategies, rng, log):
    """Prêtre: look at a player's hand, take a card, then give them one of yours."""
    while state.hand_size(seat) < 1:
        draw_to_hand(state, seat, rng, log)
    q = decide(state, seat, "pretre_partner", state.opponents(seat), strategies, rng)
    _say(log, f"      Prêtre: looks at P{q}'s hand: {hand_text(state.hands[q])}")
    t = decide(state, seat, "pretre_take", types_in(state.hands[q]), strategies, rng)
    if t is not None:
        state.hands[q][t] -= 1
        state.hands[seat][t] += 1
        _say(log, f"      Prêtre: takes {a_card(t)}")
    _give_one(state, seat, q, strategies, rng, log, "Prêtre")


def power_sorciere(state, seat, source, strategies, rng, log):
    """Sorcière: copy the power of a guild on the table; with none, turn over the top card of the
    draw pile, discard it and copy its power (Bouffon: nothing; Sorcière: see the setting)."""
    t = decide(state, seat, "sorciere", copyable_types(state), strategies, rng)
    if t is not None:
        _say(log, f"      Sorcière: copies {CARD_NAMES[t]}")
        resolve_power(state, seat, t, source, strategies, rng, log)
        return
    again = bool(state.rules.param(P_SORCIERE_FLIP_AGAIN))
    while True:
        t = draw_card(state, rng, log, lambda c: state.discard.append(c))   # (the list a reshuffle left)
        _say(log, f"      Sorcière: no guild to copy; turns over {a_card(t)}")
        if t == SORCIERE and again:
            continue
        if t not in (BOUFFON, SORCIERE):
            # a turned-over Artisan takes the top of the discard pile, the card just turned over,
            # under either reading of artisan_takes_played_card: with true the played Sorcière
            # went on the pile first and the turned-over card on top of it (review s51 #1: it took
            # the played Sorcière back); only the Artisan reads the source for that
            resolve_power(state, seat, t, GUILD if t == ARTISAN else source, strategies, rng, log)
        return


POWERS = {ARTISAN: power_artisan, ASSASSIN: power_assassin, CHEVALIER: power_chevalier,
          ETOILE: power_etoile, MAGICIEN: power_magicien, MARCHAND: power_marchand,
          MENDIANT: power_mendiant, MOINE: power_moine, NOBLE: power_noble,
          PRETRE: power_pretre, RODEUR: power_rodeur, SORCIERE: power_sorciere}
assert sorted(POWERS) == sorted(POWER_TYPES)


def resolve_power(state: GameState, seat: int, t: int, source: str, strategies: list,
                  rng: PyStream, log: list | None = None) -> None:
    """MV-5: resolve the power of type ``t`` for ``seat`` (``source``: played card or guild)."""
    if t == BOUFFON:
        return
    state.powers[seat][t] += 1
    POWERS[t](state, seat, source, strategies, rng, log)


# --------------------------------------------------------------------------------------------
# MV-3 actions
# --------------------------------------------------------------------------------------------

def action_options(state: GameState, seat: int) -> list[tuple[str, int]]:
    """MV-3: the legal actions in protocol order: play, found, reinforce, use."""
    hand = state.hands[seat]
    m = state.rules.min_guild
    options: list[tuple[str, int]] = [("play", t) for t in types_in(hand)]
    for t in range(N_TYPES):
        if t == BOUFFON:
            if hand[BOUFFON] >= m:
                options.append(("found", t))
        elif hand[t] >= 1 and hand[t] + hand[BOUFFON] >= m:
            options.append(("found", t))
    n_hand = sum(hand)
    for g, guild in enumerate(state.guilds[seat]):
        if (guild.type is None and n_hand > 0) or \
                (guild.type is not None and hand[guild.type] + hand[BOUFFON] > 0):
            options.append(("reinforce", g))
    for g, guild in enumerate(state.guilds[seat]):
        if guild.type is not None:
            options.append(("use", g))
    return options


def found_size_options(state: GameState, seat: int, t: int) -> list[tuple[int, int]]:
    hand, m = state.hands[seat], state.rules.min_guild
    if t == BOUFFON:
        return [(0, nb) for nb in range(m, hand[BOUFFON] + 1)]
    return [(nt, nb) for nt in range(1, hand[t] + 1) for nb in range(hand[BOUFFON] + 1) if nt + nb >= m]


def reinforce_size_options(hand: list[int], x: int, at_least_one_x: bool) -> list[tuple[int, int]]:
    if x == BOUFFON:
        return [(0, nb) for nb in range(1, hand[BOUFFON] + 1)]
    lo = 1 if at_least_one_x else 0
    return [(nx, nb) for nx in range(lo, hand[x] + 1) for nb in range(hand[BOUFFON] + 1) if nx + nb >= 1]


def found_guild(state, seat, t, strategies, rng, log):
    """MV-3 found a guild of type t (t = Bouffon: a guild of Bouffons only); MV-7 third guild wins."""
    nt, nb = decide(state, seat, "found_size", found_size_options(state, seat, t), strategies, rng)
    state.hands[seat][t] -= nt
    state.hands[seat][BOUFFON] -= nb
    guild = Guild(None if t == BOUFFON else t, nt, nb)
    state.guilds[seat].append(guild)
    state.founded[seat][t] += 1
    _say(log, f"    P{seat} founds {guild.label()} ({len(state.guilds[seat])} guild(s))")
    if len(state.guilds[seat]) >= state.rules.to_win:
        _say(log, f"    P{seat} holds {len(state.guilds[seat])} guilds and wins at once")
        end_game(state, THIRD_GUILD, seat)
    resolve_power(state, seat, t, GUILD, strategies, rng, log)


def reinforce_guild(state, seat, g, strategies, rng, log):
    """MV-3 reinforce guild g with cards of its type and/or Bouffons (a Bouffon guild takes a type)."""
    guild = state.guilds[seat][g]
    hand = state.hands[seat]
    if guild.type is None:
        types = [x for x in range(N_TYPES) if x != BOUFFON and hand[x]] + ([BOUFFON] if hand[BOUFFON] else [])
        x = decide(state, seat, "reinforce_type", types, strategies, rng)
        sizes = reinforce_size_options(hand, x, True)
    else:
        x = guild.type
        sizes = reinforce_size_options(hand, x, False)
    nx, nb = decide(state, seat, "reinforce_size", sizes, strategies, rng)
    if nx:
        hand[x] -= nx
        guild.type = x
        guild.n_type += nx
    hand[BOUFFON] -= nb
    guild.n_bouffon += nb
    _say(log, f"    P{seat} reinforces guild {g + 1}: {guild.label()}")
    if guild.type is not None:
        resolve_power(state, seat, guild.type, GUILD, strategies, rng, log)


def do_action(state, seat, action, strategies, rng, log):
    what, arg = action
    if what == "play":
        state.hands[seat][arg] -= 1
        state.played.append(arg)
        _say(log, f"    P{seat} plays {CARD_NAMES[arg]}")
        resolve_power(state, seat, arg, PLAYED, strategies, rng, log)
        if state.played:
            state.discard.append(state.played.pop())
    elif what == "found":
        found_guild(state, seat, arg, strategies, rng, log)
    elif what == "reinforce":
        reinforce_guild(state, seat, arg, strategies, rng, log)
    else:
        guild = state.guilds[seat][arg]
        _say(log, f"    P{seat} uses guild {arg + 1} {guild.label()}")
        resolve_power(state, seat, guild.type, GUILD, strategies, rng, log)


def play_turn(state: GameState, strategies: list, rng: PyStream, log: list | None = None) -> None:
    """MV-3: one turn of the current player (MV-7 safety bound first)."""
    if state.turns >= state.rules.max_turns:
        _say(log, f"Turn limit {state.rules.max_turns} reached: the game ends (truncated)")
        end_game(state, TRUNCATED)
    state.turns += 1
    seat = state.current
    state.current = (seat + 1) % state.n_players
    hand = state.hands[seat]
    _say(log, f"Turn {state.turns}: P{seat} hand {hand_text(hand)}; guilds "
              + (" ".join(g.label() for g in state.guilds[seat]) or "-"))
    if sum(hand) == 0 and not state.guilds[seat]:
        _say(log, "    no card and no guild: draws 2 cards")
        draw_to_hand(state, seat, rng, log)
        draw_to_hand(state, seat, rng, log)
        return
    action = decide(state, seat, "action", action_options(state, seat), strategies, rng)
    if action is None:
        _say(log, "    nothing to do: passes")
    else:
        do_action(state, seat, action, strategies, rng, log)
    t = draw_to_hand(state, seat, rng, log)
    _say(log, f"    draws a card ({CARD_NAMES[t]}); pile {len(state.pile)}, discard "
              + (CARD_NAMES[state.discard[-1]] if state.discard else "empty"))


# --------------------------------------------------------------------------------------------
# MV-7 end and scoring
# --------------------------------------------------------------------------------------------

def score_game(state: GameState, log: list | None = None) -> tuple[list[float], list[int]]:
    """MV-7: win shares and ranks. Third guild: the founder wins. Otherwise the key (guilds, cards
    in guilds, cards in hand) decides; players tied on the best key share the win."""
    P = state.n_players
    keys = [(len(state.guilds[s]), state.guild_cards(s), state.hand_size(s)) for s in range(P)]
    if state.end_reason == THIRD_GUILD:
        w = state.winner
        share = [1.0 if s == w else 0.0 for s in range(P)]
        rank = [1 if s == w else 2 + sum(1 for o in range(P) if o != w and keys[o] > keys[s])
                for s in range(P)]
    else:
        best = max(keys)
        winners = [s for s in range(P) if keys[s] == best]
        share = [1.0 / len(winners) if s in winners else 0.0 for s in range(P)]
        rank = [1 + sum(1 for o in range(P) if keys[o] > keys[s]) for s in range(P)]
    for s in range(P):
        _say(log, f"  P{s}: {keys[s][0]} guild(s), {keys[s][1]} guild card(s), {keys[s][2]} in hand; "
                  f"rank {rank[s]}, win share {share[s]:.4g}")
    return share, rank


def check_invariants(state: GameState) -> None:
    """Debug: cards conserved per type; guilds hold >= min_cards; typed guilds hold their type."""
    counts = state.card_counts()
    expected = [int(c) for c in state.rules.copies]
    if counts != expected:
        raise AssertionError(f"cards not conserved: {counts} != {expected}")
    for p in range(state.n_players):
        for g in state.guilds[p]:
            if g.size < state.rules.min_guild:
                raise AssertionError(f"P{p} has a guild of {g.size} cards")
            if (g.type is None) != (g.n_type == 0) or g.n_bouffon < 0:
                raise AssertionError(f"P{p} has a malformed guild {g}")
        if min(state.hands[p]) < 0:
            raise AssertionError(f"P{p} holds a negative count of cards: {state.hands[p]}")


def play_game(rules: RulesArrays, n_players: int, seed: int, game: int, strategies=None,
              log: list | None = None, debug: bool = False) -> GameRecord:
    """Play one game (MV-2 … MV-7) with stream ``PyStream(seed, game)``; return its MV-9 record."""
    if strategies is None:
        strategies = [RandomStrategy() for _ in range(n_players)]
    if len(strategies) != n_players:
        raise ValueError(f"need {n_players} strategies, got {len(strategies)}")
    rng = PyStream(seed, game)
    _say(log, f"Médiévallons reference game: {n_players} players, seed {seed}, game {game}")
    state = setup_game(rules, n_players, rng, log)
    try:
        while state.end_reason is None:
            play_turn(state, strategies, rng, log)
            if debug:
                check_invariants(state)
    except GameOver:
        pass
    state.discard.extend(state.look)
    state.discard.extend(state.played)
    state.look, state.played = [], []
    if debug:
        check_invariants(state)
    _say(log, f"Game over after {state.turns} turns: {end_words(state.end_reason)}"
              f" (reshuffles {state.reshuffles})")
    share, rank = score_game(state, log)
    P = n_players
    return GameRecord(
        score=np.array([state.guild_cards(s) for s in range(P)], np.int32),
        win_share=np.array(share, np.float32),
        rank=np.array(rank, np.int8),
        guilds=np.array([len(state.guilds[s]) for s in range(P)], np.int8),
        hand=np.array([state.hand_size(s) for s in range(P)], np.int16),
        founded=np.array(state.founded, np.int8),
        powers=np.array(state.powers, np.int16),
        turns=state.turns, end_reason=int(state.end_reason), reshuffles=state.reshuffles,
        decisions=list(state.decisions),
    )


def record_table(record: GameRecord) -> list[str]:
    """The final MV-9 table of a record, one line per seat (used by the golden file)."""
    short = [n[:4] for n in CARD_NAMES]
    lines = ["seat share rank guilds cards hand | founded: " + " ".join(f"{s:>4}" for s in short)]
    for s in range(record.score.shape[0]):
        lines.append(f"P{s:<3} {float(record.win_share[s]):5.3f} {int(record.rank[s]):4d} "
                     f"{int(record.guilds[s]):6d} {int(record.score[s]):5d} {int(record.hand[s]):4d} |"
                     "          " + " ".join(f"{int(x):4d}" for x in record.founded[s]))
    lines.append("seat powers:  " + " ".join(f"{s:>4}" for s in short))
    for s in range(record.score.shape[0]):
        lines.append(f"P{s:<11} " + " ".join(f"{int(x):4d}" for x in record.powers[s]))
    lines.append(f"turns: {record.turns}; end: {end_words(record.end_reason)}; "
                 f"reshuffles: {record.reshuffles}; decisions: {len(record.decisions)}")
    return lines
