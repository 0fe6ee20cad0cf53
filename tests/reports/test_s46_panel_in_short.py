"""A panel page's "In short" is short (review s45, left open then: "the In short block repeats its
table"): its lead held a paragraph giving every cell's finding seat and largest other gap, the
numbers of the "Every cell" table beside it. That paragraph now opens "Every cell", under the
table's own heading; the page's lead keeps the finding; the command line, which prints no table,
keeps all three paragraphs."""

from __future__ import annotations

import html
import re

import undrawn_figures as undrawn
from analysis.panel import largest_gaps, panel_table
from cli import _run
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def test_the_per_cell_paragraph_moves_from_the_lead_to_every_cell(tmp_path, capsys):
    pan = tmp_path / "pan"
    assert _run(["simulate", "--players", "3,4", "--lineup", "balanced", "--games", "1000", "--out", str(pan),
                 "-q"]) == 0
    capsys.readouterr()
    with undrawn.figures_undrawn():
        assert _run(["report", str(pan), "--out", str(tmp_path / "rep")]) == 0
    printed = capsys.readouterr().out
    t = panel_table(sorted(p for p in pan.iterdir() if p.is_dir() and (p / "run.json").is_file()))
    gaps = largest_gaps(t.cells, t.smallest)
    assert gaps.startswith("In 3p "), gaps
    page = (tmp_path / "rep" / "report.html").read_text(encoding="utf-8")
    lead, _, rest = page.partition("<section id='cells'")
    words = lambda x: " ".join(html.unescape(re.sub(r"<[^>]+>", " ", x)).split())   # noqa: E731
    assert "the largest gap among the other seats" not in words(lead)
    assert "The finding" in words(lead) or "The question" in words(lead)
    every_cell = words(rest.split("</section>")[0])
    assert words(gaps)[:120] in every_cell
    assert "the largest gap among the other seats" in " ".join(printed.split())
