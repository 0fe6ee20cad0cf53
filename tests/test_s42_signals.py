"""Session 42, review C #4 and #5: a signal outside a command's own window, and what an
interrupted command says it wrote.

A Ctrl-C in the first tenths of a second of ``balance`` (while the command line imported its
libraries) printed a KeyboardInterrupt traceback; a second Ctrl-C while the process ended did too;
and polars, when the Ctrl-C landed in its call back into Python, ended an export with its
PanicException and exit 1 (a "regression" for ``balance check``). An interrupted command named the
last output it had published only."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

ROOT = Path(__file__).resolve().parents[1]


def _default_signals() -> None:
    """In the child before it runs Python: SIGINT and SIGTERM at their defaults, as a console script
    started from a terminal has them, whatever the test process inherited: a suite started in the
    background by a non-interactive shell (`make test &`) runs with SIGINT ignored, a child inherits
    that and Python keeps it, and these tests then saw "not interrupted" (session 53's clean clone,
    run in the background; session 37's and 50's failures "wherever SIGINT is ignored")."""
    for s in (signal.SIGINT, signal.SIGTERM):
        signal.signal(s, signal.SIG_DFL)


def _as_console_script(body: str) -> subprocess.CompletedProcess:
    """Python run as the `balance` console script is (its __main__ file named balance)."""
    code = textwrap.dedent("""
        import os, signal, sys
        sys.modules["__main__"].__file__ = "/somewhere/bin/balance"
    """) + textwrap.dedent(body)
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, preexec_fn=_default_signals)


@pytest.mark.parametrize("signum,code,how", [(signal.SIGINT, 130, "Ctrl-C"),
                                             (signal.SIGTERM, 143, "SIGTERM")])
def test_a_signal_while_the_command_line_starts_is_one_line(signum, code, how):
    done = _as_console_script(f"""
        import cli                       # the handler is in place before its imports
        os.kill(os.getpid(), {int(signum)})
        import time; time.sleep(5)
        print("not interrupted")
    """)
    assert done.returncode == code, done.stderr
    assert done.stderr == f"interrupted ({how}): nothing was written under the final name\n"
    assert "not interrupted" not in done.stdout


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_signal_after_the_command_ran_is_ignored_while_the_process_ends():
    done = _as_console_script("""
        import cli
        rc = cli._run(["games"])
        os.kill(os.getpid(), signal.SIGINT)       # a second Ctrl-C as the process ends
        print("ended with", rc)
    """)
    assert done.returncode == 0 and "ended with 0" in done.stdout, done.stderr
    assert "Traceback" not in done.stderr, done.stderr


def test_a_python_caller_keeps_its_own_handlers():
    code = "import signal, cli; print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          preexec_fn=_default_signals)
    assert done.stdout.strip() == "True", done.stderr


def test_a_rust_panic_carrying_the_interruption_is_said_as_one(monkeypatch, capsys):
    import cli

    class PanicException(BaseException):        # pyo3_runtime's, as polars raises it
        pass

    def dispatch(argv, prog, target):
        cli._SIGNAL["signum"] = signal.SIGINT      # (the handler's record of the Ctrl-C)
        raise PanicException("Failed to access NumPy array API capsule: PyErr { type: "
                             "<class 'simcore.errors.Interrupted'>, value: Interrupted(2) }")

    monkeypatch.setattr(cli, "_dispatch", dispatch)
    assert cli._run(["export", "R", "--out", "x.csv"]) == 130
    assert capsys.readouterr().err == "interrupted (Ctrl-C): nothing was written under the final name\n"

    def other_panic(argv, prog, target):
        raise PanicException("index out of bounds")

    monkeypatch.setattr(cli, "_dispatch", other_panic)
    with pytest.raises(PanicException):           # a panic of its own is not an interruption
        cli._run(["export", "R"])


def test_the_interrupted_line_names_every_output_written(tmp_path):
    import cli
    from simcore import atomic

    atomic.PUBLISHED[:] = [tmp_path / "saved_run", tmp_path / "junit.xml"]
    try:
        line = cli._interrupted_line(signal.SIGINT, ["check", "--baseline", "b.toml"])
    finally:
        atomic.PUBLISHED.clear()
    assert line == (f"interrupted (Ctrl-C) after {atomic.show(tmp_path / 'saved_run')} and "
                    f"{atomic.show(tmp_path / 'junit.xml')} were written"), line


def test_a_hang_up_is_an_interruption_and_nohup_still_survives_it(tmp_path):
    # (review s53: a closed terminal killed `simulate` silently and left .NAME.tmp-*, .claim, .lock)
    import os
    import time

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [str(Path(sys.executable).parent / "simulate"), "--games", "2e6", "--raw", "--quiet", "--out"]
    p = subprocess.Popen(cmd + [str(tmp_path / "big")], cwd=ROOT, env=env, stderr=subprocess.PIPE,
                         text=True, preexec_fn=_default_signals)
    # the hang-up lands while it plays: once its temporary directory is there (beside its claim and
    # lock), half a second on (a fixed 4 s before: up to 3 s of the run's CPU for nothing on a
    # quiet machine, and under load the command could still be starting)
    end = time.monotonic() + 120
    while not any(tmp_path.glob(".big.tmp-*")) and p.poll() is None and time.monotonic() < end:
        time.sleep(0.05)
    time.sleep(0.5)
    p.send_signal(signal.SIGHUP)
    err = p.communicate(timeout=120)[1]
    assert p.returncode == 129, err
    assert "interrupted (SIGHUP)" in err
    assert [x.name for x in tmp_path.iterdir()] == []
    # under nohup (SIGHUP ignored) a hang-up does nothing: the run finishes
    def ignore_hup():
        _default_signals()
        signal.signal(signal.SIGHUP, signal.SIG_IGN)

    q = subprocess.Popen([*cmd[:2], "2e4", *cmd[3:], str(tmp_path / "kept")], cwd=ROOT, env=env,
                         stderr=subprocess.PIPE, text=True, preexec_fn=ignore_hup)
    time.sleep(1)
    q.send_signal(signal.SIGHUP)
    err = q.communicate(timeout=120)[1]
    assert q.returncode == 0, err
    assert (tmp_path / "kept" / "run.json").is_file()
