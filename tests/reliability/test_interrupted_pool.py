"""A signal that lands while a thread pool starts a worker must not hang the process's exit.

Seen in `test_processes.py`'s Ctrl-C case (about one run in 4 to 15 here): the interrupted run printed
its line, then never exited, because ``ThreadPoolExecutor.submit`` was cut short between starting a
worker and recording it, and the exit joined that idle worker for ever. The tests below put the
pool in exactly that state (``Thread.start`` raising right after the thread started, as the signal
handler's exception does) and check that the command's end lets the process exit, both ways a
command's process ends: the console script's (``_end_process``) and a caller's ``sys.exit``.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from reliability_helpers import ROOT, env

CUT_SHORT_SUBMIT = """
import sys, threading
from concurrent.futures import ThreadPoolExecutor
import cli
from simcore.errors import Interrupted

started = threading.Thread.start


def start_then_signal(self):
    started(self)
    raise Interrupted(2)          # what cli's signal handler raises, landing after the start


POOLS = []                        # kept for the process's life, as simcore.blocks keeps its pools


def command(*args, **kwargs):
    pool = ThreadPoolExecutor(1)
    POOLS.append(pool)
    threading.Thread.start = start_then_signal
    try:
        pool.submit(int)
    finally:
        threading.Thread.start = started
    return 0


cli._dispatch = command
if sys.argv[1] == "console":
    cli.simulate_main()           # ends through _end_process
else:
    cli.main(["simulate"])        # ends through sys.exit and the interpreter's own exit
"""


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
@pytest.mark.parametrize("how", ["console", "caller"])
def test_a_worker_started_as_the_signal_lands_does_not_hold_the_exit(how, tmp_path):
    try:
        r = subprocess.run([sys.executable, "-c", CUT_SHORT_SUBMIT, how], cwd=ROOT, env=env(),
                           capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("the process did not exit: the pool's unrecorded worker held its exit")
    assert r.returncode == 130, r.stderr
    assert r.stderr.strip() == "interrupted (Ctrl-C): nothing was written under the final name"
