"""Review s53 (a designer comparing two rule sets): the wording of a before/after and of a check.

#3 a largest gap that grew was hedged "so it may be no smaller" (the before's low end, the after's
high end); #4 two runs of the same rules, bots, seed and games were said to differ by "the bots,
the seed or the number of games"; #5 the check printed an interval end of "0.00" that excludes 0;
#6 the check named a change of Seigneurial scores "% of own goal", the reports "pp of own goal"."""

from __future__ import annotations

import polars as pl
import pytest

from in_process import balance

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


@pytest.fixture(scope="module", autouse=True)
def _figures_undrawn():
    """This module's reports get 1x1 stand-ins for their figures (tests/undrawn_figures.py): its
    tests read the pages' and the printout's words, never the pixels; the figures are still built.
    A Middle-Ages run's and before/after's figures are drawn by test_s55_page_decimals.py's report."""
    from undrawn_figures import figures_undrawn

    with figures_undrawn():
        yield


def test_a_gap_that_grew_is_asked_whether_it_grew_at_all():
    from reports.text import untold_gap_words

    grew = {"before": 0.0485, "after": 0.0506, "change": 0.0021, "before_low": 0.0445,
            "before_high": 0.0524, "after_low": 0.0470, "after_high": 0.0613}
    said = untold_gap_words(grew, 2)
    assert "up to 5.24 pp before and at 4.70 pp or more after, so it may be no larger" in said, said
    fell = {**grew, "after": 0.0466, "change": -0.0019}
    assert "4.45 pp or more before and at up to 6.13 pp after, so it may be no smaller" in \
        untold_gap_words(fell, 2)
    # the ranges do not overlap: nothing to hedge
    assert untold_gap_words({**grew, "after_low": 0.0530}, 2) == ""


def test_runs_of_the_same_games_are_said_to_be_the_same_games(tmp_path):
    rules = tmp_path / "commented.toml"
    from pathlib import Path

    shipped = Path(__file__).resolve().parents[2] / "configs" / "middle_ages" / "rules.toml"
    rules.write_text(shipped.read_text(encoding="utf-8") + "\n# a note\n", encoding="utf-8")
    balance("simulate", "--games", 2000, "--out", tmp_path / "a", "-q")
    balance("simulate", "--games", 2000, "--rules", rules, "--out", tmp_path / "b", "-q")
    a = pl.read_parquet(tmp_path / "a" / "players.parquet")
    b = pl.read_parquet(tmp_path / "b" / "players.parquet")
    assert a["win_share"].to_list() == b["win_share"].to_list()      # the same games indeed
    import re

    def page(d):
        html = (d / "report.html").read_text(encoding="utf-8")
        return " ".join(re.sub(r"<[^>]+>", " ", html).split())

    balance("report", tmp_path / "a", tmp_path / "b", "--out", tmp_path / "r")
    said = page(tmp_path / "r")
    assert "plays the same rule settings, bots, seed and number of games as" in said, said
    assert "the rules files differ only in comments or layout" in said
    assert "comes from the bots, the seed or the number of games" not in said
    balance("simulate", "--games", 2000, "--seed", 5, "--out", tmp_path / "c", "-q")
    balance("report", "--no-pool", tmp_path / "a", tmp_path / "c", "--out", tmp_path / "rc")
    other = page(tmp_path / "rc")
    assert "any difference comes from the seed, which differs" in other, other


def test_a_check_interval_end_that_excludes_zero_is_not_printed_as_zero():
    from analysis.check.presentation import _span

    assert _span(-1.84, -0.004) == "-1.840 to -0.004"
    assert _span(-1.84, -0.3) == "-1.84 to -0.30"
    assert _span(0.2, 0.996, smallest=1.0) == "+0.200 to +0.996"
    assert _span(-1.84, 0.0) == "-1.84 to 0.00"


def test_a_change_of_a_goal_share_is_in_points_of_it():
    from analysis.check.measure import diff_unit_of

    assert diff_unit_of("seat_mean_score", "seigneurial") == "pp of own goal"
    assert diff_unit_of("seat_mean_score", "middle-ages") == "coins"
    assert diff_unit_of("seat_win_share", "seigneurial") == "pp"


def test_a_single_runs_printout_ends_with_whom_its_findings_hold_for(tmp_path):
    # (review s53 docs: the terminal printed the seat lines and no line-up; the page ends with it)
    balance("simulate", "--games", 2000, "--players", 3, "--strategies", "greedy", "--out",
            tmp_path / "a", "-q")
    done = balance("report", tmp_path / "a", "--out", tmp_path / "r")
    lines = [x.strip() for x in done.stdout.splitlines()]
    holds = [x for x in lines if x.startswith("These findings hold for")]
    assert holds and "3p 3×greedy" in holds[0], done.stdout
    assert lines.index(holds[0]) > max(i for i, x in enumerate(lines) if x.startswith("Seat "))
