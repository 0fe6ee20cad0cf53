"""A share of games that is not 0 never reads "0%" in the land improvements' sentence (review s48
Seigneurial #4: 46 of 19,544 games read "0% of those ending on that very turn")."""

from __future__ import annotations

from reports.games.seigneurial import _reached_words


def test_a_small_share_keeps_its_decimals_and_count():
    said = _reached_words({"reached": 19_544, "games": 19_498, "reached_share": 0.977})
    assert "0.2% (46 games) of those ending on that very turn" in said, said
    assert "; 97.7% of games reach them" in said


def test_an_ordinary_share_reads_as_before():
    said = _reached_words({"reached": 1000, "games": 420, "reached_share": 0.161})
    assert said == ("; 16.1% of games reach them, 58% of those ending on that very turn, before "
                    "the improvements act")
