"""Session 56 designer review #4: the "holds for" advice names a panel that covers what it says.

A 3-player Middle-Ages run's page said "for other line-ups and player counts, simulate --game
middle-ages --panel default … plays the game's panel", but every game's shipped ``default`` panel
plays 4 players only: it covers neither other player counts nor the run's own 3. The advice now
names a shipped panel that plays other player counts (``wide``), says which counts it plays, and
where a game ships none, the command that plays them (``--players LO..HI``); a before/after says
the same. Checked for every game the registry holds, at every player count it takes: the command
suggested is one simulate accepts, and its panel plays the counts the sentence names."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from simcore import games as registry

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

COMMAND = re.compile(r"simulate --game (\S+) (?:--panel (\S+)|--players (\d+)\.\.(\d+)(?: --lineup (\S+))?) "
                     r"--games (\d+) --out (?:DIR|BASE)")


def _run(game: str, players: int, lineup=None, games: int = 20_000):
    spec = registry.get(game)
    if lineup is None:
        from strategies.panels import single

        lineup = list(single(game, players).cells[0].lineup)
    return SimpleNamespace(game=game, n_players=players, metas=[{"strategies": lineup, "games": games}])


def _cases():
    for name, spec in registry.specs().items():
        lo, hi = spec.players
        for p in range(lo, hi + 1):
            yield name, p


def _counts(text: str) -> list[int]:
    """"2 to 5 players" → [2, 3, 4, 5]; "3 and 5 players" → [3, 5]; "4 players" → [4]."""
    m = re.fullmatch(r"(\d+) to (\d+)", text)
    if m:
        return list(range(int(m.group(1)), int(m.group(2)) + 1))
    return [int(x) for x in re.findall(r"\d+", text)]


@pytest.mark.parametrize("game, players", list(_cases()))
def test_the_run_pages_advice_plays_other_player_counts_and_says_which(game, players):
    from reports.text import scope_line
    from strategies.panels import from_options

    spec = registry.get(game)
    said = scope_line(_run(game, players) if spec.strategies is not None else
                      SimpleNamespace(game=game, n_players=players, metas=[{"games": 100}]))
    if spec.strategies is None:                  # a Fief combat: no bots to line up
        assert said == []
        return
    assert len(said) == 1
    line = said[0]
    assert line.startswith("These findings hold for the line-up this run played, "), line
    m = COMMAND.search(line)
    assert m, line
    assert m.group(1) == game and m.group(6) == "20000", line
    panel = (from_options(game, panel=m.group(2)) if m.group(2) else
             from_options(game, players=f"{m.group(3)}..{m.group(4)}",
                          lineups=[m.group(5)] if m.group(5) else ()))
    counts = set(panel.player_counts)
    # "for other line-ups and player counts": the panel plays another count, and the run's own
    assert "for other line-ups and player counts" in line or "for other player counts" in line, line
    assert counts - {players} and players in counts, (line, counts)
    if "other line-ups" in line.split("simulate")[0]:
        assert len(panel.cells) > len(counts), line
    # and the counts it names are the ones it plays
    named = re.search(r"at (\d+(?: to \d+|(?:, \d+)* and \d+)?) players", line[m.end():])
    assert named and set(_counts(named.group(1))) == counts, line
    # a panel of one player count is never offered for other player counts
    for other in re.findall(r"--panel (\S+)", line):
        if other != m.group(2):
            assert f"at {players} players only" in line, line


def test_a_three_player_run_is_not_sent_to_the_four_player_default_panel():
    """The review's page: simulate --players 3 --games 20000, then balance report."""
    from reports.text import scope_line

    line = scope_line(_run("middle-ages", 3))[0]
    assert "--panel default" not in line, line
    assert ("for other line-ups and player counts, simulate --game middle-ages --panel wide --games 20000 "
            "--out DIR plays the game's wide panel (28 cells at 2 to 5 players)") in line, line


def test_a_four_player_run_names_the_default_panel_as_four_players_only():
    from reports.text import scope_line

    line = scope_line(_run("middle-ages", 4, games=100_000))[0]
    assert "--panel wide --games 100000 --out DIR" in line, line
    assert "--panel default plays 3 line-ups at 4 players only" in line, line


def test_without_a_panel_of_other_counts_the_advice_plays_them_with_players():
    """A game that ships no panel of several player counts (its panels.toml edited to hold
    ``default`` alone, or a new game's): the advice is the --players range the game takes, with
    the run's bot when one bot plays every seat, and the one-count panel for other line-ups at the
    run's count only."""
    from analysis.panel_scope import ShippedPanel
    from reports.text import panel_plan

    only4 = (ShippedPanel("default", ((4, 3),)),)
    plan = panel_plan("middle-ages", 3, ["balanced"] * 3, panels=only4)
    assert plan["option"] == "--players 2..5 --lineup balanced", plan
    assert plan["covers"] == "other player counts", plan
    assert "--panel default" not in plan["what"], plan            # it plays no 3-player cell
    plan = panel_plan("middle-ages", 4, ["balanced"] * 4, panels=only4)
    assert plan["option"] == "--players 2..5 --lineup balanced", plan
    assert plan["what"] == ("balanced in every seat at 2 to 5 players (--panel default plays 3 line-ups "
                            "at 4 players only)"), plan
    mixed = panel_plan("middle-ages", 4, ["rollout", "balanced", "balanced", "balanced"], panels=())
    assert mixed["option"] == "--players 2..5" and "the game's default bots" in mixed["what"], mixed


@pytest.mark.parametrize("game, players", [("middle-ages", 3), ("medievallons", 2), ("seigneurial", 5),
                                           ("seigneurial", 4)])
def test_the_before_after_advice_names_the_same_panel(game, players):
    from reports.sections import holds_for
    from strategies.panels import lookup

    rs = _run(game, players)
    line = holds_for(rs, rs)
    m = COMMAND.search(line)
    assert m and m.group(2), line
    counts = lookup(game, m.group(2)).player_counts
    assert players in counts and set(counts) - {players}, line
    assert "the same with the change --out VARIANT" in line and "balance report BASE VARIANT" in line, line


@pytest.mark.parametrize("game", [g for g, s in registry.specs().items() if s.strategies is not None])
def test_the_counted_cells_are_the_loaders(game):
    """analysis.panel_scope counts each shipped panel's cells per player count from the file (the
    reports may not import the bots' loader); the loader's panels have the same cells."""
    from analysis.panel_scope import shipped_panels
    from strategies.panels import panels_path, shipped

    if not panels_path(game).is_file():          # (a test game, tests/conformance/pig: none)
        assert shipped_panels(game) == ()
        return
    loaded = {name: tuple(sorted((p, sum(c.players == p for c in panel.cells)) for p in panel.player_counts))
              for name, panel in shipped(game).items()}
    assert {p.name: p.cells for p in shipped_panels(game)} == loaded


def test_cells_listed_one_by_one_count_at_their_own_player_count():
    from analysis.panel_scope import _panel

    p = _panel("mine", {"players": [3, 4], "lineups": ["balanced", "greedy"],
                        "cells": [{"players": 5, "lineup": "random"}, {"lineup": "pious"}]}, 4)
    assert p.cells == ((3, 2), (4, 3), (5, 1)) and p.size == 6 and p.players == (3, 4, 5)
    assert _panel("only", {"cells": [{"players": 2, "lineup": "random"}]}, 4).cells == ((2, 1),)
