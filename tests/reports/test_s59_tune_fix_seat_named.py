"""Helper 234 #2: docs/sweep.md says a per-seat setting "is named with its seat everywhere a
designer reads it" (review s59 fx229 #4 fixed the headline, the verdict's tied trials and
best_rules.toml's first line), yet the advice after the verdict read "Undecided: … whether trial
6's fix (setup.start_coins[0]=1, setup.start_coins[2]=3) meets the target", and the same went for
the closest candidate of a missed target ("trial 6 (setup.start_coins[0]=8, …)") with its edge
line ("setup.start_coins[0] = 8 is the highest value searched"), the page's tied trials when none
meets the target ("trial 9, setup.start_coins[0] = 5, …") and the best that is the start rules
("trial 2 (setup.start_coins[0]=0, …) is the start rules"). Each now names the seat after the
path: "setup.start_coins[0]=1 (seat 1's)", as the headline does. Nothing is played: tune.json and
result.json are written by hand (revF's Middle-Ages tune of start coins 0 and 2)."""

from __future__ import annotations

import polars as pl

from tests.reports.test_tune_says_what_to_change import TUNE

FIX = ["setup.start_coins[0]=1", "setup.start_coins[2]=3"]
NAMED = "setup.start_coins[0]=1 (seat 1's), setup.start_coins[2]=3 (seat 3's)"
VARIES = [{"name": "setup.start_coins[0]", "kind": "int", "lo": 0, "hi": 8, "step": 1},
          {"name": "setup.start_coins[2]", "kind": "int", "lo": 0, "hi": 8, "step": 1}]


def _result(outcome: str, values: dict) -> dict:
    settings = [f"{k}={v}" for k, v in values.items()]
    return {"best_trial": 6, "values": values, "settings": settings, "met": outcome == "met",
            "unchanged": False,
            "confirm": {"label": "4p 4×balanced", "players": 4, "outcome": outcome, "targets": []}}


def test_the_undecided_advice_names_each_seat_of_the_fix():
    from reports.sweep import adopt_advice

    said = " ".join(adopt_advice({**TUNE, "varies": VARIES},
                                 _result("unclear", {"setup.start_coins[0]": 1, "setup.start_coins[2]": 3})))
    assert f"whether trial 6's fix ({NAMED}) meets the target" in said, said


def test_the_missed_advice_names_each_seat_of_the_closest_candidate_and_its_edge():
    from reports.sweep import adopt_advice

    said = " ".join(adopt_advice({**TUNE, "varies": VARIES},
                                 _result("missed", {"setup.start_coins[0]": 8, "setup.start_coins[2]": 3})))
    assert ("trial 6 (setup.start_coins[0]=8 (seat 1's), setup.start_coins[2]=3 (seat 3's)), "
            "missed it") in said, said
    assert ("setup.start_coins[0] (seat 1's) = 8 is the highest value searched: try --vary "
            "setup.start_coins[0]=8..12") in said, said


def test_the_missed_advice_on_the_terminal_names_each_seat(tmp_path):
    import json

    from cli.tune import follow_up_lines

    (tmp_path / "tune.json").write_text(json.dumps({**TUNE, "varies": VARIES}), encoding="utf-8")
    lines = follow_up_lines(_result("missed", {"setup.start_coins[0]": 8, "setup.start_coins[2]": 3}),
                            "middle-ages", tmp_path, [], ["seat-balance:2"])
    said = " ".join(lines)
    assert "trial 6 (setup.start_coins[0]=8 (seat 1's), setup.start_coins[2]=3 (seat 3's))" in said, said
    assert "setup.start_coins[0] (seat 1's) = 8 is the highest value searched" in said, said


def test_the_page_names_each_seat_of_the_tied_trials_when_none_meets_the_target():
    from reports.sweep import as_good_section

    rows = [(6, 1, 3, 1.2, 0.5, 1.9), (9, 5, 5, 1.3, 0.6, 2.0)]
    trials = pl.DataFrame({"trial": [r[0] for r in rows], "state": ["complete"] * 2,
                           "setup.start_coins[0]": [r[1] for r in rows],
                           "setup.start_coins[2]": [r[2] for r in rows], "games": [8000] * 2,
                           "objective": [r[3] for r in rows], "low": [r[4] for r in rows],
                           "high": [r[5] for r in rows], "met": [False] * 2,
                           **{f"seat_win_share_{s}": [0.25] * 2 for s in (1, 2, 3, 4)}})
    [sec] = as_good_section(TUNE, {"best_trial": 6}, trials, "middle-ages")
    said = " ".join(sec.sentences)
    assert "trial 9, setup.start_coins[0] (seat 1's) = 5, setup.start_coins[2] (seat 3's) = 5:" in said, said


def test_the_best_that_is_the_start_rules_names_each_seat():
    from reports.sweep import seat_sections

    result = {**_result("met", {"setup.start_coins[0]": 0, "setup.start_coins[2]": 0}), "best_trial": 2}
    secs = seat_sections(TUNE, result, pl.DataFrame(), "middle-ages")
    said = " ".join(" ".join(s.sentences) for s in secs)
    assert ("trial 2 (setup.start_coins[0]=0 (seat 1's), setup.start_coins[2]=0 (seat 3's)), is the "
            "start rules") in said, said


def test_the_candidates_that_met_name_each_seat_of_their_changes():
    from reports.sweep import met_candidates

    trials = pl.DataFrame({"trial": [3, 4], "state": ["complete"] * 2, "setup.start_coins[0]": [1, 0],
                           "setup.start_coins[2]": [3, 2], "games": [8000] * 2,
                           "objective": [0.5, 0.6], "low": [0.1, 0.2], "high": [0.9, 0.95],
                           "met": [True, True]})
    got = met_candidates(trials, {**TUNE, "varies": VARIES})["Settings changed"].to_list()
    assert got == ["setup.start_coins[2] (seat 3's): 0 → 2",
                   "setup.start_coins[0] (seat 1's): 0 → 1; setup.start_coins[2] (seat 3's): 0 → 3"], got
