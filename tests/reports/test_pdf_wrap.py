"""The PDF's word wrap (reports.pdf._Layout.wrap), checked against widths measured afresh, each
line whole: every line fits the room; the text comes back in order, one space dropped at each break
between words; no line could have taken the next word (greedy); a word wider than the room is cut
into the longest pieces that fit. (wrap adds up the advances of words and spaces instead of
measuring each trial line again: the font has no kerning, so the sums are the lines' widths.)"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reports.pdf import PdfDocument, _Layout

DOC = _Layout(PdfDocument("wrap"), "wrap")
WORD = st.text(alphabet="abcdéWMil1·–%()", min_size=1, max_size=16)


def _fits(text: str, size: float, room: float, weight: str = "normal") -> bool:
    return DOC.width(text, size, weight) <= room + 1e-6


def _check(text: str, size: float, room: float, weight: str = "normal") -> list[str]:
    lines = DOC.wrap(text, size, room, weight)
    pos = 0
    for k, line in enumerate(lines):
        assert text.startswith(line, pos), (text, lines, k)
        assert _fits(line, size, room, weight) or len(line) == 1, (line, room)
        pos += len(line)
        if pos == len(text):
            assert k == len(lines) - 1, lines
        elif text[pos] == " ":                      # a break between words: the next did not fit
            pos += 1
            nxt = text[pos:].split(" ")[0]
            assert not _fits(f"{line} {nxt}", size, room, weight), (line, nxt, room)
        else:                                       # a word cut: the longest piece that fits
            assert len(line) == 1 or not _fits(line + text[pos], size, room, weight), (line, room)
    assert pos == len(text), (text, lines)
    return lines


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
@settings(max_examples=300, deadline=None)
@given(words=st.lists(WORD, min_size=1, max_size=30), size=st.sampled_from([6.0, 7.5, 10.0]),
       room=st.floats(0.05, 3.0), weight=st.sampled_from(["normal", "bold"]))
def test_every_line_fits_and_no_line_could_take_the_next_word(words, size, room, weight):
    _check(" ".join(words), size, room, weight)


def test_a_word_wider_than_the_room_is_cut_into_pieces_that_fit():
    lines = _check("a Cérémonies-dispendieuses-du-seigneur b", 7.5, 0.6)
    assert lines[0] == "a" and len(lines) >= 4
