"""Médiévallons rules as data: load and validate ``rules.toml`` into a frozen, fixed-dtype form.

:func:`load` reads the designer-editable TOML (the default ships in ``configs/medievallons/``),
checks every key (unknown keys, wrong types, values out of range, a deck too small to deal) and
returns :class:`RulesArrays`, the only form of the rules the kernel and the reference engine see.
:func:`with_copies` builds a variant with other copy counts *through the same loader* (the card
ablation of :mod:`analysis.questions.medievallons`): the TOML text is edited, then validated.

May import numpy, the standard library and :mod:`simcore.config` / :mod:`simcore.errors`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from simcore.config import RulesFile, Table, TomlSource, allowed_players
from simcore.errors import ConfigError, UsageError

# MV-1: card types, with their ids (the order of the spec's table).
CARD_TYPES = ("artisan", "assassin", "bouffon", "chevalier", "etoile", "magicien", "marchand",
              "mendiant", "moine", "noble", "pretre", "rodeur", "sorciere")
CARD_NAMES = ("Artisan", "Assassin", "Bouffon", "Chevalier", "Étoile", "Magicien", "Marchand",
              "Mendiant", "Moine", "Noble", "Prêtre", "Rôdeur", "Sorcière")


def with_article(name: str) -> str:
    """A card name with its indefinite article, as the texts say it: "an Étoile", "an Artisan",
    "an Assassin", "a Prêtre" ("an" before a vowel, accented or not)."""
    import unicodedata

    first = unicodedata.normalize("NFD", name[:1])[:1].lower()
    return f"{'an' if first in 'aeiou' else 'a'} {name}"


(ARTISAN, ASSASSIN, BOUFFON, CHEVALIER, ETOILE, MAGICIEN, MARCHAND, MENDIANT, MOINE, NOBLE,
 PRETRE, RODEUR, SORCIERE) = range(13)
N_TYPES = 13
POWER_TYPES = tuple(t for t in range(N_TYPES) if t != BOUFFON)   # MV-5: the Bouffon has no power
MIN_PLAYERS, MAX_PLAYERS = 2, 5            # what the engines support (MV-1 [assumption])
MAX_COPIES = 16                            # per type: keeps every option list small and bounded
MAX_TO_WIN = 6

# Indices into RulesArrays.params (an int64 vector: the kernel takes one array of scalars).
P_HAND_SIZE = 0                            # MV-2: seat s is dealt params[P_HAND_SIZE + s] cards
P_MIN_GUILD = 5
P_TO_WIN = 6
P_MAX_TURNS = 7
P_ARTISAN_TAKES_PLAYED = 8
P_MENDIANT_DRAWS_ON_TIE = 9
P_SORCIERE_FLIP_AGAIN = 10
P_RED_2 = 11                               # P_RED_2 + (players - 2): 1 = End card red side up
P_END_ON_LAST_CARD = 15                    # MV-6 timing: 0 = "empty_draw" (spec), 1 = "last_card_taken" (book)
N_PARAMS = P_END_ON_LAST_CARD + 1
END_CARD_TIMINGS = ("empty_draw", "last_card_taken")   # setup.end_card_timing, by param value

# The rules file written once (simcore.config.RulesFile): the shipped default, load, loads.
RULES = RulesFile("medievallons", lambda src: from_source(src))
default_rules_path, load, loads = RULES.default_rules_path, RULES.load, RULES.loads


@dataclass(frozen=True)
class RulesArrays:
    """The rules of one Médiévallons variant as read-only numpy arrays (no Python objects).

    Attributes
    ----------
    copies : int64[13]
        MV-1 copies of each card type, by type id.
    allowed_players : tuple[int, ...]
        MV-1 player counts a run may use.
    params : int64[N_PARAMS]
        Scalar settings, indexed by the ``P_*`` constants of this module (the hand dealt to seat s
        at ``P_HAND_SIZE + s``).
    source : TomlSource
        The file as read (name, text, sha256).
    hand_size_listed : int
        0 when ``setup.hand_size`` is one number (every seat); else how many seats its per-seat
        list names (a game needs one value per seat: :func:`check_players`).
    """

    copies: np.ndarray
    allowed_players: tuple
    params: np.ndarray
    source: TomlSource
    hand_size_listed: int = 0

    def __post_init__(self) -> None:
        self.copies.setflags(write=False)
        self.params.setflags(write=False)

    @property
    def n_cards(self) -> int:
        return int(self.copies.sum())

    def param(self, index: int) -> int:
        return int(self.params[index])

    @property
    def hand_size(self) -> int:
        """MV-2: the cards dealt to seat 0 (to every seat unless the rules give a per-seat list)."""
        return self.param(P_HAND_SIZE)

    def hand(self, seat: int) -> int:
        """MV-2: the cards dealt to seat ``seat`` (0 = first player)."""
        return self.param(P_HAND_SIZE + seat)

    @property
    def min_guild(self) -> int:
        return self.param(P_MIN_GUILD)

    @property
    def to_win(self) -> int:
        return self.param(P_TO_WIN)

    @property
    def max_turns(self) -> int:
        return self.param(P_MAX_TURNS)

    def end_card_red(self, n_players: int) -> bool:
        """MV-2: is the End card red side up at the start (one reshuffle allowed, MV-6)?"""
        return bool(self.params[P_RED_2 + n_players - MIN_PLAYERS])

    @property
    def end_on_last_card(self) -> bool:
        """MV-6 ``setup.end_card_timing``: True = "last_card_taken" (the book: the End card acts
        the moment the last card of the draw pile is taken), False = "empty_draw" (the spec: when
        a draw finds the pile empty)."""
        return bool(self.params[P_END_ON_LAST_CARD])


def from_source(src: TomlSource) -> RulesArrays:
    top = Table(src.data, src.name)
    allowed = allowed_players(top, [2, 3, 4, 5], MIN_PLAYERS, MAX_PLAYERS)

    deck = top.table("deck")
    cp = deck.table("copies")
    for k in list(cp.data):
        if k not in CARD_TYPES:
            raise cp.error(k, f"unknown card type (known: {', '.join(CARD_TYPES)})")
    copies = np.array([cp.get(t, int, lo=0, hi=MAX_COPIES) for t in CARD_TYPES], np.int64)
    cp.done()
    deck.done()

    setup = top.table("setup", {})
    # MV-2: one number for every seat, or a per-seat list (compensation for seat order, e.g. the
    # later seats are dealt one card more: [6, 7])
    hands, hands_listed = setup.per_seat("hand_size", int, 6, lo=1, hi=20, max_seats=MAX_PLAYERS)   # a hand holds a card
    sides = setup.table("end_card", {})
    red = []
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        default = "yellow" if n == 2 else "red"
        red.append(sides.get(str(n), str, default, choices=["red", "yellow"]) == "red")
    sides.done()
    # MV-6: when the End card acts -- when a draw finds the pile empty (the spec) or the moment
    # its last card is taken (the book)
    timing = setup.get("end_card_timing", str, "empty_draw", choices=list(END_CARD_TIMINGS))
    setup.done()

    guilds = top.table("guilds", {})
    min_guild = guilds.get("min_cards", int, 3, lo=2, hi=8)
    to_win = guilds.get("to_win", int, 3, lo=1, hi=MAX_TO_WIN)
    guilds.done()

    powers = top.table("powers", {})
    artisan = powers.get("artisan_takes_played_card", bool, False)
    mendiant = powers.get("mendiant_draws_on_tie", bool, True)
    sorciere = powers.get("sorciere_flip_again", bool, False)
    powers.done()

    end = top.table("end", {})
    max_turns = end.get("max_turns", int, 1000, lo=1, hi=30000)
    end.done()
    top.done()

    n_cards = int(copies.sum())
    for n in allowed:
        if 0 < hands_listed < n:
            continue                    # refused when a run asks for n players (check_players)
        need = sum(hands[:n]) + 1
        if n_cards < need:
            dealt = hands[0] if len(set(hands[:n])) == 1 else "/".join(map(str, hands[:n]))
            raise ConfigError(src.name, "deck.copies",
                              f"{n_cards} cards cannot deal {dealt} to {n} players and turn "
                              f"one face up (MV-2 needs {need}), and players.allowed lists {n} "
                              f"(the rules must hold at every count they allow: add copies, or "
                              f"leave {n} out of players.allowed)")
    params = np.zeros(N_PARAMS, np.int64)
    params[P_HAND_SIZE:P_HAND_SIZE + MAX_PLAYERS] = hands
    params[P_MIN_GUILD] = min_guild
    params[P_TO_WIN] = to_win
    params[P_MAX_TURNS] = max_turns
    params[P_ARTISAN_TAKES_PLAYED] = int(artisan)
    params[P_MENDIANT_DRAWS_ON_TIE] = int(mendiant)
    params[P_SORCIERE_FLIP_AGAIN] = int(sorciere)
    params[P_RED_2:P_RED_2 + 4] = np.array(red, np.int64)
    params[P_END_ON_LAST_CARD] = END_CARD_TIMINGS.index(timing)
    return RulesArrays(copies=copies, allowed_players=tuple(sorted(allowed)), params=params,
                       source=src, hand_size_listed=hands_listed)


def read_at(rules: RulesArrays, n_players: int) -> dict:
    """The rules as a game of ``n_players`` players reads them (:func:`simcore.games.rules_read_at`):
    the card copies and the settings, with the hand of a seat this count does not have (MV-2) and
    the End card's side at another count set to -1, and ``players.allowed`` as whether it allows
    this count. How many seats a per-seat list names is left out: it decides only whether the count
    may be played (:func:`check_players`). Two rule sets equal here play the same games at this
    count."""
    params = rules.params.copy()
    n = min(max(int(n_players), 0), MAX_PLAYERS)
    params[P_HAND_SIZE + n:P_HAND_SIZE + MAX_PLAYERS] = -1
    for count in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        if count != n:
            params[P_RED_2 + count - MIN_PLAYERS] = -1
    return {"copies": rules.copies, "allowed": n in rules.allowed_players, "params": params}


def check_players(rules: RulesArrays, n_players: int) -> None:
    """MV-1: refuse a player count the engines or the rules file do not allow (UsageError)."""
    if not MIN_PLAYERS <= n_players <= MAX_PLAYERS:
        raise UsageError(f"--players {n_players}: Médiévallons is simulated for {MIN_PLAYERS} to "
                         f"{MAX_PLAYERS} players (MV-1)")
    if n_players not in rules.allowed_players:
        raise UsageError(f"--players {n_players}: {rules.source.name} allows "
                         f"{', '.join(map(str, rules.allowed_players))} players (players.allowed)")
    k = rules.hand_size_listed
    if 0 < k < n_players:
        raise ConfigError(rules.source.name, "setup.hand_size",
                          f"lists {k} seat{'s' if k != 1 else ''} but a {n_players}-player game has "
                          f"{n_players} (one value per seat, seat 1 first, or one number for all)")


def with_copies(rules: RulesArrays, changes: dict[str, int]) -> RulesArrays:
    """A variant of ``rules`` whose ``[deck.copies]`` counts are changed, loaded and validated
    by :func:`from_source` like any file: ``with_copies(r, {"moine": 7})`` removes one Moine.

    The new text is the old one with the numbers edited, so a run's ``rules_text`` is the exact
    variant played (and can be saved and loaded again).
    """
    text = rules.source.text
    head = re.search(r"(?m)^\[deck\.copies\][^\n]*\n", text)
    if head is None:
        raise ConfigError(rules.source.name, "deck.copies",
                          "variants need copies written as a [deck.copies] table")
    body_end = re.search(r"(?m)^\[", text[head.end():])
    stop = head.end() + (body_end.start() if body_end else len(text) - head.end())
    body = text[head.end():stop]
    for name, n in changes.items():
        if name not in CARD_TYPES:
            raise UsageError(f"unknown card type {name!r} (known: {', '.join(CARD_TYPES)})")
        body, k = re.subn(rf"(?m)^(\s*{name}\s*=\s*)-?\d+", rf"\g<1>{int(n)}", body)
        if k != 1:
            raise ConfigError(rules.source.name, f"deck.copies.{name}", "not found as one line")
    label = ", ".join(f"{k}={v}" for k, v in changes.items())
    new = text[:head.end()] + body + text[stop:]
    return loads(new, name=f"{rules.source.name} [{label}]")
