"""Ctrl-C in a terminal reaches the whole process group: a ``--workers`` run's own Dask workers
leave it to the command, which closes them and says one line (review s48 safety #3: each worker
printed its KeyboardInterrupt traceback, ~67 lines, before the command's line)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_ctrl_c_to_the_process_group_says_one_line(tmp_path):
    simulate = str(Path(sys.executable).with_name("simulate"))
    env = {**os.environ, "NUMBA_NUM_THREADS": "1"}
    p = subprocess.Popen([simulate, "--games", "2e7", "--workers", "2", "--out", str(tmp_path / "wk"), "-q"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                         start_new_session=True, cwd=tmp_path)
    # wait until the workers play (a hidden temporary run directory appears), then Ctrl-C the group
    deadline = time.monotonic() + 120
    while not any(x.name.startswith(".wk.tmp") for x in tmp_path.iterdir()):
        assert p.poll() is None and time.monotonic() < deadline, p.communicate()
        time.sleep(0.2)
    time.sleep(3)
    os.killpg(p.pid, signal.SIGINT)
    out, err = p.communicate(timeout=120)
    lines = [x for x in err.splitlines() if x.strip()]
    assert p.returncode == 130, err
    assert lines == ["interrupted (Ctrl-C): nothing was written under the final name"], err
    assert "Traceback" not in err and not (tmp_path / "wk").exists()
