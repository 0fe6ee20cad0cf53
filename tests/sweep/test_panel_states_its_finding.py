"""The panel page says what its finding is before saying whether it holds (revD #10, #11): which
seat and why that one (furthest from 1/P on average over the cells), one sentence per cell on the
finding's seat and the largest gap among the other seats, worded by size on the interval adjusted
over the panel (checked against statsmodels' Wilson interval at level 1 − 0.05/m), a per-cell call
column, "in both" rather than "in all 2 of them", one "Every cell" heading, and the seats as
"Seat 1…" in the run page's colours.

The synthetic panel is the review's (/tmp/revD/pan): 3 cells of 4×balanced, 4×greedy and
4×eventwise at 20,000 games each."""

from __future__ import annotations

import pytest
import re
from types import SimpleNamespace

import numpy as np
import polars as pl
from statsmodels.stats.proportion import proportion_confint

from analysis import panel
from analysis.stats import practical

GAMES = 20000
SHARES = {"4p 4×balanced": (0.1986, 0.2500, 0.3011, 0.2504),
          "4p 4×greedy": (0.1962, 0.2480, 0.2760, 0.2798),
          "4p 4×eventwise": (0.2744, 0.2440, 0.2406, 0.2410)}
ALIKE = SimpleNamespace(roles_alike=True)


def _cells(shares=SHARES) -> pl.DataFrame:
    rows = []
    for k, (label, xs) in enumerate(shares.items()):
        for s, x in enumerate(xs, start=1):
            lo, hi = proportion_confint(round(x * GAMES), GAMES, alpha=0.05, method="wilson")
            rows.append({"cell": k, "label": label, "players": 4, "games": GAMES, "run": f"r{k}",
                         "metric": f"seat_win_share_{s}", "what": f"seat {s}'s win share", "share": True,
                         "estimate": round(x * GAMES) / GAMES, "low": lo, "high": hi, "fair": 0.25})
    return pl.DataFrame(rows)


def _size(x: float, m: int = 12) -> str:
    """The independent wording: statsmodels' Wilson interval at 1 − 0.05/m, minus 1/P, by size."""
    lo, hi = proportion_confint(round(x * GAMES), GAMES, alpha=0.05 / m, method="wilson")
    clear = lo > 0.25 or hi < 0.25
    return str(np.atleast_1d(practical(x - 0.25, lo - 0.25, hi - 0.25, 0.01 - 1e-12, clear=np.array([clear])))[0]) \
        if clear else "within noise"


def test_the_page_says_which_seat_the_finding_is_about_and_why_first():
    # Seat 1 is clearly below 1/P in two cells, clearly above in 4×eventwise: no side is stated for
    # the panel (revF #10), each cell's side and gap is
    text = panel.finding_statement(_cells(), ALIKE)
    assert text.startswith("The finding: Seat 1 is furthest from a fair seat share (1/P = 25%) on average "
                           "over the panel's 3 cells (−2.7 pp), but not on one side of it: below in "
                           "4p 4×balanced and 4p 4×greedy (−5.1 pp, −5.4 pp) and above in 4p 4×eventwise "
                           "(+2.4 pp)"), text
    # why this seat: its mean gap from 1/P (not its win shares) against the next seat's (review G #2)
    assert "wins less" not in text and "(19.9%, 19.6%, 27.4%)" not in text
    assert ("its mean gap from 1/P (win share minus the cell's own 1/P, averaged over the cells), "
            "−2.7 pp, is the largest in size of any seat's (the next, Seat 3: +2.3 pp)") in text, text
    assert "adjusted over every seat of every cell" in text
    # the sides are the adjusted intervals' (statsmodels' Wilson at 1 − 0.05/12)
    assert [_size(x) != "within noise" for x in (0.1986, 0.1962, 0.2744)] == [True, True, True]


def test_when_no_cell_reverses_it_the_finding_states_a_side():
    cells = _cells({**SHARES, "4p 4×eventwise": (0.2530, 0.2490, 0.2480, 0.2500)})
    text = panel.finding_statement(cells, ALIKE)
    # (clear below fair in 2 of the 3 cells: the statement says where it is clear)
    assert text.startswith("The finding, clear in 2 of the 3 cells: Seat 1 wins less than a fair seat share (1/P = 25%). Seat 1 is the "
                           "seat picked because its win share is furthest from 1/P on average over the "
                           "panel's 3 cells: −3.4 pp on average (its gap from 1/P: −5.1 pp in 4p 4×balanced, "
                           "−5.4 pp in 4p 4×greedy, +0.3 pp in 4p 4×eventwise; the next, Seat 3"), text


def test_every_cell_gets_a_sentence_on_its_largest_gaps_worded_by_size():
    text = panel.largest_gaps(_cells())
    sentences = re.findall(r"In 4p 4×\w+, Seat 1 wins", text)
    assert len(sentences) == 3, text
    # the review's gaps: Seat 3 at +5.1 pp in 4×balanced, Seat 4 at +3.0 pp in 4×greedy, and Seat 1
    # at +2.4 pp in 4×eventwise, each with the cell's own (unadjusted) interval and its size
    assert (f"the largest gap among the other seats is Seat 3's: 30.1% (29.5–30.7), 5.1 pp above 1/P: "
            f"{_size(0.3011)} (adjusted interval +4.2 pp to +6.0 pp)") in text, text
    assert f"Seat 4's: 28.0% (27.4–28.6), 3.0 pp above 1/P: {_size(0.2798)}" in text, text
    assert f"In 4p 4×eventwise, Seat 1 wins 27.4% (26.8–28.1), 2.4 pp above 1/P: {_size(0.2744)}" in text
    # Seat 3 in 4×eventwise, 0.9 pp below: clear, and its adjusted interval reaches both sides of 1 pp
    assert f"Seat 3's: 24.1% (23.5–24.7), 0.9 pp below 1/P: {_size(0.2406)}" in text, text
    assert _size(0.2406) == "clear, may matter"
    assert "unadjusted" in text and "adjusted over the panel" in text


def test_the_cell_table_has_the_findings_call_in_each_cell():
    cells = _cells({**SHARES, "4p 4×eventwise": (0.2530, 0.2490, 0.2480, 0.2500)})
    calls, title = panel.cell_calls(cells)
    assert title.startswith("Seat 1 against 1/P") and "adjusted over the panel" in title
    assert calls == {0: f"below 1/P: {_size(0.1986)}", 1: f"below 1/P: {_size(0.1962)}",
                     2: "unclear (within noise)"}
    from reports.panel import _cell_metric_table

    table = _cell_metric_table(cells, calls, title)
    assert table.columns[3] == title and table[title].to_list() == list(calls.values())
    assert "Seat 1's win share" in table.columns          # "Seat", as in the figure and on a run's page


def test_two_cells_of_one_size_read_in_both():
    text = panel.finding(_cells(), ALIKE, n=3, smallest=0.01)
    assert "in 2 of 3 cells (1 above, 2 below); by at least 1 pp (clear and large enough to matter) in both;" \
        in text, text
    assert "all 2" not in text


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_page_has_one_every_cell_heading_and_the_run_pages_seat_colours(tmp_path, monkeypatch):
    from matplotlib.colors import to_hex

    from reports import panel as page
    from reports.figures.common import OKABE_ITO

    cells = _cells()
    fig = page.seat_share_figure(cells, list(SHARES))
    legend = fig.axes[0].get_legend()
    names = [t.get_text() for t in legend.get_texts()]
    assert names == ["Seat 1", "Seat 2", "Seat 3", "Seat 4"]
    colours = [to_hex(h.lines[0].get_color() if hasattr(h, "lines") else h.get_color())
               for h in legend.legend_handles]
    assert colours == [c.lower() for c in OKABE_ITO[:4]]          # Seat 4 pink, as on a run's page

    calls, title = panel.cell_calls(cells)
    lead = [panel.finding_statement(cells, ALIKE), panel.finding(cells, ALIKE, 3), panel.largest_gaps(cells)]
    table = panel.PanelTable("middle-ages", cells, list(SHARES), " ".join(lead), 0.01, False, lead, calls, title)
    monkeypatch.setattr(page, "panel_table", lambda paths, smallest=None: table)
    html = page.build_panel_report([], tmp_path / "rep").read_text(encoding="utf-8")
    assert html.count(">Every cell<") == 1, re.findall(r"<h\d[^>]*>[^<]*</h\d>", html)
    text = re.sub(r"<[^>]+>", "", html)          # (the lead's answer is in bold, the rest not)
    assert text.index("The finding: Seat 1") < text.index("The finding does not hold")
