"""Session 60 review (fix 250 #2): a Médiévallons before/after where one run holds no copy of a type.

With ``--set deck.copies.etoile=0`` on the variant, its questions play no Étoile at all: the single-run
page and card_types.csv say "not played (0 copies)" (review s60 #1), but the before/after section said
"2 cannot be told (one copy fewer of Bouffon and one copy fewer of Étoile)", "Étoile, not played for
B" and "too few founders … (Bouffon and Étoile)", as if the Étoile had been played by too few
players. Here it is said not played (0 copies) with that run's rules, in the lead, the card
sections and the table, and before_after.csv says why (``not_in_deck_after`` or
``not_in_deck_before``); the type with too few founders (the Bouffon, if any) is still "too few".
Which types a run's deck lacks is read from its own card_types.csv (``copies_after`` empty), not
from the code under test.
"""

from __future__ import annotations

import html
import re

import polars as pl
import pytest

from cli.report import make_report
from undrawn_figures import figures_undrawn

# the tests' CPU over docs/testing.md's budget (session 63): this module runs in make test-slow
# and CI, not in make test
pytestmark = pytest.mark.slow

QGAMES = 200


def _run(path, settings=()):
    from simcore import runner

    prep = runner.prepare("medievallons", players=4, strategies="balanced", settings=list(settings))
    return runner.run(prep, games=600, seed=4, out=path, quiet=True)


def _text(raw: str) -> str:
    inline = re.sub(r"</?(abbr|label|span|b|em|code|strong)\b[^>]*>", "", raw)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", inline)))


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("s60b_mv")
    return root, _run(root / "full"), _run(root / "noetoile", ["deck.copies.etoile=0"])


@pytest.fixture(scope="module", params=["after", "before"])
def page(request, runs):
    """``full`` then ``noetoile`` (the Étoile missing after), and the other way round (before)."""
    root, full, none = runs
    pair = [full, none] if request.param == "after" else [none, full]
    answers: list[str] = []
    with figures_undrawn():
        out = make_report(pair, root / f"rep-{request.param}", questions_games=QGAMES, answers=answers)
    raw = out.read_text(encoding="utf-8")
    m = re.search(r"<section id='comparison_questions'>(.*?)</section>", raw, re.S)
    var = pair[1].name
    qdir = out.parent / "questions"
    return dict(side=request.param, base=pair[0].name, var=var, section=_text(m.group(1)),
                lead=next(x for x in answers if "What changed in the balance questions" in x),
                table=pl.read_csv(qdir / var / "before_after.csv"),
                before_ct=pl.read_csv(qdir / "card_types.csv"),
                after_ct=pl.read_csv(qdir / var / "card_types.csv"))


def test_the_premise_the_run_without_etoile_plays_none(page):
    ct = page[f"{page['side']}_ct"]
    row = ct.filter(pl.col("card") == "etoile").row(0, named=True)
    assert row["copies_after"] is None and row["founders"] == 0 and row["verdict"] == "not played (0 copies)"
    other = page["before_ct" if page["side"] == "after" else "after_ct"]
    assert other.filter(pl.col("card") == "etoile")["copies_after"][0] is not None


def test_before_after_csv_says_the_etoile_is_not_in_that_runs_deck(page):
    t = page["table"].filter(pl.col("item") == "Étoile")
    assert sorted(t["question"].to_list()) == ["card_ablation", "card_types"]
    assert set(t["why"].to_list()) == {f"not_in_deck_{page['side']}"}, t
    assert set(t["verdict"].to_list()) == {"not played (0 copies)"}, t
    # no other type is said so: those the deck holds are played
    others = page["table"].filter(pl.col("item") != "Étoile")
    assert not others["why"].str.starts_with("not_in_deck").any()


def test_the_lead_says_not_played_0_copies_not_cannot_be_told(page):
    lead = page["lead"]
    run = page["base"] if page["side"] == "before" else page["var"]
    assert f"Étoile is not played (0 copies) with {run}'s rules" in lead, lead
    gone = re.search(r"cannot be told \(([^)]*)\)", lead)
    assert gone is None or "Étoile" not in gone.group(1), lead
    few = re.search(r"too few founders on the runs' own games \(([^)]*)\)", lead)
    assert few is None or "Étoile" not in few.group(1), lead


def test_the_section_says_it_in_the_card_sentences_and_the_table(page):
    text = page["section"]
    run = page["base"] if page["side"] == "before" else page["var"]
    assert f"Étoile, not played for {run}" not in text
    assert not re.search(r"too few founders there[^.]*", text) or "Étoile (too few" not in text
    assert not re.search(r"Not compared on the runs' own games either: [^(]*Étoile", text), text
    assert f"Étoile, not played (0 copies) with {run}'s rules" in text, text
    assert f"not played (0 copies) with {run}'s rules: no Étoile in its deck" in text, text
