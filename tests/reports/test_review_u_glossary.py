"""Review U #10: every "Verdict (Holm over …; 1 pp matters)" column's hover title explained "pp",
the first glossary term in the glossary's order, not the verdict words; "|z|", Bonferroni,
Newcombe, Welch and Wald stood on pages without a word of explanation (and the PDF, without hover
titles, has only its Terms table)."""

from __future__ import annotations

import html
import re

import polars as pl

from reports import glossary
from reports.html import _html_table


def _titles(page: str) -> dict[str, str]:
    return {html.unescape(h): html.unescape(t) for t, h in re.findall(r"<th title='([^']*)'>(.*?)</th>", page)}


def test_a_verdict_column_is_explained_as_a_verdict():
    table = pl.DataFrame({"Seat": ["Seat 1"], "Change (pp)": ["+0.3"],
                          "Verdict (Holm over the 4 seats; 1 pp matters)": ["within noise"],
                          "within noise by |z|": ["1.2"]})
    titles = _titles(_html_table(table, "t"))
    verdict = titles["Verdict (Holm over the 4 seats; 1 pp matters)"]
    for words in ("within noise", "clear but small", "clear, may matter", "clear and large enough to matter"):
        assert words in verdict, verdict
    assert titles["Change (pp)"] == glossary.TERMS["pp"]
    assert titles["within noise by |z|"] == glossary.TERMS["z"]


def test_the_named_methods_are_in_the_terms_table_when_a_page_uses_them():
    text = ["Seat 2 25.1% (Newcombe), sizes on the Bonferroni interval; Welch's t; Wald tests from the "
            "seats' joint covariance; within noise by |z| 1.3."]
    used = glossary.used_terms(text)
    assert {"Bonferroni", "Newcombe", "Welch", "Wald", "z"} <= set(used)
    assert not {"Bonferroni", "Newcombe", "Welch", "Wald"} & set(glossary.used_terms(["Seat 2 wins 25%."]))
