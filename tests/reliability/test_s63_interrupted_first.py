"""Session 63: docs/reliability.md says that off a terminal (stderr a file or a pipe) the
"interrupted" line of Ctrl-C is the first line of stderr; ``balance questions``, ``balance baseline
--panel`` and ``simulate --panel`` wrote a progress line per card or cell from their first seconds,
so it came after them. Their progress off a terminal is now that of ``simulate`` and ``report``
(:class:`cli.progress.StepLines`: nothing in the first minute, then a line a minute at most).

Real processes, stderr a pipe. Each command is stopped with SIGINT once it plays: its output
claimed (a hidden entry beside it) and either a line on stderr or 3 s of CPU spent after that; it
never waits for a fixed time, and no command here could end in that time (millions of games).
Before the change all three failed: stderr began "Event ablation: Métiers qualifiés neutralised
(1/15, …)", "cell 1 of 2 (cell-0.toml): …" and "cell 1 of 2 (cell-0): …". Each costs a process
start and a few seconds of play; the two panels are slow (``make test-slow``).
"""

from __future__ import annotations

import os
import signal
import threading

import pytest

from reliability_helpers import cpu_seconds, hidden, start, wait_for

PANEL = ("--lineup", "random", "--lineup", "greedy", "--players", "2", "--games", "3e7")


def _interrupted_once_playing(args, folder, name):
    """Start ``balance ARGS``, SIGINT it once it plays, and return (exit code, stderr)."""
    proc = start(*args, cwd=folder)
    err: list[str] = []
    reader = threading.Thread(target=lambda: err.extend(proc.stderr), daemon=True)
    reader.start()
    try:
        wait_for(lambda: hidden(folder, f".{name}.*") or proc.poll() is not None,
                 what=f"the claim of {name}")
        since = cpu_seconds(proc.pid)
        wait_for(lambda: err or cpu_seconds(proc.pid) > since + 3 or proc.poll() is not None,
                 timeout=180, what="a line on stderr or 3 s of play")
        assert proc.poll() is None, "".join(err)        # still playing: the signal stops it
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=120)
        reader.join(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=60)
    return proc.returncode, "".join(err)


def _assert_interrupted_first(code, err):
    assert code == 130, err
    first = err.splitlines()[0] if err else ""
    assert first.startswith("interrupted (Ctrl-C)"), err
    assert len(err.splitlines()) == 1, err


@pytest.mark.slow   # plays a questions run (2.7-4.2 s of CPU): make test-slow and CI run it
def test_ctrl_c_in_questions_is_the_first_line_of_stderr(tiny_run, tmp_path):
    _assert_interrupted_first(*_interrupted_once_playing(
        ("questions", "run", "--out", "q", "--games", "3e7"), tmp_path, "q"))
    assert not (tmp_path / "q").exists() and hidden(tmp_path, ".q.*") == []


@pytest.mark.slow   # a process start and a few seconds of play (make test-slow)
def test_ctrl_c_in_a_panel_baseline_is_the_first_line_of_stderr(tmp_path):
    _assert_interrupted_first(*_interrupted_once_playing(
        ("baseline", *PANEL, "--tolerance", "10", "--score-tolerance", "20", "--out", "tb"),
        tmp_path, "tb"))
    assert os.listdir(tmp_path) == []           # nothing left: no tb, no hidden entries


@pytest.mark.slow   # a process start and a few seconds of play (make test-slow)
def test_ctrl_c_in_a_simulated_panel_is_the_first_line_of_stderr(tmp_path):
    code, err = _interrupted_once_playing(("simulate", *PANEL, "--out", "p"), tmp_path, "p")
    _assert_interrupted_first(code, err)
    # a panel of --lineup resumes as one of --panel does (tests/test_s63_panel_resume_words.py)
    assert "run the same command again to resume" in err, err
