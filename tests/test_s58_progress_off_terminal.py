"""Review 214 #6: off a terminal (stderr to a file) a 3,000-game skill run wrote two lines in 9
minutes ("part 5 of 6 … (178 s)", "part 6 of 6 … (271 s)"), then 4.5 minutes of nothing, and never
a time left, though cli/progress.py promises a line at most every minute with the time spent and
left: :class:`cli.progress.Steps` printed only when called (at a part's start), and its line was
its own, without :class:`cli.skill.PartClock`'s estimate. Here a line period of 0.25 s stands for
the minute (``BALANCE_LOG_EVERY``)."""

from __future__ import annotations

import io
import re
import time

from rich.console import Console

from cli.progress import Steps
from cli.skill import PartClock


def _console():
    buf = io.StringIO()
    return Console(file=buf, force_terminal=False, width=200), buf


def test_a_long_step_off_a_terminal_still_writes_a_line_every_period(monkeypatch):
    monkeypatch.setenv("BALANCE_LOG_EVERY", "0.25")
    console, buf = _console()
    with Steps("skill", console) as steps:
        steps("part 1 of 1: one long part", 0, 1)
        time.sleep(1.4)                 # no call meanwhile: the part plays
    lines = [x for x in buf.getvalue().splitlines() if x.strip()]
    # about 1.4 / 0.25 periods; at least 3 lines said the command is alive during the one step
    assert len(lines) >= 3, buf.getvalue()
    seconds = [int(m.group(1)) for x in lines for m in [re.search(r"\((\d+) s", x)] if m]
    assert seconds and seconds[-1] >= 1, lines      # the time spent keeps counting


def test_a_skill_run_off_a_terminal_says_the_time_left_from_its_timed_parts(monkeypatch):
    monkeypatch.setenv("BALANCE_LOG_EVERY", "0.25")
    console, buf = _console()
    parts = [(4, "one searching seat", 10), (16, "one searching seat", 10)]
    with Steps("skill", console) as steps:
        clock = PartClock(steps)
        clock("budget 4: one searching seat", 0, 2, parts)
        t0 = time.perf_counter()
        time.sleep(0.8)
        first = time.perf_counter() - t0
        clock("budget 16: one searching seat", 1, 2, parts)
        t1 = time.perf_counter()
        time.sleep(0.9)
        spent = time.perf_counter() - t1
    text = buf.getvalue()
    later = [x for x in text.splitlines() if "part 2 of 2" in x]
    assert later, text
    m = re.search(r"about (\d+) s left", later[-1])
    assert m, text
    # the estimate, computed here: budget 16 costs 16/4 times budget 4's part per game (the rule
    # analysis.skill.part_seconds_left states), less the time the part has run
    expected = 4 * first - spent
    assert abs(int(m.group(1)) - expected) <= 1.0, (later[-1], expected)
