"""Every table of the tune page prints an objective as the verdict does, two decimals (review s48
tune #6: "1.7" in the trial table beside "1.70", "3" beside "3.00 to 3.00", "0.5913" among the
candidates)."""

from __future__ import annotations

import polars as pl

from reports.sweep import _trial_table, met_candidates

TUNE = {"game": "middle-ages", "varies": [{"name": "income.palais.base", "kind": "int", "lo": 2, "hi": 6}],
        "targets": [{"kind": "seat-balance", "tol": 0.015}], "rules_text": "[income.palais]\nbase = 3\n",
        "settings": []}


def _trials() -> pl.DataFrame:
    return pl.DataFrame({"trial": [0, 1, 2], "state": ["complete"] * 3, "income.palais.base": [4, 5, 2],
                         "games": [8000] * 3, "objective": [1.7, 3.0, 0.5913], "low": [1.2, 3.0, 0.2],
                         "high": [2.2, 3.0, 0.99], "met": [False, False, True],
                         **{f"seat_win_share_{s}": [0.25] * 3 for s in (1, 2, 3, 4)}})


def test_the_trial_table_and_the_candidates_print_two_decimals():
    table = _trial_table(_trials(), TUNE, "middle-ages")
    assert table["Objective"].to_list() == ["1.70", "3.00", "0.59"]
    cands = met_candidates(_trials(), TUNE)
    assert cands["Objective"].to_list() == ["0.59"]
