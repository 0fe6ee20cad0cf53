"""Dask: a large summary-only run here and on `--workers 2`, and the cost of one chunk on a cluster.

Run: `.venv/bin/python benchmarks/bench_cluster.py [--games 1e7] [--skip-run] [--skip-overhead]`.

1. ``simulate --games N --no-raw`` (balanced, 4 players) as a fresh process, locally and with
   ``--workers 2``: wall time and the peak RSS of the client process alone (sampled every 50 ms
   with psutil; a local cluster's worker processes are not counted: on a real cluster they run
   elsewhere). Summary-only output streams games.parquet and keeps per-seat sums, so the client's
   memory should not grow with N.
2. Per-chunk overhead on an in-process LocalCluster of 2 workers: the round trip of a one-game
   chunk (submit, schedule, play, make its part, send it back), the size and (de)serialisation
   time of the part of a default chunk (131,072 games, summary-only and with player rows), and the
   client's time to add a part to the run directory (sums + games.parquet). From these and the
   time one worker thread takes per game, the chunk size at which 100 workers stay ≥ 90% busy:
   the scheduler's per-task time and the client's per-part time, both serial, must fit 100 times
   into 10% (scheduler) and 100% (client, which works while the workers play) of one chunk's
   playing time. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import pickle
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def run_and_watch(args: list[str]) -> tuple[float, float]:
    """Wall seconds and the client's peak RSS (MB) of one ``simulate`` process."""
    import psutil

    env = dict(os.environ, PYTHONPATH=str(ROOT))
    t = time.perf_counter()
    p = subprocess.Popen([sys.executable, "-c", "import cli; cli.simulate_main()", *args],
                         env=env, stdout=subprocess.DEVNULL, cwd=ROOT)
    proc = psutil.Process(p.pid)
    peak = 0
    while p.poll() is None:
        try:
            peak = max(peak, proc.memory_info().rss)
        except psutil.NoSuchProcess:
            break
        time.sleep(0.05)
    wall = time.perf_counter() - t
    if p.returncode:
        raise SystemExit(f"simulate failed ({p.returncode})")
    return wall, peak / 2**20


def big_runs(games: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        out = str(Path(tmp) / "run")
        base = ["--games", games, "--no-raw", "--out", out, "--force", "-q"]
        run_and_watch(["--games", "1000", "--out", out, "--force", "-q"])     # compile or load
        local = run_and_watch(base)
        dask2 = run_and_watch([*base, "--workers", "2"])
    print(f"simulate --games {games} --no-raw (balanced, 4 players):")
    print(f"  local:       {local[0]:7.1f} s, client peak RSS {local[1]:6.0f} MB")
    print(f"  --workers 2: {dask2[0]:7.1f} s, client peak RSS {dask2[1]:6.0f} MB "
          f"({dask2[0] / local[0]:.2f} x the local time)")


def overhead() -> None:
    import numba

    from simcore import cluster, runner, rundir

    prep = runner.prepare("middle-ages", players=4)
    prep.warmup()
    numba.set_num_threads(1)
    size = runner.DEFAULT_CHUNK
    t = time.perf_counter()
    runner.play_part(prep, 0, size, 0, runner.PartPlan(None))
    per_game = (time.perf_counter() - t) / size
    summary_part = runner.play_part(prep, 0, size, 0, runner.PartPlan(None))
    raw_part = runner.play_part(prep, 0, size, 0, runner.PartPlan(tuple(prep.players_schema.names)))
    for label, part in (("summary-only", summary_part), ("with player rows", raw_part)):
        t = time.perf_counter()
        blob = pickle.dumps(part, protocol=5)
        t_dump = time.perf_counter() - t
        t = time.perf_counter()
        pickle.loads(blob)
        t_load = time.perf_counter() - t
        print(f"part of {size:,} games, {label}: {len(blob) / 2**20:.1f} MB, serialise "
              f"{1e3 * t_dump:.1f} ms, deserialise {1e3 * t_load:.1f} ms")

    # the client's work per part: sums and games.parquet (+ players.parquet with player rows)
    def client_time(part, raw: bool) -> float:
        with tempfile.TemporaryDirectory() as tmp:
            with rundir.RunWriter(Path(tmp) / "r", players_schema=prep.players_schema if raw
                                  else None, games_schema=prep.games_schema) as w:
                by_seat = runner.GroupSummary("seat", ["balanced"] * 4, prep.summary_columns,
                                              win_units=12)
                by_strategy = runner.GroupSummary("strategy", ["balanced"], prep.summary_columns,
                                                  win_units=12)
                extras = {k: make() for k, make in prep.extra_summaries.items()}
                times = []
                for _ in range(5):
                    t = time.perf_counter()
                    by_seat.merge(part.by_seat)
                    by_strategy.merge(part.by_strategy)
                    for k, acc in extras.items():
                        runner.merge_sums(acc, part.extras[k])
                    if raw:
                        w.write(rundir.PLAYERS, part.players)
                    w.write(rundir.GAMES, part.games)
                    times.append(time.perf_counter() - t)
        return statistics.median(times)

    client_part = client_time(summary_part, False) + t_load
    client_raw = client_time(raw_part, True)
    print(f"client per part of {size:,} games (deserialise, sums, games.parquet): "
          f"{1e3 * client_part:.1f} ms summary-only, {1e3 * client_raw:.0f} ms + deserialising "
          f"with player rows (players.parquet); one worker thread plays the chunk in "
          f"{size * per_game:.2f} s ({1e6 * per_game:.2f} µs/game)")
    print(f"  the client takes {size / client_part:,.0f} games/s of summary-only parts, "
          f"{size / client_raw:,.0f} games/s with player rows")

    with cluster.Cluster(workers=2, threads=1, quiet=True) as c:
        c.warm(prep)
        token, blob = c._recipe(prep)
        trips = []
        for i in range(40):
            t = time.perf_counter()
            c.client.submit(cluster._play, token, blob, c._fingerprint, i, 1, 0,
                            runner.PartPlan(None), 1, pure=False).result()
            trips.append(time.perf_counter() - t)
        trip = statistics.median(trips[5:])
        import operator

        from distributed import wait

        n_tasks = 1000
        t = time.perf_counter()
        wait(c.client.map(operator.add, range(n_tasks), range(n_tasks), pure=False))
        sched = (time.perf_counter() - t) / n_tasks
    print(f"round trip of a one-game chunk on a local cluster: {1e3 * trip:.1f} ms (median of 35, "
          f"one at a time); {n_tasks} trivial tasks at once: {1e3 * sched:.2f} ms a task "
          f"(scheduler and workers, this 2-core machine shared by all of them)")

    # 100 workers, 90% busy: the scheduler's per-task time (serial) must fit 100 times into 10%
    # of a chunk's playing time; the client (serial too, working while the workers play) must
    # take parts as fast as 100 workers make them.
    chunk_s = 100 * sched / 0.1
    print(f"100 workers >= 90% busy: the scheduler ({1e3 * sched:.2f} ms a task) needs chunks "
          f"that last >= {chunk_s:.2f} s on their worker: >= {chunk_s / per_game:,.0f} games for "
          f"a one-thread worker at {1e6 * per_game:.1f} µs/game (x the worker's threads for "
          f"bigger workers); the client keeps up with "
          f"{size / client_part * per_game:,.0f} one-thread workers on summary-only runs, "
          f"{size / client_raw * per_game:,.0f} with player rows")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default="1e7")
    ap.add_argument("--skip-run", action="store_true")
    ap.add_argument("--skip-overhead", action="store_true")
    a = ap.parse_args()
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    if not a.skip_overhead:
        overhead()
    if not a.skip_run:
        big_runs(a.games)


if __name__ == "__main__":
    main()
