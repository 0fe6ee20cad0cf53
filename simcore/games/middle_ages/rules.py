"""Middle-Ages rules as data: load and validate ``rules.toml`` into frozen fixed-dtype arrays.

:func:`load` reads the designer-editable TOML (the default ships in ``configs/middle_ages/``),
checks every key (unknown keys, wrong types, counts that do not add up) and returns
:class:`RulesArrays`, the only form of the rules the kernel and the reference engine see.
:func:`check_tile_supply` decides statically whether a tile table has enough tiles for a player
count under MA-7 (the number of tiles drawn and discarded does not depend on any choice).

May import numpy, the standard library and :mod:`simcore.config` / :mod:`simcore.errors`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from simcore.config import RulesFile, Table, TomlSource
from simcore.errors import ConfigError

# MA-1: Domain / tile types in board order (used by MA-9, MA-10 and every per-type array).
DOMAINS = ("champs", "moulin", "village", "rempart", "marche", "caserne", "eglise", "palais")
CHAMPS, MOULIN, VILLAGE, REMPART, MARCHE, CASERNE, EGLISE, PALAIS = range(8)
N_TYPES = 8
N_ROWS = 4          # MA-3
N_TURNS = 16        # MA-4
N_EVENTS = 4        # MA-3: four Event cards fire, at the end of turns 4, 8, 12, 16
MIN_PLAYERS, MAX_PLAYERS = 2, 5
BLUE, ORANGE = 0, 1

# Indices into RulesArrays.params (an int64 vector, so the kernel takes one array of scalars).
P_START_COINS = 0           # MA-1: seat s starts with params[P_START_COINS + s] coins (s < 5)
P_EXTRA_TOKENS = 5
P_CHAMPS_PER_PEASANT = 6
P_MARCHE_PER_CHEST = 7
P_MOULIN_PAYMENT = 8
P_CASERNE_PAYMENT = 9
P_EXTRA_BONUS = 10
P_EMPTY_PENALTY = 11
P_ALLOW_NEGATIVE = 12
N_PARAMS = 13

# The rules file written once (simcore.config.RulesFile): the shipped default, load, loads.
RULES = RulesFile("middle_ages", lambda src: from_source(src))
default_rules_path, load, loads, variant = (RULES.default_rules_path, RULES.load, RULES.loads,
                                          RULES.variant)


@dataclass(frozen=True)
class RulesArrays:
    """The rules of one Middle-Ages variant as read-only numpy arrays (no Python objects).

    Attributes
    ----------
    tile_type, tile_number, tile_stack, tile_peasants, tile_chests : int8[n_tiles]
        MA-2 tile table, indexed by tile id.
    income_base : int16[8]
        MA-6 base coins per counted tile for each Domain.
    income_counts : int8[8, 8]
        MA-6 ``income_counts[d, t] == 1`` when Domain d's Income counts tiles of type t.
    plot_supply : int8[8]
        MA-1 Plot tokens of each type in the supply at the start.
    tie_break : int8[8]
        MA-9 tile types compared, in order, when coins are equal.
    event_ids : int8[n_events]
        MA-8 ids of the cards in the deck (the deck order before shuffling).
    event_per_tile : int16[n_events, 8]; event_per_peasant, event_per_chest,
    event_per_graveyard, event_per_domain, event_restore : int16[n_events]
    event_lose : int8[n_events, 8]
        MA-8 card effects (see the comments in rules.toml).
    params : int64[N_PARAMS]
        Scalar settings, indexed by the ``P_*`` constants of this module (the start coins of seat
        s at ``P_START_COINS + s``).
    start_coins_listed : int
        0 when ``setup.start_coins`` is one number (every seat); else how many seats its per-seat
        list names (a game needs one value per seat: :func:`check_seats`).
    """

    tile_type: np.ndarray
    tile_number: np.ndarray
    tile_stack: np.ndarray
    tile_peasants: np.ndarray
    tile_chests: np.ndarray
    income_base: np.ndarray
    income_counts: np.ndarray
    plot_supply: np.ndarray
    tie_break: np.ndarray
    event_ids: np.ndarray
    event_names: tuple
    event_per_tile: np.ndarray
    event_per_peasant: np.ndarray
    event_per_chest: np.ndarray
    event_per_graveyard: np.ndarray
    event_per_domain: np.ndarray
    event_lose: np.ndarray
    event_restore: np.ndarray
    params: np.ndarray
    source: TomlSource
    start_coins_listed: int = 0

    def __post_init__(self) -> None:
        for f in fields(self):
            v = getattr(self, f.name)
            if isinstance(v, np.ndarray):
                v.setflags(write=False)

    @property
    def n_tiles(self) -> int:
        return int(self.tile_type.shape[0])

    def param(self, index: int) -> int:
        return int(self.params[index])

    def start_coins(self, seat: int) -> int:
        """MA-1: the coins seat ``seat`` (0 = first player) starts with."""
        return int(self.params[P_START_COINS + seat])

    def event_name(self, event_id: int) -> str:
        for i, e in enumerate(self.event_ids):
            if int(e) == event_id:
                return self.event_names[i]
        return f"event {event_id}"

    def kernel_args(self) -> tuple:
        """The arrays in the order the kernel and reference take them."""
        return (self.tile_type, self.tile_number, self.tile_stack, self.tile_peasants,
                self.tile_chests, self.income_base, self.income_counts, self.plot_supply,
                self.tie_break, self.event_ids, self.event_per_tile, self.event_per_peasant,
                self.event_per_chest, self.event_per_graveyard, self.event_per_domain,
                self.event_lose, self.event_restore, self.params)


def from_source(src: TomlSource) -> RulesArrays:
    top = Table(src.data, src.name)
    setup = top.table("setup")
    # MA-10: coins never go below 0 unless the designer scores on paper (allow_negative_coins), so
    # a negative start purse has a meaning only then
    allow_negative = top.table("scoring", {}).get("allow_negative_coins", bool, False)
    # MA-1 [assumption]: one number for every seat, or a per-seat list (compensation for seat order)
    try:
        start_coins, coins_listed = setup.per_seat("start_coins", int, 0,
                                                   lo=-1000 if allow_negative else 0, hi=1000,
                                                   max_seats=MAX_PLAYERS)
    except ConfigError as exc:
        if allow_negative or "must be >=" not in exc.problem:
            raise
        raise ConfigError(exc.source, exc.key, exc.problem + ": coins never go below 0 (MA-10; "
                          "scoring.allow_negative_coins = true allows -1000 to 1000); to compensate "
                          "a seat, give the others more") from None
    extra_tokens = setup.get("extra_coin_tokens", int, 8, lo=0, hi=64)
    plot_tokens = setup.names("plot_tokens", list(DOMAINS), list(DOMAINS))
    declared_blue = setup.get("blue_tiles", int, lo=0, hi=127)
    declared_orange = setup.get("orange_tiles", int, lo=0, hi=127)
    setup.done()

    eff = top.table("effects", {})
    champs_pp = eff.get("champs_coins_per_peasant", int, 1, lo=0, hi=100)     # MA-6: an income, never negative
    marche_pc = eff.get("marche_coins_per_chest", int, 1, lo=0, hi=100)
    moulin_pay = eff.get("moulin_payment", int, 2, lo=0, hi=100)
    caserne_pay = eff.get("caserne_payment", int, 2, lo=0, hi=100)
    extra_bonus = eff.get("extra_coin_bonus", int, 1, lo=0, hi=100)
    eff.done()

    inc = top.table("income")
    income_base = np.zeros(N_TYPES, np.int16)
    income_counts = np.zeros((N_TYPES, N_TYPES), np.int8)
    for d, name in enumerate(DOMAINS):
        t = inc.table(name)
        income_base[d] = t.get("base", int, lo=0, hi=100)   # MA-6: the book has no negative income
        for c in t.names("counts", list(DOMAINS)):
            income_counts[d, DOMAINS.index(c)] = 1
        t.done()
    inc.done()

    sc = top.table("scoring", {})
    empty_penalty = sc.get("empty_domain_penalty", int, 10, lo=0, hi=1000)   # a penalty: taken, never given
    allow_negative = sc.get("allow_negative_coins", bool, False)
    tie_break = sc.names("tie_break", list(DOMAINS), list(reversed(DOMAINS)))
    if sorted(tie_break) != sorted(DOMAINS):
        raise sc.error("tie_break", "must list each of the 8 tile types exactly once")
    sc.done()

    events = _load_events(top)
    tiles = _load_tiles(top, declared_blue, declared_orange)
    top.done()

    plot_supply = np.zeros(N_TYPES, np.int8)
    for p in plot_tokens:
        plot_supply[DOMAINS.index(p)] += 1
    params = np.zeros(N_PARAMS, np.int64)
    params[P_START_COINS:P_START_COINS + MAX_PLAYERS] = start_coins
    params[P_EXTRA_TOKENS] = extra_tokens
    params[P_CHAMPS_PER_PEASANT] = champs_pp
    params[P_MARCHE_PER_CHEST] = marche_pc
    params[P_MOULIN_PAYMENT] = moulin_pay
    params[P_CASERNE_PAYMENT] = caserne_pay
    params[P_EXTRA_BONUS] = extra_bonus
    params[P_EMPTY_PENALTY] = empty_penalty
    params[P_ALLOW_NEGATIVE] = int(allow_negative)
    return RulesArrays(
        *tiles, income_base=income_base, income_counts=income_counts, plot_supply=plot_supply,
        tie_break=np.array([DOMAINS.index(t) for t in tie_break], np.int8), **events,
        params=params, source=src, start_coins_listed=coins_listed)


def read_at(rules: RulesArrays, n_players: int) -> dict:
    """The rules as a game of ``n_players`` players reads them (:func:`simcore.games.rules_read_at`):
    the kernel's arrays (:meth:`RulesArrays.kernel_args`) and the event names, with the start coins
    of a seat this count does not have set to -1 (MA-1: ``setup.start_coins`` [1, 0, 0] and
    [1, 0, 0, 0] are the same coins at 3 players). How many seats a per-seat list names is left out:
    it decides only whether the count may be played (:func:`check_seats`). Two rule sets equal here
    play the same games at this count."""
    params = rules.params.copy()
    n = min(max(int(n_players), 0), MAX_PLAYERS)
    params[P_START_COINS + n:P_START_COINS + MAX_PLAYERS] = -1
    args = rules.kernel_args()
    out = {f"arg{k}": a for k, a in enumerate(args[:-1])}
    return {**out, "params": params, "event_names": tuple(rules.event_names)}


def check_seats(rules: RulesArrays, n_players: int) -> None:
    """MA-1: a per-seat ``setup.start_coins`` list must name every seat of the game."""
    k = rules.start_coins_listed
    if 0 < k < n_players:
        raise ConfigError(rules.source.name, "setup.start_coins",
                          f"lists {k} seat{'s' if k != 1 else ''} but a {n_players}-player game has "
                          f"{n_players} (one value per seat, seat 1 first, or one number for all)")


def _load_events(top: Table) -> dict:
    rows = []
    seen: set[int] = set()
    for ev in top.tables("events"):
        eid = ev.get("id", int, lo=0, hi=127)
        if eid in seen:
            raise ev.error("id", f"duplicate event id {eid}")
        seen.add(eid)
        name = ev.get("name", str)
        in_deck = ev.get("in_deck", bool, True)
        per_tile = np.zeros(N_TYPES, np.int16)
        pt = ev.table("per_tile", {})
        for k in list(pt.data):
            if k not in DOMAINS:
                raise pt.error(k, f"unknown tile type (known: {', '.join(DOMAINS)})")
            per_tile[DOMAINS.index(k)] = pt.get(k, int, lo=-100, hi=100)
        pt.done()
        lose = np.zeros(N_TYPES, np.int8)
        for k in ev.names("lose", list(DOMAINS), []):
            lose[DOMAINS.index(k)] += 1
        row = dict(
            id=eid, name=name, per_tile=per_tile, lose=lose,
            per_peasant=ev.get("per_peasant", int, 0, lo=-100, hi=100),
            per_chest=ev.get("per_chest", int, 0, lo=-100, hi=100),
            per_graveyard=ev.get("per_graveyard_tile", int, 0, lo=-100, hi=100),
            per_domain=ev.get("per_nonempty_domain", int, 0, lo=-100, hi=100),
            restore=ev.get("restore", int, 0, lo=0, hi=16),
        )
        ev.done()
        if in_deck:
            rows.append(row)
    if len(rows) < N_EVENTS:
        raise top.error("events", f"the deck has {len(rows)} card(s) in it; MA-3 draws {N_EVENTS}")
    return dict(
        event_ids=np.array([r["id"] for r in rows], np.int8),
        event_names=tuple(r["name"] for r in rows),
        event_per_tile=np.stack([r["per_tile"] for r in rows]).astype(np.int16),
        event_per_peasant=np.array([r["per_peasant"] for r in rows], np.int16),
        event_per_chest=np.array([r["per_chest"] for r in rows], np.int16),
        event_per_graveyard=np.array([r["per_graveyard"] for r in rows], np.int16),
        event_per_domain=np.array([r["per_domain"] for r in rows], np.int16),
        event_lose=np.stack([r["lose"] for r in rows]).astype(np.int8),
        event_restore=np.array([r["restore"] for r in rows], np.int16),
    )


def _load_tiles(top: Table, declared_blue: int, declared_orange: int) -> tuple:
    tt = top.table("tile_table")
    rows = tt.tables("rows")
    tt.done()
    n = len(rows)
    if n == 0 or n > 127:
        raise tt.error("rows", f"needs 1 to 127 tiles, got {n}")
    tile_type = np.zeros(n, np.int8)
    number = np.zeros(n, np.int8)
    stack = np.zeros(n, np.int8)
    peasants = np.zeros(n, np.int8)
    chests = np.zeros(n, np.int8)
    seen: set[int] = set()
    for row in rows:
        tid = row.get("id", int, lo=0, hi=n - 1)
        if tid in seen:
            raise row.error("id", f"duplicate tile id {tid}")
        seen.add(tid)
        tile_type[tid] = DOMAINS.index(row.get("type", str, choices=list(DOMAINS)))
        number[tid] = row.get("number", int, lo=0, hi=99)
        stack[tid] = (BLUE, ORANGE)[["blue", "orange"].index(row.get("stack", str, choices=["blue", "orange"]))]
        peasants[tid] = row.get("peasants", int, 0, lo=0, hi=9)
        chests[tid] = row.get("chests", int, 0, lo=0, hi=9)
        row.done()
    n_blue = int((stack == BLUE).sum())
    n_orange = n - n_blue
    if n_blue != declared_blue:
        raise ConfigError(top.source, "setup.blue_tiles",
                          f"says {declared_blue} but tile_table has {n_blue} blue tiles")
    if n_orange != declared_orange:
        raise ConfigError(top.source, "setup.orange_tiles",
                          f"says {declared_orange} but tile_table has {n_orange} orange tiles")
    return tile_type, number, stack, peasants, chests


def draw_sources(n_players: int) -> tuple[str, ...]:
    """MA-7: where tiles come from, in order, once the blue stack is empty."""
    return {2: ("discard",), 3: ("discard",), 4: ("orange",), 5: ("orange", "discard")}[n_players]


def check_tile_supply(rules: RulesArrays, n_players: int) -> int:
    """MA-7: play out the tile counts of a game; return the number of reshuffles of the discards.

    Raises :class:`ConfigError` naming the table and player count when the tiles run out.
    Counts are choice-free: 4 rows of (players + 1) are dealt, each turn discards one tile, and
    turns 1-12 refill one row.
    """
    if not MIN_PLAYERS <= n_players <= MAX_PLAYERS:
        raise ValueError(n_players)
    width = n_players + 1
    pile = int((rules.tile_stack == BLUE).sum())
    orange = int((rules.tile_stack == ORANGE).sum())
    sources = list(draw_sources(n_players))
    discards = 0
    reshuffles = 0

    def draw(k: int) -> None:
        nonlocal pile, orange, discards, reshuffles
        for _ in range(k):
            while pile == 0:
                if sources and sources[0] == "orange":
                    sources.pop(0)
                    pile, orange = orange, 0
                elif sources and sources[0] == "discard" and discards > 0:
                    pile, discards = discards, 0
                    reshuffles += 1
                else:
                    raise ConfigError(rules.source.name, "tile_table",
                                      f"not enough tiles for {n_players} players under MA-7 "
                                      f"({int((rules.tile_stack == BLUE).sum())} blue, "
                                      f"{int((rules.tile_stack == ORANGE).sum())} orange)")
            pile -= 1

    draw(N_ROWS * width)
    for t in range(1, N_TURNS + 1):
        discards += 1
        if t <= 12:
            draw(width)
    return reshuffles
