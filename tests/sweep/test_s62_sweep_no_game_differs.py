"""A sweep's change where no game differs between two values (session 62, statistics review 269):
the page printed "0.0 pp (0.0 to 0.0)" and "does not change by more than the 1 pp that matters"
while the before/after page of the same two variants bounded the change at 3 pp either way (100
games; 1 − 0.05^(1/100) = 2.95 %). The sweep's effects now bound such a change as the before/after
does (:func:`analysis.stats.same_games_bound`), and the lead says the response is flat only when the
bound is within the smallest difference that matters.

Each test plants the same winner in every game of both values (tests/handmade_sweep.py), so the
bound is known exactly."""

from __future__ import annotations

import numpy as np
import pytest
from handmade_sweep import swept_sensitivity

from analysis import stats

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def _same_winners(n: int) -> dict[int, np.ndarray]:
    w = np.random.default_rng(5).integers(0, 4, n)
    return {0: w, 1: w.copy()}


@pytest.mark.parametrize("n", [100, 300])
def test_s62_unmoved_share_bounded_as_before_after(tmp_path, n):
    s = swept_sensitivity(tmp_path / "sw", "setup.start_coins", [0, 1], _same_winners(n), n)
    rows = s.effects.filter(s.effects["metric"].str.starts_with("seat_win_share_")).to_dicts()
    assert rows
    bound = stats.same_games_bound(n)          # one parameter: the family's level is 95%
    for r in rows:
        assert r["delta"] == 0.0
        assert r["low"] == pytest.approx(-bound, abs=1e-12) and r["high"] == pytest.approx(bound, abs=1e-12)
        assert r["low_unadjusted"] == pytest.approx(-bound) and r["high_unadjusted"] == pytest.approx(bound)
        assert r["same_games"] == n
    bal = s.effects.filter(s.effects["metric"] == "balance").to_dicts()[0]
    # the seat imbalance moves by no more than its seats (never the point 0 to 0)
    assert bal["low"] <= -bound / 2 and bal["high"] >= bound / 2 and bal["high"] <= bound + 1e-12
    assert bal["same_games"] == n


def _unfair_then_same(n: int) -> dict[int, np.ndarray]:
    """Value 0: seat 1 wins 70% of the games (clearly less fair); values 1 and 2: the same winner
    in every game, seats alike (both the fairest, tied)."""
    rng = np.random.default_rng(7)
    w = rng.integers(0, 4, n)
    return {0: np.where(rng.random(n) < 0.7, 0, w), 1: w, 2: w.copy()}


def _pair(s, metric: str, a: str, b: str) -> dict:
    d = s.value_effects
    return d.filter((d["metric"] == metric) & (d["from"] == a) & (d["to"] == b)).to_dicts()[0]


def test_s62_no_flat_claim_beyond_the_bound(tmp_path):
    from analysis.sweep.tables import which_value
    from reports.sweep import _distance_item, which_value_sentence

    s = swept_sensitivity(tmp_path / "sw", "setup.start_coins", [0, 1, 2], _unfair_then_same(100), 100)
    r = _pair(s, "balance", "1", "2")
    text = which_value_sentence(which_value(s, "setup.start_coins"))
    assert "changes by more than" not in text, text
    # 2 pairs in the value-by-value family (0 → 2 is the first-vs-last one's): 97.5% each
    assert r.get("same_games") == 100 and r["high"] > 0.03, r
    item = _distance_item(r)
    assert "(0.0 to 0.0)" not in item and "(+0.0 to +0.0)" not in item, item
    assert "no game of the 100 differs between the two values: the games bound the change at " in item, item
    assert "so these games cannot rule out a change of the 1 pp that matters" in item, item


def test_s62_flat_claim_when_the_bound_is_within(tmp_path):
    from analysis.sweep.tables import which_value
    from reports.sweep import which_value_sentence

    s = swept_sensitivity(tmp_path / "sw", "setup.start_coins", [0, 1, 2], _unfair_then_same(400), 400)
    r = _pair(s, "balance", "1", "2")
    # 1 − 0.025^(1/400) = 0.918 pp: within the 1 pp that matters, so the flat claim is true
    assert r["same_games"] == 400 and 0.005 < r["high"] <= stats.same_games_bound(400, 0.975) + 1e-12, r
    text = which_value_sentence(which_value(s, "setup.start_coins"))
    assert "From 1 to 2 the seat imbalance no longer changes by more than the 1 pp that matters" in text, text


def test_s62_tune_seat_unmoved_bounded():
    """The tune page's "How each seat responds" (analysis.tune.advice.seat_response): a seat the
    tuned rules move in no game had the point 0 to 0; now the games' bound."""
    from analysis.tune.advice import seat_response

    rng = np.random.default_rng(3)
    n = 200
    start = np.zeros((n, 2))
    start[np.arange(n), rng.integers(0, 2, n)] = 1.0
    tuned = start.copy()
    seats = seat_response(start, tuned)
    bound = stats.same_games_bound(n)
    for r in seats:
        assert r["low"] == pytest.approx(-bound) and r["high"] == pytest.approx(bound), r
        assert r["same_games"] == n
    moved = tuned.copy()
    moved[:20] = 1.0 - moved[:20]           # 20 games change winner: a variance, no bound
    assert all(r["same_games"] is None for r in seat_response(start, moved))


def test_s62_role_split_gap_unmoved_bounded():
    """Seigneurial: the Censitaires' split gap, when no game moves any seat, is bounded through its
    seats' bound ((w ± b) / (S ∓ b) for each seat's share of the role's wins), not 0 to 0."""
    import pyarrow as pa

    from analysis.sweep.metrics import from_tables, parameter_effects

    n = 400
    rng = np.random.default_rng(11)
    w = np.zeros((n, 4))
    w[np.arange(n), rng.choice(4, n, p=[0.2, 0.4, 0.25, 0.15])] = 1.0
    t = pa.table({"seat": np.tile(np.arange(4), n), "win_share": w.ravel()})
    rows = {r["metric"]: r for r in parameter_effects(from_tables("seigneurial", 4, t),
                                                       from_tables("seigneurial", 4, t))}
    bound = stats.same_games_bound(n)
    assert rows["role_win_share_seigneur"]["high"] == pytest.approx(bound)
    gap = rows["role_split_censitaire"]
    seats = w[:, 1:].mean(axis=0)
    S = seats.sum()
    widest = max(max((x + bound) / (S - bound) - x / S, x / S - (x - bound) / (S + bound)) for x in seats)
    assert gap["delta"] == 0.0
    assert gap["low"] < -bound and gap["high"] > bound and max(-gap["low"], gap["high"]) <= widest + 1e-12, gap
    assert gap["same_games"] == n and gap["verdict"] == stats.NOT_SHOWN
