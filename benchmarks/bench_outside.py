"""CPU spent outside the kernel by `simulate` (issue #27 item 5), measured so that a loaded machine
does not blur it: the process's CPU time (user + system, from the parent) minus the CPU time of the
kernel's own calls (the jitted block functions, timed with ``time.thread_time`` around each call in
the one thread that plays them: ``--threads 1``). What is left is everything else the process
does: start, imports, loading the cached kernel, the columns of each chunk, summary.parquet's sums,
the statistics, the Parquet files, run.json, the closing table, and the process's exit (the child
ends as the ``simulate`` console script does; the kernel's CPU is reported from an atexit handler).

Run: ``.venv/bin/python benchmarks/bench_outside.py [--games 1e6] [--runs 3]
[--strategies random,balanced] [--tree PATH ...]`` (each tree: a checkout run with this venv's
Python, e.g. a ``git worktree`` of an older commit with its Numba cache copied in). Prints the
median over ``--runs`` of each figure. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
import simcore.blocks as blocks
spent = [0.0]
real = blocks.play_blocks
def timed(play, n_games, *args, threads=None):
    def play_timed(*a):
        t = time.thread_time()
        try:
            return play(*a)
        finally:
            spent[0] += time.thread_time() - t
    return real(play_timed, n_games, *args, threads=threads)
blocks.play_blocks = timed
import importlib
for name in ("simcore.games.middle_ages.driver", "simcore.games.medievallons.driver"):
    try:
        mod = importlib.import_module(name)
    except ModuleNotFoundError:
        continue
    if getattr(mod, "play_blocks", None) is real:
        mod.play_blocks = timed
import atexit, cli
report = sys.argv[2]
atexit.register(lambda: print(json.dumps({"kernel_cpu": spent[0]}), file=open(report, "w")))
sys.argv = [sys.argv[0]] + sys.argv[3:]
cli.simulate_main()         # as the console script: its exit (and that exit's CPU) included
"""


def one(tree: Path, args: list[str]) -> tuple[float, float]:
    """(process CPU, kernel CPU) seconds of one simulate process from checkout ``tree``."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "k.json"
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        rc = subprocess.run([sys.executable, "-c", _CHILD, str(tree), str(report), *args],
                            stdout=subprocess.DEVNULL, cwd=tree, env=dict(os.environ)).returncode
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if rc != 0:
            raise SystemExit(f"simulate failed in {tree}")
        got = json.loads(report.read_text())
        return cpu, got["kernel_cpu"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default="1e6")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--strategies", default="random,balanced")
    ap.add_argument("--tree", action="append", type=Path, default=None)
    a = ap.parse_args()
    trees = a.tree or [ROOT]
    with tempfile.TemporaryDirectory() as tmp:
        for bots in a.strategies.split(","):
            for tree in trees:
                out = Path(tmp) / "run"
                args = ["--games", a.games, "-s", bots, "--threads", "1", "--out", str(out), "--force"]
                one(tree, args[:1] + ["1000"] + args[2:])          # load (or compile) the kernel
                runs = [one(tree, args) for _ in range(a.runs)]
                cpu = statistics.median(c for c, _ in runs)
                kernel = statistics.median(k for _, k in runs)
                outside = statistics.median(c - k for c, k in runs)
                print(f"{tree} {bots}: simulate --games {a.games} --threads 1, median of {a.runs}: "
                      f"process CPU {cpu:.2f} s, kernel CPU {kernel:.2f} s, outside the kernel "
                      f"{outside:.2f} s", flush=True)


if __name__ == "__main__":
    main()
