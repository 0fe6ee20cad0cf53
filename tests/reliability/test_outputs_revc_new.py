"""revC robustness review: an empty directory or a mount point given as --out.

#1: writing into an existing empty directory (``mkdir out && simulate -o out``) left a hidden
``.out.old-<id>`` directory beside it for ever. #2: an empty mount point as --out (a Docker volume)
failed with EBUSY after every game was played; it is refused before any work, in the output check
every command shares.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from simcore import atomic

from reliability_helpers import cli_in_process, hidden, one_error_line


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    yield
    atomic.release_claims()


def test_simulate_into_an_empty_directory_leaves_nothing_beside_it(tmp_path, capsys):
    (tmp_path / "e").mkdir()
    code, err = cli_in_process(["simulate", "-n", "100", "-o", "e", "-q"], capsys)
    assert code == 0, err
    assert (tmp_path / "e" / "run.json").is_file()
    assert hidden(tmp_path) == [], "a hidden entry was left beside the run"


def test_a_report_into_an_empty_directory_leaves_nothing_beside_it(tmp_path):
    """The steps reports.build takes (check, temporary directory, publish), without drawing a
    report's figures (5 s): the same publish_dir every directory output goes through."""
    (tmp_path / "er").mkdir()
    target = atomic.check_output_dir(tmp_path / "er", False, kind="report")
    tmp = atomic.temporary_dir(target)
    (tmp / "report.html").write_text("<p>page</p>")
    atomic.publish_dir(tmp, target)
    assert (tmp_path / "er" / "report.html").is_file()
    assert atomic.read_marker(tmp_path / "er")["kind"] == "report"
    assert hidden(tmp_path) == [], "a hidden entry was left beside the report"


def test_an_empty_directory_that_fills_meanwhile_is_left_in_place(tmp_path, capsys):
    """A user's file written into the empty target while the command worked: the rename over it
    fails (not empty), and the folder, the user's now, is left where it is with the file in it;
    the output takes the visible name beside it and says so (review s48 safety #1: it had been
    moved into a hidden .d.old-<id>, out of the user's sight)."""
    out = atomic.check_output_dir(tmp_path / "d", False, kind="run")
    (tmp_path / "d").mkdir()
    tmp = atomic.temporary_dir(out)
    (tmp / "run.json").write_text("{}")
    (tmp_path / "d" / "notes.txt").write_text("mine")
    assert atomic.publish_dir(tmp, out) == tmp_path / "d-2"
    assert sorted(p.name for p in (tmp_path / "d").iterdir()) == ["notes.txt"]
    assert (tmp_path / "d" / "notes.txt").read_text() == "mine"
    assert (tmp_path / "d-2" / "run.json").read_text() == "{}"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".d.")]
    assert "the output is " in capsys.readouterr().err


def test_an_empty_unmarked_directory_moved_aside_is_removed(tmp_path):
    """What an older toolkit moved aside from an empty target (recorded as the old output) is
    removed by the next command, not forgotten."""
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "run.json").write_text("{}")
    old = tmp_path / ".d.old-0123456789abcdef"
    old.mkdir()
    assert atomic._remove_owned(old) == []
    assert not old.exists()


@pytest.mark.parametrize("argv", [
    ["simulate", "-n", "100", "-o", "OUT"],
    ["simulate", "-n", "100", "--panel", "default", "-o", "OUT"],
    ["sweep", "--game", "middle-ages", "--vary", "income.palais.base=2..3", "-n", "100", "-o", "OUT"],
    ["report", "run", "--questions-games", "0", "-o", "OUT"],
    ["questions", "run", "--games", "100", "--out", "OUT"],
], ids=["simulate", "panel", "sweep", "report", "questions"])
def test_a_mount_point_as_out_is_refused_before_any_work(argv, tiny_run, tmp_path, capsys,
                                                         monkeypatch):
    from simcore import runner

    def played(*args, **kwargs):
        raise AssertionError("a game was played before the mount point was refused")

    for name in ("run", "execute", "chunks"):     # (a sweep prepares its variants first: allowed)
        monkeypatch.setattr(runner, name, played)
    (tmp_path / "mp").mkdir()
    real = os.path.ismount
    monkeypatch.setattr(os.path, "ismount",
                        lambda p: Path(os.path.abspath(p)) == tmp_path / "mp" or real(p))
    code, err = cli_in_process([("mp" if a == "OUT" else a) for a in argv], capsys)
    line = one_error_line(err)
    assert code == 2
    assert line.startswith("error: -") and "mp: is a mount point; give a directory inside it" in line
    assert hidden(tmp_path) == [] and list((tmp_path / "mp").iterdir()) == []


# revC #3: a run far too large for the disk is refused before any game; a disk that fills while
# writing is one line naming the option, exit 1, and nothing is left.

def _small_disk(monkeypatch, free: int) -> None:
    import collections
    import shutil

    usage = collections.namedtuple("usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda p: usage(10 * free, 9 * free, free))


def _nothing_played(monkeypatch) -> None:
    from simcore import runner

    def played(*args, **kwargs):
        raise AssertionError("a game was played before the run was refused")

    monkeypatch.setattr(runner.LocalExecutor, "play", played)
    monkeypatch.setattr(runner, "run", played)


@pytest.mark.parametrize("argv,rows", [
    (["simulate", "-n", "1e9", "--raw", "-o", "big"], "players.parquet and games.parquet"),
    (["simulate", "-n", "1e10", "-o", "big"], "games.parquet"),
    (["simulate", "-n", "1e10", "--panel", "default", "-o", "big"], "games.parquet"),
], ids=["raw", "games", "panel"])
def test_a_run_larger_than_the_free_space_is_refused_before_any_game(argv, rows, tmp_path, capsys,
                                                                     monkeypatch):
    _small_disk(monkeypatch, 5 * 10**9)
    _nothing_played(monkeypatch)
    code, err = cli_in_process(argv, capsys)
    line = one_error_line(err)
    assert code == 2
    assert line.startswith("error: --out big: the run needs about ") and f"GB of disk space ({rows})" in line
    assert "5.0 GB is free there" in line and ("drop --raw" in line) == ("--raw" in argv)
    assert hidden(tmp_path) == [] and not (tmp_path / "big").exists()


def test_the_estimate_covers_the_measured_size_of_a_large_raw_run():
    """players.parquet was measured at 8.4 MB and games.parquet at 0.2 MB per 1e5 4-player
    Middle-Ages games (simcore/runner.py, PLAYER_ROW_SHARE): the estimate is above that, by a
    margin, and not wildly so (it refuses runs that would fit otherwise)."""
    from simcore import runner

    prep = runner.prepare("middle-ages", players=4)
    measured = 10**10 / 10**5 * (8.4e6 + 0.2e6)
    estimate = runner.estimated_bytes(prep, 10**10, raw=True)
    assert 1.1 * measured < estimate < 1.5 * measured
    assert runner.estimated_bytes(prep, 10**10, raw=False) < estimate / 10


def test_a_disk_filling_while_writing_is_one_line_naming_out(tmp_path, capsys, monkeypatch):
    from simcore import rundir

    def full(self, name, table):
        raise OSError("Error writing bytes to file. Detail: [errno 28] No space left on device")

    monkeypatch.setattr(rundir.RunWriter, "write", full)
    code, err = cli_in_process(["simulate", "-n", "100", "-o", "out", "-q"], capsys)
    line = one_error_line(err)
    assert code == 1
    assert line == ("error: --out out: the disk ran out of space while writing it; the partial files "
                    "were removed and out is as it was (free some space or write somewhere else)")
    assert hidden(tmp_path) == [] and not (tmp_path / "out").exists()


def test_a_file_output_filling_the_disk_names_its_option(tmp_path):
    (tmp_path / "g.csv").write_text("old")
    with pytest.raises(OSError, match=r"^.*--junit g.csv: the disk ran out of space") as info:
        with atomic.atomic_output("g.csv", force=True, option="--junit") as tmp:
            tmp.write_text("partial")
            raise OSError("No space left on device (os error 28)")     # polars' text of it
    assert info.value.errno == 28
    assert (tmp_path / "g.csv").read_text() == "old" and hidden(tmp_path) == []


# revC #6: `simulate … | head -1` exited 1 (rich's on_broken_pipe: SystemExit(1)) when the reader
# left before the summary table was written.

def _closed_stdout(monkeypatch):
    """sys.stdout becomes a pipe whose reader has exited (``| head -1``). Called in the test's
    body: pytest sets sys.stdout again between a fixture and the test."""
    import sys

    r, w = os.pipe()
    os.close(r)
    out = os.fdopen(w, "w")
    monkeypatch.setattr(sys, "stdout", out)
    return out


def _run_quietly(args):
    import contextlib
    import io

    from cli import _run

    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = _run(args)
    return code, err.getvalue()


def test_a_closed_stdout_after_the_work_exits_0_without_a_word(tmp_path, monkeypatch):
    _closed_stdout(monkeypatch)
    code, err = _run_quietly(["simulate", "-n", "100", "-o", "out"])   # the summary table: rich
    assert code == 0 and "error" not in err, err
    assert (tmp_path / "out" / "run.json").is_file()
    _closed_stdout(monkeypatch)
    code, err = _run_quietly(["games"])                                 # typer.echo
    assert code == 0 and "error" not in err, err


def test_a_closed_stdout_before_the_output_is_published_exits_141(tmp_path, monkeypatch):
    from simcore import rundir

    _closed_stdout(monkeypatch)

    def broken(self, name, table):
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(rundir.RunWriter, "write", broken)
    code, err = _run_quietly(["simulate", "-n", "100", "-o", "out", "-q"])
    assert code == 141 and "error" not in err, err
    assert not (tmp_path / "out").exists() and hidden(tmp_path) == []


def test_a_broken_pipe_that_is_not_stdout_is_an_error(tmp_path, monkeypatch):
    """(a socket or a child's pipe: stdout is still read)"""
    import sys

    from simcore import rundir

    r, w = os.pipe()
    out = os.fdopen(w, "w")
    monkeypatch.setattr(sys, "stdout", out)

    def broken(self, name, table):
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(rundir.RunWriter, "write", broken)
    try:
        code, err = _run_quietly(["simulate", "-n", "100", "-o", "out", "-q"])
    finally:
        out.close()
        os.close(r)
    assert code == 1 and one_error_line(err) == "error: Broken pipe"


def test_simulate_panel_with_strategies_names_only_simulates_options(tmp_path, capsys, no_playing):
    """revC #8: the message named --lineup, which simulate does not have."""
    code, err = cli_in_process(["simulate", "-n", "100", "-o", "z", "--panel", "default",
                                "--strategies", "balanced"], capsys)
    line = one_error_line(err)
    assert code == 2 and "--lineup" not in line
    assert line.startswith("error: --panel: give a panel or --strategies, not both")
