"""Figures of the Fief odds (FF-7): the heat map of P(attacker wins) over a grid of armies.

:func:`heatmap` draws one terrain of an odds table (:func:`simcore.games.fief.odds.odds_frame`)
with the break-even contours, and writes it as a PNG. The contours are steps on the cell edges
(:func:`level_edges`), not lines interpolated between cell centres: the odds change in steps with
whole points (the 6 → 7 and 12 → 13 jumps), so an interpolated line put the 50 % border at "5.8
attackers" where the break-even table says 6 (revA #18); ``balance fief-odds`` (``cli/tables.py``,
through :mod:`reports.games.fief`) calls
it for every terrain of the grid. Built without pyplot (a :class:`matplotlib.figure.Figure` on the
Agg canvas), like every report figure.

May import matplotlib (Agg), numpy and polars.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import polars as pl  # noqa: E402
from matplotlib.collections import LineCollection  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402


def level_edges(grid: np.ndarray, level: float, x_edges: np.ndarray, y_edges: np.ndarray
                ) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The border between the cells with ``grid >= level`` and the others, as unit segments on the
    cell edges (``grid[i, j]`` is the cell between ``x_edges[j]``–``x_edges[j + 1]`` and
    ``y_edges[i]``–``y_edges[i + 1]``); a missing cell (nan) borders nothing."""
    known = ~np.isnan(grid)
    above = known & (np.nan_to_num(grid, nan=-1.0) >= level)
    # between horizontal neighbours: a vertical edge; between vertical ones: a horizontal edge
    # (np.nonzero lists them row by row, the order of a loop over i then j)
    i, j = np.nonzero(known[:, :-1] & known[:, 1:] & (above[:, :-1] != above[:, 1:]))
    segs = [((x_edges[b + 1], y_edges[a]), (x_edges[b + 1], y_edges[a + 1])) for a, b in zip(i, j)]
    i, j = np.nonzero(known[:-1, :] & known[1:, :] & (above[:-1, :] != above[1:, :]))
    segs += [((x_edges[b], y_edges[a + 1]), (x_edges[b + 1], y_edges[a + 1])) for a, b in zip(i, j)]
    return segs


def heatmap(odds: pl.DataFrame, terrain: str, path: Path, levels=(0.5, 0.75, 0.9)) -> None:
    """PNG heat map of P(attacker wins) over (defender, attacker) for one terrain (cividis)."""
    methods = odds["method"].unique().to_list()
    method = "exact" if "exact" in methods else "mc"
    sub = odds.filter((pl.col("terrain") == terrain) & (pl.col("method") == method))
    atts = sorted(sub["attacker"].unique().to_list())
    defs = sorted(sub["defender"].unique().to_list())
    grid = np.full((len(atts), len(defs)), np.nan)
    ai = {a: i for i, a in enumerate(atts)}
    di = {d: j for j, d in enumerate(defs)}
    for a, d, p in sub.select("attacker", "defender", "p_attacker_wins").iter_rows():
        grid[ai[a], di[d]] = p
    # Grows with the grid up to a page: a 999 x 999 grid must not ask for a gigapixel canvas.
    # At least room for the colour bar and the levels' legend on a grid of one or two cells.
    fig = Figure(figsize=(min(max(4.0, 1.2 + 0.32 * len(defs)), 16.0),
                          min(max(3.2, 1.2 + 0.26 * len(atts)), 14.0)), dpi=110)
    ax = fig.subplots()
    ext = (defs[0] - 0.5, defs[-1] + 0.5, atts[0] - 0.5, atts[-1] + 0.5)
    im = ax.imshow(grid, origin="lower", aspect="auto", cmap="cividis", vmin=0, vmax=1, extent=ext,
                   interpolation="nearest")
    # Black steps on the cell edges (the levels sit in the mid and bright part of cividis), one
    # line style per level, named in the legend (0.999 is 99.9%, not 100%).
    x_edges = np.linspace(ext[0], ext[1], len(defs) + 1)     # the cells imshow draws
    y_edges = np.linspace(ext[2], ext[3], len(atts) + 1)
    styles = ["solid", "dashed", "dotted", "dashdot"]
    drawn = False
    for k, level in enumerate(levels):
        segs = level_edges(grid, level, x_edges, y_edges)
        style = styles[k % len(styles)]
        ax.add_collection(LineCollection(segs, colors="black", linewidths=1.3, linestyles=style,
                                         capstyle="projecting"))
        ax.plot([], [], color="black", linewidth=1.3, linestyle=style,
                label=f"P ≥ {level * 100:.6g}%" + ("" if segs else " (not in the grid)"))
        drawn = True
    if drawn:
        ax.legend(loc="lower right", fontsize=7, framealpha=0.9)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    for values, set_ticks in ((defs, ax.set_xticks), (atts, ax.set_yticks)):
        if len(values) <= 12 and all(b - a == 1 for a, b in zip(values, values[1:])):
            set_ticks(values)          # a few whole points: one tick per cell (not 0.5, 0.6, …)
    darc = sub["darc"][0]
    mercy = sub["mercy"][0]
    ax.set_title(f"P(attacker wins) — defender in {terrain}"
                 + (f", d'Arc with {darc}" if darc != "none" else "")
                 + (f", mercy {mercy}" if mercy != "never" else "") + f" ({method})", fontsize=9)
    ax.set_xlabel("defender points")
    ax.set_ylabel("attacker points")
    fig.colorbar(im, ax=ax, label="P(attacker wins)")
    fig.tight_layout()
    fig.savefig(path)
