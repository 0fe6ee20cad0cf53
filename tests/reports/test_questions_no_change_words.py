"""Designer review: a Médiévallons before/after's balance questions summary counted a rate both
runs gave every match alike as "1 the same with both rules (balanced vs random: 100% in both)",
while docs/reports.md keeps "no change: the same games with both rules" (the very same games
played, :data:`reports.questions._SAME_GAMES`) apart from "no change (100% in both)" (different
games, each rule winning every match). The summary read as if the same games had been played; it now
uses the verdict's own words, as the answer's line and the table do."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from reports.questions import BEFORE_AFTER, Questions, before_after_rows, before_after_sentences

COLUMNS = ("question", "question_title", "item", "measure", "before", "before_se", "before_n", "after",
           "after_se", "after_n", "change", "std_error", "z", "low", "high", "family_size", "smallest",
           "verdict", "why", "before_verdict", "after_verdict", "players", "key")


def _row(item: str, before: float, after: float, low: float, high: float, verdict: str = "within noise",
         why: str = "") -> dict:
    return {"question": "best_of_three", "question_title": "Best of 3", "item": item,
            "measure": "match win rate", "before": before, "before_se": 0.01, "before_n": 200, "after": after,
            "after_se": 0.01, "after_n": 200, "change": after - before, "std_error": 0.01, "z": 0.5,
            "low": low, "high": high, "family_size": 2, "smallest": 0.01, "verdict": verdict, "why": why,
            "before_verdict": None, "after_verdict": None, "players": 2, "key": item}


def _questions(rows: list[dict]) -> Questions:
    t = pl.DataFrame(rows, schema={c: (pl.Float64 if c in ("before", "before_se", "after", "after_se", "change",
                                                           "std_error", "z", "low", "high", "smallest") else
                                       pl.Int64 if c in ("before_n", "after_n", "family_size", "players")
                                       else pl.String) for c in COLUMNS})
    return Questions(Path("q"), {"game": "medievallons"}, {BEFORE_AFTER: t})


def test_a_rate_alike_in_both_runs_is_counted_as_no_change_not_as_the_same_games():
    qa = _questions([])
    qb = _questions([_row("saboteur vs balanced", 0.55, 0.56, -0.05, 0.07),
                     _row("balanced vs random", 1.0, 1.0, -0.02, 0.02)])
    lead = before_after_sentences(qa, qb, "m1", "m2")[0]
    assert "1 within noise and 1 no change (balanced vs random: 100% in both)" in lead, lead
    assert "the same with both rules" not in lead, lead
    # the answer's own line and the table say the same verdict
    text = " ".join(before_after_sentences(qa, qb, "m1", "m2"))
    assert "balanced vs random: the best-of-3 match win rate, no change (100% in both)." in text, text
    cells = before_after_rows(qb, "m1", "m2")
    assert "no change (100% in both)" in cells["Verdict (Holm over the question's answers)"].to_list()
