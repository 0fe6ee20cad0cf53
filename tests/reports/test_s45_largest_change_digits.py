"""A before/after that names "the largest change" of the seats prints a change that is not 0 as
more than "0.0 pp" (review 45: "The largest change is Seat 1 34.2% → 34.2% (0.0 pp …)" beside
"+0.04 pp" in the next sentence). A real comparison's seat rows, their changes set tiny."""

from __future__ import annotations

import re

import numpy as np
import polars as pl
import pytest

from analysis import analyse, open_runs
from analysis.compare import compare_runs
from reports.text import seat_question
from simcore import runner

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


@pytest.fixture(scope="module")
def cmp(tmp_path_factory):
    d = tmp_path_factory.mktemp("largest")
    runs = [runner.simulate("middle-ages", games=3000, seed=8, out=d / n, settings=s, raw=True, quiet=True)
            for n, s in (("a", []), ("b", ["income.palais.base=4"]))]
    (ra, ta), (rb, tb) = [(rs, analyse(rs)) for rs in (open_runs([r]) for r in runs)]
    return compare_runs(ra, rb, ta, tb).table


@pytest.mark.parametrize("tiny", [0.0004, -0.00031, 0.0012])
def test_the_named_largest_change_is_not_printed_as_none(cmp, tiny):
    seats = cmp["metric"] == "seat_win_share"
    k = np.flatnonzero(seats.to_numpy())
    diffs = np.zeros(len(cmp))
    diffs[k] = tiny * np.array([1.0, 0.5, -0.25, 0.1][:len(k)])
    t = cmp.with_columns(
        pl.when(seats).then(pl.col("base") + pl.Series(diffs)).otherwise(pl.col("variant")).alias("variant"),
        pl.when(seats).then(pl.Series(diffs)).otherwise(pl.col("diff")).alias("diff"),
        pl.when(seats).then(pl.lit(False)).otherwise(pl.col("significant")).alias("significant"),
        pl.when(seats).then(pl.lit("not shown")).otherwise(pl.col("verdict")).alias("verdict"))
    said = seat_question(t)
    m = re.search(r"The largest change is (Seat \d) ([\d.]+)% → ([\d.]+)% \(([+−]?[\d.]+) pp", said)
    assert m, said
    change = float(m.group(4).replace("−", "-"))
    assert change != 0 and np.sign(change) == np.sign(tiny), said
    digits = len(m.group(4).split(".")[1])
    assert round(float(m.group(3)) - float(m.group(2)), digits) == pytest.approx(change, abs=1e-9), said
