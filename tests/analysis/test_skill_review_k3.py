"""Review K #3: a resumed ``balance skill`` never said it was resuming, and its progress line sat on
"(0 s, about 1 s left)" for an 8 s part: the parts read back counted as steps that took no time.
Now one line says what is kept and what is left to play, the progress counts only the parts this
call plays, and the time left is estimated only from parts timed in this call, by kind and budget
(none until one can be)."""

from __future__ import annotations

import pytest

from analysis import skill as K
from cli import _run
from cli.skill import PartClock

from undrawn_figures import skill_pages_undrawn_in_this_module  # noqa: F401 (autouse: pages undrawn)


def test_seconds_left_come_from_timed_parts_of_the_same_kind_scaled_by_budget():
    # nothing timed: no estimate
    assert K.part_seconds_left({}, [(4, "all", 200)]) is None
    # a budget-0 part (the bots) says nothing of a searching part
    assert K.part_seconds_left({("all", 0): 0.001}, [(4, "all", 200)]) is None
    # nor a one-seat part of an every-seat part
    assert K.part_seconds_left({("one", 4): 0.01}, [(4, "all", 200)]) is None
    # the same kind and budget: its own rate; a larger budget: scaled up by the budgets (8 s for
    # 200 games at budget 4 -> 32 s at 16)
    timed = {("one", 4): 2 / 200, ("all", 4): 8 / 200}
    assert K.part_seconds_left(timed, [(4, "all", 200)]) == pytest.approx(8)
    assert K.part_seconds_left(timed, [(16, "one", 200), (16, "all", 200)]) == pytest.approx(8 + 32)
    # nothing is estimated from a larger budget downwards
    assert K.part_seconds_left({("all", 16): 0.1}, [(4, "all", 200)]) is None


class _Steps:
    def __init__(self):
        self.lines, self.live, self.start = [], None, 0.0

    def __call__(self, text):
        self.lines.append(text)


def test_the_progress_line_claims_no_time_left_before_a_part_is_timed():
    now = [1.0]                          # the parts read back took a second
    clock = PartClock(_Steps(), clock=lambda: now[0])
    parts = [(4, "one", 200), (4, "all", 200), (16, "one", 200), (16, "all", 200)]
    clock("budget 4: one searching seat", 0, 4, parts)
    assert "left" not in clock.line() and "part 1 of 4 to play" in clock.line()
    now[0] += 2                         # the one-seat part at budget 4: 2 s
    clock("budget 4: every seat searching", 1, 4, parts)
    assert "left" not in clock.line()   # no every-seat part timed yet: no estimate (it was "about 1 s")
    now[0] += 8                         # the every-seat part: 8 s
    clock("budget 16: one searching seat", 2, 4, parts)
    assert clock.line().endswith("(11 s, about 40 s left)"), clock.line()     # 2 x 4 + 8 x 4
    now[0] += 5
    assert clock.line().endswith("(16 s, about 35 s left)"), clock.line()     # it counts down
    now[0] += 5                         # past the part's estimate: no estimate rather than a wrong one
    assert "left" not in clock.line()


def test_a_resume_is_planned_before_any_game_and_counts_only_the_parts_it_plays(tmp_path):
    kw = dict(policy="balanced", roles=("player",) * 2)
    K.balance_by_budget("middle-ages", 2, [0, 1], 8, tmp_path, **kw)
    (tmp_path / "cells" / "budget1_all.parquet").unlink()
    plans, steps = [], []
    K.balance_by_budget("middle-ages", 2, [0, 1], 8, tmp_path, **kw, plan=lambda *a: plans.append(a),
                        progress=lambda *a: steps.append(a))
    assert plans == [(3, 4)]
    assert steps == [("budget 1: every seat searching", 0, 1, [(1, "all", 8)])]


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_balance_skill_says_what_it_resumes(tmp_path, capsys):
    out = tmp_path / "sk"
    args = ["skill", "--budgets", "0,1", "--games", "8", "--players", "2", "--out", str(out), "-q"]
    assert _run(args) == 0
    assert "resuming" not in capsys.readouterr().err          # a first call resumes nothing
    (out / "cells" / "budget1_one.parquet").unlink()
    assert _run(args) == 0
    err = capsys.readouterr().err
    assert f"resuming {out}: 3 of 4 parts kept (in {out / 'cells'}); playing the other 1" in err, err
    assert _run(args) == 0
    assert f"resuming {out}: all 4 parts kept" in capsys.readouterr().err
