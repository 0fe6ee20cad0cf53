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


def test_seats_equal_is_answered_in_words_before_its_p_value():
    """The role table's "Seats equal?" column held "p < 0.001" or "p = 0.700" alone (designer
    review 44 #8): it answers its question, one chi-square per role on the role's first row."""
    import polars as pl

    from reports.sections import role_seat_rows

    nan = float("nan")
    s = pl.DataFrame({
        "role": ["seigneur", "censitaire", "censitaire", "censitaire"],
        "role_label": ["Seigneur", "Censitaire", "Censitaire", "Censitaire"],
        "seat_label": ["Seat 1", "Seat 2", "Seat 3", "Seat 4"], "games": [1000] * 4,
        "win_share": [0.01, 0.34, 0.33, 0.32], "ci_low": [0.005, 0.31, 0.30, 0.29],
        "ci_high": [0.02, 0.37, 0.36, 0.35], "share_of_role": [1.0, 0.343, 0.333, 0.323],
        "share_low": [nan, 0.31, 0.30, 0.29], "share_high": [nan, 0.37, 0.36, 0.35],
        "equal_share": [1.0, 1 / 3, 1 / 3, 1 / 3], "p_value": [nan, 0.0004, 0.0004, 0.0004],
        "chi2_p_adjusted": [nan, 0.0004, 0.0004, 0.0004]})
    col = role_seat_rows({"role_seats": s})["Seats equal? (chi-square; one test)"].to_list()
    assert col == ["", "no, they differ (p < 0.001)", "", ""]
    same = s.with_columns(pl.when(pl.col("role") == "censitaire").then(0.7).otherwise(nan).alias("chi2_p_adjusted"))
    assert role_seat_rows({"role_seats": same})["Seats equal? (chi-square; one test)"].to_list() == \
        ["", "no difference shown (p = 0.700)", "", ""]
