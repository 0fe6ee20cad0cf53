"""``balance tune`` over a panel some of whose cells never read the tuned setting (session 63).

``balance tune --game seigneurial --players 3,4 --lineup … --vary track.goal.4=8..12`` played the
3-player cells too: they read the goal of 3 players, not of 4, so every candidate played the same
games there, and the verdict counted them among the cells where the fix "holds" ("Target met in
every cell (all 4: 3p …, 4p …)"). The decision is the one a panel sweep makes for its cells
(:func:`analysis.rules_diff.reads_setting`, per player count): a setting no cell reads is refused
before any game (session 62, ``test_s62_tune_unread_setting``); one that some cells do not read now
leaves those cells out of the search and the confirmation, says so in one line before any game
naming them, and the verdict (terminal, result.json, the page) names the cells where the fix acts and
lists the others as "not read" in the panel sweep's words, never among the cells where it holds.
"""

from __future__ import annotations

import json

import pytest

from in_process import balance

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

PLAN = dict(targets=["role=seigneur:0.30:10"], trials=2, min_games=200, max_games=200, confirm_games=1000)
LINEUPS = ["seigneur=even-lord,censitaire=fair-share", "seigneur=harsh-lord,censitaire=objective"]


def _panel(counts):
    from strategies.panels import from_options

    return from_options("seigneurial", panel=None, players=",".join(map(str, counts)), lineups=LINEUPS)


def test_s63_cells_that_do_not_read_the_setting_are_left_out_and_named_before_any_game():
    from analysis.tune.search import plan_tune

    plan = plan_tune("seigneurial", varies=["track.goal.4=8..12"], panel=_panel([3, 4]), **PLAN)
    assert [c.players for c in plan.panel.cells] == [4, 4], plan.panel
    assert [c["label"] for c in plan.not_read] == ["3p even-lord + 2×fair-share",
                                                   "3p harsh-lord + 2×objective"], plan.not_read
    lines = [w for w in plan.warnings if "not read" in w or "does not read" in w]
    assert len(lines) == 1 and "\n" not in lines[0], plan.warnings
    assert lines[0] == (
        "--vary track.goal.4=8..12: Seigneurial does not read track.goal.4 at 3 players (2 of the 4 "
        "cells: 3p even-lord + 2×fair-share, 3p harsh-lord + 2×objective): every candidate would play "
        "the same games there, so the tune plays and judges the other 2 cells only, and its verdict "
        "lists these as not read"), lines[0]
    # recorded for the page (and a resumed tune plans the same cells)
    meta = plan.to_json()
    assert [c["label"] for c in meta["not_read"]] == [c["label"] for c in plan.not_read]
    assert [c["players"] for c in meta["panel"]["cells"]] == [4, 4]


def test_s63_a_cell_that_reads_another_tuned_setting_is_kept_and_said_to_tune_only_that_one():
    from analysis.tune.search import plan_tune

    plan = plan_tune("seigneurial", varies=["track.goal.3=8..12", "track.goal.4=8..12"],
                     panel=_panel([3, 4]), **PLAN)
    assert [c.players for c in plan.panel.cells] == [3, 3, 4, 4]
    assert plan.not_read == []
    lines = [w for w in plan.warnings if "does not read" in w]
    # each goal is read at its own count only: one line per setting, each naming its cells
    assert lines == [
        "--vary track.goal.3=8..12: Seigneurial does not read track.goal.3 at 4 players (2 of the 4 "
        "cells: 4p even-lord + 3×fair-share, 4p harsh-lord + 3×objective): there only the other "
        "settings tuned act (track.goal.4)",
        "--vary track.goal.4=8..12: Seigneurial does not read track.goal.4 at 3 players (2 of the 4 "
        "cells: 3p even-lord + 2×fair-share, 3p harsh-lord + 2×objective): there only the other "
        "settings tuned act (track.goal.3)"], plan.warnings
    # every cell reads it: no line
    plan = plan_tune("seigneurial", varies=["track.goal.4=8..12"], panel=_panel([4]), **PLAN)
    assert not [w for w in plan.warnings if "does not read" in w] and plan.not_read == []


def test_s63_no_cell_reads_it_still_refused_in_one_line():
    done = balance("tune", "--game", "seigneurial", "--players", "3,5", *sum((["--lineup", x] for x in LINEUPS), []),
                   "--vary", "track.goal.4=8..12", "--target", "role=seigneur:0.30:10", "--trials", 2,
                   "--min-games", 200, "--max-games", 200, "--confirm-games", 1000, "--out", "/nonexistent/t",
                   check=False)
    line = done.stderr.strip()
    assert done.returncode == 2 and len(line.splitlines()) == 1, line
    assert line.startswith("error: --vary track.goal.4=8..12: Seigneurial does not read track.goal.4 in "
                           "any cell of this panel (3 and 5 players)"), line


@pytest.fixture(scope="module")
def tuned(tmp_path_factory):
    out = tmp_path_factory.mktemp("s63") / "t"
    done = balance("tune", "--game", "seigneurial", "--players", "3,4", *sum((["--lineup", x] for x in LINEUPS), []),
                   "--vary", "track.goal.4=[9, 11]", "--target", "role=seigneur:0.30:25", "--trials", 2,
                   "--min-games", 400, "--max-games", 400, "--confirm-games", 1000, "--threads", 1,
                   "--quiet", "--out", out)
    return out, done


def test_s63_the_verdict_names_the_cells_where_the_fix_acts_and_lists_the_others_as_not_read(tuned):
    out, done = tuned
    result = json.loads((out / "result.json").read_text(encoding="utf-8"))
    said = result["sentence"]
    # the terminal said it before any game, and its verdict is result.json's
    assert "does not read track.goal.4 at 3 players (2 of the 4 cells" in done.stderr, done.stderr
    assert said.split(" Attempt")[0] in done.stdout
    # judged on the 4-player cells only: a 3-player cell is never among the cells where it is met
    cells = result["confirm"]["cells"]
    assert [c["players"] for c in cells] == [4, 4], cells
    head = said.split("; not read")[0]
    assert "3p " not in head.split(" with track.goal.4")[0], said
    assert ("not read at 3 players (2 cells, not played: every candidate plays the same games there, "
            "so the fix does not act there: 3p even-lord + 2×fair-share, 3p harsh-lord + 2×objective)") in said, said
    if result["confirm"]["met"]:
        assert said.startswith("Target met in every cell where track.goal.4 is read (all 2: "), said
    else:
        assert " of 2 cells where track.goal.4 is read" in said, said
    assert [c["label"] for c in result["not_read"]] == ["3p even-lord + 2×fair-share",
                                                        "3p harsh-lord + 2×objective"], result.get("not_read")
    # the rules file says whom it holds for wherever it is copied: the 3-player cells not read
    head = [x for x in (out / "best_rules.toml").read_text(encoding="utf-8").splitlines() if x.startswith("#")]
    assert any(x.startswith("# confirmed on 1,000 fresh games per cell of the panel of --players and "
                            "--lineup: ") and x.endswith(" of 2 cells where track.goal.4 is read")
               for x in head), head
    assert "#   3p harsh-lord + 2×objective: not read (not played: every candidate plays the same games "\
           "there, so the fix does not act there)" in head, head


def test_s63_the_tune_page_lists_the_cells_that_do_not_read_it(tuned, tmp_path):
    out, _ = tuned
    balance("report", out, "--out", tmp_path / "page")
    html = (tmp_path / "page" / "report.html").read_text(encoding="utf-8")
    import re

    text = re.sub(r"<[^>]+>", " ", html)
    text = re.sub(r"\s+", " ", text).replace("&amp;", "&")
    assert "not read at 3 players (2 cells, not played" in text, text[:3000]
    assert ("played with 2 cells of the panel (4 players; every cell below); 2 cells of the panel "
            "left out, not read at 3 players (every candidate plays the same games there)") in text, text
    # the cell table has a row per cell left out, saying so, not "met"
    assert re.search(r"3p even-lord \+ 2×fair-share 3 (?:\S{1,2} )?not read \(not played", text), text


def test_s63_a_fix_met_where_it_acts_says_every_cell_where_the_setting_is_read(tmp_path):
    # a band every played cell meets (a length target is not checked before games): the met verdict
    done = balance("tune", "--game", "seigneurial", "--players", "3,4", *sum((["--lineup", x] for x in LINEUPS), []),
                   "--vary", "track.goal.4=[9, 11]", "--target", "length=1..1000", "--trials", 2,
                   "--min-games", 200, "--max-games", 200, "--confirm-games", 400, "--threads", 1,
                   "--quiet", "--out", tmp_path / "t")
    said = json.loads((tmp_path / "t" / "result.json").read_text(encoding="utf-8"))["sentence"]
    assert said.startswith("Target met in every cell where track.goal.4 is read (all 2: 4p even-lord + "
                           "3×fair-share, 4p harsh-lord + 3×objective) with track.goal.4="), said
    assert ("; not read at 3 players (2 cells, not played: every candidate plays the same games there, "
            "so the fix does not act there: 3p even-lord + 2×fair-share, 3p harsh-lord + 2×objective). ") in said, said
    assert said.split(" Attempt")[0].split(". Confirmation")[0] in done.stdout


def test_s63_one_cell_left_is_judged_as_a_line_up_and_the_other_named():
    from analysis.tune.search import plan_tune

    from strategies.panels import from_options

    one = from_options("seigneurial", panel=None, players="3,4", lineups=LINEUPS[:1])
    plan = plan_tune("seigneurial", varies=["track.goal.4=8..12"], panel=one, **PLAN)
    assert not plan.multi and plan.players == 4 and plan.strategies == "even-lord,fair-share,fair-share,fair-share"
    assert [c["label"] for c in plan.not_read] == ["3p even-lord + 2×fair-share"]
    assert plan.warnings[0].endswith("(1 of the 2 cells: 3p even-lord + 2×fair-share): every candidate "
                                     "would play the same games there, so the tune plays and judges the "
                                     "other cell only, and its verdict lists it as not read"), plan.warnings
