"""One line, exit 2, naming the option at fault (review s48 safety #4, #5 and tune #4)."""

from __future__ import annotations

import pytest

from in_process import balance


def _refused(*args) -> str:
    done = balance(*args, check=False)
    assert done.returncode == 2, (done.returncode, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


def test_a_set_with_a_line_break_is_refused(tmp_path):
    from simcore import runner
    from simcore.errors import UsageError

    with pytest.raises(UsageError, match="holds a line break; give one setting per --set"):
        runner.prepare("middle-ages", settings=["income.palais.base=4\nincome.champs.base=5"])
    line = _refused("sweep", "--vary", "income.palais.base=[3,4]", "--set",
                    "income.palais.base=4\nincome.champs.base=5", "--games", "10", "--out", tmp_path / "s")
    assert "holds a line break" in line, line


def test_tune_refuses_a_setting_both_varied_and_set(tmp_path):
    line = _refused("tune", "--vary", "income.palais.base=2..6", "--set", "income.palais.base=3",
                    "--target", "seat-balance:5", "--out", tmp_path / "t")
    assert line == "error: --vary income.palais.base=2..6: also given with --set (give it once)"


@pytest.mark.parametrize("option, words", [
    (["--players", "7"], "error: --players 7: "),
    (["--strategies", "balanced,foo,balanced,balanced"], "error: --strategies: unknown strategy 'foo'"),
])
def test_tune_names_the_option_at_fault_not_the_vary(tmp_path, option, words):
    line = _refused("tune", "--vary", "income.palais.base=3..5", "--target", "seat-balance",
                    *option, "--out", tmp_path / "t")
    assert line.startswith(words) and "--vary at" not in line, line


def test_a_varied_value_the_rules_refuse_still_names_the_vary(tmp_path):
    line = _refused("tune", "--vary", "income.palais.base=-3..5", "--target", "seat-balance",
                    "--out", tmp_path / "t")
    # (session 54: the --vary as typed, then the value refused, without the rules file's name)
    assert line.startswith("error: --vary income.palais.base=-3..5: at income.palais.base=-3: "), line
    assert "with --set" not in line and "must be >= 0" in line, line
