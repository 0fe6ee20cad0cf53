"""A before/after says what its pairing is for the game at hand (review G): with a rule that
changes what is dealt, the shared random streams are not the same cards throughout; the metrics
read unpaired are named by the kinds the game's table has (a Médiévallons comparison has no event
cards and no lead changes, which the paragraph used to give as its examples)."""

from __future__ import annotations

import html as html_text
import re

import pytest

from reports.build import build_report
from simcore import runner
from undrawn_figures import figures_undrawn


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    root = tmp_path_factory.mktemp("ba")
    a = runner.simulate("medievallons", games=1500, seed=2, out=root / "before", quiet=True, raw=True)
    b = runner.simulate("medievallons", games=1500, seed=2, out=root / "after", quiet=True, raw=True,
                        settings=["deck.copies.pretre=6"])
    with figures_undrawn():
        html = build_report([a, b], root / "rep", pool=False).read_text(encoding="utf-8")
    return " ".join(html_text.unescape(re.sub(r"<[^>]+>", " ", html)).split())


def test_a_dealt_rule_change_says_the_cards_differ_from_there_on(page):
    assert "Both sides played the same 1,500 deals" in page
    assert "where the new rules change what is dealt or drawn, the cards differ from there on" in page


def test_the_unpaired_metrics_are_named_by_what_the_game_has(page):
    m = re.search(r"read from each run's statistics, such as ([^)]*)\)", page)
    assert m is not None
    assert "event" not in m.group(1) and "lead changes" not in m.group(1)
    assert m.group(1)
