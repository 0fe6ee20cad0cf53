"""Review fx04 #3, Fief heat maps (FF-7): `balance fief-odds --attackers 1-30 --defenders 1-20
--terrain all`: the P ≥ 90% border was a thin (1.2 pt) vermillion line, lost on the yellow cells it
runs between, and the legend was set in 7 pt type, smaller than every other text of the figure.

Every level's border now stands out on every colour of the colour map: whatever the cell's colour,
one of the two outer layers of the drawn line (a dark ring, a light halo outside it) differs from it
by a luminance contrast of at least 3:1 (WCAG 2's minimum for graphics, 1.4.11), and no border is
thinner than 3 pt overall. The legend's text is the size of the axes' tick labels. The line's layers
are read from the drawn figure (its collections' widths, colours and path effects), not from the
module's constants. Small exact grids (milliseconds)."""

from __future__ import annotations

import matplotlib as mpl
import matplotlib.colors as mcolors
import numpy as np
import pytest
from matplotlib import patheffects

from reports.figures import fief as figs
from simcore.games.fief.odds import odds_frame

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

LEVELS = (0.5, 0.75, 0.9)


def _figure(rules, terrain="castle", levels=LEVELS):
    odds = odds_frame(rules, range(1, 13), range(1, 9), [terrain])
    return figs.heatmap_figure(odds, terrain, levels)


def _luminance(colour) -> float:
    """WCAG 2 relative luminance."""
    rgb = np.asarray(mcolors.to_rgb(colour))
    lin = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    return float(lin @ [0.2126, 0.7152, 0.0722])


def _contrast(a, b) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)))
    return (lb + 0.05) / (la + 0.05)


def _strokes(artist, width, colour) -> list[tuple[float, str]]:
    """(width, colour) of every stroke an artist draws: its path effects' strokes, and itself
    unless its effects replace it (a Normal effect draws it; no effects at all: drawn as is)."""
    fx = artist.get_path_effects() or []
    out = [(e._gc.get("linewidth", width), e._gc.get("foreground", colour))
           for e in fx if isinstance(e, patheffects.Stroke)]
    if not fx or any(isinstance(e, patheffects.Normal) for e in fx):
        out.append((width, colour))
    return out


def _lines(fig) -> list[list[tuple[float, str]]]:
    """Each border as drawn: the strokes of every line collection over the same segments, widest
    first."""
    groups: dict[tuple, list] = {}
    for c in fig.axes[0].collections:
        segs = c.get_segments()
        if not segs:
            continue
        key = tuple(np.round(np.concatenate(segs).ravel(), 6))
        groups.setdefault(key, []).extend(
            _strokes(c, float(c.get_linewidths()[0]), mcolors.to_hex(c.get_colors()[0])))
    return [sorted(g, key=lambda s: -s[0]) for g in groups.values()]


def _outer_layers(strokes) -> list[tuple[float, str]]:
    """The two outermost layers a cell beside the line touches or sees next: (width per side in
    points, colour); the innermost layer is the core (half its width each side)."""
    out = []
    for k, (w, colour) in enumerate(strokes[:2]):
        nxt = strokes[k + 1][0] if k + 1 < len(strokes) else 0.0
        out.append(((w - nxt) / 2 if nxt else w / 2, colour))
    return out


@pytest.mark.parametrize("terrain, levels", [("castle", LEVELS), ("open", LEVELS), ("city", LEVELS),
                                             ("castle", (0.5, 0.75, 0.9, 0.99))])
def test_every_border_stands_out_on_every_colour_of_the_map(rules, terrain, levels):
    fig = _figure(rules, terrain, levels)
    lines = _lines(fig)
    assert len(lines) == len(levels), lines
    cmap = mpl.colormaps[fig.axes[0].images[0].get_cmap().name]
    cells = [cmap(x) for x in np.linspace(0, 1, 256)]
    for strokes in lines:
        assert strokes[0][0] >= 3.0, strokes               # no hairline: 3 pt or more overall
        layers = [(w, c) for w, c in _outer_layers(strokes) if w >= 0.5]
        worst = min(max((_contrast(c, cell) for _, c in layers), default=1.0) for cell in cells)
        assert worst >= 3.0, (strokes, worst)


def test_the_legend_reads_at_the_size_of_the_tick_labels(rules):
    fig = _figure(rules)
    fig.draw_without_rendering()
    ticks = min(t.get_fontsize() for t in fig.axes[0].get_yticklabels() if t.get_text())
    texts = fig.legends[0].get_texts()
    assert texts and all(t.get_fontsize() >= max(9.0, ticks) for t in texts), \
        ([t.get_fontsize() for t in texts], ticks)


def test_the_legend_draws_each_border_as_the_map_does(rules):
    """The legend's sample of each level has the line's layers: the same strokes, widths and
    colours as on the cells (a halo that the sample lacked would name another line)."""
    fig = _figure(rules)
    lines = _lines(fig)
    handles = fig.legends[0].legend_handles
    for h, strokes in zip(handles, lines):
        drawn = sorted(_strokes(h, h.get_linewidth(), mcolors.to_hex(h.get_color())), key=lambda s: -s[0])
        assert [(w, mcolors.to_hex(c)) for w, c in drawn] == [(w, mcolors.to_hex(c)) for w, c in strokes]
