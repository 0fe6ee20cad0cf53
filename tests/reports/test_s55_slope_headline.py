"""Review s55 #2: the before/after's first answer said "Largest other changes: … win share per
extra Palais tile +3.5 pp per tile" where the slope went from −1.7 to +1.8 pp per tile: +3.5 is the
change of the slope, which read as the slope itself. The headline now gives the slope before and
after, as the list below it does ("−1.7 → +1.8 pp per tile"), and calls +3.5 the slope's change."""

from __future__ import annotations

import re

import polars as pl

from analysis import stats
from reports.text import largest_other_changes

ROW = {"metric": "tile_slope", "key": "Palais", "label": "Win share per extra Palais tile",
       "kind": "slope", "base": -0.0168, "variant": 0.0183, "diff": 0.0351, "diff_low": 0.031,
       "diff_high": 0.039, "family": "other metrics", "verdict": stats.LARGE, "smallest": 0.01,
       "base_fit": 0.48, "variant_fit": 0.37}


def test_the_headline_gives_a_slope_before_and_after_and_names_its_change():
    said = largest_other_changes(pl.DataFrame([ROW]), "coins")
    assert "win share per extra Palais tile −1.7 → +1.8 pp per tile" in said, said
    assert re.search(r"slope's change \+3\.5 pp per tile", said), said
    assert "tile +3.5 pp per tile" not in said, said


def test_a_straight_slope_is_given_before_and_after_too():
    said = largest_other_changes(pl.DataFrame([{**ROW, "base_fit": 0.9, "variant_fit": 0.95}]), "coins")
    assert "−1.7 → +1.8 pp per tile" in said and "curve bends" not in said, said
