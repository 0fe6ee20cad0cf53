"""The event ablation replays its deals at fixed seats, so where the seats hold different bots its
"Seat 1" is always one bot (review s61 #1: on a rotated run the headline "+6.8 pp for Seat 1"
measured the eventwise bot, beside the run's own Seat 1 that every bot held in turn). The
headline, the "Moves who wins by" cells and the seat columns name the bot with the seat, and on a
rotated run the headline says the effect is that bot's at that seat of the ablation's fixed
seating. Two cards of the reviewer's table (balance questions on a 20,000-game rotated run,
1,000 games per deck), copied here so the test plays no game."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import polars as pl
import pytest

from reports.games import middle_ages as M
from reports.questions import Questions

TABLE = {
    "event": [5, 5, 5, 5, 7, 7, 7, 7], "name": ["Nouvelles défenses"] * 4 + ["Pic de natalité"] * 4,
    "seat": [0, 1, 2, 3, 0, 1, 2, 3], "fires": [0.243] * 4 + [0.261] * 4,
    "unchanged_when_not_drawn": [True] * 8,
    "win_share_effect": [0.068, -0.024, -0.044, 0.0, -0.001, 0.004, -0.003, 0.0],
    "win_share_effect_low": [0.03701360079432295, -0.048341331438516065, -0.07803512490306393,
                             -0.006987640973344626, -0.027292525585887926, -0.019579737429314615,
                             -0.03141033333654757, -0.006994641824570589],
    "win_share_effect_high": [0.1018202380943222, -0.0021528570756110046, -0.011524247384228352,
                              0.006987640973344626, 0.02522232983892777, 0.027947841948779455,
                              0.025240562769429528, 0.006994641824570589],
    "score_effect": [6.514, -0.108, 0.729, 0.282, 1.523, 2.042, 1.789, 0.568],
    "score_effect_low": [4.2654904039974095, -1.5213384297716106, -0.8024898288979186, -0.8088477082505938,
                         -0.0698655893023723, 0.663031135768412, 0.5881894685665585, -0.4419340622126594],
    "score_effect_high": [8.762509596002591, 1.3053384297716104, 2.2604898288979185, 1.3728477082505939,
                          3.115865589302372, 3.420968864231588, 2.9898105314334416, 1.5779340622126594]}
MOVES = "Moves who wins by (its clear effect, all games)"


def _section(strategies, rotated: bool):
    q = Questions(Path("q/rot"), {"game": "middle-ages", "games": 1000, "players": 4, "seed": 0,
                                  "strategies": strategies,
                                  "smallest_difference": {"share": 0.01, "score": 2.0}},
                  {"event_ablation": pl.DataFrame(TABLE)})
    rs = SimpleNamespace(metas=({"rotate_seats": rotated},), smallest=None)
    return M._ablation_section(q, rs)


@pytest.mark.parametrize("rotated", [True, False])
def test_the_ablation_names_the_bot_at_each_seat_when_the_seats_hold_different_bots(rotated):
    sec = _section(["eventwise", "balanced", "warlord", "random"], rotated)
    head = sec.sentences[0]
    assert "+6.8 pp for the eventwise bot at Seat 1" in head, head
    assert "moves the eventwise bot by" in head, head
    assert ("fixed seating" in head and "not the effect on the run's own Seat 1" in head) == rotated, head
    for _, table in sec.tables:
        assert "Seat 1 (eventwise): win share (pp)" in table.columns, table.columns
        assert "Seat 4 (random): score (coins)" in table.columns, table.columns
        assert not any(c.startswith("Seat 2:") for c in table.columns), table.columns
    moves = sec.tables[0][1][MOVES].to_list()
    assert moves[0] == "+6.8 pp, Seat 1 (eventwise)", moves


@pytest.mark.parametrize("strategies", [["random"] * 4, ["random"], None])
def test_one_bot_at_every_seat_is_named_by_its_seat_alone(strategies):
    sec = _section(strategies, True)
    head = sec.sentences[0]
    assert "+6.8 pp for Seat 1 (" in head and " bot" not in head.split("neutral")[0], head
    assert "fixed seating" not in head, head
    assert "Seat 1: win share (pp)" in sec.tables[0][1].columns
    assert sec.tables[0][1][MOVES][0] == "+6.8 pp, Seat 1"


def test_balance_questions_prints_the_bot_beside_the_seat_when_the_seats_hold_different_bots(capsys):
    """The terminal summary of ``balance questions`` too ("+6.80 pp seat 1" read as the run's seat
    1 on a rotated run)."""
    from analysis import stats
    from cli.questions import _print_event_cards

    df = M.worded(pl.DataFrame(TABLE), {})[0].with_columns(pl.lit(stats.LARGE).alias("score_verdict_when_drawn"))
    meta = {"games": 1000, "smallest_difference": {"share": 0.01, "score": 2.0}}
    _print_event_cards(df, {**meta, "strategies": ["eventwise", "balanced", "warlord", "random"]})
    out = capsys.readouterr().out
    assert "+6.80 pp seat 1 (eventwise) (" in out, out
    assert "coins seat 1 (eventwise) (" in out, out
    _print_event_cards(df, {**meta, "strategies": ["random"] * 4})
    out = capsys.readouterr().out
    assert "+6.80 pp seat 1 (" in out and "(eventwise)" not in out, out
