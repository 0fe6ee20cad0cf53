"""Intervals and tests at known values (textbook numbers), cross-checked against scipy."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as sps

from analysis import stats


def test_wilson_interval_of_5_out_of_10_is_the_textbook_one():
    low, high = stats.wilson(5, 10)
    assert low == pytest.approx(0.236593, abs=1e-6)
    assert high == pytest.approx(0.763407, abs=1e-6)


@pytest.mark.parametrize("s,n", [(0, 10), (1, 10), (37, 120), (999, 1000), (2.5, 4)])
def test_wilson_matches_scipy_and_the_closed_form(s, n):
    low, high = stats.wilson(s, n)
    if float(s).is_integer():
        ci = sps.binomtest(int(s), n).proportion_ci(method="wilson")
        assert (low, high) == pytest.approx((ci.low, ci.high), abs=1e-9)
    z = 1.959963984540054
    p = s / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    assert (low, high) == pytest.approx((max(centre - half, 0), min(centre + half, 1)), abs=1e-12)


def test_wilson_with_no_observations_is_nan():
    low, high = stats.wilson(np.array([0.0]), np.array([0.0]))
    assert np.isnan(low).all() and np.isnan(high).all()


def test_t_interval_of_mean_10_sd_2_n_5():
    # t(4, 0.975) = 2.776445; half-width = 2.776445 * 2 / sqrt(5) = 2.483328
    low, high = stats.t_interval(10.0, 2.0, 5)
    assert low == pytest.approx(7.516672, abs=1e-6)
    assert high == pytest.approx(12.483328, abs=1e-6)


@pytest.mark.parametrize("dof", [1, 2, 3, 7, 30, 120, 999, 1001, 10_000, 1e7])
def test_t_quantile_matches_scipy(dof):
    assert stats.t_quantile(dof) == pytest.approx(sps.t.ppf(0.975, dof), rel=1e-8)


@pytest.mark.parametrize("t,dof", [(0.0, 3), (1.5, 3), (-2.0, 10), (4.0, 1), (2.5, 200)])
def test_t_tail_matches_scipy(t, dof):
    assert stats.t_sf(t, dof) == pytest.approx(sps.t.sf(t, dof), rel=1e-9, abs=1e-14)


def test_chi_square_critical_values_give_five_percent():
    assert stats.chi2_sf(3.841459, 1) == pytest.approx(0.05, abs=1e-7)
    assert stats.chi2_sf(7.814728, 3) == pytest.approx(0.05, abs=1e-7)


@pytest.mark.parametrize("x,dof", [(0.1, 1), (2.0, 3), (10.0, 4), (50.0, 10), (300.0, 250), (1e4, 3)])
def test_chi_square_tail_matches_scipy(x, dof):
    assert stats.chi2_sf(x, dof) == pytest.approx(sps.chi2.sf(x, dof), rel=1e-9, abs=1e-300)


def test_chi_square_of_equal_seats_by_hand():
    # E = 25 each; (5² + 5² + 0 + 0) / 25 = 2.0 on 3 degrees of freedom.
    stat, dof, p = stats.chi_square_equal([30, 20, 25, 25])
    assert stat == pytest.approx(2.0)
    assert dof == 3
    assert p == pytest.approx(sps.chi2.sf(2.0, 3), rel=1e-10)


def test_holm_adjustment_by_hand():
    # Sorted: 0.01×3 = 0.03, 0.03×2 = 0.06, 0.04×1 = 0.04 → kept monotone at 0.06.
    assert stats.holm([0.01, 0.04, 0.03]).tolist() == pytest.approx([0.03, 0.06, 0.06])
    assert np.isnan(stats.holm([np.nan, 0.2])[0])


def test_newcombe_difference_matches_newcombe_1998_example():
    # Newcombe (1998), method 10: 56/70 − 48/80 = 0.2000, 95% CI 0.0524 to 0.3339.
    l1, h1 = stats.wilson(56, 70)
    l2, h2 = stats.wilson(48, 80)
    low, high = stats.newcombe(56 / 70, l1, h1, 48 / 80, l2, h2)
    assert low == pytest.approx(0.0524, abs=1e-4)
    assert high == pytest.approx(0.3339, abs=1e-4)


def test_welch_matches_scipy():
    rng = np.random.default_rng(3)
    a, b = rng.normal(0, 1, 40), rng.normal(0.5, 2, 25)
    diff, low, high, p = stats.welch(a.mean(), a.std(ddof=1), a.size, b.mean(), b.std(ddof=1), b.size)
    ref = sps.ttest_ind(a, b, equal_var=False)
    assert p == pytest.approx(ref.pvalue, rel=1e-8)
    ci = ref.confidence_interval()
    assert (low, high) == pytest.approx((ci.low, ci.high), rel=1e-8)


def test_moments_from_sums():
    x = np.array([5.0, 0.0, 6.0, 10.0])
    mean, sd = stats.moments(4, x.sum(), (x * x).sum())
    assert mean == pytest.approx(5.25)
    assert sd == pytest.approx(x.std(ddof=1))
