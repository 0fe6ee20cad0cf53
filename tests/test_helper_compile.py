"""simcore.runner.HelperCompile: on a cold cache, the statistics' helpers are compiled in a child
process beside the kernel, and the process that then fills the statistics compiles none itself.

The check is what the parent process compiles, seen through Numba's own compile events: every
helper a Middle-Ages chunk's statistics and summary sums call must come from the cache the
child wrote (a job left out of ``accumulate.jobs_for``, or a child that writes elsewhere, makes
the parent compile it and this test fail).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np

from simcore import runner

CHILD = r"""
import json, sys
import numpy as np
from numba.core import event
from simcore import runner
from simcore.contract import ChunkResult
game, players, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
prep = runner.prepare(game, players=players)
helpers = runner.HelperCompile(prep)
helpers.start()
started = helpers.proc is not None
helpers.wait()
saved = np.load(path, allow_pickle=True)
chunk = saved["chunk"].item()
compiled = []
class Seen(event.Listener):
    def on_start(self, ev):
        compiled.append(ev.data["dispatcher"].py_func.__qualname__)
    def on_end(self, ev):
        pass
with event.install_listener("numba:compile", Seen()):
    part = runner.make_part(prep, chunk, 0, 24, runner.PartPlan(None))
print(json.dumps({"started": started, "rc": helpers.proc.returncode if started else None,
                  "compiled": compiled, "games": part.stats.games}))
"""


def test_a_cold_start_compiles_the_statistics_helpers_in_a_child(tmp_path):
    game = "middle-ages"        # which specialisations each game needs: tests/test_startup.py
    prep = runner.prepare(game, players=4)
    chunk = prep.play(0, 24, 3)                      # played with the suite's warm cache
    np.savez(tmp_path / "chunk.npz", chunk=np.array(chunk, dtype=object))
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"),
           "PYTHONPATH": os.pathsep.join(sys.path)}
    r = subprocess.run([sys.executable, "-c", CHILD, game, "4", str(tmp_path / "chunk.npz")],
                       env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["started"] and out["rc"] == 0
    assert out["games"] == 24
    assert out["compiled"] == [], f"the parent compiled {out['compiled']}"


def test_nothing_is_started_for_one_thread_one_core_or_without_a_cache(monkeypatch):
    from simcore import numba_cache

    prep = runner.prepare("middle-ages", players=4)
    started = []
    monkeypatch.setattr(runner.subprocess, "Popen", lambda *a, **k: started.append(a[0][-1]))
    runner.HelperCompile(prep).start()
    assert len(started) == 1 and started[0].startswith("value_seat_sums:")   # the last job
    runner.HelperCompile(prep, threads=1).start()
    with monkeypatch.context() as m:
        m.setattr(numba_cache, "_warned", True)        # compiling without a cache
        runner.HelperCompile(prep).start()
    monkeypatch.setattr(runner.HelperCompile, "cores", staticmethod(lambda: 1))
    runner.HelperCompile(prep).start()
    assert len(started) == 1
