"""Review s55 #1: a win share and its gap from the fair share print from one rounding.

`simulate --game medievallons --players 4 --games 4000 --out runs/mv` printed Seat 4 at "24.53%"
and "−0.47 pp" (the printed share minus 25%), while `balance report runs/mv runs/mv-chevalier7`
said the largest gap "goes from 0.48 pp (Seat 4, below fair)": the exact share 24.525% is a gap of
0.475 pp, and the report rounded the gap itself, away from zero, where the terminal subtracted the
rounded share. Both now print the gap as the printed share minus the printed fair share
(:func:`simcore.numbers.fair_gap`), and the before/after's change of the largest gap is the
difference of the two gaps as printed."""

from __future__ import annotations

import re

import polars as pl
import pytest

from analysis import stats
from reports.text import seat_balance_sentence
from simcore.numbers import fair_gap, rounded


def _sentence(before_share: float, after_share: float, fair: float, low: float = -0.0237,
              high: float = 0.0265) -> str:
    gb, ga = before_share - fair, after_share - fair
    balance = pl.DataFrame([{"before": abs(gb), "after": abs(ga), "before_seat": 4, "after_seat": 4,
                             "before_signed_gap": gb, "after_signed_gap": ga, "change": abs(ga) - abs(gb),
                             "change_low": low, "change_high": high, "verdict": stats.NOT_SHOWN,
                             "fair": fair, "family": 12, "paired": True}])
    cmp = pl.DataFrame([{"metric": "seat_win_share", "key": "Seat 4", "smallest": 0.01,
                         "base": before_share, "variant": after_share}])
    return seat_balance_sentence(balance, cmp)


@pytest.mark.parametrize("before, after, fair", [
    (0.24525, 0.25625, 0.25),           # the review's Seat 4: 24.525% → 25.625%
    (0.19855, 0.1974, 0.25),            # the README's richer-palais Seat 1
    (0.31245, 0.30115, 0.25),
    (0.40005, 0.38335, 1 / 3),          # a fair share that is itself rounded
])
def test_the_largest_gap_is_the_printed_share_minus_the_printed_fair_share(before, after, fair):
    text = _sentence(before, after, fair)
    m = re.search(r"goes from (\d+\.(\d+)) pp \(Seat 4, (?:above|below) fair\) to (\d+\.\d+) pp "
                  r"\(Seat 4, (?:above|below) fair\), a change of ([+−]?\d+\.\d+) pp", text)
    assert m, text
    d = len(m.group(2))
    shown_before, shown_after, change = (float(m.group(k).replace("−", "-")) for k in (1, 3, 4))
    # each gap as its seat's share printed at the gap's decimals minus the fair share so printed
    assert shown_before == pytest.approx(abs(rounded(100 * before, d) - rounded(100 * fair, d)), abs=1e-9), text
    assert shown_after == pytest.approx(abs(rounded(100 * after, d) - rounded(100 * fair, d)), abs=1e-9), text
    # and the change is the difference of the gaps as printed
    assert round(shown_after - shown_before, d) == pytest.approx(change, abs=1e-9), text


def test_the_review_case_reads_as_the_closing_table_does():
    """24.525% prints "24.53%" in simulate's closing table, beside −0.47 pp: the before/after gives
    that gap (at its two decimals), or the exact one at three, never 0.48."""
    text = _sentence(0.24525, 0.25625, 0.25)
    assert "0.48 pp" not in text, text
    assert fair_gap(24.525, 25.0, 2) == -0.47
    assert re.search(r"goes from (0\.47|0\.475) pp \(Seat 4, below fair\)", text), text



def _strategies(shares, fair=0.25, roles=False):
    n = len(shares)
    return pl.DataFrame({"strategy": [f"bot{i}" for i in range(n)], "units": [20000] * n,
                         "win_share": shares, "ci_low": [x - 0.006 for x in shares],
                         "ci_high": [x + 0.006 for x in shares], "fair_share": [fair] * n,
                         "diff": [x - fair for x in shares], "significant": [False] * n,
                         "confounded": [False] * n, "paired": [False] * n,
                         **({"role": ["censitaire"] * n, "role_label": ["Censitaire"] * n,
                             "p_value": [0.5] * n, "verdict": [stats.NOT_SHOWN] * n,
                             "smallest": [0.01] * n} if roles else {})})


@pytest.mark.parametrize("roles", [False, True])
def test_the_strategies_table_prints_its_gap_as_the_printed_share_minus_the_fair_share(roles):
    """24.45% prints "24.5%" (halves up) and its gap of −0.55 pp "−0.6 pp" (away from zero) when
    each is rounded on its own: the table gave a difference its own share column contradicts."""
    from reports.sections import strategy_rows

    rows = strategy_rows({"strategies": _strategies([0.2445, 0.2555, 0.3105], roles=roles)})
    gap_column = "Difference (pp)" if roles else "vs fair share (pp)"
    for share, gap in zip(rows["Win share (95% interval, unadjusted)"], rows[gap_column]):
        number = share.split("%")[0]
        d = len(number.split(".")[1])
        assert float(gap.removesuffix(" pp").replace("−", "-")) == pytest.approx(
            round(float(number) - 25.0, d), abs=1e-9), (share, gap)


def test_the_side_by_side_rows_print_share_fair_share_and_gap_that_add_up():
    from reports.sections import side_by_side_rows

    seats = pl.DataFrame({"seat_label": ["Seat 1", "Seat 2", "Seat 3"], "win_share": [0.2445, 0.35535, 0.40015],
                          "ci_low": [0.23, 0.34, 0.39], "ci_high": [0.26, 0.37, 0.41],
                          "fair_share": [1 / 3] * 3, "diff": [x - 1 / 3 for x in (0.2445, 0.35535, 0.40015)],
                          "significant": [True] * 3, "mean_score": [1.0] * 3})

    class Run:
        n_players, n_games = 3, 20000

    rows = side_by_side_rows([("a", Run(), {"seats": seats})])
    for share, fair, gap in zip(rows["Win share (95% interval, unadjusted)"], rows["Fair share"],
                                rows["vs fair share (pp)"]):
        printed = float(share.split("%")[0]) - float(fair.removesuffix("%"))
        d = len(share.split("%")[0].split(".")[1])
        assert float(gap.removesuffix(" pp").replace("−", "-")) == pytest.approx(round(printed, d), abs=1e-9), (
            share, fair, gap)
