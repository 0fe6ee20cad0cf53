"""Session 63: a recorded rules text (run.json's, sweep.json's or tune.json's ``rules_text``)
hand-edited to nest 3,000 deep is read by :func:`simcore.config.toml_loads` everywhere, as the
rules files and ``--set`` values are since session 62 (review s62 #5). The analysis readers that
called :func:`tomllib.loads` directly (analysis/rules_diff.py, analysis/start_coins.py,
analysis/tune/advice.py, analysis/tune/search.py, analysis/sweep/metrics.py,
analysis/games/seigneurial.py) let its RecursionError through: ``balance report`` of such a
sweep, of a sweep whose variants' run.json carry it, and of a Seigneurial run stopped with a
traceback. Each reader now takes the deep text as it takes any text that is not TOML (``a = [``):
the same answer, no traceback. The commands that play a run's recorded rules (replay, questions)
say in one line that the run's record is damaged, exit 2 (already so before: guards).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest

from reliability_helpers import cli_in_process, one_error_line

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

DEEP = "a = " + "[" * 3000 + "]" * 3000 + "\n"
NOT_TOML = "a = [\n"


def _damage(record: Path, text: str = DEEP) -> None:
    meta = json.loads(record.read_text(encoding="utf-8"))
    meta["rules_text"] = text
    record.write_text(json.dumps(meta), encoding="utf-8")


def _seat_label(text):
    from analysis.tune.search import TunePlan

    plan = SimpleNamespace(rules_text=text, game="middle-ages",
                           varies=(SimpleNamespace(name="setup.start_coins[0]"),))
    return TunePlan.seat_label(plan, {"setup.start_coins[0]": 3})


def _seigneurial(what):
    def read(text):
        from analysis.games import seigneurial as SG

        rs = SimpleNamespace(metas=[{"rules_text": text}], n_players=4)
        return getattr(SG, what)(rs)
    return read


READERS = {
    "rules_diff.parse_text": lambda t: __import__("analysis.rules_diff", fromlist=["x"]).parse_text(t),
    "start_coins.coins_of": lambda t: __import__("analysis.start_coins", fromlist=["x"]).coins_of("middle-ages", t),
    "start_coins.recorded_kind": lambda t: __import__("analysis.start_coins", fromlist=["x"])._recorded_kind(
        "balanced", {"configs/middle_ages/strategies.toml": {"text": t}}),
    "tune.advice.settings_named": lambda t: __import__("analysis.tune.advice", fromlist=["x"]).settings_named(
        ["setup.start_coins[0]=3"], {"rules_text": t, "game": "middle-ages"}),
    "tune.advice.start_settings": lambda t: __import__("analysis.tune.advice", fromlist=["x"]).start_settings(
        {"rules_text": t, "game": "middle-ages", "settings": ["setup.start_coins=4"], "players": 4}),
    "tune.search.seat_label": _seat_label,
    "sweep.metrics.base_value": lambda t: __import__("analysis.sweep.metrics", fromlist=["x"]).base_value(
        {"rules_text": t, "settings": []}, "setup.start_coins"),
    "seigneurial.objective_labels": _seigneurial("objective_labels"),
    "seigneurial.objective_requirements": _seigneurial("objective_requirements"),
    "seigneurial.track_squares": _seigneurial("track_squares"),
}


@pytest.mark.parametrize("reader", sorted(READERS))
def test_s63_each_reader_takes_a_deep_rules_text_as_text_that_is_not_toml(reader):
    read = READERS[reader]
    assert read(DEEP) == read(NOT_TOML)


@pytest.fixture
def here(tiny_run, monkeypatch):
    monkeypatch.chdir(tiny_run.parent)
    return tiny_run.parent


def _sweep(here, capsys) -> Path:
    code, err = cli_in_process(["sweep", "--vary", "setup.extra_coin_tokens=0..1", "-n", "200", "-p", "4",
                                "-q", "-o", "sw"], capsys)
    assert code == 0, err[-2000:]
    return here / "sw"


@pytest.mark.slow   # builds a page (1.5-3 s of CPU): make test-slow and CI run it
@pytest.mark.parametrize("damaged", ["sweep.json", "every variant's run.json"])
def test_s63_report_of_a_sweep_whose_record_nests_deep(here, capsys, damaged):
    sw = _sweep(here, capsys)
    if damaged == "sweep.json":
        _damage(sw / "sweep.json")
    else:
        for variant in sorted((sw / "variants").iterdir()):
            _damage(variant / "run.json")
    code, err = cli_in_process(["report", "sw", "-o", "rep"], capsys)
    assert code == 0 and "Traceback" not in err, err[-2000:]
    assert (here / "rep" / "report.html").is_file()


@pytest.mark.slow   # builds a page (1.5-3 s of CPU): make test-slow and CI run it
def test_s63_report_of_a_seigneurial_run_whose_record_nests_deep(here, capsys):
    code, err = cli_in_process(["simulate", "--game", "seigneurial", "-n", "300", "-q", "-o", "sg"], capsys)
    assert code == 0, err[-2000:]
    _damage(here / "sg" / "run.json")
    code, err = cli_in_process(["report", "sg", "-o", "rep"], capsys)
    assert code == 0 and "Traceback" not in err, err[-2000:]
    assert (here / "rep" / "report.html").is_file()


@pytest.mark.parametrize("command", [["replay", "run", "--game", "0"], ["questions", "run", "-o", "q"]])
def test_s63_commands_playing_a_deep_recorded_rules_text_name_the_damaged_record(here, capsys, command):
    _damage(here / "run" / "run.json")
    code, err = cli_in_process(command, capsys)
    assert code == 2, err[-2000:]
    line = one_error_line(err)
    assert "run.json" in line and "the run's record is damaged" in line and "nested too deeply" in line, line
    assert len(line) < 400, line
    assert not (here / "q").exists()
