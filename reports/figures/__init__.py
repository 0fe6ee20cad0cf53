"""reports.figures: the report's matplotlib figures, by job and then by game.

:mod:`reports.figures.common` holds the style (palette, rc settings, rendering) and the figures every
report has (seats, matchups, scores, game flow, game length, before/after); one module per game holds
that game's figures (:mod:`reports.figures.middle_ages`, :mod:`reports.figures.medievallons`,
:mod:`reports.figures.fief`). Importing the package imports no figure module.

May import nothing itself; its modules may import matplotlib (Agg backend only), numpy, polars and
:mod:`analysis` (labels only).
"""
