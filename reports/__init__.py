"""reports: turn analysis tables into designer-facing documents (matplotlib figures, HTML, PDF).

:mod:`reports.figures` draws one figure per report section; :mod:`reports.html` writes the report
directory (``build_report``). Reports only read the tables of :func:`analysis.analyse`; they never
compute statistics of their own, so every number shown can be traced to a metric table.

May import matplotlib (Agg backend only), polars, numpy, the standard library, :mod:`analysis` and
:mod:`simcore.rundir` / :mod:`simcore.errors`.
"""
