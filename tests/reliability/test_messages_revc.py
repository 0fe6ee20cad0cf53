"""revC #10, #11: one-line errors that name exactly what is wrong (exit code 2, before any work).

Each message is checked where it is built, on small hand-made directories (no game is played):
a sweep, panel, panel sweep, tune, skill or report directory given where a run is wanted; a path
that does not exist; a read-only file system; ``--batch 0``; ``--set start_coins[99]``; ``-n
1e99999``; ``--alpha 2``; a malformed ``--scheduler``; and a run missing for the moment a
``--force`` replacement moves it aside (#11).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from filelock import FileLock

from simcore import atomic
from simcore.errors import UsageError

from reliability_helpers import cli_in_process, one_error_line


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    yield
    atomic.release_claims()


def _run_dir(path: Path) -> Path:
    path.mkdir(parents=True)
    (path / "run.json").write_text("{}", encoding="utf-8")
    return path


def _kind(kind: str, meta: str, run: str):
    """A maker of a directory of ``kind`` (its marker), holding ``meta`` and one run at ``run``."""
    def make(d: Path) -> None:
        d.mkdir()
        (d / meta).write_text("{}", encoding="utf-8")
        _run_dir(d / run)
        atomic.write_marker(d, kind, [meta, run.split("/")[0]])
    return make


_sweep = _kind("sweep", "sweep.json", "variants/v000")
_panel_sweep = _kind("panel_sweep", "panel_sweep.json", "cells/cell-0/variants/v000")
_tune = _kind("tune", "tune.json", "confirmations/trial-0")


def _panel(d: Path) -> None:
    d.mkdir()
    for i in (1, 2):
        _run_dir(d / f"cell-{i}")
    atomic.write_marker(d, "panel", ["cell-1", "cell-2"])


def _skill(d: Path) -> None:
    d.mkdir()
    (d / "skill.json").write_text("{}", encoding="utf-8")


def _report(d: Path) -> None:
    d.mkdir()
    (d / "report.html").write_text("<html></html>", encoding="utf-8")
    atomic.write_marker(d, "report", ["report.html"])


@pytest.mark.parametrize("make, expected", [
    (_sweep, "a sweep directory, not a run: give a variant, e.g. {d}/variants/v000, or balance report {d}"),
    (_panel, "a panel, not a run: give a cell, e.g. {d}/cell-1, or balance report {d}"),
    (_panel_sweep, "a panel sweep directory, not a run: give a variant of one of its cells, e.g. "
                   "{d}/cells/cell-0/variants/v000, or balance report {d}"),
    (_tune, "a tune directory, not a run: give a confirmation run, e.g. {d}/confirmations/trial-0"),
    (_skill, "a balance skill directory, not a run (its page is {d}/report.html"),
    (_report, "a report, not a run (give the run directory it was made from)"),
    (Path.mkdir, "not a run directory (no run.json)"),
], ids=["sweep", "panel", "panel-sweep", "tune", "skill", "report", "empty"])
def test_a_directory_that_is_not_a_run_says_what_it_is_and_what_to_give(tmp_path, make, expected):
    from simcore.rundir import read_meta

    d = Path("x")           # (relative: show() shortens a path longer than 80 characters)
    make(d)
    with pytest.raises(UsageError) as e:
        read_meta(d)
    assert str(e.value).startswith(f"{d}: " + expected.format(d=d)) and "\n" not in str(e.value)


@pytest.mark.parametrize("command", [["export", "sw", "-w", "games", "-o", "g.csv"],
                                     ["baseline", "sw", "-o", "b.toml"]])
def test_export_and_baseline_of_a_sweep_name_one_of_its_variants(tmp_path, capsys, command):
    _sweep(tmp_path / "sw")
    code, err = cli_in_process(command, capsys)
    assert code == 2
    assert one_error_line(err) == ("error: sw: a sweep directory, not a run: give a variant, e.g. "
                                   "sw/variants/v000, or balance report sw")


def test_questions_and_skill_directories_that_do_not_exist_say_so(tmp_path):
    from reports.questions import read_questions
    from reports.skill import check_skill_dir

    with pytest.raises(UsageError, match=r"^--questions nosuch: does not exist \("):
        read_questions("nosuch")
    with pytest.raises(UsageError, match=r"^--against nosuch: does not exist \("):
        check_skill_dir("nosuch", option="--against")


class _ReadOnlyStat:
    f_flag = os.ST_RDONLY


@pytest.mark.parametrize("read_only, why", [(True, "read-only file system"), (False, "permission denied")])
def test_an_unwritable_place_says_read_only_file_system_or_permission_denied(tmp_path, monkeypatch,
                                                                             read_only, why):
    from simcore.options import check_sqlite_storage

    real_statvfs = os.statvfs
    monkeypatch.setattr(os, "access", lambda *a, **k: False)
    monkeypatch.setattr(os, "statvfs", (lambda p: _ReadOnlyStat()) if read_only else real_statvfs)
    for call, option in ((lambda: atomic.check_output_dir("out", False), "--out"),
                         (lambda: atomic.check_output_file("x.csv", False), "--out"),
                         (lambda: check_sqlite_storage("s.db"), "--storage")):
        with pytest.raises(UsageError) as e:
            call()
        assert str(e.value).startswith(f"{option} ") and str(e.value).endswith(f"({why})"), e.value


def test_batch_says_at_least_1_when_a_deal_is_one_game():
    from analysis.check.play import check_batch

    # (review s46 #1: at least 30 games a look, 30 deals with rotated seats)
    with pytest.raises(UsageError) as e:
        check_batch(0, 1)
    assert str(e.value).startswith("--batch 0: must be at least 30: ")
    with pytest.raises(UsageError, match=r"^--batch 63: must be a multiple of 2 \(games per deal\) of at least 60 \(30 deals\)"):
        check_batch(63, 2)
    assert check_batch(64, 2) == 64


def test_a_per_seat_index_past_the_last_seat_names_the_index():
    from simcore.config import Table

    setup = Table({"start_coins": [0] * 100}, "rules.toml with --set setup.start_coins[99]=3", "setup")
    with pytest.raises(UsageError) as e:
        setup.per_seat("start_coins", int, 0, max_seats=5)
    assert "start_coins: index 99 is past the last seat (seat 5 is index 4" in str(e.value)


def test_a_game_count_with_a_huge_exponent_is_too_large_not_not_a_number():
    from simcore.options import parse_games

    for text in ("1e99999", "1e30"):
        with pytest.raises(UsageError, match=rf"^--games {text}: more than 1e\+11 games"):
            parse_games(text)


@pytest.mark.parametrize("command", [["check", "nosuch", "-b", "nosuch.toml", "--alpha", "2"],
                                     ["baseline", "nosuch", "-o", "b.toml", "--alpha", "2"],
                                     ["check", "nosuch", "-b", "nosuch.toml", "--beta", "0.50"]])
def test_alpha_and_beta_are_echoed_as_typed(capsys, command):
    code, err = cli_in_process(command, capsys)
    assert code == 2
    assert one_error_line(err) == f"error: {command[-2]} {command[-1]}: must be between 0 and 0.5 (e.g. 0.05)"


@pytest.mark.parametrize("address, problem", [("nonsense", "no :PORT after the host"),
                                              ("tcp://host:abc", "port abc is not a number"),
                                              ("http://host:8786", "unknown scheme http://")])
def test_a_malformed_scheduler_address_is_said_at_once(address, problem):
    from simcore.cluster import check_options

    with pytest.raises(UsageError) as e:
        check_options(None, address)
    assert str(e.value).startswith(f"--scheduler {address}: not a Dask scheduler address ({problem}")
    for good in ("tcp://10.0.0.5:8786", "10.0.0.5:8786", "tls://[::1]:8786", "inproc://x/1/2"):
        check_options(None, good)


@pytest.mark.parametrize("held, old", [(True, True), (True, False), (False, True)])
def test_a_run_being_replaced_right_now_says_retry(tmp_path, held, old):
    """#11: between the two renames of a --force replacement the run is missing; a reader said "it
    does not exist". Said only when another command holds the lock and the old run waits beside it."""
    from simcore.rundir import read_meta

    target = tmp_path / "b2"
    if old:
        _run_dir(tmp_path / f".b2.old-{'0' * 16}")
    lock = FileLock(str(tmp_path / ".b2.lock"))
    if held:
        lock.acquire()
    try:
        with pytest.raises(UsageError) as e:
            read_meta(target)
    finally:
        if held:
            lock.release()
    if held and old:
        assert str(e.value) == (f"{target}: being replaced right now (another command holds its "
                                "lock); retry in a moment")
    else:
        assert str(e.value) == f"{target}: not a run directory (it does not exist)"
