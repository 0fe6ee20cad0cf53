"""A before/after's role chart says its bars are win shares where games end in shared wins (Fief
review 45 #3: "Share of games won" over a castle siege's 88.7% → 76.3%, where the attacker takes the
fief in 85.6% → 71.2% and each mutual wipe-out counts half to each side), and how often a side wins
where none is shared (Seigneurial)."""

from __future__ import annotations

import polars as pl

from analysis import analyse, open_runs
from analysis.compare import compare_runs
from reports.figures import common as F
from simcore import runner
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def _axis(base, variant):
    rb, rv = open_runs([base]), open_runs([variant])
    tb, tv = analyse(rb), analyse(rv)
    fig = F.comparison(compare_runs(rb, rv, tb, tv).table, tb, tv, "before", "after")
    return fig, tb


def test_a_siege_before_after_labels_win_shares(tmp_path):
    runs = [runner.simulate("fief-combat", attacker=10, defender=d, terrain="castle", games=400, seed=1,
                            out=tmp_path / f"d{d}", quiet=True) for d in (6, 8)]
    fig, tb = _axis(*runs)
    o = tb["outcomes"].filter(pl.col("metric") == "shared_wins")
    assert o["estimate"][0] > 0                  # the siege has mutual wipe-outs
    labels = [ax.get_ylabel() for ax in fig.axes if ax.get_ylabel()]
    assert any(x.startswith("Win share of the role") for x in labels), labels
    assert not any(x.startswith("Share of games won") for x in labels), labels


def test_a_game_without_shared_wins_keeps_share_of_games_won(tmp_path):
    runs = []
    for k, settings in enumerate(((), ("payment.order=simultaneous",))):
        prep = runner.prepare("seigneurial", players=3, settings=list(settings))
        runs.append(runner.run(prep, games=200, seed=2, out=tmp_path / f"s{k}", quiet=True))
    fig, tb = _axis(*runs)
    labels = [ax.get_ylabel() for ax in fig.axes if ax.get_ylabel()]
    assert any(x.startswith("Share of games won") for x in labels), labels
