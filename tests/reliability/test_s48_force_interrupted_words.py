"""An interrupted ``--force`` over another sweep says that its replacement is discarded and that
the same command starts it anew (review s48 safety: it said "run the same command again to
resume", though the work built beside the kept sweep was removed)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from in_process import balance


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_forced_sweep_interrupted_says_it_starts_anew(tmp_path):
    balance("sweep", "--vary", "income.palais.base=[3,4]", "--games", "200", "--out", tmp_path / "sw")
    exe = str(Path(sys.executable).with_name("balance"))
    p = subprocess.Popen([exe, "sweep", "--vary", "income.palais.base=[3,4,5,6]", "--games", "3000000",
                          "--out", "sw", "--force"], cwd=tmp_path, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 120
    while not any(x.name.startswith(".sw.tmp-") for x in tmp_path.iterdir()):
        assert p.poll() is None and time.monotonic() < deadline, p.communicate()
        time.sleep(0.1)
    time.sleep(2)
    os.killpg(p.pid, signal.SIGINT)
    _, err = p.communicate(timeout=120)
    assert p.returncode == 130, err
    assert err.strip().splitlines()[-1] == (
        "interrupted (Ctrl-C): sw is kept as it was; the replacement --force was building beside it "
        "is discarded, so the same command starts it anew"), err
    assert not [x for x in tmp_path.iterdir() if x.name.startswith(".sw.")]
