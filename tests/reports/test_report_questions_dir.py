"""``balance report --questions DIR`` reads the Médiévallons questions from a directory written by
``balance questions RUN --out DIR`` instead of playing them; a directory of another game or other
rules than the baseline run is refused in one line (exit code 2) before anything is written."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
import analysis_runs as runs

from cli import _run

pytestmark = pytest.mark.slow   # a costly file: make test-slow and CI run it (docs/testing.md, the fast suite's budget)

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "configs" / "medievallons" / "rules.toml"


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    root = tmp_path_factory.mktemp("qdir")
    base = runs.medievallons_run(root / "base", 600, 4, seed=5)
    qdir = root / "questions"
    assert _run(["questions", str(base), "--games", "200", "--out", str(qdir), "-q"]) == 0
    return {"root": root, "base": base, "questions": qdir}


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_report_reads_the_questions_directory_instead_of_playing(played, tmp_path, monkeypatch, undrawn):
    # (the page and the CSVs it keeps: the figures need not be drawn, ``undrawn``)
    from analysis.questions import medievallons as Q

    def refuse(*args, **kwargs):
        raise AssertionError("the report played the questions")

    monkeypatch.setattr(Q, "questions_for_run", refuse)
    out = tmp_path / "rep"
    assert _run(["report", str(played["base"]), "--out", str(out), "--questions", str(played["questions"])]) == 0
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "<section id='questions'>" in page and f"Read from {played['questions']}" in page
    for name in ("first_player", "card_types", "best_of_three"):
        kept = pl.read_csv(out / "questions" / f"{name}.csv")
        assert kept.equals(pl.read_csv(played["questions"] / f"{name}.csv")), name
    settings = json.loads((out / "questions" / "settings.json").read_text())
    assert settings["games"] == 200 and settings["player_counts"] == [2, 3, 4, 5] and settings["seed"] == 5
    assert settings["questions_dir"] == str(played["questions"])


def _one_line_error(capsys) -> str:
    err = capsys.readouterr().err.strip()
    assert err.startswith("error:") and "\n" not in err
    return err


def test_questions_of_other_rules_are_refused_in_one_line(played, tmp_path, capsys):
    other = tmp_path / "rules.toml"
    other.write_text(RULES.read_text(encoding="utf-8") + "\n# same rules, another file\n", encoding="utf-8")
    other_run = tmp_path / "other-run"
    assert _run(["simulate", "--game", "medievallons", "--games", "20", "--players", "4", "--rules",
                 str(other), "--out", str(other_run), "-q"]) == 0
    qdir = tmp_path / "q-other"
    assert _run(["questions", str(other_run), "--games", "20", "--out", str(qdir), "-q"]) == 0
    capsys.readouterr()
    out = tmp_path / "rep"
    assert _run(["report", str(played["base"]), "--out", str(out), "--questions", str(qdir)]) == 2
    err = _one_line_error(capsys)
    assert "--questions" in err and "other rules than the baseline run" in err
    assert not out.exists()


def test_questions_of_another_game_are_refused_in_one_line(played, tmp_path, capsys):
    qdir = tmp_path / "q-game"
    qdir.mkdir()
    meta = json.loads((played["questions"] / "run.json").read_text())
    meta.pop("integrity", None)     # (a folder without its files: no record of them to check)
    (qdir / "run.json").write_text(json.dumps({**meta, "game": "middle-ages", "files": []}))
    out = tmp_path / "rep"
    assert _run(["report", str(played["base"]), "--out", str(out), "--questions", str(qdir)]) == 2
    err = _one_line_error(capsys)
    assert "questions of middle-ages, but the baseline run" in err
    assert not out.exists()


def test_questions_for_a_game_without_them_and_bad_directories_are_one_line(played, tmp_path, capsys):
    small = runs.write_run(tmp_path / "hand", runs.HAND, runs.HAND_GAMES, strategies=["A", "B"])
    out = tmp_path / "rep"
    assert _run(["report", str(small), "--out", str(out), "--questions", str(played["questions"])]) == 2
    # Middle-Ages has questions of its own now (the event ablation): Médiévallons' are refused
    assert "questions of medievallons, but the baseline run" in _one_line_error(capsys)
    bogus = tmp_path / "bogus"          # (not tmp_path itself: --out inside an input is refused)
    bogus.mkdir()
    assert _run(["report", str(played["base"]), "--out", str(out), "--questions", str(bogus)]) == 2
    assert "not a questions directory" in _one_line_error(capsys)
    assert _run(["report", str(played["base"]), "--out", str(out), "--questions", str(played["questions"]),
                 "--questions-games", "100"]) == 2
    assert "give one" in _one_line_error(capsys)
    assert not out.exists()
