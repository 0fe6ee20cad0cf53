"""A cluster lost mid-run ends ``simulate`` with one line (review s46 exp #3).

Every worker gone: the run waited for one forever (14 minutes without a line, off a terminal).
Now it waits :data:`simcore.cluster.NO_WORKER_MID_RUN_S` (3 s here), says on stderr that it waits,
and stops with one line, exit 1 (a problem of the machines, docs/reliability.md); a worker that
joins within the wait finishes the run, with the files of a run played here. The scheduler gone:
the documented line instead of Dask's text, and no Dask log line above it.

Real processes (``dask scheduler`` and ``dask worker`` on 127.0.0.1, tests/cluster/conftest.py),
so slow; the command runs in this process under a deadline that fails a test instead of hanging
it (the old code waited forever).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

import cli
from hang_deadline import deadline
from simcore import cluster, runner

pytestmark = pytest.mark.slow     # Dask processes (docs/testing.md)

ARGS = ["--games", "20000", "--seed", "5", "--strategies", "balanced", "--chunk-size", "500", "-q"]





def _after_first_part(monkeypatch, action) -> None:
    """``action()`` once the run has written its first chunk (in the client's writer, so the
    chunks after it cannot come back before it acts)."""
    real = cluster.Cluster.play

    def play(self, prep, spans, seed, plan, sink, progress=None):
        seen = []

        def sink_then_act(part):
            sink(part)
            seen.append(part)
            if len(seen) == 1:
                action()
        return real(self, prep, spans, seed, plan, sink_then_act, progress)

    monkeypatch.setattr(cluster.Cluster, "play", play)


def _simulate(argv: list[str], seconds: float) -> int:
    with deadline(seconds), pytest.raises(SystemExit) as exc:
        cli.simulate_main(argv)
    return exc.value.code


def _nothing_in(folder: Path) -> bool:
    return [p.name for p in folder.iterdir() if not p.name.endswith((".lock", ".claim"))] == []


def _kill(proc) -> None:
    proc.kill()
    proc.wait(timeout=30)


@pytest.fixture
def one_worker(dask_processes):
    address = dask_processes.start_scheduler()
    worker = dask_processes.start_worker()
    dask_processes.wait_for_workers(address, 1)
    return address, worker


def test_every_worker_lost_mid_run_stops_with_one_line_after_the_wait(one_worker, dask_processes,
                                                                      tmp_path, capfd,
                                                                      monkeypatch):
    monkeypatch.setattr(cluster, "NO_WORKER_MID_RUN_S", 3.0, raising=False)
    monkeypatch.setattr(cluster, "NO_WORKER_WARN_S", 1.0, raising=False)
    address, worker = one_worker
    _after_first_part(monkeypatch, lambda: _kill(worker))
    (tmp_path / "runs").mkdir()              # (the Dask processes' files are in tmp_path)
    out = tmp_path / "runs" / "r"
    t = time.monotonic()
    code = _simulate([*ARGS, "--scheduler", address, "--out", str(out)], 30)
    took = time.monotonic() - t
    time.sleep(0.5)                                  # (a log line Dask would write late)
    err = capfd.readouterr().err.strip().splitlines()
    assert code == 1, err                            # the machines, not the input
    assert len(err) == 2, err
    assert err[0] == (f"warning: Dask scheduler {address}: every worker was lost mid-run; waiting "
                      "up to 3 s for one to join, then stopping")
    assert err[1].startswith(f"error: Dask scheduler {address}: every worker was lost mid-run "
                             "and none joined within 3 s; the run stopped and nothing was "
                             "written (a run is written whole, so the games it played are lost"), err
    assert took < 30
    assert not out.exists() and _nothing_in(out.parent)


def test_balance_check_says_a_lost_cluster_as_a_problem_of_the_machine(one_worker, tmp_path,
                                                                       capfd, monkeypatch):
    monkeypatch.setattr(cluster, "NO_WORKER_MID_RUN_S", 3.0, raising=False)
    address, worker = one_worker
    _after_first_part(monkeypatch, lambda: _kill(worker))
    baseline = Path(__file__).resolve().parents[2] / "configs" / "baselines" / "middle_ages_default.toml"
    with deadline(30), pytest.raises(SystemExit) as exc:
        cli.main(["check", "--baseline", str(baseline), "--games", "20000", "--batch", "5000",
                  "--quiet", "--scheduler", address])
    err = capfd.readouterr().err.strip().splitlines()
    assert exc.value.code == 4, err                  # balance check's "problem of the machine"
    assert err[-1].startswith(f"error: Dask scheduler {address}: every worker was lost"), err


def test_a_worker_joining_within_the_wait_finishes_the_run(one_worker, dask_processes, tmp_path,
                                                           capfd, monkeypatch):
    monkeypatch.setattr(cluster, "NO_WORKER_MID_RUN_S", 60.0, raising=False)
    address, worker = one_worker

    def replace_worker():
        _kill(worker)
        dask_processes.start_worker()

    _after_first_part(monkeypatch, replace_worker)
    code = _simulate([*ARGS, "--scheduler", address, "--out", str(tmp_path / "dask")], 90)
    assert code == 0, capfd.readouterr().err
    prep = runner.prepare("middle-ages", players=4, strategies="balanced")
    runner.run(prep, games=20000, seed=5, chunk_size=500, threads=1, out=tmp_path / "here",
               quiet=True)
    for name in ("players.parquet", "games.parquet", "summary.parquet", "stats.json"):
        assert (tmp_path / "dask" / name).read_bytes() == (tmp_path / "here" / name).read_bytes()


def test_a_scheduler_lost_mid_run_is_the_documented_line_and_no_dask_log(one_worker,
                                                                         dask_processes, tmp_path,
                                                                         capfd, monkeypatch):
    address, _ = one_worker
    _after_first_part(monkeypatch, lambda: _kill(dask_processes.scheduler))
    (tmp_path / "runs").mkdir()              # (the Dask processes' files are in tmp_path)
    out = tmp_path / "runs" / "r"
    code = _simulate([*ARGS, "--scheduler", address, "--out", str(out)], 30)
    time.sleep(1.0)                                  # (Dask's client logged after the command)
    err = capfd.readouterr().err.strip().splitlines()
    assert code == 1, err                           # the machines (review s48 Dask #2), not the input
    assert len(err) == 1, err                        # no "distributed.client - ERROR" above it
    assert err[0].startswith(f"error: Dask scheduler {address}: lost the connection mid-run ("), err
    assert err[0].endswith("); nothing was written (a run is written whole: run the same command "
                           "again once the scheduler is back; a sweep or tune resumes where it "
                           "stopped)"), err
    assert "cancelled for reason" not in err[0] and "re-run your work" not in err[0]
    assert not out.exists() and _nothing_in(out.parent)
