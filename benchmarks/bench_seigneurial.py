"""Seigneurial speed: kernel games/s per bot line-up, the 1e6-game target, and the ratio to the
reference engine measured in the same process.

Run: `.venv/bin/python benchmarks/bench_seigneurial.py [--games 1e6] [--repeats 3]`.
Prints medians of several runs (the machine is shared and noisy), with the CPU time beside the wall
time so a run squeezed by other processes is visible. The target of issue 15 is 1e6 4-player games
with the default bots (`standard` at every seat) in at most 30 s of kernel time. Game lengths
differ a lot between line-ups (random Censitaires overpay and lose in ~25 turns; policy
Censitaires reach their objective in ~5-7), so the mean turns per game is printed beside each
line-up. Nothing here is asserted.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

LINEUPS = (
    ("standard x4 (default)", ["standard"] * 4),
    ("random x4", ["random"] * 4),
    ("even-lord + fair-share", ["even-lord"] + ["fair-share"] * 3),
    ("greedy-lord + dutiful", ["greedy-lord"] + ["dutiful"] * 3),
    ("harsh-lord + objective", ["harsh-lord"] + ["objective"] * 3),
    ("even-lord + hoarder", ["even-lord"] + ["hoarder"] * 3),
    ("even-lord + random", ["even-lord"] + ["random"] * 3),
)


def kernel_run(games: int, lineup: list[str]) -> tuple[float, float, float]:
    """(wall, CPU seconds, mean turns) of the runner's chunking over the kernel, no parquet."""
    from simcore.games.seigneurial import driver as D
    from simcore.games.seigneurial import rules as R
    from strategies import seigneurial as S

    rules = R.load()
    rk = D.pack_rules(rules)
    players = len(lineup)
    _, rows = S.resolve(lineup, players)
    D.run_chunk(rules, players, 0, 64, 0, rows, rk=rk)          # load the compiled kernel
    t, c = time.perf_counter(), time.process_time()
    done, turns = 0, 0
    while done < games:
        n = min(1 << 17, games - done)
        turns += int(D.run_chunk(rules, players, done, n, 0, rows, rk=rk)["turns"].sum())
        done += n
    return time.perf_counter() - t, time.process_time() - c, turns / games


def reference_ms_per_game(n: int = 200, players: int = 4) -> tuple[float, float]:
    from simcore.games.seigneurial import reference as REF
    from simcore.games.seigneurial import rules as R

    rules = R.load()
    t = time.process_time()
    turns = sum(REF.play_game(rules, players, 0, g).turns for g in range(n))
    return (time.process_time() - t) / n * 1000, turns / n


def median_run(games: int, lineup, repeats: int):
    runs = [kernel_run(games, lineup) for _ in range(repeats)]
    return tuple(statistics.median(r[i] for r in runs) for i in range(3))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default="1e6", help="games of the target run (default bots)")
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args()
    games = int(float(a.games))
    import numba

    print(f"machine: {os.cpu_count()} cores, numba threads {numba.get_num_threads()}; "
          f"load average {os.getloadavg()[0]:.2f}")
    wall, cpu, turns = median_run(games, ["standard"] * 4, a.repeats)
    print(f"TARGET standard x4, {games:,} 4-player games: median {wall:.1f} s wall, {cpu:.1f} s CPU "
          f"({games / wall:,.0f} games/s, {turns:.1f} turns/game; target <= 30 s)")
    for label, lineup in LINEUPS:
        n = 200_000
        wall, cpu, turns = median_run(n, lineup, a.repeats)
        print(f"  {label:24s} {n / wall:10,.0f} games/s wall ({cpu / n * 1e6:6.1f} µs CPU per game, "
              f"{turns:5.1f} turns/game)")
    numba.set_num_threads(1)
    k1 = [kernel_run(20_000, ["random"] * 4) for _ in range(a.repeats)]
    kcpu = statistics.median(r[1] for r in k1) / 20_000
    kturns = statistics.median(r[2] for r in k1)
    ref, rturns = reference_ms_per_game()
    print(f"one thread, random bots, 4 players: kernel {kcpu * 1e6:.1f} µs/game ({kturns:.1f} turns), "
          f"reference {ref:.2f} ms/game ({rturns:.1f} turns): ratio {ref / 1000 / kcpu:,.0f}x")


if __name__ == "__main__":
    main()
