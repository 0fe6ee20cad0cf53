"""`balance report --cells` refuses the same run, or a copy of it, given twice (review s47 panels
#1: it reported "a panel of 2 cells … holds in every cell" from one run's games, Bonferroni over 8
comparisons), as a before/after of the same runs does (docs/reports.md)."""

from __future__ import annotations

import shutil

import pytest

from cli import _run

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


@pytest.fixture(scope="module")
def cells(tmp_path_factory):
    d = tmp_path_factory.mktemp("s47_cells")
    assert _run(["simulate", "-n", "300", "--seed", "1", "--out", str(d / "a"), "-q"]) == 0
    assert _run(["simulate", "-n", "300", "--seed", "1", "--players", "3", "--out", str(d / "b"), "-q"]) == 0
    shutil.copytree(d / "a", d / "a_copy")
    return d


@pytest.mark.parametrize("second,said", [("a", "the same directory as"), ("a_copy", "the very same games")])
def test_a_run_given_twice_is_one_line(cells, tmp_path, capsys, second, said):
    out = tmp_path / "rep"
    assert _run(["report", "--cells", str(cells / "a"), str(cells / second), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "given twice" in err and said in err, err
    assert not out.exists()


def test_two_distinct_cells_still_make_a_panel(cells, tmp_path):
    assert _run(["report", "--cells", str(cells / "a"), str(cells / "b"), "--out", str(tmp_path / "rep")]) == 0
