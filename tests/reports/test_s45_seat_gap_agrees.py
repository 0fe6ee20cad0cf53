"""A seat's win share, the fair share and the gap between them print so that the printed share
minus the printed fair share is the printed gap (review 45 #5: "Seat 1 wins 23.5% (23.1–23.8)
against a fair 25.0%: −1.6 pp" for 23.45% and −1.55 pp). Checked on every seat of real runs at 3
and 4 players (the fair 33.3% is itself rounded), in the headlines and the seat table."""

from __future__ import annotations

import re

import pytest

from analysis import analyse, open_runs
from reports.sections import _seat_caption, seat_rows
from reports.text import seat_headlines
from simcore import runner

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def _num(text: str) -> float:
    return float(text.replace("−", "-").replace("+", ""))


@pytest.mark.parametrize("players, games, seed", [(3, 3000, 1), (4, 2000, 7), (4, 4000, 3)])
def test_share_minus_fair_is_the_gap_as_printed(tmp_path, players, games, seed):
    run = runner.simulate("middle-ages", players=players, strategies="random", games=games, seed=seed,
                          out=tmp_path / "r", quiet=True)
    t = analyse(open_runs([run]))
    lines = [x for x in seat_headlines(t) if re.match(r"Seat \d wins", x)]
    for x in lines:
        m = re.match(r"Seat \d wins ([\d.]+)% \([^)]*\) against a fair ([\d.]+)%: ([+−][\d.]+) pp", x)
        assert m, x
        share, fair, gap = (_num(g) for g in m.groups())
        digits = len(m.group(3).split(".")[1])
        assert round(share - fair, digits) == pytest.approx(gap, abs=1e-9), x
    table = seat_rows(t)
    fair = 100.0 / players
    for share_text, gap_text in zip(table["Win share (95% interval, unadjusted)"], table["vs fair share (pp)"]):
        share = _num(share_text.split("%")[0])
        gap = _num(gap_text.split(" ")[0])
        digits = len(gap_text.split(" ")[0].split(".")[1])
        assert round(share - round(fair, digits), digits) == pytest.approx(gap, abs=1e-9), (share_text, gap_text)
    # the seat figure's caption: "Seat 3 wins most (29.9%, +4.9 pp) and Seat 1 least (…) against a fair …"
    cap = _seat_caption(t)
    m = re.search(r"wins most \(([\d.]+)%, ([+−][\d.]+) pp\) and Seat \d least \(([\d.]+)%, ([+−][\d.]+) pp\) "
                  r"against a fair ([\d.]+)%", cap)
    assert m, cap
    fair_shown = _num(m.group(5))
    for share, gap in ((m.group(1), m.group(2)), (m.group(3), m.group(4))):
        digits = len(gap.split(".")[1])
        assert round(_num(share) - fair_shown, digits) == pytest.approx(_num(gap), abs=1e-9), cap
