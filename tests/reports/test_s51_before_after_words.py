"""Review s51 (statistics): two sentences of the before/after page.

1. "cannot rule out a change that matters for 48 of the 62 other tested metrics" beside "the 60
   other tested metrics": the total counted the two Balance indices, shown but not tested.
2. A seat that swung clearly through the fair share (23.0% → 26.9%) "moved toward the fair 25.0%"
   because 1.9 < 2.0: a seat that crosses the fair share is said to cross it.
"""

from __future__ import annotations

import polars as pl

from analysis import stats
from reports.text import _left_open, _moved_from_fair


def _seats(rows):
    return pl.DataFrame([{"metric": "seat_win_share", "key": f"Seat {k + 1}", "label": f"Seat {k + 1} win share",
                          "significant": True, "base": b, "variant": v} for k, b, v in rows])


def test_a_seat_that_crosses_the_fair_share_is_said_to_cross_it():
    """Toward or away by the distance to fair, as before; a seat that crossed it says so (its
    before → after is printed just before) (a review of this change: "crossed" alone hid Seat 4's 25.2% → 19.8%, away from fair
    and now the largest gap)."""
    said = _moved_from_fair(_seats([(3, 0.230, 0.269)]), 0.25, "25.0%")
    assert said == "The one seat that moved clearly, Seat 4, moved toward the fair 25.0%, crossing it."
    mixed = _moved_from_fair(_seats([(0, 0.203, 0.283), (1, 0.247, 0.267), (2, 0.30, 0.28),
                                     (3, 0.2517, 0.198)]), 0.25, "25.0%")
    assert mixed == ("Of the seats that moved clearly, Seat 1 (crossing it) and Seat 3 moved toward the "
                     "fair 25.0% and Seat 2 (crossing it) and Seat 4 (crossing it) away from it.")
    # on one side of fair, as before: toward and away by the distance to fair
    same_side = _moved_from_fair(_seats([(2, 0.26, 0.28), (3, 0.230, 0.24)]), 0.25, "25.0%")
    assert same_side == "Of the seats that moved clearly, Seat 4 moved toward the fair 25.0% and Seat 3 away from it."


def test_the_metrics_left_open_are_counted_among_the_tested_ones_only():
    def row(metric, lo, hi, p):
        return {"metric": metric, "verdict": stats.NOT_SHOWN, "smallest": 0.01, "diff_low": lo,
                "diff_high": hi, "p_adjusted": p}
    cmp = pl.DataFrame([row("seat_win_share", -0.02, 0.02, 0.5),
                        row("mean_turns", -0.02, 0.02, 0.9), row("score_spread", -0.002, 0.003, 0.8),
                        row("balance_index", None, None, None), row("gini_index", None, None, None)],
                       schema_overrides={"diff_low": pl.Float64, "diff_high": pl.Float64, "p_adjusted": pl.Float64})
    assert _left_open(cmp, ("seat_win_share",)) == (1, 2)      # not (1, 4): the indices are untested


def test_a_seat_interval_end_prints_on_its_side_of_the_fair_share():
    """Review s51 (opinion acted on): a seat's own interval from 25.002% printed "(25.0–28.9)" beside
    a fair 25.0%, read as touching it; its ends now print on their side of the fair share."""
    from reports.text import seat_vs_fair

    r = {"win_share": 0.2695, "fair_share": 0.25, "diff": 0.0195, "ci_low": 0.25002, "ci_high": 0.28900}
    share, fair, gap = seat_vs_fair(r)
    assert share.startswith("26.950% (25.002") and fair == "25.000", share
    # an interval clear of the fair share at one decimal keeps one decimal
    r = {"win_share": 0.2695, "fair_share": 0.25, "diff": 0.0195, "ci_low": 0.2512, "ci_high": 0.2890}
    assert seat_vs_fair(r) == ("27.0% (25.1–28.9)", "25.0", "+2.0 pp")


def test_a_changed_start_is_said_in_the_units_words():
    """Review s51 (an opinion acted on): "start Seat 3 at 1 coins", "at 30 % of own goal"."""
    from reports.text import start_words

    assert start_words({"base_start": 0.0, "variant_start": 1.0}, "coins", "Seat 3") == \
        "the changed rules start Seat 3 at 1 coin instead of 0"
    assert start_words({"base_start": 0.0, "variant_start": 30.0}, "% of own goal") == \
        "the changed rules start it at 30% of own goal instead of 0"


def test_a_card_swing_change_agrees_with_the_two_shares_printed():
    """Review s51 (newcomer): "Seat 1 wins 18.1% (17.0–19.1) of the games where Alliance fires
    against 20.5% (19.9–21.2) where it does not, −2.5 pp" for 18.054%, 20.512% and −2.458 pp."""
    from reports.games.middle_ages import _swing_words

    r = {"seat_label": "Seat 1", "event_name": "Alliance", "win_share_with": 0.18054,
         "with_ci_low": 0.1703, "with_ci_high": 0.1912, "win_share_without": 0.20512,
         "without_ci_low": 0.1990, "without_ci_high": 0.2121, "diff": 0.18054 - 0.20512,
         "diff_low": -0.0363, "diff_high": -0.0129}
    said = _swing_words(r)
    assert said.startswith("Seat 1 wins 18.05% (17.03–19.12) of the games where Alliance fires against "
                           "20.51% (19.90–21.21) where it does not, −2.46 pp (−3.63 to −1.29 pp)"), said
