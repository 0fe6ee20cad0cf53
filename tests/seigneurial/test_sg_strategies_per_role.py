"""``simulate --strategies`` takes one bot per role, as ``--lineup`` and ``balance skill`` do
(designer review 44 #4: ``simulate --game seigneurial --strategies greedy-lord,objective`` was
refused with "2 names for 4 players")."""

from __future__ import annotations

import pytest

from simcore.errors import UsageError
from strategies.panels import seats_of_roles


def test_one_bot_per_role_is_spelled_out_per_seat():
    assert seats_of_roles("seigneurial", "greedy-lord,objective", 4) == "greedy-lord,objective,objective,objective"
    assert seats_of_roles("seigneurial", "harsh-lord,dutiful", 3) == "harsh-lord,dutiful,dutiful"
    # one per seat, one for every seat, and games without roles: as given
    assert seats_of_roles("seigneurial", "even-lord,a,b,c", 4) == "even-lord,a,b,c"
    assert seats_of_roles("seigneurial", "standard", 4) == "standard"
    assert seats_of_roles("middle-ages", "greedy,balanced", 4) == "greedy,balanced"
    # two bots at 2 players are one per seat (the roles' count equals the players')
    assert seats_of_roles("seigneurial", "objective,greedy-lord", 2) == "objective,greedy-lord"


def test_a_bot_in_the_wrong_role_is_still_refused_by_the_seats_check():
    from strategies import seigneurial as S
    seats = seats_of_roles("seigneurial", "objective,greedy-lord", 4)    # (in the roles' order)
    with pytest.raises(UsageError, match="seat 1 is a Seigneur but objective plays only the Censitaire role"):
        S.resolve(seats.split(","), 4)
