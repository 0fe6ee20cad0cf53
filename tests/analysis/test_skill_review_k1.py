"""Review K #1: in a game with roles the skill sentence first says whether the first role's side is
ahead or behind at each budget (its interval against the range a balance of the roles can sit
in: from 1/P, one seat's share, to 1/2, an even split, widened by the difference that matters) and
whether that advantage persists, then what the games tell of its change. It said only "these games
cannot tell whether it changes" for a Seigneur winning 0.0% (0.0 to 1.9) and 1.0% (0.1 to 3.6).

The tables are constructed; each interval is statsmodels' Wilson interval (the independent check)
at the level the sentence reads, Bonferroni over the table's budgets (1 - 0.05 / B: review R,
tests/analysis/test_review_r_skill_roles.py), and the expected words follow from those numbers and
the definition, computed here."""

from __future__ import annotations

import polars as pl
import pytest
from statsmodels.stats.proportion import proportion_confint

from analysis import skill as K
from analysis.skill_words import advantage, verdict


def _table(seigneur_wins: dict[int, int], games: int, players: int = 4) -> pl.DataFrame:
    """Every-seat rows of a Seigneurial-like table: per budget the Seigneur's wins of ``games``,
    the Censitaires sharing the rest; each seat's 95% Wilson interval from statsmodels."""
    rows = []
    for b, wins in seigneur_wins.items():
        shares = [wins / games] + [(games - wins) / games / (players - 1)] * (players - 1)
        for s, x in enumerate(shares):
            lo, hi = proportion_confint(round(x * games), games, 0.05, method="wilson")
            rows.append(("4p 4×standard", players, b, "all", s, "seigneur" if s == 0 else "censitaire",
                         "standard", games, x, lo, hi, *(None,) * len(K.BALANCE_COLUMNS), None,
                         0.0, 0.0, 0.1))
    return pl.DataFrame(rows, schema=K.SCHEMA, orient="row")


def _wilson(wins: int, games: int, budgets: int = 2) -> tuple[float, float]:
    """The Wilson interval the sentence reads for a table of ``budgets`` budgets (one cell)."""
    return proportion_confint(wins, games, 0.05 / budgets, method="wilson")


def test_a_side_clearly_behind_at_every_budget_is_said_to_persist():
    """The review's case: 0 and 2 Seigneur wins in 200 games: every interval (statsmodels) lies
    far below 24% (a quarter less 1 pp): the Censitaires' advantage persists; the change still
    cannot be sized."""
    t = _table({0: 0, 4: 2}, 200)
    for w in (0, 2):
        assert _wilson(w, 200)[1] < 0.25 - 0.01
    text = verdict(advantage(t, False))
    assert "its interval lies wholly below 24% at every budget: the Censitaires' advantage is there at " \
           "every budget, so it persists as play gets stronger." in text, text
    # said before what the games cannot tell of its change
    assert text.index("persists") < text.index("These games cannot tell whether the Seigneur's win share")


def test_a_side_clearly_ahead_at_every_budget_is_the_first_roles_advantage():
    t = _table({0: 130, 16: 140}, 200)              # 65% and 70%: both intervals above 51%
    assert min(_wilson(130, 200)[0], _wilson(140, 200)[0]) > 0.5 + 0.01
    text = verdict(advantage(t, False))
    assert "wholly above 51% at every budget: the Seigneur's advantage is there at every budget, so it " \
           "persists" in text, text


@pytest.mark.parametrize("wins, budget_unclear", [
    # 42 of 200: 21.0%, Wilson 15.9 to 27.2 reaches across 24% at budget 64
    ({0: 0, 4: 2, 64: 42}, 64),
    # the first budget unclear
    ({0: 44, 64: 2}, 0),
])
def test_an_interval_across_an_edge_at_any_budget_is_unclear_never_persists(wins, budget_unclear):
    lo, hi = _wilson(wins[budget_unclear], 200, len(wins))
    assert lo < 0.24 < hi
    text = verdict(advantage(_table(wins, 200), False))
    assert "so it persists" not in text, text
    assert f"across one of its edges at budget {budget_unclear}" in text
    assert ("these games cannot tell whether the Censitaires' advantage is there at every budget, so not "
            "whether it persists as play gets stronger.") in text


def test_an_interval_just_past_the_edge_is_unclear():
    """The rule is the interval's end against the widened edge, not the estimate: 37 of 200 (18.5%,
    its interval's high end above 24%) is unclear; 33 of 200 (high end below it) is behind."""
    assert _wilson(37, 200)[1] > 0.24 > _wilson(33, 200)[1]
    assert "so it persists" not in verdict(advantage(_table({0: 0, 4: 37}, 200), False))
    assert "so it persists" in verdict(advantage(_table({0: 0, 4: 33}, 200), False))


def test_an_advantage_that_vanishes_and_one_within_the_range():
    lo, hi = _wilson(140, 400)                                            # 35%: within 24% to 51%
    assert 0.24 <= lo and hi <= 0.51
    text = verdict(advantage(_table({0: 0, 64: 140}, 400), False))
    assert "wholly below 24% at budget 0 and wholly within it at budget 64: the Censitaires' advantage " \
           "vanishes as play gets stronger." in text, text
    assert "so it persists" not in text
    within = verdict(advantage(_table({0: 140, 64: 150}, 400), False))
    assert "wholly within it at every budget: no role advantage as large as the 1 pp that matters" in within


def test_interval_ends_print_apart_from_the_edge_they_lie_beside():
    """An interval end that rounds onto the 24% edge gets a second decimal (statsmodels' end)."""
    games = 1000
    w = next(w for w in range(150, 230) if f"{100 * _wilson(w, games)[1]:.1f}" == "24.0"
             and _wilson(w, games)[1] != 0.24)
    text = verdict(advantage(_table({0: 0, 4: w}, games), False))
    assert f"{100 * _wilson(w, games)[1]:.2f}" in text, text
