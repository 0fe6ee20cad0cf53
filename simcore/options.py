"""One validation for the options every command shares: game counts, seeds, threads, chunk sizes,
error rates (alpha), tolerances and counts.

Every command (simulate, check, baseline, ladder, report, the Médiévallons questions, the Fief
tables …) parses these through the functions here — :func:`check_common` checks several at once,
before any work — so the same bad value gets the same one-line :class:`UsageError` everywhere.

May import numba (lazily, for the thread count), the standard library and :mod:`simcore.errors`.
"""

from __future__ import annotations

import contextlib
import decimal
import math
import re

from simcore.errors import UsageError, unwritable_why


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system has one, else every
    core): what the local cluster's worker cap and the second compiling process go by."""
    import os

    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:                      # not Linux
        return os.cpu_count() or 1

MAX_GAMES = 10**11
MAX_SEED = 2**63 - 1


def parse_games(text: str | int | float, option: str = "--games") -> int:
    """Parse a game count: ``1e6``, ``1_000_000``, ``250000``, ``2.5e5``; refuse 0, negatives,
    fractions, misplaced underscores (``1__0``, ``_5``), digits of other scripts and exponents too
    large to be a count, all read exactly (no float rounding: ``12345678901234567e0`` is not
    rounded to another count)."""
    if isinstance(text, bool):
        raise UsageError(f"{option} {text!s}: not a number of games (e.g. 1e6, 1_000_000, 250000)")
    if isinstance(text, int):
        s = str(text)
    elif isinstance(text, float):
        s = repr(text) if math.isfinite(text) else "nan"
    else:
        s = str(text).strip()
    digits = r"[0-9]+(?:_[0-9]+)*"
    if len(s) > 64:
        raise UsageError(f"{option} {s[:20]}…: not a number of games (e.g. 1e6, 1_000_000, 250000)")
    if re.fullmatch(rf"[+]?{digits}", s):
        n = int(s.replace("_", ""))
    elif m := re.fullmatch(rf"([+-]?(?:{digits}(?:\.(?:{digits})?)?|\.{digits}))(?:[eE]([+-]?[0-9]+))?", s):
        mantissa, exponent = decimal.Decimal(m[1].replace("_", "")), int(m[2] or 0)
        if abs(exponent) > 9999 and mantissa:
            # too far for decimal to compare (InvalidOperation), yet a number: 1e99999 is too
            # large, as 1e30 is, not "not a number" (revC #10)
            if mantissa < 0:
                raise UsageError(f"{option} {text}: must be at least 1")
            if exponent > 0:
                raise UsageError(f"{option} {text}: more than {MAX_GAMES:.0e} games is not supported")
            raise UsageError(f"{option} {text}: must be a whole number of games (e.g. 1e6, 250000)")
        value = mantissa if not mantissa else decimal.Decimal(s.replace("_", ""))
        if value > MAX_GAMES:
            raise UsageError(f"{option} {text}: more than {MAX_GAMES:.0e} games is not supported")
        if value != value.to_integral_value():
            raise UsageError(f"{option} {text}: must be a whole number of games (e.g. 1e6, 250000)")
        n = int(value)
    else:
        raise UsageError(f"{option} {text!s}: not a number of games (e.g. 1e6, 1_000_000, 250000)")
    if n <= 0:
        raise UsageError(f"{option} {text}: must be at least 1")
    if n > MAX_GAMES:
        raise UsageError(f"{option} {text}: more than {MAX_GAMES:.0e} games is not supported")
    return n


def check_seed(seed, option: str = "--seed") -> int:
    """A run seed: a whole number from 0 to 2**63 - 1 (an int, or its text)."""
    value = seed
    if isinstance(seed, str) and re.fullmatch(r"\s*[+-]?\d+\s*", seed):
        value = int(seed)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_SEED:
        raise UsageError(f"{option} {seed}: must be a whole number from 0 to 2**63 - 1")
    return value


def check_chunk_size(chunk_size: int | None, option: str = "--chunk-size") -> int | None:
    """Games per chunk: None (the game's default) or a whole number >= 1."""
    if chunk_size is None:
        return None
    return as_count(chunk_size, option, lo=1, hi=MAX_GAMES)


def check_alpha(alpha: float | None, option: str = "--alpha") -> float | None:
    """An error rate: None (the default) or a number strictly between 0 and 0.5."""
    if alpha is None:
        return None
    try:
        value = float(alpha)
    except (TypeError, ValueError):
        raise UsageError(f"{option} {alpha}: not a number (e.g. 0.05)") from None
    if not 0 < value < 0.5:       # (nan fails this too)
        raise UsageError(f"{option} {alpha}: must be between 0 and 0.5 (e.g. 0.05)")
    return value


#: The largest score or length a tolerance or a smallest difference may be given as (a billion
#: coins or turns: no game's scores come near it). Above about 1e27 the pages' rounding failed
#: with a traceback (review s51 safety #5: --smallest-difference score=1e29).
MAX_AMOUNT = 1e9


def parse_tolerance(text, option: str) -> float:
    """A tolerance: a finite number > 0 (the sequential check needs a margin), at most
    :data:`MAX_AMOUNT`."""
    try:
        value = float(text)
    except (TypeError, ValueError):
        raise UsageError(f"{option} {text}: not a number") from None
    if not value > 0 or not math.isfinite(value) or value > MAX_AMOUNT:
        raise UsageError(f"{option} {text}: must be a number > 0 and at most {MAX_AMOUNT:g}")
    return value


def check_common(*, seed=None, threads=None, chunk_size=None, games=None, alpha=None) -> dict:
    """Check the shared options a command was given (None = not given), all before any work;
    returns the parsed values by name."""
    out = {}
    if games is not None:
        out["games"] = parse_games(games)
    if seed is not None:
        out["seed"] = check_seed(seed)
    if threads is not None:
        out["threads"] = check_threads(threads)
    if chunk_size is not None:
        out["chunk_size"] = check_chunk_size(chunk_size)
    if alpha is not None:
        out["alpha"] = check_alpha(alpha)
    return out


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
    if isinstance(threads, bool) or not isinstance(threads, int):
        threads = as_count(threads, "--threads", lo=-(10**12))
    if threads < 1:
        raise UsageError(f"--threads {threads}: must be at least 1")
    if threads > available:
        raise UsageError(f"--threads {threads}: this machine allows at most {available} "
                         "(set NUMBA_NUM_THREADS to raise the limit)")
    return threads


def set_threads(threads: int | None) -> int:
    """Validate and set the Numba thread count for the rest of the process.

    ``None`` (all threads) in a process where nothing has started Numba's threading layer yet
    sets nothing: every thread already has that default (``numba.get_num_threads()`` is
    ``NUMBA_NUM_THREADS`` until something sets it), and starting the layer (importing
    ``multiprocessing`` and the OpenMP/TBB pool, 0.006-0.01 s of CPU) is left to a kernel
    that uses it (a ``prange``); :func:`simcore.blocks.threads_of_this_thread` answers without
    starting it."""
    import numba

    n = check_threads(threads)
    if threads is None and not threading_layer_started():
        return n
    numba.set_num_threads(n)
    return n


def threading_layer_started() -> bool:
    """Whether Numba's threading layer was started in this process (its thread count read or
    set, or a parallel kernel run)."""
    from numba.np.ufunc import parallel

    return bool(getattr(parallel, "_is_initialized", True))


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


def check_sqlite_storage(storage: str | None, option: str = "--storage") -> str | None:
    """An Optuna study's storage: a SQLite file path or ``sqlite:///PATH``; refused in one line:
    another database URL (this toolkit keeps studies in SQLite files), a directory, a device or
    other special file, a file that is not a SQLite database, a missing parent directory."""
    if storage is None:
        return None
    text = str(storage).strip()
    if not text or "\x00" in text:
        raise UsageError(f"{option}: give a SQLite file (e.g. tunes/study.db)")
    path = text
    if "://" in text:
        if not text.startswith("sqlite:///") or len(text) == len("sqlite:///"):
            raise UsageError(f"{option} {text}: only SQLite storage is supported (a file path, or "
                             "sqlite:///PATH)")
        path = text[len("sqlite:///"):]
        if path.startswith(":memory:") or "?" in path:
            raise UsageError(f"{option} {text}: give a SQLite file (an in-memory study is lost at exit)")
    import os
    import stat

    if os.path.lexists(path):
        try:
            st = os.stat(path)
        except OSError as exc:
            raise UsageError(f"{option} {text}: cannot read ({exc.strerror})") from None
        if stat.S_ISDIR(st.st_mode):
            raise UsageError(f"{option} {text}: is a directory (give a SQLite file)")
        if not stat.S_ISREG(st.st_mode):
            raise UsageError(f"{option} {text}: not a regular file (give a SQLite file)")
        if st.st_size:
            try:
                with open(path, "rb") as fh:
                    head = fh.read(16)
            except OSError as exc:
                raise UsageError(f"{option} {text}: cannot read ({exc.strerror})") from None
            if head != b"SQLite format 3\x00":
                raise UsageError(f"{option} {text}: not a SQLite database (a file of something "
                                 "else: it will not be touched)")
    else:
        parent = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(parent):
            raise UsageError(f"{option} {text}: the folder {parent} does not exist")
        if not os.access(parent, os.W_OK | os.X_OK):
            raise UsageError(f"{option} {text}: cannot write in {parent} ({unwritable_why(parent)})")
    return text
