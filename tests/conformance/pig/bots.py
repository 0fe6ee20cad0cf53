"""Pig's bots in the kernel (PG-5), jit-compiled by Numba. May import numba and :mod:`simcore.rng`."""

from numba import njit

from simcore.rng import below

HOLD, ROLL = 0, 1


@njit(cache=True)
def decide(st, row, turn_total, banked, target):
    """The one draw of a decision is random's choice and the hold_at bot's unused tie-break."""
    r = below(st, 2)
    if row[0] == 0:
        return r
    return HOLD if turn_total >= row[1] or banked + turn_total >= target else ROLL
