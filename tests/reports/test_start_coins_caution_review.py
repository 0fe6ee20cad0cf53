"""Review of the start-coins caution (analysis.start_coins; tests/reports/test_start_coins_caution_pages.py):

1. A report of a base and two variants put every variant's caution in the first variant's section
   ("Before / after: richer-palais vs demo" carried the caution of the coins variant, whose own
   section had none); each variant's caution now goes in that variant's section.
2. The caution compared whole start-coins values, so [2, 1, 0, 0] → [2, 1, 0, 0, 5] at 4 players
   was cautioned though every seat played started with the same coins in both runs; it now compares
   the coins of the seats played (the first P entries; a number is every seat's).
3. ``balance skill --against`` compares start coins at budget 0 with the line-up's own (heuristic)
   bots and said nothing of it; its printout, page and against.txt now carry the caution, worded for
   that page, when and only when it applies.
"""

from __future__ import annotations

import html
import json
import re

import pytest

import analysis.start_coins as SC
from analysis.start_coins import runs_caution
from cli import _run

# the tests' CPU over docs/testing.md's budget (session 63): this module runs in make test-slow
# and CI, not in make test
pytestmark = pytest.mark.slow

CAUTION = "Caution: "


@pytest.fixture(scope="module", autouse=True)
def _figures_undrawn():
    """This module's reports and skill pages get 1x1 stand-ins for their figures
    (tests/undrawn_figures.py): its tests read the printout, the pages' words and against.txt,
    never the pixels; the figures are still built. Drawn here all the same: the two skill figures
    of a run's report (``--skill``: skill_budget, skill_against), which no other test of make test
    draws. A Middle-Ages before/after's figures are drawn by test_s55_page_decimals.py's report, a
    skill directory's page by tests/test_s46_tune_skill_command.py."""
    from undrawn_figures import figures_undrawn

    with figures_undrawn(drawn=("skill_budget", "skill_against")):
        yield
SIM = ["simulate", "--game", "middle-ages", "--games", "300", "--seed", "1", "-q"]


def _page(out) -> str:
    text = re.sub(r"<[^>]+>", " ", html.unescape((out / "report.html").read_text(encoding="utf-8")))
    return re.sub(r"\s+", " ", text)


def _sections(page_html: str) -> dict[str, str]:
    """The report's text by section title ("Before / after: B vs A" → its text up to the next h2)."""
    text = html.unescape(page_html)
    parts = re.split(r"<h2[^>]*>(.*?)</h2>", text)
    return {re.sub(r"<[^>]+>", "", parts[k]).strip(): re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", parts[k + 1]))
            for k in range(1, len(parts) - 1, 2)}


def _meta(players: int, rules: str, bots=("balanced",)) -> dict:
    return {"game": "middle-ages", "players": players, "rules_text": rules, "strategies": list(bots),
            "strategy_kinds": {"balanced": "heuristic", "random": "random"}}


def test_each_variants_caution_is_in_its_own_before_after_section(tmp_path, capsys):
    runs = {}
    for name, extra in (("demo", []), ("palais", ["--set", "income.palais.base=4"]),
                        ("coins", ["--set", "setup.start_coins=[2, 1]"])):
        runs[name] = tmp_path / name
        assert _run(SIM + ["--players", "2", *extra, "--out", str(runs[name])]) == 0
    capsys.readouterr()
    out = tmp_path / "rep"
    assert _run(["report", str(runs["demo"]), str(runs["palais"]), str(runs["coins"]), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    secs = _sections((out / "report.html").read_text(encoding="utf-8"))
    palais, coins = secs["Before / after: palais vs demo"], secs["Before / after: coins vs demo"]
    assert CAUTION not in palais, palais
    assert "Caution: the rules compared give the seats different start coins (setup.start_coins: 0 → [2, 1])" in coins
    # after that section's seat answer, as with one variant
    assert coins.index("Did the seat win rates move?") < coins.index(CAUTION)
    # the page has the caution once; the terminal has it under the coins variant only
    assert _page(out).count("Caution: the rules compared") == 1
    blocks = printed.split("coins against demo:")
    assert CAUTION not in blocks[0] and CAUTION in blocks[1], printed


def test_the_caution_compares_the_coins_of_the_seats_played():
    # the reviewer's runs: at 4 players every seat starts the same in both
    c4, c5 = "[setup]\nstart_coins = [2, 1, 0, 0]\n", "[setup]\nstart_coins = [2, 1, 0, 0, 5]\n"
    assert runs_caution([_meta(4, c4), _meta(4, c5)], "before/after") == ""
    # at 5 players the fifth seat starts with 5 coins instead of none: said
    said = runs_caution([_meta(5, "[setup]\nstart_coins = [2, 1, 0, 0, 0]\n"), _meta(5, c5)], "before/after")
    assert said.startswith("Caution: the rules compared give the seats different start coins "
                           "(setup.start_coins: [2, 1, 0, 0, 0] → [2, 1, 0, 0, 5])"), said
    # a number is every seat's: 2 → [2, 2, 0] at 2 players starts both seats with 2 in both
    two = "[setup]\nstart_coins = 2\n"
    assert runs_caution([_meta(2, "[setup]\nstart_coins = [2, 1, 0]\n"),
                         _meta(2, "[setup]\nstart_coins = [2, 1, 7]\n")], "sweep") == ""
    assert runs_caution([_meta(2, two), _meta(2, "[setup]\nstart_coins = [2, 2, 0]\n")], "before/after") == ""
    # a panel: the cells of 2 players play the same coins, those of 3 do not: said, naming the
    # values of the cells where they differ
    base, var = "[setup]\nstart_coins = [3, 0, 0]\n", "[setup]\nstart_coins = [3, 0, 4]\n"
    metas = [_meta(2, base), _meta(3, base), _meta(2, var), _meta(3, var)]
    said = runs_caution(metas, "panel before/after")
    assert "(setup.start_coins: [3, 0, 0] → [3, 0, 4])" in said, said
    assert runs_caution([m for m in metas if m["players"] == 2], "panel before/after") == ""


def test_a_before_after_of_coins_no_seat_played_gets_no_caution(tmp_path, capsys):
    for name, coins in (("c4", "[2, 1, 0, 0]"), ("c5", "[2, 1, 0, 0, 5]")):
        assert _run(SIM + ["--players", "4", "--set", f"setup.start_coins={coins}", "--set",
                           f"income.palais.base={3 if name == 'c4' else 4}",
                           "--out", str(tmp_path / name)]) == 0
    capsys.readouterr()
    assert _run(["report", str(tmp_path / "c4"), str(tmp_path / "c5"), "--out", str(tmp_path / "rep")]) == 0
    printed = capsys.readouterr().out
    assert CAUTION not in printed and CAUTION not in _page(tmp_path / "rep"), printed


SKILL = ["skill", "--game", "middle-ages", "--players", "2", "--games", "40", "--seed", "1", "-q"]


def test_skill_against_start_coins_with_heuristic_bots_carries_the_caution(tmp_path, capsys):
    coins = tmp_path / "coins.toml"
    coins.write_text(_shipped().replace("start_coins = 0", "start_coins = [6, 0]"), encoding="utf-8")
    assert "[6, 0]" in coins.read_text(encoding="utf-8")
    assert _run(SKILL + ["--budgets", "0,2", "--out", str(tmp_path / "start")]) == 0
    capsys.readouterr()
    assert _run(SKILL + ["--budgets", "0,2", "--rules", str(coins), "--against", str(tmp_path / "start"),
                         "--out", str(tmp_path / "coins")]) == 0
    # (the terminal wraps the comparison and its caution at its width)
    printed = " ".join(capsys.readouterr().out.split())
    caution = next(iter(re.findall(r"Caution: .*?--strategies random\)\.", printed)), None)
    assert caution is not None, printed
    assert "(setup.start_coins: 0 → [6, 0])" in caution and "heuristic bots (balanced)" in caution
    assert "at budget 0" in caution and "the bots' openings as much as the coins" in caution
    # after the comparison it qualifies, on the page and in against.txt too
    assert printed.index("At budget 0") < printed.index(CAUTION)
    assert caution in _page(tmp_path / "coins")
    assert caution in " ".join((tmp_path / "coins" / "against.txt").read_text(encoding="utf-8").split())
    # and in a report's skill section
    assert _run(SIM + ["--players", "2", "--rules", str(coins), "--out", str(tmp_path / "run")]) == 0
    assert _run(["report", str(tmp_path / "run"), "--skill", str(tmp_path / "coins"),
                 "--out", str(tmp_path / "rep")]) == 0
    assert caution in _page(tmp_path / "rep")
    # another setting, or budgets where every seat searches only: no caution
    capsys.readouterr()
    assert _run(SKILL + ["--budgets", "0,2", "--set", "income.palais.base=4", "--against",
                         str(tmp_path / "start"), "--out", str(tmp_path / "palais")]) == 0
    assert _run(SKILL + ["--budgets", "2", "--rules", str(coins), "--against", str(tmp_path / "start"),
                         "--out", str(tmp_path / "searched")]) == 0
    printed = capsys.readouterr().out
    assert CAUTION not in printed, printed
    for name in ("palais", "searched"):
        assert CAUTION not in _page(tmp_path / name), name
        assert CAUTION not in (tmp_path / name / "against.txt").read_text(encoding="utf-8"), name


def test_skill_caution_needs_heuristic_bots_at_budget_0_and_coins_the_seats_played_differ():
    def q(coins, lineup=("balanced", "balanced"), kinds=None):
        return {"game": "middle-ages", "panel": {"cells": [{"players": 2, "lineup": list(lineup)}]},
                "start_coins": {"2": coins},
                "strategy_kinds": kinds or {"balanced": "heuristic", "random": "random"}}
    after = {**q([6, 0]), "against": {"start_coins": {"2": 0}}}
    assert SC.skill_caution(after, [0, 4]).startswith("Caution: the rules compared give the seats different "
                                                   "start coins (setup.start_coins: 0 → [6, 0])")
    assert SC.skill_caution(after, [4]) == ""                                  # searching seats only
    assert SC.skill_caution({**after, **{k: v for k, v in q([6, 0], ("random", "random")).items()
                                      if k != "start_coins"}}, [0]) == ""  # bots that ignore coins
    assert SC.skill_caution({**q([0, 0, 6]), "against": {"start_coins": {"2": 0}}}, [0]) == ""
    assert SC.skill_caution({**q([6, 0]), "against": {}}, [0]) == ""           # nothing recorded: unknown


def _shipped() -> str:
    from simcore.games.middle_ages.rules import default_rules_path

    text = default_rules_path().read_text(encoding="utf-8")
    assert "start_coins = 0" in text
    return text


def test_skill_json_records_the_start_coins_and_bot_kinds(tmp_path):
    assert _run(SKILL + ["--budgets", "0", "--set", "setup.start_coins=[1, 0]", "--out", str(tmp_path / "s")]) == 0
    q = json.loads((tmp_path / "s" / "skill.json").read_text(encoding="utf-8"))
    assert q["start_coins"] == {"2": [1, 0]} and q["strategy_kinds"] == {"balanced": "heuristic"}


def test_skill_against_a_directory_recorded_before_its_start_coins_reads_its_rules_again(tmp_path, capsys):
    assert _run(SKILL + ["--budgets", "0", "--out", str(tmp_path / "start")]) == 0
    meta = tmp_path / "start" / "skill.json"
    q = json.loads(meta.read_text(encoding="utf-8"))
    del q["start_coins"]                # as written before skill.json recorded them
    meta.write_text(json.dumps(q), encoding="utf-8")
    capsys.readouterr()
    assert _run(SKILL + ["--budgets", "0", "--set", "setup.start_coins=[6, 0]", "--against",
                         str(tmp_path / "start"), "--out", str(tmp_path / "coins")]) == 0
    printed = " ".join(capsys.readouterr().out.split())
    assert "Caution: the rules compared give the seats different start coins (setup.start_coins: 0 → [6, 0])" \
        in printed, printed
    # its rules file gone: nothing to decide from, no caution (and no error)
    q["rules"] = str(tmp_path / "moved.toml")
    meta.write_text(json.dumps(q), encoding="utf-8")
    assert _run(SKILL + ["--budgets", "0", "--set", "setup.start_coins=[6, 0]", "--against",
                         str(tmp_path / "start"), "--out", str(tmp_path / "coins2")]) == 0
    assert CAUTION not in capsys.readouterr().out
