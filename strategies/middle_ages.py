"""Middle-Ages strategies: names → the parameter rows the kernel interprets (MA-11).

A strategy is data: one float64 row per seat, column 0 the kind (see
:mod:`simcore.games.middle_ages.kernel`), the other columns its weights. This module resolves what a
user typed (``--strategies random`` or one name per seat) into those rows and validates it.

May import numpy, the standard library and :mod:`simcore`.
"""

from __future__ import annotations

import numpy as np

from simcore.errors import UsageError
from simcore.games.middle_ages.kernel import N_STRAT_COLS, STRAT_RANDOM

PRESETS = {"random": ("Picks uniformly among the legal options of every decision (MA-11).", STRAT_RANDOM)}


def resolve(spec: list[str] | str, n_players: int) -> tuple[list[str], np.ndarray]:
    """One name for every seat or one per seat → (names per seat, strategy rows)."""
    names = [s.strip() for s in spec.split(",")] if isinstance(spec, str) else list(spec)
    if len(names) == 1:
        names = names * n_players
    if len(names) != n_players:
        raise UsageError(f"--strategies: {len(names)} names for {n_players} players "
                         "(give one name for every seat or one per seat)")
    rows = np.zeros((n_players, N_STRAT_COLS), np.float64)
    for seat, name in enumerate(names):
        if name not in PRESETS:
            raise UsageError(f"--strategies: unknown strategy {name!r} (known: {', '.join(PRESETS)})")
        rows[seat, 0] = PRESETS[name][1]
    return names, rows
