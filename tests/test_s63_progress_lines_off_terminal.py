"""Session 63: off a terminal (stderr a file or a pipe, as in CI) ``balance questions`` wrote a
progress line per card and slice of games (a Middle-Ages questions run of 200,000 games: 15 cards ×
4 slices, 60 lines), and ``balance baseline --panel`` and ``simulate --panel`` a line per cell, while
``simulate``, ``sweep`` and ``report`` write there at most a line a minute, none in the first
(:class:`cli.progress.LogLines`, :class:`cli.progress.Steps`). They now do the same
(:class:`cli.progress.StepLines`): a short command writes nothing on stderr off a terminal, a long
one a line a minute (``BALANCE_LOG_EVERY``); on a terminal (or with ``BALANCE_PROGRESS=1``) every
line as before.

Each command runs in this process with stderr captured (a StringIO: not a terminal). Before the
change the first three tests failed: stderr held 15 "Event ablation: …" lines, and 2 "cell 1 of 2 …"
lines for each panel (a panel baseline's stderr then ends with its tolerances, as before). (tests/reliability/test_s63_interrupted_first.py: Ctrl-C's line comes first.)
"""

from __future__ import annotations

import pytest

from in_process import balance

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

PANEL = ("--lineup", "random", "--lineup", "greedy", "--players", "2", "--games", "400")


@pytest.fixture(autouse=True)
def _off_a_terminal(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("BALANCE_PROGRESS", raising=False)
    monkeypatch.delenv("BALANCE_LOG_EVERY", raising=False)
    yield
    from simcore import atomic

    atomic.release_claims()


@pytest.fixture(scope="module")
def _run(tmp_path_factory):
    from simcore import runner

    out = tmp_path_factory.mktemp("s63-progress") / "run"
    runner.simulate("middle-ages", games=400, seed=3, out=out, quiet=True, players=4)
    return out


@pytest.mark.slow   # plays a questions run (2.7-4.2 s of CPU): make test-slow and CI run it
def test_questions_write_no_line_per_card_off_a_terminal(_run):
    done = balance("questions", _run, "--out", "q", "--games", 400)
    assert done.stderr == "", done.stderr
    assert "tables written to q" in done.stdout


def test_a_panel_baseline_writes_no_line_per_cell_off_a_terminal():
    done = balance("baseline", *PANEL, "--tolerance", "10", "--score-tolerance", "20", "--out", "tb")
    # only its closing line, the tolerances recorded (as a baseline of one run ends)
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("tolerances: "), done.stderr


def test_a_simulated_panel_writes_no_line_per_cell_off_a_terminal():
    done = balance("simulate", *PANEL, "--out", "p")
    assert done.stderr == "", done.stderr
    assert "cell-0 (2p 2×random)" in done.stdout, done.stdout      # the cells' answers, on stdout


def test_off_a_terminal_a_line_names_the_step_that_runs_when_the_period_passed(monkeypatch):
    # BALANCE_LOG_EVERY=0: a line at every step (the period is 0 s), as Steps writes it
    monkeypatch.setenv("BALANCE_LOG_EVERY", "0")
    done = balance("baseline", *PANEL, "--tolerance", "10", "--score-tolerance", "20", "--out", "tb")
    lines = done.stderr.splitlines()[:-1]          # (the last: the tolerances recorded)
    assert [ln.split("… (")[0] for ln in lines] == [
        "baseline: cell 1 of 2 (cell-0.toml): 2p 2×random (400 games)",
        "baseline: cell 2 of 2 (cell-1.toml): 2p 2×greedy (400 games)"], done.stderr


def test_with_progress_forced_every_line_is_written_as_on_a_terminal(_run, monkeypatch):
    # BALANCE_PROGRESS=1 is the terminal's behaviour, unchanged: a line per card, as it comes
    monkeypatch.setenv("BALANCE_PROGRESS", "1")
    done = balance("questions", _run, "--out", "q", "--games", 400)
    lines = done.stderr.splitlines()
    assert len(lines) == 15 and all(ln.startswith("Event ablation: ") for ln in lines), done.stderr
    assert lines[0].endswith("neutralised (1/15, 400 games)"), lines[0]
