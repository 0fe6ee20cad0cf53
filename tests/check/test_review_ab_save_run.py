"""Review AB #5: ``balance check --baseline B --save-run runs/base --force`` replaced the run the
baseline was measured from (its header says to rebuild the baseline from it) with the check's own
few thousand games. That directory is now refused in one line, with --force too, before any game;
another run directory this toolkit wrote is still replaced with --force."""

from __future__ import annotations

import pytest
import json

from cli import _run
from simcore import runner


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_baselines_own_run_is_never_replaced_by_a_saved_check(tmp_path, capsys):
    base = runner.simulate("middle-ages", players=4, games=3000, seed=7, out=tmp_path / "base", quiet=True)
    loose = ["--tolerance", "5", "--score-tolerance", "5"]         # (3,000 games: no ±1 pp baseline)
    before = (base / "run.json").read_bytes()
    assert _run(["baseline", str(base), "--out", str(tmp_path / "b.toml"), *loose]) == 0
    capsys.readouterr()
    code = _run(["check", "--baseline", str(tmp_path / "b.toml"), "--save-run", str(base), "--force", "-q"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "holds the run this baseline was measured from (seed 7, 3,000 games)" in err, err
    assert "\n" not in err and (base / "run.json").read_bytes() == before
    # another run of ours is replaced with --force, as before
    other = runner.simulate("middle-ages", players=4, games=200, seed=9, out=tmp_path / "other", quiet=True)
    code = _run(["check", "--baseline", str(tmp_path / "b.toml"), "--save-run", str(other), "--force",
                 "--games", "2000", "-q"])
    assert code in (0, 1, 3), capsys.readouterr().err
    assert json.loads((other / "run.json").read_text())["seed"] != 9


def test_a_fief_combat_run_gets_no_baseline_it_could_not_replay(tmp_path, capsys):
    """Review AA #2: a baseline of a Fief combat recorded no matchup: its reproduce command took
    --players (a combat takes none) and failed, a check replaying it failed the same way, and a
    city run checked against a castle baseline read as a regression. balance baseline now refuses
    such a run in one line, naming the matchup and what to use instead."""
    run = runner.simulate("fief-combat", games=2000, seed=3, out=tmp_path / "siege", quiet=True,
                          attacker=10, defender=6, terrain="castle")
    code = _run(["baseline", str(run), "--out", str(tmp_path / "b.toml")])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err and not (tmp_path / "b.toml").exists(), err
    assert "one matchup (10 against 6 points, castle)" in err and "balance report BASE VARIANT" in err
