"""A before/after's balance questions say "the same games" where both rules played the very same
games (designer review 45 #1): a setting of the 5-player end card leaves every 2-, 3- and 4-player
game as it was, and those answers were "0.0 pp; 95% interval −1.7 to +1.7 pp, within noise … more
games would tell". They are now outside their question's family, with no change and no interval,
and the page says so. Which games are the same is checked here by playing them with the runner."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from analysis.questions.medievallons import SAME_GAMES, questions_for_run
from reports.questions import before_after_rows, before_after_sentences, read_questions
from simcore import runner

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

QGAMES = 60
SETTING = "setup.end_card.5=yellow"


def _run(path, settings=()):
    prep = runner.prepare("medievallons", players=4, strategies="balanced", settings=list(settings))
    return runner.run(prep, games=100, seed=7, out=path, quiet=True)


def _win_shares(players: int, settings=()) -> np.ndarray:
    prep = runner.prepare("medievallons", players=players, strategies="balanced", settings=list(settings))
    return runner.collect(prep, games=QGAMES, seed=7, columns=("win_share",)).players.column("win_share").to_numpy()


@pytest.fixture(scope="module")
def questions(tmp_path_factory):
    root = tmp_path_factory.mktemp("qsame")
    before, after = _run(root / "a"), _run(root / "b", [SETTING])
    qa = questions_for_run(before, QGAMES, root / "qa")
    qb = questions_for_run(after, QGAMES, root / "qb", against=qa)
    return read_questions(qa), read_questions(qb)


def test_answers_played_with_the_same_games_are_untested(questions):
    _, qb = questions
    t = qb.tables["before_after"].filter(pl.col("question") == "first_player")
    verdict = {int(r["players"]): r for r in t.iter_rows(named=True)}
    for players in (2, 3, 5):
        same = np.array_equal(_win_shares(players), _win_shares(players, [SETTING]))
        assert same == (players != 5)          # the setting plays at 5 players only
        r = verdict[players]
        if same:
            assert r["verdict"] == SAME_GAMES and r["why"] == "same_games"
            assert r["before"] == r["after"]
            assert r["low"] != r["low"] and r["change"] != r["change"]      # no interval, no change
        else:
            assert r["verdict"] != SAME_GAMES and r["low"] == r["low"]
            assert r["family_size"] == 1            # the only answer of its question tested
    # the best of 3 at 2 players: the same games too
    b3 = qb.tables["before_after"].filter(pl.col("question") == "best_of_three")
    assert b3.height and (b3["verdict"] == SAME_GAMES).all()


def test_the_page_says_the_same_games_and_does_not_ask_for_more(questions):
    qa, qb = questions
    text = " ".join(before_after_sentences(qa, qb, "a", "b"))
    assert "The same games with both rules, so no change: Seat 1 at 2 players (" in text
    assert "in both) and Seat 1 at 3 players (" in text
    assert "over the 1 player counts" not in text
    more = text[text.index("5 players: Seat 1"):]
    assert "within noise" in more
    # "more games would tell" names only answers that could move
    if "cannot rule out" in text:
        assert "the furthest: 5 players" in text
    cells = before_after_rows(qb, "a", "b")
    two = cells.filter(pl.col("Answer for") == "2 players")
    assert two["Verdict (Holm over the question's answers)"][0] == "no change: the same games with both rules"
    assert two["Change"][0] == ""
