"""Seigneurial: when the Censitaire seats do not win equally often and the rent was paid in seat
order (SG-5.4 payment.order = "seat", an assumption of the spec), the report says the order is a
setting that makes such a gap, with the command that plays the book's hourglass (review s49
reports, an opinion acted on: a designer could compensate Seat 4 for the payment order)."""

from __future__ import annotations

import json

from analysis import analyse, open_runs
from reports.games.seigneurial import payment_order_headlines
from tests.in_process import balance
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

SAID = "--set payment.order=simultaneous"


def test_said_for_a_seat_order_run_whose_censitaire_seats_differ_and_not_otherwise(tmp_path):
    run = tmp_path / "sg"
    balance("simulate", "--game", "seigneurial", "--games", "20000", "--seed", "3", "--out", run)
    rs = open_runs([run])
    t = analyse(rs)
    part = t["role_seats"].filter(t["role_seats"]["role"] == "censitaire")
    col = "chi2_p_adjusted" if "chi2_p_adjusted" in part.columns else "p_value"
    assert part[col][0] < 0.05                     # the default order's gap, at 20,000 games
    lines = payment_order_headlines(t, rs)
    assert len(lines) == 1 and SAID in lines[0] and 'payment.order = "seat"' in lines[0]
    # the same tables under another order: nothing said
    meta = json.loads((run / "run.json").read_text())
    text = meta["rules_text"].replace('order = "seat"', 'order = "simultaneous"')
    assert text != meta["rules_text"]
    other = type(rs)(**{**rs.__dict__, "metas": ({**meta, "rules_text": text},)})
    assert payment_order_headlines(t, other) == []
