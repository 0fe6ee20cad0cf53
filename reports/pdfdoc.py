"""A small PDF writer for the report's pages: text in an embedded TrueType font, rectangles, lines
and PNG images on pages of one size.

:class:`PdfDocument` holds the pages; :meth:`PdfDocument.page` starts one, whose :class:`Page`
takes text (:meth:`Page.text`, at a baseline, in one of the document's fonts), filled rectangles,
lines and PNG images, in points from the page's lower left corner; :meth:`PdfDocument.save`
writes the file. Text is embedded as a subset of the TrueType font (:class:`TrueTypeFont`: the
glyphs the document uses, glyph ids kept, as a CIDFontType2 with Identity-H encoding and a
ToUnicode map), so it can be searched and copied, and its widths are the font's own advances,
the ones :meth:`TrueTypeFont.width` measures: text wrapped on them ends where it was measured to
end. A PNG of 8-bit RGB goes into the file as it is (its compressed rows are a PDF Flate stream
with the PNG predictor): no decoding, no compressing again; other PNGs are decoded by PIL.

Why not matplotlib's PDF backend (what :mod:`reports.pdf` used before): for the ~900 pieces of
text of a report it laid every string out twice (as a Text artist, then as PDF glyphs with
kerning), decoded and re-encoded every figure, and subset the fonts with fontTools (0.3 s of
import alone): 3.1 s of CPU for an 11-page report, against ~0.3 s here (docs/analysis.md).
Why not fpdf2 (a well-kept PDF library doing the same: TrueType subsets, images, rectangles):
measured on this machine, importing it after matplotlib costs 0.17 s of CPU (fontTools again) and
writing 11 pages of ~85 lines and a figure each 0.12 s, about a tenth of the report's 3 s budget,
for one more dependency (and defusedxml); this writer needs neither and its output is checked
by an independent reader (pypdfium2, tests/reports/test_pdf_document.py).

May import the standard library and PIL (matplotlib's own image library; only for a PNG that is not
8-bit RGB).
"""

from __future__ import annotations

import hashlib
import struct
import zlib
from pathlib import Path

__all__ = ["TrueTypeFont", "PdfDocument", "Page", "png_size"]


# ---------------------------------------------------------------------------------------------
# TrueType: what a PDF needs of the font (metrics, character map) and a subset of its glyphs
# ---------------------------------------------------------------------------------------------

class TrueTypeFont:
    """A TrueType (glyf) font file read for a PDF: glyph ids of characters, advance widths, the
    vertical metrics, and :meth:`program`, the font restricted to some glyphs."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.data = data = self.path.read_bytes()
        n = struct.unpack_from(">H", data, 4)[0]
        self.tables: dict[str, tuple[int, int]] = {}
        for i in range(n):
            tag, _check, off, length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
            self.tables[tag.decode("latin-1")] = (off, length)
        for tag in ("head", "hhea", "maxp", "hmtx", "loca", "glyf", "cmap"):
            if tag not in self.tables:
                raise ValueError(f"{self.path}: not a TrueType font with outlines (no {tag!r} table)")
        head = self.table("head")
        self.units_per_em = struct.unpack_from(">H", head, 18)[0]
        self.bbox = struct.unpack_from(">hhhh", head, 36)
        self.long_loca = struct.unpack_from(">h", head, 50)[0] == 1
        hhea = self.table("hhea")
        self.ascent, self.descent = struct.unpack_from(">hh", hhea, 4)
        n_metrics = struct.unpack_from(">H", hhea, 34)[0]
        self.n_glyphs = struct.unpack_from(">H", self.table("maxp"), 4)[0]
        hmtx = self.table("hmtx")
        adv = list(struct.unpack_from(f">{2 * n_metrics}H", hmtx, 0)[0::2])
        self.advances = adv + [adv[-1]] * (self.n_glyphs - n_metrics)
        os2 = self.table("OS/2") if "OS/2" in self.tables else b""
        # OS/2's typographic ascender: where matplotlib put the top of a line of text (its va="top")
        self.typo_ascent = struct.unpack_from(">h", os2, 68)[0] if len(os2) >= 70 else self.ascent
        self.cap_height = (struct.unpack_from(">h", os2, 88)[0] if len(os2) >= 90
                           else round(0.7 * self.ascent))
        self.cmap = self._read_cmap()
        self._units: dict[str, int] = {}           # the texts measured (:meth:`units`)
        name = self._postscript_name() or self.path.stem
        self.name = "".join(c for c in name if c.isalnum() or c in "-_") or "Font"

    def table(self, tag: str) -> bytes:
        off, length = self.tables[tag]
        return self.data[off: off + length]

    # -- characters and widths -------------------------------------------------------------------

    def _read_cmap(self) -> dict[int, int]:
        """Unicode code point → glyph id, from the font's Unicode subtable (format 12, else 4)."""
        cmap = self.table("cmap")
        n = struct.unpack_from(">H", cmap, 2)[0]
        found: dict[int, int] = {}
        for i in range(n):
            pid, eid, off = struct.unpack_from(">HHI", cmap, 4 + 8 * i)
            if (pid, eid) in ((3, 10), (0, 4), (0, 6)) or (pid, eid) in ((3, 1), (0, 3)):
                fmt = struct.unpack_from(">H", cmap, off)[0]
                found.setdefault(fmt, off)
        if 12 in found:
            off = found[12]
            groups = struct.unpack_from(">I", cmap, off + 12)[0]
            out = {}
            for g in range(groups):
                start, end, gid = struct.unpack_from(">III", cmap, off + 16 + 12 * g)
                for k in range(end - start + 1):
                    out[start + k] = gid + k
            return out
        if 4 in found:
            off = found[4]
            segs = struct.unpack_from(">H", cmap, off + 6)[0] // 2
            ends = struct.unpack_from(f">{segs}H", cmap, off + 14)
            starts = struct.unpack_from(f">{segs}H", cmap, off + 16 + 2 * segs)
            deltas = struct.unpack_from(f">{segs}h", cmap, off + 16 + 4 * segs)
            ro_at = off + 16 + 6 * segs
            ranges = struct.unpack_from(f">{segs}H", cmap, ro_at)
            out = {}
            for s in range(segs):
                for c in range(starts[s], ends[s] + 1):
                    if c == 0xFFFF:
                        continue
                    if ranges[s] == 0:
                        gid = (c + deltas[s]) & 0xFFFF
                    else:
                        at = ro_at + 2 * s + ranges[s] + 2 * (c - starts[s])
                        gid = struct.unpack_from(">H", cmap, at)[0]
                        gid = (gid + deltas[s]) & 0xFFFF if gid else 0
                    if gid:
                        out[c] = gid
            return out
        raise ValueError(f"{self.path}: no Unicode character map (cmap format 4 or 12)")

    def _postscript_name(self) -> str | None:
        if "name" not in self.tables:
            return None
        name = self.table("name")
        count, strings = struct.unpack_from(">HH", name, 2)
        for i in range(count):
            pid, eid, _lang, nid, length, off = struct.unpack_from(">6H", name, 6 + 12 * i)
            if nid != 6:
                continue
            raw = name[strings + off: strings + off + length]
            return raw.decode("utf-16-be" if pid in (0, 3) else "latin-1", errors="ignore")
        return None

    def glyph(self, ch: str) -> int:
        """The glyph id of a character (0, the font's "missing" box, for one it does not have)."""
        return self.cmap.get(ord(ch), 0)

    def units(self, text: str) -> int:
        """The advance of ``text`` in font units (no kerning: the advances add up, as
        :class:`Page` places it)."""
        got = self._units.get(text)
        if got is None:
            cmap, adv = self.cmap, self.advances
            got = sum(adv[cmap.get(ord(c), 0)] for c in text)
            if len(self._units) < 200_000:      # (a report's table layout measures its words
                self._units[text] = got         # thousands of times over: ~750,000 characters)
        return got

    def width(self, text: str, size: float) -> float:
        """The advance of ``text`` at ``size`` points, in points (no kerning: as :class:`Page`
        places it)."""
        return self.units(text) * size / self.units_per_em

    # -- the embedded subset ---------------------------------------------------------------------

    def _glyph_span(self, loca: bytes, gid: int) -> tuple[int, int]:
        if self.long_loca:
            a, b = struct.unpack_from(">II", loca, 4 * gid)
        else:
            a, b = struct.unpack_from(">HH", loca, 2 * gid)
            a, b = 2 * a, 2 * b
        return a, b

    def program(self, gids: set[int]) -> bytes:
        """The font with the outlines of ``gids`` only (and of the glyphs their composites are made
        of, and glyph 0); every other glyph is empty, and ids are kept, so text written with the
        full font's ids shows. Tables: the ones a PDF's embedded TrueType needs (ISO 32000 9.9)."""
        loca, glyf = self.table("loca"), self.table("glyf")
        keep, todo = set(), {0, *gids}
        while todo:                                # composites need their components
            gid = todo.pop()
            if gid in keep or gid >= self.n_glyphs:
                continue
            keep.add(gid)
            a, b = self._glyph_span(loca, gid)
            if b - a >= 10 and struct.unpack_from(">h", glyf, a)[0] < 0:
                at = a + 10
                while True:
                    flags, comp = struct.unpack_from(">HH", glyf, at)
                    todo.add(comp)
                    at += 4 + (4 if flags & 0x0001 else 2)
                    at += 2 if flags & 0x0008 else 4 if flags & 0x0040 else 8 if flags & 0x0080 else 0
                    if not flags & 0x0020:
                        break
        out_glyf = bytearray()
        offsets = []
        for gid in range(self.n_glyphs):
            offsets.append(len(out_glyf))
            if gid in keep:
                a, b = self._glyph_span(loca, gid)
                out_glyf += glyf[a:b]
                out_glyf += b"\0" * (-len(out_glyf) % 4)
        offsets.append(len(out_glyf))
        head = bytearray(self.table("head"))
        struct.pack_into(">I", head, 8, 0)             # checkSumAdjustment: recomputed below
        struct.pack_into(">h", head, 50, 1)            # long loca offsets
        tables = {"head": bytes(head), "hhea": self.table("hhea"), "maxp": self.table("maxp"),
                  "hmtx": self.table("hmtx"), "loca": struct.pack(f">{len(offsets)}I", *offsets),
                  "glyf": bytes(out_glyf)}
        for tag in ("cvt ", "fpgm", "prep"):
            if tag in self.tables:
                tables[tag] = self.table(tag)
        return _sfnt(tables)


def _checksum(data: bytes) -> int:
    data += b"\0" * (-len(data) % 4)
    return sum(struct.unpack(f">{len(data) // 4}I", data)) & 0xFFFFFFFF


def _sfnt(tables: dict[str, bytes]) -> bytes:
    """A TrueType file of ``tables`` (sorted by tag, 4-byte aligned, with their checksums and the
    head table's checkSumAdjustment)."""
    tags = sorted(tables)
    n = len(tags)
    power = 1 << (n.bit_length() - 1)
    header = struct.pack(">IHHHH", 0x00010000, n, 16 * power, power.bit_length() - 1, 16 * (n - power))
    offset = 12 + 16 * n
    records, body = bytearray(), bytearray()
    for tag in tags:
        data = tables[tag]
        records += struct.pack(">4sIII", tag.encode("latin-1"), _checksum(data), offset + len(body), len(data))
        body += data + b"\0" * (-len(data) % 4)
    font = bytearray(header + records + body)
    head_at = 12 + 16 * n + sum(len(tables[t]) + (-len(tables[t]) % 4) for t in tags[:tags.index("head")])
    struct.pack_into(">I", font, head_at + 8, (0xB1B0AFBA - _checksum(bytes(font))) & 0xFFFFFFFF)
    return bytes(font)


# ---------------------------------------------------------------------------------------------
# PNG: size, and the stream a PDF image takes
# ---------------------------------------------------------------------------------------------

def _png_chunks(png: bytes):
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG image")
    at = 8
    while at + 8 <= len(png):
        length, kind = struct.unpack_from(">I4s", png, at)
        yield kind, png[at + 8: at + 8 + length]
        at += 12 + length


def png_size(png: bytes) -> tuple[int, int]:
    """(width, height) in pixels, from the PNG's header."""
    kind, ihdr = next(_png_chunks(png))
    return struct.unpack_from(">II", ihdr, 0)


def _png_image(png: bytes) -> tuple[dict, bytes, bytes | None]:
    """The image's PDF dictionary entries, its stream and, for a PNG with transparency, the stream
    of its soft mask (8-bit grey)."""
    chunks = list(_png_chunks(png))
    w, h, depth, colour, _comp, _filt, interlace = struct.unpack_from(">IIBBBBB", chunks[0][1], 0)
    if depth == 8 and colour == 2 and interlace == 0 and not any(k == b"tRNS" for k, _ in chunks):
        data = b"".join(d for k, d in chunks if k == b"IDAT")
        return ({"Width": w, "Height": h, "ColorSpace": "/DeviceRGB", "BitsPerComponent": 8,
                 "Filter": "/FlateDecode",
                 "DecodeParms": f"<< /Predictor 15 /Colors 3 /BitsPerComponent 8 /Columns {w} >>"},
                data, None)
    import io

    from PIL import Image

    with Image.open(io.BytesIO(png)) as im:
        im.load()
        rgba = im.convert("RGBA")
    alpha = rgba.getchannel("A")
    mask = None if alpha.getextrema() == (255, 255) else zlib.compress(alpha.tobytes(), 6)
    return ({"Width": w, "Height": h, "ColorSpace": "/DeviceRGB", "BitsPerComponent": 8,
             "Filter": "/FlateDecode"}, zlib.compress(rgba.convert("RGB").tobytes(), 6), mask)


# ---------------------------------------------------------------------------------------------
# The document
# ---------------------------------------------------------------------------------------------

def _num(v: float) -> str:
    s = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if s in ("", "-0") else s


def _rgb(colour: str | tuple) -> str:
    if isinstance(colour, str):
        c = colour.lstrip("#")
        colour = tuple(int(c[i: i + 2], 16) / 255 for i in (0, 2, 4))
    return " ".join(_num(x) for x in colour[:3])


def _text_string(s: str) -> str:
    """A PDF text string (the document's title): UTF-16 with its byte order mark, in hex."""
    return "<FEFF" + s.encode("utf-16-be").hex().upper() + ">"


class Page:
    """One page's drawing operations, in points from the lower left corner."""

    def __init__(self, doc: PdfDocument, width: float, height: float) -> None:
        self.doc, self.width, self.height = doc, width, height
        self.ops: list[str] = []
        self.fonts: set[str] = set()
        self.images: set[str] = set()

    def text(self, x: float, baseline: float, s: str, font: str, size: float,
             colour: str | tuple = "#000000") -> None:
        """``s`` in the document's font ``font`` (a name given to :meth:`PdfDocument.add_font`),
        starting at ``x`` on ``baseline``."""
        if not s:
            return
        f = self.doc.fonts[font]
        used = self.doc.used[font]
        gids = []
        for ch in s:
            gid = f.glyph(ch)
            used.setdefault(gid, ch)
            gids.append(gid)
        self.fonts.add(font)
        hexs = "".join(f"{g:04X}" for g in gids)
        self.ops.append(f"BT /{font} {_num(size)} Tf {_rgb(colour)} rg {_num(x)} {_num(baseline)} Td "
                        f"<{hexs}> Tj ET")

    def rect(self, x: float, y: float, w: float, h: float, colour: str | tuple) -> None:
        """A filled rectangle, lower left corner at (x, y)."""
        self.ops.append(f"{_rgb(colour)} rg {_num(x)} {_num(y)} {_num(w)} {_num(h)} re f")

    def line(self, x0: float, y0: float, x1: float, y1: float, width: float, colour: str | tuple) -> None:
        self.ops.append(f"{_rgb(colour)} RG {_num(width)} w {_num(x0)} {_num(y0)} m {_num(x1)} {_num(y1)} l S")

    def image(self, png: bytes, x: float, y: float, w: float, h: float) -> None:
        """The PNG drawn into the box of lower left corner (x, y), ``w`` × ``h`` points."""
        name = self.doc.add_image(png)
        self.images.add(name)
        self.ops.append(f"q {_num(w)} 0 0 {_num(h)} {_num(x)} {_num(y)} cm /{name} Do Q")


class PdfDocument:
    """Pages, fonts and images, written as one PDF file by :meth:`save`."""

    def __init__(self, title: str = "", producer: str = "balance-toolkit") -> None:
        self.title, self.producer = title, producer
        self.fonts: dict[str, TrueTypeFont] = {}
        self.used: dict[str, dict[int, str]] = {}          # font → glyph id → a character it shows
        self.pages: list[Page] = []
        self._images: dict[bytes, str] = {}                 # PNG digest → XObject name
        self._image_data: dict[str, bytes] = {}

    def add_font(self, name: str, font: TrueTypeFont) -> None:
        self.fonts[name] = font
        self.used[name] = {}

    def page(self, width: float, height: float) -> Page:
        p = Page(self, width, height)
        self.pages.append(p)
        return p

    def add_image(self, png: bytes) -> str:
        key = hashlib.sha256(png).digest()
        if key not in self._images:
            name = f"Im{len(self._images) + 1}"
            self._images[key] = name
            self._image_data[name] = png
        return self._images[key]

    # -- writing ---------------------------------------------------------------------------------

    def save(self, path: str | Path) -> None:
        objects: list[bytes | None] = [None, None, None]   # 1 catalog, 2 pages, 3 info

        def add(obj: bytes) -> int:
            objects.append(obj)
            return len(objects)

        def stream(entries: str, data: bytes, compress: bool = True) -> int:
            if compress:
                data = zlib.compress(data, 6)
                entries += " /Filter /FlateDecode"
            return add(f"<< {entries} /Length {len(data)} >>\nstream\n".encode("latin-1") + data
                       + b"\nendstream")

        font_refs = {name: self._write_font(name, add, stream) for name in self.fonts if self.used[name]}
        image_refs = {}
        for name, png in self._image_data.items():
            entries, data, mask = _png_image(png)
            extra = ""
            if mask is not None:
                m = stream(f"/Type /XObject /Subtype /Image /Width {entries['Width']} /Height "
                           f"{entries['Height']} /ColorSpace /DeviceGray /BitsPerComponent 8 "
                           f"/Filter /FlateDecode", mask, compress=False)
                extra = f" /SMask {m} 0 R"
            d = " ".join(f"/{k} {v}" for k, v in entries.items())
            image_refs[name] = stream(f"/Type /XObject /Subtype /Image {d}{extra}", data, compress=False)
        kids = []
        for p in self.pages:
            content = stream("", "\n".join(p.ops).encode("latin-1"))
            fonts = " ".join(f"/{f} {font_refs[f]} 0 R" for f in sorted(p.fonts))
            images = " ".join(f"/{i} {image_refs[i]} 0 R" for i in sorted(p.images))
            kids.append(add(
                f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {_num(p.width)} {_num(p.height)}] "
                f"/Resources << /Font << {fonts} >> /XObject << {images} >> >> /Contents {content} 0 R >>"
                .encode("latin-1")))
        objects[0] = b"<< /Type /Catalog /Pages 2 0 R >>"
        objects[1] = (f"<< /Type /Pages /Kids [{' '.join(f'{k} 0 R' for k in kids)}] /Count {len(kids)} >>"
                      .encode("latin-1"))
        objects[2] = f"<< /Title {_text_string(self.title)} /Producer {_text_string(self.producer)} >>".encode(
            "latin-1")
        out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
        offsets = []
        for i, obj in enumerate(objects, 1):
            offsets.append(len(out))
            out += f"{i} 0 obj\n".encode("latin-1") + obj + b"\nendobj\n"
        xref = len(out)
        out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode("latin-1")
        out += b"".join(f"{o:010d} 00000 n \n".encode("latin-1") for o in offsets)
        out += (f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R /Info 3 0 R >>\nstartxref\n{xref}\n%%EOF\n"
                .encode("latin-1"))
        Path(path).write_bytes(bytes(out))

    def _write_font(self, name: str, add, stream) -> int:
        """The Type 0 font (CIDFontType2, Identity-H, ToUnicode) of the glyphs ``name`` showed."""
        f, used = self.fonts[name], self.used[name]
        gids = sorted(used)
        program = f.program(set(gids))
        # A subset's name starts with six capital letters of its own (ISO 32000 9.6.4).
        tag = "".join(chr(65 + b % 26) for b in hashlib.sha256(program).digest()[:6])
        base = f"{tag}+{f.name}"
        scale = 1000 / f.units_per_em
        file_ref = stream(f"/Length1 {len(program)}", program)
        bbox = " ".join(_num(v * scale) for v in f.bbox)
        descriptor = add(
            f"<< /Type /FontDescriptor /FontName /{base} /Flags 32 /FontBBox [{bbox}] /ItalicAngle 0 "
            f"/Ascent {_num(f.ascent * scale)} /Descent {_num(f.descent * scale)} "
            f"/CapHeight {_num(f.cap_height * scale)} /StemV 80 /FontFile2 {file_ref} 0 R >>".encode("latin-1"))
        widths = " ".join(f"{g} [{_num(f.advances[g] * scale)}]" for g in gids)
        cid = add(
            f"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /{base} /CIDSystemInfo << /Registry (Adobe) "
            f"/Ordering (Identity) /Supplement 0 >> /FontDescriptor {descriptor} 0 R /W [{widths}] "
            f"/CIDToGIDMap /Identity >>".encode("latin-1"))
        pairs = [(g, used[g]) for g in gids if g != 0]
        blocks = []
        for i in range(0, len(pairs), 100):
            part = pairs[i: i + 100]
            blocks.append(f"{len(part)} beginbfchar\n"
                          + "\n".join(f"<{g:04X}> <{ch.encode('utf-16-be').hex().upper()}>" for g, ch in part)
                          + "\nendbfchar")
        cmap = ("/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n"
                "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
                "/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n"
                "1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n" + "\n".join(blocks)
                + "\nendcmap\nCMapName currentdict /CMap defineresource pop\nend\nend")
        to_unicode = stream("", cmap.encode("latin-1"))
        return add(f"<< /Type /Font /Subtype /Type0 /BaseFont /{base} /Encoding /Identity-H "
                   f"/DescendantFonts [{cid} 0 R] /ToUnicode {to_unicode} 0 R >>".encode("latin-1"))
