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
    names = default_bots(spec, S).split(",")
    assert len(set(names)) >= 2 and len(set(names)) == len(names)
    for b in names:
        S.lookup(b, option="--bots")            # (raised for Médiévallons's "greedy")
    if game == "middle-ages":
        assert names == ["random", "greedy", "balanced", "rollout"]        # as it always was
        assert names == list(S.LADDER_BOTS)
    elif not spec.roles_alike:
        assert names == list(presets)           # a game with roles: every preset, by role
    else:                                       # every preset but the search bot (slow)
        assert names == [n for n, p in presets.items() if getattr(p, "kind", None) != "search"]
        assert spec.default_strategy in names and "random" in names


def test_a_matchup_of_one_deal_is_refused_before_any_game(capsys):
    """``--games 3`` at 4 players is one rotation of the seats, one deal: no spread between deals,
    and every cell printed "25.0% (nan–nan)" (designer review 44, ladder #5)."""
    from cli import _run
    assert _run(["ladder", "--bots", "random,greedy", "--games", "3"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == ("error: --games 3: a matchup needs at least 2 deals for its interval (8 games at 4 "
                   "players: one rotation of the seats is a deal)")
    assert _run(["ladder", "--bots", "random,greedy", "--games", "4", "--players", "3,5"]) == 2
    assert "(10 games at 5 players" in capsys.readouterr().err
