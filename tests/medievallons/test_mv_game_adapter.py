"""`simulate --game medievallons` through the shared runner (MV-9 records): the exact columns and
dtypes, run.json's end-reason names, seat rotation with deal/rotation columns, the reference engine
behind --engine reference, and results that do not depend on threads or chunk size.
"""

from __future__ import annotations

import json

import polars as pl
import pytest

from simcore import runner
from cli import _run
from simcore.errors import UsageError
from simcore.games.medievallons.rules import CARD_TYPES

PLAYER_COLUMNS = {
    "game": pl.Int64, "seat": pl.Int8, "strategy": pl.String, "score": pl.Int32,
    "win_share": pl.Float32, "rank": pl.Int8, "guilds": pl.Int8, "hand": pl.Int16,
    **{f"founded_{t}": pl.Int8 for t in CARD_TYPES},
    **{f"powers_{t}": pl.Int16 for t in CARD_TYPES if t != "bouffon"},
}
GAME_COLUMNS = {"game": pl.Int64, "n_players": pl.Int8, "turns": pl.Int16, "end_reason": pl.Int8,
                "reshuffles": pl.Int8}


def simulate(out, *args):
    return _run(["simulate", "--game", "medievallons", "--out", str(out), "--quiet", *args])


def test_run_directory_has_the_documented_columns_and_metadata(tmp_path):
    assert simulate(tmp_path / "run", "--games", "400", "--players", "3", "--seed", "5") == 0
    players = pl.read_parquet(tmp_path / "run" / "players.parquet")
    games = pl.read_parquet(tmp_path / "run" / "games.parquet")
    assert dict(players.schema) == PLAYER_COLUMNS
    assert dict(games.schema) == GAME_COLUMNS
    assert players.height == 1200 and games.height == 400
    meta = json.loads((tmp_path / "run" / "run.json").read_text())
    assert meta["game"] == "medievallons" and meta["players"] == 3
    assert meta["strategies"] == ["balanced"] * 3            # the default: symmetric bots
    assert meta["end_reason_names"] == {"0": "third_guild", "1": "empty_pile", "2": "truncated"}
    assert "[deck.copies]" in meta["rules_text"] and len(meta["rules_sha256"]) == 64
    per_game = players.group_by("game").agg(pl.col("win_share").sum(), pl.col("rank").min(),
                                            pl.col("guilds").max())
    assert per_game["win_share"].min() > 0.999 and per_game["win_share"].max() < 1.001
    assert (per_game["rank"] == 1).all()
    # MV-7: a game ending on the third guild has a player holding 3 guilds
    ended = games.join(per_game, on="game")
    assert (ended.filter(pl.col("end_reason") == 0)["guilds"] == 3).all()
    assert (ended.filter(pl.col("end_reason") == 1)["guilds"] < 3).all()
    summary = pl.read_parquet(tmp_path / "run" / "summary.parquet").filter(pl.col("group") == "seat")
    assert summary["games"].to_list() == [400] * 3


def test_seat_rotation_plays_every_deal_once_per_rotation(tmp_path):
    out = tmp_path / "run"
    assert simulate(out, "--games", "200", "--strategies", "collector,balanced,random,saboteur",
                    "--rotate-seats") == 0
    players = pl.read_parquet(out / "players.parquet")
    assert players["deal"].n_unique() == 50 and players["rotation"].n_unique() == 4
    per_deal = players.group_by("deal", "strategy").agg(pl.col("seat").n_unique().alias("seats"))
    assert (per_deal["seats"] == 4).all()
    assert simulate(tmp_path / "bad", "--games", "201", "--rotate-seats") == 2


def test_reference_engine_plays_random_bots_only_and_engines_are_named():
    """(That the reference writes the kernel's run is checked for every game in tests/conformance.)"""
    with pytest.raises(UsageError, match="random strategy only"):
        runner.prepare("medievallons", players=4, strategies="balanced", engine="reference")
    with pytest.raises(UsageError, match="kernel or reference"):
        runner.prepare("medievallons", players=4, engine="gpu")


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_debug_mode_runs_the_invariants(tmp_path):
    assert simulate(tmp_path / "run", "--games", "300", "--players", "2", "--debug",
                    "--strategies", "planner,balanced") == 0
    meta = json.loads((tmp_path / "run" / "run.json").read_text())
    assert meta["debug"] is True
