"""A report's skill line reads the bots on the run's own games too, where the run is the study's
budget 0 played longer (review 45 #1: "with the bots (budget 0) likewise: the largest gap was 9.0
pp (0.0 to 19.8)" from the study's 300 games, next to the run's own 20,000 games whose win-share
balance put the same gap at 0.7 pp). The run's gap is recomputed here from players.parquet."""

from __future__ import annotations

import html
import re

import polars as pl
import pytest
from skill_dirs import played_skill

from cli.report import make_report
from simcore import runner
from undrawn_figures import figures_undrawn, skill_pages_undrawn

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def _page(out) -> str:
    raw = out.read_text(encoding="utf-8")
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", raw)))


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    return played_skill(tmp_path_factory, "--games", "40")


def _run(path, rotate=False):
    prep = runner.prepare("middle-ages", players=2, strategies="balanced", rotate_seats=rotate)
    return runner.run(prep, games=3000, seed=9, out=path, quiet=True, raw=True)


def test_the_runs_own_games_read_the_bots_gap(study, tmp_path):
    run = _run(tmp_path / "run")
    p = pl.read_parquet(run / "players.parquet")
    shares = p.group_by("seat").agg(pl.col("win_share").cast(pl.Float64).mean()).sort("seat")["win_share"]
    gap = 100 * (shares.max() - shares.min())
    with figures_undrawn(), skill_pages_undrawn():
        page = _page(make_report([run], tmp_path / "rep", skill=study, questions_games=0))
    said = re.search(r"the run's own 3,000 games with the same bots and rules put it at ([\d.]+) pp \(([\d.]+) to "
                     r"([\d.]+), 95% intervals", page)
    assert said, page[page.find("As play gets stronger"):][:900]
    assert float(said.group(1)) == pytest.approx(gap, abs=0.051)
    assert float(said.group(2)) <= float(said.group(1)) <= float(said.group(3))


def test_a_rotated_run_is_not_read_as_the_studys_bots(study, tmp_path):
    """(the study's budget 0 does not rotate the seats: a rotated run's seats are not its seats)"""
    run = _run(tmp_path / "rotated", rotate=True)
    with figures_undrawn(), skill_pages_undrawn():
        page = _page(make_report([run], tmp_path / "rep", skill=study, questions_games=0))
    assert "As play gets stronger" in page and "the run's own" not in page
