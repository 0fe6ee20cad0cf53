"""Session 58 review #5: one change had two values on one page. A Seigneur at 0.00% → 0.25% (1 in
400 games) read "+0.25 pp" in the comparison's sentence and "+0.3" in the page's table beside it
(0.50% → 0.25%: "−0.25" and "−0.2"), its share "0.3%" there and "0.25% (0.01–1.40)" in the seat
table. docs/search.md: a change is written alike in the sentence, the page's table and the
terminal's. Now one rule gives a row its decimals in all three."""

from __future__ import annotations

import re

import polars as pl

from analysis import skill as K
from analysis.skill_against import against, against_words
from cli.skill import against_terminal_cell
from reports.skill import against_table

from undrawn_figures import skill_pages_undrawn_in_this_module  # noqa: F401 (autouse: pages undrawn)


def _table(seigneur_wins: dict[int, int], games: int = 400) -> pl.DataFrame:
    rows = []
    for b, wins in seigneur_wins.items():
        x = wins / games
        for s, w in enumerate([x] + [(1 - x) / 3] * 3):
            lo, hi = K.seat_interval(w, games)
            rows.append({"cell": "4p 4×standard", "players": 4, "budget": b, "part": "all", "seat": s,
                         "role": "seigneur" if s == 0 else "censitaire", "games": games,
                         "win_share": w, "ci_low": lo, "ci_high": hi})
    return pl.DataFrame(rows)


def test_a_rare_shares_change_prints_alike_in_the_sentence_the_page_table_and_the_terminal():
    # the reviewer's Seigneur: 0 → 1 win in 400 at budget 0, 2 → 1 at budget 16, 3 → 3 at 64
    before, after = _table({0: 0, 16: 2, 64: 3}), _table({0: 1, 16: 1, 64: 3})
    cmp = against(before, after, 0.01)
    words = against_words(cmp, "the shipped rules", "these rules", roles_alike=False)
    page = against_table(cmp).filter(pl.col("seat") == 1)
    terminal = [against_terminal_cell(r).split("\n")[0]
                for r in cmp.filter(pl.col("seat") == 0).sort("budget").iter_rows(named=True)]
    # independently: 1/400 − 0 = +0.25 pp, 1/400 − 2/400 = −0.25 pp, 0 at budget 64
    expected = {0: "+0.25", 16: "−0.25", 64: "0.00"}
    for b, change in expected.items():
        assert re.search(rf"budget {b}: [\d.]+% → [\d.]+%, {re.escape(change)} pp", words), (b, words)
        assert page.filter(pl.col("budget") == b)["change (pp)"][0] == change, page
    assert terminal == list(expected.values()), terminal
    # the share as the seat table prints it (1 in 400: "0.25% (0.01–1.40)", two decimals)
    row0 = page.filter(pl.col("budget") == 0).row(0, named=True)
    assert row0["win share, these rules"] == "0.25%" and row0["win share, the other rules"] == "0.00%", row0
    # the interval at the same decimals as the change
    assert re.fullmatch(r"−?\d+\.\d\d to −?\d+\.\d\d", row0["interval"]), row0


def test_common_shares_keep_one_decimal():
    before, after = _table({0: 100}), _table({0: 120})
    cmp = against(before, after, 0.01)
    page = against_table(cmp)
    assert page.filter(pl.col("seat") == 1)["change (pp)"][0] == "+5.0", page
    assert page.filter(pl.col("seat") == 1)["win share, these rules"][0] == "30.0%"
