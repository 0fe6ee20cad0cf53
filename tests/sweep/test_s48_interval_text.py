"""A tune's share and interval never print as a point when they are not one (review s48 tune #8:
"the Seigneur side's win share 0.4% (0.4 to 0.4)")."""

from __future__ import annotations

from analysis.tune.targets import interval_text


def test_an_interval_gets_the_decimals_that_tell_its_ends_apart():
    assert interval_text(0.0041, 0.0037, 0.0044, [0.0, 0.5]) == "0.41% (0.37 to 0.44)"
    assert interval_text(0.0, 0.0, 0.00018, [0.0, 0.5]) == "0.00% (0.00 to 0.02)"
    assert interval_text(0.262, 0.255, 0.269, [0.2, 0.3]) == "26.2% (25.5 to 26.9)"   # as before
    assert interval_text(0.3, 0.3, 0.3, [0.2, 0.4]) == "30.0% (30.0 to 30.0)"          # a point
