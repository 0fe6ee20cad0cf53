"""Time outside the kernel as issue #27 measures it: ``simulate``'s process wall minus the
benchmark's kernel time, taken in interleaved pairs so that the machine's drift (a quarter within
minutes on 2 shared cores) falls on both halves of a pair.

Run: ``.venv/bin/python benchmarks/bench_outside_wall.py [--strategies random] [--pairs 9]
[--games 1e6]``. Each pair: the kernel time of ``bench_middle_ages.kernel_seconds`` (a process of
its own, one repeat: the runner's chunking without the files) and the wall time of one
``simulate --games N -s BOTS --quiet`` process (``bench_middle_ages.end_to_end``). Prints every
pair, the median of the differences and the difference of the medians. Nothing is asserted
(``benchmarks/bench_outside.py`` measures the same part in CPU seconds instead).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import bench_middle_ages as B  # noqa: E402

KERNEL = ("import sys; sys.path.insert(0, {here!r}); sys.path.insert(0, {root!r}); "
          "import bench_middle_ages as B; print(B.kernel_seconds({games}, 4, {bots!r}, 1)[0])")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--strategies", default="random")
    ap.add_argument("--pairs", type=int, default=9)
    ap.add_argument("--games", default="1e6")
    a = ap.parse_args()
    games = int(float(a.games))
    code = KERNEL.format(here=str(HERE), root=str(HERE.parent), games=games, bots=a.strategies)
    kernel, process = [], []
    for i in range(a.pairs):
        k = float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                 check=True).stdout.split()[-1])
        e = B.end_to_end(a.games, args=("-s", a.strategies))[0]
        kernel.append(k)
        process.append(e)
        print(f"pair {i}: kernel {k:.2f} s, simulate {e:.2f} s, outside {e - k:.2f} s", flush=True)
    print(f"{a.strategies}, {games:,} games: kernel median {statistics.median(kernel):.2f} s, simulate "
          f"median {statistics.median(process):.2f} s; outside the kernel: median of the pairs' "
          f"differences {statistics.median(e - k for e, k in zip(process, kernel)):.2f} s, difference "
          f"of the medians {statistics.median(process) - statistics.median(kernel):.2f} s")


if __name__ == "__main__":
    main()
