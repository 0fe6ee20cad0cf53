"""Review 214 #8: the ladder's ranking sentence called a leader "clearly ahead" only when the mean
of its adjusted lower ends lay above every other row's mean of adjusted upper ends (two intervals
that do not overlap), far more conservative than an interval of the difference itself. At 4
players with income.palais.base=4, 400 games: balanced 36.8% against copies of greedy, greedy 16.0%
against copies of balanced, "not clearly above greedy's with the 12 matchups read together",
though the difference of 20.8 pp clears 0 on any interval of it at 1 − 0.05/12 (even the one
that holds whatever the two cells' correlation, their standard errors added: about ±19.9 pp).

The cells of a ladder are played at one seed: deal d of every cell starts from the same random
streams, so a row's mean and another's are compared deal by deal (a paired t interval of the
per-deal difference; review 224: Bonferroni over the n − 1 differences read, not the ladder's
matchups)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as sps

from analysis import ladder as L

K = 12          # the reviewer's family: 3 bots at 3 and 4 players


@pytest.fixture(scope="module")
def cells():
    sets = ["income.palais.base=4"]
    return [L.duel(a, b, 400, players=4, seed=0, game="middle-ages", settings=sets)
            for a, b in (("balanced", "greedy"), ("greedy", "balanced"))]


def test_a_difference_that_clears_zero_at_the_family_level_is_said_clear(cells):
    bal, gre = cells
    assert (round(100 * bal.win_share, 1), round(100 * gre.win_share, 1)) == (36.8, 16.0)
    # independent of the code's bounds: the difference's interval that holds whatever the two
    # cells' correlation (the standard errors added), Student t over the deals at 1 − 0.05/12
    deals = bal.games // 4
    q = sps.t.ppf(1 - 0.05 / K / 2, deals - 1)
    low = (bal.win_share - gre.win_share) - q * (bal.std_error + gre.std_error)
    assert low > 0, low
    said = L.ranking_sentence(cells, 4, family=K)
    assert "balanced is the strongest: clearly ahead of every other bot" in said, said
    assert "not clearly" not in said, said


def test_the_call_is_the_paired_interval_of_the_difference(cells):
    """The same games from the runner, paired by deal here, give the interval the sentence reads:
    clear at the reviewer's family, and not where that interval holds 0."""
    from simcore import runner

    def per_deal(bot, opp):
        prep = runner.prepare("middle-ages", players=4, strategies=[bot] + [opp] * 3, rotate_seats=True,
                              settings=["income.palais.base=4"])
        w = runner.collect(prep, games=400, seed=0, columns=("game", "seat", "win_share")).win_shares(4)
        n = np.arange(400)
        return w[n, (-(n % 4)) % 4].reshape(100, 4).mean(axis=1)

    d = per_deal("balanced", "greedy") - per_deal("greedy", "balanced")
    res = sps.ttest_1samp(d, 0.0)
    # the family size at which the paired interval's lower end reaches 0 (two-sided p = 0.05/k)
    edge = 0.05 / res.pvalue
    assert edge > K
    assert "clearly ahead" in L.ranking_sentence(cells, 4, family=K)
    # review 224: the mean's call reads the n − 1 = 1 difference of two bots, at 95 %, whatever the
    # ladder's family (which sets the table's ▲/▼ only); before, a family so large that the paired
    # interval at 1 − 0.05/family held 0 made it "not clearly" (Bonferroni over matchups the
    # sentence does not read)
    big = int(edge * 1.5) + 1
    said = L.ranking_sentence(cells, 4, family=big)
    # (session 60: with two bots the mean is the head to head, said once with both shares)
    assert ("balanced is the strongest: clearly ahead of every other bot, its mean's difference from "
            "the other's, at 95%; with two bots its mean is its head to head: 36.8% against greedy's "
            "16.0%") in said, (big, said)
