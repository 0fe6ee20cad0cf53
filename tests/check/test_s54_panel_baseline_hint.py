"""Review leftover (panel baseline paths): `balance baseline PANEL_DIR --out F`, a panel played by
`simulate --panel`, said "a panel, not a run: give a cell, e.g. …/cell-0, or balance report …":
nothing about how a panel gets a baseline. It now names the command that plays one, built from the
panel's own panel.json (its panel, game, seed, rules and settings), and that command runs."""

from __future__ import annotations

import shlex

from in_process import balance
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def test_a_panel_given_as_run_names_the_panel_baseline_command(tmp_path):
    balance("simulate", "--panel", "default", "--games", 300, "--seed", 7, "--set", "income.palais.base=4",
             "--out", tmp_path / "pan", "-q")
    done = balance("baseline", tmp_path / "pan", "--out", tmp_path / "b.toml", check=False)
    assert done.returncode == 2, done.stdout + done.stderr
    line = done.stderr.strip()
    assert len(line.splitlines()) == 1, line
    assert "a panel, not a run" in line and "cell-0" in line
    cmd = line.split("is played by ", 1)[1].split(" (one baseline per cell", 1)[0]
    words = shlex.split(cmd)
    assert words[:4] == ["balance", "baseline", "--panel", "default"], words
    assert words[words.index("--game") + 1] == "middle-ages" and words[words.index("--seed") + 1] == "7"
    assert words[words.index("--set") + 1] == "income.palais.base=4"
    assert words[-2:] == ["--out", "DIR"] and not (tmp_path / "b.toml").exists()
    # the command runs as given (with a directory for DIR; games enough for the gate's tolerance)
    ran = balance(*words[1:-1], str(tmp_path / "pb"), "--games", 30000, check=False)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert (tmp_path / "pb" / "cell-0.toml").is_file() and "income.palais.base=4" in \
        (tmp_path / "pb" / "cell-0.toml").read_text(encoding="utf-8")
