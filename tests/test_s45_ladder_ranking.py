"""A ladder of a game whose seats are alike says who is strongest (review 45 #4: a 7 × 7 matrix
with no sentence; the ranking existed for games with roles only). Each mean and the "clearly ahead"
call are recomputed here from the ladder's own CSV (its cells and their adjusted bounds)."""

from __future__ import annotations

import re

import numpy as np
import polars as pl

from in_process import balance


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
    ahead = all(low[best] > high[b] for b in mean if b != best)
    assert ("is the strongest: clearly ahead of every other bot" in m.group(2)) == ahead, (m.group(2), low, high)
    assert np.isfinite(list(low.values())).all()
