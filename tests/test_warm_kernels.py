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
    jobs += [warm_kernels.STATISTICS, warm_kernels.ASSERTS]
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
    for part, entries in (("plain", (driver.play_games, driver.play_games_4p)),
                          ("search", (driver.play_games_searching, driver.play_games_searching_4p))):
        for what, lineup in warm_kernels.plays_of("medievallons", part):
            if what == "default":
                lineup = (spec.default_strategy,) * spec.default_players
            elif what != "line-up":
                continue
            _, rows = strategies.resolve(list(lineup), len(lineup))
            got = driver.entry_point(np.asarray(rows, np.float64), len(lineup))
            assert got in entries, f"medievallons:{part} plays {lineup} through {got.__name__}"


def test_middle_ages_extra_line_up_reaches_the_entry_point_nothing_else_compiles():
    """EXTRA_LINEUPS is there for ``driver.play_games_full`` (for 4 players ``play_games_full_4p``:
    a seat weighing events or denial, no rollout or search seat): its line-up must go through it,
    and no other line-up of the warm-up may (else the extra line-up compiles nothing new)."""
    import numpy as np

    from simcore.games.middle_ages import driver

    spec = registry.get("middle-ages")
    strategies = registry.import_hook(spec.strategies)
    reached = {}

    def entry(lineup):
        _, rows = strategies.resolve(list(lineup), len(lineup))
        rows = np.asarray(rows, np.float64)
        P = len(lineup)
        seen = []
        real = driver.play_blocks
        driver.play_blocks = lambda play, *a, **k: seen.append(play.py_func.__name__)
        try:
            driver.play_chunk(0, 0, 0, P, None, rows, 0, False, None, None, None, None, None)
        finally:
            driver.play_blocks = real
        return seen[0]

    for part in ("plain", "search"):
        for what, lineup in warm_kernels.plays_of("middle-ages", part):
            if what in ("line-up", "extra"):
                reached.setdefault(entry(lineup), []).append((what, lineup))
    full = [w for name in ("play_games_full", "play_games_full_4p") for w, _ in reached.get(name, [])]
    assert full == ["extra"], reached


def test_the_statistics_job_compiles_every_helper_a_run_uses():
    """The warm-up's statistics job covers accumulate.helper_signatures (which
    tests/test_startup.py checks against what runs of every game compile): every helper named
    there is jitted by it, in every listed signature. Nothing is compiled here."""
    from simcore import accumulate

    compiled = []

    class Recorder:
        def __init__(self, name):
            self.name = name

        def compile(self, signature):
            compiled.append((self.name, signature))

    real = accumulate._jit
    accumulate._jit = lambda name, fn: Recorder(name)
    try:
        warm_kernels.warm_statistics()
    finally:
        accumulate._jit = real
    want = [(n, s) for n, (_, sigs) in accumulate.helper_signatures().items() for s in sigs]
    assert compiled == want


def test_the_asserts_job_writes_the_pyc_pytest_reads_and_skips_files_make_test_does_not_collect(
        tmp_path, monkeypatch):
    """The pyc the warm-up writes for a test file is the one pytest's own rewriting writes (so a
    worker reads it instead of rewriting), and a file whose every test is slow gets none."""
    import importlib.util

    from _pytest.assertion.rewrite import PYC_TAIL, _read_pyc, _rewrite_test

    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_fast_one.py").write_text("def test_x():\n    assert 1 + 1 == 2, 'sum'\n")
    (tests / "test_slow_one.py").write_text("import pytest\n\npytestmark = pytest.mark.slow\n\n"
                                            "def test_y():\n    assert True\n")
    monkeypatch.setattr(warm_kernels, "HERE", tests)
    assert warm_kernels.warm_asserts() == 1
    fast = tests / "__pycache__" / ("test_fast_one" + PYC_TAIL)
    assert fast.exists() and not (tests / "__pycache__" / ("test_slow_one" + PYC_TAIL)).exists()

    class _State:
        @staticmethod
        def trace(message):
            pass

    code = _read_pyc(tests / "test_fast_one.py", fast, _State.trace)
    assert code is not None                          # pytest accepts it (its hash matches)
    assert code.co_consts == _rewrite_test(tests / "test_fast_one.py", None)[1].co_consts
    assert importlib.util.source_hash((tests / "test_fast_one.py").read_bytes()) == fast.read_bytes()[8:16]
