"""Review K #5: the skill page's tables wrote "1500" games where every other table writes "1,500",
and in the Seigneurial skill figure the Seigneur's markers at 0% were half cut off by the axis.
Constructed tables; the figure is measured on its drawn artists (marker extents in pixels against
the axes' box), not on how it was made."""

from __future__ import annotations

import polars as pl

from analysis import skill as K


def _table(games: int = 1500) -> pl.DataFrame:
    rows = []
    for b in (0, 4):
        for part in ("one", "all"):
            for s in range(4):
                x = 0.0 if s == 0 else 1 / 3
                rows.append(("4p 4×standard", 4, b, part, s, "seigneur" if s == 0 else "censitaire",
                             "standard", games, x, 0.0, 0.02 if s == 0 else 0.36,
                             *(None,) * len(K.BALANCE_COLUMNS), None, None, None, None))
    return pl.DataFrame(rows, schema=K.SCHEMA, orient="row")


def test_the_win_share_table_writes_games_with_a_thousands_separator():
    from reports.skill import _percent

    assert set(_percent(_table())["games"].to_list()) == {"1,500"}


def test_a_marker_at_0_percent_is_drawn_whole():
    import matplotlib

    matplotlib.use("Agg")
    from reports.figures.checklist import problems
    from reports.skill import budget_figure

    fig = budget_figure(_table(), ("seigneur",) + ("censitaire",) * 3, None)
    fig.canvas.draw()
    dpi = fig.dpi
    cut = []
    for ax in fig.axes:
        box = ax.get_window_extent()
        for line in ax.lines:
            if line.get_marker() in (None, "", "None") or not len(line.get_ydata()):
                continue
            half = line.get_markersize() * dpi / 72 / 2
            for x, y in zip(line.get_xdata(), line.get_ydata()):
                px, py = ax.transData.transform((x, y))
                whole = box.y0 <= py - half and py + half <= box.y1
                if line.get_clip_on() and not whole:
                    cut.append((line.get_label(), y))
    assert not cut, cut
    # and the figure still passes the checklist (its share axis within 0-100%)
    assert not problems(fig), problems(fig)
