"""A ladder of a game whose seats are alike says who is strongest (review 45 #4: a 7 × 7 matrix
with no sentence; the ranking existed for games with roles only). Each mean and the "clearly ahead"
call are recomputed here: each mean from the ladder's own CSV, the call (review 214 #8: the paired
interval of the difference of two rows' means, deal by deal, at 1 − 0.05/12) from the same games
replayed here and scipy's t; two rows whose adjusted bounds in the CSV do not overlap (the rule
before, which needs no pairing) are always called clear."""

from __future__ import annotations

import re

import numpy as np
import polars as pl
from scipy import stats as sps

from in_process import balance
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def test_the_ranking_sentence_follows_the_csv(tmp_path):
    out = tmp_path / "ladder.csv"
    done = balance("ladder", "--game", "middle-ages", "--bots", "random,greedy,balanced,eventwise",
                   "--games", "800", "--seed", "2", "--out", out)
    text = " ".join(done.stdout.split())
    m = re.search(r"Ranked by mean win share against the 3 bots that do not play at random, a bot's games "
                  r"against copies of itself left out \(fair 25% at 4 players\): (.*?)\. (.*?)(?: ladder:|$)", text)
    assert m, text[-800:]
    said = [(x.rsplit(" ", 1)[0], float(x.rsplit(" ", 1)[1].rstrip("%"))) for x in m.group(1).split(", ")]
    t = pl.read_csv(out)
    plain = ["greedy", "balanced", "eventwise"]
    mine = t.filter(pl.col("opponent").is_in(plain) & (pl.col("bot") != pl.col("opponent")))
    mean = {b: float(g["win_share"].mean()) for (b,), g in mine.group_by("bot")}
    assert [b for b, _ in said] == sorted(mean, key=lambda b: -mean[b])
    for b, v in said:
        assert v == round(100 * mean[b], 1)
    low = {b: float(g["adjusted_low"].mean()) for (b,), g in mine.group_by("bot")}
    high = {b: float(g["adjusted_high"].mean()) for (b,), g in mine.group_by("bot")}
    best = said[0][0]
    apart = all(low[best] > high[b] for b in mean if b != best)
    assert np.isfinite(list(low.values())).all()
    # the same games deal by deal (one seed for every cell: deal d of each starts alike)
    from simcore import runner

    def per_deal(bot, opp):
        prep = runner.prepare("middle-ages", players=4, strategies=[bot] + [opp] * 3, rotate_seats=True)
        w = runner.collect(prep, games=800, seed=2, columns=("game", "seat", "win_share")).win_shares(4)
        n = np.arange(800)
        return w[n, (-(n % 4)) % 4].reshape(200, 4).mean(axis=1)

    rows = {b: np.mean([per_deal(b, o) for o in plain if o != b], axis=0) for b in mean}
    p = [sps.ttest_1samp(rows[best] - rows[b], 0.0) for b in mean if b != best]
    ahead = all(r.statistic > 0 and r.pvalue < 0.05 / 12 for r in p)
    said_clear = "is the strongest: clearly ahead of every other bot" in m.group(2)
    assert said_clear == ahead, (m.group(2), [(r.statistic, r.pvalue) for r in p])
    assert said_clear or not apart, (m.group(2), low, high)
