"""Session 63 #1 (review 283): "X is the strongest" said while the other bot also wins clearly
above fair against copies of X. ``balance ladder --bots balanced,search4 --games 2000 --seed 7``:
balanced alone against 3 search4 36.0% ▲, search4 alone against 3 balanced 42.2% ▲, and the
sentence said "search4 is the strongest: clearly ahead of every other bot … 42.2% against
balanced's 36.0%". In 4-player Middle-Ages a lone bot gains whatever it is, so two lone shares
compared are not "one beats the other". Now the sentence says the other bot too wins clearly above
fair against copies of the leader, and calls no bot the strongest or clearly ahead on that.
Made-up rotated cells at the review's shares; no games are played."""

from __future__ import annotations

from analysis import ladder as L
from ladder_cells import rotated_cell


def test_s63_two_bots_both_above_fair_no_strongest():
    cells = [rotated_cell("balanced", "search4", 720, 1, 500),
             rotated_cell("search4", "balanced", 844, 2, 500)]
    text = L.ranking_sentence(cells, 4)
    assert "strongest" not in text and "clearly ahead" not in text, text
    assert "balanced also wins clearly above the fair 25% against copies of search4: balanced 36.0%" in text, text
    assert "do not show search4 the stronger player against it" in text, text
    # the ▲'s interval printed is the table's adjusted one, and lies above the fair share
    (lo, hi), = L.fair_bounds([cells[0]], 4, family=2)
    assert f"({L._span(lo, hi)} with the 2 matchups read together, ▲)" in text, text
    assert lo > 0.25


def test_s63_three_bots_clear_head_to_head_beside_a_lone_gain():
    # greedy,balanced,search4 --games 800 --seed 3: "Head to head it is clearly ahead of greedy:
    # 64.8% against greedy's 45.0%" while greedy alone among search4s wins 45.0% ▲
    cells = [rotated_cell("greedy", "search4", 360, 5, 200), rotated_cell("greedy", "balanced", 130, 6, 200),
             rotated_cell("balanced", "search4", 250, 7, 200), rotated_cell("balanced", "greedy", 260, 8, 200),
             rotated_cell("search4", "greedy", 518, 3, 200), rotated_cell("search4", "balanced", 300, 4, 200)]
    text = L.ranking_sentence(cells, 4)
    assert "strongest" not in text and "clearly ahead of greedy" not in text, text
    assert "greedy 45.0% (" in text and "against copies of search4" in text, text


def test_s63_strongest_still_said_where_the_other_is_not_above_fair():
    # the other bot alone against copies of the leader at or below fair: the leader is the stronger
    cells = [rotated_cell("balanced", "search4", 400, 1, 500),
             rotated_cell("search4", "balanced", 844, 2, 500)]
    text = L.ranking_sentence(cells, 4)
    assert "search4 is the strongest: clearly ahead of every other bot" in text, text
