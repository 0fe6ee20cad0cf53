"""Médiévallons questions of a run of search bots are played by balanced bots, as a playout run's
are (review s50 questions #1: a search16 run's report played its questions with search16 at every
seat, 35 s for 200 games, ~20 minutes at the report's default 10,000, where a planner run's took
3 s), and the terminal and page say why."""

from __future__ import annotations

from analysis.questions.medievallons import FALLBACK_STRATEGY, choose_strategy
from cli.questions import other_bots_line


def test_a_search_run_s_questions_are_played_by_the_fallback_bot():
    strategy, why = choose_strategy({"strategies": ["search16"] * 4})
    assert strategy == FALLBACK_STRATEGY == "balanced"
    assert "the run's search16 is a search bot, far too slow" in why
    assert other_bots_line({"strategy_note": why}).startswith(
        "Played with balanced bots at every seat (the run's search16 is a search bot")
    # a heuristic run's own bot still plays them
    assert choose_strategy({"strategies": ["collector"] * 4})[0] == "collector"
