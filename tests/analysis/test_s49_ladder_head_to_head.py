"""The ladder's ranking sentence agrees with the table's own adjusted call on the leader against
the runner-up (review s49 skill #2: "not clearly ahead of balanced: … it may be no stronger" beside
search4's 52.7% ▲ against copies of balanced, adjusted 41.1-64.0% against the fair 33.3%).
Constructed cells; the adjusted bounds are the ladder's own (fair_bounds).

Session 60 (review s60 #245): head to head is the leader's games against copies of the runner-up
beside the runner-up's against copies of the leader, not the leader's ▲ alone (balanced won 40.0%
against copies of search4 here, above the fair 33.3% too). Where that is not clear but the ▲
holds, the sentence states the ▲ and the runner-up's share beside it."""

from __future__ import annotations

import numpy as np

from analysis import ladder as L


def _cell(bot, opp, share, deals=50, players=3):
    games = deals * players
    se = np.sqrt(share * (1 - share) / games)
    return L.Cell(bot=bot, opponent=opp, games=games, win_share=share, std_error=se,
                  ci_low=share - 2 * se, ci_high=share + 2 * se, fair=1 / players)


def test_a_leaders_up_arrow_against_the_runner_up_is_said_beside_its_head_to_head():
    cells = [_cell("search4", "balanced", 0.527), _cell("search4", "random", 0.99),
             _cell("balanced", "search4", 0.40), _cell("balanced", "random", 0.99),
             _cell("random", "search4", 0.0), _cell("random", "balanced", 0.01)]
    said = L.ranking_sentence(cells, 3, random_bots=("random",))
    lo, hi = L.fair_bounds(cells, 3)[0]
    assert lo > 1 / 3                                      # the table's ▲ for search4 vs balanced
    assert "head to head it is the stronger" not in said, said     # (the ▲ alone, before session 60)
    assert ("Against copies of balanced it wins 52.7%, clearly above the fair 33.3% (▲, the 6 matchups "
            "read together), but balanced wins 40.0% against copies of it.") in said, said


def test_a_leader_not_clear_head_to_head_may_be_no_stronger():
    cells = [_cell("search4", "balanced", 0.36), _cell("balanced", "search4", 0.33),
             _cell("search4", "random", 0.99), _cell("balanced", "random", 0.99),
             _cell("random", "search4", 0.0), _cell("random", "balanced", 0.01)]
    said = L.ranking_sentence(cells, 3, random_bots=("random",))
    assert L.fair_bounds(cells, 3)[0][0] <= 1 / 3
    assert "may be no stronger" in said and "▲" not in said, said
