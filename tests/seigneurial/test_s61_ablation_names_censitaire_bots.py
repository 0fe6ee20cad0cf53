"""Seigneurial's card ablation names a Censitaire seat with its bot where the seats hold different
bots (review s61 #1, checked on the other games' ablations: "Corvee moves Seat 3's win share by …"
beside a line-up whose Seat 3 is one bot and Seat 2 another); with one Censitaire bot the seat
alone. A small synthetic table read through the report's section."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from reports.games import seigneurial as G
from reports.questions import Questions


def _row(card, seat, effect, low, high, verdict, score=0.0, score_verdict="within noise"):
    return {"card": card, "name": card.title(), "deck": "Censitaire", "neutral": f"{card}_x = 0",
            "seat": seat, "seat_label": f"Seat {seat + 1}", "role": "Seigneur" if seat == 0 else "Censitaire",
            "games_changed": 0.4, "win_share_with": 0.05, "win_share_neutral": 0.05 - effect,
            "win_share_effect": effect, "win_share_effect_low": low, "win_share_effect_high": high,
            "score_effect": score, "score_effect_low": score - 1, "score_effect_high": score + 1,
            "swing": abs(effect), "verdict": verdict, "score_verdict": score_verdict}


TABLE = [_row("corvee", 0, 0.004, -0.002, 0.01, "within noise", score=5.0,
              score_verdict="clear and large enough to matter"),
         _row("corvee", 1, -0.03, -0.05, -0.015, "clear and large enough to matter", score=-6.0),
         _row("corvee", 2, 0.026, 0.012, 0.04, "clear and large enough to matter")]


def _section(strategies):
    q = Questions(Path("q"), {"game": "seigneurial", "games": 4000, "players": 3, "seed": 0,
                              "strategies": strategies, "smallest_difference": {"share": 0.01, "score": 2.0}},
                  {"card_ablation": pl.DataFrame(TABLE)})
    return G._ablation_section(q, None)


def test_a_censitaire_seat_is_named_with_its_bot_when_the_seats_hold_different_bots():
    sec = _section(["even-lord", "fair-share", "dutiful"])
    text = " ".join(sec.sentences)
    assert "Corvee moves Seat 2 (fair-share)'s win share by −3.00 pp" in text, text
    assert "Corvee moves Seat 3 (dutiful)'s win share by +2.60 pp" in text, text
    assert "−6.00 points at Seat 2 (fair-share) (" in text, text     # (its hyphen not made a minus)
    assert "+5.00 points at Seat 1 (the Seigneur, even-lord) (" in text, text
    assert sec.tables[1][1]["Seat"].to_list() == ["Seat 2 (fair-share)", "Seat 3 (dutiful)"]


@pytest.mark.parametrize("strategies", [["fair-share"], None])
def test_one_bot_at_every_seat_is_named_by_its_seat_alone(strategies):
    sec = _section(strategies)
    text = " ".join(sec.sentences)
    assert "Corvee moves Seat 2's win share by −3.00 pp" in text and "(fair-share)" not in text, text
    assert "+5.00 points at Seat 1 (the Seigneur) (" in text, text
    assert sec.tables[1][1]["Seat"].to_list() == ["Seat 2", "Seat 3"]
