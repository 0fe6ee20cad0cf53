"""Session 64: a sweep page's lead printed its command in code marks literally ("give
`--smallest-difference win_share=0.1pp`", the backticks on the page) where every other page sets it
as code (:func:`reports.html.code_marks`). The lead's HTML (:func:`reports.sweep._lead_html`) now
sets it as code, in its bold answer and in the plain rest; the words themselves are unchanged."""

from __future__ import annotations

import re

import pytest

from reports.sweep import _lead_html
from reports.text import small_share_caveat

LONG = ("What track.rent_before.4 does to the sides: the Seigneur's win share is 0.440% (0.357 to "
        "0.542) at 3. The Seigneur's win share is 0.080% to 0.440% over the values tried: "
        + small_share_caveat(0.01) + ".")


@pytest.mark.parametrize("text", [
    LONG,                                                   # an answer, then the rest
    "Run `balance tune` next: it aims at a share.",         # the command inside the bold answer
    "no answer here, only a short line with `balance sweep`",   # a short headline, bold whole
    "x" * 130 + " then `balance sweep --panel wide` in a long plain paragraph",
])
def test_s64_sweep_lead_sets_code_marks_as_code(text):
    page = _lead_html(text)
    assert "`" not in page, page
    commands = re.findall(r"`([^`]+)`", text)
    assert commands
    for c in commands:
        assert f"<code>{c}</code>" in page, (c, page)
    # the words are the sentence's: tags and code marks removed, the same text
    assert re.sub(r"<[^>]+>", "", page).replace("&#x27;", "'") == text.replace("`", "")
