"""Review T: a rotated-seat run's page says which of its intervals still read the games as
independent (the event cards', tiles' and game flow's, Balance on places and AdvantageP1), since
they are too narrow there; a run without rotation says nothing of it."""

from __future__ import annotations

import pytest

from analysis import analyse, open_runs
from reports.sections import GAME_BY_GAME_SECTIONS, ROTATED_NOTE, build_sections
from simcore import runner


@pytest.mark.parametrize("rotate", [True, False])
def test_the_sections_still_read_game_by_game_say_so_in_a_rotated_run(tmp_path, rotate):
    run = runner.simulate("middle-ages", players=4, games=400, seed=2, out=tmp_path / "r", quiet=True,
                          strategies="balanced,balanced,balanced,greedy", rotate_seats=rotate)
    rs = open_runs([run])
    secs, _ = build_sections(analyse(rs), rs, [])
    by_id = {s.id: s for s in secs}
    assert set(GAME_BY_GAME_SECTIONS) <= set(by_id)
    for sid in GAME_BY_GAME_SECTIONS:
        assert (ROTATED_NOTE in by_id[sid].intro) == rotate, sid
    assert ("AdvantageP1 still read the games as independent" in by_id["seats"].intro) == rotate
    for s in secs:
        if s.id not in (*GAME_BY_GAME_SECTIONS, "seats"):
            assert ROTATED_NOTE not in s.intro, s.id
