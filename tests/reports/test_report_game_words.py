"""A real Middle-Ages report says its scores in coins (the spec's score unit), not "points".

run.json names the game ``middle-ages``; the unit comes from the registry (``GameSpec.score_unit``),
so a report of a simulated Middle-Ages run words the winner's margin in coins, with the number of
the outcomes table.
"""

from __future__ import annotations

import pytest
import html
import re

from analysis import analyse, open_runs


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_middle_ages_report_words_the_winners_margin_in_coins(middle_ages_report):
    run, out = middle_ages_report      # `simulate --games 2000 --seed 3`, `balance report RUN`
    page = html.unescape((out / "report.html").read_text(encoding="utf-8"))
    o = {r["metric"]: r for r in analyse(open_runs([run]))["outcomes"].iter_rows(named=True)}
    r = o["score_spread"]
    x = f"{r['estimate']:.2f}".replace("-", "−")
    m = re.search(r"The winner finishes ([\d.−]+) (\w+) \(([^)]*)\) ahead of the runner-up", page)
    assert m, "winner's margin headline"
    assert m.group(1) == x
    assert m.group(2) == "coins"
    assert "Balance report: Middle-Ages, 4 players" in page
    assert "<section id='events'>" in page and "<section id='tiles'>" in page   # the game's hook
