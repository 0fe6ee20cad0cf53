"""simcore.config.parse_toml keeps the parsed data of the texts it read last (a sweep, tune or panel
reads one rules file once per variant, trial or cell): a text read again is not parsed again, and
each caller still gets data of its own."""

from __future__ import annotations

import tomllib

import pytest

from simcore import config
from simcore.errors import ConfigError

TEXT = "[setup]\nstart_coins = [0, 0, 3, 0]\nname = \"Caserne\"\n"


def test_a_text_read_again_is_not_parsed_again(monkeypatch):
    first = config.parse_toml(TEXT + "# first\n", name="a.toml")

    def refuse(_text):
        raise AssertionError("parsed again")

    monkeypatch.setattr(config.tomllib, "loads", refuse)
    again = config.parse_toml(TEXT + "# first\n", name="b.toml")
    assert again.data == first.data == {"setup": {"start_coins": [0, 0, 3, 0], "name": "Caserne"}}
    assert again.name == "b.toml" and again.sha256 == first.sha256 and again.text == first.text


def test_each_reader_gets_data_of_its_own():
    one = config.parse_toml(TEXT, name="r")
    one.data["setup"]["start_coins"][2] = 99
    one.data["extra"] = 1
    two = config.parse_toml(TEXT, name="r")
    assert two.data == {"setup": {"start_coins": [0, 0, 3, 0], "name": "Caserne"}}
    two.data["setup"]["start_coins"].append(7)
    assert config.parse_toml(TEXT, name="r").data["setup"]["start_coins"] == [0, 0, 3, 0]


def test_a_bad_text_is_refused_every_time_and_the_kept_texts_are_bounded():
    for _ in range(2):
        with pytest.raises(ConfigError, match="invalid TOML"):
            config.parse_toml("[setup\n", name="bad.toml")
    for k in range(3 * config._PARSED_KEPT):
        assert config.parse_toml(f"k = {k}\n", name="r").data == tomllib.loads(f"k = {k}\n")
    assert len(config._PARSED) <= config._PARSED_KEPT
