"""Session 52 review (export, replay): --strategies against a bot whose file run.json records,
--find's wins being a win alone, --out - as standard output."""

from __future__ import annotations

import json

import polars as pl
import pytest

from in_process import balance

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

SLY = '[sly]\ndescription = "test bot"\nkind = "heuristic"\nweights = { value = 1, fill = 2, order = 0.3 }\nbias = { palais = 4 }\n'


@pytest.fixture(scope="module")
def sly_run(tmp_path_factory):
    d = tmp_path_factory.mktemp("sly")
    (d / "sly.toml").write_text(SLY, encoding="utf-8")
    run = d / "run"
    balance("simulate", "--games", 40, "--seed", 9, "--strategies", f"{d / 'sly.toml'},balanced,balanced,balanced",
            "-q", "--out", run)
    return d, run


def test_another_bot_for_a_seat_whose_file_text_is_recorded_is_refused_before_playing(sly_run, tmp_path):
    d, run = sly_run
    done = balance("replay", run, "--game", 5, "--strategies", "random,balanced,balanced,balanced", check=False)
    assert done.returncode == 2 and "seat 1 was played by" in done.stderr and "CHECK FAILED" not in done.stdout
    assert len(done.stderr.strip().splitlines()) == 1
    edited = tmp_path / "edited.toml"
    edited.write_text(SLY.replace("palais = 4", "palais = -4"), encoding="utf-8")
    assert balance("replay", run, "--game", 5, "--strategies", f"{edited},balanced,balanced,balanced",
                   check=False).returncode == 2
    # the same text under another name is the same bot: replayed, and the check holds
    copy = tmp_path / "copy.toml"
    copy.write_text(SLY, encoding="utf-8")
    same = balance("replay", run, "--game", 5, "--strategies", f"{copy},balanced,balanced,balanced")
    assert "CHECK FAILED" not in same.stdout


def test_wins_is_a_win_alone_so_a_fief_wipe_out_is_not_the_defenders_longest_hold(tmp_path):
    run = tmp_path / "fief"
    balance("simulate", "--game", "fief-combat", "--games", 4000, "-q", "--out", run)
    p = pl.read_parquet(run / "players.parquet")
    g = pl.read_parquet(run / "games.parquet")
    defender = p.filter(pl.col("seat") == 1).join(g.select("game", "rounds"), on="game")
    sole = defender.filter(pl.col("win_share") == 1)
    assert defender.filter((pl.col("win_share") > 0) & (pl.col("win_share") < 1)).height > 0   # wipe-outs exist
    longest = sole.sort(["rounds", "game"], descending=[True, False]).row(0, named=True)
    done = balance("replay", run, "--find", "role=defender wins max rounds")
    assert done.stdout.startswith(f"# game {longest['game']}:"), done.stdout[:200]
    assert f"among the {sole.height:,} games the Defender won" in done.stdout.splitlines()[0]


def test_out_dash_is_standard_output_not_a_file_named_dash(tmp_path, monkeypatch, sly_run):
    _, run = sly_run
    monkeypatch.chdir(tmp_path)
    done = balance("replay", run, "--game", 1, "--out", "-")
    assert done.stdout.startswith("Middle-Ages: game 1") and not (tmp_path / "-").exists()


def test_a_game_column_is_found_as_the_game_among_the_runs_games(tmp_path):
    run = tmp_path / "sg"
    balance("simulate", "--game", "seigneurial", "--games", 300, "-q", "--out", run)
    g = pl.read_parquet(run / "games.parquet").sort(["seigneur_square", "game"], descending=[True, False])
    done = balance("replay", run, "--find", "max seigneur_square")
    first = done.stdout.splitlines()[0]
    assert first.startswith(f"# game {g['game'][0]}: the game with the most Seigneur's square"), first
    assert "among the run's 300 games" in first and "seats" not in first
