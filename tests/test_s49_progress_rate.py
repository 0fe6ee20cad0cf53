"""simulate's games/s is read from the first chunk's report on, not from the command's start: the
compile, a cluster's connection and its workers' warm-up before the first chunk are not play
(session 48's list: a cluster run's rate counted its warm-up, so it read low for the whole run)."""

from __future__ import annotations

import io

from rich.console import Console

from cli import progress as P


def test_the_rate_leaves_out_what_came_before_the_first_chunk(monkeypatch):
    clock = [100.0]
    monkeypatch.setattr(P.time, "perf_counter", lambda: clock[0])
    monkeypatch.setenv("BALANCE_LOG_EVERY", "1")
    lines = io.StringIO()
    bar = P.SimulationBar(Console(file=lines, force_terminal=False, width=200))
    clock[0] += 60.0                    # a minute of warm-up: compile, connection, workers
    bar.update(10_000, 1_000_000)       # the first chunk
    assert bar.rate(10_000, clock[0]) == ""
    for k in range(2, 6):
        clock[0] += 2.0                 # 10,000 games every 2 s: 5,000 games/s of play
        bar.update(10_000 * k, 1_000_000)
    out = lines.getvalue()
    assert "5,000 games/s" in out, out
    assert bar.rate(50_000, clock[0]) == "5,000 games/s"
