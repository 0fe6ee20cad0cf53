"""Review s59 (helper 226) #1: a sweep or tune run again over itself (the same plan: it resumes in
place) sealed its marker's ``tree`` from whatever was on disk, so a user's file put inside a
variant or a confirmation became "written by this toolkit", and the next ``--force`` deleted it
without a word. The tree now records only what this toolkit wrote: the earlier tree's paths, and
inside the listed folders the entries the command writes there and what each run's own marker
lists (:func:`simcore.atomic.seal_dir`). A file appearing inside ``variants/`` while the sweep
plays is not taken in either."""

from __future__ import annotations

import json

import pytest

from simcore import atomic

from in_process import balance

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    yield
    atomic.release_claims()


def _tree(d):
    return json.loads((d / atomic.MARKER).read_text())["tree"]


SWEEP = ["sweep", "--games", 200, "--players", 4, "--out", "sw", "-q"]


def test_a_sweep_run_again_does_not_adopt_a_users_file(tmp_path):
    balance(*SWEEP, "--vary", "income.palais.base=2..4")
    notes = tmp_path / "sw" / "variants" / "v001" / "NOTES.txt"
    notes.write_text("my notes")
    (tmp_path / "sw" / "variants" / "TODO.txt").write_text("mine too")
    balance(*SWEEP, "--vary", "income.palais.base=2..4")             # the same again: resumes
    tree = _tree(tmp_path / "sw")
    assert "variants/v001/NOTES.txt" not in tree and "variants/TODO.txt" not in tree
    assert "variants/v001/run.json" in tree and "variants/v002/players.parquet" in tree
    done = balance(*SWEEP, "--vary", "income.palais.base=2..3", "--force", check=False)
    assert done.returncode == 2 and "variants/v001/NOTES.txt" in done.stderr, done.stderr
    assert "did not write there" in done.stderr
    assert notes.read_text() == "my notes"


def test_a_file_appearing_inside_variants_while_the_sweep_plays_is_not_taken_in(tmp_path, monkeypatch):
    from analysis.sweep import play

    real = play.runner.run
    calls = []

    def run(prep, **kw):
        calls.append(kw["out"])
        if len(calls) == 2:           # between the first and the second variant
            (tmp_path / "sw" / "variants" / "stray.txt").write_text("a user's file")
            (tmp_path / "sw" / "variants" / "v000" / "NOTES.txt").write_text("a user's file")
        return real(prep, **kw)

    monkeypatch.setattr(play.runner, "run", run)
    balance(*SWEEP, "--vary", "income.palais.base=2..3")
    tree = _tree(tmp_path / "sw")
    assert len(calls) == 2 and "variants/v001/run.json" in tree
    assert "variants/stray.txt" not in tree and "variants/v000/NOTES.txt" not in tree
    monkeypatch.setattr(play.runner, "run", real)
    done = balance(*SWEEP, "--vary", "income.palais.base=3..4", "--force", check=False)
    assert done.returncode == 2 and "variants/stray.txt" in done.stderr, done.stderr
    assert (tmp_path / "sw" / "variants" / "stray.txt").is_file()


def test_a_tune_resumed_with_more_trials_does_not_adopt_a_users_file(tmp_path):
    tune = ["tune", "--out", "t1", "--players", 4, "--vary", "income.palais.base=3..5",
            "--target", "seat-balance:5", "--min-games", 500, "--max-games", 1000,
            "--confirm-games", 1000, "-q"]
    balance(*tune, "--trials", 3)
    start = tmp_path / "t1" / "confirmations" / "start-rules"
    assert (start / "run.json").is_file()
    (start / "NOTES.txt").write_text("my notes")
    balance(*tune, "--trials", 4, "--force")                # differs only in --trials: resumes
    tree = _tree(tmp_path / "t1")
    assert "confirmations/start-rules/NOTES.txt" not in tree
    assert "confirmations/start-rules/run.json" in tree
    assert any(t.endswith(".sums.json") for t in tree) or not any(
        p.name.endswith(".sums.json") for p in (tmp_path / "t1" / "confirmations").iterdir())
    done = balance(*tune, "--trials", 3, "--seed", 5, "--force", check=False)
    assert done.returncode == 2 and "confirmations/start-rules/NOTES.txt" in done.stderr, done.stderr
    assert (start / "NOTES.txt").read_text() == "my notes"


def test_seal_dir_keeps_the_earlier_tree_and_what_the_runs_list(tmp_path):
    d = tmp_path / "sw"
    d.mkdir()
    atomic.mark_dir(d, "sweep", ["sweep.json", "variants"])
    v = d / "variants" / "v000"
    v.mkdir(parents=True)
    (v / "run.json").write_text("{}")
    atomic.write_marker(v, "run", ["run.json"])
    (v / "NOTES.txt").write_text("mine")
    (d / "variants" / "odd").mkdir()                    # a folder of the user's, no marker
    (d / "variants" / "odd" / "a.txt").write_text("mine")
    atomic.seal_dir(d, inside={"variants": r"v\d{3,}"})
    assert _tree(d) == ["variants/v000", "variants/v000/.balance-output.json",
                        "variants/v000/run.json"]
