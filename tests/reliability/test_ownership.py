"""Issue 28, point 1: ownership is proven, not guessed.

Every output directory carries a marker only the toolkit writes (kind, format, random id, the
entries it wrote); ``--force`` replaces only a directory whose marker has the same kind and holds
nothing else, and removes only what the marker lists. Hidden temporary and backup names are
recorded in the lock before they are made, and only what a lock lists is ever cleaned up. These
tests call simcore.atomic directly (no game is played) except where a second process is needed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from simcore import atomic
from simcore.errors import UsageError

from reliability_helpers import ROOT, cli_in_process, one_error_line


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    yield
    atomic.release_claims()


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _publish(target: Path, kind: str, files: dict[str, str], force: bool = False) -> Path:
    out = atomic.check_output_dir(target, force, kind=kind)
    tmp = atomic.temporary_dir(out)
    for name, text in files.items():
        (tmp / name).write_text(text, encoding="utf-8")
    return atomic.publish_dir(tmp, out)


def test_a_published_directory_carries_a_marker_listing_what_was_written(tmp_path):
    _publish(tmp_path / "r", "run", {"run.json": "{}", "players.parquet": "x"})
    marker = atomic.read_marker(tmp_path / "r")
    assert marker["kind"] == "run" and marker["toolkit"] == "balance-toolkit"
    assert marker["entries"] == ["players.parquet", "run.json"]
    assert len(marker["id"]) == 16 and int(marker["id"], 16) >= 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r"]      # no lock, no temporary left


@pytest.mark.parametrize("files", [
    {"report.html": "<p>mine</p>", "index.html": "<p>home</p>", "photo.jpg": "JPEG"},
    {"run.json": "{}", "thesis.tex": "\\section{mine}"},
    {"sweep.json": "{}"},
    {".balance-output.json": "{\"kind\": \"run\", \"entries\": []}", "thesis.tex": "x"},   # a fake marker
])
def test_force_never_replaces_a_folder_of_the_users_own_files(tmp_path, files):
    site = tmp_path / "site"
    site.mkdir()
    for name, text in files.items():
        (site / name).write_text(text, encoding="utf-8")
    before = _files(site)
    for kind in ("run", "report", "sweep", "tune"):
        with pytest.raises(UsageError, match="not a directory this toolkit wrote"):
            atomic.check_output_dir(site, True, kind=kind)
    assert _files(site) == before


@pytest.mark.parametrize("have,want", [("run", "sweep"), ("sweep", "tune"), ("tune", "sweep"),
                                       ("report", "run"), ("run", "report"), ("questions", "run"),
                                       ("run", "questions")])
def test_force_replaces_only_a_directory_of_the_same_kind(tmp_path, have, want):
    _publish(tmp_path / "d", have, {"a.txt": "ours"})
    before = _files(tmp_path / "d")
    said = {"questions": "a questions directory"}          # (review W #11: "not a questions")
    with pytest.raises(UsageError, match=f"holds {said.get(have, 'a ' + have)}, not {said.get(want, 'a ' + want)}"):
        atomic.check_output_dir(tmp_path / "d", True, kind=want)
    assert _files(tmp_path / "d") == before


def test_force_refuses_a_directory_of_ours_holding_a_users_file(tmp_path):
    _publish(tmp_path / "d", "run", {"run.json": "{}"})
    (tmp_path / "d" / "photo.jpg").write_bytes(b"JPEG")
    with pytest.raises(UsageError, match="photo.jpg, which this toolkit did not write"):
        atomic.check_output_dir(tmp_path / "d", True, kind="run")
    assert (tmp_path / "d" / "photo.jpg").read_bytes() == b"JPEG"


def test_force_replaces_its_own_directory_and_keeps_a_file_added_meanwhile(tmp_path, capsys):
    _publish(tmp_path / "d", "run", {"run.json": "{}", "old.parquet": "old"})
    out = atomic.check_output_dir(tmp_path / "d", True, kind="run")
    tmp = atomic.temporary_dir(out)
    (tmp / "run.json").write_text("{\"new\": 1}")
    (tmp_path / "d" / "photo.jpg").write_bytes(b"JPEG")       # added after the check
    atomic.publish_dir(tmp, out)
    assert (tmp_path / "d" / "run.json").read_text() == "{\"new\": 1}"
    assert not (tmp_path / "d" / "old.parquet").exists()
    kept = [p for p in tmp_path.iterdir() if p.name.startswith(".d.old-")]
    assert len(kept) == 1 and (kept[0] / "photo.jpg").read_bytes() == b"JPEG"
    assert not (kept[0] / "old.parquet").exists()
    assert "photo.jpg" in capsys.readouterr().err


def test_look_alike_hidden_names_of_the_user_are_never_touched(tmp_path):
    mine = {".demo.tmp-deadbeef": "a", ".notes.old-abcdef01": "b", ".demo.old-0123456789abcdef": "c",
            ".x.questions-fedcba9876543210": "d"}
    for name, text in mine.items():
        (tmp_path / name).mkdir()
        (tmp_path / name / "keep.txt").write_text(text)
    (tmp_path / ".y.lock").write_text("")             # an empty file named like a lock
    _publish(tmp_path / "demo", "run", {"run.json": "{}"})
    _publish(tmp_path / "notes", "run", {"run.json": "{}"})
    atomic.recover_leftovers(tmp_path)
    assert atomic.restore_interrupted(tmp_path / "x") is False
    for name, text in mine.items():
        assert (tmp_path / name / "keep.txt").read_text() == text
    assert (tmp_path / ".y.lock").exists()


def test_a_lock_file_of_the_users_is_not_overwritten(tmp_path):
    (tmp_path / ".out.lock").write_text("my notes\n")
    with pytest.raises(UsageError, match="is in the way"):
        atomic.check_output_dir(tmp_path / "out", False)
    assert (tmp_path / ".out.lock").read_text() == "my notes\n"


def test_what_a_killed_command_recorded_is_cleaned_up_and_nothing_else(tmp_path):
    """A command killed between the two renames of a --force replacement: its lock lists the
    temporary and the old directory; the next command restores the old one and removes the
    temporary, and leaves a look-alike name alone."""
    _publish(tmp_path / "demo", "run", {"run.json": "{\"v\": 1}"})
    old, tmp = ".demo.old-" + "1" * 16, ".demo.tmp-" + "2" * 16
    os.rename(tmp_path / "demo", tmp_path / old)
    (tmp_path / tmp).mkdir()
    (tmp_path / ".demo.tmp-" + "3" * 16).mkdir() if False else (tmp_path / (".demo.tmp-" + "3" * 16)).mkdir()
    (tmp_path / ".demo.lock").write_text(json.dumps(
        {"toolkit": "balance-toolkit", "format": 1, "target": "demo", "pid": 1,
         "entries": {old: "old", tmp: "tmp"}}))
    atomic.recover_leftovers(tmp_path)
    assert json.loads((tmp_path / "demo" / "run.json").read_text()) == {"v": 1}
    assert not (tmp_path / tmp).exists() and not (tmp_path / ".demo.lock").exists()
    assert (tmp_path / (".demo.tmp-" + "3" * 16)).is_dir()      # not listed: not ours to remove


@pytest.mark.parametrize("lock_file", ["empty", "missing"])
def test_a_killed_commands_claim_record_beside_its_lock_is_finished(tmp_path, lock_file):
    """The record lives in .<name>.claim beside filelock's .<name>.lock; a command killed after
    making its temporary leaves both (or, killed between the two unlinks of its release, only the
    record): the next command removes what the record lists, then both files."""
    tmp = ".demo.tmp-" + "4" * 16
    (tmp_path / tmp).mkdir()
    if lock_file == "empty":
        (tmp_path / ".demo.lock").write_text("")
    (tmp_path / ".demo.claim").write_text(json.dumps(
        {"toolkit": "balance-toolkit", "format": 1, "target": "demo", "pid": 1, "entries": {tmp: "tmp"}}))
    atomic.recover_leftovers(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_a_claim_file_of_the_users_is_not_overwritten(tmp_path):
    (tmp_path / ".out.claim").write_text("my notes\n")
    with pytest.raises(UsageError, match=".out.claim is in the way"):
        atomic.check_output_dir(tmp_path / "out", False)
    atomic.recover_leftovers(tmp_path)
    assert (tmp_path / ".out.claim").read_text() == "my notes\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [".out.claim"]


def test_the_lock_is_filelocks(tmp_path):
    """One writer per output is filelock's lock (a well-kept library, not a lock of our own): a
    filelock.FileLock held on .out.lock by anyone stops the command."""
    from filelock import FileLock

    held = FileLock(str(tmp_path / ".out.lock"))
    held.acquire()
    try:
        code = ("import sys; sys.path.insert(0, sys.argv[1]); from simcore import atomic; "
                "atomic.check_output_dir(sys.argv[2], False)")
        p = subprocess.run([sys.executable, "-c", code, str(ROOT), str(tmp_path / "out")],
                           capture_output=True, text=True)
        assert p.returncode != 0 and "another command is writing it" in p.stderr, p.stderr
    finally:
        held.release()
    atomic.check_output_dir(tmp_path / "out", False)
    atomic.release_claims()


def test_a_hand_edited_lock_cannot_point_outside_its_own_names(tmp_path):
    (tmp_path / "precious").mkdir()
    (tmp_path / "precious" / "a.txt").write_text("mine")
    (tmp_path / ".demo.lock").write_text(json.dumps(
        {"toolkit": "balance-toolkit", "format": 1, "target": "demo", "pid": 1,
         "entries": {"precious": "tmp", "../x": "tmp", ".demo.tmp-deadbeef": "tmp"}}))
    atomic.recover_leftovers(tmp_path)
    assert (tmp_path / "precious" / "a.txt").read_text() == "mine"


def test_a_second_process_cannot_write_the_same_output(tmp_path):
    code = ("import sys, time; sys.path.insert(0, sys.argv[1]); from simcore import atomic; "
            "atomic.claim_output(sys.argv[2]); print('held', flush=True); time.sleep(30)")
    holder = subprocess.Popen([sys.executable, "-c", code, str(ROOT), str(tmp_path / "out")],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(UsageError, match="another command is writing it"):
            atomic.check_output_dir(tmp_path / "out", False)
        record = json.loads((tmp_path / ".out.claim").read_text())
        assert record["toolkit"] == "balance-toolkit" and record["target"] == "out"
    finally:
        holder.kill()
        holder.wait()


def test_temporary_names_are_recorded_in_the_lock_before_they_are_made(tmp_path):
    out = atomic.check_output_dir(tmp_path / "r", False)
    tmp = atomic.temporary_dir(out)
    record = json.loads((tmp_path / ".r.claim").read_text())
    assert record["entries"] == {tmp.name: "tmp"}
    assert len(tmp.name.rsplit("-", 1)[1]) == 16


def test_a_junit_file_is_replaced_only_if_balance_check_wrote_it(tmp_path):
    from analysis.check.presentation import JUNIT_SIGN

    (tmp_path / "mine.xml").write_text("<mine/>")
    with pytest.raises(UsageError, match="file exists"):
        atomic.write_text_atomic(tmp_path / "mine.xml", "<new/>", option="--junit", own_sign=JUNIT_SIGN)
    assert (tmp_path / "mine.xml").read_text() == "<mine/>"
    (tmp_path / "ours.xml").write_text(f"<?xml?>\n{JUNIT_SIGN}\n<testsuites/>")
    atomic.write_text_atomic(tmp_path / "ours.xml", "<new/>", option="--junit", own_sign=JUNIT_SIGN)
    assert (tmp_path / "ours.xml").read_text() == "<new/>"


def test_simulate_force_over_the_users_site_is_one_line(tmp_path, capsys, no_playing):
    site = tmp_path / "site"
    site.mkdir()
    for name in ("report.html", "index.html", "photo.jpg"):
        (site / name).write_text(name)
    code, err = cli_in_process(["simulate", "--games", "1e9", "--out", "site", "--force"], capsys)
    assert code == 2 and "not a directory this toolkit wrote" in one_error_line(err)
    assert sorted(p.name for p in site.iterdir()) == ["index.html", "photo.jpg", "report.html"]


@pytest.mark.parametrize("dies_at", ["pwrite", "ftruncate"])
def test_a_record_rewritten_when_killed_is_the_old_or_the_new_one(tmp_path, monkeypatch, dies_at):
    """A command killed while rewriting its claim record (a sweep killed just after publishing a
    variant: the record forgets the published temporary) leaves a record the next command can
    read, the old one or the new one, never an empty file, which would be taken for a user's and
    left with its lock for ever (seen in tests/sweep/test_sweep.py's killed sweep)."""
    lock = atomic._try_lock(tmp_path / "demo")
    old = {"toolkit": "balance-toolkit", "format": 1, "target": "demo", "pid": os.getpid(),
           "entries": {".demo.tmp-" + "5" * 16: "tmp", ".demo.old-" + "6" * 16: "old"}}
    lock.write(old)
    new = {**old, "entries": {}}

    def killed(*_a, **_k):
        raise SystemExit("killed")
    monkeypatch.setattr(atomic.os, dies_at, killed)
    with pytest.raises(SystemExit):
        lock.write(new)
    monkeypatch.undo()
    left = atomic._parse_record((tmp_path / ".demo.claim").read_bytes())
    assert left == (old if dies_at == "pwrite" else new)
    lock.close(unlink=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_a_release_killed_between_its_two_unlinks_is_finished_by_the_next_command(tmp_path,
                                                                                   monkeypatch):
    """Releasing a claim unlinks the lock file, then the record; killed in between, what is left
    is the record, which the next command finishes (not a lone empty lock file, which is left
    alone as a user's)."""
    tmp = ".demo.tmp-" + "7" * 16
    (tmp_path / tmp).mkdir()
    lock = atomic._try_lock(tmp_path / "demo")
    lock.write({"toolkit": "balance-toolkit", "format": 1, "target": "demo", "pid": os.getpid(),
                "entries": {tmp: "tmp"}})
    real_unlink, calls = os.unlink, []

    def unlink_once(path, *a, **k):
        calls.append(path)
        if len(calls) > 1:
            raise SystemExit("killed")
        return real_unlink(path, *a, **k)
    monkeypatch.setattr(atomic.os, "unlink", unlink_once)
    with pytest.raises(SystemExit):
        lock.close(unlink=True)
    monkeypatch.undo()
    lock.lock.release(force=True)                  # the kernel frees the lock of a killed process
    atomic.recover_leftovers(tmp_path, quiet=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def _claim_files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith((".lock", ".claim")))


def test_a_signal_right_after_the_claim_is_written_leaves_no_lock_behind(tmp_path, monkeypatch):
    """timeout -s INT 3 balance report runs/b --out rep1 --force left .rep1.claim and .rep1.lock
    (once in 12): the signal landed after the claim record was written and before the claim was
    registered, so the command's final release_claims did not know it. Simulated: Ctrl-C raised
    just after the record is saved."""
    real_save = atomic._Claim.save

    def save_then_interrupted(self, target):
        real_save(self, target)
        raise KeyboardInterrupt
    monkeypatch.setattr(atomic._Claim, "save", save_then_interrupted)
    with pytest.raises(KeyboardInterrupt):
        atomic.claim_output(tmp_path / "rep1")
    monkeypatch.undo()
    assert _claim_files(tmp_path) == [".rep1.claim", ".rep1.lock"]
    atomic.release_claims()                        # what the command line does at its end
    assert _claim_files(tmp_path) == []


def test_a_signal_before_the_lock_is_closed_leaves_no_lock_behind(tmp_path, monkeypatch):
    """Releasing popped the claim first: a signal before its lock was closed left both files for a
    command that had published its output."""
    _publish(tmp_path / "rep1", "report", {"report.html": "<p>1</p>"})
    atomic.check_output_dir(tmp_path / "rep1", True, kind="report")
    real_close, calls = atomic._Lock.close, []

    def interrupted_once(self, unlink):
        calls.append(unlink)
        if len(calls) == 1:
            raise KeyboardInterrupt
        return real_close(self, unlink)
    monkeypatch.setattr(atomic._Lock, "close", interrupted_once)
    with pytest.raises(KeyboardInterrupt):
        atomic.release_claim(tmp_path / "rep1")
    atomic.release_claims()
    monkeypatch.undo()
    assert _claim_files(tmp_path) == []
    assert (tmp_path / "rep1" / "report.html").read_text() == "<p>1</p>"


def test_a_lock_and_claim_left_by_a_killed_claim_are_removed_by_the_next_command(tmp_path):
    """What a process killed right after claiming leaves (the lock file and its record, no
    temporary yet) is removed by the next command writing in that folder, and by the next command
    writing the same output."""
    script = ("import os, sys; from simcore import atomic; atomic.claim_output(sys.argv[1]); "
              "os._exit(0)")
    for other in ("rep2", "rep1"):
        subprocess.run([sys.executable, "-c", script, str(tmp_path / "rep1")], check=True, cwd=ROOT)
        assert _claim_files(tmp_path) == [".rep1.claim", ".rep1.lock"]
        atomic.claim_output(tmp_path / other)
        atomic.release_claims()
        assert _claim_files(tmp_path) == []


def test_a_signal_inside_a_held_step_is_acted_on_when_the_step_ends():
    """atomic._signals_held: a Ctrl-C delivered while a lock is taken and its claim registered
    (here: to another running thread, as the kernel's are; CPython runs the handler in the main
    thread) raises only after the step, once. The step lasts until the signal has been noted: one
    sent to another thread reaches the main thread's handler only once that thread has run again
    and taken the GIL (CPython sets the main thread's pending-signal check from the thread that
    received it only then), so under load later than any fixed number of steps. The first
    version waited 1,000 appends and failed when the signal came after them (1 run in ~500 on a
    loaded machine); this one sleeps between steps, leaving the GIL to the woken thread."""
    import signal
    import threading
    import time

    from simcore import atomic

    # Python's own Ctrl-C handler, whatever this process was started with: a shell that starts a
    # job in the background without job control (CI's, `nohup`, `cmd &` in a script) starts it
    # with SIGINT ignored, and an ignored signal is, rightly, still ignored after the step.
    started_with = signal.signal(signal.SIGINT, signal.default_int_handler)
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    steps = []
    noted_in_step = []
    try:
        with pytest.raises(KeyboardInterrupt):
            with atomic._signals_held() as noted:
                signal.pthread_kill(other.ident, signal.SIGINT)
                deadline = time.monotonic() + 30
                while not noted and time.monotonic() < deadline:
                    steps.append(1)              # the handler would run between these
                    time.sleep(0.001)            # the GIL free: the woken thread can take it
                noted_in_step.extend(noted)
                steps.append("done")
    finally:
        stop.set()
        other.join()
        after = signal.signal(signal.SIGINT, started_with)
    assert noted_in_step == [signal.SIGINT], "the signal never reached the main thread's handler"
    assert steps[-1] == "done" and after is signal.default_int_handler


@pytest.mark.parametrize("where", ["a library that drops it", "a finalizer"])
def test_an_interruption_dropped_before_the_command_line_is_raised_again(where, capsys):
    """A Ctrl-C whose Interrupted is dropped before it reaches the command line (a ``cdef`` function
    of pyarrow's importing pandas; a finalizer running when the signal came, where Python prints
    "Exception ignored") left a tune running to its end, exit 0. Once the dropped exception is
    freed, the signal is raised again; nothing is printed for the finalizer's case; other
    unraisable exceptions still reach the previous hook."""
    import signal
    import time

    import cli
    from simcore.errors import Interrupted

    class Finalized:
        def __del__(self):
            signal.raise_signal(signal.SIGINT)    # the handler raises inside the finalizer

    def library_call():
        try:
            signal.raise_signal(signal.SIGINT)
            time.sleep(0.01)
        except BaseException:                      # noqa: BLE001  (what the library does)
            pass

    seen = []
    old = signal.signal(signal.SIGINT, cli._on_signal)      # as cli._run installs them
    hook, previous = sys.unraisablehook, cli._previous_unraisable
    cli._previous_unraisable = lambda args: seen.append(args.exc_value)
    sys.unraisablehook = cli._unraisable
    try:
        with pytest.raises(Interrupted) as caught:
            if where == "a finalizer":
                x = Finalized()
                del x
            else:
                library_call()
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline:     # raised again here
                time.sleep(0.001)
        cli._seen(caught.value)
        assert caught.value.exit_code == 130 and seen == []
        assert "Exception ignored" not in capsys.readouterr().err
        y = Finalized.__new__(Finalized)
        Finalized.__del__ = lambda self: 1 / 0     # any other error: to the previous hook
        del y
        assert len(seen) == 1 and isinstance(seen[0], ZeroDivisionError)
    finally:
        sys.unraisablehook, cli._previous_unraisable = hook, previous
        signal.signal(signal.SIGINT, old)
        cli._SIGNAL.update(signum=None, again=False)
