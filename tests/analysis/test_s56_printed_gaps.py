"""Session 56 designer review, the places found beside the named ones: a gap printed beside the two
values it separates is their difference as printed. ``balance skill --against``: a seat that
crossed the fair share, "28.6% → 24.5%, past the fair 25%: from 3.6 pp above to 0.6 pp below" for
24.45% (24.5% printed, 0.55 pp below it rounded away from zero); ``balance tune``'s closest
candidate, "0.25% (…) against the band 20.0 to 40.0%: 19.8 pp below it" beside an estimate printed
0.3%. Each test parses the printed words and checks printed gap == printed share − printed edge."""

from __future__ import annotations

import re

from analysis.skill_against import _fairness
from analysis.tune.advice import _band_words

NUM = r"\d+(?:\.\d+)?"


def _decimals(text: str) -> int:
    return len(text.split(".")[1]) if "." in text else 0


def test_a_seat_that_crossed_the_fair_share_is_said_above_and_below_it_by_its_printed_shares():
    for before, after in ((0.286, 0.2445), (0.2445, 0.286), (0.2155, 0.2845)):
        said = _fairness({"before_win_share": before, "after_win_share": after}, 0.25)
        m = re.fullmatch(rf": ({NUM})% → ({NUM})%, past the fair 25%: from ({NUM}) pp (above|below) to "
                         rf"({NUM}) pp (above|below)", said)
        assert m, said
        for share, gap, side in ((m.group(1), m.group(3), m.group(4)), (m.group(2), m.group(5), m.group(6))):
            signed_gap = float(gap) if side == "above" else -float(gap)
            assert round(float(share) - 25.0, _decimals(gap)) == signed_gap, said


def test_a_tune_candidates_distance_from_the_band_is_its_printed_estimate_to_the_printed_edge():
    target = {"kind": "role", "aim": 0.30, "tol": 0.10}
    for est in (0.0025, 0.00349, 0.4025, 0.50451):
        said = _band_words({"estimate": est, "low": est / 2, "high": est * 1.5 + 0.001}, target, 4)
        m = re.fullmatch(rf"\+?({NUM})% \(.*\) against the band \+?({NUM}) to \+?({NUM})%: ({NUM}) pp (below|above) it",
                         said)
        assert m, said
        shown, low, high, gap = m.group(1), m.group(2), m.group(3), m.group(4)
        edge = low if m.group(5) == "below" else high
        d = _decimals(gap)
        assert d == max(_decimals(shown), _decimals(edge)), said
        assert round(abs(float(edge) - float(shown)), d) == float(gap), said
