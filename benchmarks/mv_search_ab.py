"""Médiévallons search A/B: a ``search16`` seat whose playouts play to the end (horizon 0) against
three balanced bots, this working tree's kernel against a git revision's, in one process.

Run: `.venv/bin/python benchmarks/mv_search_ab.py --rev main [--runs 40] [--games 6]`.

Why: `bench_search.py` times one kernel per process, and its games per CPU-second moved by a
third between back-to-back runs on the shared machine (docs/medievallons_engine.md, fifth pass).
Here both kernels are loaded as in `bench_kernel_ab.py` (its loader and its paired timing: the two
run alternately on one thread, ``--runs`` times ``--games`` games each, CPU time) and the median
of the per-pair ratios new/old and the ratio of the fastest runs are printed. The decision traces
of the same games are compared first (the search's playouts must leave every choice as it was).
Nothing is asserted.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

TO_THE_END = """[search16]
description = "search16 with its playouts played to the end of the game"
kind = "search"
playouts = 16
policy = "balanced"
select = "flat"
horizon = 0
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rev", default="main", help="git revision of the kernel to compare with")
    ap.add_argument("--runs", type=int, default=40)
    ap.add_argument("--games", type=int, default=6, help="games per run")
    a = ap.parse_args()
    import numba

    import bench_kernel_ab as B
    B.PACKAGE, B.FOLDER = "simcore.games.medievallons", "simcore/games/medievallons"
    numba.set_num_threads(1)
    import simcore.games  # noqa: F401  (the registry: the Numba cache stamps of the game folders)

    new = importlib.import_module("simcore.games.medievallons.driver")
    R = importlib.import_module("simcore.games.medievallons.rules")
    S = importlib.import_module("strategies.medievallons")
    rules = R.load()
    with tempfile.TemporaryDirectory() as tmp:
        table = Path(tmp) / "to_the_end.toml"
        table.write_text(TO_THE_END)
        old = B.load_kernel_at(a.rev, Path(tmp) / "old")
        _, rows = S.resolve([str(table), "balanced", "balanced", "balanced"], 4)
        for K in (old, new):                 # compile or load both first
            K.run_chunk(rules, 4, 0, 2, 0, rows)
        traces = [K.run_chunk(rules, 4, 0, a.games, 0, rows, trace_decisions=True)["trace"]
                  for K in (old, new)]
        print(f"decisions {'identical to' if traces[0] == traces[1] else 'DIFFER from'} {a.rev} "
              f"({a.games} games)")
        print(f"kernel at {a.rev} (old) vs working tree (new): 4 players, one thread, {a.runs} runs "
              f"each of {a.games} games (pairs in random order), CPU time")
        times = B.paired_times({"old": old, "new": new}, rules, 4, a.games, rows, a.runs)
        B.print_ratio("search16 to the end + 3 balanced", times, "old", a.games)


if __name__ == "__main__":
    main()
