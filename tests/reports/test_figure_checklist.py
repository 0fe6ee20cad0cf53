"""Every figure of a real report of every game passes the checklist of docs/reports.md.

The checks (:mod:`reports.figures.checklist`) measure the drawn figure: text inside the figure's box,
one unit per axis label, whole-number ticks on integer settings, share axes within 0–100%, a zoomed
axis saying so; and every section with data shows a figure or a sentence. The checker itself is
shown each mistake once (a cut title, a 110% share axis, a 0.5 tick, a silent zoom, two units).

Middle-Ages, Médiévallons and Seigneurial: the same checks are made
(tests/reports/figure_checks.py) of the real before/after reports that test_report_words_pdf.py
(Middle-Ages, Caserne payment 2 → 4), test_report_medievallons.py (Médiévallons, one Chevalier
fewer) and test_review_l_comparison.py (Seigneurial, the Seigneur's start square 0 → 1, with the
Seigneurial sections' checks below) build anyway, every figure of the game's report among them;
their cases here, on runs of their own (3,000 games each side, about 5 s of CPU for the three
games' runs, analyses and figures), run under `make test-slow`, as do those before/afters; Fief's
case here runs in `make test`, the one real report whose figures the fast tier checks.
"""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.figure import Figure

from analysis import analyse, open_runs
from analysis.compare import compare_tables
from reports.figures.checklist import integer_axis, problems
from reports.figures.common import percent_axis
from reports.sections import build_sections
from simcore import runner
from figure_checks import checklist_breaches, seigneurial_sections_missing, sections_showing_nothing

CASES = {
    "middle-ages": ({}, {"settings": ["income.palais.base=4", "setup.start_coins=[0, 0, 3, 0]"]}),
    "medievallons": ({}, {"settings": ["deck.copies.chevalier=7"]}),
    "seigneurial": ({}, {"settings": ["track.start_square=2"], "strategies": "random"}),
    "fief-combat": ({}, {"attacker": 12}),
}


# the games checked here under make test-slow (Fief's case runs in make test: the module docstring)
SLOW = {"middle-ages", "medievallons", "seigneurial"}
GAMES = [pytest.param(g, marks=pytest.mark.slow) if g in SLOW else g for g in CASES]


class _Reports(dict):
    """Each game's (sections, figures), built when a test first asks for it."""

    def __init__(self, root):
        super().__init__()
        self.root = root

    def __missing__(self, game):
        base_kw, var_kw = CASES[game]
        n = 20_000 if game == "fief-combat" else 3000
        b = runner.simulate(game, games=n, seed=3, out=self.root / f"{game}-base", quiet=True, **base_kw)
        v = runner.simulate(game, games=n, seed=4, out=self.root / f"{game}-var", quiet=True, **var_kw)
        rb, rv = open_runs([b]), open_runs([v])
        tb, tv = analyse(rb), analyse(rv)
        self[game] = build_sections(tb, rb, [(rv.label, compare_tables(tb, tv), tv)], variants=[rv])
        return self[game]


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    return _Reports(tmp_path_factory.mktemp("checklist"))


@pytest.mark.parametrize("game", GAMES)
def test_every_figure_passes_the_checklist(reports, game):
    _, figs = reports[game]
    assert figs
    found = checklist_breaches(figs)
    assert not found, "\n".join(found)


@pytest.mark.parametrize("game", GAMES)
def test_every_section_with_data_has_a_figure_or_a_sentence(reports, game):
    secs, _ = reports[game]
    empty = sections_showing_nothing(secs)
    assert not empty, empty


@pytest.mark.slow       # (also: test_review_l_comparison.py's Seigneurial before/after, slow too)
def test_seigneurial_sections_named_in_the_issue_show_something(reports):
    secs, figs = reports["seigneurial"]
    assert not seigneurial_sections_missing(secs, figs)


def test_the_checker_measures_at_the_dpi_the_report_saves_at():
    from reports.figures import checklist, common

    assert checklist.SAVED_DPI == common.DPI


# -- the checker catches each mistake ------------------------------------------------------------

def _fig() -> Figure:
    fig = Figure(figsize=(4, 3), layout="constrained")
    fig.subplots()
    return fig


def test_checker_finds_a_cut_title():
    fig = _fig()
    fig.axes[0].set_title("A title far too long to fit in a small figure of four inches, so cut off")
    assert any("cut off" in p for p in problems(fig))


def test_checker_finds_a_share_axis_past_100_percent():
    fig = _fig()
    ax = fig.axes[0]
    ax.bar([0, 1], [0.5, 0.99])
    percent_axis(ax)
    assert not problems(fig)                      # percent_axis keeps it within 0–100%
    ax.set_ylim(0, 1.2)
    assert any("not within 0–100%" in p for p in problems(fig))


@pytest.mark.parametrize("top, labels", [
    (0.38, ["0%", "10%", "20%", "30%"]),          # matplotlib's own steps gave 0.0%, 6.0%, 12.0% …
    (0.95, ["0%", "20%", "40%", "60%", "80%"]),
    (0.03, ["0.0%", "0.5%", "1.0%", "1.5%", "2.0%"]),
])
def test_a_share_axis_ticks_at_round_percentages_with_the_decimals_they_need(top, labels):
    fig = _fig()
    ax = fig.axes[0]
    ax.plot([0, 1], [0.0, top])
    percent_axis(ax)
    fig.canvas.draw()
    shown = [t.get_text() for t in ax.get_yticklabels() if t.get_text()]
    assert shown[:len(labels)] == labels


def test_checker_finds_half_ticks_on_an_integer_setting():
    fig = _fig()
    ax = fig.axes[0]
    ax.plot([3, 4], [1.0, 2.0])
    assert not problems(fig)
    ax._balance_integer = {"x"}                   # marked integer, but matplotlib's default ticks
    assert any("integer setting" in p for p in problems(fig))
    integer_axis(ax, "x")
    assert not problems(fig)


def test_checker_finds_a_silent_zoom_and_two_units():
    fig = _fig()
    ax = fig.axes[0]
    ax.plot([1, 2, 3], [7.2, 7.3, 7.4])
    ax.set_ylabel("Mean game length (turns)")
    assert any("zoomed" in p for p in problems(fig))
    ax.set_ylabel("Turns (zoomed)")
    assert not problems(fig)
    ax.set_ylim(0, 8)
    ax.set_ylabel("Change (% of own goal or turns)")
    assert any("mixes units" in p for p in problems(fig))


def test_checker_finds_a_legend_over_bars():
    """Check 7: a legend drawn over the tallest bar is a breach; the same legend where no bar
    reaches is not (a game length histogram's legend once hid its tallest bars)."""
    for top, covered in ((1.0, True), (2.5, False)):
        fig = _fig()
        ax = fig.axes[0]
        ax.bar([0, 1, 2, 3], [1.0, 0.2, 0.2, 0.3], label="games")
        ax.plot([0, 3], [0.1, 0.1], label="a line")
        ax.set_ylim(0, top)
        ax.legend(loc="upper left")
        said = [p for p in problems(fig) if "legend" in p]
        assert bool(said) == covered, (top, said)
        if covered:
            assert said == ["panel 1: the legend covers 1 bar"], said
