"""A Médiévallons page of a 3- and a 4-player run side by side gives one answer to the first-player
question at each player count (designer review 45 #4): at 4 players it read 25.3% from the 4-player
run's own games in the side-by-side table and 25.2% from the questions' replay in the questions
section. The questions' row at 4 players is now the 4-player run's own seats, named so; the 3-player
row the page's run's; other counts stay played. Expected values are read from players.parquet."""

from __future__ import annotations

import html
import re

import polars as pl
import pytest

from cli.report import make_report
from simcore import runner
from undrawn_figures import figures_undrawn

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

GAMES = 400


def _run(path, players):
    prep = runner.prepare("medievallons", players=players, strategies="balanced")
    return runner.run(prep, games=GAMES, seed=5, out=path, quiet=True, raw=True)


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    root = tmp_path_factory.mktemp("sbs")
    three, four = _run(root / "mv3", 3), _run(root / "mv4", 4)
    with figures_undrawn():
        out = make_report([three, four], root / "rep", side_by_side=True, questions_games=60)
    raw = out.read_text(encoding="utf-8")
    text = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", raw)))
    return {"text": text, "dir": out.parent, "four": four, "three": three}


def _seat1(run) -> float:
    p = pl.read_parquet(run / "players.parquet")
    return float(p.filter(pl.col("seat") == 0)["win_share"].cast(pl.Float64).mean())


def test_four_players_is_answered_by_the_four_player_run(page):
    t = page["text"]
    four = 100 * _seat1(page["four"])
    said = re.search(r"4 players: Seat 1 \(plays first\) wins ([\d.]+)% \([^)]*\) \(95%, unadjusted\) in mv4's own "
                     r"games \(([\d,]+) games; the side-by-side table above\)", t)
    assert said, t[t.find("4 players: Seat 1"):][:300]
    assert float(said.group(1)) == pytest.approx(four, abs=0.051)
    assert said.group(2) == f"{GAMES:,}"
    three = 100 * _seat1(page["three"])
    own = re.search(r"3 players: Seat 1 \(plays first\) wins ([\d.]+)% \([^)]*\) \(95%, unadjusted\) in the run itself", t)
    assert own and float(own.group(1)) == pytest.approx(three, abs=0.051)
    # the played counts stay played (no 'own games' wording for them)
    two = re.search(r"2 players: Seat 1 \(plays first\) wins [^.]*?\.\d% \([^)]*\) \(95%, unadjusted\) against", t)
    assert two
    assert "At 4 players they are mv4's own 400 games" in t
