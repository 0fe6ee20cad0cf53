"""Figures of the Seigneurial report sections: objective cards (SG-2) and the land improvements
(SG-5.6), drawn from the tables of :mod:`analysis.games.seigneurial`. Each returns ``None`` when
its table is absent.

May import matplotlib (Agg), numpy, polars and :mod:`reports.figures.common`.
"""

from __future__ import annotations

import numpy as np
import polars as pl
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from reports.figures.common import (
    FAIR, OKABE_ITO, bar_label, error_bars, new_figure, percent_axis, styled, subplots,
)


@styled
def objectives(t: dict, how: str = "95% interval, unadjusted") -> Figure | None:
    """Win share of a Censitaire by Objective card (95% intervals), hardest at the bottom, against
    the average Censitaire; a card is coloured easier or harder when its ``significant`` says it is
    clear of the average (the report passes the verdict adjusted over the cards, ``how`` names the
    adjustment in the legend)."""
    if "objectives" not in t or t["objectives"].height == 0:
        return None
    o = t["objectives"].sort("win_share")
    fig = new_figure(9, 0.45 * o.height + 1.8)
    ax = subplots(fig)
    y = np.arange(o.height)
    p = o["win_share"].to_numpy()
    colours = [OKABE_ITO[5] if s and d < 0 else OKABE_ITO[2] if s else OKABE_ITO[0]
               for s, d in zip(o["significant"].to_list(), o["diff"].to_list())]
    ax.barh(y, p, color=colours, height=0.65,
            xerr=error_bars(o["ci_low"], p, o["ci_high"]), capsize=3, ecolor="black")
    avg = float(o["censitaire_share"][0])
    ax.axvline(avg, color=FAIR, linestyle="--", linewidth=1.5, label=f"Average Censitaire ({100 * avg:.1f}%)")
    ax.set_yticks(y, [f"#{i}: {lab}" for i, lab in zip(o["objective"].to_list(), o["label"].to_list())])
    ax.set_xlabel("Win share of a Censitaire holding the card (95% intervals)")
    ax.set_xlim(0, max(float(o["ci_high"].max()) * 1.15, avg * 1.5))
    percent_axis(ax, "x")
    handles, _ = ax.get_legend_handles_labels()
    handles += [Patch(color=OKABE_ITO[2], label=f"Easier (clear above the average, {how})"),
                Patch(color=OKABE_ITO[5], label=f"Harder (clear below the average, {how})"),
                Patch(color=OKABE_ITO[0], label="Not clear of the average")]
    ax.legend(handles=handles, loc="lower right", fontsize=8)
    ax.set_title("Objective cards: how often their holder wins")
    return fig


@styled
def improvements(t: dict) -> Figure | None:
    """How many games reach the land improvements, and the Seigneur's win share in games that end
    before them against games that reach them."""
    if "improvements" not in t:
        return None
    d = t["improvements"]
    fig = new_figure(10, 4.2)
    ax, ax2 = subplots(fig, 1, 2)
    x = np.arange(d.height)
    labels = ["Ended before", "Reached them"]
    share = d["share"].to_numpy()
    ax.bar(x, share, color=[OKABE_ITO[4], OKABE_ITO[0]], width=0.6,
           yerr=error_bars(d["ci_low"], share, d["ci_high"]), capsize=5, ecolor="black")
    for xi, v in zip(x, share):
        bar_label(ax, xi, v)
    ax.set_xticks(x, labels)
    ax.set_ylim(0, 1.0)
    percent_axis(ax)
    ax.set_ylabel("Share of games")
    ax.set_title("Games and the land improvements")
    s = d["seigneur_share"].cast(float).to_numpy()
    ok = ~np.isnan(s)
    ax2.bar(x[ok], s[ok], color=[OKABE_ITO[4], OKABE_ITO[0]][: ok.sum()] if ok.all() else OKABE_ITO[0],
            width=0.6, yerr=error_bars(d["seigneur_ci_low"].to_numpy()[ok], s[ok],
                                        d["seigneur_ci_high"].to_numpy()[ok]), capsize=5, ecolor="black")
    for xi, v in zip(x[ok], s[ok]):
        bar_label(ax2, xi, v)
    ax2.set_xticks(x, labels)
    ax2.set_ylim(0, 1.0)
    percent_axis(ax2)
    ax2.set_ylabel("Seigneur's win share")
    ax2.set_title("Seigneur's win share, by whether the game\nreached the improvements (95% intervals)")
    return fig


@styled
def final_squares(sq: pl.DataFrame) -> Figure | None:
    """The Seigneur's square on the rent track at the end of the game: share of games per square."""
    if sq.height == 0:
        return None
    from reports.figures.checklist import integer_axis

    fig = new_figure(8, 3.8)
    ax = subplots(fig)
    x = sq["square"].to_numpy()
    share = sq["share"].to_numpy()
    ax.bar(x, share, color=OKABE_ITO[0], width=0.7)
    ax.set_xlim(float(x.min()) - 0.6, float(x.max()) + 0.6)
    ax.set_ylim(0, min(1.0, max(float(share.max()) * 1.2, 0.05)))
    integer_axis(ax, "x")
    percent_axis(ax)
    ax.set_xlabel("The Seigneur's square on the rent track at the end")
    ax.set_ylabel("Share of games")
    ax.set_title("Where the Seigneur ends")
    return fig
