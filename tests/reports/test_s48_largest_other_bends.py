"""The first answer's "Largest other changes" keeps a bent tile curve's warning, as the list below
it does (review s48 MA #4: "win share per extra Palais tile +3.5 pp per tile" alone, where the line
explains 48% and 37% of the curve)."""

from __future__ import annotations

import polars as pl

from analysis import stats
from reports.text import largest_other_changes

ROW = {"metric": "tile_slope", "key": "palais", "label": "Palais: win share per extra tile",
       "kind": "slope", "base": -0.0168, "variant": 0.0183, "diff": 0.0351, "diff_low": 0.031,
       "diff_high": 0.039, "family": "other metrics", "verdict": stats.LARGE, "smallest": 0.01,
       "base_fit": 0.48, "variant_fit": 0.37}


def test_a_bent_curve_is_said_beside_its_slope():
    said = largest_other_changes(pl.DataFrame([ROW]), "coins")
    assert "a straight-line summary only: the curve bends, the line explaining 48% of it before, " \
           "37% after" in said, said


def test_a_straight_curve_is_said_plainly():
    said = largest_other_changes(pl.DataFrame([{**ROW, "base_fit": 0.9, "variant_fit": 0.95}]), "coins")
    assert "curve bends" not in said and said.startswith("Largest other changes: "), said
