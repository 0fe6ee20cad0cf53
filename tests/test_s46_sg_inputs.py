"""Seigneurial's help and error lines say what this game takes (review s46 #12): --strategies'
help named balanced as every game's default; per_year=all said "must be one of players" though
numbers are allowed; the per-role form of --lineup typed to --strategies read as an unknown bot; a
--set without a value gave a Middle-Ages key as its example; --questions-games was accepted and
did nothing for a game that plays no questions. Each: one line, exit code 2, before any game."""

from __future__ import annotations

import pytest

from cli import _run

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


@pytest.mark.parametrize("argv,said", [
    (["simulate", "--game", "seigneurial", "--set", "seigneur_cards.per_year=all", "--games", "10"],
     'seigneur_cards.per_year: must be a number of cards from 1 to 10, or "players"'),
    (["simulate", "--game", "seigneurial", "--strategies", "seigneur=greedy-lord,censitaire=dutiful",
      "--games", "10"],
     "'seigneur=greedy-lord' is the ROLE=NAME form of --lineup; --strategies takes the names alone"),
    (["simulate", "--game", "seigneurial", "--set", "payment.order", "--games", "10"],
     "expected PATH=VALUE, a dotted key of the game's rules file and its new value"),
])
def test_one_line_that_fits_the_game(argv, said, tmp_path, capsys):
    assert _run([*argv, "--out", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err.strip()
    assert said in err and len(err.splitlines()) == 1, err
    assert "income.palais" not in err and not (tmp_path / "r").exists()


def test_questions_games_for_a_game_without_questions(tmp_path, capsys):
    # (Seigneurial has played questions since session 52, its card ablation: Fief's combat odds
    # have none)
    run = tmp_path / "r"
    assert _run(["simulate", "--game", "fief-combat", "--games", "200", "--out", str(run), "-q"]) == 0
    capsys.readouterr()
    assert _run(["report", str(run), "--questions-games", "200", "--out", str(tmp_path / "rep")]) == 2
    err = capsys.readouterr().err.strip()
    assert "--questions-games: fief-combat has no played balance questions" in err, err
    assert not (tmp_path / "rep").exists()
    assert _run(["report", str(run), "--questions-games", "0", "--out", str(tmp_path / "rep0")]) == 0


def test_questions_games_for_seigneurial_asks_for_play_questions(tmp_path, capsys):
    run = tmp_path / "r"
    assert _run(["simulate", "--game", "seigneurial", "--games", "200", "--out", str(run), "-q"]) == 0
    capsys.readouterr()
    assert _run(["report", str(run), "--questions-games", "200", "--out", str(tmp_path / "rep")]) == 2
    err = capsys.readouterr().err.strip()
    assert "--questions-games: a seigneurial report plays its balance questions only with --play-questions" in err
    assert not (tmp_path / "rep").exists()


def test_strategies_help_does_not_call_balanced_every_games_default(capsys):
    _run(["simulate", "--help"])
    text = " ".join(capsys.readouterr().out.replace("│", " ").split())
    assert "standard for Seigneurial" in text, text
