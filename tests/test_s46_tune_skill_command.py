"""Review s46 (/tmp/s46/rev_tune/findings.md) #2: the ``balance skill`` commands a tune prints play
the tables the tune played, and their cost is that of those tables.

``balance skill`` reads a missing ``--players`` as 4. The tune printed its commands without
``--players`` whenever it had a panel or ``--lineup`` (strategies.panels.options_panel returns no
player count then): ``--players 2,3 --lineup balanced`` printed ``balance skill --lineup balanced``,
which plays 4p 4×balanced, a table the tune never played, and ``--panel wide --players 2`` printed
``--panel wide``, which plays the 4-player cells of ``wide`` (and refused the 2-seat
best_rules.toml). The cost beside them ("for the 2 cells of the panel") described other commands.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from cli import _run
from strategies.panels import from_options
import pytest

# the tests' CPU over docs/testing.md's budget (session 63): this module runs in make test-slow
# and CI, not in make test
pytestmark = pytest.mark.slow


def _commands(printed: str) -> tuple[str, str]:
    line = next(ln for ln in printed.splitlines()
                if ln.startswith("as play gets stronger, against the rules it started from: "))
    first, second = line.split(": ", 1)[1].split(" && ")
    return first, second


def _cells_of(command: str) -> list[tuple[int, tuple[str, ...]]]:
    """The cells ``balance skill`` plays for a printed command (its own option reading)."""
    argv = shlex.split(command)[2:]
    opts = {"--game": None, "--players": "4", "--panel": None, "--strategies": None}   # skill's defaults
    lineups = []
    for k, v in zip(argv, argv[1:]):
        if k in opts:
            opts[k] = v
        elif k == "--lineup":
            lineups.append(v)
    panel = from_options(opts["--game"], panel=opts["--panel"], players=opts["--players"],
                         lineups=lineups, strategies=opts["--strategies"])
    return [(c.players, c.lineup) for c in panel.cells]


def test_the_skill_commands_of_a_tune_over_a_lineup_at_two_counts_play_those_cells(tmp_path, capsys):
    out = tmp_path / "t"
    assert _run(["tune", "--game", "middle-ages", "--out", str(out), "--players", "2,3", "--lineup",
                 "random", "--vary", "setup.start_coins[0]=0..1", "--target", "seat-balance:20",
                 "--trials", "1", "--min-games", "200", "--max-games", "200", "--confirm-games", "200",
                 "-q"]) == 0
    printed = capsys.readouterr().out
    result = json.loads((out / "result.json").read_text(encoding="utf-8"))
    tuned = sorted((c["players"], tuple(c["lineup"])) for c in result["confirm"]["cells"])
    assert tuned == [(2, ("random",) * 2), (3, ("random",) * 3)]
    first, second = _commands(printed)
    for cmd in (first, second):
        assert "--players 2,3" in cmd, cmd
        assert sorted(_cells_of(cmd)) == tuned, cmd
    # the cost names the tables the commands play
    assert "for the 2 cells of the panel" in printed
    # and the commands run as printed (a tiny budget here), playing those cells
    for cmd in (first, second):
        argv = shlex.split(cmd)[1:]
        argv[argv.index("--budgets") + 1] = "0"
        argv[argv.index("--games") + 1] = "8"
        assert _run(argv + ["-q"]) == 0, cmd
    q = json.loads((Path(str(out) + "-skill") / "skill.json").read_text(encoding="utf-8"))
    assert sorted((c["players"], tuple(c["lineup"])) for c in q["panel"]["cells"]) == tuned


def test_a_panel_restricted_to_one_count_keeps_it_in_the_skill_commands(tmp_path):
    """``--panel wide --players 2``: the commands keep ``--players 2`` (its 7 cells), which the
    cost counts; without it balance skill played the 7 cells at 4 players."""
    from cli.tune import follow_up_lines

    out = tmp_path / "tw"
    out.mkdir()
    (out / "best_rules.toml").write_text("# rules\n", encoding="utf-8")     # the hint needs the file
    panel = from_options("middle-ages", panel="wide", players="2")
    cells = [{"players": c.players, "lineup": list(c.lineup), "label": c.label, "outcome": "met",
              "objective": 0.1, "targets": []} for c in panel.cells]
    result = {"met": True, "best_trial": 0, "settings": ["setup.start_coins[1]=2"],
              "confirm": {"games": 1000, "met": True, "cells": cells}}
    lines = follow_up_lines(result, "middle-ages", out, ["setup.start_coins[1]=0..4"],
                            ["seat-balance:30"], players=None, panel="wide")
    first, second = _commands("\n".join(lines))
    tuned = [(c.players, c.lineup) for c in panel.cells]
    assert len(tuned) == 7
    for cmd in (first, second):
        assert "--panel wide --players 2 " in cmd, cmd
        assert _cells_of(cmd) == tuned, cmd
    assert any("for the 7 cells of the panel" in x for x in lines), lines
