"""A seat whose games all went one way with the searching seat and the other way with the bots
(an infinite z) is in the Holm family and worded by its Newcombe test, which is finite (review s49
skill #4: it was left out of Holm, yet said "its own 95% interval excludes 0, but not after Holm's
correction over the seats", and the family's count left it out)."""

from __future__ import annotations

from reports.skill import gain_sentence
from tests.reports.test_review_r_skill_gain import BOT_GAMES, _table


def test_a_seat_all_one_way_is_compared_and_clear():
    # seat 1: the searching seat won all 40 games, the bots never won from that seat
    top = [(40, 40), (10, 40), (10, 40), (10, 40)]
    bot = [0, BOT_GAMES // 3, BOT_GAMES // 3, BOT_GAMES // 3]
    words = gain_sentence(_table(top, bot))
    assert "Holm over the 4 seats" in words, words
    assert "not after Holm" not in words, words
    assert "clearly more, by enough to matter, in seat 1" in words, words


def test_fewer_games_than_two_a_seat_are_refused_before_any_game(tmp_path):
    from tests.in_process import balance

    done = balance("skill", "--budgets", "0,4", "--games", "3", "--out", tmp_path / "sk", check=False)
    assert done.returncode == 2 and "at least 8 games (2 a seat)" in done.stderr, done.stderr
    assert not (tmp_path / "sk").exists()


def test_the_overall_gain_interval_stays_within_100_pp():
    import numpy as np

    from reports.skill import overall_gain

    # the reviewer's --games 3: one game a seat, +75 pp whose Wald interval reached +121.2 pp
    g = overall_gain(np.array([1.0, 1.0, 1.0, 1.0]), np.array([1.0, 1.0, 1.0, 1.0]),
                     np.zeros(4), np.array([3.0, 3.0, 3.0, 3.0]))
    assert g is not None and -1.0 <= g["low"] <= g["high"] <= 1.0, g
