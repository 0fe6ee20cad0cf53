"""simcore.runner.HelperCompile: on a cold cache, the statistics' helpers are compiled in a child
process beside the kernel, and the process that then fills the statistics compiles none itself.

The check is what the parent process compiles, seen through Numba's own compile events: every
helper a chunk's statistics and summary sums call must come from the cache the child wrote (a job
left out of ``accumulate.jobs_for``, or a child that writes elsewhere, makes the parent compile it
and this test fail). For a Fief chunk (10 helper specialisations, 1-2 s of CPU less) and for
Middle-Ages's (14), both under ``make test-slow`` (the whole file is slow); that every
specialisation a run of Middle-Ages (and of every other game) compiles is one
``accumulate.helpers_for`` lists, hence one ``jobs_for`` hands the child, is checked without
compiling by tests/test_startup.py::test_the_statistics_helpers_compile_only_the_listed_specialisations.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from simcore import runner

pytestmark = pytest.mark.slow   # a costly file: make test-slow and CI run it (docs/testing.md, the fast suite's budget)

CHILD = r"""
import json, sys
import numpy as np
from numba.core import event
from simcore import runner
from simcore.contract import ChunkResult
game, options, path = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3]
from simcore import accumulate
prep = runner.prepare(game, **options)
jobs = runner.statistics_jobs(prep)
uncached_before = accumulate.uncached_jobs(jobs)
helpers = runner.HelperCompile(prep)
helpers.start()
started = helpers.proc is not None
helpers.wait()
uncached_after = accumulate.uncached_jobs(jobs)
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
                  "compiled": compiled, "games": part.stats.games, "jobs": jobs,
                  "uncached_before": uncached_before, "uncached_after": uncached_after}))
"""


@pytest.mark.parametrize("game, options", [
    ("fief-combat", {}), pytest.param("middle-ages", {"players": 4}, marks=pytest.mark.slow)])
def test_a_cold_start_compiles_the_statistics_helpers_in_a_child(tmp_path, game, options):
    # (which specialisations each game needs: tests/test_startup.py)
    prep = runner.prepare(game, **options)
    chunk = prep.play(0, 24, 3)                      # played with the suite's warm cache
    np.savez(tmp_path / "chunk.npz", chunk=np.array(chunk, dtype=object))
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"),
           "PYTHONPATH": os.pathsep.join(sys.path)}
    r = subprocess.run([sys.executable, "-c", CHILD, game, json.dumps(options),
                        str(tmp_path / "chunk.npz")],
                       env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["started"] and out["rc"] == 0
    assert out["games"] == 24
    assert out["compiled"] == [], f"the parent compiled {out['compiled']}"
    # accumulate.uncached_jobs read the same cache: everything missing before, nothing after
    assert out["uncached_before"] == out["jobs"] and len(out["jobs"]) >= 10
    assert out["uncached_after"] == []


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


def test_is_cached_reads_numba_s_index_and_a_source_edit_makes_it_stale(tmp_path, monkeypatch):
    """simcore.numba_cache.is_cached: False before the first compile, True after it (in a new
    dispatcher, as a new process has), False again once the source changes."""
    import importlib

    from numba import types

    from simcore.numba_cache import is_cached

    src = tmp_path / "tiny_kernel.py"
    src.write_text("from numba import njit\n\n@njit(cache=True)\ndef twice(x):\n    return 2 * x\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    from numba.core import config
    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path / "cache"))
    sig = (types.int64,)

    def fresh():
        sys.modules.pop("tiny_kernel", None)
        return importlib.import_module("tiny_kernel").twice

    assert not is_cached(fresh(), sig)
    fresh().compile(sig)
    assert is_cached(fresh(), sig)
    assert not is_cached(fresh(), (types.float64,))        # another signature
    st = src.stat()
    src.write_text(src.read_text().replace("2 * x", "3 * x"))
    os.utime(src, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    assert not is_cached(fresh(), sig)
    sys.modules.pop("tiny_kernel", None)


def test_a_cached_kernel_with_uncached_statistics_says_it_compiles(monkeypatch):
    """LocalExecutor.warm: the kernel from the cache but a helper not (an upgrade that changed
    only accumulate.py) -> the helpers are compiled before play, under the notice; all cached ->
    nothing shown, nothing compiled."""
    from numba import njit

    from simcore import accumulate

    prep = runner.prepare("middle-ages", players=4)
    shown, compiled = [], []

    def show(message):
        shown.append(message)
        return lambda: None

    def compile_jobs(jobs):
        compiled.extend(jobs)
        njit(lambda x: x + 1)(1)          # a real compile, as the helpers' would be

    monkeypatch.setattr(accumulate, "compile_jobs", compile_jobs)
    monkeypatch.setattr(accumulate, "uncached_jobs", lambda jobs: [j for j in jobs if j.startswith("pairs")])
    runner.LocalExecutor().warm(prep, show)
    assert compiled == ["pairs:0"] and shown == [runner.STATISTICS_MESSAGE]
    shown.clear(), compiled.clear()
    monkeypatch.setattr(accumulate, "uncached_jobs", lambda jobs: [])
    runner.LocalExecutor().warm(prep, show)
    assert compiled == [] and shown == []
