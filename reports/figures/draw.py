"""Drawing a report's figures into PNG (and SVG) bytes, on two cores when there are several.

:func:`draw_all` turns every figure of a :class:`reports.sections.FigureSet` into its PNG bytes
(:func:`reports.figures.common.render`) and, with ``svg=True``, its SVG bytes from the same layout
(the constrained layout computed for the PNG is kept: the SVG does not solve it again). The figures
are independent, and drawing them is most of a report's time (matplotlib's layout and Agg
rendering, pure Python for the most part: threads would wait on each other's GIL), so when there
are at least two figures, at least two cores this process may run on and ``fork`` (Linux), the
process forks once: parent and child take the figures one at a time from a shared queue (a pipe
holding each figure's number, costliest first), and the child sends its bytes back through another
pipe. The forked child inherits the built figures as they are (nothing is pickled but the bytes);
it draws with matplotlib and Pillow only and leaves with ``os._exit``. The bytes do not depend on
which process drew a figure; a figure the child did not deliver (it failed, or was killed) is drawn
by the parent, so the report is the same in every case (a child still drawing ``CHILD_GRACE_S``
after the queue ran dry is ended first); should the parent fail or be interrupted
(Ctrl-C), it ends the child before passing the error on (no process is left behind).
``processes=1`` (or the environment variable ``BALANCE_DRAW_PROCESSES=1``) draws everything in
this process.

May import matplotlib (through :mod:`reports.figures.common`) and the standard library.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import struct
import sys
import time
from typing import Callable, Mapping

from reports.figures.common import render

# Linux only: a forked child of a process running polars' and BLAS' threads draws with matplotlib
# and Pillow alone, which is safe there; macOS frameworks are not safe to use after fork.
_FORK = hasattr(os, "fork") and sys.platform.startswith("linux")
_INDEX = struct.Struct("<H")        # a figure's number in the queue: 2 bytes, read atomically
# Once this process finds the queue empty, the child has at most the figure in hand left to draw:
# it gets this long (or 5x the longest figure drawn here, if more) before it is ended and its
# figures drawn here (a child stuck for ever, e.g. on a lock another thread held at the fork,
# must not hang the report).
CHILD_GRACE_S = 30.0


def cores() -> int:
    """The cores this process may run on (its CPU affinity where the system tells it)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def drawing_processes(n_figures: int, processes: int | None = None) -> int:
    """How many processes draw ``n_figures`` figures: 2 when there are several figures, two cores
    and ``fork`` (Linux); 1 otherwise, or when ``processes`` (or ``BALANCE_DRAW_PROCESSES``) says 1."""
    if processes is None:
        env = os.environ.get("BALANCE_DRAW_PROCESSES", "").strip()
        processes = int(env) if env.isdigit() and int(env) > 0 else cores()
    if processes < 2 or n_figures < 2 or not _FORK or n_figures > 8192:
        return 1
    return 2


def draw_one(fig, svg: bool = False) -> dict[str, bytes]:
    """One figure's bytes by format: the PNG, then (``svg=True``) the SVG from the same layout."""
    out = {"png": render(fig, "png")}
    if svg:
        fig.set_layout_engine("none")          # freeze the layout the PNG computed
        out["svg"] = render(fig, "svg")
    return out


def _cost(fig) -> float:
    """A rough drawing cost to start with the costliest figures (the last one taken is short)."""
    w, h = fig.get_size_inches()
    return len(fig.get_axes()) * 10.0 + w * h


def draw_all(figs: Mapping[str, object], svg: bool = False, processes: int | None = None,
             started: Callable[[str], None] | None = None) -> dict[str, dict[str, bytes]]:
    """Every figure of ``figs`` as ``{name: {"png": bytes[, "svg": bytes]}}``, in ``figs``' order.

    ``started(name)`` is called in this process before it draws a figure (the child's figures are
    not announced one by one). See the module docstring for when two processes draw."""
    names = list(figs)
    say = started or (lambda _name: None)
    out: dict[str, dict[str, bytes]] = {}
    if drawing_processes(len(names), processes) < 2:
        for name in names:
            say(name)
            out[name] = draw_one(figs[name], svg)
        return out
    order = sorted(range(len(names)), key=lambda i: -_cost(figs[names[i]]))
    queue_r, queue_w = os.pipe()
    os.write(queue_w, b"".join(_INDEX.pack(i) for i in order))   # < 64 kB: written whole
    os.close(queue_w)
    result_r, result_w = os.pipe()
    pid = os.fork()
    if pid == 0:                                   # the child: draw, send, leave
        code = 1
        try:
            os.close(result_r)
            mine = {}
            try:
                for i in _take(queue_r):
                    mine[names[i]] = draw_one(figs[names[i]], svg)
            finally:
                data = pickle.dumps(mine, protocol=pickle.HIGHEST_PROTOCOL)
                with os.fdopen(result_w, "wb") as f:
                    f.write(data)
            code = 0
        finally:
            os._exit(code)
    os.close(result_w)
    finished = False
    try:
        longest = 0.0
        for i in _take(queue_r):
            say(names[i])
            t0 = time.monotonic()
            out[names[i]] = draw_one(figs[names[i]], svg)
            longest = max(longest, time.monotonic() - t0)
        data = _read_until(result_r, time.monotonic() + max(CHILD_GRACE_S, 5.0 * longest))
        if data is None:                           # the child is stuck: end it, draw its share here
            _end(pid)
            data = b""
        try:
            theirs = pickle.loads(data) if data else {}
        except Exception:                          # a child that died mid-way: draw its share here
            theirs = {}
        for name, formats in theirs.items():
            if name in figs and "png" in formats and (formats.get("svg") is not None) == svg:
                out[name] = formats
        finished = True
    finally:
        if not finished:                           # interrupted or failed here: the child stops too
            _end(pid)
        os.close(queue_r)
        os.close(result_r)
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:                  # already reaped (a stuck child, ended above)
            pass
    for name in names:                             # whatever the child did not deliver
        if name not in out:
            say(name)
            out[name] = draw_one(figs[name], svg)
    return {name: out[name] for name in names}


def _read_until(fd: int, deadline: float) -> bytes | None:
    """Everything the child writes to ``fd`` until it closes it, or None if ``deadline``
    (``time.monotonic()``) passes first."""
    parts = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            return None
        b = os.read(fd, 1 << 20)
        if not b:
            return b"".join(parts)
        parts.append(b)


def _end(pid: int) -> None:
    """End the drawing child (SIGKILL: a child stuck on a lock may not run a handler)."""
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass


def _take(fd: int):
    """The figure numbers left in the queue pipe, one read each (a read of 2 bytes from a pipe
    holding whole records returns one whole record to one reader)."""
    while True:
        b = os.read(fd, _INDEX.size)
        if len(b) < _INDEX.size:
            return
        yield _INDEX.unpack(b)[0]
