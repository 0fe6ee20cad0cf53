""""What each setting does to the target" (review s48 tune #1): a share's interval never reaches
past ±100 pp, a line that moves a share by more than 100 pp is said not to fit, and with several
settings the page says the lines assume each setting acts alone."""

from __future__ import annotations

import numpy as np
import polars as pl

from reports.sweep import setting_effects

TUNE = {"game": "seigneurial", "varies": [{"name": "a", "kind": "int"}, {"name": "b", "kind": "int"}]}


def _trials(a, b, share) -> pl.DataFrame:
    return pl.DataFrame({"games": [4000] * len(a), "a": a, "b": b, "role_win_share_seigneur": share})


def test_an_interval_is_cut_at_what_a_share_can_move():
    rng = np.random.default_rng(2)
    a = [0, 3, 0, 3, 1, 2, 0, 3]
    b = [6, 6, 12, 12, 8, 10, 9, 7]
    # a's effect depends on b (an interaction) and the noise is large: the straight lines' intervals
    # run past ±100 pp before they are cut
    share = [min(max(0.02 + 0.15 * x * (12 - y) / 6 + rng.normal(0, 0.12), 0), 1) for x, y in zip(a, b)]
    e = setting_effects(_trials(a, b, share), TUNE, "role_win_share_seigneur")
    assert e.height == 2
    assert (e["low"] >= -100).all() and (e["high"] <= 100).all()
    X = np.column_stack([np.ones(8), a, b])
    coef, *_ = np.linalg.lstsq(X, np.array(share) * 100, rcond=None)
    got = {r["parameter"]: r for r in e.iter_rows(named=True)}
    assert abs(got["a"]["effect"] - coef[1] * 3) < 1e-9 and abs(got["b"]["effect"] - coef[2] * 6) < 1e-9
    for r in got.values():
        assert r["beyond"] == (abs(r["effect"]) > 100)


def test_a_line_past_one_hundred_points_is_flagged():
    a = [0, 10, 0, 10, 5, 2, 8, 3]
    b = [1, 1, 2, 2, 1, 2, 1, 2]
    share = [0.0, 1.0, 0.0, 1.0, 0.5, 0.2, 0.8, 0.3]
    big = _trials([x * 3 for x in a], b, share)           # the same shares over three times the span
    e = setting_effects(big, {**TUNE, "varies": TUNE["varies"]}, "role_win_share_seigneur")
    a_row = e.filter(pl.col("parameter") == "a").row(0, named=True)
    assert abs(a_row["effect"] - 100) < 1e-6 and not a_row["beyond"]
    over = _trials(a, b, [min(x / 8, 1.0) for x in a])     # 0 → 10 moves the line 125 pp
    e = setting_effects(over, TUNE, "role_win_share_seigneur")
    a_row = e.filter(pl.col("parameter") == "a").row(0, named=True)
    assert a_row["effect"] > 100 and a_row["beyond"] and a_row["high"] == 100
