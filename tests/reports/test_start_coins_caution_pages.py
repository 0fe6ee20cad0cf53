"""Designer review finding #1: the start-coins caution only the tune printed, now on every page
that draws a conclusion from a change of some seats' start coins.

docs/sweep.md ("Caution: one seat's start coins"): Middle-Ages' heuristic bots price a Moulin or a
Caserne by what each opponent can pay now, so a seat given start coins makes the others open on
those tiles; with `balanced`, 4 start coins for seat 1 lower its win share, with `random` bots they
raise it. The sweep page ("Fairest value of setup.start_coins[0] (seat 1's): 0 … to compensate a
seat, give the others more") and the before/after ("the rule made the game less fair") said so
with no word of it. Each page kind (sweep, before/after, panel sweep, panel before/after), and what
the terminal prints of it, now carries the caution (analysis.start_coins, the tune's one
decision) for such a change played with heuristic bots, and none for another setting or for bots
that ignore coins.
"""

from __future__ import annotations

import html
import json
import re

from analysis.start_coins import heuristic_bots, runs_caution
from cli import _run
import pytest

# the tests' CPU over docs/testing.md's budget (session 63): this module runs in make test-slow
# and CI, not in make test
pytestmark = pytest.mark.slow

SIM = ["simulate", "--game", "middle-ages", "--players", "2", "--games", "300", "--seed", "1", "-q"]
CAUTION = "Caution: "
WHY = "the bots' openings as much as the coins"


def _page(out) -> str:
    text = re.sub(r"<[^>]+>", " ", html.unescape((out / "report.html").read_text(encoding="utf-8")))
    return re.sub(r"\s+", " ", text)


def _caution(printed: str) -> str | None:
    return next((ln.strip() for ln in printed.splitlines() if ln.strip().startswith(CAUTION)), None)


def test_a_before_after_of_one_seats_start_coins_with_heuristic_bots_carries_the_caution(tmp_path, capsys, undrawn):
    # (its reports' figures are 1x1 stand-ins: this test reads the printout and the pages' words; a
    # Middle-Ages before/after's figures are drawn by test_s55_page_decimals.py's report)
    runs = {}
    for name, extra in (("base", []), ("coins", ["--set", "setup.start_coins=[3,0]"]),
                        ("palais", ["--set", "income.palais.base=4"]),
                        ("rbase", ["--strategies", "random"]),
                        ("rcoins", ["--strategies", "random", "--set", "setup.start_coins=[3,0]"])):
        runs[name] = tmp_path / name
        assert _run(SIM + (extra if "--strategies" in extra else ["--strategies", "balanced", *extra])
                    + ["--out", str(runs[name])]) == 0
    capsys.readouterr()
    assert _run(["report", str(runs["base"]), str(runs["coins"]), "--out", str(tmp_path / "p1")]) == 0
    printed = capsys.readouterr().out
    caution = _caution(printed)
    assert caution is not None, printed
    assert "(setup.start_coins: 0 → [3, 0])" in caution and "heuristic bots (balanced)" in caution
    assert WHY in caution and "--strategies random" in caution and "search16" in caution
    # printed right after the seats' answer it qualifies, and on the page after it too
    lines = [x.strip() for x in printed.splitlines()]
    assert lines[lines.index(caution) - 1].startswith("Did the seat win rates move?")
    page = _page(tmp_path / "p1")
    assert caution in page and page.index("Did the seat win rates move?") < page.index(caution)
    # another setting, or bots that ignore coins: no caution
    for base, variant in (("base", "palais"), ("rbase", "rcoins")):
        out = tmp_path / f"p-{variant}"
        assert _run(["report", str(runs[base]), str(runs[variant]), "--out", str(out)]) == 0
        printed = capsys.readouterr().out
        assert CAUTION not in printed and CAUTION not in _page(out), (variant, printed)
    # the runner records each bot's kind, as its loader read it
    meta = json.loads((runs["base"] / "run.json").read_text(encoding="utf-8"))
    assert meta["strategy_kinds"] == {"balanced": "heuristic"}


def test_a_sweep_of_one_seats_start_coins_with_heuristic_bots_carries_the_caution(tmp_path, capsys, undrawn):
    # (figures undrawn, as above: a Middle-Ages sweep page's are drawn by test_s50_sweep_players_named.py)
    sweep = ["sweep", "--game", "middle-ages", "--players", "2", "--strategies", "balanced",
             "--games", "300", "--seed", "1", "--quiet"]
    assert _run(sweep + ["--vary", "setup.start_coins[0]=0..2", "--out", str(tmp_path / "s")]) == 0
    capsys.readouterr()
    assert _run(["report", str(tmp_path / "s"), "--out", str(tmp_path / "p")]) == 0
    printed = capsys.readouterr().out
    caution = _caution(printed)
    assert caution is not None, printed
    assert "some values tried give the seats different start coins (setup.start_coins = [1, 0]" in caution
    assert "heuristic bots (balanced) played the sweep's games" in caution and WHY in caution
    assert "which value this page finds fairest" in caution and "--strategies random" in caution
    assert caution in _page(tmp_path / "p")
    # another setting, or the same coins for every seat: no caution
    for name, vary in (("palais", "income.palais.base=3..4"), ("equal", "setup.start_coins=0..2")):
        assert _run(sweep + ["--vary", vary, "--out", str(tmp_path / name)]) == 0
        capsys.readouterr()
        assert _run(["report", str(tmp_path / name), "--out", str(tmp_path / f"p-{name}")]) == 0
        printed = capsys.readouterr().out
        assert CAUTION not in printed and CAUTION not in _page(tmp_path / f"p-{name}"), (name, printed)


def test_a_panel_sweep_of_start_coins_prints_and_shows_the_caution(tmp_path, capsys):
    sweep = ["sweep", "--game", "middle-ages", "--players", "2", "--lineup", "balanced", "--lineup",
             "random", "--games", "300", "--seed", "1", "--quiet"]
    for name, vary in (("coins", "setup.start_coins[1]=0..1"), ("palais", "income.palais.base=3..4")):
        capsys.readouterr()
        assert _run(sweep + ["--vary", vary, "--out", str(tmp_path / name)]) == 0
        printed = capsys.readouterr().out
        assert _run(["report", str(tmp_path / name), "--out", str(tmp_path / f"p-{name}")]) == 0
        page = _page(tmp_path / f"p-{name}")
        caution = _caution(printed)
        if name == "palais":
            assert caution is None and CAUTION not in page, printed
            continue
        assert caution is not None, printed
        # the cell of random bots does not make it go away: the other cell's bots are heuristic
        assert "(setup.start_coins = [0, 1], …)" in caution
        assert "the cells' line-ups hold heuristic bots (balanced)" in caution and WHY in caution
        assert caution in page


def test_a_panel_before_after_of_start_coins_carries_the_caution(tmp_path, capsys):
    sim = ["simulate", "--game", "middle-ages", "--players", "2", "--lineup", "balanced", "--lineup",
           "random", "--games", "300", "--seed", "1", "-q"]
    for name, extra in (("base", []), ("coins", ["--set", "setup.start_coins=[0,2]"]),
                        ("palais", ["--set", "income.palais.base=4"])):
        assert _run(sim + extra + ["--out", str(tmp_path / name)]) == 0
    capsys.readouterr()
    for variant in ("coins", "palais"):
        out = tmp_path / f"p-{variant}"
        assert _run(["report", str(tmp_path / "base"), str(tmp_path / variant), "--out", str(out)]) == 0
        printed = capsys.readouterr().out
        caution = _caution(printed)
        if variant == "palais":
            assert caution is None and CAUTION not in _page(out), printed
            continue
        assert caution is not None, printed
        assert "(setup.start_coins: 0 → [0, 2])" in caution and "heuristic bots (balanced)" in caution
        assert "whether it made the game fairer" in caution and caution in _page(out)


def test_the_bots_kinds_of_a_run_recorded_before_strategy_kinds_come_from_its_recorded_files():
    presets = '[random]\nkind = "random"\n\n[balanced]\nkind = "heuristic"\n'
    mine = '[mine]\nkind = "heuristic"\n\n[other]\nkind = "random"\n'
    files = {"configs/middle_ages/strategies.toml": {"sha256": "x", "text": presets},
             "bots.toml": {"sha256": "y", "text": mine}}
    old = {"strategies": ["random", "bots.toml:mine", "bots.toml:other", "search16"], "strategy_files": files}
    assert heuristic_bots([old]) == ["bots.toml:mine"]
    # the recorded kinds win over the files
    assert heuristic_bots([{**old, "strategy_kinds": {"random": "random"}}]) == []
    rules = ["[setup]\nstart_coins = 0\n", "[setup]\nstart_coins = [2, 0, 0]\n"]
    metas = [{"game": "middle-ages", "players": 2, "rules_text": r, "strategies": ["balanced"],
              "strategy_kinds": {"balanced": "heuristic"}} for r in rules]
    assert runs_caution(metas, "before/after").startswith("Caution: ")
    # the seats that play get the same coins ([2, 0, 0] lists a seat 3 a 2-player game has not)
    metas[1]["rules_text"] = "[setup]\nstart_coins = [2, 2, 0]\n"
    assert runs_caution(metas, "before/after") == ""
    # another game has no such caution
    assert runs_caution([{**m, "game": "medievallons"} for m in metas], "sweep") == ""
