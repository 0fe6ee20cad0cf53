"""A tune whose best candidate is the rules it started from says so first, and prints no skill
commands comparing those rules with themselves (review s48 tune #2: "Target met … with
track.goal.4=10", the base value, then "before adopting the fix … check it")."""

from __future__ import annotations

import json

from in_process import balance
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

ARGS = ("tune", "--game", "seigneurial", "--vary", "track.goal.4=[8,10]", "--target",
        "role=seigneur:0.42%:0.5", "--trials", "2", "--min-games", "2000", "--max-games", "4000",
        "--confirm-games", "20000")


def test_the_start_rules_as_best_are_no_fix(tmp_path):
    done = balance(*ARGS, "--out", tmp_path / "t")
    result = json.loads((tmp_path / "t" / "result.json").read_text())
    assert result["values"] == {"track.goal.4": 10}         # the shipped value: the start rules
    assert result["unchanged"] is True and result["met"] is True
    assert result["sentence"].startswith("No change needed: the rules the tune started from already "
                                         "meet the target. Target met ")
    assert "No change needed" in done.stdout
    assert "balance skill" not in done.stdout and "before adopting the fix" not in done.stdout
    assert "there is no fix to adopt, and no change to check as play gets stronger" in done.stdout
    page = balance("report", tmp_path / "t", "--out", tmp_path / "page").stdout
    html = (tmp_path / "page" / "report.html").read_text(encoding="utf-8")
    assert "No change needed: the rules the tune started from already meet the target." in html
    assert "before adopting the" not in html and "no change to check as play gets stronger" in html, page


def test_a_changed_setting_is_a_fix(tmp_path):
    done = balance(*ARGS[:4], "track.goal.4=[8,9]", *ARGS[5:], "--out", tmp_path / "t", check=False)
    result = json.loads((tmp_path / "t" / "result.json").read_text())
    assert result["unchanged"] is False
    assert not result["sentence"].startswith(("No change needed", "The best candidate is the rules"))
