"""Review L #7 and #8 for balance tune.

#8: the sampler may propose settings already played. Such a proposal is not played again (the same
seed plays the same games: the stored result is the result), is marked in trials.csv as a
duplicate naming the trial it repeats, and does not count against --trials. The search stays
reproducible and resumable (same seed, same trials, whether or not it was interrupted), and ends
when every candidate of a countable space has been played.

#7: a tune whose confirmation missed the target advises no skill check of a "fix": it says there
is no fix to adopt and how far the closest candidate was; a met (or undecided) one keeps the
advice.

Tiny tunes (2-player Middle-Ages with random bots, 100 to 800 games a candidate)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from analysis.tune.search import plan_tune, run_tune
from simcore import runner

pytestmark = pytest.mark.slow   # a costly file: make test-slow and CI run it (docs/testing.md, the fast suite's budget)

SETTING = "setup.start_coins[0]"


def _plan(trials: int, seed: int = 1, values: str = "0..3", **kw):
    return plan_tune("middle-ages", varies=[f"{SETTING}={values}"], targets=["seat-balance:3"], seed=seed,
                     trials=trials, min_games=100, max_games=200, eta=2, confirm_games=1100,
                     players=2, strategies="random", stop_when_met=False, **kw)


def _rows(out: Path) -> list[dict]:
    return list(csv.DictReader((out / "trials.csv").open(encoding="utf-8")))


@pytest.fixture(scope="module")
def three_trials(tmp_path_factory):
    """``_plan(3)`` played once for the module, every search game it asked for counted: (its
    directory, its result.json, the (rules, first game) of every search call to runner.collect).
    Seed 1: the sampler proposes trial 0's settings again."""
    played = []
    real = runner.collect

    def counting(prep, *args, **kwargs):
        if kwargs.get("seed") == 1:          # the search's games (the confirmation has its own seed)
            played.append((prep.rules_sha256, kwargs.get("first", 0), kwargs.get("games")))
        return real(prep, *args, **kwargs)

    out = tmp_path_factory.mktemp("three") / "t"
    with pytest.MonkeyPatch.context() as m:
        m.setattr(runner, "collect", counting)
        result = run_tune(_plan(3), out)
    return out, result, played


def test_a_repeated_proposal_is_not_played_again_and_does_not_count(three_trials):
    out, result, played = three_trials
    rows = _rows(out)
    repeats = [r for r in rows if r["state"] == "duplicate"]
    assert repeats, rows                   # the case this test is about happened
    others = [r for r in rows if r["state"] != "duplicate"]
    for r in repeats:
        k = int(r["note"].split("duplicate of trial ")[1].split(":")[0])
        twin = next(o for o in others if int(o["trial"]) == k)
        assert twin[SETTING] == r[SETTING] and int(twin["trial"]) < int(r["trial"])
        assert r["games"] == r["objective"] == "", r       # no evidence of its own
    # --trials 3: three distinct candidates played, the repeats on top
    assert len(others) == 3 and len({o[SETTING] for o in others}) == 3, rows
    assert result["trials"] == 3 and result["repeats"] == len(repeats)
    # no rung of any candidate was played twice (after the search, a full-budget trial's games
    # played again whole, from game 0, to pair it with the best: review s50 tune #1; once a trial)
    rungs = [x for x in played if x[1:] != (0, 200)]
    whole = [x for x in played if x[1:] == (0, 200)]
    assert len(rungs) == len(set(rungs)), played
    assert len(whole) == len(set(whole)) and len(whole) <= len(others) - 1, played


def test_same_seed_same_trials_resumed_or_not(three_trials, tmp_path):
    """A search stopped after 2 trials and resumed to 3 proposes and plays what one run of 3 does,
    repeats included (the run of 3: the module's, ``three_trials``)."""
    keep = ("trial", "state", SETTING, "games", "objective")
    whole_dir, whole, _ = three_trials
    run_tune(_plan(2), tmp_path / "b")
    resumed = run_tune(_plan(3), tmp_path / "b")
    a = [{k: r[k] for k in keep} for r in _rows(whole_dir)]
    b = [{k: r[k] for k in keep} for r in _rows(tmp_path / "b")]
    assert a == b and any(r["state"] == "duplicate" for r in a)
    assert whole["best_trial"] == resumed["best_trial"] and whole["trials"] == resumed["trials"] == 3


def test_the_search_ends_once_every_candidate_has_been_played(tmp_path):
    """0..1 holds 2 candidates: --trials 10 plays the 2 and stops there, not proposing repeats
    until a limit. (Two candidates are enough for a space played out before its trials: 0..3's
    four cost 0.5 s of CPU more, a trial being mostly the tune's bookkeeping. Tried against the
    mistake put back, a search that stops only after more repeated proposals: it fails.)"""
    result = run_tune(_plan(10, seed=2, values="0..1"), tmp_path / "t")
    rows = _rows(tmp_path / "t")
    played = [r for r in rows if r["state"] != "duplicate"]
    assert sorted(int(r[SETTING]) for r in played) == [0, 1]
    assert rows[-1]["state"] != "duplicate", rows            # nothing proposed after the last one
    assert result["trials"] == 2


# (that each confirmation attempt is another setting: tests/sweep/test_tune_confirmations.py)


# --- #7: what to do after the verdict ---------------------------------------------------------------

ROLE = {"text": "role=seigneur:0.30:10", "kind": "role", "tol": 0.10, "role": "seigneur", "aim": 0.30,
        "lo": 0.0, "hi": 0.0}


def _cell(label: str, estimate: float, objective: float, outcome: str) -> dict:
    part = {"target": ROLE["text"], "objective": objective, "met": outcome == "met",
            "missed": outcome == "missed",
            "metrics": [{"metric": "role_win_share_seigneur", "estimate": estimate,
                         "low": estimate - 0.001, "high": estimate + 0.001}]}
    return {"label": label, "players": 4, "objective": objective, "met": outcome == "met",
            "outcome": outcome, "targets": [part]}


def _result(outcomes: tuple[str, str], estimates=(0.0026, 0.088)) -> dict:
    # |0.0026 − 0.30| / 0.10 = 2.974; |0.088 − 0.30| / 0.10 = 2.12
    cells = [_cell("4p harsh-lord + 3×fair-share", estimates[0], abs(estimates[0] - 0.3) / 0.1, outcomes[0]),
             _cell("4p even-lord + 3×fair-share", estimates[1], abs(estimates[1] - 0.3) / 0.1, outcomes[1])]
    return {"best_trial": 1, "settings": ["track.start_square=3"], "met": all(o == "met" for o in outcomes),
            "confirm": {"games": 10_000, "cells": cells, "met_cells": sum(o == "met" for o in outcomes)}}


def test_a_missed_target_has_no_fix_to_adopt_and_says_how_far_the_closest_candidate_was():
    from analysis.tune.advice import adopt_advice

    text = " ".join(adopt_advice(_result(("missed", "missed")), targets=[ROLE]))
    assert "No fix to adopt" in text and "trial 1 (track.start_square=3)" in text, text
    assert "before adopting" not in text and "balance skill" not in text, text
    # the furthest cell, its share against the 20-40% band: 20.0 − 0.26 = 19.74 pp below it
    assert "4p harsh-lord + 3×fair-share" in text and "0.3%" in text, text
    assert "band 20.0 to 40.0%: 19.7 pp below it" in text and "objective 2.97" in text, text


def test_a_met_or_undecided_fix_keeps_the_skill_check():
    from analysis.tune.advice import adopt_advice

    met = " ".join(adopt_advice(_result(("met", "met"), estimates=(0.29, 0.31))))
    assert "before adopting the fix" in met and "No fix" not in met, met
    unclear = " ".join(adopt_advice(_result(("unclear", "met"), estimates=(0.21, 0.31))))
    assert unclear.startswith("Undecided") and "balance skill" in unclear, unclear


def test_the_terminal_prints_no_skill_commands_for_a_missed_target(tmp_path):
    from cli.tune import follow_up_lines

    out = tmp_path / "t"
    out.mkdir()
    (out / "best_rules.toml").write_text("# rules\n", encoding="utf-8")   # the hint needs the file
    args = dict(game="seigneurial", out=out, vary=["track.start_square=0..3"],
                target=[ROLE["text"]], panel="default")
    missed = follow_up_lines(_result(("missed", "missed")), **args)
    text = "\n".join(missed)
    assert "No fix to adopt" in text and "balance skill" not in text and "before adopting" not in text, text
    met = follow_up_lines(_result(("met", "met"), estimates=(0.29, 0.31)), **args)
    assert any(x.startswith("before adopting the fix") for x in met), met
    assert any("balance skill" in x for x in met), met


# --- review P #6: a tune cut mid-trial and resumed gives the files of one never cut ----------------

def _trial_states(out: Path) -> list[str]:
    import sqlite3

    con = sqlite3.connect(out / "study.db")
    try:
        return [r[0] for r in con.execute("SELECT state FROM trials ORDER BY number")]
    finally:
        con.close()


@pytest.mark.parametrize("how", ["ctrl-c", "killed"])
def test_a_tune_cut_mid_trial_and_resumed_numbers_and_plays_what_one_never_cut_does(
        three_trials, tmp_path, monkeypatch, how):
    """Ctrl-C inside a trial leaves it failed in the study (Optuna marks it so); a kill leaves it
    running. Either way the resumed tune must give the uninterrupted one's trials.csv, trial numbers
    included, with no ``fail`` row (before, the cut trial kept its number: every later trial was one
    on, and the verdict named "trial 2" where the uninterrupted tune said "trial 1")."""
    whole_dir, whole, _ = three_trials
    out = tmp_path / "cut"
    if how == "ctrl-c":
        real, calls = runner.collect, []

        def cut_in_the_second_trial(prep, *args, **kwargs):
            if kwargs.get("seed") == 1:
                calls.append(kwargs.get("first", 0))
                if len(calls) == 3:          # trial 0 played 100 + 100 games; trial 1's first rung
                    raise KeyboardInterrupt
            return real(prep, *args, **kwargs)

        with monkeypatch.context() as m:
            m.setattr(runner, "collect", cut_in_the_second_trial)
            with pytest.raises(KeyboardInterrupt):
                run_tune(_plan(3), out)
        assert _trial_states(out) == ["COMPLETE", "FAIL"]          # the case this test is about
    else:
        import optuna

        from analysis.tune.search import STUDY, storage_url

        run_tune(_plan(1), out)
        study = optuna.load_study(study_name=STUDY, storage=storage_url(None, out))
        study.ask()                          # a trial begun and never ended: the process was killed
        assert _trial_states(out)[-1] == "RUNNING"
    said = []
    resumed = run_tune(_plan(3), out, progress=lambda *a: said.append(a))
    drop = ("seconds",)
    a = [{k: v for k, v in r.items() if k not in drop} for r in _rows(whole_dir)]
    b = [{k: v for k, v in r.items() if k not in drop} for r in _rows(out)]
    assert b == a and "fail" not in {r["state"] for r in b}
    assert "FAIL" not in _trial_states(out) and "RUNNING" not in _trial_states(out)
    assert resumed["best_trial"] == whole["best_trial"] and resumed["sentence"] == whole["sentence"]
    line = next(text for phase, *_, text in said if phase == "resume")
    assert "1 of 3 trials kept; 1 cut short by the interruption, played again; the search goes on" in line, line


def test_a_study_killed_mid_write_is_rolled_back_not_called_damaged(three_trials, tmp_path):
    """Review Q #3: a kill during a write to study.db leaves a hot journal; the read-only check of
    the study could not roll it back and said "study.db is damaged … move it away", advice that
    threw away every trial. The study is rolled back (SQLite's own recovery) and the tune resumes
    with the files of one never interrupted."""
    import shutil
    import subprocess
    import sys

    whole_dir, _, _ = three_trials
    out = tmp_path / "killed"
    shutil.copytree(whole_dir, out)
    for name in ("result.json", "best_rules.toml", "importance.csv"):
        (out / name).unlink()
    code = ("import os, signal, sqlite3, sys\n"
            "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
            "c.execute('pragma cache_size=2'); c.execute('begin immediate'); c.execute('create table junk(x)')\n"
            "c.executemany('insert into junk values(?)', [(b'x' * 4000,)] * 200)\n"
            "os.kill(os.getpid(), signal.SIGKILL)\n")
    subprocess.run([sys.executable, "-c", code, str(out / "study.db")], check=False)
    assert (out / "study.db-journal").stat().st_size > 0              # the case this test is about
    resumed = run_tune(_plan(3), out)
    keep = ("trial", "state", SETTING, "games", "objective")
    assert [{k: r[k] for k in keep} for r in _rows(out)] == [{k: r[k] for k in keep} for r in _rows(whole_dir)]
    assert resumed["best_trial"] == json.loads((whole_dir / "result.json").read_text())["best_trial"]
