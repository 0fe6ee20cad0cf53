"""Runs above the row threshold keep no players.parquet, and ``balance replay`` still answers.

``simulate`` writes players.parquet up to ``runner.RAW_LIMIT`` games (``--raw`` at any size,
``--no-raw`` never); above it a run holds stats.json, games.parquet and the rest. The threshold is
lowered here (monkeypatch) so that a 40-game run is "big": the same run is written twice, once
with ``raw=True`` and once by default above the threshold, and every answer ``balance replay``
gives on the row-less run (``--game N``: the run's row played again by the kernel; ``--find``:
every game played again) must equal the answer on the run with rows. A replay that plays the
wrong game (N + 1) is caught.
"""

from __future__ import annotations

import pytest

from cli import _run
from simcore import replay as R
from simcore import runner

CASES = {
    # rotated seats (deal = game // 4), a mixed line-up and --set rules
    "middle-ages": dict(games=40, seed=11, players=4, rotate_seats=True,
                        strategies="balanced,greedy,eventwise,random",
                        settings=["income.palais.base=4", "setup.start_coins=[0, 0, 3, 0]"]),
    "seigneurial": dict(games=40, seed=11, players=4, strategies="harsh-lord,standard,objective,fair-share"),
    "fief-combat": dict(games=300, seed=23, attacker=12, defender=7, terrain="castle",
                        darc="defender", lords_defender=2, mercy="attacker:4,defender:3"),
}


@pytest.fixture(scope="module")
def pairs(tmp_path_factory):
    """game → (run with rows, the same run without them: above a threshold lowered to 10)."""
    root = tmp_path_factory.mktemp("rowless")
    out = {}
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(runner, "RAW_LIMIT", 10)
        for game, kw in CASES.items():
            kw = dict(kw)
            games = kw.pop("games")
            rows = runner.simulate(game, games=games, out=root / "rows" / game, raw=True, quiet=True, **kw)
            rowless = runner.simulate(game, games=games, out=root / "rowless" / game, quiet=True, **kw)
            out[game] = rows, rowless
    return out


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
@pytest.mark.parametrize("game", list(CASES))
def test_a_run_above_the_threshold_keeps_statistics_but_no_rows(pairs, game):
    import json

    rows, rowless = pairs[game]
    assert (rows / "players.parquet").is_file()
    assert not (rowless / "players.parquet").exists()
    assert json.loads((rowless / "run.json").read_text())["raw_players"] is False
    # the statistics and games.parquet do not depend on whether rows were written
    assert (rowless / "stats.json").read_bytes() == (rows / "stats.json").read_bytes()
    assert (rowless / "games.parquet").read_bytes() == (rows / "games.parquet").read_bytes()


def test_the_default_threshold_keeps_rows_up_to_1e5_games():
    assert runner.RAW_LIMIT == 100_000


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
@pytest.mark.parametrize("game", list(CASES))
def test_replay_game_without_rows_equals_replay_with_rows(pairs, game):
    rows, rowless = pairs[game]
    n = CASES[game]["games"]
    for g in (0, 5, 22, n - 1):        # 5 and 22: rotations 1 and 2 of deals 1 and 5
        a, b = R.replay(rows, g), R.replay(rowless, g)
        assert a.matches and not a.played
        assert b.played and b.matches, (game, g, b.differences)
        assert b.row == a.row, (game, g)           # the row played again = the row written
        assert b.figures == a.figures
        assert b.lines[:-1] == a.lines[:-1]        # the same log, only the check line differs
        assert "played again by the simulator" in b.lines[-1]


QUERIES = {
    "middle-ages": ["seat=1 loses max score", "seat=3 wins min score", "median score",
                    "strategy=greedy max tiles_palais", "strategy=random median coins_turn_8",
                    "max reshuffles", "loses median event_gain_2", "min rank"],
    "seigneurial": ["role=censitaire wins min turns", "role=seigneur loses max score",
                    "median turns", "seat=2 max score"],
    "fief-combat": ["role=defender wins max rounds", "seat=1 loses max attacker_lords_captured",
                    "median rounds", "min score"],
}


def _answer(run, query):
    """find_game's answer, or the one line it refuses the query with."""
    from simcore.errors import UsageError

    try:
        return R.find_game(run, query)
    except UsageError as e:
        return f"refused: {e}"


@pytest.mark.parametrize("game", list(CASES))
def test_find_without_rows_equals_find_with_rows(pairs, game):
    rows, rowless = pairs[game]
    for q in QUERIES[game]:
        a = _answer(rows, q)
        assert not str(a).startswith("refused"), (q, a)
        assert _answer(rowless, q) == a, (game, q)


def test_find_without_rows_refuses_what_it_refuses_with_rows(pairs):
    rows, rowless = pairs["middle-ages"]
    for q in ("strategy=search16 max score", "max nonsense", "seat=5 max score", "role=lord max score",
              "strategy=random wins median score"):    # random wins none of these 40 games
        a = _answer(rows, q)
        assert str(a).startswith("refused"), (q, a)
        assert _answer(rowless, q) == a, q


def test_cli_find_without_rows_says_it_plays_the_games_again(pairs, capsys):
    rows, rowless = pairs["middle-ages"]
    q = "seat=1 loses max score"
    assert _run(["replay", str(rows), "--find", q]) == 0
    with_rows = capsys.readouterr()
    assert _run(["replay", str(rowless), "--find", q]) == 0
    without = capsys.readouterr()
    assert without.out.splitlines()[:-1] == with_rows.out.splitlines()[:-1]
    assert "kept no players.parquet: playing its 40 games again" in without.err
    assert "40 of 40 games played again" in without.err
    assert "playing" not in with_rows.err


def test_a_replay_of_the_wrong_game_is_caught(pairs, monkeypatch):
    """The check can fail: the kernel's row of game N + 1 taken for game N's disagrees with the
    reference's replay of game N, and its games row with games.parquet's."""
    rowless = pairs["seigneurial"][1]
    real = R.played_rows
    monkeypatch.setattr(R, "played_rows", lambda meta, game, *a, **k: real(meta, game + 1, *a, **k))
    bad = [R.replay(rowless, g) for g in range(6)]
    assert sum(not r.matches for r in bad) >= 4
    assert any(d.startswith("the game's ") for r in bad for d in r.differences)


def test_export_players_of_a_rowless_run_is_one_line_with_the_raw_hint(pairs, tmp_path, capsys, monkeypatch):
    from simcore import rundir

    # the limit the run was written under, which the advice reads (session 60 #2: up to it, the
    # rows were left out by --no-raw, and the advice is to rerun without it)
    monkeypatch.setattr(rundir, "RAW_LIMIT", 10)
    rowless = pairs["middle-ages"][1]
    code = _run(["export", str(rowless), "--what", "players", "--format", "csv",
                 "--out", str(tmp_path / "p.csv")])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and "rerun with --raw" in err, err
    assert not (tmp_path / "p.csv").exists()


def test_the_report_points_at_replay_for_a_rowless_run(pairs):
    from analysis.load import open_runs
    from analysis.seats import seat_table
    from reports.sections import replay_line

    rowless = pairs["middle-ages"][1]
    rs = open_runs([rowless])
    line = replay_line(rs, {"seats": seat_table(rs)})
    assert line is not None and f"balance replay {rowless} " in line and "--find 'seat=" in line
    assert "kept no players.parquet, so --find plays its 40 games again" in line
