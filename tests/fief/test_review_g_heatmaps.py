"""Designer review G, Fief heat maps (FF-7): the title fits and names each side's Lords, the levels'
legend sits off the cells, two break-even borders on the same cell edge both show, the levels'
lines are told apart by colour and width (not dashed against dotted), and the colour bar reads in %
like the legend. Small exact grids (milliseconds); the figure is measured as drawn by the figure
checklist's checker (docs/reports.md)."""

from __future__ import annotations

import re

import matplotlib.colors as mcolors
import numpy as np
import pytest

from reports.figures import fief as figs
from reports.figures.checklist import SAVED_DPI, problems
from simcore.games.fief.odds import odds_frame

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def _figure(rules, attackers, defenders, terrain, levels=(0.5, 0.75, 0.9), **kw):
    odds = odds_frame(rules, attackers, defenders, [terrain], **kw)
    return figs.heatmap_figure(odds, terrain, levels)


@pytest.fixture(scope="module")
def mercy_city(rules):
    """The reviewer's grid: ``--attackers 1-12 --defenders 1-8 --terrain city --mercy defender:2
    --lords-defender 1`` (its title was cut at both edges)."""
    return _figure(rules, range(1, 13), range(1, 9), "city", mercy=(-1, 2), lords_defender=1)


def _levels(fig):
    """Each level's core line (its rim, drawn under every core, is another artist: review fx04
    #3, tests/fief/test_fx04_heatmap_borders.py)."""
    ax = fig.axes[0]
    return [c for c in ax.collections if c.get_segments() is not None and str(c.get_gid()).startswith("level ")]


def _unit_edges(coll) -> set[tuple]:
    """The unit cell edges a level's (merged) segments cover."""
    out = set()
    for s in coll.get_segments():
        (x0, y0), (x1, y1) = np.round(s, 6)
        if x0 == x1:
            out |= {("v", x0, y) for y in np.arange(min(y0, y1), max(y0, y1), 1.0)}
        else:
            out |= {("h", y0, x) for x in np.arange(min(x0, x1), max(x0, x1), 1.0)}
    return out


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
@pytest.mark.parametrize("case", ["reviewer", "one cell", "four levels, every condition"])
def test_the_heat_map_passes_the_figure_checklist(rules, mercy_city, case):
    """No text cut off (the title lost "P(" on the 1-12 x 8 grid), at any grid size."""
    fig = {"reviewer": lambda: mercy_city,
           "one cell": lambda: _figure(rules, [1], [1], "open"),
           "four levels, every condition": lambda: _figure(
               rules, range(1, 9), range(1, 3), "castle", (0.5, 0.75, 0.9, 0.999), darc="defender",
               mercy=(1, 2), lords_attacker=3)}[case]()
    assert problems(fig) == []


def test_the_title_names_each_sides_lords_and_every_condition(rules, mercy_city):
    title = " ".join(mercy_city._suptitle.get_text().split())
    assert title.startswith("P(attacker wins), defender in a city (exact)"), title
    assert "Lords: attacker 1, defender 1" in title and "mercy defender:2" in title, title
    fig = _figure(rules, range(1, 9), range(1, 3), "castle", darc="defender", lords_attacker=3,
                  lords_defender=2)
    title = " ".join(fig._suptitle.get_text().split())
    # a 1-point army has one Lord at most: the title says the 3 are capped
    assert "Lords: attacker 3 (at most its points), defender 2 (at most its points)" in title, title
    assert "d'Arc with the defender" in title


def test_the_legend_sits_off_the_cells(mercy_city):
    """It sat on the bottom-right cells (lower right, inside the axes)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig = mercy_city
    fig.dpi = SAVED_DPI
    # the renderer of the canvas savefig draws on (Agg), whatever ran before: alone, the figure
    # had only the base canvas, which has none (an earlier test's savefig had attached Agg's)
    FigureCanvasAgg(fig)
    fig.draw_without_rendering()
    r = fig.canvas.get_renderer()
    legends = list(fig.legends) + [ax.get_legend() for ax in fig.axes if ax.get_legend()]
    assert legends
    cells = fig.axes[0].get_window_extent(r)
    for leg in legends:
        box = leg.get_window_extent(r)
        assert not box.overlaps(cells), (box, cells)


def test_coincident_borders_both_show(rules):
    """Open ground, defender 1: the 75 % and 90 % borders fall on the same edge (under 4
    attackers). Each later level is drawn narrower than every earlier one and in another colour,
    so the earlier line shows on both sides of the later (one had hidden the other)."""
    fig = _figure(rules, range(1, 7), range(1, 3), "open")
    lines = _levels(fig)
    assert len(lines) == 3
    edges = [_unit_edges(c) for c in lines]
    assert ("h", 3.5, 0.5) in edges[1] and ("h", 3.5, 0.5) in edges[2], edges   # both at 4 attackers
    shared = 0
    for i in range(3):
        for j in range(i + 1, 3):
            if edges[i] & edges[j]:
                shared += 1
                wi, wj = lines[i].get_linewidths()[0], lines[j].get_linewidths()[0]
                assert wi - wj >= 1.5, (i, j, wi, wj)      # ≥ 0.75 pt of the earlier each side
                assert not np.allclose(lines[i].get_colors()[0], lines[j].get_colors()[0])
    assert shared


def test_the_levels_lines_are_told_apart_by_colour_not_dash(mercy_city):
    lines = _levels(mercy_city)
    colours = [tuple(np.round(c.get_colors()[0], 3)) for c in lines]
    assert len(set(colours)) == len(lines), colours
    for c in lines:                                 # solid: a dash pattern has no offset None
        assert c.get_linestyle()[0][1] is None, c.get_linestyle()
    # the legend shows each level in its line's colour and width
    leg = mercy_city.legends[0]
    for handle, coll in zip(leg.legend_handles, lines):
        assert mcolors.to_rgba(handle.get_color()) == tuple(coll.get_colors()[0])
        assert handle.get_linewidth() == coll.get_linewidths()[0]


def test_the_colour_bar_reads_in_percent_like_the_legend(mercy_city):
    fig = mercy_city
    fig.draw_without_rendering()
    bar = fig.axes[1]
    ticks = [t.get_text() for t in bar.get_yticklabels() if t.get_text()]
    assert ticks and all(re.fullmatch(r"\d+%", t) for t in ticks), ticks
    assert "100%" in ticks and "0%" in ticks
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert labels == ["P ≥ 50%", "P ≥ 75%", "P ≥ 90%"], labels
