"""A panel's cells are the cells panel.json lists (review G): a run played into a cell by hand
(``simulate --out PANEL/cell-1 --force`` with another line-up, now refused at once; or moved
there by hand) or a cell copied from another panel
was reported, and resumed, as that cell ("a panel of 3 cells … 2p 2×random" under panel
``default``). The report and the resume now refuse it in one line naming the cell and what
differs; an intact panel still reports and resumes."""

from __future__ import annotations

import shutil

import pytest
from in_process import balance
from undrawn_figures import figures_undrawn

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

ARGS = ("simulate", "--game", "middle-ages", "--panel", "default", "--games", 120, "--seed", 4, "-q")


@pytest.fixture(scope="module")
def panel(tmp_path_factory):
    out = tmp_path_factory.mktemp("pn") / "pan"
    balance(*ARGS, "--out", out)
    return out


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_an_intact_panel_is_reported_and_resumed(panel, tmp_path):
    with figures_undrawn():   # reported: its figure need not be drawn (test_panel_states_its_finding.py draws one)
        assert balance("report", panel, "--out", tmp_path / "rep").returncode == 0
    again = balance(*ARGS, "--out", panel)
    assert again.returncode == 0


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_cell_played_over_by_hand_is_refused_by_report_and_resume(panel, tmp_path):
    d = tmp_path / "pan"
    shutil.copytree(panel, d)
    # simulate --out PANEL/cell-1 --force is now refused before any game (an output inside a
    # directory the toolkit wrote: tests/reliability/test_force_inside_folders.py); a run put in a
    # cell's place by hand is still caught by the report and the resume
    hand = ("simulate", "--games", 60, "--players", 2, "--strategies", "random", "--force", "-q")
    assert balance(*hand, "--out", d / "cell-1", check=False).returncode == 2
    balance(*hand, "--out", tmp_path / "other")
    shutil.rmtree(d / "cell-1")
    shutil.move(tmp_path / "other", d / "cell-1")
    for args in (("report", d, "--out", tmp_path / "rep"), (*ARGS, "--out", d)):
        done = balance(*args, check=False)
        lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
        assert done.returncode == 2 and len(lines) == 1, done.stderr
        assert "cell-1 is not the cell panel.json lists as 4p 4×greedy" in lines[0]
        assert "2 players, not 4" in lines[0] and "games 60, not the panel's 120" in lines[0]
    assert not (tmp_path / "rep").exists()


def test_a_cell_copied_from_another_cell_is_refused(panel, tmp_path):
    d = tmp_path / "pan"
    shutil.copytree(panel, d)
    shutil.rmtree(d / "cell-2")
    shutil.copytree(d / "cell-0", d / "cell-2")
    done = balance("report", d, "--out", tmp_path / "rep", check=False)
    assert done.returncode == 2
    assert "cell-2 is not the cell panel.json lists as 4p 4×eventwise: bots balanced" in done.stderr
