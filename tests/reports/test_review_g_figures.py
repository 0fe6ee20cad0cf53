"""Figures of designer review G: the Objective-card legend hides no bar or interval and lists only
the groups drawn; a game-length bar stands on its whole number of turns (the "Median 7" line in the
middle of the 7-turn bar, not on its edge); the score figure says what its cut axis leaves out under
the axis, by the last whole score the axis shows; seats that keep different bots are labelled with
their bot, in the seat and the role figures; the Seigneur's 0% before the land improvements, certain
by the rules, is drawn without an interval. Each test draws (lays out) only the figure it checks."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import LineCollection
from matplotlib.transforms import Bbox

from reports.figures import common as F
from reports.figures import seigneurial as FS
from reports.figures.checklist import SAVED_DPI, problems

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def _laid_out(fig):
    """``fig`` laid out as the report saves it; its renderer."""
    FigureCanvasAgg(fig)
    fig.dpi = SAVED_DPI
    fig.draw_without_rendering()
    return fig.canvas.get_renderer()


def _data_boxes(ax, renderer) -> list[Bbox]:
    """The display boxes of every bar, every error-bar segment and every cap of ``ax``."""
    boxes = [p.get_window_extent(renderer) for p in ax.patches]
    for c in ax.collections:
        if isinstance(c, LineCollection):
            for seg in c.get_segments():
                pts = ax.transData.transform(np.asarray(seg, float))
                boxes.append(Bbox([pts.min(axis=0), pts.max(axis=0)]))
    boxes += [ln.get_window_extent(renderer) for ln in ax.lines if ln.get_transform() == ax.transData]
    return boxes


def _legends(fig):
    return list(fig.legends) + [ax.get_legend() for ax in fig.axes if ax.get_legend() is not None]


# ---------------------------------------------------------------------------------------------
# 1. Objective cards: the legend hides nothing, lists only the groups drawn

def _objectives(significant=None) -> dict:
    """The 3-player review's cards: nine easier ones near 55-60%, the "each type ≥ 4" card at
    20.9% at the bottom, the average Censitaire at 47.7%."""
    share = [0.598, 0.588, 0.573, 0.572, 0.564, 0.552, 0.552, 0.549, 0.540, 0.209]
    n = len(share)
    sig = [True] * n if significant is None else significant
    return {"objectives": pl.DataFrame({
        "objective": list(range(n)), "label": [f"card {i}" for i in range(n)],
        "cards": [f"#{i + 1}" for i in range(n)],
        "win_share": share, "ci_low": [s - 0.016 for s in share], "ci_high": [s + 0.016 for s in share],
        "censitaire_share": [0.477] * n, "diff": [s - 0.477 for s in share], "significant": sig})}


def test_the_objective_legend_covers_no_bar_and_no_interval():
    """Review G #1: the legend box (lower right) covered the hardest card's bar end and its
    interval (20.9% at 3 players)."""
    fig = FS.objectives(_objectives(), how="Holm over the 10 distinct cards")
    renderer = _laid_out(fig)
    ax = fig.axes[0]
    boxes = _data_boxes(ax, renderer)
    assert len(boxes) >= 20                 # the bars and their intervals are all measured
    for leg in _legends(fig):
        lb = leg.get_window_extent(renderer)
        hidden = [b for b in boxes if lb.overlaps(b)]
        assert not hidden, f"the legend {lb} covers {hidden[:3]}"
    assert problems(fig) == []


def test_the_objective_legend_lists_only_the_groups_drawn():
    fig = FS.objectives(_objectives())
    labels = [t.get_text() for leg in _legends(fig) for t in leg.get_texts()]
    assert not any(x.startswith("Not clear") for x in labels), labels
    assert any(x.startswith("Easier") for x in labels) and any(x.startswith("Harder") for x in labels)
    fig = FS.objectives(_objectives([True] * 5 + [False] * 5))
    labels = [t.get_text() for leg in _legends(fig) for t in leg.get_texts()]
    assert any(x.startswith("Not clear") for x in labels), labels


def test_objective_cards_are_numbered_from_one_in_the_figure():
    t = _objectives()
    t["objectives"] = t["objectives"].drop("cards")   # the raw table: 0-based ``objective``
    fig = FS.objectives(t)
    ticks = [x.get_text() for x in fig.axes[0].get_yticklabels()]
    assert ticks[-1] == "#1: card 0" and ticks[0] == "#10: card 9", ticks


# ---------------------------------------------------------------------------------------------
# 2. Game length: a bar centred on its whole number of turns

def _length() -> dict:
    turns = np.arange(3, 13)
    share = np.array([3, 7, 4, 19, 30, 16, 6, 8, 4, 3], float) / 100
    d = pl.DataFrame({"turns_from": turns, "turns_to": turns, "label": ["Censitaire objective"] * len(turns),
                      "share": share})
    length = pl.DataFrame({"mean_turns": [7.2], "median": [7.0]})
    return {"length_distribution": d, "length": length}


def test_a_game_length_bar_stands_on_its_number_and_the_median_line_in_its_middle():
    """Review G #2: bars covered [n, n + 1), so the 30% bar of 7-turn games sat between ticks 7
    and 8 and the "Median 7" line fell on its left edge."""
    fig = F.game_length(_length())
    ax = fig.axes[0]
    bars = [p for p in ax.patches if p.get_height() > 0]
    tallest = max(bars, key=lambda p: p.get_height())
    assert tallest.get_height() == pytest.approx(0.30)
    assert tallest.get_x() + tallest.get_width() / 2 == pytest.approx(7.0)
    median = next(ln for ln in ax.lines if ln.get_label() == "Median 7")
    assert median.get_xdata()[0] == pytest.approx(7.0)
    assert tallest.get_x() < 7.0 - 0.4 and tallest.get_x() + tallest.get_width() > 7.0 + 0.4


# ---------------------------------------------------------------------------------------------
# 3. Scores: the note below the axes, agreeing with the axis

def _mv_scores() -> dict:
    """Médiévallons-like guild-card counts, about 20,000 players a seat, 6 of them above 13."""
    rows = []
    base = {0: 1340, 3: 5600, 4: 1300, 5: 130, 6: 5600, 7: 1300, 8: 220, 9: 3500, 10: 700, 11: 240,
            12: 50, 13: 18}
    for s in range(1, 5):
        counts = dict(base)
        counts[14] = 2 if s <= 3 else 0
        total = sum(counts.values())
        rows += [{"group": f"Seat {s}", "score": k, "players": v, "share": v / total}
                 for k, v in counts.items() if v]
    return {"scores_by_seat": pl.DataFrame(rows)}


def test_the_score_note_is_under_the_axes_and_agrees_with_the_axis():
    """Review G #3: the "Not shown … 6 above 13 (up to 14) guild cards" note was drawn over a
    seat's line, inside the axes, and the axis ran to 14 though the note said scores above 13 were
    hidden."""
    t = _mv_scores()
    fig = F.scores(t, unit="guild cards")
    ax = fig.axes[0]
    assert not [x.get_text() for x in ax.texts if "Not shown" in x.get_text()], "a note inside the axes"
    label = ax.get_xlabel()
    total = int(t["scores_by_seat"]["players"].sum())
    assert f"Not shown, of {total:,} players" in label and "6 above 13 (up to 14) guild cards" in label, label
    lo, hi = ax.get_xlim()
    assert hi == pytest.approx(13.5)          # the last whole score shown is the note's 13
    assert lo == pytest.approx(-0.5)          # a score's bin centred on it: 0 over [−½, ½)
    step = ax.patches[0]                      # a seat's step line ends where the axis does
    assert step.get_data().edges[-1] == pytest.approx(hi)
    assert problems(fig) == []


# ---------------------------------------------------------------------------------------------
# 4. Seats that keep different bots are labelled with their bot

def _fixed_seats(bots=("balanced", "collector", "saboteur", "random"), confounded=True) -> dict:
    """Seat tables of a run whose seats hold ``bots``; with ``confounded`` (no rotation) the
    analysis's ``seat_bots`` table names each seat's bot (:func:`analysis.matchups.seat_bot_table`,
    checked on real runs in test_review_g_lineups.py)."""
    n = len(bots)
    seats = pl.DataFrame({"seat": list(range(n)), "seat_label": [f"Seat {s}" for s in range(1, n + 1)],
                          "win_share": [0.55, 0.25, 0.18, 0.02][:n], "ci_low": [0.54, 0.24, 0.17, 0.01][:n],
                          "ci_high": [0.56, 0.26, 0.19, 0.03][:n], "fair_share": [1 / n] * n,
                          "mean_score": [7.0, 5.0, 4.0, 2.0][:n], "score_ci_low": [6.9, 4.9, 3.9, 1.9][:n],
                          "score_ci_high": [7.1, 5.1, 4.1, 2.1][:n]})
    t = {"seats": seats}
    if confounded:
        t["seat_bots"] = pl.DataFrame({"seat": pl.Series(range(n), dtype=pl.Int8), "bot": list(bots)})
    return t


def test_seat_bots_reads_each_seats_bot_when_the_bots_keep_their_seats():
    assert F.seat_bots(_fixed_seats()) == ["balanced", "collector", "saboteur", "random"]
    assert F.seat_bots(_fixed_seats(confounded=False)) is None        # rotated seats, or one bot


def test_the_seat_figure_names_each_seats_bot_only_when_bots_differ_on_fixed_seats():
    """Review G #4: with balanced, collector, saboteur and random on fixed seats, the seat figure
    said "Seat 4" (1.7%) with no bot, though the share is mostly the random bot's weakness."""
    fig = F.seat_advantage(_fixed_seats(), unit="guild cards")
    ticks = [x.get_text() for x in fig.axes[0].get_xticklabels()]
    assert ticks == ["Seat 1\n(balanced)", "Seat 2\n(collector)", "Seat 3\n(saboteur)", "Seat 4\n(random)"]
    assert [x.get_text() for x in fig.axes[1].get_xticklabels()] == ticks
    fig = F.seat_advantage(_fixed_seats(confounded=False), unit="guild cards")
    assert [x.get_text() for x in fig.axes[0].get_xticklabels()] == [f"Seat {s}" for s in range(1, 5)]


def test_the_role_figure_names_each_censitaire_seats_bot():
    t = _fixed_seats(("harsh-lord", "objective", "dutiful", "hoarder"))
    t["roles"] = pl.DataFrame({"role": ["seigneur", "censitaire"], "role_label": ["Seigneur", "Censitaire"],
                               "seats": [1, 3], "players": [4, 4], "win_share": [0.0, 1.0],
                               "ci_low": [0.0, 0.9998], "ci_high": [0.0002, 1.0]})
    t["role_seats"] = pl.DataFrame({
        "role": ["seigneur"] + ["censitaire"] * 3, "role_label": ["Seigneur"] + ["Censitaire"] * 3,
        "seat": [0, 1, 2, 3], "seat_label": [f"Seat {s}" for s in range(1, 5)],
        "share_of_role": [float("nan"), 0.448, 0.265, 0.288], "share_low": [float("nan"), 0.44, 0.258, 0.282],
        "share_high": [float("nan"), 0.455, 0.271, 0.294], "equal_share": [1.0, 1 / 3, 1 / 3, 1 / 3]})
    fig = F.role_advantage(t)
    ticks = [x.get_text() for x in fig.axes[1].get_xticklabels()]
    assert ticks == ["Seat 2 (objective)\nCensitaire", "Seat 3 (dutiful)\nCensitaire",
                     "Seat 4 (hoarder)\nCensitaire"], ticks


# ---------------------------------------------------------------------------------------------
# 5. A share certain by the rules has no interval

def test_the_seigneurs_zero_before_the_improvements_is_drawn_without_an_interval():
    """Review G #5: the table said "0% (certain by the rules)" while the figure drew "0.0%" with
    an error bar."""
    d = pl.DataFrame({"period": ["before", "after"], "label": ["Ended before", "Reached them"],
                      "games": [13883, 6117], "share": [0.694, 0.306], "ci_low": [0.688, 0.300],
                      "ci_high": [0.700, 0.312], "seigneur_wins": [0.0, 82.0], "seigneur_share": [0.0, 0.013],
                      "seigneur_ci_low": [0.0, 0.011], "seigneur_ci_high": [0.0003, 0.017]})
    fig = FS.improvements({"improvements": d}, certain_before=True)
    ax2 = fig.axes[1]
    xs = [float(np.mean(seg[:, 0])) for c in ax2.collections if isinstance(c, LineCollection)
          for seg in map(np.asarray, c.get_segments())]
    assert xs == [pytest.approx(1.0)], xs      # one interval: the games that reached them
    words = [t.get_text() for t in ax2.texts]
    assert any("certain by" in w and "no interval" in w for w in words), words
    assert not any(w == "0.0%" for w in words), words
    fig = FS.improvements({"improvements": d})          # not said certain: both measured
    assert len([1 for c in fig.axes[1].collections if isinstance(c, LineCollection)
                for _ in c.get_segments()]) == 2


def test_the_seigneurs_small_share_is_drawn_on_an_axis_zoomed_to_it():
    """Review Y #9: the Seigneur's 0.8% in games that reached the improvements was a pixel high on
    a 0–100% axis. His panel runs from 0 to a little above his larger interval end, says it is
    zoomed, writes his share, and passes the figure checklist."""
    from reports.figures.checklist import problems

    d = pl.DataFrame({"period": ["before", "after"], "label": ["Ended before", "Reached them"],
                      "games": [13883, 6117], "share": [0.694, 0.306], "ci_low": [0.688, 0.300],
                      "ci_high": [0.700, 0.312], "seigneur_wins": [0.0, 49.0], "seigneur_share": [0.0, 0.008],
                      "seigneur_ci_low": [0.0, 0.006], "seigneur_ci_high": [0.0003, 0.0106]})
    fig = FS.improvements({"improvements": d}, certain_before=True)
    ax2 = fig.axes[1]
    assert ax2.get_ylim()[1] == pytest.approx(0.0106 * 1.3) and "zoomed" in ax2.get_title()
    assert "0.8%" in [t.get_text() for t in ax2.texts]
    assert problems(fig) == [], problems(fig)
