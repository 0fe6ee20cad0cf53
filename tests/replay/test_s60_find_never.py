"""Session 60 review: ``balance replay --find`` and the columns whose -1 means "never" or "none".

Seigneurial's games record ``improvement_turn`` -1 when the land improvements never came (SG-5.6)
and ``winning_seat`` -1 when the Censitaires share a truncated game's win (SG-6); its player rows
record ``objective`` -1 for the Seigneur, who holds no Objective card (SG-2), and a Censitaire's
card as its 0-based place in ``objectives.cards``, which the replay's log numbers from #1. ``--find
'min improvement_turn'`` used to pick a game without improvements ("-1 turns"), ``median`` to count
the -1s in, ``min objective`` to pick the Seigneur's -1, and ``winning_seat`` (and ``objective``)
were shown 0-based where every other seat (and card) a person reads counts from 1. Each expected
game here is computed from the run's parquet files with polars, not by the code under test; the run
is played with a 12-turn bound so that every one of those -1s occurs (truncated games, games stopped
before the midpoint). The same queries on the same run written without players.parquet (``--find``
plays every game again) must pick the same games.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from in_process import balance
from simcore import replay as R
from simcore import runner

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

GAMES = 600
SET = "end.max_turns=12"


@pytest.fixture(scope="module")
def sg(tmp_path_factory):
    """A Seigneurial run with rows (its players and games tables) and the same run without rows."""
    root = tmp_path_factory.mktemp("s60")
    kw = dict(games=GAMES, seed=5, players=4, settings=[SET], quiet=True)
    rows = runner.simulate("seigneurial", out=root / "rows", raw=True, **kw)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(runner, "RAW_LIMIT", 10)
        rowless = runner.simulate("seigneurial", out=root / "rowless", **kw)
    assert not (rowless / "players.parquet").exists()
    return rows, rowless, pl.read_parquet(rows / "players.parquet"), pl.read_parquet(rows / "games.parquet")


def _first(df: pl.DataFrame, column: str, value) -> int:
    """The lowest game whose ``column`` is ``value`` (--find's tie-break)."""
    return int(df.filter(pl.col(column) == value)["game"].min())


def _lower_median(values) -> int:
    v = np.sort(np.asarray(values))
    return int(v[(len(v) - 1) // 2])


def _line(run, query) -> str:
    done = balance("replay", run, "--find", query)
    return done.stdout.splitlines()[0]


def test_the_run_has_every_never_value(sg):
    """The premise: without it the tests below could not fail on the old code."""
    _, _, p, g = sg
    assert (g["improvement_turn"] == -1).any() and (g["improvement_turn"] >= 0).any()
    assert (g["winning_seat"] == -1).any() and (g["winning_seat"] >= 0).any()
    assert (p["objective"] == -1).sum() == GAMES


def test_min_improvement_turn_is_the_earliest_among_games_that_had_improvements(sg):
    rows, _, _, g = sg
    had = g.filter(pl.col("improvement_turn") >= 0)
    v = int(had["improvement_turn"].min())
    line = _line(rows, "min improvement_turn")
    assert line.startswith(f"# game {_first(had, 'improvement_turn', v)}: the game with the earliest "
                           f"improvement turn (turn {v}; "), line
    assert f"among the {had.height:,} of the run's {GAMES:,} games that had land improvements)" in line, line
    assert "-1" not in line


def test_max_improvement_turn_is_the_latest(sg):
    rows, _, _, g = sg
    v = int(g["improvement_turn"].max())
    line = _line(rows, "max improvement_turn")
    assert line.startswith(f"# game {_first(g, 'improvement_turn', v)}: the game with the latest "
                           f"improvement turn (turn {v}; "), line


def test_median_improvement_turn_leaves_the_nevers_out(sg):
    rows, _, _, g = sg
    had = g.filter(pl.col("improvement_turn") >= 0)
    v = _lower_median(had["improvement_turn"].to_numpy())
    line = _line(rows, "median improvement_turn")
    assert line.startswith(f"# game {_first(had, 'improvement_turn', v)}: the game with improvement turn "
                           f"at the median (turn {v}; among the {had.height:,} of the run's"), line


def test_min_objective_is_a_censitaires_card_not_the_seigneurs_minus_one(sg):
    rows, _, p, _ = sg
    held = p.filter(pl.col("objective") >= 0).sort(["game", "seat"])
    v = int(held["objective"].min())
    line = _line(rows, "min objective")
    assert line.startswith(f"# game {_first(held, 'objective', v)}: a player with the lowest objective "
                           f"card (#{v + 1}; "), line     # numbered from #1, as the log numbers it
    assert (f"among the {p.height:,} seats of {GAMES:,} games, the {held.height:,} that held an "
            f"Objective card)" in line), line
    # a query whose rows all hold one says nothing of rows left out
    line = _line(rows, "role=censitaire min objective")
    assert "that held" not in line and f"(#{v + 1}; among the {held.height:,} Censitaire seats" in line, line


def test_winning_seat_counts_from_1_among_games_one_seat_won(sg):
    rows, _, _, g = sg
    won = g.filter(pl.col("winning_seat") >= 0)
    lo, hi = int(won["winning_seat"].min()), int(won["winning_seat"].max())
    line = _line(rows, "min winning_seat")
    assert line.startswith(f"# game {_first(won, 'winning_seat', lo)}: the game with the lowest winning "
                           f"seat (seat {lo + 1}; among the {won.height:,} of the run's {GAMES:,} games "
                           f"that one seat won)"), line
    line = _line(rows, "max winning_seat")
    assert line.startswith(f"# game {_first(won, 'winning_seat', hi)}: the game with the highest winning "
                           f"seat (seat {hi + 1}; "), line


def test_the_seat_column_counts_from_1(sg):
    rows, _, _, _ = sg
    line = _line(rows, "max seat")
    assert line.startswith("# game 0: a player with the highest seat (seat 4; "), line


def test_a_query_no_row_of_which_has_one_is_one_line_exit_2(sg):
    rows, _, _, _ = sg
    done = balance("replay", rows, "--find", "seat=1 min objective", check=False)    # the Seigneur
    assert done.returncode == 2 and done.stdout == ""
    err = done.stderr.strip().splitlines()
    assert len(err) == 1 and "held an Objective card" in err[0] and f"{GAMES:,}" in err[0], err


QUERIES = ["min improvement_turn", "median improvement_turn", "max improvement_turn",
           "seat=2 wins min improvement_turn", "min objective", "strategy=standard median objective",
           "min winning_seat", "median winning_seat", "max seat"]


def test_without_rows_find_picks_the_same_games(sg):
    rows, rowless, p, g = sg
    for q in QUERIES:
        a, b = R.find_game(rows, q), R.find_game(rowless, q)
        assert a == b, (q, a, b)
    # and the games are the right ones (the old code agreed with itself on the wrong ones)
    had = g.filter(pl.col("improvement_turn") >= 0)
    assert R.find_game(rowless, "min improvement_turn")[0] == _first(
        had, "improvement_turn", had["improvement_turn"].min())
    won = g.filter(pl.col("winning_seat") >= 0)
    assert R.find_game(rowless, "median winning_seat")[0] == _first(
        won, "winning_seat", _lower_median(won["winning_seat"].to_numpy()))
    with pytest.raises(Exception, match="held an Objective card"):
        R.find_game(rowless, "seat=1 max objective")


def test_every_column_whose_minus_one_means_never_or_none_says_so_in_its_spec():
    """A column whose meaning gives -1 a meaning ("-1 if never", "-1 for the Seigneur", "-1 when the
    Censitaires share the win") declares it ``never`` with its ``having`` words, and a column
    holding a seat index says so (``value_is="seat"``), in every registered game: a new game's
    sentinel is then ranked by --find as no value, not as a number."""
    import re

    from simcore import games as registry
    from simcore.contract import COMMON_PLAYER_COLUMNS

    sentinel = re.compile(r"-1 (if|for|when)\b")
    seen = []
    for spec in registry.specs().values():
        for c in (*spec.player_columns, *spec.game_columns):
            if sentinel.search(c.meaning):
                seen.append(c.name)
                assert c.never == -1 and c.having, (spec.name, c.name)
            if re.match(r"seat (index|of)\b", c.meaning):
                assert c.value_is == "seat", (spec.name, c.name)
    assert {"objective", "winning_seat", "improvement_turn"} <= set(seen)
    assert {c.name: c.value_is for c in COMMON_PLAYER_COLUMNS}["seat"] == "seat"


@pytest.mark.parametrize("query", ["max winner_role", "min role", "median strategy"])
def test_a_text_column_is_one_line_exit_2_not_a_traceback(sg, query):
    rows, rowless, _, _ = sg
    for run in (rows, rowless):
        done = balance("replay", run, "--find", query, check=False)
        err = done.stderr.strip().splitlines()
        assert done.returncode == 2 and len(err) == 1 and "is text, not a number to rank" in err[0], err
