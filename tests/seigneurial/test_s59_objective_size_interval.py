"""Review s59 rv235 #2: the Objective cards' size words ("may matter", "large enough to matter")
were read on diff ± z·√(c(1 − c)/n), c the average Censitaire's share: the null hypothesis's
standard error, too narrow for a card well above the average (a 42% card against 33%) and too wide
for one well below. They are now read on the card's own exact (Clopper-Pearson) interval at
1 − 0.05/m, Bonferroni over the m tested cards, minus the average (which the exact binomial test
also takes as known): valid at the edges, and the clear/not-clear decision stays Holm's."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from analysis.games.seigneurial import adjusted_objectives, card_size_interval

N, WINS, AVERAGE, CARDS = 300, 126, 0.33, 12


def _cards() -> pl.DataFrame:
    wins = [WINS] + [round(AVERAGE * N)] * (CARDS - 1)
    return pl.DataFrame({"objective": list(range(CARDS)), "dealt": [N] * CARDS, "wins": [float(w) for w in wins],
                         "win_share": [w / N for w in wins], "censitaire_share": [AVERAGE] * CARDS,
                         "diff": [w / N - AVERAGE for w in wins]})


def _tail(k: int, n: int, p: float, upper: bool) -> float:
    ks = range(k, n + 1) if upper else range(0, k + 1)
    return sum(math.comb(n, j) * p ** j * (1 - p) ** (n - j) for j in ks)


def test_a_card_well_above_the_average_is_sized_on_its_own_exact_interval():
    o = adjusted_objectives(_cards())
    row = o.row(0, named=True)
    assert row["significant"]          # clear (Holm over the 12), as before
    # the null s.e. read the near end at +1.22 pp: "large enough to matter"; the card's own exact
    # interval at 1 − 0.05/12 puts it at +0.89 pp, below the 1 pp that matters
    assert row["verdict"] == "clear, may matter", row
    assert row["size_low"] == pytest.approx(0.00891, abs=5e-5)
    # each end is the exact binomial one: the tail beyond the count seen is 0.05/24 there
    a = 0.05 / CARDS / 2
    assert _tail(WINS, N, row["size_low"] + AVERAGE, upper=True) == pytest.approx(a, rel=1e-6)
    assert _tail(WINS, N, row["size_high"] + AVERAGE, upper=False) == pytest.approx(a, rel=1e-6)


def test_a_shared_win_or_a_rotated_run_reads_wilsons_interval_at_the_same_level():
    from analysis import stats

    lo, hi = card_size_interval([126.5], [300], [AVERAGE], m=CARDS)
    w_lo, w_hi = stats.score_interval(126.5, 300, 1 - 0.05 / CARDS)
    assert (lo[0], hi[0]) == pytest.approx((w_lo - AVERAGE, w_hi - AVERAGE))
    lo, hi = card_size_interval([126.0], [300], [AVERAGE], games_per_unit=4, m=CARDS)
    w_lo, w_hi = stats.score_interval(126 / 4, 300 / 4, 1 - 0.05 / CARDS)
    assert (lo[0], hi[0]) == pytest.approx((w_lo - AVERAGE, w_hi - AVERAGE))
    # within [0, 1] as a share: never below −c or above 1 − c
    lo, hi = card_size_interval([0.0, 300.0], [300, 300], [AVERAGE, AVERAGE], m=CARDS)
    assert lo[0] == -AVERAGE and hi[1] == pytest.approx(1 - AVERAGE) and np.all(hi > lo)
