"""The score figures (revD #15): the score histogram's x axis runs over the players, not to the
last stray score (a run of 800,000 players ran to 300 coins with nothing visible past ~250), and
says how many players it leaves out and how far they reach; the game-flow figure's y axis has its
unit."""

from __future__ import annotations

import numpy as np
import polars as pl

from reports.figures import common as F


def _scores(n=100_000, seed=0):
    rng = np.random.default_rng(seed)
    rows = []
    for s in range(1, 5):
        x = np.clip(np.round(rng.normal(110, 30, n)).astype(int), 0, None)
        x[:3] = 300                                   # three stray scores far out
        v, c = np.unique(x, return_counts=True)
        rows += [{"group": f"Seat {s}", "score": int(a), "players": int(b), "share": b / n} for a, b in zip(v, c)]
    return pl.DataFrame(rows)


def test_the_score_axis_ends_where_the_players_are_and_says_what_it_leaves_out():
    d = _scores()
    fig = F.scores({"scores_by_seat": d})
    ax = fig.axes[0]
    lo, hi = ax.get_xlim()
    pooled = np.repeat(d["score"].to_numpy(), d["players"].to_numpy())
    # the cut keeps all but 0.01% of the players at each end
    assert hi < 300 and hi >= np.quantile(pooled, 1 - 1e-4)
    assert lo <= np.quantile(pooled, 1e-4)
    # said under the axis (review G: a note inside the axes was drawn over a seat's line)
    assert not [t.get_text() for t in ax.texts if t.get_text().startswith("Not shown")]
    notes = [ax.get_xlabel()]
    assert "Not shown" in notes[0], notes
    beyond = int((pooled >= hi).sum())              # a score s is drawn over [s − ½, s + ½)
    assert f"{beyond:,} above {int(hi - 0.5)}" in notes[0] and "up to 300" in notes[0] \
        and "of 400,000 players" in notes[0], notes


def test_the_game_flow_axis_says_its_unit():
    flow = pl.DataFrame({"checkpoint": [1, 2, 1, 2], "label": ["Turn 1", "End"] * 2, "turn": [1, None] * 2,
                         "rank": [1, 1, 2, 2], "players": [10] * 4, "mean_coins": [5.0, 100.0, 4.0, 80.0],
                         "ci_low": [4.0, 95.0, 3.0, 75.0], "ci_high": [6.0, 105.0, 5.0, 85.0]})
    outcomes = pl.DataFrame({"metric": ["shared_wins"], "estimate": [0.0], "ci_low": [0.0], "ci_high": [0.0]})
    fig = F.game_flow({"flow": flow, "outcomes": outcomes})
    assert fig.axes[0].get_ylabel() == "Mean score so far (coins)"
