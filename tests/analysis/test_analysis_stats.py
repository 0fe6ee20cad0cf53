"""Every hand-written statistic of analysis/stats.py against scipy / statsmodels, over grids that
include the extremes (zero and full counts, one observation, huge and tiny tails, infinite and nan
arguments), plus the textbook values. The accuracy the module docstring claims is the tolerance here."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import special as spf
from scipy import stats as sps
from tests.analysis.analysis_runs import wilson_ref
from statsmodels.stats.proportion import confint_proportions_2indep, proportion_confint

from analysis import stats


from holm_reference import multipletests  # noqa: E402  (statsmodels' Holm, without its gc.collect)


REL = 1e-9          # the accuracy analysis/stats.py claims (docstring) for tails above 1e-290
FLOOR = 1e-290


def close(mine: float, ref: float, rel: float = REL) -> bool:
    if math.isnan(ref):
        return math.isnan(mine)
    if ref < FLOOR:
        return mine < 1e-280
    return abs(mine - ref) <= rel * abs(ref)


# ---------------------------------------------------------------------------------------------
# Distributions
# ---------------------------------------------------------------------------------------------

def test_normal_tail_and_quantile_over_a_grid():
    for z in [-40, -8.5, -1.0, 0.0, 0.3, 1.959963984540054, 5.0, 12.0, 37.0, math.inf, -math.inf]:
        assert close(stats.normal_sf(z), float(sps.norm.sf(z)), 1e-12), z
    assert math.isnan(stats.normal_sf(math.nan))
    for level in [0.5, 0.8, 0.9, 0.95, 0.99, 0.999999]:
        assert stats.z_quantile(level) == pytest.approx(sps.norm.ppf(0.5 + level / 2), rel=1e-12)


A_GRID = [0.25, 0.5, 1.0, 1.5, 3.0, 10.0, 100.0, 5e3, 5e5]


@pytest.mark.parametrize("a", A_GRID)
def test_upper_incomplete_gamma_matches_scipy(a):
    xs = [1e-12, 1e-3, 0.1, 0.5 * a, a - 1, a, a + 1, 1.5 * a, 2 * a, 10 * a + 50, a + 40 * math.sqrt(a) + 40]
    for x in xs:
        if x <= 0:
            continue
        assert close(stats.gammaincc(a, x), float(spf.gammaincc(a, x))), (a, x)
    assert stats.gammaincc(a, 0.0) == 1.0 and stats.gammaincc(a, math.inf) == 0.0
    assert math.isnan(stats.gammaincc(a, math.nan))


@pytest.mark.parametrize("a,b", list(itertools.product([0.5, 1.0, 2.5, 30.0, 4000.0], [0.5, 1.0, 7.0, 900.0])))
def test_incomplete_beta_matches_scipy(a, b):
    for x in [1e-9, 1e-4, 0.01, 0.2, 0.5, a / (a + b), 0.8, 0.99, 1 - 1e-7]:
        assert close(stats.betainc(a, b, x), float(spf.betainc(a, b, x))), (a, b, x)
    assert stats.betainc(a, b, 0.0) == 0.0 and stats.betainc(a, b, 1.0) == 1.0


DOF_GRID = [0.5, 1, 2, 3, 7, 30, 250, 4000, 1e6]


@pytest.mark.parametrize("dof", DOF_GRID)
def test_chi_square_tail_matches_scipy(dof):
    for q in [1e-6, 0.01, 0.25, 0.5, 0.9, 0.999]:
        x = float(sps.chi2.ppf(q, dof))
        assert close(stats.chi2_sf(x, dof), float(sps.chi2.sf(x, dof))), (x, dof)
    for x in [0.0, -1.0, 1e-9, 3 * dof + 100, 10 * dof + 800]:
        assert close(stats.chi2_sf(x, dof), float(sps.chi2.sf(x, dof))), (x, dof)
    assert stats.chi2_sf(math.inf, dof) == 0.0 == sps.chi2.sf(math.inf, dof)
    assert math.isnan(stats.chi2_sf(math.nan, dof)) and math.isnan(sps.chi2.sf(math.nan, dof))


@pytest.mark.parametrize("dof", [1, 2, 3, 5, 10, 30, 120, 999, 1001, 1e4, 1e7, math.inf])
def test_student_t_tail_and_quantile_match_scipy(dof):
    for t in [-60.0, -5.0, -1.0, 0.0, 0.4, 1.96, 3.0, 9.0, 40.0, 1e3]:
        assert close(stats.t_sf(t, dof), float(sps.t.sf(t, dof))), (t, dof)
    assert stats.t_sf(math.inf, dof) == 0.0 and stats.t_sf(-math.inf, dof) == 1.0
    assert math.isnan(stats.t_sf(math.nan, dof))
    for level in [0.5, 0.9, 0.95, 0.99, 0.9999]:
        ref = sps.norm.ppf(0.5 + level / 2) if math.isinf(dof) else sps.t.ppf(0.5 + level / 2, dof)
        assert stats.t_quantile(dof, level) == pytest.approx(ref, rel=REL)


# ---------------------------------------------------------------------------------------------
# Intervals and tests
# ---------------------------------------------------------------------------------------------

def test_wilson_interval_of_5_out_of_10_is_the_textbook_one():
    low, high = stats.wilson(5, 10)
    assert low == pytest.approx(0.236593, abs=1e-6)
    assert high == pytest.approx(0.763407, abs=1e-6)


@pytest.mark.parametrize("n", [1, 2, 10, 120, 10_000, 10_000_000])
def test_wilson_matches_statsmodels_with_exact_ends_from_zero_to_all(n):
    for s in sorted({0, 1, n // 3, n // 2, n - 1, n}):
        for level in (0.9, 0.95, 0.999):
            low, high = stats.wilson(s, n, level)
            ref = wilson_ref(s, n, level)     # statsmodels' score interval, exact Poisson ends
            assert (float(low), float(high)) == pytest.approx(ref, abs=1e-12), (s, n, level)


def test_wilson_with_no_observations_is_nan():
    low, high = stats.wilson(np.array([0.0]), np.array([0.0]))
    assert np.isnan(low).all() and np.isnan(high).all()


@pytest.mark.parametrize("x1,n1,x2,n2", [(56, 70, 48, 80), (0, 10, 0, 20), (10, 10, 0, 10), (1, 25, 24, 25),
                                         (5000, 20000, 5150, 20000), (3, 7, 3, 7)])
def test_newcombe_matches_statsmodels(x1, n1, x2, n2):
    l1, h1 = stats.score_interval(x1, n1)
    l2, h2 = stats.score_interval(x2, n2)
    low, high = stats.newcombe(x1 / n1, l1, h1, x2 / n2, l2, h2)
    ref = confint_proportions_2indep(x1, n1, x2, n2, method="newcomb", compare="diff")
    assert (float(low), float(high)) == pytest.approx(ref, abs=1e-12)


def test_newcombe_difference_matches_newcombe_1998_example():
    # Newcombe (1998), method 10: 56/70 − 48/80 = 0.2000, 95% CI 0.0524 to 0.3339.
    l1, h1 = stats.score_interval(56, 70)
    l2, h2 = stats.score_interval(48, 80)
    low, high = stats.newcombe(56 / 70, l1, h1, 48 / 80, l2, h2)
    assert low == pytest.approx(0.0524, abs=1e-4)
    assert high == pytest.approx(0.3339, abs=1e-4)


def test_two_proportions_z_and_p_against_scipy():
    x1, n1, x2, n2 = np.array([30, 0, 500, 7]), np.array([100, 50, 1000, 7]), np.array([20, 0, 560, 0]), \
        np.array([100, 60, 1000, 9])
    p1, *_, z = stats.two_proportions(x1, n1, x2, n2, degenerate_z=np.inf)
    a, b = x1 / n1, x2 / n2
    se = np.sqrt(a * (1 - a) / n1 + b * (1 - b) / n2)
    with np.errstate(divide="ignore", invalid="ignore"):
        want = np.where(se > 0, (a - b) / se, np.where(a == b, 0.0, np.inf))
    assert z == pytest.approx(want)
    finite = np.isfinite(z)
    assert stats.two_sided_p(z[finite]) == pytest.approx(2 * sps.norm.sf(np.abs(z[finite])), rel=1e-12)


@pytest.mark.parametrize("n", [2, 3, 5, 40, 10_000])
def test_t_interval_matches_scipy(n):
    for mean, sd in [(10.0, 2.0), (-3.0, 0.0), (1e9, 1e-3)]:
        low, high = stats.t_interval(mean, sd, n)
        ref = sps.t.interval(0.95, n - 1, loc=mean, scale=sd / math.sqrt(n)) if sd > 0 else (mean, mean)
        assert (float(low), float(high)) == pytest.approx(ref, rel=1e-12, abs=1e-12)
    assert np.isnan(stats.t_interval(1.0, 1.0, 1)[0])


@pytest.mark.parametrize("seed,n1,n2,shift,scale", [(3, 40, 25, 0.5, 2.0), (4, 2, 2, 0.0, 1.0), (5, 3, 500, 2.0, 0.1),
                                                     (6, 5000, 7000, 0.01, 1.0), (7, 10, 10, 1e6, 1.0)])
def test_welch_matches_scipy(seed, n1, n2, shift, scale):
    rng = np.random.default_rng(seed)
    a, b = rng.normal(0, 1, n1), rng.normal(shift, scale, n2)
    diff, low, high, p = stats.welch(a.mean(), a.std(ddof=1), a.size, b.mean(), b.std(ddof=1), b.size)
    ref = sps.ttest_ind(a, b, equal_var=False)
    assert close(p, float(ref.pvalue), 1e-8) or (p < 1e-280 and ref.pvalue < 1e-280)
    ci = ref.confidence_interval()
    assert (low, high) == pytest.approx((ci.low, ci.high), rel=1e-9)
    assert diff == pytest.approx(a.mean() - b.mean())


@pytest.mark.parametrize("obs", [[30, 20, 25, 25], [1, 0], [1000, 1000, 1001], [5.5, 2.5, 0.0, 12.0],
                                 [1e7, 9.9e6, 1.01e7, 1e7, 1e7]])
def test_chi_square_equal_matches_scipy(obs):
    stat, dof, p = stats.chi_square_equal(obs)
    ref = sps.chisquare(obs)
    assert stat == pytest.approx(ref.statistic, rel=1e-12, abs=1e-12) and dof == len(obs) - 1
    assert close(p, float(ref.pvalue))


def test_chi_square_of_equal_seats_by_hand():
    # E = 25 each; (5² + 5² + 0 + 0) / 25 = 2.0 on 3 degrees of freedom.
    stat, dof, p = stats.chi_square_equal([30, 20, 25, 25])
    assert stat == pytest.approx(2.0) and dof == 3


@pytest.mark.parametrize("p", [[0.01, 0.04, 0.03], [0.5], [1e-300, 0.2, 0.2, 0.9, 0.04], [0.03] * 6,
                               [0.0, 1.0, 0.011, 0.012, 0.013]])
def test_holm_matches_statsmodels(p):
    assert stats.holm(p) == pytest.approx(multipletests(p, method="holm")[1], rel=1e-12)


def test_holm_adjustment_by_hand_and_nan():
    # Sorted: 0.01×3 = 0.03, 0.03×2 = 0.06, 0.04×1 = 0.04 → kept monotone at 0.06.
    assert stats.holm([0.01, 0.04, 0.03]).tolist() == pytest.approx([0.03, 0.06, 0.06])
    out = stats.holm([np.nan, 0.2, 0.01])
    assert np.isnan(out[0]) and out[1:] == pytest.approx(multipletests([0.2, 0.01], method="holm")[1])


# ---------------------------------------------------------------------------------------------
# Moments: two-pass and Chan's merge, stable where Σx² − n·mean² is not
# ---------------------------------------------------------------------------------------------

def test_moments_keep_their_digits_on_a_large_mean():
    rng = np.random.default_rng(1)
    x = 1e9 + rng.normal(0, 1e-2, 10_000)
    naive = math.sqrt(max((np.sum(x * x) - x.size * x.mean() ** 2) / (x.size - 1), 0.0))
    ref = float(np.std(x, ddof=1))
    assert abs(naive - ref) > 0.1 * ref                      # the old formula loses it
    mean, sd = stats.Moments.of(x).mean_sd()
    assert sd == pytest.approx(ref, rel=1e-6) and mean == pytest.approx(x.mean(), rel=1e-15)
    # in four batches merged (Chan et al.), and as a histogram
    m = stats.Moments.zeros(())
    for part in np.array_split(x, 4):
        m = m.merge(stats.Moments.of(part))
    assert m.mean_sd()[1] == pytest.approx(ref, rel=1e-6)
    vals, counts = np.unique(np.round(x, 3), return_counts=True)
    hist = stats.Moments.of_counts(vals, counts)
    assert hist.mean_sd()[1] == pytest.approx(np.std(np.round(x, 3), ddof=1), rel=1e-6)


def test_grouped_and_column_moments_match_numpy():
    rng = np.random.default_rng(2)
    idx = rng.integers(0, 5, 3000)
    x = rng.normal(50.0, 3.0, 3000)
    g = stats.Moments.grouped(idx[:1000], x[:1000], 6).merge(stats.Moments.grouped(idx[1000:], x[1000:], 6))
    mean, sd = g.mean_sd()
    for k in range(5):
        assert mean[k] == pytest.approx(x[idx == k].mean()) and sd[k] == pytest.approx(x[idx == k].std(ddof=1))
    assert np.isnan(mean[5]) and g.n[5] == 0
    pooled = g.sum(0)
    assert pooled.mean_sd()[1] == pytest.approx(x.std(ddof=1))
    m = rng.normal(0, 1, (200, 3))
    present = rng.random((200, 3)) > 0.3
    cm = stats.Moments.of_columns(m, present)
    for j in range(3):
        assert cm.mean_sd()[1][j] == pytest.approx(m[present[:, j], j].std(ddof=1))


def test_moments_small_counts_are_nan_and_the_old_call_fails_loudly():
    mean, sd = stats.moments(np.array([0, 1]), mean=np.array([0.0, 4.0]), m2=np.array([0.0, 0.0]))
    assert np.isnan(mean[0]) and mean[1] == 4.0 and np.isnan(sd).all()
    with pytest.raises(TypeError):
        stats.moments(4, 21.0, 161.0)        # (n, sum, sum of squares) is no longer accepted


# ---------------------------------------------------------------------------------------------
# Simultaneous intervals
# ---------------------------------------------------------------------------------------------

def test_max_abs_normal_quantile_matches_exact_values():
    # independent: P(max |Z| ≤ c) = (2Φ(c) − 1)^k
    for k in (2, 4, 6):
        exact = sps.norm.ppf((1 + 0.95 ** (1 / k)) / 2)
        assert stats.max_abs_normal_quantile(np.eye(k)) == pytest.approx(exact, abs=0.01)
    assert stats.max_abs_normal_quantile([[1.0]]) == pytest.approx(1.959964, abs=1e-6)
    # correlated (the 6 gaps of 4 seats with equal shares): scipy's box probability at c is 0.95
    a = np.array([[1, -1, 0, 0], [1, 0, -1, 0], [1, 0, 0, -1], [0, 1, -1, 0], [0, 1, 0, -1], [0, 0, 1, -1]], float)
    cov = a @ (np.eye(4) - 0.25) @ a.T
    corr = cov / np.sqrt(np.outer(np.diag(cov), np.diag(cov)))
    c = stats.max_abs_normal_quantile(corr)
    # against a fresh, larger Monte Carlo with another seed
    z = np.random.default_rng(99).multivariate_normal(np.zeros(6), corr, size=400_000, method="eigh")
    assert np.mean(np.abs(z).max(axis=1) <= c) == pytest.approx(0.95, abs=0.002)
    # and against Tukey's studentized range, exact for equal variances and independence
    assert c == pytest.approx(sps.studentized_range.ppf(0.95, 4, np.inf) / math.sqrt(2), abs=0.01)


def test_an_interval_with_no_success_or_no_failure_ends_exactly_at_0_or_1():
    """With x = 0 the score interval's lower end is (z²/2n − z·z/2n)/(1 + z²/n) = 0 exactly (and
    the upper end 1 with x = n); the subtraction left ~1e-17 to 1e-20, printed in an exported CSV as
    0.0000000000000000277 beside an estimate of 0. The other end is the closed form z²/(n + z²)."""
    from analysis import stats

    n = np.array([1, 7, 10, 50, 51, 1000, 123457])
    z = stats.z_quantile(0.95)
    for interval in (stats.wilson, stats.score_interval):
        low, high = interval(np.zeros(len(n)), n)
        assert np.all(low == 0.0), low
        low2, high2 = interval(n.astype(float), n)
        assert np.all(high2 == 1.0), high2
        if interval is stats.score_interval:     # (wilson moves the far end where n ≤ 3: BCD's ends)
            assert high == pytest.approx(z * z / (n + z * z), rel=1e-9)
            assert 1 - low2 == pytest.approx(z * z / (n + z * z), rel=1e-9)
