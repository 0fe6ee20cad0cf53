"""Helper 228 #1: the ladder's role-game headline (:func:`analysis.ladder.lead_headline`, the
Seigneur's table) said a row bot "clearly ahead" only when the mean of its Bonferroni-adjusted
lower ends lay above every other row's mean of upper ends: two intervals that do not overlap, far
more conservative than its stated level. The lead cells of a role ladder are played at one seed, so
game g of every cell is dealt from the same streams: the rows are paired by deal, and the headline
now reads the paired t interval of the difference of the two rows' means at 1 − 0.05/m, as the
seat-game ranking does (tests/analysis/test_s58_ladder_lead_clear.py); Newcombe's interval of two
independent shares where a row has too few wins for the t interval (or the cells kept no games).

The intervals here are computed independently, with scipy and statsmodels."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as sps
from statsmodels.stats.proportion import confint_proportions_2indep, proportion_confint

from analysis import ladder as L

WORDS = dict(lead="Seigneur", shared="Censitaire")
D = 400
M = 1           # the differences read: rows a and b against column x, one difference (review 224:
                # was 2, the matchups)


def _cell(bot: str, won: np.ndarray) -> L.Cell:
    lo, hi = proportion_confint(int(won.sum()), won.size, method="wilson")
    return L.Cell(bot, "x", won.size, float(won.mean()), float(won.std(ddof=1) / np.sqrt(won.size)),
                  lo, hi, float("nan"), per_deal=won.astype(float))


def _wins(deals) -> np.ndarray:
    w = np.zeros(D)
    w[list(deals)] = 1.0
    return w


def _overlap_rule_apart(a: np.ndarray, b: np.ndarray) -> bool:
    """The rule before: a's Wilson interval at 1 − 0.05/m wholly above b's."""
    a_lo, _ = proportion_confint(int(a.sum()), D, alpha=0.05 / M, method="wilson")
    _, b_hi = proportion_confint(int(b.sum()), D, alpha=0.05 / M, method="wilson")
    return a_lo > b_hi


def _paired_low(a: np.ndarray, b: np.ndarray) -> float:
    d = a - b
    return d.mean() - sps.t.ppf(1 - 0.05 / M / 2, D - 1) * d.std(ddof=1) / np.sqrt(D)


def test_a_paired_difference_that_clears_zero_is_said_clear_though_the_intervals_overlap():
    # b wins deals 0–99 (25%); a wins those and 100–129 too (32.5%): the same deals, correlated
    b = _wins(range(100))
    a = _wins(range(130))
    assert not _overlap_rule_apart(a, b)          # the rule before: "not clearly ahead"
    assert _paired_low(a, b) > 0, _paired_low(a, b)
    said = L.lead_headline([_cell("a", a), _cell("b", b)], **WORDS)
    assert "a does best: 32.5% against x (next b, 25.0%), clearly ahead of every other Seigneur bot, " \
           "its mean's difference from the other's, at 95%" in said, said


def test_the_same_shares_unpaired_are_not_clear():
    # the converse: a wins on other deals than b (120 of deals 200–319; review 224: 130 cleared 0
    # at 95%, the level of the one difference read): the paired difference's interval holds 0, so
    # not clearly ahead
    b = _wins(range(100))
    a = _wins(range(200, 320))
    assert _paired_low(a, b) < 0, _paired_low(a, b)
    said = L.lead_headline([_cell("a", a), _cell("b", b)], **WORDS)
    assert "The highest is a's, 30.0% against x (next b, 25.0%), but not clearly ahead" in said, said


@pytest.mark.parametrize("extra, clear", [(11, True), (3, False)])
def test_few_wins_read_newcombe_of_two_independent_shares(extra, clear):
    # the Seigneur's rare wins: b wins 2 games of 400 (fewer than 10), a those and ``extra`` more;
    # Newcombe's interval at 1 − 0.05/m from statsmodels decides, not the t interval
    b = _wins(range(2))
    a = _wins(range(2 + extra))
    lo, _ = confint_proportions_2indep(int(a.sum()), D, int(b.sum()), D, method="newcomb",
                                       compare="diff", alpha=0.05 / M)
    assert (lo > 0) == clear, lo
    said = L.lead_headline([_cell("a", a), _cell("b", b)], **WORDS)
    assert ("clearly ahead of every other Seigneur bot" in said) == clear, said
    assert ("but not clearly ahead" in said) == (not clear), said


def test_a_role_ladder_keeps_each_lead_games_share():
    import strategies.seigneurial as S

    cells = L.role_ladder(["even-lord", "objective"], 24, players=3, game="seigneurial",
                          roles_of=S.roles_of)
    lead = cells["seigneur"]
    assert lead and all(c.per_deal is not None and c.per_deal.size == c.games for c in lead)
    assert all(c.per_deal.mean() == pytest.approx(c.win_share) for c in lead)
