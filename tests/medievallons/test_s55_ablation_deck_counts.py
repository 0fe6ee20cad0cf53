"""Review s55 #4: the Médiévallons before/after said "Bouffon, too few founders to tell (0 with mv's
rules, 0 with mv-chevalier7's)" while the baseline's section said "no founder with the full deck; 2
founders, 0.1% of players, with one copy fewer": neither said which deck its count was for, and
they read as a contradiction. The card ablation is read on two decks a side (the full deck and one
copy fewer); the before/after now names each count's deck, as the baseline's section does."""

from __future__ import annotations

import re

import polars as pl

from analysis.questions import medievallons as Q


def _ablation(rows):
    """A card-types table with the ablation: (card, founders with the full deck, with one copy fewer)."""
    return pl.DataFrame([dict(card=c, founded_share=0.3 if n > 30 else 0.0001 * n, founders_win_share=0.3,
                              founders_std_error=0.02, founders=n, founded_share_after=0.3 if k > 30 else 0.0001 * k,
                              founders_after=k, delta_founders_win_share=0.01, delta_std_error=0.02,
                              z=0.5, verdict="within noise")
                         for c, n, k in rows])


BEFORE = {"card_types": _ablation([("pretre", 1200, 1100), ("noble", 1200, 1150), ("bouffon", 0, 2)])}
AFTER = {"card_types": _ablation([("pretre", 1200, 1100), ("noble", 1200, 1150), ("bouffon", 0, 1)])}


def _bouffon():
    t = Q.compare_questions(BEFORE, AFTER)
    return t.filter((pl.col("question") == "card_ablation") & (pl.col("item") == "Bouffon")).row(0, named=True)


def test_the_comparison_keeps_each_decks_founders():
    r = _bouffon()
    assert (r["why"], r["before_n"], r["after_n"]) == ("too_few", 0, 0)
    assert (r["before_n_full"], r["before_n_fewer"], r["after_n_full"], r["after_n_fewer"]) == (0, 2, 0, 1)


def test_the_page_names_the_deck_of_each_count():
    from reports.questions import _shown, _why

    r = _bouffon()
    why = _why(r, "mv", "mv-chevalier7", {})
    assert re.search(r"with mv's rules, 0 with the full deck and 2 with one copy fewer; with "
                     r"mv-chevalier7's, 0 with the full deck and 1 with one copy fewer; 30 needed with each deck",
                     why), why
    assert _shown(r, "before", 1, 30) == "too few founders (0 with the full deck, 2 with one copy fewer)"
    assert _shown(r, "after", 1, 30) == "too few founders (0 with the full deck, 1 with one copy fewer)"
