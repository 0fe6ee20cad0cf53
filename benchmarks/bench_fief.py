"""Fief speed benchmarks (FF-1 … FF-4, FF-7): prints medians of 3 warm runs.

1. Kernel time of 1e7 combats of 10 vs 6 in a castle (target <= 5 s), played in chunks of 2**20
   into reused output arrays, as the runner does for fief-combat (its writing of parquet files is excluded).
2. The exact 30 x 20 grid for the 3 terrains (target <= 2 s).
3. For reference: simulate --game fief-combat end to end (1e6 combats, parquet written).

Usage: .venv/bin/python benchmarks/bench_fief.py [--combats 1e7] [--threads N]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import numba
import numpy as np

from simcore.games.fief import kernel as K
from simcore.games.fief.exact import exact_grid
from simcore.games.fief.rules import CASTLE, load
from simcore.runner import simulate


def kernel_combats(rules, total: int, chunk: int = 1 << 20) -> float:
    outs = [np.empty(chunk, np.int64) for _ in range(9)]
    t0 = time.perf_counter()
    for first in range(0, total, chunk):
        n = min(chunk, total - first)
        K.combat_chunk(np.int64(first), np.int64(n), np.uint64(0), np.int64(10), np.int64(6),
                       np.int64(1), np.int64(1), np.int64(CASTLE), np.int64(0), np.int64(-1),
                       np.int64(-1), *rules.kernel_args(), *outs)
    return time.perf_counter() - t0


def exact_full_grid(rules) -> float:
    t0 = time.perf_counter()
    for terrain in range(3):
        exact_grid(rules, range(1, 31), range(1, 21), terrain, 0, 1, 1, (-1, -1))
    return time.perf_counter() - t0


def end_to_end(n: int) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        simulate("fief-combat", attacker=10, defender=6, terrain="castle", games=n,
                 out=Path(tmp) / "r", quiet=True)
        return time.perf_counter() - t0


def median3(fn, *args) -> float:
    return statistics.median(fn(*args) for _ in range(3))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--combats", type=float, default=1e7)
    ap.add_argument("--threads", type=int, default=None)
    args = ap.parse_args()
    if args.threads:
        numba.set_num_threads(args.threads)
    rules = load()
    total = int(args.combats)
    kernel_combats(rules, 1 << 12)           # warm-up: compile or load the cache
    exact_full_grid(rules)
    t_k = median3(kernel_combats, rules, total)
    t_e = median3(exact_full_grid, rules)
    t_w = median3(end_to_end, 10**6)
    print(f"threads: {numba.get_num_threads()}")
    print(f"kernel, {total:.0e} combats of 10 vs 6 in a castle: {t_k:.3f} s median of 3 "
          f"({total / t_k / 1e6:.2f} M combats/s; target <= 5 s)")
    print(f"exact 30 x 20 grid x 3 terrains: {t_e:.3f} s median of 3 (target <= 2 s)")
    print(f"simulate fief-combat end to end, 1e6 combats with parquet: {t_w:.3f} s median of 3")


if __name__ == "__main__":
    main()
