"""Session 60 review (fix 250 #1): ``balance replay --find`` on a column of codes or of yes/no.

Fief's ``winner`` is a code (0 attacker, 1 defender, 2 both armies wiped out, FF-3), Médiévallons'
and Seigneurial's ``end_reason`` too (MV-6, MV-7), and Fief's ``by_mercy`` a yes/no. ``--find 'max
winner'`` used to answer "the game with the highest winner (2; …)", ``'max by_mercy'`` "the game with
the highest ended by the loser's surrender (mercy granted) (0; …)" (game 0, when no combat ended by
mercy) and ``'max end_reason'`` "highest end reason (1 …)": a code ranked as an amount. Such a
query is one line, exit code 2, naming the column and its codes' names and where to find a game
with a given code, on a run with rows and on the same run without players.parquet alike.
"""

from __future__ import annotations

import pytest

from in_process import balance
from simcore import games as registry
from simcore import runner

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Fief and Médiévallons runs, each with its rows and again without players.parquet."""
    root = tmp_path_factory.mktemp("s60b")
    out = {}
    for game, kw in (("fief-combat", {}), ("medievallons", {"players": 4})):
        name = game.split("-")[0]
        out[game] = [runner.simulate(game, games=200, seed=3, out=root / f"{name}-rows", raw=True,
                                     quiet=True, **kw)]
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(runner, "RAW_LIMIT", 10)
            rowless = runner.simulate(game, games=200, seed=3, out=root / f"{name}-rowless",
                                      quiet=True, **kw)
        assert not (rowless / "players.parquet").exists()
        out[game].append(rowless)
    return out


CASES = [
    ("fief-combat", "max winner", "winner", ("0 attacker", "1 defender", "2 both_wiped")),
    ("fief-combat", "min winner", "winner", ("0 attacker", "1 defender", "2 both_wiped")),
    ("fief-combat", "median winner", "winner", ("0 attacker", "1 defender", "2 both_wiped")),
    ("fief-combat", "max by_mercy", "by_mercy", ("yes or no",)),
    ("fief-combat", "role=defender wins min by_mercy", "by_mercy", ("yes or no",)),
    ("medievallons", "max end_reason", "end_reason", ("0 third_guild", "1 empty_pile", "2 truncated")),
    ("medievallons", "seat=1 loses median end_reason", "end_reason",
     ("0 third_guild", "1 empty_pile", "2 truncated")),
]


@pytest.mark.parametrize("game, query, column, names", CASES)
def test_a_code_or_yes_no_column_is_refused_in_one_line_exit_2(runs, game, query, column, names):
    for run in runs[game]:
        done = balance("replay", run, "--find", query, check=False)
        err = done.stderr.strip().splitlines()
        assert done.returncode == 2 and len(err) == 1, (run, done.returncode, done.stderr, done.stdout)
        line = err[0]
        assert not done.stdout.strip(), done.stdout
        assert f"--find {query!r}: {column} " in line, line
        assert "not an amount to rank" in line, line
        for name in names:
            assert name in line, line
        # where to find such a game: the games table and --game N
        assert "--what games" in line and "--game N" in line, line


def test_an_amount_of_the_same_runs_is_still_found(runs):
    """The refusal is for codes and yes/no only: rounds and a Médiévallons score still rank."""
    for run in runs["fief-combat"]:
        assert balance("replay", run, "--find", "max rounds").stdout.startswith("# game ")
    for run in runs["medievallons"]:
        assert balance("replay", run, "--find", "max score").stdout.startswith("# game ")


def test_every_coded_or_yes_no_column_of_every_game_is_one_find_refuses():
    """Which columns are refused comes from the spec (``labels``, ``bool``), for every game."""
    from simcore.replay import _not_an_amount

    seen = set()
    for name in registry.names():
        spec = registry.get(name)
        for c in (*spec.player_columns, *spec.game_columns):
            coded = bool(c.labels) or c.dtype == "bool"
            assert (_not_an_amount(spec, c.name) is not None) == coded, (name, c.name)
            if coded:
                seen.add((name, c.name))
    assert {("fief-combat", "winner"), ("fief-combat", "by_mercy"),
            ("medievallons", "end_reason"), ("seigneurial", "end_reason")} <= seen, seen
