"""Session 42, review A #10: a Censitaire bot on the Seigneur's seat is refused in the game's
words ("plays only the Censitaire role"; it said "the censitaire role", the role's key)."""

from __future__ import annotations

from in_process import balance


def test_a_bot_on_a_seat_of_another_role_is_refused_in_the_game_words(tmp_path):
    done = balance("simulate", "--game", "seigneurial", "--players", "4", "--strategies",
                   "fair-share,even-lord,fair-share,fair-share", "--games", "10", "--out",
                   tmp_path / "R", check=False)
    assert done.returncode == 2, done.stderr
    line = done.stderr.strip()
    assert "\n" not in line and "seat 1 is a Seigneur but fair-share plays only the Censitaire role" in line, line
    assert not (tmp_path / "R").exists()
