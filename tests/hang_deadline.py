"""A deadline for a test whose command might hang (tests import it as they import
undrawn_figures): within ``deadline(seconds)`` a command still running when the time is up raises
:class:`Hung` in the test's thread (SIGALRM), so a hang fails the test instead of blocking the
suite. Main thread only (signals)."""

from __future__ import annotations

import contextlib
import signal


class Hung(BaseException):
    """Raised in the test's thread when a command has not ended by its deadline."""


@contextlib.contextmanager
def deadline(seconds: float):
    def hung(*_):
        raise Hung(f"still running after {seconds} s (the command hangs)")

    old = signal.signal(signal.SIGALRM, hung)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
