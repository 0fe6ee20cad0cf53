"""The scores figure's caption names a seat once (review s61 fix 266 #3): where the seat just
below the top is also the bottom seat (2 or 3 seats), the caption read "…, ahead of Seat 3 (100.00)
by 5.00 coins: …; Seat 3 ends with the fewest (100.00)". It now says "ahead of Seat 3, which ends
with the fewest (100.00), by 5.00 coins". Made-up tables: the seats' means and their paired
differences (as :func:`analysis.seats.score_pairs` gives them)."""

from __future__ import annotations

import polars as pl

from reports.sections import _score_caption


def _table(means: list[float], clear: set[tuple[int, int]]) -> dict:
    n = len(means)
    seats = pl.DataFrame({"seat": list(range(n)), "seat_label": [f"Seat {i + 1}" for i in range(n)],
                          "mean_score": means})
    rows = [{"seat_a": a, "seat_b": b, "diff": means[a] - means[b], "significant": (a, b) in clear,
             "unit": "deal", "smallest": 2.0,
             "verdict": "clear and large enough to matter" if (a, b) in clear else "not shown"}
            for a in range(n) for b in range(a + 1, n)]
    return {"seats": seats, "score_pairs": pl.DataFrame(rows)}


def test_two_seats_name_the_bottom_seat_once():
    caption = _score_caption(_table([105.0, 100.0], {(0, 1)}), "coins")
    assert caption.count("Seat 2") == 1, caption
    assert caption.startswith("Seat 1 ends with the most coins on average (105.00), ahead of Seat 2, which "
                              "ends with the fewest (100.00), by 5.00 coins: clear and large enough to "
                              "matter (at least 2 coins)."), caption


def test_the_bottom_seat_just_below_the_top_and_a_seat_within_noise_of_both():
    # Seat 2 within noise of Seat 1 and of Seat 3; Seat 1 clearly ahead of Seat 3
    caption = _score_caption(_table([105.0, 102.5, 100.0], {(0, 2)}), "coins")
    assert caption.count("Seat 3") == 1, caption
    assert caption.startswith("Seat 1 ends with the most coins on average (105.00), Seat 2 within noise of "
                              "it (102.50); Seat 1 is ahead of Seat 3, which ends with the fewest (100.00), by 5.00 "
                              "coins: clear and large enough to matter (at least 2 coins); Seat 2 is "
                              "within noise of both."), caption


def test_a_bottom_seat_below_the_one_just_below_the_top_is_still_named_apart():
    # Seat 2 just below the top, Seat 3 the bottom: two seats, each named once
    caption = _score_caption(_table([105.0, 102.0, 99.0], {(0, 1), (0, 2), (1, 2)}), "coins")
    assert "ahead of Seat 2 (102.00) by 3.00 coins" in caption, caption
    assert "; Seat 3 ends with the fewest (99.00)." in caption, caption
    assert caption.count("Seat 2") == 1 and caption.count("Seat 3") == 1, caption


def test_two_seats_have_one_pair_and_no_correction_over_it():
    # ("with Holm's correction over the 1 pairs of seats": one difference, nothing to correct over)
    caption = _score_caption(_table([105.0, 100.0], {(0, 1)}), "coins")
    assert caption.endswith(" The difference is paired deal by deal."), caption
    assert "1 pairs" not in caption and "Holm" not in caption, caption


def test_the_lead_after_a_seat_within_noise_of_the_top_is_the_top_seats():
    # review s61: "Seat 2 … (105.18), Seat 3 within noise of it (104.77), ahead of Seat 1 (104.52) by
    # 0.66 coins" read as Seat 3 ahead of Seat 1 by 0.66 (it is 0.25 ahead): the top seat is named
    means = [104.52, 105.18, 104.77, 103.54]
    caption = _score_caption(_table(means, {(0, 1), (0, 3), (1, 3), (2, 3)}), "coins")
    assert "Seat 3 within noise of it (104.77); Seat 2 is ahead of Seat 1 (104.52) by 0.66 coins" in caption, caption
    assert "(104.77), ahead of" not in caption, caption
