"""Review s46 #7: ``balance golden --game X`` numbers seats from 1, as ``balance replay``, the
reports and ``--find`` do, and says so under its first line.

The golden log printed the reference engines' own 0-based ``P0`` with no word of it: in
Seigneurial "P1" was the first Censitaire in the golden log and the Seigneur in a replay. Now both
print the Seigneur (seat 1, the spec's first role) as P1 and the Censitaires, who hold the
Objective cards, as P2 … P4; the committed files (tests/golden/) are the printed text, so they
were regenerated with ``balance golden --write`` (only the labels and the note changed), and
``balance golden --check`` passes.
"""

from __future__ import annotations

import re

import pytest

from cli import _run
from simcore import games as registry
from simcore import runner

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

GOLDEN_GAMES = [s.name for s in registry.specs().values() if s.golden]


def _golden(capsys, game: str) -> str:
    code = _run(["golden", "--game", game])
    out = capsys.readouterr().out
    assert code == 0
    return out


@pytest.mark.parametrize("game", GOLDEN_GAMES)
def test_the_golden_log_numbers_seats_from_1_and_says_so(capsys, game):
    text = _golden(capsys, game)
    lines = text.splitlines()
    players = int(re.search(r"reference game: (\d+) players", lines[0]).group(1))
    assert "Seats are numbered from 1 (P1 is seat 1)" in lines[1], lines[:2]
    seats = {int(s) for s in re.findall(r"\bP(\d)\b", text)}
    assert seats == set(range(1, players + 1)), seats          # P1 … P4, never P0


def test_seigneurial_golden_log_and_replay_name_the_same_seats(tmp_path, capsys):
    """The Objective cards are dealt to the Censitaires: seats 2 … P in a replay, in the reports
    (the spec's roles, seat 1 the Seigneur) and now in the golden log too."""
    spec = registry.get("seigneurial")
    censitaires = {s + 1 for s, role in enumerate(spec.seat_roles(4)) if role == "censitaire"}
    golden = _golden(capsys, "seigneurial")
    dealt = {int(s) for s in re.findall(r"^  P(\d) objective #\d+", golden, flags=re.M)}
    assert dealt == censitaires == {2, 3, 4}, dealt
    run = runner.simulate("seigneurial", games=3, seed=2, players=4, out=tmp_path / "sg", quiet=True)
    assert _run(["replay", str(run), "--game", "1"]) == 0
    replayed = capsys.readouterr().out
    assert {int(s) for s in re.findall(r"^  P(\d) objective #\d+", replayed, flags=re.M)} == censitaires


def test_the_committed_golden_files_are_current(capsys):
    assert _run(["golden", "--check"]) == 0, capsys.readouterr().out[-2000:]
