"""A sweep not finished yet does not call its last value played the end of the range (review s50
sweep #2: cut short before 7 and 8 of 1..8, its lead said "6 is the highest value tried … so a
higher value may be fairer, if the rules allow one (this sweep was written before sweeps
checked)": the sweep was of this version, and 7 and 8 were simply still to be played)."""

from __future__ import annotations

import html
import re
import shutil

from cli import _run
import pytest

# the tests' CPU over docs/testing.md's budget (session 63): this module runs in make test-slow
# and CI, not in make test
pytestmark = pytest.mark.slow


def _lead(out) -> str:
    page = html.unescape(re.sub(r"<[^>]+>", " ", (out / "report.html").read_text(encoding="utf-8")))
    return re.sub(r"\s+", " ", page)


def test_unplayed_values_past_the_best_are_named_not_guessed(tmp_path):
    sweep = tmp_path / "sw"
    assert _run(["sweep", "--out", str(sweep), "--vary", "setup.start_coins[0]=0..7", "--games", "20000",
                 "--quiet"]) == 0
    # the same sweep as if stopped before its last value, with its first two played (the range's
    # low end, where this seed's fairest value lies, out of the picture)
    cut = tmp_path / "cut"
    shutil.copytree(sweep, cut)
    for v in ("v000", "v001", "v007"):
        shutil.rmtree(cut / "variants" / v)
    from undrawn_figures import figures_undrawn

    # (figures 1x1 stand-ins: the lead's words are read; a Middle-Ages sweep page's figures are
    # drawn by test_s50_sweep_players_named.py)
    with figures_undrawn():
        assert _run(["report", str(cut), "--out", str(tmp_path / "rep")]) == 0
    text = _lead(tmp_path / "rep")
    m = re.search(r"Fairest value of setup\.start_coins\[0\] \(seat 1's\): (\d)", text)
    assert m and m.group(1) == "6", "precondition: this seed's fairest of 2..6 is 6, at the end played"
    assert "6 is the highest value played so far" in text
    assert "7 is not played yet: resume the sweep" in text
    assert "highest value tried" not in text and "written before sweeps checked" not in text
