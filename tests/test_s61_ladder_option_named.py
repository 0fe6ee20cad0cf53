"""Review s61 panels/tune #6: ``balance ladder --players 3,4 --lineup balanced`` (a line-up of one
bot) was refused as "--panel: at 3 players its line-ups hold one bot", naming an option the user
did not give. The line names the option given: --lineup here, --panel for a panel."""

from __future__ import annotations

from in_process import balance


def test_a_lineup_of_one_bot_is_refused_naming_lineup(tmp_path):
    done = balance("ladder", "--game", "middle-ages", "--players", "3,4", "--lineup", "balanced",
                   "--games", 60, check=False)
    line = done.stderr.strip()
    assert done.returncode == 2 and len(line.splitlines()) == 1, line
    assert line.startswith("error: --lineup: at 3 players its line-ups hold one bot (balanced)"), line
    assert "--panel" not in line, line


def test_a_panel_of_one_bot_is_still_refused_naming_panel(tmp_path):
    panel = tmp_path / "p.toml"
    panel.write_text('[one]\nplayers = [3]\nlineups = ["greedy"]\n', encoding="utf-8")
    done = balance("ladder", "--game", "middle-ages", "--panel", panel, "--games", 60, check=False)
    line = done.stderr.strip()
    assert done.returncode == 2 and line.startswith("error: --panel"), line
    assert "its line-ups hold one bot (greedy)" in line and "--lineup" not in line, line
