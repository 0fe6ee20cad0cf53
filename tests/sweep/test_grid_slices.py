"""A grid sweep's effects at the other values of the held parameters (rev22 #10, #12).

A grid measured each parameter with the others held at one value (the base rules' value when the
grid has it) and only said "the effect at other values of the others can differ": in rev22's
payment.order × track.goal.4 sweep, seat → simultaneous moved the Seigneur +1.2 pp at goal 8 (clear)
against +0.4 pp within noise at the held goal 10, and the page never said so. Now the same
comparisons are made at every other slice of the grid (a second family: Bonferroni over those
comparisons), listed in their own table, and one sentence per parameter names the slices where a
verdict differs. The tornado chart no longer draws one number three times (seat 1, the Seigneur and
its mirror), and its caption says where the others were held.

Nothing is played: the sweep directory and its variants are written by hand (seat and win share
only), well under a second.
"""

from __future__ import annotations

import pytest
import json

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
from undrawn_figures import figures_undrawn

RULES = "[track]\ngoal = { 3 = 8, 4 = 10, 5 = 12 }\n[payment]\norder = \"seat\"\n"
N = 4000


def _winners(rng, p_seigneur: float) -> np.ndarray:
    rest = (1 - p_seigneur) / 3
    return rng.choice(4, size=N, p=[p_seigneur, rest, rest, rest])


def _sweep_dir(tmp_path):
    """A 2 × 2 Seigneurial grid written by hand: at goal 10 (the base rules') simultaneous moves
    nothing; at goal 8 it moves the Seigneur from 10 % to 20 % (a change no family can miss). The
    variants share their games: each starts from the same draws."""
    orders, goals = ["seat", "simultaneous"], [8, 10]
    p = {("seat", 8): 0.10, ("simultaneous", 8): 0.20, ("seat", 10): 0.10, ("simultaneous", 10): 0.10}
    variants = []
    for i, (o, g) in enumerate((o, g) for o in orders for g in goals):
        vid = f"v{i:03d}"
        variants.append({"id": vid, "label": f"payment.order={o}, track.goal.4={g}",
                         "values": {"payment.order": o, "track.goal.4": g}})
        d = tmp_path / "sw" / "variants" / vid
        d.mkdir(parents=True)
        (d / "run.json").write_text(json.dumps({
            "game": "seigneurial", "players": 4, "games": N, "seed": 0,
            "rules_name": f'rules.toml with --set payment.order="{o}", track.goal.4={g}'}))
        u = np.random.default_rng(7).random(N)          # the same games in every variant
        rest = np.random.default_rng(8).integers(1, 4, size=N)
        winners = np.where(u < p[(o, g)], 0, rest)
        w = np.zeros((N, 4))
        w[np.arange(N), winners] = 1.0
        pq.write_table(pa.table({"seat": np.tile(np.arange(4), N), "win_share": w.ravel()}),
                       d / "players.parquet")
    sweep = {"format": 1, "kind": "sweep", "game": "seigneurial", "players": None, "games": N,
             "seed": 0, "rules_name": "rules.toml", "rules_text": RULES, "settings": [],
             "strategies": None, "mode": "grid", "variants": variants,
             "varies": [{"text": "payment.order=[seat,simultaneous]", "name": "payment.order",
                         "kind": "list", "values": orders},
                        {"text": "track.goal.4=[8,10]", "name": "track.goal.4", "kind": "list",
                         "values": goals}]}
    (tmp_path / "sw" / "sweep.json").write_text(json.dumps(sweep))
    return tmp_path / "sw"


def test_other_slices_are_every_other_combination_of_the_held_parameters():
    from analysis.sweep.metrics import other_slices

    goals, orders = [8, 10, 12], ["seat", "simultaneous"]
    sw = {"mode": "grid", "rules_text": RULES, "settings": [],
          "variants": [{"id": f"v{i}", "values": {"payment.order": o, "track.goal.4": g}}
                       for i, (o, g) in enumerate((o, g) for o in orders for g in goals)],
          "varies": [{"name": "payment.order", "values": orders},
                     {"name": "track.goal.4", "values": goals}]}
    cuts = other_slices(sw)
    # payment.order is measured at goal 10 (the base rules'); its other slices are 8 and 12
    assert [held for held, _ in cuts["payment.order"]] == [{"track.goal.4": 8}, {"track.goal.4": 12}]
    assert [[c["id"] for c in chain] for _, chain in cuts["payment.order"]] == [["v0", "v3"], ["v2", "v5"]]
    assert [held for held, _ in cuts["track.goal.4"]] == [{"payment.order": "simultaneous"}]
    assert other_slices({**sw, "mode": "one-at-a-time"}) == {}


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_effect_at_the_other_slice_is_measured_in_its_own_family(tmp_path):
    from analysis import stats
    from analysis.sweep.metrics import load_variant, parameter_effects, sensitivity

    sw = _sweep_dir(tmp_path)
    s = sensitivity(sw)
    # the anchored family is unchanged: goal 10 for payment.order, nothing moves there
    anchored = s.effects.filter((pl.col("parameter") == "payment.order")
                                & (pl.col("metric") == "role_win_share_seigneur")).row(0, named=True)
    assert anchored["at"] == "track.goal.4 = 10 (the base rules' value)" and anchored["delta"] == 0
    e = s.slice_effects
    assert set(zip(e["parameter"], e["at"])) == {("payment.order", "track.goal.4 = 8"),
                                                  ("track.goal.4", 'payment.order = "simultaneous"')}
    row = e.filter((pl.col("parameter") == "payment.order")
                   & (pl.col("metric") == "role_win_share_seigneur")).row(0, named=True)
    # the second family: 2 comparisons, Bonferroni → each at 97.5 %, simultaneous over its metrics
    own = {r["metric"]: r for r in parameter_effects(
        load_variant(sw / "variants/v000"), load_variant(sw / "variants/v002"),
        level=1 - (1 - stats.LEVEL) / 2)}["role_win_share_seigneur"]
    assert row["delta"] == own["delta"] and row["low"] == own["low"] and row["high"] == own["high"]
    assert 0.09 < row["delta"] < 0.11 and row["verdict"] == stats.LARGE


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_page_names_the_slice_where_the_verdict_differs_and_tabulates_every_slice(tmp_path):
    from reports.sweep import SLICES_TABLE, build_sweep_report

    with figures_undrawn():     # the page's words are read, not its figures' pixels
        page = build_sweep_report(_sweep_dir(tmp_path), tmp_path / "rep").read_text()
    assert f"<h2>{SLICES_TABLE}</h2>" in page
    assert ("At track.goal.4 = 8 the same change moves the Seigneur&#x27;s win share by +"
            in page)
    assert "within noise, at track.goal.4 = 10 (the base rules&#x27; value)" in page
    assert "Bonferroni over those 2 comparisons" in page
    # raising the goal moves the Seigneur only at simultaneous payment: its own sentence says so
    assert ("At payment.order = &quot;simultaneous&quot; the same change moves the Seigneur&#x27;s "
            "win share by −") in page
    # the tornado's caption says where the others were held
    assert ("each with the other parameters held at payment.order = &quot;seat&quot; (the base "
            "rules&#x27; value); track.goal.4 = 10 (the base rules&#x27; value)") in page


def _row(at, metric, delta, half, verdict, label=None):
    return {"parameter": "payment.order", "from": '"seat"', "to": '"simultaneous"', "numeric": False,
            "rising": False, "at": at, "metric": metric, "label": label or metric, "unit": "pp",
            "share": True, "delta": delta, "low": delta - half, "high": delta + half,
            "smallest": 0.01, "verdict": verdict, "same_as": None, "mirror": False}


def test_the_slice_sentence_caps_at_three_slices_and_counts_the_rest():
    from analysis.stats import LARGE, NOT_SHOWN
    from reports.sweep import SLICES_TABLE, sweep_sentences

    held = "income.x = 3 (the base rules' value)"
    effects = pl.DataFrame([_row(held, "seat_win_share_2", 0.001, 0.004, NOT_SHOWN, "seat 2's win share")])
    slices = pl.DataFrame([_row(f"income.x = {k}", "seat_win_share_2", 0.02 + 0.01 * k, 0.004, LARGE,
                                "seat 2's win share") for k in range(5)]
                          + [_row("income.x = 9", "seat_win_share_2", 0.001, 0.004, NOT_SHOWN,
                                  "seat 2's win share")])
    lines = sweep_sentences(effects, slice_effects=slices)
    assert len(lines) == 2 and "no headline metric beyond its noise" in lines[0]
    last = lines[1]
    # the largest differences first, three named, the other two counted; the slice that agrees not named
    assert last.startswith("At income.x = 4 the same change moves seat 2's win share by +6.0 pp")
    assert "income.x = 3 the same" in last and "income.x = 2 the same" in last
    assert "income.x = 1 " not in last and "income.x = 9" not in last
    assert f"… and 2 more slices (the table \"{SLICES_TABLE}\")" in last
    assert last.count("against +0.1 pp (−0.3 to +0.5), within noise, at " + held) == 3


def test_a_parameter_with_the_same_verdicts_everywhere_says_so():
    from analysis.stats import LARGE
    from reports.sweep import SLICES_TABLE, sweep_sentences

    held = "income.x = 3 (the base rules' value)"
    effects = pl.DataFrame([_row(held, "seat_win_share_2", 0.03, 0.004, LARGE, "seat 2's win share")])
    slices = pl.DataFrame([_row("income.x = 5", "seat_win_share_2", 0.04, 0.005, LARGE,
                                "seat 2's win share")])
    lines = sweep_sentences(effects, slice_effects=slices)
    assert lines[-1] == ("The same change of payment.order gets the same verdict on every headline "
                         "metric at the other values of the other parameters (income.x = 5) as where "
                         f"these sentences hold them (the table \"{SLICES_TABLE}\").")
    assert len(sweep_sentences(effects)) == 1          # a sweep of one parameter: no such sentence


def test_the_tornado_draws_a_repeated_number_once():
    from reports.figures.sweep import tornado

    rows = [_row("", m, d, 0.004, "x", label=m) for m, d in
            (("role_win_share_seigneur", 0.03), ("seat_win_share_1", 0.03),
             ("role_win_share_censitaire", -0.03), ("seat_win_share_2", -0.01))]
    rows[1]["same_as"] = rows[2]["same_as"] = "role_win_share_seigneur"
    rows[2]["mirror"] = True
    fig = tornado(pl.DataFrame(rows), True, "coins")
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert len(labels) == 2 and not any("seat_win_share_1" in x or "censitaire" in x for x in labels)
