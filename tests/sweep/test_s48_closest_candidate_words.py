"""'How each cell responds' calls a candidate that missed the target "the closest candidate", not
"the fix" (review s48 tune #8: "The fix moved the Seigneur side's win share …" on a page whose
header said "not a fix")."""

from __future__ import annotations

import polars as pl

from reports.sweep import seat_sections

CELLS = {"family": 2, "smallest": {"share": 0.01}, "games": 400, "rules": "the base rules",
         "cells": [{"cell": k, "label": f"{p}p {p}×standard", "metrics": [
             {"metric": "role_win_share_seigneur", "start": 0.01, "tuned": 0.05, "change": 0.04,
              "low": 0.02, "high": 0.06, "clear": True, "verdict": "clear and large enough to matter"}]}
             for k, p in ((0, 3), (1, 4))]}
TUNE = {"game": "seigneurial", "varies": [{"name": "track.goal.4", "kind": "int", "lo": 6, "hi": 14}],
        "targets": [{"kind": "role", "role": "seigneur", "aim": 0.3, "tol": 0.1}],
        "rules_text": "[track]\ngoal = { 4 = 10 }\n", "settings": []}


def _lead(outcome_met: bool, outcome: str) -> str:
    result = {"best_trial": 1, "values": {"track.goal.4": 8}, "met": outcome_met, "start_cells": CELLS,
              "confirm": {"cells": [{"label": c["label"], "outcome": outcome} for c in CELLS["cells"]]}}
    secs = seat_sections(TUNE, result, pl.DataFrame(), "seigneurial")
    sec = next(s for s in secs if s.id == "cell-response")
    return " ".join(sec.sentences)


def test_a_missed_candidate_is_the_closest_candidate():
    said = _lead(False, "missed")
    assert said.startswith("The closest candidate moved the Seigneur side"), said
    assert "The fix" not in said


def test_a_met_fix_is_the_fix():
    assert _lead(True, "met").startswith("The fix moved the Seigneur side"), _lead(True, "met")
