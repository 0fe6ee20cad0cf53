"""A run replaced while a reader reads it is not called damaged (review s46, gate #7): a report
read run.json of a 100,000-game run, another command replaced the run (simulate --force), and the
report, reading the new tables against the old run.json, said "the run directory was changed
after it was written (damaged …); rerun the simulation" of a complete, valid run. Here the race
is made deterministic: the reader's run.json is taken before the replacement, the figures
checked after. A run damaged in place is still called damaged."""

from __future__ import annotations

import pytest

from analysis.load import check_figures
from cli import _run
from simcore.errors import UsageError
from simcore.rundir import read_meta

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def test_a_replaced_run_says_run_again(tmp_path):
    run = tmp_path / "r"
    assert _run(["simulate", "--games", "3000", "--seed", "3", "--out", str(run), "-q"]) == 0
    before = read_meta(run)
    assert _run(["simulate", "--games", "1000", "--seed", "4", "--out", str(run), "--force", "-q"]) == 0
    with pytest.raises(UsageError) as e:
        check_figures(run, before)
    assert "replaced by another command while this one read it" in str(e.value)
    assert "damaged" not in str(e.value)
    check_figures(run, read_meta(run))         # read again: whole


def test_a_run_damaged_in_place_is_still_damaged(tmp_path):
    run = tmp_path / "r"
    assert _run(["simulate", "--games", "3000", "--seed", "3", "--out", str(run), "-q"]) == 0
    meta = dict(read_meta(run), games=4000)      # run.json on disk unchanged; its figure disagrees
    with pytest.raises(UsageError) as e:
        check_figures(run, meta)
    assert "damaged" in str(e.value) and "replaced" not in str(e.value)
