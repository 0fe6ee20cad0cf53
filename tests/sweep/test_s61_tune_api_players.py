"""Review s61 panels/tune #3: the Python API of a panel tune, as docs/sweep.md documents it
(``tune(game, …, panel="wide", players=4)``), stopped before any game on "--players [4]: expected
a player count" (plan_tune wrapped the int in a list, and parse_players read the list's text); only
``players="4"`` worked. An int, a list of ints and the text all name the same cells now."""

from __future__ import annotations

import pytest

from analysis.tune.search import plan_tune
from simcore.errors import UsageError
from strategies.panels import parse_players

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

PLAN = dict(varies=["track.start_square=0..3"], targets=["role=seigneur:0.30:10"], trials=2,
            min_games=200, max_games=200, confirm_games=1000)


def _cells(plan) -> list[tuple[int, tuple[str, ...]]]:
    return [(c.players, c.lineup) for c in plan.panel.cells]


def test_a_panel_tune_takes_players_as_an_int_a_list_or_text():
    as_text = plan_tune("seigneurial", panel="default", players="4", **PLAN)
    for given in (4, [4], (4,)):
        plan = plan_tune("seigneurial", panel="default", players=given, **PLAN)
        assert _cells(plan) == _cells(as_text), given
    wide = plan_tune("seigneurial", panel="wide", players=[3, 4], **PLAN)
    assert {c.players for c in wide.panel.cells} == {3, 4}
    assert _cells(wide) == _cells(plan_tune("seigneurial", panel="wide", players="3,4", **PLAN))


def test_parse_players_reads_an_int_a_list_and_text_alike():
    assert parse_players(4) == parse_players("4") == parse_players([4]) == [4]
    assert parse_players([3, 4, 5]) == parse_players(("3", "4", "5")) == parse_players("3..5") == [3, 4, 5]
    with pytest.raises(UsageError, match=r"^--players 3,x: expected a player count"):
        parse_players([3, "x"])
    with pytest.raises(UsageError, match="no player count"):
        parse_players([])
