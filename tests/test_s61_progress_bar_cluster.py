"""simulate's bar on a cluster (review s61 #4, #5): with every worker gone it showed the last
chunk's rate and time left, frozen for the whole wait ("55,787 games/s 0:00:25 0 workers"); in an
80-column terminal the workers' note cut the total ("450000/15000… games", read as 450,000 of
15,000). Drawn here on a terminal console of 80 columns, as a user sees it."""

from __future__ import annotations

import io

from rich.console import Console

from cli import progress as P


def _bar(monkeypatch, width: int = 80):
    clock = [100.0]
    monkeypatch.setattr(P.time, "perf_counter", lambda: clock[0])
    console = Console(file=io.StringIO(), force_terminal=True, width=width, color_system=None)
    return P.SimulationBar(console), clock, console


def _line(bar, width: int = 80) -> str:
    """The bar's line as rich draws it at ``width`` columns."""
    out = Console(file=io.StringIO(), force_terminal=True, width=width, color_system=None)
    out.print(bar.bar.make_tasks_table(bar.bar.tasks))
    return out.file.getvalue().rstrip("\n")


def _play(bar, clock, upto: int, total: int, step: int = 50_000) -> None:
    for done in range(step, upto + 1, step):
        clock[0] += 1.0
        bar.update(done, total)


def test_the_total_is_whole_in_80_columns_with_the_workers_note(monkeypatch):
    bar, clock, _ = _bar(monkeypatch)
    try:
        bar.note("2 workers")
        _play(bar, clock, 450_000, 1_500_000)
        line = _line(bar)
        assert "450000/1500000 games" in line, line
        assert "games/s" in line, line
        for width in (60, 50):              # narrower: the rest gives way, never the total
            assert "450000/1500000 games" in _line(bar, width), _line(bar, width)
    finally:
        bar.stop()


def test_with_every_worker_gone_no_rate_and_no_time_left_are_shown(monkeypatch):
    bar, clock, _ = _bar(monkeypatch)
    try:
        bar.note("1 worker")
        _play(bar, clock, 450_000, 1_500_000)
        before = _line(bar)
        assert "50,000 games/s" in before and "0:00:" in before, before   # (what froze)
        clock[0] += 30.0
        bar.note("0 workers", idle=True)
        line = _line(bar)
        assert "games/s" not in line and "0:00:" not in line, line
        assert "-:--:--" in line and "0 workers" in line and "450000/1500000 games" in line, line
        bar.note("1 worker")                # one joined: the next chunk shows a rate again
        clock[0] += 1.0
        bar.update(500_000, 1_500_000)
        assert "games/s" in _line(bar), _line(bar)
    finally:
        bar.stop()
