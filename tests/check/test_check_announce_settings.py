"""`balance check --set …` names the rules it plays on its first line (revF #4).

The first printed line said "with rules default" for ``--set effects.caserne_payment=4``: the
baseline's rules, not the ones played. The line is caught through ``log`` before any game is played
(the log raises), so no game is played here."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli.check import run_check
from simcore.config import parse_settings

BASELINE = Path(__file__).resolve().parents[2] / "configs" / "baselines" / "middle_ages_default.toml"


class Announced(Exception):
    pass


def first_line(**kw) -> str:
    lines = []

    def log(text):
        lines.append(text)
        raise Announced

    with pytest.raises(Announced):
        run_check(BASELINE, log=log, games=1000, **kw)
    return lines[0]


def test_the_first_line_names_the_settings_played():
    line = first_line(settings=parse_settings(["effects.caserne_payment=4"]))
    # the game's title, the shipped rules in words (s42 review C #8: "middle-ages … with rules default")
    assert line.startswith("playing Middle-Ages (4 players, "), line
    assert "with the rules shipped with the toolkit with --set effects.caserne_payment=4," in line


def test_without_settings_the_first_line_names_the_baseline_rules_alone():
    line = first_line()
    assert "with the rules shipped with the toolkit," in line and "--set" not in line
