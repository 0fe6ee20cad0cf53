"""analysis.stats.chance_largest_gap: the mean largest gap between seats' win shares by chance alone
(review 45 #3), against exact values: at 2 players the gap is |2X − n| / n with X ~ Binomial(n, ½);
at 3 and 4 players, an exact sum over the multinomial's tables for a small n."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import stats as sps

from analysis.stats import chance_largest_gap


@pytest.mark.parametrize("n", [10, 300, 1000])
def test_two_players_exact(n):
    x = np.arange(n + 1)
    exact = float((sps.binom.pmf(x, n, 0.5) * np.abs(2 * x - n)).sum() / n)
    assert chance_largest_gap(2, n) == pytest.approx(exact, rel=1e-9)


@pytest.mark.parametrize("players, n", [(3, 12), (4, 10)])
def test_small_tables_exact(players, n):
    exact = 0.0
    for counts in itertools.product(range(n + 1), repeat=players - 1):
        last = n - sum(counts)
        if last < 0:
            continue
        c = (*counts, last)
        p = math.factorial(n) / math.prod(math.factorial(k) for k in c) / players ** n
        exact += p * (max(c) - min(c)) / n
    assert chance_largest_gap(players, n) == pytest.approx(exact, rel=0.02)


def test_the_same_answer_every_call():
    chance_largest_gap.cache_clear()
    a = chance_largest_gap(4, 300)
    chance_largest_gap.cache_clear()
    assert chance_largest_gap(4, 300) == a
