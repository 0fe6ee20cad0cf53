"""Middle-Ages strategies as data: TOML → the parameter rows the kernel interprets (MA-11).

A strategy is a named table (``configs/middle_ages/strategies.toml`` holds the presets): a kind
(random, heuristic, rollout), weights on the MA-11 features and a per-type bias. :func:`resolve`
turns what a user typed — preset names and paths to TOML files (``bot.toml`` holding one strategy,
or ``bots.toml:name``) — into one float64 row per seat, validating every key: a wrong feature name
or value is one clear error line.

May import numpy, the standard library and :mod:`simcore`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simcore.config import Table, shipped_configs
from simcore.games.middle_ages.layout import (
    FEATURES, N_STRAT_COLS, STRAT_HEURISTIC, STRAT_RANDOM, STRAT_ROLLOUT, STRAT_SEARCH, S_BIAS,
    S_KIND, S_PLAYOUTS, S_SEARCH,
)
from simcore.games.middle_ages.rules import DOMAINS
from strategies.common import StrategyFiles, check_search_settings, check_weights, weights_and_bias
from strategies.search import SearchSettings, parse_search

KINDS = {"random": STRAT_RANDOM, "heuristic": STRAT_HEURISTIC, "rollout": STRAT_ROLLOUT}
MAX_PLAYOUTS = 1000
# The bots `balance ladder` ranks when --bots is not given (cli.ladder.default_bots): random, two
# heuristics and the rollout planner; a game's strategies module without LADDER_BOTS ranks every
# preset but its search bot.
LADDER_BOTS = ("random", "greedy", "balanced", "rollout")


@dataclass(frozen=True)
class Strategy:
    name: str
    description: str
    kind: str
    weights: dict
    bias: dict
    playouts: int
    row: np.ndarray   # float64[N_STRAT_COLS], what the kernel reads
    search: SearchSettings | None = None    # kind = "search" (strategies.search)


def presets_path() -> Path:
    return shipped_configs() / "middle_ages" / "strategies.toml"


def parse_strategy(t: Table, name: str) -> Strategy:
    description = t.get("description", str, "")
    kind = t.get("kind", str, choices=list(KINDS))
    weights, bias = weights_and_bias(t, FEATURES, DOMAINS, "tile type")
    playouts = t.get("playouts", int, 4, lo=1, hi=MAX_PLAYOUTS)
    t.done()
    check_weights(t, kind, weights, bias, FEATURES)
    check_search_settings(t, kind, "rollout", ("playouts",))
    row = np.zeros(N_STRAT_COLS, np.float64)
    row[S_KIND] = KINDS[kind]
    for k, v in weights.items():
        row[1 + FEATURES.index(k)] = v
    for k, v in bias.items():
        row[S_BIAS + DOMAINS.index(k)] = v
    row[S_PLAYOUTS] = playouts
    return Strategy(name, description, kind, weights, bias, playouts, row)


def parse_search_strategy(t: Table, name: str, known: dict) -> Strategy:
    """A ``kind = "search"`` table (:mod:`strategies.search`): judges every Lord move by playouts
    (simcore.games.middle_ages.search); its other decisions, and its playouts, are its policy's."""
    description, settings, pol, row = parse_search(
        t, known, "balanced", allowed_kinds=("random", "heuristic"), kind_of=lambda s: s.kind,
        row_of=lambda s: s.row, kind_code=STRAT_SEARCH, s_search=S_SEARCH, horizon_unit=None,
        policy_kind_of=lambda s: KINDS[s.kind])
    return Strategy(name, description, "search", pol.weights, pol.bias, settings.playouts, row,
                    settings)


LOADER = StrategyFiles(presets_path, parse_strategy, N_STRAT_COLS, parse_search_strategy)
load_file, presets, lookup, resolve = LOADER.load_file, LOADER.presets, LOADER.lookup, LOADER.resolve
