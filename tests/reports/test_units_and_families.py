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


def _declared_units() -> set[str]:
    """Every unit a registered game declares: its score unit, each column's unit and the unit its
    length in turns is said in."""
    from analysis.length import length_unit
    from simcore import games as registry

    units = set()
    for name, spec in registry.specs().items():
        units |= {spec.score_unit, length_unit(name)}
        units |= {c.unit for c in (*spec.all_player_columns, *spec.all_game_columns)}
    return {u for u in units if u and not u.startswith("%")}


def test_exactly_one_of_every_unit_a_game_declares_is_singular():
    """ "1 guild cards" (session 56 review): the plural went only for one-word and length units."""
    units = _declared_units()
    assert {"guild cards", "favour points", "coins", "turns", "player turns"} <= units
    for unit in units:
        one, two = amount("1", unit), amount("2", unit)
        assert two == f"2 {unit}"
        assert one == f"1 {unit[:-1]}" if unit.endswith("s") else one == f"1 {unit}", one
        assert amount("−1", unit) == "−" + one and amount("1.5", unit) == f"1.5 {unit}"
    assert amount("1", "guild cards") == "1 guild card" and amount("+1", "lead changes") == "+1 lead change"
    # a unit whose head is not a plural keeps its words: a pp of own goal, a pp per tile, the index
    assert amount("1", "pp of own goal") == "1 pp of own goal"
    assert amount("1", "pp per tile") == "1 pp per tile"
    assert amount("1", "index (1 = equal seats)") == "1 index (1 = equal seats)"


def test_the_holm_family_of_role_seats_is_named_by_its_role():
    one = pl.DataFrame({"role_label": ["Seigneur", "Censitaire", "Censitaire", "Censitaire"],
                        "p_value": [float("nan"), 0.2, 0.2, 0.2]})
    assert shared_role_seats(one, 3) == "3 Censitaire seats"
    two = pl.DataFrame({"role_label": ["A", "A", "B", "B"], "p_value": [0.1] * 4})
    assert shared_role_seats(two, 4) == "4 seats that share their role"


def test_the_role_chi_square_is_shown_once_per_role():
    """A role's chi-square tests all its seats at once: on the role's first row only, not beside
    each seat's own verdict (revB: "p < 0.001" beside a seat "within noise" read as that seat's)."""
    from reports.sections import role_seat_rows

    n = float("nan")
    s = pl.DataFrame({
        "role": ["seigneur", "censitaire", "censitaire", "censitaire"],
        "role_label": ["Seigneur", "Censitaire", "Censitaire", "Censitaire"],
        "seat_label": [f"Seat {k}" for k in range(1, 5)], "games": [100] * 4,
        "win_share": [0.1, 0.3, 0.3, 0.3], "ci_low": [0.05, 0.2, 0.2, 0.2], "ci_high": [0.2, 0.4, 0.4, 0.4],
        "share_of_role": [1.0, 0.4, 0.3, 0.3], "share_low": [n, 0.3, 0.2, 0.2], "share_high": [n, 0.5, 0.4, 0.4],
        "equal_share": [1.0, 1 / 3, 1 / 3, 1 / 3], "verdict": ["", "x", "x", "x"],
        "seat_p_value": [n, 0.01, 0.5, 0.5], "p_value": [n, 1e-5, 1e-5, 1e-5]})
    rows = role_seat_rows({"role_seats": s})
    chi = rows[rows.columns[-1]].to_list()
    assert chi[0] == "" and chi[1] != "" and chi[2:] == ["", ""], chi


def test_a_change_of_a_percentage_unit_is_in_points():
    """rev22: "+0.62% of own goal" read as a relative change; a change of a percentage is in
    percentage points."""
    from reports.text import change_unit, metric_change

    assert change_unit("% of own goal") == "pp of own goal" and change_unit("coins") == "coins"
    r = {"metric": "score_spread", "kind": "mean", "diff": 0.62, "diff_low": 0.44, "diff_high": 0.79,
         "base": 19.0, "variant": 19.62}
    change, interval = metric_change(r, "% of own goal")
    assert change == "+0.62 pp of own goal" and interval.endswith("pp of own goal"), (change, interval)
