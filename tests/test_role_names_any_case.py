"""Review X #4: ``balance games`` and every report print the roles capitalised ("Seigneur",
"Censitaire"), but ``--target role=Seigneur:0.30:10`` and ``--lineup Seigneur=harsh-lord,…`` were
refused ("unknown role 'Seigneur' (known: seigneur, censitaire)"). A role is now taken as named
in any case; a name of no role is still one clear error."""

from __future__ import annotations

import pytest

from simcore.errors import UsageError


@pytest.mark.parametrize("text", ["seigneur", "Seigneur", "SEIGNEUR"])
def test_a_role_target_takes_the_role_in_any_case(text):
    from analysis.tune.targets import parse_target

    t = parse_target(f"role={text}:0.30:10", "seigneurial")
    assert t.role == "seigneur" and t.aim == pytest.approx(0.30)


def test_a_line_up_by_role_takes_the_roles_in_any_case():
    from strategies.panels import from_options

    a = from_options("seigneurial", players="4", lineups=["Seigneur=harsh-lord,CENSITAIRE=fair-share"])
    b = from_options("seigneurial", players="4", lineups=["seigneur=harsh-lord,censitaire=fair-share"])
    assert [c.lineup for c in a.cells] == [c.lineup for c in b.cells]
    assert a.cells[0].lineup == ("harsh-lord", "fair-share", "fair-share", "fair-share")


def test_a_name_of_no_role_is_still_refused():
    from analysis.tune.targets import parse_target

    with pytest.raises(UsageError, match="unknown role 'lord'"):
        parse_target("role=lord:0.30", "seigneurial")
