"""The int16 records of a Middle-Ages chunk (``driver.run_chunk``): their rows lie an odd number
of 64-byte cache lines apart whatever the chunk size, and the values are those of the games.

Why it matters: a game writes one value to each of the 36 record rows. With rows of exactly
``games x players`` entries, the runner's chunk sizes (131,072 games, and the ramp's powers of
two before it) made each row a multiple of 4,096 bytes long, so a game's 36 values fell in one
set of the L1 and L2 caches and evicted each other at every game (~10% of a random game's time
at 4 players: docs/middle_ages_engine.md, "Speed work"). The padding must not show in the
records: every column still holds exactly the chunk's player rows, game-major.
"""

from __future__ import annotations

import numpy as np
import pytest

from simcore.games.middle_ages import driver as D
from simcore.games.middle_ages import rules as R

RULES = R.load()
ROW_COLUMNS = ("event_gain", "coins_before_event", "coins_by_turn")   # views of the records


@pytest.mark.parametrize("games, players", [(512, 4), (1024, 2), (256, 4), (300, 5)])
def test_record_rows_are_an_odd_number_of_cache_lines_apart(games, players):
    out = D.run_chunk(RULES, players, 0, games, 7)
    for name in ROW_COLUMNS:
        col = out[name]
        assert col.shape[0] == games * players
        step = col.strides[1]           # bytes from one record row to the next
        assert step % 64 == 0 and (step // 64) % 2 == 1, (name, step)


def test_padded_records_hold_each_games_values():
    """A chunk of 512 four-player games (rows 4,096 bytes long before the padding) against the
    same games played one by one (chunks of one game: rows of 4 entries), column by column."""
    whole = D.run_chunk(RULES, 4, 0, 512, 3)
    singles = [D.run_chunk(RULES, 4, g, 1, 3) for g in range(0, 512, 37)]
    for name in ("score", "rank", "tiles", "graveyard", "penalty", "win_share", *ROW_COLUMNS):
        for k, g in enumerate(range(0, 512, 37)):
            np.testing.assert_array_equal(whole[name][4 * g:4 * g + 4], singles[k][name],
                                          err_msg=f"{name}, game {g}")
