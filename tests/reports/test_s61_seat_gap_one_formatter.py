"""A seat's gap from the fair share is written one way on a page (review s61 #2): the seat's
headline, the verdict words after the seat lines ("Seat 2 (+1.2 pp) and Seat 4 (…) are clearly
off …", "by at most … pp (Seat 3)") and Figure 1's caption print it with the same digits. The
tables are those of the reviewer's runs (a rotated 4-seat run: "Seat 4 wins 24.25% … −0.75 pp"
then "Seat 4 (−0.8 pp)"; a 3-player random run: "by at most 0.4 pp (Seat 3)" beside the
caption's "+0.45 pp"), copied here so the test plays no game."""

from __future__ import annotations

import re
from collections import defaultdict

import polars as pl
import pytest

from reports.sections import _seat_caption
from reports.text import seat_headlines
from seat_tables import R3, R3_TESTS, ROT, ROT_TESTS

GAP = r"([+−]?\d+(?:\.\d+)?) pp"


def _gaps(text: str) -> dict[str, set[str]]:
    """Every gap the text prints for a seat, without its sign (the "at most" wording has none)."""
    found: dict[str, set[str]] = defaultdict(set)
    patterns = (rf"(Seat \d) wins [\d.]+% \([^)]*\) against a fair [\d.]+%: {GAP}",
                rf"(Seat \d) \({GAP}\)",
                rf"(Seat \d) wins (?:most|least) \([\d.]+%, {GAP}\)")
    for p in patterns:
        for seat, gap in re.findall(p, text):
            found[seat].add(gap.lstrip("+−"))
    for gap, seat in re.findall(rf"by at most {GAP} \((Seat \d)\)", text):
        found[seat].add(gap)
    return found


@pytest.mark.parametrize("seats, tests, seat, shown", [(ROT, ROT_TESTS, "Seat 4", "0.75"),
                                                         (R3, R3_TESTS, "Seat 3", "0.45")])
def test_a_seats_gap_prints_the_same_in_its_headline_the_verdict_words_and_figure_1(seats, tests, seat, shown):
    t = {"seats": pl.DataFrame(seats), "seat_tests": pl.DataFrame([tests])}
    page = " ".join(seat_headlines(t)) + " " + _seat_caption(t)
    gaps = _gaps(page)
    assert gaps[seat] == {shown}, (gaps, page)
    for name, written in gaps.items():
        assert len(written) == 1, (name, written, page)
