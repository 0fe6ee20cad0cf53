"""Review 214 #7: docs/search.md's Médiévallons skill table and its worked line ("26.9% − 22.9% =
4.0 pp", "−0.4 pp") no longer matched the command it quotes: seat 3's shares of exactly 22.95% and
22.45% print, rounded half away from zero as every table now rounds, as 23.0% and 22.5%; the gaps
are 3.9 and 4.0 pp and the change −0.5 pp.

:func:`check_doc` reads the doc's table and worked line and checks them against a run's
skill.csv, rounded here (Decimal, halves away from zero), not by the toolkit's own printing. The
test plays the doc's own command (slow tier: about a minute on 2 idle cores)."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import polars as pl
import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "search.md"
COMMAND = "balance skill --game medievallons --players 4 --budgets 0,4,16,64 --games 1000 --seed 5"


def _pct(x: float) -> Decimal:
    return (Decimal(repr(x)) * 100).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)


def check_doc(skill_csv: Path, doc: str) -> None:
    """Every seat's share in the doc's 'all searching' columns, each row's largest gap, and the
    worked line's arithmetic, against ``skill_csv`` (the run of :data:`COMMAND`)."""
    t = pl.read_csv(skill_csv).filter(pl.col("part") == "all")
    assert COMMAND in doc
    section = doc[doc.index(COMMAND):]
    shown = {}
    for b in (0, 4, 16, 64):
        row = re.search(rf"^\| {b} \| [^|]+\| (.+)$", section, re.M).group(1).split("|")
        seats = [Decimal(re.match(r"\s*([\d.]+)%", cell).group(1)) for cell in row[:4]]
        want = [_pct(x) for x in t.filter(pl.col("budget") == b).sort("seat")["win_share"].to_list()]
        assert seats == want, (b, seats, want)
        gap = Decimal(re.match(r"\s*([\d.]+) pp", row[4]).group(1))
        assert gap == max(want) - min(want), (b, gap, want)
        shown[b] = (want, gap)
    # the worked line: budget 64's gap from its printed shares, the change from the printed gaps
    (hi, lo, g), change = (re.search(r"printed beside them: ([\d.]+)% − ([\d.]+)% = ([\d.]+) pp", section).groups(),
                           re.search(r"and ([\d.]+) − ([\d.]+) = (−?[\d.]+) pp", section).groups())
    want64, gap64 = shown[64]
    assert (Decimal(hi), Decimal(lo), Decimal(g)) == (max(want64), min(want64), gap64), (hi, lo, g)
    assert (Decimal(change[0]), Decimal(change[1])) == (gap64, shown[0][1]), change
    assert Decimal(change[2].replace("−", "-")) == gap64 - shown[0][1], change
    said = re.search(r"a change of (−?[\d.]+) pp", section).group(1)
    assert Decimal(said.replace("−", "-")) == gap64 - shown[0][1], said


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_medievallons_skill_table_is_the_command_it_quotes(tmp_path):
    args = shlex.split(COMMAND)
    bin_dir = Path(sys.executable).parent
    subprocess.run([str(bin_dir / args[0]), *args[1:], "--out", str(tmp_path / "skill")], check=True,
                   cwd=tmp_path, capture_output=True, text=True, timeout=3600)
    check_doc(tmp_path / "skill" / "skill.csv", DOC.read_text(encoding="utf-8"))
