"""A baseline of a run played with ``--set`` keeps the rules it measured.

``balance baseline`` on a run of ``simulate --set setup.start_coins=5`` wrote ``rules = "default"``
and a "reproduce" command without the ``--set``, so ``balance check`` played the shipped rules and
FAILED the very rules the baseline measured ("rules differ from the baseline: setup.start_coins 5 →
0"), in every game. The measured rules are now written beside the baseline (``NAME.rules.toml``, as a
panel baseline writes each cell's) and the baseline names that file: its commands reproduce the run
and a check plays the rules measured.
"""

from __future__ import annotations

import pytest
import hashlib
import json

from in_process import balance


def _played(tmp_path, name: str, coins: int = 5):
    from simcore import runner

    return runner.simulate("middle-ages", games=6000, seed=3, out=tmp_path / name,
                           settings=[f"setup.start_coins={coins}"], raw=False, quiet=True)


def test_the_baseline_names_and_writes_the_rules_measured(tmp_path):
    run = _played(tmp_path, "run")
    meta = json.loads((run / "run.json").read_text())
    out = tmp_path / "bl" / "coins.toml"
    out.parent.mkdir()
    done = balance("baseline", run, "--out", out, "--tolerance", "3", "--score-tolerance", "6")
    rules = out.with_name("coins.rules.toml")
    assert rules.read_text() == meta["rules_text"]
    assert hashlib.sha256(rules.read_bytes()).hexdigest() == meta["rules_sha256"]
    text = out.read_text()
    assert 'rules = "coins.rules.toml"' in text and 'rules = "default"' not in text
    assert f"--rules {rules.as_posix()} " in text          # the command reproduces the run
    assert "rules measured (with --set setup.start_coins=5)" in done.stdout
    # the check plays the rules measured: no "rules differ", and no failure
    check = balance("check", "--baseline", out, "--games", "6000", check=False)
    assert "rules differ" not in check.stdout + check.stderr, check.stdout
    assert check.returncode in (0, 3), (check.returncode, check.stdout[-2000:])


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_file_of_the_designers_under_that_name_is_never_lost(tmp_path):
    run = _played(tmp_path, "run")
    out = tmp_path / "coins.toml"
    mine = tmp_path / "coins.rules.toml"
    mine.write_text("# my own notes\n")
    done = balance("baseline", run, "--out", out, "--tolerance", "3", "--score-tolerance", "6", check=False)
    assert done.returncode == 2 and "coins.rules.toml" in done.stderr and not out.exists()
    done = balance("baseline", run, "--out", out, "--tolerance", "3", "--score-tolerance", "6", "--force",
                   check=False)
    assert done.returncode == 2 and mine.read_text() == "# my own notes\n"
    # a baseline replaced with --force replaces its own measured rules, for other rules too
    mine.unlink()
    balance("baseline", run, "--out", out, "--tolerance", "3", "--score-tolerance", "6")
    other = _played(tmp_path, "other", coins=7)
    balance("baseline", other, "--out", out, "--tolerance", "3", "--score-tolerance", "6", "--force")
    assert mine.read_text() == json.loads((other / "run.json").read_text())["rules_text"]


def test_players_on_a_run_baseline_names_players(tmp_path):
    """(Designer review #18: ``check --players 3`` on one run's baseline blamed ``--panel``.)"""
    run = _played(tmp_path, "run")
    out = tmp_path / "coins.toml"
    balance("baseline", run, "--out", out, "--tolerance", "3", "--score-tolerance", "6")
    for option, value in (("--players", "3"), ("--lineup", "balanced")):
        done = balance("check", "--baseline", out, option, value, check=False)
        assert done.returncode == 2 and done.stderr.strip().splitlines()[-1].startswith(f"error: {option}:"), done.stderr
