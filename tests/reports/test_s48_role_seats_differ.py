"""The role-seat table's "Seats equal?" says when the chi-square finds the seats differ but no
seat's own test shows which (review s48 Seigneurial #5: "no, they differ (p = 0.036)" beside every
seat "within noise" read as a contradiction)."""

from __future__ import annotations

import polars as pl

from analysis import stats
from reports.sections import role_seat_rows


def _table(verdicts, p_adj):
    n = len(verdicts)
    s = pl.DataFrame({
        "role": ["seigneur"] + ["censitaire"] * (n - 1),
        "role_label": ["Seigneur"] + ["Censitaire"] * (n - 1),
        "seat_label": [f"Seat {i + 1}" for i in range(n)], "games": [1000] * n,
        "win_share": [0.1] + [0.2] * (n - 1), "ci_low": [0.08] + [0.18] * (n - 1),
        "ci_high": [0.12] + [0.22] * (n - 1), "share_of_role": [1.0] + [1 / (n - 1)] * (n - 1),
        "share_low": [1.0] + [0.2] * (n - 1), "share_high": [1.0] + [0.3] * (n - 1),
        "equal_share": [1.0] + [1 / (n - 1)] * (n - 1), "seat_p_value": [float("nan")] + [0.2] * (n - 1),
        "verdict": verdicts, "smallest": [0.01] * n,
        "p_value": [float("nan")] + [0.036] * (n - 1), "chi2_p_adjusted": [float("nan")] + [p_adj] * (n - 1)})
    return role_seat_rows({"role_seats": s})


def test_differ_without_a_seat_shown_says_so():
    df = _table([None, stats.NOT_SHOWN, stats.NOT_SHOWN, stats.NOT_SHOWN], 0.036)
    said = [x for x in df[df.columns[-1]].to_list() if x]
    assert said == ["no, they differ (p = 0.036), though no seat's own test (the verdicts beside, Holm) "
                    "shows which"]


def test_differ_with_a_seat_shown_is_plain():
    df = _table([None, stats.MAY_MATTER, stats.NOT_SHOWN, stats.NOT_SHOWN], 0.036)
    assert [x for x in df[df.columns[-1]].to_list() if x] == ["no, they differ (p = 0.036)"]
