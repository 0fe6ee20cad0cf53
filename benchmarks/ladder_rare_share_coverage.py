"""Coverage of the ladder's cell interval at a rare (or near-certain) win share (session 64): a cell
of DEALS deals × 3 rotations whose every game the row bot wins with chance p, independently (the
simplest model of a ladder cell: no deal effect, no seat effect), read by the ladder's own
function (:func:`analysis.ladder.deal_interval`: Wilson's at the deals' effective number of games
with the Student t(D − 1) critical value, :func:`analysis.stats.share_mean_wilson`). For each p it
prints

* the simulated coverage over REPS cells (numpy, seeded) with its Monte Carlo standard error
  √(c(1 − c)/REPS), and the share of misses below and above the interval;
* the exact coverage: the interval depends on a cell only through how many deals were won 1, 2
  or 3 times, so the sum of the multinomial probabilities of those counts whose interval holds p
  (counts up to a total of wins whose remaining probability is below 1e-9; the mass left out is
  printed and is counted as a miss).

Nothing is asserted; docs/analysis.md ("Intervals and tests") quotes the table and
tests/analysis/test_s64_rare_share_interval.py asserts the exact coverage at 0.1 %.

Run: ``.venv/bin/python benchmarks/ladder_rare_share_coverage.py [REPS] [DEALS]`` (3000, 334).
"""
from __future__ import annotations

import math
import sys
import time

import numpy as np

from analysis import ladder

SHARES = (0.0005, 0.001, 0.002, 0.003, 0.005, 0.01, 0.999)


def _cell(counts: tuple[int, int, int], deals: int) -> np.ndarray:
    """deals × 3 wins (0/1) with counts[j − 1] deals won j times (the order of deals and games
    does not change the interval)."""
    s = np.zeros((deals, 3))
    row = 0
    for j, c in enumerate(counts, start=1):
        s[row:row + c, :j] = 1.0
        row += c
    return s


def exact_coverage(p: float, deals: int = 334, tail: float = 1e-9) -> tuple[float, float, float]:
    """(coverage, below, left out): the exact chance that the ladder's interval of a cell of
    ``deals`` deals × 3 independent games of chance ``p`` holds p, the chance it lies wholly
    above p, and the probability of the configurations not enumerated (counted as misses)."""
    flip = p > 0.5                        # near 1: count the losses (the interval mirrors)
    q = 1.0 - p if flip else p
    probs = [math.comb(3, j) * q ** j * (1 - q) ** (3 - j) for j in range(4)]
    logs = [math.log(v) for v in probs]
    lam = 3 * deals * q
    top = int(lam + 12 * math.sqrt(lam) + 20)        # far beyond the tail asked for
    covered = below = total = 0.0
    for n3 in range(top // 3 + 1):
        for n2 in range((top - 3 * n3) // 2 + 1):
            for n1 in range(top - 3 * n3 - 2 * n2 + 1):
                n0 = deals - n1 - n2 - n3
                if n0 < 0:
                    continue
                lp = (math.lgamma(deals + 1) - sum(math.lgamma(c + 1) for c in (n0, n1, n2, n3))
                      + n0 * logs[0] + n1 * logs[1] + n2 * logs[2] + n3 * logs[3])
                w = math.exp(lp)
                if w < 1e-300:
                    continue
                s = _cell((n1, n2, n3), deals)
                _, _, lo, hi = ladder.deal_interval(1.0 - s if flip else s)
                total += w
                if lo <= p <= hi:
                    covered += w
                elif (lo > p) != flip:                   # the interval above a rare share
                    below += w
    return covered, below, 1.0 - total


def simulated_coverage(p: float, reps: int, deals: int, seed: int = 64) -> tuple[float, float, float]:
    """(coverage, below, above) over ``reps`` simulated cells."""
    rng = np.random.default_rng(seed)
    wins = (rng.random((reps, deals, 3)) < p).astype(float)
    got = np.array([ladder.deal_interval(w)[2:] for w in wins])
    below = float(np.mean(got[:, 0] > p))
    above = float(np.mean(got[:, 1] < p))
    return 1.0 - below - above, below, above


def main() -> None:
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    deals = int(sys.argv[2]) if len(sys.argv) > 2 else 334
    print(f"{deals} deals x 3 independent games, {reps} simulated cells per share")
    print("true share | simulated coverage (MC se) miss: interval above / below p | exact coverage "
          "(interval above p; mass not enumerated)")
    for p in SHARES:
        t0 = time.process_time()
        c, b, a = simulated_coverage(p, reps, deals)
        se = math.sqrt(c * (1 - c) / reps)
        ec, eb, left = exact_coverage(p, deals)
        print(f"{100 * p:6.2f}% | {100 * c:5.1f}% ({100 * se:.1f}) {100 * b:4.1f}% / {100 * a:4.1f}% | "
              f"{100 * ec:6.2f}% ({100 * eb:.2f}%; {left:.1e})   [{time.process_time() - t0:.1f} s CPU]")


if __name__ == "__main__":
    main()
