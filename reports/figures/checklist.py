"""The figure checklist (docs/reports.md), measured on a drawn figure: what a designer would stumble on.

:func:`problems` lays a figure out the way the report saves it (at its dpi, no pixels drawn) and
returns one sentence per breach:

1. **No clipped text**: every visible text (titles, labels, tick labels, legends, annotations) lies
   inside the figure, measured from the rendered artists' extents against the figure's box.
2. **One unit per axis**: an axis label names one unit (no "% of own goal" and "turns" on one
   axis); the figures that put two units side by side use two panels, each labelled.
3. **Integer ticks for integer settings**: an axis marked integer (:func:`integer_axis`) shows only
   whole-number ticks.
4. **Shares on 0–100%**: an axis marked as a share (:func:`share_axis`) stays within 0–100%.
5. **A zoomed axis says so**: a value axis (y) that does not start at 0 and spans less than half of
   its top value (7.20–7.40 turns) says "zoomed" in its label or its panel's title.
6. **No data off the axes**: every point of a line and every band or marker collection drawn in
   data coordinates lies within its panel's limits (a small multiple whose shared axis was fixed
   by the first panel once hid the high end of four tile types' curves).
7. **No bar under a legend**: a panel's legend covers none of its bars (a game length histogram's
   legend of five entries once hid the tops of its tallest bars; docs/reports.md's item 8, after
   its "every section shows something", which the tests check apart).

Figures mark their axes with :func:`share_axis`, :func:`integer_axis` and :func:`zoomed_axis` (an
attribute on the matplotlib Axes); the checks read those marks and the drawn extents.

May import matplotlib and numpy (not :mod:`reports.figures.common`, which imports this module).
"""

from __future__ import annotations

import re

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.text import Text

UNIT_WORDS = ("%", "pp", "turns", "coins", "cards", "points", "games", "seasons")
_TOL_PX = 1.0
SAVED_DPI = 130         # the dpi the report's PNGs are drawn at (reports.figures.common.DPI; a test checks)


def share_axis(ax: Axes, axis: str = "y") -> None:
    """Mark ``axis`` of ``ax`` as a share (0–100%); :func:`problems` checks its limits."""
    ax._balance_share = set(getattr(ax, "_balance_share", set())) | {axis}


def integer_axis(ax: Axes, axis: str = "x") -> None:
    """Whole-number ticks only on ``axis`` (an integer setting), and mark it for the check."""
    from matplotlib.ticker import MaxNLocator

    (ax.xaxis if axis == "x" else ax.yaxis).set_major_locator(MaxNLocator(integer=True))
    ax._balance_integer = set(getattr(ax, "_balance_integer", set())) | {axis}


def zoomed_axis(ax: Axes, axis: str = "y") -> None:
    """Say in the axis label that the axis does not start at 0 (when its limits show it does not)."""
    lo, hi = ax.get_ylim() if axis == "y" else ax.get_xlim()
    if lo > 0 and (hi - lo) < 0.5 * hi:
        label = ax.get_ylabel() if axis == "y" else ax.get_xlabel()
        if "zoom" not in label.lower():
            new = f"{label} (zoomed: not from 0)" if label else "zoomed: not from 0"
            (ax.set_ylabel if axis == "y" else ax.set_xlabel)(new)


def _texts(fig: Figure) -> list[Text]:
    """Every text that is drawn: tick labels only for the ticks inside the view (matplotlib keeps
    label objects for ticks it does not draw)."""
    ticks, drawn = set(), []
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                ticks.update({id(tick.label1), id(tick.label2)})
            if ax.get_visible() and axis.get_visible():
                for tick in axis._update_ticks():      # the ticks matplotlib draws
                    drawn += [lab for lab in (tick.label1, tick.label2) if lab.get_visible()]
    out = []
    for t in list(fig.findobj(Text)) + drawn:
        if id(t) in ticks and t not in drawn:
            continue
        if t.get_visible() and t.get_text().strip() and t.get_figure() is not None:
            ax = getattr(t, "axes", None)
            if ax is not None and not ax.get_visible():
                continue
            out.append(t)
    return list({id(t): t for t in out}.values())


def clipped_texts(fig: Figure, dpi: float | None = None) -> list[str]:
    """The texts whose drawn extent leaves the figure: laid out and measured as the report saves it
    (at :data:`SAVED_DPI` unless ``dpi`` says otherwise, with the figure's own layout), with an Agg
    renderer whose drawing is switched off (no pixels: the extents are what is checked)."""
    return _measured(fig, dpi)[0]


def _covered_bars(fig: Figure, renderer) -> list[str]:
    """Check 7: per panel with a visible legend, how many of its bars (drawn rectangles of some
    height) the legend's box overlaps by more than a pixel each way."""
    from matplotlib.patches import Rectangle

    out = []
    for i, ax in enumerate(fig.axes):
        leg = ax.get_legend()
        if not ax.get_visible() or leg is None or not leg.get_visible():
            continue
        lb = leg.get_window_extent(renderer)
        covered = 0
        for p in ax.patches:
            if not isinstance(p, Rectangle) or not p.get_visible() or not p.get_height():
                continue
            pb = p.get_window_extent(renderer)
            w = min(lb.x1, pb.x1) - max(lb.x0, pb.x0)
            h = min(lb.y1, pb.y1) - max(lb.y0, pb.y0)
            covered += w > _TOL_PX and h > _TOL_PX
        if covered:
            name = ax.get_title() or f"panel {i + 1}"
            out.append(f"{name}: the legend covers {covered} bar{'s' if covered > 1 else ''}")
    return out


def _measured(fig: Figure, dpi: float | None = None) -> tuple[list[str], list[str]]:
    """Checks 1 and 7 on one layout of ``fig`` (see :func:`clipped_texts`)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    if not isinstance(fig.canvas, FigureCanvasAgg):
        FigureCanvasAgg(fig)
    old = fig.dpi
    fig.dpi = SAVED_DPI if dpi is None else dpi
    try:
        fig.draw_without_rendering()
        renderer = fig.canvas.get_renderer()
        W, H = fig.bbox.width, fig.bbox.height
        out = []
        for t in _texts(fig):
            try:
                bb = t.get_window_extent(renderer)
            except (RuntimeError, ValueError):
                continue
            if not np.isfinite([bb.x0, bb.x1, bb.y0, bb.y1]).all() or bb.width == 0:
                continue
            if bb.x0 < -_TOL_PX or bb.y0 < -_TOL_PX or bb.x1 > W + _TOL_PX or bb.y1 > H + _TOL_PX:
                out.append(f"text {t.get_text()[:40]!r} is cut off (drawn at x {bb.x0:.0f}–{bb.x1:.0f}, "
                           f"y {bb.y0:.0f}–{bb.y1:.0f} in a {W:.0f}×{H:.0f} px figure)")
        covered = _covered_bars(fig, renderer)
    finally:
        fig.dpi = old
    return out, covered


def _units_in(label: str) -> set[str]:
    found = set()
    # "share of games per 5 turns" (or "per 5 player turns"): a bin width, not a second unit
    label = re.sub(r"\bper \d*\s*(?:player\s+)?\w+", "", label)
    low = label.lower()
    for u in UNIT_WORDS:
        if u == "%":
            if "%" in label and not re.search(r"\d%", label):
                found.add("%")
        elif re.search(rf"\b{u}\b", low):
            found.add(u)
    if "pp" in found and "%" in found:    # "pp (percentage points)" is one unit
        found.discard("%")
    return found


def _off_axes(ax: Axes) -> list[str]:
    """Data drawn outside the panel's limits (check 6): the points of its lines and the extents of
    its collections (bands, scatter markers) in data coordinates; reference lines drawn across the
    panel (``axhline``: axes coordinates on one side) are not data. An excursion of up to 0.5% of the
    axis span (a pixel or two: an interval's end at −0.03% under a share axis's 0) is not counted."""
    (x0, x1), (y0, y1) = sorted(ax.get_xlim()), sorted(ax.get_ylim())
    tx, ty = 0.005 * (x1 - x0), 0.005 * (y1 - y0)
    found = []

    def outside(xs, ys, what):
        xs, ys = np.asarray(xs, float), np.asarray(ys, float)
        ok = np.isfinite(xs) & np.isfinite(ys)
        xs, ys = xs[ok], ys[ok]
        if xs.size and (xs.min() < x0 - tx or xs.max() > x1 + tx or ys.min() < y0 - ty
                        or ys.max() > y1 + ty):
            found.append(f"{what} runs off the axes (x {xs.min():.3g}–{xs.max():.3g}, "
                         f"y {ys.min():.3g}–{ys.max():.3g}; shown x {x0:.3g}–{x1:.3g}, "
                         f"y {y0:.3g}–{y1:.3g})")

    for line in ax.lines:
        if line.get_visible() and line.get_transform() == ax.transData:
            xy = np.asarray(line.get_xydata(), float).reshape(-1, 2)
            outside(xy[:, 0], xy[:, 1], f"line {line.get_label()!r}")
    for c in ax.collections:
        if c.get_visible() and c.get_transform() == ax.transData:
            box = c.get_datalim(ax.transData)
            if np.all(np.isfinite(box.get_points())) and box.width >= 0 and box.height >= 0:
                outside([box.x0, box.x1], [box.y0, box.y1], "a band or marker set")
    return found


def problems(fig: Figure, dpi: float | None = None) -> list[str]:
    """Every breach of the checklist in ``fig`` (see the module docstring), one sentence each;
    laid out at ``dpi`` (:data:`SAVED_DPI`, the report's PNG dpi, by default)."""
    clipped, covered = _measured(fig, dpi)
    out = clipped + covered
    for i, ax in enumerate(fig.axes):
        if not ax.get_visible():
            continue
        name = ax.get_title() or f"panel {i + 1}"
        for axis in ("x", "y"):
            label = ax.get_xlabel() if axis == "x" else ax.get_ylabel()
            units = _units_in(label)
            if len(units) > 1:
                out.append(f"{name}: the {axis} axis mixes units {sorted(units)} ({label!r})")
            lo, hi = ax.get_xlim() if axis == "x" else ax.get_ylim()
            lo, hi = min(lo, hi), max(lo, hi)
            if axis in getattr(ax, "_balance_share", ()):
                if lo < -1e-9 or hi > 1 + 1e-9:
                    out.append(f"{name}: the share axis runs {100 * lo:.0f}–{100 * hi:.0f}%, not within 0–100%")
            if axis in getattr(ax, "_balance_integer", ()):
                ticks = (ax.get_xticks() if axis == "x" else ax.get_yticks())
                ticks = [v for v in ticks if lo - 1e-9 <= v <= hi + 1e-9]
                frac = [v for v in ticks if abs(v - round(v)) > 1e-9]
                if frac:
                    out.append(f"{name}: integer setting with ticks at {frac}")
        out += [f"{name}: {p}" for p in _off_axes(ax)]
        lo, hi = sorted(ax.get_ylim())
        if ax.images:                       # a heat map's axes are categories, not values
            continue
        if ax.get_yaxis().get_visible() and ax.get_ylabel() and lo > 0 and (hi - lo) < 0.5 * hi:
            if "zoom" not in (ax.get_ylabel() + " " + ax.get_title()).lower():
                out.append(f"{name}: the y axis runs {lo:.3g}–{hi:.3g} (zoomed) without saying so")
    return out
