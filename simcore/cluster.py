"""Runs on a Dask cluster: ``--workers N`` (a local cluster of N worker processes) or
``--scheduler ADDRESS`` (a running scheduler and its workers, on any machines).

:class:`Cluster` is the runner's other executor (:class:`simcore.runner.LocalExecutor` is the
first): ``runner.run(prep, ..., executor=cluster)`` and ``runner.collect(..., executor=cluster)``
send the run's chunks, each keyed on (seed, first game, count), as Dask tasks; a worker plays a
chunk and makes its :class:`~simcore.runner.Part` (Arrow tables and sufficient statistics) with
the same :func:`simcore.runner.play_part` a local run uses, and the client adds the parts to the
run directory in game order, so the content is identical to a local run's whatever the number of
workers. At most a window of chunks is in flight (2 per worker thread), so the client's memory
stays flat however many games a summary-only run plays.

What a run needs from every worker is checked before a chunk is sent: the package is importable,
its version and the sha256 of its source files (:func:`package_fingerprint`) equal the client's,
and the run built there from the run's :class:`~simcore.runner.Recipe` has the client's rules
sha256 (a ``--rules`` file or ``--set`` settings travel with the recipe; the shipped rules are the
worker's own). Each worker then compiles (or loads from its Numba cache) the kernel once and plays one
game (warm-up); a worker that joins later does the same on its first chunk. A worker lost
mid-run: Dask computes its chunks again elsewhere (same chunk, same stream: same content); a chunk
whose workers died repeatedly (Dask's ``allowed-failures``), like every worker or the scheduler
lost, is a :class:`ClusterLost` line (exit 1). run.json's ``executor.workers`` counts the workers
whose chunks the run used (:meth:`Cluster.played`). An
unreachable scheduler, one that stops answering, a worker without the package or with another
version or other rules: one :class:`~simcore.errors.UsageError` line (exit 2), and the run
directory is not published.

Sweeps, tuning and checks use it the same way: open one cluster for the whole command and pass it
to every run (see ``docs/cluster.md``)::

    with cluster.executor_for(workers=4, scheduler=None) as ex:   # None when neither is given
        for variant in variants:
            runner.run(runner.prepare(...), games=..., executor=ex)

Dask is an optional dependency (``pip install -e '.[cluster]'`` in the toolkit's folder), imported only when a
cluster is opened. May import the standard library, numpy, :mod:`simcore` modules (the runner and
below) and, lazily, ``distributed`` and ``numba``.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import threading
import time
import uuid
from functools import lru_cache
from pathlib import Path
from typing import Any

import simcore
from simcore import runner
from simcore.contract import PreparedRun
from simcore.errors import UsageError

CONNECT_TIMEOUT_S = 10.0     # a scheduler that does not answer within this is unreachable
LOST_SCHEDULER_S = 10.0      # the client stops waiting for a scheduler it lost after this
WORKERS_TIMEOUT_S = 30.0     # a scheduler without workers: wait this long for one
#: Mid-run, every worker gone: wait this long for one to join (a nanny restarts a worker in
#: seconds, a Kubernetes pod or a batch job in a minute or so), then stop with one line.
NO_WORKER_MID_RUN_S = 120.0
NO_WORKER_WARN_S = 10.0      # ... and say on stderr that it waits once none was seen this long
WORKER_COUNT_EVERY_S = 1.0   # while no chunk comes back, ask the scheduler its workers this often
LOST_WORKER_RETRIES = 3      # a call to every worker is repeated this often while workers leave
IN_FLIGHT_PER_THREAD = 2     # chunks sent ahead per worker thread (memory bound on the client)
KEEP_PREPARED = 4            # run configurations a worker keeps built (the oldest is dropped)
POLL_S = 0.01                # the client looks for finished chunks this often


class WorkerMismatch(RuntimeError):
    """Raised on a worker whose package or rules differ from the client's (a usage error when
    the run starts; a worker that joins mid-run is left out, :meth:`Cluster.play`). Its args are
    (the line, the worker's address), so that both survive the trip back from the worker."""

    def __init__(self, message: str, worker: str = "") -> None:
        super().__init__(message, worker)

    def __str__(self) -> str:
        return str(self.args[0])

    @property
    def worker(self) -> str:
        return str(self.args[1]) if len(self.args) > 1 else ""


class ClusterLost(OSError):
    """Every worker of the cluster was lost mid-run and none joined in time, the scheduler was
    lost, or a chunk's workers died repeatedly: a problem of the machines, not of the input, said
    in one line with exit code 1 (``balance check``: 4), as a full disk is (docs/reliability.md).
    An OSError without an errno, so ``str()`` is the line."""


# ---------------------------------------------------------------------------------------------
# On the workers
# ---------------------------------------------------------------------------------------------

_PACKAGES = ("simcore", "strategies", "configs")


@lru_cache(maxsize=1)
def package_fingerprint() -> str:
    """The package version and the sha256 over the source files (``*.py``, ``*.toml``) of the
    packages that play a run: two installs whose code or shipped rules differ in any byte have
    different fingerprints, even under the same version number."""
    import importlib

    h = hashlib.sha256()
    for name in _PACKAGES:
        root = Path(importlib.import_module(name).__file__).parent
        for path in sorted(root.rglob("*")):
            if path.suffix in (".py", ".toml") and "__pycache__" not in path.parts:
                h.update(str(path.relative_to(root)).encode())
                h.update(path.read_bytes())
    return f"{simcore.__version__}+{h.hexdigest()[:16]}"


_prepared: dict[str, PreparedRun] = {}
_prepared_lock = threading.Lock()
_play_lock = threading.Lock()       # one chunk at a time per worker process (it uses all threads)


def _task_worker() -> str:
    try:
        from distributed import get_worker

        return get_worker().address
    except (ImportError, ValueError):
        return f"pid {os.getpid()}"


def _prepare_here(token: str, blob: bytes, fingerprint: str, where: str) -> PreparedRun:
    """The run of ``token`` in this worker process: built from its recipe once, its package and
    rules checked against the client's, its kernel compiled (or loaded) and warmed up."""
    mine = package_fingerprint()
    if mine != fingerprint:
        raise WorkerMismatch(f"worker {where} has balance-toolkit {mine}, the client "
                             f"{fingerprint}: install the same version (same source) everywhere",
                             where)
    with _prepared_lock:
        prep = _prepared.get(token)
        if prep is not None:
            return prep
        recipe: runner.Recipe = pickle.loads(blob)
        prep = runner.build(recipe.game, recipe.kwargs, recipe.rules)
        if prep.rules_sha256 != recipe.rules_sha256:
            raise WorkerMismatch(
                f"worker {where} plays other rules (sha256 {prep.rules_sha256[:12]}…, the "
                f"client's {recipe.rules_sha256[:12]}…): its package ships other rules", where)
        prep.warmup()
        while len(_prepared) >= KEEP_PREPARED:      # (a sweep: many runs; a paired check: two)
            del _prepared[next(iter(_prepared))]
        _prepared[token] = prep
        return prep


def _leave_interrupts_to_the_command() -> bool:
    """In a worker process of a ``--workers`` run: ignore SIGINT (the command that started the
    worker closes it) and write no Dask log line below CRITICAL (what goes wrong there reaches the
    command as its chunk's error or a lost worker, said in one line; a worker still sending its
    heartbeat while the command closes the scheduler printed "Failed to communicate with scheduler
    during heartbeat" and CommClosedError tracebacks above it: review s61 #2). False where SIGINT
    cannot be set (not the process's main thread)."""
    import logging
    import signal
    import threading

    _silence_dask_log(logging.CRITICAL)
    if threading.current_thread() is not threading.main_thread():
        return False
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    return True


def _silence_dask_log(level: int) -> list[tuple[Any, int]]:
    """Set the level of the stream handlers of Dask's ``distributed`` logger (as Dask's own
    ``silence_logs`` does) and of that logger; returns what to put back (:func:`_restore_log`)."""
    import logging

    log = logging.getLogger("distributed")
    old: list[tuple[Any, int]] = [(log, log.level)]
    for handler in log.handlers:
        if isinstance(handler, logging.StreamHandler):
            old.append((handler, handler.level))
            handler.setLevel(level)
    log.setLevel(level)
    return old


def _restore_log(old: list[tuple[Any, int]]) -> None:
    for thing, level in old:
        thing.setLevel(level)


def _warm(token: str, blob: bytes, fingerprint: str, dask_worker=None) -> dict[str, Any]:
    """Run on every worker before chunks are sent (``client.run`` passes ``dask_worker``)."""
    import numba

    t = time.perf_counter()
    _prepare_here(token, blob, fingerprint,
                  dask_worker.address if dask_worker is not None else f"pid {os.getpid()}")
    # the Numba threads a chunk plays with here when the client sets none (a --scheduler run)
    return {"compile_or_load_s": time.perf_counter() - t, "threads": numba.get_num_threads()}


def _play(token: str, blob: bytes, fingerprint: str, first: int, n: int, seed: int,
          plan: runner.PartPlan, threads: int | None) -> tuple[str, runner.Part]:
    """One chunk, as a Dask task: the same :func:`simcore.runner.play_part` as a local run.
    Returns (this worker's address, the part): run.json counts the workers that played."""
    from simcore.options import numba_threads

    where = _task_worker()
    prep = _prepare_here(token, blob, fingerprint, where)
    with _play_lock, numba_threads(threads):
        return where, runner.play_part(prep, first, n, seed, plan)


def _fingerprint_here() -> str:
    return package_fingerprint()


# ---------------------------------------------------------------------------------------------
# On the client
# ---------------------------------------------------------------------------------------------

#: With ``--allow-oversubscribe``, at most this many workers per core of this machine.
OVERSUBSCRIBE_PER_CORE = 8


def max_workers(allow_oversubscribe: bool = False) -> int:
    """The most local workers this machine takes: one per core, or
    :data:`OVERSUBSCRIBE_PER_CORE` per core with ``--allow-oversubscribe``."""
    from simcore.options import usable_cores

    return usable_cores() * (OVERSUBSCRIBE_PER_CORE if allow_oversubscribe else 1)


def check_options(workers: int | None, scheduler: str | None,
                  allow_oversubscribe: bool = False) -> None:
    """Refuse bad ``--workers`` / ``--scheduler`` values at once (one line, exit 2): a local
    cluster gets at most one worker per core unless ``--allow-oversubscribe``."""
    if workers is not None and scheduler is not None:
        raise UsageError("--workers and --scheduler: give one (--workers starts a cluster here, "
                         "--scheduler uses a running one)")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)):
        raise UsageError(f"--workers {workers}: must be a whole number")
    if workers is not None and workers < 1:
        raise UsageError(f"--workers {workers}: must be at least 1")
    if workers is not None and workers > max_workers(allow_oversubscribe):
        cores = max_workers(False)
        if allow_oversubscribe:
            raise UsageError(f"--workers {workers}: at most {max_workers(True)} on this machine of "
                             f"{cores} core{'s' if cores != 1 else ''}, even with --allow-oversubscribe")
        raise UsageError(f"--workers {workers}: this machine has {cores} core{'s' if cores != 1 else ''} "
                         f"(at most {cores} workers; --allow-oversubscribe allows up to "
                         f"{max_workers(True)}, each a process with its own memory)")
    if scheduler is not None and not scheduler.strip():
        raise UsageError("--scheduler: give an address such as tcp://10.0.0.5:8786")
    if scheduler is not None:
        problem = address_problem(scheduler.strip())
        if problem is not None:
            raise UsageError(f"--scheduler {scheduler}: not a Dask scheduler address ({problem}; "
                             "e.g. tcp://10.0.0.5:8786)")


#: The address schemes a Dask client connects with (``tcp`` when none is given).
SCHEMES = ("tcp", "tls", "ws", "wss", "ucx", "inproc")


def address_problem(address: str) -> str | None:
    """What is malformed in a scheduler ``address`` (``[SCHEME://]HOST:PORT``), or None; checked
    without Dask and before any connection, so a typo is said as such at once rather than as "no
    scheduler answered within 10 s" (revC #10)."""
    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "tcp", address
    if scheme not in SCHEMES:
        return f"unknown scheme {scheme}://, known: {', '.join(s + '://' for s in SCHEMES)}"
    if scheme == "inproc":
        return None if rest else "nothing after inproc://"
    host, colon, port = rest.rpartition(":")
    if not colon:
        return "no :PORT after the host"
    if host.startswith("[") != host.endswith("]"):
        return f"unbalanced brackets in the host {host}"
    if not host.strip("[]"):
        return "no host before the port"
    if not (port.isascii() and port.isdigit() and 1 <= int(port) <= 65535):
        return f"port {port or '(none)'} is not a number from 1 to 65535"
    return None


@contextlib.contextmanager
def executor_for(workers: int | None = None, scheduler: str | None = None, *,
                 threads: int | None = None, quiet: bool = False,
                 allow_oversubscribe: bool = False):
    """A :class:`Cluster` for ``--workers`` / ``--scheduler`` (``None`` when neither is given),
    closed on exit. It connects when the runner first uses it, after the options were checked."""
    check_options(workers, scheduler, allow_oversubscribe)
    if workers is None and scheduler is None:
        yield None
        return
    cluster = Cluster(workers=workers, scheduler=scheduler, threads=threads, quiet=quiet,
                      allow_oversubscribe=allow_oversubscribe)
    try:
        yield cluster
    finally:
        cluster.close()


#: Seconds beyond the connect timeout the whole probe may take: Dask's connect retries the TCP
#: connection until its timeout and only then raises, so a probe still running this much later is
#: stuck in the handshake (a program that accepted the connection and says nothing).
PROBE_GRACE_S = 1.0


def probe_scheduler(address: str, timeout: float = CONNECT_TIMEOUT_S) -> None:
    """Check that a Dask scheduler answers at ``address`` (the ``--scheduler`` value), within about
    ``timeout`` seconds in all, before a :class:`distributed.Client` is made; anything else is one
    :class:`~simcore.errors.UsageError` line naming the address and what is there instead.

    Dask bounds the TCP connection by its connect timeout (``Client(address, timeout=…)``,
    ``distributed.comm.timeouts.connect``), but not the handshake read that follows
    (dask/distributed#7698 took it out of the timeout), and ``distributed.comm.timeouts.tcp`` is a
    keep-alive that a live but silent program passes. So a program that accepts the connection and
    waits for the client to speak (an HTTP server, the scheduler's own dashboard port) held the
    client forever, and one that speaks first (an SSH daemon) had its greeting read as the length
    of a frame of exabytes, a MemoryError that the command line said as "out of memory" (review s46
    exp #2). Here the connection, the handshake and one ``identity`` call (the server's type: a
    worker's or nanny's address is refused too) run under one deadline, in a thread of their own
    with its own event loop (a caller's running loop is never touched)."""
    import asyncio

    distributed = _dask()
    if address.strip().startswith("inproc://"):
        return                                  # in this process: nothing to probe over a network
    from distributed.comm import CommClosedError, connect

    where = f"--scheduler {address}"
    stage = ["connect"]

    async def attempt():
        comm = await connect(address, timeout=timeout, **_connection_args(distributed, address))
        stage[0] = "identity"
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["reply"] = asyncio.run(asyncio.wait_for(attempt(), timeout + PROBE_GRACE_S))
        except BaseException as exc:            # (said below, in the caller's thread)
            outcome["error"] = exc

    thread = threading.Thread(target=run, name="balance-dask-probe", daemon=True)
    thread.start()
    thread.join(timeout + PROBE_GRACE_S + 5.0)  # (a name look-up that never ends: give up too)
    if thread.is_alive() or isinstance(outcome.get("error"), (asyncio.TimeoutError, TimeoutError)):
        if stage[0] == "connect" and not thread.is_alive():
            raise UsageError(f"{where}: not a Dask scheduler: a program there accepted the "
                             f"connection but gave no Dask handshake within {timeout:.0f} s (a web "
                             "page such as the Dask dashboard, port 8787 by default, where the "
                             "scheduler listens on 8786; or a scheduler too busy to answer)")
        raise UsageError(f"{where}: no Dask scheduler answered there within {timeout:.0f} s")
    exc = outcome.get("error")
    if isinstance(exc, CommClosedError):
        raise UsageError(f"{where}: not a Dask scheduler: the program there closed the connection "
                         f"without Dask's handshake ({_short(exc)})")
    if isinstance(exc, OSError):                # the TCP connection never came: refused, no route
        raise UsageError(f"{where}: no Dask scheduler answered there within {timeout:.0f} s "
                         f"({_short(exc)})")
    if exc is not None:
        raise UsageError(f"{where}: not a Dask scheduler: the program there speaks another "
                         f"protocol ({_protocol_error(exc)})")
    reply = outcome.get("reply")
    kind = reply.get("type") if isinstance(reply, dict) else None
    if kind != "Scheduler":
        what = f"a Dask {kind}" if isinstance(kind, str) else "a Dask server"
        raise UsageError(f"{where}: {what} answers there, not a scheduler (give the scheduler's "
                         "address: port 8786 by default)")


def _connection_args(distributed, address: str) -> dict[str, Any]:
    """The connection arguments a :class:`distributed.Client` uses for ``address`` (TLS settings
    from Dask's configuration or its security loader)."""
    security = None
    loader = getattr(distributed.client, "_maybe_call_security_loader", None)
    if loader is not None:
        with contextlib.suppress(Exception):
            security = loader(address)
    if not isinstance(security, distributed.Security):
        security = distributed.Security()
    return security.get_connection_args("client")


def _protocol_error(exc: BaseException) -> str:
    """What a reply that is not Dask's protocol did to the reader, in words (a MemoryError is
    the first bytes read as a frame length: not this machine's memory)."""
    if isinstance(exc, MemoryError):
        return ("its first bytes are not a Dask message: read as one, they ask for more memory "
                "than exists; an SSH server or a proxy?")
    return _short(exc)


class _DropSchedulerNoise:
    """Drops the in-process scheduler's (``--workers``) "Task … marked as failed because N workers
    died while trying to run it": the command says it in its own line (review s61 #3)."""

    def filter(self, record) -> bool:
        return not str(record.msg).startswith("Task %s marked as failed because %d workers died")


_SCHEDULER_NOISE = _DropSchedulerNoise()


class _DropClientNoise:
    """Drops the log records Dask's client writes for what the command says in its own line or
    absorbs: closed while it tries to reconnect to a scheduler that went away ("Failed to reconnect
    to scheduler after 10.00 seconds, closing client", or the traceback of its reconnecting
    coroutine, cancelled: an ERROR record whose exception is a CancelledError), and a chunk's part
    whose worker died before it was fetched ("Couldn't gather 1 keys, rescheduling …": Dask plays it
    again). They leaked to the terminal above the command's line (review s46 exp #3). Every other
    record passes."""

    def filter(self, record) -> bool:
        import asyncio

        if str(record.msg).startswith(("Failed to reconnect to scheduler",
                                       "Couldn't gather")):
            return False
        exc = record.exc_info[1] if record.exc_info else None
        return not isinstance(exc, asyncio.CancelledError)


_CLIENT_NOISE = _DropClientNoise()


def _quiet_client_log() -> None:
    import logging

    for name, noise in (("distributed.client", _CLIENT_NOISE),
                        ("distributed.scheduler", _SCHEDULER_NOISE)):
        log = logging.getLogger(name)
        if noise not in log.filters:
            log.addFilter(noise)


def _dask():
    try:
        import distributed
    except ModuleNotFoundError:
        raise UsageError("--workers/--scheduler need Dask: pip install -e '.[cluster]' in the "
                         "toolkit's folder (or: pip install 'dask[distributed]')") from None
    return distributed


class Cluster:
    """A Dask client (and the local cluster it started, with ``workers``) as a runner executor.

    ``threads``: Numba threads per chunk on a worker (default: with ``workers``, the cores here
    shared among the workers; with ``scheduler``, every core of the worker's machine)."""

    kind = "dask"

    def __init__(self, *, workers: int | None = None, scheduler: str | None = None,
                 threads: int | None = None, quiet: bool = False,
                 allow_oversubscribe: bool = False) -> None:
        check_options(workers, scheduler, allow_oversubscribe)
        if workers is None and scheduler is None:
            raise UsageError("a cluster needs --workers N or --scheduler ADDRESS")
        self.workers, self.scheduler, self.quiet = workers, scheduler, quiet
        self.threads = threads
        if threads is None and workers is not None:
            self.threads = max(1, (os.cpu_count() or 1) // workers)
        self.client = None
        self.local_cluster = None
        self._warm: set[str] = set()
        self.worker_threads: dict[str, int] = {}      # worker address → its Numba threads (warm)
        # a run's PartPlan (one per run directory) → (the plan, the workers that played its
        # chunks); the plan is held so that its id is not reused while the entry stands
        self._players: dict[int, tuple[runner.PartPlan, set[str]]] = {}
        self._fingerprint = ""

    # -- connecting ----------------------------------------------------------------------------

    def open(self) -> "Cluster":
        if self.client is not None:
            return self
        distributed = _dask()
        import logging

        _quiet_client_log()
        if self.workers is not None:
            self.local_cluster = distributed.LocalCluster(
                n_workers=self.workers, threads_per_worker=1, processes=True,
                host="127.0.0.1", dashboard_address="127.0.0.1:0", silence_logs=logging.ERROR,
                worker_dashboard_address=None)
            self.client = distributed.Client(self.local_cluster)
            # the workers this command started leave Ctrl-C to it: a terminal's Ctrl-C reaches the
            # whole process group, and each worker printed its KeyboardInterrupt traceback (~67
            # lines, review s48 safety #3) before the command's own one line; the command closes
            # them itself (a --scheduler's workers are the user's, and keep their Ctrl-C). A
            # worker setup callback, not one ``client.run``: a worker its nanny restarts mid-run
            # runs it too (it printed heartbeat tracebacks and its own KeyboardInterrupt before)
            self.client.register_worker_callbacks(setup=_leave_interrupts_to_the_command)
        else:
            probe_scheduler(self.scheduler, CONNECT_TIMEOUT_S)
            try:
                self.client = distributed.Client(self.scheduler, timeout=CONNECT_TIMEOUT_S)
            except (OSError, TimeoutError, ValueError) as exc:
                raise UsageError(f"--scheduler {self.scheduler}: no Dask scheduler answered "
                                 f"there within {CONNECT_TIMEOUT_S:.0f} s ({_short(exc)})") from None
            except Exception as exc:    # (MemoryError too: a reply read as a frame of exabytes)
                raise UsageError(f"--scheduler {self.scheduler}: not a Dask scheduler: the "
                                 f"program there speaks another protocol "
                                 f"({_protocol_error(exc)})") from None
            try:
                self.client.wait_for_workers(1, timeout=WORKERS_TIMEOUT_S)
            except (OSError, TimeoutError) as exc:
                raise UsageError(f"--scheduler {self.scheduler}: no worker joined within "
                                 f"{WORKERS_TIMEOUT_S:.0f} s ({_short(exc)})") from None
        self._fingerprint = package_fingerprint()
        answers = self._run_everywhere(_fingerprint_here)
        for addr, fp in answers.items():
            if fp != self._fingerprint:
                raise UsageError(f"worker {addr} has balance-toolkit {fp}, this machine "
                                 f"{self._fingerprint}: install the same version everywhere")
        if not self.quiet:
            import importlib.util
            import sys

            link = self.client.dashboard_link
            if self.local_cluster is not None and importlib.util.find_spec("bokeh") is None:
                link += " (a page asking for bokeh: pip install 'bokeh>=3.1' for the dashboard)"
            print(f"Dask: {len(answers)} worker{'s' if len(answers) != 1 else ''} at {self.address}; "
                  f"dashboard {link}",
                  file=sys.stderr)
        return self

    @property
    def address(self) -> str:
        return self.client.scheduler.address if self.client is not None else (self.scheduler or "")

    def close(self) -> None:
        """Close the client and the local cluster (the owner does, also after an error or Ctrl-C;
        LocalCluster.close closes its workers before its scheduler), with Dask's log silenced here
        meanwhile, as it is in the local workers (:func:`_leave_interrupts_to_the_command`): what
        a close mid-run makes Dask say (workers, the scheduler and the client losing each other)
        is not the command's line (review s61 #2)."""
        import logging

        client, cluster = self.client, self.local_cluster
        self.client = self.local_cluster = None
        old = _silence_dask_log(logging.CRITICAL) if client is not None else []
        try:
            with contextlib.suppress(Exception):
                if client is not None:
                    client.close(timeout=5)
            with contextlib.suppress(Exception):
                if cluster is not None:
                    cluster.close(timeout=10)
        finally:
            _restore_log(old)

    def __enter__(self) -> "Cluster":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def alive(self) -> int:
        """Workers the scheduler knows now."""
        try:
            return len(self.client.nthreads())
        except Exception:
            return 0

    def _lost_scheduler(self, why: str) -> "ClusterLost":
        """The one line for a scheduler lost while a run is under way (Dask's own words, a
        cancelled key and "Please check your connection and re-run your work", are left out): a
        problem of the machines, exit 1 (``balance check``: 4), as every worker lost is (review s48
        Dask #2: it exited 2, the code of a bad input, which a CI job reads as a config error)."""
        return ClusterLost(f"Dask scheduler {self.address or self.scheduler}: lost the connection "
                           f"mid-run ({why}); nothing was written (a run is written whole: run the "
                           "same command again once the scheduler is back; a sweep or tune "
                           "resumes where it stopped)")

    def _workers_now(self) -> int | None:
        """Workers the scheduler knows now, or None when it cannot tell within a few seconds (not
        taken for "none": that is a lost scheduler's business)."""
        try:
            return len(self.client.nthreads(callback_timeout=5))
        except Exception:
            return None

    def _run_everywhere(self, fn, *args) -> dict[str, Any]:
        """``fn(*args)`` on every worker; a worker that cannot run it is a one-line error. A worker
        lost during the call (its connection closed) is left out: it costs only time, and the
        call is repeated on the workers left while none answered."""
        distributed = _dask()
        lost_types = (TimeoutError, distributed.comm.CommClosedError)    # the worker, not the code
        answers: dict[str, Any] = {}
        for attempt in range(LOST_WORKER_RETRIES + 1):
            try:
                answers = self.client.run(fn, *args, on_error="return")
            except (OSError, *lost_types) as exc:  # a worker left while the call was sent: ask again
                if self.client.status != "running":
                    raise self._lost_scheduler("the scheduler closed it or stopped answering") from None
                if attempt == LOST_WORKER_RETRIES:
                    raise UsageError(f"Dask scheduler {self.address or self.scheduler}: "
                                     f"{_short(exc)}") from None
                answers = {}
            except Exception as exc:      # the scheduler went away
                if self.client.status != "running":
                    raise self._lost_scheduler("the scheduler closed it or stopped answering") from None
                raise UsageError(f"Dask scheduler {self.address or self.scheduler}: {_short(exc)}") from None
            answers = {a: v for a, v in answers.items() if not isinstance(v, lost_types)}
            if answers:
                break
            try:
                self.client.wait_for_workers(1, timeout=WORKERS_TIMEOUT_S)
            except (OSError, TimeoutError) as exc:
                raise UsageError(f"Dask scheduler {self.address or self.scheduler}: every worker "
                                 f"was lost and none joined within {WORKERS_TIMEOUT_S:.0f} s "
                                 f"({_short(exc)})") from None
        if not answers:
            raise UsageError(f"Dask scheduler {self.address or self.scheduler}: every worker was lost")
        for addr, value in answers.items():
            if isinstance(value, BaseException):
                if isinstance(value, WorkerMismatch):
                    raise UsageError(str(value)) from None
                if isinstance(value, ModuleNotFoundError) or "No module named" in str(value):
                    raise UsageError(f"worker {addr}: balance-toolkit is not installed there "
                                     f"({_short(value)}): pip install it on every worker") from None
                raise UsageError(f"worker {addr}: {_short(value)}") from None
        return answers

    # -- the executor --------------------------------------------------------------------------

    def played(self, plan: runner.PartPlan, worker: str) -> None:
        """Record that ``worker`` played a chunk of the run of ``plan`` (a part the run used)."""
        self._players.setdefault(id(plan), (plan, set()))[1].add(worker)

    def describe(self, plan: runner.PartPlan | None = None) -> dict[str, Any]:
        """run.json's ``executor``: ``workers`` counts the workers that played the chunks of the
        run of ``plan`` (a worker lost mid-run counts if a chunk of it was used; one left out
        or joining after the last chunk does not: review s61 #1); without a plan, or before any
        chunk, the workers the scheduler knows now."""
        players = self._players.get(id(plan)) if plan is not None else None
        if players is not None and players[1]:
            workers = len(players[1])
        else:
            workers = self.alive() if self.client else self.workers
        out = {"kind": self.kind, "workers": workers,
               "scheduler": "local" if self.workers is not None else self.scheduler}
        if self.threads is None and self.worker_threads:
            out["threads_per_worker"] = dict(sorted(self.worker_threads.items()))
        return out

    @staticmethod
    def _recipe(prep: PreparedRun) -> tuple[str, bytes]:
        if prep.recipe is None:
            raise UsageError("this run was not built by simcore.runner.prepare: it cannot be "
                             "sent to a cluster")
        blob = pickle.dumps(prep.recipe, protocol=5)
        return hashlib.sha256(blob).hexdigest(), blob

    def warm(self, prep: PreparedRun, show=None) -> None:
        """Check and warm every worker for ``prep`` (once per run configuration); ``show(message)``
        says what is under way (it returns the function that ends the message), as the runner's
        :class:`~simcore.runner.compile_notice` does."""
        token, blob = self._recipe(prep)

        @contextlib.contextmanager
        def status(message):
            stop = show(message) if show is not None else None
            try:
                yield
            finally:
                if stop is not None:
                    stop()
        if self.workers is not None:
            # the workers share this machine's Numba cache: compile once here, they load it. The
            # notice only while Numba really compiles, as a local run's (a cached kernel loaded:
            # nothing said; it flashed on every cached --workers run: session 48's list)
            with runner.compile_notice(prep.compile_message, show):
                prep.warmup()
        with status(f"Connecting to Dask ({self.workers or self.scheduler})"):
            self.open()
        if token in self._warm:
            return
        with status("Warming the Dask workers (each compiles or loads the kernel once)"):
            answers = self._run_everywhere(_warm, token, blob, self._fingerprint)
        self.worker_threads.update({a: v["threads"] for a, v in answers.items()
                                    if isinstance(v, dict) and "threads" in v})
        self._warm.add(token)

    def threads_used(self) -> int | None:
        """The Numba threads a chunk plays with: the ones given, else (a ``--scheduler`` run, each
        worker its own) the count every warmed worker reported when they all agree; None when
        they differ or none reported (run.json's ``threads``; ``executor.threads_per_worker`` says
        each worker's)."""
        if self.threads is not None:
            return self.threads
        counts = set(self.worker_threads.values())
        return counts.pop() if len(counts) == 1 else None

    def parallel_chunks(self) -> int:
        """How many chunks :meth:`play` keeps in flight (2 per worker thread, at least 4): what
        :func:`simcore.runner.execute_together` hands it at once."""
        self.open()
        return max(4, IN_FLIGHT_PER_THREAD * max(1, sum(self.client.nthreads().values())))

    def play(self, prep: PreparedRun, spans: list[tuple[int, int]], seed: int,
             plan: runner.PartPlan, sink, progress=None) -> None:
        """Send ``spans`` as tasks and call ``sink(part)`` for each, in game order."""
        distributed = _dask()
        token, blob = self._recipe(prep)
        self.open()
        client = self.client
        window = max(4, IN_FLIGHT_PER_THREAD * max(1, sum(client.nthreads().values())))
        futures: dict[int, Any] = {}          # chunk index → its future, while in flight
        index_of: dict[str, int] = {}
        done: dict[int, runner.Part] = {}
        # with the results: each chunk's part is fetched from its worker in the background, so this
        # loop never blocks on a part whose worker died after playing it (Dask plays it again
        # when a worker is there; meanwhile the wait for a worker below is counted)
        pending = distributed.as_completed(with_results=True, raise_errors=False)
        next_send = next_write = 0
        last_seen = time.monotonic()
        last_count = 0.0
        no_worker_since: float | None = None     # when the scheduler was first seen without workers
        warned = False
        # workers that joined mid-run with another package or rules: left out, the run goes on
        # on the others (session 48's list: one such worker aborted the whole run, its games lost)
        left_out: set[str] = set()
        usable: list[str] | None = None          # the workers chunks go to (None: any)

        def submit(i: int) -> None:
            first, n = spans[i]
            f = client.submit(_play, token, blob, self._fingerprint, first, n, seed, plan,
                              self.threads, key=f"chunk-{first}-{uuid.uuid4().hex[:12]}",
                              # loose: if every usable worker is gone, any worker (a worker of
                              # this version joining later; one left out fails it again)
                              workers=usable, allow_other_workers=usable is not None)
            index_of[f.key] = i
            futures[i] = f
            pending.add(f)

        def send() -> None:
            nonlocal next_send
            while next_send < len(spans) and next_send < next_write + window:
                submit(next_send)
                next_send += 1

        def usable_now() -> list[str]:
            try:
                known = list(client.nthreads(callback_timeout=5))
            except Exception:
                known = list(usable or [])
            return [a for a in known if a not in left_out]

        def leave_out(i: int, exc: WorkerMismatch) -> None:
            nonlocal usable
            import sys

            if not exc.worker:
                raise UsageError(str(exc)) from None
            new = exc.worker not in left_out
            left_out.add(exc.worker)
            usable = usable_now()
            if not usable:                   # no worker of this version left: as at the start
                raise UsageError(str(exc)) from None
            if new:
                print(f"warning: {exc}; it joined mid-run, so it is left out and the run goes on "
                      f"with the other {len(usable)} worker{'s' if len(usable) != 1 else ''}",
                      file=sys.stderr, flush=True)
            submit(i)                        # its chunk, again, on a worker of this version

        try:
            send()
            while next_write < len(spans):
                try:
                    batch = pending.next_batch(block=False)
                except StopIteration:
                    batch = []
                now = time.monotonic()
                if batch:
                    no_worker_since, warned = None, False       # a worker played a chunk
                else:
                    time.sleep(POLL_S)
                    now = time.monotonic()
                    if client.status == "running":
                        last_seen = now
                    elif now - last_seen > LOST_SCHEDULER_S:
                        raise self._lost_scheduler(f"no answer for {LOST_SCHEDULER_S:.0f} s")
                if client.status == "running" and now - last_count >= WORKER_COUNT_EVERY_S:
                    last_count = now
                    workers = self._workers_now()
                    if left_out and workers is not None:    # those that joined since count
                        now_usable = usable_now()
                        workers = len(now_usable)
                        usable = now_usable or usable
                    if workers is not None and progress is not None:
                        progress.note(f"{workers} worker{'s' if workers != 1 else ''}",
                                      idle=workers == 0)
                    if workers == 0 and not batch:
                        no_worker_since = now if no_worker_since is None else no_worker_since
                    elif workers:
                        no_worker_since, warned = None, False
                if no_worker_since is not None and client.status == "running":
                    idle = now - no_worker_since
                    if idle >= NO_WORKER_MID_RUN_S:
                        raise ClusterLost(
                            f"Dask scheduler {self.address}: every worker was lost mid-run and "
                            f"none joined within {NO_WORKER_MID_RUN_S:.0f} s; the run stopped and "
                            "nothing was written (a run is written whole, so the games it played "
                            "are lost: start workers and run the same command again; a sweep or "
                            "tune resumes where it stopped)")
                    if not warned and idle >= NO_WORKER_WARN_S:
                        import sys

                        warned = True
                        print(f"warning: Dask scheduler {self.address}: every worker was lost "
                              f"mid-run; waiting up to {NO_WORKER_MID_RUN_S:.0f} s for one to "
                              "join, then stopping", file=sys.stderr, flush=True)
                for f, result in batch:
                    i = index_of.pop(f.key)
                    try:
                        where, done[i] = _part_or_raise(f, result)
                    except WorkerMismatch as exc:
                        leave_out(i, exc)
                        continue
                    except distributed.KilledWorker as exc:
                        # the machines failed, not the input: exit 1 as a lost scheduler (review
                        # s61 #3: it was a UsageError, exit 2)
                        raise ClusterLost(f"games {spans[i][0]}-{sum(spans[i]) - 1}: their workers "
                                          f"died repeatedly ({_short(exc)}); nothing was written "
                                          "(a run is written whole: run the same command again; a "
                                          "sweep or tune resumes where it stopped)") from None
                    except (distributed.client.FutureCancelledError, OSError) as exc:
                        if (getattr(exc, "reason", "") == "scheduler-connection-lost"
                                or client.status != "running"):
                            raise self._lost_scheduler("the scheduler closed it or stopped "
                                                       "answering; Dask cancelled the chunks in "
                                                       "flight") from None
                        raise UsageError(f"Dask scheduler {self.address}: {_short(exc)}; "
                                         "nothing was written") from None
                    futures.pop(i, None)
                    self.played(plan, where)
                while next_write in done:
                    sink(done.pop(next_write))
                    next_write += 1
                send()
        finally:
            for f in futures.values():
                f.cancel()


def _part_or_raise(future, result):
    """A chunk's part from ``as_completed(with_results=True, raise_errors=False)``: the result,
    or the task's exception raised (an error's result is Dask's (type, exception, traceback); a
    cancelled future's, its CancelledError)."""
    if isinstance(result, BaseException):
        raise result
    if future.status == "error" and isinstance(result, tuple) and len(result) == 3 \
            and isinstance(result[1], BaseException):
        raise result[1]
    return result


def _short(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) < 200 else text[:197] + "…"
