"""Rule sweeps: many variants of one game's rules, played on common random numbers, then compared.

:mod:`analysis.sweep.grammar` reads ``--vary`` (what changes, over which values) and builds the
variants (a grid, or one parameter at a time); :mod:`analysis.sweep.play` validates every variant
through the runner before any game and plays them into one sweep directory (``sweep.json`` plus
one run directory per variant, resumable); :mod:`analysis.sweep.metrics` reads a sweep directory
back into headline metrics with intervals, per-parameter curves and paired effects (what the
sensitivity report shows). Only :mod:`.play` imports the runner, so reports may read sweeps.

May import polars, numpy, the standard library and :mod:`simcore` (config, errors, rundir,
atomic, the registry); :mod:`.play` also :mod:`simcore.runner`.
"""
