"""A Seigneurial panel before/after (session 56 designer review B): an interval over the family
never prints as one number, and a rare side's share prints at the decimals the panel page gives it.

1. ``simulate --game seigneurial --panel default --games 20000`` before and after
   ``--set seigneur_cards.corvee_discards=3`` printed, for 4p greedy-lord + 3×dutiful, "Mean game
   length 5.1 turns | 6.0 turns | +0.9 turns | +0.9 to +0.9 turns": the interval is real (the per-
   game changes, paired on the same deals, are 0.88 turns on average with an interval over the
   family of 8 of about ±0.028 turns: nothing is deterministic, no variance is 0, the unit is
   turns), but narrower than the one decimal it was printed at. Now more decimals, as the two-run
   page's :func:`reports.text.interval_digits` does, until its ends differ. The row here is that
   run's (its change and family interval rounded to 4 decimals).
2. A side that won 1 game of 20,000 under both rules printed "0.01% before and after" in the lead
   and the table, where the panel page says "0.005% (0.001–0.028)": the share now prints at the
   decimals :func:`simcore.numbers.share_digits` gives it with its 95% Wilson interval over the
   cell's games, the panel page's rule (:func:`reports.text.pct_ci`)."""

from __future__ import annotations

import re

import polars as pl

from analysis.panel_compare import SAME_GAMES
from analysis.stats import wilson
from reports import panel
from reports.text import pct_ci

LENGTH = {"cell": "4p greedy-lord + 3×dutiful", "players": 4, "metric": "mean_game_length",
          "item": "Mean game length", "key": "all", "unit": "turns", "before": 5.13475, "after": 6.01680,
          "diff": 0.88205, "diff_low": 0.8627, "diff_high": 0.9014, "p_value": 1e-300, "paired": True,
          "note": None, "smallest": 1.0, "games_before": 20000, "games_after": 20000,
          "p_adjusted": 1e-300, "significant": True, "size_low": 0.8539, "size_high": 0.9102,
          "verdict": "clear but small"}


def _ends(text: str) -> tuple[str, str]:
    lo, hi = re.search(r"\(([+−-]?[\d.]+) to ([+−-]?[\d.]+) turns\)", text).groups()
    return lo, hi


def test_an_interval_over_the_family_never_prints_its_two_ends_alike():
    said = panel._other_change(LENGTH)
    lo, hi = _ends(said)
    assert lo != hi, said
    assert float(lo.replace("−", "-")) <= LENGTH["size_low"] + 1e-9 + 0.005 and \
        float(hi.replace("−", "-")) >= LENGTH["size_high"] - 0.005, said


def _rare_rows(wins: int, games: int = 20000) -> pl.DataFrame:
    """A Seigneur side that won the same ``wins`` games of ``games`` under both rules (paired)."""
    x = wins / games
    return pl.DataFrame([{
        "cell": "4p even-lord + 3×objective", "players": 4, "metric": "role_win_share",
        "item": "Seigneur side", "key": "seigneur", "before": x, "after": x, "diff": 0.0,
        "diff_low": None, "diff_high": None, "z": None, "p_value": None, "paired": True, "note": SAME_GAMES,
        "change_at_most": 0.00015, "games_before": games, "games_after": games,
        "p_adjusted": None, "significant": False, "size_low": None, "size_high": None, "verdict": None}])


def _panel_page(wins: int, games: int = 20000) -> str:
    """The share as the panel page prints it: with its 95% Wilson interval (reports.text.pct_ci)."""
    lo, hi = wilson(wins, games)
    return pct_ci(wins / games, float(lo), float(hi)).split(" ")[0]


def test_a_rare_sides_share_prints_as_the_panel_page_prints_it():
    for wins in (1, 3, 5, 80):
        rows = _rare_rows(wins)
        page = _panel_page(wins)
        said = " ".join(panel._untested_words(rows))
        assert f"({page} before and after:" in said, (wins, page, said)
    assert _panel_page(1) == "0.005%" and _panel_page(3) == "0.015%"


def test_the_table_of_every_cell_prints_the_rare_share_as_the_lead_does():
    class C:                               # the comparison's fields comparison_table reads
        rows = _rare_rows(1)
        smallest = 0.01
        family = 8
        what = "side"

    t = panel.comparison_table(C)
    assert t["Before"].to_list() == ["0.005%"] and t["After"].to_list() == ["0.005%"], t


def _moved_rows(before: list[int], after: list[int], games: int = 20000) -> pl.DataFrame:
    """A Seigneur side that won ``before[i]`` then ``after[i]`` games of ``games`` in cell i (a 4p
    and a 5p cell), each change tested."""
    rows = []
    for i, (b, a) in enumerate(zip(before, after)):
        d = (a - b) / games
        rows.append({
            "cell": f"{4 + i}p even-lord + {3 + i}×objective", "players": 4 + i, "metric": "role_win_share",
            "item": "Seigneur side", "key": "seigneur", "before": b / games, "after": a / games, "diff": d,
            "diff_low": d - 0.002, "diff_high": d + 0.002, "z": 1.0, "p_value": 0.3, "paired": False,
            "note": None, "change_at_most": None, "games_before": games, "games_after": games,
            "p_adjusted": 0.6, "significant": False, "size_low": d - 0.003, "size_high": d + 0.003,
            "verdict": "within noise"})
    return pl.DataFrame(rows)


def test_the_levels_sentence_prints_each_share_as_the_table_of_every_cell_does():
    """Session 56 review #4: 8 wins in 20,000 read "0.040%" in the Levels sentence against "0.04%"
    in the table (the sentence kept its own rounding, not the rare-share rule's)."""
    class C:
        rows = _moved_rows([8, 8], [9, 8])
        smallest = 0.01
        family = 4
        what = "side"

    table = panel.comparison_table(C)
    said = panel.level_words(C)[0]
    before, after = table["Before"].to_list(), table["After"].to_list()
    assert before[0] == "0.04%", table                     # the rare-share rule, at 20,000 games
    assert "0.040%" not in said, said
    assert f"win share {before[0]} → {after[1]} to {after[0]} over the 2 cells" in said, (said, table)
    assert f"4p {before[0]} → {after[0]}; 5p {before[1]} → {after[1]}" in said, (said, table)
