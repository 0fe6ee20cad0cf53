"""Races under many threads (slow): two 2-thread runs of 200,000 games of every game, with a mixed
line-up of its presets, must be identical column by column. A workspace shared between threads
showed only at this size in issue #26 (three 1,000-game runs agreed). ``make test-slow``."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from simcore import games as registry
from simcore import runner

SPECS = list(registry.specs().values())
N_GAMES = 200_000


def _lineup(spec) -> str | None:
    from test_game_contract import _mixed_lineup
    return _mixed_lineup(spec)


@pytest.mark.slow
@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs 2 threads")
@pytest.mark.parametrize("spec", SPECS, ids=[s.name for s in SPECS])
def test_two_thread_runs_of_200k_games_are_identical(spec):
    lineup = _lineup(spec)
    kw = {"strategies": lineup} if lineup and spec.name != "seigneurial" else {}
    prep = runner.prepare(spec.name, **kw)
    numba.set_num_threads(2)
    runs = [prep.play(0, N_GAMES, 17) for _ in range(2)]
    for table in ("players", "games"):
        a, b = getattr(runs[0], table), getattr(runs[1], table)
        for name in (f.name for f in (prep.players_schema if table == "players"
                                      else prep.games_schema)):
            x, y = np.asarray(a[name]), np.asarray(b[name])
            bad = np.flatnonzero(x != y)
            assert not bad.size, (f"{spec.name}: two 2-thread runs differ in {table} column "
                                  f"{name!r} at row {bad[0]} (a data race)")
