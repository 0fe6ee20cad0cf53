"""Tune racing on the paired difference (issue 29, must-have 3), checked by simulation.

The racing interval of candidate − incumbent (analysis.tune.targets.race_bounds) comes from one
simultaneous family over the incumbent's columns and the per-game differences, so it keeps what
common random numbers give. Checked here:

* :func:`band_difference_range` is the exact range of d(i + δ) − d(i) over a box (a fine grid
  never leaves it and comes close to both ends);
* the racing interval covers the true objective difference ≥ 93 % at 95 % (slow: 1,000
  repetitions) at the fair point, away from it with an equally good candidate, and with a candidate
  truly worse;
* it is narrower than the construction it replaced (:func:`race_interval_unpaired`: the difference
  of two objective intervals) on paired data, and a truly worse candidate is dropped after fewer
  rungs. docs/sweep.md quotes the slow variants' figures (``pytest -s -m slow`` prints them).

Games: 4 seats, the winner drawn from p; in 30 % of games a second seat (drawn from p without the
winner) shares the win. The candidate's game replays the incumbent's uniforms in a ``paired``
fraction of the games (the same deal decides both the same way when their laws agree) and draws its
own otherwise, so each side has exactly its own law and the truth is known in closed form."""

from __future__ import annotations

import functools
import math
from pathlib import Path

import numpy as np
import pytest

from analysis import stats
from analysis.sweep.metrics import MetricInfo, VariantData
from analysis.tune.targets import (Target, band_difference_range, race, race_bounds,
                                   race_interval_unpaired)

SHARED = 0.3
TOL = 0.015
TARGET = (Target("seat-balance", "seat-balance", TOL),)
FAIR = (0.25, 0.25, 0.25, 0.25)
AWAY = (0.22, 0.25, 0.25, 0.28)
WORSE = (0.20, 0.25, 0.25, 0.30)          # farther from 1/4 than AWAY: a truly worse candidate
# the incumbent's farthest seat is seat 1, seat 4 close behind; the candidate moves seat 4 out:
# the bound must allow for either seat being the incumbent's farthest (its smallest low end)
NEAR = (0.22, 0.25, 0.255, 0.275)
NEAR_WORSE = (0.22, 0.25, 0.23, 0.30)


def _decide(p, u1, u2, tie) -> np.ndarray:
    p = np.asarray(p, float)
    P = p.size
    first = np.minimum(np.searchsorted(np.cumsum(p), u1, side="right"), P - 1)
    q = np.tile(p, (u1.size, 1))
    q[np.arange(u1.size), first] = 0.0
    q = np.cumsum(q, axis=1)
    q /= q[:, -1:]
    second = np.minimum((q <= u2[:, None]).sum(axis=1), P - 1)
    w = np.zeros((u1.size, P))
    rows = np.arange(u1.size)
    w[rows, first] = np.where(tie, 0.5, 1.0)
    w[rows[tie], second[tie]] += 0.5
    return w


def paired_games(rng, games: int, p_incumbent, p_candidate, paired: float = 0.5):
    """(incumbent's, candidate's) float64[games, 4] win shares on the same games."""
    u1, u2, ut = rng.random(games), rng.random(games), rng.random(games)
    own = rng.random(games) >= paired
    v1, v2, vt = u1.copy(), u2.copy(), ut.copy()
    k = int(own.sum())
    v1[own], v2[own], vt[own] = rng.random(k), rng.random(k), rng.random(k)
    return _decide(p_incumbent, u1, u2, ut < SHARED), _decide(p_candidate, v1, v2, vt < SHARED)


def true_shares(p) -> np.ndarray:
    """Expected win shares of :func:`_decide`: alone (1 − SHARED) or half a shared win."""
    p = np.asarray(p, float)
    second = np.array([sum(p[f] * p[s] / (1 - p[f]) for f in range(p.size) if f != s)
                       for s in range(p.size)])
    return (1 - SHARED) * p + SHARED * (p + second) / 2


def true_objective(p) -> float:
    return float(np.abs(true_shares(p) - 0.25).max()) / TOL


def variant(w: np.ndarray) -> VariantData:
    P = w.shape[1]
    samples = {f"seat_win_share_{s + 1}": w[:, s] for s in range(P)}
    info = {k: MetricInfo(k, k, "pp", True) for k in samples}
    return VariantData(Path("."), {"game": "middle-ages", "players": P}, P, samples, info, w, 1.0 / P)


def test_the_expected_shares_are_those_the_games_are_drawn_with():
    w, _ = paired_games(np.random.default_rng(0), 400_000, WORSE, WORSE)
    assert np.allclose(w.mean(axis=0), true_shares(WORSE), atol=0.003)


def test_band_difference_range_is_the_exact_range_over_the_box():
    rng = np.random.default_rng(1)
    for _ in range(300):
        il, dl = rng.normal(0, 1, 2)
        ih, dh = il + rng.exponential(1), dl + rng.exponential(1)
        kind = rng.integers(3)
        lo = rng.normal(0, 1) if kind < 2 else -np.inf
        hi = lo if kind == 0 else (lo + rng.exponential(1) if kind == 1 else rng.normal(0, 1))
        i, d = np.meshgrid(np.linspace(il, ih, 201), np.linspace(dl, dh, 201))
        h = stats.band_distance(i + d, lo, hi) - stats.band_distance(i, lo, hi)
        a, b = band_difference_range([il], [ih], [dl], [dh], lo, hi)
        assert a[0] <= h.min() + 1e-12 and b[0] >= h.max() - 1e-12          # a valid range
        step = 2 * max(ih - il, dh - dl) / 200
        assert a[0] >= h.min() - step and b[0] <= h.max() + step            # and not a loose one


CASES = {"fair point, equal": (FAIR, FAIR), "away, equal": (AWAY, AWAY), "truly worse": (AWAY, WORSE),
         "worse, another seat farthest": (NEAR, NEAR_WORSE)}
PAIRED = 0.8    # settings 2 coins apart on 4-seat Middle-Ages: per-game correlation 0.93-0.97
GAMES = 40_000  # a seat share's simultaneous interval about ± 0.35 tolerance: the truth (1.27 for
                # the truly worse candidate) is not inside every interval by their width alone


def coverage(p_inc, p_cand, reps: int, games: int, seed: int, paired: float = PAIRED,
             unpaired: bool = False):
    """(paired coverage, unpaired coverage, mean width ratio paired / unpaired) at 95 % (the last
    two nan unless ``unpaired``). Each race_bounds call pays a Monte Carlo critical value (0.1-0.4 s
    on the shared machine): the fast tests keep the repetitions few."""
    truth = true_objective(p_cand) - true_objective(p_inc)
    rng = np.random.default_rng(seed)
    hit = hit_old = 0
    ratio = []
    for _ in range(reps):
        wi, wc = paired_games(rng, games, p_inc, p_cand, paired)
        b = race_bounds(variant(wc), variant(wi), TARGET, 0.95)
        hit += b.low <= truth <= b.high
        if unpaired:
            _, lo, hi = race_interval_unpaired(variant(wc), variant(wi), TARGET, 0.95)
            hit_old += lo <= truth <= hi
            ratio.append((b.high - b.low) / (hi - lo))
    return hit / reps, (hit_old / reps if unpaired else np.nan), (float(np.mean(ratio)) if unpaired else np.nan)


FAST_DRAWS = 20_000


@pytest.fixture
def quick_critical_values(monkeypatch):
    """The fast tests' simultaneous critical values drawn with 20,000 normal vectors instead of
    200,000 (``analysis.stats.max_abs_normal_quantile``: within ~0.015 of it instead of ~0.005,
    ~0.2% of coverage): each of their race_bounds calls asks for a new correlation matrix, and the
    Monte Carlo was 3.5 s of their 6 s of CPU. What they check, the interval's construction from
    the family, is unchanged, and the mistakes they catch (a bound covering 4 of 10, the paired
    interval no narrower) are far from 0.2%; the slow tests keep the 200,000 draws."""
    from analysis import stats

    monkeypatch.setattr(stats, "max_abs_normal_quantile",
                        functools.partial(stats.max_abs_normal_quantile, draws=FAST_DRAWS))


@functools.lru_cache(maxsize=None)
def fast_coverage(case: str) -> tuple[float, float, float]:
    """:func:`coverage` of a case over 10 repetitions, once per test process: the coverage test
    and the width test read the same repetitions of "away, equal" (the unpaired interval is only
    built there)."""
    p_inc, p_cand = CASES[case]
    return coverage(p_inc, p_cand, reps=10, games=GAMES, seed=3, unpaired=case == "away, equal")


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
@pytest.mark.parametrize("case", list(CASES))
def test_the_paired_racing_interval_covers_the_true_difference(case, quick_critical_values):
    cov, _, _ = fast_coverage(case)
    # 10 repetitions only catch a gross mistake (a bound that misses often: the smallest of the
    # incumbent's possible farthest columns' lower ends taken as their largest covers 4 of 10 in
    # the last case; 20 repetitions, what this was, caught no subtler one either, the interval
    # covering ~100 %); the slow test holds the coverage to ≥ 93 % on 400 repetitions per case
    assert cov >= 0.8, (case, cov)


def test_the_paired_racing_interval_is_narrower_than_the_unpaired_one(quick_critical_values):
    _, _, ratio = fast_coverage("away, equal")
    assert ratio < 0.7, ratio          # measured 0.39 (docs/sweep.md): the pairing is kept


@pytest.mark.slow
@pytest.mark.parametrize("paired", [0.5, PAIRED, 0.95])
@pytest.mark.parametrize("case", list(CASES))
def test_the_paired_racing_interval_covers_at_least_93_percent_slow(case, paired):
    p_inc, p_cand = CASES[case]
    reps = 400 if paired == PAIRED else 100
    cov, cov_old, ratio = coverage(p_inc, p_cand, reps=reps, games=GAMES, seed=11, paired=paired,
                                   unpaired=True)
    print(f"{case}, paired {paired}: coverage {cov:.3f} (unpaired {cov_old:.3f}), "
          f"mean width ratio paired / unpaired {ratio:.2f} over {reps} repetitions")
    assert cov >= 0.93, (case, cov)
    assert ratio <= 1.02          # never wider to speak of (a weak pairing gains nothing)


RUNGS = (1000, 2000, 4000, 8000, 16000)       # --min-games 1000 --max-games 16000 --eta 2


def rungs_to_drop(reps: int, seed: int, p_cand=WORSE, paired: float = PAIRED):
    """Per repetition, after how many rungs a candidate is dropped by the paired race and by the
    unpaired construction (len(RUNGS) = never: it played the full budget), the incumbent AWAY."""
    rng = np.random.default_rng(seed)
    looks = len(RUNGS) - 1
    out_new, out_old = [], []
    for _ in range(reps):
        wi, wc = paired_games(rng, RUNGS[-1], AWAY, p_cand, paired)
        inc = variant(wi)
        new = old = len(RUNGS)
        for r, n in enumerate(RUNGS[:-1]):
            cand = variant(wc[:n])
            if new == len(RUNGS) and race(cand, inc, TARGET, r + 1, looks)[0] == "drop":
                new = r + 1
            if old == len(RUNGS) and race_interval_unpaired(cand, inc, TARGET, 1 - 0.05 / looks)[1] > 0:
                old = r + 1
            if new < len(RUNGS) and old < len(RUNGS):
                break
        out_new.append(new)
        out_old.append(old)
    return np.array(out_new), np.array(out_old)


def test_a_truly_worse_candidate_is_dropped_no_later_than_before(quick_critical_values):
    new, old = rungs_to_drop(reps=3, seed=4)
    assert (new <= old).all() and new.mean() < len(RUNGS), (new, old)


@pytest.mark.slow
@pytest.mark.parametrize("paired", [0.5, PAIRED])
def test_rungs_to_drop_a_truly_worse_candidate_slow(paired):
    new, old = rungs_to_drop(reps=100, seed=5, paired=paired)
    games = np.array([*RUNGS])
    g_new, g_old = games[new - 1].mean(), games[old - 1].mean()
    print(f"paired {paired}: rungs to drop a truly worse candidate: paired race {new.mean():.2f} "
          f"(never {np.mean(new == len(RUNGS)):.2f}), unpaired {old.mean():.2f} (never "
          f"{np.mean(old == len(RUNGS)):.2f}); mean games played {g_new:,.0f} vs {g_old:,.0f}")
    assert new.mean() <= old.mean()


@pytest.mark.slow
def test_an_equally_good_candidate_is_rarely_dropped_over_a_whole_race_slow():
    """The error spent across the rungs: over the 4 looks, a candidate as good as the incumbent
    (same law) is dropped in at most about α of races."""
    new, _ = rungs_to_drop(reps=100, seed=6, p_cand=AWAY)
    print(f"an equally good candidate dropped in {np.mean(new < len(RUNGS)):.3f} of 100 races")
    assert (new < len(RUNGS)).mean() <= 0.05 + 2.5 * math.sqrt(0.05 * 0.95 / 100)
