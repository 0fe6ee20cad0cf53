"""A page's lead puts its answers in bold, not whole paragraphs.

A panel before/after's lead set "Seat 3 moved in 2 of 3 cells, down in each (4p 4×balanced −5.4 pp
…)" and every following paragraph in solid bold (a sentence without "question: answer" was bolded
whole): twelve lines of bold, where nothing stood out. A long paragraph without one is now plain; a
question's answer and a short headline stay bold.
"""

from __future__ import annotations

import pytest
from reports.sweep import _lead_html


def test_a_long_paragraph_without_an_answer_is_plain():
    long = ("Seat 3 moved in 2 of 3 cells, down in each (4p 4×balanced −5.4 pp (−7.7 to −3.0 pp), clear and "
            "large enough to matter; 4p 4×greedy −3.7 pp (−6.0 to −1.3 pp), clear and large enough to matter); "
            "within noise in the other 1.")
    assert "<b>" not in _lead_html(long)
    asked = "Did the seat win rates move, line-up by line-up? Yes, by enough to matter: Seat 1 moved in 3 of 3 cells."
    assert _lead_html(asked).startswith("<b>Did the seat win rates move, line-up by line-up? Yes, by enough to "
                                        "matter:</b>")
    assert _lead_html("Seigneurial, 4 players") == "<b>Seigneurial, 4 players</b>"


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_panel_before_after_page_has_no_paragraph_in_bold_whole(tmp_path):
    import re

    from cli import _run, _simulate_app
    from in_process import balance

    for name, sets in (("base", []), ("coins", ["--set", "setup.start_coins=5"])):
        assert _run(["--panel", "default", "--games", "3000", "--seed", "2", *sets, "--out",
                     str(tmp_path / name), "-q"], prog="simulate", target=_simulate_app()) == 0
    balance("report", tmp_path / "base", tmp_path / "coins", "--out", tmp_path / "r")
    page = (tmp_path / "r" / "report.html").read_text()
    lead = re.findall(r"<p style='font-size:1.15em'>(.*?)</p>", page)
    assert len(lead) >= 3
    whole = [p for p in lead if p.startswith("<b>") and p.endswith("</b>") and len(p) > 130]
    assert not whole, whole[:2]
