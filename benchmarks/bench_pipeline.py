"""One machine: `simulate` end to end against its kernel time, and the cold first run.

Run: `.venv/bin/python benchmarks/bench_pipeline.py [--games 1e6] [--runs 3] [--cold] [--tree PATH]`.

End to end: `simulate --games N` (balanced, 4 players, the defaults) as a fresh process, timed from
outside (process start, imports, loading the cached kernel, playing, writing, run.json), against
the kernel time that run records (run.json's ``kernel_time_s``: the time spent in the game's play
function, the kernel and its columns). The median of ``--runs`` runs of each. The issue's target:
end to end ≤ kernel time + 1.5 s for 1e6 games.

``--cold``: the first ``simulate --games 1000`` after install, with an empty ``NUMBA_CACHE_DIR``
(everything compiled): wall time and CPU time of the process (CPU time varies less on a shared
machine). ``--tree PATH`` runs another checkout (e.g. ``/work/main``, or a worktree of an older
commit) the same way, for a before/after on one machine in one session. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def simulate(tree: Path, args: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """Wall and CPU seconds of one ``simulate`` process run from checkout ``tree``."""
    e = dict(os.environ, PYTHONPATH=str(tree), **(env or {}))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import cli; cli.simulate_main()", *args], env=e,
                   check=True, stdout=subprocess.DEVNULL, cwd=tree)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def end_to_end(tree: Path, games: str, runs: int) -> None:
    walls, kernels, inside = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run"
        simulate(tree, ["--games", "1000", "--out", str(out), "--force", "-q"])   # compile/load
        for _ in range(runs):
            wall, _ = simulate(tree, ["--games", games, "--out", str(out), "--force", "-q"])
            meta = json.loads((out / "run.json").read_text(encoding="utf-8"))
            walls.append(wall)
            kernels.append(meta["kernel_time_s"])
            inside.append(meta["wall_time_s"])
    w, k, i = (statistics.median(x) for x in (walls, kernels, inside))
    print(f"{tree}: simulate --games {games} (balanced, 4 players), median of {runs}: "
          f"end to end {w:.2f} s, kernel {k:.2f} s, playing+writing loop {i:.2f} s; "
          f"end to end - kernel = {w - k:.2f} s")
    print(f"  runs: end to end {', '.join(f'{x:.2f}' for x in walls)}; "
          f"kernel {', '.join(f'{x:.2f}' for x in kernels)}")


def cold(tree: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(tmp) / "numba-cache"
        cache.mkdir()
        wall, cpu = simulate(tree, ["--games", "1000", "--out", str(Path(tmp) / "run"), "-q"],
                             env={"NUMBA_CACHE_DIR": str(cache)})
    print(f"{tree}: cold first run (empty NUMBA_CACHE_DIR), simulate --games 1000: "
          f"wall {wall:.1f} s, CPU {cpu:.1f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default="1e6")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--cold", action="store_true", help="measure the cold first run instead")
    ap.add_argument("--tree", type=Path, default=ROOT, help="checkout to run (default: this one)")
    a = ap.parse_args()
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    if a.cold:
        cold(a.tree)
    else:
        end_to_end(a.tree, a.games, a.runs)


if __name__ == "__main__":
    main()
