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


def test_a_panels_cell_line_does_not_print_a_rare_win_as_none():
    """Review A #11: simulate's line for a cell said "Seigneur 0.0%" for 1 win in 4,000 games, as
    for the cells where he never won; the panel page says 0.025%."""
    from cli.simulate import _share_said

    assert _share_said(1 / 4000) == "0.025%"
    assert _share_said(3999 / 4000) == "99.975%"
    assert _share_said(0.0) == "0.0%" and _share_said(1.0) == "100.0%"
    assert _share_said(0.2545) == "25.5%"          # a half away from zero, as the tables
    assert _share_said(7 / 4000) == "0.2%"           # not small enough to need more
