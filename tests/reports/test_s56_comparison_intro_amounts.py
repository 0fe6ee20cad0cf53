"""Session 56 designer review #2: a before/after's "How this is measured" states the smallest
differences that matter its verdicts were read against.

It said "(1 pp for shares, 0.01 a game for a mean count such as reshuffles or lead changes, the
game's own amount for scores and lengths)" whatever the report was given: with
`--smallest-difference win_share=2pp,score=3` the verdicts used 2 pp and 3 coins while the text
said 1 pp. The count of clear but small changes fell back to "(1 pp for shares)" the same way when
no change was small."""

from __future__ import annotations

import re

import polars as pl

from analysis import stats
from analysis.compare import COMPARE_SCHEMA

LARGE, SMALL, NONE = stats.LARGE, stats.SMALL, stats.NOT_SHOWN


def _row(metric: str, key: str, kind: str, smallest: float, verdict: str = NONE) -> dict:
    sig = verdict != NONE
    return {"metric": metric, "key": key, "label": f"{key} {metric}", "kind": kind, "base": 0.25,
            "base_low": 0.24, "base_high": 0.26, "variant": 0.26, "variant_low": 0.25, "variant_high": 0.27,
            "diff": 0.01, "diff_low": 0.0, "diff_high": 0.02, "z": 5.0 if sig else 0.5,
            "p_value": 1e-6 if sig else 0.6, "p_adjusted": 1e-5 if sig else 1.0, "significant": sig,
            "smallest": smallest, "size_low": 0.0, "size_high": 0.02, "verdict": verdict}


def _cmp(share: float, score: float, length: float = 1.0) -> pl.DataFrame:
    rows = [_row("seat_win_share", f"Seat {k}", "proportion", share) for k in range(1, 5)]
    rows += [_row("seat_mean_score", f"Seat {k}", "mean", score) for k in range(1, 5)]
    rows += [_row("tile_slope", "Palais", "slope", share), _row("lead_changes", "all", "mean", 0.01),
             _row("mean_turns", "turns", "mean", length),
             {**_row("balance", "Balance", "index", share), "p_value": None, "p_adjusted": None,
              "z": None, "size_low": None, "size_high": None}]
    return pl.DataFrame(rows, schema=COMPARE_SCHEMA)


def _amounts(text: str) -> str:
    m = re.search(r"smallest difference that matters \((.*?)\) on its interval", text)
    assert m, text
    return m.group(1)


def test_the_intro_states_the_amounts_the_verdicts_were_read_against():
    from reports.sections import comparison_intro

    given = _amounts(comparison_intro(_cmp(0.02, 3.0, 2.0), game="middle-ages"))
    assert "2 pp for shares" in given and "1 pp" not in given, given
    assert "3 coins for scores" in given, given
    assert "2 pp per tile for tile slopes" in given, given
    assert "0.01 a game for lead changes" in given, given      # (the row's own amount, said as given)
    assert "2 turns for game lengths" in given, given
    assert "the game's own amount" not in given, given
    # the defaults, said as numbers too: 1 pp, Middle-Ages' 2 coins, 1 turn
    default = _amounts(comparison_intro(_cmp(0.01, 2.0, 1.0), game="middle-ages"))
    assert "1 pp for shares" in default and "2 coins for scores" in default, default
    assert "1 turn for game lengths" in default, default
    # a game's own score unit
    mv = _amounts(comparison_intro(_cmp(0.01, 2.0), game="medievallons"))
    assert "2 guild cards for scores" in mv and "1 player turn for game lengths" in mv, mv


def test_only_the_kinds_on_the_page_are_named():
    from reports.sections import comparison_intro

    seats = pl.DataFrame([_row("seat_win_share", f"Seat {k}", "proportion", 0.02) for k in range(1, 5)],
                         schema=COMPARE_SCHEMA)
    said = _amounts(comparison_intro(seats, game="middle-ages"))
    assert said.startswith("here 2 pp for shares") and "coins" not in said and "turn" not in said, said


def test_the_count_of_small_changes_names_the_share_amount_used_when_none_is_small():
    from reports.text import comparison_headlines

    cmp = pl.DataFrame([_row("seat_win_share", "Seat 1", "proportion", 0.02, LARGE),
                        _row("seat_win_share", "Seat 2", "proportion", 0.02)], schema=COMPARE_SCHEMA)
    count = next(x for x in comparison_headlines(cmp, "base", "variant", "coins") if x.startswith("variant against base:"))
    assert "0 clearly but by less than the smallest difference that matters (2 pp for shares)" in count, count
