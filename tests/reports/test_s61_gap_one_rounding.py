"""One gap, one printed value: a gap in pp is the difference rounded, not the difference of two
rounded values (review s61 fix 258 #2: at 4 players the Censitaires' headline said "Seat 2 (+11.2
pp)" and the bots' line "objective … +11.3 pp" for one gap of 44.57% − 33.33% = +11.24 pp; at 3
players the Strategies table printed objective +11.5 pp and dutiful −11.6 pp for gaps of exactly
±11.56 pp, the average seat's 49.96% rounded to 50.0% before subtracting)."""

from __future__ import annotations

import html
import re

from simcore.numbers import fair_gap
from tests.in_process import balance
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def test_the_gap_is_the_difference_rounded():
    assert fair_gap(44.57, 100 / 3, 1) == 11.2             # not 44.6 − 33.3 = 11.3
    assert fair_gap(61.52, 49.96, 1) == 11.6               # not 61.5 − 50.0 = 11.5
    assert fair_gap(38.40, 49.96, 1) == -11.6              # the two gaps of one split: ± the same
    # a fair share the page prints exactly (25%): the gap is still the printed share minus it, a
    # half rounded up like the share (review s55 #1: "24.53%" beside −0.47 pp for 24.525%)
    assert fair_gap(24.525, 25.0, 2) == -0.47
    assert fair_gap(24.45, 25.0, 1) == -0.5


def _pp(text: str) -> float:
    return float(text.replace("−", "-").replace("+", ""))


def test_the_seat_and_the_bot_it_holds_print_one_gap(tmp_path):
    # the review's 4-player run: each Censitaire seat keeps its bot and the Seigneur wins no game,
    # so Seat 2's gap from an equal split of the Censitaires' wins is objective's from its role's
    # average seat: one number
    run, out = tmp_path / "B", tmp_path / "RB"
    balance("simulate", "--game", "seigneurial", "--players", "4", "--strategies",
            "harsh-lord,objective,dutiful,hoarder", "--games", "10000", "--seed", "5", "--out", run)
    balance("report", run, "--out", out)
    page = html.unescape(re.sub(r"<[^>]+>", "", (out / "report.html").read_text()))
    seat = re.search(r"Seat 2 \(([+−][0-9.]+) pp", page)
    bot = re.search(r"objective wins most: [0-9.]+% \([0-9.–]+\) of games against [0-9.]+% for the "
                    r"Censitaires' average seat, ([+−][0-9.]+) pp", page)
    assert seat and bot, page[:3000]
    assert _pp(seat.group(1)) == _pp(bot.group(1)) == 11.2
    table = re.search(r"objective\s*Censitaire\s*[0-9,]+\s*[0-9.]+% \([0-9.–]+\)\s*[0-9.]+%\s*([+−][0-9.]+) pp",
                      page)
    assert table and _pp(table.group(1)) == 11.2
