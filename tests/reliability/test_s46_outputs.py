"""Review s46, the gate's outputs and machine errors:

* #2 ``--save-run`` is compared with ``--junit``/``--summary`` before any game (the same path
  printed PASS after every game, then exit 2; a report file inside the save-run directory got a
  refusal about a directory that did not exist);
* #3 ``--summary`` on a disk that fills mid-append leaves the file as it was (a partial append cut
  a character in two), and says so as a problem of the machine, not a usage error;
* #4 a problem of the machine exits 4 from ``balance check`` (1 is its regression), and a disk too
  full for the lock files names the option and the path;
* #6 two ``simulate`` runs started together without ``--out`` get two directories;
* #8 an out-of-range seed + seed_offset is said as typed: the sum and where the offset came from;
* #9 ``--summary`` is locked only around its append: a second check appending to the same file
  waits a moment instead of stopping.
"""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from reliability_helpers import ROOT, balance, env, hidden, one_error_line, start, wait_for

from cli import _run

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

BASELINE = ROOT / "configs" / "baselines" / "middle_ages_default.toml"


def _line(capsys) -> str:
    return one_error_line(capsys.readouterr().err)


# --- #2 --save-run against --junit / --summary, before any game ---------------------------------

@pytest.mark.parametrize("option", ["--junit", "--summary"])
def test_a_report_file_on_the_save_run_path_is_refused_before_any_game(tmp_path, capsys, no_playing,
                                                                        option):
    sr = tmp_path / "sr3"
    code = _run(["check", "--baseline", str(BASELINE), "--save-run", str(sr), option, str(sr), "-q"])
    line = _line(capsys)
    assert code == 2 and line == (f"error: {option} {sr}: is the same path as --save-run {sr}; give the "
                                  f"{option[2:]} file a path of its own, outside that directory"), line
    assert not sr.exists() and hidden(tmp_path) == []


@pytest.mark.parametrize("option", ["--junit", "--summary"])
def test_a_report_file_inside_the_save_run_directory_is_refused_for_what_it_is(tmp_path, capsys,
                                                                               no_playing, option):
    """It read "--save-run sr4: directory exists and is not empty …" about a directory that did not
    exist (claiming the report file had made it, with its lock files)."""
    sr = tmp_path / "sr4"
    code = _run(["check", "--baseline", str(BASELINE), "--save-run", str(sr), option, str(sr / "r.txt"),
                 "-q"])
    line = _line(capsys)
    assert code == 2 and f"{option} {sr / 'r.txt'}: is inside --save-run {sr}" in line, line
    assert "not empty" not in line
    assert not sr.exists() and hidden(tmp_path) == []


# --- #3 / #4 a full disk ---------------------------------------------------------------------

#: A 96 KB tmpfs at $MNT holding d/summary.md (4,092 bytes), filled to 4 KB from full.
FULL_DISK = r"""
set -u
mount -t tmpfs -o size=96k tmpfs "$MNT"
mkdir "$MNT/d"
"$PY" -c "open('$MNT/d/summary.md', 'w', encoding='utf-8').write('# earlier steps\n' + 'x' * 4060 + '\nimportant line\n')"
avail=$(df -k "$MNT" | tail -1 | awk '{print $4}')
head -c $(( (avail - 4) * 1024 )) /dev/zero > "$MNT/fill" 2>/dev/null
"""

FILL_AND_APPEND = FULL_DISK + r"""
"$PY" - <<'EOF' > "$OUT/append.json"
import json, os, sys
from simcore.atomic import append_text
path = os.environ["MNT"] + "/d/summary.md"
try:
    append_text(path, "## Balance check ✓ — résumé\n" + "é" * 6000 + "\n", "--summary")
    print(json.dumps({"raised": None}))
except BaseException as exc:
    print(json.dumps({"raised": type(exc).__name__, "errno": getattr(exc, "errno", None),
                      "text": getattr(exc, "strerror", None) or str(exc)}))
EOF
cp "$MNT/d/summary.md" "$OUT/after.md"
ls -a "$MNT/d" > "$OUT/listing.txt"
"""


def _can_unshare() -> str | None:
    import shutil

    if shutil.which("unshare") is None:
        return "unshare is not installed"
    if os.geteuid() != 0:
        return "mounting a small tmpfs (unshare -m) needs root here"
    r = subprocess.run(["unshare", "-m", "true"], capture_output=True)
    return None if r.returncode == 0 else f"unshare -m is not allowed: {r.stderr.decode().strip()}"


def _in_a_small_volume(tmp_path: Path, script: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run ``script`` (sh) in a mount namespace of its own, a 96 KB tmpfs mounted at $MNT (the
    machine's own mounts untouched); $OUT is a folder outside it, $PY this Python."""
    mnt, out = tmp_path / "mnt", tmp_path / "out"
    mnt.mkdir()
    out.mkdir()
    return subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True,
                          timeout=timeout, env=env(MNT=mnt, OUT=out, PY=sys.executable), cwd=tmp_path)


@pytest.mark.skipif(_can_unshare() is not None, reason=str(_can_unshare()))
def test_an_append_on_a_disk_that_fills_leaves_the_file_as_it_was(tmp_path):
    before = ("# earlier steps\n" + "x" * 4060 + "\nimportant line\n").encode("utf-8")
    done = _in_a_small_volume(tmp_path, FILL_AND_APPEND)
    assert (tmp_path / "out" / "after.md").exists(), done.stderr
    raised = json.loads((tmp_path / "out" / "append.json").read_text(encoding="utf-8"))
    # the file, byte for byte as it was (it ended with a cut "## \xe2": no longer UTF-8)
    assert (tmp_path / "out" / "after.md").read_bytes() == before
    # a problem of the machine (OSError, ENOSPC), naming the option and the path; not a UsageError
    assert raised["raised"] == "OSError" and raised["errno"] == errno.ENOSPC, raised
    assert raised["text"].startswith("--summary ") and "summary.md: the disk ran out of space" in raised["text"]
    assert "is as it was" in raised["text"]
    # the lock taken for the append is gone with it
    listing = (tmp_path / "out" / "listing.txt").read_text().split()
    assert sorted(listing) == [".", "..", "summary.md"], listing


def test_an_append_cut_short_by_a_file_size_limit_is_taken_back(tmp_path):
    """The same all-or-nothing without root: a file-size limit (RLIMIT_FSIZE) stops the append
    part-way (EFBIG); what was written of it is cut off again."""
    path = tmp_path / "summary.md"
    path.write_bytes(b"# earlier\n" + b"x" * 5000 + b"\n")
    before = path.read_bytes()
    code = textwrap.dedent(f"""
        import json, resource, signal, sys
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, ({len(before) + 100}, {len(before) + 100}))
        from simcore.atomic import append_text
        try:
            append_text({str(path)!r}, "## résumé\\n" + "é" * 3000, "--summary")
            print(json.dumps(None))
        except BaseException as exc:
            print(json.dumps([type(exc).__name__, getattr(exc, "errno", None),
                              getattr(exc, "strerror", None) or str(exc)]))
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env(),
                          cwd=tmp_path, timeout=60)
    got = json.loads(done.stdout)
    assert got is not None and got[0] == "OSError" and got[1] == errno.EFBIG, (got, done.stderr)
    assert got[2].startswith("--summary ") and "summary.md: cannot append to it" in got[2]
    assert "is as it was" in got[2]
    assert path.read_bytes() == before
    assert hidden(tmp_path) == []


FULL_DISK_CHECKS = FULL_DISK + r"""
CHECK="$PY -c 'import sys; from cli import main; main(sys.argv[1:])' check --baseline $BASELINE --games 6000 -q"
eval "$CHECK --summary $MNT/d/summary.md" > "$OUT/summary.out" 2> "$OUT/summary.err"; echo $? > "$OUT/summary.rc"
cp "$MNT/d/summary.md" "$OUT/after.md"
head -c 100000000 /dev/zero >> "$MNT/fill" 2>/dev/null
eval "$CHECK --junit $MNT/d/new/j.xml" > "$OUT/claim.out" 2> "$OUT/claim.err"; echo $? > "$OUT/claim.rc"
ls -a "$MNT/d" > "$OUT/listing.txt"
"""


@pytest.mark.slow   # two processes of the command line (make test-slow)
@pytest.mark.skipif(_can_unshare() is not None, reason=str(_can_unshare()))
def test_balance_check_on_a_full_disk_exits_4_naming_the_output(tmp_path):
    done = _in_a_small_volume(tmp_path, FULL_DISK_CHECKS.replace("$BASELINE", str(BASELINE)), timeout=300)
    out = tmp_path / "out"
    assert (out / "claim.rc").exists(), done.stderr
    # the verdict PASS, then the summary's append meets the full disk: 4, not 1 (a regression)
    assert (out / "summary.out").read_text().startswith("PASS")
    assert int((out / "summary.rc").read_text()) == 4
    line = one_error_line((out / "summary.err").read_text())
    assert line.startswith("error: --summary ") and "summary.md: the disk ran out of space" in line
    assert (out / "after.md").read_bytes() == ("# earlier steps\n" + "x" * 4060 + "\nimportant line\n").encode()
    # a disk too full for even the lock files: the option and the path, 4, before any game
    assert int((out / "claim.rc").read_text()) == 4 and (out / "claim.out").read_text() == ""
    line = one_error_line((out / "claim.err").read_text())
    assert line.startswith("error: --junit ") and "j.xml: no space left" in line, line
    assert sorted((out / "listing.txt").read_text().split()) == [".", "..", "summary.md"]


def test_a_machine_error_after_the_verdict_exits_4_not_1(tmp_path, capsys, monkeypatch):
    """The JUnit file meeting a full disk after a PASS exited 1, which balance check defines as a
    regression. (The disk is made full where the file is written: os.replace, the last step.)"""
    from simcore import atomic

    real = os.replace

    def full(src, dst, *a, **k):
        if str(dst).endswith("j.xml"):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(src, dst, *a, **k)

    monkeypatch.setattr(atomic.os, "replace", full)
    junit = tmp_path / "j.xml"
    code = _run(["check", "--baseline", str(BASELINE), "--games", "6000", "--junit", str(junit), "-q"])
    out, err = capsys.readouterr()
    assert out.startswith("PASS")
    assert code == 4
    line = one_error_line(err)
    assert line.startswith("error: --junit ") and "j.xml: the disk ran out of space while writing it" in line
    assert not junit.exists() and hidden(tmp_path) == []


def test_a_full_disk_when_the_lock_is_taken_names_the_option_and_the_path(tmp_path, capsys, monkeypatch,
                                                                         no_playing):
    """`error: No space left on device`, no option, no path, exit 1 before any game: the claim
    record's write (os.pwrite) met the full disk."""
    from simcore import atomic

    def full(*a, **k):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(atomic.os, "pwrite", full)
    junit = tmp_path / "new" / "j.xml"
    code = _run(["check", "--baseline", str(BASELINE), "--junit", str(junit), "-q"])
    line = _line(capsys)
    assert code == 4
    assert line.startswith("error: --junit ") and "j.xml: no space left on the device" in line, line
    assert not (tmp_path / "new").exists() and hidden(tmp_path) == []


def test_other_commands_keep_exit_1_for_a_full_disk(tmp_path, capsys, monkeypatch):
    from simcore import atomic

    def full(*a, **k):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(atomic.os, "pwrite", full)
    code = _run(["simulate", "--games", "100", "--out", str(tmp_path / "r"), "-q"])
    line = _line(capsys)
    assert code == 1 and line.startswith("error: --out ") and "r: no space left on the device" in line, line


# --- #6 two simulate runs without --out, started together ---------------------------------------

def test_a_default_run_directory_is_claimed_when_it_is_chosen(tmp_path, monkeypatch):
    """Two commands started in the same second both took `…Z` (it did not exist yet, nor its lock)
    and the second then stopped: "another command is writing it right now". The name is now claimed
    as it is chosen, so the next choice of the same second passes it over."""
    from simcore import atomic, rundir

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(rundir, "stamped_run_dir", lambda game, root="runs": Path(root) / f"{game}-20261128T004211Z")
    first = rundir.default_run_dir("middle-ages")
    try:
        second = rundir.default_run_dir("middle-ages")
        assert first == Path("runs/middle-ages-20261128T004211Z")
        assert second == Path("runs/middle-ages-20261128T004211Z-2")
        # another process cannot take the first name now (its lock is held)
        probe = subprocess.run([sys.executable, "-c", textwrap.dedent("""
            import sys
            from filelock import FileLock, Timeout
            try:
                FileLock(sys.argv[1]).acquire(timeout=0)
                print("taken")
            except Timeout:
                print("held")
        """), str(tmp_path / "runs" / ".middle-ages-20261128T004211Z.lock")], capture_output=True, text=True,
            timeout=60)
        assert probe.stdout.strip() == "held", probe
    finally:
        atomic.release_claims()
    assert not (tmp_path / "runs").exists() or list((tmp_path / "runs").iterdir()) == []


@pytest.mark.slow   # processes of the command line, four at a time (make test-slow)
def test_two_simulate_runs_started_together_both_get_a_directory(tmp_path):
    for _ in range(2):
        a = start("simulate", "--games", "2000", "-q", cwd=tmp_path)
        b = start("simulate", "--games", "2000", "--seed", "5", "-q", cwd=tmp_path)
        outs = [p.communicate(timeout=120) for p in (a, b)]
        assert [p.returncode for p in (a, b)] == [0, 0], outs
        assert outs[0][0].strip() != outs[1][0].strip()
    runs = sorted(p.name for p in (tmp_path / "runs").iterdir())
    assert len(runs) == 4 and not any(n.startswith(".") for n in runs), runs


# --- #8 seed + seed_offset out of range --------------------------------------------------------

def test_a_seed_offset_out_of_range_is_said_with_the_sum(tiny_run, tmp_path, capsys):
    code = _run(["baseline", str(tiny_run), "--out", str(tmp_path / "so.toml"), "--seed-offset", "-3000"])
    line = _line(capsys)
    assert code == 2
    # the tiny run's seed is 3
    assert line.startswith("error: --seed-offset -3000: seed 3 (the run's) + seed_offset -3000 = -2997 "
                           "is out of range"), line
    assert not (tmp_path / "so.toml").exists()


def test_a_seed_offset_in_the_baseline_file_out_of_range_names_the_files_key(tmp_path, capsys, no_playing):
    text = BASELINE.read_text(encoding="utf-8")
    assert "\nseed_offset = 1 " in text and "\nseed = 2024 " in text
    som = tmp_path / "som.toml"
    som.write_text(text.replace("\nseed_offset = 1 ", "\nseed_offset = -2025 "), encoding="utf-8")
    code = _run(["check", "--baseline", str(som), "-q"])
    line = _line(capsys)
    assert code == 2
    assert line.startswith(f"error: {som}: check.seed_offset: seed 2024 + seed_offset -2025 = -1 is out "
                           "of range"), line
    assert "--seed" not in line.split("out of range")[0]


# --- #9 the summary's lock only around the append ------------------------------------------------

HOLD = """
import sys, time
from pathlib import Path
from filelock import FileLock
lock = FileLock(sys.argv[1])
lock.acquire()
Path(sys.argv[2]).write_text("held")
time.sleep(float(sys.argv[3]))
lock.release()
"""


def test_a_second_check_appending_to_the_same_summary_waits_for_the_append(tmp_path, capsys):
    """Another command holds the summary's lock (it is appending) while this check starts: the check
    plays, then appends once the lock is free. It stopped at once before ("another command is
    writing it right now", exit 2): the lock was taken for the whole check."""
    summary = tmp_path / "cs.md"
    summary.write_text("# earlier step\n", encoding="utf-8")
    ready = tmp_path / "ready"
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(tmp_path / ".cs.md.lock"), str(ready), "1.5"],
                              env=env())
    try:
        wait_for(ready.exists, 60, "the other command's lock")
        t0 = time.monotonic()
        code = _run(["check", "--baseline", str(BASELINE), "--games", "6000", "--summary", str(summary), "-q"])
        out, err = capsys.readouterr()
    finally:
        holder.wait(timeout=60)
    assert code == 0, err
    assert out.startswith("PASS") and err == ""
    text = summary.read_text(encoding="utf-8")
    assert text.startswith("# earlier step\n") and "PASS" in text[len("# earlier step\n"):]
    assert time.monotonic() - t0 < 30
    assert hidden(tmp_path, ".cs.md.claim") == []
