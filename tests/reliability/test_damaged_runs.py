"""Issue 18, point 2: damaged or hand-mixed run directories are refused by every reader.

Every reader (report, export, baseline, check RUN) goes through analysis.load.check_run, so each
damage is tried on each of them: exit code 2, one line naming the file and the problem, nothing
written. The hand-mixed cases swap a real file of another real run into the directory.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from reliability_helpers import balance, cli_in_process, one_error_line


def _meta(run: Path) -> dict:
    return json.loads((run / "run.json").read_text(encoding="utf-8"))


def _write_meta(run: Path, **changes) -> None:
    meta = _meta(run)
    meta.update(changes)
    (run / "run.json").write_text(json.dumps(meta), encoding="utf-8")


def _run_json(run: Path, raw: bytes) -> None:
    (run / "run.json").write_bytes(raw)


CHANGED = "changed after it was written"


def _overwrite_middle(path: Path) -> None:
    """A few bytes overwritten inside the file (same size: only the hash can tell)."""
    raw = bytearray(path.read_bytes())
    mid = len(raw) // 2
    raw[mid:mid + 6] = bytes(b ^ 0x5A for b in raw[mid:mid + 6])
    path.write_bytes(bytes(raw))


def _rewrite(run: Path, name: str, column: str, change) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pq.read_table(run / name)
    values = change(table[column].to_pylist())
    i = table.schema.get_field_index(column)
    table = table.set_column(i, column, pa.array(values))
    pq.write_table(table, run / name)


def _duplicate_rows(path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    pq.write_table(pa.concat_tables([table, table.slice(0, 4)]), path)


def _strip_integrity(run: Path) -> None:
    """Make ``run`` look written before run.json recorded its files (and before stats.json)."""
    meta = _meta(run)
    meta.pop("integrity")
    meta.pop("statistics", None)
    (run / "run.json").write_text(json.dumps(meta), encoding="utf-8")
    (run / "stats.json").unlink(missing_ok=True)


@pytest.fixture(scope="module")
def other_runs(tmp_path_factory):
    """Real runs to mix files from: other game count, 3 players, other bots, another game."""
    from simcore import runner

    root = tmp_path_factory.mktemp("other-runs")
    made = {}
    for name, kw in {"games100": dict(games=100, players=4),
                     "players3": dict(games=200, players=3),
                     "random_bots": dict(games=200, players=4, strategies="random"),
                     "ma2": dict(games=200, players=2)}.items():
        made[name] = runner.simulate("middle-ages", seed=1, out=root / name, quiet=True, **kw)
    made["fief"] = runner.simulate("fief-combat", games=200, seed=1, out=root / "fief", quiet=True)
    return made


# (name, how to damage the run directory, file named in the error line, words of the problem)
DAMAGE = [
    ("run.json not UTF-8", lambda r, o: _run_json(r, b'{"game": "middle\xff-ages"}'), "run.json", "not UTF-8"),
    ("run.json not JSON", lambda r, o: _run_json(r, b'{"game": "middle-ages",'), "run.json", "invalid JSON"),
    ("run.json a list", lambda r, o: _run_json(r, b'["middle-ages"]'), "run.json", "JSON object"),
    ("run.json null", lambda r, o: _run_json(r, b"null"), "run.json", "JSON object"),
    ("run.json empty", lambda r, o: _run_json(r, b""), "run.json", "invalid JSON"),
    ("unknown game", lambda r, o: _write_meta(r, game="chess"), "run.json", "unknown game 'chess'"),
    ("game not a string", lambda r, o: _write_meta(r, game=["middle-ages"]), "run.json", "game must be"),
    ("players a string", lambda r, o: _write_meta(r, players="4"), "run.json", "players must be a whole number"),
    ("players true", lambda r, o: _write_meta(r, players=True), "run.json", "players must be a whole number"),
    ("players out of range", lambda r, o: _write_meta(r, players=9), "run.json", "played by 2-5"),
    ("negative games", lambda r, o: _write_meta(r, games=-200), "run.json", "games = -200"),
    ("games a float", lambda r, o: _write_meta(r, games=200.5), "run.json", "games must be a whole number"),
    ("negative seed", lambda r, o: _write_meta(r, seed=-1), "run.json", "seed must be"),
    ("strategies not a list", lambda r, o: _write_meta(r, strategies="balanced"), "run.json", "strategies must be"),
    ("strategies too short", lambda r, o: _write_meta(r, strategies=["balanced"]), "run.json", "names 1 seats"),
    ("negative threads", lambda r, o: _write_meta(r, threads=-2), "run.json", "threads must be"),
    ("rules_text a number", lambda r, o: _write_meta(r, rules_text=5), "run.json", "rules_text must be a string"),
    ("a tables directory", lambda r, o: _write_meta(r, command="questions"), "run.json",
     "not a run of games"),
    ("players.parquet of a 100-game run",
     lambda r, o: shutil.copy(o["games100"] / "players.parquet", r), "players.parquet", CHANGED),
    ("players.parquet of a 3-player run",
     lambda r, o: shutil.copy(o["players3"] / "players.parquet", r), "players.parquet", CHANGED),
    ("games.parquet of a 3-player run",
     lambda r, o: shutil.copy(o["players3"] / "games.parquet", r), "games.parquet", CHANGED),
    ("players.parquet of other bots",
     lambda r, o: shutil.copy(o["random_bots"] / "players.parquet", r), "players.parquet", CHANGED),
    ("players.parquet of another game",
     lambda r, o: (shutil.copy(o["ma2"] / "players.parquet", r), shutil.copy(o["fief"] / "run.json", r),
                   shutil.copy(o["fief"] / "games.parquet", r)),
     "players.parquet", CHANGED),
    ("run.json says fewer games than were played",
     lambda r, o: (shutil.copy(o["games100"] / "players.parquet", r), _write_meta(r, games=100)),
     "players.parquet", CHANGED),
    ("run.json games edited alone", lambda r, o: _write_meta(r, games=100), "run.json",
     "the files were written for games = 200"),
    ("players.parquet bytes overwritten inside", lambda r, o: _overwrite_middle(r / "players.parquet"),
     "players.parquet", "contents differ"),
    ("NaN scores", lambda r, o: _rewrite(r, "players.parquet", "score", lambda c: [float("nan")] * len(c)),
     "players.parquet", CHANGED),
    ("string scores", lambda r, o: _rewrite(r, "players.parquet", "score", lambda c: [str(x) for x in c]),
     "players.parquet", CHANGED),
    ("win_share tripled", lambda r, o: _rewrite(r, "players.parquet", "win_share", lambda c: [3 * x for x in c]),
     "players.parquet", CHANGED),
    ("duplicated rows", lambda r, o: _duplicate_rows(r / "players.parquet"), "players.parquet", CHANGED),
    ("a parquet file added by hand", lambda r, o: shutil.copy(r / "games.parquet", r / "extra.parquet"),
     "extra.parquet", "not written with this run"),
    ("integrity record damaged", lambda r, o: _write_meta(r, integrity={"files": 3}), "run.json",
     "integrity record is damaged"),
    ("players.parquet garbage", lambda r, o: (r / "players.parquet").write_bytes(b"PAR1 not parquet"),
     "players.parquet", CHANGED),
    ("players.parquet missing", lambda r, o: (r / "players.parquet").unlink(), "players.parquet", "missing"),
    ("games.parquet missing", lambda r, o: (r / "games.parquet").unlink(), "games.parquet", "missing"),
    ("games.parquet garbage", lambda r, o: (r / "games.parquet").write_bytes(b"x" * 40),
     "games.parquet", CHANGED),
    ("run.json missing", lambda r, o: (r / "run.json").unlink(), "run", "not a run directory"),
]
#: Runs written before run.json recorded sizes and hashes (no ``integrity``): the checks of the
#: tables' contents still refuse files mixed by hand.
LEGACY = [
    ("players.parquet of a 100-game run",
     lambda r, o: shutil.copy(o["games100"] / "players.parquet", r), "players.parquet", "run.json says 200 games"),
    ("players.parquet of a 3-player run",
     lambda r, o: shutil.copy(o["players3"] / "players.parquet", r), "players.parquet", "run.json says 4 players"),
    ("players.parquet of other bots",
     lambda r, o: shutil.copy(o["random_bots"] / "players.parquet", r), "players.parquet", "strategy random"),
    ("games.parquet with more games than run.json",
     lambda r, o: (shutil.copy(o["games100"] / "players.parquet", r), _write_meta(r, games=100)),
     "games.parquet", "run.json says 100 games"),
    ("players.parquet garbage", lambda r, o: (r / "players.parquet").write_bytes(b"PAR1 not parquet"),
     "players.parquet", "cannot read"),
    ("players.parquet missing", lambda r, o: (r / "players.parquet").unlink(), "players.parquet", "no players.parquet"),
]
READERS = [
    ["report", "RUN", "--questions-games", "0", "--out", "rep"],
    ["export", "RUN", "--what", "seats", "--out", "seats.csv"],
    ["export", "RUN", "--what", "players", "--out", "players.csv"],
    ["baseline", "RUN", "--out", "base.toml"],
]


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
@pytest.mark.parametrize("name,damage,file,words", DAMAGE, ids=[d[0] for d in DAMAGE])
def test_every_reader_refuses_a_damaged_run_in_one_line(name, damage, file, words, tiny_run,
                                                        other_runs, tmp_path, capsys, monkeypatch):
    damage(tiny_run, other_runs)
    monkeypatch.chdir(tmp_path)
    for argv in READERS:
        args = [str(tiny_run) if a == "RUN" else a for a in argv]
        code, err = cli_in_process(args, capsys)
        line = one_error_line(err)
        assert code == 2, (args, err)
        assert file in line and words in line, (args, line)
        assert not any((tmp_path / p).exists() for p in ("rep", "seats.csv", "players.csv", "base.toml"))


@pytest.mark.parametrize("name,damage,file,words", LEGACY, ids=[d[0] for d in LEGACY])
def test_a_run_without_an_integrity_record_is_still_checked_table_by_table(
        name, damage, file, words, tiny_run, other_runs, tmp_path, capsys, monkeypatch):
    _strip_integrity(tiny_run)
    damage(tiny_run, other_runs)
    monkeypatch.chdir(tmp_path)
    code, err = cli_in_process(["export", str(tiny_run), "--what", "seats", "--out", "seats.csv"], capsys)
    line = one_error_line(err)
    assert code == 2 and file in line and words in line, line
    assert not (tmp_path / "seats.csv").exists()


def _rehash(run: Path) -> None:
    """Write run.json's integrity record again for the files as they now are: what a user who
    edits a table by hand and "fixes" the hashes would do. Only the figures computed from the
    files themselves can then tell."""
    from simcore.rundir import integrity_record

    meta = _meta(run)
    meta["integrity"] = integrity_record(run, meta)
    (run / "run.json").write_text(json.dumps(meta), encoding="utf-8")


def _swap_one_win(values: list) -> list:
    """Game 0's win moved from its winner to a seat that lost (each game still adds up to 1)."""
    out = list(values)
    winner = max(range(4), key=lambda s: out[s])
    loser = min(range(4), key=lambda s: out[s])
    out[winner], out[loser] = out[loser], out[winner]
    return out


def _stats_wins_tripled(run: Path) -> None:
    data = json.loads((run / "stats.json").read_text(encoding="utf-8"))
    cell = data["fixed"]["cell_win"]
    cell["data"] = [3 * x for x in cell["data"]]
    (run / "stats.json").write_text(json.dumps(data), encoding="utf-8")


#: Damage with run.json's integrity record written again afterwards: refused by the figures that
#: tie the tables together (issue 28, item 3), not by a hash.
REHASHED = [
    ("win_share tripled", lambda r: _rewrite(r, "players.parquet", "win_share", lambda c: [3 * x for x in c]),
     "players.parquet", "the win shares of game 0 add up to 3"),
    ("one game's win moved to a losing seat", lambda r: _rewrite(r, "players.parquet", "win_share", _swap_one_win),
     "players.parquet", "differ from stats.json"),
    ("a NaN win share", lambda r: _rewrite(r, "players.parquet", "win_share",
                                           lambda c: [float("nan")] + c[1:]), "players.parquet",
     "game 0 add up to nan"),
    ("win shares of 2 and -1", lambda r: _rewrite(r, "players.parquet", "win_share",
                                                  lambda c: [2.0, -1.0, 0.0, 0.0] + c[4:]),
     "players.parquet", "from 0 to 1"),
    ("rows of game 1 given to game 0", lambda r: _rewrite(r, "players.parquet", "game",
                                                          lambda c: [0 if g == 1 else g for g in c]),
     "players.parquet", "game 0 has 8 rows"),
    ("stats.json win shares tripled", lambda r: _stats_wins_tripled(r), "stats.json",
     "the win shares of all games add up to 600"),
]


@pytest.mark.parametrize("name,damage,file,words", REHASHED, ids=[d[0] for d in REHASHED])
def test_a_hand_edit_with_its_hashes_written_again_is_still_refused(name, damage, file, words, tiny_run,
                                                                     tmp_path, capsys, monkeypatch):
    damage(tiny_run)
    _rehash(tiny_run)
    monkeypatch.chdir(tmp_path)
    for argv in READERS:
        args = [str(tiny_run) if a == "RUN" else a for a in argv]
        code, err = cli_in_process(args, capsys)
        line = one_error_line(err)
        assert code == 2, (args, err)
        assert file in line and words in line, (args, line)
        assert not any((tmp_path / p).exists() for p in ("rep", "seats.csv", "players.csv", "base.toml"))


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_an_undamaged_run_passes_the_figure_checks_of_every_game(tmp_path):
    """The figures hold for every registered game's real runs (so the check cannot refuse a run
    the toolkit wrote), seat rotation and 2-5 players included."""
    from analysis.load import check_run
    from simcore import runner
    from simcore.rundir import read_meta

    for game, kw in {"middle-ages": dict(players=2), "medievallons": dict(players=5),
                     "seigneurial": dict(players=3), "fief-combat": {},
                     "rotated": dict(players=3, rotate_seats=True)}.items():
        out = tmp_path / game
        runner.simulate("middle-ages" if game == "rotated" else game, games=120, seed=9, out=out,
                        quiet=True, **kw)
        assert check_run(out, players=True) == read_meta(out)


def test_the_same_run_given_twice_is_refused(tiny_run, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copytree(tiny_run, tmp_path / "copy")
    for runs in (["run", "run"], ["run", "copy"], ["run", "./run/"]):
        code, err = cli_in_process(["report", *runs, "--questions-games", "0", "--out", "rep"], capsys)
        assert code == 2 and "given twice" in one_error_line(err), (runs, err)
        assert not (tmp_path / "rep").exists()


def test_a_rerun_with_the_same_seed_and_more_games_is_refused_as_the_same_games(tmp_path, capsys,
                                                                                monkeypatch):
    """Games are keyed on (seed, index): 300 games of seed 3 hold the 200 games of a 200-game run
    of seed 3; pooled, those would count twice. Another seed pools: the command gets past its
    checks of the runs (``plan_groups``, which refuses the repeat) to drawing the report, with the
    two runs as one configuration. The drawing itself is left out (reports.build.build_report
    replaced: 3 s of CPU of figures, which the report tests check; it would check the runs again
    with the same ``plan_groups``)."""
    from reports import build
    from simcore import runner

    monkeypatch.chdir(tmp_path)
    for name, games, seed in (("a", 200, 3), ("b", 300, 3), ("c", 200, 4)):
        runner.simulate("middle-ages", games=games, seed=seed, out=tmp_path / name, quiet=True, players=2)
    drawn = []

    def draw(runs, out, **kwargs):
        drawn.append(build.plan_groups(runs, kwargs.get("pool", True)))
        return Path(out) / "report.html"

    monkeypatch.setattr(build, "build_report", draw)
    report = ["report", "--questions-games", "0", "--out", "rep"]
    code, err = cli_in_process([*report, "a", "b"], capsys)
    line = one_error_line(err)
    assert code == 2 and "given twice (games 0…199 of both are the very same games" in line, line
    assert not (tmp_path / "rep").exists() and drawn == []
    code, err = cli_in_process([*report, "a", "c"], capsys)
    assert code == 0, err
    [groups] = drawn
    assert [[p.name for p in g.paths] for g in groups] == [["a", "c"]]      # pooled: one configuration


def test_check_against_a_damaged_run_is_one_line(tiny_run, tmp_path, capsys, monkeypatch):
    from analysis.check.baseline import make_baseline

    # a tiny run makes a usable baseline only with wide tolerances (the gate refuses a baseline
    # whose own error leaves an unchanged configuration no chance to pass)
    make_baseline(tiny_run, tmp_path / "base.toml",
                  tolerance={"seat_win_share": 40.0, "seat_mean_score": 40.0, "strategy_win_share": 40.0})
    (tiny_run / "players.parquet").write_bytes(b"garbage")
    code, err = cli_in_process(["check", str(tiny_run), "--baseline", str(tmp_path / "base.toml")], capsys)
    line = one_error_line(err)
    assert code == 2 and "players.parquet" in line and CHANGED in line, line


def test_pooled_runs_of_different_games_name_the_problem(tiny_run, other_runs, tmp_path, capsys):
    code, err = cli_in_process(["report", str(tiny_run), str(other_runs["fief"]), "--out",
                                str(tmp_path / "rep")], capsys)
    assert code == 2 and "middle-ages" in one_error_line(err) and "fief-combat" in err


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_damaged_run_in_a_real_process_is_one_line(tiny_run, tmp_path):
    (tiny_run / "run.json").write_bytes(b"\x89PNG\r\n\x1a\n")
    r = balance("report", tiny_run, "--out", "rep", cwd=tmp_path, timeout=120)
    assert r.returncode == 2
    assert "run.json: not UTF-8" in one_error_line(r.stderr)
    assert not (tmp_path / "rep").exists()


def test_an_intact_run_passes_and_is_checked_once(tiny_run, monkeypatch):
    """The check is not a cost paid by every metric: a second reader of the same files in the
    same process reuses the first check (and a changed file is checked again)."""
    from analysis import load

    calls = []
    real = load._check_players
    monkeypatch.setattr(load, "_check_players", lambda *a: calls.append(1) or real(*a))
    load.check_run(tiny_run, players=True)
    load.open_runs([tiny_run], source="rows")
    assert len(calls) == 1
    _write_meta(tiny_run, seed=4)
    load.check_run(tiny_run, players=True)
    assert len(calls) == 2
