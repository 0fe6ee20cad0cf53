"""Two small readings of review s46 #13: the side-by-side page lists player counts in order
(runs typed 4p, 3p, 5p read as a trend out of order), and the winner's lead in a percentage unit
is in points of it ("19.27% of own goal ahead" read as a relative 19%)."""

from __future__ import annotations

import html
import re

import polars as pl

import undrawn_figures as undrawn
from cli import _run
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def _page(d) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", (d / "report.html").read_text())))


def test_side_by_side_reads_player_counts_in_order(tmp_path):
    runs = []
    for n in (4, 3, 5):
        runs.append(tmp_path / f"p{n}")
        assert _run(["simulate", "--game", "seigneurial", "--players", str(n), "--games", "1000",
                     "--out", str(runs[-1]), "-q"]) == 0
    with undrawn.figures_undrawn():
        assert _run(["report", *map(str, runs), "--side-by-side", "--out", str(tmp_path / "rep")]) == 0
    page = _page(tmp_path / "rep")
    assert "Player counts side by side (3p, 4p, 5p)" in page
    at = [page.index(f"{n} players (p{n}, 1,000 games)") for n in (3, 4, 5)]
    assert at == sorted(at), at


def test_the_winners_lead_is_in_points_of_own_goal(tmp_path):
    run = tmp_path / "r"
    assert _run(["simulate", "--game", "seigneurial", "--games", "2000", "--out", str(run), "-q"]) == 0
    with undrawn.figures_undrawn():
        assert _run(["report", str(run), "--out", str(tmp_path / "rep")]) == 0
    page = _page(tmp_path / "rep")
    m = re.search(r"The winner finishes ([\d.]+) (\S+) of own goal", page)
    assert m and m[2] == "pp", m and m[0]
    # the lead as players.parquet gives it: the winner's score minus the runner-up's, averaged
    p = pl.read_parquet(run / "players.parquet").sort(["game", "score"], descending=[False, True])
    lead = p.group_by("game", maintain_order=True).agg((pl.col("score").first() - pl.col("score").get(1))
                                                        .alias("lead"))["lead"].mean()
    assert abs(float(m[1]) - lead) < 0.05, (m[1], lead)
