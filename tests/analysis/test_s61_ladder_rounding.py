"""Review s61: `balance ladder` rounded its shares as Python's format does (a half to even in
binary, so 59.25% printed "59.2%") while every other page rounds halves away from zero
(:func:`simcore.numbers.rounded`, as `balance skill` prints 59.25% as "59.3%"), and printed a
rare share's interval end of 0.013% as "0.0". The sentences here (head to head, the ranking, the
lead role's headline) now round as the tables do, at the decimals the table prints each share
with (:func:`analysis.skill_words.ci_digits`, the rule of :func:`reports.text.pct_ci`), and no
share that is not 0% prints as 0.0 (:func:`simcore.numbers.share_digits`).

The repros: `balance ladder --game middle-ages --bots balanced,search2,search8 --games 400 --seed 3`
(search8 0.5925 against copies of balanced, balanced 0.3125 against copies of search8) and
`balance ladder --game seigneurial --bots even-lord,standard,search4 --games 200 --seed 3` (two
lead rows each averaging 0.5% and 0.0%: 0.25%)."""

from __future__ import annotations


from analysis import ladder as L
from ladder_cells import rotated_cell
from analysis.stats import wilson

P = 4
DEALS = 100       # 400 games a cell: 100 deals × 4 rotations, as the repro


def _rotated(bot: str, opp: str, wins: int, seed: int) -> L.Cell:
    """A rotated cell of ``wins`` in DEALS × P games (:func:`ladder_cells.rotated_cell`)."""
    return rotated_cell(bot, opp, wins, seed, DEALS, P)


def test_head_to_head_shares_round_halves_away_from_zero_as_the_table():
    cells = [_rotated("search8", "balanced", 237, 1), _rotated("balanced", "search8", 125, 2)]
    assert [c.win_share for c in cells] == [0.5925, 0.3125]
    said = L.ranking_sentence(cells, P, family=2)
    assert "search8 59.3%, balanced 31.3%" in said, said
    assert "59.3% against balanced's 31.3%" in said, said
    assert "59.2%" not in said and "31.2%" not in said, said


def _lead(bot: str, opp: str, wins: int, games: int = 200) -> L.Cell:
    """A lead-role cell: Wilson's interval over its games, no deals kept."""
    lo, hi = wilson(wins, games)
    return L.Cell(bot, opp, games, wins / games, float("nan"), float(lo), float(hi), 0.25)


def test_lead_headline_average_of_two_cells_rounds_a_half_away_from_zero():
    cells = [_lead("even-lord", "standard", 1), _lead("even-lord", "search4", 0),
             _lead("standard", "standard", 1), _lead("standard", "search4", 0),
             _lead("search4", "standard", 0), _lead("search4", "search4", 0)]
    said = L.lead_headline(cells, lead="Seigneur", shared="Censitaire")
    assert "share the highest estimate, 0.3% on average" in said, said
    assert "0.2%" not in said, said


def test_a_rare_share_in_a_sentence_never_prints_as_zero():
    # a lead row winning 1 game in 2,500: 0.04%, which printed "0.0%" as the row that won none
    cells = [_lead("even-lord", "standard", 1, 2500), _lead("standard", "standard", 0, 2500)]
    said = L.lead_headline(cells, lead="Seigneur", shared="Censitaire")
    assert "0.04%" in said, said
    assert "0.0–" not in said, said
