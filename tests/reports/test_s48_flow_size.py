"""The game flow's "the eventual winners hold clearly more coins than the runners-up, by at least
2 coins" reads the size on the intervals, never on the means alone (docs/analysis.md; review s48
MA #3: at turn 5 the means were 2.19 coins apart and the intervals 1.99)."""

from __future__ import annotations

import polars as pl

from reports.text import winners_ahead_from


def _flow(pairs: dict[int, tuple[float, float, float]]) -> pl.DataFrame:
    """turn → (winners' mean, runners-up's mean, half-width of both 95% intervals)."""
    rows = [(t, r, m, m - h, m + h) for t, (a, b, h) in pairs.items() for r, m in ((1, a), (2, b))]
    return pl.DataFrame(rows, schema=["turn", "rank", "mean_coins", "ci_low", "ci_high"], orient="row")


def test_a_lead_whose_intervals_are_closer_than_the_smallest_difference_is_not_sized_by_it():
    # turn 5: means 2.19 apart, intervals 2.19 - 2 x 0.1 = 1.99 apart; turn 6 on: 2.5 apart
    flow = _flow({4: (15.0, 14.0, 0.1), 5: (21.43, 19.24, 0.1), 6: (28.0, 25.3, 0.1),
                  7: (33.0, 30.0, 0.1)})
    assert winners_ahead_from(flow, 2.0) == 6
    assert winners_ahead_from(flow) == 4             # apart at all: from turn 4
    # the same means with intervals narrow enough: turn 5 counts
    narrow = _flow({4: (15.0, 14.0, 0.05), 5: (21.43, 19.24, 0.05), 6: (28.0, 25.3, 0.05),
                    7: (33.0, 30.0, 0.05)})
    assert winners_ahead_from(narrow, 2.0) == 5


def test_a_later_turn_under_the_smallest_difference_moves_the_start():
    flow = _flow({1: (10.0, 5.0, 0.1), 2: (12.0, 10.5, 0.1), 3: (20.0, 15.0, 0.1)})
    assert winners_ahead_from(flow, 2.0) == 3
    assert winners_ahead_from(_flow({1: (10.0, 9.9, 0.1)}), 2.0) is None
