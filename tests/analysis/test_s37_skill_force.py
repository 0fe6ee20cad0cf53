"""Review s37 (rel #3): an interrupted ``balance skill --force`` over a complete earlier answer
emptied the directory first (its table, page, words and parts gone) and then said "nothing was
written under the final name"; a new skill directory interrupted before its first part was saved
said the same, though skill.json and cells/ were there.

Now a ``--force`` replacement is built in a hidden directory beside the earlier one and takes its
place only once complete (as sweeps, tunes and panels do): interrupted, the earlier answer is
there byte for byte, nothing is left beside it, and the lines say so. A new directory interrupted
says what it wrote, and the same command again plays only the rest.
"""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pytest

from in_process import balance
from undrawn_figures import skill_pages_undrawn_in_this_module  # noqa: F401  (autouse: no drawing)

from skill_dirs import SKILL, folder_tree, played_skill, sk  # noqa: F401  (sk: a fixture)

pytestmark = pytest.mark.slow   # a costly file: make test-slow and CI run it (docs/testing.md, the fast suite's budget)


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    """A complete skill directory (budgets 0,1; 8 games), played once; tests copy it."""
    return played_skill(tmp_path_factory, "--games", "8")


def _interrupt_after(monkeypatch, parts: int) -> list:
    """Make the part after ``parts`` played ones be interrupted (Ctrl-C) as it starts."""
    from analysis import skill as K
    from simcore.errors import Interrupted

    real, calls = K.play_cell, []

    def play(*args, **kwargs):
        calls.append(args)
        if len(calls) > parts:
            raise Interrupted(signal.SIGINT)
        return real(*args, **kwargs)

    monkeypatch.setattr(K, "play_cell", play)
    return calls


@pytest.mark.parametrize("parts", [0, 1], ids=["before-a-part", "after-a-part"])
def test_an_interrupted_force_keeps_the_earlier_answer_byte_for_byte(sk, tmp_path, monkeypatch, parts):
    assert (sk / "skill.parquet").is_file() and (sk / "report.html").is_file()
    before = folder_tree(tmp_path)
    calls = _interrupt_after(monkeypatch, parts)
    done = balance(*SKILL, "--budgets", "0", "--games", "12", "--out", "sk", "--force", check=False)
    assert done.returncode == 130, done.stderr
    assert len(calls) == parts + 1            # the new question had started playing
    # the earlier answer, every byte of it (its marker too), and nothing beside it
    assert folder_tree(tmp_path) == before
    assert sorted(os.listdir(tmp_path)) == ["sk"]
    lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
    assert lines[0] == ("skill: sk keeps its earlier answer as it was (the new question's "
                        f"{parts} of 2 parts played so far were built beside it and are discarded); "
                        "the same command again, with --force, plays the new question from the start")
    # its own line only: the command line's generic one is not added after it (s42)
    assert len(lines) == 1, lines
    # still read as the earlier, complete answer
    from reports.skill import check_skill_dir

    assert check_skill_dir(sk)["games"] == 8


def test_a_completed_force_replaces_the_earlier_answer_and_leaves_nothing_beside_it(sk, tmp_path):
    balance(*SKILL, "--budgets", "0", "--games", "12", "--out", "sk", "--force")
    assert json.loads((sk / "skill.json").read_text())["games"] == 12
    assert sorted(p.name for p in (sk / "cells").iterdir()) == ["budget0_all.parquet", "budget0_one.parquet"]
    assert (sk / "report.html").is_file() and (sk / "skill.parquet").is_file()
    assert sorted(os.listdir(tmp_path)) == ["sk"]
    marker = json.loads((sk / ".balance-output.json").read_text())
    assert marker["kind"] == "skill"
    # the replacement is a skill directory like any other: the same question resumes, another is
    # replaced again
    again = balance(*SKILL, "--budgets", "0", "--games", "12", "--out", "sk")
    assert "all 2 parts kept" in again.stderr
    balance(*SKILL, "--budgets", "0", "--games", "10", "--out", "sk", "--force")
    assert json.loads((sk / "skill.json").read_text())["games"] == 10
    assert sorted(os.listdir(tmp_path)) == ["sk"]


def test_a_file_put_in_cells_while_the_force_plays_is_kept(sk, tmp_path, monkeypatch):
    """What --force removes of the earlier directory is what balance skill wrote there when it
    checked it, never a file of one's own put there while the new answer was played."""
    from analysis import skill as K

    real = K.play_cell

    def play(*args, **kwargs):
        (sk / "cells" / "NOTES.txt").write_text("mine")
        return real(*args, **kwargs)

    monkeypatch.setattr(K, "play_cell", play)
    done = balance(*SKILL, "--budgets", "0", "--games", "12", "--out", "sk", "--force")
    assert json.loads((sk / "skill.json").read_text())["games"] == 12
    kept = [p for p in tmp_path.glob(".sk.old-*/cells/NOTES.txt")]
    assert len(kept) == 1 and kept[0].read_text() == "mine"
    assert "note: kept" in done.stderr


def test_a_new_directory_interrupted_says_what_it_wrote_and_resumes(tmp_path, monkeypatch):
    """A new directory is written in place: interrupted, its line says what was written (not
    "nothing was written under the final name"), and the same command again plays only the rest."""
    from analysis import skill as K

    monkeypatch.chdir(tmp_path)
    real = K.play_cell
    calls = _interrupt_after(monkeypatch, 0)
    args = (*SKILL, "--budgets", "0", "--games", "8", "--out", "new")
    done = balance(*args, check=False)
    assert done.returncode == 130 and len(calls) == 1
    assert "nothing was written" not in done.stderr, done.stderr
    assert "skill: 0 of 2 parts are kept in new/cells; the same command again plays only the rest" \
        in done.stderr
    assert (tmp_path / "new" / "skill.json").is_file()
    # a part saved, then interrupted: the same command again plays only the other one
    monkeypatch.setattr(K, "play_cell", real)
    calls = _interrupt_after(monkeypatch, 1)
    done = balance(*args, check=False)
    assert done.returncode == 130 and len(calls) == 2
    played = []

    def play(*a, **k):
        played.append(a[3])
        return real(*a, **k)

    monkeypatch.setattr(K, "play_cell", play)
    done = balance(*args)
    assert "1 of 2 parts kept" in done.stderr and len(played) == 1
    assert (tmp_path / "new" / "skill.parquet").is_file()
    assert sorted(os.listdir(tmp_path)) == ["new"]
