"""A run with rotated seats and one of the same line-up in fixed seats are two designs: they are
not pooled (review s49 summary-only #1: pooled, the report read seat 3's share as 13.5%, the mean
of the rotated run's 26.0% and the fixed run's random bot's 0.9%, "clear and large enough to
matter"; without rows the same two runs stopped on a missing players.parquet). A report of both
compares them as two configurations."""

from __future__ import annotations

import pytest

from analysis.load import group_runs, open_runs
from simcore.errors import UsageError
from tests.in_process import balance

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

LINE_UP = "balanced,greedy,random,farmer"


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    d = tmp_path_factory.mktemp("pool")
    out = {}
    for name, extra in (("rot", ["--rotate-seats"]), ("fix", [])):
        for rows in ("--raw", "--no-raw"):
            path = d / f"{name}{rows}"
            balance("simulate", "--games", "2000", "--seed", "11" if name == "rot" else "12",
                    "--strategies", LINE_UP, rows, "--out", path, *extra)
            out[(name, rows)] = path
    return out


@pytest.mark.parametrize("rows,source", [("--raw", "auto"), ("--raw", "stats"), ("--raw", "rows"),
                                         ("--no-raw", "auto"), ("--no-raw", "stats")])
def test_they_are_not_pooled_with_or_without_rows(runs, rows, source):
    with pytest.raises(UsageError, match="seats rotated.*fixed seats"):
        open_runs([runs[("rot", rows)], runs[("fix", rows)]], source=source)


@pytest.mark.parametrize("rows", ["--raw", "--no-raw"])
def test_a_report_of_both_reads_two_configurations(runs, rows):
    groups = group_runs([runs[("rot", rows)], runs[("fix", rows)]])
    assert len(groups) == 2
