"""A rare end of game is not printed as none (review s46 #10): harsh-lord against random
Censitaires, 20,000 games, 6 of them at the turn limit: the headline read "Turn limit reached
0.0%", as it reads an end no game reached. A share that is not 0 now gets the decimals that show
it, and an end no game reached is said as such."""

from __future__ import annotations

import html
import re

import polars as pl

import undrawn_figures as undrawn
from cli import _run
from reports.text import pct_some
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def test_pct_some_never_prints_a_share_as_none_or_all():
    assert pct_some(6 / 20000) == "0.03" and pct_some(0.25) == "25.0" and pct_some(0.0) == "0.0"
    assert pct_some(1 / 10_000_000) == "<0.001" and pct_some(1 - 1e-7) == ">99.999"
    assert pct_some(0.9996) == "99.96" and pct_some(1.0) == "100.0"


def test_headline_of_rare_and_absent_ends(tmp_path, harsh_lord_run):
    # (the run: simulate --game seigneurial --strategies harsh-lord,random --games 20000, played
    # once for this file and test_s46_length_figure.py, tests/reports/conftest.py)
    run, rep = harsh_lord_run, tmp_path / "rep"
    with undrawn.figures_undrawn():
        assert _run(["report", str(run), "--out", str(rep)]) == 0
    page = html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", (rep / "report.html").read_text())))
    ends = pl.read_parquet(run / "games.parquet")["end_reason"]
    limit = int((ends == 2).sum())
    assert 0 < limit < 10, limit                         # a handful of games at the turn limit
    head = re.search(r"The most common end is “[^”]+”: [^(]+\([^)]+\) of games \(([^)]*\)?[^)]*)\)", page)[1]
    assert f"Turn limit reached {pct_some(limit / ends.len())}%" in head, head
    assert not re.search(r"(?<![\d.])0\.0%", head), head


def test_headline_names_ends_no_game_reached(tmp_path):
    run, rep = tmp_path / "r", tmp_path / "rep"
    assert _run(["simulate", "--game", "seigneurial", "--players", "5", "--games", "3000", "--out",
                 str(run), "-q"]) == 0
    with undrawn.figures_undrawn():
        assert _run(["report", str(run), "--out", str(rep)]) == 0
    page = html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", (rep / "report.html").read_text())))
    ends = pl.read_parquet(run / "games.parquet")["end_reason"]
    head = re.search(r"The most common end is “[^”]+”: .{0,200}", page)[0]
    assert (ends == 2).sum() == 0 and (ends == 1).sum() == 0      # no turn limit, no Seigneur goal
    assert "none by Seigneur goal, Turn limit reached" in head, head
    assert not re.search(r"(?<![\d.])0\.0%", head), head
