"""Benchmark of ``balance report``: a synthetic 1e6-game 4-player Middle-Ages run, report timed.

Builds a run directory with exactly the Middle-Ages schema written by the simulator (players.parquet,
games.parquet, run.json; see simcore/rundir.py and shared/rules/middle_ages.md MA-12) from vectorised
numpy draws, then builds the report (HTML + PNG, ``--pdf``, ``--svg``) ``--repeat`` times (3) in
fresh subprocesses and prints the median wall time, the median CPU time (user + system, the drawing child's included:
:mod:`reports.figures.draw`) and the peak resident memory (``--steps``: each step's CPU and wall
time, from the report's progress callback).
The data are not played games: scores, events and tiles are drawn so that every report section has
something to show (a seat advantage, events with unequal effects, tiles that matter, two
strategies). ``--run DIR`` times the report of a run directory written by ``simulate`` instead
(issue #27's target: a 1e6-game run with ``--pdf`` under 3 s of CPU and 500 MB).

    .venv/bin/python benchmarks/bench_report.py [--games 1e6] [--players 4] [--keep DIR] [--pdf] [--svg]
    .venv/bin/python benchmarks/bench_report.py --run RUN --pdf [--repeat 5] [--steps] [--draw-processes 1]

May import numpy, pyarrow, the standard library and (in the timed subprocess) :mod:`reports`.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parents[1]
DOMAINS = ("champs", "moulin", "village", "rempart", "marche", "caserne", "eglise", "palais")
# Mean coin effect of each event id (MA-8); 0 for the tile-moving ones (3, 4, 8, 9, 14).
EVENT_MEAN = np.array([3.0, 2.0, 6.0, 0, 0, 4.0, 5.0, 7.0, 0, 0, 5.0, 4.0, 9.0, -4.0, 0])


def write_synthetic_run(out: Path, games: int, players: int = 4, seed: int = 1,
                        strategies: list[str] | None = None, rotate: bool = False,
                        seat_edge: float = 1.5, chunk: int = 250_000) -> Path:
    """Write a synthetic Middle-Ages run directory of ``games`` games (players.parquet, games.parquet,
    run.json) with the exact column names and dtypes of the simulator. Returns ``out``."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    if strategies is None:
        strategies = ["random", "greedy"] * (players // 2) + ["random"] * (players % 2)
    rng = np.random.default_rng(seed)
    p_schema = pa.schema(
        [("game", pa.int64()), ("seat", pa.int8()), ("strategy", pa.string()), ("score", pa.int32()),
         ("win_share", pa.float32()), ("rank", pa.int8())]
        + [(f"tiles_{d}", pa.int8()) for d in DOMAINS]
        + [("graveyard", pa.int8()), ("penalty", pa.int16())]
        + [(f"event_gain_{k}", pa.int16()) for k in range(1, 5)]
        + [(f"coins_before_event_{k}", pa.int16()) for k in range(1, 5)]
        + ([("deal", pa.int64()), ("rotation", pa.int8())] if rotate else []))
    g_schema = pa.schema([("game", pa.int64()), ("n_players", pa.int8())]
                         + [(f"event_{k}", pa.int8()) for k in range(1, 5)] + [("reshuffles", pa.int8())])
    strat_arr = np.array(strategies)
    edge = np.linspace(seat_edge, -seat_edge, players)
    tile_p = np.array([14, 13, 12, 11, 10, 9, 8, 7], float)
    tile_p /= tile_p.sum()
    pw = pq.ParquetWriter(out / "players.parquet", p_schema, compression="zstd")
    gw = pq.ParquetWriter(out / "games.parquet", g_schema, compression="zstd")
    for first in range(0, games, chunk):
        g = min(chunk, games - first)
        gid = np.arange(first, first + g, dtype=np.int64)
        events = np.argsort(rng.random((g, 15)), axis=1)[:, :4].astype(np.int8)
        tiles = rng.multinomial(16, tile_p, size=(g, players)).astype(np.int8)       # (g, n, 8)
        grave = rng.integers(0, 4, size=(g, players)).astype(np.int8)
        penalty = (10 * (tiles == 0).sum(axis=2)).astype(np.int16)
        coins = np.zeros((g, players), np.int32)
        before = np.empty((4, g, players), np.int16)
        gain = np.empty((4, g, players), np.int16)
        for k in range(4):
            coins += rng.poisson(9, size=(g, players)) + np.rint(edge / 4).astype(np.int32)
            before[k] = coins
            mu = EVENT_MEAN[events[:, k]][:, None]
            raw = np.rint(mu + np.where(mu != 0, rng.normal(0, 2.5, (g, players)), 0))
            gk = np.maximum(raw, -coins).astype(np.int32)
            gain[k] = gk
            coins += gk
        score = coins + 2 * tiles[:, :, 7] + tiles[:, :, 6] + rng.poisson(6, (g, players)) \
            + np.rint(edge).astype(np.int32) - penalty
        score = np.maximum(score, 0).astype(np.int32)
        best = score.max(axis=1, keepdims=True)
        top = score == best
        win_share = (top / top.sum(axis=1, keepdims=True)).astype(np.float32)
        rank = (1 + (score[:, None, :] > score[:, :, None]).sum(axis=2)).astype(np.int8)
        seat = np.tile(np.arange(players, dtype=np.int8), g)
        if rotate:
            rotation = (gid % players).astype(np.int8)
            strat = strat_arr[(np.arange(players)[None, :] + rotation[:, None]) % players]
        else:
            strat = np.broadcast_to(strat_arr, (g, players))
        cols = {
            "game": np.repeat(gid, players), "seat": seat, "strategy": strat.reshape(-1),
            "score": score.reshape(-1), "win_share": win_share.reshape(-1), "rank": rank.reshape(-1)}
        for t, d in enumerate(DOMAINS):
            cols[f"tiles_{d}"] = tiles[:, :, t].reshape(-1)
        cols["graveyard"] = grave.reshape(-1)
        cols["penalty"] = penalty.reshape(-1)
        for k in range(4):
            cols[f"event_gain_{k + 1}"] = gain[k].reshape(-1)
        for k in range(4):
            cols[f"coins_before_event_{k + 1}"] = before[k].reshape(-1)
        if rotate:
            cols["deal"] = np.repeat(gid // players, players)
            cols["rotation"] = np.repeat(rotation, players)
        pw.write_table(pa.table(cols, schema=p_schema))
        gcols = {"game": gid, "n_players": np.full(g, players, np.int8)}
        for k in range(4):
            gcols[f"event_{k + 1}"] = events[:, k]
        gcols["reshuffles"] = np.zeros(g, np.int8)
        gw.write_table(pa.table(gcols, schema=g_schema))
    pw.close()
    gw.close()
    rules = ROOT / "configs" / "middle_ages" / "rules.toml"
    meta = {"game": "middle-ages", "players": players, "games": games, "seed": seed,
            "strategies": list(strategies), "rules_sha256": "synthetic", "rules_name": "synthetic",
            "rules_text": rules.read_text(encoding="utf-8") if rules.is_file() else "",
            "version": "synthetic", "wall_time_s": 0.0, "games_per_s": 0.0}
    (out / "run.json").write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return out


_CHILD = """
import resource, sys, time
t = time.perf_counter()
c0 = time.process_time()
from reports.build import build_report
steps, last = [("importing the reports", time.process_time() - c0, time.perf_counter() - t)], [None, 0.0, 0.0]
def children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime
def say(text, done=None, total=None):   # CPU (this process + the drawing child) and wall per step
    now, wall = time.process_time() + children(), time.perf_counter()
    if last[0] is not None:
        steps.append((last[0], now - last[1], wall - last[2]))
    else:
        steps.append(("checking the run", now - c0 - steps[0][1], wall - t - steps[0][2]))
    last[:] = [text, now, wall]
build_report([sys.argv[1]], sys.argv[2], force=True, pdf=sys.argv[3] == "1", svg=sys.argv[4] == "1",
             progress=say)
say("")
r = resource.getrusage(resource.RUSAGE_SELF)
if sys.argv[5] == "1":
    from pathlib import Path
    drawing = [x for x in steps if x[0].startswith("Writing figure")]
    n = len(list((Path(sys.argv[2]) / "figures").glob("*.png")))
    steps = [x for x in steps if x not in drawing]
    steps.insert(-3, (f"drawing the {n} figures ({len(drawing)} of them in this process)",
                      sum(x[1] for x in drawing), sum(x[2] for x in drawing)))
    for name, cpu, wall in steps:
        print(f"    {cpu:6.3f} s CPU {wall:6.3f} s wall  {name}", file=sys.stderr)
print(time.perf_counter() - t, r.ru_utime + r.ru_stime + children(), r.ru_maxrss)
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=float, default=1e6)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--keep", type=Path, default=None, help="keep the run directory and report here")
    ap.add_argument("--pdf", action="store_true")
    ap.add_argument("--svg", action="store_true", help="write the figures as SVG too (balance report --svg)")
    ap.add_argument("--run", type=Path, default=None, help="report this run directory instead of a synthetic one")
    ap.add_argument("--steps", action="store_true",
                    help="print each step's CPU (with the drawing child's) and wall time, per run")
    ap.add_argument("--draw-processes", type=int, default=None, metavar="N",
                    help="BALANCE_DRAW_PROCESSES for the report (1: draw every figure in one process)")
    args = ap.parse_args()
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench_report_"))
    run = args.run if args.run else work / "run"
    try:
        if args.run is None and not (run / "run.json").is_file():
            t = time.perf_counter()
            write_synthetic_run(run, int(args.games), args.players)
            print(f"synthetic run: {int(args.games):,} games x {args.players} players "
                  f"in {time.perf_counter() - t:.1f} s")
        times, cpus, peaks = [], [], []
        for i in range(args.repeat):
            env = dict(os.environ)
            if args.draw_processes is not None:
                env["BALANCE_DRAW_PROCESSES"] = str(args.draw_processes)
            res = subprocess.run([sys.executable, "-c", _CHILD, str(run), str(work / "report"),
                                  "1" if args.pdf else "0", "1" if args.svg else "0",
                                  "1" if args.steps else "0"],
                                 cwd=ROOT, capture_output=True, text=True, env=env)
            if res.returncode != 0:
                sys.exit(res.stderr)
            if args.steps:
                print(res.stderr.rstrip())
            wall, cpu, rss_kb = res.stdout.split()[-3:]
            times.append(float(wall))
            cpus.append(float(cpu))
            peaks.append(int(rss_kb) / 1024)
            print(f"  report {i + 1}: {float(wall):.2f} s wall, {float(cpu):.2f} s CPU, "
                  f"peak RSS {int(rss_kb) / 1024:.0f} MiB")
        meta = json.loads((run / "run.json").read_text(encoding="utf-8"))
        what = "+".join(["html", "png"] + (["pdf"] if args.pdf else []) + (["svg"] if args.svg else []))
        print(f"report ({what}) of {int(meta['games']):,} games x {meta['players']} players: median "
              f"{statistics.median(times):.2f} s wall, {statistics.median(cpus):.2f} s CPU, peak RSS "
              f"{max(peaks):.0f} MiB (issue #27: 3 s, 500 MB with --pdf; load average "
              f"{os.getloadavg()[0]:.1f})")
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
