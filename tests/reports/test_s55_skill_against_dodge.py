"""The ``balance skill --against`` figure sets the seats side by side at each budget, as the budget
figure does (session 55 review: every seat's interval of the change was drawn on its budget's tick,
Middle-Ages seats 2 and 4 at budget 0 covering each other from −20 to +21 pp, so no interval could be
read). Each seat's point now sits a small step beside its budget's tick, in seat order, nearer that
tick than any other, with one legend entry per seat."""

from __future__ import annotations

import numpy as np
import polars as pl

from reports.skill import against_figure, seat_offsets


def _cmp(seats: int = 4, budgets=(0, 4, 16)) -> pl.DataFrame:
    rows = [("4p 4×balanced", seats, b, s, 0.01 * (s - 1), -0.2, 0.2)
            for b in budgets for s in range(seats)]
    return pl.DataFrame(rows, schema=["cell", "players", "budget", "seat", "change", "change_low",
                                      "change_high"], orient="row")


def _series(ax):
    """Per seat's series (errorbar containers in seat order): its points' x."""
    return [np.asarray(c.lines[0].get_xdata(), float) for c in ax.containers]


def test_each_seats_interval_of_the_change_sits_beside_its_budgets_tick():
    for seats, budgets in ((4, (0, 4, 16)), (3, (0, 64)), (5, (0, 4))):
        (ax,) = against_figure(_cmp(seats, budgets), ("player",) * seats, 0.01).axes
        ticks = np.asarray(ax.get_xticks(), float)
        series = _series(ax)
        assert len(series) == seats
        for k, tick in enumerate(ticks):
            xs = [x[k] for x in series]
            assert len(set(xs)) == seats, xs                       # no two seats on one x
            assert xs == sorted(xs), xs                            # seat 1 leftmost
            assert all(np.argmin(np.abs(ticks - x)) == k for x in xs)   # read as this budget's
            # the same steps as the budget figure's, so the two figures of a page read alike
            assert np.allclose(np.asarray(xs) - tick, seat_offsets(seats)), xs
        # the bars (the intervals) drawn at the points' x, not on the tick
        for c, x in zip(ax.containers, series):
            segments = c.lines[2][0].get_segments()
            assert np.allclose([seg[0][0] for seg in segments], x)
        labels = ax.get_legend_handles_labels()[1]
        assert [x for x in labels if x.startswith("Seat")] == [f"Seat {s}" for s in range(1, seats + 1)]
