"""Figures of the Middle-Ages report sections: event cards (MA-8) and tiles / Domains (MA-12).

Drawn from the ``events``, ``tiles`` and ``domain_pairs`` tables of :func:`analysis.analyse` in the
style of :mod:`reports.figures.common`; each returns ``None`` when its table is absent.

May import matplotlib (Agg), numpy, polars and :mod:`reports.figures.common`.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl
from matplotlib.figure import Figure

from reports.figures.common import (
    BASE, FAIR, OKABE_ITO, VARIANT, error_bars, new_figure, percent_axis, styled, subplots,
)


def event_order(ev: pl.DataFrame) -> pl.DataFrame:
    """The event cards in the one order the table, the bar chart and the heat map show them, top
    to bottom: most coins per player first, ties (the cards giving no coins) by card number
    (revD #15)."""
    return ev.sort(["mean_gain", "event"], descending=[True, False], nulls_last=True)


@styled
def event_impact(t: dict) -> Figure | None:
    """Per event card (all slots): mean coin gain per player, and how often it changes the leader."""
    if "events" not in t or t["events"].height == 0:
        return None
    ev = event_order(t["events"].filter(pl.col("slot") == 0)).reverse()    # barh draws bottom up
    labels = [f"{n} ({e})" for n, e in zip(ev["event_name"], ev["event"])]
    y = np.arange(ev.height)
    fig = new_figure(10, max(4.0, 0.42 * ev.height + 1.6))
    ax, ax2 = subplots(fig, 1, 2, sharey=True, width_ratios=[3, 2])
    g = ev["mean_gain"].to_numpy()
    colors = [OKABE_ITO[5] if v < 0 else OKABE_ITO[0] for v in g]
    ax.barh(y, g, color=colors, xerr=error_bars(ev["gain_ci_low"], g, ev["gain_ci_high"]), capsize=3,
            ecolor="black")
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(y, labels)
    ax.set_xlabel("Mean coins gained per player when the card fires")
    ax.set_title("Event cards, sorted by effect on coins")
    lc = ev["leader_change"].to_numpy()
    if np.isfinite(lc).any():
        ax2.barh(y, lc, color=OKABE_ITO[2],
                 xerr=error_bars(ev["leader_change_ci_low"], lc, ev["leader_change_ci_high"]), capsize=3,
                 ecolor="black")
        ax2.set_xlabel("Games where the leader changes")
        percent_axis(ax2, "x")
    else:
        tw = ev["top_gainer_win_share"].to_numpy()
        ax2.barh(y, np.nan_to_num(tw), color=OKABE_ITO[2])
        ax2.set_xlabel("Win share of the player the card helped most")
        percent_axis(ax2, "x")
    ax2.set_title("Does it change who leads?")
    return fig


@styled
def event_slots(t: dict) -> Figure | None:
    """Heat map: mean coin gain per player by event card and firing turn; a cell whose 95% interval
    includes 0 is left blank (grey), so "+0.0" never reads as "this card does nothing"."""
    if "events" not in t:
        return None
    ev = t["events"].filter(pl.col("slot") > 0)
    if ev.height == 0:
        return None
    events = event_order(t["events"].filter(pl.col("slot") == 0))          # imshow draws top down
    ids = events["event"].to_list()
    slots = sorted(set(ev["slot"].to_list()))
    grid = np.full((len(ids), len(slots)), np.nan)
    clear = np.zeros_like(grid, dtype=bool)
    for r in ev.iter_rows(named=True):
        i, j = ids.index(r["event"]), slots.index(r["slot"])
        grid[i, j] = r["mean_gain"]
        lo, hi = r["gain_ci_low"], r["gain_ci_high"]
        clear[i, j] = lo is not None and hi is not None and (lo > 0 or hi < 0)
    shown = np.where(clear, grid, np.nan)
    fig = new_figure(8, max(4.0, 0.42 * len(ids) + 2.0))
    ax = subplots(fig)
    lim = np.nanmax(np.abs(shown)) if np.isfinite(shown).any() else 1.0
    ax.imshow(np.where(np.isfinite(grid) & ~clear, 1.0, np.nan), aspect="auto", cmap="Greys", vmin=0, vmax=8)
    im = ax.imshow(shown, aspect="auto", cmap="PuOr_r", vmin=-lim, vmax=lim)
    for i in range(len(ids)):
        for j in range(len(slots)):
            if clear[i, j]:
                ax.text(j, i, f"{grid[i, j]:+.1f}".replace("-", "−"), ha="center", va="center", fontsize=9,
                        color="white" if abs(grid[i, j]) > 0.6 * lim else "black")
    ax.set_xticks(range(len(slots)), [f"Turn {4 * s}" for s in slots])
    ax.set_yticks(range(len(ids)), [f"{n} ({e})" for n, e in zip(events["event_name"], events["event"])])
    ax.set_xlabel("When the card fires\n(blank grey cell: the 95% interval includes 0 coins, "
                  "no measurable immediate effect)")
    ax.grid(False)
    fig.colorbar(im, ax=ax, label="Mean coins gained per player")
    ax.set_title("Event cards by firing turn")
    return fig


def _tile_counts(tiles: pl.DataFrame, name: str) -> pl.DataFrame:
    """A tile type's rows of table ``tiles`` drawn in its curve: the counts held by at least 30
    players and 0.1% of the players holding any count of it (a count held by a handful of players
    has an interval that squashes the rest)."""
    total = int(tiles.filter(pl.col("tile_name") == name)["players"].sum())
    return tiles.filter((pl.col("tile_name") == name) & (pl.col("players") >= max(30, 0.001 * total)))


def _tile_panel(ax, name: str, curves, fair: float) -> None:
    """One tile type's panel: each of ``curves`` ((tiles table, colour, band alpha, legend label or
    None)) drawn as its win share by number of tiles held (:func:`_tile_counts`) over its 95% band,
    the fair share dashed, the axes named in the game's words. A count held by fewer than
    :data:`analysis.tiles.COMMON_COUNT` of the players holding the type is a hollow point: outside
    the range the headline reads (review 45 #8: 8 Casernes at ~94% drawn like the rest, beside a
    headline whose range stopped at 7)."""
    from analysis.tiles import COMMON_COUNT

    points = []
    for tiles, color, alpha, label in curves:      # the curves' lines first, in order, then their points
        d = _tile_counts(tiles, name)
        x = d["tiles"].to_numpy()
        y = d["win_share"].to_numpy()
        held = int(tiles.filter(pl.col("tile_name") == name)["players"].sum())
        rare = d["players"].to_numpy() < COMMON_COUNT * max(held, 1)
        ax.fill_between(x, d["ci_low"].to_numpy(), d["ci_high"].to_numpy(), color=color, alpha=alpha)
        ax.plot(x, y, color=color, label=label)
        points.append((x, y, rare, color))
    for x, y, rare, color in points:
        ax.plot(x[~rare], y[~rare], linestyle="none", marker="o", color=color)
        if rare.any():
            ax.plot(x[rare], y[rare], linestyle="none", marker="o", markerfacecolor="white", color=color)
    ax.axhline(fair, color=FAIR, linestyle="--", linewidth=1, label="Fair share" if curves[0][3] else None)
    ax.set_title(name)
    ax.set_xlabel(f"{name} tiles at the end")
    percent_axis(ax)


@styled
def tile_comparison(base_t: dict, var_t: dict, names: list[str], base_label: str,
                    var_label: str) -> Figure | None:
    """Before / after: the win share by number of tiles held (MA-12) of each tile type in
    ``names`` (the ones whose straight-line slope moved), each run's curve with its 95% band, the
    fair share dashed; ``None`` without the tables or names (review U #6: the rule under test, the
    Palais's income, was shown only as a slope the page called a poor summary of its curve)."""
    if not names or "tiles" not in base_t or "tiles" not in var_t:
        return None
    cols = min(len(names), 2)
    rows = math.ceil(len(names) / cols)
    fig = new_figure(10, 3.3 * rows + 1.0)
    axes = np.atleast_1d(subplots(fig, rows, cols, sharey=True)).ravel()
    fair = base_t["tiles"]["fair_share"][0]
    for ax, name in zip(axes, names):
        _tile_panel(ax, name, ((base_t["tiles"], BASE, 0.25, f"Before: {base_label}"),
                               (var_t["tiles"], VARIANT, 0.25, f"After: {var_label}")), fair)
    for ax in axes[len(names):]:
        ax.set_visible(False)
    for ax in axes[::cols]:
        ax.set_ylabel("Win share (95% band)")
    axes[0].legend(fontsize=9, loc="upper left", frameon=False)
    fig.suptitle("Win share by number of tiles held, before and after: the tile types whose slope moved")
    return fig


@styled
def tile_impact(t: dict) -> Figure | None:
    """Win share against the number of tiles of each type held at the end (small multiples)."""
    if "tiles" not in t or t["tiles"].height == 0:
        return None
    tiles = t["tiles"]
    names = list(dict.fromkeys(tiles["tile_name"].to_list()))
    cols = 4
    rows = math.ceil(len(names) / cols)
    fig = new_figure(10, 2.9 * rows + 0.8)
    axes = np.atleast_1d(subplots(fig, rows, cols, sharey=True)).ravel()
    fair = tiles["fair_share"][0]
    for ax, name in zip(axes, names):
        _tile_panel(ax, name, ((tiles, BASE, 0.3, None),), fair)
    for ax in axes[len(names):]:
        ax.set_visible(False)
    for ax in axes[::cols]:
        ax.set_ylabel("Win share")
    fig.suptitle("Win share by number of tiles of each type\n(dashed: fair share; hollow: a count held by "
                 "under 1% of players, outside the headlines' ranges)")
    return fig


@styled
def domain_pairs(t: dict, top: int = 12) -> Figure | None:
    """Most winning Domain mixes: share among winners against share among all players."""
    if "domain_pairs" not in t or t["domain_pairs"].height == 0:
        return None
    d = t["domain_pairs"]
    d = d.filter(pl.col("share_of_players") >= 0.005).head(top).reverse()
    if d.height == 0:
        return None
    y = np.arange(d.height)
    fig = new_figure(10, 0.42 * d.height + 1.8)
    ax = subplots(fig)
    ax.barh(y - 0.2, d["share_of_players"].to_numpy(), height=0.4, color=OKABE_ITO[4],
            label="Share of all players")
    ax.barh(y + 0.2, d["share_of_wins"].to_numpy(), height=0.4, color=OKABE_ITO[0], label="Share of wins")
    for yi, lift in zip(y, d["lift"].to_numpy()):
        ax.annotate(f"×{lift:.2f}", (max(d["share_of_wins"].max(), d["share_of_players"].max()), yi),
                    xytext=(8, 0), textcoords="offset points", va="center", fontsize=9)
    ax.set_yticks(y, d["pair"].to_list())
    ax.set_xlabel("Share (a player's mix = the two Domains with the most tiles)")
    ax.set_xlim(0, 1.12 * max(d["share_of_wins"].max(), d["share_of_players"].max()))
    percent_axis(ax, "x")
    ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), ncols=2, frameon=False)
    fig.suptitle(f"Top {d.height} Domain mixes by win share (×: over-representation among winners)")
    return fig
