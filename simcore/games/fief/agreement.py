"""Monte Carlo against exact odds (``balance fief-odds --method both``, FF-7): exact tests.

Each cell of a grid holds n Monte Carlo combats. Two figures are tested against the exact model:

- the attacker's wins, a binomial count under the exact P(attacker wins);
- the combat's rounds, summed over the n combats, under the exact distribution of one combat's
  rounds (:func:`simcore.games.fief.exact.rounds_pmf_grid`).

Both are sums of n independent draws of a small integer with a known distribution, and
:func:`sum_tails` gives the exact probabilities of a sum at most and at least the one observed (no
normal law: a cell whose odds are 0.999998 and which saw one loss in 2,000 combats, or where 2
long combats in 2,000 move the mean, is judged by its real odds). A cell's two-sided p is twice
the smaller tail (at most 1); :func:`agreement` takes the smallest p over all the grid's tests and
adjusts it by Bonferroni (times the number of tests, at most 1): below 0.05 the line says Monte
Carlo and exact disagree. With a correct kernel that happens at most 1 time in 20 whatever the
dependence between tests (discrete tests are conservative: measured about 1 time in 35 on the
2,000-combat 20 x 12 x 3 grid, docs/fief.md).

May import numpy and polars.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl

ALPHA = 0.05


def _tilt(logp: np.ndarray, j: np.ndarray, theta: float):
    """The pmf exp(logp) tilted by exp(theta j): (log of its normaliser K(theta), tilted pmf,
    mean, variance)."""
    w = logp + theta * j
    top = w.max()
    e = np.exp(w - top)
    total = e.sum()
    q = e / total
    mean = float((q * j).sum())
    var = float((q * (j - mean) ** 2).sum())
    return top + math.log(total), q, mean, var


def _solve_tilt(logp: np.ndarray, j: np.ndarray, target: float) -> float:
    """theta whose tilted mean is ``target`` (strictly inside the support), by safeguarded
    Newton steps; it need not be exact: any theta gives exact tails (:func:`sum_tails`), a close
    one only centres the window well."""
    lo, hi = -1.0, 1.0
    while _tilt(logp, j, lo)[2] > target:
        lo *= 2.0
    while _tilt(logp, j, hi)[2] < target:
        hi *= 2.0
    theta = 0.0 if lo < 0.0 < hi else 0.5 * (lo + hi)
    for _ in range(200):
        _, _, mean, var = _tilt(logp, j, theta)
        err = mean - target
        if abs(err) <= 1e-9 * max(1.0, abs(target)):
            break
        if err > 0:
            hi = theta
        else:
            lo = theta
        step = theta - err / var if var > 0 else None
        theta = step if step is not None and lo < step < hi else 0.5 * (lo + hi)
    return theta


def sum_tails(pmf, n: int, s: int) -> tuple[float, float]:
    """(P(S <= s), P(S >= s)) for S the sum of ``n`` independent draws of k = 0, 1, … with
    P(k) = ``pmf[k]``: exact, to float rounding.

    S is tilted (exponentially, P_theta(k) ∝ P(k) e^{theta k}) so that its mean is s; under the
    tilt the sum's law is found by one FFT on a window around s (its n-th power: the window is
    wide enough that what folds in from outside is negligible), and P(S = t) =
    e^{n K(theta) - theta t} P_theta(S = t) turns it back, term by term, for the tail on the side
    the weights fall; the other tail is 1 minus that plus P(S = s)."""
    pmf = np.asarray(pmf, np.float64)
    n = int(n)
    s = int(s)
    nz = np.flatnonzero(pmf > 0)
    kmin, kmax = int(nz[0]), int(nz[-1])
    if s < n * kmin:
        return 0.0, 1.0
    if s > n * kmax:
        return 1.0, 0.0
    if kmin == kmax:
        return 1.0, 1.0
    if s == n * kmin:
        return math.exp(n * math.log(pmf[kmin])), 1.0
    if s == n * kmax:
        return 1.0, math.exp(n * math.log(pmf[kmax]))
    sub = pmf[kmin:kmax + 1]
    J = kmax - kmin
    j = np.arange(J + 1, dtype=np.float64)
    with np.errstate(divide="ignore"):
        logp = np.log(sub)
    t_obs = s - n * kmin                     # the observed sum of the shifted draws (0 … nJ)
    theta = _solve_tilt(logp, j, t_obs / n)
    K, q, _, var = _tilt(logp, j, theta)
    tau = math.sqrt(n * var)
    half = int(12 * tau + 2 * J + 64)
    N = 1 << max(7, int(math.ceil(math.log2(2 * half + J + 1))))
    Q = np.fft.rfft(q, N)
    with np.errstate(divide="ignore", invalid="ignore"):
        mag = np.abs(Q)
        G = np.where(mag > 0, np.exp(n * np.log(np.where(mag > 0, mag, 1.0))) *
                     np.exp(1j * np.mod(n * np.angle(Q), 2 * math.pi)), 0.0)
    g = np.maximum(np.fft.irfft(G, N), 0.0)
    base = n * K - theta * t_obs                # log of e^{nK - theta t} at t = t_obs (<= 0)
    point = math.exp(base) * g[t_obs % N]
    if theta >= 0:
        t = np.arange(t_obs, min(t_obs + half, n * J) + 1)
        upper = float(np.sum(np.exp(base - theta * (t - t_obs)) * g[t % N]))
        lower = 1.0 - upper + point
    else:
        t = np.arange(max(t_obs - half, 0), t_obs + 1)
        lower = float(np.sum(np.exp(base - theta * (t - t_obs)) * g[t % N]))
        upper = 1.0 - lower + point
    return min(max(lower, 0.0), 1.0), min(max(upper, 0.0), 1.0)


def two_sided_p(pmf, n: int, s: int) -> float:
    """Twice the smaller exact tail of the observed sum ``s`` (at most 1): a valid p-value
    (P(p <= a) <= a when the model holds; conservative, the sum being discrete)."""
    lower, upper = sum_tails(pmf, n, s)
    return min(1.0, 2.0 * min(lower, upper))


def agreement(odds: pl.DataFrame, rounds_pmf: dict | None) -> dict:
    """Monte Carlo vs exact over the grid of ``odds`` (rows of both methods): per cell the exact
    two-sided p of the attacker's wins (binomial under the exact odds) and, when ``rounds_pmf``
    (``{(terrain, attacker, defender): pmf of rounds}``) is given, of the rounds summed over the
    combats; the smallest of each, where, and the Bonferroni-adjusted smallest over every test."""
    keys = ["terrain", "attacker", "defender"]
    ex = odds.filter(pl.col("method") == "exact").select(
        *keys, pl.col("p_attacker_wins").alias("p_ex"),
        (pl.col("p_defender_holds") + pl.col("p_both_wiped")).alias("q_ex"))
    mc = odds.filter(pl.col("method") == "mc").select(
        *keys, "p_attacker_wins", "expected_rounds", "games")
    # one row per cell on each side, joined one to one: a cell listed twice (a terrain given
    # twice, which odds_request now refuses) made the join a cross product, and "MC vs exact over
    # 200 cells ... Bonferroni over the 400 tests" for 50 cells (review 248 #3). Identical rows
    # are one cell; two different rows of one cell are an error, raised by the join's check.
    ex, mc = ex.unique(maintain_order=True), mc.unique(maintain_order=True)
    j = mc.join(ex, on=keys, how="inner", validate="1:1", maintain_order="left")
    win_p, round_p = [], []          # (p, row of j)
    for i, r in enumerate(j.iter_rows(named=True)):
        n = int(r["games"])
        wins = int(round(r["p_attacker_wins"] * n))
        win_p.append((two_sided_p([r["q_ex"], r["p_ex"]], n, wins), i))
        pmf = None if rounds_pmf is None else rounds_pmf.get((r["terrain"], r["attacker"], r["defender"]))
        if pmf is not None:
            round_p.append((two_sided_p(pmf, n, int(round(r["expected_rounds"] * n))), i))
    tests = len(win_p) + len(round_p)

    def smallest(ps: list[tuple[float, int]]) -> dict | None:
        if not ps:
            return None
        p, i = min(ps)
        row = j.row(i, named=True)
        return {"p": float(p), "terrain": row["terrain"], "attacker": int(row["attacker"]),
                "defender": int(row["defender"])}

    p_min = min(p for p, _ in win_p + round_p) if tests else 1.0
    p_adj = min(1.0, tests * p_min)
    return {"cells": j.height, "games": int(j["games"][0]) if j.height else 0,
            "tests": tests, "p_attacker_wins": smallest(win_p), "rounds": smallest(round_p),
            "p_bonferroni": p_adj, "disagree": bool(p_adj < ALPHA), "alpha": ALPHA,
            "test": "exact two-sided p per cell (twice the smaller tail) under the exact odds: "
                    "binomial wins, the exact distribution of rounds; Bonferroni over the tests"}
