"""The runner, the run directory and the `simulate` command (issue: Middle-Ages end to end).

The exact column names and dtypes of MA-12's records, atomic writing, refusal to overwrite, and
one clear error line with exit code 2 for bad input. Reproducibility across threads and chunk
sizes and kernel = reference on random play are checked for every game in tests/conformance/.
"""

from __future__ import annotations

import json

import polars as pl
import pyarrow.parquet as pq
import pytest

from simcore import runner
from cli import _run, simulate_main
from simcore.errors import UsageError

PLAYER_COLUMNS = {
    "game": pl.Int64, "seat": pl.Int8, "strategy": pl.String, "score": pl.Int32,
    "win_share": pl.Float32, "rank": pl.Int8,
    **{f"tiles_{t}": pl.Int8 for t in ("champs", "moulin", "village", "rempart", "marche",
                                       "caserne", "eglise", "palais")},
    "graveyard": pl.Int8, "penalty": pl.Int16,
    **{f"event_gain_{k}": pl.Int16 for k in range(1, 5)},
    **{f"coins_before_event_{k}": pl.Int16 for k in range(1, 5)},
    **{f"coins_turn_{t}": pl.Int16 for t in range(1, 17)},
}
GAME_COLUMNS = {"game": pl.Int64, "n_players": pl.Int8, "event_1": pl.Int8, "event_2": pl.Int8,
                "event_3": pl.Int8, "event_4": pl.Int8, "reshuffles": pl.Int8}


def simulate(out, *args):
    return _run(["simulate", "--out", str(out), "--quiet", *args])


def test_run_directory_has_the_documented_columns_and_metadata(tmp_path):
    assert simulate(tmp_path / "run", "--games", "500", "--players", "3", "--seed", "5") == 0
    players = pl.read_parquet(tmp_path / "run" / "players.parquet")
    games = pl.read_parquet(tmp_path / "run" / "games.parquet")
    assert dict(players.schema) == PLAYER_COLUMNS
    assert dict(games.schema) == GAME_COLUMNS
    assert players.height == 1500 and games.height == 500
    meta = json.loads((tmp_path / "run" / "run.json").read_text())
    for key in ("game", "rules_text", "rules_sha256", "strategies", "seed", "games", "players",
                "version", "wall_time_s", "games_per_s"):
        assert key in meta
    assert meta["game"] == "middle-ages" and meta["players"] == 3 and meta["seed"] == 5
    assert meta["strategies"] == ["balanced"] * 3   # the default: symmetric heuristic bots
    assert "[tile_table]" in meta["rules_text"] and len(meta["rules_sha256"]) == 64
    # win shares of a game add up to 1; ranks start at 1 (MA-9)
    per_game = players.group_by("game").agg(pl.col("win_share").sum(), pl.col("rank").min())
    assert per_game["win_share"].min() > 0.999 and per_game["win_share"].max() < 1.001
    assert (per_game["rank"] == 1).all()
    summary = pl.read_parquet(tmp_path / "run" / "summary.parquet").filter(pl.col("group") == "seat")
    assert summary["games"].to_list() == [500] * 3
    assert summary["win_share_sum"].sum() == pytest.approx(500, abs=1e-3)
    by_seat = players.group_by("seat").agg(pl.col("win_share").sum()).sort("seat")
    assert summary["win_share_sum"].to_list() == pytest.approx(by_seat["win_share"].to_list())


def test_different_seeds_give_different_games(tmp_path):
    simulate(tmp_path / "a", "--games", "200", "--seed", "1")
    simulate(tmp_path / "b", "--games", "200", "--seed", "2")
    a = pq.read_table(tmp_path / "a" / "players.parquet")
    b = pq.read_table(tmp_path / "b" / "players.parquet")
    assert not a.equals(b)


def test_existing_results_are_kept_without_force_and_replaced_with_it(tmp_path, capsys):
    out = tmp_path / "run"
    assert simulate(out, "--games", "100", "--seed", "1") == 0
    before = (out / "players.parquet").read_bytes()
    assert simulate(out, "--games", "100", "--seed", "2") == 2
    assert "not empty" in capsys.readouterr().err
    assert (out / "players.parquet").read_bytes() == before
    assert simulate(out, "--games", "100", "--seed", "2", "--force") == 0
    assert (out / "players.parquet").read_bytes() != before
    assert [p.name for p in tmp_path.iterdir()] == ["run"]  # no temporary leftovers


def test_a_failing_run_leaves_nothing_under_the_final_name(tmp_path, monkeypatch):
    out = tmp_path / "run"
    prep = runner.prepare("middle-ages", players=4, strategies="random")
    calls = {"n": 0}
    real = prep.play

    def play(first, n, seed):
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt
        return real(first, n, seed)

    prep.play = play
    with pytest.raises(KeyboardInterrupt):
        runner.run(prep, games=300, seed=0, out=out, chunk_size=100, quiet=True)
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []


def test_large_runs_without_raw_keep_only_sufficient_statistics(tmp_path):
    out = tmp_path / "run"
    assert simulate(out, "--games", "300", "--no-raw") == 0
    assert not (out / "players.parquet").exists()
    summary = pl.read_parquet(out / "summary.parquet").filter(pl.col("group") == "seat")
    assert summary.height == 4 and summary["games"].to_list() == [300] * 4
    assert json.loads((out / "run.json").read_text())["raw_players"] is False


@pytest.mark.parametrize("text,ok", [("1e6", 1_000_000), ("1_000_000", 1_000_000),
                                     ("250000", 250_000), ("2.5e5", 250_000)])
def test_game_counts_are_parsed_in_the_forms_designers_type(text, ok):
    assert runner.parse_games(text) == ok


@pytest.mark.parametrize("text", ["0", "-5", "1.5", "abc", "", "1e-3", "nan"])
def test_bad_game_counts_are_refused(text):
    with pytest.raises(UsageError, match="--games"):
        runner.parse_games(text)


@pytest.mark.parametrize("args,needle", [
    (["--games", "abc"], "--games abc"),
    (["--games", "0"], "--games 0"),
    (["--players", "7"], "--players 7"),
    (["--players", "1"], "--players 1"),
    (["--strategies", "nobody"], "unknown strategy"),
    (["--rotate-seats", "--games", "10"], "multiple of 4"),
    (["--strategies", "random,random"], "2 names for 4 players"),
    (["--game", "chess"], "--game chess"),
    (["--threads", "0"], "--threads 0"),
    (["--rules", "/nonexistent/rules.toml"], "not found"),
    (["--engine", "gpu"], "--engine gpu"),
])
def test_bad_input_gets_one_line_and_exit_code_2(tmp_path, capsys, args, needle):
    code = simulate(tmp_path / "run", "--games", "10", *args)
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert needle in err and len(err.splitlines()) == 1, err
    assert not (tmp_path / "run").exists()


def test_unwritable_output_path_is_refused_before_any_game(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("keep me")
    assert simulate(blocker / "run", "--games", "10") == 2
    assert blocker.read_text() == "keep me"
    assert "--out" in capsys.readouterr().err


def test_output_directory_the_system_refuses_to_create_is_one_line(tmp_path, capsys, monkeypatch):
    """A directory that passes the checks but cannot be made (a read-only or special file system,
    such as /proc) stops the run with one line naming where, exit code 2, and nothing written."""
    import pathlib

    def refuse(self, *args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(pathlib.Path, "mkdir", refuse)
    assert simulate(tmp_path / "run", "--games", "10") == 2
    err = capsys.readouterr().err.strip()
    assert (f"cannot create a directory in {tmp_path}: Permission denied" in err
            or f"cannot create a lock file in {tmp_path}: Permission denied" in err), err
    assert "\n" not in err
    assert len(err.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_simulate_console_script_takes_options_directly(tmp_path):
    with pytest.raises(SystemExit) as exc:
        simulate_main(["--games", "50", "--out", str(tmp_path / "r"), "--quiet"])
    assert exc.value.code == 0
    assert (tmp_path / "r" / "run.json").exists()


def test_event_summary_carries_the_per_event_statistics_of_the_raw_rows(tmp_path):
    """The compact events_summary.parquet (for runs without raw rows) equals what the raw rows say."""
    out = tmp_path / "run"
    assert simulate(out, "--games", "3000", "--seed", "4") == 0
    players = pl.read_parquet(out / "players.parquet")
    games = pl.read_parquet(out / "games.parquet")
    summary = pl.read_parquet(out / "events_summary.parquet")
    joined = players.join(games, on="game")
    for k in (1, 3):
        want = (joined.group_by(pl.col(f"event_{k}").alias("event"), "seat")
                .agg(pl.len().alias("players"), pl.col(f"event_gain_{k}").cast(pl.Float64).sum().alias("gain_sum"))
                .sort("event", "seat"))
        got = summary.filter(pl.col("slot") == k).sort("event", "seat")
        assert got["players"].to_list() == want["players"].to_list()
        assert got["gain_sum"].to_list() == pytest.approx(want["gain_sum"].to_list())


def test_a_command_exit_code_reaches_the_shell():
    """typer.Exit(n) inside a command must become exit code n (click returns it, not raises)."""
    import typer

    from cli import app

    @app.command("exit-three-for-test", hidden=True)
    def _exit_three():
        raise typer.Exit(3)

    assert _run(["exit-three-for-test"]) == 3


def test_run_tables_store_required_columns_with_statistics_only_where_a_reader_skips_by_them(
        tmp_path, monkeypatch):
    """players.parquet and games.parquet: no column can hold a missing value (no definition
    levels stored, simcore/rundir.py), min/max statistics only on the counting columns, whose row
    groups (runs of consecutive games) hold disjoint ranges, so a reader asking for one game
    skips the other row groups; that read returns exactly the game's rows."""
    monkeypatch.setattr(runner, "DEFAULT_CHUNK", 256)     # row groups of 256 games (default 131,072)
    assert simulate(tmp_path / "run", "--games", "700", "--seed", "3", "--chunk-size", "500") == 0
    for name, counting in (("players.parquet", {"game"}), ("games.parquet", {"game"})):
        f = pq.ParquetFile(tmp_path / "run" / name)
        assert all(not field.nullable for field in f.schema_arrow), name
        assert all(f.schema.column(i).max_definition_level == 0 for i in range(len(f.schema))), name
        assert f.metadata.num_row_groups == 3
        for g in range(f.metadata.num_row_groups):
            rg = f.metadata.row_group(g)
            with_stats = {rg.column(i).path_in_schema for i in range(rg.num_columns)
                          if rg.column(i).is_stats_set}
            assert with_stats == counting, (name, with_stats)
        spans = [(f.metadata.row_group(g).column(0).statistics.min,
                  f.metadata.row_group(g).column(0).statistics.max) for g in range(3)]
        assert spans == [(0, 255), (256, 511), (512, 699)]
    players = pl.read_parquet(tmp_path / "run" / "players.parquet")
    one = pq.read_table(tmp_path / "run" / "players.parquet", filters=[("game", "=", 300)])
    assert pl.from_arrow(one).equals(players.filter(pl.col("game") == 300))
    assert one.num_rows == 4


def test_a_column_with_missing_values_is_refused_before_it_reaches_a_required_parquet_column():
    import numpy as np
    import pyarrow as pa

    from simcore.contract import Column, ContractError, check_table, schema

    s = schema([Column("game", "int64", "game index"), Column("strategy", "string", "bot")])
    good = {"game": np.arange(3, dtype=np.int64), "strategy": pa.array(["a", "b", "c"])}
    check_table(good, s, 3, {}, "pig", "players")
    with pytest.raises(ContractError, match="'strategy' has 1 missing values"):
        check_table({**good, "strategy": pa.array(["a", None, "c"])}, s, 3, {}, "pig", "players")
