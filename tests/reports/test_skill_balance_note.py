"""The skill page says why Ludii's Balance may move another way than the largest win-share gap its
sentence reads (a designer saw Balance fall 0.922 → 0.858 beside a gap that shrank, without a
word): Balance reads average places, not wins; its first and last budget's values; the change
with its 95% interval (MOVER from the two intervals, review s49 skill #1: "its intervals overlap,
so these games do not tell the two apart" beside a fall whose interval excludes 0). Checked
against the table's own numbers and the combination computed here."""

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
    # −0.064 (0.8583 − 0.9225), ends −0.064 ∓ √(0.0733² + 0.0775²) = −0.171 and √(0.0787² + 0.0755²) → +0.045
    assert "a change of −0.064 (−0.171 to +0.045), which these games cannot tell from no change" in said, said
    apart = balance_note(_table([(0, 0.95, 0.93, 0.97), (64, 0.80, 0.77, 0.83)]), spec)
    assert "it goes 0.950 → 0.800, a change of −0.150 (−0.186 to −0.114), so these games show it falling" in apart
    # the reviewer's: 0.940 (0.879–1.000) → 0.844 (0.785–0.908): intervals overlapping, a clear fall
    fell = balance_note(_table([(0, 0.940, 0.879, 1.0), (16, 0.844, 0.785, 0.908)]), spec)
    assert "a change of −0.096 (−0.180 to −0.008), so these games show it falling" in fell, fell
    assert "overlap" not in said + apart + fell
    assert balance_note(_table([(0, 0.95, 0.93, 0.97)]), spec) == ""              # one budget
    assert balance_note(_table([(0, 0.95, 0.93, 0.97), (4, 0.9, 0.8, 1.0)]),
                        registry.get("seigneurial")) == ""                         # a game with roles
