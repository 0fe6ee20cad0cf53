"""Identical Objective cards are one metric in a before/after (review s48 Seigneurial #1: cards #10,
#11 and #12, the same card dealt three times, read "may matter", "may matter" and "within noise"
side by side). Pooled only where they are identical in both runs: a card the change made differ
stands alone. A pooled row's key names its cards ("#10+#11+#12"), never one card's key (review 225
#3: the summary export's "#10" is card #10 alone)."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from analysis import analyse, open_runs
from analysis.compare import compare_runs
from simcore import runner

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

SHIPPED = Path(__file__).resolve().parents[2] / "configs" / "seigneurial" / "rules.toml"
EACH_FOUR = "  { grain = 4, wood = 4, fish = 4 }, { grain = 4, wood = 4, fish = 4 }, { grain = 4, wood = 4, fish = 4 },"
LAST_EASIER = "  { grain = 4, wood = 4, fish = 4 }, { grain = 4, wood = 4, fish = 4 }, { grain = 3, wood = 4, fish = 4 },"


def _holders(run: Path, cards) -> float:
    p = pl.read_parquet(run / "players.parquet").filter(pl.col("objective").is_in(list(cards)))
    return float(p["win_share"].mean())


def _cards(tmp_path, rules=None, settings=()):
    base = runner.simulate("seigneurial", games=4000, seed=5, out=tmp_path / "a", quiet=True)
    var = runner.simulate("seigneurial", games=4000, seed=5, out=tmp_path / "b", quiet=True,
                          rules=rules, settings=list(settings))
    brs, vrs = open_runs([base]), open_runs([var])
    c = compare_runs(brs, vrs, analyse(brs), analyse(vrs)).table
    return base, var, c.filter(pl.col("metric") == "objective_win_share")


def test_the_same_card_three_times_is_one_row(tmp_path):
    base, var, cards = _cards(tmp_path, settings=["payment.order=simultaneous"])
    # the pooled row's key names every card it pools (review 225 #3: "#10" here was #10-#12 pooled,
    # 14,799 holders, where the summary export's "#10" is card #10 alone: a join matched the two)
    assert sorted(cards["key"].to_list(), key=lambda k: int(k[1:].split("+")[0])) == (
        [f"#{i}" for i in range(1, 10)] + ["#10+#11+#12"])
    ten = cards.filter(pl.col("key") == "#10+#11+#12").row(0, named=True)
    assert ten["label"] == ("Objective cards #10, #11, #12 (grain ≥ 4, wood ≥ 4, fish ≥ 4, 3 identical "
                            "cards): their holders' win share")
    assert ten["base"] == pytest.approx(_holders(base, (9, 10, 11)), abs=1e-12)
    assert ten["variant"] == pytest.approx(_holders(var, (9, 10, 11)), abs=1e-12)
    one = cards.filter(pl.col("key") == "#7").row(0, named=True)
    assert one["label"].startswith("Objective card #7 (") and one["base"] == pytest.approx(_holders(base, (6,)))


def test_a_copy_the_change_made_differ_stands_alone(tmp_path):
    text = SHIPPED.read_text()
    assert EACH_FOUR in text
    (tmp_path / "last.toml").write_text(text.replace(EACH_FOUR, LAST_EASIER))
    base, var, cards = _cards(tmp_path, rules=tmp_path / "last.toml")
    keys = set(cards["key"].to_list())
    assert {"#10+#11", "#12"} <= keys and not {"#10", "#11"} & keys
    ten = cards.filter(pl.col("key") == "#10+#11").row(0, named=True)
    assert ten["label"].startswith("Objective cards #10, #11 (") and "2 identical cards" in ten["label"]
    assert ten["variant"] == pytest.approx(_holders(var, (9, 10)), abs=1e-12)
    twelve = cards.filter(pl.col("key") == "#12").row(0, named=True)
    assert twelve["variant"] == pytest.approx(_holders(var, (11,)), abs=1e-12)
    assert "→ grain ≥ 3, wood ≥ 4, fish ≥ 4" in twelve["label"]


def test_a_join_on_metric_and_key_never_matches_a_pooled_row_with_one_card(tmp_path):
    base, _, cards = _cards(tmp_path, settings=["payment.order=simultaneous"])
    from analysis.export import analysis_table

    summary = analysis_table(base, "summary").filter(pl.col("metric") == "objective_win_share")
    both = summary.join(cards, on=["metric", "key"], how="inner")
    assert both.height == 9                                      # #1 … #9, each card alone in both
    for r in both.iter_rows(named=True):
        assert r["n"] == r["base_n"] and r["estimate"] == pytest.approx(r["base"], abs=1e-12), r
