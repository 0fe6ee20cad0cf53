"""Session 64 review #1: a sweep page's "Fairest value of …" names the line-up it holds for.

The reviewer's sweep of effects.caserne_payment (4p 4×balanced) led with "Fairest value … 1, seat
imbalance 1.9 pp from fair (1.2 to 2.7)" on the page and the terminal, scoped nowhere; with greedy
bots the same value gave 4.86 pp (4.16–5.55). The lead now says "This answer holds for the line-up
this sweep played, 4p 4×greedy" (the wording of the before/after's
:func:`reports.sections.holds_for`) and gives the same sweep over a panel (``balance sweep
--panel``) for other line-ups and player counts. A sweep that is a cell of a panel sweep names its
cell and the panel sweep's page instead (the panel sweep's own page compares the cells: no such
sentence there). The sweeps here are written by hand (tests/handmade_sweep.py: planted winners, no
game played); the slow test plays the printed command at a few games."""

from __future__ import annotations

import html
import json
import re
import shlex
from pathlib import Path

import pytest

from handmade_sweep import plant_winners, write_sweep

NAME = "effects.caserne_payment"
VALUES = [1, 2, 3, 4]
SHIPPED = Path(__file__).resolve().parents[2] / "configs" / "middle_ages" / "rules.toml"


def _sweep(root: Path, bots: list[str]) -> Path:
    """A 4-player sweep of ``NAME`` whose variants record ``bots`` as their line-up; seat 4 wins
    far more than its share at the last value (so the lead has a fairest value to name)."""
    games = 4000
    winners = plant_winners(VALUES, [0.25, 0.25, 0.24, 0.10], [0.25, 0.25, 0.26, 0.25],
                            [0.25, 0.25, 0.26, 0.45], games, seed=3)
    write_sweep(root, NAME, VALUES, winners, games)
    for meta in (root / "variants").glob("v*/run.json"):
        d = json.loads(meta.read_text())
        meta.write_text(json.dumps({**d, "strategies": bots}))
    # played from the game's shipped rules file (the command then names no --rules)
    sw = json.loads((root / "sweep.json").read_text())
    (root / "sweep.json").write_text(json.dumps({**sw, "rules_name": str(SHIPPED)}))
    return root


def sweep_holds_for(sw: dict, sweep_dir: Path) -> str:
    from reports.sections import sweep_holds_for as said      # (new in session 64)

    return said(sw, sweep_dir)


def _lead(sweep_dir: Path, out: Path) -> tuple[list[str], str]:
    from reports.sweep import build_sweep_report

    answers: list[str] = []
    page = build_sweep_report(sweep_dir, out, answers=answers)
    return answers, page.read_text(encoding="utf-8")


def test_the_scope_of_a_sweep_is_read_from_the_line_up_its_variants_played(tmp_path):
    """The sentence alone (fast): the line-up each variant's run.json records, not sweep.json's
    ``strategies`` (null for the game's default bots)."""
    root = _sweep(tmp_path / "sw", ["balanced", "greedy", "balanced", "greedy"])
    said = sweep_holds_for(json.loads((root / "sweep.json").read_text()), root)
    assert said.startswith("This answer holds for the line-up this sweep played, "
                           "4p balanced + greedy + balanced + greedy; for other line-ups and player "
                           "counts, sweep them: balance sweep --game middle-ages --panel wide "
                           f"--vary {NAME}=1..4 --games 10000 --seed 0 --out DIR sweeps"), said


@pytest.mark.slow
def test_the_sweep_lead_says_which_line_up_its_fairest_value_holds_for_and_how_to_sweep_a_panel(tmp_path):
    answers, page = _lead(_sweep(tmp_path / "sw", ["greedy"] * 4), tmp_path / "out")
    fairest = next(i for i, x in enumerate(answers) if x.strip().startswith(f"Fairest value of {NAME}"))
    holds = answers[fairest + 1].strip()
    # the line-up the variants recorded, named as a panel cell is named
    assert holds.startswith("This answer holds for the line-up this sweep played, 4p 4×greedy; "
                            "for other line-ups and player counts, sweep them: "), holds
    m = re.search(r"(balance sweep .*?--out DIR)", holds)
    assert m, holds
    args = shlex.split(m.group(1))[2:]
    # the sweep's own values and seed, over the game's shipped panel that plays 4 players and others
    assert args[args.index("--game") + 1] == "middle-ages"
    assert args[args.index("--panel") + 1] == "wide"
    assert args[args.index("--vary") + 1] == f"{NAME}=1..4"
    assert args[args.index("--seed") + 1] == "0"
    assert "--strategies" not in args and "--players" not in args   # the panel's cells give them
    assert "--rules" not in args                                    # the shipped rules
    assert "28 cells at 2 to 5 players" in holds
    # the page leads with the same sentence
    assert holds in html.unescape(re.sub(r"<[^>]+>", "", page))


def test_a_sweep_that_is_a_panel_sweeps_cell_names_its_cell_and_the_panel_sweep_not_a_panel_to_play(tmp_path):
    root = tmp_path / "psw"
    (root / "cells").mkdir(parents=True)
    (root / "panel_sweep.json").write_text("{}")
    cell = _sweep(root / "cells" / "cell-0", ["balanced"] * 4)
    said = [sweep_holds_for(json.loads((cell / "sweep.json").read_text()), cell)]
    assert said == [f"This answer holds for the line-up this cell of a panel sweep played, 4p 4×balanced; "
                    f"balance report {root} --out DIR says what each setting changes in every cell of it."]


@pytest.mark.slow
def test_the_printed_panel_sweep_runs_and_its_page_has_no_single_line_up_sentence(tmp_path):
    """The command the lead prints is one ``balance sweep`` accepts: played at 40 games per variant
    over two of the values, it sweeps every cell of the wide panel; its page, which compares the
    cells, gets no "holds for" sentence (its cells are its scope)."""
    from typer.testing import CliRunner

    from cli import app
    from strategies.panels import lookup

    answers, _ = _lead(_sweep(tmp_path / "sw", ["balanced"] * 4), tmp_path / "out")
    holds = next(x for x in answers if "holds for" in x)
    args = shlex.split(re.search(r"balance sweep (.*?--out) DIR", holds).group(1))
    args[args.index("--games") + 1] = "40"
    args[args.index("--vary") + 1] = f"{NAME}=2..3"
    out = tmp_path / "panel-sweep"
    res = CliRunner().invoke(app, ["sweep", *args, str(out), "--quiet"])
    assert res.exit_code == 0, res.output
    meta = json.loads((out / "panel_sweep.json").read_text())
    assert len(meta["panel"]["cells"]) == len(lookup("middle-ages", "wide").cells) == 28
    assert meta["seed"] == 0
    page_answers: list[str] = []
    from reports.panel import build_panel_sweep_report

    build_panel_sweep_report(out, tmp_path / "panel-page", answers=page_answers)
    assert not any("holds for" in x for x in page_answers), page_answers
