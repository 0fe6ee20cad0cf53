"""docs/ci.md says what its own tables and transcripts show (no game is played here)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")


def _num(text: str) -> float:
    return float(text.replace(",", "").replace("*", "").strip())


def test_the_reading_of_the_slowest_case_matches_the_table_beside_it():
    # the fixed-size test's games and the sequential row "every metric at +tolerance"
    fixed = re.search(r"\| unchanged \(Δ = 0\) \| fixed-N \|[^\n]*\| ([\d,]+) \| [\d,]+ \|", DOC)
    row = re.search(r"\| every metric at \+tolerance[^\n]*\n\| \| sequential \| ([^\n]*)\|", DOC)
    assert fixed and row
    cells = [c.strip() for c in row.group(1).split("|")]
    undecided = _num(cells[2].rstrip(" %"))
    mean_games = _num(cells[3])
    share = 100 * mean_games / _num(fixed.group(1))
    sentence = re.search(r"The slowest case, every metric exactly on\s+its tolerance, still averages "
                         r"(\d+) % of the fixed-size test and ends undecided in ([\d.]+) % of checks", DOC)
    assert sentence, "the sentence on the slowest case is gone"
    assert int(sentence.group(1)) == round(share), (sentence.group(1), share)
    assert float(sentence.group(2)) == undecided, (sentence.group(2), undecided)
