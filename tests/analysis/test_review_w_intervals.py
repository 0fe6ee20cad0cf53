"""Review W #1: win-share intervals over deals (a t interval of per-deal means) printed shares
outside [0, 1] ("random 0.50% (−0.20–1.20%)" on a rotated run) and zero-width intervals where
every deal was alike (a ladder's "greedy 100.0% (100.0–100.0)" from 12 games of 3 deals). A share's
interval now lies in [0, 1], and where every deal is alike it is the Wilson interval of the deals."""

from __future__ import annotations

import numpy as np
import pytest
from statsmodels.stats.proportion import proportion_confint

from analysis import ladder, stats


def _t_alpha(deals: int) -> float:
    """The normal two-sided alpha whose critical value is t(deals − 1)'s at 95%."""
    from scipy.stats import norm, t
    return 2 * norm.sf(t.ppf(0.975, deals - 1))


def test_every_deal_alike_gives_the_wilson_interval_of_the_games_not_a_point():
    # (session 63, review 283 #2: Wilson over the games with the t critical value over the deals;
    # it was over the deals, which gave 0 wins a wider interval than 1 win in as many games)
    mean, se, lo, hi = ladder.deal_interval(np.ones((3, 4)))           # 3 deals, every game won
    assert mean == 1.0 and se == 0.0
    wl, wh = proportion_confint(12, 12, alpha=_t_alpha(3), method="wilson")
    assert (lo, hi) == pytest.approx((wl, wh), abs=1e-9) and lo < 0.5
    mean, _, lo, hi = ladder.deal_interval(np.zeros((20, 3)))
    assert (lo, hi) == pytest.approx(proportion_confint(0, 60, alpha=_t_alpha(20), method="wilson"), abs=1e-9)


def test_a_share_interval_never_leaves_0_to_1():
    rng = np.random.default_rng(3)
    per_deal = (rng.random((40, 4)) < 0.004).astype(float)           # a rare winner
    per_deal[0, 0] = 1.0
    _, _, lo, hi = ladder.deal_interval(per_deal)
    assert 0.0 <= lo < per_deal.mean() < hi <= 1.0
    raw_lo, _ = stats.t_interval(per_deal.mean(), per_deal.mean(axis=1).std(ddof=1), 40)
    assert raw_lo < 0                                                 # (the case: the t interval crosses 0)
    lo, hi = stats.share_mean_interval([0.005, 0.999], [0.02, 0.004], [30, 30])
    assert 0.0 <= lo[0] < 0.005 < hi[0] and lo[1] < 0.999 < hi[1] <= 1.0


def test_a_rotated_runs_strategy_table_keeps_its_intervals_in_0_to_1(tmp_path):
    from analysis import open_runs
    from analysis.matchups import matchup_table, strategy_table
    from simcore import runner

    out = runner.simulate("middle-ages", games=400, seed=2, out=tmp_path / "r", quiet=True,
                          strategies="random,balanced,balanced,balanced", rotate_seats=True)
    rs = open_runs([out])
    for t, cols in ((strategy_table(rs), ("ci_low", "ci_high")),
                    (matchup_table(rs), ("ci_low", "ci_high", "win_ci_low", "win_ci_high"))):
        for c in cols:
            assert t[c].drop_nulls().is_between(0.0, 1.0).all(), (c, t)
    random = strategy_table(rs).filter(strategy="random").row(0, named=True)
    assert random["ci_low"] <= random["win_share"] <= random["ci_high"] and random["ci_high"] > random["ci_low"]
