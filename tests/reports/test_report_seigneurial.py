"""The Seigneurial report hook: its sentences agree with the objective and improvement tables, and
its figures draw."""

from __future__ import annotations

import re

import pytest

from analysis import analyse, open_runs
from analysis.games import seigneurial as sg
from reports.figures import seigneurial as F
from reports.games import seigneurial as hook
from reports.sections import FigureSet
from tests.analysis.test_analysis_seigneurial import seigneurial_run


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    path, _, _ = seigneurial_run(tmp_path_factory.mktemp("sg") / "r", games=3000)
    rs = open_runs([path])
    t = analyse(rs)
    t.update(sg.tables(rs))      # what the spec's analysis hook adds once the game is registered
    return t, rs


def _pcts(text):
    return [float(x) for x in re.findall(r"(\d+\.\d)", text)]


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_objective_sentences_name_the_extreme_cards_with_their_numbers(tables):
    t, _ = tables
    easy_line, hard_line = hook.objective_headlines(t)
    o = t["objectives"]
    easy, hard = o.row(0, named=True), o.row(o.height - 1, named=True)
    # numbered from #1 on the page: the table's objective 0 is card #1
    assert f"#{easy['objective'] + 1} ({easy['label']})" in easy_line and "easiest" in easy_line
    assert f"#{hard['objective'] + 1} ({hard['label']})" in hard_line and "hardest" in hard_line
    assert _pcts(hard_line)[:3] == pytest.approx([round(100 * hard[k], 1) for k in ("win_share", "ci_low", "ci_high")])
    assert "below the average" in hard_line and "above the average" in easy_line


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_improvement_sentences_match_the_table(tables):
    t, _ = tables
    reach, who = hook.improvement_headlines(t)
    before, after = t["improvements"].row(0, named=True), t["improvements"].row(1, named=True)
    assert _pcts(reach)[0] == pytest.approx(round(100 * after["share"], 1))
    nums = _pcts(who)
    assert nums[0] == pytest.approx(round(100 * after["seigneur_share"], 1))
    assert nums[3] == pytest.approx(round(100 * before["seigneur_share"], 1))
    assert "association" in who


def test_sections_and_figures_draw(tables):
    t, rs = tables
    figs = FigureSet()
    secs = hook.sections(t, rs, figs)
    assert [s.id for s in secs] == ["objectives", "improvements", "squares"]
    assert set(figs) == {"objectives", "improvements", "seigneur_squares"}
    assert F.objectives({}) is None and F.improvements({}) is None


def test_final_square_sentence_and_table_give_shares_in_percent(tables):
    """The page said "The Seigneur most often ends on square 3 (20.1 of games)" — no % sign — and
    its table printed shares as 5 and 1 beside 4.2: the sentence and every row must give the share
    of games counted here from games.parquet, as a percentage with one decimal and its sign."""
    import polars as pl

    t, rs = tables
    g = pl.concat([pl.read_parquet(p / "games.parquet") for p in rs.paths])
    counts = g.group_by("seigneur_square").len().sort("seigneur_square")
    top = counts.sort(["len", "seigneur_square"], descending=[True, False]).row(0)
    line = hook.square_sentences(t["seigneur_squares"])[0]
    assert f"ends on square {top[0]} ({100 * top[1] / g.height:.1f}% of games)" in line
    rows = hook.square_rows(t["seigneur_squares"])
    for square, n in counts.iter_rows():
        r = rows.filter(pl.col("Square") == square).row(0, named=True)
        assert r["Games"] == n and r["Share of games"] == f"{100 * n / g.height:.1f}%"
