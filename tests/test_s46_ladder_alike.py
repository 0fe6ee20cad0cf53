"""The role ladder's cell of two bots that play a role alike (review s46 #7): standard and
fair-share have the same Censitaire settings, so standard at one Censitaire seat against copies of
fair-share wins exactly what fair-share itself wins there, a third on every deal (standard error
0 in the CSV); the table printed "33.3% (24.9–43.0)", the widest interval of the table on the one
cell with no contest. It now says the row bot plays as the column bot."""

from __future__ import annotations

import re

import polars as pl

from cli import _run
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def test_alike_bots_cell_says_so_not_an_interval(tmp_path, capsys):
    out = tmp_path / "lad.csv"
    assert _run(["ladder", "--game", "seigneurial", "--games", "300", "--bots", "standard,fair-share,objective",
                 "--out", str(out)]) == 0
    said = capsys.readouterr().out
    rows = pl.read_csv(out)
    cell = rows.filter((pl.col("bot") == "standard") & (pl.col("opponent") == "fair-share")
                       & (pl.col("role") == "censitaire"))
    assert cell.height == 1 and cell["std_error"][0] == 0 and abs(cell["win_share"][0] - 1 / 3) < 1e-12
    censitaires = said[said.index("Censitaire bot \\ opponents"):]
    line = next(x for x in censitaires.splitlines() if x.startswith("│ standard "))
    assert "33.3% (the same play as fair-share)" in line, line
    assert not re.search(r"33\.3% \(\d", line), line
    # a contest keeps its interval and its call
    assert re.search(r"20\.0% \([\d.]+–[\d.]+\) \[33\.3%\] ▼", line), line
