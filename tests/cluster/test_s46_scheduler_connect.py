"""``--scheduler`` at an address where some other program listens (review s46 exp #2).

A program that waits for the client to speak (an HTTP server, the Dask dashboard) held
``simulate`` and ``balance check`` forever: Dask bounds the TCP connection by its timeout, not
the handshake read after it. One that speaks first (an SSH daemon) had its greeting read as a Dask
frame length of exabytes, and the command said "out of memory (try fewer games per chunk)", exit
1. Now each is one line naming the ``--scheduler`` address and what is there, exit 2, within the
connect timeout (2 s here) and before any game: nothing is written.

Fake servers run in threads of the test; the commands run in this process (as
tests/cluster/test_cluster_runs.py calls them), under a deadline that fails a test instead of
hanging it (the old code hung).
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from pathlib import Path

import pytest

from hang_deadline import deadline

import cli
from simcore import cluster

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

ROOT = Path(__file__).resolve().parents[2]
BASELINE = ROOT / "configs" / "baselines" / "middle_ages_default.toml"
TIMEOUT_S = 2.0          # the connect timeout the tests set (10 s in use)





class _Server:
    """A TCP server on 127.0.0.1 that is not Dask: ``greeting`` is sent on every connection
    (None: it reads what the client sends and says nothing, as an HTTP server waiting for the end of
    a request does). Connections are held open until the server stops."""

    def __init__(self, greeting: bytes | None) -> None:
        self.greeting = greeting
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.sock.settimeout(0.1)
        self.address = f"tcp://127.0.0.1:{self.sock.getsockname()[1]}"
        self.stopped = threading.Event()
        self.held: list[socket.socket] = []
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stopped.is_set():
            try:
                conn, _ = self.sock.accept()
            except (socket.timeout, OSError):
                continue
            self.held.append(conn)
            if self.greeting is not None:
                with contextlib.suppress(OSError):
                    conn.sendall(self.greeting)

    def stop(self) -> None:
        self.stopped.set()
        self.thread.join(timeout=5)
        for conn in [*self.held, self.sock]:
            with contextlib.suppress(OSError):
                conn.close()


@pytest.fixture
def server(request):
    s = _Server(request.param)
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture(autouse=True)
def _short_timeout(monkeypatch):
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT_S", TIMEOUT_S)


def _nothing_in(folder: Path) -> bool:
    return [p.name for p in folder.iterdir() if not p.name.endswith((".lock", ".claim"))] == []


def _command(main, argv: list[str], capfd) -> tuple[int, list[str], float]:
    """(exit code, stderr lines, seconds) of ``main(argv)`` in this process."""
    t = time.monotonic()
    with deadline(TIMEOUT_S + 15), pytest.raises(SystemExit) as exc:
        main(argv)
    took = time.monotonic() - t
    return exc.value.code, capfd.readouterr().err.strip().splitlines(), took


SSH = b"SSH-2.0-OpenSSH_9.6\r\n"


def _simulate_refused(server, tmp_path, capfd) -> str:
    """``simulate --scheduler`` at ``server``: one line naming it "not a Dask scheduler", exit 2,
    within the time limit, nothing written; the line."""
    out = tmp_path / "r"
    code, err, took = _command(cli.simulate_main, ["--games", "200", "--scheduler", server.address,
                                                   "--out", str(out), "-q"], capfd)
    assert code == 2, err
    assert len(err) == 1, err
    assert err[0].startswith(f"error: --scheduler {server.address}: not a Dask scheduler"), err
    assert took < TIMEOUT_S + 5
    assert not out.exists() and _nothing_in(tmp_path)
    return err[0]


@pytest.mark.parametrize("server", [SSH], indirect=True, ids=["ssh-greeting"])
def test_a_server_that_speaks_first_is_not_a_dask_scheduler_not_out_of_memory(server, tmp_path,
                                                                               capfd):
    err = _simulate_refused(server, tmp_path, capfd)
    assert "out of memory" not in err and "chunk-size" not in err


@pytest.mark.parametrize("server", [None], indirect=True, ids=["silent"])
def test_a_server_that_waits_for_the_client_is_one_line_within_the_timeout(server, tmp_path,
                                                                           capfd):
    err = _simulate_refused(server, tmp_path, capfd)
    assert f"no Dask handshake within {TIMEOUT_S:.0f} s" in err


@pytest.mark.parametrize("server", [None, SSH], indirect=True, ids=["silent", "ssh-greeting"])
def test_balance_check_on_a_server_that_is_not_dask_is_a_usage_error(server, tmp_path, capfd):
    code, err, _ = _command(cli.main, ["check", "--baseline", str(BASELINE), "--games", "2000",
                                       "--quiet", "--scheduler", server.address], capfd)
    assert code == 2, err                        # a usage error, not 1 (a regression) nor 4
    assert err[-1].startswith(f"error: --scheduler {server.address}: not a Dask scheduler"), err
    assert not any("out of memory" in line for line in err)


def test_a_refused_connection_still_says_no_scheduler_answered(tmp_path, capfd):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        address = f"tcp://127.0.0.1:{s.getsockname()[1]}"
    code, err, _ = _command(cli.simulate_main, ["--games", "200", "--scheduler", address,
                                                "--out", str(tmp_path / "r"), "-q"], capfd)
    assert code == 2 and len(err) == 1, err
    assert err[0].startswith(f"error: --scheduler {address}: no Dask scheduler answered there "
                             f"within {TIMEOUT_S:.0f} s"), err


def test_a_dask_worker_address_is_not_taken_for_the_scheduler(tmp_path, capfd):
    # the worker's port (or a nanny's) answers Dask's handshake; its identity says what it is
    import distributed

    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  protocol="tcp", host="127.0.0.1", dashboard_address=None) as lc:
        worker = next(iter(lc.scheduler.workers))
        code, err, _ = _command(cli.simulate_main, ["--games", "200", "--scheduler", worker,
                                                    "--out", str(tmp_path / "r"), "-q"], capfd)
    assert code == 2 and len(err) == 1, err
    assert err[0].startswith(f"error: --scheduler {worker}: a Dask Worker answers there, not a "
                             "scheduler"), err
    assert _nothing_in(tmp_path)
