"""Golden playthrough of Seigneurial: the reference engine's full log of one fixed game.

``python -m simcore.games.seigneurial.golden`` prints the log (4 players, seed 7, game 0, random
strategies, default rules: season by season, every decision, draw and payment, then the final SG-8
table; seats numbered from 1, ``P1`` is seat 1 (the Seigneur), as in ``balance replay`` and the
reports); ``--write`` regenerates ``tests/golden/seigneurial_4p_seed7.txt``; ``--check`` exits 1 and
prints a unified diff when the committed file differs, so a rules or engine change shows up as a
readable diff. May import the standard library, :mod:`simcore.golden` (the shared command line) and
:mod:`simcore.games.seigneurial` (rules, reference).
"""

from __future__ import annotations

import sys

from simcore import golden as shared_golden
from simcore.games.seigneurial import reference, rules

N_PLAYERS, SEED, GAME = 4, 7, 0
GOLDEN_PATH = shared_golden.golden_path("seigneurial_4p_seed7.txt")


def render() -> str:
    """The golden text: the reference log of the fixed game, then its final table."""
    return shared_golden.logged_playthrough(reference, rules.load(), N_PLAYERS, SEED, GAME,
                                            "Final table (SG-8)", shown=10)


GOLDEN = shared_golden.Golden(render, GOLDEN_PATH, "python -m simcore.games.seigneurial.golden", __doc__)
diff, main = GOLDEN.diff, GOLDEN.main


if __name__ == "__main__":
    sys.exit(main())
