"""Automatic tuning: search rule settings that meet balance targets, then confirm on fresh games.

:mod:`analysis.tune.targets` reads ``--target`` and judges targets on per-game samples (an
objective in units of the target's tolerance, with an interval, and whether the target is met);
:mod:`analysis.tune.search` runs the Optuna study with racing (few games for poor candidates,
more for promising ones), writes the trial log, the best rules file and the confirmation run.
:mod:`analysis.tune.store` reads a tune directory (what the report shows);
:mod:`analysis.tune.advice` says what a tune's page says beyond its verdict (the search's path to
the confirmation, the seats a per-seat setting names, each seat's response, the settings as good
as the best); :mod:`analysis.tune.ends` how the confirmation games ended (the share stopped at the
turn limit, and the warning a verdict leads with from :data:`~analysis.tune.ends.TURN_LIMIT_WARN`).
Only ``search`` imports
the runner and Optuna.

May import numpy, polars, the standard library, :mod:`simcore` and :mod:`analysis.sweep`
(:mod:`.ends` also :mod:`analysis.load` and :mod:`analysis.length`);
:mod:`.search` also :mod:`simcore.runner` and optuna (lazily).
"""
