"""Helper 234 #1: the Middle-Ages event ablation's score (coin) columns keep the normal max-|t|
interval, whose whole-table coverage was measured (session 59, games resampled from a real
20,000-game table; docs/analysis.md) at 85% at 400 games, 91.5% at 1,000, 92% at 4,000 and 95.8%
at 20,000, while the win-share columns' paired intervals hold 95% at every size. The page, the
terminal and run.json still called both "simultaneous 95%". Below 20,000 games each now says, next
to the coin figures, that their intervals hold together less often than 95% at this size, with the
figure measured at the largest size tried not above it, and that the win-share ones do hold 95%;
from 20,000 games nothing is added. (Seigneurial's score columns measured 96-97% at every size:
nothing is said there.)"""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

NOTE_1000 = ("With 1,000 games the coin intervals hold together less often than 95% (measured: "
             "about 91.5% at 1,000 games; 95% from 20,000); the win-share intervals do hold 95%.")


def _questions(games: int):
    from reports.questions import Questions

    rows = [{"event": 1, "name": "Alliance", "seat": s, "fires": 0.25, "win_share_effect": 0.001,
             "win_share_effect_low": -0.01, "win_share_effect_high": 0.012, "score_effect": 3.0,
             "score_effect_low": 2.6, "score_effect_high": 3.4, "swing": 0.001,
             "verdict": "not shown", "score_verdict": ""} for s in range(4)]
    return Questions(Path("q"), {"games": games, "smallest_difference": {"share": 0.01, "score": 2.0}},
                     {"event_ablation": pl.DataFrame(rows)})


@pytest.mark.parametrize("games, said", [
    (1_000, NOTE_1000),
    (2_000, "about 91.5% at 1,000 games"),        # the largest size measured not above the run's
    (4_000, "about 92% at 4,000 games"),
    (12_000, "about 92% at 4,000 games"),
    (200, "about 85% at 400 games, less at fewer"),
])
def test_the_page_says_the_coin_intervals_hold_less_than_95_below_20000_games(games, said):
    from reports.games import middle_ages as M

    intro = M._ablation_section(_questions(games)).intro
    assert said in intro, intro
    assert f"With {games:,} games the coin intervals hold together less often than 95%" in intro, intro
    assert "the win-share intervals do hold 95%" in intro, intro


@pytest.mark.parametrize("games", [20_000, 50_000])
def test_from_20000_games_the_page_adds_nothing(games):
    from reports.games import middle_ages as M

    intro = M._ablation_section(_questions(games)).intro
    assert "less often than 95%" not in intro, intro
    assert "each built to hold together at 95%. Cards are in reading order" in intro, intro


def test_the_terminal_score_line_says_it_beside_the_coin_intervals(capsys):
    from analysis import stats
    from cli.questions import _print_event_cards

    df = _questions(1_000).tables["event_ablation"].with_columns(
        pl.lit(stats.LARGE).alias("score_verdict"))
    _print_event_cards(df, {"games": 1_000, "smallest_difference": {"share": 0.01, "score": 2.0}})
    out = capsys.readouterr().out
    scores = next(line for line in out.splitlines() if line.startswith("Scores (coins"))
    assert scores.endswith(NOTE_1000), scores
    _print_event_cards(df, {"games": 20_000, "smallest_difference": {"share": 0.01, "score": 2.0}})
    assert "less often than 95%" not in capsys.readouterr().out


def test_balance_questions_records_it_in_run_json_and_prints_it(tmp_path, capsys):
    from cli import _run
    from simcore import runner

    run = runner.simulate("middle-ages", games=50, seed=4, out=tmp_path / "run", quiet=True, players=4)
    out = tmp_path / "q"
    assert _run(["questions", str(run), "--out", str(out), "--games", "400"]) == 0
    meta = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert meta["intervals"].endswith(
        "; with 400 games the score intervals hold together less often than 95% (measured: about "
        "85% at 400 games; 95% from 20,000)"), meta["intervals"]
    printed = capsys.readouterr().out
    assert "With 400 games the coin intervals hold together less often than 95%" in printed, printed
