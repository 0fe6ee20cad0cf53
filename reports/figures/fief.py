"""Figures of the Fief odds (FF-7): the heat map of P(attacker wins) over a grid of armies.

:func:`heatmap` draws one terrain of an odds table (:func:`simcore.games.fief.odds.odds_frame`)
with the break-even contours, and writes it as a PNG. The contours are steps on the cell edges
(:func:`level_edges`), not lines interpolated between cell centres: the odds change in steps with
whole points (the 6 → 7 and 12 → 13 jumps), so an interpolated line put the 50 % border at "5.8
attackers" where the break-even table says 6 (revA #18). Each level is a solid line in its own
colour, drawn in the levels' order and each narrower than the one before, so two borders on the
same edge both show (:func:`level_styles`), each edged in black and/or white (:func:`rim_colours`)
so that it shows on every colour of the map (review fx04 #3); the legend sits under the axes in
type the size of the tick labels, the colour bar reads in %, and the wrapped title names each
side's Lords (review G). ``balance fief-odds`` (``cli/tables.py``,
through :mod:`reports.games.fief`) calls
it for every terrain of the grid. Built without pyplot (a :class:`matplotlib.figure.Figure` on the
Agg canvas), like every report figure.

May import matplotlib (Agg), numpy, polars and the Fief spec's constants (no kernel).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.colors as mcolors  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402
from matplotlib.collections import LineCollection  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib import patheffects  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.ticker import MaxNLocator, PercentFormatter  # noqa: E402

from simcore.games.fief.spec import LEVEL_TOL  # noqa: E402


def level_edges(grid: np.ndarray, level: float, x_edges: np.ndarray, y_edges: np.ndarray,
                tol: float = 0.0) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The border between the cells with ``grid >= level - tol`` and the others, as unit segments
    on the cell edges (``grid[i, j]`` is the cell between ``x_edges[j]``–``x_edges[j + 1]`` and
    ``y_edges[i]``–``y_edges[i + 1]``); a missing cell (nan) borders nothing. ``tol``: exact odds
    that close to the level are the level (marked "exactly" in the break-even table)."""
    known = ~np.isnan(grid)
    above = known & (np.nan_to_num(grid, nan=-1.0) >= level - tol)
    # between horizontal neighbours: a vertical edge; between vertical ones: a horizontal edge
    # (np.nonzero lists them row by row, the order of a loop over i then j)
    i, j = np.nonzero(known[:, :-1] & known[:, 1:] & (above[:, :-1] != above[:, 1:]))
    segs = [((x_edges[b + 1], y_edges[a]), (x_edges[b + 1], y_edges[a + 1])) for a, b in zip(i, j)]
    i, j = np.nonzero(known[:-1, :] & known[1:, :] & (above[:-1, :] != above[1:, :]))
    segs += [((x_edges[b], y_edges[a + 1]), (x_edges[b + 1], y_edges[a + 1])) for a, b in zip(i, j)]
    return segs


# Levels' borders, drawn in the order of the levels (the lowest first), each solid in its own
# colour and narrower than the one before: where two levels' borders fall on the same cell edge
# (open ground, defender 1: the 75 % and 90 % borders both under 4 attackers) the later one is
# drawn inside the earlier, so both show (a black line with a white core is both 50 % and 75 %).
# Black, white, vermillion and sky blue tell the levels apart, in colour-blind vision too.
LEVEL_COLOURS = ("black", "white", "#D55E00", "#56B4E9")
THINNEST = 2.0          # points: the last level's core; each earlier level's is 1.5 wider
WIDTH_STEP = 1.5
# Every border is edged, under every level's core, in the extreme of lightness furthest from its
# colour, RIM points a side (rim_colours): a black core gets a white halo, a white one a black
# ring, a colour of middle lightness (vermillion: cividis's middle grey's) a black ring and a white
# halo outside it. A core alone is lost on some cells of cividis (black on its darkest blue is
# 1.3:1; review fx04 #3: the 90 % border, then a 1.2 pt vermillion line, vanished on the yellow
# cells it runs between). Two layers at least 9:1 apart leave one of them at least 3:1 from any
# cell's colour (WCAG 2's minimum for graphics; black and white: 4.6:1). Under every core, not
# around each: where borders coincide the inner core lies on the outer one (their colours differ),
# not on its own rim, so the step between levels' cores stays 1.5 pt (0.75 pt each side shows).
RIM_DARK, RIM_LIGHT = "black", "white"
RIM = 0.9
APART = 9.0             # the contrast a core and its rim, or two rings, keep between them

# The legend's type: the size of the axes' tick labels (it was 7 pt, the smallest text of a figure
# shown at its own size: review fx04 #3).
LEGEND_SIZE = 10.0


def merged(segs: list[tuple[tuple[float, float], tuple[float, float]]]
           ) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """:func:`level_edges`' unit segments with the collinear ones that touch joined into one, so
    a border along several cells is drawn as one line (no seam where two cells meet)."""
    vertical = sorted((x0, min(y0, y1), max(y0, y1)) for (x0, y0), (x1, y1) in segs if x0 == x1)
    horizontal = sorted((y0, min(x0, x1), max(x0, x1)) for (x0, y0), (x1, y1) in segs if y0 == y1)
    runs: list[list[list[float]]] = []
    for lines in (vertical, horizontal):
        joined: list[list[float]] = []
        for at, lo, hi in lines:
            if joined and joined[-1][0] == at and joined[-1][2] == lo:
                joined[-1][2] = hi
            else:
                joined.append([at, lo, hi])
        runs.append(joined)
    return ([((at, lo), (at, hi)) for at, lo, hi in runs[0]]
            + [((lo, at), (hi, at)) for at, lo, hi in runs[1]])


def level_styles(n: int) -> list[tuple[str, float]]:
    """(colour, core width) of each of ``n`` levels, in drawing order: the first the widest."""
    return [(LEVEL_COLOURS[k % len(LEVEL_COLOURS)], THINNEST + WIDTH_STEP * (n - 1 - k))
            for k in range(n)]


def contrast(a, b) -> float:
    """WCAG 2's contrast ratio of two colours (1 to 21), from their relative luminance."""
    def lum(c) -> float:
        rgb = np.asarray(mcolors.to_rgb(c))
        lin = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
        return float(lin @ [0.2126, 0.7152, 0.0722])
    lo, hi = sorted((lum(a), lum(b)))
    return (hi + 0.05) / (lo + 0.05)


def rim_colours(colour) -> tuple[str, ...]:
    """The rings that edge a border of ``colour``, outermost first (see :data:`RIM`): black or
    white, whichever lies :data:`APART` from it, else a white halo around a black ring."""
    for ring in (RIM_DARK, RIM_LIGHT):
        if contrast(colour, ring) >= APART:
            return (ring,)
    return (RIM_LIGHT, RIM_DARK)


def rim_effects(core: float, colour) -> list:
    """The path effects that edge a border of ``colour`` whose core is ``core`` points wide: its
    rings (:func:`rim_colours`), the outermost first, :data:`RIM` a side each; drawn by the rim
    artist, under every core (and by the legend's sample, under its own core)."""
    rings = rim_colours(colour)
    return [patheffects.Stroke(linewidth=core + 2 * RIM * (len(rings) - k), foreground=ring)
            for k, ring in enumerate(rings)]


def _lords(sub: pl.DataFrame, side: str) -> str:
    """A side's Lords over a grid ("2"), saying so where a cell's points cap them (a 1-point
    army has 1 Lord at most)."""
    col = sub[f"{side}_lords"]
    hi, lo = int(col.max()), int(col.min())
    return f"{hi}" if hi == lo else f"{hi} (at most its points)"


#: The rules file every Fief table uses unless told otherwise (configs/fief/rules.toml).
SHIPPED_RULES = ("configs", "fief", "rules.toml")


def rules_words(name: str | None) -> str:
    """The rules a table or figure was computed under, when they are not the shipped ones: "rules:
    rules.toml with --set darc.bonus=4" (the file's name, and every ``--set`` as given), or "rules:
    my_rules.toml"; '' for the shipped file unchanged (two heat maps of different rules read alike
    once pasted into a design document)."""
    if not name:
        return ""
    path, _, settings = str(name).partition(" with --set ")
    shipped = tuple(Path(path).parts[-3:]) == SHIPPED_RULES
    if shipped and not settings:
        return ""
    return f"rules: {Path(path).name}" + (f" with --set {settings}" if settings else "")


def heatmap_title(sub: pl.DataFrame, terrain: str, method: str, width_chars: int,
                  rules: str | None = None) -> str:
    """The heat map's title: what is shown and every condition it holds under (terrain, Lords of
    each side, d'Arc, mercy, method, and the rules when they are not the shipped ones:
    :func:`rules_words`), wrapped to ``width_chars`` characters a line."""
    darc = sub["darc"][0]
    mercy = sub["mercy"][0]
    # the terrain as the break-even table names it ("in open ground", review AA)
    where = {"open": "open ground", "castle": "a castle", "city": "a city"}.get(terrain, terrain)
    parts = [f"defender in {where}",
             f"Lords: attacker {_lords(sub, 'attacker')}, defender {_lords(sub, 'defender')}"]
    if darc != "none":
        parts.append(f"d'Arc with the {darc}")
    if mercy != "never":
        parts.append(f"mercy {mercy}")
    if rules_words(rules):
        parts.append(rules_words(rules))
    parts[0] = f"P(attacker wins), {parts[0]} ({method})"
    # whole conditions a line while they fit; one longer than a line wraps on its own
    width, lines = max(20, width_chars), []
    for part in parts:
        if lines and len(lines[-1]) + 2 + len(part) <= width:
            lines[-1] += "; " + part
        else:
            if lines:
                lines[-1] += ";"
            lines += textwrap.wrap(part, width=width, break_on_hyphens=False)
    return "\n".join(lines)


def heatmap(odds: pl.DataFrame, terrain: str, path: Path, levels=(0.5, 0.75, 0.9),
            rules: str | None = None) -> None:
    """PNG heat map of P(attacker wins) over (defender, attacker) for one terrain (cividis)."""
    fig = heatmap_figure(odds, terrain, levels, rules)
    fig.savefig(path)


def _every_point(values) -> list[int]:
    """The rows (or columns) of a heat map: every whole number of points from the least of
    ``values`` to the most, so that each cell sits on its own points (those not in the grid are
    drawn blank and border nothing)."""
    return list(range(int(min(values)), int(max(values)) + 1))


def heatmap_figure(odds: pl.DataFrame, terrain: str, levels=(0.5, 0.75, 0.9),
                   rules: str | None = None) -> Figure:
    """The heat map's figure (:func:`heatmap` saves it): the cells in cividis with a colour bar in
    %, the levels' borders on the cell edges (:func:`level_styles`, edged: :func:`rim_effects`),
    their legend under the axes (never on a cell) and a wrapped title naming the terrain, each side's Lords, d'Arc, mercy and
    the method (:func:`heatmap_title`). Constrained layout keeps every text inside the figure.
    Exact odds within ``LEVEL_TOL`` of a level reach it (a certain win computed as
    0.9999999999999999 is inside the 100 % border), as in the break-even table."""
    methods = odds["method"].unique().to_list()
    method = "exact" if "exact" in methods else "mc"
    sub = odds.filter((pl.col("terrain") == terrain) & (pl.col("method") == method))
    # every whole number from the least to the most points a cell, those the grid skips blank: a
    # grid of 1-5,8,12-20 attackers drew its 15 rows stretched over 20 points, so the cell at the
    # tick "12" held 14 attackers and every border sat off its points (review s49 #1)
    atts = _every_point(sub["attacker"].unique().to_list())
    defs = _every_point(sub["defender"].unique().to_list())
    grid = np.full((len(atts), len(defs)), np.nan)
    ai = {a: i for i, a in enumerate(atts)}
    di = {d: j for j, d in enumerate(defs)}
    for a, d, p in sub.select("attacker", "defender", "p_attacker_wins").iter_rows():
        grid[ai[a], di[d]] = p
    # Grows with the grid up to a page: a 999 x 999 grid must not ask for a gigapixel canvas.
    # At least room for the colour bar, the title's lines and the levels' legend under the axes
    # on a grid of one or two cells.
    width = min(max(4.6, 1.6 + 0.32 * len(defs)), 16.0)
    height = min(max(4.0, 2.0 + 0.26 * len(atts)), 14.0)
    fig = Figure(figsize=(width, height), dpi=110, layout="constrained")
    ax = fig.subplots()
    ext = (defs[0] - 0.5, defs[-1] + 0.5, atts[0] - 0.5, atts[-1] + 0.5)
    im = ax.imshow(grid, origin="lower", aspect="auto", cmap="cividis", vmin=0, vmax=1, extent=ext,
                   interpolation="nearest")
    x_edges = np.linspace(ext[0], ext[1], len(defs) + 1)     # the cells imshow draws
    y_edges = np.linspace(ext[2], ext[3], len(atts) + 1)
    handles = []
    for level, (colour, lw) in zip(levels, level_styles(len(levels))):
        segs = level_edges(grid, level, x_edges, y_edges, LEVEL_TOL if method == "exact" else 0.0)
        # no edge: either no cell reaches the level, or every one does (then each break-even is at
        # most the grid's smallest attacker, '≤' in the table: Fief review 45 #1)
        known = ~np.isnan(grid)
        every = bool(known.any() and (grid[known] >= level - (LEVEL_TOL if method == "exact" else 0.0)).all())
        lines = merged(segs)
        # the rim under every core: zorder below the cores' (see RIM); the artist draws only its
        # path effects' strokes
        ax.add_collection(LineCollection(lines, colors=rim_colours(colour)[-1], linewidths=lw + 2 * RIM,
                                         linestyles="solid", capstyle="projecting", zorder=2.4,
                                         path_effects=rim_effects(lw, colour), gid=f"rim {level:g}"))
        ax.add_collection(LineCollection(lines, colors=colour, linewidths=lw, linestyles="solid",
                                         capstyle="projecting", zorder=2.5, gid=f"level {level:g}"))
        # the legend's sample: the line as the map draws it, with its rim (a white core shows on
        # the white legend through its dark ring); 0.999 is 99.9%, not 100%
        handles.append(Line2D([], [], color=colour, linewidth=lw,
                              path_effects=[*rim_effects(lw, colour), patheffects.Normal()],
                              label=f"P ≥ {level * 100:.6g}%" + ("" if segs else " (every cell)" if every
                                                                   else " (not in the grid)")))
    if np.isnan(grid).any():       # points the grid skips: say what a blank cell is
        handles.append(Patch(facecolor="white", edgecolor="0.5", linewidth=0.6,
                             label="blank: not in the grid"))
    if handles:
        # under the axes, off every cell: as many entries a row as the figure's width holds
        # (about 0.6 of the type size a character, and the sample's 2.6 type sizes and gaps)
        chars = max(len(h.get_label()) for h in handles)
        per_row = max(1, min(len(handles), int((width * 72 - 20) // ((chars * 0.63 + 4.2) * LEGEND_SIZE))))
        # (matplotlib fills a legend's columns first: reordered, it reads left to right, then down)
        handles = [h for j in range(per_row) for h in handles[j::per_row]]
        fig.legend(handles=handles, loc="outside lower center", ncols=per_row, fontsize=LEGEND_SIZE,
                   frameon=False, handlelength=2.6)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    for values, set_ticks in ((defs, ax.set_xticks), (atts, ax.set_yticks)):
        if len(values) <= 12 and all(b - a == 1 for a, b in zip(values, values[1:])):
            set_ticks(values)          # a few whole points: one tick per cell (not 0.5, 0.6, …)
    # about 5 points a character at 9 points: the title wraps to the figure's width
    fig.suptitle(heatmap_title(sub, terrain, method, int((width * 72 - 16) / 5.2), rules), fontsize=9)
    ax.set_xlabel("defender points")
    ax.set_ylabel("attacker points")
    bar = fig.colorbar(im, ax=ax, label="P(attacker wins), %")
    bar.ax.yaxis.set_major_formatter(PercentFormatter(xmax=1.0, decimals=0))
    return fig
