"""Middle-Ages kernel time against an old revision on this machine: whole trees, processes alternated.

Run: `.venv/bin/python benchmarks/bench_ma_since.py --rev 8ef2ebd [--strategy balanced]
[--rounds 6] [--games 5e5] [--keep /tmp/since]`.

Why: issue #27's kernel targets are absolute seconds (1e6 four-player games on 2 cores: random
≤ 1.5 s, balanced ≤ 2.5 s, against 2.34 s and 3.84 s "today" on the machine the issue was written
on), and the sessions run on different hosts (an Intel Xeon, AMD EPYC Zen 4 and Zen 5) whose
speeds differ by up to 1.5x. What carries from host to host is the ratio of today's kernel to
the kernel the issue measured: its targets are 1.5 / 2.34 = 0.64 and 2.5 / 3.84 = 0.65 of it.
`bench_kernel_ab.py` cannot load a kernel that old beside today's (its layout and strategy rows
differ), so here each tree runs in its own process with its own Numba cache: the revision is
exported whole (`git archive`, kept under ``--keep`` for the next run), and each round runs the
old tree's then this tree's `benchmarks/bench_middle_ages.py` kernel timing (`kernel_seconds`:
the runner's chunks of 131,072 games, `run_chunk` timed end to end on Numba's default threads),
``--repeats`` times each. Rounds alternate so that the machine's drift falls on both. Prints each
round's medians and the median of the per-round ratios new/old. Nothing is asserted.

The default revision, 8ef2ebd, is main just before issue #27's first commit (babbd02b).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FILED = "8ef2ebd"       # main before issue #27's first commit

TIMER = """
import statistics, sys
sys.path.insert(0, sys.argv[1] + "/benchmarks")
import bench_middle_ages as B
t = B.kernel_seconds(int(float(sys.argv[2])), 4, sys.argv[3], int(sys.argv[4]))
print(statistics.median(t))
"""


def export(rev: str, keep: Path) -> Path:
    """The tree of ``rev`` under ``keep/<commit>`` (exported once, reused after)."""
    commit = subprocess.run(["git", "rev-parse", rev], cwd=ROOT, check=True, capture_output=True,
                            text=True).stdout.strip()
    tree = keep / commit
    if not (tree / "benchmarks" / "bench_middle_ages.py").exists():
        tree.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "archive", commit], cwd=ROOT, check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    return tree


def kernel_median(tree: Path, cache: Path, games: str, strategy: str, repeats: int) -> float:
    env = dict(os.environ, PYTHONPATH=str(tree), NUMBA_CACHE_DIR=str(cache))
    out = subprocess.run([sys.executable, "-c", TIMER, str(tree), games, strategy, str(repeats)],
                         cwd=tree, env=env, check=True, capture_output=True, text=True).stdout
    return float(out.split()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rev", default=FILED, help="the old revision (default: before issue #27)")
    ap.add_argument("--strategy", default="random")
    ap.add_argument("--games", default="5e5", help="games per timing")
    ap.add_argument("--repeats", type=int, default=3, help="timings per process (median kept)")
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--keep", default="/tmp/bench_ma_since", help="where the old tree is kept")
    a = ap.parse_args()
    keep = Path(a.keep)
    old = export(a.rev, keep)
    caches = {"old": keep / "cache-old", "new": keep / "cache-new"}
    trees = {"old": old, "new": ROOT}
    print(f"old: {a.rev} ({old}), new: this tree; {a.strategy}, {float(a.games):,.0f} four-player "
          f"games per timing, median of {a.repeats} per process; first round compiles if needed")
    ratios = []
    for r in range(a.rounds):
        t = {k: kernel_median(trees[k], caches[k], a.games, a.strategy, a.repeats) for k in ("old", "new")}
        ratios.append(t["new"] / t["old"])
        print(f"round {r + 1}: old {t['old']:.3f} s, new {t['new']:.3f} s, new/old {ratios[-1]:.3f}",
              flush=True)
    print(f"median new/old over {a.rounds} rounds: {statistics.median(ratios):.3f} "
          f"(issue #27's targets: random 0.64, balanced 0.65 of the kernel before it)")


if __name__ == "__main__":
    main()
