"""Review G #2: ``balance check --baseline PANEL_DIR`` honours --seed, --batch,
--smallest-difference and --workers as a single baseline's check does (they were silently
ignored: the output was byte-identical with and without them), refuses ``--batch 0`` in the same
words, and says in words why a directory is not a panel baseline (it said "KeyError: 'baselines'").
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil

import pytest

from in_process import balance

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


@pytest.fixture(scope="module")
def _panel_baseline(tmp_path_factory):
    root = tmp_path_factory.mktemp("review-g-check")
    balance("baseline", "--lineup", "random", "--players", "2,3", "--games", "3000", "--tolerance", "5",
            "--out", root / "pb")
    return root / "pb"


@pytest.fixture
def pb(_panel_baseline, tmp_path):
    return shutil.copytree(_panel_baseline, tmp_path / "pb")


def one_line(done) -> str:
    lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
    assert done.returncode == 2 and len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    return lines[0]


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_seed_batch_and_smallest_difference_change_a_panel_check(pb):
    plain = balance("check", "--baseline", pb).stdout
    for extra in (["--seed", "5"], ["--batch", "100"], ["--smallest-difference", "score=5"]):
        other = balance("check", "--baseline", pb, *extra).stdout
        assert other != plain, f"{extra} was ignored by the panel check"
    assert "smaller than the 5 coins that matter" in balance(
        "check", "--baseline", pb, "--smallest-difference", "score=5").stdout


def test_every_option_reaches_every_cell(pb, monkeypatch):
    """--workers too (a local Dask cluster here would cost seconds: its executor is stood in for)."""
    import analysis.check.play as play
    import simcore.cluster as cluster
    from simcore.errors import UsageError

    seen = []
    sentinel = object()

    @contextlib.contextmanager
    def fake_executor(workers, scheduler, **kw):
        seen.append(("workers", workers))
        yield sentinel

    def fake_play(base, **kw):
        seen.append(kw)
        raise UsageError("stopped by the test")

    monkeypatch.setattr(cluster, "executor_for", fake_executor)
    monkeypatch.setattr(play, "play_check", fake_play)
    done = balance("check", "--baseline", pb, "--workers", "2", "--seed", "7", "--batch", "50",
                   check=False)
    assert done.returncode == 2 and "stopped by the test" in done.stderr, done.stderr
    assert ("workers", 2) in seen
    kw = next(x for x in seen if isinstance(x, dict))
    assert kw["seed"] == 7 and kw["batch"] == 50 and kw["executor"] is sentinel, kw


@pytest.mark.parametrize("batch", ["0", "-7"])
def test_a_bad_batch_is_refused_alike_for_a_panel_and_a_file(pb, batch, no_playing):
    panel = one_line(balance("check", "--baseline", pb, "--batch", batch, check=False))
    single = one_line(balance("check", "--baseline", pb / "cell-0.toml", "--batch", batch, check=False))
    # at least 30 games a look (review s46 #1)
    assert panel == single and panel.startswith(f"error: --batch {batch}: must be at least 30:")


def test_the_baselines_own_seed_is_refused_before_any_game(pb, no_playing):
    line = one_line(balance("check", "--baseline", pb, "--seed", "2024", check=False))
    assert line.startswith("error: --seed 2024: the baseline's own seed"), line


def test_a_directory_that_is_not_a_panel_baseline_is_said_in_words(pb, tmp_path, no_playing):
    # a panel of runs (simulate --panel), unfinished: its panel.json has no "baselines"
    sp = tmp_path / "sp"
    (sp / "cell-1").mkdir(parents=True)
    (sp / "cell-1" / "run.json").write_text("{}")
    (sp / "panel.json").write_text(json.dumps({"format": 1, "kind": "panel",
                                               "cells": ["cell-1", "cell-2"]}))
    line = one_line(balance("check", "--baseline", sp, check=False))
    assert "a panel of runs played by simulate --panel" in line and "1 of 2 cells played" in line, line
    assert "KeyError" not in line
    # a panel.json of neither kind
    (sp / "panel.json").write_text(json.dumps({"format": 1, "panel": {}}))
    line = one_line(balance("check", "--baseline", sp, check=False))
    assert "lists no cell baselines" in line and "Error" not in line, line
    # a panel baseline whose recording stopped before panel.json was written
    os.remove(pb / "panel.json")
    line = one_line(balance("check", "--baseline", pb, check=False))
    assert "an unfinished panel baseline" in line, line
