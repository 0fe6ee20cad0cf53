"""Figures of the Fief odds (FF-7): the heat map of P(attacker wins) over a grid of armies.

:func:`heatmap` draws one terrain of an odds table (:func:`simcore.games.fief.odds.odds_frame`)
with the break-even contours, and writes it as a PNG; ``balance fief-odds`` (``cli/tables.py``,
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
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402


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
    fig = Figure(figsize=(min(1.2 + 0.32 * len(defs), 16.0), min(1.2 + 0.26 * len(atts), 14.0)),
                 dpi=110)
    ax = fig.subplots()
    ext = (defs[0] - 0.5, defs[-1] + 0.5, atts[0] - 0.5, atts[-1] + 0.5)
    im = ax.imshow(grid, origin="lower", aspect="auto", cmap="cividis", vmin=0, vmax=1, extent=ext,
                   interpolation="nearest")
    if len(atts) > 1 and len(defs) > 1:
        # Black lines: the break-even levels sit in the mid and bright part of cividis.
        cs = ax.contour(defs, atts, grid, levels=list(levels), colors="black", linewidths=1.0,
                        linestyles=["solid", "dashed", "dotted", "dashdot"][: len(levels)])
        ax.clabel(cs, fmt=lambda v: f"{v * 100:.6g}%", fontsize=7)   # 0.999 is 99.9%, not 100%
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
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
