"""Review s59 (helper 226) #2: ``balance ladder --out`` printed its matrix before writing the file,
so a closed stdout (``| head -1``) or a full one (``> /dev/full``) threw the finished matrix away
(exit 141 or 1, no file); and the full-disk line, "error: No space left on device", did not say
that it was the standard output that could not be written. The file is now written first, and
the line names the standard output (every command: :func:`cli.machine_line`). Real processes: a
pipe's reader and /dev/full are the process's own stdout."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

BALANCE = str(Path(sys.executable).with_name("balance"))
LADDER = [BALANCE, "ladder", "--bots", "random,greedy,balanced", "--games", "40"]


def test_ladder_out_is_written_though_nobody_reads_stdout(tmp_path):
    proc = subprocess.Popen([*LADDER, "--out", "L5.csv"], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    proc.stdout.close()                       # the reader is gone before anything is printed
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 0, err  # the matrix was published: nothing unfinished
    assert "error" not in err, err
    table = (tmp_path / "L5.csv").read_text().splitlines()
    assert table[0].startswith("game,") or "bot" in table[0]
    assert len(table) == 1 + 6               # 3 bots, each against the 2 others


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
def test_a_full_stdout_keeps_the_ladder_file_and_says_it_was_stdout(tmp_path):
    with open("/dev/full", "w") as full:
        done = subprocess.run([*LADDER, "--out", "L6.csv"], cwd=tmp_path, stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 1, done.stderr               # a problem of the machine
    lines = done.stderr.splitlines()
    assert lines == ["error: the standard output could not be written: No space left on device"], lines
    assert len((tmp_path / "L6.csv").read_text().splitlines()) == 1 + 6
