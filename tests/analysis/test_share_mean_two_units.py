"""A share's mean over two units (a ladder or panel of 2 deals) has an interval, not an error.

``analysis.stats.share_mean_wilson`` turned t(1)'s critical value into a normal level that rounds
to 1.0 in a float and raised StatisticsError at 2 units, at any level (`balance ladder --games 8`
crashed). Where t(n − 1) is that wide the interval is the whole range, as the t interval clipped to
[0, 1] is; checked here against scipy's t."""

from __future__ import annotations

import math

import pytest
from scipy import stats as sps

from analysis.stats import share_mean_wilson


@pytest.mark.parametrize("level", [0.95, 0.99, 0.999])
def test_two_units_give_the_clipped_t_interval(level):
    m, sd, n = 0.3, 0.1, 2
    half = sps.t.ppf(1 - (1 - level) / 2, n - 1) * sd / math.sqrt(n)
    expected = (max(m - half, 0.0), min(m + half, 1.0))
    assert expected == (0.0, 1.0)                       # t(1) is that wide here
    low, high = share_mean_wilson(m, sd, n, level)
    assert (float(low), float(high)) == expected


def test_three_units_still_read_wilson_inside_the_range():
    low, high = share_mean_wilson(0.3, 0.05, 3, 0.95)
    assert 0.0 < float(low) < 0.3 < float(high) < 1.0
