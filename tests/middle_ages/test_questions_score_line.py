"""``balance questions`` (Middle-Ages) prints the event cards' effect on the seats' scores too: the
list by win share read "within noise" for every card while event_ablation.csv held clear coin
effects for 14 of 15 (Invasion barbare: −9.8 coins for seat 1 per game where drawn)."""

from __future__ import annotations

import polars as pl

from cli.questions import score_effects_line

LARGE, MAY, NOISE = "clear and large enough to matter", "clear, may matter", "within noise"


def _table(rows):
    return pl.DataFrame(rows, schema=["name", "seat", "score_when_drawn", "score_when_drawn_low",
                                      "score_when_drawn_high", "score_verdict_when_drawn"], orient="row")


def test_the_line_counts_the_cards_and_names_the_largest_at_their_seat():
    df = _table([("Peste", 0, -9.8, -12.4, -7.3, LARGE), ("Peste", 1, -8.3, -10.8, -5.8, LARGE),
                 ("Alliance", 3, 7.7, 6.4, 8.9, LARGE), ("Alliance", 0, 1.0, 0.2, 1.8, MAY),
                 ("Récolte", 2, 2.5, 0.9, 4.1, MAY), ("Récolte", 1, 0.3, -0.5, 1.1, NOISE),
                 ("Fête", 0, 3.1, 2.2, 4.0, LARGE)])
    said = score_effects_line(df, 2.0)
    # 3 of the 4 cards have a seat whose effect is clear and large enough to matter
    assert "3 of the 4 cards move some seat's score clearly and by at least that" in said, said
    # the largest first, each at its own seat of largest effect, one entry per card
    assert said.endswith("the largest: Peste -9.80 coins seat 1 (-12.40 to -7.30); Alliance +7.70 coins "
                         "seat 4 (+6.40 to +8.90); Fête +3.10 coins seat 1 (+2.20 to +4.00)."), said
    assert "Récolte" not in said


def test_no_card_moving_a_score_says_so():
    df = _table([("Peste", 0, 1.0, 0.2, 1.8, MAY), ("Alliance", 1, 0.1, -0.5, 0.7, NOISE)])
    assert "no card moves a seat's score clearly and by that much" in score_effects_line(df, 2.0)
    assert score_effects_line(df.drop("score_verdict_when_drawn"), 2.0) == ""
