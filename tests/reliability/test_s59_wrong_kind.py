"""Review s59 (helper 226) #4: a file of the wrong kind got a line that did not say what the file
is: a strategies file given as rules ("setup: missing table"), another game's strategies
("standard.kind: must be one of random, heuristic, rollout; got 'policy'"), a rules file given as a
panel ("setup.start_coins: unknown key"). The loaders now recognise a strategies file, a panels
file and another game's strategies (:func:`simcore.config.wrong_kind`,
:func:`simcore.config.other_game_strategies`) and say so in the one line, as they did for a
baseline and for another game's rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from simcore import atomic

from in_process import balance

CONFIGS = Path(__file__).resolve().parents[2] / "configs"
MA, SG = CONFIGS / "middle_ages", CONFIGS / "seigneurial"


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    yield
    atomic.release_claims()


def _refused(*args) -> str:
    done = balance(*args, check=False)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    assert not Path("o").exists()
    return lines[0]


@pytest.mark.parametrize("command", [["simulate", "--games", 200], ["skill", "--games", 200]])
def test_a_strategies_file_given_as_rules_is_named(command):
    line = _refused(*command, "--out", "o", "--rules", MA / "strategies.toml")
    assert "strategies.toml: is a strategies file of middle-ages" in line, line
    assert "not a rules file" in line and "--strategies" in line and "missing table" not in line


def test_a_panels_file_given_as_rules_is_named():
    line = _refused("simulate", "--games", 200, "--out", "o", "--rules", MA / "panels.toml")
    assert "panels.toml: is a panels file" in line and "not a rules file" in line, line
    assert "--panel" in line


def test_a_rules_file_given_as_a_panel_is_named():
    line = _refused("sweep", "--games", 200, "--out", "o", "--vary", "income.palais.base=2..3",
                    "--panel", MA / "rules.toml")
    assert "rules.toml: is a rules file of middle-ages" in line and "not a panels file" in line, line
    assert "unknown key" not in line


def test_a_strategies_file_given_as_a_panel_is_named():
    line = _refused("sweep", "--games", 200, "--out", "o", "--vary", "income.palais.base=2..3",
                    "--panel", MA / "strategies.toml")
    assert "is a strategies file of middle-ages" in line and "not a panels file" in line, line


@pytest.mark.parametrize("command", [["simulate", "--games", 200], ["skill", "--games", 200]])
def test_another_games_strategies_are_named(command):
    line = _refused(*command, "--out", "o", "--strategies", SG / "strategies.toml")
    assert 'kind "policy" (bots standard, fair-share, objective, …): a kind of bot of seigneurial, which ' \
           "middle-ages does not have (its kinds: heuristic, random, rollout, search)" in line, line
    assert line.endswith("if the file is written for seigneurial, give --game seigneurial") and "must be one of" not in line
    line = _refused(*command, "--game", "seigneurial", "--out", "o", "--strategies", MA / "strategies.toml")
    assert "kinds of bot of middle-ages, which seigneurial does not have (its kinds: policy, random, " \
           "search)" in line and line.endswith("give --game middle-ages"), line


def test_another_games_kind_of_bot_is_named_without_promising_the_file_works_there(tmp_path):
    """Review s59 rv235 #4: a lone policy bot given to Middle-Ages was said to hold "the strategies
    of seigneurial … add --game seigneurial", and Seigneurial refused it in turn (a policy bot needs
    a seigneur table): the line says only what is known, the kind's game and this game's kinds."""
    mine = tmp_path / "my2.toml"
    mine.write_text('[sly]\nkind = "policy"\n')
    line = _refused("simulate", "--games", 100, "--out", "o", "--strategies", mine)
    assert "holds the strategies of" not in line and "add --game" not in line, line
    assert ('kind "policy" (bot sly): a kind of bot of seigneurial, which middle-ages does not have '
            "(its kinds: heuristic, random, rollout, search); if the file is written for seigneurial, "
            "give --game seigneurial") in line, line
    # and Seigneurial's own line where it is given there
    line = _refused("simulate", "--game", "seigneurial", "--games", 100, "--out", "o", "--strategies", mine)
    assert "seigneur" in line and "kinds of bot" not in line, line


def test_a_strategies_file_of_this_game_with_a_mistake_keeps_its_own_line(tmp_path):
    mine = tmp_path / "mine.toml"
    mine.write_text('[sly]\nkind = "heuristc"\n')
    line = _refused("simulate", "--games", 200, "--out", "o", "--strategies", mine)
    assert "sly.kind: must be one of" in line, line


def test_a_search_bot_with_another_games_key_keeps_this_games_line(tmp_path):
    # "horizon" is a key of Médiévallons' search bots, but a search bot is every game's kind:
    # Middle-Ages' own line says what is wrong (tests/conformance/test_search_hooks.py)
    bad = tmp_path / "bad.toml"
    bad.write_text('[bad]\nkind = "search"\nhorizon = 2\n')
    line = _refused("simulate", "--games", 200, "--out", "o", "--strategies", bad)
    assert "always play to the end" in line and "holds the strategies of" not in line, line
