"""False-alarm rate (and power) of the `balance check` procedure, measured on real Middle-Ages games.

For each of ``--seeds`` replications, two independent runs of the *unchanged* default configuration
(4 players, balanced bots, shipped rules) are played — a baseline run (seed 10_000 + 2i,
``--baseline-games``) and a check run (seed 10_000 + 2i + 1, ``--games``) —, both measured with
:func:`analysis.check.measure.measure` and compared with :func:`analysis.check.decision.compare`
exactly as ``balance check`` does. Every replication has a fresh baseline, so the baseline's own
sampling error is part of what is measured. From the same runs, by moving baseline values (which
moves the true difference by exactly that amount), it also measures:

* unchanged: how often the check FAILS (false alarm; bounded by α, expected ≈ 0), passes, or is
  inconclusive;
* boundary: every metric moved by exactly ± its tolerance (the least favourable case still
  "within tolerance"): how often the check FAILS (the family-wise false-alarm rate; ≤ α, and close
  to α only here), and the per-metric rates at which the unadjusted beyond-tolerance test rejects
  and the unadjusted equivalence test wrongly accepts (both ≈ α when the z statistics are calibrated);
* planted: Seat 2's win share moved by 2 points: how often the check FAILS (power).

    .venv/bin/python benchmarks/bench_check_false_alarms.py [--seeds 200] [--games 20000]
        [--baseline-games 20000] [--alpha 0.05] [--threads N] [--json FILE]

Prints a table (the numbers in docs/ci.md come from it). May import numpy, the standard library,
:mod:`simcore` and :mod:`analysis`.
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from analysis.check.decision import DEFAULT_ALPHA, MetricResult, compare  # noqa: E402
from analysis.check.measure import DEFAULT_TOLERANCE, Measurement, measure_run  # noqa: E402


def wilson(k: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    if n == 0:
        return float("nan"), float("nan")
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def cluster_interval(units: list[tuple[int, int]], z: float = 1.959964) -> tuple[float, float]:
    """95 % interval of a ratio Σx / Σk over independent units (k tests, x hits each): the ratio
    estimator's normal interval with the variance computed over units."""
    k = sum(u[0] for u in units)
    x = sum(u[1] for u in units)
    n = len(units)
    if n < 2 or k == 0:
        return float("nan"), float("nan")
    p = x / k
    kbar = k / n
    var = sum((xi - p * ki) ** 2 for ki, xi in units) / (n - 1) / (n * kbar * kbar)
    h = z * math.sqrt(var)
    return max(0.0, p - h), min(1.0, p + h)


def play(prep, games: int, seed: int, tmp: Path, threads: int | None) -> list[Measurement]:
    from simcore.runner import run

    out = tmp / f"run-{seed}"
    path = run(prep, games=games, seed=seed, out=out, raw=True, quiet=True, threads=threads)
    _, metrics = measure_run(path)
    shutil.rmtree(path)
    return metrics


def moved(metrics: list[Measurement], by: dict[tuple[str, str], float]) -> list[Measurement]:
    return [replace(m, value=m.value + by.get((m.metric, m.key), 0.0)) for m in metrics]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=200)
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--baseline-games", type=int, default=20_000)
    ap.add_argument("--alpha", type=float, default=DEFAULT_ALPHA)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args(argv)

    from simcore.runner import prepare

    prep = prepare("middle-ages", players=4, strategies="balanced")
    counts = {"unchanged": {"pass": 0, "fail": 0, "inconclusive": 0},
              "boundary": {"pass": 0, "fail": 0, "inconclusive": 0},
              "planted": {"pass": 0, "fail": 0, "inconclusive": 0}}
    metric_tests = 0
    beyond_rejects = 0
    within_accepts = 0
    per_rep: list[tuple[int, int, int]] = []   # (metrics, beyond rejections, equivalence acceptances)
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bench-check-") as tmp_name:
        tmp = Path(tmp_name)
        for i in range(args.seeds):
            base = play(prep, args.baseline_games, 10_000 + 2 * i, tmp, args.threads)
            run = play(prep, args.games, 10_000 + 2 * i + 1, tmp, args.threads)
            tol = [DEFAULT_TOLERANCE[m.metric] for m in base]
            res = compare(base, run, tol, args.alpha)
            counts["unchanged"][verdict(res)] += 1
            # Least favourable "within tolerance" case: every true difference exactly ± tolerance
            # (alternating signs so that seat win shares still move in both directions).
            edge = {(m.metric, m.key): (t if j % 2 else -t) for j, (m, t) in enumerate(zip(base, tol))}
            res_edge = compare(moved(base, edge), run, tol, args.alpha)
            counts["boundary"][verdict(res_edge)] += 1
            rej = sum(r.p_beyond < args.alpha for r in res_edge)
            acc = sum(r.p_within < args.alpha for r in res_edge)
            per_rep.append((len(res_edge), rej, acc))
            metric_tests += len(res_edge)
            beyond_rejects += rej
            within_accepts += acc
            planted = compare(moved(base, {("seat_win_share", "Seat 2"): 2.0}), run, tol, args.alpha)
            counts["planted"][verdict(planted)] += 1
            if (i + 1) % 20 == 0:
                el = time.perf_counter() - t0
                print(f"  {i + 1}/{args.seeds} replications, {el:.0f} s; unchanged fails "
                      f"{counts['unchanged']['fail']}, boundary fails {counts['boundary']['fail']}",
                      file=sys.stderr, flush=True)
    n = args.seeds
    wall = time.perf_counter() - t0
    print(f"\nbalance check error rates: {n} replications of the unchanged default Middle-Ages "
          f"configuration,\n{args.baseline_games:,} baseline games vs {args.games:,} check games, "
          f"alpha {args.alpha:g}, tolerances {DEFAULT_TOLERANCE}; {wall:.0f} s\n")
    rows = []
    for scen, label in (("unchanged", "unchanged configuration"),
                        ("boundary", "every metric exactly at ± tolerance"),
                        ("planted", "Seat 2 win share moved by 2 points")):
        c = counts[scen]
        lo, hi = wilson(c["fail"], n)
        rows.append({"scenario": scen, "fail": c["fail"], "pass": c["pass"],
                     "inconclusive": c["inconclusive"], "n": n, "fail_rate": c["fail"] / n,
                     "fail_ci": [lo, hi]})
        print(f"{label:<40} FAIL {c['fail']:>4}/{n} = {c['fail'] / n:6.1%} (95% {lo:.1%}–{hi:.1%})   "
              f"pass {c['pass']:>4}   inconclusive {c['inconclusive']:>4}")
    # The metrics of one replication are correlated (seat win shares sum to 100 %), so the interval
    # of a per-metric rate is taken over replications (cluster-robust), not over 8 × n tests.
    blo, bhi = cluster_interval([(k, x) for k, x, _ in per_rep])
    wlo, whi = cluster_interval([(k, y) for k, _, y in per_rep])
    print(f"\nper metric at the boundary ({metric_tests} tests in {n} replications, unadjusted, "
          f"level {args.alpha:g}; 95% intervals over replications):")
    print(f"  beyond-tolerance test rejects   {beyond_rejects / metric_tests:6.2%} ({blo:.2%}–{bhi:.2%})")
    print(f"  equivalence test accepts        {within_accepts / metric_tests:6.2%} ({wlo:.2%}–{whi:.2%})")
    if args.json is not None:
        args.json.write_text(json.dumps({
            "seeds": n, "games": args.games, "baseline_games": args.baseline_games, "alpha": args.alpha,
            "scenarios": rows, "metric_tests": metric_tests, "beyond_rejects": beyond_rejects,
            "within_accepts": within_accepts, "beyond_ci": [blo, bhi], "within_ci": [wlo, whi],
            "per_replication": per_rep, "wall_s": round(wall, 1)}, indent=2) + "\n")
    return 0


def verdict(results: list[MetricResult]) -> str:
    if any(r.verdict == "fail" for r in results):
        return "fail"
    return "pass" if all(r.verdict == "pass" for r in results) else "inconclusive"


if __name__ == "__main__":
    raise SystemExit(main())
