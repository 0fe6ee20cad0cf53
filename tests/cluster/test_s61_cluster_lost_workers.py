"""Runs on Dask whose workers are lost or idle: what run.json records and what the command says
(review s61 #1, #2, #3). Dask processes, so slow (``-m slow``).

- run.json's ``executor.workers`` counts the workers that played the run's chunks: a worker
  killed mid-run after playing counts (it said 1 of 2), a worker that played nothing does not.
- The local workers of ``--workers`` write no Dask log line below CRITICAL (a worker still
  sending heartbeats while the command closed on Ctrl-C printed tracebacks above its one line).
- A chunk whose workers keep dying is a problem of the machines: one line, exit 1 (it was exit 2,
  a bad input, after two "distributed.scheduler - ERROR - Task … marked as failed" lines).
"""

from __future__ import annotations

import json
import logging
import os
import signal
import threading
import time

import pytest

import cli
from hang_deadline import deadline
from simcore import cluster, runner

pytestmark = pytest.mark.slow     # Dask processes (docs/testing.md)


def _meta(run) -> dict:
    return json.loads((run / "run.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def two_local_workers():
    with cluster.Cluster(workers=2, threads=1, quiet=True) as c:
        c.open()
        yield c


def test_a_run_of_one_chunk_on_two_workers_records_the_one_that_played(two_local_workers,
                                                                       tmp_path):
    prep = runner.prepare("middle-ages", players=4, strategies="balanced")
    runner.run(prep, games=200, seed=1, chunk_size=1000, out=tmp_path / "r",
               executor=two_local_workers, quiet=True)               # one chunk
    assert two_local_workers.alive() == 2
    assert _meta(tmp_path / "r")["executor"]["workers"] == 1


def _dask_log_levels() -> list[int]:
    log = logging.getLogger("distributed")
    return [log.level, *(h.level for h in log.handlers if isinstance(h, logging.StreamHandler))]


def test_the_local_workers_write_no_dask_log_line_below_critical(two_local_workers):
    levels = two_local_workers.client.run(_dask_log_levels)
    assert len(levels) == 2
    for addr, got in levels.items():
        assert len(got) >= 2 and set(got) == {logging.CRITICAL}, (addr, got)


def test_a_worker_killed_after_playing_is_counted_in_run_json(dask_processes, tmp_path):
    address = dask_processes.start_scheduler()
    victim = dask_processes.start_worker()
    dask_processes.start_worker()
    dask_processes.wait_for_workers(address, 2)
    prep = runner.prepare("middle-ages", players=4, strategies="balanced")

    class KillsAfterParts(cluster.Cluster):
        def play(self, prep, spans, seed, plan, sink, progress=None):
            seen = []

            def sink_then_kill(part):
                sink(part)
                seen.append(part)
                if len(seen) == 12:          # both workers have played by then (a window of
                    victim.kill()            # at least 4 chunks in flight, 1 thread each)
            super().play(prep, spans, seed, plan, sink_then_kill, progress)

    with deadline(120), KillsAfterParts(scheduler=address, quiet=True) as ex:
        runner.run(prep, games=40_000, seed=9, chunk_size=500, out=tmp_path / "r", executor=ex,
                   quiet=True)
        alive = ex.alive()
    victim.wait(timeout=30)
    assert alive == 1
    assert _meta(tmp_path / "r")["executor"]["workers"] == 2


def test_a_chunk_whose_workers_keep_dying_is_one_line_and_exit_1(tmp_path, capfd, caplog,
                                                                  monkeypatch):
    import dask

    real = cluster.Cluster.play

    def play(self, prep, spans, seed, plan, sink, progress=None):
        def kill_a_busy_worker():
            pids = self.client.run(os.getpid)
            end = time.monotonic() + 60
            while time.monotonic() < end:
                for addr, tasks in self.client.processing().items():
                    if tasks and addr in pids:
                        os.kill(pids[addr], signal.SIGKILL)
                        return
                time.sleep(0.002)

        seen = []

        def sink_then_kill(part):
            sink(part)
            seen.append(part)
            if len(seen) == 2:
                threading.Thread(target=kill_a_busy_worker, daemon=True).start()
        return real(self, prep, spans, seed, plan, sink_then_kill, progress)

    monkeypatch.setattr(cluster.Cluster, "play", play)
    monkeypatch.setenv("NUMBA_NUM_THREADS", "1")
    (tmp_path / "runs").mkdir()
    out = tmp_path / "runs" / "kw"
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}), deadline(180), \
            pytest.raises(SystemExit) as exc:
        cli.simulate_main(["--games", "400000", "--seed", "9", "--out", str(out), "--workers", "2",
                           "--chunk-size", "2000", "-q"])
    time.sleep(0.5)                                   # (a log line Dask would write late)
    err = [x for x in capfd.readouterr().err.splitlines() if x.strip()]
    assert exc.value.code == 1, err                   # the machines, not the input
    assert len(err) == 1 and err[0].startswith("error: games "), err
    assert "their workers died repeatedly" in err[0] and "nothing was written" in err[0], err
    assert not out.exists()
    # (Dask's handler may hold a stream of its own: its records are read here as well)
    failed = [r.getMessage() for r in caplog.records if "marked as failed" in r.getMessage()]
    assert failed == [], failed
