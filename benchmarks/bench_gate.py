"""Error rates and games to a decision of `balance check`: fixed-N, sequential and paired designs.

Usage (figures in docs/ci.md)::

    .venv/bin/python benchmarks/bench_gate.py --reps 400 --real-seeds 200

What is measured, against the committed baseline configs/baselines/middle_ages_default.toml
(4 players, balanced bots, tolerance ±1 point / ±1 coin, α = β = 0.05):

* **Simulated from real games** (``--reps`` repetitions per scenario and design): the per-game
  outcomes of the 8 checked metrics are resampled (bootstrap, i.i.d. with replacement) from a pool of
  ``--pool`` real games of the default configuration, recentred so that each metric's true change is
  exactly what the scenario says; the baseline value carries a fresh error N(0, se_base²) per
  repetition (the committed baseline's se, i.e. its 200,000 games). Paired mode resamples real
  *paired* differences (Palais base income 4 vs 3 on the same deals, ``--pool`` games each, the
  variance and correlation of a real small rules change), recentred the same way. Scenarios:
  unchanged (Δ = 0), every metric at +tolerance (the least favourable "within tolerance" case: the
  false-alarm bound α is reached only there), one metric (Seat 2 win share) at twice its tolerance
  (power, β). Designs: **fixed-N** (the fixed-size test of the same hypotheses at the games of the
  power calculation, :func:`analysis.check.decision.fixed_n_verdict`), **sequential** (the SPRT of
  :class:`analysis.check.decision.SequentialTest`, batches and maximum as `balance check` uses
  them), **paired** (the same SPRT on the paired differences) and **unpaired** (the same SPRT on
  differences of the two rule sets played on different deals: what paired mode saves).
* **Real kernels**: the clear regression Palais base income 3 → 6, checked with ``--real-seeds``
  seeds (the check's seed + i), sequential and paired, exactly as `balance check` runs (and with
  looks every 500 games, to see how early it is decided); and the
  unchanged configuration against the committed baseline with the same seeds (its false alarms are
  those of *this* baseline, whose own error is fixed).
"""

from __future__ import annotations

import argparse
import json
import zlib
import math
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from analysis import stats  # noqa: E402
from analysis.check.baseline import load_baseline  # noqa: E402
from analysis.check.decision import (SequentialTest, default_batch, fixed_n_verdict, plan_games)  # noqa: E402
from analysis.check.measure import Measurement  # noqa: E402
from analysis.check.play import _batch_values, _prepare, play_check  # noqa: E402

BASELINE = ROOT / "configs" / "baselines" / "middle_ages_default.toml"
RULES = ROOT / "configs" / "middle_ages" / "rules.toml"


def palais(base: int, where: Path) -> Path:
    text = RULES.read_text(encoding="utf-8")
    out = where / f"palais{base}.toml"
    out.write_text(text.replace("[income.palais]\nbase = 3", f"[income.palais]\nbase = {base}"), encoding="utf-8")
    return out


def pool(base, rules, games: int, seed: int) -> np.ndarray:
    prep = _prepare(base, rules)
    prep.warmup()
    wanted = [(m.metric, m.key) for m in base.metrics]
    return _batch_values(prep, 0, games, seed, wanted, chunk=1 << 16)


def _meas(values, ses, n, base) -> list[Measurement]:
    return [Measurement(b.metric, b.key, b.label, float(v), float(v), float(v), float(s), int(n))
            for b, v, s in zip(base.metrics, values, ses)]


def simulate(design: str, shift: np.ndarray, x: np.ndarray, base, reps: int, seed: int,
             fixed_games: int, max_games: int, batch: int) -> list[tuple[str, int]]:
    """Outcomes (verdict, games) of ``reps`` checks on resampled per-game values ``x`` whose true
    change is ``shift`` (per metric, in the metric's unit)."""
    rng = np.random.default_rng(seed)
    tol = np.array(base.tolerances())
    mu = x.mean(axis=0)
    centred = x - mu                                   # true mean 0 in the resampling world
    base_se = np.array([m.se for m in base.metrics])
    k = len(base.metrics)
    out = []
    for _ in range(reps):
        if design == "fixed":
            idx = rng.integers(0, len(x), fixed_games)
            s = centred[idx]
            d = s.mean(axis=0) + shift - rng.normal(0, base_se)
            se = np.sqrt(s.var(axis=0, ddof=1) / fixed_games + base_se ** 2)
            v = [fixed_n_verdict(d[j], se[j], tol[j], base.alpha, k) for j in range(k)]
            out.append(("fail" if "fail" in v else "pass", fixed_games))
            continue
        paired = design in ("paired", "unpaired")
        b_err = np.zeros(k) if paired else rng.normal(0, base_se)
        test = SequentialTest(k, base.alpha, base.beta)
        mom = stats.Moments.zeros(k)
        n = 0
        while n < max_games:
            step = min(batch, max_games - n)
            mom = mom.merge(stats.Moments.of_columns(centred[rng.integers(0, len(x), step)] + shift))
            n += step
            mean, sd = mom.mean_sd()
            se_run = sd / math.sqrt(n)
            if paired:
                zero = _meas(np.zeros(k), np.zeros(k), n, base)
                test.look(zero, _meas(mean, se_run, n, base), list(tol), n, diff=_meas(mean, se_run, n, base))
            else:
                bm = _meas(b_err, base_se, 200_000, base)     # run − baseline = mean − b_err
                test.look(bm, _meas(mean, se_run, n, base), list(tol), n)
            if test.verdict != "undecided":
                break
        out.append((test.verdict, n))
    return out


def summary(outcomes: list[tuple[str, int]]) -> dict:
    n = len(outcomes)
    games = np.array([g for _, g in outcomes])
    row = {"reps": n, "mean_games": float(games.mean()), "p95_games": float(np.percentile(games, 95))}
    for v in ("fail", "pass", "undecided"):
        c = sum(1 for x, _ in outcomes if x == v)
        lo, hi = stats.wilson(c, n)
        row[v] = c
        row[f"{v}_rate"] = c / n
        row[f"{v}_ci"] = [float(lo), float(hi)]
    return row


def fmt(row: dict) -> str:
    def r(v):
        lo, hi = row[f"{v}_ci"]
        return f"{100 * row[f'{v}_rate']:.1f} % ({100 * lo:.1f}–{100 * hi:.1f})"
    return (f"fail {r('fail')} | pass {r('pass')} | undecided {100 * row['undecided_rate']:.1f} % | "
            f"games mean {row['mean_games']:,.0f}, p95 {row['p95_games']:,.0f}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=400)
    ap.add_argument("--pool", type=int, default=300_000)
    ap.add_argument("--real-seeds", type=int, default=200)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args(argv)
    import tempfile

    base = load_baseline(BASELINE)
    tol = np.array(base.tolerances())
    plan = plan_games(base.metrics, list(tol), base.alpha, base.beta)
    max_games = base.max_games()
    batch = base.batch or default_batch(max_games)
    print(f"baseline {BASELINE.name}: fixed-N {plan.fixed_games:,} games, sequential maximum {max_games:,}, "
          f"batch {batch:,}", flush=True)
    results: dict = {"fixed_games": plan.fixed_games, "max_games": max_games, "batch": batch}
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        x = pool(base, None, args.pool, seed=777)
        x4 = pool(base, palais(4, tmp), args.pool, seed=778)
        x3 = pool(base, None, args.pool, seed=778)
        d = x4 - x3
        # the same two rule sets on *different* deals: the pairing broken by a fixed permutation
        unpaired = x4[np.random.default_rng(5).permutation(len(x4))] - x3
        print(f"pools played in {time.perf_counter() - t0:.0f} s; paired sd / unpaired sd per metric: "
              + ", ".join(f"{a:.2f}" for a in d.std(axis=0) / x.std(axis=0)), flush=True)
        results["paired_sd_ratio"] = (d.std(axis=0) / x.std(axis=0)).tolist()
        k = len(tol)
        power = np.zeros(k)
        power[1] = 2 * tol[1]
        scenarios = {"unchanged": np.zeros(k), "at_tolerance": tol.copy(), "twice_tolerance_seat2": power}
        results["simulated"] = {}
        for name, shift in scenarios.items():
            for design, data in (("fixed", x), ("sequential", x), ("paired", d), ("unpaired", unpaired)):
                t = time.perf_counter()
                out = simulate(design, shift, data, base, args.reps, seed=zlib.crc32(f"{name}/{design}".encode()),
                               fixed_games=plan.fixed_games, max_games=max_games, batch=batch)
                row = summary(out)
                results["simulated"][f"{name}/{design}"] = row
                print(f"{name:>22} {design:>10}: {fmt(row)}  [{time.perf_counter() - t:.0f} s]", flush=True)
        # Real kernels: Palais 3 → 6 and the unchanged configuration, seeds check_seed + i
        p6 = palais(6, tmp)
        real = {}
        for name, kw in (("palais6/sequential", {"rules": p6}), ("palais6/paired", {"rules": p6, "against_rules": RULES}),
                         ("palais6/sequential batch 500", {"rules": p6, "batch": 500}),
                         ("palais6/paired batch 500", {"rules": p6, "against_rules": RULES, "batch": 500}),
                         ("unchanged/sequential", {})):
            t = time.perf_counter()
            out = []
            for i in range(args.real_seeds):
                res = play_check(base, seed=base.check_seed + i, **kw)
                out.append((res.verdict, res.games))
            row = summary(out)
            real[name] = row
            print(f"{'real ' + name:>28}: {fmt(row)}  [{time.perf_counter() - t:.0f} s]", flush=True)
        results["real"] = real
    results["seconds"] = time.perf_counter() - t0
    if args.json:
        args.json.write_text(json.dumps(results, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
