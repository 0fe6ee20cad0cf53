"""The PDF's column widths for a table wider than the page: the spare width goes where it saves
wrapped lines (reports.pdf._Layout._shortest_table), not capped alike on the widest columns.

Why it matters: a before/after comparison of 66 metrics ran to five pages, every row three or four
lines tall, because its long labels and long verdicts were capped at one width while short-worded
columns kept room they did not need. Checked against a plain water-fill (the former rule, written
out here) on a table like that one, and against the wrap the PDF really draws.
"""

from __future__ import annotations

import pytest
import polars as pl

from reports.pdf import TEXT_W, PdfDocument, _Layout, wrapped_lines
from reports.text import cell_text

LABELS = ["Bonnes récoltes: biggest gainer wins", "Leader at the end of turn 10 wins",
          "Win share per extra Rempart tile (straight-line summary: the curve bends)",
          "Seat 2 mean final score"]
VERDICTS = ["clear and large enough to matter",
            "no change detected (interval excludes 0, but not after Holm's correction)", "clear, may matter"]
TABLE = pl.DataFrame({
    "Metric": [LABELS[i % 4] for i in range(66)], "Unit": ["%, change in pp"] * 66,
    "Before": ["28.93%"] * 66, "After": ["39.07%"] * 66, "Change": ["+10.14 pp"] * 66,
    "95% interval of the change": ["+9.42 to +10.85 pp"] * 66, "p (Holm-adjusted)": ["p < 0.001"] * 66,
    "Verdict": [VERDICTS[i % 3] for i in range(66)]})
SIZE, PAD = 7.5, 0.05


def _lines(doc, header, cells, widths) -> int:
    """Lines the table takes as the PDF draws it: the header's and each row's tallest cell."""
    rows = [[doc.wrap(h, SIZE, w - 2 * PAD, "bold") for h, w in zip(header, widths)]]
    rows += [[doc.wrap(v, SIZE, w - 2 * PAD) for v, w in zip(row, widths)] for row in cells]
    return sum(max(len(c) for c in row) for row in rows)


def _water_fill(doc, header, cells) -> list[float]:
    """The former rule: every column capped at one common width, none below its longest word."""
    cols = list(zip(*cells))
    natural = [max(doc.width(t, SIZE, "bold" if t is h else "normal") for t in (h, *col)) + 2 * PAD
               for h, col in zip(header, cols)]
    least = [max(doc.width(w, SIZE, "bold") for t in (h, *col) for w in str(t).split(" ")) + 2 * PAD
             for h, col in zip(header, cols)]
    lo, hi = 0.0, max(natural)
    for _ in range(40):
        cap = (lo + hi) / 2
        lo, hi = (cap, hi) if sum(max(m, min(n, cap)) for n, m in zip(natural, least)) <= TEXT_W else (lo, cap)
    return [max(m, min(n, lo)) for n, m in zip(natural, least)]


def test_a_wide_table_takes_fewer_lines_than_with_a_common_cap():
    doc = _Layout(PdfDocument("t"), "t")
    header = list(TABLE.columns)
    cells = [[cell_text(v) for v in row] for row in TABLE.iter_rows()]
    widths = doc._column_widths(header, cells, SIZE, PAD)
    assert sum(widths) <= TEXT_W + 1e-9
    for h, col, w in zip(header, zip(*cells), widths):       # every word still fits its column
        assert all(doc.width(word, SIZE, "bold") + 2 * PAD <= w + 1e-9
                   for t in (h, *col) for word in str(t).split(" "))
    ours, before = _lines(doc, header, cells, widths), _lines(doc, header, cells, _water_fill(doc, header, cells))
    assert ours <= 0.9 * before, (ours, before)     # 201 against 244 lines when written


def test_the_line_counts_it_optimises_are_the_ones_the_pdf_draws():
    """The allocation counts lines from its words' widths (reports.pdf.wrapped_lines); the PDF
    wraps on measured text (_Layout.wrap). They must agree, else a row comes out taller than the
    allocation planned: every cell of the table, at widths from its longest word to the page."""
    doc = _Layout(PdfDocument("t"), "t")
    texts = {cell_text(v) for row in TABLE.iter_rows() for v in row}
    texts |= {"Seat 1 wins\ntwice as often", "a `code` mark and a long-winded explanation of it",
              " a leading space", "two  spaces and a trailing one "}
    for size in (7.5, 5.4):
        gap = doc.width(" ", size)
        for text in sorted(texts):
            longest = max(doc.width(w, size) for w in text.replace("\n", " ").replace("`", "").split(" "))
            for k in range(30):
                room = longest + k * 0.05
                assert wrapped_lines(doc.word_widths(text, size), room, gap) == len(doc.wrap(text, size, room)), \
                    (text, size, room)


def _varied(table: pl.DataFrame) -> pl.DataFrame:
    """``table`` with numbers that differ row by row, as a real comparison's do: the PDF says a
    column of one value in every row once in the caption (session 57), and TABLE's numbers are
    one value in every row."""
    n = table.height
    return table.with_columns(
        pl.Series("Unit", [("%, change in pp", "coins")[i % 2] for i in range(n)]),
        pl.Series("Before", [f"{20 + i / 7:.2f}%" for i in range(n)]),
        pl.Series("After", [f"{21 + i / 9:.2f}%" for i in range(n)]),
        pl.Series("Change", [f"+{1 + i / 11:.2f} pp" for i in range(n)]),
        pl.Series("95% interval of the change", [f"+{i / 11:.2f} to +{2 + i / 11:.2f} pp" for i in range(n)]),
        pl.Series("p (Holm-adjusted)", [("p < 0.001", "p = 0.012", "p = 1.000")[i % 3] for i in range(n)]))


def _event_table(rows: int = 14) -> pl.DataFrame:
    """Like the Middle-Ages event-card ablation table: a name, three summary columns, then a win
    share and a score column for each of four seats, every cell a value, an interval and a verdict."""
    cols = {"Event card": [f"Cérémonies dispendieuses {k}" for k in range(rows)],
            "Drawn in": ["27.2% of games"] * rows,
            "Moves who wins by (its clear effect, all games)": ["within noise (≤ 0.87 pp)"] * rows,
            "… per game where drawn": ["within noise (≤ 3.20 pp)"] * rows}
    for s in range(1, 5):
        cols[f"Seat {s}: win share (pp)"] = ["+0.2 (−0.2 to +0.7 pp), within noise"] * rows
        cols[f"Seat {s}: score (coins)"] = ["−0.6 (−0.68 to −0.51 coins), clear but small"] * rows
    return pl.DataFrame(cols)


def test_a_table_too_wide_to_read_is_printed_in_parts_of_its_columns(monkeypatch):
    """Review K #6: the event-card table's 11 columns ran to five PDF pages of cells wrapped over
    6-9 lines at 5.4 pt. It is printed in parts, each with the row's name first, every other column
    once and in order; in every part each cell wraps to at most 4 lines (measured with the PDF's
    own wrap at the widths it draws) at 6.8 pt or more. A table that reads as it is stays whole."""
    from reports import pdf

    doc = _Layout(PdfDocument("t"), "t")
    drawn = []
    monkeypatch.setattr(_Layout, "_add_table", lambda self, caption, df, **_: drawn.append((caption, df)))
    table = _event_table()
    doc.add_table("Event cards", table)
    assert len(drawn) >= 2
    # the parts of a page's worth of rows one after the other (review O #8): n parts per block
    n = int(drawn[0][0].split(" of ", 2)[-1].split(":")[0]) if "rows " in drawn[0][0] else len(drawn)
    blocks = [drawn[i:i + n] for i in range(0, len(drawn), n)]
    names = []
    for block in blocks:
        assert [c for _, df in block for c in df.columns[1:]] == table.columns[1:]
        names += block[0][1]["Event card"].to_list()
        for _, df in block:
            assert df["Event card"].to_list() == block[0][1]["Event card"].to_list()
    assert names == table["Event card"].to_list()
    for k, (caption, df) in enumerate(drawn):
        assert df.columns[0] == "Event card"
        assert f"part {k % n + 1} of {n}: " in caption, caption
        header, cells = list(df.columns), [[cell_text(v) for v in row] for row in df.iter_rows()]
        # at the type and widths the PDF draws it with (session 57: the largest type of 6.8 pt or
        # more at which the part reads, no longer the first whose words fit)
        size, widths, _ = doc._layout(header, cells, PAD)
        assert size >= 6.8, (k, size)
        assert max(len(doc.wrap(v, size, w - 2 * PAD)) for row in cells for v, w in zip(row, widths)) <= 4
    drawn.clear()
    # (8 columns, rows of up to 3-4 lines: readable)
    varied = _varied(TABLE)
    doc.add_table("Before/after", varied)
    assert len(drawn) == 1 and drawn[0][1].columns == TABLE.columns and drawn[0][0] == "Before/after"
    assert pdf.MAX_ROW_LINES == 4


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_table_cut_into_parts_of_columns_keeps_each_rows_parts_on_one_page(tmp_path):
    """Review O #8: the 66-row comparison printed part 1 of its columns on pages 4-6 and part 2 on
    pages 6-8, so a change never stood on the page of its interval and verdict. Now the parts of the
    same rows follow each other, a page's worth of rows at a time, and every row's every cell is on
    the page that holds its name in part 1. Read back from the PDF with pypdfium2."""
    import re

    import pypdfium2 as pdfium

    from reports.pdf import write_pdf
    from reports.sections import Section

    long = ("clear and large enough to matter (all 64 at once: +8.607 to +12.040 pp, on the change's "
            "side of 0; read on every tested metric at once)")
    n = 66
    table = _varied(TABLE).with_columns(
        pl.Series("Metric", [f"Metric {i:02d} of the comparison, a long label" for i in range(n)]),
        pl.Series("Change", [f"+{i}.{i:02d} pp" for i in range(n)]),
        pl.Series("Verdict", [f"{long} row{i:02d}" for i in range(n)]),
        pl.Series("Compared", ["paired, game by game on the same deals", "unpaired"] * (n // 2)),
        # (a table the smaller type does not read whole, session 57: with its families, as the
        # before/after's is)
        pl.Series("Family (adjusted together)", ["60 other tested metrics", "4 seat win shares"] * (n // 2)))
    doc = _Layout(PdfDocument("t"), "t")
    assert len(doc.column_parts(table)) > 1                  # the case this test is about
    write_pdf(tmp_path / "t.pdf", "T", [Section("x", "X", "", tables=[("All compared metrics", table)])],
              {}, {}, {})
    pdf = pdfium.PdfDocument(str(tmp_path / "t.pdf"))
    # (a cell wraps over lines: the words of a page, whitespace collapsed)
    pages = [" ".join(pdf[i].get_textpage().get_text_range().replace("\u00a0", " ").split())
             for i in range(len(pdf))]
    for i in range(n):
        name = f"Metric {i:02d} of"
        on = [k for k, p in enumerate(pages) if name in p]
        assert on, name
        home = pages[on[0]]
        assert f"+{i}.{i:02d}" in home and f"row{i:02d}" in home, (i, on)
    parts = re.findall(r"part (\d) of (\d)", " ".join(pages))
    assert parts and all(int(a) <= int(b) for a, b in parts)


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_rows_are_spread_evenly_over_the_pages_a_cut_table_needs():
    """Review U #14: the 66-row comparison ran 16, 16, 16, 16 and 2 rows a page, the last page three
    rows and blank below. As few pages as a page's worth at a time needs, the rows spread evenly
    over them; each block still fits a page."""
    from reports.pdf import BOTTOM, PAGE_H, TOP

    n = 66
    long = ("clear and large enough to matter (all 64 at once: +8.607 to +12.040 pp, on the change's "
            "side of 0; read on every tested metric at once)")
    table = TABLE.with_columns(
        pl.Series("Metric", [f"Metric {i:02d} of the comparison, a long label" for i in range(n)]),
        pl.Series("Verdict", [f"{long} row{i:02d}" for i in range(n)]),
        pl.Series("Compared", ["paired, game by game on the same deals"] * n))
    doc = _Layout(PdfDocument("t"), "t")
    parts = doc.column_parts(table)
    assert len(parts) > 1
    blocks = doc.row_blocks("All compared metrics", table, parts)
    counts = [hi - lo for lo, hi, _ in blocks]
    assert len(blocks) > 1 and sum(counts) == n and blocks[0][0] == 0, blocks
    assert all(b[1] == c[0] for b, c in zip(blocks, blocks[1:]))
    assert all(h <= PAGE_H - TOP - BOTTOM + 1e-9 for _, _, h in blocks)
    assert max(counts) - min(counts) <= 2, counts          # (rows of one height here)
    # no fewer blocks could hold them: one row fewer a page would need another page
    assert (len(blocks) - 1) * (max(counts)) < n, counts
