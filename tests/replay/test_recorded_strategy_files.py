"""Review W #4: a run records the text of every strategy file its bots were read from (run.json
``strategy_files``: a seat's own ``file.toml`` and the game's presets), and a replay, the event
ablation of ``balance questions`` and a replay of a run without rows play those recorded texts,
not whatever the disk holds now. Before, run.json named a file bot by its path only: after an edit
of the file (or on another machine, or after an edit of ``configs/<game>/strategies.toml``) the
replay played other bots and ended "the replay differs from the run's row".
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from in_process import balance

PRESETS = Path(__file__).resolve().parents[2] / "configs" / "middle_ages" / "strategies.toml"
MINE = '''[mine]
description = "Balanced with a taste for Palais."
kind = "heuristic"
weights = { value = 1.0, fill = 0.5, combo = 1.0, order = 1.0, defense = 0.5 }
bias = { palais = 4.0 }
'''
# the same name, other play: what an edit after the run makes of the file
EDITED = MINE.replace("palais = 4.0", "champs = 6.0, moulin = -3.0")


@pytest.fixture(scope="module")
def file_run(tmp_path_factory) -> tuple[Path, Path]:
    """A 60-game Middle-Ages run (rows kept) whose seat 2 plays ``bots.toml:mine``."""
    root = tmp_path_factory.mktemp("filebots")
    bots = root / "bots.toml"
    bots.write_text(MINE)
    run = root / "run"
    balance("simulate", "--games", "60", "--seed", "5", "--raw", "-q", "--out", run,
            "--strategies", f"balanced,{bots}:mine,balanced,greedy")
    return run, bots


def test_run_json_holds_the_texts_the_bots_were_read_from(file_run):
    run, bots = file_run
    files = json.loads((run / "run.json").read_text())["strategy_files"]
    assert set(files) == {str(bots), "configs/middle_ages/strategies.toml"}, set(files)
    assert files[str(bots)]["text"] == MINE
    assert files[str(bots)]["sha256"] == hashlib.sha256(MINE.encode()).hexdigest()
    presets = PRESETS.read_text()
    assert files["configs/middle_ages/strategies.toml"]["text"] == presets
    assert files["configs/middle_ages/strategies.toml"]["sha256"] == \
        hashlib.sha256(presets.encode()).hexdigest()


def _games_of_mine(run: Path) -> list[int]:
    import polars as pl

    rows = pl.read_parquet(run / "players.parquet")
    return sorted(rows.filter(pl.col("seat") == 1)["game"].unique().to_list())[:3]


def test_a_replay_plays_the_recorded_file_after_an_edit_and_a_removal(file_run, tmp_path):
    from simcore.replay import replay

    run, bots = file_run
    games = _games_of_mine(run)
    for g in games:                                       # the file as it was: the run's games
        assert replay(run, g).matches
    bots.write_text(EDITED)
    try:
        for g in games:
            r = replay(run, g)
            assert r.matches, r.differences
        # the check can fail: without the recorded texts, the edited file plays other games
        bare = tmp_path / "bare"
        bare.mkdir()
        for f in run.iterdir():
            (bare / f.name).symlink_to(f)
        (bare / "run.json").unlink()
        meta = json.loads((run / "run.json").read_text())
        del meta["strategy_files"]
        (bare / "run.json").write_text(json.dumps(meta))
        assert not all(replay(bare, g).matches for g in games)
        bots.unlink()                                     # gone altogether: still the run's bots
        done = balance("replay", run, "--game", str(games[0]))
        assert "differs" not in done.stdout + done.stderr
    finally:
        bots.write_text(MINE)


def test_a_run_without_rows_is_played_again_with_the_recorded_file(tmp_path):
    """``balance replay`` of a run that kept no players.parquet plays its game again through the
    runner (:func:`simcore.replay.prepare_run`): from the recorded file too."""
    from simcore.replay import read_meta, prepare_run

    bots = tmp_path / "bots.toml"
    bots.write_text(MINE)
    run = tmp_path / "run"
    balance("simulate", "--games", "20", "--no-raw", "-q", "--out", run,
            "--strategies", f"{bots}:mine,balanced,balanced,balanced")
    bots.unlink()
    prep = prepare_run(read_meta(run))
    assert prep.strategy_names[0] == f"{bots}:mine"
    from strategies.middle_ages import LOADER

    bots.write_text(MINE)
    try:
        want = LOADER.lookup(f"{bots}:mine").row
    finally:
        bots.unlink()
    import numpy as np

    assert np.array_equal(prep.recipe.kwargs["bots"][1][0], want)
