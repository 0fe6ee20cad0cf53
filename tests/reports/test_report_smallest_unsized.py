"""``balance report --smallest-difference K=V`` refuses a kind none of the report's pages sizes.

Designer review (counts per game): ``count=`` was added for a before/after's counts per game, and
``balance report`` took it on every page, though only a two-run before/after of a game with lead
changes sizes a count: a single run's page, a sweep's, a panel before/after and a Seigneurial
before/after ignored it without a word (the designer believed a threshold applied). A
Médiévallons before/after's one count, its reshuffles, is at most one a game (MV-6) and is dropped
as the same number as the share of games with one. Likewise ``length=`` on a Middle-Ages report:
the game has no length column (16 turns, MA-1), so nothing of it is ever a length.

Now each is one line naming what the pages size, exit code 2, before anything is written
(:func:`analysis.load.refuse_unsized`'s wording)."""

from __future__ import annotations

import numpy as np
import pytest

from cli import _run
from simcore import runner


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    d = tmp_path_factory.mktemp("unsized")
    out = {}     # two seeds of the shipped rules, each its own configuration with --no-pool
    for game in ("middle-ages", "seigneurial", "medievallons"):
        out[game] = (runner.simulate(game, games=60, seed=1, out=d / f"{game}-b", quiet=True),
                     runner.simulate(game, games=60, seed=2, out=d / f"{game}-v", quiet=True))
    return out


def _refused(capsys, args, out, kind, sized):
    code = _run([*args, "--out", str(out), "--smallest-difference", f"{kind}=0.5"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1, err
    assert f"--smallest-difference {kind}: no {kind} difference is sized by" in err, err
    assert f"(sized there: {sized})" in err, err
    assert not out.exists(), "nothing written"
    return err


def test_a_single_run_report_refuses_a_count(runs, tmp_path, capsys):
    err = _refused(capsys, ["report", str(runs["middle-ages"][0])], tmp_path / "rep", "count",
                   "win_share, score")
    assert "one Middle-Ages run" in err, err


def test_a_middle_ages_report_refuses_a_length_the_game_has_none_of(runs, tmp_path, capsys):
    _refused(capsys, ["report", *map(str, runs["middle-ages"]), "--no-pool"], tmp_path / "rep", "length",
             "win_share, score, count")


def test_a_seigneurial_before_after_refuses_a_count(runs, tmp_path, capsys):
    err = _refused(capsys, ["report", *map(str, runs["seigneurial"]), "--no-pool", "--questions-games", "0"],
                   tmp_path / "rep", "count", "win_share, score, length")
    assert "before/after" in err, err


def test_a_medievallons_before_after_refuses_a_count_dropped_as_a_share(runs, tmp_path, capsys):
    # its reshuffles: at most one a game, the same number as the share of games with one
    _refused(capsys, ["report", *map(str, runs["medievallons"]), "--no-pool", "--questions-games", "0"],
             tmp_path / "rep", "count", "win_share, score, length")


def test_a_sweep_report_refuses_a_count(tmp_path, capsys):
    from handmade_sweep import write_sweep

    rng = np.random.default_rng(0)
    sweep = write_sweep(tmp_path / "sw", "income.palais.base", [3, 4],
                        {v: rng.integers(0, 4, 200) for v in (3, 4)}, 200)
    err = _refused(capsys, ["report", str(sweep)], tmp_path / "rep", "count", "win_share, score")
    assert "sweep" in err, err


def test_a_panel_before_after_refuses_a_count(tmp_path, capsys):
    for name, extra in (("a", []), ("b", ["--set", "income.palais.base=4"])):
        assert _run(["simulate", "--game", "middle-ages", "--panel", "default", "--games", "40", "--seed", "1",
                     "--quiet", "--out", str(tmp_path / name), *extra]) == 0
    capsys.readouterr()
    err = _refused(capsys, ["report", str(tmp_path / "a"), str(tmp_path / "b")], tmp_path / "rep", "count",
                   "win_share")
    assert "panels" in err, err


def test_a_middle_ages_sweep_refuses_a_length_it_never_sizes(tmp_path, capsys):
    """Middle-Ages keeps no game length (16 turns, MA-4), so its sweep's effects size none: ``balance
    sweep --smallest-difference length=2`` was recorded in sweep.json and ignored (helper-211's
    note); it is refused in one line before anything is played, as ``count=`` is."""
    from cli import _run

    code = _run(["sweep", "--game", "middle-ages", "--vary", "income.palais.base=3..4", "--games", "100",
                 "--out", str(tmp_path / "sw"), "--smallest-difference", "length=2"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1, err
    assert "--smallest-difference length" in err and "(sized there: win_share, score)" in err, err
    assert not (tmp_path / "sw").exists()
    # a game with a length keeps taking it
    assert _run(["sweep", "--game", "seigneurial", "--vary", "track.goal.4=10..11", "--games", "50",
                 "--out", str(tmp_path / "sg"), "--smallest-difference", "length=2", "--quiet"]) == 0
