"""``simulate --panel``: every cell of a panel played with the same rules and seed into a directory
of runs that ``balance report`` reads as a panel; a single-line-up fix can be checked on the panel
with one command (before, only ``baseline --panel`` played a panel). Refused options are one line,
nothing written."""

from __future__ import annotations

import pytest
import json

from in_process import balance
from undrawn_figures import figures_undrawn

from strategies.panels import lookup


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_simulate_panel_plays_every_cell_with_the_rules_given(tmp_path):
    out = tmp_path / "pan"
    done = balance("simulate", "--game", "middle-ages", "--panel", "default", "--games", 200,
                   "--set", "setup.start_coins=[0,1,1,1]", "--seed", 5, "--out", out, "-q")
    cells = lookup("middle-ages", "default").cells
    assert sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) == \
        [f"cell-{k}" for k in range(len(cells))] + ["panel.json"]      # numbered from 0
    for k, c in enumerate(cells):
        meta = json.loads((out / f"cell-{k}" / "run.json").read_text())
        assert (meta["players"], meta["strategies"], meta["games"], meta["seed"]) == \
            (c.players, list(c.lineup), 200, 5)
        assert "start_coins = [0, 1, 1, 1]" in meta["rules_text"].replace("start_coins=[", "start_coins = [")
    assert json.loads((out / ".balance-output.json").read_text())["kind"] == "panel"
    assert "balance report" in done.stdout
    with figures_undrawn():   # the page's words: its figure need not be drawn (test_panel_states_its_finding.py draws one)
        page = balance("report", out, "--out", tmp_path / "rep")
    text = (tmp_path / "rep" / "report.html").read_text()
    assert page.returncode == 0 and "Every cell" in text
    assert "with --set setup.start_coins=[0,1,1,1]" in text        # the page names the rules played


def test_simulate_panel_refuses_what_a_panel_decides_before_any_game(tmp_path):
    for args, word in ((["--strategies", "random"], "--panel"), (["--rotate-seats"], "--rotate-seats")):
        done = balance("simulate", "--panel", "default", "--games", 100, "--out", tmp_path / "x", *args,
                       check=False)
        lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
        assert done.returncode == 2 and len(lines) == 1 and lines[0].startswith(f"error: {word}"), done.stderr
    assert not (tmp_path / "x").exists()
