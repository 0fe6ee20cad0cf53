"""A sweep page's sentences (revB #3, #4, #2): capped per comparison, never per parameter, with the
rest counted; a comparison with nothing clear has its own sentence; a metric that is the same number
as another (a one-seat role's share is its seat's) or its mirror (the other side's share) is named
in one sentence, not three; each sentence says where the other parameters were held, at the base
rules' value when the grid has it; and win shares get Wilson intervals, never below 0 nor of zero
width. Nothing is played: the variants and effects are built by hand (well under a second).
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pyarrow as pa
import pytest


def _seigneurial(winners: np.ndarray):
    """A 4-player Seigneurial variant whose game g is won by seat winners[g]."""
    from analysis.sweep.metrics import from_tables

    n, P = winners.size, 4
    w = np.zeros((n, P))
    w[np.arange(n), winners] = 1.0
    players = pa.table({"seat": np.tile(np.arange(P), n), "win_share": w.ravel()})
    return from_tables("seigneurial", P, players)


def test_a_one_seat_role_is_its_seat_and_the_other_side_is_its_mirror():
    from analysis.sweep.metrics import parameter_effects

    rng = np.random.default_rng(3)
    a = _seigneurial(rng.choice(4, size=3000, p=[0.05, 0.30, 0.30, 0.35]))
    b = _seigneurial(rng.choice(4, size=3000, p=[0.10, 0.30, 0.25, 0.35]))
    rows = {r["metric"]: r for r in parameter_effects(a, b)}
    assert rows["seat_win_share_1"]["same_as"] == "role_win_share_seigneur"
    assert rows["seat_win_share_1"]["mirror"] is False
    assert rows["role_win_share_censitaire"]["same_as"] == "role_win_share_seigneur"
    assert rows["role_win_share_censitaire"]["mirror"] is True
    assert rows["role_win_share_seigneur"]["same_as"] is None
    assert rows["seat_win_share_2"]["same_as"] is None      # a Censitaire seat is its own number


def _effect(parameter, frm, to, metric, delta, half, share=True, same_as=None, mirror=False):
    return {"parameter": parameter, "from": frm, "to": to, "numeric": False, "rising": False,
            "at": "track.goal.4 = 10 (the base rules' value)", "metric": metric,
            "label": metric.replace("_", " "), "unit": "pp" if share else "turns", "share": share,
            "delta": delta, "low": delta - half, "high": delta + half, "smallest": 0.01,
            "verdict": "clear and large enough to matter" if abs(delta) - half >= 0.01 else
            ("not shown" if abs(delta) < half else "clear but small"),
            "same_as": same_as, "mirror": mirror}


def test_sentences_are_capped_per_comparison_count_the_rest_and_speak_of_every_comparison():
    from reports.sweep import EFFECTS_TABLE, sweep_sentences

    rows = [_effect("payment.order", '"seat"', '"simultaneous"', f"seat_win_share_{s}", 0.02 * s, 0.005)
            for s in range(1, 7)]
    rows += [_effect("payment.order", '"seat"', '"simultaneous"', "role_win_share_x", 0.02, 0.005,
                     same_as="seat_win_share_1"),
             _effect("payment.order", '"seat"', '"simultaneous"', "role_win_share_y", -0.02, 0.005,
                     same_as="seat_win_share_1", mirror=True)]
    rows += [_effect("payment.order", '"seat"', '"rotating"', f"seat_win_share_{s}", 0.001, 0.005)
             for s in range(1, 4)]
    lines = sweep_sentences(pl.DataFrame(rows))
    simultaneous = [x for x in lines if '"simultaneous"' in x]
    # four share sentences (the largest first), then the two left out, counted
    assert len(simultaneous) == 5, lines
    assert "seat win share 6" in simultaneous[0]
    assert simultaneous[-1].startswith("… and 2 more clear effects") and EFFECTS_TABLE in simultaneous[-1]
    # the repeats are named in seat 1's sentence … which is past the cap here, so nowhere else
    assert not any("role win share x by" in x or "role win share y by" in x for x in lines)
    # the comparison with nothing clear has its own sentence, with where the others were held
    rotating = [x for x in lines if '"rotating"' in x]
    assert len(rotating) == 1 and "no headline metric beyond its noise" in rotating[0]
    assert "with track.goal.4 = 10 (the base rules' value)" in rotating[0]


def test_a_repeated_metric_is_named_in_the_sentence_of_the_one_it_repeats():
    from reports.sweep import sweep_sentences

    rows = [_effect("track.goal.4", "8", "12", "role_win_share_seigneur", -0.039, 0.004),
            _effect("track.goal.4", "8", "12", "seat_win_share_1", -0.039, 0.004,
                    same_as="role_win_share_seigneur"),
            _effect("track.goal.4", "8", "12", "role_win_share_censitaire", 0.039, 0.004,
                    same_as="role_win_share_seigneur", mirror=True)]
    lines = sweep_sentences(pl.DataFrame(rows))
    assert len(lines) == 1, lines
    assert ("seat win share 1 is the same number; role win share censitaire moves by as much the "
            "other way") in lines[0]


RULES = "[track]\ngoal = { 3 = 8, 4 = 10, 5 = 12 }\n[payment]\norder = \"seat\"\n"


def _grid(rules_text=RULES, settings=()):
    goals, orders = [8, 10, 12], ["seat", "simultaneous"]
    variants = [{"id": f"v{i:03d}", "label": "", "values": {"payment.order": o, "track.goal.4": g}}
                for i, (o, g) in enumerate((o, g) for o in orders for g in goals)]
    return {"mode": "grid", "rules_text": rules_text, "settings": list(settings), "variants": variants,
            "varies": [{"name": "payment.order", "values": orders},
                       {"name": "track.goal.4", "values": goals}]}


def test_a_grid_measures_each_parameter_at_the_base_rules_value_of_the_others_and_says_so():
    from analysis.sweep.metrics import condition_text, slices

    sw = _grid()
    chain = slices(sw)["payment.order"]
    assert [c["values"]["track.goal.4"] for c in chain] == [10, 10]      # not the first value, 8
    assert condition_text(sw, "payment.order") == "track.goal.4 = 10 (the base rules' value)"
    # the sweep's own --set moves the base; a base outside the grid falls back to the first value
    assert [c["values"]["track.goal.4"] for c in slices(_grid(settings=["track.goal.4=12"]))
            ["payment.order"]] == [12, 12]
    off = _grid(rules_text=RULES.replace("4 = 10", "4 = 9"))
    assert condition_text(off, "payment.order") == "track.goal.4 = 8 (its first value)"


def test_win_shares_get_wilson_intervals_not_negative_nor_zero_width():
    """revB #2: 0 wins in 20,000 games printed 0.0 (-0.0 to 0.0)."""
    from analysis.sweep.metrics import metric_table, summary_from_rows

    winners = np.r_[np.full(3, 0), np.full(19997, 2)]          # seat 1 wins 3 of 20,000, seat 2 none
    v = _seigneurial(winners)
    rows = {r["metric"]: r for r in metric_table(v)}
    for key in ("seat_win_share_1", "seat_win_share_2", "role_win_share_censitaire"):
        r = rows[key]
        assert 0.0 <= r["low"] <= r["estimate"] <= r["high"] <= 1.0, (key, r)
        assert r["high"] > r["low"], (key, r)
    assert rows["seat_win_share_2"]["low"] == 0.0 and rows["seat_win_share_2"]["high"] > 1e-4
    assert rows["seat_win_share_1"]["low"] == pytest.approx(3.09e-5, rel=0.02)   # export's Wilson
    est = summary_from_rows(v).estimates
    assert est["seat_win_share_2"][2] == 0.0 and est["seat_win_share_2"][3] > 1e-4
