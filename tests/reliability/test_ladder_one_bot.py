"""``balance ladder --bots random``: one bot against copies of itself ranks nothing (a 1 x 1 matrix
of its fair share); refused in one line, exit code 2, before any game."""

from __future__ import annotations

from cli import _run


def test_a_ladder_of_one_bot_is_refused(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert _run(["ladder", "--bots", "random", "--games", "40"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--bots 'random'" in err[0] and "two or more" in err[0], err
    assert list(tmp_path.iterdir()) == []


def test_an_empty_player_count_is_refused_not_read_as_four(tmp_path, capsys, monkeypatch):
    """``--players ''`` played the default 4 players (simulate, sweep and skill refuse it)."""
    monkeypatch.chdir(tmp_path)
    assert _run(["ladder", "--bots", "greedy,random", "--games", "40", "--players", ""]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: --players") and "no player count" in err[0], err
    assert list(tmp_path.iterdir()) == []
