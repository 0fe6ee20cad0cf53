"""A cluster run's records and quiet, without Dask processes (review s61 #1, #2).

run.json's ``executor.workers`` was the count alive when the run ended (a worker killed mid-run
after playing: "workers": 1 though 2 played; a worker of another version joining and refused:
counted though it played nothing); it now counts the workers whose chunks the run used, per run
(a sweep's runs share one cluster). Closing a cluster mid-run (Ctrl-C) let Dask's ERROR records
through to the terminal above the command's one line; they are silenced while it closes."""

from __future__ import annotations

import logging

import pytest

from simcore import cluster, runner


class _Client:
    """What describe and close ask of a Dask client."""

    def __init__(self, alive: list[str], on_close=None) -> None:
        self.alive, self.on_close = alive, on_close

    def nthreads(self, **_):
        return {a: 1 for a in self.alive}

    def close(self, timeout=None) -> None:
        if self.on_close is not None:
            self.on_close()


def test_run_json_counts_the_workers_that_played_not_those_alive_at_the_end():
    c = cluster.Cluster(scheduler="tcp://127.0.0.1:8899", quiet=True)
    c.client = _Client(["tcp://b:1"])                     # the other one was killed mid-run
    plan, other = runner.PartPlan(None), runner.PartPlan(None)   # (equal, yet two runs)
    c.played(plan, "tcp://a:1")
    c.played(plan, "tcp://b:1")
    c.played(plan, "tcp://a:1")
    assert c.describe(plan)["workers"] == 2
    c.played(other, "tcp://b:1")                          # a later run of the same cluster
    assert c.describe(other)["workers"] == 1
    c.client = _Client(["tcp://b:1", "tcp://c:1"])        # one joined (or refused) after the end
    assert c.describe(plan)["workers"] == 2
    c.client = None


def test_closing_mid_run_writes_no_dask_log_line():
    pytest.importorskip("distributed")
    import io

    import distributed  # noqa: F401  (its logging set up: a stream handler on "distributed")

    c = cluster.Cluster(scheduler="tcp://127.0.0.1:8899", quiet=True)

    def lost():
        logging.getLogger("distributed.worker").error(
            "Failed to communicate with scheduler during heartbeat.")
        logging.getLogger("distributed.client").error("a closed comm")

    c.client = _Client([], on_close=lost)
    log = logging.getLogger("distributed")
    terminal = logging.StreamHandler(io.StringIO())      # as Dask's own handler on stderr
    log.addHandler(terminal)
    level = log.level
    try:
        logging.getLogger("distributed.worker").error("before the close")
        c.close()
        logging.getLogger("distributed.worker").error("after the close")
    finally:
        log.removeHandler(terminal)
    said = terminal.stream.getvalue().splitlines()
    assert said == ["before the close", "after the close"], said
    assert log.level == level                                     # put back after the close
