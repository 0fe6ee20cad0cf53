"""reports: turn analysis tables into designer-facing documents (matplotlib figures, HTML, PDF).

:mod:`reports.figures` draws one figure per report section; :mod:`reports.html` writes the report
directory (``build_report``); :mod:`reports.medievallons` is the Médiévallons hook that plays the
balance questions a run cannot answer (other player counts, card ablation, best of 3) and adds their
section. Reports only read the tables of :func:`analysis.analyse` and of
:mod:`simcore.games.medievallons.questions` (written next to the report as CSV); they never compute
statistics of their own beyond intervals (and Holm's correction) from the standard errors those
tables give, so every number shown can be traced to a table.

May import matplotlib (Agg backend only), polars, numpy, the standard library, :mod:`analysis`,
:mod:`simcore.rundir` / :mod:`simcore.errors` and, in :mod:`reports.medievallons` only (lazily),
:mod:`simcore.games.medievallons` and :mod:`strategies`.
"""
