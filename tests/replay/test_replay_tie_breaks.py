"""``balance replay`` of a Seigneurial game says which part of SG-6 decided it, in the rule's words
(shared/rules/seigneurial.md, SG-6: "Seigneur and Censitaire on the same turn: the Seigneur wins.
Several Censitaires: the one with most resources; still tied: chosen at random (the Seigneur's
pick)"; the turn bound: truncated, a Seigneur loss, the Censitaires share the win).

The games are picked here from the run's own rows, independently of the replay: the Censitaires
holding their objective at the end (players.parquet's resources against the Objective cards of
run.json's rules text, read with tomllib), their resources summed, the Seigneur's square and the
winner from games.parquet. One game of each kind: one holder alone, several with one holding the
most, several tied on the most (the Seigneur's pick), the Seigneur on the goal square on a turn a
Censitaire held its objective. A truncated game (a 200-turn game is too rare to find in a small
run) is checked on a hand-made record; a Middle-Ages replay gets no such line."""

from __future__ import annotations

import json
import tomllib
from types import SimpleNamespace

import numpy as np
import polars as pl
import pytest

from simcore import runner
from simcore.replay import replay

SAME_TURN = "Seigneur and Censitaire on the same turn: the Seigneur wins"
MOST = "Several Censitaires: the one with most resources"
PICK = "still tied: chosen at random (the Seigneur's pick)"
TYPES = ("grain", "wood", "fish")


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return runner.simulate("seigneurial", games=2000, seed=0, quiet=True, players=4,
                           out=tmp_path_factory.mktemp("ties") / "sg")


@pytest.fixture(scope="module")
def endings(run):
    """game → (holders, their summed resources, winning seat, end reason), 0-based seats."""
    rules = tomllib.loads(json.loads((run / "run.json").read_text())["rules_text"])
    cards = [[c.get(t, 0) for t in TYPES] for c in rules["objectives"]["cards"]]
    players = pl.read_parquet(run / "players.parquet").filter(pl.col("seat") > 0).sort("game", "seat")
    res = players.select(TYPES).to_numpy()
    req = np.array(cards)[players["objective"].to_numpy()]
    players = players.with_columns(pl.Series("holds", (res >= req).all(axis=1)),
                                   pl.Series("total", res.sum(axis=1)))
    by_game = players.group_by("game").agg(pl.col("seat").filter(pl.col("holds")).alias("holders"),
                                           pl.col("seat"), pl.col("total"))
    games = pl.read_parquet(run / "games.parquet").join(by_game, on="game")
    return {int(g): ([int(s) for s in h], dict(zip(map(int, seats), map(int, total))), int(w), int(e))
            for g, w, e, h, seats, total in games.select("game", "winning_seat", "end_reason", "holders",
                                                           "seat", "total").iter_rows()}


def _first(endings, kind) -> int:
    for g, (holders, total, winner, end) in sorted(endings.items()):
        best = max((total[s] for s in holders), default=None)
        tied = [s for s in holders if total[s] == best]
        if kind == "goal" and end == 3 and holders:      # (code 3: the tie-break, SG-6)
            return g
        if end != 0:
            continue
        if kind == "alone" and len(holders) == 1:
            return g
        if kind == "most" and len(holders) > 1 and len(tied) == 1:
            return g
        if kind == "pick" and len(tied) > 1:
            return g
    raise AssertionError(f"no {kind} game in the run")


def _decided(run, game) -> str:
    text = replay(run, game).text
    lines = [x for x in text.splitlines() if x.startswith("How the game was decided (SG-6)")]
    assert len(lines) == 1, text[-1500:]
    return lines[0]


def _seats(seats) -> str:
    names = [f"P{s + 1}" for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def test_a_lone_holder_wins_with_no_tie_to_break(run, endings):
    g = _first(endings, "alone")
    holders, _, winner, _ = endings[g]
    line = _decided(run, g)
    assert holders == [winner]
    assert f"P{winner + 1} alone held its objective" in line and "no tie to break" in line, line
    assert MOST not in line and SAME_TURN not in line


def test_several_holders_the_one_with_most_resources_wins(run, endings):
    g = _first(endings, "most")
    holders, total, winner, _ = endings[g]
    line = _decided(run, g)
    assert winner == max(holders, key=lambda s: total[s])
    assert f"{_seats(holders)} held their objectives" in line, line
    assert f'the tie-break "{MOST}" gave the win to P{winner + 1}, with {total[winner]} resources' in line
    for s in holders:
        if s != winner:
            assert f"P{s + 1}'s {total[s]}" in line, line
    assert PICK not in line


def test_several_holders_still_tied_the_seigneur_picks(run, endings):
    g = _first(endings, "pick")
    holders, total, winner, _ = endings[g]
    best = max(total[s] for s in holders)
    tied = [s for s in holders if total[s] == best]
    line = _decided(run, g)
    assert winner in tied
    assert f"{_seats(holders)} held their objectives" in line, line
    assert f'"{MOST}; {PICK}": the Seigneur picked P{winner + 1}, who wins.' in line, line
    assert str(best) in line
    # the log shows the pick itself: the Seigneur's decision among the tied Censitaires
    text = replay(run, g).text
    assert f"[tied objectives: the Seigneur's pick] P1 chooses P{winner + 1}  (options: {', '.join(f'P{s + 1}' for s in tied)})" in text


def test_the_seigneur_on_the_goal_square_wins_over_a_censitaire_on_the_same_turn(run, endings):
    g = _first(endings, "goal")
    holders, _, winner, _ = endings[g]
    assert winner == 0
    line = _decided(run, g)
    assert "the Seigneur reached the goal square (10)" in line and _seats(holders) in line, line
    assert f'the tie-break "{SAME_TURN}" gave the win to the Seigneur' in line, line


def test_a_truncated_game_is_a_shared_win():
    """200 turns without a winner: a hand-made record (no run of a few thousand games has one)."""
    from simcore import games as registry
    from simcore.games.seigneurial import reference, rules
    from simcore.replay import ending_lines

    record = SimpleNamespace(end_reason=2, winner=-1, turns=200, square=6,
                             resources=np.zeros((4, 3), int), objective=np.array([-1, 0, 1, 2]))
    lines = ending_lines(registry.get("seigneurial"), reference, rules.load(), record, 4)
    assert lines == ["", "How the game was decided (SG-6), at the end of turn 200: the turn limit "
                         "(200 turns) was reached with no winner; the game is truncated, counted as "
                         "a Seigneur loss, and the 3 Censitaires share the win (1/3 each)."]


def test_a_middle_ages_replay_says_nothing_of_sg6(tmp_path):
    run = runner.simulate("middle-ages", games=2, seed=1, out=tmp_path / "ma", quiet=True, players=4)
    assert "How the game was decided" not in replay(run, 0).text
