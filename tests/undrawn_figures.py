"""Reports written without drawing their figures, for tests that never read the pixels.

A report's figures are built (matplotlib Figure objects from the tables: every data-dependent step,
in reports.sections) and then drawn (constrained layout, Agg rasterising, PNG encoding, in a forked
second process: about 80% of a report's CPU). A test whose checks read the page's words and tables,
the figures' file names or the built Figure objects, never the drawn pixels, may write its report
within ``figures_undrawn()`` (or with the ``undrawn`` fixture of tests/reports/conftest.py; the
module sits in tests/, so every folder's tests can import it): each figure then gets a 1x1 PNG (and
SVG) stand-in under its own name. The drawing stays checked where it is the subject, drawn for real: the session's Middle-Ages
report of tests/conftest.py (every figure of a Middle-Ages run, whose PNGs test_report.py's drawn-image
checks read), test_report.py's `built` report (its two figures no other drawn report has: the
before/after's comparison and the matchups; the rest white stand-ins of their own pixel size,
``sized``), test_report_words_pdf.py's Médiévallons report (PNG and SVG; the PDF's pixels), its
Middle-Ages before/after (sized stand-ins in most of its tests, drawn in two),
test_figure_drawing.py, test_sweep_tune_pages.py (each kind of sweep figure), test_report_roles.py
(the role figure, the side-by-side). Every figure of a game's report is also measured against the
figure checklist, laid out as drawn (reports.figures.checklist: text extents without pixels), under
`make test-slow` through tests/reports/figure_checks.py on the before/afters that
test_report_words_pdf.py (Middle-Ages), test_report_medievallons.py (Médiévallons) and
test_review_l_comparison.py (Seigneurial) build anyway; test_figure_checklist.py's own runs of those
three games are slow.

The page of a ``balance skill`` directory (reports.skill) draws its figures itself, through
``render`` (PNG and SVG, ~0.8 s of CPU a figure): within ``skill_pages_undrawn()`` (and within
``figures_undrawn()``) each is a 1x1 stand-in, for the skill command's tests that read its tables,
words and file names. Both figures of that page stay measured against the figure checklist and
drawn: the budget figure measured by test_report_skill's checklist test and drawn by the skill
commands of tests/reliability/test_designer_inputs.py, the comparison (``--against``) figure measured
and drawn (PNG and SVG) by test_skill_against's checklist test.
"""

from __future__ import annotations

import contextlib
import io

import pytest


SVG_STAND_IN = b"<svg xmlns='http://www.w3.org/2000/svg' width='1' height='1'/>"


def _one_pixel_png() -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (1, 1), "white").save(buf, format="png")
    return buf.getvalue()


def _blank_png(fig) -> bytes:
    """A white PNG of the size the report draws ``fig`` at (its inches at the PNGs' dpi, as
    ``reports.figures.common.render``'s canvas): the PDF lays it out as it lays out the drawn one."""
    from PIL import Image

    from reports.figures.common import DPI

    w, h = fig.get_size_inches() * DPI
    buf = io.BytesIO()
    Image.new("RGB", (int(round(w)), int(round(h))), "white").save(buf, format="png", dpi=(DPI, DPI))
    return buf.getvalue()


@contextlib.contextmanager
def figures_undrawn(drawn: tuple[str, ...] = (), sized: bool = False):
    """Within it, ``build_report`` and the sweep and tune pages (``draw_all`` of reports.build and
    reports.sweep) write a 1x1 stand-in for each figure they built instead of drawing it, but for
    the figures named in ``drawn``, drawn as the report draws them (in this process); progress
    names each figure as when drawn. With ``sized``, each stand-in is a white PNG of the figure's
    own pixel size instead (for a test that reads the PDF's pages, laid out around the images'
    sizes, not its pixels). The page of a ``balance skill`` directory gets its stand-ins too
    (:func:`skill_pages_undrawn`)."""
    from reports.figures.draw import draw_one

    png = _one_pixel_png()
    svg_bytes = SVG_STAND_IN

    def stand_in(figs, svg=False, processes=None, started=None):
        out = {}
        for name in figs:
            if started is not None:
                started(name)
            out[name] = (draw_one(figs[name], svg) if name in drawn else
                         {"png": _blank_png(figs[name]) if sized else png,
                          **({"svg": svg_bytes} if svg else {})})
        return out

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("reports.build.draw_all", stand_in)      # the run reports
        mp.setattr("reports.sweep.draw_all", stand_in)      # the sweep, tune and panel pages
        with skill_pages_undrawn():
            yield


@contextlib.contextmanager
def skill_pages_undrawn():
    """Within it, the page of a ``balance skill`` directory (``render`` of reports.skill) writes a
    1x1 PNG and SVG stand-in for each of its figures (``figures/budget.png``, ``against.svg``, …)
    instead of drawing it; the figures are still built from the tables."""
    png = _one_pixel_png()

    def stand_in(fig, fmt, dpi=None):
        return png if fmt == "png" else SVG_STAND_IN

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("reports.skill.render", stand_in)
        yield


@contextlib.contextmanager
def heat_maps_undrawn():
    """Within it, ``balance fief-odds`` writes a PNG signature under each heat map's name
    (``reports.figures.fief.heatmap``) instead of drawing it, for tests that read its tables,
    messages and file names, not the heat maps' pixels (drawing was about 90 % of a small grid's
    CPU: 0.6-0.8 s a 3-terrain command against 0.05-0.08 s). The heat maps stay drawn and read in
    test_cli_fief.py's first test and its large grid's page-size test, and in
    test_fief_tables_new.py."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("reports.figures.fief.heatmap",
                   lambda odds, terrain, path, levels, rules=None: path.write_bytes(b"\x89PNG\r\n\x1a\n"))
        yield


@pytest.fixture(scope="module", autouse=True)
def skill_pages_undrawn_in_this_module():
    """Imported by a test module (``from undrawn_figures import skill_pages_undrawn_in_this_module``),
    every test of that module writes its ``balance skill`` pages with stand-ins for their figures:
    for the skill command's tests that read the tables, words and file names, never the pixels
    (~0.8 s of CPU a figure drawn). The page's budget figure is measured by test_report_skill.py's
    checklist test and drawn by the skill commands of tests/reliability/test_designer_inputs.py."""
    with skill_pages_undrawn():
        yield
