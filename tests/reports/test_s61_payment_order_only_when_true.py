"""Seigneurial's payment-order sentence ("the Censitaire seats' gap follows in part from
payment.order = "seat" … the later ones pay less and keep more") is said only where it is true for
the run: the Censitaire seats all play one bot (or the seats were rotated, so the bots do not
explain a seat's share) and a later payer is the one ahead; and it quotes no gap measured on
another line-up or player count as if it were the run's (review s61 fix 258 #1: a 3-player run of
harsh-lord,objective,dutiful got the sentence while Seat 2, the FIRST payer playing another bot than
Seat 3, took 61.6% of the Censitaires' wins, beside "a largest gap of 2.9 pp", measured with the
default bots at 4 players)."""

from __future__ import annotations

import polars as pl
import pytest

from analysis import analyse, open_runs
from reports.games.seigneurial import payment_order_headlines
from tests.in_process import balance

# the tests' CPU over docs/testing.md's budget (session 63): this module runs in make test-slow
# and CI, not in make test
pytestmark = pytest.mark.slow

SAID = "--set payment.order=simultaneous"


@pytest.fixture(scope="module")
def default_run(tmp_path_factory):
    """The default line-up (standard in every seat, 4 players), whose seat-order gap is clear at
    20,000 games: Seat 4, the last payer, ahead (docs/seigneurial.md, "Payment order")."""
    run = tmp_path_factory.mktemp("s61po") / "sg"
    balance("simulate", "--game", "seigneurial", "--games", "20000", "--seed", "3", "--out", run)
    rs = open_runs([run])
    return rs, analyse(rs)


def _with_meta(rs, **changes):
    return type(rs)(**{**rs.__dict__, "metas": ({**rs.metas[0], **changes},)})


def _flipped(t: dict) -> dict:
    """The same tables with the Censitaire seats' shares in reverse seat order (the first payer
    ahead)."""
    seats = t["role_seats"]
    part = seats.filter(pl.col("role") == "censitaire").sort("seat")
    flipped = dict(zip(part["seat"].to_list(), reversed(part["share_of_role"].to_list())))
    shares = [flipped.get(s, x) for s, x in zip(seats["seat"].to_list(), seats["share_of_role"].to_list())]
    return {**t, "role_seats": seats.with_columns(pl.Series("share_of_role", shares))}


def test_said_of_one_bot_in_every_censitaire_seat_with_a_later_payer_ahead_and_no_borrowed_figure(default_run):
    rs, t = default_run
    lines = payment_order_headlines(t, rs)
    assert len(lines) == 1 and SAID in lines[0] and 'payment.order = "seat"' in lines[0]
    line = lines[0]
    assert "2.9 pp" not in line and "0.2 pp" not in line and "200,000" not in line
    # it names this run's seats: the later payer ahead of the earlier one
    part = t["role_seats"].filter(pl.col("role") == "censitaire").sort("share_of_role")
    ahead, behind = int(part["seat"][-1]) + 1, int(part["seat"][0]) + 1
    assert ahead > behind and f"Seat {ahead}" in line and f"Seat {behind}" in line


def test_not_said_when_the_first_payer_is_ahead(default_run):
    rs, t = default_run
    assert payment_order_headlines(_flipped(t), rs) == []


def test_not_said_when_the_censitaire_seats_play_different_bots_unless_the_seats_rotate(default_run):
    rs, t = default_run
    mixed = ["even-lord", "objective", "dutiful", "fair-share"]
    assert payment_order_headlines(t, _with_meta(rs, strategies=mixed)) == []
    # the seats rotated: each bot sat in every seat, so a seat's share is not its bot's
    assert len(payment_order_headlines(t, _with_meta(rs, strategies=mixed, rotate_seats=True))) == 1
    # the Seigneur's bot is not a Censitaire seat's: another lord, the same sentence
    assert len(payment_order_headlines(t, _with_meta(rs, strategies=["harsh-lord"] + ["standard"] * 3))) == 1


def test_the_reviews_run_first_payer_ahead_with_different_bots_gets_no_word_of_payment_order(tmp_path):
    run, out = tmp_path / "A", tmp_path / "RA"
    balance("simulate", "--game", "seigneurial", "--players", "3", "--strategies",
            "harsh-lord,objective,dutiful", "--games", "10000", "--seed", "1", "--out", run)
    rs = open_runs([run])
    assert payment_order_headlines(analyse(rs), rs) == []
    done = balance("report", run, "--out", out)
    page = (out / "report.html").read_text()
    assert "payment.order" not in page and "payment.order" not in done.stdout
