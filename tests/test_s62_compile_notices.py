"""Review 270 #3 (a newcomer's first hour, cold Numba cache): ``balance report --play-questions``
and ``balance skill`` compiled kernels with nothing said (75 s on "Balance questions of mv
(before): first player at 2 players (1,000 games)… (77 s)", 44 s on "part 3 of 8: budget 4: one
searching seat…"): only ``simulate`` gave the runner a ``show_compile``. Every compile notice of
their runs (:class:`simcore.runner.compile_notice`, shown while, and only while, Numba compiles) is
said now: on the step's line for the report, the ladder and skill (:meth:`cli.progress.Steps.
compiling`), by simulate's spinner for ``balance questions`` on a terminal, and off one on the
plain line of :class:`cli.progress.StepLines` (session 63: the spinner draws nothing there).

A compile is made to happen in these commands without the minutes of a real kernel: the local
executor's warm-up also compiles a small jitted function of the test's own under a compile notice
given no ``show``, as the runner's are."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

import cli.progress as progress
from in_process import balance
from simcore import runner
from undrawn_figures import figures_undrawn, skill_pages_undrawn

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

MESSAGE = "Compiling the test's kernel (once per test; cached afterwards)"


@pytest.fixture
def compiles_once(monkeypatch):
    """The executor's warm-up compiles a fresh jitted function the first time only (in-process: a
    second warm-up finds it compiled, as a kernel found in the cache)."""
    @njit
    def fresh(x):
        return x * 3 + 1

    original = runner.LocalExecutor.warm

    def warm(self, prep, show=None):
        original(self, prep, show)
        with runner.compile_notice(MESSAGE):
            fresh(np.int64(2))
    monkeypatch.setattr(runner.LocalExecutor, "warm", warm)


@pytest.fixture
def step_lines(monkeypatch):
    """Every line of every :class:`cli.progress.Steps` the command makes."""
    made = []
    original = progress.Steps.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        made.append(self)
    monkeypatch.setattr(progress.Steps, "__init__", init)
    return lambda: [x for s in made for x in s.lines]


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return runner.simulate("middle-ages", games=200, seed=3, out=tmp_path_factory.mktemp("r") / "run",
                           players=4)


@pytest.mark.slow   # a report with played questions (~10 s): make test-slow and CI run it
def test_s62_report_play_questions_says_the_compile_on_its_step(run, tmp_path, compiles_once,
                                                                step_lines):
    with figures_undrawn():
        balance("report", run, "--out", tmp_path / "rep", "--play-questions", "--questions-games", "100")
    said = [x for x in step_lines() if "compiling the test's kernel" in x]
    assert said, step_lines()
    # on the line of the step that compiles, with its seconds
    assert "… (" in said[0] and said[0].endswith(" s)"), said[0]
    # and only while it compiles: the next steps' lines say nothing of it
    assert "compiling" not in step_lines()[-1], step_lines()[-1]
    # a second report: nothing compiles, nothing said
    with figures_undrawn():
        balance("report", run, "--out", tmp_path / "rep2", "--play-questions", "--questions-games", "100")
    assert len([x for x in step_lines() if "compiling" in x]) == len(said), step_lines()


def test_s62_balance_questions_says_the_compile_as_simulate_does(run, tmp_path, compiles_once,
                                                                 monkeypatch):
    # on a terminal (BALANCE_PROGRESS=1: as on one) by simulate's spinner
    monkeypatch.setenv("BALANCE_PROGRESS", "1")
    shown = []

    def spinner(console):
        return lambda message: shown.append(message)
    monkeypatch.setattr(progress, "spinner", spinner)
    balance("questions", run, "--out", tmp_path / "q", "--games", "100")
    assert MESSAGE in shown, shown
    shown.clear()
    balance("questions", run, "--out", tmp_path / "q2", "--games", "100")
    assert shown == []                         # compiled already: nothing said
    balance("questions", run, "--out", tmp_path / "q3", "--games", "100", "-q")
    assert shown == []


def test_s62_skill_says_the_compile_on_its_part(tmp_path, compiles_once, step_lines):
    with skill_pages_undrawn():
        balance("skill", "--game", "middle-ages", "--players", "2", "--budgets", "0,1",
                "--games", "10", "--out", tmp_path / "sk")
    said = [x for x in step_lines() if "compiling the test's kernel" in x]
    assert said and said[0].startswith("skill: "), step_lines()


def test_s63_balance_questions_off_a_terminal_says_the_compile_on_its_line(run, tmp_path, compiles_once,
                                                                          step_lines, monkeypatch):
    """Off a terminal simulate's spinner draws nothing: the compile is said on the plain line
    :class:`cli.progress.StepLines` writes there (a line a minute), as a report's step says it
    (session 63)."""
    monkeypatch.delenv("BALANCE_PROGRESS", raising=False)
    balance("questions", run, "--out", tmp_path / "q", "--games", "100")
    said = [x for x in step_lines() if "compiling the test's kernel" in x]
    assert said and said[0].startswith("questions: "), step_lines()
    assert "compiling" not in step_lines()[-1], step_lines()[-1]
