"""Review s58 #3 and #4: a check's refusals name what a check is given, not another command's options.

``balance check`` takes its game and bots from the baseline file; it has no ``--game`` and no
``--strategies``. Yet rules of another game were refused with "…, not of middle-ages: add --game
seigneurial" (#3), and a baseline whose ``strategies`` names an unknown bot with "--strategies:
unknown strategy 'nonexistent'" (#4), where every other baseline key is named by the file and key
("bl.toml: check.games 10: …"). Both are one line, exit 2, before any game.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cli import _run

ROOT = Path(__file__).resolve().parents[2]
SEIGNEURIAL_RULES = ROOT / "configs" / "seigneurial" / "rules.toml"


@pytest.fixture(scope="module")
def baseline(tmp_path_factory) -> Path:
    """A Middle-Ages baseline of 200 games (loose tolerances let so small a run be recorded: only
    the refusals, before any game, are read)."""
    root = tmp_path_factory.mktemp("s58words")
    assert _run(["simulate", "--games", "200", "--seed", "3", "--out", str(root / "run"), "--quiet"]) == 0
    out = root / "bl.toml"
    assert _run(["baseline", str(root / "run"), "--out", str(out), "--tolerance", "20",
                 "--score-tolerance", "40"]) == 0
    return out


def _one_line(capsys) -> str:
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and err.startswith("error: "), err
    return err


def test_check_has_no_game_option(capsys):
    # what the refusal below must not advise: the check's own options
    assert _run(["check", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--baseline" in out and not re.search(r"--game\b", out), out


@pytest.mark.parametrize("option", ["--rules", "--against-rules"])
def test_rules_of_another_game_name_the_baseline_s_game(baseline, option, capsys):
    capsys.readouterr()
    assert _run(["check", "--baseline", str(baseline), option, str(SEIGNEURIAL_RULES), "--quiet"]) == 2
    line = _one_line(capsys)
    assert "holds the rules of seigneurial (sections " in line and "not of middle-ages" in line, line
    assert not re.search(r"--game\b", line), line
    assert f"the baseline {baseline} is a middle-ages baseline" in line, line


def test_an_unknown_bot_of_the_file_names_the_file_s_key(baseline, capsys):
    text = baseline.read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if x.startswith("strategies = "))
    bad = baseline.with_name("bad.toml")
    bad.write_text(text.replace(line, 'strategies = ["balanced", "nonexistent", "balanced", "balanced"]'),
                   encoding="utf-8")
    capsys.readouterr()
    assert _run(["check", "--baseline", str(bad), "--quiet"]) == 2
    err = _one_line(capsys)
    assert err.startswith(f"error: {bad}: run.strategies: unknown strategy 'nonexistent'"), err
    assert "--strategies" not in err, err
