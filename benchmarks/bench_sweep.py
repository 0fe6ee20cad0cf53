"""Sweep and tune speed: the issue's two figures, end to end through the command line.

Run: ``.venv/bin/python benchmarks/bench_sweep.py sweep`` — 20 Middle-Ages variants x 1e5 games
(income.palais.base 1..5 x setup.start_coins[0] in 0, 2, 4, 6; 4 players, balanced bots), one
process: the kernel compiles (or loads from the cache) once, every variant's rules are runtime
arrays. Budget in the issue: 3 minutes.

``.venv/bin/python benchmarks/bench_sweep.py tune`` — ``balance tune`` of the four seats' start
coins (0..15 each) for 4-player Middle-Ages with balanced bots, target seat-balance (every seat
within 25% ± 1.5 pp, confirmed on fresh games). Budget in the issue: 15 minutes.

Prints wall times (the machine is shared; nothing is asserted here) and keeps the output
directory under a temporary folder unless ``--keep DIR`` is given.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BALANCE = [sys.executable, "-c", "import cli; cli.main()"]


def run(args: list[str]) -> float:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    t0 = time.perf_counter()
    subprocess.run([*BALANCE, *args], check=True, env=env)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=["sweep", "tune"])
    ap.add_argument("--games", default="1e5", help="sweep: games per variant")
    ap.add_argument("--keep", type=Path, default=None, help="write the output here and keep it")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-sweep-") as tmp:
        out = a.keep or Path(tmp) / a.what
        if a.what == "sweep":
            wall = run(["sweep", "--out", str(out), "--force", "--games", a.games,
                        "--vary", "income.palais.base=1..5", "--vary", "setup.start_coins[0]=[0,2,4,6]"])
            metas = [json.loads(p.read_text()) for p in sorted(out.glob("variants/*/run.json"))]
            games = sum(m["games"] for m in metas)
            kernel = sum(m["kernel_time_s"] for m in metas)
            print(f"sweep: {len(metas)} variants x {metas[0]['games']:,} games = {games:,} games in "
                  f"{wall:.1f} s wall ({games / wall:,.0f} games/s end to end; kernel {kernel:.1f} s; "
                  f"compile or load per variant: max {max(m['compile_or_load_s'] for m in metas):.2f} s)")
        else:
            wall = run(["tune", "--out", str(out), "--force", "--players", "4",
                        *[f"--vary=setup.start_coins[{s}]=0..15" for s in range(4)],
                        "--target", "seat-balance", "--trials", "200", "--seed", "1"])
            r = json.loads((out / "result.json").read_text())
            print(f"tune: {wall:.0f} s wall ({wall / 60:.1f} min), {r['trials']} trials, "
                  f"{r['games_played_in_search']:,} search games, confirmation "
                  f"{r['confirm']['games']:,} games; met: {r['met']}")
            print(r["sentence"])


if __name__ == "__main__":
    main()
