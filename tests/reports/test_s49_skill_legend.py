"""The skill figure's legend covers no point (review s49 skill #3: placed by matplotlib inside the
left panel, it hid the Seigneur's budget-0 point, 0.50% (0.01-2.78), his only share above 0).
Measured on the drawn figure: every marker's centre against every legend's box, in pixels."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import polars as pl  # noqa: E402

from analysis import skill as K  # noqa: E402
from reports.skill import budget_figure  # noqa: E402

# the reviewer's Seigneurial table (balance skill --game seigneurial --players 4 --budgets 0,4,16
# --games 200 --seed 3): (part, budget, seat, win share, interval)
ROWS = [("all", 0, 0, 0.005, 0.0001, 0.0278), ("all", 0, 1, 0.33, 0.2686, 0.3978),
        ("all", 0, 2, 0.295, 0.2361, 0.3616), ("all", 0, 3, 0.37, 0.3061, 0.4388),
        ("all", 4, 0, 0.0, 0.0, 0.0188), ("all", 4, 1, 0.28, 0.2224, 0.3459),
        ("all", 4, 2, 0.385, 0.3203, 0.454), ("all", 4, 3, 0.335, 0.2732, 0.403),
        ("all", 16, 0, 0.0, 0.0, 0.0188), ("all", 16, 1, 0.345, 0.2826, 0.4132),
        ("all", 16, 2, 0.29, 0.2315, 0.3564), ("all", 16, 3, 0.365, 0.3014, 0.4337),
        ("one", 0, 0, 0.0, 0.0, 0.0713), ("one", 0, 1, 0.28, 0.1747, 0.4167),
        ("one", 0, 2, 0.2, 0.1124, 0.3304), ("one", 0, 3, 0.52, 0.3851, 0.652),
        ("one", 4, 0, 0.0, 0.0, 0.0713), ("one", 4, 1, 0.52, 0.3851, 0.652),
        ("one", 4, 2, 0.38, 0.2586, 0.5185), ("one", 4, 3, 0.58, 0.4423, 0.7062),
        ("one", 16, 0, 0.0, 0.0, 0.0713), ("one", 16, 1, 0.6, 0.4618, 0.7239),
        ("one", 16, 2, 0.48, 0.348, 0.6149), ("one", 16, 3, 0.7, 0.5625, 0.809)]


def _table() -> pl.DataFrame:
    return pl.DataFrame([("4p standard", 4, b, part, s, "seigneur" if s == 0 else "censitaire",
                          "standard", 200 if part == "all" else 50, w, lo, hi,
                          *(None,) * len(K.BALANCE_COLUMNS), None, None, None, None)
                         for part, b, s, w, lo, hi in ROWS], schema=K.SCHEMA, orient="row")


def test_no_marker_lies_under_a_legend():
    fig = budget_figure(_table(), ("seigneur",) + ("censitaire",) * 3, None)
    fig.canvas.draw()
    legends = [*fig.legends, *(a.get_legend() for a in fig.axes if a.get_legend() is not None)]
    assert legends
    boxes = [lg.get_window_extent() for lg in legends]
    under = []
    for ax in fig.axes:
        for line in ax.lines:
            if line.get_marker() in (None, "", "None"):
                continue
            for x, y in zip(line.get_xdata(), line.get_ydata()):
                px, py = ax.transData.transform((x, y))
                under += [(line.get_label(), x, y) for b in boxes if b.contains(px, py)]
    assert not under, under
    labels = [t.get_text() for lg in legends for t in lg.get_texts()]
    assert any("Seigneur" in t for t in labels)
