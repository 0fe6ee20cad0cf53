"""The before/after figure's bars keep their whole label (review s46): a changed Objective card's
label names the old and the new requirement, and was cut at 58 characters, just after the arrow,
so the chart never said what the card became. Long labels now take two lines."""

from __future__ import annotations

import polars as pl

from reports.figures import common as F
from tests.reports.test_comparison_figure_order import _seats

CHANGED = ("Objective card #10 (grain ≥ 4, wood ≥ 4, fish ≥ 4 → grain ≥ 4, wood ≥ 4, fish ≥ 3): "
           "its holders' win share")
SLIGHTLY_LONG = "Objective card #6 (fish ≥ 6, wood ≥ 4): its holders' win share"


def _lower_labels(labels):
    n = len(labels)
    cmp = pl.DataFrame({"label": labels, "metric": [f"m{i}" for i in range(n)], "kind": ["proportion"] * n,
                        "diff": [0.04 - 0.01 * i for i in range(n)],
                        "diff_low": [0.03 - 0.01 * i for i in range(n)],
                        "diff_high": [0.05 - 0.01 * i for i in range(n)],
                        "z": [8.0 - i for i in range(n)], "significant": [True] * n})
    fig = F.comparison(cmp, _seats([0.25] * 4), _seats([0.25] * 4), "A", "B")
    lower = [ax for ax in fig.get_axes() if ax.get_title().startswith("The shares that changed most")][0]
    return [t.get_text() for t in lower.get_yticklabels()][::-1]


def test_a_changed_cards_label_is_whole_on_two_lines():
    shown = _lower_labels([CHANGED, SLIGHTLY_LONG, "Seat 2 win share"])
    assert [s.replace("\n", " ") for s in shown] == [CHANGED, SLIGHTLY_LONG, "Seat 2 win share"]
    assert shown[0].count("\n") == 1 and shown[1].count("\n") == 1 and "\n" not in shown[2]
    for text in shown:
        lines = text.split("\n")
        assert all(len(line) <= F.LABEL_LINE for line in lines)
        assert not any(line.endswith("≥") or line.startswith(("≥", "4")) for line in lines), lines
    # two lines of about equal length, not one word left alone on the second
    first, second = shown[1].split("\n")
    assert abs(len(first) - len(second)) < 12, shown[1]


def test_only_a_label_past_two_lines_is_cut():
    long = " ".join(["Objective card #10 (grain ≥ 4, wood ≥ 4, fish ≥ 4, gold ≥ 2 →"] * 3)
    shown = _lower_labels([long])[0]
    assert shown.count("\n") == 1 and shown.endswith("…")
