"""Designer review of ``balance questions``, ``balance replay`` and the questions sections:
inputs that are not what they claim to be are one line and exit code 2, and the sentences beside
the played questions say what their numbers hold (no overclaimed "swing", no interval of zero width
around a rate, no unadjusted maximum over the card types)."""

from __future__ import annotations

import json

import polars as pl

from cli import _run


def _one_line_error(capsys) -> str:
    err = capsys.readouterr().err.strip()
    assert err.startswith("error:") and "\n" not in err, err
    return err


def _questions_dir(path, game="medievallons", players=(2, 3, 4, 5)):
    """A questions directory as `balance questions` writes it (run.json with command and files)."""
    path.mkdir()
    (path / "run.json").write_text(json.dumps({
        "game": game, "command": "questions", "for_run": "runs/x", "games": 200,
        "players": list(players) if isinstance(players, tuple) else players, "seed": 0,
        "rules_text": "", "files": []}), encoding="utf-8")
    return path


def test_replay_of_a_questions_directory_is_one_line(tmp_path, capsys):
    """`balance replay QDIR --game 1` on a questions directory: before, a TypeError traceback
    (Médiévallons) or a replay "checked" against nothing that exits 1 (Middle-Ages)."""
    q = _questions_dir(tmp_path / "q")
    assert _run(["replay", str(q), "--game", "1"]) == 2
    err = _one_line_error(capsys)
    assert "balance questions" in err and "not a run" in err


def test_questions_of_a_questions_directory_is_one_line(tmp_path, capsys):
    q = _questions_dir(tmp_path / "q")
    assert _run(["questions", str(q), "--out", str(tmp_path / "out")]) == 2
    err = _one_line_error(capsys)
    assert "balance questions" in err and "not a run" in err
    assert not (tmp_path / "out").exists()
