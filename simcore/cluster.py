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
mid-run: Dask computes its chunks again elsewhere (same chunk, same stream: same content). An
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
LOST_WORKER_RETRIES = 3      # a call to every worker is repeated this often while workers leave
IN_FLIGHT_PER_THREAD = 2     # chunks sent ahead per worker thread (memory bound on the client)
KEEP_PREPARED = 4            # run configurations a worker keeps built (the oldest is dropped)
POLL_S = 0.01                # the client looks for finished chunks this often


class WorkerMismatch(RuntimeError):
    """Raised on a worker whose package or rules differ from the client's (a usage error)."""


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
                             f"{fingerprint}: install the same version (same source) everywhere")
    with _prepared_lock:
        prep = _prepared.get(token)
        if prep is not None:
            return prep
        recipe: runner.Recipe = pickle.loads(blob)
        prep = runner.build(recipe.game, recipe.kwargs, recipe.rules)
        if prep.rules_sha256 != recipe.rules_sha256:
            raise WorkerMismatch(
                f"worker {where} plays other rules (sha256 {prep.rules_sha256[:12]}…, the "
                f"client's {recipe.rules_sha256[:12]}…): its package ships other rules")
        prep.warmup()
        while len(_prepared) >= KEEP_PREPARED:      # (a sweep: many runs; a paired check: two)
            del _prepared[next(iter(_prepared))]
        _prepared[token] = prep
        return prep


def _warm(token: str, blob: bytes, fingerprint: str, dask_worker=None) -> dict[str, Any]:
    """Run on every worker before chunks are sent (``client.run`` passes ``dask_worker``)."""
    t = time.perf_counter()
    _prepare_here(token, blob, fingerprint,
                  dask_worker.address if dask_worker is not None else f"pid {os.getpid()}")
    return {"compile_or_load_s": time.perf_counter() - t}


def _play(token: str, blob: bytes, fingerprint: str, first: int, n: int, seed: int,
          plan: runner.PartPlan, threads: int | None) -> runner.Part:
    """One chunk, as a Dask task: the same :func:`simcore.runner.play_part` as a local run."""
    from simcore.options import numba_threads

    prep = _prepare_here(token, blob, fingerprint, _task_worker())
    with _play_lock, numba_threads(threads):
        return runner.play_part(prep, first, n, seed, plan)


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
        self._fingerprint = ""

    # -- connecting ----------------------------------------------------------------------------

    def open(self) -> "Cluster":
        if self.client is not None:
            return self
        distributed = _dask()
        import logging

        if self.workers is not None:
            self.local_cluster = distributed.LocalCluster(
                n_workers=self.workers, threads_per_worker=1, processes=True,
                host="127.0.0.1", dashboard_address="127.0.0.1:0", silence_logs=logging.ERROR,
                worker_dashboard_address=None)
            self.client = distributed.Client(self.local_cluster)
        else:
            try:
                self.client = distributed.Client(self.scheduler, timeout=CONNECT_TIMEOUT_S)
            except (OSError, TimeoutError, ValueError) as exc:
                raise UsageError(f"--scheduler {self.scheduler}: no Dask scheduler answered "
                                 f"there within {CONNECT_TIMEOUT_S:.0f} s ({_short(exc)})") from None
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
            print(f"Dask: {len(answers)} workers at {self.address}; dashboard {link}",
                  file=sys.stderr)
        return self

    @property
    def address(self) -> str:
        return self.client.scheduler.address if self.client is not None else (self.scheduler or "")

    def close(self) -> None:
        """Close the client and the local cluster (the owner does, also after an error)."""
        client, cluster = self.client, self.local_cluster
        self.client = self.local_cluster = None
        with contextlib.suppress(Exception):
            if client is not None:
                client.close(timeout=5)
        with contextlib.suppress(Exception):
            if cluster is not None:
                cluster.close(timeout=10)

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
                if attempt == LOST_WORKER_RETRIES or self.client.status != "running":
                    raise UsageError(f"Dask scheduler {self.address or self.scheduler}: "
                                     f"{_short(exc)}") from None
                answers = {}
            except Exception as exc:      # the scheduler went away
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

    def describe(self) -> dict[str, Any]:
        return {"kind": self.kind, "workers": self.alive() if self.client else self.workers,
                "scheduler": "local" if self.workers is not None else self.scheduler}

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
            # the workers share this machine's Numba cache: compile once here, they load it
            with status(prep.compile_message):
                prep.warmup()
        with status(f"Connecting to Dask ({self.workers or self.scheduler})"):
            self.open()
        if token in self._warm:
            return
        with status("Warming the Dask workers (each compiles or loads the kernel once)"):
            self._run_everywhere(_warm, token, blob, self._fingerprint)
        self._warm.add(token)

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
        pending = distributed.as_completed()
        next_send = next_write = 0
        last_seen = time.monotonic()
        last_note = 0.0

        def send() -> None:
            nonlocal next_send
            while next_send < len(spans) and next_send < next_write + window:
                first, n = spans[next_send]
                f = client.submit(_play, token, blob, self._fingerprint, first, n, seed, plan,
                                  self.threads, key=f"chunk-{first}-{uuid.uuid4().hex[:12]}")
                index_of[f.key] = next_send
                futures[next_send] = f
                pending.add(f)
                next_send += 1

        try:
            send()
            while next_write < len(spans):
                try:
                    batch = pending.next_batch(block=False)
                except StopIteration:
                    batch = []
                if not batch:
                    time.sleep(POLL_S)
                    if client.status == "running":
                        last_seen = time.monotonic()
                    elif time.monotonic() - last_seen > LOST_SCHEDULER_S:
                        raise UsageError(f"Dask scheduler {self.address}: lost the connection "
                                         f"mid-run ({client.status}); nothing was written")
                for f in batch:
                    i = index_of.pop(f.key)
                    try:
                        done[i] = f.result()
                    except WorkerMismatch as exc:
                        raise UsageError(str(exc)) from None
                    except distributed.KilledWorker as exc:
                        raise UsageError(f"games {spans[i][0]}-{sum(spans[i]) - 1}: their workers died "
                                         f"repeatedly ({_short(exc)})") from None
                    except (distributed.client.FutureCancelledError, OSError) as exc:
                        raise UsageError(f"Dask scheduler {self.address}: {_short(exc)}; "
                                         "nothing was written") from None
                    futures.pop(i, None)
                while next_write in done:
                    sink(done.pop(next_write))
                    next_write += 1
                send()
                if progress is not None and time.monotonic() - last_note > 1.0:
                    last_note = time.monotonic()
                    progress.note(f"{self.alive()} workers")
        finally:
            for f in futures.values():
                f.cancel()


def _short(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) < 200 else text[:197] + "…"
