"""A bot on a seat of another role is refused with an example that plays at the player count given
(designer review 225 #4: at 3 players the line suggested "e.g. even-lord,fair-share,fair-share,
fair-share", four names, which itself fails), built from the bots the designer named where they fit,
and naming the per-role form simulate accepts (one name per role, the Seigneur's first)."""

from __future__ import annotations

import re

import pytest

from in_process import balance


@pytest.mark.parametrize("players, given, seigneur, censitaire", [
    (3, "objective,harsh-lord", "harsh-lord", "objective"),
    (5, "fair-share,even-lord,fair-share,fair-share,fair-share", "even-lord", "fair-share"),
    (4, "dutiful", "even-lord", "dutiful"),
])
def test_the_refusal_suggests_line_ups_that_play_at_that_count(tmp_path, players, given, seigneur, censitaire):
    done = balance("simulate", "--game", "seigneurial", "--players", str(players), "--strategies", given,
                   "--games", "10", "--out", tmp_path / "R", check=False)
    assert done.returncode == 2, done.stderr
    line = done.stderr.strip()
    assert "\n" not in line and "plays only the" in line, line
    per_seat = ",".join([seigneur] + [censitaire] * (players - 1))
    assert f"e.g. {per_seat} at {players} players" in line, line
    assert f"or one per role, the Seigneur's first: {seigneur},{censitaire}" in line, line
    for example in re.findall(r"(?:e\.g\.|first:) ([\w,-]+)", line):          # both suggestions play
        ok = balance("simulate", "--game", "seigneurial", "--players", str(players), "--strategies",
                     example, "--games", "10", "--out", tmp_path / example.replace(",", "_"), "-q",
                     check=False)
        assert ok.returncode == 0, (example, ok.stderr)
