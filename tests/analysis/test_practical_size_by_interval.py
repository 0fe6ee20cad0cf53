"""A difference is worded by the size its interval allows, not by its estimate alone (an equivalence
test's reading): "clear and large enough to matter" when the interval's near end is at least the
smallest difference that matters, "clear but small" when its far end is below it, and "clear, may
matter" when the interval straddles it. Two reviewers' cases: +1.1 pp (+0.2 to +2.0) was called
large enough to matter and +0.9 pp (+0.1 to +1.7) small, against 1 pp; the games show neither.

Where "clear" is Holm's step-down (no interval), the size is read on the Bonferroni interval over the
same family, checked here against scipy's normal and t quantiles."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import polars as pl
import pytest
from scipy.stats import norm
from scipy.stats import t as student_t

from analysis import stats
from analysis.stats import LARGE, MAY_MATTER, NOT_SHOWN, SMALL

PP = 0.01


def test_the_reviewers_differences_may_matter():
    assert stats.practical(0.011, 0.002, 0.020, PP) == MAY_MATTER     # was "large enough to matter"
    assert stats.practical(0.009, 0.001, 0.017, PP) == MAY_MATTER     # was "clear but small"


@pytest.mark.parametrize("est,low,high,want", [
    (0.015, 0.010, 0.020, LARGE),          # near end exactly at the smallest: large enough
    (0.015, 0.0099, 0.020, MAY_MATTER),    # just inside it: may matter
    (0.005, 0.001, 0.010, MAY_MATTER),     # far end exactly at the smallest: not shown smaller
    (0.005, 0.001, 0.0099, SMALL),         # far end just below it: small
    (-0.015, -0.020, -0.010, LARGE),       # the same, below 0: the near end is the high end
    (-0.015, -0.020, -0.0099, MAY_MATTER),
    (-0.005, -0.010, -0.001, MAY_MATTER),  # ... and the far end the low end
    (-0.005, -0.0099, -0.001, SMALL),
    (0.030, -0.001, 0.060, NOT_SHOWN),     # holds 0
    (-0.030, -0.060, 0.001, NOT_SHOWN),
])
def test_each_boundary_of_the_wording(est, low, high, want):
    assert stats.practical(est, low, high, PP) == want


def test_vectorised_negative_and_missing_values():
    nan = float("nan")
    v = stats.practical([-0.03, -0.011, -0.004, nan, 0.02, 0.02],
                        [-0.05, -0.02, -0.006, -0.02, nan, 0.011],
                        [-0.02, -0.002, -0.002, -0.01, 0.03, 0.029], PP,
                        support=[1, 1, 1, 1, 1, 0.001])
    assert list(v) == [LARGE, MAY_MATTER, SMALL, NOT_SHOWN, NOT_SHOWN, NOT_SHOWN]
    assert stats.practical(nan, nan, nan, PP) == NOT_SHOWN


def test_clear_flags_read_the_size_on_the_interval_and_never_call_an_interval_holding_0_large():
    # Holm can call a difference clear whose (wider) Bonferroni interval still holds 0: its size is at
    # least 0, so it may matter or is small, never large enough to matter
    v = stats.practical([0.021, 0.0021, 0.021], [-0.0014, -0.0001, 0.015], [0.0434, 0.0043, 0.027], PP,
                        clear=[True, True, False])
    assert list(v) == [MAY_MATTER, SMALL, NOT_SHOWN]
    with pytest.raises(ValueError, match="no interval"):
        stats.practical(0.02, np.nan, 0.03, PP, clear=True)
    with pytest.raises(ValueError, match="smallest difference"):
        stats.practical(0.02, 0.01, 0.03, np.nan, clear=True)
    with pytest.raises(ValueError, match="smallest difference"):
        stats.practical(0.02, 0.01, 0.03, -0.01)


def test_bonferroni_interval_uses_the_family_quantile():
    est, se = np.array([0.02, -0.01, np.nan, 0.005]), np.array([0.004, 0.003, 0.01, 0.002])
    lo, hi = stats.bonferroni_interval(est, se)                  # m = 3 finite entries
    q = norm.ppf(1 - 0.05 / 6)
    np.testing.assert_allclose(lo[[0, 1, 3]], (est - q * se)[[0, 1, 3]], rtol=1e-9)
    np.testing.assert_allclose(hi[[0, 1, 3]], (est + q * se)[[0, 1, 3]], rtol=1e-9)
    assert np.isnan(lo[2]) and np.isnan(hi[2])
    lo, hi = stats.bonferroni_interval(est[:2], se[:2], m=10, dof=[30, 8])
    q = student_t.ppf(1 - 0.05 / 20, [30, 8])
    np.testing.assert_allclose(hi - est[:2], q * se[:2], rtol=1e-7)


def test_practical_holm_sizes_on_the_bonferroni_interval_over_the_family():
    est = np.array([0.02, 0.012, 0.004, 0.001])
    z = np.array([8.0, 4.0, 6.0, 0.5])
    q = norm.ppf(1 - 0.05 / 8)                                      # m = 4
    se = est / z
    assert (est[1] - q * se[1]) < PP < est[1]                      # the estimate is above 1 pp, the interval not
    v = stats.practical_holm(est, z, PP)
    assert list(v) == [LARGE, MAY_MATTER, SMALL, NOT_SHOWN]
    assert stats.practical_holm(0.02, 8.0, PP) == LARGE            # a scalar stays a string
    # Holm rejects z = 2.1 of two (p = 0.036 < 0.05 at its step), Bonferroni's interval holds 0
    v = stats.practical_holm([0.1, 0.021, ], [10.0, 2.1], PP)
    assert norm.ppf(1 - 0.05 / 4) > 2.1 and list(v) == [LARGE, MAY_MATTER]
    assert list(stats.practical_holm([0.1, 0.0021], [10.0, 2.1], PP)) == [LARGE, SMALL]


def test_reading_order_puts_may_matter_between_large_and_small():
    v = [SMALL, NOT_SHOWN, MAY_MATTER, LARGE, MAY_MATTER]
    order = stats.practical_order(v, [0.009, 0.05, 0.012, 0.011, 0.03], PP)
    assert list(order) == [3, 4, 2, 0, 1]
    assert stats.VERDICT_ORDER == (LARGE, MAY_MATTER, SMALL, NOT_SHOWN)


def test_the_seat_table_sizes_a_gap_on_the_bonferroni_interval_over_the_seats():
    """100,000 games, seat 1 wins 26.3% against a fair 25% (+1.3 pp): its own 95% interval lies above
    1 pp, but the interval over the 4 seats (z = 2.50) reaches below it, so it may matter (the
    estimate alone called it large enough to matter)."""
    from analysis.seats import _seat_table

    n, wins = 100_000, np.array([26_300, 24_600, 24_560, 24_540])
    p = wins / n
    agg = pl.DataFrame({"seat": np.arange(4, dtype=np.int8), "games": np.full(4, n), "wins": wins.astype(float),
                        "_w2": n * p * (1 - p), "_m": p * 10, "_m2": n * p * (1 - p) * 100,
                        "mean_rank": np.full(4, 2.5)})
    rs = SimpleNamespace(n_players=4, smallest_of=lambda kind: PP)
    seats = _seat_table(rs, agg)
    sd = np.sqrt(p * (1 - p) * n / (n - 1))
    q = norm.ppf(1 - 0.05 / 8)
    low = p[0] - 0.25 - q * sd[0] / np.sqrt(n)
    assert low < PP < p[0] - 0.25 - norm.ppf(0.975) * sd[0] / np.sqrt(n)
    assert seats["significant"][0] and seats["verdict"][0] == MAY_MATTER


def test_a_role_seats_share_interval_is_the_delta_method_one():
    from analysis.roles import role_share_size_intervals

    mean = np.array([0.40, 0.22, 0.20, 0.18])
    rng = np.random.default_rng(3)
    a = rng.normal(size=(4, 4)) * 1e-3
    cov = a @ a.T
    roles = ["lord", "vassal", "vassal", "vassal"]
    tested = np.array([False, True, True, True])
    lo, hi = role_share_size_intervals(mean, cov, roles, tested)
    assert np.isnan(lo[0]) and np.isnan(hi[0])
    q = norm.ppf(1 - 0.05 / 6)

    def share(w, i):
        return w[i] / w[1:].sum() - 1 / 3

    for i in (1, 2, 3):
        grad = np.array([(share(mean + h, i) - share(mean - h, i)) / 2e-6 for h in np.eye(4) * 1e-6])
        se = np.sqrt(grad @ cov @ grad)
        np.testing.assert_allclose([lo[i], hi[i]], [share(mean, i) - q * se, share(mean, i) + q * se], rtol=1e-6)


def test_compare_sizes_each_change_on_its_interval_at_the_bonferroni_level():
    from analysis.compare import _size_intervals

    diff = np.array([0.012, -0.02, 0.5, 0.0])
    dlo = np.array([0.004, -0.03, 0.1, np.nan])
    dhi = np.array([0.021, -0.01, 0.9, np.nan])
    p = np.array([0.003, 1e-4, 0.01, np.nan])                      # 3 tested metrics
    e1, n1, e2, n2 = (np.array([0.0, 0.0, 10.0, 0.0]), np.array([1, 1, 500, 1.0]),
                      np.array([0.0, 0.0, 10.5, 0.0]), np.array([1, 1, 400, 1.0]))
    lo, hi = _size_intervals(diff, dlo, dhi, p, 0.05, {2: (3.0, 4.0)}, (e1, n1, e2, n2))
    c = norm.ppf(1 - 0.05 / 6) / norm.ppf(0.975)
    np.testing.assert_allclose(lo[:2], diff[:2] - (diff[:2] - dlo[:2]) * c, rtol=1e-9)
    np.testing.assert_allclose(hi[:2], diff[:2] + (dhi[:2] - diff[:2]) * c, rtol=1e-9)
    _, wlo, whi, _ = stats.welch(10.5, 4.0, 400, 10.0, 3.0, 500, level=1 - 0.05 / 3)
    np.testing.assert_allclose([lo[2], hi[2]], [wlo, whi], rtol=1e-12)
    assert np.isnan(lo[3]) and np.isnan(hi[3])
    # +1.2 pp (+0.4 to +2.1, its own 95%): large enough to matter by the estimate, may matter by the
    # interval the family's error allows
    assert stats.practical(diff[0], lo[0], hi[0], PP, clear=True) == MAY_MATTER
