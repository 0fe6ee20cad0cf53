"""A number beside its interval, as the pages print it (designer review 44 #2): a mean never prints
outside its own interval, and a share none of a million games had does not print its interval as
the certainty 0.000–0.000."""

from __future__ import annotations

from reports.text import ci_digits, num_and_ci, num_ci, pct_ci
from simcore.stats import wilson_interval


def test_a_mean_takes_the_decimals_of_its_interval():
    # the End reasons table of a 1e6-game Seigneurial run printed "7.3 (7.33–7.34)"
    assert num_and_ci(7.3349, 7.331, 7.338, 1) == "7.33 (7.33–7.34)"
    assert num_and_ci(7.3, 7.1, 7.5, 1) == "7.3 (7.1–7.5)"                 # a wide one keeps 1
    assert num_and_ci(2.99812, 2.9979, 2.9983, 2) == "2.9981 (2.9979–2.9983)"
    for m, lo, hi, d in [(7.3349, 7.331, 7.338, 1), (0.91234, 0.9118, 0.9129, 3), (-3.801, -3.86, -3.75, 2)]:
        text = num_and_ci(m, lo, hi, d)
        digits = ci_digits(lo, hi, d)
        shown = float(text.split(" ")[0].replace("−", "-"))
        assert round(lo, digits) <= shown <= round(hi, digits), text
        assert text.endswith(f"({num_ci(lo, hi, d)})")


def test_a_share_of_no_game_in_a_million_does_not_print_a_zero_width_interval():
    lo, hi = wilson_interval(0.0, 1_000_000)
    assert 0 < hi < 5e-6                                       # (the bound is not 0)
    assert pct_ci(0.0, lo, hi) == "0.000% (0.000–<0.001)"
    assert pct_ci(0.0, 0.0, 0.0) == "0.0% (0.0–0.0)"           # no width to show: as before
    assert pct_ci(0.279, 0.276, 0.282) == "27.9% (27.6–28.2)"
