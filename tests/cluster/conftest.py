"""Dask processes for the cluster tests: a scheduler and workers on 127.0.0.1, started as the
``dask`` command line starts them on other machines, and stopped by process id."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("distributed", reason="the [cluster] extra (dask[distributed]) is not installed")

ROOT = Path(__file__).resolve().parents[2]


def _env(pythonpath: str | None) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    env["NUMBA_NUM_THREADS"] = "1"
    env["DASK_DISTRIBUTED__LOGGING__DISTRIBUTED"] = "error"
    return env


class DaskProcesses:
    """A ``dask scheduler`` and ``dask worker`` processes (no nanny: killing one kills it)."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.file = tmp / "scheduler.json"
        self.scheduler: subprocess.Popen | None = None
        self.workers: list[subprocess.Popen] = []
        self.logs: list = []

    def _popen(self, args: list[str], name: str, pythonpath: str | None, cwd: Path,
               python: list[str] | None = None) -> subprocess.Popen:
        log = open(self.tmp / f"{name}.log", "w")
        self.logs.append(log)
        return subprocess.Popen([*(python or [sys.executable]), *args], stdout=log,
                                stderr=subprocess.STDOUT, env=_env(pythonpath), cwd=cwd,
                                start_new_session=True)

    def start_scheduler(self) -> str:
        self.scheduler = self._popen(
            ["-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0",
             "--dashboard-address", ":0", "--scheduler-file", str(self.file)],
            "scheduler", str(ROOT), self.tmp)
        deadline = time.monotonic() + 60
        while not self.file.exists() or not self.file.read_text().strip():
            if time.monotonic() > deadline or self.scheduler.poll() is not None:
                raise RuntimeError("the Dask scheduler did not start: "
                                   + (self.tmp / "scheduler.log").read_text())
            time.sleep(0.1)
        time.sleep(0.2)
        return json.loads(self.file.read_text())["address"]

    def start_worker(self, *, pythonpath: str | None = str(ROOT), cwd: Path | None = None,
                     python: list[str] | None = None) -> subprocess.Popen:
        w = self._popen(["-m", "distributed.cli.dask_worker", "--scheduler-file", str(self.file),
                         "--nthreads", "1", "--no-nanny", "--host", "127.0.0.1",
                         "--dashboard-address", ":0"],
                        f"worker{len(self.workers)}", pythonpath, cwd or self.tmp, python)
        self.workers.append(w)
        return w

    def wait_for_workers(self, address: str, n: int) -> None:
        from distributed import Client

        with Client(address, timeout=30) as c:
            c.wait_for_workers(n, timeout=60)

    def stop(self) -> None:
        for p in [*self.workers, self.scheduler]:
            if p is not None and p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait(timeout=30)
        for log in self.logs:
            log.close()


@pytest.fixture
def dask_processes(tmp_path):
    procs = DaskProcesses(tmp_path)
    try:
        yield procs
    finally:
        procs.stop()
