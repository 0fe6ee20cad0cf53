"""reports.figures.draw: figures drawn on two processes give the bytes one process gives, and a
figure the second process does not deliver is drawn by the first."""

from __future__ import annotations

import os

import matplotlib
import numpy as np
import pytest

from reports.figures import draw as D
from reports.figures.common import new_figure, styled

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not D._FORK, reason="two drawing processes need fork (Linux)")]


@styled
def _figure(k: int):
    fig = new_figure(4, 3)
    ax = fig.subplots()
    x = np.arange(5 + k)
    ax.bar(x, (x * (k + 1)) % 7, label=f"figure {k}")
    ax.set_title(f"Figure {k}: a title long enough to need the layout")
    ax.set_xlabel("Seat")
    ax.legend()
    return fig


def _figs(n: int) -> dict:
    """``n`` small figures. Two or three are enough for each check below: the parent takes the
    costliest first and draws it while the child takes the next (each draw ~0.1 s of CPU, the
    checks drew 4 twice and 3 twice)."""
    return {f"f{k}": _figure(k) for k in range(n)}


def test_two_processes_draw_the_bytes_one_process_draws():
    said: list[str] = []
    with matplotlib.rc_context({"svg.hashsalt": "same clip-path ids"}):
        one = D.draw_all(_figs(3), svg=True, processes=1)
        two = D.draw_all(_figs(3), svg=True, processes=2, started=said.append)
    assert list(two) == list(one) == ["f0", "f1", "f2"]
    for name in one:
        assert set(two[name]) == {"png", "svg"}
        assert two[name]["png"] == one[name]["png"], name
        assert two[name]["png"][:8] == b"\x89PNG\r\n\x1a\n"
        # The SVG names its own creation date: compare it without that line.
        strip = lambda b: b"\n".join(x for x in b.split(b"\n") if b"<dc:date>" not in x)  # noqa: E731
        assert strip(two[name]["svg"]) == strip(one[name]["svg"]), name
    assert set(said) <= set(one)        # this process announces the figures it draws


def test_a_figure_the_second_process_does_not_deliver_is_drawn_here(monkeypatch):
    parent = os.getpid()
    real = D.draw_one

    def dies_in_the_child(fig, svg=False):
        if os.getpid() != parent:
            os._exit(3)                 # killed mid-way, nothing sent
        return real(fig, svg)

    monkeypatch.setattr(D, "draw_one", dies_in_the_child)
    figs = _figs(2)
    got = D.draw_all(figs, processes=2)
    assert list(got) == list(figs)
    want = D.draw_all(_figs(2), processes=1)
    assert all(got[n]["png"] == want[n]["png"] for n in figs)


def test_one_process_when_one_figure_one_core_or_asked(monkeypatch):
    assert D.drawing_processes(1, 2) == 1
    assert D.drawing_processes(7, 1) == 1
    assert D.drawing_processes(7, 2) == 2
    monkeypatch.setenv("BALANCE_DRAW_PROCESSES", "1")
    assert D.drawing_processes(7) == 1
    monkeypatch.setenv("BALANCE_DRAW_PROCESSES", "2")
    assert D.drawing_processes(7) == 2
    monkeypatch.delenv("BALANCE_DRAW_PROCESSES")
    monkeypatch.setattr(D, "cores", lambda: 1)
    assert D.drawing_processes(7) == 1


def test_a_failure_here_ends_the_child_and_is_raised(monkeypatch):
    """The parent's error is the one raised, and the child (stuck here in a figure that never
    finishes) is ended and reaped, not left drawing the rest of the queue."""
    import signal

    parent = os.getpid()
    never_r, never_w = os.pipe()
    real_fork, forked = os.fork, []

    def fork():
        pid = real_fork()
        if pid:
            forked.append(pid)
        return pid

    def draw_one(fig, svg=False):
        if os.getpid() != parent:
            os.read(never_r, 1)         # the child hangs until it is ended
        raise RuntimeError("drawing failed here")

    def hung(*_):
        raise AssertionError("draw_all waited for a child that was never ended")

    monkeypatch.setattr(os, "fork", fork)
    monkeypatch.setattr(D, "draw_one", draw_one)
    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(30)                    # a watchdog, not a timing check: a hang fails the test
    reaped = []
    try:
        with pytest.raises(RuntimeError, match="drawing failed here"):
            D.draw_all(_figs(3), processes=2)
        for pid in forked:
            try:
                os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:           # already reaped by draw_all
                reaped.append(pid)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
        for pid in set(forked) - set(reaped):   # a failed run leaves no hung process behind
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        os.close(never_r)
        os.close(never_w)
    assert len(forked) == 1 and reaped == forked


def test_a_child_stuck_in_a_figure_is_ended_and_its_share_drawn_here(monkeypatch):
    """A child that never finishes (as one stuck on a lock another thread held at the fork would)
    does not hang the report: once the queue is empty and the grace has passed, the child is ended
    and the figures it took are drawn here, the same bytes."""
    import signal

    parent = os.getpid()
    never_r, never_w = os.pipe()
    real = D.draw_one

    def hangs_in_the_child(fig, svg=False):
        if os.getpid() != parent:
            os.read(never_r, 1)         # blocks for ever: nothing is ever written
        return real(fig, svg)

    def hung(*_):
        raise AssertionError("draw_all waited for ever on a stuck child")

    monkeypatch.setattr(D, "draw_one", hangs_in_the_child)
    monkeypatch.setattr(D, "CHILD_GRACE_S", 0.5)
    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(60)                    # a watchdog, not a timing check: a hang fails the test
    try:
        got = D.draw_all(_figs(2), processes=2)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
        os.close(never_r)
        os.close(never_w)
    want = D.draw_all(_figs(2), processes=1)
    assert list(got) == list(want)
    assert all(got[n]["png"] == want[n]["png"] for n in want)
