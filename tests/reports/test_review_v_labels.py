"""Review V #9: a before/after of two panels' cell-0 was titled "cell-0 #2 vs cell-0": which run
was the variant could not be told. Runs of the same folder name are told apart by their parent
folder too; the order's "#2" is left for runs whose parents do not tell them apart either."""

from __future__ import annotations

import pytest
from pathlib import Path

from reports.build import _unique_labels


def test_runs_of_one_folder_name_are_named_with_their_parent():
    paths = [[Path("/x/P0/cell-0")], [Path("/x/P1/cell-0")]]
    assert _unique_labels(["cell-0", "cell-0"], paths) == ["P0/cell-0", "P1/cell-0"]
    assert _unique_labels(["a", "b"], [[Path("/x/a")], [Path("/y/b")]]) == ["a", "b"]
    # the same parent too (the same run given twice): by order
    assert _unique_labels(["r", "r"], [[Path("/x/r")], [Path("/x/r")]]) == ["r", "r #2"]


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_report_of_two_panels_cells_names_them_by_panel(tmp_path):
    from undrawn_figures import figures_undrawn

    from reports.build import build_report
    from simcore import runner

    for name, settings in (("P0", []), ("P1", ["income.palais.base=4"])):
        runner.simulate("middle-ages", games=300, seed=1, out=tmp_path / name / "cell-0", quiet=True,
                        settings=settings)
    with figures_undrawn():
        page = build_report([tmp_path / "P0" / "cell-0", tmp_path / "P1" / "cell-0"], tmp_path / "r").read_text()
    assert "Before / after: P1/cell-0 vs P0/cell-0" in page and "cell-0 #2" not in page


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_sweep_page_explains_its_terms_and_bolds_only_its_answers(tmp_path):
    """Review V #7 and #11: the panel, sweep and tune pages used Holm, Bonferroni, Wilson and "the
    event swing" without a word of explanation (they had no glossary), and set their lead
    paragraphs in bold whole. The page now ends with the glossary's terms it uses, and a lead
    paragraph's answer alone is bold."""
    import html
    import re

    from in_process import balance
    from undrawn_figures import figures_undrawn

    from reports import glossary

    sw = tmp_path / "sw"
    assert balance("sweep", "--out", sw, "--vary", "income.palais.base=3..4", "--games", 400, "-q").returncode == 0
    with figures_undrawn():
        assert balance("report", sw, "--out", tmp_path / "rep").returncode == 0
    page = (tmp_path / "rep" / "report.html").read_text(encoding="utf-8")
    text = html.unescape(re.sub(r"<[^>]+>", " ", page))
    assert "How to read this report" in page
    terms = page.split("How to read this report", 1)[1]
    for term in ("Bonferroni", "event swing"):
        assert term in text.split("How to read this report", 1)[0]          # the page uses it …
        assert html.escape(glossary.TERMS[term], quote=True)[:60] in terms   # … and explains it
    leads = re.findall(r"<p style='font-size:1.15em'>(.*?)</p>", page)
    for lead in leads:
        head = re.match(r"<b>(.*?)</b>(.*)", lead, flags=re.S)
        assert head, lead
        assert not head.group(2) or head.group(1).endswith(":"), lead
