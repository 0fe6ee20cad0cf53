"""Review s62 #2: one writer per file, whatever name it is given. A symbolic link or a hard link
to an Optuna study took a lock of its own (the lock was named from the path as given), so a second
``balance tune --storage link.db`` ran beside the first, removed its running trial, and the first
stopped with a traceback. Now every name of one file takes the same lock, and the second command
is refused in one line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from simcore import atomic
from simcore.errors import UsageError

from reliability_helpers import ROOT, cli_in_process, env, one_error_line

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

HOLD = ("import sys; from simcore import atomic; atomic.claim_output(sys.argv[1], '--storage', "
        "kind='file'); print('held', flush=True); sys.stdin.read()")


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    yield
    atomic.release_claims()


def _held(name: str, cwd: Path) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", HOLD, name], cwd=cwd, env=env(),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    assert proc.stdout.readline().strip() == "held", proc.stderr.read()
    return proc


def _study(tmp_path: Path) -> None:
    (tmp_path / "study.db").write_bytes(b"")          # (a new study: the tune makes its tables)
    os.symlink("study.db", tmp_path / "link.db")
    os.link(tmp_path / "study.db", tmp_path / "hard.db")
    (tmp_path / "sub").mkdir()
    os.link(tmp_path / "study.db", tmp_path / "sub" / "other.db")


@pytest.mark.parametrize("first,second", [("study.db", "link.db"), ("link.db", "study.db"),
                                          ("study.db", "hard.db"), ("hard.db", "sub/other.db"),
                                          ("link.db", "sub/other.db")])
def test_s62_two_names_of_one_file_take_one_lock(tmp_path, first, second):
    _study(tmp_path)
    holder = _held(first, tmp_path)
    try:
        with pytest.raises(UsageError, match="another command is writing"):
            atomic.claim_output(second, "--storage", kind="file")
    finally:
        holder.communicate("", timeout=60)
    atomic.claim_output(second, "--storage", kind="file")      # free once the first has ended
    atomic.release_claims()
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == ["hard.db", "link.db", "study.db", "sub"], left          # no lock left behind


def test_s62_unrelated_files_still_claimed_side_by_side(tmp_path):
    (tmp_path / "a.db").write_bytes(b"x")
    (tmp_path / "b.db").write_bytes(b"y")
    holder = _held("a.db", tmp_path)
    try:
        atomic.claim_output("b.db", "--storage", kind="file")
    finally:
        holder.communicate("", timeout=60)


def test_s62_tune_with_a_link_to_a_study_in_use_is_refused_in_one_line(tmp_path, capsys):
    _study(tmp_path)
    holder = _held("study.db", tmp_path)
    try:
        code, err = cli_in_process(["tune", "--vary", "setup.extra_coin_tokens=2..10", "--target",
                                    "seat-balance:5", "--min-games", "2000", "--max-games", "8000",
                                    "--confirm-games", "4000", "-p", "4", "-q", "--trials", "2",
                                    "-o", "tB", "--storage", "link.db"], capsys)
    finally:
        holder.communicate("", timeout=60)
    assert code == 2, err
    line = one_error_line(err)
    assert line.startswith("error: --storage link.db: another command is writing that file"), line
    assert not (tmp_path / "tB").exists()
