"""SG-6's tie-break recorded as its own end reason: the Seigneur on the goal square while a
Censitaire holds its objective wins, and the game ends ``seigneur_goal_over_objective`` (code 3);
on the goal square with no Censitaire holding its objective it ends ``seigneur_goal`` (code 1); a
Censitaire holding its objective below the goal ends ``censitaire_objective`` (code 0).

(1) Each branch on hand-built positions, in the kernel (``kernel.victory`` on a workspace) and in
the reference (``reference.victory`` on a state). (2) In a run, the games recorded with code 3 are
exactly those found independently from players.parquet (the Seigneur's win share is 1 and some
Censitaire's resources meet its Objective card, read from the rules text run.json carries), and
code 1 the Seigneur's other wins; both are Seigneur wins in games.parquet's ``winner_role``.
"""

from __future__ import annotations

import json
import tomllib

import numpy as np
import polars as pl
import pytest

from simcore import runner
from simcore.games.seigneurial import driver as D
from simcore.games.seigneurial import kernel as K
from simcore.games.seigneurial import layout as L
from simcore.games.seigneurial import reference as F
from simcore.games.seigneurial import rules as R
from simcore.games.seigneurial import spec as SP
from simcore.rng import stream_state

RULES = R.load()
P = 4
GOAL = RULES.goal(P)                        # 10 at 4 players
TYPES = ("grain", "wood", "fish")


def test_the_codes_and_names_agree_everywhere_and_keep_the_old_ones():
    """Codes 0-2 keep the meaning runs written before code 3 gave them (their run.json names)."""
    names = ("censitaire_objective", "seigneur_goal", "truncated", "seigneur_goal_over_objective")
    assert L.END_REASONS == F.END_REASONS == SP.END_REASONS == names
    assert (L.CENSITAIRE_OBJECTIVE, L.SEIGNEUR_GOAL, L.TRUNCATED, L.SEIGNEUR_GOAL_OVER_OBJECTIVE) == (0, 1, 2, 3)
    assert (F.CENSITAIRE_OBJECTIVE, F.SEIGNEUR_GOAL, F.TRUNCATED, F.SEIGNEUR_GOAL_OVER_OBJECTIVE) == (0, 1, 2, 3)
    col = next(c for c in SP.SPEC.game_columns if c.name == "end_reason")
    assert col.high == 3 and "3 seigneur_goal_over_objective" in col.meaning


# ---------------------------------------------------------------------------------------------
# (1) each branch on hand-built positions
# ---------------------------------------------------------------------------------------------

def _kernel_victory(square, held):
    """kernel.victory at the end of turn 1 of a 4-player game, the Seigneur on ``square``, the
    Censitaires of ``held`` holding 10 of every type (every card asks at most 10 of a type), the
    others nothing: (end reason code, winning seat), or None while the game goes on."""
    ws, fs = D.new_workspace(RULES, n_players=P)
    st = np.array([stream_state(np.uint64(5), np.uint64(0))], np.uint64)
    K.setup_game(st, ws, P)
    ws[L.G_TURN] = 1
    ws[L.G_SQUARE] = square
    for p in range(1, P):
        for t in range(3):
            ws[L.W_PL + p * L.PLS + L.X_RES + t] = 10 if p in held else 0
    assert K.victory(st, ws, fs, P) == 0
    return None if ws[L.G_OVER] == 0 else (int(ws[L.G_OVER] - 1), int(ws[L.G_WINNER]))


@pytest.mark.parametrize("square,held,expected", [
    (GOAL, (), (1, 0)),                       # the goal alone: seigneur_goal
    (GOAL, (2,), (3, 0)),                     # the goal and a Censitaire holding: the tie-break
    (GOAL, (1, 2, 3), (3, 0)),                # every Censitaire holding: still the Seigneur's
    (GOAL - 1, (2,), (0, 2)),                 # below the goal: the Censitaire's objective
    (GOAL - 1, (), None),                     # nothing reached: the game goes on
])
def test_kernel_victory_each_branch(square, held, expected):
    assert _kernel_victory(square, held) == expected


def _holding(s, p, obj):
    s.objective[p] = RULES.objectives.tolist().index(obj)


def _give(s, p, t, values):
    """Move resource cards of type t into p's hand (from the discards, else the pile)."""
    for v in values:
        if s.res_disc[t][v] > 0:
            s.res_disc[t][v] -= 1
        else:
            s.res_pile[t].remove(v)
        s.hand[p][t][v] += 1


def _reference_victory(square, holder):
    """reference.victory on a fresh 4-player state, every hand empty, P1's card "grain >= 10" and
    ``holder`` (if any) given 10 grain: (end reason, winner), or None while the game goes on."""
    from tests.seigneurial.test_sg_reference_rules import fresh

    s, rng = fresh(P, RULES, seed=1)
    s.square = square
    if holder is not None:
        _holding(s, holder, [10, 0, 0])
        _give(s, holder, R.GRAIN, (4, 3, 3))
        assert s.holds_objective(holder)
    assert not any(s.holds_objective(p) for p in s.censitaires if p != holder)
    try:
        F.victory(s, [F.RandomStrategy()] * P, rng, None)
    except F.GameOver:
        return s.end_reason, s.winner
    return None


@pytest.mark.parametrize("square,holder,expected", [
    (GOAL, None, (1, 0)),
    (GOAL, 1, (3, 0)),
    (GOAL - 1, 1, (0, 1)),
    (GOAL - 1, None, None),
])
def test_reference_victory_each_branch(square, holder, expected):
    assert _reference_victory(square, holder) == expected


# ---------------------------------------------------------------------------------------------
# (2) in a run: code 3 = the Seigneur's wins with a Censitaire holding its objective
# ---------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def run(tmp_path_factory):
    # start_square = 3: the Seigneur wins ~5% of the games (the default rules: 0.4%), and more
    # than half of those by the tie-break
    return runner.simulate("seigneurial", games=4000, seed=0, players=P, quiet=True,
                           settings=["track.start_square=3"], out=tmp_path_factory.mktemp("tie") / "sg")


def test_the_tie_break_share_is_the_share_found_from_the_player_rows(run):
    meta = json.loads((run / "run.json").read_text())
    assert meta["end_reason_names"]["3"] == "seigneur_goal_over_objective"
    rules = tomllib.loads(meta["rules_text"])
    assert rules["track"]["start_square"] == 3
    cards = np.array([[c.get(t, 0) for t in TYPES] for c in rules["objectives"]["cards"]])
    players = pl.read_parquet(run / "players.parquet").sort("game", "seat")
    lord = players.filter(pl.col("seat") == 0)
    seigneur_won = lord["win_share"].to_numpy() == 1
    cens = players.filter(pl.col("seat") > 0)
    holds = (cens.select(TYPES).to_numpy() >= cards[cens["objective"].to_numpy()]).all(axis=1)
    some_holder = holds.reshape(-1, P - 1).any(axis=1)
    games = pl.read_parquet(run / "games.parquet").sort("game")
    assert games["game"].to_list() == lord["game"].to_list()
    code = games["end_reason"].to_numpy()
    tie, alone = seigneur_won & some_holder, seigneur_won & ~some_holder
    assert 50 < tie.sum() < alone.sum() + tie.sum()              # the case is met, not vacuous
    assert (code == 3).mean() == tie.mean() and (code == 1).mean() == alone.mean()
    np.testing.assert_array_equal(code == 3, tie)                # game by game
    np.testing.assert_array_equal(code == 1, alone)
    roles = games["winner_role"].to_numpy()
    assert set(roles[code == 3]) == {"seigneur"} and set(roles[seigneur_won]) == {"seigneur"}
    assert (games["winning_seat"].to_numpy()[code == 3] == 0).all()


def test_the_report_says_how_many_of_the_seigneurs_wins_the_tie_break_gave_him():
    """Hand-worked: 20,000 games, 21 ending seigneur_goal and 61 seigneur_goal_over_objective: he
    reached his goal in 82 games (0.41% → "0.4%"), 61 of his 82 wins (74.39% → "74.4%") by the
    tie-break. A run written before code 3 (names 0-2 only) gets no such sentence."""
    from reports.games.seigneurial import lead_headlines, tie_break_headlines

    names = ["censitaire_objective", "seigneur_goal", "truncated", "seigneur_goal_over_objective"]
    counts = [19_918, 21, 0, 61]
    e = pl.DataFrame({"end_reason": [0, 1, 2, 3], "end_reason_name": names, "games": counts,
                      "total": [20_000] * 4, "share": [c / 20_000 for c in counts]})
    line, = tie_break_headlines({"end_reasons": e})
    assert line.startswith("The Seigneur reached his goal square in 0.4% of games (82 of 20,000); in 61 "
                           "of them (74.4% of his wins) a Censitaire held its objective on that turn too"), line
    assert "Seigneur and Censitaire on the same turn: the Seigneur wins" in line
    assert lead_headlines({"end_reasons": e}, None) == [line]      # (the page's first findings)
    old = e.head(3).with_columns(pl.Series("games", [19_918, 82, 0]))
    assert tie_break_headlines({"end_reasons": old}) == []
