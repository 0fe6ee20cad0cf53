"""Review T: a rotated-seat run's page says how the intervals the statistics keep no per-deal sums
for are read (the event cards', tiles' and game flow's, Balance on places and AdvantageP1: each
deal counted as one game); a run without rotation says nothing of it."""

from __future__ import annotations

import pytest

from analysis import analyse, open_runs
from reports.sections import GAME_BY_GAME_SECTIONS, build_sections, rotated_note
from simcore import runner


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
@pytest.mark.parametrize("rotate", [True, False])
def test_the_sections_read_deal_by_deal_say_so_in_a_rotated_run(tmp_path, rotate):
    run = runner.simulate("middle-ages", players=4, games=400, seed=2, out=tmp_path / "r", quiet=True,
                          strategies="balanced,balanced,balanced,greedy", rotate_seats=rotate)
    rs = open_runs([run])
    assert rs.games_per_unit == (4 if rotate else 1)
    secs, _ = build_sections(analyse(rs), rs, [])
    by_id = {s.id: s for s in secs}
    assert {"events", "tiles", "flow"} <= set(by_id)
    note = rotated_note(4)
    assert "4 games a deal" in note and "at most 2 times wider" in note
    for sid in set(GAME_BY_GAME_SECTIONS) & set(by_id):
        assert (note in by_id[sid].intro) == rotate, sid
    assert ("AdvantageP1 count each deal as one game" in by_id["seats"].intro) == rotate
    for s in secs:
        if s.id not in (*GAME_BY_GAME_SECTIONS, "seats"):
            assert note not in s.intro, s.id


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_rotated_medievallons_run_says_so_of_its_length_and_guilds(tmp_path):
    run = runner.simulate("medievallons", players=2, games=200, seed=2, out=tmp_path / "r", quiet=True,
                          strategies="balanced,random", rotate_seats=True)
    rs = open_runs([run])
    secs, _ = build_sections(analyse(rs), rs, [])
    by_id = {s.id: s for s in secs}
    note = rotated_note(2)
    assert "guilds" in by_id
    for sid in ("length", "flow", "guilds"):
        assert note in by_id[sid].intro, sid
    assert "at most 1.41 times wider" in note
