"""Session 42, review D #2 for ``simulate``: ``--set PATH[k]`` of a per-seat list for a seat the
run does not have changed no game and said nothing; it is refused in one line before any game,
as sweep and tune refuse it, and a seat the run has is played."""

from __future__ import annotations

import pytest

from in_process import balance


@pytest.mark.parametrize("game,players,setting,seat", [
    ("medievallons", "2", "setup.hand_size[3]=8", "seat 4's, but this run has 2 players"),
    ("seigneurial", "3", "resources.start_cards[2]=2", "seat 4's, but this run has 3 players"),
    ("middle-ages", None, "setup.start_coins[4]=5", "seat 5's, but this run has 4 players"),
])
def test_a_seat_the_run_does_not_have_is_refused(tmp_path, game, players, setting, seat):
    args = ["simulate", "--game", game, "--set", setting, "--games", "10", "--out", tmp_path / "R"]
    done = balance(*args, *(["--players", players] if players else []), check=False)
    assert done.returncode == 2, done.stdout + done.stderr
    line = done.stderr.strip()
    assert "\n" not in line and f"error: --set {setting}: " in line and seat in line, line
    assert not (tmp_path / "R").exists()


def test_a_seat_the_run_has_is_played(tmp_path):
    # Seigneurial's list counts Censitaires from seat 2: [2] is seat 4, which 4 players have
    done = balance("simulate", "--game", "seigneurial", "--set", "resources.start_cards[2]=2",
                   "--games", "10", "--out", tmp_path / "R", "-q")
    assert done.returncode == 0 and (tmp_path / "R" / "run.json").is_file()
