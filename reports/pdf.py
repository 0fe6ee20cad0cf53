"""The report as a PDF: a headline page, then every section's sentences and figures.

:func:`write_pdf` writes the sections of :mod:`reports.sections` through matplotlib's PdfPages: one
text page per section with sentences (with its intro first when the section asks for it), one page
per figure, in the report's rc style.

May import matplotlib (Agg), the standard library, :mod:`reports.figures.common` (the style) and,
for type checking only, :mod:`reports.sections`.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

import matplotlib
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure

from reports.figures.common import RC

if TYPE_CHECKING:
    from reports.sections import Section


def text_page(title: str, lines: Iterable[str]) -> Figure:
    """An A4 page of bullet lines under a title (lines beyond the page are cut)."""
    fig = Figure(figsize=(8.27, 11.69))
    y = 0.95
    fig.text(0.06, y, title, fontsize=15, weight="bold", va="top")
    y -= 0.05
    for line in lines:
        for j, piece in enumerate(textwrap.wrap(line, 95) or [""]):
            if y < 0.04:
                return fig
            fig.text(0.06 if j == 0 else 0.08, y, ("• " if j == 0 else "") + piece, fontsize=9.5, va="top")
            y -= 0.022
        y -= 0.006
    return fig


def write_pdf(path: Path, title: str, secs: list[Section], figs: dict) -> None:
    with matplotlib.rc_context(RC), PdfPages(path) as pages:
        lines = next((s.sentences for s in secs if s.id == "headlines"), [])
        pages.savefig(text_page(title, lines))
        for s in secs:
            if s.id == "headlines":
                continue
            if s.sentences:
                lead = [s.intro] if s.intro_in_pdf and s.intro else []
                pages.savefig(text_page(s.title, lead + s.sentences))
            elif s.intro_in_pdf and s.intro:
                pages.savefig(text_page(s.title, [s.intro]))
            for name in s.figures:
                pages.savefig(figs[name])
