"""A table the PDF prints in parts of its columns repeats, in every part, the columns that tell its
rows apart (reports.pdf._Layout.key_columns), not only the first.

Why (session 56 designer review A): a 2-parameter grid sweep's "Each value against the base value"
(parameter, from, to, others at, metric, change, low, high, unit, verdict, repeats, interval of)
was cut after "change"; its part 2 repeated only `parameter`, the same word on sixteen rows, so a
verdict could be matched to its metric only by counting rows. Built here like that table (no game
is played); the PDF's own split is called with its drawing recorded."""

from __future__ import annotations

import itertools

import polars as pl

from reports.pdf import PdfDocument, _Layout
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

METRICS = ["the seat imbalance (largest distance of a seat from the fair share; lower is fairer)",
           "seat 1's win share", "seat 2's win share", "seat 3's win share", "seat 4's win share",
           "the winner's margin", "the event swing"]


def _sweep_table(others_vary: bool = False, every_two: bool = False, repeats: bool = False) -> pl.DataFrame:
    """Rows as the sweep page's value tables give them: per parameter, pair of values and metric
    ("Each value against the base value"; ``every_two``: "Every two values", as a 5,000-game sweep
    of income.palais.base=1..5 × setup.start_coins[0]=[0,2,4,6] printed it; ``others_vary``:
    each pair at two values of the other parameter). ``repeats``: the win-share rows say a metric
    they repeat, a table as wide as those were printed: since session 57 the PDF leaves out a
    column empty in every row (their `repeats`) and says a column of one value once in the caption,
    and those tables print whole; the cut into parts is tested on this one."""
    rows = []
    coins = "setup.start_coins[0] (seat 1's)" if every_two else "setup.start_coins[0]"
    pairs = {"income.palais.base": [("1", "3"), ("2", "3"), ("3", "4"), ("3", "5")],
             coins: [("0", "2"), ("0", "4"), ("0", "6")]}
    if every_two:
        pairs = {"income.palais.base": [("1", "2"), ("1", "4"), ("1", "5"), ("2", "4"), ("2", "5"), ("4", "5")],
                 coins: [("2", "4"), ("2", "6"), ("4", "6")]}
    held = {"income.palais.base": ["setup.start_coins[0] = 0 (the base rules' value)", "setup.start_coins[0] = 4"],
            coins: ["income.palais.base = 3 (the base rules' value)", "income.palais.base = 5"]}
    verdicts = ["within noise", "clear but small"]
    # that sweep's verdicts and families, row by row (w within noise, m clear, may matter, L clear and
    # large enough to matter; its pair 1 → 5 is the first-vs-last family's)
    said = {"w": "within noise", "m": "clear, may matter", "L": "clear and large enough to matter"}
    two = [said[c] for c in "wwwwwwwwwwwwwwwwwwmmwwwwwwwwwwwwwmwwwwwwmwwmwwwwwwLmmmwwwLmmmww"]
    for param, ps in pairs.items():
        for (a, b), others in itertools.product(ps, held[param] if others_vary else held[param][:1]):
            for k, m in enumerate(METRICS):
                rows.append({"parameter": param, "from": a, "to": b, "others at": others, "metric": m,
                             "change": round(0.13 * k - 0.3, 2), "low": round(-3.36 + k, 2),
                             "high": round(3.44 + k, 2), "unit": "coins" if "margin" in m else "pp",
                             "verdict": two[len(rows)] if every_two else verdicts[k % 2],
                             "repeats": "the mirror of the seat imbalance's share of that seat"
                             if repeats and "win share" in m else "",
                             "interval of": ("the first-vs-last family (as 'Every effect')"
                                             if every_two and (a, b) == ("1", "5") else "the value-by-value family")})
    return pl.DataFrame(rows)


def _parts(monkeypatch, table: pl.DataFrame) -> list[tuple[str, pl.DataFrame]]:
    drawn: list[tuple[str, pl.DataFrame]] = []
    monkeypatch.setattr(_Layout, "_add_table", lambda self, caption, df, **_: drawn.append((caption, df)))
    _Layout(PdfDocument("t"), "t").add_table("Each value against the base value", table)
    return drawn


def _check_parts(drawn, table, keys):
    assert len(drawn) >= 2, "the case this test is about: a table printed in parts"
    n = int(drawn[0][0].split("part 1 of ", 1)[1].split(":")[0])
    seen_rows = []
    for b in range(0, len(drawn), n):
        block = drawn[b:b + n]
        first = block[0][1].select(keys).rows()
        assert len(set(first)) == len(first)            # the keys tell the block's rows apart
        for caption, df in block:
            assert [c for c in df.columns if c in keys] == keys, (caption, df.columns)
            assert df.select(keys).rows() == first, caption  # the same rows, in the same order
            assert df.columns == [c for c in table.columns if c in df.columns]   # in the table's order
        shown = [c for _, df in block for c in df.columns if c not in keys]
        # each other column once, but one of a single value in every row, said once in the caption
        said = {c for c in table.columns if f"'{c}': " in drawn[0][0]}
        assert sorted(shown) == sorted(c for c in table.columns if c not in keys and c not in said)
        seen_rows += first
    assert seen_rows == table.select(keys).rows()


def test_each_part_of_a_split_sweep_table_repeats_the_columns_that_identify_its_rows(monkeypatch):
    table = _sweep_table(repeats=True)
    # `others at` is the same for every row of a parameter here: it tells no two rows apart
    _check_parts(_parts(monkeypatch, table), table, ["parameter", "from", "to", "metric"])


def test_a_column_that_tells_rows_apart_is_repeated_too(monkeypatch):
    """The table "Effects at the other values of the other parameters": the same pair at several
    values of the other parameter, so `others at` identifies a row as much as the metric does."""
    table = _sweep_table(others_vary=True, repeats=True)
    drawn = _parts(monkeypatch, table)
    keys = [c for c in drawn[-1][1].columns if c in ("parameter", "from", "to", "others at", "metric")]
    assert {"parameter", "others at", "metric"} <= set(keys)
    _check_parts(drawn, table, keys)


def test_a_table_whose_first_column_names_its_rows_repeats_that_column_only():
    doc = _Layout(PdfDocument("t"), "t")
    table = pl.DataFrame({"Event card": [f"card {k}" for k in range(5)], "seat": ["1"] * 5,
                          "win share": [0.25] * 5})
    assert doc.key_columns(table) == ["Event card"]
    assert doc.key_columns(table.head(1)) == ["Event card"]


def record_spans(monkeypatch) -> list[tuple[str, int, int]]:
    """The list that each block of rows :meth:`_Layout._add_table` draws is appended to, as
    (caption, first page, last page)."""
    spans = []
    draw = _Layout._add_table

    def drawn(self, caption, df, **kw):
        start = self.page_no
        draw(self, caption, df, **kw)
        spans.append((caption, start, self.page_no))

    monkeypatch.setattr(_Layout, "_add_table", drawn)
    return spans


def test_each_block_of_a_split_table_is_drawn_on_one_page(monkeypatch):
    """The blocks of rows are planned to fit a page at the widths of each part's every row; a part
    drawn at the widths of its block's rows alone wrapped otherwise, and the sweep page's "Every
    two values" ran a block's last row onto a page of its own under "(continued)"."""
    spans = record_spans(monkeypatch)
    doc = _Layout(PdfDocument("t"), "t")
    doc.new_page()
    doc.add_table("Every two values", _sweep_table(every_two=True, repeats=True))
    assert len(spans) > 2
    assert all(a == b for _, a, b in spans), spans
