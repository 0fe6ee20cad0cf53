"""``--one-at-a-time`` holds the other parameters at the base rules' value where their list has it.

A designer sweeping ``track.goal.4=[8, 10, 12]`` and ``end.max_turns=[8, 200, 300]`` one at a time
got every goal played with an 8-turn bound (each list's first value), not with the shipped 200:
the goal's effect was measured in a game that stops at turn 8. The others are now held at the base
rules' value (the rules file with the sweep's --set) where listed, else at their first value, and
the page says so; a sweep written before (no ``held`` in sweep.json) is read as it was played.
"""

from __future__ import annotations

import tomllib
from pathlib import Path


def _shipped(path: str):
    rules = tomllib.loads((Path(__file__).resolve().parents[2] / "configs" / "seigneurial" / "rules.toml").read_text())
    node = rules
    for k in path.split("."):
        node = node[k]
    return node


def test_the_others_are_held_at_the_shipped_value():
    from analysis.sweep.metrics import anchors
    from analysis.sweep.play import plan_sweep

    goal, bound = _shipped("track.goal")["4"], _shipped("end.max_turns")
    plan = plan_sweep("seigneurial", varies=[f"end.max_turns=[8, {bound}, 300]", f"track.goal.4=[8, {goal}, 12]"],
                      games=400, one_at_a_time_mode=True)
    values = [v.values for v in plan.variants]
    assert values[0] == (bound, goal)                                   # the base variant: shipped
    assert sorted(values[1:]) == sorted([(8, goal), (300, goal), (bound, 8), (bound, 12)])
    sweep = plan.to_json()
    assert sweep["held"] == "base"
    assert {k: v for k, (v, _) in anchors(sweep).items()} == {"end.max_turns": bound, "track.goal.4": goal}
    # a one-at-a-time sweep written before (no "held"): its others were played at their first value
    old = {k: v for k, v in sweep.items() if k != "held"}
    assert {k: v for k, (v, _) in anchors(old).items()} == {"end.max_turns": 8, "track.goal.4": 8}


def test_a_list_without_the_shipped_value_holds_its_first():
    from analysis.sweep.play import plan_sweep

    plan = plan_sweep("seigneurial", varies=["end.max_turns=[150, 250]", "track.goal.4=[9, 11]"],
                      games=400, one_at_a_time_mode=True)
    assert [v.values for v in plan.variants] == [(150, 9), (250, 9), (150, 11)]
