"""Golden playthrough of Middle-Ages: the reference engine's full log of one fixed game.

``python -m simcore.games.middle_ages.golden`` prints the log (4 players, seed 7, game 0, random
strategies, default rules: turn by turn, every decision with its options, then the final MA-12
table; seats numbered from 1, ``P1``
is seat 1, as in ``balance replay`` and the reports); ``--write`` regenerates
``tests/golden/middle_ages_4p_seed7.txt``; ``--check`` exits 1 and prints a unified diff when the
committed file differs, so a rules or engine change shows up as a readable diff. May import the
standard library, :mod:`simcore.golden` (the shared command line) and
:mod:`simcore.games.middle_ages` (rules, reference).
"""

from __future__ import annotations

import sys

from simcore import golden as shared_golden
from simcore.games.middle_ages import reference, rules

N_PLAYERS, SEED, GAME = 4, 7, 0
GOLDEN_PATH = shared_golden.golden_path("middle_ages_4p_seed7.txt")


def render() -> str:
    """The golden text: the reference log of the fixed game with every decision and up to 12 of its
    options (review s52: without them a change to the legal options showed only where it changed a
    random pick), then its final table, seats numbered from 1 (:func:`simcore.golden.people_log`)."""
    return shared_golden.logged_playthrough(reference, rules.load(), N_PLAYERS, SEED, GAME,
                                            "Final table (MA-12)", shown=12)


GOLDEN = shared_golden.Golden(render, GOLDEN_PATH, "python -m simcore.games.middle_ages.golden", __doc__)
diff, main = GOLDEN.diff, GOLDEN.main


if __name__ == "__main__":
    sys.exit(main())
