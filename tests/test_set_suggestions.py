"""A --set key given without its section, or a word value misspelt, is refused with a suggestion.

``--set hand_size=5`` (Médiévallons keeps it under [setup]) and ``--set favour.when_rent_met=
volontary`` (Seigneurial takes "distribution" or "voluntary") are still one line and exit code 2;
the line now says which key or word was meant. The expected keys are written here from the shipped
rules files (read below as TOML, not through the code under test)."""

from __future__ import annotations

import tomllib

import pytest

from cli import _run
from simcore.config import apply_settings, parse_setting, read_toml
from simcore.errors import UsageError
from simcore.games.fief import rules as FR
from simcore.games.medievallons import rules as MV
from simcore.games.middle_ages import rules as MA
from simcore.games.seigneurial import rules as SG


def _refusal(rules, *texts) -> str:
    src = apply_settings(read_toml(rules.default_rules_path()), [parse_setting(t) for t in texts],
                         seats=4)
    with pytest.raises(UsageError) as e:
        rules.from_source(src)
    return str(e.value)


def test_the_shipped_files_hold_the_keys_the_suggestions_name():
    mv = tomllib.loads(MV.default_rules_path().read_text(encoding="utf-8"))
    assert "hand_size" in mv["setup"] and "hand_size" not in mv
    assert "max_turns" in mv["end"] and "artisan" in mv["deck"]["copies"]
    ma = tomllib.loads(MA.default_rules_path().read_text(encoding="utf-8"))
    assert "start_coins" in ma["setup"] and "base" in ma["income"]["palais"]


@pytest.mark.parametrize("typed, meant", [
    ("hand_size=5", "setup.hand_size"),              # the key without its section
    ("hand_sise=5", "setup.hand_size"),              # ... and misspelt
    ("max_turn=40", "end.max_turns"),
    ("setup.max_turns=40", "end.max_turns"),         # under the wrong section
    ("copies.artisan=3", "deck.copies.artisan"),     # a table without its section
])
def test_a_key_without_its_section_names_where_it_is(typed, meant):
    msg = _refusal(MV, typed)
    assert f"unknown key; did you mean {meant}? (known here:" in msg
    assert "\n" not in msg


def test_a_misspelt_key_of_its_own_table_is_still_suggested_from_that_table():
    assert "setpu: unknown key; did you mean setup? (known here:" in _refusal(MV, "setpu.hand_size=5")
    assert "setup.hand_sise: unknown key; did you mean hand_size? (known here:" in _refusal(
        MV, "setup.hand_sise=5")


def test_a_name_found_nowhere_gets_no_suggestion():
    msg = _refusal(MV, "zzz_unheard_of=1")
    assert "zzz_unheard_of: unknown key (known here: deck, end," in msg and "did you mean" not in msg


def test_a_name_in_many_tables_names_each_up_to_three():
    msg = _refusal(MA, "base=4")
    hint = msg.split("did you mean ", 1)[1].split("?", 1)[0]
    places = hint.split(" or ")
    assert len(places) == 4 and places[-1] == "…"
    assert all(p.startswith("income.") and p.endswith(".base") for p in places[:3])


def test_an_indexed_key_without_its_section_names_it_with_the_index():
    with pytest.raises(UsageError) as e:
        apply_settings(read_toml(MA.default_rules_path()), [parse_setting("start_coins[0]=3")], seats=4)
    assert "start_coins: unknown key; did you mean setup.start_coins[0]? (known here:" in str(e.value)


@pytest.mark.parametrize("rules, typed, word", [
    (SG, "favour.when_rent_met=volontary", "voluntary"),
    (FR, "plague.removed_rounding=dwn", "down"),
])
def test_a_misspelt_word_value_suggests_the_word(rules, typed, word):
    msg = _refusal(rules, typed)
    assert msg.endswith(f"got {typed.split('=')[1]!r}; did you mean {word}?")
    assert "must be one of" in msg


def test_a_word_far_from_every_choice_gets_no_suggestion():
    msg = _refusal(SG, "favour.when_rent_met=xyzzy")
    assert "must be one of distribution, voluntary; got 'xyzzy'" in msg and "did you mean" not in msg


def test_simulate_says_it_in_one_line_with_exit_code_2(tmp_path, capsys):
    code = _run(["simulate", "--game", "medievallons", "--games", "100", "--set", "hand_size=5",
                 "--out", str(tmp_path / "run"), "--quiet"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1
    assert "hand_size: unknown key; did you mean setup.hand_size?" in err
    assert not (tmp_path / "run").exists()
