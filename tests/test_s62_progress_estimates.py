"""Review 270 (a newcomer's first hour, cold Numba cache): ``balance report``'s "about N left" was
2-36x too long ("step 4 of 13: Writing figure comparison_guilds… (86 s, about 5 min left)", done
8 s later): :class:`cli.progress.Steps` divided the command's whole time (the played questions and
the analysis, long and uncounted) by the counted steps done. The estimate now follows the steps of
the same kind (a run of counted steps, its clock started at the first of them), and says nothing
before one of them has ended. The spinner of a compile counts its seconds, as every other long
step does ("(N s)")."""

from __future__ import annotations

import io
import re
import time

from rich.console import Console

import cli.progress as progress
from cli.progress import Steps


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def perf_counter(self) -> float:
        return self.now

    def __getattr__(self, name):          # (sleep and the rest: the real module's)
        return getattr(time, name)


def _steps(monkeypatch):
    clock = FakeClock()
    monkeypatch.setattr(progress, "time", clock)
    monkeypatch.setenv("BALANCE_LOG_EVERY", "off")
    console = Console(file=io.StringIO(), force_terminal=False, width=200)
    return clock, Steps("report", console)


def _left(line: str) -> float | None:
    m = re.search(r"about (\d+) (s|min) left", line)
    if m is None:
        return None
    return float(m.group(1)) * (60 if m.group(2) == "min" else 1)


def test_s62_report_estimate_follows_the_quick_figure_steps_not_the_slow_first_ones(monkeypatch):
    clock, steps = _steps(monkeypatch)
    with steps:
        steps("Balance questions of mv (before): first player at 2 players (1,000 games)")
        clock.now += 80                    # played questions and the analysis: long, uncounted
        steps("Analysing mv")
        clock.now += 5
        steps("Drawing the figures")
        clock.now += 1
        total = 13
        for k in range(3, 12):             # figures of 2 s each
            steps(f"Writing figure f{k}", k, total)
            clock.now += 2
        steps("Writing the report", 12, total)
    figures = [x for x in steps.lines if "Writing figure" in x]
    # the first figure step: no figure has ended yet, so no estimate (not 86 s spread over 3 steps)
    assert _left(figures[0]) is None, figures[0]
    # every later one: 2 s per step left to do, within a second
    for k, line in zip(range(4, 12), figures[1:]):
        left = _left(line)
        assert left is not None, line
        assert abs(left - 2 * (total - k)) <= 1, (line, 2 * (total - k))
    assert abs(_left(steps.lines[-1]) - 2) <= 1, steps.lines[-1]
    # the time spent is still the command's
    assert "(104 s" in steps.lines[-1], steps.lines[-1]


def test_s62_an_uncounted_phase_between_counted_steps_restarts_the_estimate(monkeypatch):
    clock, steps = _steps(monkeypatch)
    with steps:
        steps("a", 0, 10)
        clock.now += 1
        steps("b", 1, 10)
        steps("a played question (uncounted, long)")
        clock.now += 300
        steps("c", 2, 10)
        clock.now += 1
        steps("d", 3, 10)
    assert _left(steps.lines[1]) == 9, steps.lines[1]
    assert _left(steps.lines[3]) is None, steps.lines[3]        # no step of this run ended yet
    assert _left(steps.lines[4]) == 7, steps.lines[4]           # 1 s per step, not 300


def test_s62_the_compile_spinner_counts_its_seconds(monkeypatch):
    monkeypatch.setattr(progress, "SPIN_TICK_S", 0.05)
    clock = FakeClock()
    monkeypatch.setattr(progress, "time", clock)
    console = Console(file=io.StringIO(), force_terminal=True, width=200)
    show = progress.spinner(console)
    stop = show("Compiling the Middle-Ages kernel")
    seen = []
    for s in range(3):
        clock.now += 1
        time.sleep(0.3)
        seen.append(progress.NOTICES["status"])
    stop()
    assert seen[0].startswith("Compiling the Middle-Ages kernel"), seen
    assert "(1 s)" in seen[0] and "(3 s)" in seen[-1], seen
