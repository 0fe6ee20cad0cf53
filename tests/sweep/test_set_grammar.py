"""--set PATH=VALUE: the grammar, in-place editing of the rules text, and every error as one line.

No kernel runs here: the rules are validated by each game's own loader (the same code that reads
a rules file), which is what --set promises."""

from __future__ import annotations

import tomllib

import numpy as np
import pytest

from simcore import runner
from simcore.config import apply_settings, dumps, parse_setting, read_toml
from simcore.errors import ConfigError, UsageError
from simcore.games.fief import rules as FR
from simcore.games.medievallons import rules as MV
from simcore.games.middle_ages import rules as MA

MA_SRC = read_toml(MA.default_rules_path())


def test_paths_and_values_parse():
    s = parse_setting("income.palais.base=4")
    assert s.path == ("income", "palais", "base") and s.value == 4
    s = parse_setting("setup.start_coins[0] = 3")
    assert s.path == ("setup", "start_coins", 0) and s.value == 3
    assert parse_setting("tile_table.rows[5].chests=2").path == ("tile_table", "rows", 5, "chests")
    assert parse_setting("setup.start_coins=[2, 1, 0, 0]").value == [2, 1, 0, 0]
    assert parse_setting("scoring.allow_negative_coins=true").value is True
    assert parse_setting("x=2.5").value == 2.5
    assert parse_setting('combat.lords_removed="first"').value == "first"
    assert parse_setting("combat.lords_removed=first").value == "first"     # a bare word: a string
    assert parse_setting('setup.end_card."2"=red').path == ("setup", "end_card", "2")


@pytest.mark.parametrize("text, words", [
    ("income.palais.base", "expected PATH=VALUE"),
    ("income..base=1", "not a setting name"),
    ("income.palais.base=", "no value"),
    ("income.palais.base=[1,", "not a TOML value"),
    ("setup.start_coins[-1]=1", "0 or more"),
])
def test_malformed_settings_are_one_line(text, words):
    with pytest.raises(UsageError) as e:
        parse_setting(text)
    msg = str(e.value)
    assert words in msg and "\n" not in msg and text.split("=")[0].strip() in msg


def _ma(*texts, seats=4):
    src = apply_settings(MA_SRC, [parse_setting(t) for t in texts], seats=seats)
    rules = MA.from_source(src)
    MA.check_seats(rules, seats)
    return src, rules


def test_a_setting_changes_only_that_value_and_keeps_the_comments():
    src, rules = _ma("income.palais.base=5", "effects.moulin_payment=3")
    assert int(rules.income_base[MA.PALAIS]) == 5 and rules.param(MA.P_MOULIN_PAYMENT) == 3
    base = MA.load()
    assert int(base.income_base[MA.PALAIS]) == 3
    changed = [a for a, b in zip(MA_SRC.text.splitlines(), src.text.splitlines()[3:]) if a != b]
    assert len(src.text.splitlines()) == len(MA_SRC.text.splitlines()) + 3   # 3 header comments
    assert len(changed) == 2 and "# Moulin: what each opponent" in src.text
    expected = tomllib.loads(MA_SRC.text)
    expected["income"]["palais"]["base"] = 5
    expected["effects"]["moulin_payment"] = 3
    assert src.data == expected


def test_per_seat_start_coins_from_a_list_or_one_element():
    _, rules = _ma("setup.start_coins=[2, 1, 0, 0]")
    assert [rules.start_coins(s) for s in range(4)] == [2, 1, 0, 0]
    src, rules = _ma("setup.start_coins[2]=3")            # the scalar 0 becomes one value per seat
    assert [rules.start_coins(s) for s in range(4)] == [0, 0, 3, 0]
    assert src.data["setup"]["start_coins"] == [0, 0, 3, 0]
    _, rules = _ma("setup.start_coins=2")                  # a number still means every seat
    assert [rules.start_coins(s) for s in range(5)] == [2] * 5 and rules.start_coins_listed == 0


@pytest.mark.parametrize("texts, key, words", [
    (("setup.start_coinz=3",), "setup.start_coinz", "unknown key"),
    (("income.palais.base=x",), "income.palais.base", "must be an integer"),
    (("income.palais.base=1000",), "income.palais.base", "must be <= 100"),
    (("setup.start_coins=[1, 2]",), "setup.start_coins", "lists 2 seats but a 4-player game"),
    (("setup.start_coins[1]=5000",), "setup.start_coins[1]", "must be <= 1000"),
    (("events[3].per_chest=true",), "events[3].per_chest", "must be an integer"),
])
def test_bad_settings_fail_like_a_bad_file(texts, key, words):
    with pytest.raises(ConfigError) as e:
        _ma(*texts)
    msg = str(e.value)
    assert key in msg and words in msg and "\n" not in msg and "--set" in msg


def test_structural_errors_name_the_setting():
    with pytest.raises(UsageError, match=r"setup.start_coins\[7\] is past the end"):
        apply_settings(MA_SRC, [parse_setting("setup.start_coins=[1,2,3,4]"),
                                parse_setting("setup.start_coins[7]=1")])
    with pytest.raises(UsageError, match="is a table, not a list"):
        apply_settings(MA_SRC, [parse_setting("income.palais[0]=1")])
    # a misspelt key with an index is an unknown key (it used to read "past the end of the list
    # (0 elements)", as if the list existed and were empty)
    with pytest.raises(UsageError, match=r"setup.start_cons: unknown key; did you mean start_coins\?") as e:
        apply_settings(MA_SRC, [parse_setting("setup.start_cons[0]=1")])
    assert "past the end" not in str(e.value)


def test_every_game_takes_settings_through_its_own_loader():
    mv = MV.from_source(apply_settings(read_toml(MV.default_rules_path()),
                                       [parse_setting("guilds.to_win=2"),
                                        parse_setting("setup.hand_size=[5, 6, 7]")]))
    assert mv.to_win == 2 and [mv.hand(s) for s in range(3)] == [5, 6, 7]
    with pytest.raises(ConfigError, match="setup.hand_size: lists 3 seats"):
        MV.check_players(mv, 4)
    ff = FR.from_source(apply_settings(read_toml(FR.default_rules_path()),
                                       [parse_setting("darc.bonus=4")]))
    assert ff.source.data["darc"]["bonus"] == 4
    with pytest.raises(ConfigError, match="darc.bonuss"):
        FR.from_source(apply_settings(read_toml(FR.default_rules_path()),
                                      [parse_setting("darc.bonuss=4")]))


@pytest.mark.parametrize("path", [MA.default_rules_path(), MV.default_rules_path(),
                                  FR.default_rules_path()])
def test_the_fallback_writer_round_trips_every_shipped_rules_file(path):
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    assert tomllib.loads(dumps(data)) == data


def test_an_inline_table_entry_is_edited_in_place():
    src = apply_settings(read_toml(MV.default_rules_path()), [parse_setting('setup.end_card."2"=red')])
    assert "written again" not in src.text
    assert MV.from_source(src).end_card_red(2)


def test_runner_prepare_takes_settings_and_records_them():
    prep = runner.prepare("middle-ages", players=3, settings=["setup.start_coins[0]=4"],
                          engine="reference", strategies="random")
    assert prep.meta["settings"] == ["setup.start_coins[0]=4"]
    assert "start_coins = [4, 0, 0]" in prep.rules_text
    assert tomllib.loads(prep.rules_text)["setup"]["start_coins"] == [4, 0, 0]


def test_cli_bad_set_exits_2_before_writing(tmp_path):
    # in this process (tests/in_process.py: the command's exit code and stderr, as a process gives
    # them; a `balance` process costs ~0.7 s of CPU in imports alone, and what a process's exit
    # does is checked by the reliability suite's command lines)
    from in_process import balance

    out = tmp_path / "run"
    r = balance("simulate", "-n", "10", "--set", "income.palais.bse=4", "--out", str(out), check=False)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "income.palais.bse: unknown key" in lines[0]
    assert not out.exists()


def test_role_target_takes_shares_as_percent_or_fraction_and_tolerance_in_pp():
    """--target role=seigneur:45:5 (the form a designer types) means 45% ± 5 pp, like 45%:5pp and
    0.45:5; a share past 100% is one clear line."""
    import pytest

    from analysis.tune.targets import parse_target
    from simcore.errors import UsageError

    for text in ("role=seigneur:45:5", "role=seigneur:45%:5pp", "role=seigneur:0.45:5"):
        t = parse_target(text, "seigneurial")
        assert (t.aim, t.tol) == (pytest.approx(0.45), pytest.approx(0.05)), text
    with pytest.raises(UsageError, match="from 0 to 100%"):
        parse_target("role=seigneur:145", "seigneurial")


def test_set_takes_a_list_of_bare_words_as_vary_does():
    """Review P #3: `--set 'income.palais.counts=[palais]'` was refused ("not a TOML value (… [a,
    b] …)") although `--vary` took `[last, first]` and docs/sweep.md says a bare word is a string;
    and `--vary '…=[[palais],[palais, eglise]]'` was refused without saying why. One reader for
    both (simcore.config.parse_value), nested lists included."""
    from analysis.sweep.grammar import parse_vary

    assert parse_setting("income.palais.counts=[palais]").value == ["palais"]
    order = ["palais", "eglise", "caserne", "marche", "rempart", "village", "moulin", "champs"]
    assert parse_setting(f"scoring.tie_break=[{', '.join(order)}]").value == order
    assert parse_setting('x=[a, "b, c", [d, 2]]').value == ["a", "b, c", ["d", 2]]
    _, rules = _ma("income.palais.counts=[palais, eglise]")
    assert [MA.DOMAINS[c] for c in np.flatnonzero(rules.income_counts[MA.PALAIS])] == ["eglise", "palais"]
    v = parse_vary("income.palais.counts=[[palais],[palais, eglise]]")
    assert v.values == (["palais"], ["palais", "eglise"])
    for text in ("income.palais.counts=[palais]", "combat.lords_removed=[last, first]"):
        assert list(parse_vary(text).values) == parse_setting(text).value


@pytest.mark.parametrize("value, why", [
    ("[[palais], [palais eglise]]", "'palais eglise' is neither a value nor one word (a comma missing?"),
    ("[[palais], [palais, eglise]", "a '[' is not closed"),
    ("[palais,, eglise]", "an empty item"),
    ("[palais] eglise", "unexpected ' eglise' after the list's closing ']'"),
])
def test_a_list_neither_reads_says_why_in_one_line(value, why):
    from analysis.sweep.grammar import parse_vary

    for parse, option in ((parse_setting, "--set"), (parse_vary, "--vary")):
        with pytest.raises(UsageError) as e:
            parse(f"income.palais.counts={value}")
        msg = str(e.value)
        assert msg.startswith(f"{option} income.palais.counts={value}: ") and why in msg, msg
        assert "\n" not in msg and "expected a range" not in msg
