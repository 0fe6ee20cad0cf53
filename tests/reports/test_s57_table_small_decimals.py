"""A table's number rounded to four decimals prints as written, never in scientific notation
beside its row's other numbers (session 57, helper-203's note on a grid sweep's PDF: "Each value
against the base value" printed the event swing as "0.2498  1.00e-04  0.4995", a clear change whose
low end needed four decimals to stay off 0, :func:`reports.sweep._verdict_places`)."""

from __future__ import annotations

import polars as pl

from reports.sweep import effects_table
from reports.text import cell_text


def test_a_four_decimal_number_prints_as_written():
    assert cell_text(0.0001) == "0.0001"
    assert cell_text(-0.0003) == "-0.0003"
    assert cell_text(0.0012) == "0.0012"
    # what needs more than four decimals keeps the scientific form (a p-value, a rare share)
    assert cell_text(0.000123) == "1.23e-04"
    assert cell_text(2e-7) == "2.00e-07"
    assert cell_text(0.0) == "0"


def test_an_effect_row_prints_its_three_numbers_in_one_notation():
    row = {"parameter": "income.palais.base", "from": "2", "to": "5", "at": "", "numeric": True,
           "rising": True, "metric": "event_swing", "label": "the event swing", "unit": "coins",
           "share": False, "smallest": 2.0, "delta": 0.24981, "low": 0.000104, "high": 0.49952,
           "verdict": "clear but small"}
    t = effects_table(pl.DataFrame([row]))
    printed = [cell_text(t[c][0]) for c in ("change", "low", "high")]
    assert printed == ["0.2498", "0.0001", "0.4995"], printed
