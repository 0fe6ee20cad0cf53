"""FF-7, a break-even just after a gap of the attacker grid (session 45's Fief review, left open
then): with ``--attackers 1-5,8`` the grid has no 6 or 7, so a defence first taken by 8 attackers
may have its true break-even at 6, 7 or 8. The table must not print a bare "8" (read as exact):
it prints "≤8", break_even.csv marks the cell "≤", the caption says the break-even is 6 to 8, and
the ratio sentence leaves those defences out and says which attackers they may need. Checked
against the exact odds of every attacker from 1 point, computed here."""

from __future__ import annotations

import re

import polars as pl

import undrawn_figures as undrawn
from cli import _run
from simcore.games.fief.exact import exact_grid
from simcore.games.fief.kernel import Q_ATT_WINS
from simcore.games.fief.rules import terrain_index
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def _exact_break_even(rules, terrain: str, defender: int, level: float) -> int:
    atts = list(range(1, 31))
    p = exact_grid(rules, atts, [defender], terrain_index(terrain), 0, 1, 1, (-1, -1))[..., Q_ATT_WINS]
    return next(a for i, a in enumerate(atts) if p[i, 0] >= level)


def test_break_even_after_a_gap_of_the_grid_is_a_range(tmp_path, capsys, rules):
    with undrawn.heat_maps_undrawn():
        assert _run(["fief-odds", "--attackers", "1-5,8", "--defenders", "4-7", "--terrain", "open",
                     "--method", "exact", "--out", str(tmp_path / "o")]) == 0
    said = " ".join(capsys.readouterr().out.split())
    be = pl.read_csv(tmp_path / "o" / "break_even.csv")
    rows = dict(zip(be["defender"], zip(be["min_attacker_p50"], be["mark_p50"])))
    for d in (5, 6, 7):
        truth = _exact_break_even(rules, "open", d, 0.5)
        assert 6 <= truth <= 8 and rows[d] == (8, "≤"), (d, truth, rows[d])
        assert re.search(rf"│ {d} │ ≤8 │", said), said
    # defence 4 is taken by 5 (in the grid, with 4 in the grid below it): exact, unmarked
    assert _exact_break_even(rules, "open", 4, 0.5) == 5 and rows[4][0] == 5 and rows[4][1] is None
    assert "≤8: the grid skips 6 and 7 points, just below 8, so the break-even is 6 to 8" in said, said
    assert "times the defender" not in said, said
    assert ("the grid skips attackers just below the break-even of defences 5 to 7 (6 to 8 points)"
            in said), said


def test_gap_break_evens_are_left_out_of_the_ratio(tmp_path, capsys, rules):
    """Castle, attackers 1-7,10-30 v defences 5-12: defence 6's break-even (exact: 8) is after the
    gap, printed "≤10"; the ratio is read over the other seven defences, and every ratio it gives
    is the exact break-even over the defence."""
    with undrawn.heat_maps_undrawn():
        assert _run(["fief-odds", "--attackers", "1-7,10-30", "--defenders", "5-12", "--terrain",
                     "castle", "--method", "exact", "--out", str(tmp_path / "c")]) == 0
    said = " ".join(capsys.readouterr().out.split())
    be = pl.read_csv(tmp_path / "c" / "break_even.csv")
    marks = dict(zip(be["defender"], be["mark_p50"]))
    assert _exact_break_even(rules, "castle", 6, 0.5) in (8, 9, 10) and marks[6] == "≤", marks
    assert all(marks[d] is None for d in (5, 7, 8, 9, 10, 11, 12)), marks
    ratios = [_exact_break_even(rules, "castle", d, 0.5) / d for d in (5, 7, 8, 9, 10, 11, 12)]
    m = re.search(r"an attacker needs ([\d.]+) to ([\d.]+) times the defender's points", said)
    assert m and (m[1], m[2]) == (f"{min(ratios):.2g}", f"{max(ratios):.2g}"), (said, ratios)
    assert "over defences of 7 from 5 to 12 points" in said, said
    assert "break-even of defence 6 (8 to 10 points): add them to --attackers to see it" in said, said
