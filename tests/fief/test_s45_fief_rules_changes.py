"""fief-odds and fief-calamity say what a changed rules file changes (Fief review 45 #4: with
``--rules`` the only trace of the change was the file's name in the titles). The expected settings
are read here from the two TOML texts with tomllib."""

from __future__ import annotations

import tomllib

from cli.tables import run_table_command
from simcore.games.fief.rules import default_rules_path
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

CASTLE = "castle = [0, 0, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5]"


def _changed_rules(tmp_path):
    text = default_rules_path().read_text(encoding="utf-8").splitlines()
    i = next(k for k, line in enumerate(text) if line.startswith("castle = ["))
    shipped = tomllib.loads("\n".join(text))
    text[i] = CASTLE
    path = tmp_path / "weak_castle.toml"
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    return path, shipped, tomllib.loads("\n".join(text))


def test_odds_with_another_rules_file_list_the_settings_it_changes(tmp_path, capsys):
    path, shipped, changed = _changed_rules(tmp_path)
    section = next(k for k, v in shipped.items() if isinstance(v, dict) and "castle" in v)
    assert shipped[section]["castle"] != changed[section]["castle"]
    run_table_command("fief-combat", "fief-odds", rules=path, out=tmp_path / "o", attackers="5-9", defenders="3-5",
                      terrain="castle", darc="none", method="exact", games=None, seed=None,
                      lords_attacker=None, lords_defender=None, mercy=None, levels="0.5")
    out = " ".join(capsys.readouterr().out.split())
    assert f"Rules: 1 setting differs from the shipped ones: {section}.castle: " in out, out
    assert "[0, 0, 1, 1, 1, 1, 2," in out


def test_the_shipped_rules_say_nothing_and_a_set_is_listed(tmp_path, capsys):
    run_table_command("fief-combat", "fief-odds", out=tmp_path / "o", attackers="5-6", defenders="3",
                      terrain="open", darc="none", method="exact", games=None, seed=None,
                      lords_attacker=None, lords_defender=None, mercy=None, levels="0.5")
    assert "Rules:" not in capsys.readouterr().out
    run_table_command("fief-combat", "fief-calamity", settings=["revolt.success_at_least=10"], out=tmp_path / "c")
    out = " ".join(capsys.readouterr().out.split())
    assert "Rules: 1 setting differs from the shipped ones: revolt.success_at_least: 4 → 10." in out, out


def test_the_break_even_title_names_the_lords(tmp_path, capsys):
    """Fief review 45 #6: --lords-defender 3 changed the table without a word in its title (the
    heat map's named the Lords)."""
    run_table_command("fief-combat", "fief-odds", out=tmp_path / "o", attackers="5-7", defenders="3",
                      terrain="castle", darc="none", method="exact", games=None, seed=None,
                      lords_attacker=None, lords_defender=3, mercy=None, levels="0.5")
    out = " ".join(capsys.readouterr().out.split())
    assert "beating a defender in a castle, Lords: attacker 1, defender 3 (at most its points)" in out or \
        "beating a defender in a castle, Lords: attacker 1, defender 3 (" in out, out
