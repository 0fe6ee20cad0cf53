"""An interval of a change whose two ends print alike reads as no interval at all (Fief review 45
#6: "+0.16 points (95% interval +0.16 to +0.16 points)" beside a verdict read on +0.155 to +0.162):
the table prints more decimals, up to its cap, until the ends differ."""

from __future__ import annotations

import math

from reports.text import metric_change


def _row(low, high, diff, metric="seat_mean_score", kind="mean", smallest=1.0):
    return {"metric": metric, "kind": kind, "smallest": smallest, "base": 0.13, "variant": 0.29,
            "diff": diff, "diff_low": low, "diff_high": high, "same_games": None}


def test_the_ends_of_a_narrow_interval_print_apart():
    change, interval = metric_change(_row(0.15521, 0.16177, 0.15849), "points")
    lo, _, hi = interval.removesuffix(" points").partition(" to ")
    assert lo != hi, interval
    assert float(lo.replace("+", "")) == round(0.15521, 3) and float(hi.replace("+", "")) == round(0.16177, 3)


def test_a_wide_interval_keeps_its_decimals():
    _, interval = metric_change(_row(-1.2123, -1.1861, -1.199), "points")
    assert interval == "−1.21 to −1.19 points"


def test_the_cap_holds_for_an_interval_of_almost_no_width():
    _, interval = metric_change(_row(0.1600001, 0.1600002, 0.16), "points")
    lo, _, hi = interval.removesuffix(" points").partition(" to ")
    assert len(lo.split(".")[1]) <= 5 and not math.isnan(float(lo.replace("+", "")))
