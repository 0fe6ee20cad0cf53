"""A before/after report takes the skill directory of the after run's rules only (review s47, docs/
search.md: "balance report BEFORE AFTER --skill DIR takes the skill directory of the after run's
rules"): one of the before run's rules was accepted and its trend printed under the change's
heading as the variant's."""

from __future__ import annotations

import pytest

from cli import _run

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

CHANGE = "setup.start_coins=[0,1,2,3]"


@pytest.fixture(scope="module", autouse=True)
def _figures_undrawn():
    """This module's reports and skill pages get 1x1 stand-ins for their figures
    (tests/undrawn_figures.py): its tests read exit codes, errors and the page's words, never the
    pixels; the figures are still built. A Middle-Ages before/after's figures are drawn by
    test_s55_page_decimals.py's report, a report's skill figures by
    test_start_coins_caution_review.py, a skill directory's page by test_s46_tune_skill_command.py."""
    from undrawn_figures import figures_undrawn

    with figures_undrawn():
        yield


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    d = tmp_path_factory.mktemp("s47_skill")
    assert _run(["simulate", "-n", "200", "--out", str(d / "before"), "-q"]) == 0
    assert _run(["simulate", "-n", "200", "--set", CHANGE, "--out", str(d / "after"), "-q"]) == 0
    assert _run(["skill", "--budgets", "0,2", "--games", "40", "--out", str(d / "sk_before"), "-q"]) == 0
    assert _run(["skill", "--budgets", "0,2", "--games", "40", "--set", CHANGE,
                 "--out", str(d / "sk_after"), "-q"]) == 0
    return d


def test_the_before_runs_skill_directory_is_refused_in_one_line(played, tmp_path, capsys):
    capsys.readouterr()
    out = tmp_path / "rep"
    assert _run(["report", str(played / "before"), str(played / "after"), "--out", str(out),
                 "--skill", str(played / "sk_before")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "played under other rules" in err and "than the after run" in err
    assert not out.exists()


def test_the_after_runs_skill_directory_is_taken(played, tmp_path):
    assert _run(["report", str(played / "before"), str(played / "after"), "--out", str(tmp_path / "rep"),
                 "--skill", str(played / "sk_after")]) == 0
    assert "As play gets stronger" in (tmp_path / "rep" / "report.html").read_text()
