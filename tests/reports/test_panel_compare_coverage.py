"""The panel before/after's family (analysis.panel_compare) holds its error rate, by simulation:
two panels of the same rules played on different seeds differ only by chance, so the chance that
some seat of some cell is called moved (Holm over the 12 comparisons of the default Middle-Ages
panel; the same as some Bonferroni interval over the family missing the true change, 0) must be at
most 5%. 80 such pairs: with a rate of 5%, 10 or more flagged pairs has probability 0.6%; without
the family's correction (each comparison at 5%) about 40% of pairs flag something."""

from __future__ import annotations

import polars as pl
import pytest

from analysis import stats
from analysis.panel_compare import panel_comparison
from cli import _run

PAIRS = 80


@pytest.mark.slow
def test_same_rules_on_other_deals_flag_some_seat_in_at_most_5_percent_of_pairs(tmp_path):
    flagged, reaches = 0, 0
    for k in range(PAIRS):
        dirs = []
        for side in (0, 1):
            out = tmp_path / f"p{k}-{side}"
            assert _run(["simulate", "--panel", "default", "--games", "400", "--seed",
                         str(1000 + 2 * k + side), "--quiet", "--no-raw", "--out", str(out)]) == 0
            dirs.append(out)
        c = panel_comparison(*dirs)
        assert c.family == 12 and not c.rows["paired"].any()
        flagged += int((c.rows["verdict"] != stats.NOT_SHOWN).any())
        # every Bonferroni interval over the family holds the true change, 0, at once
        missed = c.rows.filter((pl.col("size_low") > 0) | (pl.col("size_high") < 0))
        reaches += int(missed.height > 0)
        assert missed.filter(pl.col("verdict") == stats.NOT_SHOWN).height == 0, missed
    print(f"panel before/after, same rules: {flagged} of {PAIRS} pairs flagged a seat (Holm), "
          f"{reaches} had a family interval missing 0")
    assert reaches <= flagged                       # Holm rejects whatever Bonferroni does
    assert flagged <= 9, f"{flagged} of {PAIRS} pairs of one rule set flagged a seat"
