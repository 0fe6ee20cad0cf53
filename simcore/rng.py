"""Counter-based random streams: one independent stream per game, keyed on (seed, game index).

Every kernel derives its game's stream with :func:`stream_state` and draws with :func:`next_u64`,
:func:`below` and :func:`shuffle`. Because a game's draws depend only on (seed, game index), results
are bit-identical whatever the thread count or chunk size. :class:`PyStream` is the same generator in
plain Python, used by the pure-Python reference engines so that they can replay a kernel's game
exactly. The generator is SplitMix64 (Steele, Lea & Flood 2014), whose output function is a strong
64-bit mixer; we use the mixer to derive the stream's starting state from the key as well.

May import numpy, numba and :mod:`simcore.numba_cache` (imported first: it gives Numba a writable
cache folder on a read-only install before the first ``cache=True`` decorator runs).
"""

from __future__ import annotations

import numpy as np
from numba import njit

import simcore.numba_cache  # noqa: F401  (a writable cache folder, before the first cache=True)
from simcore.numba_cache import njit_unliteral

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_MASK = (1 << 64) - 1


@njit(cache=True, inline="always")
def mix64(z):
    """SplitMix64 finaliser: a bijective 64-bit mixer (jit-compiled by Numba)."""
    z = np.uint64(z)
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def stream_state(seed, game):
    """Starting state of the stream of game number ``game`` under run seed ``seed``."""
    return mix64(np.uint64(seed) ^ mix64(np.uint64(game) + GOLDEN))


@njit(cache=True, inline="always", _nrt=False)
def next_u64(state):
    """Advance ``state`` (a 1-element uint64 array) and return the next 64-bit output."""
    state[0] = state[0] + GOLDEN
    return mix64(state[0])


@njit(cache=True, inline="always", _nrt=False)
def below(state, n):
    """Uniform integer in [0, n) for 1 <= n < 2**31 (high 32 bits times n; bias below n / 2**32)."""
    return np.int64(((next_u64(state) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True)
def shuffle(state, arr, n):
    """Fisher-Yates shuffle of ``arr[:n]`` in place: for i = n-1 … 1, swap arr[i] with arr[below(i+1)]."""
    shuffle_range(state, arr, 0, n)


@njit_unliteral(cache=True, _nrt=False)
def shuffle_range(state, arr, start, n):
    """:func:`shuffle` of ``arr[start:start + n]`` (for workspaces packed in one array)."""
    for i in range(n - 1, 0, -1):
        j = below(state, i + 1)
        t = arr[start + i]
        arr[start + i] = arr[start + j]
        arr[start + j] = t


def _mix64_py(z: int) -> int:
    z &= _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class PyStream:
    """The same stream as the kernels', in plain Python (for reference engines and tests).

    >>> s = PyStream(seed=0, game=0)
    >>> [s.below(6) for _ in range(5)] == [s2 for s2 in PyStream(0, 0).take_below(6, 5)]
    True
    """

    def __init__(self, seed: int, game: int) -> None:
        self.state = _mix64_py((seed & _MASK) ^ _mix64_py((game + 0x9E3779B97F4A7C15) & _MASK))
        self.draws = 0

    def next_u64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        self.draws += 1
        return _mix64_py(self.state)

    def below(self, n: int) -> int:
        if n < 1:
            raise ValueError(f"below() needs n >= 1, got {n}")
        return ((self.next_u64() >> 32) * n) >> 32

    def take_below(self, n: int, k: int) -> list[int]:
        return [self.below(n) for _ in range(k)]

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
