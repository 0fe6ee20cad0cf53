"""``balance ladder`` without --bots ranks bots of the game asked for (designer review 44, ladder
#1: the default was Middle-Ages's "random,greedy,balanced,rollout" for every game, and
``balance ladder --game medievallons`` stopped on "unknown strategy 'greedy'", as did --panel and
--lineup, which take no --bots)."""

from __future__ import annotations

import importlib

import pytest

from cli.ladder import default_bots
from simcore import games as registry


@pytest.mark.parametrize("game", [g for g in registry.specs() if registry.get(g).strategies is not None])
def test_the_default_bots_are_the_games_own_presets(game):
    spec = registry.get(game)
    S = importlib.import_module(spec.strategies)
    presets = S.presets()
    names = default_bots(spec, presets).split(",")
    assert len(set(names)) >= 2 and len(set(names)) == len(names)
    for b in names:
        S.lookup(b, option="--bots")            # (raised for Médiévallons's "greedy")
    if game == "middle-ages":
        assert names == ["random", "greedy", "balanced", "rollout"]        # as it always was
    elif not spec.roles_alike:
        assert names == list(presets)           # a game with roles: every preset, by role
    else:                                       # every preset but the search bot (slow)
        assert names == [n for n, p in presets.items() if getattr(p, "kind", None) != "search"]
        assert spec.default_strategy in names and "random" in names
