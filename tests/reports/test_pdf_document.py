"""The report's PDF writer (reports/pdfdoc.py), read back with pypdfium2: text is extracted as
written (accented letters, minus signs, dashes, bullets included) and placed at the widths the
layout measured; a character drawn from other glyphs (é: e and an accent) shows whole; a PNG figure
shows pixel for pixel, an 8-bit RGB one from its own compressed rows and a transparent one through
its mask; the file is A4 with one page object per page."""

from __future__ import annotations

import io
import re

import numpy as np
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from PIL import Image

from reports.pdf import FONT_FILES, _font
from reports.pdfdoc import PdfDocument, png_size

A4 = (595.28, 841.89)
TEXT = "Seat 3 wins 29.8% (29.7–29.9): −4.7 pp • Médiévallons ½ × ≥ Église"


def _doc() -> PdfDocument:
    doc = PdfDocument("Test title: Médiévallons")
    for weight in FONT_FILES:
        doc.add_font(weight, _font(weight))
    return doc


def _png(pixels: np.ndarray) -> bytes:
    buf = io.BytesIO()
    Image.fromarray(pixels).save(buf, format="png")
    return buf.getvalue()


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    path = tmp_path_factory.mktemp("pdfdoc") / "t.pdf"
    doc = _doc()
    p = doc.page(*A4)
    p.text(72, 700, TEXT, "normal", 10, "#222222")
    p.text(72, 650, TEXT, "bold", 14, "#0b3d66")
    p.text(72, 600, "e", "normal", 40)
    p.text(144, 600, "é", "normal", 40)
    rng = np.random.default_rng(3)
    rgb = rng.integers(0, 256, size=(37, 53, 3), dtype=np.uint8)
    rgba = np.dstack([rgb, np.where(np.arange(53) < 20, 0, 255).astype(np.uint8)[None, :].repeat(37, 0)])
    p.image(_png(rgb), 72, 300, 53, 37)              # 1 point a pixel
    q = doc.page(*A4)
    q.image(_png(rgba), 72, 300, 53, 37)
    q.rect(72, 100, 200, 20, "#eef4fa")
    q.line(72, 90, 272, 90, 0.5, "#cccccc")
    doc.save(path)
    return {"path": path, "rgb": rgb, "rgba": rgba}


def test_text_is_extracted_as_written_at_the_measured_widths(written):
    pdf = pdfium.PdfDocument(str(written["path"]))
    page = pdf[0]
    tp = page.get_textpage()
    text = tp.get_text_range()
    assert text.count(TEXT) == 2
    for weight, size in (("normal", 10), ("bold", 14)):
        objs = [o for o in page.get_objects() if o.type == pdfium_c.FPDF_PAGEOBJ_TEXT]
        font = _font(weight)
        baseline = 700 if weight == "normal" else 650
        o = next(o for o in objs if abs(o.get_matrix().f - baseline) < 0.01)
        left, _bottom, right, _top = o.get_bounds()
        assert left == pytest.approx(72, abs=1.5)
        # the glyph boxes end within a point of the advance the layout wrapped on
        assert right == pytest.approx(72 + font.width(TEXT, size), abs=1.5)


def test_a_character_made_of_other_glyphs_shows_whole(written):
    page = pdfium.PdfDocument(str(written["path"]))[0]
    ink = page.render(scale=2).to_numpy()[..., :3].min(axis=2) < 128
    band = ink[int(2 * (A4[1] - 644)): int(2 * (A4[1] - 590))]      # the two 40-point letters only
    rows = lambda x0, x1: np.flatnonzero(band[:, int(2 * x0): int(2 * x1)].any(axis=1))   # noqa: E731
    e, e_acute = rows(70, 110), rows(142, 182)
    assert len(e) > 20
    assert e_acute.min() < e.min() - 5 and e_acute.max() == pytest.approx(e.max(), abs=1)


def test_png_figures_show_pixel_for_pixel(written):
    pdf = pdfium.PdfDocument(str(written["path"]))
    images = [[o for o in pdf[i].get_objects() if o.type == pdfium_c.FPDF_PAGEOBJ_IMAGE] for i in (0, 1)]
    assert [len(x) for x in images] == [1, 1]
    rgb = images[0][0].get_bitmap(render=False).to_numpy()
    assert np.array_equal(rgb[..., ::-1], written["rgb"])           # BGR → RGB
    assert images[0][0].get_filters() == ["FlateDecode"]
    shown = pdf[1].render(scale=1, crop=(0, 0, 0, 0)).to_numpy()[..., :3]
    top = int(round(A4[1] - 337))
    clear = shown[top + 5: top + 30, 75: 90]                         # the transparent columns
    assert (clear > 250).all()                                       # the white page shows through
    solid = images[1][0].get_bitmap(render=False).to_numpy()
    assert np.array_equal(solid[..., ::-1][:, 20:], written["rgba"][:, 20:, :3])


def test_pages_are_a4_with_one_page_object_each_and_the_title_is_kept(written):
    raw = written["path"].read_bytes()
    assert raw.startswith(b"%PDF-1.7") and raw.rstrip().endswith(b"%%EOF")
    assert len(re.findall(rb"/Type\s*/Page\b", raw)) == 2
    pdf = pdfium.PdfDocument(str(written["path"]))
    assert [tuple(round(v) for v in p.get_size()) for p in pdf] == [(595, 842)] * 2
    assert pdf.get_metadata_dict()["Title"] == "Test title: Médiévallons"


def test_png_size_reads_the_header():
    assert png_size(_png(np.zeros((7, 11, 3), np.uint8))) == (11, 7)


def test_a_section_opening_with_a_figure_keeps_its_heading_on_the_figure_page(tmp_path):
    """A heading (and intro) never stays alone at the foot of a page while its figure starts
    the next one."""
    from reports.pdf import write_pdf
    from reports.sections import Section

    filler = Section("filler", "Filler", sentences=[f"Sentence {k}." for k in range(32)])   # ~2 in left
    figure = Section("scores", "Score distributions", intro="Final scores per seat.", figures=["scores"])
    png = _png(np.full((585, 1040, 3), 200, np.uint8))
    path = tmp_path / "r.pdf"
    write_pdf(path, "Title", [filler, figure], {}, {"scores": png}, {"scores": "Seat 1 ends highest."})
    pdf = pdfium.PdfDocument(str(path))
    page_of_image = [i for i, p in enumerate(pdf)
                     if any(o.type == pdfium_c.FPDF_PAGEOBJ_IMAGE for o in p.get_objects())]
    page_of_heading = [i for i, p in enumerate(pdf) if "Score distributions" in p.get_textpage().get_text_range()]
    assert len(pdf) >= 2 and page_of_image == page_of_heading == [len(pdf) - 1]


def test_a_long_tables_continued_caption_stays_within_the_text_width(monkeypatch):
    """A table over several pages repeats its caption "(continued)" on each: wrapped to the text
    width like every other line (a long one ran off the page's edge: seen in a report's PDF)."""
    import polars as pl

    from reports import pdf as P

    lay = P._Layout(PdfDocument("t"), "t")
    lay.new_page()
    drawn = []
    real = lay.text_at

    def text_at(x, y, text, size, weight="normal", **kw):
        if kw.get("ha", "left") == "left":          # (the footer's page number ends at the margin)
            drawn.append((x, text, size, weight))
        return real(x, y, text, size, weight, **kw)

    monkeypatch.setattr(lay, "text_at", text_at)
    caption = ("Against the shipped rules: each seat's change of win share, every seat searching "
               "(intervals at 99.58%, all holding together at 95%), budget by budget and seat by seat")
    lay.add_table(caption, pl.DataFrame({"budget": list(range(150)), "seat": [1] * 150}))
    continued = [d for d in drawn if d[2] == 8]
    assert continued and "(continued)" in " ".join(d[1] for d in continued)
    for x, text, size, weight in drawn:
        assert x + lay.width(text, size, weight) <= P.MARGIN + P.TEXT_W + 1e-6, text


def test_a_table_does_not_start_at_a_page_foot_with_one_row(monkeypatch):
    """A table starts on a new page unless its first three rows fit (a short table, up to a third
    of a page, is kept whole): a review found a table of 13 rows begun at a page's foot with one."""
    import polars as pl

    from reports import pdf as P

    def rows_per_page(room: float) -> dict[int, int]:
        lay = P._Layout(PdfDocument("t"), "t")
        lay.new_page()
        lay.y = P.BOTTOM + room           # this much room left on the page
        pages: dict[int, int] = {}
        real = lay.text_at

        def text_at(x, y, text, size, weight="normal", **kw):
            if text.startswith("type "):
                pages[lay.page_no] = pages.get(lay.page_no, 0) + 1
            return real(x, y, text, size, weight, **kw)

        monkeypatch.setattr(lay, "text_at", text_at)
        lay.add_table("Card types", pl.DataFrame({"card type": [f"type {k}" for k in range(13)],
                                                  "share": ["25.0% (24.1–25.9)"] * 13}))
        return pages

    assert rows_per_page(0.9) == {2: 13}       # two rows would fit: the table moves whole
    assert rows_per_page(8.0) == {1: 13}       # plenty of room: it starts here
