"""Which runs ``balance replay`` can replay, without importing the runner.

A report names the ``balance replay`` command for a run (``reports.sections.replay_line``) but only
reads; it asks here whether the game has a reference engine to replay with, and imports neither
the runner nor a kernel (:mod:`simcore.replay`, which plays, imports the runner).

May import the standard library and :mod:`simcore.games` (the registry).
"""

from __future__ import annotations

from simcore import games as registry


def run_hook(spec):
    """The reference's own ``replay_run(meta, game)`` when the game has one, else None.

    A game without bots or decisions (Fief combats: dice only) is replayed by its reference engine
    alone, from run.json's record of the matchup and rules and the game's stream (seed, game); the
    hook returns the log and the final figures of players.parquet and games.parquet
    (``lines``, ``seat_figures``, ``game_figures``)."""
    import importlib.util

    name = spec.module_folder + ".reference"
    try:
        found = importlib.util.find_spec(name)
    except ImportError:
        found = None
    if found is None:
        return None
    return getattr(registry.import_hook(name), "replay_run", None)


def can_replay(spec) -> bool:
    """Whether ``balance replay`` (and ``simulate --log``) can replay this game's runs."""
    return bool(spec.reference and spec.strategies is not None) or run_hook(spec) is not None
