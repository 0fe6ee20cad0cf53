"""``balance report RUN`` of a Seigneurial run prints the SG-6 tie-break line the page has after the sides.

The designer review (session 41) found the terminal's lines ending with the sides' shares (the
Seigneur's 0.4%, the Censitaires' 99.6%, the Censitaire seats) while the page's next finding, how
many of the Seigneur's wins SG-6's tie-break gave him, stayed on the page. The report hook's
``lead_headlines`` (with ``LEAD_IN_TERMINAL``) now ends the terminal's lines too.
"""

from __future__ import annotations

import pytest
import html
import re

import polars as pl

from simcore import runner


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_terminal_prints_the_tie_break_line_of_the_page(tmp_path):
    from in_process import balance

    run = runner.simulate("seigneurial", games=2000, seed=0, out=tmp_path / "sg", quiet=True)
    out = balance("report", run, "--out", tmp_path / "r").stdout
    g = pl.read_parquet(run / "games.parquet")
    # counted here from games.parquet: code 1 the Seigneur's goal alone, 3 his goal winning the tie
    tie, alone = int((g["end_reason"] == 3).sum()), int((g["end_reason"] == 1).sum())
    assert tie and alone
    lines = [x.strip() for x in out.splitlines()]
    said = [x for x in lines if x.startswith("The Seigneur reached his goal square in ")]
    assert len(said) == 1, out
    line = said[0]
    assert f"({tie + alone:,} of {g.height:,}); in {tie:,} of them" in line
    assert "SG-6's tie-break" in line
    # after the sides' lines, as on the page, and the page's own sentence word for word
    assert lines.index(line) > next(i for i, x in enumerate(lines) if x.startswith("The Seigneur wins "))
    page = html.unescape(re.sub(r"<[^>]+>", "", (tmp_path / "r" / "report.html").read_text(encoding="utf-8")))
    assert line in page
