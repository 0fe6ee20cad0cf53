"""The score figure of five seats draws every seat in its own line pattern, and a bin on the axis'
last edge whole (review s48 Seigneurial #6: Seat 5 repeated Seat 1's solid line in a close colour;
the 100% bin, where every winner sits, lost half its right side)."""

from __future__ import annotations

import polars as pl

from reports.figures import common as F


def test_five_seats_five_patterns_and_unclipped_bins():
    rows = [{"group": f"Seat {s}", "score": v, "players": 10, "share": 0.1}
            for s in range(1, 6) for v in (0, 50, 100)]
    fig = F.scores({"scores_by_seat": pl.DataFrame(rows)}, unit="% of own goal")
    ax = fig.axes[0]
    lines = ax.patches
    assert len(lines) == 5
    styles = [tuple(p.get_linestyle()[1] or ()) if isinstance(p.get_linestyle(), tuple) else p.get_linestyle()
              for p in lines]
    assert len({str(x) for x in styles}) == 5, styles
    assert all(not p.get_clip_on() for p in lines)
