"""Issue 28, point 4: every input is bounded before any work.

List indices and duplicated keys of ``--set``, the count of ``--vary`` values (counted before
any value is made), file kinds and sizes of rules and strategies, worker counts, rule values with
a meaning range, ``--games`` spellings and ``--storage``. Each bad value is one line, checked in
this process (no game is played: the ``no_playing`` guard, or the parser called directly).
"""

from __future__ import annotations

import os
import time

import pytest

from simcore.errors import ConfigError, UsageError

from reliability_helpers import cli_in_process, one_error_line


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


@pytest.mark.parametrize("text", ["setup.start_coins[99999999999999999999]=1",
                                  "setup.start_coins[1000]=1", "setup.start_coins[0001000]=1",
                                  "tiles[5][99999999999]=1"])
def test_a_huge_list_index_is_refused_at_once(text):
    from simcore.config import apply_settings, parse_settings, parse_toml

    t0 = time.perf_counter()
    with pytest.raises(UsageError, match="too large"):
        apply_settings(parse_toml("[setup]\nstart_coins = 0\n", name="r"), parse_settings([text]), seats=4)
    assert time.perf_counter() - t0 < 5     # (a bound on runaway work, not a timing assertion)


def test_an_index_within_the_bound_still_works():
    from simcore.config import apply_settings, parse_settings, parse_toml

    src = apply_settings(parse_toml("[setup]\nstart_coins = 0\n", name="r"),
                         parse_settings(["setup.start_coins[3]=2"]), seats=4)
    assert src.data["setup"]["start_coins"] == [0, 0, 0, 2]


@pytest.mark.parametrize("texts,words", [
    (["a.b=1", "a.b=2"], "given twice"),
    (["a.b=1", " a.b = 1"], "given twice"),
    (["setup.start_coins=[1,1]", "setup.start_coins[0]=3"], "a part of it"),
    (["setup.start_coins[0]=3", "setup.start_coins=[1,1]"], "a part of it"),
])
def test_the_same_setting_twice_is_refused(texts, words):
    from simcore.config import parse_settings

    with pytest.raises(UsageError, match=words):
        parse_settings(texts)


def test_different_settings_are_accepted():
    from simcore.config import parse_settings

    assert len(parse_settings(["a.b=1", "a.c=2", "setup.start_coins[0]=1", "setup.start_coins[1]=2"])) == 4


@pytest.mark.parametrize("text,words", [
    ("x=0..1:1e-300", "more than 2,000"), ("x=0..1000000000000", "more than 2,000"),
    ("x=0..1e999:1", "finite"), ("x=-1e308..1e308:1e-308", "more than"),
    ("x=0..2001", "more than 2,000"),
])
def test_a_sweep_range_is_counted_before_its_values_are_made(text, words):
    from analysis.sweep.grammar import parse_vary

    t0 = time.perf_counter()
    with pytest.raises(UsageError, match=words):
        parse_vary(text)
    assert time.perf_counter() - t0 < 5


@pytest.mark.parametrize("game, vary, line", [
    ("middle-ages", "income.palais.base=0..1e300",
     "--vary income.palais.base=0..1e300: 1e+300 values is more than 2,000 (a larger step, or a "
     "narrower range)"),
    ("seigneurial", "track.goal.4=8..1e12",
     "--vary track.goal.4=8..1e12: 1e+12 values is more than 2,000 (a larger step, or a narrower "
     "range)"),
    ("middle-ages", "income.palais.base=0..1" + "0" * 400,
     "--vary income.palais.base=0..1" + "0" * 400 + ": 1e+400 values is more than 2,000 (a larger "
     "step, or a narrower range)"),
], ids=["1e300", "seigneurial-1e12", "400-digits"])
def test_a_sweep_over_whole_numbers_written_as_powers_of_ten_is_counted(game, vary, line, capsys,
                                                                       no_playing):
    """`balance sweep --vary income.palais.base=0..1e300` (a whole-number setting) asked for a
    step, as if a step could make its values playable; a range's ends that are whole numbers,
    however written, are the range of whole numbers `0..1000` is: counted and refused in one line
    (a 400-digit end crashed on the count: too large for a float)."""
    code, err = cli_in_process(["sweep", "--game", game, "--vary", vary, "--games", "100",
                                "--out", "sw"], capsys)
    assert code == 2
    assert one_error_line(err) == f"error: {line}"
    assert not os.path.exists("sw")


def test_whole_number_ends_make_the_values_a_sweep_plays():
    from analysis.sweep.grammar import parse_vary

    v = parse_vary("x=1e1..1.2e1")
    assert v.kind == "int" and v.values == (10, 11, 12) and all(type(x) is int for x in v.values)
    assert parse_vary("x=2.0..4.0").values == (2, 3, 4)
    with pytest.raises(UsageError, match="give a step"):      # not whole: a step is needed
        parse_vary("x=0..2.5")
    # a tune searches such a range as before (a continuous range), and a step keeps its values
    assert parse_vary("x=0..1e3", need_values=False).kind == "float"
    assert parse_vary("x=0..1.5:0.5").values == (0.0, 0.5, 1.0, 1.5)


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_whole_number_ends_past_the_setting_are_refused_as_its_values_are(capsys):
    """`0..1e3` is 0 to 1,000: the first value the setting does not take is named."""
    code, err = cli_in_process(["sweep", "--vary", "income.palais.base=0..1e3", "--games", "100",
                                "--out", "sw"], capsys)
    assert code == 2
    assert one_error_line(err) == ("error: --vary income.palais.base=0..1e3: variant "
                                   "income.palais.base=101: income.palais.base: must be <= 100 "
                                   "(allowed: 0 to 100), got 101")
    assert not os.path.exists("sw")


def test_a_tune_range_is_bounded_too_and_a_fine_one_still_works():
    from analysis.sweep.grammar import parse_vary

    with pytest.raises(UsageError, match="more than 100,000"):
        parse_vary("x=0..1:1e-300", need_values=False)
    assert len(parse_vary("x=0..1:0.001", need_values=False).values) == 1001
    assert len(parse_vary("x=0..1999").values) == 2000


def _big(path):
    with open(path, "wb") as fh:
        fh.truncate(50 << 20)         # 50 MB (sparse)
    return str(path)


@pytest.mark.parametrize("make,words", [
    (lambda d: "/dev/zero", "a device"),
    (lambda d: "/dev/null", "a device"),
    (lambda d: (os.mkfifo(d / "fifo"), str(d / "fifo"))[1], "a named pipe"),
    (lambda d: str(d), "is a directory"),
    (lambda d: _big(d / "big.toml"), "more than a rules file can be"),
])
def test_a_rules_path_must_be_a_regular_file_of_reasonable_size(tmp_path, make, words):
    from simcore.config import read_toml

    path = make(tmp_path)
    with pytest.raises(UsageError, match=words):
        read_toml(path, what="rules")


def test_rules_from_dev_zero_on_the_command_line_is_one_line(capsys):
    code, err = cli_in_process(["simulate", "--games", "10", "--rules", "/dev/zero", "--out", "o"], capsys)
    assert code == 2 and "/dev/zero: is a device" in one_error_line(err)
    os.symlink("/dev/zero", "zero.toml")
    code, err = cli_in_process(["simulate", "--games", "10", "--strategies", "zero.toml", "--out", "o"], capsys)
    assert code == 2 and "zero.toml: is a device" in one_error_line(err)


def test_workers_are_capped_by_the_machine(capsys, no_playing):
    from simcore.cluster import check_options, max_workers

    cores = max_workers(False)
    check_options(cores, None)
    with pytest.raises(UsageError, match=f"this machine has {cores} core"):
        check_options(cores + 1, None)
    check_options(cores + 1, None, allow_oversubscribe=True)
    with pytest.raises(UsageError, match="even with --allow-oversubscribe"):
        check_options(max_workers(True) + 1, None, allow_oversubscribe=True)
    code, err = cli_in_process(["simulate", "--games", "10", "--workers", "1000", "--out", "o"], capsys)
    assert code == 2 and "--workers 1000: this machine has" in one_error_line(err)
    code, err = cli_in_process(["sweep", "--game", "middle-ages", "--vary", "setup.extra_coin_tokens=[6,8]",
                                "--workers", "1000", "--out", "o"], capsys)
    assert code == 2 and "--workers 1000" in one_error_line(err)


@pytest.mark.parametrize("game,setting", [
    ("middle_ages", "income.champs.base=-3"),
    ("middle_ages", "effects.champs_coins_per_peasant=-1"),
    ("middle_ages", "effects.marche_coins_per_chest=-1"),
    ("middle_ages", "effects.extra_coin_bonus=-1"),
    ("middle_ages", "scoring.empty_domain_penalty=-10"),
    ("medievallons", "setup.hand_size=0"),
    ("medievallons", "setup.hand_size=[6, 0]"),
    ("middle_ages", "setup.start_coins=-5"),
    ("middle_ages", "setup.start_coins[2]=-1"),
])
def test_rule_values_keep_their_meaning(game, setting):
    import importlib

    from simcore.config import apply_settings, parse_settings, read_toml

    rules = importlib.import_module(f"simcore.games.{game}.rules")
    src = apply_settings(read_toml(rules.default_rules_path(), what="rules"), parse_settings([setting]), seats=4)
    with pytest.raises(ConfigError, match="must be >= ") as exc:
        rules.from_source(src)
    assert "(allowed: " in str(exc.value)          # the refusal names the whole range


def test_negative_start_coins_only_when_coins_may_go_negative():
    """MA-10: coins never go below 0, so a negative start purse means something only with
    scoring.allow_negative_coins = true (then -1000 to 1000)."""
    from simcore.config import apply_settings, parse_settings, read_toml
    from simcore.games.middle_ages import rules

    def load(*settings):
        src = read_toml(rules.default_rules_path(), what="rules")
        return rules.from_source(apply_settings(src, parse_settings(settings), seats=4))

    with pytest.raises(ConfigError, match=r"setup.start_coins\[0\]: must be >= 0 \(allowed: 0 to 1000\).*"
                                          "allow_negative_coins"):
        load("setup.start_coins[0]=-5")
    assert load("setup.start_coins[0]=-5", "scoring.allow_negative_coins=true").start_coins(0) == -5
    with pytest.raises(ConfigError, match="must be >= -1000"):
        load("setup.start_coins[0]=-1001", "scoring.allow_negative_coins=true")


def test_a_tune_over_a_negative_range_is_refused_before_any_game(tmp_path, capsys, monkeypatch):
    """The tune prepares the corners of its space (validating their rules) before any trial."""
    from simcore import runner

    def played(*args, **kwargs):
        raise AssertionError("a game was played before the bad range was refused")

    monkeypatch.setattr(runner, "run", played)
    monkeypatch.setattr(runner, "collect", played)
    monkeypatch.chdir(tmp_path)
    code, err = cli_in_process(["tune", "--game", "middle-ages", "--players", "2", "--vary",
                                "setup.start_coins[0]=-40..40:20", "--target", "seat-balance:5",
                                "--out", "t"], capsys)
    line = one_error_line(err)
    assert code == 2 and "setup.start_coins[0]: must be >= 0 (allowed: 0 to 1000), got -40" in line, line
    assert not (tmp_path / "t").exists()


@pytest.mark.parametrize("text,words", [
    ("1__0", "not a number"), ("_5", "not a number"), ("5_", "not a number"), ("1e6.5", "not a number"),
    ("１２", "not a number"), ("0x10", "not a number"), ("1,000", "not a number"), ("nan", "not a number"),
    ("inf", "not a number"), ("1e-3", "whole number"), ("1e999", "more than"), ("-5", "at least 1"),
    ("0", "at least 1"), ("1" * 70, "not a number"), ("12345678901234567e0", "more than"),
    ("1e99999", "more than"), ("1e" + "9" * 62, "more than"), ("1e-99999", "whole number"),
    ("-1e99999", "at least 1"), ("0e99999", "at least 1"),
])
def test_bad_game_counts_are_one_line(text, words):
    from simcore.options import parse_games

    with pytest.raises(UsageError, match=words):
        parse_games(text)


@pytest.mark.parametrize("text,n", [("1e6", 10**6), ("1_000_000", 10**6), ("2.5e2", 250), ("+7", 7),
                                    (" 250000 ", 250000), ("99999999999e0", 99999999999), (1e6, 10**6),
                                    (42, 42), ("1.0", 1)])
def test_good_game_counts_are_read_exactly(text, n):
    from simcore.options import parse_games

    assert parse_games(text) == n


def test_storage_must_be_a_sqlite_file(tmp_path):
    from simcore.options import check_sqlite_storage

    (tmp_path / "thesis.tex").write_text("\\section{x}")
    (tmp_path / "empty.db").write_bytes(b"")
    (tmp_path / "real.db").write_bytes(b"SQLite format 3\x00" + b"\x00" * 100)
    for value, words in (("thesis.tex", "not a SQLite database"), (str(tmp_path), "is a directory"),
                         ("/dev/zero", "not a regular file"), ("postgresql://h/db", "only SQLite"),
                         ("sqlite://", "only SQLite"), ("sqlite:///:memory:", "in-memory"),
                         ("nowhere/s.db", "does not exist"), ("", "give a SQLite file")):
        with pytest.raises(UsageError, match=words):
            check_sqlite_storage(value)
    for value in ("empty.db", "real.db", "new.db", f"sqlite:///{tmp_path / 'real.db'}"):
        assert check_sqlite_storage(value) == value
    assert (tmp_path / "thesis.tex").read_text() == "\\section{x}"
