"""The scores figure's caption ranks no seat apart from seats within noise of it (review 45 #7:
"Seat 3 ends with the most coins on average (105.51)" beside Seats 2 and 4 at 105.507 and 105.491,
intervals about ±0.30). Expected groups recomputed from players.parquet (t intervals, scipy)."""

from __future__ import annotations

import numpy as np
import polars as pl
from scipy import stats as sps

from analysis import analyse, open_runs
from reports.sections import _score_caption
from simcore import runner


def test_seats_within_noise_of_the_top_are_named_together(tmp_path):
    run = runner.simulate("middle-ages", strategies="random", games=3000, seed=11, out=tmp_path / "r",
                          quiet=True, raw=True)
    p = pl.read_parquet(run / "players.parquet")
    ci = {}
    for (seat,), g in p.group_by("seat"):
        x = g["score"].to_numpy().astype(float)
        h = sps.t.ppf(0.975, len(x) - 1) * x.std(ddof=1) / np.sqrt(len(x))
        ci[seat + 1] = (x.mean(), x.mean() - h, x.mean() + h)
    best = max(ci, key=lambda k: ci[k][0])
    top = sorted(k for k in ci if ci[k][2] >= ci[best][1])
    caption = _score_caption(analyse(open_runs([run])), "coins")
    if len(top) == len(ci):
        assert caption.startswith("Every seat ends with about as many coins"), caption
    elif len(top) == 1:
        assert caption.startswith(f"Seat {best} ends with the most coins"), caption
    else:
        assert caption.startswith("Seats " + ", ".join(map(str, top[:-1])) + f" and {top[-1]} end with the most"), caption
    assert len(top) > 1, "random bots at seed 11 leave seats within noise of the top"
