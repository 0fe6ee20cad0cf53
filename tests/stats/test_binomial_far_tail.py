"""The exact binomial test of a count far in the tail is quiet and right.

A panel's within-role test of a seat that took 2 of a role's 2,000 wins (chance 1/3) printed
numpy's "RuntimeWarning: overflow encountered in exp" to the designer's terminal before the page's
lead: the likelier counts, taken relative to the one seen, overflow. They are left out of the sum
as they should be; the p-value is scipy's.
"""

from __future__ import annotations

import warnings

import pytest


@pytest.mark.parametrize("k, n, p", [(2, 2000, 1 / 3), (1999, 2000, 1 / 3), (0, 5000, 0.5), (700, 2000, 1 / 3)])
def test_far_tail_counts_raise_no_warning_and_match_scipy(k, n, p):
    from scipy.stats import binomtest

    from analysis.stats import binomial_test

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = float(binomial_test(k, n, p)[0])
    assert got == pytest.approx(binomtest(k, n, p).pvalue, rel=1e-9, abs=1e-300)
