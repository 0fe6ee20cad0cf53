"""Coverage of the strategy table's win-share interval on rotated-seat runs where a bot rarely
wins (session 64): REPS simulated runs of DEALS deals × 4 rotations, each read as
:func:`analysis.matchups.strategy_table` reads it (:func:`analysis.matchups._interval` of the
per-deal mean shares) before session 64 (a run whose deals have no spread, every deal lost: Wilson
over the deals) and now (Wilson over the bot's player rows with the t(n − 1) critical value).
Prints, per scenario and true share, the coverage with its binomial 95 % interval (Wilson), the
misses above and below the interval, the share of runs with no win (where the two differ) and
the mean upper end. Nothing is asserted; docs/analysis.md ("Intervals and tests") quotes the
table. numpy only for the games (seeded): no game is played.

Scenarios: ``plain`` (one seat a game, independent games), ``luck`` (one seat, a deal's luck
Gamma(1) multiplying its games' win chance, so a deal's games are correlated as a rotated
deal's are), ``two-seats`` (the bot on 2 of the 4 seats: a game is won by one of them with
chance 2p, its share of that game ½; the truth is p per seat).

Run: ``.venv/bin/python benchmarks/s64_no_spread_coverage.py [REPS] [DEALS]`` (2000, 300).
"""
from __future__ import annotations

import sys
import time

import numpy as np

from analysis import matchups, stats

ROTATIONS = 4
SHARES = (0.001, 0.002, 0.0035, 0.005, 0.01)      # 0.35 %: just above the 0-win upper end now (0.32 %)


def per_deal_shares(rng: np.random.Generator, scenario: str, p: float, reps: int, deals: int):
    """(reps × deals per-deal mean shares of the bot, its player rows a run)."""
    if scenario == "plain":
        return rng.binomial(ROTATIONS, p, size=(reps, deals)) / ROTATIONS, deals * ROTATIONS
    if scenario == "luck":
        g = rng.gamma(1.0, 1.0, size=(reps, deals))
        return rng.binomial(ROTATIONS, np.minimum(p * g, 1.0)) / ROTATIONS, deals * ROTATIONS
    if scenario == "two-seats":
        won = rng.binomial(ROTATIONS, 2 * p, size=(reps, deals))      # games one of its seats won
        return won / (2.0 * ROTATIONS), deals * ROTATIONS * 2
    raise ValueError(scenario)


def read(per_deal: np.ndarray, rows: float | None):
    """(low, high) per run, as the strategy table reads a paired strategy (``rows`` None: before
    session 64, the no-spread case over the deals)."""
    mean = per_deal.mean(axis=1)
    m2 = ((per_deal - mean[:, None]) ** 2).sum(axis=1)
    mom = stats.Moments(np.full(mean.shape, float(per_deal.shape[1])), mean, m2)
    games = None if rows is None else np.full(mean.shape, float(rows))
    _, lo, hi = matchups._interval(per_deal.sum(axis=1), mom, mom.n, np.zeros(mean.shape, dtype=bool),
                                   games=games)
    return lo, hi


def main() -> None:
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    deals = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    print(f"{reps} runs of {deals} deals x {ROTATIONS} rotations each")
    print("scenario   share  no-win  | before: coverage (95%)      high  low   upper | "
          "now: coverage (95%)         high  low   upper")
    t0 = time.process_time()
    for k, scenario in enumerate(("plain", "luck", "two-seats")):
        for j, p in enumerate(SHARES):
            rng = np.random.default_rng(6400 + 10 * k + j)
            per_deal, rows = per_deal_shares(rng, scenario, p, reps, deals)
            none = float(np.mean(per_deal.sum(axis=1) == 0))
            cols = []
            for r in (None, rows):
                lo, hi = read(per_deal, r)
                cover = (lo <= p) & (p <= hi)
                c = int(cover.sum())
                wl, wh = stats.wilson(c, reps)
                cols.append(f"{c / reps:.3f} ({float(wl):.3f}-{float(wh):.3f})  {np.mean(hi < p):.3f} "
                            f"{np.mean(lo > p):.3f} {100 * float(hi.mean()):.2f}%")
            print(f"{scenario:10s} {100 * p:.2f}% {none:.3f}   | " + " | ".join(cols))
    print(f"({time.process_time() - t0:.0f} s CPU)")


if __name__ == "__main__":
    main()
