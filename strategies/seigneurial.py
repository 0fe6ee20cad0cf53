"""Seigneurial strategies as data: TOML → the parameter rows the kernel interprets (SG-7).

A strategy is a named table (``configs/seigneurial/strategies.toml`` holds the presets): ``kind =
"random"`` (either role), or ``kind = "policy"`` with a ``seigneur`` table (rent split, favour
distribution, when to play his cards) and/or a ``censitaire`` table (how much rent to pay, sparing
its objective, winter, reserve, Censitaire cards, placement weights). The tables it has are the roles
it can play. :func:`resolve` turns what a user typed -- preset names and paths to TOML files
(``bot.toml`` holding one strategy, or ``bots.toml:name``), one for every seat or one per seat --
into one float64 row per seat, and refuses a bot on a seat whose role it cannot play (seat 0 is the
Seigneur) with one line. :func:`roles_of` tells the ladder which roles a bot plays.

May import numpy, the standard library, :mod:`simcore` and :mod:`strategies.common`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from simcore.config import Table, shipped_configs
from simcore.errors import UsageError
from simcore.games.seigneurial.layout import (
    CORVEE_POLICIES, FAVOUR_POLICIES, KIND_POLICY, KIND_RANDOM, KIND_SEARCH, N_STRAT_COLS,
    PAY_POLICIES, RENT_POLICIES, REQUISITION_POLICIES, S_CARDS, S_CHURCH, S_CORVEE, S_FAVOUR,
    S_KIND, S_OBJECTIVE, S_PAY, S_RENT, S_REQUISITION, S_RESERVE, S_ROLES, S_SEARCH, S_SPARE,
    S_WINTER, WINTER_POLICIES,
)
from strategies.common import StrategyFiles, seat_items
from strategies.search import SearchSettings, parse_search

KINDS = {"random": KIND_RANDOM, "policy": KIND_POLICY}
# the search bot's playouts stop after the decision's turn and the position is valued by the race
# (simcore.games.seigneurial.search.race_estimate): stronger than playing the policy to the end
# for either role (docs/search.md), and quicker
DEFAULT_HORIZON = 1
ROLE_BITS = {"seigneur": 1, "censitaire": 2}
SEIGNEUR_KEYS = {"rent": (S_RENT, RENT_POLICIES), "favour": (S_FAVOUR, FAVOUR_POLICIES),
                 "corvee": (S_CORVEE, CORVEE_POLICIES),
                 "requisition": (S_REQUISITION, REQUISITION_POLICIES)}
CENSITAIRE_CHOICES = {"pay": (S_PAY, PAY_POLICIES), "winter": (S_WINTER, WINTER_POLICIES)}
CENSITAIRE_FLAGS = {"spare_objective": S_SPARE, "reserve": S_RESERVE, "cards": S_CARDS}
CENSITAIRE_WEIGHTS = {"church": S_CHURCH, "objective": S_OBJECTIVE}


@dataclass(frozen=True)
class Strategy:
    name: str
    description: str
    kind: str
    roles: tuple                 # the roles it can play: ("seigneur", "censitaire") or one
    seigneur: dict
    censitaire: dict
    row: np.ndarray              # float64[N_STRAT_COLS], what the kernel reads
    weights: dict = field(default_factory=dict)   # numeric settings (balance strategies lists them)
    bias: dict = field(default_factory=dict)
    search: SearchSettings | None = None    # kind = "search" (strategies.search)

    @property
    def settings_text(self) -> str:
        parts = [f"{role}: " + ", ".join(f"{k}={v}" for k, v in d.items())
                 for role, d in (("seigneur", self.seigneur), ("censitaire", self.censitaire)) if d]
        return "; ".join(parts) or "—"


def presets_path() -> Path:
    return shipped_configs() / "seigneurial" / "strategies.toml"


def parse_strategy(t: Table, name: str) -> Strategy:
    description = t.get("description", str, "")
    kind = t.get("kind", str, choices=list(KINDS))
    row = np.zeros(N_STRAT_COLS, np.float64)
    row[S_KIND] = KINDS[kind]
    seigneur: dict = {}
    censitaire: dict = {}
    if kind == "random":
        for key in ("seigneur", "censitaire"):
            if t.has(key):
                raise t.error(key, "a random strategy takes no settings")
        roles = ("seigneur", "censitaire")
    else:
        roles = tuple(r for r in ("seigneur", "censitaire") if t.has(r))
        if not roles:
            raise t.error("seigneur", "a policy strategy needs a seigneur table, a censitaire "
                                      "table or both (the roles it can play)")
        if t.has("seigneur"):
            s = t.table("seigneur")
            for key, (col, choices) in SEIGNEUR_KEYS.items():
                value = s.get(key, str, choices[0], choices=list(choices))
                seigneur[key] = value
                row[col] = choices.index(value)
            s.done()
        if t.has("censitaire"):
            c = t.table("censitaire")
            for key, (col, choices) in CENSITAIRE_CHOICES.items():
                value = c.get(key, str, choices[1] if key == "pay" else choices[0],
                              choices=list(choices))
                censitaire[key] = value
                row[col] = choices.index(value)
            for key, col in CENSITAIRE_FLAGS.items():
                value = c.get(key, bool, key != "reserve")
                censitaire[key] = value
                row[col] = float(value)
            for key, col in CENSITAIRE_WEIGHTS.items():
                value = c.get(key, float, 1.0 if key == "church" else 2.0, lo=-100, hi=100)
                censitaire[key] = value
                row[col] = value
            c.done()
    t.done()
    row[S_ROLES] = sum(ROLE_BITS[r] for r in roles)
    weights = {k: v for k, v in censitaire.items() if k in CENSITAIRE_WEIGHTS}
    return Strategy(name, description, kind, roles, seigneur, censitaire, row, weights)


def parse_search_strategy(t: Table, name: str, known: dict) -> Strategy:
    """A ``kind = "search"`` table (:mod:`strategies.search`): judges the Seigneur's rent or a
    Censitaire's placement by playouts (simcore.games.seigneurial.search); it plays the roles its
    policy plays, and its other decisions are the policy's."""
    description, settings, pol, row = parse_search(
        t, known, "standard", allowed_kinds=("random", "policy"), kind_of=lambda s: s.kind,
        row_of=lambda s: s.row, kind_code=KIND_SEARCH, s_search=S_SEARCH,
        policy_kind_of=lambda s: KINDS[s.kind], default_horizon=DEFAULT_HORIZON)
    return Strategy(name, description, "search", pol.roles, pol.seigneur, pol.censitaire, row,
                    pol.weights, pol.bias, settings)


LOADER = StrategyFiles(presets_path, parse_strategy, N_STRAT_COLS, parse_search_strategy)
load_file, presets, lookup = LOADER.load_file, LOADER.presets, LOADER.lookup


def roles_of(spec: str, option: str = "--bots") -> tuple[str, ...]:
    """The roles the named bot can play (the ladder groups bots by role with it)."""
    return lookup(spec, option).roles


def seat_role(seat: int) -> str:
    """SG-1: seat 0 is the Seigneur, every other seat a Censitaire."""
    return "seigneur" if seat == 0 else "censitaire"


def resolve(spec: list[str] | str, n_players: int) -> tuple[list[str], np.ndarray]:
    """One strategy for every seat or one per seat → (names per seat, strategy rows); a bot on a
    seat whose role it cannot play is refused with one line."""
    items = [x.strip() for x in spec.split(",")] if isinstance(spec, str) else list(spec)
    if len(items) not in (1, n_players):
        # (a list of one per role was spelled out per seat by simulate: strategies.panels.seats_of_roles)
        lord, tenant = _example_bots(items)
        items = seat_items(items, n_players, per_role=f", or 2, one per role, the Seigneur's first: "
                                                      f"e.g. {lord},{tenant}")
    items = seat_items(items, n_players)
    rows = np.zeros((n_players, N_STRAT_COLS), np.float64)
    cache: dict[str, Strategy] = {}
    for seat, item in enumerate(items):
        if item not in cache:
            cache[item] = lookup(item)
        s = cache[item]
        role = seat_role(seat)
        if role not in s.roles:
            what = "Seigneur" if role == "seigneur" else "Censitaire"
            lord, tenant = _example_bots(items)
            raise UsageError(f"--strategies: seat {seat + 1} is a {what} but {item} plays only the "
                             f"{' and '.join(r.capitalize() for r in s.roles)} role (name "
                             f"one bot per seat, seat 1 the Seigneur, e.g. "
                             f"{','.join([lord] + [tenant] * (n_players - 1))} at {n_players} players, "
                             f"or one per role, the Seigneur's first: {lord},{tenant})")
        rows[seat] = s.row
    return items, rows


def _example_bots(items: list[str]) -> tuple[str, str]:
    """(Seigneur, Censitaire) for the example of a refused line-up (SG-1: seat 1 the Seigneur): the
    first bot named that plays each role, else the shipped ``even-lord`` and ``fair-share``, so that
    the example plays at the player count given (review 225 #4: a 4-player example at 3 players)."""
    found: dict[str, str] = {}
    for item in dict.fromkeys(items):
        try:
            roles = lookup(item).roles
        except UsageError:
            continue
        for role in roles:
            found.setdefault(role, item)
    return found.get("seigneur", "even-lord"), found.get("censitaire", "fair-share")
