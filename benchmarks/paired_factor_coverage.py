"""Coverage of the paired check's factor interval on rotated-seat deals (session 62): for every
cell of games per deal k, expected wins of the side that wins less and true factor, REPS paired
checks simulated with numpy (tests/rotated_pairs.py: deals of k games, ties split, a deal's luck
shared by its games and by both rule sets), each read as ``balance check --against-rules`` reads
it; prints the share of intervals holding the true factor with its binomial 95 % interval
(Wilson), the median width of the interval (log of high / low) and the share of checks without an
interval (a side that never won). Nothing is asserted; docs/ci.md quotes the table.

Run: ``.venv/bin/python benchmarks/paired_factor_coverage.py [REPS] [SCENARIO ...]`` (2000; the
scenarios ``rotated`` (the default), ``plain`` (independent games, no ties, independent sides)
and ``unrotated`` (k = 1: the games of an unrotated check, ties split)).
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from analysis.stats import wilson  # noqa: E402
from rotated_pairs import Cell, coverage  # noqa: E402

WINS = (3, 5, 10, 20, 50, 100, 200)
FACTORS = (1.0, 1.5, 3.0)
SCENARIOS = {
    "rotated": dict(ks=(2, 3, 4, 5), shared=0.8, deal_shape=1.0, ties=(0.2, 0.1)),
    "plain": dict(ks=(2, 4), shared=0.0, deal_shape=None, ties=None),
    "unrotated": dict(ks=(1,), shared=0.8, deal_shape=None, ties=(0.2, 0.1)),
}


def main() -> None:
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    names = sys.argv[2:] or ["rotated"]
    print("scenario k wins factor deals coverage (95% binomial) width none")
    for name in names:
        sc = SCENARIOS[name]
        for k in sc["ks"]:
            for factor in FACTORS:
                for wins in WINS:
                    cell = Cell(k, wins, factor, shared=sc["shared"], deal_shape=sc["deal_shape"],
                                ties=sc["ties"])
                    t = time.process_time()
                    hit, seen, width, none = coverage(cell, reps, seed=62_000 + 7 * k + wins)
                    lo, hi = wilson(hit, seen)
                    print(f"{name} {k} {wins} {factor:g} {cell.deals} {hit / seen:.3f} "
                          f"({float(lo):.3f}-{float(hi):.3f}) {width:.2f} {none:.3f} "
                          f"[{time.process_time() - t:.0f} s]", flush=True)


if __name__ == "__main__":
    main()
