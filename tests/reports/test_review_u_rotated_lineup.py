"""Review U #11: the table of runs showed a rotated run's line-up as "balanced, balanced, balanced,
greedy" under "Strategies by seat", which reads as greedy always in Seat 4; with --rotate-seats
every bot holds every seat in turn."""

from __future__ import annotations

from analysis import open_runs
from reports.html import lineup_words, meta_table
from simcore import runner


def test_a_rotated_run_is_shown_rotated_and_a_fixed_one_seat_by_seat(tmp_path):
    lineup = "balanced,balanced,balanced,greedy"
    rotated = runner.simulate("middle-ages", games=40, seed=1, out=tmp_path / "rot", quiet=True,
                              strategies=lineup, rotate_seats=True)
    fixed = runner.simulate("middle-ages", games=40, seed=1, out=tmp_path / "fix", quiet=True, strategies=lineup)
    shown = meta_table([open_runs([rotated]), open_runs([fixed])])["Strategies by seat"].to_list()
    assert shown == ["rotated: 3 × balanced, greedy", "balanced, balanced, balanced, greedy"]


def test_the_words_count_each_bot_once_in_its_order():
    assert lineup_words(["greedy", "random", "greedy"], 3) == "rotated: 2 × greedy, random"
    assert lineup_words(["greedy", "random", "greedy"], 1) == "greedy, random, greedy"
    assert lineup_words([], 4) == "?"
