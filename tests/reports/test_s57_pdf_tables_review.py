"""The PDF's tables as a designer reads them (session 57 review, on the rendered PDFs):

1. A table cut into parts of its columns keeps each verdict in the part of its change and interval
   (reports.pdf._Layout.column_groups): the before/after's "All 66 compared metrics" printed the
   numbers in "part 1 of 2" and Family, p and Verdict in "part 2 of 2", so every verdict had to be
   matched to its row by eye. The columns between a change and its verdict that are not read with
   them (Family, p) follow the verdict, in a part of their own when the table is cut.
2. A column empty in every row is left out and a column of one value in every row is said once in
   the caption (reports.text.said_once): the one-parameter sweep's "Each value against the base
   value" was cut in two only to show an always-empty `repeats` column and a constant `interval of`
   ("the value-by-value family") beside parameter, from, to and metric repeated.
3. A table's rows never leave its last row alone on the next page: the base report's "Tile types"
   left Palais alone on page 10 (of 13), under "(continued)" and a repeated header.

Built as those tables (no game is played); the PDF's own drawing is called and recorded."""

from __future__ import annotations

import html
import re

import polars as pl

from reports.pdf import BOTTOM, PAGE_H, TOP, PdfDocument, _Layout
from tests.reports.test_s56_pdf_split_keys import _sweep_table
from tests.reports.test_s57_pdf_split_keeps_change_with_interval import _drawn
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

# rows of the Middle-Ages before/after (100,000 games each, setup.start_coins=[4,0,0,0]), as its
# table "All 66 compared metrics" printed them
AB_ROWS = [
    ("Lead changes from turn to turn over the 16 turns", "lead changes", "3.02", "3.09", "+0.07 lead changes",
     "+0.05 to +0.08 lead changes", "60 other tested metrics", "p < 0.001",
     "clear and large enough to matter (all 60 other tested metrics at once: +0.034 to +0.094 lead changes)",
     "unpaired"),
    ("Leader at the end of turn 1 wins", "%, change in pp", "23.83%", "27.78%", "+3.95 pp", "+3.48 to +4.40 pp",
     "60 other tested metrics", "p < 0.001",
     "clear and large enough to matter (all 60 other tested metrics at once: +3.158 to +4.726 pp)", "unpaired"),
    ("Seat 2 win share", "%, change in pp", "24.717%", "22.910%", "−1.807 pp", "−2.073 to −1.541 pp",
     "4 seat win shares", "p < 0.001",
     "clear and large enough to matter (all 4 seat win shares at once: −2.145 to −1.469 pp)", "paired"),
    ("Seat 3 win share", "%, change in pp", "30.026%", "30.944%", "+0.918 pp", "+0.630 to +1.206 pp",
     "4 seat win shares", "p < 0.001", "clear, may matter (all 4 seat win shares at once: +0.551 to +1.285 pp)",
     "paired"),
    ("Seat 4 mean final score", "coins", "111.99", "110.86", "−1.13 coins", "−1.29 to −0.97 coins",
     "60 other tested metrics", "p < 0.001",
     "clear but small (all 60 other tested metrics at once: −1.399 to −0.863 coins)", "paired"),
    ("Aide à la reconstruction: mean coin gain per player", "coins", "5.35", "5.79", "+0.44 coins",
     "+0.37 to +0.50 coins", "60 other tested metrics", "p < 0.001",
     "clear but small (all 60 other tested metrics at once: +0.331 to +0.540 coins)", "unpaired"),
    ("Leader at the end of turn 3 wins", "%, change in pp", "34.54%", "33.90%", "−0.64 pp", "−1.08 to −0.20 pp",
     "60 other tested metrics", "p = 0.141",
     "within noise (its 95% interval excludes 0, but not after Holm's correction over the 60 other tested "
     "metrics)", "unpaired"),
    ("Leader at the end of turn 15 wins", "%, change in pp", "73.97%", "73.62%", "−0.35 pp", "−0.74 to +0.04 pp",
     "60 other tested metrics", "p = 1.000", "within noise", "unpaired"),
    ("Aide à la reconstruction: biggest gainer wins", "%, change in pp", "18.26%", "17.87%", "−0.39 pp",
     "−1.19 to +0.41 pp", "60 other tested metrics", "p = 1.000", "within noise", "unpaired"),
]
BALANCE_ROWS = [
    ("Win-share balance (1 − largest seat gap in win share)", "index (1 = equal seats)", "0.902", "0.885", "−0.017",
     "none for the change; each run's, from simultaneous intervals over its seat gaps: 0.897–0.908 before, "
     "0.879–0.891 after (the seat rows are tested)", "not tested", "",
     "not tested (an index of the seats: see their win shares)", "unpaired"),
    ("Balance (Ludii: 1 − largest seat gap in place credit)", "index (1 = equal seats)", "0.915", "0.902", "−0.013",
     "none for the change; each run's, from simultaneous intervals over its seat gaps: 0.910–0.919 before, "
     "0.898–0.907 after (the seat rows are tested)", "not tested", "",
     "not tested (an index of the seats: see their win shares)", "unpaired"),
]
AB_COLUMNS = ["Metric", "Unit", "Before", "After", "Change", "95% interval of the change",
              "Family (adjusted together)", "p (Holm-adjusted)", "Verdict", "Compared"]


def _ab_table(n: int = 66) -> pl.DataFrame:
    rows = [(f"{r[0]} ({k})", *r[1:]) for k in range(n) for r in [AB_ROWS[k % len(AB_ROWS)]]]
    rows[-2:] = BALANCE_ROWS
    return pl.DataFrame(rows, schema=AB_COLUMNS, orient="row")


def test_a_verdict_is_printed_in_the_part_of_its_change_and_interval(monkeypatch):
    table = _ab_table()
    drawn = _drawn(monkeypatch, "All 66 compared metrics", table)
    assert len(drawn) >= 2, "the case this test is about: a table printed in parts"
    holding = [(caption, df.columns) for caption, df in drawn if "Change" in df.columns]
    assert holding
    for caption, cols in holding:
        assert {"95% interval of the change", "Verdict", "Before", "After"} <= set(cols), (caption, cols)
    # every column printed once per block of rows, each part with the metric named, every row once
    n = int(drawn[0][0].split("part 1 of ", 1)[1].split(":")[0])
    names = []
    for b in range(0, len(drawn), n):
        block = drawn[b:b + n]
        assert sorted(c for _, df in block for c in df.columns[1:]) == sorted(AB_COLUMNS[1:])
        assert all(df["Metric"].to_list() == block[0][1]["Metric"].to_list() for _, df in block)
        names += block[0][1]["Metric"].to_list()
    assert names == table["Metric"].to_list()


def test_the_columns_read_with_a_change_are_one_group_with_its_verdict():
    groups = _Layout.column_groups(_ab_table(5))
    assert ["Before", "After", "Change", "95% interval of the change", "Verdict"] in groups, groups
    sweep = _Layout.column_groups(_sweep_table())
    assert ["from", "to", "change", "low", "high", "unit", "verdict"] in sweep, sweep


def _one_parameter_sweep(rows: int = 28) -> pl.DataFrame:
    """"Each value against the base value" of `balance sweep --vary 'setup.start_coins[0]=0..4'`:
    one parameter, its base value 0 in `from`, `others at` and `repeats` empty, one family."""
    t = _sweep_table().filter(pl.col("parameter") == "income.palais.base").head(rows)
    return t.with_columns(pl.lit("setup.start_coins[0] (seat 1's)").alias("parameter"), pl.lit("0").alias("from"),
                          pl.lit("").alias("others at"))


def test_an_empty_column_is_left_out_and_a_constant_one_said_once_in_the_caption(monkeypatch):
    table = _one_parameter_sweep()
    drawn = _drawn(monkeypatch, "Each value against the base value", table)
    for caption, df in drawn:
        for gone in ("repeats", "others at", "interval of", "parameter", "from"):
            assert gone not in df.columns, (caption, df.columns)
    caption = drawn[0][0]
    for said in ("'parameter': setup.start_coins[0] (seat 1's)", "'from': 0",
                 "'interval of': the value-by-value family", "'others at', 'repeats'"):
        assert said in caption, caption
    # nothing else dropped: every other column and row is printed
    assert sorted({c for _, df in drawn for c in df.columns}) == sorted(
        ["to", "metric", "change", "low", "high", "unit", "verdict"])
    assert sum(df.height for _, df in drawn if "verdict" in df.columns) == table.height


def test_a_column_that_varies_stays_in_the_table(monkeypatch):
    """"Every two values" of a grid: the first-vs-last pair's rows say another family, so `interval
    of` is a column there; a table of two rows keeps its columns (nothing is "every row" in it)."""
    table = _sweep_table(every_two=True)
    drawn = _drawn(monkeypatch, "Every two values", table)
    assert any("interval of" in df.columns for _, df in drawn)
    assert any("parameter" in df.columns for _, df in drawn)
    two = _drawn(monkeypatch, "Runs", pl.DataFrame({"Run": ["base", "seat1coins"], "Games": [100_000, 100_000]}))
    assert two[0][1].columns == ["Run", "Games"] and two[0][0] == "Runs"


def test_the_sweep_page_says_a_constant_column_once_above_its_table():
    from reports.sections import Section
    from reports.sweep import _section_html

    page = _section_html(Section("values", "Each value against the base value", "",
                                 tables=[("Each value against the base value", _one_parameter_sweep())]), {}, {})
    heads = re.findall(r"<th(?: [^>]*)?>(.*?)</th>", page)
    assert "repeats" not in heads and "interval of" not in heads and "parameter" not in heads, heads
    assert {"to", "metric", "change", "low", "high", "unit", "verdict"} <= set(heads), heads
    assert "'interval of': the value-by-value family" in html.unescape(page)


def _rows_by_page(monkeypatch, table: pl.DataFrame, room: float) -> list[int]:
    """The page each row of ``table`` is drawn on when ``room`` inches are left below the cursor."""
    doc = _Layout(PdfDocument("t"), "t")
    doc.new_page()
    doc.y = BOTTOM + room
    names = set(table[table.columns[0]].to_list())
    seen: dict[str, int] = {}
    text_at = _Layout.text_at

    def record(self, x, y, text, *a, **kw):
        if text in names and text not in seen:
            seen[text] = self.page_no
        return text_at(self, x, y, text, *a, **kw)

    monkeypatch.setattr(_Layout, "text_at", record)
    doc.add_table("Tile types (widest range of win share first)", table)
    return [seen[n] for n in table[table.columns[0]].to_list()]


def _tile_table() -> pl.DataFrame:
    """Like the base report's "Tile types": 7 rows of three lines."""
    tiles = ["Caserne", "Moulin", "Rempart", "Champs", "Village", "Marché", "Palais"]
    return pl.DataFrame({
        "Tile type": tiles, "Mean tiles held": ["1.65"] * 7, "Winners' mean tiles": ["2.36"] * 7,
        "Lowest win share (at tiles)": ["19.1% (18.7–19.5) at 2"] * 7,
        "Highest win share (at tiles)": ["80.9% (79.8–81.9) at 7"] * 7, "Range (pp)": ["61.8"] * 7,
        "Straight line: win share per extra tile (pp, 95% interval clustered by game)":
            ["+4.7 pp (+4.6 to +4.8 pp)"] * 7,
        "Does the line fit?": ["no, not linear (R² 0.60)"] * 7})


def test_a_table_never_leaves_its_last_row_alone_on_the_next_page(monkeypatch):
    table = _tile_table()
    full = _rows_by_page(monkeypatch, table, PAGE_H - TOP - BOTTOM)
    assert set(full) == {1}
    # every room from "three rows fit" to "all but the last fit": never one row alone on page 2
    cases = 0
    for k in range(60):
        room = 1.0 + k * 0.05
        pages = _rows_by_page(monkeypatch, table, room)
        if pages[0] == 1 and pages[-1] == 2:
            cases += 1
            assert pages.count(2) >= 2, (room, pages)
    assert cases, "the case this test is about: a table that runs onto the next page"


def test_the_part_with_the_change_and_its_verdict_is_printed_first(monkeypatch):
    """A table cut into parts prints first the part that holds its result (a change with its
    interval and verdict), then the others: the before/after's "All 66 compared metrics" printed
    "part 1 of 2: Unit … Compared" (Unit, Family, p, Compared) before "part 2 of 2: Before …
    Verdict", because Unit stands first in the table (seen on the rendered PDF, session 57)."""
    drawn = _drawn(monkeypatch, "All 66 compared metrics", _ab_table())
    assert len(drawn) >= 2, "the case this test is about: a table printed in parts"
    first = drawn[0]
    assert "part 1 of" in first[0] and "Change" in first[1].columns and "Verdict" in first[1].columns, \
        (first[0], first[1].columns)
