"""Review R #4: a before/after's first answer opens with the size of what moved.

"Did the role win rates move? Yes: … Seigneur side 0.3% → 0.7% (+0.4 pp …), clear but small (all
10 at once: +0.05 to +0.70 pp)": the whole interval the size was read on lay under the 1 pp that
matters, yet the answer's first word was "Yes", and a designer skimming acts on that word. The
answer now opens "Not by enough to matter" when every change beyond noise is clear but small
("Yes, by enough to matter" when one is large, "Yes, perhaps …" when the largest may matter), on
the two-run page and the panel page alike. Checked on a real pair (Seigneurial, the payment order
the docs send designers to compare) against the comparison's own interval."""

from __future__ import annotations

import polars as pl
import pytest

from analysis import analyse, open_runs
from analysis.compare import compare_runs
from simcore import runner


@pytest.fixture(scope="module")
def payment_order(tmp_path_factory):
    root = tmp_path_factory.mktemp("order")
    base = runner.simulate("seigneurial", players=4, games=4000, seed=0, out=root / "seat", quiet=True)
    variant = runner.simulate("seigneurial", players=4, games=4000, seed=0, out=root / "simultaneous",
                              quiet=True, settings=['payment.order="simultaneous"'])
    rs, vrs = open_runs([base]), open_runs([variant])
    return compare_runs(rs, vrs, analyse(rs), analyse(vrs)).table


def test_a_clear_but_small_role_change_is_not_answered_yes(payment_order):
    from reports.text import comparison_headlines

    cmp = payment_order
    role = cmp.filter((pl.col("metric") == "role_win_share") & pl.col("significant"))
    assert role.height == 1, cmp.filter(pl.col("metric") == "role_win_share")
    r = role.row(0, named=True)
    # the premise, from the comparison's own numbers: beyond noise, and the whole interval its size
    # is read on within the 1 pp that matters
    assert r["diff_low"] > 0 or r["diff_high"] < 0
    assert -r["smallest"] < r["size_low"] and r["size_high"] < r["smallest"], r
    first = str(comparison_headlines(cmp, "seat", "simultaneous", "% of own goal", game="seigneurial")[0])
    assert first.startswith("Did the role win rates move? Not by enough to matter (beyond noise, but by less "
                            "than the smallest difference that matters, 1 pp): "), first
    assert "Yes" not in first.split(":")[0]


def test_the_opener_follows_the_largest_verdict():
    from analysis import stats
    from reports.text import moved_opener

    assert moved_opener([stats.SMALL, stats.LARGE], 0.01) == "Yes, by enough to matter"
    assert moved_opener([stats.SMALL, stats.MAY_MATTER], 0.01).startswith("Yes, perhaps by enough")
    assert moved_opener([stats.SMALL, stats.SMALL], 0.02).endswith("each by less than the smallest difference "
                                                                   "that matters, 2 pp)")
    assert moved_opener([None], None) == "Yes"
