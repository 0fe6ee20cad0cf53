"""Middle-Ages speed: kernel, end to end, cold compile, peak memory, ratio to the reference.

Run: `make bench` or `.venv/bin/python benchmarks/bench_middle_ages.py [--games 1e6] [--repeats 3]`.
Prints medians of several runs (the machine is shared and noisy) and the kernel/reference speed ratio
measured in the same process. Nothing here is asserted: the figures go in the issue notes.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SIMULATE = str(Path(sys.executable).with_name("simulate"))


def kernel_seconds(games: int, players: int, strategy: str, repeats: int) -> list[float]:
    from simcore.runner import prepare

    prep = prepare("middle-ages", players=players, strategies=strategy)
    prep.warmup()
    from simcore.games.middle_ages import driver as D
    from simcore.games.middle_ages import rules as R
    from strategies import middle_ages as S

    rules = R.load()
    rk = D.pack_rules(rules)
    _, rows = S.resolve(strategy, players)
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        done = 0
        while done < games:  # the runner's chunking, without the parquet writing
            n = min(1 << 17, games - done)
            D.run_chunk(rules, players, done, n, 0, rows, rk=rk)
            done += n
        times.append(time.perf_counter() - t)
    return times


def reference_ms_per_game(n: int = 200, players: int = 4) -> float:
    from simcore.games.middle_ages import reference as REF
    from simcore.games.middle_ages import rules as R

    rules = R.load()
    t = time.perf_counter()
    for g in range(n):
        REF.play_game(rules, players, 0, g)
    return (time.perf_counter() - t) / n * 1000


def end_to_end(games: str, extra_env: dict | None = None, args: tuple = ()) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of one `simulate` process."""
    env = {**os.environ, **(extra_env or {})}
    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        subprocess.run([SIMULATE, "--games", games, "--out", f"{tmp}/run", "--quiet", *args],
                       check=True, env=env, stdout=subprocess.DEVNULL)
        wall = time.perf_counter() - t
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return wall, max(peak, before) / 1024


def rollout_speed(repeats: int) -> None:
    """games/s of the rollout preset: one rollout seat against three balanced, and four."""
    from simcore.games.middle_ages import driver as D
    from simcore.games.middle_ages import rules as R
    from strategies import middle_ages as S

    rules = R.load()
    k = S.presets()["rollout"].playouts
    for lineup in (["rollout", "balanced", "balanced", "balanced"], ["rollout"] * 4):
        _, rows = S.resolve(lineup, 4)
        D.run_chunk(rules, 4, 0, 4, 0, rows)
        n = 2000 if lineup.count("rollout") == 1 else 500
        times = []
        for _ in range(repeats):
            t = time.perf_counter()
            D.run_chunk(rules, 4, 0, n, 0, rows)
            times.append(time.perf_counter() - t)
        med = statistics.median(times)
        print(f"rollout (k={k}) with {lineup.count('rollout')} rollout seat(s): {n / med:,.0f} games/s "
              f"(median of {repeats}; 1e5 games ≈ {1e5 / (n / med) / 60:.1f} min)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default="1e6")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--strategy", default="random")
    ap.add_argument("--skip-cold", action="store_true")
    ap.add_argument("--rollout", action="store_true",
                    help="measure the rollout bot (default playouts) instead of the main figures")
    a = ap.parse_args()
    games = int(float(a.games))
    import numba

    print(f"machine: {os.cpu_count()} cores, numba threads {numba.config.NUMBA_NUM_THREADS}")
    if a.rollout:
        rollout_speed(a.repeats)
        return
    ks = kernel_seconds(games, 4, a.strategy, a.repeats)
    med = statistics.median(ks)
    print(f"kernel, {games:,} 4-player games ({a.strategy}): median {med:.2f} s "
          f"({games / med:,.0f} games/s; runs {', '.join(f'{k:.2f}' for k in ks)})")
    numba.set_num_threads(1)
    k1 = statistics.median(kernel_seconds(20_000, 4, a.strategy, a.repeats)) / 20_000 * 1000
    ref = reference_ms_per_game()
    print(f"one thread: kernel {k1 * 1000:.1f} µs/game, reference {ref:.2f} ms/game: "
          f"kernel is {ref / k1:,.0f}x faster (same process)")
    walls = []
    peaks = []
    for _ in range(a.repeats):
        w, p = end_to_end(a.games, args=("--strategies", a.strategy))
        walls.append(w)
        peaks.append(p)
    print(f"simulate --games {a.games} end to end (warm cache): median {statistics.median(walls):.2f} s "
          f"(runs {', '.join(f'{w:.2f}' for w in walls)}); peak RSS {max(peaks):.0f} MB")
    if not a.skip_cold:
        with tempfile.TemporaryDirectory() as cache:
            w, p = end_to_end(a.games, {"NUMBA_CACHE_DIR": cache}, ("--strategies", a.strategy))
        print(f"first run with an empty Numba cache (cold compile + run): {w:.2f} s")


if __name__ == "__main__":
    main()
