"""Review G #1: ``balance tune --storage FILE`` takes only this tune's own study.

A study records the plan of the tune that made it (game, players, line-up, rules, ranges,
targets, seed, games); another tune's study is refused in one line, exit 2, before ``--out`` is
created (it was read as this tune's trials, or crashed in write_trials with a KeyError). A storage
file inside another toolkit output directory is refused (it wrote into another tune's directory),
and a damaged study.db is one line, not a SQLAlchemy traceback.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from in_process import balance

pytestmark = pytest.mark.slow   # a costly file: make test-slow and CI run it (docs/testing.md, the fast suite's budget)

SMALL = ["--trials", "2", "--min-games", "200", "--max-games", "800", "--confirm-games", "600", "-q",
         "--keep-going"]  # (one confirmation, read at 95%: at 99%, session 62, 600 games is too few)


def tune(*args, out, check=True, vary="setup.start_coins[0]=0..40:10", players="2",
         strategies="random"):
    return balance("tune", "--game", "middle-ages", "--players", players, "--strategies", strategies,
                   "--vary", vary, "--target", "seat-balance:5", *SMALL, "--out", out, *args,
                   check=check)


def refused(done) -> str:
    lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
    assert done.returncode == 2 and len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    return lines[0]


def _tree(folder: Path) -> dict:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def _tuned(tmp_path_factory):
    """A finished tune ``tA`` (study in its directory) and one ``tB`` with its study outside,
    ``ext/s.db``."""
    import os

    root = tmp_path_factory.mktemp("review-g-tune")
    here = os.getcwd()
    os.chdir(root)
    try:
        (root / "ext").mkdir()
        (root / "tA.stdout").write_text(tune(out="tA").stdout, encoding="utf-8")     # with -q
        tune("--storage", "ext/s.db", out="tB")
    finally:
        os.chdir(here)
    return root


@pytest.fixture
def tuned(_tuned, tmp_path, monkeypatch):
    for name in ("tA", "tB", "ext"):
        shutil.copytree(_tuned / name, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_study_of_another_tune_is_refused_before_out_is_created(tuned):
    line = refused(tune("--storage", "ext/s.db", out="tC", players="4", strategies="balanced",
                        check=False))
    assert line.startswith("error: --storage ext/s.db: holds the study of another tune"), line
    assert "--players" in line, line
    assert not (tuned / "tC").exists()
    # another --vary: it crashed in write_trials (KeyError) after creating --out
    line = refused(tune("--storage", "ext/s.db", out="tD", vary="setup.start_coins[1]=0..40:10",
                        check=False))
    assert "holds the study of another tune (different --vary)" in line, line
    assert not (tuned / "tD").exists()
    # the tune's own command resumes it (not refused)
    assert tune("--storage", "ext/s.db", out="tB").returncode == 0


def test_a_storage_inside_another_tunes_directory_is_refused(tuned):
    before = _tree(tuned / "tA")
    line = refused(tune("--storage", "tA/study.db", out="tC", check=False))
    assert line.startswith("error: --storage tA/study.db: is inside tA, a tune directory"), line
    assert not (tuned / "tC").exists()
    assert _tree(tuned / "tA") == before
    # the same command resuming tA may name its own study
    assert tune("--storage", "tA/study.db", out="tA").returncode == 0


def test_a_damaged_study_is_one_line(tuned):
    for db, args, out in ((tuned / "tA" / "study.db", (), "tA"),
                          (tuned / "ext" / "s.db", ("--storage", "ext/s.db"), "tB")):
        with open(db, "r+b") as fh:
            fh.truncate(100)
        line = refused(tune(*args, out=out, check=False))
        assert f"{db.name} is damaged: " in line, line


def test_quiet_prints_what_its_help_says(_tuned):
    """Review P #9: `balance tune -q`'s help said "print only the verdict", but it printed four
    lines (the verdict, the rules file, the repeats note, the advice). The lines after the verdict
    are what a designer runs next (before adopting the fix: balance skill …), so the help now says
    what -q prints: the verdict first, then where the rules found are, then what to run next."""
    import inspect
    import json

    from cli.tune import tune as command

    said = (_tuned / "tA.stdout").read_text(encoding="utf-8").splitlines()
    result = json.loads((_tuned / "tA" / "result.json").read_text(encoding="utf-8"))
    assert said[0] == result["sentence"] and len(said) > 1
    assert "best_rules.toml" in said[1]
    help_text = inspect.signature(command).parameters["quiet"].default.help
    assert "print only the verdict" not in help_text
    assert "verdict" in help_text and "rules found" in help_text and "run next" in help_text
