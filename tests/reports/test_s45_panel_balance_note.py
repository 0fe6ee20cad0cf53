"""The panel before/after's note on the largest gap says what is computed (review 45 #3: it said
"each at level 1 − 0.05/108" for sizes computed at 1 − 0.05/72, and "the change is read on those
two ranges …, wider than a paired test" for changes read on the pairing). The sizes are recomputed
here with statsmodels' Wilson interval at the level the note states."""

from __future__ import annotations

import re

import numpy as np
import polars as pl
import pytest
from statsmodels.stats.proportion import proportion_confint

from analysis import analyse, open_runs
from analysis.compare import compare_runs
from analysis.panel_compare import run_pair_balance
from reports.panel import balance_note
from simcore import runner

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    d = tmp_path_factory.mktemp("note")
    runs = [runner.simulate("middle-ages", games=4000, seed=2, out=d / n, settings=s, raw=True, quiet=True)
            for n, s in (("a", []), ("b", ["setup.start_coins[0]=5"]))]
    (ra, ta), (rb, tb) = [(rs, analyse(rs)) for rs in (open_runs([r]) for r in runs)]
    cmp = compare_runs(ra, rb, ta, tb).table
    return runs, run_pair_balance(cmp, ta, tb, 4)


def test_the_note_states_the_levels_the_numbers_are_computed_at(pair):
    runs, balance = pair
    assert bool(balance["paired"][0]) and int(balance["family"][0]) == 12
    note = balance_note(balance)
    sizes = int(re.search(r"all (\d+) of both panels at once \(Bonferroni, each at level 1 − 0\.05/(\d+)\)", note).group(1))
    assert sizes == 8 and "all 12 at once (Bonferroni, each at level 1 − 0.05/12" in note
    assert "read on the pairing" in note and "wider than a paired test" not in note
    # the sizes as printed are at that level: each seat's Wilson interval at 1 − 0.05/8
    for run, col in ((runs[0], "before"), (runs[1], "after")):
        p = pl.read_parquet(run / "players.parquet")
        n = p["game"].n_unique()
        wins = p.group_by("seat").agg(pl.col("win_share").cast(pl.Float64).sum()).sort("seat")["win_share"]
        near, far = [], []
        for w in wins:
            lo, hi = proportion_confint(w, n, alpha=0.05 / sizes, method="wilson")
            lo, hi = lo - 0.25, hi - 0.25
            near.append(0.0 if lo <= 0 <= hi else min(abs(lo), abs(hi)))
            far.append(max(abs(lo), abs(hi)))
        assert balance[f"{col}_low"][0] == pytest.approx(max(near), abs=2e-4)
        assert balance[f"{col}_high"][0] == pytest.approx(max(far), abs=2e-4)
