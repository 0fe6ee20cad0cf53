"""Helpers of the reliability suite (issue 18): real processes of the command line.

``balance(...)`` runs the command line in a fresh Python process (the checkout first on
PYTHONPATH) and returns the CompletedProcess; ``start(...)`` starts one in the background.
``cli_in_process(...)`` runs it in this process (fast: for the large matrices), returning the exit
code and stderr. (A module of its own, not conftest.py: other test folders have a conftest too.)
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CLI = "import sys; from cli import main; main(sys.argv[1:])"


def env(**extra) -> dict:
    e = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
         "COLUMNS": "200"}
    e.pop("BALANCE_DEBUG", None)
    e.update({k: str(v) for k, v in extra.items()})
    return e


def balance(*args, cwd: Path, timeout: float = 120, **extra) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", CLI, *map(str, args)], cwd=cwd, env=env(**extra),
                          capture_output=True, text=True, timeout=timeout)


def start(*args, cwd: Path, **extra) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", CLI, *map(str, args)], cwd=cwd, env=env(**extra),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a running process, all its threads (/proc/PID/stat)."""
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_for(predicate, timeout: float = 90, what: str = "") -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def hidden(folder: Path, pattern: str = ".*") -> list[str]:
    return sorted(p.name for p in folder.glob(pattern))


def one_error_line(stderr: str) -> str:
    """The single line a refused command prints (fails if there is more, or a traceback)."""
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, stderr
    assert lines[0].startswith("error: ") and "Traceback" not in stderr, stderr
    return lines[0]


def cli_in_process(args, capsys) -> tuple[int, str]:
    from cli import _run

    capsys.readouterr()
    code = _run([str(a) for a in args])
    return code, capsys.readouterr().err




# A baseline of a tiny run is usable only with wide tolerances: the gate refuses a baseline whose own
# error leaves an unchanged configuration no chance to pass (analysis.check.decision).
WIDE = {"seat_win_share": 40.0, "seat_mean_score": 40.0, "strategy_win_share": 40.0}
