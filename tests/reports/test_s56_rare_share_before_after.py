"""Session 56 designer review, leftover #3: on a before/after page a rare share printed at the
page's precision: ``balance report runs/mv runs/mv7`` (Médiévallons, 20,000 games each, Chevalier 8
→ 7) gave "Bouffon: players founding a guild | 0.03% | 0.04% | +0.01 pp | −0.01 to +0.02 pp" for
0.03125% → 0.035% (+0.00375 pp): a change that is mostly rounding. A share under 1% (or above 99%)
now prints with two significant digits (:func:`simcore.numbers.share_digits`, ``significant=2``),
"0.031% → 0.035%, +0.004 pp", each change still the difference of the printed values; the first
answer's rows (a role that rarely wins) alike, all of them at one precision."""

from __future__ import annotations

import re

import pytest

from reports.sections import comparison_rows
from reports.text import with_page_digits
from simcore.numbers import share_digits
from tests.reports.test_verdict_words_read_well import NONE, _comparison, _row


def _number(text: str) -> tuple[float, int]:
    m = re.search(r"[+−-]?\d+(?:\.(\d+))?", text)
    assert m, text
    return float(m.group(0).replace("−", "-")), len(m.group(1) or "")


def _significant(text: str) -> int:
    """The significant digits of a printed share's distance from 0% or 100%, whichever is nearer."""
    x, d = _number(text)
    near = round(min(x, 100 - x) * 10 ** d)
    return len(str(near)) if near else 0


def test_share_digits_gives_a_rare_share_the_significant_digits_asked():
    assert share_digits(0.03125) == 2                     # (the rule so far: not printed as 0)
    assert share_digits(0.03125, significant=2) == 3      # 0.031
    assert share_digits(0.0042, significant=2) == 4       # 0.0042
    assert share_digits(99.958, significant=2) == 3       # 99.958: 0.042 from 100%
    assert share_digits(0.5, significant=2) == 2          # 0.50
    assert share_digits(1.04, 25.0, 0.0, 100.0, significant=2) == 1    # 1.0 (0% and 100% left out)


def _rows(cmp):
    return {r["Metric"]: r for r in comparison_rows(cmp, "coins").iter_rows(named=True)}


def test_a_rare_end_reason_prints_with_two_significant_digits_and_its_change_adds_up():
    # the review's row among shares of two decimals (10.06% → 12.13%)
    cmp = with_page_digits(_comparison(
        _row("seat_win_share", "Seat 1", 0.25, 0.26, 0.006, NONE),
        _row("seat_win_share", "Seat 2", 0.25, 0.24, 0.006, NONE),
        _row("end_reason_share", "Draw pile ran out", 0.10055, 0.12125, 0.006, NONE),
        _row("guild_founded_share", "Bouffon", 0.0003125, 0.00035, 0.00017, NONE),
        _row("guild_founded_share", "Prêtre", 0.30055, 0.29775, 0.002, NONE)), "coins")
    rows = _rows(cmp)
    rare = next(r for k, r in rows.items() if k.startswith("Bouffon"))
    assert (rare["Before"], rare["After"], rare["Change"]) == ("0.031%", "0.035%", "+0.004 pp"), rare
    for r in rows.values():
        (b, db), (a, da), (c, dc) = (_number(r[k]) for k in ("Before", "After", "Change"))
        assert db == da == dc and round(a - b, dc) == pytest.approx(c, abs=1e-9), r
        assert min(_significant(r["Before"]), _significant(r["After"])) >= 2, r
    # a share of 1% or more keeps the unit's precision
    common = next(r for k, r in rows.items() if k.startswith("Prêtre"))
    assert (common["Before"], common["After"]) == ("30.06%", "29.78%"), common


def test_a_role_that_rarely_wins_prints_its_shares_with_two_significant_digits():
    """The first answer's rows (each metric at one precision): the Seigneur winning 0.04% → 0.03%
    and the Censitaires the rest."""
    cmp = with_page_digits(_comparison(
        _row("role_win_share", "Seigneur", 0.000415, 0.000345, 0.0002, NONE),
        _row("role_win_share", "Censitaire", 0.999585, 0.999655, 0.0002, NONE)), "coins")
    rows = _rows(cmp)
    lord = next(r for k, r in rows.items() if "Seigneur" in k)
    assert (lord["Before"], lord["After"], lord["Change"]) == ("0.042%", "0.035%", "−0.007 pp"), lord
    for r in rows.values():
        assert _number(r["Before"])[1] == _number(lord["Before"])[1], rows    # one precision
        (b, _), (a, _), (c, dc) = (_number(r[k]) for k in ("Before", "After", "Change"))
        assert round(a - b, dc) == pytest.approx(c, abs=1e-9), r
