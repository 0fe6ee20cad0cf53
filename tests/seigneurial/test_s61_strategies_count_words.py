"""``simulate --strategies`` with a count that is neither one name, one per seat nor (in a game with
roles) one per role is refused in one line that offers every form the game takes (review s61 fix
258 #3: Seigneurial's "3 names for 4 players (give one name for every seat or one per seat)" left
out the per-role form the seat-role error offers, and "one name for every seat or one per seat"
read as one form said twice)."""

from __future__ import annotations

from tests.in_process import balance


def _refused(*args) -> str:
    done = balance("simulate", *args, "--games", "10", check=False)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


def test_a_game_with_roles_offers_one_name_per_role_the_seigneurs_first(tmp_path):
    line = _refused("--game", "seigneurial", "--strategies", "harsh-lord,objective,dutiful",
                    "--out", tmp_path / "x")
    assert "3 names for 4 players" in line
    assert "one per role, the Seigneur's first" in line
    assert "harsh-lord,objective" in line             # an example from the bots named, by role
    assert "every seat or one per seat" not in line
    assert not (tmp_path / "x").exists()


def test_a_game_whose_seats_are_alike_offers_no_role_form(tmp_path):
    line = _refused("--strategies", "random,random", "--out", tmp_path / "x")
    assert "2 names for 4 players" in line
    assert "one per role" not in line
    assert "every seat or one per seat" not in line
    assert "1 name, played in every seat, or 4, one per seat" in line
