"""Médiévallons' guild types: the Holm family (and the Bonferroni range "all N types at once") is the
types founded often enough to rank; a type the page marks "too few players" is not tested and does
not widen the others' correction (review s49 #3: "Holm over the 13 types" beside a Bouffon row
reading "too few players", whose p-value sat in the family). Checked against statsmodels' Holm
over the ranked types' own p-values."""

from __future__ import annotations

import numpy as np
from statsmodels.stats.multitest import multipletests

from analysis import open_runs
from analysis.guilds import guild_table, ranked
from reports.games.medievallons import _guild_rows, guild_headlines
from tests.in_process import balance
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def test_the_family_is_the_ranked_types(tmp_path):
    out = tmp_path / "mv"
    balance("simulate", "--game", "medievallons", "--games", "4000", "--seed", "5", "--out", out)
    g = guild_table(open_runs([out]))
    r = ranked(g)
    assert 1 < r.height < g.height            # some types rank, some are too rare (the Bouffon)
    got = dict(zip(g["card"], g["p_adjusted"]))
    want = multipletests(r["p_value"].to_numpy(), method="holm")[1]
    for card, p in zip(r["card"], want):
        assert abs(got[card] - p) < 1e-12, card
    for card in set(g["card"]) - set(r["card"]):
        assert got[card] is None, card
    rows = _guild_rows({"guild_types": g})
    assert f"Verdict (Holm over the {r.height} types; 1 pp matters)" in rows.columns
    assert f"All {r.height} types at once (pp, the verdict's range)" in rows.columns
    assert not np.isnan(np.asarray(r["p_adjusted"], float)).any()


def test_the_headline_names_the_same_family(tmp_path):
    out = tmp_path / "mv"
    balance("simulate", "--game", "medievallons", "--games", "4000", "--seed", "5", "--out", out)
    g = guild_table(open_runs([out]))
    n = ranked(g).height
    said = " ".join(guild_headlines({"guild_types": g}))
    assert f"over the {n} types" in said and f"over the {g.height} types" not in said, said
