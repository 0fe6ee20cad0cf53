"""Small wording of the report: a unit written as the game's spec gives it (no space before a
"%" unit, no plural after exactly 1), the Holm family of role seats named by its role, and the
winner's lead in a game with roles flagged as a rough figure."""

from __future__ import annotations

import polars as pl

from reports.text import amount, shared_role_seats


def test_amount_writes_the_unit_as_a_designer_reads_it():
    assert amount("19.27", "% of own goal") == "19.27% of own goal"
    assert amount("1", "turns") == "1 turn" and amount("2", "turns") == "2 turns"
    assert amount("1.5", "turns") == "1.5 turns" and amount("3", "guild cards") == "3 guild cards"
    assert amount("2", "coins") == "2 coins" and amount("4", "") == "4"


def test_the_holm_family_of_role_seats_is_named_by_its_role():
    one = pl.DataFrame({"role_label": ["Seigneur", "Censitaire", "Censitaire", "Censitaire"],
                        "p_value": [float("nan"), 0.2, 0.2, 0.2]})
    assert shared_role_seats(one, 3) == "3 Censitaire seats"
    two = pl.DataFrame({"role_label": ["A", "A", "B", "B"], "p_value": [0.1] * 4})
    assert shared_role_seats(two, 4) == "4 seats that share their role"
