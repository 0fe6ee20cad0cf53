"""Session s37 (a Seigneurial designer, findings 3, 4 and 11's panel legend): the panel page of a
game with roles leads with the side balance (the Seigneur against the Censitaires), words the
Censitaire seats' split as one headline, names no "largest gap" from a cell with too few of the
role's wins to read it, and summarises long lists of cells; the before/after over a panel gives
levels (before → after) and a table of one row a cell, summarises its lists, and draws a figure
readable for many cells (one labelled row a cell, no colour a cell, no legend of cells)."""

from __future__ import annotations

import html as html_mod
import re
import warnings

import numpy as np
import polars as pl
import pytest

from analysis import stats
from analysis.panel_compare import PanelComparison

pytestmark = pytest.mark.slow   # a costly file: make test-slow and CI run it (docs/testing.md, the fast suite's budget)

LORDS = ("even-lord", "greedy-lord", "harsh-lord")
TENANTS = ("fair-share", "objective", "dutiful", "hoarder")


def _labels() -> list[str]:
    return [f"{p}p {lord} + {p - 1}×{t}" for p in (3, 4, 5) for lord in LORDS for t in TENANTS]


def _lead(page_path) -> list[str]:
    page = html_mod.unescape(page_path.read_text(encoding="utf-8"))
    return [re.sub(r"<[^>]+>", "", x) for x in re.findall(r"<p style='font-size:1.15em'>(.*?)</p>", page)]


# ---------------------------------------------------------------------------------------------
# #4: the panel page of a game with roles
# ---------------------------------------------------------------------------------------------

def test_cells_summary_names_whole_groups_and_counts_the_rest():
    from analysis.panel import cells_summary

    every = _labels()
    fives = [x for x in every if x.startswith("5p")]
    harsh4 = [x for x in every if x.startswith("4p harsh-lord")]
    said = cells_summary(fives + harsh4 + [every[0]], every)
    # every 5p cell and every 4p harsh-lord cell: the 12 5p cells as a group, the rest by name
    assert said.startswith("all 12 5p cells, "), said
    assert said.endswith("and 2 more"), said
    assert "5p even-lord" not in said                      # not listed again one by one
    named = [x for x in every if x in said]
    assert set(named) <= set(fives + harsh4 + [every[0]])  # no cell said that is not among them
    # overlapping groups count only their other cells, so the counts add up
    harsh = [x for x in every if "harsh-lord" in x]
    said = cells_summary(harsh + fives, every)
    assert said == "all 12 harsh-lord cells and the 8 other 5p cells", said
    # a few cells: their names
    assert cells_summary(every[:2], every) == f"{every[0]} and {every[1]}"


def test_the_panel_page_of_a_game_with_roles_leads_with_the_sides(tmp_path, undrawn):
    """s37 #4: the page's bold finding was the seat order among the Censitaires; a designer asks
    how the Seigneur fares against them. The first lead paragraph is the Seigneur side's win share
    over the cells, lowest and highest with each cell's own interval, and the cells per band."""
    from analysis import panel
    from reports.panel import build_panel_report
    from tests.reports.test_panel_roles import _cell

    d = tmp_path / "panel"
    _cell(d / "cell-1", (1, 1, 1), seigneur_wins=600, lineup=("greedy-lord", "dutiful"))
    _cell(d / "cell-2", (1, 1, 1), seigneur_wins=20, seed=4)
    _cell(d / "cell-3", (1, 1, 1), seigneur_wins=20, lineup=("harsh-lord", "hoarder"), seed=5)
    lead = _lead(build_panel_report([d], tmp_path / "page"))
    t = panel.panel_table([d])
    lord = t.cells.filter(pl.col("metric") == "role_win_share_seigneur").sort("cell")
    hi = lord.row(0, named=True)
    lo = lord.row(1, named=True)
    assert hi["estimate"] == pytest.approx(0.3) and lo["estimate"] == pytest.approx(0.01)
    first = lead[0]
    assert first.startswith("The finding, by side: the Seigneur's win share runs from "
                            f"{100 * lo['estimate']:.1f}% ({100 * lo['low']:.1f}–{100 * lo['high']:.1f}) in 2 cells "
                            "(4p even-lord + 3×fair-share and 4p harsh-lord + 3×hoarder) to "
                            f"{100 * hi['estimate']:.1f}% ({100 * hi['low']:.1f}–{100 * hi['high']:.1f}) in "
                            "4p greedy-lord + 3×dutiful"), first
    assert ("Point estimates, counted in fixed bands of the games won (a quarter, a half), not against a "
            "fair share: below 25% in 2 cells, 25% to 50% in 1 cell.") in first, first
    assert lead[1].startswith("The other side: the Censitaires' win share runs from 70.0%"), lead[1]
    assert not any(x.startswith("Who wins, by side") for x in lead), lead


def test_the_split_is_one_headline_and_no_gap_is_named_from_a_cell_with_few_role_wins(tmp_path, undrawn):
    """s37 #4: "The finding: the Censitaires' seats do not win equally often", then "The finding
    does not hold in every cell" read as a contradiction; and on a panel where the Censitaires won
    0.1% of games the largest gap came from that cell ("seat 3 takes 100.0% (2.5–100.0)")."""
    from analysis.panel import MIN_ROLE_WINS
    from reports.panel import build_panel_report
    from tests.reports.test_panel_roles import GAMES, _cell

    d = tmp_path / "panel"
    # the Censitaires win 10 games, all seat 4's: a gap of 66.7 pp from an equal split, unreadable
    _cell(d / "cell-1", (0.001, 0.001, 0.998), seigneur_wins=GAMES - 10, lineup=("greedy-lord", "dutiful"))
    # the Censitaires win every game, split 25 / 33 / 42: a clear gap, smaller
    _cell(d / "cell-2", (0.25, 0.33, 0.42), seed=4)
    lead = _lead(build_panel_report([d], tmp_path / "page"))
    assert not any(x.startswith("The finding does not hold") or x.startswith("The finding: the Censitaires")
                   for x in lead), lead
    split = [x for x in lead if x.startswith("Censitaire seats split the Censitaires' wins unequally in ")]
    assert len(split) == 1, lead
    text = split[0]
    assert "The largest clear gap is in 4p even-lord + 3×fair-share (2,000 Censitaire wins): Seat 4 takes " in text, text
    assert "largest gap is in 4p greedy-lord" not in text and "largest clear gap is in 4p greedy-lord" not in text
    assert (f"not ranked, with fewer than {MIN_ROLE_WINS} Censitaire wins each (too few to read a split): "
            "4p greedy-lord + 3×dutiful") in text, text


def test_a_split_clear_in_no_cell_is_not_stated_as_a_finding(tmp_path, undrawn):
    from reports.panel import build_panel_report
    from tests.reports.test_panel_roles import _cell

    d = tmp_path / "panel"
    _cell(d / "cell-1", (1, 1, 1), seigneur_wins=3, seed=4)
    _cell(d / "cell-2", (1, 1, 1), seigneur_wins=3, seed=5, lineup=("greedy-lord", "dutiful"))
    lead = _lead(build_panel_report([d], tmp_path / "page"))
    assert any(x.startswith("Censitaire seats split the Censitaires' wins unequally in none of the 2 cells: no "
                            "seat's share of the Censitaires' wins is clearly off an equal split") for x in lead), lead
    assert not any(x.startswith("The finding: the Censitaires") for x in lead), lead


def test_the_role_figure_legends_sit_just_above_their_axes():
    """s37 #11: the legend of "Who wins, by side and by seat within a role" sat far below a tall
    plot, after a large blank gap, in a tiny font."""
    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from reports.figures.common import RC
    from reports.panel import role_share_figure

    rows = []
    labels = _labels()
    for k, lab in enumerate(labels):
        p = int(lab[0])
        for role, est in (("seigneur", 0.1), ("censitaire", 0.9)):
            rows.append({"cell": k, "label": lab, "players": p, "metric": f"role_win_share_{role}",
                         "what": f"the {role.capitalize()}'s win share", "estimate": est, "low": est - 0.01,
                         "high": est + 0.01, "fair": None, "role": None, "role_label": None, "seat": None})
        for s in range(2, p + 1):
            rows.append({"cell": k, "label": lab, "players": p, "metric": f"role_seat_share_{s}",
                         "what": "x", "estimate": 1 / (p - 1), "low": 0.2, "high": 0.6, "fair": 1 / (p - 1),
                         "role": "censitaire", "role_label": "Censitaire", "seat": s})
    with matplotlib.rc_context(RC), warnings.catch_warnings():
        warnings.simplefilter("error")
        fig = role_share_figure(pl.DataFrame(rows), labels)
        canvas = FigureCanvasAgg(fig)
        canvas.draw()
        r = canvas.get_renderer()
        for ax in fig.axes:
            leg = ax.get_legend()
            assert leg is not None
            box, area = leg.get_window_extent(r), ax.get_window_extent(r)
            assert box.y0 >= area.y1 - 1, (box, area)                       # above the axes
            assert box.y0 - area.y1 < 30, (box, area)                       # right above, no gap
            assert fig.bbox.x0 <= box.x0 and box.x1 <= fig.bbox.x1 + 1 and box.y1 <= fig.bbox.y1 + 1, (box, fig.bbox)
            assert all(t.get_fontsize() >= 8 for t in leg.get_texts())
        left = fig.axes[0]
        assert left.get_ylim() == pytest.approx((len(labels) - 0.5, -0.5))   # no blank band


# ---------------------------------------------------------------------------------------------
# #3: the before/after over a panel
# ---------------------------------------------------------------------------------------------

def _side_comparison(n_cells: int = 36) -> PanelComparison:
    """A before/after of a panel of ``n_cells`` Seigneurial cells: the Seigneur side moves up in
    every cell but the last 3 (within noise), by 1 to 90 pp; each Censitaire seat's share of the
    Censitaires' wins within noise."""
    labels = _labels()[:n_cells]
    rows = []
    for k, lab in enumerate(labels):
        p = int(lab[0])
        before = 0.001 * k
        moved = k < n_cells - 3
        diff = 0.01 + 0.89 * k / n_cells if moved else 0.001
        lo, hi = (diff - 0.005, diff + 0.005) if moved else (-0.01, 0.012)
        rows.append({"cell": lab, "players": p, "metric": "role_win_share", "item": "Seigneur side",
                     "key": "seigneur", "before": before, "after": before + diff, "diff": diff, "size_low": lo,
                     "size_high": hi, "p_adjusted": 1e-6 if moved else 0.9, "significant": moved})
        for s in range(2, p + 1):
            share = 1 / (p - 1)
            rows.append({"cell": lab, "players": p, "metric": "seat_share_of_role_wins",
                         "item": f"Seat {s}'s share of the Censitaires' wins", "key": f"seat{s}",
                         "before": share, "after": share + 0.002, "diff": 0.002, "size_low": -0.03,
                         "size_high": 0.034, "p_adjusted": 0.9, "significant": False})
    t = pl.DataFrame([{**r, "paired": True, "note": None, "games_before": 2000, "games_after": 2000,
                       "seed_before": 0, "seed_after": 0, "unpaired_why": ""} for r in rows],
                     schema_overrides={"note": pl.String})
    verdict = stats.practical(t["diff"].to_numpy(), t["size_low"].to_numpy(), t["size_high"].to_numpy(),
                              0.01, clear=t["significant"].to_numpy())
    t = t.with_columns(pl.Series("verdict", list(verdict), dtype=pl.String))
    return PanelComparison("seigneurial", t, labels, "side", t.height, 0.01)


def test_the_before_after_lead_summarises_many_cells():
    """s37 #3: the lead listed 28 cells one by one (about 600 words of bold)."""
    from reports.panel import comparison_findings

    c = _side_comparison()
    lead = comparison_findings(c)
    first = lead[0]
    assert first.startswith("Did the side win rates move, line-up by line-up? Yes, by enough to matter: "
                            "Seigneur side moved in 33 of 36 cells, up in each (smallest "), first
    rows = c.rows.filter((pl.col("item") == "Seigneur side") & pl.col("significant")).sort("diff")
    smallest, largest = rows.row(0, named=True), rows.row(-1, named=True)
    assert f"smallest {smallest['cell']} +" in first and f"largest {largest['cell']} +" in first, first
    sizes = rows["verdict"].value_counts()
    for v, k in sizes.iter_rows():
        assert f"{k} {v}" in first, (v, k, first)
    named = [x for x in c.cells if x in first]
    assert len(named) <= 4, named                                  # not every cell, one by one
    assert "within noise in the other 3" in first
    # the answer before the family's words: the page's bold (up to the first ": ") is the answer
    assert first.index(": ") < first.index("(clear after Holm's correction"), first
    assert len(first.split()) < 150, len(first.split())


def test_the_before_after_gives_levels_and_a_table_of_one_row_a_cell():
    """s37 #3: the page gave changes, never the levels; "in which cells is the Seigneur now in
    25–35%?" had no answer."""
    from reports.panel import LEVEL_TABLE, level_table, level_words

    c = _side_comparison()
    said = level_words(c)
    assert len(said) == 1
    side = c.rows.filter(pl.col("item") == "Seigneur side")
    after = side["after"].to_numpy()
    assert said[0].startswith(f"Levels, before → after: the Seigneur side's win share 0.0% to "
                              f"{100 * side['before'].max():.1f}% → {100 * after.min():.1f}% to "
                              f"{100 * after.max():.1f}% over the 36 cells"), said
    below, mid, above = (after < 0.25).sum(), ((after >= 0.25) & (after <= 0.5)).sum(), (after > 0.5).sum()
    assert (f"After the change, counted in fixed bands of the games won (a quarter, a half), not against "
            f"a fair share: below 25% in {below} cells, 25% to 50% in {mid} cells, above 50% in "
            f"{above} cells") in said[0], said
    three = c.rows.filter(pl.col("item") == "Seigneur side").filter(pl.col("cell").str.starts_with("3p"))
    assert (f"3p {100 * three['before'].min():.1f}% to {100 * three['before'].max():.1f}% → "
            f"{100 * three['after'].min():.1f}% to {100 * three['after'].max():.1f}%") in said[0], said
    table = level_table(c)
    assert table.height == 36 and table["Cell"].to_list() == c.cells
    assert table.columns == ["Cell", "Seigneur side: before → after", "Seigneur side: change (interval), verdict"]
    r = side.row(0, named=True)
    assert table.row(0, named=True)["Seigneur side: before → after"] == \
        f"{100 * r['before']:.1f}% → {100 * r['after']:.1f}%"
    assert table.row(0, named=True)["Seigneur side: change (interval), verdict"].endswith(f", {r['verdict']}")
    assert LEVEL_TABLE == "Per cell, before → after"


def test_the_change_figure_of_many_cells_labels_a_row_a_cell_without_a_legend_of_cells():
    """s37 #3: 36 bars a group, colours repeating every 8 cells, a legend cut off after 25 cells,
    and "constrained_layout not applied"."""
    import io

    import matplotlib
    from PIL import Image

    from reports.figures.common import RC, render
    from reports.panel import change_figure

    c = _side_comparison()
    with matplotlib.rc_context(RC), warnings.catch_warnings():
        warnings.simplefilter("error")
        fig = change_figure(c)
        png = render(fig, "png")
    assert Image.open(io.BytesIO(png)).size[0] > 0
    drawn = [ax for ax in fig.axes if ax.get_visible() and ax.axison]
    assert len(drawn) == c.rows["item"].n_unique()                  # one panel per side or seat's share
    labels = [t.get_text() for t in drawn[0].get_yticklabels()]
    assert labels == c.cells                                         # every cell, labelled, in order
    texts = [t.get_text() for leg in [*fig.legends, *[ax.get_legend() for ax in fig.axes if ax.get_legend()]]
             for t in leg.get_texts()]
    assert not any(cell in texts for cell in c.cells), texts          # no legend of cells
    assert len(texts) <= 3, texts
    # no colour stands for a cell: the points are black (clear) or grey (within noise)
    colours = {matplotlib.colors.to_hex(line.get_color()) for ax in drawn for line in ax.lines
               if line.get_marker() == "o"}
    assert colours <= {"#000000", "#999999"}, colours


def test_the_change_figure_of_a_few_cells_keeps_its_bars():
    from reports.panel import change_figure

    c = _side_comparison(6)
    fig = change_figure(c)
    legend = fig.axes[0].get_legend()
    assert legend is not None and set(c.cells) <= {t.get_text() for t in legend.get_texts()}


def test_the_balance_sentence_summarises_many_untold_cells_and_its_question_reads():
    """s37 #3: 32 cell names after "these games cannot tell in …", and "(1/k, the cell's own a
    seat)"."""
    from reports.panel import balance_sentence

    labels = _labels()
    bal = pl.DataFrame([{"cell": lab, "what": "Censitaire", "fair": 1 / (int(lab[0]) - 1), "before": 0.05,
                         "after": 0.05 + 0.001 * k, "change": 0.001 * k, "change_low": -0.05, "change_high": 0.06,
                         "verdict": stats.NOT_SHOWN, "family": 216, "before_low": 0.0, "before_high": 0.1,
                         "after_low": 0.0, "after_high": 0.1, "before_seat": 2, "after_seat": 2,
                         "before_signed_gap": 0.05, "after_signed_gap": 0.05 + 0.001 * k}
                        for k, lab in enumerate(labels)])
    text = balance_sentence(bal, 0.01)
    assert text.startswith("Toward or away from an equal split of the Censitaires' wins (1/k a seat, k the "
                           "cell's own number of them)?"), text
    assert "These games cannot tell in any of the 36 cells" in text, text
    assert "5.0 pp before, 5.0 to 8.5 pp after, over the cells" in text, text
    assert sum(lab in text for lab in labels) <= 6, [lab for lab in labels if lab in text]


def test_the_panel_command_prints_the_pages_lead(tmp_path, undrawn):
    """balance report PANEL printed only the page's path (a run's report prints its answer): the
    command now prints the page's lead, the side finding first."""
    from in_process import balance
    from tests.reports.test_panel_roles import _cell

    d = tmp_path / "panel"
    _cell(d / "cell-1", (1, 1, 1), seigneur_wins=600, lineup=("greedy-lord", "dutiful"))
    _cell(d / "cell-2", (1, 1, 1), seigneur_wins=20, seed=4)
    done = balance("report", d, "--out", tmp_path / "page")
    lines = done.stdout.splitlines()
    lead = _lead(tmp_path / "page" / "report.html")
    assert lines[0].endswith("a panel of 2 cells:"), lines
    assert [x.strip() for x in lines[1:1 + len(lead)]] == lead, (lines, lead)
    assert lines[1].strip().startswith("The finding, by side: the Seigneur's win share"), lines
    assert lines[-1] == f"report: {tmp_path / 'page' / 'report.html'}", lines
