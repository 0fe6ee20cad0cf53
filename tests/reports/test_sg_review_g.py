"""Words of designer review G on the Seigneurial pages: Objective cards numbered from #1 on the page
(table, sentences, figure; said once what the number is); the glossary's "fair share" fits a game
with roles; `balance export --what roles` gives the Seigneur's untested seat no verdict (the page's
empty cell), not "within noise"; a sweep page names its player count and prints no "-0"; a panel
page of a game with roles names its finding before saying where it holds. Pages are written
without drawing their figures (tests/undrawn_figures.py)."""

from __future__ import annotations

import html as html_mod
import re

import numpy as np
import polars as pl
import pytest

from analysis import analyse, open_runs
from analysis.games import seigneurial as sg
from reports import glossary
from reports.games import seigneurial as hook
from reports.sections import FigureSet
from reports.text import cell_text
from tests.analysis.test_analysis_seigneurial import seigneurial_run


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    path, _, _ = seigneurial_run(tmp_path_factory.mktemp("sgg") / "r", games=3000)
    rs = open_runs([path])
    t = analyse(rs)
    t.update(sg.tables(rs))
    return t, rs


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_objective_cards_are_numbered_from_one_in_the_table_the_sentences_and_the_figure(tables):
    """Review G #5: cards were numbered from #0 while every number a person reads starts at 1."""
    t, rs = tables
    o = sg.distinct_cards(t["objectives"])             # 0-based, as players.parquet's objective
    rows = hook._objective_rows(t, rs)
    first = [int(c.split(",")[0].lstrip("#")) for c in rows["Card"]]
    by_label = dict(zip(o["label"], o["objective"]))
    assert [by_label[lab.split(" (")[0]] + 1 for lab in rows["Requires"]] == first
    assert min(int(x) for c in rows["Card"] for x in re.findall(r"#(\d+)", c)) == 1
    easy, hard = hook.objective_headlines(t, rs)
    assert easy.startswith(f"{rows['Card'][0]} (") or f"The easiest Objective card is {rows['Card'][0]} (" in easy
    figs = FigureSet()
    secs = {s.id: s for s in hook.sections(t, rs, figs)}
    assert hook.NUMBERING in secs["objectives"].intro
    assert "counts from 0: card #1 is objective 0" in hook.NUMBERING
    ticks = [x.get_text().split(":")[0] for x in figs["objectives"].axes[0].get_yticklabels()]
    assert sorted(ticks) == sorted(c.split(",")[0] for c in rows["Card"]), ticks


def test_the_glossary_fair_share_fits_a_game_with_roles():
    """Review G #5: the glossary defined "fair share … (25% at 4 players)" on role pages that say
    there is none."""
    entry = glossary.TERMS["fair share"]
    assert "has none" in entry and "equal split of the role's wins" in entry
    assert "1 / number of players" in entry          # still the entry of a game whose seats are alike


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_roles_export_gives_the_untested_seigneur_seat_no_verdict(tables):
    """Review G #6: `balance export --what roles` gave the Seigneur's seat "within noise"; the page
    leaves its cell empty (a role's only seat is not tested)."""
    from analysis.export import analysis_table, report_verdicts

    _, rs = tables
    roles = report_verdicts(analysis_table(rs.paths[0], "roles")).filter(pl.col("level") == "seat")
    lord = roles.filter(pl.col("role") == "seigneur").row(0, named=True)
    assert lord["verdict"] is None and lord["significant"] is None, lord
    cens = roles.filter(pl.col("role") == "censitaire")
    assert cens["verdict"].null_count() == 0 and set(cens["verdict"]) <= {
        "within noise", "clear and large enough to matter", "clear, may matter", "clear but small"}


def test_a_sweep_table_prints_a_change_that_rounds_to_zero_as_0():
    """Review G #7: the sweep table printed "-0" for a game-length change of −0.001 turns."""
    from reports.sweep import effects_table, variant_table

    eff = pl.DataFrame({"parameter": ["payment.order"], "from": ['"seat"'], "to": ['"simultaneous"'],
                        "metric": ["game_length"], "label": ["the game length"], "share": [False],
                        "delta": [-0.001], "low": [-0.004], "high": [0.002], "unit": ["turns"],
                        "verdict": ["not shown"]})
    table = effects_table(eff)
    assert [cell_text(table[c][0]) for c in ("change", "low", "high")] == ["0", "0", "0"], table
    var = pl.DataFrame({"variant": ["v0"], "label_variant": ["x"], "label": ["the game length"],
                        "metric": ["game_length"], "share": [False], "estimate": [-0.0004],
                        "low": [-0.001], "high": [0.0], "unit": ["turns"]})
    assert [cell_text(v) for v in variant_table(var).row(0)[3:6]] == ["0", "0", "0"]


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_sweep_page_names_its_player_count(tmp_path, undrawn):
    """Review G #7: no sentence or table of the sweep page named the player count (sweep.json
    records it)."""
    from analysis.sweep.play import plan_sweep, run_sweep
    from reports.sweep import build_sweep_report

    out = tmp_path / "sweep"
    run_sweep(plan_sweep("seigneurial", varies=["payment.order=[seat,simultaneous]"], games=200,
                         players=3, seed=1), out)
    page = html_mod.unescape(build_sweep_report(out, tmp_path / "page").read_text(encoding="utf-8"))
    assert "<h1>Seigneurial, 3 players: what each setting changes</h1>" in page
    assert "<tr><th>players</th><td>3</td></tr>" in page
    assert "The paired change of each setting at 3 players, game by game" in page


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_panel_page_of_a_game_with_roles_names_its_finding_first(tmp_path, undrawn):
    """Review G #8: the panel page opened "The finding does not hold in every cell" without naming
    the finding."""
    from reports.panel import build_panel_report
    from tests.reports.test_panel_roles import _cell

    d = tmp_path / "panel"
    _cell(d / "cell-1", (0.05, 0.32, 0.63), lineup=("greedy-lord", "dutiful"))
    _cell(d / "cell-2", (1, 1, 1), seigneur_wins=3, seed=4)
    page = html_mod.unescape(build_panel_report([d], tmp_path / "page").read_text(encoding="utf-8"))
    # (each lead paragraph's answer is in bold, up to its first ": ", the rest not: review V #11)
    lead = [re.sub(r"<[^>]+>", "", x) for x in re.findall(r"<p style='font-size:1.15em'>(.*?)</p>", page)]
    assert all(x.startswith("<b>") for x in re.findall(r"<p style='font-size:1.15em'>(.*?)</p>", page))
    # s37 #4: the finding is the sides' (what a designer of a game with roles asks first), named
    # first; the Censitaire seats' split follows in one headline that names what it is about and
    # where it holds, not "The finding: …" then "The finding does not hold in every cell"
    assert lead[0].startswith("The finding, by side: the Seigneur's win share runs from "), lead
    split = next(i for i, x in enumerate(lead) if x.startswith("Censitaire seats split the Censitaires' wins "))
    assert split > 0, lead
    assert lead[split].startswith("Censitaire seats split the Censitaires' wins unequally in 1 of the 2 cells: "
                                  "some seat's share of the Censitaires' wins is clearly off an equal split"), lead
    assert not any(x.startswith("The finding does not hold") for x in lead), lead
