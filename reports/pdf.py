"""The report as a PDF: the same content as the HTML page, laid out on A4 pages.

:func:`write_pdf` flows the sections of :mod:`reports.sections` onto A4 portrait pages (one page
size throughout) through matplotlib's PdfPages: the title and the table of runs, then every section
in the HTML page's order with its title, intro, sentences, figures (the PNG the HTML embeds, scaled
to the text width, never wider or taller than a page) each followed by its caption, and its tables
with every row. Nothing is dropped: text is word-wrapped on measured widths and a section that does
not fit continues on the next page; a table too long for a page continues under a repeated header;
a table too wide for the text width gets a smaller type and wrapped cells. Each page has a footer
with the report's title and the page number. Text is written as TrueType (``pdf.fonttype`` 42) so
that it can be searched and extracted.

May import matplotlib (Agg), numpy, PIL (matplotlib's own image library), polars, the standard
library, :mod:`reports.figures.common`
(the style), :mod:`reports.text` (cell formats) and, for type checking only, :mod:`reports.sections`.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING

import matplotlib
import matplotlib.image as mpimg
import polars as pl
from matplotlib.backends.backend_agg import RendererAgg
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle

from reports.figures.common import RC
from reports.text import cell_text

if TYPE_CHECKING:
    from reports.sections import Section

PAGE_W, PAGE_H = 8.27, 11.69          # A4 portrait, inches
MARGIN, TOP, BOTTOM = 0.6, 0.6, 0.75  # the footer sits in the bottom margin
TEXT_W = PAGE_W - 2 * MARGIN
FONT = "DejaVu Sans"
PNG_DPI = 130                          # the dpi reports.figures.common.render draws the PNGs at
_PDF_RC = {**RC, "pdf.fonttype": 42}


class _Layout:
    """A cursor over A4 pages: each ``add_*`` places its block below the previous one, starting a
    new page when the block does not fit."""

    def __init__(self, pages: PdfPages, title: str) -> None:
        self.pages, self.title = pages, title
        self.renderer = RendererAgg(int(PAGE_W * 72), int(PAGE_H * 72), 72)
        self._widths: dict[tuple, float] = {}
        self.fig: Figure | None = None
        self.page_no = 0
        self.y = 0.0

    # -- measuring and wrapping -----------------------------------------------------------------

    def width(self, text: str, size: float, weight: str = "normal") -> float:
        """Width of ``text`` in inches: the sum of its characters' advances (each measured once with
        matplotlib's own text metrics) plus 3% for kerning and rounding, so a wrapped line never
        runs past the width it was wrapped to. Measuring whole strings cost ~0.4 ms each: seconds for
        a report's tables."""
        total = 0.0
        for ch in text:
            key = (ch, size, weight)
            w = self._widths.get(key)
            if w is None:
                prop = FontProperties(family=FONT, size=size, weight=weight)
                w = self.renderer.get_text_width_height_descent(f"|{ch}|", prop, ismath=False)[0] / 72
                w -= self._bars(size, weight)
                self._widths[key] = w
            total += w
        return total * 1.03

    def _bars(self, size: float, weight: str) -> float:
        """The width of "||", measured once: a character is measured between two bars so that the
        advance of a space (which a lone " " does not report) counts."""
        key = ("||", size, weight)
        if key not in self._widths:
            prop = FontProperties(family=FONT, size=size, weight=weight)
            self._widths[key] = self.renderer.get_text_width_height_descent("||", prop, ismath=False)[0] / 72
        return self._widths[key]

    def wrap(self, text: str, size: float, width: float, weight: str = "normal") -> list[str]:
        """Greedy word wrap on measured widths; a word wider than ``width`` is split."""
        lines: list[str] = []
        for para in str(text).split("\n"):
            line = ""
            for word in para.split(" "):
                trial = f"{line} {word}" if line else word
                if self.width(trial, size, weight) <= width + 1e-6:
                    line = trial
                    continue
                if line:
                    lines.append(line)
                while self.width(word, size, weight) > width + 1e-6 and len(word) > 1:
                    cut = len(word) - 1
                    while cut > 1 and self.width(word[:cut], size, weight) > width + 1e-6:
                        cut -= 1
                    lines.append(word[:cut])
                    word = word[cut:]
                line = word
            lines.append(line)
        return lines

    @staticmethod
    def line_height(size: float) -> float:
        return size * 1.32 / 72

    # -- pages ------------------------------------------------------------------------------------

    def new_page(self) -> None:
        self.flush()
        self.fig = Figure(figsize=(PAGE_W, PAGE_H))
        self.page_no += 1
        self.y = PAGE_H - TOP
        self.text_at(MARGIN, BOTTOM - 0.3, self.title, 7.5, color="#666666")
        self.text_at(PAGE_W - MARGIN, BOTTOM - 0.3, f"page {self.page_no}", 7.5, color="#666666", ha="right")

    def flush(self) -> None:
        if self.fig is not None:
            self.pages.savefig(self.fig)
            self.fig = None

    def room(self) -> float:
        return self.y - BOTTOM

    def need(self, height: float) -> None:
        """Start a new page unless ``height`` inches fit below the cursor (a block taller than a
        whole page starts at the top of a fresh one)."""
        if self.fig is None or (height > self.room() and self.y < PAGE_H - TOP - 1e-6):
            self.new_page()

    def text_at(self, x: float, y: float, text: str, size: float, weight: str = "normal",
                color: str = "#222222", ha: str = "left") -> None:
        self.fig.text(x / PAGE_W, y / PAGE_H, text, fontsize=size, weight=weight, color=color, ha=ha,
                      va="top", family=FONT, parse_math=False)

    # -- blocks -----------------------------------------------------------------------------------

    def add_text(self, text: str, size: float = 9.5, weight: str = "normal", indent: float = 0.0,
                 bullet: bool = False, color: str = "#222222", space_after: float = 0.06,
                 keep_with: float = 0.0) -> None:
        """A wrapped paragraph; lines run on to the next page when needed. ``keep_with``: inches of
        what follows that must share the page with the first lines (a heading and its content)."""
        lead = 0.16 if bullet else 0.0
        lines = self.wrap(text, size, TEXT_W - indent - lead, weight)
        lh = self.line_height(size)
        self.need(min(len(lines), 2) * lh + keep_with)
        for i, line in enumerate(lines):
            if lh > self.room():
                self.new_page()
            if bullet and i == 0:
                self.text_at(MARGIN + indent, self.y, "•", size, weight, color)
            self.text_at(MARGIN + indent + lead, self.y, line, size, weight, color)
            self.y -= lh
        self.y -= space_after

    def add_heading(self, text: str, size: float = 14) -> None:
        self.add_text(text, size, "bold", color="#0b3d66", space_after=0.1, keep_with=0.6)

    def add_image(self, png: bytes, caption: str, number: int) -> None:
        """A figure scaled to the text width (never taller than a page), its caption below it."""
        img = _pixels(png)
        h_px, w_px = img.shape[:2]
        w = min(TEXT_W, w_px / PNG_DPI)
        h = w * h_px / w_px
        cap_lines = self.wrap(f"Figure {number}. {caption}", 9, TEXT_W) if caption else []
        cap_h = len(cap_lines) * self.line_height(9) + 0.1
        page_h = PAGE_H - TOP - BOTTOM
        if h + cap_h > page_h:
            h = page_h - cap_h
            w = h * w_px / h_px
        self.need(h + cap_h)
        x = MARGIN + (TEXT_W - w) / 2
        ax = self.fig.add_axes((x / PAGE_W, (self.y - h) / PAGE_H, w / PAGE_W, h / PAGE_H))
        ax.imshow(img, interpolation="none", aspect="auto")
        ax.set_axis_off()
        self.y -= h + 0.06
        for line in cap_lines:
            self.text_at(MARGIN, self.y, line, 9, color="#333333")
            self.y -= self.line_height(9)
        self.y -= 0.14

    def add_table(self, caption: str, df: pl.DataFrame) -> None:
        """Every row of ``df``, paginated under a repeated header; narrower type and wrapped cells
        when the natural widths do not fit the text width."""
        cells = [[cell_text(v) for v in row] for row in df.iter_rows()]
        header = list(df.columns)
        pad = 0.05
        for size in (7.5, 6.8, 6.0, 5.4):
            widths = self._column_widths(header, cells, size, pad)
            if widths is not None:
                break
        lh = self.line_height(size)
        hdr_lines = [self.wrap(h, size, w - 2 * pad, "bold") for h, w in zip(header, widths)]
        hdr_h = max(len(x) for x in hdr_lines) * lh + 2 * pad
        cap_lines = self.wrap(caption, 9.5, TEXT_W, "bold")
        self.need(len(cap_lines) * self.line_height(9.5) + hdr_h + 2 * lh + 0.1)
        for line in cap_lines:
            self.text_at(MARGIN, self.y, line, 9.5, "bold")
            self.y -= self.line_height(9.5)
        self.y -= 0.04
        self._header(header, hdr_lines, widths, hdr_h, size, pad)
        for row in cells:
            parts = [self.wrap(v, size, w - 2 * pad) for v, w in zip(row, widths)]
            row_h = max(len(p) for p in parts) * lh + 2 * pad
            if row_h > self.room():
                self.new_page()
                self.text_at(MARGIN, self.y, f"{caption} (continued)", 8, color="#555555")
                self.y -= self.line_height(8) + 0.02
                self._header(header, hdr_lines, widths, hdr_h, size, pad)
            x = MARGIN
            for p, w in zip(parts, widths):
                yy = self.y - pad
                for line in p:
                    self.text_at(x + pad, yy, line, size)
                    yy -= lh
                x += w
            self.y -= row_h
            self.fig.add_artist(Line2D(
                [MARGIN / PAGE_W, (MARGIN + sum(widths)) / PAGE_W], [self.y / PAGE_H] * 2,
                color="#cccccc", linewidth=0.5))
        self.y -= 0.18

    def _header(self, header, hdr_lines, widths, hdr_h, size, pad) -> None:
        self.fig.add_artist(Rectangle((MARGIN / PAGE_W, (self.y - hdr_h) / PAGE_H), sum(widths) / PAGE_W,
                                      hdr_h / PAGE_H, color="#eef4fa", transform=self.fig.transFigure))
        x = MARGIN
        for lines, w in zip(hdr_lines, widths):
            yy = self.y - pad
            for line in lines:
                self.text_at(x + pad, yy, line, size, "bold")
                yy -= self.line_height(size)
            x += w
        self.y -= hdr_h

    def _column_widths(self, header, cells, size, pad) -> list[float] | None:
        """Column widths (inches) summing to at most the text width, or None when even the longest
        words do not fit at this type size."""
        cols = list(zip(*cells)) if cells else [() for _ in header]
        natural, least = [], []
        for h, col in zip(header, cols):
            texts = [h, *col]
            natural.append(max(self.width(t, size, "bold" if t is h else "normal") for t in texts) + 2 * pad)
            words = [w for t in texts for w in str(t).split(" ")] or [""]
            least.append(max(self.width(w, size, "bold") for w in words) + 2 * pad)
        if sum(natural) <= TEXT_W:
            return natural
        if sum(least) > TEXT_W:
            return None if size > 5.4 else [TEXT_W / len(header)] * len(header)
        # Water-fill: cap the widest columns at a common width so that everything fits.
        lo, hi = 0.0, max(natural)
        for _ in range(40):
            cap = (lo + hi) / 2
            total = sum(max(m, min(n, cap)) for n, m in zip(natural, least))
            lo, hi = (cap, hi) if total <= TEXT_W else (lo, cap)
        return [max(m, min(n, lo)) for n, m in zip(natural, least)]


def _pixels(png: bytes):
    """The PNG's pixels as uint8 RGB (the figures are opaque: drawn on a white face). Drawn with
    ``interpolation="none"`` they go into the PDF as they are; the float RGBA array
    ``matplotlib.image.imread`` returns was normalised through masked arrays and written with
    an alpha mask (0.25 s of CPU for a report's seven figures)."""
    from PIL import Image

    with Image.open(io.BytesIO(png)) as im:
        if im.mode == "RGBA" and im.getchannel("A").getextrema() != (255, 255):
            return mpimg.imread(io.BytesIO(png), format="png")      # transparent: keep alpha
        import numpy as np

        return np.asarray(im.convert("RGB"))


def write_pdf(path: Path, title: str, secs: list[Section], figs: dict, png: dict[str, bytes] | None = None,
              captions: dict[str, str] | None = None, runs: pl.DataFrame | None = None,
              notes: tuple[str, ...] = ()) -> None:
    """Write the report's sections to ``path``: the same sections, sentences, figures (``png``,
    rendered from ``figs`` when not given), captions and tables as the HTML page."""
    from reports.figures.common import render

    captions = captions or {}
    png = dict(png or {})
    with matplotlib.rc_context(_PDF_RC), PdfPages(path) as pages:
        doc = _Layout(pages, title)
        doc.new_page()
        doc.add_text(title, 17, "bold", space_after=0.12)
        for note in notes:
            doc.add_text(note, 8.5, color="#555555", space_after=0.04)
        if runs is not None:
            doc.add_table("Runs", runs)
        number = 0
        for s in secs:
            doc.add_heading(s.title)
            if s.intro:
                doc.add_text(s.intro, 9.5, space_after=0.1)
            for line in s.sentences:
                doc.add_text(line, 9.5, bullet=True, space_after=0.05)
            doc.y -= 0.08
            for name in s.figures:
                number += 1
                if name not in png:
                    png[name] = render(figs[name], "png", dpi=PNG_DPI)
                doc.add_image(png[name], captions.get(name, ""), number)
            for caption, df in s.tables:
                doc.add_table(caption, df)
            doc.y -= 0.1
        doc.flush()
