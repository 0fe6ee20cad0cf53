"""The seat imbalance named beside the seat whose estimate it repeats, when their intervals or
verdicts differ (designer review of session 57 B's fix): Middle-Ages `--vary
'setup.start_coins[0]=0..4' --games 20000 --seed 1`, table "Every two values", row 1 → 2: the seat
imbalance −0.45 pp (−0.71 to +0.26) "within noise", its "repeats" cell "not the same metric, the
same change, the other way, as seat 1's win share here"; seat 1's win share +0.45 (+0.19 to +0.71)
"clear but small". Two verdicts for what the page called one change, and no word on why: the
imbalance's interval also allows for another seat having been the furthest from fair
(analysis.stats.max_distance_change), so it is wider. Seat 1 was the furthest by the estimates
only, not clearly by the intervals the imbalance is built from.

Now a seat is said to be the one the imbalance follows only when it is clearly the furthest at both
values (``follows_clear``); otherwise the page says the estimates agree and why the interval is
wider, and names both verdicts where they differ."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from tests.sweep.test_s57_imbalance_bar_as_a_seats import _variant


def _by_metric(a, b) -> dict[str, dict]:
    from analysis.sweep.metrics import parameter_effects

    return {r["metric"]: r for r in parameter_effects(a, b)}


def _winners(counts: list[int], rng: np.random.Generator) -> np.ndarray:
    return rng.permutation(np.repeat(np.arange(len(counts)), counts))


def test_a_seat_furthest_only_by_the_estimates_is_not_said_to_be_followed():
    """Seat 1 below fair at 18%, seat 2 at 19%: seat 1 is the furthest by the estimates, not by
    their intervals. Raising the parameter moves 90 of 20,000 games' wins from seat 3 to seat 1 (a
    clear +0.45 pp, paired); the imbalance's estimate is −0.45 pp, its interval wider."""
    rng = np.random.default_rng(7)
    wa = _winners([3600, 3800, 6300, 6300], rng)
    wb = wa.copy()
    wb[np.flatnonzero(wa == 2)[:90]] = 0
    e = _by_metric(_variant(wa), _variant(wb))
    bal, s1 = e["balance"], e["seat_win_share_1"]
    assert bal["delta"] == pytest.approx(-s1["delta"], abs=1e-12)      # the same estimate, the other way
    assert bal["follows"] == "seat_win_share_1" and bal["follows_mirror"] is True
    assert bal["follows_clear"] is False
    assert bal["follows_interval"] == "wider"
    assert s1["low"] > 0 and bal["low"] < 0 <= bal["high"]            # seat 1 clear, the imbalance not
    assert bal["follows_verdict"] == s1["verdict"] != bal["verdict"]
    assert all(r["follows"] is None for k, r in e.items() if k != "balance")


def test_a_seat_clearly_furthest_at_both_values_is_followed_with_its_interval():
    rng = np.random.default_rng(1)
    n = 20000
    a = _variant(rng.choice(4, size=n, p=[0.23, 0.245, 0.30, 0.225]))
    b = _variant(rng.choice(4, size=n, p=[0.22, 0.225, 0.31, 0.245]))
    bal = _by_metric(a, b)["balance"]
    assert bal["follows"] == "seat_win_share_3" and bal["follows_clear"] is True
    assert bal["follows_interval"] == "same"


def _made_up(balance: dict, seat: dict) -> pl.DataFrame:
    """One comparison's rows as the page reads them: the seat imbalance and seat 1's win share
    (plus seat 2's, unmoved), the review's numbers in shares."""
    base = {"parameter": "setup.start_coins[0]", "from": "1", "to": "2", "at": "", "numeric": True,
            "rising": True, "unit": "pp", "share": True, "smallest": 0.01, "same_as": None,
            "mirror": False, "follows": None, "follows_mirror": False, "follows_clear": False,
            "follows_interval": None, "follows_verdict": None, "games": 20000}
    rows = [{**base, "metric": "balance",
             "label": "the seat imbalance (the largest distance of a seat's win share from the fair share)",
             **balance},
            {**base, "metric": "seat_win_share_1", "label": "seat 1's win share", **seat},
            {**base, "metric": "seat_win_share_2", "label": "seat 2's win share", "delta": 0.0001,
             "low": -0.002, "high": 0.002, "low_unadjusted": -0.001, "high_unadjusted": 0.001,
             "verdict": "not shown"}]
    return pl.DataFrame(rows)


@pytest.fixture()
def not_clear() -> pl.DataFrame:
    """The review's row 1 → 2: the imbalance −0.45 (−0.71 to +0.26) within noise, seat 1 +0.45
    (+0.19 to +0.71) clear but small; seat 1 furthest by the estimates only."""
    return _made_up({"delta": -0.0045, "low": -0.0071, "high": 0.0026, "low_unadjusted": -0.006,
                     "high_unadjusted": 0.002, "verdict": "not shown", "follows": "seat_win_share_1",
                     "follows_mirror": True, "follows_clear": False, "follows_interval": "wider",
                     "follows_verdict": "clear but small"},
                    {"delta": 0.0045, "low": 0.0019, "high": 0.0071, "low_unadjusted": 0.0025,
                     "high_unadjusted": 0.0065, "verdict": "clear but small"})


def test_the_repeats_cell_says_same_estimate_wider_interval_and_both_verdicts(not_clear):
    from reports.sweep import effects_table

    cell = effects_table(not_clear).filter(pl.col("metric").str.starts_with("the seat imbalance"))["repeats"][0]
    assert "the same change" not in cell, cell
    assert "the same estimate" in cell and "the other way" in cell and "seat 1's win share" in cell, cell
    assert "not clearly" in cell, cell
    assert "wider interval" in cell and "another seat" in cell, cell
    assert "within noise" in cell and "clear but small" in cell, cell


def test_the_sentence_bar_and_caption_do_not_call_them_one_change(not_clear):
    from reports.figures.sweep import tornado
    from reports.sweep import effect_sentence, tornado_caption_notes

    row = not_clear.filter(pl.col("metric") == "balance").row(0, named=True)
    said = effect_sentence(row)
    assert "by as much as seat 1's win share" not in said, said
    assert "the same estimate" in said and "not clearly" in said and "wider" in said, said
    assert "within noise" in said and "clear but small" in said, said
    fig = tornado(not_clear, True, "coins")
    labels = [t.get_text() for ax in fig.axes for t in ax.get_yticklabels()]
    bar = next(x for x in labels if "seat imbalance" in x)
    assert "= seat 1's change" not in bar and "seat 1" in bar, bar
    notes = tornado_caption_notes(not_clear)
    assert "the same change" not in notes, notes
    assert "same estimate" in notes and "not clearly" in notes and "wider" in notes, notes
    assert "within noise" in notes and "clear but small" in notes, notes


def test_a_clear_seat_with_the_same_interval_is_still_one_change():
    from reports.figures.sweep import tornado
    from reports.sweep import effects_table, tornado_caption_notes

    e = _made_up({"delta": 0.008, "low": 0.003, "high": 0.013, "low_unadjusted": 0.004,
                  "high_unadjusted": 0.012, "verdict": "clear but small", "follows": "seat_win_share_1",
                  "follows_mirror": False, "follows_clear": True, "follows_interval": "same",
                  "follows_verdict": "clear but small"},
                 {"delta": 0.008, "low": 0.003, "high": 0.013, "low_unadjusted": 0.0045,
                  "high_unadjusted": 0.0115, "verdict": "clear but small"})
    cell = effects_table(e).filter(pl.col("metric").str.starts_with("the seat imbalance"))["repeats"][0]
    assert "the same change and interval" in cell and "clearly the furthest" in cell, cell
    assert "wider" not in cell and "within noise" not in cell, cell
    labels = [t.get_text() for ax in tornado(e, True, "coins").axes for t in ax.get_yticklabels()]
    assert any("(= seat 1's change here)" in x for x in labels), labels
    assert "the same change and interval" in tornado_caption_notes(e)


def test_a_clear_seat_with_another_interval_says_which_is_narrower():
    from reports.sweep import effects_table

    e = _made_up({"delta": 0.008, "low": 0.004, "high": 0.012, "low_unadjusted": 0.0045,
                  "high_unadjusted": 0.0115, "verdict": "clear but small", "follows": "seat_win_share_1",
                  "follows_mirror": False, "follows_clear": True, "follows_interval": "narrower",
                  "follows_verdict": "clear but small"},
                 {"delta": 0.008, "low": 0.003, "high": 0.013, "low_unadjusted": 0.0045,
                  "high_unadjusted": 0.0115, "verdict": "clear but small"})
    cell = effects_table(e).filter(pl.col("metric").str.starts_with("the seat imbalance"))["repeats"][0]
    assert "the same estimate" in cell and "narrower interval" in cell, cell
    assert "the same change and interval" not in cell, cell
