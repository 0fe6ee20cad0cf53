"""Bad input to `balance baseline` / `balance check` is one line starting `error: `, exit 2, before
any game is played (docs/ci.md §2, "Exit codes")."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli import _run

ROOT = Path(__file__).resolve().parents[2]
BASELINE = ROOT / "configs" / "baselines" / "middle_ages_default.toml"


def _one_error_line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: "), err
    return err[0]


def test_a_check_on_the_baselines_own_seed_is_refused(capsys):
    # docs/ci.md: "The seed must differ from the baseline's (the first games would otherwise be the
    # baseline's own)". The committed baseline was measured with seed 2024.
    assert "seed = 2024 " in BASELINE.read_text(encoding="utf-8")
    assert _run(["check", "--baseline", str(BASELINE), "--seed", "2024", "--quiet"]) == 2
    line = _one_error_line(capsys)
    assert "--seed 2024" in line and "baseline" in line


@pytest.mark.parametrize("option", ["--tolerance", "--score-tolerance"])
@pytest.mark.parametrize("value", ["-1", "0"])
def test_a_tolerance_that_is_not_positive_says_it_must_be_above_zero(tmp_path, capsys, option, value):
    assert _run(["baseline", str(tmp_path / "no-run"), "--out", str(tmp_path / "b.toml"),
                 option, value]) == 2
    line = _one_error_line(capsys)
    assert "> 0" in line and ">= 0" not in line, line


@pytest.mark.parametrize("where", ["[tolerance]", "[[metric]]"])
def test_a_negative_tolerance_in_the_baseline_file_says_it_must_be_above_zero(tmp_path, capsys, where):
    text = BASELINE.read_text(encoding="utf-8")
    if where == "[tolerance]":
        text = text.replace("\nseat_win_share = 1.0", "\nseat_win_share = -1.0", 1)
    else:
        text = text.replace('label = "Seat 1 win share"', 'label = "Seat 1 win share"\ntolerance = -1.0', 1)
    bad = tmp_path / "neg.toml"
    bad.write_text(text, encoding="utf-8")
    assert "-1.0" in text
    assert _run(["check", "--baseline", str(bad), "--quiet"]) == 2
    line = _one_error_line(capsys)
    assert "must be > 0" in line and ">= 0" not in line, line


def test_a_baseline_of_an_unknown_game_names_the_game(tmp_path, capsys):
    # a typo in [run] game must be reported as such, not as a unit mismatch of some [[metric]]
    text = BASELINE.read_text(encoding="utf-8")
    assert '\ngame = "middle-ages"' in text
    bad = tmp_path / "chess.toml"
    bad.write_text(text.replace('\ngame = "middle-ages"', '\ngame = "middle_ages"', 1), encoding="utf-8")
    assert _run(["check", "--baseline", str(bad), "--quiet"]) == 2
    line = _one_error_line(capsys)
    assert "run.game" in line and "middle_ages" in line and "unknown game" in line, line
