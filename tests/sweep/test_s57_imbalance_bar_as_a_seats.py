"""The seat imbalance and one seat's win share, equal in a sweep's data but not the same metric
(designer review, session 57 B): `--vary 'setup.start_coins[0]=0..4' --games 20000 --seed 1`
(Middle-Ages) drew "the seat imbalance" and "seat 3's win share" as two identical bars, +0.8 pp
(−0.15 to 1.75), under a caption saying "A metric that repeats another (the same number …) is left
out". They are not the same per-game numbers (the imbalance is no per-game number: the largest
distance of a seat's share from 1/P): seat 3 was the seat furthest from fair at both values, so
the imbalance moved exactly as its share did, here. The page now says so wherever both stand."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def _variant(winners: np.ndarray, P: int = 4):
    from pathlib import Path

    from analysis.sweep.metrics import MetricInfo, VariantData

    w = np.zeros((winners.size, P))
    w[np.arange(winners.size), winners] = 1.0
    samples = {f"seat_win_share_{s + 1}": w[:, s] for s in range(P)}
    info = {k: MetricInfo(k, f"seat {k[-1]}'s win share", "pp", True) for k in samples}
    return VariantData(Path("."), {"game": "middle-ages", "players": P}, P, samples, info, w, 1.0 / P)


def _effects(a, b) -> pl.DataFrame:
    from analysis.sweep.metrics import parameter_effects

    rows = parameter_effects(a, b)
    return pl.DataFrame([{"parameter": "setup.start_coins[0]", "from": "0", "to": "4", "at": "",
                          "numeric": True, "rising": True, **r} for r in rows])


@pytest.fixture(scope="module")
def seat3_furthest():
    """Seat 3 wins ~30% at both values, every other seat within 3 pp of 25%: as the review's run
    (seat 3 clearly the furthest, so even the intervals are the same)."""
    rng = np.random.default_rng(1)
    n = 20000
    a = _variant(rng.choice(4, size=n, p=[0.23, 0.245, 0.30, 0.225]))
    b = _variant(rng.choice(4, size=n, p=[0.22, 0.225, 0.31, 0.245]))
    return _effects(a, b)


def test_the_imbalance_row_says_which_seat_it_moves_as(seat3_furthest):
    e = {r["metric"]: r for r in seat3_furthest.iter_rows(named=True)}
    bal, s3 = e["balance"], e["seat_win_share_3"]
    # the review's numbers: the same change and interval, not a repeat (no per-game twin) ...
    assert (bal["delta"], bal["low"], bal["high"]) == pytest.approx((s3["delta"], s3["low"], s3["high"]), abs=1e-12)
    assert bal["same_as"] is None
    # ... each with its own unadjusted interval, the mark of two metrics
    assert (bal["low_unadjusted"], bal["high_unadjusted"]) != pytest.approx(
        (s3["low_unadjusted"], s3["high_unadjusted"]), abs=1e-6)
    assert bal["follows"] == "seat_win_share_3" and bal["follows_mirror"] is False
    assert all(r["follows"] is None for k, r in e.items() if k != "balance")


def test_no_seat_is_named_when_another_seat_is_furthest_at_the_other_value():
    rng = np.random.default_rng(2)
    n = 20000
    a = _variant(rng.choice(4, size=n, p=[0.25, 0.25, 0.31, 0.19]))
    b = _variant(rng.choice(4, size=n, p=[0.33, 0.25, 0.22, 0.20]))
    bal = _effects(a, b).filter(pl.col("metric") == "balance").row(0, named=True)
    assert bal["follows"] is None


def test_a_seat_below_fair_at_both_values_is_named_as_the_other_way():
    rng = np.random.default_rng(3)
    n = 20000
    a = _variant(rng.choice(4, size=n, p=[0.19, 0.27, 0.27, 0.27]))
    b = _variant(rng.choice(4, size=n, p=[0.17, 0.28, 0.27, 0.28]))
    e = {r["metric"]: r for r in _effects(a, b).iter_rows(named=True)}
    assert e["balance"]["follows"] == "seat_win_share_1" and e["balance"]["follows_mirror"] is True
    assert e["balance"]["delta"] == pytest.approx(-e["seat_win_share_1"]["delta"], abs=1e-12)


def test_the_tornado_caption_and_bar_tell_the_two_apart(seat3_furthest):
    from reports.figures.sweep import tornado
    from reports.sweep import effect_sentence, effects_table, tornado_caption_notes

    e = seat3_furthest
    fig = tornado(e, True, "coins")
    labels = [t.get_text() for ax in fig.axes for t in ax.get_yticklabels()]
    bar = next(x for x in labels if "seat imbalance" in x)
    assert "seat 3" in bar, labels
    notes = tornado_caption_notes(e)
    assert "seat imbalance" in notes and "seat 3's win share" in notes and "not the same metric" in notes, notes
    assert "furthest from the fair share at both values" in notes, notes
    # the caption no longer says, beside two equal bars, that a metric repeating another is left out
    # without saying which repeats it means
    assert "A metric that repeats another in every game (the same number, or its mirror) is left out" in notes
    row = e.filter(pl.col("metric") == "balance").row(0, named=True)
    said = effect_sentence(row)
    assert "as seat 3's win share does" in said, said
    table = effects_table(e)
    cell = table.filter(pl.col("metric").str.starts_with("the seat imbalance"))["repeats"][0]
    assert "seat 3's win share" in cell and "not the same metric" in cell, cell
