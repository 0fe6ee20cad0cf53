"""The skill page says why Ludii's Balance may move another way than the largest win-share gap its
sentence reads (a designer saw Balance fall 0.922 → 0.858 beside a gap that shrank, without a
word): Balance reads average places, not wins; its first and last budget's values; whether their 95%
intervals overlap. Checked against the table's own numbers."""

from __future__ import annotations

import polars as pl

from reports.skill import balance_note
from simcore import games as registry


def _table(rows):
    """Every-seat part rows (two seats each) of one cell: (budget, balance, low, high)."""
    return pl.DataFrame([{"cell": "4p 4×balanced", "part": "all", "budget": b, "seat": s, "balance": v,
                          "balance_low": lo, "balance_high": hi}
                         for b, v, lo, hi in rows for s in (0, 1)])


def test_the_note_gives_the_ends_and_whether_they_can_be_told_apart():
    spec = registry.get("middle-ages")
    said = balance_note(_table([(0, 0.9225, 0.847, 1.0), (4, 0.876, 0.801, 0.955), (16, 0.8583, 0.785, 0.937)]), spec)
    assert "average places" in said and "not their wins" in said
    assert "from budget 0 to budget 16 it goes 0.922 → 0.858" in said, said
    assert "intervals overlap, so these games do not tell the two apart" in said
    apart = balance_note(_table([(0, 0.95, 0.93, 0.97), (64, 0.80, 0.77, 0.83)]), spec)
    assert "from budget 0 to budget 64 it goes 0.950 → 0.800; its 95% intervals do not overlap." in apart
    assert balance_note(_table([(0, 0.95, 0.93, 0.97)]), spec) == ""              # one budget
    assert balance_note(_table([(0, 0.95, 0.93, 0.97), (4, 0.9, 0.8, 1.0)]),
                        registry.get("seigneurial")) == ""                         # a game with roles
