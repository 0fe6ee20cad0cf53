"""Session 56 designer review, leftover #1: on a panel's pages a seat's gap from 1/P is printed by
the rule of ``simulate``'s closing table, the two-run before/after and the run page
(:func:`simcore.numbers.fair_gap`): since review s61 fix 258 #2 the difference rounded, a half up,
so that against a 1/P printed exactly (25%) it is still the printed share minus 1/P (review s55
#1), and against a third it is the gap (37.25% is 3.9 pp above 33.33%, not 37.3 − 33.3 = 4.0).

The panel page's cell sentences (:func:`analysis.panel.largest_gaps`) printed "24.6% (24.0–25.2),
0.5 pp below 1/P" for a share of 24.55% (the share rounded up, its gap of −0.45 pp away from zero:
24.6 − 25 is −0.4), and "37.3% …, 3.9 pp above 1/P" at 3 players, where the page says 1/P = 33.3%;
the finding's range "−0.5 pp (4p a: 24.6% against 1/P = 25%)". The panel before/after's balance
rows rounded each largest gap on its own ("Seat 1 −0.5 pp" for that 24.6%), where the two-run
before/after prints the printed share minus the printed fair share."""

from __future__ import annotations

import math
import re
from types import SimpleNamespace

import polars as pl
import pytest
from statsmodels.stats.proportion import proportion_confint

from analysis import panel, stats
from simcore.numbers import rounded


def _gap(share_pct: float, fair_pct: float, d: int) -> float:
    """The gap rounded at ``d`` decimals, a half toward +∞ (written here on its own, not
    :func:`simcore.numbers.fair_gap`)."""
    x = float(f"{share_pct - fair_pct:.12g}") * 10 ** d
    return float(f"{math.floor(x + 0.5) / 10 ** d:.{d}f}")


def _exact(label: str, printed: str, d: int) -> float:
    """The share (in %) of cell ``label`` whose printed text at ``d`` decimals is ``printed``."""
    [x] = {100 * round(v * GAMES) / GAMES for v in SHARES[label] if f"{rounded(100 * v, d):.{d}f}" == printed}
    return x

GAMES = 20000
ALIKE = SimpleNamespace(roles_alike=True)
# 24.55% prints 24.6% (a gap of −0.45 pp rounds to −0.5 on its own); 37.25% at 3 players prints
# 37.3% against 1/P = 33.3% (its exact gap, +3.92 pp, rounds to +3.9)
SHARES = {"4p a": (0.2455, 0.2500, 0.2545, 0.2500), "3p b": (0.3725, 0.3000, 0.3275)}


def _cells(shares=SHARES, games=GAMES) -> pl.DataFrame:
    rows = []
    for k, (label, xs) in enumerate(shares.items()):
        for s, x in enumerate(xs, start=1):
            lo, hi = proportion_confint(round(x * games), games, alpha=0.05, method="wilson")
            rows.append({"cell": k, "label": label, "players": len(xs), "games": games, "run": f"r{k}",
                         "metric": f"seat_win_share_{s}", "what": f"seat {s}'s win share", "share": True,
                         "estimate": round(x * games) / games, "low": lo, "high": hi, "fair": 1 / len(xs)})
    return pl.DataFrame(rows)


def _number(text: str) -> float:
    return float(text.replace("−", "-").replace("+", ""))


def _fair(label: str) -> float:
    return 100 / int(label.split("p")[0])


def test_each_cell_sentence_prints_its_gap_rounded():
    text = panel.largest_gaps(_cells())
    said = [(label, *x) for label, sentence in re.findall(r"In (\dp \w), (.*?)\.(?: |$)", text)
            for x in re.findall(r"(\d+\.(\d+))% \([^)]*\), (\d+\.\d+) pp (above|below|at) 1/P", sentence)]
    assert len(said) == 4, text
    for label, share, decimals, gap, where in said:
        d = len(decimals)
        printed = _gap(_exact(label, share, d), _fair(label), d)
        assert _number(gap) == pytest.approx(abs(printed), abs=1e-9), (share, gap, text)
        assert where == ("above" if printed > 0 else "below" if printed < 0 else "at")
    # the review's two: 24.6% is 0.4 pp below 25% (24.55%: the printed share minus 25%), 37.3% is
    # 3.9 pp above 33.3% (37.25% − 33.33%, rounded: review s61 fix 258 #2)
    assert "24.6% (24.0–25.2), 0.4 pp below 1/P" in text, text
    assert "37.3% (36.6–37.9), 3.9 pp above 1/P" in text, text


def test_a_share_printed_at_more_decimals_gets_its_gap_at_as_many():
    # ten million games a cell: the share prints at two decimals (its interval's low end would
    # print as the share at one), "24.53%" beside "0.5 pp" before
    text = panel.largest_gaps(_cells({"4p a": (0.245255, 0.25, 0.254745, 0.25)}, games=10_000_000))
    assert "24.53% (24.50–24.55), 0.47 pp below 1/P" in text, text
    for share, gap in re.findall(r"(\d+\.\d+)% \([^)]*\), (\d+\.\d+) pp (?:above|below) 1/P", text):
        d = len(share.split(".")[1])
        assert len(gap.split(".")[1]) == d, text
        assert _number(gap) == pytest.approx(abs(rounded(_number(share) - 25.0, d)), abs=1e-9), text


def test_the_findings_range_prints_each_gap_beside_its_share_rounded():
    text = panel.finding(_cells(), ALIKE, n=2)
    ends = re.findall(r"([+−]?\d+\.\d+) pp \((\dp \w): (\d+\.\d+)% against 1/P = ([\d.]+)%\)", text)
    assert len(ends) == 2, text
    for gap, label, share, _ in ends:
        assert _number(gap) == pytest.approx(_gap(_exact(label, share, 1), _fair(label), 1), abs=1e-9), (gap, share)
    # and the statement's per-cell gaps are the same numbers (the cell table prints those shares)
    statement = panel.finding_statement(_cells(), ALIKE)
    assert "−0.4 pp in 4p a, +3.9 pp in 3p b" in statement, statement


# ---------------------------------------------------------------------------------------------
# The panel before/after: each cell's largest gap before and after


def _balance(before: float, after: float, fair: float = 0.25) -> pl.DataFrame:
    gb, ga = before - fair, after - fair
    return pl.DataFrame([{"cell": "4p a", "what": "seat", "fair": fair, "before": abs(gb), "before_seat": 1,
                          "before_signed_gap": gb, "before_low": 0.0, "before_high": 0.0115,
                          "after": abs(ga), "after_seat": 1, "after_signed_gap": ga, "after_low": 0.0,
                          "after_high": 0.0245, "change": abs(ga) - abs(gb), "change_low": -0.0115,
                          "change_high": 0.0245, "verdict": stats.NOT_SHOWN, "family": 24,
                          "paired": False}])


@pytest.mark.parametrize("before, after, fair", [
    (0.2455, 0.2645, 0.25),             # 24.6% → 26.5%: gaps 0.4 → 1.5 pp, not 0.5 → 1.5
    (0.24525, 0.26375, 0.25),
    (0.3725, 0.3875, 1 / 3),            # 37.3% → 38.8% against 33.3%: gaps 3.9 → 5.4 pp
])
def test_the_panel_before_after_prints_each_largest_gap_rounded(before, after, fair):
    from reports.panel import balance_sentence, balance_table

    b = _balance(before, after, fair)
    row = balance_table(b, 0.01).row(0, named=True)
    for when, share in (("before", before), ("after", after)):
        m = re.match(r"Seat 1 ([+−]\d+\.(\d+)) pp \(size", row[f"Largest gap {when}"])
        assert m, row
        d = len(m.group(2))
        assert _number(m.group(1)) == pytest.approx(_gap(100 * share, 100 * fair, d), abs=1e-9), row
    text = balance_sentence(b, 0.01)
    m = re.search(r"4p a (\d+\.(\d+)) → (\d+\.\d+) pp \(change ([+−]?\d+\.\d+) pp", text)
    assert m, text
    d = len(m.group(2))
    gb, ga = (_gap(100 * x, 100 * fair, d) for x in (before, after))
    assert (_number(m.group(1)), _number(m.group(3))) == pytest.approx((abs(gb), abs(ga)), abs=1e-9), text
    # the change beside them is their difference as printed
    assert _number(m.group(4)) == pytest.approx(rounded(abs(ga) - abs(gb), d), abs=1e-9), text
