"""The skill page's seat-by-seat verdict and the interval printed beside it come from one method
(review s46 #3): the Seigneur's seat searching won 3 of 75 games against the bot's 0 of 300, and
the page said "not clearly different" (the unpooled Wald z, 1.77, p = 0.077: its standard error
is that of 75 games alone when the bot's share is 0) beside an interval over the 4 seats of +0.4
to +14.0 pp, which leaves out 0. ``analysis.stats.newcombe_p`` is the p-value that inverts
Newcombe's interval; checked here against the interval itself, against Fisher's exact test
(scipy) for the order of magnitude, and by simulation for its false-positive rate."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from scipy.stats import fisher_exact

from analysis import stats

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def _interval(x1, n1, x2, n2, level):
    return stats.newcombe(x1 / n1, *stats.score_interval(x1, n1, level),
                          x2 / n2, *stats.score_interval(x2, n2, level))


@pytest.mark.parametrize("x1,n1,x2,n2", [(3, 75, 0, 300), (34, 100, 102.5, 400), (12, 40, 30, 200),
                                         (7, 20, 3, 20), (150, 1000, 120, 1000)])
def test_the_p_value_is_where_the_interval_reaches_zero(x1, n1, x2, n2):
    p = float(stats.newcombe_p(x1, n1, x2, n2))
    lo, hi = _interval(x1, n1, x2, n2, 1 - p * 1.01)       # a little narrower: leaves out 0
    assert lo > 0 or hi < 0, (p, lo, hi)
    lo, hi = _interval(x1, n1, x2, n2, 1 - p * 0.99)       # a little wider: holds 0
    assert lo <= 0 <= hi, (p, lo, hi)


def test_the_reviewers_seat_is_clear_and_near_fishers_exact_test():
    p = float(stats.newcombe_p(3, 75, 0, 300))
    exact = fisher_exact([[3, 72], [0, 300]]).pvalue                          # 0.0077
    assert p < 0.05 / 4 and exact / 3 < p < exact * 3, (p, exact)
    wald = float(stats.two_sided_p(stats.two_proportions(3, 75, 0, 300)[-1]))
    assert wald > 0.05, wald                                   # what the page read before


@pytest.mark.parametrize("share,n1,n2", [(0.02, 75, 300), (0.3, 40, 200), (0.5, 20, 20),
                                         (0.01, 200, 2000), (0.25, 300, 1200)])
def test_false_positive_rate_at_five_percent(share, n1, n2):
    """Both samples at the same true share, 20,000 pairs: the test rejects at 5% in at most
    5% + 3 standard errors of them."""
    rng = np.random.default_rng(46)
    x1, x2 = rng.binomial(n1, share, 20_000), rng.binomial(n2, share, 20_000)
    rate = float((stats.newcombe_p(x1, n1, x2, n2) < 0.05).mean())
    assert rate <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / 20_000), rate


def test_equal_shares_and_empty_samples():
    p = stats.newcombe_p([5, 0, 3], [50, 10, 0], [10, 0, 1], [100, 10, 5])
    assert p[0] == 1.0 and p[1] == 1.0 and np.isnan(p[2])


def test_the_skill_page_calls_the_seigneurs_gain_clear():
    """The reviewer's table (balance skill --game seigneurial --budgets 0,4,16 --games 300, its
    budgets 0 and 16): seat 1, the Seigneur, 4.0% of 75 games against 0.0% of 300."""
    from reports.skill import gain_sentence

    def rows(part, budget, games, bot, shares):
        return [{"cell": "4p 4×standard", "players": 4, "part": part, "budget": budget, "seat": s,
                 "seat_label": f"Seat {s + 1}", "role": "seigneur" if s == 0 else "censitaire",
                 "bot": bot, "games": games, "win_share": w} for s, w in enumerate(shares)]

    t = pl.DataFrame(rows("all", 0, 300, "standard", [0.0, 98 / 300, 91 / 300, 111 / 300])
                     + rows("all", 16, 300, "search16", [2 / 300, 105 / 300, 98 / 300, 95 / 300])
                     + rows("one", 0, 75, "standard", [0.0, 23 / 75, 22 / 75, 30 / 75])
                     + rows("one", 16, 75, "search16", [3 / 75, 49 / 75, 37 / 75, 54 / 75]))
    text = gain_sentence(t)
    assert "not clearly different in seat 1" not in text, text
    assert ("clearly more, may matter, in seat 1 (4.0% of 75 games vs the bot's 0.0% of 300, "
            "+4.0 pp, 95% interval +1.1 to +11.1 pp, all 4 seats at once +0.4 to +14.0 pp)") in text, text
