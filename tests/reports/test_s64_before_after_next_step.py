"""Session 64 review #2: a before/after that found a change worth acting on says how to fix it.

The reviewer's ``balance report ma-base ma-cas4`` (effects.caserne_payment 2 → 4, 40,000 games)
said "Away: the largest gap of a seat's win share from 25.0% grows from 4.98 pp … to 5.94 pp …,
clear, may matter", and offered only ``balance replay`` as a next step. The page and the terminal
now end the comparison's answers with a ``balance sweep`` of the changed setting around the two
values, on the runs' own game, player count, bots, seed and games and the base run's rules; none
when the change is within noise, when the runs differ only in seeds or bots, or in something a
sweep of the setting would not hold fixed (the line-up). The values past each end are those the
game's rules take (checked here against the rules loader itself). The slow test plays two runs,
reads the printed line and runs its command at a few games."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from types import SimpleNamespace

import polars as pl
import pytest

from analysis import stats

SHIPPED = Path(__file__).resolve().parents[2] / "configs" / "middle_ages" / "rules.toml"
BOTS = ["balanced"] * 4


def _meta(sets: list[str], *, seed: int = 1, bots=BOTS, rules: Path = SHIPPED) -> dict:
    from simcore.config import apply_settings, parse_settings, read_toml

    text = apply_settings(read_toml(rules, what="rules"), parse_settings(sets)).text
    name = str(rules) + (" with " + ", ".join(f"--set {s}" for s in sets) if sets else "")
    return {"game": "middle-ages", "players": 4, "games": 40000, "seed": seed, "strategies": list(bots),
            "rules_name": name, "rules_text": text, "settings": list(sets), "rotate_seats": False}


def _runs(meta: dict) -> SimpleNamespace:
    return SimpleNamespace(game="middle-ages", n_players=4, n_games=meta["games"], metas=[meta])


def _about(verdict: str) -> SimpleNamespace:
    """The comparison's toward-or-away row with ``verdict``."""
    return SimpleNamespace(balance=pl.DataFrame({"verdict": [verdict]}))


NOISE = pl.DataFrame({"metric": ["seat_win_share"] * 4, "verdict": [stats.NOT_SHOWN] * 4})


def sweep_next_step(*args):
    from reports.sections import sweep_next_step as said      # (new in session 64)

    return said(*args)


def _command(line: str) -> list[str]:
    m = re.search(r"(balance sweep .*?--out DIR)", line)
    assert m, line
    return shlex.split(m.group(1))[2:]


def _loads(value) -> bool:
    """Whether Middle-Ages' own loader takes setup.start_coins at ``value`` (MA-1)."""
    from simcore.config import apply_settings, parse_settings, read_toml
    from simcore.errors import ConfigError
    from simcore.games.middle_ages import rules as R

    try:
        R.load(apply_settings(read_toml(SHIPPED, what="rules"), parse_settings([f"setup.start_coins={value}"])))
    except ConfigError:
        return False
    return True


def test_a_clear_move_away_from_fair_offers_a_sweep_of_the_changed_setting_on_the_runs_own_terms():
    line = sweep_next_step(_runs(_meta([])), _runs(_meta(["effects.caserne_payment=4"])),
                           _about(stats.MAY_MATTER), NOISE)
    assert line.startswith("Next, to see which value is fairest with this line-up, sweep "
                           "effects.caserne_payment around the two values: "), line
    args = _command(line)
    assert args[args.index("--game") + 1] == "middle-ages"
    assert args[args.index("--players") + 1] == "4"
    assert args[args.index("--strategies") + 1] == "balanced"
    assert args[args.index("--seed") + 1] == "1"
    assert args[args.index("--games") + 1] == "40000"
    assert args[args.index("--vary") + 1] == "effects.caserne_payment=1..5"   # 2 and 4, one past each
    assert "--rules" not in args and "--set" not in args                        # the shipped rules


def test_the_range_stops_where_the_rules_refuse_the_next_value():
    # start coins 0 → 2: the rules refuse −1 coins (the loader itself says so), so the sweep starts at 0
    assert not _loads(-1) and _loads(3)
    line = sweep_next_step(_runs(_meta([])), _runs(_meta(["setup.start_coins=2"])), _about(stats.NOT_SHOWN),
                           NOISE.with_columns(pl.Series("verdict", [stats.LARGE] + [stats.NOT_SHOWN] * 3)))
    assert _command(line)[_command(line).index("--vary") + 1] == "setup.start_coins=0..3"


def test_the_base_runs_other_settings_and_rules_file_are_kept_and_an_edited_file_gets_no_line(tmp_path):
    rules = tmp_path / "my.toml"
    rules.write_text(SHIPPED.read_text())
    base = _meta(["effects.moulin_payment=3"], rules=rules)
    after = _meta(["effects.moulin_payment=3", "effects.caserne_payment=4"], rules=rules)
    args = _command(sweep_next_step(_runs(base), _runs(after), _about(stats.LARGE), NOISE))
    assert args[args.index("--rules") + 1] == str(rules)
    assert args[args.index("--set") + 1] == "effects.moulin_payment=3"
    # the file edited since the runs: a sweep of it would not start from the base run's rules
    rules.write_text(SHIPPED.read_text().replace("marche_coins_per_chest = 1", "marche_coins_per_chest = 2"))
    assert sweep_next_step(_runs(base), _runs(after), _about(stats.LARGE), NOISE) == ""


def test_no_line_when_nothing_clear_moved_or_the_runs_differ_in_anything_but_a_number_setting():
    base = _runs(_meta([]))
    cas4 = _runs(_meta(["effects.caserne_payment=4"]))
    assert sweep_next_step(base, cas4, _about(stats.NOT_SHOWN), NOISE) == ""       # within noise
    assert sweep_next_step(base, cas4, _about(stats.SMALL), NOISE) == ""           # clear but small
    # only the seed, or only the bots, differ: nothing to sweep
    assert sweep_next_step(base, _runs(_meta([], seed=2)), _about(stats.LARGE), NOISE) == ""
    assert sweep_next_step(base, _runs(_meta([], bots=["greedy"] * 4)), _about(stats.LARGE), NOISE) == ""
    # a setting and the bots: a sweep of the setting with either line-up compares another thing
    assert sweep_next_step(base, _runs(_meta(["effects.caserne_payment=4"], bots=["greedy"] * 4)),
                           _about(stats.LARGE), NOISE) == ""
    # a list setting (every seat's start coins as one value) is not swept around two numbers
    assert sweep_next_step(base, _runs(_meta(["setup.start_coins=[4,0,0,0]"])), _about(stats.LARGE), NOISE) == ""


@pytest.mark.slow
def test_the_printed_command_of_a_played_before_after_runs(tmp_path):
    """Two runs 8,000 games apart in effects.caserne_payment (2 → 6): the terminal's and the page's
    next step is the same line; its command, played at 40 games per variant, sweeps the setting
    from 1 to 7 with the runs' bots, player count and seed."""
    from typer.testing import CliRunner

    from cli import app
    from reports.build import build_report

    runner = CliRunner()
    for name, sets in (("base", []), ("cas6", ["--set", "effects.caserne_payment=6"])):
        res = runner.invoke(app, ["simulate", "--games", "8000", "--seed", "2", "--out",
                                  str(tmp_path / name), "--quiet", *sets])
        assert res.exit_code == 0, res.output
    answers: list[str] = []
    page = build_report([tmp_path / "base", tmp_path / "cas6"], tmp_path / "page", answers=answers)
    nexts = [x.strip() for x in answers if x.strip().startswith("Next, ")]
    assert len(nexts) == 1, answers
    assert nexts[0] in page.read_text(encoding="utf-8").replace("&times;", "×")
    args = _command(nexts[0])
    args[args.index("--games") + 1] = "40"
    out = tmp_path / "sweep"
    assert args[-2:] == ["--out", "DIR"]
    res = runner.invoke(app, ["sweep", *args[:-1], str(out), "--quiet"])
    assert res.exit_code == 0, res.output
    sw = json.loads((out / "sweep.json").read_text())
    assert sw["varies"][0]["values"] == list(range(1, 8))
    assert (sw["players"], sw["seed"], sw["strategies"]) == (4, 2, "balanced")
    base = json.loads((tmp_path / "base" / "run.json").read_text())
    played = json.loads((out / "variants" / "v001" / "run.json").read_text())    # the value 2: the base's
    assert played["strategies"] == base["strategies"] and played["players"] == base["players"]
