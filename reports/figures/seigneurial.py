"""Figures of the Seigneurial report sections: objective cards (SG-2) and the land improvements
(SG-5.6), drawn from the tables of :mod:`analysis.games.seigneurial`. Each returns ``None`` when
its table is absent.

May import matplotlib (Agg), numpy, polars, :mod:`reports.figures.common` and :mod:`reports.text`
(a share labelled as the tables print it: :func:`reports.text.pct`).
"""

from __future__ import annotations

import numpy as np
import polars as pl
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from reports.figures.common import (
    FAIR, OKABE_ITO, bar_label, error_bars, new_figure, percent_axis, styled, subplots,
)
from reports.text import pct


@styled
def objectives(t: dict, how: str = "95% interval, unadjusted") -> Figure | None:
    """Win share of a Censitaire by Objective card (95% intervals), hardest at the bottom, against
    the average Censitaire; a card is coloured easier or harder when its ``significant`` says it is
    clear of the average (the report passes the verdict adjusted over the cards, ``how`` names the
    adjustment in the legend). Cards are numbered from #1 as the page numbers them: the table's
    ``cards`` ("#10, #11, #12": the first is shown), else ``objective`` + 1 (0-based in the data).
    The legend sits under the axes, off every bar and interval, and lists only the groups drawn."""
    if "objectives" not in t or t["objectives"].height == 0:
        return None
    o = t["objectives"].sort("win_share")
    fig = new_figure(9, 0.45 * o.height + 2.6)
    ax = subplots(fig)
    y = np.arange(o.height)
    p = o["win_share"].to_numpy()
    group = ["harder" if s and d < 0 else "easier" if s else "unclear"
             for s, d in zip(o["significant"].to_list(), o["diff"].to_list())]
    colour = {"easier": OKABE_ITO[2], "harder": OKABE_ITO[5], "unclear": OKABE_ITO[0]}
    ax.barh(y, p, color=[colour[g] for g in group], height=0.65,
            xerr=error_bars(o["ci_low"], p, o["ci_high"]), capsize=3, ecolor="black")
    avg = float(o["censitaire_share"][0])
    ax.axvline(avg, color=FAIR, linestyle="--", linewidth=1.5, label=f"Average Censitaire ({pct(avg)}%)")
    numbers = ([c.split(",")[0] for c in o["cards"].to_list()] if "cards" in o.columns
               else [f"#{i + 1}" for i in o["objective"].to_list()])
    ax.set_yticks(y, [f"{n}: {lab}" for n, lab in zip(numbers, o["label"].to_list())])
    ax.set_xlabel("Win share of a Censitaire holding the card (95% intervals)")
    right = max(float(o["ci_high"].max()) * 1.15, avg * 1.5)
    ax.set_xlim(0, right)
    for yi, share, hi, g in zip(y, p, o["ci_high"].to_numpy(), group):
        if share < 0.02 * right:
            # a bar too short to see (no holder of #10 won, review 225 #1): its share and group in
            # words beside its interval, in the group's colour, so the legend's colour has a bar
            ax.annotate(f"{pct(share)}%" + {"harder": ", harder", "easier": ", easier"}.get(g, ""),
                        (float(hi) if np.isfinite(hi) else share, yi), xytext=(6, 0),
                        textcoords="offset points", va="center", fontsize=9, color=colour[g])
    percent_axis(ax, "x")
    handles, _ = ax.get_legend_handles_labels()
    words = {"easier": f"Easier (clear above the average, {how})",
             "harder": f"Harder (clear below the average, {how})",
             "unclear": "Not clear of the average"}
    handles += [Patch(color=colour[g], label=words[g]) for g in ("easier", "harder", "unclear") if g in group]
    fig.legend(handles=handles, loc="outside lower center", fontsize=8, frameon=False)
    ax.set_title("Objective cards: how often their holder wins")
    return fig


@styled
def improvements(t: dict, certain_before: bool = False) -> Figure | None:
    """How many games are played on with the land improvements, and the Seigneur's win share in
    games that end before they act against games played on with them (review s46 #2: a game
    ending on the turn they came never plays with them). ``certain_before``: the rules make his share of the
    games that end before them 0 (the report's hook decides: SG-1, SG-5.6, SG-6), so that bar has
    no interval and its label says why."""
    if "improvements" not in t:
        return None
    d = t["improvements"]
    fig = new_figure(10, 4.2)
    ax, ax2 = subplots(fig, 1, 2)
    x = np.arange(d.height)
    labels = ["Ended before they acted", "Played on with them"]
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
    ruled = np.zeros(d.height, bool)
    ruled[0] = certain_before and bool(ok[0])          # row 0: the games that end before them
    ax2.bar(x[ok], s[ok], color=[OKABE_ITO[4], OKABE_ITO[0]][: ok.sum()] if ok.all() else OKABE_ITO[0],
            width=0.6)
    sampled = ok & ~ruled                               # a measured share: its 95% interval
    ax2.errorbar(x[sampled], s[sampled], yerr=error_bars(d["seigneur_ci_low"].to_numpy()[sampled], s[sampled],
                                                         d["seigneur_ci_high"].to_numpy()[sampled]),
                 fmt="none", capsize=5, ecolor="black")
    # from 0 to a little above the larger interval, as the before/after's side panels (review Y #9:
    # his 0.8% was a pixel high on a 0–100% axis)
    highs = np.concatenate([d["seigneur_ci_high"].cast(float).to_numpy()[sampled], s[ok]])
    top = min(1.0, max(float(np.nanmax(highs)) * 1.3 if highs.size else 1.0, 0.01))
    for xi, v, rule in zip(x[ok], s[ok], ruled[ok]):
        if rule:
            ax2.annotate("0% (certain by\nthe rules: no interval)", (xi, v), xytext=(0, 8),
                         textcoords="offset points", ha="center", va="bottom", fontsize=9)
        elif v > 0.85 * top:
            bar_label(ax2, xi, v, top=top)
        else:       # above its interval, not through the error bar
            hi = d["seigneur_ci_high"].cast(float).to_numpy()[int(xi)]
            ax2.annotate(f"{pct(v)}%", (xi, hi if np.isfinite(hi) else v), xytext=(0, 5),
                         textcoords="offset points", ha="center")
    ax2.set_xticks(x, labels)
    ax2.set_ylim(0, top)
    percent_axis(ax2)
    ax2.set_ylabel("Seigneur's win share")
    ax2.set_title("Seigneur's win share, by whether the\nimprovements acted (95% intervals)"
                  + ("" if top >= 1.0 else "\n(axis zoomed to its range)"))
    return fig


@styled
def final_squares(sq: pl.DataFrame, marks: dict[str, int] | None = None) -> Figure | None:
    """The Seigneur's square on the rent track at the end of the game: share of games per square;
    ``marks`` ({"midpoint": 5, "goal": 10}, SG-1) drawn as dashed lines, named (review U #15: the
    squares that matter were not marked)."""
    if sq.height == 0:
        return None
    from reports.figures.checklist import integer_axis

    fig = new_figure(8, 3.8)
    ax = subplots(fig)
    x = sq["square"].to_numpy()
    share = sq["share"].to_numpy()
    ax.bar(x, share, color=OKABE_ITO[0], width=0.7)
    lo, hi = float(x.min()), float(x.max())
    for what, words, color in (("midpoint", "midpoint: land improvements", OKABE_ITO[2]),
                               ("goal", "goal: the Seigneur wins", OKABE_ITO[5])):
        if marks and what in marks:
            at = float(marks[what])
            lo, hi = min(lo, at), max(hi, at)
            ax.axvline(at, color=color, linestyle="--", linewidth=1.2, label=f"Square {int(at)}, {words}")
    if marks:
        ax.legend(fontsize=9, loc="upper left", frameon=False)
    x_lo, x_hi = lo, hi
    ax.set_xlim(x_lo - 0.6, x_hi + 0.6)
    ax.set_ylim(0, min(1.0, max(float(share.max()) * 1.2, 0.05)))
    integer_axis(ax, "x")
    percent_axis(ax)
    ax.set_xlabel("The Seigneur's square on the rent track at the end")
    ax.set_ylabel("Share of games")
    ax.set_title("Where the Seigneur ends")
    return fig
