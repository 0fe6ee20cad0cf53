"""balance questions checks the run before any game, and names the option typed (review s50
questions #3, #4, #5): a run.json whose rules_text no longer matches its rules_sha256 is refused by
every reader (the questions played the edited rules under the run's hash, and a report showed their
ablation as the run's); a damaged games.parquet is refused before the decks are played (they were
played, 20,000 games x 16 decks, for a report that then refused the run); an error about the
number of games names --questions-games in balance report (it said --games, not an option there)."""

from __future__ import annotations

import json
import shutil

import pytest

from cli import _run


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("q") / "run"
    assert _run(["simulate", "--games", "2000", "--seed", "3", "--out", str(out), "--quiet"]) == 0
    return out


def _one_line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    return err[0]


def test_edited_rules_text_is_refused_by_questions_and_replay(run, tmp_path, capsys):
    bad = tmp_path / "edited"
    shutil.copytree(run, bad)
    meta = json.loads((bad / "run.json").read_text())
    assert "eglise = 3, palais = 3" in meta["rules_text"]
    meta["rules_text"] = meta["rules_text"].replace("eglise = 3, palais = 3", "eglise = 9, palais = 3")
    (bad / "run.json").write_text(json.dumps(meta))
    for args in (["questions", str(bad), "--out", str(tmp_path / "q"), "--games", "500"],
                 ["replay", str(bad), "--game", "2"]):
        assert _run(args) == 2
        assert "rules_text does not match rules_sha256" in _one_line(capsys)
    assert not (tmp_path / "q").exists()


def test_a_damaged_run_is_refused_before_any_deck_is_played(run, tmp_path, capsys):
    bad = tmp_path / "damaged"
    shutil.copytree(run, bad)
    data = (bad / "games.parquet").read_bytes()
    (bad / "games.parquet").write_bytes(data[:1000])
    assert _run(["questions", str(bad), "--out", str(tmp_path / "q")]) == 2
    assert "games.parquet" in _one_line(capsys)
    assert not (tmp_path / "q").exists()


def test_too_few_games_names_the_option_typed(run, tmp_path, capsys):
    assert _run(["report", str(run), "--play-questions", "--questions-games", "50",
                 "--out", str(tmp_path / "r")]) == 2
    assert _one_line(capsys).startswith("error: --questions-games 50: too few")
    assert _run(["questions", str(run), "--games", "50", "--out", str(tmp_path / "q")]) == 2
    assert _one_line(capsys).startswith("error: --games 50: too few")


def test_out_of_memory_names_the_commands_own_options(run, tmp_path, capsys, monkeypatch):
    """Out of memory, each command is told what it can do (review s50 questions #2: balance
    questions was told "try fewer games per chunk: --chunk-size", an option it does not take)."""
    from analysis.questions import middle_ages as Q

    def full(*a, **k):
        raise MemoryError

    monkeypatch.setattr(Q, "event_ablation", full)
    assert _run(["questions", str(run), "--out", str(tmp_path / "q"), "--games", "500"]) == 1
    line = _one_line(capsys)
    assert "out of memory" in line and "--chunk-size" not in line and "fewer games" in line
    from simcore import runner

    monkeypatch.setattr(runner, "simulate", full)
    assert _run(["simulate", "--games", "500", "--out", str(tmp_path / "s"), "--quiet"]) == 1
    assert "--chunk-size" in _one_line(capsys)
