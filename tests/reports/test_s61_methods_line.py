"""The report's closing Methods line names the methods its page's numbers use (review s61 fix 260
#2): a before/after of the same deals leads with paired t intervals on per-game differences, and
said "Newcombe for differences of proportions"; a page with the played ablation did not name the
ablation's methods (MOVER over Clopper-Pearson at 1 − 0.05/cells, max-|t|), only its run.json did;
a run's page named Newcombe for differences it does not have."""

from __future__ import annotations

import html
import re

import polars as pl
import pytest

from in_process import balance

# the tests' CPU over docs/testing.md's budget (session 63): this module runs in make test-slow
# and CI, not in make test
pytestmark = pytest.mark.slow

GAMES = 300


def _methods(report_dir) -> str:
    text = (report_dir / "report.html").read_text(encoding="utf-8")
    notes = re.findall(r"<p class='note'>(Methods: .*?)</p>", text)
    assert len(notes) == 1, notes
    return html.unescape(notes[0])


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("s61_methods")
    b4, noall = root / "b4", root / "noall"
    balance("simulate", "--games", GAMES, "-q", "--out", b4)
    balance("simulate", "--games", GAMES, "-q", "--set", "events[2].per_tile.eglise=0",
            "--set", "events[2].per_tile.palais=0", "--out", noall)
    return root, b4, noall


def test_a_runs_page_names_no_method_of_a_comparison(runs):
    root, b4, _ = runs
    balance("report", b4, "--out", root / "rep_run")
    note = _methods(root / "rep_run")
    assert "Wilson" in note and "Student t" in note
    assert "Newcombe" not in note and "Welch" not in note and "Wald" not in note
    assert "paired t tests of the seats' score differences game by game" in note    # the score caption's


def test_a_before_after_of_the_same_deals_names_its_paired_intervals(runs):
    root, b4, noall = runs
    balance("report", b4, noall, "--out", root / "rep_cmp")
    note = _methods(root / "rep_cmp")
    cmp = pl.read_csv(root / "rep_cmp" / "comparison.csv")
    tested = cmp.filter(pl.col("p_value").is_not_null())
    assert tested.filter(pl.col("paired") & (pl.col("metric") == "seat_win_share")).height == 4
    assert "paired t intervals on the per-game differences" in note, note
    unpaired_shares = tested.filter(~pl.col("paired") & (pl.col("kind") == "proportion"))
    # Newcombe's interval only where an unpaired share was compared, and then as the others'
    assert ("Newcombe for other differences of proportions" in note) == (unpaired_shares.height > 0), note
    assert "Newcombe for differences of proportions" not in note


@pytest.mark.slow   # plays the ablation: make test-slow and CI run it (docs/testing.md)
def test_a_page_with_the_ablation_names_its_methods(runs):
    root, b4, _ = runs
    balance("questions", b4, "--out", root / "q", "--games", 200)
    balance("report", b4, "--questions", root / "q", "--out", root / "rep_q")
    note = _methods(root / "rep_q")
    assert "MOVER" in note and "Clopper-Pearson" in note and "max-|t|" in note, note
