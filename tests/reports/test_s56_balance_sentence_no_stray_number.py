"""Session 56 designer review #3: a stray number in the before/after's first answer.

`balance report runs/base runs/palais4` (100,000 games each, seed 1, income.palais.base=4) printed
"… each at level 1 − 0.05/12). 4.9 The table's two Balance indices …": in
:func:`reports.text.seat_balance_sentence` the name of the sentence that says which way the clear
seats moved was reused for the printed gap after, and the "Neither by a change that matters"
branch appended it. Every branch of the sentence is checked here: no sentence of it starts with a
number, and the one branch that adds a sentence about the seats adds that sentence."""

from __future__ import annotations

import re

import polars as pl
import pytest

from analysis import stats
from reports.text import INDEX_METRICS, seat_balance_sentence


def _sentence(*, change: float, low: float, high: float, verdict: str, paired: bool = True,
              same: bool = False, significant: bool = False) -> str:
    before, after = 0.0497, 0.0497 + change        # Seat 3 above fair, as in the review's runs
    balance = pl.DataFrame([{"before": before, "after": after, "before_seat": 3, "after_seat": 3,
                             "before_signed_gap": before, "after_signed_gap": after, "change": change,
                             "change_low": low, "change_high": high, "verdict": verdict, "fair": 0.25,
                             "family": 12, "paired": paired}])
    seats = [{"metric": "seat_win_share", "key": f"Seat {k}", "label": f"Seat {k} win share",
              "smallest": 0.01, "base": b, "variant": v, "significant": significant and k == 3,
              "same_games": 100_000 if same else None}
             for k, b, v in ((1, 0.2025, 0.2030), (2, 0.2472, 0.2493), (3, 0.2997, 0.2997 + change),
                             (4, 0.2506, 0.2480))]
    index = [{"metric": m, "key": "all", "label": m, "smallest": None, "base": b, "variant": v,
              "significant": None, "same_games": None}
             for m, b, v in zip(INDEX_METRICS, (0.915, 0.902), (0.910, 0.902))]
    return seat_balance_sentence(balance, pl.DataFrame(seats + index))


BRANCHES = {
    # the review's: paired, within noise, every end within 1 pp
    "neither": dict(change=-0.0010, low=-0.006, high=0.005, verdict=stats.NOT_SHOWN),
    # paired, within noise, an end beyond 1 pp; a seat that moved clearly
    "cannot tell, paired": dict(change=-0.0010, low=-0.015, high=0.013, verdict=stats.NOT_SHOWN,
                                significant=True),
    "cannot tell, paired, no seat clear": dict(change=-0.0010, low=-0.015, high=0.013,
                                               verdict=stats.NOT_SHOWN),
    "cannot tell, unpaired": dict(change=-0.0010, low=-0.015, high=0.013, verdict=stats.NOT_SHOWN,
                                  paired=False, significant=True),
    "toward": dict(change=-0.02, low=-0.03, high=-0.012, verdict=stats.LARGE),
    "away": dict(change=0.02, low=0.012, high=0.03, verdict=stats.LARGE),
    "unchanged": dict(change=0.0, low=0.0, high=0.0, verdict=stats.NOT_SHOWN, same=True),
}


@pytest.mark.parametrize("branch", list(BRANCHES))
def test_no_sentence_of_the_answer_starts_with_a_number(branch):
    text = _sentence(**BRANCHES[branch])
    assert text.startswith("Toward or away from a fair seat share (1/P = 25.0%)? "), text
    stray = re.search(r"[.)]\s+[−+-]?\d", text)
    assert stray is None, f"{branch}: {text[max(0, stray.start() - 60):stray.end() + 20]!r}"
    assert "The table's two Balance indices" in text, text


def test_the_neither_branch_reads_as_the_review_run_should():
    text = _sentence(**BRANCHES["neither"])
    assert "Neither by a change that matters" in text
    assert "each at level 1 − 0.05/12). The table's two Balance indices" in text, text


def test_the_cannot_tell_branch_still_says_which_way_the_clear_seats_moved():
    text = _sentence(**BRANCHES["cannot tell, paired"])
    assert "These games cannot tell" in text
    assert ("each at level 1 − 0.05/12). The one seat that moved clearly, Seat 3, moved toward the "
            "fair 25.0%.") in text, text
