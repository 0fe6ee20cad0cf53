"""A worker of another version (or other rules) that joins a --scheduler cluster mid-run is left
out with one warning line, and the run goes on on the workers of this version: its files are those
of a local run (session 48's list: such a worker aborted the whole run, the games played lost). A
cluster whose only workers are of another version is still refused in one line
(test_cluster_runs.py::test_a_worker_with_another_version_is_one_line)."""

from __future__ import annotations

import shutil

import pytest

from simcore import cluster, runner
from tests.cluster.test_cluster_runs import ROOT, _AfterParts, _assert_same_run

pytestmark = pytest.mark.slow


def _other_version(tmp_path):
    other = tmp_path / "other"
    for pkg in ("simcore", "strategies", "configs", "cli", "analysis", "reports"):
        shutil.copytree(ROOT / pkg, other / pkg, ignore=shutil.ignore_patterns("__pycache__"))
    rules = other / "configs" / "middle_ages" / "rules.toml"
    rules.write_text(rules.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    return other


def test_a_worker_of_another_version_joining_mid_run_is_left_out(dask_processes, tmp_path, capsys):
    address = dask_processes.start_scheduler()
    dask_processes.start_worker()
    dask_processes.wait_for_workers(address, 1)
    other = _other_version(tmp_path)
    prep = runner.prepare("middle-ages", players=4, strategies="balanced,random,greedy,eventwise")
    kw = dict(games=60_000, seed=3, chunk_size=1000, quiet=True, raw=True)
    runner.run(prep, out=tmp_path / "here", threads=1, **kw)
    capsys.readouterr()

    def join():
        # the sink waits here until the other worker has joined: the chunks sent after it can go
        # to that idle worker, which fails them at once (another package)
        dask_processes.start_worker(pythonpath=str(other), cwd=other)
        dask_processes.wait_for_workers(address, 2)

    ex = _AfterParts(1, join, scheduler=address, quiet=True)
    with ex:
        runner.run(prep, out=tmp_path / "dask", executor=ex, **kw)
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    warned = [line for line in err if "left out" in line]
    assert len(warned) == 1, err
    assert "has balance-toolkit 0.1.0+" in warned[0] and "joined mid-run" in warned[0]
    assert "the other 1 worker" in warned[0]
    assert ex.seen == len(runner.chunk_spans(60_000, 1000))      # every chunk written once
    _assert_same_run(tmp_path / "here", tmp_path / "dask")


def test_the_mismatch_keeps_its_line_and_worker_through_pickling():
    import pickle

    exc = cluster.WorkerMismatch("worker tcp://1.2.3.4:5 has balance-toolkit X, the client Y: …",
                                 "tcp://1.2.3.4:5")
    back = pickle.loads(pickle.dumps(exc))
    assert str(back) == str(exc) and back.worker == "tcp://1.2.3.4:5"
