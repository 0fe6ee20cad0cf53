"""Review s61 panels/tune #5: the panel page ignored the cells' weights. panels.toml says a cell's
``weight`` weighs it "in a mean over the panel"; a panel of 3p balanced (weight 3) and 4p greedy
(weight 1) printed Seat 1's mean gap from 1/P as "−5.2 pp on average over the panel's 2 cells",
the unweighted mean of −5.5 and −4.8 (weighted: −5.3). The mean is now weighted as the panel
weighs its cells, and said to be weighted when the weights differ; equal weights read as before."""

from __future__ import annotations

import polars as pl
import pytest

from analysis.panel import _pp, finding_statement, panel_table
from in_process import balance
from simcore import games as registry

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

W_TOML = """[w]
cells = [{ players = 3, lineup = "balanced", weight = 3 }, { players = 4, lineup = "greedy", weight = 1 }]
"""


@pytest.fixture(scope="module")
def weighted(tmp_path_factory):
    d = tmp_path_factory.mktemp("s61w")
    (d / "w.toml").write_text(W_TOML, encoding="utf-8")
    balance("simulate", "--game", "middle-ages", "--panel", d / "w.toml", "--games", 3000, "--seed", 1,
            "--out", d / "w", "-q")
    return d / "w"


def _seat1(cells: pl.DataFrame) -> pl.DataFrame:
    return cells.filter(pl.col("metric") == "seat_win_share_1").sort("cell")


def test_the_panel_finding_weighs_the_cells_as_the_panel_does(weighted):
    t = panel_table([weighted])
    s = _seat1(t.cells)
    gaps = (s["estimate"] - s["fair"]).to_list()
    mean = (3 * gaps[0] + 1 * gaps[1]) / 4
    plain = sum(gaps) / 2
    assert _pp(mean) != _pp(plain), (mean, plain)        # (the two read differently at 1 decimal)
    said = finding_statement(t.cells, registry.get("middle-ages"))
    assert f"on weighted average over the panel's 2 cells" in said, said
    assert f"{_pp(mean)} on weighted average" in said and _pp(plain) not in said, said
    assert "3 for 3p 3×balanced" in said and "1 for 4p 4×greedy" in said, said


def test_a_panel_of_equal_weights_says_a_plain_average(weighted, tmp_path):
    t = panel_table([weighted])
    said = finding_statement(t.cells.with_columns(pl.lit(1.0).alias("weight")), registry.get("middle-ages"))
    assert "weighted" not in said and " on average over the panel's 2 cells" in said, said
