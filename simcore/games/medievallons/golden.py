"""Golden playthrough of Médiévallons: the reference engine's full log of one fixed game.

``python -m simcore.games.medievallons.golden`` prints the log (4 players, seed 7, game 0, random
strategies, default rules: turn by turn, every decision and power, then the final MV-9 table;
seats numbered from 1, ``P1`` is seat 1, as in ``balance replay`` and the reports);
``--write`` regenerates ``tests/golden/medievallons_4p_seed7.txt``; ``--check`` exits 1 and prints a
unified diff when the committed file differs, so a rules or engine change shows up as a readable
diff. May import the standard library, :mod:`simcore.golden` (the shared command line) and
:mod:`simcore.games.medievallons` (rules, reference).
"""

from __future__ import annotations

import sys

from simcore import golden as shared_golden
from simcore.games.medievallons import reference, rules

N_PLAYERS, SEED, GAME = 4, 7, 0
GOLDEN_PATH = shared_golden.golden_path("medievallons_4p_seed7.txt")


def render() -> str:
    """The golden text: the reference log of the fixed game, then its final table."""
    return shared_golden.logged_playthrough(reference, rules.load(), N_PLAYERS, SEED, GAME,
                                            "Final table (MV-9)", shown=12)


GOLDEN = shared_golden.Golden(render, GOLDEN_PATH, "python -m simcore.games.medievallons.golden", __doc__)
diff, main = GOLDEN.diff, GOLDEN.main


if __name__ == "__main__":
    sys.exit(main())
