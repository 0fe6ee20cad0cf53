"""Blocks of games on threads: the outer loop of a kernel chunk, without Numba's ``parallel=True``.

A kernel's chunk is cut into blocks of consecutive games; each block is played by one call of a
jitted ``nogil`` function (its own workspace, its rows of the preallocated outputs), and the blocks
are shared among a pool of Python threads, as many as Numba's thread count
(``numba.get_num_threads()``, which ``--threads`` sets). Results do not depend on the blocks or the
threads: every game draws from its own stream keyed on (seed, game index) and writes only its own
output rows.

Why not a ``prange``: a ``parallel=True`` function is compiled as three more layers (the parfor
body, its gufunc wrapper and the parallel launcher), and Numba optimises and generates machine code
for every function a layer calls again in each layer. For the Middle-Ages kernel, dropping those
layers and the entry point that leaves out the rollout bot (:mod:`.games.middle_ages.driver`)
took the first run from 34 to 26 s (``benchmarks/bench_pipeline.py --cold``); a thread pool costs tens of
µs per block (256 blocks per chunk of 131,072 games: < 0.1%), and the kernel got faster on one
thread (``bench_kernel_ab.py``: 0.96-0.97 of the time per game).

May import numba (lazily) and the standard library.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from threading import Lock
from typing import Callable

MAX_BLOCKS = 256          # as the prange loops did: small enough to balance 2-64 threads
# at least this many games a block: a block costs tens of µs of thread hand-over, a game a few
# µs, so a small chunk (a run's first chunks are 256, 512 … games) cut into 256 one-game blocks
# spent more time handing blocks over than playing (a warm 256-game chunk: 9 ms of CPU in 256
# blocks, 3 ms in 4 blocks of 64)
MIN_BLOCK = 64
_pools: dict[int, ThreadPoolExecutor] = {}
_lock = Lock()


def _pool(n: int) -> ThreadPoolExecutor:
    with _lock:
        pool = _pools.get(n)
        if pool is None:
            pool = _pools[n] = ThreadPoolExecutor(n, thread_name_prefix="kernel-block")
        return pool


def threads_of_this_thread() -> int:
    """``numba.get_num_threads()`` of the calling thread, without starting Numba's threading layer
    when nothing has (then every thread has the default, ``NUMBA_NUM_THREADS``): a kernel played
    on this pool needs no layer (:func:`simcore.options.set_threads`)."""
    import numba
    from numba.np.ufunc import parallel

    if not getattr(parallel, "_is_initialized", True):
        return numba.config.NUMBA_NUM_THREADS
    return numba.get_num_threads()


def play_blocks(play: Callable[..., None], n_games: int, *args, threads: int | None = None) -> None:
    """Call ``play(g0, g1, *args)`` for blocks ``[g0, g1)`` covering ``range(n_games)``, on
    ``threads`` threads (default: Numba's thread count of the calling thread). ``play`` must be a
    jitted ``nogil`` function writing only rows ``g0 … g1 - 1`` of its outputs."""
    if threads is None:
        threads = threads_of_this_thread()
    if threads <= 1 or n_games < 2:
        play(0, n_games, *args)
        return
    n_blocks = max(1, min(n_games // MIN_BLOCK, MAX_BLOCKS))
    if n_blocks == 1:
        play(0, n_games, *args)
        return
    bounds = [b * n_games // n_blocks for b in range(n_blocks + 1)]
    futures = [_pool(threads).submit(play, bounds[b], bounds[b + 1], *args)
               for b in range(n_blocks)]
    try:
        for f in futures:
            f.result()
    except BaseException:       # (Ctrl-C, a kernel error): the blocks not started are dropped
        for f in futures:
            f.cancel()
        raise
