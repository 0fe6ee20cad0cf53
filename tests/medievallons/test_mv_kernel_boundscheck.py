"""The Médiévallons kernel indexes its workspace and bot scratch with unsigned integers (``U(...)``:
no negative-index wraparound), so an index that went negative would read or write far outside the
array. This test recompiles the kernel with Numba's bounds checking on and plays games of every
kind of bot at 2-5 players with the debug invariants: any index outside its array raises
IndexError. Slow (a cold compile), so marked ``slow`` (``make test-slow``)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

SCRIPT = """
import simcore.games
from simcore.games.medievallons import driver as D, rules as R
from strategies import medievallons as S
rules = R.load()
for P in (2, 3, 4, 5):
    for lineup in ("random", "collector", "balanced", "saboteur", ["planner"] + ["balanced"] * (P - 1)):
        _, rows = S.resolve(lineup, P)
        n = 3 if isinstance(lineup, list) else 300
        o = D.run_chunk(rules, P, 0, n, 11, rows, debug=True, rotate=True)
        assert (o["error"] == 0).all(), (P, lineup, o["error"])
print("clean")
"""


@pytest.mark.slow
def test_kernel_runs_clean_with_bounds_checking(tmp_path):
    env = {**os.environ, "NUMBA_BOUNDSCHECK": "1", "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True,
                          timeout=1800)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip().endswith("clean")
