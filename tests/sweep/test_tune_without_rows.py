"""A tune's confirmation above the runner's row limit keeps no players.parquet (issue #27 item 1): it
is judged from exact sums kept beside it, and the start rules are paired with the tuned rules from
sums too. The same tune run with its confirmations' rows gives the same result.json (every number
within 1e-9 relative): the rows are the independent check.

The limit is lowered for the test (a tune of 1,200-game confirmations): a few seconds of CPU.
Two trials a search (six before): the rows-against-sums check is on the confirmation and the start
rules played beside it, and the search's trials (400-800 games, below the limit) keep their rows
either way; two trials still race one candidate against an incumbent. Most of a trial's CPU is the
tune's bookkeeping, not its games (tests/sweep/test_tune.py).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import simcore.runner as runner
from analysis.tune.search import plan_tune, run_tune

pytestmark = pytest.mark.slow   # a costly file: make test-slow and CI run it (docs/testing.md, the fast suite's budget)


def _plan(targets, settings=(), strategies="random", players=2):
    panel = None
    if isinstance(players, tuple):        # a panel: one confirmation per cell, no start rules
        from strategies.panels import from_options

        panel = from_options("middle-ages", players=",".join(map(str, players)), lineups=[strategies])
        players = strategies = None
    return plan_tune("middle-ages", varies=["setup.start_coins[0]=0..120:20"], settings=list(settings),
                     targets=targets, seed=3, trials=2, min_games=400, max_games=800, eta=2,
                     confirm_games=1200, players=players, strategies=strategies, panel=panel)


def _numbers(x, path=""):
    """Every number of a JSON value, by its path (the directories and times left out)."""
    if isinstance(x, dict):
        out = {}
        for k, v in x.items():
            if k not in ("dir", "created_utc", "wall_time_s"):
                out.update(_numbers(v, f"{path}.{k}"))
        return out
    if isinstance(x, list):
        out = {}
        for i, v in enumerate(x):
            out.update(_numbers(v, f"{path}[{i}]"))
        return out
    return {path: x}


CASE = (["seat-balance:40"], ["setup.start_coins[1]=60"], "random", 2)     # 2 players, random bots


@pytest.fixture(scope="module")
def case_without_rows(tmp_path_factory):
    """``_plan(*CASE)`` tuned with the row limit lowered (its 1,200-game confirmation without rows),
    once for the module: (its directory, its result.json). Read by the first case below and, as the
    tune never stopped, by test_a_tune_stopped_mid_confirmation_goes_on_from_what_it_kept."""
    out = tmp_path_factory.mktemp("case") / "sums"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(runner, "RAW_LIMIT", 1000)
        return out, run_tune(_plan(*CASE), out)


@pytest.mark.parametrize("targets,settings,strategies,players", [
    CASE,
    # The same check over two more plans runs under `make test-slow` (~5.5 s of CPU: three tunes
    # each): a 3-player mixed line-up with a strategy target, and a panel (one confirmation per
    # cell, no start rules; a panel tune without rows is also checked, figure for figure against
    # its rows, by tests/sweep/test_tune_panel_start.py, under `make test-slow` too).
    # start coins 10 each: no candidate (seat 1 at 0, 20 … 120) is the start rules, which a best
    # candidate at their values would not play (tests/sweep/test_tune_start_rules_by_value.py)
    pytest.param(["no-dominant-strategy:20"], ["setup.start_coins=10"], "balanced,random,random", 3,
                 marks=pytest.mark.slow),
    pytest.param(["seat-balance:30"], (), "random", (2, 3), marks=pytest.mark.slow),
])
def test_a_confirmation_without_rows_gives_the_same_result(tmp_path, monkeypatch, request, targets, settings,
                                                           strategies, players):
    with_rows = run_tune(_plan(targets, settings, strategies, players), tmp_path / "rows")
    monkeypatch.setattr(runner, "RAW_LIMIT", 1000)
    if (targets, settings, strategies, players) == CASE:     # the module's (as played below)
        out, without = request.getfixturevalue("case_without_rows")
    else:
        out = tmp_path / "sums"
        without = run_tune(_plan(targets, settings, strategies, players), out)
    confirm = out / without["confirm"]["dir"]
    assert not list(out.glob("confirmations/**/players.parquet"))
    runs = [confirm] if not isinstance(players, tuple) else sorted(confirm.glob("cell-*[0-9]"))
    assert len(runs) == (len(players) if isinstance(players, tuple) else 1)
    assert all(r.with_name(r.name + ".sums.json").is_file() for r in runs)
    if not isinstance(players, tuple):   # one line-up: the start rules paired from sums as well,
        assert without["start"] is not None  # played beside the confirmation (review I #4: not
        from analysis.sweep.joint import JointSums  # the tuned rules a third time, in silence)

        assert JointSums.read(confirm.with_name(confirm.name + ".sums.json")).variants == \
            ["tuned", "start"]
        assert (out / "confirmations" / "start-rules" / "run.json").is_file()
        assert not (out / "confirmations" / "start-rules.sums.json").exists()
        assert not (out / "confirmations" / ".start-rules-tuned").exists()
    a, b = _numbers(with_rows), _numbers(without)
    assert a.keys() == b.keys()
    for k in a:
        if isinstance(a[k], float) and isinstance(b[k], float):
            assert np.isclose(b[k], a[k], rtol=1e-9, atol=1e-12), (k, a[k], b[k])
        else:
            assert a[k] == b[k], k
    assert any(k.startswith(".start.seats") for k in a) == (not isinstance(players, tuple))
    # resumed, it reads the sums again and says the same
    again = run_tune(_plan(targets, settings, strategies, players), out)
    assert _numbers(again) == b


def test_a_tune_resumed_with_more_trials_pairs_the_start_rules_with_its_new_best(tmp_path,
                                                                                 monkeypatch):
    """Review H #2: the start rules' sums were reused when seed and games matched, although they
    paired the start rules with the best candidate of the first run; resumed with more trials (a
    new best), result.json's ``start`` showed the old candidate's seat shares. The sums record the
    rules they paired and are played again for another candidate. All it needs is a resumed tune
    whose best is not the one-trial tune's: at seed 1 two trials are enough (trial 1 against
    trial 0; seed 3 needed nine, 1.6 s of CPU more each time: a tune's trial is mostly its
    bookkeeping). Tried against the mistake put back (the resumed tune's start rules paired from
    the sums of the earlier best's confirmation, trial-0, their tuned rules left unchecked): it
    fails."""
    monkeypatch.setattr(runner, "RAW_LIMIT", 1000)

    def plan(trials):
        return plan_tune("middle-ages", varies=["setup.start_coins[0]=0..120:5"],
                         settings=["setup.start_coins[1]=45"], targets=["seat-balance:5"], seed=1,
                         trials=trials, min_games=400, max_games=800, eta=2, confirm_games=1200,
                         players=2, strategies="random", stop_when_met=False)

    first = run_tune(plan(1), tmp_path / "resumed")
    resumed = run_tune(plan(2), tmp_path / "resumed")
    fresh = run_tune(plan(2), tmp_path / "fresh")
    assert resumed["best_trial"] == fresh["best_trial"] != first["best_trial"]
    assert resumed["start"]["seats"] == fresh["start"]["seats"]
    # a damaged sums file: one line when read, and a resumed tune plays its confirmation again
    # (its own run, the same seed: the same games) instead of stopping
    confirm = tmp_path / "fresh" / fresh["confirm"]["dir"]
    sums = confirm.with_name(confirm.name + ".sums.json")
    sums.write_text("{", encoding="utf-8")
    from simcore.errors import UsageError

    from analysis.sweep.joint import JointSums
    with pytest.raises(UsageError, match="not readable exact sums"):
        JointSums.read_checked(sums)
    again = run_tune(plan(2), tmp_path / "fresh")
    assert _numbers(again) == _numbers(fresh)


def test_a_tune_stopped_mid_confirmation_goes_on_from_what_it_kept(tmp_path, monkeypatch, case_without_rows):
    """A confirmation without rows keeps what it played every 8 chunks (trial-N.played_so_far/):
    stopped in its 11th chunk, the same tune goes on from there and gives the result.json of a
    tune never stopped (the module's ``case_without_rows``, played in chunks of the default size:
    the sums are exact, the same whatever the chunks)."""
    import signal

    import analysis.sweep.play as play
    from simcore.errors import Interrupted

    monkeypatch.setattr(runner, "RAW_LIMIT", 1000)
    monkeypatch.setattr(play, "TOGETHER_CHUNK", 100)          # 12 chunks of 100 games
    args = CASE
    whole = case_without_rows[1]
    real, seen = play.chunk_metrics, []

    def cut(*a, **k):
        seen.append(1)
        if len(seen) == 2 * 11:           # the tuned and start rules' chunk 11
            raise Interrupted(signal.SIGINT)
        return real(*a, **k)

    out = tmp_path / "cut"
    monkeypatch.setattr(play, "chunk_metrics", cut)
    with pytest.raises(Interrupted):
        run_tune(_plan(*args), out)
    kept = list(out.glob("confirmations/*.played_so_far/state.json"))
    assert len(kept) == 1 and json.loads(kept[0].read_text())["games_done"] == 800
    resumed = []
    monkeypatch.setattr(play, "chunk_metrics", lambda *a, **k: resumed.append(1) or real(*a, **k))
    again = run_tune(_plan(*args), out)
    assert len(resumed) == 2 * 4                   # chunks 9-12 of both rules, not all 12
    assert _numbers(again) == _numbers(whole)
    assert not list(out.glob("confirmations/*.played_so_far"))
