"""The terminal's skill table: one searching seat's mean win share by role (designer review 44
#10). A role of several seats is averaged over its seats, so the cell says "a seat": read bare,
"Censitaire 70.0%" beside the page's side totals looked like the Censitaires' share."""

from __future__ import annotations

import polars as pl

from cli.skill import _mean_by_role


def test_a_role_of_several_seats_is_said_per_seat_and_weighted_by_games():
    one = pl.DataFrame({"seat": [0, 1, 2], "win_share": [0.13, 0.66, 0.70], "games": [100, 100, 300]})
    # the Censitaires' seats: (0.66 × 100 + 0.70 × 300) / 400 = 69.0%
    assert _mean_by_role(one, ("seigneur", "censitaire", "censitaire"), False) == \
        "Seigneur 13.0%; Censitaire 69.0% a seat"
    assert _mean_by_role(one, ("player",) * 3, True) == "57.8%"     # (13 + 66 + 210) / 5
