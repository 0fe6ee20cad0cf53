"""reports: turn analysis tables into designer-facing documents (matplotlib figures, HTML, PDF).

By job, then by game:

- :mod:`reports.build` -- ``build_report``: analyse the runs, build the sections, write the report
  directory atomically;
- :mod:`reports.sections` -- the sections every report has and where a game's own go;
- :mod:`reports.text` -- number formats and headline sentences;
- :mod:`reports.html`, :mod:`reports.pdf` -- the self-contained HTML page and the PDF (laid out by
  ``pdf``, written by :mod:`reports.pdfdoc`: text in an embedded TrueType subset, the PNGs as they are);
- :mod:`reports.questions` -- reading a questions directory and checking it matches the baseline;
- :mod:`reports.figures` -- ``common`` (style + common figures) and one module per game
  (``middle_ages``, ``medievallons``, ``fief``: the Fief odds heat map);
- :mod:`reports.games` -- one report hook per game (``middle_ages``, ``medievallons``), found through
  the game spec's ``report_hooks``, never by testing a game's name.

Reports only read: the tables of :func:`analysis.analyse` and of a questions directory written by
:mod:`analysis.questions` (played beforehand by ``balance questions RUN --out DIR`` or by
``balance report`` itself); they never play a game and compute no statistics of their own beyond
intervals (and Holm's correction) from the standard errors those tables give, so every number shown
can be traced to a table. No two report modules import each other in a cycle.

May import matplotlib (Agg backend only), PIL (matplotlib's image library), polars, numpy, the standard library, :mod:`analysis`
(tables, stats, labels), :mod:`simcore.games` (the registry: specs and hooks),
:mod:`simcore.rundir` and :mod:`simcore.errors`; never :mod:`simcore.runner`, a kernel,
:mod:`strategies` or :mod:`cli`.
"""
