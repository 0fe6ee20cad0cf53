"""A panel tune's "No fix to adopt" counts the cells it judged: where cells that read none of the
tuned settings were left out (session 63, ``not_read``), its "met in k of n cells" says the n are
the cells where the settings are read, as the verdict does ("met in k of n cells where … is read").
The result is a real tune's result.json shape, its counts set here."""

from __future__ import annotations

from analysis.tune.advice import _advice

CELLS = [{"label": "4p even-lord + 3×fair-share", "outcome": "met"},
         {"label": "4p harsh-lord + 3×objective", "outcome": "missed"}]


def _result(not_read):
    return {"best_trial": 1, "values": {"track.goal.4": 9}, "settings": {"track.goal.4": 9},
            "met": False, "not_read": not_read,
            "confirm": {"met": False, "met_cells": 1, "n_cells": 2, "cells": CELLS, "games": 2000}}


def test_s63_missed_panel_tune_counts_the_cells_where_the_setting_is_read():
    left_out = [{"label": "3p even-lord + 2×fair-share", "players": 3}]
    said = _advice(_result(left_out), False, "", False, [], [])[0]
    assert "(met in 1 of 2 cells where the settings are read; a fix must meet it in every cell where " \
           "the settings are read)" in said, said


def test_s63_missed_panel_tune_without_left_out_cells_keeps_its_words():
    said = _advice(_result([]), False, "", False, [], [])[0]
    assert "(met in 1 of 2 cells; a fix must meet it in every cell)" in said, said
