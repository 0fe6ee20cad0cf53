"""Seigneurial rules as data: load and validate ``rules.toml`` into a frozen, fixed-dtype form.

:func:`load` reads the designer-editable TOML (the default ships in ``configs/seigneurial/``),
checks every key (unknown keys, wrong types, values out of range, decks too small to play) and
returns :class:`RulesArrays`, the only form of the rules the kernel and the reference engine see.
Every **[assumption]** of ``shared/rules/seigneurial.md`` is a setting: the Objective deck (SG-2),
the Censitaire and Seigneur decks as counts per kind (SG-3), the resource decks as counts per value
(SG-1), the rent table and track midpoint / goal per player count (SG-1), the improvement bonus and
forced draws before / after (SG-5), hand and play limits (SG-3), the winter payment and sick turns
(SG-4), the favour rule when the rent is met (SG-5.5), the order of the Censitaires' payments
(SG-5.4), the shared squares' capacity (SG-1) and the 200-turn bound (SG-6); plus the designer's compensation settings (the Seigneur's starting square,
resource cards each Censitaire starts with).

May import numpy, the standard library and :mod:`simcore.config` / :mod:`simcore.errors`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simcore.config import RulesFile, Table, TomlSource, allowed_players
from simcore.errors import ConfigError, UsageError

# SG-1: resource types (ids in this order; the names every log, table and report uses) and their
# French names (the book's, in column descriptions).
RESOURCE_TYPES = ("grain", "wood", "fish")
RESOURCE_NAMES = ("Céréale", "Bois", "Poisson")
GRAIN, WOOD, FISH = 0, 1, 2
N_RES = 3
MAX_VALUE = 7                 # card values 0 … 7
N_VALUES = MAX_VALUE + 1
MAX_DECK = 64                 # cards per resource deck, Censitaire deck, Seigneur deck
MAX_OBJECTIVES = 32
# SG-3: card kinds.
CENSITAIRE_CARDS = ("recolte", "cachette", "troc")
CENSITAIRE_CARD_NAMES = ("Récolte", "Cachette", "Troc")
RECOLTE, CACHETTE, TROC = 0, 1, 2
SEIGNEUR_CARDS = ("requisition", "corvee")
SEIGNEUR_CARD_NAMES = ("Réquisition", "Corvée")
REQUISITION, CORVEE = 0, 1
# SG-3 [assumption]: what each card does, by how much (the book prints no card texts): resource
# cards a Récolte draws (of the type chosen), drawn for the one card a Troc discards, extra forced
# draws a Réquisition gives, random resource cards a Corvée discards; then whether a Troc discards
# the card it gives (1) and whether a Cachette hides the hand (1): at 0 the card still asks the same
# choices and does the rest (with ``troc_draws = 0`` too, a Troc does nothing), which is how the
# card ablation of ``balance questions`` makes a card neutral. RulesArrays.card_effects.
CARD_EFFECTS = ("recolte_draws", "troc_draws", "requisition_draws", "corvee_discards",
                "troc_discards", "cachette_hides")
(FX_RECOLTE_DRAWS, FX_TROC_DRAWS, FX_REQUISITION_DRAWS, FX_CORVEE_DISCARDS, FX_TROC_DISCARDS,
 FX_CACHETTE_HIDES) = range(6)
MAX_CARD_EFFECT = 5
#: Settings a rules file may leave out and the value the loader then takes (runs recorded before the
#: card effects became settings have none of them: a rules diff reads their absence as this value,
#: simcore.games.absent_defaults).
ABSENT_DEFAULTS = {"censitaire_cards.recolte_draws": 1, "censitaire_cards.troc_draws": 1,
                   "seigneur_cards.requisition_draws": 1, "seigneur_cards.corvee_discards": 1,
                   "censitaire_cards.troc_discards": 1, "censitaire_cards.cachette_hides": True}
# SG-5.1 action squares, in the order a Censitaire's harvest resolves them: the three terrains
# (the square of type t harvests type t), then the shared Church and Mill.
SQUARES = ("field", "forest", "river", "church", "mill")
SQUARE_NAMES = ("Champ", "Forêt", "Fleuve", "Église", "Moulin")
FIELD, FOREST, RIVER, CHURCH, MILL = 0, 1, 2, 3, 4
N_SQUARES = 5
MIN_PLAYERS, MAX_PLAYERS = 3, 5     # SG-1: 1 Seigneur + 2-4 Censitaires
MAX_CENSITAIRES = MAX_PLAYERS - 1
MAX_RENT = 20
MAX_GOAL = 40

# Indices into RulesArrays.params (an int64 vector: the kernel takes one array of scalars).
P_MAX_TURNS = 0
P_CC_HAND_LIMIT = 1
P_CC_PLAY_LIMIT = 2
P_SC_PER_YEAR = 3             # 0 = as many as there are players
P_BONUS = 4
P_FORCED_BEFORE = 5
P_FORCED_AFTER = 6
P_PAWNS = 7
P_CHURCH_CAP = 8
P_MILL_CAP = 9
P_FAVOUR_PER_CARD = 10
P_FAVOUR_DISTRIBUTION = 11    # 1 = the Seigneur's distribution replaces voluntary favour (SG-5.5)
P_WINTER_PAYMENT = 12
P_SICK_TURNS = 13
P_START_SQUARE = 14
P_MIDPOINT = 15               # + (players - 3)
P_GOAL = 18                   # + (players - 3)
P_RENT_BEFORE = 21            # + (players - 3)
P_RENT_AFTER = 24             # + (players - 3)
P_START_CARDS = 27            # + (Censitaire seat - 1), 4 entries
N_PARAMS = 31

# SG-5.4 [assumption] payment.order: how the Censitaires' payments are ordered (the book plays them
# in real time, with an hourglass). "seat": one after another in seat order, each seeing what was
# paid before; "simultaneous": each chooses from the position before anyone paid this turn (no one
# sees another's payment), the payments then applied together; "rotating": one after another, the
# first payer one seat later each turn (turn 1: Censitaire seat 1, turn 2: seat 2, …).
PAY_ORDERS = ("seat", "simultaneous", "rotating")
PAY_SEAT, PAY_SIMULTANEOUS, PAY_ROTATING = 0, 1, 2     # RulesArrays.pay_order

# The rules file written once (simcore.config.RulesFile): the shipped default, load, loads.
RULES = RulesFile("seigneurial", lambda src: from_source(src))
default_rules_path, load, loads = RULES.default_rules_path, RULES.load, RULES.loads


@dataclass(frozen=True)
class RulesArrays:
    """The rules of one Seigneurial variant as read-only numpy arrays (no Python objects).

    Attributes
    ----------
    resource_counts : int64[3, 8]
        SG-1 cards of each value 0 … 7 in the deck of each type (grain, wood, fish).
    objectives : int64[n, 3]
        SG-2 the Objective deck: resources per type each card requires.
    censitaire_counts : int64[3]
        SG-3 Censitaire cards per kind (recolte, cachette, troc).
    seigneur_counts : int64[2]
        SG-3 Seigneur cards per kind (requisition, corvee).
    allowed_players : tuple[int, ...]
    params : int64[N_PARAMS]
        Scalar settings, indexed by the ``P_*`` constants of this module.
    pay_order : int
        SG-5.4 ``payment.order``: PAY_SEAT, PAY_SIMULTANEOUS or PAY_ROTATING (kept out of
        ``params``, whose length older kernels share: benchmarks/bench_kernel_ab.py).
    card_effects : int64[6]
        SG-3 how much each card does (:data:`CARD_EFFECTS` order: Récolte's draws, Troc's draws,
        Réquisition's extra forced draws, Corvée's discards, Troc's discard (0 or 1), Cachette's
        hiding (0 or 1); the book's reading: 1 each), kept out of ``params`` as ``pay_order`` is.
    source : TomlSource
    """

    resource_counts: np.ndarray
    objectives: np.ndarray
    censitaire_counts: np.ndarray
    seigneur_counts: np.ndarray
    allowed_players: tuple
    params: np.ndarray
    source: TomlSource
    pay_order: int = 0
    card_effects: np.ndarray | None = None

    def __post_init__(self) -> None:
        if self.card_effects is None:
            object.__setattr__(self, "card_effects", np.ones(len(CARD_EFFECTS), np.int64))
        for a in (self.resource_counts, self.objectives, self.censitaire_counts,
                  self.seigneur_counts, self.params, self.card_effects):
            a.setflags(write=False)

    def card_effect(self, index: int) -> int:
        """SG-3: how much a card does (``FX_*`` of this module)."""
        return int(self.card_effects[index])

    def param(self, index: int) -> int:
        return int(self.params[index])

    @property
    def max_turns(self) -> int:
        return self.param(P_MAX_TURNS)

    def midpoint(self, n_players: int) -> int:
        return self.param(P_MIDPOINT + n_players - MIN_PLAYERS)

    def goal(self, n_players: int) -> int:
        return self.param(P_GOAL + n_players - MIN_PLAYERS)

    def rent(self, n_players: int, improved: bool) -> int:
        """SG-1: the rent total per turn before / after the land improvements."""
        base = P_RENT_AFTER if improved else P_RENT_BEFORE
        return self.param(base + n_players - MIN_PLAYERS)

    def start_cards(self, seat: int) -> int:
        """Compensation: resource cards Censitaire ``seat`` (1 …) draws before the first turn."""
        return self.param(P_START_CARDS + seat - 1)

    def seigneur_cards_per_year(self, n_players: int) -> int:
        """SG-3: Seigneur cards drawn each Spring (the book: as many as there are players)."""
        k = self.param(P_SC_PER_YEAR)
        return n_players if k == 0 else k


def _value_counts(t: Table, key: str, default) -> np.ndarray:
    """A table {value: cards} (values 0 … 7) -> int64[8]."""
    sub = t.table(key) if default is ... else (t.table(key) if t.has(key) else None)
    if sub is None:
        return default
    out = np.zeros(N_VALUES, np.int64)
    for k in list(sub.data):
        if not k.isdigit() or int(k) > MAX_VALUE:
            raise sub.error(k, f"card values are whole numbers 0 to {MAX_VALUE}")
        out[int(k)] = sub.get(k, int, lo=0, hi=MAX_DECK)
    sub.done()
    if out.sum() == 0:
        raise t.error(key, "a resource deck needs at least one card")
    if out.sum() > MAX_DECK:
        raise t.error(key, f"{int(out.sum())} cards: a deck holds at most {MAX_DECK}")
    if out[1:].sum() == 0:
        raise t.error(key, "every card is worth 0: no resource could ever be held")
    return out


def _per_count(t: Table, key: str, default: dict, lo: int, hi: int) -> list[int]:
    """A table {3 = …, 4 = …, 5 = …} -> one value per player count 3 … 5."""
    sub = t.table(key, {})
    out = []
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        out.append(sub.get(str(n), int, default[n], lo=lo, hi=hi))
    sub.done()
    return out


def from_source(src: TomlSource) -> RulesArrays:
    top = Table(src.data, src.name)
    allowed = allowed_players(top, [3, 4, 5], MIN_PLAYERS, MAX_PLAYERS)
    n_cens_max = max(allowed) - 1

    res = top.table("resources")
    base = _value_counts(res, "values", ...)
    counts = np.zeros((N_RES, N_VALUES), np.int64)
    for t, name in enumerate(RESOURCE_TYPES):
        counts[t] = _value_counts(res, name, base)
    if isinstance(res.data.get("start_cards"), list):
        start_list = res.get("start_cards", list)
        if not n_cens_max <= len(start_list) <= MAX_CENSITAIRES:
            span = (f"{n_cens_max}" if n_cens_max == MAX_CENSITAIRES
                    else f"{n_cens_max} to {MAX_CENSITAIRES}")
            raise res.error("start_cards", f"a list needs one entry per Censitaire seat ({span} "
                                           f"entries for players.allowed), got {len(start_list)}")
        start = list(start_list) + [0] * (MAX_CENSITAIRES - len(start_list))
    else:
        start = [res.get("start_cards", int, 0, lo=0, hi=20)] * MAX_CENSITAIRES
    for v in start:
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 20:
            raise res.error("start_cards", f"cards per Censitaire must be whole numbers 0 to 20, "
                                           f"got {v!r}")
    res.done()

    ob = top.table("objectives")
    cards = ob.tables("cards")
    objectives = []
    for c in cards:
        req = [c.get(name, int, 0, lo=0, hi=99) for name in RESOURCE_TYPES]
        c.done()
        if sum(req) == 0:
            raise c.error("grain", "an objective must require at least one resource")
        objectives.append(req)
    if not n_cens_max <= len(objectives) <= MAX_OBJECTIVES:
        raise ob.error("cards", f"{len(objectives)} cards: the deck needs one per Censitaire "
                                f"({n_cens_max} at {max(allowed)} players) and at most {MAX_OBJECTIVES}")
    ob.done()

    cc = top.table("censitaire_cards")
    cc_counts = np.array([cc.get(k, int, lo=0, hi=MAX_DECK) for k in CENSITAIRE_CARDS], np.int64)
    hand_limit = cc.get("hand_limit", int, 3, lo=1, hi=10)
    play_limit = cc.get("play_limit", int, 2, lo=0, hi=10)
    recolte_draws = cc.get("recolte_draws", int, 1, lo=0, hi=MAX_CARD_EFFECT)
    troc_draws = cc.get("troc_draws", int, 1, lo=0, hi=MAX_CARD_EFFECT)
    troc_discards = cc.get("troc_discards", int, 1, lo=0, hi=1)
    cachette_hides = cc.get("cachette_hides", bool, True)
    cc.done()
    if cc_counts.sum() > MAX_DECK:
        raise ConfigError(src.name, "censitaire_cards", f"{int(cc_counts.sum())} cards: at most "
                                                        f"{MAX_DECK}")

    sc = top.table("seigneur_cards")
    sc_counts = np.array([sc.get(k, int, lo=0, hi=MAX_DECK) for k in SEIGNEUR_CARDS], np.int64)
    if isinstance(sc.data.get("per_year", "players"), str):
        if sc.data.get("per_year", "players") != "players":
            # (a word other than "players": the numbers are allowed too, review s46 #12)
            raise ConfigError(src.name, "seigneur_cards.per_year",
                              f"must be a number of cards from 1 to 10, or \"players\" (one per "
                              f"player); got {sc.data['per_year']!r}")
        sc.get("per_year", str, "players", choices=["players"])
        per_year = 0
    else:
        per_year = sc.get("per_year", int, lo=1, hi=10)
    requisition_draws = sc.get("requisition_draws", int, 1, lo=0, hi=MAX_CARD_EFFECT)
    corvee_discards = sc.get("corvee_discards", int, 1, lo=0, hi=MAX_CARD_EFFECT)
    sc.done()
    if sc_counts.sum() > MAX_DECK:
        raise ConfigError(src.name, "seigneur_cards", f"{int(sc_counts.sum())} cards: at most {MAX_DECK}")

    tr = top.table("track")
    midpoint = _per_count(tr, "midpoint", {3: 4, 4: 5, 5: 6}, 1, MAX_GOAL)
    goal = _per_count(tr, "goal", {3: 8, 4: 10, 5: 12}, 1, MAX_GOAL)
    rent_before = _per_count(tr, "rent_before", {3: 2, 4: 3, 5: 4}, 0, MAX_RENT)
    rent_after = _per_count(tr, "rent_after", {3: 5, 4: 7, 5: 9}, 0, MAX_RENT)
    start_square = tr.get("start_square", int, 0, lo=0, hi=MAX_GOAL)
    for i, n in enumerate(range(MIN_PLAYERS, MAX_PLAYERS + 1)):
        if n not in allowed:        # (review Y #13: a 4-player tune refused for the 3-player midpoint)
            continue
        if midpoint[i] >= goal[i]:
            raise tr.error(f"midpoint.{n}", f"{midpoint[i]} must be below the goal square {goal[i]}")
        if start_square >= midpoint[i]:
            others = [m for m in sorted(allowed) if m != n]
            raise tr.error("start_square", f"{start_square} must be below the midpoint "
                                           f"({midpoint[i]} at {n} players, a count players.allowed "
                                           f"lists: {', '.join(map(str, sorted(allowed)))}; the rules "
                                           f"must hold at every count they allow: a start square "
                                           f"below {midpoint[i]}, track.midpoint.{n} above "
                                           f"{start_square}"
                                           + (f", or players.allowed without {n} (e.g. --set "
                                              f"'players.allowed=[{', '.join(map(str, others))}]')"
                                              if others else "") + ")")
    tr.done()

    im = top.table("improvements", {})
    bonus = im.get("bonus", int, 1, lo=0, hi=5)
    forced_before = im.get("forced_draws_before", int, 1, lo=0, hi=10)
    forced_after = im.get("forced_draws_after", int, 2, lo=0, hi=10)
    im.done()

    ce = top.table("censitaires", {})
    pawns = ce.get("pawns", int, 2, lo=1, hi=N_SQUARES)
    church_cap = ce.get("church_capacity", int, 0, lo=0, hi=MAX_CENSITAIRES * N_SQUARES)
    mill_cap = ce.get("mill_capacity", int, 0, lo=0, hi=MAX_CENSITAIRES * N_SQUARES)
    ce.done()

    fa = top.table("favour", {})
    per_card = fa.get("per_card", int, 2, lo=1, hi=20)
    when_met = fa.get("when_rent_met", str, "distribution", choices=["distribution", "voluntary"])
    fa.done()

    pa = top.table("payment", {})
    pay_order = pa.get("order", str, "seat", choices=list(PAY_ORDERS))
    pa.done()

    wi = top.table("winter", {})
    payment = wi.get("payment", int, 2, lo=1, hi=3)
    sick_turns = wi.get("sick_turns", int, 2, lo=1, hi=4)
    wi.done()

    end = top.table("end", {})
    max_turns = end.get("max_turns", int, 200, lo=1, hi=2000)
    end.done()
    top.done()

    params = np.zeros(N_PARAMS, np.int64)
    params[P_MAX_TURNS] = max_turns
    params[P_CC_HAND_LIMIT] = hand_limit
    params[P_CC_PLAY_LIMIT] = play_limit
    params[P_SC_PER_YEAR] = per_year
    params[P_BONUS] = bonus
    params[P_FORCED_BEFORE] = forced_before
    params[P_FORCED_AFTER] = forced_after
    params[P_PAWNS] = pawns
    params[P_CHURCH_CAP] = church_cap
    params[P_MILL_CAP] = mill_cap
    params[P_FAVOUR_PER_CARD] = per_card
    params[P_FAVOUR_DISTRIBUTION] = int(when_met == "distribution")
    params[P_WINTER_PAYMENT] = payment
    params[P_SICK_TURNS] = sick_turns
    params[P_START_SQUARE] = start_square
    params[P_MIDPOINT:P_MIDPOINT + 3] = midpoint
    params[P_GOAL:P_GOAL + 3] = goal
    params[P_RENT_BEFORE:P_RENT_BEFORE + 3] = rent_before
    params[P_RENT_AFTER:P_RENT_AFTER + 3] = rent_after
    params[P_START_CARDS:P_START_CARDS + 4] = start
    return RulesArrays(resource_counts=counts, objectives=np.array(objectives, np.int64).reshape(-1, 3),
                       censitaire_counts=cc_counts, seigneur_counts=sc_counts,
                       allowed_players=tuple(sorted(allowed)), params=params, source=src,
                       pay_order=PAY_ORDERS.index(pay_order),
                       card_effects=np.array([recolte_draws, troc_draws, requisition_draws,
                                              corvee_discards, troc_discards, int(cachette_hides)],
                                             np.int64))


# SG-2 Objective cards in words: one numbering and one wording for every text that names a card (the
# replay's log; the report's objective-card table numbers and words its cards the same way).

def objective_number(index: int) -> str:
    """Objective card ``index`` (0-based: its place in ``objectives.cards``, the ``objective`` column
    of players.parquet) as a person numbers it: from #1, so ``#1`` is the deck's first card."""
    return f"#{int(index) + 1}"


def objective_label(card: dict) -> str:
    """An Objective card's requirement in words (``grain ≥ 6, wood ≥ 4``): each type it requires by
    its rules-file name, in the order of ``card`` (type name → amount; a type of amount 0 is left out)."""
    return ", ".join(f"{k} ≥ {v}" for k, v in card.items() if v)


def objective_card(rules: RulesArrays, index: int) -> dict:
    """Objective card ``index`` of ``rules`` as type name → amount: the amounts of
    ``rules.objectives``, the types in the order the rules file lists them on that card
    (``{ wood = 6, grain = 4 }`` stays wood first), the types it does not list after them."""
    amounts = {t: int(v) for t, v in zip(RESOURCE_TYPES, rules.objectives[index])}
    try:
        listed = [k for k in rules.source.data["objectives"]["cards"][index] if k in amounts]
    except (KeyError, IndexError, TypeError, AttributeError):
        listed = []
    return {t: amounts[t] for t in listed + [t for t in RESOURCE_TYPES if t not in listed]}


def read_at(rules: RulesArrays, n_players: int) -> dict:
    """The rules as a game of ``n_players`` players reads them (:func:`simcore.games.rules_read_at`):
    every array the kernel is given, with the per-count settings of another count (SG-1 midpoint,
    goal, rent before / after: only ``[n_players]`` is read) and the start cards of a Censitaire seat
    this count does not have set to -1, the Seigneur cards per year read as the kernel reads them
    (0 = as many as there are players, SG-3), and ``players.allowed`` as whether it allows this
    count. Two rule sets equal here play the same games at this count."""
    params = rules.params.copy()
    n = int(n_players)
    for base in (P_MIDPOINT, P_GOAL, P_RENT_BEFORE, P_RENT_AFTER):
        for count in range(MIN_PLAYERS, MAX_PLAYERS + 1):
            if count != n:
                params[base + count - MIN_PLAYERS] = -1
    params[P_START_CARDS + max(n - 1, 0):P_START_CARDS + MAX_CENSITAIRES] = -1
    params[P_SC_PER_YEAR] = rules.seigneur_cards_per_year(n)
    return {"resource_counts": rules.resource_counts, "objectives": rules.objectives,
            "censitaire_counts": rules.censitaire_counts, "seigneur_counts": rules.seigneur_counts,
            "allowed": n in rules.allowed_players, "params": params, "pay_order": int(rules.pay_order),
            "card_effects": rules.card_effects}


def check_players(rules: RulesArrays, n_players: int) -> None:
    """SG-1: refuse a player count the engines or the rules file do not allow (UsageError)."""
    if not MIN_PLAYERS <= n_players <= MAX_PLAYERS:
        raise UsageError(f"--players {n_players}: Seigneurial is played by {MIN_PLAYERS} to "
                         f"{MAX_PLAYERS} players (1 Seigneur and 2-4 Censitaires, SG-1)")
    if n_players not in rules.allowed_players:
        raise UsageError(f"--players {n_players}: {rules.source.name} allows "
                         f"{', '.join(map(str, rules.allowed_players))} players (players.allowed)")
