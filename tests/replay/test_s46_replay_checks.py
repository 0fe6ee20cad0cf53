"""Review s46 #4, #5 and #8: ``balance replay`` checks the run directory as every reader does,
compares every column the replayed game's record gives, and says the run's game number where the
reference engine's log names the deal it played.

* #4: a run with another run's players.parquet copied in, or with players.parquet or games.parquet
  deleted, is refused by ``replay --game`` and ``replay --find`` with the one line (exit code 2)
  ``balance export`` gives for the same directory. Before, the replay said "CHECK FAILED: the
  replay differs" (blaming the engines), ``--find`` chose from the other run's rows, and a deleted
  players.parquet was said to be a run that "kept no per-seat records".
* #5: every column of players.parquet and games.parquet the game writes (but those that place a
  row: game, seat, strategy, deal, rotation, role; n_players) is compared. A copy of a run whose
  game 3 has every such column changed, run.json's integrity record written again to match (so only
  the replay's own check can see it), is reported column by column; a copy with one tile count,
  one coins-per-turn value and one event id changed is refused by ``balance replay`` (exit 1)
  while ``balance export`` accepts it. Before, only the per-seat figures of one value per seat were
  compared (coins, win share, rank, Graveyard, penalty for Middle-Ages).
* #8: a rotated-seat run's game 5 is deal 1, rotation 1 (4 players): the reference engine's header
  says "game 5 of the run: deal 1, rotation 1" where it said "game 1".
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil

import polars as pl
import pytest

from cli import _run
from simcore import replay as R
from simcore import runner
from simcore.errors import UsageError

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

GAMES = 12
CASES = {
    "middle-ages": dict(players=4, rotate_seats=True, strategies="balanced,greedy,eventwise,random"),
    "medievallons": dict(players=4, rotate_seats=True, strategies="balanced,collector,balanced,random"),
    "seigneurial": dict(players=4, strategies="harsh-lord,standard,objective,fair-share"),
}
#: The columns that place a row rather than say what was played (the replay takes them from the run).
PLACE = {"game", "seat", "strategy", "deal", "rotation", "role", "n_players"}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("s46replay")
    out = {g: runner.simulate(g, games=GAMES, seed=5, out=root / g, quiet=True, **kw)
           for g, kw in CASES.items()}
    out["other"] = runner.simulate("middle-ages", games=GAMES, seed=6, out=root / "other", quiet=True,
                                   **CASES["middle-ages"])
    return out


def _copy(run, tmp_path, name):
    copy = tmp_path / name
    shutil.copytree(run, copy)
    return copy


def _rehash(run, *names) -> None:
    """run.json's integrity record written again for the files ``names`` (their size and sha256),
    as someone editing a table by hand would, so only a reader's own figures can catch the edit."""
    meta = json.loads((run / "run.json").read_text())
    for name in names:
        data = (run / name).read_bytes()
        meta["integrity"]["files"][name].update(size=len(data), sha256=hashlib.sha256(data).hexdigest())
    (run / "run.json").write_text(json.dumps(meta))


def _cli(capsys, *argv):
    code = _run([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


# ---------------------------------------------------------------------------------------------
# #4: the run's integrity, checked first
# ---------------------------------------------------------------------------------------------

def _export_error(capsys, run) -> str:
    code, _, err = _cli(capsys, "export", run, "--what", "seats", "--out", "-")
    assert code == 2, err
    return err.strip()


def test_a_run_with_another_runs_players_parquet_is_refused_as_export_refuses_it(runs, tmp_path, capsys):
    mixed = _copy(runs["middle-ages"], tmp_path, "mixed")
    shutil.copy(runs["other"] / "players.parquet", mixed / "players.parquet")
    said = _export_error(capsys, mixed)
    assert "players.parquet" in said and "files of different runs" in said, said
    for args in (["--game", "3"], ["--find", "seat=1 loses max score"]):
        code, out, err = _cli(capsys, "replay", mixed, *args)
        assert code == 2, (args, out, err)
        assert err.strip() == said, (args, err)              # the same one line as export's
        assert out == "" and "CHECK FAILED" not in out + err and "# game" not in out
    with pytest.raises(UsageError):
        R.replay(mixed, 3)
    with pytest.raises(UsageError):
        R.find_game(mixed, "seat=1 loses max score")


@pytest.mark.parametrize("table", ["players.parquet", "games.parquet"])
def test_a_run_with_a_table_deleted_is_refused_not_replayed(runs, tmp_path, capsys, table):
    damaged = _copy(runs["middle-ages"], tmp_path, "damaged")
    (damaged / table).unlink()
    said = _export_error(capsys, damaged)
    assert table in said, said
    for args in (["--game", "3"], ["--find", "seat=1 loses max score"]):
        code, out, err = _cli(capsys, "replay", damaged, *args)
        assert code == 2, (table, args, out, err)
        assert err.strip() == said and len(err.strip().splitlines()) == 1, err
        assert "kept no per-seat records" not in out + err
        assert "kept no players.parquet" not in err         # --find did not play the run again


def test_a_run_written_without_players_parquet_is_still_replayed(tmp_path, capsys):
    """Not damage: run.json does not list the table (``--no-raw``); its game is played again."""
    run = runner.simulate("middle-ages", games=GAMES, seed=5, out=tmp_path / "noraw", quiet=True,
                          raw=False, **CASES["middle-ages"])
    assert not (run / "players.parquet").exists()
    code, out, err = _cli(capsys, "replay", run, "--game", "3")
    assert code == 0, err
    assert "match the game played again by the simulator (the run kept no per-seat records)" in out


# ---------------------------------------------------------------------------------------------
# #5: every column compared
# ---------------------------------------------------------------------------------------------

def _changed(df: pl.DataFrame, columns, where) -> pl.DataFrame:
    """``df`` with every column of ``columns`` changed on the rows ``where`` (a number by one, a
    name to another of the column's names), its type kept."""
    out = []
    for c in columns:
        dtype = df.schema[c]
        if dtype in (pl.String, pl.Categorical):
            values = sorted(set(df[c].cast(pl.String).to_list()) | {"nobody"})
            new = pl.col(c).cast(pl.String).replace({v: values[(i + 1) % len(values)]
                                                     for i, v in enumerate(values)})
        else:
            new = pl.col(c) + 1
        out.append(pl.when(where).then(new).otherwise(pl.col(c)).cast(dtype).alias(c))
    return df.with_columns(out)


@pytest.mark.parametrize("game", list(CASES))
def test_every_column_of_the_rows_is_compared(runs, tmp_path, game):
    """Every column of game 3's rows changed (seat 1's in players.parquet, the game's row in
    games.parquet), the integrity record written again: the replay names every one of them, with
    seat 1, the replayed and the recorded value."""
    run = _copy(runs[game], tmp_path, "tampered")
    players = pl.read_parquet(run / "players.parquet")
    games = pl.read_parquet(run / "games.parquet")
    seat_cols = [c for c in players.columns if c not in PLACE]
    game_cols = [c for c in games.columns if c not in PLACE]
    assert len(seat_cols) >= 10 and len(game_cols) >= 3, (seat_cols, game_cols)
    first = players.filter((pl.col("game") == 3) & (pl.col("seat") == 0)).row(0, named=True)
    _changed(players, seat_cols, (pl.col("game") == 3) & (pl.col("seat") == 0)).write_parquet(
        run / "players.parquet")
    _changed(games, game_cols, pl.col("game") == 3).write_parquet(run / "games.parquet")
    _rehash(run, "players.parquet", "games.parquet")
    r = R.replay(run, 3)
    assert not r.matches
    named = {m.group(1) for d in r.differences if (m := re.search(r"\((\w+)\)$", d))}
    assert named == set(seat_cols) | set(game_cols), (
        sorted(set(seat_cols) | set(game_cols) - named), sorted(named - set(seat_cols) - set(game_cols)))
    seat_lines = [d for d in r.differences if not d.startswith("the game's")]
    assert all(d.startswith("seat 1 ") for d in seat_lines), seat_lines
    # the replayed value is the one the run wrote before the change
    score = next(d for d in seat_lines if d.endswith("(score)"))
    assert f": the replay has {first['score']}, the run {first['score'] + 1} (score)" in score, score
    assert "CHECK FAILED: the replay differs from the run's records:" in r.text


def test_a_changed_tile_count_turn_and_event_fail_the_check_only_replay_can_see(runs, tmp_path, capsys):
    """The review's tamper.py: game 3's seat 1 Champs tiles, coins after turn 8 and event 1 changed,
    the integrity record written again. ``balance export`` accepts the directory (its figures tie);
    ``balance replay`` says the game differs, naming the three columns, exit code 1."""
    run = _copy(runs["middle-ages"], tmp_path, "tamper")
    players = pl.read_parquet(run / "players.parquet")
    games = pl.read_parquet(run / "games.parquet")
    sel = (pl.col("game") == 3) & (pl.col("seat") == 0)
    row = players.filter(sel).row(0, named=True)
    event = games.filter(pl.col("game") == 3)["event_1"].item()
    other_event = next(e for e in range(20) if e != event)
    players.with_columns(
        pl.when(sel).then(pl.lit(row["tiles_champs"] + 5)).otherwise(pl.col("tiles_champs"))
        .cast(pl.Int8).alias("tiles_champs"),
        pl.when(sel).then(pl.lit(row["coins_turn_8"] + 46)).otherwise(pl.col("coins_turn_8"))
        .cast(pl.Int16).alias("coins_turn_8")).write_parquet(run / "players.parquet")
    games.with_columns(pl.when(pl.col("game") == 3).then(pl.lit(other_event)).otherwise(pl.col("event_1"))
                       .cast(pl.Int8).alias("event_1")).write_parquet(run / "games.parquet")
    _rehash(run, "players.parquet", "games.parquet")
    code, out, err = _cli(capsys, "export", run, "--what", "seats", "--out", "-")
    assert code == 0, err                                  # the readers' check cannot see it
    code, out, err = _cli(capsys, "replay", run, "--game", "3")
    assert code == 1, (out, err)
    assert "CHECK FAILED: the replay differs from the run's records:" in out
    assert (f"  seat 1 Champs: the replay has {row['tiles_champs']}, the run "
            f"{row['tiles_champs'] + 5} (tiles_champs)") in out.splitlines(), out[-800:]
    assert (f"  seat 1 coins after turn 8: the replay has {row['coins_turn_8']}, the run "
            f"{row['coins_turn_8'] + 46} (coins_turn_8)") in out.splitlines(), out[-800:]
    assert (f"  the game's event 1: the replay has {event}, the run {other_event} (event_1)"
            in out.splitlines()), out[-800:]
    assert "differs" in err
    code, out, err = _cli(capsys, "replay", run, "--game", "4")        # the other games still agree
    assert code == 0, out[-800:]


@pytest.mark.parametrize("game", list(CASES))
def test_a_real_run_passes_and_says_what_it_compared(runs, capsys, game):
    run = runs[game]
    players = pl.read_parquet(run / "players.parquet")
    games = pl.read_parquet(run / "games.parquet")
    n_seat = len([c for c in players.columns if c not in PLACE])
    n_game = len([c for c in games.columns if c not in PLACE])
    for g in (0, 5, GAMES - 1):
        code, out, err = _cli(capsys, "replay", run, "--game", g)
        assert code == 0, (g, err, out[-600:])
        last = out.rstrip("\n").splitlines()[-1]
        assert last.startswith("Check: the final ") and "of every seat match the run's records" in last, last
        assert last.endswith(f"({n_seat} per-seat columns and {n_game} of the game's)."), last
    if game == "middle-ages":
        for words in ("Champs … Palais tiles", "event 1 gain … event 4 gain",
                      "coins after turn 1 … coins after turn 16", "the game's event 1 … event 4 and reshuffles"):
            assert words in last, (words, last)
    if game == "seigneurial":
        assert "grain held, wood held, fish held" in last and "winner role" in last, last
    if game == "medievallons":
        assert "guilds founded" in last and "powers" in last, last


# ---------------------------------------------------------------------------------------------
# #8: the run's game number where the engine's log names the deal
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("game", ["middle-ages", "medievallons"])
def test_a_rotated_runs_replay_says_the_runs_game_and_the_deal(runs, capsys, game):
    run = runs[game]
    meta = json.loads((run / "run.json").read_text())
    P, seed = meta["players"], meta["seed"]
    assert meta["rotate_seats"] is True
    g = 5
    deal, rotation = g // P, g % P                      # 1, 1
    code, out, err = _cli(capsys, "replay", run, "--game", g)
    assert code == 0, err
    lines = out.splitlines()
    engine = [x for x in lines if " reference game: " in x]
    assert len(engine) == 1, engine
    assert engine[0].endswith(f"players, seed {seed}, game {g} of the run: deal {deal}, rotation "
                              f"{rotation}"), engine[0]
    assert not any(re.search(rf"\bgame {deal}$", x) for x in lines), "the deal said as the game"


def test_an_unrotated_runs_replay_keeps_the_engines_header(runs, capsys):
    code, out, err = _cli(capsys, "replay", runs["seigneurial"], "--game", 5)
    assert code == 0, err
    engine = [x for x in out.splitlines() if " reference game: " in x]
    assert engine == ["Seigneurial reference game: 4 players, seed 5, game 5"], engine
