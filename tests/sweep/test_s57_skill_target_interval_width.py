"""A design target's line never prints an interval with no width (session 57 review #5: `balance
report runs/sg200 runs/sg-sim --target role=Seigneur:25%:5` said "missed in sg200 (0.4%, 0.4–0.4,
below the band)" for a share of about 0.40% (0.37-0.43%); the tables print it "0.40% (0.37–0.43)").
The decimals follow the tables' rule (:func:`analysis.skill_words.ci_digits`, as
:func:`reports.text.pct_ci`), and at least the band edges' rule as before."""

from __future__ import annotations

from analysis.skill_target import interval_text
from reports.text import pct_ci


def _row(share, low, high, band=(0.20, 0.30)):
    return {"win_share": share, "low": low, "high": high, "band_low": band[0], "band_high": band[1]}


def test_a_rare_share_prints_an_interval_with_width():
    text = interval_text(_row(0.0040, 0.0037, 0.0043))
    share, ends = text.split(", ")
    low, high = ends.split("–")
    assert low != high, text
    assert text == "0.40%, 0.37–0.43"
    # the same decimals as the table's pct_ci
    assert pct_ci(0.0040, 0.0037, 0.0043) == "0.40% (0.37–0.43)"


def test_the_band_edge_rule_still_applies():
    # an end at 26.549% beside a 26.5% edge reads outside the band, as it is
    assert interval_text(_row(0.2967, 0.26549, 0.3299, band=(0.265, 0.40))) == "29.67%, 26.55–32.99"
    assert interval_text(_row(0.297, 0.262, 0.330)) == "29.7%, 26.2–33.0"
