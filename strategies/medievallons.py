"""Médiévallons strategies as data: TOML → the parameter rows the kernel interprets (MV-8).

A strategy is a named table (``configs/medievallons/strategies.toml`` holds the presets): a kind
(random, heuristic, playout), weights on the MV-8 features and a per-card-type bias.
:func:`resolve` turns what a user typed — preset names and paths to TOML files (``bot.toml`` holding
one strategy, or ``bots.toml:name``) — into one float64 row per seat, validating every key: a wrong
feature name or value is one clear error line.

May import numpy, the standard library and :mod:`simcore`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simcore.config import Table, shipped_configs
from simcore.games.medievallons.layout import (
    FEATURES, N_STRAT_COLS, STRAT_HEURISTIC, STRAT_PLAYOUT, STRAT_RANDOM, STRAT_SEARCH, S_BIAS,
    S_CANDIDATES, S_HORIZON, S_KIND, S_PLAYOUTS, S_PRIOR, S_SEARCH,
)
from simcore.games.medievallons.rules import CARD_TYPES
from strategies.common import StrategyFiles, check_search_settings, check_weights, weights_and_bias
from strategies.search import SearchSettings, parse_search

KINDS = {"random": STRAT_RANDOM, "heuristic": STRAT_HEURISTIC, "playout": STRAT_PLAYOUT}
MAX_PLAYOUTS = 256
# the search bot's playouts stop after 4 turns (one round at 4 players) and the position is valued
# by the playout bot's standing: about as strong as playing to the end (docs/search.md) and ~10x
# quicker (a game is ~50 turns)
DEFAULT_HORIZON = 4


@dataclass(frozen=True)
class Strategy:
    name: str
    description: str
    kind: str
    weights: dict
    bias: dict
    playouts: int
    horizon: int
    candidates: int
    prior: float
    row: np.ndarray   # float64[N_STRAT_COLS], what the kernel reads
    search: SearchSettings | None = None    # kind = "search" (strategies.search)


def presets_path() -> Path:
    return shipped_configs() / "medievallons" / "strategies.toml"


def parse_strategy(t: Table, name: str) -> Strategy:
    description = t.get("description", str, "")
    kind = t.get("kind", str, choices=list(KINDS))
    weights, bias = weights_and_bias(t, FEATURES, CARD_TYPES, "card type")
    playouts = t.get("playouts", int, 8, lo=1, hi=MAX_PLAYOUTS)
    horizon = t.get("horizon", int, 8, lo=0, hi=10000)
    candidates = t.get("candidates", int, 4, lo=1, hi=64)
    prior = t.get("prior", float, 0.0, lo=0.0, hi=1000.0)
    t.done()
    check_weights(t, kind, weights, bias, FEATURES)
    check_search_settings(t, kind, "playout", ("playouts", "horizon", "candidates", "prior"))
    row = np.zeros(N_STRAT_COLS, np.float64)
    row[S_KIND] = KINDS[kind]
    for k, v in weights.items():
        row[1 + FEATURES.index(k)] = v
    for k, v in bias.items():
        row[S_BIAS + CARD_TYPES.index(k)] = v
    row[S_PLAYOUTS] = playouts
    row[S_HORIZON] = horizon
    row[S_CANDIDATES] = candidates
    row[S_PRIOR] = prior
    return Strategy(name, description, kind, weights, bias, playouts, horizon, candidates, prior,
                    row)


def parse_search_strategy(t: Table, name: str, known: dict) -> Strategy:
    """A ``kind = "search"`` table (:mod:`strategies.search`): judges every action by determinized
    playouts (simcore.games.medievallons.search); its other decisions are its policy's."""
    description, settings, pol, row = parse_search(
        t, known, "balanced", allowed_kinds=("random", "heuristic"), kind_of=lambda s: s.kind,
        row_of=lambda s: s.row, kind_code=STRAT_SEARCH, s_search=S_SEARCH,
        policy_kind_of=lambda s: KINDS[s.kind], default_horizon=DEFAULT_HORIZON)
    return Strategy(name, description, "search", pol.weights, pol.bias, settings.playouts, 0, 0,
                    0.0, row, settings)


LOADER = StrategyFiles(presets_path, parse_strategy, N_STRAT_COLS, parse_search_strategy)
load_file, presets, lookup, resolve = LOADER.load_file, LOADER.presets, LOADER.lookup, LOADER.resolve
