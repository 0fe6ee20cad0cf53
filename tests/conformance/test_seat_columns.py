"""simcore.contract.SeatStrategies: the common columns of every game's player rows (game, seat,
strategy, deal, rotation) and the strategy codes, built from one period of rotations repeated,
equal the per-row definition: game g's seat s is played by strategy row (s + g % n_rot) % P,
in deal g // n_rot and rotation g % n_rot (docs: the runner's seat rotation)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from simcore.contract import SeatStrategies


@pytest.mark.parametrize("names", [["a", "b", "c", "d"], ["random"] * 4, ["x", "yy", "x"],
                                   ["é", "b", "c", "d", "e"], ["solo", "duo"]])
def test_the_common_columns_follow_the_per_row_definition(names):
    seats = SeatStrategies(names)
    P = len(names)
    for first, n, n_rot in itertools.product([0, 1, 3, 130], [0, 1, 2, 5, 257], [1, P]):
        g = np.repeat(np.arange(first, first + n), P)
        s = np.tile(np.arange(P), n)
        row = (s + g % n_rot) % P
        want = [names[r] for r in row]
        codes = seats.row_codes(first, n, n_rot)
        assert codes.dtype == np.int32 and [seats.labels[c] for c in codes] == want
        cols = seats.columns(first, n, n_rot)
        assert cols["strategy"].to_pylist() == want
        assert cols["game"].tolist() == g.tolist() and cols["game"].dtype == np.int64
        assert cols["seat"].tolist() == s.tolist() and cols["seat"].dtype == np.int8
        assert cols["deal"].tolist() == (g // n_rot).tolist() and cols["deal"].dtype == np.int64
        assert cols["rotation"].tolist() == (g % n_rot).tolist() and cols["rotation"].dtype == np.int8
        if n_rot == 1 and n:              # one array for both: nobody may write into it
            assert not cols["deal"].flags.writeable
