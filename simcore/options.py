"""One validation for the options every command shares: game counts, seeds, threads, counts.

Every command (simulate, check, ladder, report, the Fief tables …) parses these through the
functions here, so the same bad value gets the same one-line :class:`UsageError` everywhere.

May import numba (lazily, for the thread count), the standard library and :mod:`simcore.errors`.
"""

from __future__ import annotations

import contextlib
import math
import re

from simcore.errors import UsageError

MAX_GAMES = 10**11
MAX_SEED = 2**63 - 1


def parse_games(text: str | int | float, option: str = "--games") -> int:
    """Parse a game count: ``1e6``, ``1_000_000``, ``250000``; refuse 0, negatives, fractions."""
    s = str(text).strip().replace("_", "")
    if re.fullmatch(r"[+]?\d+", s):
        n = int(s)
    elif re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", s):
        value = float(s)
        if not math.isfinite(value) or value != int(value):
            raise UsageError(f"{option} {text}: must be a whole number of games (e.g. 1e6, 250000)")
        n = int(value)
    else:
        raise UsageError(f"{option} {text!s}: not a number of games (e.g. 1e6, 1_000_000, 250000)")
    if n <= 0:
        raise UsageError(f"{option} {text}: must be at least 1")
    if n > MAX_GAMES:
        raise UsageError(f"{option} {text}: more than {MAX_GAMES:.0e} games is not supported")
    return n


def check_seed(seed: int, option: str = "--seed") -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise UsageError(f"{option} {seed}: must be a whole number from 0 to 2**63 - 1")
    return seed


def as_count(value, what: str, lo: int = 1, hi: int = 10**12) -> int:
    """An integer option that may arrive as 1e6 (float) or "1e6"; UsageError otherwise."""
    if isinstance(value, int) and not isinstance(value, bool):
        v = int(value)
    else:
        try:
            f = float(value)
        except (TypeError, ValueError):
            raise UsageError(f"{what} {value!r}: not a number") from None
        if not math.isfinite(f) or f != int(f):
            raise UsageError(f"{what} {value!r}: must be a whole number")
        v = int(f)
    if not lo <= v <= hi:
        raise UsageError(f"{what} {value!r}: must be a whole number from {lo} to {hi}")
    return v


def check_threads(threads: int | None) -> int:
    """The thread count to use (default: all Numba allows); UsageError if out of range."""
    import numba

    available = numba.config.NUMBA_NUM_THREADS
    if threads is None:
        return available
    if threads < 1:
        raise UsageError(f"--threads {threads}: must be at least 1")
    if threads > available:
        raise UsageError(f"--threads {threads}: this machine allows at most {available} "
                         "(set NUMBA_NUM_THREADS to raise the limit)")
    return threads


def set_threads(threads: int | None) -> int:
    """Validate and set the Numba thread count for the rest of the process."""
    import numba

    n = check_threads(threads)
    numba.set_num_threads(n)
    return n


@contextlib.contextmanager
def numba_threads(threads: int | None):
    """Run with ``threads`` Numba threads (restored afterwards); UsageError if out of range."""
    import numba

    if threads is None:
        yield
        return
    n = check_threads(threads)
    before = numba.get_num_threads()
    numba.set_num_threads(n)
    try:
        yield
    finally:
        numba.set_num_threads(before)
