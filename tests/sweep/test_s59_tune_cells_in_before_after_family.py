"""Review s59 rv235 #1: over a Seigneurial panel, a tune's 'How each cell responds' judged its
Seigneur-side changes as a family of their own (4 cells × 1 metric), while the panel before/after of
the same confirmation runs (``balance report TUNE/confirmations/start-rules
TUNE/confirmations/trial-N``) judges them in its family, which adds each Censitaire seat's share of
the Censitaires' wins (4 × 4 = 16): the same games read "+0.2 pp (0.0 to +0.3 pp), clear but small"
on one page and "+0.15 pp (−0.03 to +0.33 pp), within noise" on the other. The tune now takes each
change's figures from that before/after (:func:`analysis.tune.search.before_after_family`): the two
pages print the same start, tuned, change, interval and words, cell by cell.

One tiny Seigneurial tune of 2 cells (one candidate; 1,500 confirmation games per cell).
"""

from __future__ import annotations

import pytest

from analysis.tune.search import plan_tune, run_tune

pytestmark = pytest.mark.slow   # plays a tune (a few seconds of CPU): make test-slow runs it

LINEUPS = ["even-lord,fair-share,fair-share,fair-share", "harsh-lord,fair-share,fair-share,fair-share"]


@pytest.fixture(scope="module")
def tuned(tmp_path_factory):
    from strategies.panels import from_options

    panel = from_options("seigneurial", players="4", lineups=LINEUPS)
    plan = plan_tune("seigneurial", varies=["track.start_square=[3]"], targets=["role=seigneur:0.30:10"],
                     seed=5, trials=1, min_games=200, max_games=200, eta=2, confirm_games=1500,
                     panel=panel, stop_when_met=False)
    out = tmp_path_factory.mktemp("family") / "t"
    return out, run_tune(plan, out)


def test_the_tune_page_and_the_before_after_give_the_same_figures_cell_by_cell(tuned):
    from analysis.panel_compare import panel_comparison
    from reports.panel import comparison_table
    from reports.sweep import cell_response_table

    out, result = tuned
    sc = result["start_cells"]
    c = panel_comparison(out / "confirmations" / "start-rules", out / result["confirm"]["dir"])
    ba = comparison_table(c).filter(c.rows["metric"] == "role_win_share")
    iv = next(x for x in ba.columns if x.startswith("Interval"))
    want = [(r["Cell"], r["Before"], r["After"], f"{r['Change']} ({r[iv]})", r["Verdict"])
            for r in ba.iter_rows(named=True)]
    tune = cell_response_table(sc, "seigneurial")
    ch = next(x for x in tune.columns if x.startswith("Change"))
    got = [(r["Cell"], r["Start rules"], r["Tuned rules"], r[ch], r["Words"]) for r in tune.iter_rows(named=True)]
    assert got == want
    # one family, the before/after's: every cell's side and each Censitaire seat's share
    assert sc["family"] == c.family == 8
    assert ch == "Change (interval over the family of 8)"


def test_the_section_says_whose_family_it_is(tuned):
    from reports.sweep import cell_response_section

    _, result = tuned
    sec = cell_response_section(result["start_cells"], "seigneurial")
    assert "as the panel before/after of the same runs judges it" in sec.intro
    assert "one family over the 8 comparisons" in sec.intro
    assert "each seat's share of its role's wins" in sec.intro
