"""A table the PDF prints in parts of its columns keeps a change, its interval's two ends and their
unit in one part, with the two values compared (from → to): in the part that holds the change, or
repeated in every part as columns that tell the rows apart (reports.pdf._Layout.column_groups).

Why (session 57, a leftover of session 56's review A): a grid sweep's "Every two values" (5,000
games, income.palais.base=1..5 × setup.start_coins[0]=[0,2,4,6]) was cut between `low` and `high`:
part 1 "others at … low", part 2 "high … interval of", so a designer read a pair's change and the
low end of its interval in one table and the high end in the next. With one pair per parameter
(from → to no longer tells rows apart, so it is not repeated) the cut fell after `change`, the
values compared and the change in part 1 and the whole interval in part 2. Built as those tables
(tests.reports.test_s56_pdf_split_keys._sweep_table; no game is played); the PDF's own split is
called with its drawing recorded."""

from __future__ import annotations

import polars as pl

from reports.pdf import PdfDocument, _Layout
from tests.reports.test_s56_pdf_split_keys import _sweep_table, record_spans
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

TOGETHER = ["from", "to", "change", "low", "high", "unit"]


def _drawn(monkeypatch, caption: str, table: pl.DataFrame) -> list[tuple[str, pl.DataFrame]]:
    drawn: list[tuple[str, pl.DataFrame]] = []
    monkeypatch.setattr(_Layout, "_add_table", lambda self, caption, df, **_: drawn.append((caption, df)))
    doc = _Layout(PdfDocument("t"), "t")
    doc.new_page()
    doc.add_table(caption, table)
    return drawn


def _check_together(drawn):
    assert len(drawn) >= 2, "the case this test is about: a table printed in parts"
    holding = [(caption, df.columns) for caption, df in drawn if "change" in df.columns]
    assert holding, "no part holds the change"
    for caption, cols in holding:
        missing = [c for c in TOGETHER if c not in cols]
        assert not missing, f"{caption}: the change's part lacks {missing} (its columns: {cols})"
    for caption, df in drawn:
        if "change" not in df.columns:
            assert not {"low", "high", "unit"} & set(df.columns), (caption, df.columns)


def test_every_two_values_keeps_each_change_with_both_ends_of_its_interval(monkeypatch):
    _check_together(_drawn(monkeypatch, "Every two values", _sweep_table(every_two=True, repeats=True)))


def test_each_value_against_the_base_value_keeps_each_change_with_its_interval(monkeypatch):
    _check_together(_drawn(monkeypatch, "Each value against the base value", _sweep_table(repeats=True)))


def test_the_values_compared_stay_with_the_change_when_they_are_not_repeated(monkeypatch):
    """One pair per parameter (a grid of 3 values each, the base in the middle: "Every two values"
    holds 1 → 5 and 2 → 6 only): parameter and metric tell the rows apart, so from and to are
    columns like the others and must share the change's part."""
    table = _sweep_table(every_two=True, repeats=True).filter(
        pl.struct("from", "to").map_elements(lambda r: (r["from"], r["to"]) in {("1", "5"), ("2", "6")},
                                             return_dtype=pl.Boolean))
    assert _Layout(PdfDocument("t"), "t").key_columns(table) == ["parameter", "metric"]
    _check_together(_drawn(monkeypatch, "Every two values", table))


def test_the_values_compared_are_repeated_as_a_pair_or_not_at_all(monkeypatch):
    """A grid of income.palais.base=2..4 × setup.start_coins[0]=[0,2,4] (5,000 games): its table
    "Each value against the base value" holds 2 → 3, 3 → 4, 0 → 2 and 0 → 4, whose rows `to` tells
    apart without `from`; its part 2 repeated parameter, to and metric, a `to` column with no
    `from` beside it ("to 4" of which pair?)."""
    pairs = {("2", "3"), ("3", "4"), ("0", "2"), ("0", "4")}
    table = _sweep_table(repeats=True).filter(
        pl.struct("from", "to").map_elements(lambda r: (r["from"], r["to"]) in pairs, return_dtype=pl.Boolean))
    drawn = _drawn(monkeypatch, "Each value against the base value", table)
    assert len(drawn) >= 2, "the case this test is about: a table printed in parts"
    for caption, df in drawn:
        assert ("from" in df.columns) == ("to" in df.columns), (caption, df.columns)
    _check_together(drawn)


def test_a_split_table_starts_below_its_section_and_not_on_a_page_of_its_own(monkeypatch):
    """Planned a page's worth of rows at a time, a cut table's first block went to a new page
    whenever a whole block did not fit below the section's heading and intro: the 5×4 grid's
    report (above) left page 11 with two lines of "Every two values"' intro and page 17 with the
    heading and intro of "Effects at the other values …" alone (27 pages, 25 before the groups
    were kept together). Its first block now takes the room left below, as many rows as fit there,
    the others a page each; every block still on one page."""
    from reports.pdf import BOTTOM, PAGE_H, TOP

    spans = record_spans(monkeypatch)
    doc = _Layout(PdfDocument("t"), "t")
    doc.new_page()
    doc.add_heading("Every two values")
    doc.y = BOTTOM + (PAGE_H - TOP - BOTTOM) / 2           # half a page left below the intro
    doc.add_table("Every two values", _sweep_table(every_two=True, repeats=True))
    assert spans[0][1] == 1, spans                          # the first block on the heading's page
    assert all(a == b for _, a, b in spans), spans          # each block's parts on one page
