"""Médiévallons speed: kernel time per bot, the 1e6-game target, and the ratio to the reference.

Run: `.venv/bin/python benchmarks/bench_medievallons.py [--games 1e6] [--repeats 3] [--end-to-end]`.
Prints medians of several runs (the machine is shared and noisy), with the CPU time beside the
wall time so a run squeezed by other processes is visible. The target of issue 7 is 1e6 4-player
games with `balanced` bots in at most 30 s of kernel time. Nothing here is asserted.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SIMULATE = str(Path(sys.executable).with_name("simulate"))


def kernel_run(games: int, players: int, strategy: str) -> tuple[float, float]:
    """(wall, CPU) seconds of the runner's chunking over the kernel, without parquet writing."""
    from simcore.games.medievallons import driver as D
    from simcore.games.medievallons import rules as R
    from strategies import medievallons as S

    rules = R.load()
    rk = D.pack_rules(rules)
    _, rows = S.resolve(strategy, players)
    D.run_chunk(rules, players, 0, 64, 0, rows, rk=rk)          # load the compiled kernel
    t, c = time.perf_counter(), time.process_time()
    done = 0
    while done < games:
        n = min(1 << 17, games - done)
        D.run_chunk(rules, players, done, n, 0, rows, rk=rk)
        done += n
    return time.perf_counter() - t, time.process_time() - c


def reference_ms_per_game(n: int = 300, players: int = 4) -> float:
    from simcore.games.medievallons import reference as REF
    from simcore.games.medievallons import rules as R

    rules = R.load()
    t = time.process_time()
    for g in range(n):
        REF.play_game(rules, players, 0, g)
    return (time.process_time() - t) / n * 1000


def median_run(games: int, players: int, strategy: str, repeats: int) -> tuple[float, float]:
    runs = [kernel_run(games, players, strategy) for _ in range(repeats)]
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default="1e6", help="games of the balanced target run")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--end-to-end", action="store_true", help="also time `simulate` writing parquet")
    a = ap.parse_args()
    games = int(float(a.games))
    import numba

    print(f"machine: {os.cpu_count()} cores, numba threads {numba.get_num_threads()}; "
          f"load average {os.getloadavg()[0]:.2f}")
    wall, cpu = median_run(games, 4, "balanced", a.repeats)
    print(f"TARGET balanced, {games:,} 4-player games: median {wall:.1f} s wall, {cpu:.1f} s CPU "
          f"({games / wall:,.0f} games/s; target <= 30 s)")
    for bot, n in (("random", 200_000), ("collector", 200_000), ("saboteur", 100_000),
                   ("balanced", 200_000), ("planner", 4_000)):
        wall, cpu = median_run(n, 4, bot, a.repeats)
        print(f"  {bot:10s} 4 players: {n / wall:10,.0f} games/s wall "
              f"({cpu / n * 1e6:7.1f} µs CPU per game)")
    numba.set_num_threads(1)
    k1 = statistics.median(kernel_run(20_000, 4, "random")[1] for _ in range(a.repeats)) / 20_000
    ref = reference_ms_per_game() / 1000
    print(f"one thread, random bots: kernel {k1 * 1e6:.1f} µs/game, reference {ref * 1e3:.2f} ms/game:"
          f" kernel is {ref / k1:,.0f}x faster (same process, CPU time)")
    if a.end_to_end:
        with tempfile.TemporaryDirectory() as tmp:
            t = time.perf_counter()
            subprocess.run([SIMULATE, "--game", "medievallons", "--players", "4", "--games", a.games,
                            "--out", f"{tmp}/run", "--quiet"], check=True, stdout=subprocess.DEVNULL)
            print(f"simulate --game medievallons --games {a.games} end to end: "
                  f"{time.perf_counter() - t:.1f} s")


if __name__ == "__main__":
    main()
