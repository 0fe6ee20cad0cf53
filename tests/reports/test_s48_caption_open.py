"""The before/after figure's caption says a share did not move by enough to matter only where the
games rule that out (review s48 MA #1: under a page whose answer was "Cannot tell … its 95%
interval reaches +1.01 pp", the caption read "No share moved by enough to matter")."""

from __future__ import annotations

import re

import polars as pl
import pytest

from analysis import analyse, open_runs, stats
from analysis.compare import compare_runs
from reports.sections import _comparison_caption
from simcore import runner

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


@pytest.fixture(scope="module")
def cmp(tmp_path_factory):
    root = tmp_path_factory.mktemp("s48_caption")
    base = runner.simulate("middle-ages", games=2000, seed=3, out=root / "base", quiet=True)
    var = runner.simulate("middle-ages", games=2000, seed=3, out=root / "palais", quiet=True,
                          settings=["income.palais.base=4"])
    brs, vrs = open_runs([base]), open_runs([var])
    return compare_runs(brs, vrs, analyse(brs), analyse(vrs)).table


def _open(cmp: pl.DataFrame) -> list[dict]:
    """Shares not shown to move by enough to matter whose 95% interval reaches the smallest
    difference that matters, read off the comparison's own columns."""
    out = []
    for r in cmp.iter_rows(named=True):
        if r["kind"] != "proportion" or not (r["smallest"] or 0) > 0:
            continue
        if r["verdict"] in (stats.LARGE, stats.MAY_MATTER, stats.SMALL):
            continue
        if max(abs(r["diff_low"]), abs(r["diff_high"])) >= r["smallest"]:
            out.append(r)
    return out


def _nothing_large(cmp: pl.DataFrame) -> pl.DataFrame:
    """The comparison with no share clear (the wording is checked, not what 2,000 games decide)."""
    return cmp.with_columns(pl.lit(False).alias("significant"), pl.lit(stats.NOT_SHOWN).alias("verdict"))


def test_a_share_the_games_leave_open_is_not_called_settled(cmp):
    quiet = _nothing_large(cmp)
    open_ = _open(quiet)
    assert len(open_) > 1          # 2,000 games cannot rule out 1 pp for most shares
    caption = _comparison_caption(quiet, "coins")
    assert "No share moved by enough to matter" not in caption, caption
    m = re.search(r"cannot rule out that (\d+) of the (\d+) shares compared did", caption)
    assert m, caption
    shares = quiet.filter((pl.col("kind") == "proportion") & (pl.col("smallest") > 0))
    assert (int(m[1]), int(m[2])) == (len(open_), shares.height), caption


def test_settled_when_every_interval_lies_within_the_smallest_difference(cmp):
    quiet = _nothing_large(cmp).with_columns(
        (pl.col("smallest") * 0.4).alias("diff_high"), (-pl.col("smallest") * 0.4).alias("diff_low"))
    assert _open(quiet) == []
    caption = _comparison_caption(quiet, "coins")
    assert caption.endswith("No share moved by enough to matter."), caption


def test_one_open_share_is_named(cmp):
    quiet = _nothing_large(cmp).with_columns(
        (pl.col("smallest") * 0.4).alias("diff_high"), (-pl.col("smallest") * 0.4).alias("diff_low"))
    from reports.text import metric_label

    last = quiet.filter(pl.col("metric") == "seat_win_share").row(-1, named=True)
    seat = (pl.col("metric") == "seat_win_share") & (pl.col("key") == last["key"])
    one = quiet.with_columns(pl.when(seat).then(pl.col("smallest") * 1.2).otherwise(pl.col("diff_high"))
                             .alias("diff_high"))
    caption = _comparison_caption(one, "coins")
    name = metric_label(last).replace(" win share", "")
    assert f"cannot rule out that {name} did (its 95% interval reaches" in caption, caption
