"""One figure per gap and per change (review s47, Médiévallons skill --against): the against lines
rounded the raw gap (10.75 → 10.8, 11.75 → 11.8) where the trend line, two lines up, printed the
difference of the shares as printed (11.7), and the table read 23.0% → 22.3% as −0.8 pp. Here the
shares sit on .x5 ties, and each printed figure must be the difference of the printed shares."""

from __future__ import annotations

import polars as pl

from analysis.skill_against import _gap_words, change_text
from reports.skill import against_table


def _row(seat, before, after):
    return {"cell": "", "players": 4, "budget": 0, "seat": seat, "role": "player",
            "before_games": 200, "before_win_share": before, "after_games": 200, "after_win_share": after,
            "change": after - before, "change_low": -0.2, "change_high": 0.2, "level": 0.99,
            "verdict": "not shown", "before_gap": 0.1075, "before_gap_low": 0.0, "before_gap_high": 0.234,
            "after_gap": 0.1175, "after_gap_low": 0.0, "after_gap_high": 0.248, "gap_level": 0.975}


ROWS = [_row(0, 0.3025, 0.31), _row(1, 0.195, 0.1925), _row(2, 0.2525, 0.2475), _row(3, 0.25, 0.25)]


def _printed(x: float) -> float:
    """A share printed at one decimal, a half rounded away from zero (independently of the code)."""
    from decimal import ROUND_HALF_UP, Decimal

    return float(Decimal(repr(100 * x)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))


def test_the_gaps_are_the_differences_of_the_printed_shares():
    said = _gap_words({0: ROWS}, "before", "after")
    before = round(max(_printed(r["before_win_share"]) for r in ROWS) - min(_printed(r["before_win_share"]) for r in ROWS), 1)
    after = round(max(_printed(r["after_win_share"]) for r in ROWS) - min(_printed(r["after_win_share"]) for r in ROWS), 1)
    assert f"at budget 0: {before:.1f} pp (" in said and f"→ {after:.1f} pp (" in said, said


def test_a_change_is_the_difference_of_the_printed_shares():
    r = _row(2, 0.23, 0.2225)                    # 23.0% → 22.3% (22.25 rounds up)
    expect = round(_printed(0.2225) - _printed(0.23), 1)
    assert change_text(r).startswith(f"{expect:+.1f} pp".replace("-", "−"))
    table = against_table(pl.DataFrame([r]))
    assert table["change (pp)"][0] == f"{expect:+.1f}".replace("-", "−")
