"""A balance skill without budget 0 (the bots themselves) says that it cannot tell whether the
search bot is the stronger player, and what plays budget 0 (session 54 review of balance skill:
``balance skill --game middle-ages --budgets 4,16 --games 100 --seed 5`` printed no word on it,
on the terminal, in skill.txt or on the page, and its trend sentence began "with every seat
searching at the budget (at budget 0 every seat plays its own bot)" with no budget 0 played)."""

from __future__ import annotations

import html
import re

import polars as pl
from skill_dirs import played_skill

from in_process import balance
from undrawn_figures import skill_pages_undrawn
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def _words(text: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split())


def test_without_budget_zero_the_gain_is_said_not_read(tmp_path_factory):
    out = played_skill(tmp_path_factory, "--budgets", "1,2", "--games", "20")
    table = pl.read_parquet(out / "skill.parquet")
    assert sorted(table["budget"].unique().to_list()) == [1, 2]          # no budget 0 played
    txt = (out / "skill.txt").read_text()
    page = _words((out / "report.html").read_text(encoding="utf-8"))
    for text in (txt, page):
        said = " ".join(text.split())
        assert "Budget 0 (every seat its own bot) was not played" in said, said
        assert "whether one searching seat at budget 2 beats the seat's own bot" in said
        assert "--budgets 0" in said
        # the trend sentence does not describe a budget 0 it does not have
        assert "at budget 0 every seat plays its own bot" not in said


def test_the_command_it_names_adds_budget_zero(tmp_path_factory):
    out = played_skill(tmp_path_factory, "--budgets", "1,2", "--games", "20")
    # "the same balance skill command with --budgets 0 adds it": the directory then answers 0, 1, 2
    with skill_pages_undrawn():
        balance("skill", "--game", "middle-ages", "--players", "2", "-q", "--budgets", "0",
                "--games", "20", "--out", out)
    table = pl.read_parquet(out / "skill.parquet")
    assert sorted(table["budget"].unique().to_list()) == [0, 1, 2]
    txt = " ".join((out / "skill.txt").read_text().split())
    assert "was not played" not in txt
    assert "one searching seat's win share against the seat's own bot's" in txt
    assert "(at budget 0 every seat plays its own bot)" in txt
