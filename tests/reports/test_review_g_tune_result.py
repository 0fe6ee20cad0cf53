"""A tune's page checks its result.json before it says anything of it (review G): a damaged file
gave a KeyError traceback, and a deleted confirmation still read "confirmed on 4,000 fresh games:
met". Both are one line now, exit 2."""

from __future__ import annotations

import json
import shutil

import pytest
from in_process import balance
from undrawn_figures import figures_undrawn

pytestmark = pytest.mark.slow   # a costly file: make test-slow and CI run it (docs/testing.md, the fast suite's budget)

TUNE = ("tune", "--players", 2, "--strategies", "random", "--vary", "setup.start_coins[0]=0..2",
        "--target", "seat-balance:10", "--trials", 2, "--min-games", 200, "--max-games", 400,
        "--confirm-games", 400, "-q")


@pytest.fixture(scope="module")
def tuned(tmp_path_factory):
    out = tmp_path_factory.mktemp("tune") / "t"
    balance(*TUNE, "--out", out)
    return out


def _copy(tuned, tmp_path):
    d = tmp_path / "t"
    shutil.copytree(tuned, d)
    return d


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_an_intact_tune_is_reported(tuned, tmp_path):
    # (the page is built: its figure need not be drawn, tests/undrawn_figures.py; a tune page's
    # figures are drawn in test_sweep_tune_pages.py)
    with figures_undrawn():
        assert balance("report", tuned, "--out", tmp_path / "rep").returncode == 0


def test_a_damaged_result_is_one_line(tuned, tmp_path):
    d = _copy(tuned, tmp_path)
    (d / "result.json").write_text(json.dumps({"bad": 1}))
    done = balance("report", d, "--out", tmp_path / "rep", check=False)
    lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
    assert done.returncode == 2 and len(lines) == 1, done.stderr
    assert "result.json: damaged (no sentence, best_trial, confirm)" in lines[0]


def test_a_missing_confirmation_is_not_reported_as_confirmed(tuned, tmp_path):
    d = _copy(tuned, tmp_path)
    confirm = json.loads((d / "result.json").read_text())["confirm"]["dir"]
    shutil.rmtree(d / confirm)
    done = balance("report", d, "--out", tmp_path / "rep", check=False)
    assert done.returncode == 2 and f"its confirmation {confirm}/ is missing" in done.stderr
    assert not (tmp_path / "rep").exists()


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_panel_tunes_confirmation_of_cells_is_found(tmp_path):
    """A panel tune confirms in one run per cell (confirmations/trial-K/cell-*/): its page is built,
    and refused once those runs are deleted."""
    out = tmp_path / "pt"
    balance("tune", "--players", 2, "--lineup", "random", "--lineup", "greedy", "--vary",
            "setup.start_coins[0]=0..2", "--target", "seat-balance:10", "--trials", 2, "--min-games", 200,
            "--max-games", 400, "--confirm-games", 400, "-q", "--out", out)
    confirm = json.loads((out / "result.json").read_text())["confirm"]["dir"]
    assert not (out / confirm / "run.json").exists() and list((out / confirm).glob("cell-*/run.json"))
    with figures_undrawn():          # (built, not drawn: as above)
        assert balance("report", out, "--out", tmp_path / "rep").returncode == 0
    for d in (out / confirm).glob("cell-*"):
        shutil.rmtree(d)
    assert balance("report", out, "--out", tmp_path / "rep2", check=False).returncode == 2
