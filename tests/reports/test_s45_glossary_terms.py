"""The run page's glossary has the terms the page uses (review 45 #6: "ablation", "R²", "Student
t", "clustered by game" were on the page, in a heading, a table cell or the closing Methods line,
and not in "How to read this report")."""

from __future__ import annotations

import html
import re

import pytest

from analysis.tiles import LINE_FITS
from cli.report import make_report
from reports import glossary
from simcore import runner
from undrawn_figures import figures_undrawn

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

NEW = ("Student t", "ablation", "R²", "clustered by game")


def test_the_r2_entry_states_the_threshold_the_tiles_use():
    assert f"at least {LINE_FITS:g}" in glossary.TERMS["R²"]


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    d = tmp_path_factory.mktemp("gloss")
    run = runner.simulate("middle-ages", games=3000, seed=4, out=d / "run", quiet=True, raw=True)
    with figures_undrawn():
        out = make_report([run], d / "rep")      # (--questions-games plays nothing for Middle-Ages without --play-questions)
    return out.read_text(encoding="utf-8")


def test_every_new_term_the_page_uses_is_explained(page):
    body, _, gloss = page.rpartition("<section id='glossary'>")
    words = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", body + page.split("</section>")[-1])))
    table = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", gloss)))
    used = [t for t in NEW if re.search(glossary._PATTERNS[t], words)]
    assert {"Student t", "ablation", "R²"} <= set(used), used
    for term in used:
        assert f" {term} {glossary.TERMS[term][:30]}" in table, (term, table[:400])
