"""A verdict whose interval over its family is shown cut at 0 says so beside it (session 57, the
before/after's "All 66 compared metrics": "Métiers qualifiés: biggest gainer wins … clear, may
matter (all 60 other tested metrics at once: −4.390 to 0.000 pp)" — Holm's step-down showed the
sign, the wider Bonferroni interval still reached +0.042 pp and was cut at 0, and nothing on the
row said why a "clear" change's interval ends at 0)."""

from __future__ import annotations

from reports.text import verdict_with_range


def _row(size_high: float) -> dict:
    return {"metric": "card_gainer_wins", "key": "Métiers qualifiés", "kind": "proportion",
            "label": "Métiers qualifiés: biggest gainer wins", "diff": -0.021745,
            "diff_low": -0.0347, "diff_high": -0.0087, "size_low": -0.0438951, "size_high": size_high,
            "significant": True, "verdict": "clear, may matter", "smallest": 0.01,
            "family": "other metrics", "family_size": 60, "p_adjusted": 0.0448,
            "base": 0.3277, "variant": 0.3059}


def test_a_cut_interval_says_it_is_cut():
    text = verdict_with_range(_row(0.00042325), "pp", 61, say_cut=True)
    assert "to 0.000" in text or "to 0.00" in text, text
    assert "cut at 0" in text and "Holm" in text, text


def test_an_interval_that_excludes_0_is_not_said_cut():
    text = verdict_with_range(_row(-0.0031), "pp", 61, say_cut=True)
    assert "cut at 0" not in text, text


def test_the_before_after_table_says_it_on_the_row():
    """The table "All … compared metrics" (reports.sections.comparison_rows) is where the row
    stood alone: its Verdict cell says the cut."""
    import polars as pl

    from reports.sections import comparison_rows
    from tests.reports.test_review_o_before_after import _comparison, _seat

    rows = [_seat(4, 0.250, 0.2446, 0.0032, (-0.0108, 0.00005)), _seat(2, 0.247, 0.2387, 0.003, (-0.0138, -0.0028))]
    table = comparison_rows(_comparison(*rows), "coins")
    cells = {r["key"]: table.filter(pl.col("Metric") == r["label"])["Verdict"][0] for r in rows}
    assert "cut at 0 where Holm's correction shows the sign" in cells["Seat 4"], cells
    assert "cut at 0" not in cells["Seat 2"], cells
