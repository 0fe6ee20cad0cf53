"""A worker that its nanny restarts mid-run gets the same quiet as the workers started with the
cluster (session 61's leftover): Ctrl-C left to the command, and no Dask log line below CRITICAL.
Before, the setting was made once by ``client.run`` on the workers alive at the start, so a
restarted worker printed heartbeat tracebacks and its own KeyboardInterrupt on Ctrl-C.
Dask processes, so slow (``-m slow``)."""

from __future__ import annotations

import logging
import os
import signal
import time

import pytest

from hang_deadline import deadline
from simcore import cluster

pytestmark = pytest.mark.slow     # Dask processes (docs/testing.md)


def _quiet_here() -> tuple[int, list[int], bool]:
    log = logging.getLogger("distributed")
    levels = [log.level, *(h.level for h in log.handlers if isinstance(h, logging.StreamHandler))]
    return os.getpid(), levels, signal.getsignal(signal.SIGINT) == signal.SIG_IGN


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def test_a_worker_restarted_by_its_nanny_is_as_quiet_as_the_first(tmp_path):
    with deadline(120), cluster.Cluster(workers=1, threads=1, quiet=True) as c:
        c.open()
        (first,) = c.client.run(_quiet_here).values()
        assert first[1] and set(first[1]) == {logging.CRITICAL} and first[2], first
        try:
            c.client.run(_die)
        except Exception:       # the worker died before it answered: what this test wants
            pass
        t = time.monotonic()
        while True:
            try:
                got = list(c.client.run(_quiet_here).values())
            except Exception:
                got = []
            if got and got[0][0] != first[0]:
                break
            assert time.monotonic() - t < 90, "the nanny did not restart the worker"
            time.sleep(0.5)
        pid, levels, ignores_sigint = got[0]
        assert levels and set(levels) == {logging.CRITICAL}, levels
        assert ignores_sigint
