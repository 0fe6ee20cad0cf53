"""Issue 28, point 5: the cluster keeps its promise.

A worker lost while the client connects (the version check and the warm-up call every worker)
costs only time: the call leaves the lost worker out, or is repeated when it failed as a whole.
The real cause is named: a genuine error of a worker stays an error, an unreachable scheduler is
said as unreachable. A fake Dask client stands in for the scheduler (no process is started); the
lost-worker runs on a real local cluster are in tests/cluster/.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

pytest.importorskip("distributed")

from distributed.comm import CommClosedError  # noqa: E402

from simcore import cluster  # noqa: E402
from simcore.errors import UsageError  # noqa: E402


class FakeClient:
    status = "running"
    scheduler = SimpleNamespace(address="tcp://127.0.0.1:8786")

    def __init__(self, answers):
        self.answers, self.calls, self.waited = list(answers), 0, 0

    def run(self, fn, *args, on_error="raise"):
        self.calls += 1
        item = self.answers.pop(0)
        if isinstance(item, BaseException):
            raise item
        return item

    def wait_for_workers(self, n, timeout=None):
        self.waited += 1


def _cluster(answers):
    c = cluster.Cluster(scheduler="tcp://127.0.0.1:8786", quiet=True)
    c.client = FakeClient(answers)
    return c


def test_a_worker_lost_during_the_call_is_left_out():
    c = _cluster([{"tcp://a": "fp", "tcp://b": CommClosedError("in: closed")}])
    assert c._run_everywhere(lambda: None) == {"tcp://a": "fp"}


def test_a_call_that_failed_as_a_whole_when_a_worker_left_is_repeated():
    c = _cluster([CommClosedError("connection closed"), OSError("reset"), {"tcp://b": "fp"}])
    assert c._run_everywhere(lambda: None) == {"tcp://b": "fp"}
    assert c.client.calls == 3


def test_every_worker_lost_waits_for_one_to_join_then_asks_again():
    c = _cluster([{"tcp://a": CommClosedError("closed")}, {"tcp://c": "fp"}])
    assert c._run_everywhere(lambda: None) == {"tcp://c": "fp"}
    assert c.client.waited == 1


def test_a_genuine_error_of_a_worker_is_still_one_line():
    c = _cluster([{"tcp://a": "fp", "tcp://b": ModuleNotFoundError("No module named 'simcore'")}])
    with pytest.raises(UsageError, match="tcp://b: balance-toolkit is not installed there"):
        c._run_everywhere(lambda: None)


def test_a_scheduler_that_keeps_failing_is_named():
    c = _cluster([CommClosedError("closed")] * (cluster.LOST_WORKER_RETRIES + 1))
    with pytest.raises(UsageError, match="Dask scheduler"):
        c._run_everywhere(lambda: None)


def test_an_unreachable_scheduler_is_said_unreachable(monkeypatch):
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT_S", 1.0)
    c = cluster.Cluster(scheduler="tcp://127.0.0.1:9", quiet=True)
    with pytest.raises(UsageError, match="no Dask scheduler answered there"):
        c.open()
