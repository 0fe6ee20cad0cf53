"""A table's counts of games read as the runs' table writes them (review s50 PDF: the Seats and
Roles tables printed "100000" beside the Runs table's "100,000")."""

from __future__ import annotations

import polars as pl

from reports.html import _html_table
from reports.text import cell_text


def test_large_whole_numbers_get_thousands_separators():
    assert cell_text(100000) == "100,000" and cell_text(-20000) == "-20,000"
    assert cell_text(4998) == "4,998" and cell_text(999) == "999" and cell_text(3) == "3"
    assert cell_text(True) == "yes"
    page = _html_table(pl.DataFrame({"Seat": ["Seat 1"], "Games": [100000]}), "")
    assert "100,000" in page and "100000" not in page
