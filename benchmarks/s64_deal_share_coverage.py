"""Coverage of the strategy table's win-share interval on rotated-seat runs at small shares
(session 64, task 293): REPS simulated runs of DEALS deals × 4 rotations, a bot on one seat of
each game, its per-deal mean shares read as :func:`analysis.matchups._interval` reads a paired
strategy (:func:`analysis.stats.share_mean_interval` with the run's player rows as ``games``, that
is :func:`analysis.stats.share_mean_wilson`: Wilson's at the deals' effective number of games
with the Student t(D − 1) critical value).

For comparison, computed with scipy/statsmodels (not the toolkit's code), on the same runs: the
plain Student t interval on the deal means (mean ± t(D − 1)·sd/√D) and Wilson's score interval on
the games ignoring the deals (statsmodels ``proportion_confint(method="wilson")`` of the wins in
4·D games). To tell the causes of a shortfall apart: ``toolkit, z``, the toolkit's interval with
the normal critical value in place of t(D − 1)'s; ``toolkit, true sd``, with the deals' true
design effect in place of the estimated one (n_eff = p(1 − p)·D/sd², sd a deal's true standard
deviation; without deal luck that is Wilson's over the 4·D games at the t level), which removes
the variance estimate's own noise. ``proposal: mid-p`` is the change docs/analysis.md proposes
(not made): the toolkit's interval with its lower end no higher than the mid-p exact lower bound
of m·n_eff wins in n_eff games.

After the table, without Monte Carlo error: the exact coverage (binomial sums over the wins in 4·D
independent games) of Wilson's interval at the t(D − 1) level at the four shares, then over a grid
of true shares (0.4–6 %, 20–50 %) that of Wilson's (the toolkit's :func:`analysis.stats.wilson`)
and of the same with its lower end floored at Clopper–Pearson's or at the mid-p bound: the lowest
and mean coverage, the largest miss on each side and the mean width at the four shares.

Per true share (0.5 %, 1 %, 2 %, 5 %), without and with deal luck (a deal's win chance p·g, g
drawn from a Gamma(1) for the deal and shared by its 4 rotations), at 100 and 300 deals, it prints
each interval's coverage with its Monte Carlo error (the binomial standard error √(c(1 − c)/REPS))
and the misses split: ``truth<lo`` (the interval lies above the true share) and ``truth>hi``
(below it). Nothing is asserted; docs/analysis.md ("Intervals and tests") quotes the table. numpy
only for the games (seeded): no game is played.

Run: ``.venv/bin/python benchmarks/s64_deal_share_coverage.py [REPS] [CHUNK]`` (20000, 5000; about
150 s of CPU; docs/analysis.md quotes ``20000 5000``).
"""
from __future__ import annotations

import sys
import time

import numpy as np
from scipy import stats as sps
from scipy.special import betainc
from statsmodels.stats.proportion import proportion_confint

from analysis import stats

ROTATIONS = 4
SHARES = (0.005, 0.01, 0.02, 0.05)
DEALS = (100, 300)
LUCK = (False, True)


def simulate(rng: np.random.Generator, p: float, luck: bool, reps: int, deals: int) -> np.ndarray:
    """reps × deals per-deal wins (0 … 4) of a bot on one seat of each of a deal's 4 rotations."""
    chance = np.full((reps, deals), p)
    if luck:
        chance = np.minimum(p * rng.gamma(1.0, 1.0, size=(reps, deals)), 1.0)
    return rng.binomial(ROTATIONS, chance)


def true_sd(p: float, luck: bool) -> float:
    """The standard deviation of one deal's mean share (X/4, X ~ Binomial(4, p·g)): Var(X/4) =
    E[q(1 − q)]/4 + Var(q), q = p·g; g ~ Gamma(1): E[q] = p, E[q²] = 2p², Var(q) = p²."""
    if not luck:
        return float(np.sqrt(p * (1 - p) / ROTATIONS))
    return float(np.sqrt((p - 2 * p * p) / ROTATIONS + p * p))


def intervals(wins: np.ndarray, p: float, luck: bool) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """The intervals of each run (row of ``wins``)."""
    reps, deals = wins.shape
    x = wins / ROTATIONS
    mean, sd = x.mean(axis=1), x.std(axis=1, ddof=1)
    games = float(deals * ROTATIONS)
    out = {"toolkit": stats.share_mean_interval(mean, sd, np.full(reps, float(deals)),
                                                games=np.full(reps, games))}
    half = sps.t.ppf(0.975, deals - 1) * sd / np.sqrt(deals)
    out["t on deals"] = (mean - half, mean + half)
    out["Wilson on games"] = proportion_confint(wins.sum(axis=1), games, alpha=0.05, method="wilson")
    # causes: the t critical value (normal level 0.95 instead), the variance estimate's noise
    # (the true per-deal sd, so n_eff = m(1 − m)D / sd_true²)
    out["toolkit, z"] = _wilson_at_neff(mean, sd, deals, 0.95)
    # (the deals' true design effect: n_eff = p(1 − p)·D/sd_true², the games' count without luck)
    known = true_sd(p, luck) * np.sqrt(mean * (1 - mean) / (p * (1 - p)))
    out["toolkit, true sd"] = _wilson_at_neff(mean, known, deals, None)
    # the proposal (docs/analysis.md): the toolkit's interval, its lower end no higher than the
    # mid-p exact lower bound of m·n_eff successes in n_eff games
    lo, hi = out["toolkit"]
    level = 1.0 - 2.0 * stats.normal_sf(stats.t_quantile(deals - 1.0, 0.95))
    m = np.clip(mean, 0.0, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        neff = np.where(sd > 0, m * (1 - m) * deals / (sd * sd), games)
    out["proposal: mid-p"] = (np.minimum(lo, midp_lower(m * neff, neff, (1 - level) / 2)), hi)
    return out


def midp_lower(x, n, q):
    """The mid-p exact lower bound of ``x`` successes (fractional allowed) in ``n`` trials at
    one-sided level ``q``: p with P(X > x) + ½P(X = x) = q, P(X ≥ x) = I_p(x, n − x + 1) (0 where
    x is 0), by bisection on the regularized incomplete beta (vectorised)."""
    x, n = np.broadcast_arrays(np.asarray(x, dtype=float), np.asarray(n, dtype=float))
    ok = (x > 0) & (n - x > 0)
    xs, ns = np.where(ok, x, 1.0), np.where(ok, n, 3.0)
    lo, hi = np.zeros(x.shape), xs / ns
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        f = 0.5 * (betainc(xs, ns - xs + 1, mid) + betainc(xs + 1, ns - xs, mid))
        lo, hi = np.where(f < q, mid, lo), np.where(f < q, hi, mid)
    return np.where(ok, 0.5 * (lo + hi), 0.0)


def _wilson_at_neff(mean, sd, deals, level):
    """share_mean_wilson's reading with ``level`` the normal level (None: t(D − 1)'s), sd > 0."""
    if level is None:
        return stats.share_mean_wilson(mean, sd, deals, games=deals * ROTATIONS)
    m = np.clip(mean, 0.0, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        neff = m * (1 - m) * deals / (sd * sd)
    lo, hi = stats.wilson(m * neff, neff, level)
    # (no spread: every deal lost; Wilson over the games, as the toolkit reads it)
    none = ~(sd > 0)
    if np.any(none):
        wl, wh = stats.wilson(0.0, deals * ROTATIONS, level)
        lo, hi = np.where(none, wl, lo), np.where(none, wh, hi)
    return lo, hi


def main() -> None:
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    chunk = int(sys.argv[2]) if len(sys.argv) > 2 else 5000
    err = np.sqrt(0.95 * 0.05 / reps)
    print(f"{reps} simulated runs a row, {ROTATIONS} rotations a deal; Monte Carlo error of a "
          f"coverage near 95 %: {100 * err:.2f} pp")
    print(f"{'deals':>5} {'luck':>4} {'share':>6}  {'interval':17s} {'coverage':>15} "
          f"{'truth<lo':>8} {'truth>hi':>8} {'mean width':>10}")
    t0 = time.process_time()
    for i, deals in enumerate(DEALS):
        for j, luck in enumerate(LUCK):
            for k, p in enumerate(SHARES):
                rng = np.random.default_rng(29300 + 100 * i + 10 * j + k)
                tally: dict[str, np.ndarray] = {}
                for start in range(0, reps, chunk):
                    wins = simulate(rng, p, luck, min(chunk, reps - start), deals)
                    for name, (lo, hi) in intervals(wins, p, luck).items():
                        t = np.array([np.sum(lo > p), np.sum(hi < p), np.sum(hi - lo)])
                        tally[name] = tally.get(name, 0) + t
                for name, (below, above, width) in tally.items():
                    c = 1 - (below + above) / reps
                    print(f"{deals:5d} {'yes' if luck else 'no':>4} {100 * p:5.1f}%  {name:17s} "
                          f"{100 * c:6.2f} ± {100 * np.sqrt(c * (1 - c) / reps):4.2f} %"
                          f" {100 * below / reps:7.2f}% {100 * above / reps:7.2f}% "
                          f"{100 * width / reps:9.3f}pp")
    print("exact coverage of Wilson over the 4·D games with the t(D − 1) critical value, "
          "no deal luck (the 'toolkit, true sd' rows' limit):")
    for deals in DEALS:
        n = deals * ROTATIONS
        level = 1.0 - 2.0 * stats.normal_sf(stats.t_quantile(deals - 1.0, 0.95))
        k = np.arange(n + 1)
        lo, hi = stats.wilson(k.astype(float), float(n), level)
        for p in SHARES:
            pmf = sps.binom.pmf(k, n, p)
            print(f"{deals:5d} deals, {100 * p:.1f}%: {100 * pmf[(lo <= p) & (p <= hi)].sum():.2f} % "
                  f"(truth<lo {100 * pmf[lo > p].sum():.2f} %, truth>hi {100 * pmf[hi < p].sum():.2f} %)")
    print("exact coverage over a grid of true shares (binomial sums, 4·D independent games, the t(D − 1) "
          "level): Wilson's (the toolkit's stats.wilson), its lower end floored at Clopper-Pearson's, "
          "and at the mid-p bound (the proposal)")
    for deals in DEALS:
        n = deals * ROTATIONS
        level = 1.0 - 2.0 * stats.normal_sf(stats.t_quantile(deals - 1.0, 0.95))
        k = np.arange(n + 1.0)
        lo, hi = stats.wilson(k, float(n), level)
        cp = np.where(k > 0, sps.beta.ppf((1 - level) / 2, np.maximum(k, 1e-9), n - k + 1), 0.0)
        mp = np.where(k < n, midp_lower(k, float(n), (1 - level) / 2), lo)
        for name, low in (("Wilson", lo), ("low <= Clopper-Pearson", np.minimum(lo, cp)),
                          ("low <= mid-p", np.minimum(lo, mp))):
            for part, ps in (("0.4-6%", np.linspace(0.004, 0.06, 1121)),
                             ("20-50%", np.linspace(0.2, 0.5, 301))):
                pmf = sps.binom.pmf(k[None, :], n, ps[:, None])
                cov = (pmf * ((low[None, :] <= ps[:, None]) & (ps[:, None] <= hi[None, :]))).sum(axis=1)
                below = (pmf * (low[None, :] > ps[:, None])).sum(axis=1)
                above = (pmf * (hi[None, :] < ps[:, None])).sum(axis=1)
                print(f"{deals:5d} deals {name:24s} shares {part}: coverage min {100 * cov.min():.2f} %, "
                      f"mean {100 * cov.mean():.2f} %; misses a side at most: truth<lo "
                      f"{100 * below.max():.2f} %, truth>hi {100 * above.max():.2f} %")
            widths = [(sps.binom.pmf(k, n, p) * (hi - low)).sum() for p in SHARES]
            print(f"{'':11s} mean width at {', '.join(f'{100 * p:g}' for p in SHARES)} %: "
                  + ", ".join(f"{100 * w:.3f}" for w in widths) + " pp")
    print(f"({time.process_time() - t0:.0f} s CPU)")


if __name__ == "__main__":
    main()
