"""Review s59 (helper 226) #3: off a terminal (stderr a file or a pipe), ``sweep``, ``tune`` and a
long ``simulate`` wrote an empty line on stderr: rich's live bar (``Progress(transient=True)``)
ends with a newline on a console that is not a terminal. A successful sweep with ``2>file`` left a
file of one empty line, and an error or an interruption read "\\nerror: …". Off a terminal the bars
are no longer drawn (:func:`cli.progress.live_bar`; :class:`cli.progress.LogLines` says the
progress there), so the first line of stderr is the message itself."""

from __future__ import annotations

import pytest

from simcore import atomic

from in_process import balance

# the tests' CPU over docs/testing.md's budget (session 63): this module runs in make test-slow
# and CI, not in make test
pytestmark = pytest.mark.slow


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("BALANCE_PROGRESS", raising=False)
    yield
    atomic.release_claims()


def test_a_sweep_writes_nothing_on_stderr_off_a_terminal():
    done = balance("sweep", "-o", "sw", "--vary", "income.palais.base=2..3", "--games", 200)
    assert done.stderr == "", repr(done.stderr)


def test_a_tune_error_after_its_bar_is_the_first_line():
    balance("simulate", "--games", 200, "-o", "run1", "-q")
    done = balance("tune", "-o", "t1", "--vary", "income.palais.base=3..5", "--target", "seat-balance",
                   "--storage", "run1/x.db", check=False)
    assert done.returncode == 2 and done.stderr.startswith("error: --storage run1/x.db"), repr(done.stderr)


def test_a_successful_tune_writes_no_empty_line():
    done = balance("tune", "-o", "t2", "--vary", "income.palais.base=3..5", "--target", "seat-balance:5",
                   "--trials", 3, "--min-games", 500, "--max-games", 1000, "--confirm-games", 1000)
    assert "\n\n" not in "\n" + done.stderr, repr(done.stderr)


def test_a_long_simulate_writes_no_empty_line():
    # projected past a second, the bar is made (on a terminal); 300,000 games take more here
    done = balance("simulate", "--games", "3e5", "-o", "big")
    assert "\n\n" not in "\n" + done.stderr, repr(done.stderr)
