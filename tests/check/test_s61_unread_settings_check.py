"""A check compares each cell's rules as that cell's player count reads them (review s61 #1).

``balance check --baseline PANEL --set track.goal.4=11`` said "rules differ … track.goal.4 10 → 11"
on its 3-player cells, where the 4-player goal is never read, and a baseline recorded with
``setup.start_coins[0]=1`` ([1, 0, 0] at 3 players) checked with ``setup.start_coins=[1,0,0,0]`` said
the coins differed at 3 players, where every seat plays the same coins. Now a setting a count does
not read is no change of its games: it is named as "not read at 3 players", never as a rules change,
and the note does not call the settings "the same (only comments or layout differ)". The rules are
real (the game's own loader reads them); no game is played."""

from __future__ import annotations

import hashlib
from pathlib import Path

from analysis.check.baseline import Baseline, rules_changes, unread_changes
from analysis.check.decision import CheckResult, check_notes, compare
from analysis.check.measure import DEFAULT_TOLERANCE, Measurement
from analysis.check.panel import PanelCheck
from analysis.check.presentation import panel_report
from analysis.rules_diff import read_at, settings_diff, unread_at
from simcore.runner import rules_source


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _share(key: str, value: float) -> Measurement:
    return Measurement("seat_win_share", key, f"{key} win share", value, value - 0.2, value + 0.2, 0.1, 10_000)


def _baseline(game: str, players: int, text: str) -> Baseline:
    return Baseline(path=Path("cell.toml"), game=game, players=players, strategies=["x"] * players,
                    rotate_seats=False, engine="kernel", seed=7, games=10_000, rules="default",
                    rules_sha256=_sha(text), version="", created_utc="", alpha=0.05, check_games=10_000,
                    seed_offset=1, on_inconclusive="pass", tolerance=dict(DEFAULT_TOLERANCE),
                    metrics=[_share("Seat 1", 50.0), _share("Seat 2", 50.0)], measured_rules=text)


def _result(game: str, players: int, before: str, after: str) -> CheckResult:
    b = _baseline(game, players, before)
    meta = {"game": game, "players": players, "games": 3000, "seed": 8, "rules_sha256": _sha(after),
            "rules_text": after, "rules_name": "rules.toml with --set"}
    changes, unread = rules_changes(b, meta), unread_changes(b, meta)
    return CheckResult(b, compare(b.metrics, [_share("Seat 1", 50.0), _share("Seat 2", 50.0)], [1.0, 1.0]),
                       0.05, 0.05, meta, "runs/x", check_notes(b, meta, changes=changes, unread=unread),
                       games=3000, max_games=9000, rules_changes=changes, rules_unread=unread)


def test_a_goal_of_another_player_count_is_no_rules_change_of_a_cell():
    before = rules_source("seigneurial", None, ()).text
    after = rules_source("seigneurial", None, ["track.goal.4=11"]).text
    changes = settings_diff(before, after)
    assert [c.inline for c in changes] == ["track.goal.4 10 → 11"]
    assert read_at(changes, before, after, "seigneurial", 3) == []
    assert read_at(changes, before, after, "seigneurial", 5) == []
    assert read_at(changes, before, after, "seigneurial", 4) == changes
    # a setting every count reads stays, beside one this count does not read
    both = rules_source("seigneurial", None, ["track.goal.4=11", "track.start_square=1"]).text
    two = settings_diff(before, both)
    assert [c.path for c in read_at(two, before, both, "seigneurial", 3)] == ["track.start_square"]
    assert [c.path for c in unread_at(two, before, both, "seigneurial", 3)] == ["track.goal.4"]


def test_start_coins_listed_past_the_seats_played_are_the_same_coins():
    before = rules_source("middle-ages", None, ["setup.start_coins[0]=1"], seats=3).text
    after = rules_source("middle-ages", None, ["setup.start_coins=[1,0,0,0]"]).text
    changes = settings_diff(before, after)
    assert [c.inline for c in changes] == ["setup.start_coins [1, 0, 0] → [1, 0, 0, 0]"]
    assert read_at(changes, before, after, "middle-ages", 3) == []
    # a coin a seat of the count is dealt differently is a change
    other = rules_source("middle-ages", None, ["setup.start_coins=[1,0,2,0]"]).text
    assert read_at(settings_diff(before, other), before, other, "middle-ages", 3) != []


def test_the_panel_check_names_the_unread_setting_and_counts_only_cells_whose_rules_differ():
    before = rules_source("seigneurial", None, ()).text
    after = rules_source("seigneurial", None, ["track.goal.4=11"]).text
    cells = [_result("seigneurial", 3, before, after), _result("seigneurial", 4, before, after)]
    lines = panel_report(PanelCheck(["3p cell", "4p cell"], cells, 0.05, 0.025))
    assert "(rules differ from the baseline in 1 of 2 cells, each cell's line says how)" in lines[0], lines[0]
    assert lines[1].startswith("3p cell: PASS (settings not read at 3 players: track.goal.4 10 → 11): "), lines[1]
    assert "rules differ" not in lines[1]
    assert lines[2].startswith("4p cell: PASS (rules differ from the baseline: track.goal.4 10 → 11"), lines[2]
    # the note does not call settings that differ "the same"
    note = next(n for n in cells[0].notes if n.startswith("rules differ from the baseline's"))
    assert "only comments or layout differ" not in note
    assert "not read at 3 players (track.goal.4 10 → 11)" in note, note


def test_a_start_coins_list_longer_than_the_seats_is_not_said_to_differ_at_3_players():
    before = rules_source("middle-ages", None, ["setup.start_coins[0]=1"], seats=3).text
    after = rules_source("middle-ages", None, ["setup.start_coins=[1,0,0,0]"]).text
    res = _result("middle-ages", 3, before, after)
    lines = panel_report(PanelCheck(["3p cell"], [res], 0.05, 0.025))
    assert "rules differ" not in "\n".join(lines), lines
    assert "settings not read at 3 players: setup.start_coins [1, 0, 0] → [1, 0, 0, 0]" in lines[0], lines[0]
