"""Intervals on maxima and families of comparisons, checked by simulation (issue 29).

* the sweep's seat-balance interval (analysis.sweep.metrics.balance) and the tune's objective
  interval (analysis.tune.targets.evaluate) cover ≥ 93 % at 95 %, at the fair point (true 0) and
  away from it — the old normal-draw intervals covered a fair game 0 times in 200;
* a null sweep (a parameter that does nothing, several metrics) shows a clear effect in ≤ 5 % of
  repetitions (analysis.sweep.metrics.parameter_effects) — 28 % unadjusted;
* a fair game flags some seat in ≤ 5 % of runs (analysis.seats.seat_flags) — 17 % unadjusted;
* Wald tests from the tie-aware variance reject at their level when wins are often shared.
Games are drawn with shared wins (two seats tie for the win in 30 % of games). docs/analysis.md
quotes the slow variants' figures."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from analysis import stats
from analysis.seats import seat_flags
from analysis.sweep.metrics import MetricInfo, VariantData, balance, parameter_effects
from analysis.tune.targets import Target, evaluate, race

SHARED = 0.3


def draw_games(rng, games: int, p, shared: float = SHARED) -> np.ndarray:
    """float64[games, P] win shares: the winner drawn from ``p``; in a ``shared`` fraction of games
    a second seat (drawn from ``p`` again, resampled until distinct) shares the win (½ each)."""
    p = np.asarray(p, float)
    P = p.size
    first = rng.choice(P, size=games, p=p)
    second = rng.choice(P, size=games, p=p)
    clash = second == first
    while clash.any():
        second[clash] = rng.choice(P, size=int(clash.sum()), p=p)
        clash = second == first
    tie = rng.random(games) < shared
    w = np.zeros((games, P))
    rows = np.arange(games)
    w[rows, first] = np.where(tie, 0.5, 1.0)
    w[rows[tie], second[tie]] += 0.5
    return w


def true_shares(p, shared: float = SHARED) -> np.ndarray:
    """Exact expected win shares of :func:`draw_games`: the winner s alone (1 − shared) or half a
    shared win, plus half a shared win as the second seat, drawn from ``p`` resampled until it is
    not the winner f, i.e. with probability p_s / (1 − p_f). (A draw of 2,000,000 games, what this
    was before, cost 0.3 s of CPU; the test below checks the closed form against a draw.)"""
    p = np.asarray(p, float)
    second = np.array([sum(p[f] * p[s] / (1 - p[f]) for f in range(p.size) if f != s)
                       for s in range(p.size)])
    return (1 - shared) * p + shared * (p + second) / 2


def test_the_true_shares_are_those_the_games_are_drawn_with():
    # 400,000 games: a share's standard error ≤ 7e-4, so atol 0.003 is > 4 standard errors, while a
    # wrong closed form is off by more (the second seat drawn from p without the resampling: 0.35
    # instead of 0.342 for the last seat of [0.15, 0.25, 0.25, 0.35])
    for p in (AWAY, [0.15, 0.25, 0.25, 0.35]):
        w = draw_games(np.random.default_rng(99), 400_000, p)
        assert np.allclose(w.mean(axis=0), true_shares(p), atol=0.003), p


def variant(w: np.ndarray, extra: dict | None = None) -> VariantData:
    P = w.shape[1]
    samples = {f"seat_win_share_{s + 1}": w[:, s] for s in range(P)}
    info = {k: MetricInfo(k, k, "pp", True) for k in samples}
    for k, x in (extra or {}).items():
        samples[k] = x
        info[k] = MetricInfo(k, k, "coins" if k != "game_length" else "turns", False)
    return VariantData(Path("."), {"game": "middle-ages", "players": P}, P, samples, info, w, 1.0 / P)


FAIR = [0.25] * 4
AWAY = [0.22, 0.25, 0.25, 0.28]


def _coverage(p, reps: int, games: int, seed: int):
    truth_shares = true_shares(p) if p is not FAIR else np.full(4, 0.25)
    truth = float(np.abs(truth_shares - 0.25).max())
    target = (Target("seat-balance", "seat-balance", 0.015),)
    rng = np.random.default_rng(seed)
    hit_b = hit_t = 0
    for _ in range(reps):
        v = variant(draw_games(rng, games, p))
        _, lo, hi = balance(v)
        hit_b += lo <= truth <= hi
        j = evaluate(v, target)
        hit_t += j.low <= truth / 0.015 <= j.high
    return hit_b / reps, hit_t / reps


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
@pytest.mark.parametrize("p", [FAIR, AWAY], ids=["fair", "away"])
def test_seat_balance_and_objective_intervals_cover_at_the_fair_point_and_away(p):
    cb, ct = _coverage(p, reps=30, games=2000, seed=5)
    # 30 repetitions (each pays a Monte Carlo critical value, ~0.05 s of CPU): ±4 pp of noise
    # around 95 %, enough to catch the mistake the construction replaced (intervals from normal
    # draws of the plug-in maximum: 0 of 30 at the fair point) but not a slightly low level (per-seat
    # 95 % intervals instead of simultaneous ones cover 90 %: 60 repetitions did not catch it
    # either); the slow test holds them to ≥ 93 % on 1,000
    assert cb >= 0.85 and ct >= 0.85, (cb, ct)


@pytest.mark.slow
@pytest.mark.parametrize("p", [FAIR, AWAY], ids=["fair", "away"])
def test_seat_balance_and_objective_coverage_slow(p):
    cb, ct = _coverage(p, reps=1000, games=5000, seed=11)
    print(f"{'fair' if p is FAIR else 'away'}: sweep balance {cb:.3f}, tune objective {ct:.3f}")
    assert cb >= 0.93 and ct >= 0.93, (cb, ct)


def _null_sweep(reps: int, games: int, seed: int) -> tuple[float, float]:
    """Shares of null sweeps (the parameter does nothing; the two variants replay the same deals
    and differ in half of the games by chance) with at least one clear effect: (adjusted,
    unadjusted)."""
    rng = np.random.default_rng(seed)
    hits = raw = 0
    for _ in range(reps):
        wa = draw_games(rng, games, FAIR)
        wb = wa.copy()
        redo = rng.random(games) < 0.5
        wb[redo] = draw_games(rng, int(redo.sum()), FAIR)
        margin_a = rng.poisson(6, games).astype(float)
        margin_b = np.where(redo, rng.poisson(6, games), margin_a).astype(float)
        length_a = rng.normal(30, 5, games)
        length_b = np.where(redo, rng.normal(30, 5, games), length_a)
        a = variant(wa, {"winner_margin": margin_a, "game_length": length_a})
        b = variant(wb, {"winner_margin": margin_b, "game_length": length_b})
        rows = parameter_effects(a, b)
        hits += any(r["low"] > 0 or r["high"] < 0 for r in rows)
        raw += any(r["low_unadjusted"] > 0 or r["high_unadjusted"] < 0 for r in rows)
    return hits / reps, raw / reps


@pytest.mark.slow
def test_a_null_sweep_shows_a_clear_effect_rarely_and_unadjusted_often():
    rate, unadjusted = _null_sweep(reps=80, games=1500, seed=3)
    assert rate <= 0.07
    # the mistake the adjustment guards against: per-metric intervals flag far more than 5 %
    assert unadjusted >= 0.12


@pytest.mark.slow
def test_a_null_sweep_shows_a_clear_effect_in_at_most_5_percent_slow():
    rate, unadjusted = _null_sweep(reps=1000, games=3000, seed=4)
    print(f"null sweep: any clear effect {rate:.3f} (unadjusted {unadjusted:.3f})")
    assert rate <= 0.05 + 2.5 * math.sqrt(0.05 * 0.95 / 1000)


def _seat_flag_rate(P: int, reps: int, games: int, seed: int) -> tuple[float, float]:
    """Shares of fair runs in which some seat is flagged: (Holm-adjusted, unadjusted p < 0.05),
    both from the same runs."""
    rng = np.random.default_rng(seed)
    hits = raw = 0
    for _ in range(reps):
        w = draw_games(rng, games, [1 / P] * P)
        pval, _, flag = seat_flags(w.mean(axis=0), w.std(axis=0, ddof=1), np.full(P, games), 1 / P)
        hits += bool(flag.any())
        raw += bool((pval < 0.05).any())
    return hits / reps, raw / reps


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
@pytest.mark.parametrize("P", [4, 5])
def test_a_fair_game_flags_a_seat_rarely(P):
    adjusted, unadjusted = _seat_flag_rate(P, reps=300, games=2000, seed=P)
    assert adjusted <= 0.07
    assert unadjusted >= 0.10


@pytest.mark.slow
@pytest.mark.parametrize("P", [4, 5])
def test_a_fair_game_flags_a_seat_in_at_most_5_percent_slow(P):
    rate, _ = _seat_flag_rate(P, reps=4000, games=3000, seed=P)
    print(f"{P} seats: a seat flagged in {rate:.3f} of fair runs")
    assert rate <= 0.05 + 2.5 * math.sqrt(0.05 * 0.95 / 4000)


@pytest.mark.parametrize("reps", [1500, pytest.param(3000, marks=pytest.mark.slow)])
def test_wald_with_the_tie_aware_variance_rejects_at_its_level_with_shared_wins(reps):
    """1,500 repetitions in the fast suite (3,000 with -m slow): the level within ±1.5 pp (2.7
    binomial sds at 1,500; measured 4.6% and 4.4%); the binomial variance p(1 − p), the mistake
    the tie-aware one replaced, rejects in 1.6%, far below the band at either size."""
    rng = np.random.default_rng(8)
    games = 1000
    wald = binom = 0
    # every repetition's games in one draw (3,000 draws of 1,000 games cost 2.3 s of CPU, most of
    # it numpy's per-call overhead), seat 1's shares, one row per repetition
    shares = draw_games(rng, reps * games, [0.5, 0.5], shared=0.3)[:, 0].reshape(reps, games)
    for w in shares:
        m = w.mean()
        _, p = stats.wald_vs([m], [[w.var(ddof=1) / games]], 0.5)
        wald += p[0] < 0.05
        binom += abs(m - 0.5) / math.sqrt(m * (1 - m) / games) > 1.96
    assert 0.035 <= wald / reps <= 0.065
    assert binom / reps < 0.035      # p(1 − p) overstates the variance: too timid


def test_simultaneous_intervals_agree_with_the_bonferroni_bound_and_scipy():
    from scipy import stats as sps

    # independent components: c solves (2Φ(c) − 1)^k = 0.95
    k = 5
    exact = sps.norm.ppf(0.5 + 0.95 ** (1 / k) / 2)
    _, _, c = stats.simultaneous(np.zeros(k), np.eye(k))
    assert c == pytest.approx(exact, abs=0.01)
    assert c < sps.norm.ppf(1 - 0.025 / k)      # sharper than Bonferroni


from holm_reference import multipletests  # noqa: E402  (statsmodels' Holm, without its gc.collect)


def test_holm_agrees_with_statsmodels():

    p = np.array([0.01, 0.04, 0.03, 0.2, 0.005])
    assert np.allclose(stats.holm(p), multipletests(p, method="holm")[1])
    assert (stats.holm_reject(p) == multipletests(p, method="holm")[0]).all()


def test_practical_wording_and_order():
    v = stats.practical([0.02, 0.003, -0.05, 0.43], [0.01, 0.001, -0.08, 0.3],
                        [0.03, 0.005, -0.02, 0.5], 0.01, support=[0.5, 0.5, 0.5, 0.0])
    assert list(v) == [stats.LARGE, stats.SMALL, stats.LARGE, stats.NOT_SHOWN]
    order = stats.practical_order(v, [0.02, 0.003, -0.05, 0.43], 0.01)
    assert list(order) == [2, 0, 1, 3]
    assert stats.practical(0.02, -0.001, 0.04, 0.01) == stats.NOT_SHOWN
    # given as flags (Holm) with the family's intervals for the size: a flagged gap is sized on its
    # interval, an unflagged one is not shown; a flagged gap without an interval cannot be sized
    assert list(stats.practical([0.048, 0.003, 0.02], [0.03, 0.001, 0.015], [0.066, 0.005, 0.025], 0.01,
                                clear=[True, True, False])) == [stats.LARGE, stats.SMALL, stats.NOT_SHOWN]
    with pytest.raises(ValueError, match="no interval"):
        stats.practical([0.048], np.nan, np.nan, 0.01, clear=[True])


@pytest.mark.slow
def test_race_drops_a_clearly_worse_candidate_and_rarely_an_equal_one():
    target = (Target("seat-balance", "seat-balance", 0.015),)
    rng = np.random.default_rng(21)
    inc = variant(draw_games(rng, 6000, FAIR))
    worse_w = draw_games(rng, 2000, [0.15, 0.25, 0.25, 0.35])
    d, diff, lo, hi = race(variant(worse_w), inc, target, 1, 3)
    assert d == "drop" and lo > 0 and diff > 0
    drops = 0
    for _ in range(60):     # an equally good candidate (same law, half its games shared)
        w = inc.seat_wins[:2000].copy()
        redo = rng.random(2000) < 0.5
        w[redo] = draw_games(rng, int(redo.sum()), FAIR)
        drops += race(variant(w), inc, target, 1, 3)[0] == "drop"
    assert drops <= 3
    with pytest.raises(ValueError):
        race(variant(draw_games(rng, 7000, FAIR)), inc, target, 1, 3)   # more games than the incumbent


def test_panel_race_bounds_the_worst_cell_paired_per_cell():
    """race_cells: every cell's candidate and incumbent on the same games; the worst-cell bound
    drops a candidate worse in the incumbent's binding cell, keeps one worse only in a cell that
    does not bind, and never drops a candidate identical to the incumbent (the slow test below:
    an equally good one, same law and half its games shared in every cell, is dropped rarely)."""
    from analysis.tune.targets import race_cells

    target = (Target("seat-balance", "seat-balance", 0.015),)
    rng = np.random.default_rng(5)
    fair_inc = variant(draw_games(rng, 6000, FAIR))
    bad_inc = variant(draw_games(rng, 6000, [0.16, 0.28, 0.28, 0.28]))      # the binding cell
    incumbent = [fair_inc, bad_inc]
    same = [variant(fair_inc.seat_wins[:2000]), variant(bad_inc.seat_wins[:2000])]
    d, diff, lo, hi, binding = race_cells(same, incumbent, target, 1, 3)
    assert d != "drop" and lo <= 0 <= hi and binding == [1]
    worse_where_it_binds = [same[0], variant(draw_games(rng, 2000, [0.06, 0.30, 0.32, 0.32]))]
    d, diff, lo, hi, _ = race_cells(worse_where_it_binds, incumbent, target, 1, 3)
    assert d == "drop" and lo > 0 and diff > 0
    worse_where_it_does_not = [variant(draw_games(rng, 2000, [0.21, 0.26, 0.26, 0.27])), same[1]]
    d, *_ = race_cells(worse_where_it_does_not, incumbent, target, 1, 3)
    assert d != "drop"
    with pytest.raises(ValueError):
        race_cells(same[:1], incumbent, target, 1, 3)


@pytest.mark.slow
def test_panel_race_rarely_drops_an_equally_good_candidate():
    from analysis.tune.targets import race_cells

    target = (Target("seat-balance", "seat-balance", 0.015),)
    rng = np.random.default_rng(6)
    fair_inc = variant(draw_games(rng, 6000, FAIR))
    bad_inc = variant(draw_games(rng, 6000, [0.16, 0.28, 0.28, 0.28]))
    incumbent = [fair_inc, bad_inc]
    drops = 0
    for _ in range(40):
        cells = []
        for inc, p in ((fair_inc, FAIR), (bad_inc, [0.16, 0.28, 0.28, 0.28])):
            w = inc.seat_wins[:2000].copy()
            redo = rng.random(2000) < 0.5
            w[redo] = draw_games(rng, int(redo.sum()), p)
            cells.append(variant(w))
        drops += race_cells(cells, incumbent, target, 1, 3)[0] == "drop"
    assert drops <= 2
