"""The warm-up before the test workers (tests/warm_kernels.py, docs/testing.md) plays, cut into
jobs, exactly what it played as one job per game, and every registered game has a job.

A game split into a plain and a search part that lost a line-up, or played one twice, would
leave a kernel to be compiled by the test workers (or compiled twice at once); a registered game
without a job would be compiled by them, once per worker. Nothing is compiled here.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE / "conformance")]

import warm_kernels  # noqa: E402

from simcore import games as registry  # noqa: E402


@pytest.mark.parametrize("name", sorted(warm_kernels.SEARCH_APART))
def test_a_split_game_plays_the_same_in_its_two_jobs_as_in_one(name):
    whole = warm_kernels.plays_of(name, "all")
    plain = warm_kernels.plays_of(name, "plain")
    search = warm_kernels.plays_of(name, "search")
    assert plain and search, f"{name}: a part of the split plays nothing"
    assert sorted(plain + search) == sorted(whole), name
    assert any(what == "line-up" for what, _ in search), f"{name}: no line-up with a search bot"


def test_every_registered_game_and_pig_has_a_job_and_the_order_names_only_real_jobs():
    jobs = [j for n in [*registry.specs(), "pig"] for j in warm_kernels.jobs_of(n)]
    assert {n for n, _ in jobs} == {*registry.specs(), "pig"}
    stale = [j for j in warm_kernels.ORDER if j not in jobs]
    assert not stale, f"warm_kernels.ORDER names jobs that do not exist: {stale}"


def test_medievallons_plain_job_plays_only_the_entry_point_without_planner_or_search():
    """Médiévallons's driver plays a line-up with a planner or search seat through an entry point
    of its own (``driver.entry_point``); the warm-up's plain job must not reach it (else both
    processes compile it at once) and its search job must (else the tests compile it)."""
    import numpy as np

    from simcore.games.medievallons import driver

    spec = registry.get("medievallons")
    strategies = registry.import_hook(spec.strategies)
    for part, entry in (("plain", driver.play_games), ("search", driver.play_games_searching)):
        for what, lineup in warm_kernels.plays_of("medievallons", part):
            if what == "default":
                lineup = (spec.default_strategy,) * spec.default_players
            elif what != "line-up":
                continue
            _, rows = strategies.resolve(list(lineup), len(lineup))
            got = driver.entry_point(np.asarray(rows, np.float64))
            assert got is entry, f"medievallons:{part} plays {lineup} through {got.__name__}"
