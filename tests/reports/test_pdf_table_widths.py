"""The PDF's column widths for a table wider than the page: the spare width goes where it saves
wrapped lines (reports.pdf._Layout._shortest_table), not capped alike on the widest columns.

Why it matters: a before/after comparison of 66 metrics ran to five pages, every row three or four
lines tall, because its long labels and long verdicts were capped at one width while short-worded
columns kept room they did not need. Checked against a plain water-fill (the former rule, written
out here) on a table like that one, and against the wrap the PDF really draws.
"""

from __future__ import annotations

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
