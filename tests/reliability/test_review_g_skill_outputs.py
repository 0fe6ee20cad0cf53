"""Review G: ``balance skill --out`` is checked, claimed and owned like every command's output, and
the parts it resumes from are checked before they are read.

1. ``--force`` over a skill directory of another question deleted ``cells/`` whole (a file of
   one's own in it too); ``--out .`` / ``''`` wrote into the working directory, a symbolic link
   was followed, ``--out`` could lie inside ``--against``, and ``/proc/x`` got the reason "another
   command is writing it". Now: simcore.atomic.check_output_path's checks and words, a marker of
   kind ``skill``, ``--force`` only over a skill directory holding nothing else (files removed one
   by one, never a folder whole), and a directory written before the marker recognised by its
   skill.json.
2. A part copied over another (another budget, another directory's) was read as this one, and a
   cut-short part gave a traceback. Now it is played again, with one line saying why.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from in_process import balance
from undrawn_figures import skill_pages_undrawn_in_this_module  # noqa: F401  (autouse: no drawing)
from skill_dirs import folder_tree, played_skill, sk  # noqa: F401  (sk: a fixture)

pytestmark = pytest.mark.slow   # a costly file: make test-slow and CI run it (docs/testing.md, the fast suite's budget)

MARKER = ".balance-output.json"
SKILL = ["skill", "--players", "2", "--games", "20", "-q"]


def one_line(done) -> str:
    lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
    assert done.returncode == 2 and len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    return lines[0]


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    """``balance skill --players 2 --budgets 0,1 --games 20``, played once; tests copy it."""
    return played_skill(tmp_path_factory, "--games", "20")


@pytest.fixture
def no_games(monkeypatch):
    from analysis import skill as K

    def play(*args, **kwargs):
        raise AssertionError("a part was played")

    monkeypatch.setattr(K, "play_cell", play)


def test_the_directory_carries_a_skill_marker(sk):
    marker = json.loads((sk / MARKER).read_text())
    assert marker["kind"] == "skill"
    assert {"cells", "figures", "skill.json", "skill.csv"} <= set(marker["entries"])


def test_the_marker_lists_the_names_published_only(sk, tmp_path):
    """The marker of a skill directory written in place listed every name balance skill may write
    there, its temporary names too (skill.json.tmp, report.html.tmp, search_bots.tmp …) and files it
    never wrote (against.csv): once the answer is complete it lists what the directory holds. A
    resume narrows it again; --force still replaces the directory, and a file of one's own there
    (a ``.tmp`` too) still stops it."""
    def listed(d: Path) -> list:
        return json.loads((d / MARKER).read_text())["entries"]

    def held(d: Path) -> list:
        return sorted(set(os.listdir(d)) - {MARKER})

    assert listed(sk) == held(sk), listed(sk)
    assert not [e for e in listed(sk) if e.endswith(".tmp")]
    balance(*SKILL, "--budgets", "0", "--out", "sk")           # resumed: every part kept
    assert listed(sk) == held(sk), listed(sk)
    for mine in ("my_notes.txt", "skill.csv.tmp"):
        (sk / mine).write_text("mine")
        before = folder_tree(tmp_path)
        line = one_line(balance(*SKILL, "--budgets", "0", "--games", "30", "--out", "sk", "--force",
                                check=False))
        assert line.startswith(f"error: --out sk: holds {mine}, which this toolkit did not write"), line
        assert folder_tree(tmp_path) == before
        (sk / mine).unlink()
    balance(*SKILL, "--budgets", "0", "--games", "30", "--out", "sk", "--force")
    assert json.loads((sk / "skill.json").read_text())["games"] == 30
    assert listed(sk) == held(sk), listed(sk)
    assert sorted(os.listdir(tmp_path)) == ["sk"]


@pytest.mark.parametrize("where", ["cells/my_notes.txt", "figures/sketch.png", "my_notes.txt"])
def test_force_never_deletes_a_file_of_ones_own(sk, tmp_path, where):
    (sk / where).write_text("important")
    before = folder_tree(tmp_path)
    line = one_line(balance(*SKILL, "--budgets", "0", "--games", "30", "--out", "sk", "--force", check=False))
    assert line == (f"error: --out sk: holds {where}, which this toolkit did not write there; --force "
                    "will not delete them: move them, or choose another directory"), line
    assert folder_tree(tmp_path) == before
    # the same question resumes with it there (and keeps it)
    balance(*SKILL, "--budgets", "0,1", "--out", "sk")
    assert (sk / where).read_text() == "important"
    # moved away, --force replaces the directory with the new question's answer, nothing beside it
    (sk / where).unlink()
    balance(*SKILL, "--budgets", "0", "--games", "30", "--out", "sk", "--force")
    assert json.loads((sk / "skill.json").read_text())["games"] == 30
    assert sorted(p.name for p in (sk / "cells").iterdir()) == ["budget0_all.parquet", "budget0_one.parquet"]
    assert sorted(os.listdir(tmp_path)) == ["sk"]
    assert json.loads((sk / MARKER).read_text())["kind"] == "skill"


@pytest.mark.parametrize("out, words", [
    (".", "error: --out .: is the working directory (give a new directory name)"),
    ("", "error: --out is empty: give a directory name"),
    ("linkout", "error: --out linkout: is a symbolic link (to elsewhere); give the real path"),
    ("/proc/skx", "error: --out /proc/skx: is under /proc, a virtual file system (write to a real "
                  "directory)"),
], ids=["dot", "empty", "symlink", "proc"])
def test_an_out_the_other_commands_refuse_is_refused_in_their_words(tmp_path, monkeypatch, no_games, out,
                                                                   words):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "linkout").symlink_to("elsewhere")
    before = folder_tree(tmp_path)
    assert one_line(balance(*SKILL, "--budgets", "0", "--out", out, check=False)) == words
    assert folder_tree(tmp_path) == before


def test_out_inside_the_against_directory_is_refused(sk, tmp_path, no_games):
    before = folder_tree(tmp_path)
    line = one_line(balance(*SKILL, "--budgets", "0", "--set", "income.palais.base=4", "--against", "sk",
                            "--out", "sk/sub", check=False))
    assert line == "error: --out sk/sub: is inside sk, which this command reads (write somewhere else)"
    assert folder_tree(tmp_path) == before


def test_force_does_not_replace_a_directory_of_another_kind(sk, tmp_path, no_games):
    marker = json.loads((sk / MARKER).read_text())
    (sk / MARKER).write_text(json.dumps({**marker, "kind": "sweep"}))
    before = folder_tree(tmp_path)
    line = one_line(balance(*SKILL, "--budgets", "0", "--games", "30", "--out", "sk", "--force", check=False))
    assert line == (f"error: --out sk: holds a sweep (its {MARKER} says so), not a balance skill "
                    "directory; --force replaces only a balance skill directory this toolkit wrote, "
                    "choose another --out"), line
    assert folder_tree(tmp_path) == before


def test_a_skill_directory_written_before_the_marker_resumes_and_is_replaced(sk, monkeypatch):
    from analysis import skill as K

    (sk / MARKER).unlink()
    real = K.play_cell
    monkeypatch.setattr(K, "play_cell", lambda *a, **k: pytest.fail("a part was played again"))
    balance(*SKILL, "--budgets", "0,1", "--out", "sk")          # resumed: nothing played
    assert json.loads((sk / MARKER).read_text())["kind"] == "skill"
    monkeypatch.setattr(K, "play_cell", real)
    (sk / MARKER).unlink()
    balance(*SKILL, "--budgets", "0", "--games", "30", "--out", "sk", "--force")
    assert json.loads((sk / "skill.json").read_text())["games"] == 30


def _rows(path: Path) -> list:
    import polars as pl

    return pl.read_parquet(path).select("cell", "budget", "part", "seat", "win_share").rows()


@pytest.mark.parametrize("damage, words", [
    (lambda sk, other: shutil.copy(sk / "cells/budget1_all.parquet", sk / "cells/budget0_all.parquet"),
     "cells/budget0_all.parquet holds budget 1's every-seat part, not budget 0's every-seat part"),
    (lambda sk, other: os.truncate(sk / "cells/budget1_one.parquet", 100),
     "cells/budget1_one.parquet cannot be read (damaged or cut short)"),
    (lambda sk, other: shutil.copy(other / "cells/budget0_one.parquet", sk / "cells/budget0_one.parquet"),
     "cells/budget0_one.parquet answers another question (another skill directory's part)"),
], ids=["another-budget", "cut-short", "another-directory"])
def test_a_damaged_or_foreign_part_is_played_again_with_one_line(sk, tmp_path, damage, words):
    other = tmp_path / "other"
    if "another question" in words:
        balance(*SKILL, "--budgets", "0", "--seed", "9", "--out", other)
    table = _rows(sk / "skill.parquet")
    damage(sk, other)
    done = balance(*SKILL, "--budgets", "0,1", "--out", "sk")
    notes = [ln for ln in done.stderr.splitlines() if ln.startswith("skill: ")]
    assert notes == [f"skill: sk/{words}; playing it again"], done.stderr
    assert "Traceback" not in done.stderr
    assert _rows(sk / "skill.parquet") == table          # the same answer as before the damage
    again = balance(*SKILL, "--budgets", "0,1", "--out", "sk")
    assert "playing it again" not in again.stderr         # the part played again is whole now
