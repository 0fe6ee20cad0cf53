"""Review s61 panels/tune #2: the "play its baseline" command suggested for a panel failed.

`balance baseline PANEL_DIR` of a panel played from `--players 3,4 --lineup balanced --lineup
greedy` suggested `balance baseline --panel command-line …`, which stops on "unknown panel
'command-line'"; it now suggests those --players and --lineup, and the command runs. Given a
panel baseline directory, it suggested "give one cell, e.g. BL/cell-0", a path that does not exist
(its runs are BL/runs/cell-K); it now names a cell run that exists, and that one is measured."""

from __future__ import annotations

import shlex
from pathlib import Path

from in_process import balance
from strategies.panels import from_options
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def _same(a, b) -> bool:
    return [(c.players, c.lineup) for c in a.cells] == [(c.players, c.lineup) for c in b.cells]


def test_the_options_of_a_panel_make_that_panel_again():
    from strategies.panels import panel_options

    made = from_options("middle-ages", players="3,4", lineups=["balanced", "greedy"])
    assert panel_options(made) == ["--players", "3,4", "--lineup", "balanced", "--lineup", "greedy"]
    roles = from_options("seigneurial", players="3,4",
                         lineups=["seigneur=even-lord,censitaire=fair-share", "greedy-lord,dutiful"])
    words = panel_options(roles)
    again = from_options("seigneurial", players=words[1], lineups=words[3::2])
    assert words[0] == "--players" and _same(again, roles), words
    seats = from_options("middle-ages", players="4", lineups=["greedy,balanced,farmer,pious"])
    assert panel_options(seats) == ["--players", "4", "--lineup", "greedy,balanced,farmer,pious"]
    # a shipped panel by its name, restricted to a player count as --players restricts it
    assert panel_options(from_options("middle-ages", panel="wide", players="4")) == \
        ["--panel", "wide", "--players", "4"]
    assert panel_options(from_options("middle-ages", panel="default")) == ["--panel", "default"]


def test_a_panel_of_lineups_suggests_a_baseline_command_that_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)     # (short paths: a long one is printed shortened, "…")
    balance("simulate", "--game", "middle-ages", "--players", "3,4", "--lineup", "balanced", "--lineup",
            "greedy", "--games", 300, "--seed", 1, "--set", "income.palais.base=4",
            "--out", "ma-pal", "-q")
    done = balance("baseline", "ma-pal", "--out", "bz", check=False)
    line = done.stderr.strip()
    assert done.returncode == 2 and len(line.splitlines()) == 1, line
    cmd = line.split("is played by ", 1)[1].split(" (one baseline per cell", 1)[0]
    words = shlex.split(cmd)
    assert "--panel" not in words and "command-line" not in line, words
    assert words[:8] == ["balance", "baseline", "--players", "3,4", "--lineup", "balanced",
                         "--lineup", "greedy"], words
    assert words[words.index("--set") + 1] == "income.palais.base=4" and words[-2:] == ["--out", "DIR"]
    pb = Path("pb")
    ran = balance(*words[1:-1], pb, "--games", 4000, "--tolerance", 5, check=False)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert all((pb / f"cell-{k}.toml").is_file() for k in range(4)) and not (pb / "cell-4.toml").exists()

    # the panel baseline directory itself: a cell named that exists, and can be measured
    done = balance("baseline", pb, "--out", "again.toml", check=False)
    line = done.stderr.strip()
    assert done.returncode == 2 and len(line.splitlines()) == 1, line
    assert f"balance check --baseline {pb}" in line, line
    cell = line.rsplit("e.g. ", 1)[1]
    assert cell.endswith("runs/cell-0") and Path(cell).is_dir(), line
    measured = balance("baseline", cell, "--out", "cell.toml", "--tolerance", 5, check=False)
    assert measured.returncode == 0 and (tmp_path / "cell.toml").is_file(), measured.stderr
