"""Middle-Ages: games/s of `balanced` bots as a share of `random`'s (issue #3's speed target).

Run: `.venv/bin/python benchmarks/bench_ma_balanced_vs_random.py [--threads 2] [--games 1e6] [--pairs 5]`.

Why a separate script: the machine's speed drifts by a quarter within minutes, so the two figures
must come from one process, alternating. Each pair plays ``--games`` 4-player games with `random` at
every seat and then with `balanced` (the order alternates from pair to pair), in the runner's
chunks (DEFAULT_CHUNK games), and the figure is the median over pairs of
(random seconds / balanced seconds), i.e. balanced games/s as a share of random games/s.
Nothing is asserted.
"""

from __future__ import annotations

import argparse
import statistics
import time


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--games", type=float, default=1e6)
    ap.add_argument("--pairs", type=int, default=5)
    a = ap.parse_args()

    import numba

    numba.set_num_threads(a.threads)
    from simcore.games.middle_ages import driver as D
    from simcore.games.middle_ages import rules as R
    from simcore.runner import DEFAULT_CHUNK
    from strategies import middle_ages as S

    rules = R.load()
    rk = D.pack_rules(rules)
    n = int(a.games)
    rows = {name: S.resolve(name, 4)[1] for name in ("random", "balanced")}
    for name in rows:                      # compile or load from the cache first
        D.run_chunk(rules, 4, 0, 100, 0, rows[name], rk=rk)
    seconds: dict[str, list[float]] = {"random": [], "balanced": []}
    for i in range(a.pairs):
        for name in (("random", "balanced") if i % 2 == 0 else ("balanced", "random")):
            t = time.perf_counter()
            done = 0
            while done < n:
                m = min(DEFAULT_CHUNK, n - done)
                D.run_chunk(rules, 4, done, m, 0, rows[name], rk=rk)
                done += m
            seconds[name].append(time.perf_counter() - t)
    shares = [r / b for r, b in zip(seconds["random"], seconds["balanced"])]
    print(f"{a.threads} thread(s), {n:,} games per run, {a.pairs} pairs: "
          f"random median {statistics.median(seconds['random']):.2f} s, "
          f"balanced median {statistics.median(seconds['balanced']):.2f} s")
    print(f"balanced games/s as a share of random's: median {statistics.median(shares):.3f} "
          f"(pairs: {', '.join(f'{x:.3f}' for x in shares)})")


if __name__ == "__main__":
    main()
