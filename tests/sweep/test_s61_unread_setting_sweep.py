"""A setting a cell's player count never reads is not a measured "unchanged" effect (review s61 #1).

``--vary track.goal.4=8..12:4`` over 3- and 4-player cells said "unchanged in 3 of 4 cells (no game's
outcome moved)": two of those were 3-player cells, where the goal for 4 players is never read. Now
those cells are left out of the counts of cells ("k of N": N the cells that read it) and named as
"not read at 3 players"; a sweep in which no cell or count reads a --vary is refused in one line
before any game (docs/sweep.md). No game is played here."""

from __future__ import annotations

import polars as pl
import pytest

from simcore.errors import UsageError

LABELS = ["3p a", "3p b", "4p a", "4p b"]


def _effects() -> pl.DataFrame:
    """track.goal.4 in 4 cells: the 3-player cells do not read it (effect exactly 0), 4p a down,
    4p b exactly 0 (read, but no outcome moved)."""
    rows = [("3p a", 3, 0.0, 0.0, 0.0, False), ("3p b", 3, 0.0, 0.0, 0.0, False),
            ("4p a", 4, -0.04, -0.06, -0.02, True), ("4p b", 4, 0.0, 0.0, 0.0, True)]
    return pl.DataFrame([{"parameter": "track.goal.4", "from": "8", "to": "12", "metric": "role_win_share_seigneur",
                          "label": "the Seigneur's win share", "unit": "pp", "share": True, "cell_label": c,
                          "players": p, "delta": d, "low": lo, "high": hi, "smallest": 0.01, "read": r,
                          "verdict": "clear and large enough to matter" if hi < 0 else "within noise"}
                         for c, p, d, lo, hi, r in rows])


def test_cells_that_do_not_read_the_setting_are_left_out_of_the_counts_and_named():
    from analysis.sweep.panel_effects import agreement, sentences

    row = agreement(_effects(), 4).row(0, named=True)
    assert (row["cells"], row["down"], row["unchanged"], row["unclear"], row["not_read"]) == (2, 1, 1, 0, 2)
    assert row["not_read_in"] == ["3p a", "3p b"] and row["unchanged_in"] == ["4p b"]
    assert row["same_way_everywhere"] == "no (in the 2 of 2 cells that read it)"
    line = sentences(_effects(), LABELS)[0]
    assert "unchanged in 1 of 2 cells" in line, line
    assert "not read at 3 players (2 cells, left out of these counts: 3p a, 3p b)" in line, line
    assert "of 4 cells" not in line.split("These counts")[0], line


def test_a_setting_no_cell_reads_is_said_in_one_sentence():
    from analysis.sweep.panel_effects import sentences

    e = _effects().with_columns(pl.lit(False).alias("read"), pl.lit(3).alias("players"))
    line = sentences(e, LABELS)[0]
    assert line == ("Moving track.goal.4 from 8 to 12 changes no game in any of the 4 cells: none reads "
                    "track.goal.4 (not read at 3 players)."), line


def test_the_cells_count_reads_what_the_rules_read():
    from analysis.rules_diff import reads_setting
    from simcore.runner import rules_source

    text = rules_source("seigneurial", None, ()).text
    assert not reads_setting("seigneurial", text, (), 3, "track.goal.4", [8, 12])
    assert reads_setting("seigneurial", text, (), 4, "track.goal.4", [8, 12])
    assert reads_setting("seigneurial", text, (), 3, "track.start_square", [0, 2])
    assert not reads_setting("seigneurial", text, (), 3, "resources.start_cards[2]", [0, 2])


def test_a_sweep_of_a_setting_no_count_played_reads_is_refused_before_any_game():
    from analysis.sweep.play import plan_sweep

    with pytest.raises(UsageError) as exc:
        plan_sweep("seigneurial", varies=["track.goal.4=8..12:4"], games=100, players=3)
    assert str(exc.value) == ("--vary track.goal.4=8..12:4: Seigneurial does not read track.goal.4 at 3 "
                              "players: the rules played are the same at every value, so it would change "
                              "no game")
    plan_sweep("seigneurial", varies=["track.goal.3=8..12:4"], games=100, players=3)   # read: planned


def test_a_panel_sweep_whose_cells_never_read_a_setting_is_refused_in_one_line():
    from analysis.sweep.panel import plan_panel_sweep
    from strategies.panels import from_options

    panel = from_options("seigneurial", lineups=["seigneur=even-lord,censitaire=fair-share"], players="3,5")
    with pytest.raises(UsageError) as exc:
        plan_panel_sweep("seigneurial", panel=panel, varies=["track.goal.4=8..12:4"], games=100)
    assert str(exc.value).startswith("--vary track.goal.4=8..12:4: Seigneurial does not read track.goal.4 "
                                     "in any cell of this panel (3 and 5 players)"), str(exc.value)
