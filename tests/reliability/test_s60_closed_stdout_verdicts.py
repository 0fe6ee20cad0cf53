"""Session 60 #1: a closed stdout never turns a failing verdict into exit 0.

``balance golden --check | head -5`` exited 0 (also under ``set -o pipefail``) when a golden
playthrough was out of date: the diff was written, the reader left, the next line met the closed
pipe and :func:`cli._output_closed` ended the command with 0, since no output was unfinished. The
same held for ``balance replay`` (the log written, then exit 1 on CHECK FAILED) and for ``balance
check`` whose verdict line met a closed pipe. A command that decided a verdict before writing its
output records it (:func:`cli.verdict`), and a closed stdout ends with that code; a command that
succeeded still ends quietly with 0 (``test_outputs_revc_new.py``).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from simcore import atomic

from reliability_helpers import ROOT, env
from tests.check.test_check_middle_ages import _moved   # (the planted shift, one copy)

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

BASELINE = ROOT / "configs" / "baselines" / "middle_ages_default.toml"


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    yield
    atomic.release_claims()


def _closed_stdout(monkeypatch, line_buffered: bool = False):
    """sys.stdout becomes a pipe whose reader has exited (``| head -1``); line-buffered, every line
    meets the closed pipe at once (``PYTHONUNBUFFERED=1`` in a CI job does the same)."""
    r, w = os.pipe()
    os.close(r)
    out = os.fdopen(w, "w", buffering=1 if line_buffered else -1)
    monkeypatch.setattr(sys, "stdout", out)
    return out


def _run_quietly(args):
    from cli import _run

    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = _run([str(a) for a in args])
    return code, err.getvalue()


def _stale_golden(monkeypatch, tmp_path, game: str, cut: int) -> Path:
    """Point ``game``'s golden playthrough at a copy of its committed file without its lines from
    ``cut`` on: ``balance golden --check`` then finds it out of date (the diff adds those lines)."""
    from simcore import games as registry

    mod = registry.import_hook(registry.get(game).golden)
    lines = mod.GOLDEN.path.read_text(encoding="utf-8").splitlines(keepends=True)
    assert 0 < cut < len(lines)
    stale = tmp_path / f"{game}-stale.txt"
    stale.write_text("".join(lines[:cut]), encoding="utf-8")
    monkeypatch.setattr(mod.GOLDEN, "path", stale)
    return stale


def test_golden_check_out_of_date_exits_1_though_the_diff_met_a_closed_stdout(tmp_path, monkeypatch):
    _stale_golden(monkeypatch, tmp_path, "middle-ages", 10)   # a diff of ~33 kB: its write fails
    _closed_stdout(monkeypatch)
    code, err = _run_quietly(["golden", "--check", "--game", "middle-ages"])
    assert code == 1 and "error" not in err, (code, err)


def test_golden_check_exits_1_when_the_stale_game_comes_after_a_line_that_met_the_closed_pipe(
        tmp_path, monkeypatch):
    """Middle-Ages' "up to date" line meets the closed pipe first; Seigneurial, checked after it,
    is out of date by a short diff: every game is compared before any line is written."""
    _stale_golden(monkeypatch, tmp_path, "seigneurial", 2140)
    _closed_stdout(monkeypatch, line_buffered=True)
    code, err = _run_quietly(["golden", "--check"])
    assert code == 1 and "error" not in err, (code, err)


def test_golden_check_up_to_date_with_a_closed_stdout_still_exits_0(monkeypatch):
    _closed_stdout(monkeypatch, line_buffered=True)
    code, err = _run_quietly(["golden", "--check", "--game", "middle-ages"])
    assert code == 0 and err == "", (code, err)


def test_golden_check_piped_into_head_under_pipefail_exits_1(tmp_path):
    """The review's own command line, in a real shell pipeline: the diff is written, ``head -5``
    leaves, the next game's line meets the closed pipe."""
    lines = (ROOT / "tests" / "golden" / "middle_ages_4p_seed7.txt").read_text(encoding="utf-8").splitlines()
    stale = tmp_path / "stale.txt"
    # (a diff of a few kB, taken by the pipe whole: the next game's line is the one that fails)
    stale.write_text("\n".join(lines[:-40]) + "\n", encoding="utf-8")
    code = ("import sys; from pathlib import Path; import simcore.games.middle_ages.golden as g; "
            "g.GOLDEN.path = Path(sys.argv[1]); from cli import main; main(sys.argv[2:])")
    script = (f"set -o pipefail; {sys.executable} -c '{code}' {stale} golden --check | head -5 "
              "> /dev/null; echo $?")
    done = subprocess.run(["bash", "-c", script], cwd=tmp_path, env=env(), capture_output=True,
                          text=True, timeout=300)
    assert done.stdout.strip() == "1", (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr and "error" not in done.stderr, done.stderr


@pytest.fixture
def tampered_run(tiny_run) -> Path:
    """The tiny run with game 3's seat 1 score raised by one (its integrity record written again
    to match, so that only the replay's own check sees the edit)."""
    players = tiny_run / "players.parquet"
    df = pl.read_parquet(players)
    df = df.with_columns(pl.when((pl.col("game") == 3) & (pl.col("seat") == 0))
                         .then(pl.col("score") + 1).otherwise(pl.col("score")).alias("score"))
    df.write_parquet(players)
    meta = json.loads((tiny_run / "run.json").read_text())
    data = players.read_bytes()
    meta["integrity"]["files"]["players.parquet"].update(size=len(data),
                                                          sha256=hashlib.sha256(data).hexdigest())
    (tiny_run / "run.json").write_text(json.dumps(meta))
    return tiny_run


def test_replay_that_differs_exits_1_and_says_so_though_stdout_is_closed(tampered_run, monkeypatch):
    _closed_stdout(monkeypatch)
    code, err = _run_quietly(["replay", tampered_run, "--game", "3"])
    assert code == 1, (code, err)
    assert err.strip() == "the replay differs from the run's records (see the CHECK FAILED lines)", err


def test_replay_to_a_file_that_differs_exits_1_though_its_line_met_a_closed_stdout(
        tampered_run, tmp_path, monkeypatch):
    _closed_stdout(monkeypatch)
    code, err = _run_quietly(["replay", tampered_run, "--game", "3", "--out", "g3.txt"])
    assert code == 1 and "CHECK FAILED" in (tmp_path / "g3.txt").read_text(encoding="utf-8"), (code, err)


def test_replay_that_matches_with_a_closed_stdout_still_exits_0(tiny_run, monkeypatch):
    _closed_stdout(monkeypatch)
    code, err = _run_quietly(["replay", tiny_run, "--game", "3"])
    assert code == 0 and err == "", (code, err)


def test_a_check_verdict_is_its_exit_code_though_its_verdict_met_a_closed_stdout(tiny_run, tmp_path, monkeypatch):
    planted = tmp_path / "planted.toml"
    planted.write_text(_moved(BASELINE.read_text(encoding="utf-8"), "Seat 1", 30.0), encoding="utf-8")
    read, err = _run_quietly(["check", "--baseline", planted, tiny_run, "--quiet"])
    # (a 30-point shift read on 200 games: 3, undecided; 1 would be FAIL: either is a verdict)
    assert read in (1, 3), (read, err)
    _closed_stdout(monkeypatch, line_buffered=True)
    code, err = _run_quietly(["check", "--baseline", planted, tiny_run, "--quiet"])
    assert code == read and "error" not in err, (code, read, err)
