"""Steps of a long command on stderr, with an estimate of the time left.

:class:`Steps` is the progress display of ``balance report``, ``balance ladder`` and ``balance
check``: a transient line on stderr saying which step runs ("step 3 of 8: Writing figure
scores"), the time spent and, once a step has finished, an estimate of the time left from the
average time per step so far (:func:`time_left`). It is called as ``steps(text)`` (a new phase
without a count, e.g. a played question) or ``steps(text, done, total)``. Nothing is shown when
stderr is not a terminal, unless forced (``BALANCE_PROGRESS=1``), so scripts and CI logs stay clean.

May import rich and the standard library.
"""

from __future__ import annotations

import os
import time


def time_left(elapsed: float, done: int, total: int) -> str:
    """``about 12 s left`` from the average time per finished step; '' before the first one ends."""
    if done <= 0 or total <= done or elapsed <= 0:
        return ""
    left = elapsed / done * (total - done)
    if left < 1:
        return "about 1 s left"
    if left < 90:
        return f"about {left:.0f} s left"
    return f"about {left / 60:.0f} min left"


class Steps:
    """A context manager; call it with each step (see the module docstring)."""

    def __init__(self, what: str, console=None) -> None:
        from rich.console import Console

        self.what = what
        self.console = console or Console(stderr=True)
        self.start = time.perf_counter()
        self.live = None
        self.done, self.total, self.text = 0, 0, what
        self.lines: list[str] = []          # every step shown, for tests and --verbose logs

    def __enter__(self) -> "Steps":
        if self.console.is_terminal or os.environ.get("BALANCE_PROGRESS"):
            self.live = self.console.status(self.what + "…")
            self.live.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        if self.live is not None:
            self.live.__exit__(*exc)

    def __call__(self, text: str, done: int | None = None, total: int | None = None) -> None:
        if done is not None and total:
            self.done, self.total = done, total
        self.text = text
        line = self.render()
        self.lines.append(line)
        if self.live is not None:
            self.live.update(line)

    def render(self) -> str:
        elapsed = time.perf_counter() - self.start
        parts = [f"{self.what}: "]
        if self.total:
            parts.append(f"step {min(self.done + 1, self.total)} of {self.total}: ")
        parts.append(f"{self.text}… ({elapsed:.0f} s")
        left = time_left(elapsed, self.done, self.total) if self.total else ""
        parts.append(f", {left})" if left else ")")
        return "".join(parts)
