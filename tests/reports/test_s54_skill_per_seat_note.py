"""The skill page's note says how many games each searching seat played, and when --games does not
split evenly over the seats, how many were played in all (session 54 review of balance skill:
``balance skill --game middle-ages --players 3 --games 400`` wrote "the one-searching-seat part
splits them over the seats it rotates through: 134, rounded up: 402 in all per seat", calling
the 402 games of the three seats together one seat's). Counts are read from the table here."""

from __future__ import annotations

import html
import re

import polars as pl
from skill_dirs import played_skill
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def _page_text(out) -> str:
    page = (out / "report.html").read_text(encoding="utf-8")
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def test_rounded_up_note_says_per_seat_then_in_all(tmp_path_factory):
    out = played_skill(tmp_path_factory, "--games", "41")          # 2 players: 21 a seat
    one = pl.read_parquet(out / "skill.parquet").filter(pl.col("part") == "one")
    per = int(one["games"].max())
    total = int(one.filter(pl.col("budget") == one["budget"].min())["games"].sum())
    assert (per, total) == (21, 42)                 # the part played 21 games a seat, 42 in all
    text = _page_text(out)
    assert f"rotates through: {per} per seat, rounded up: {total} in all)" in text, text[:600]
    assert "in all per seat" not in text


def test_even_split_note_unchanged(tmp_path_factory):
    out = played_skill(tmp_path_factory, "--games", "40")          # 2 players: 20 a seat
    text = _page_text(out)
    assert "rotates through: 20 per seat)" in text, text[:600]
    assert "rounded up" not in text
