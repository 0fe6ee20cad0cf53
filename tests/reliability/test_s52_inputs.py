"""Session 52: bad input said first for what it is."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("values,said", [("[nan]", "nan"), ("[nan,3]", "nan"), ("[3,inf]", "inf")])
def test_a_sweep_value_that_is_not_a_finite_number_is_said_so_first(tmp_path, values, said):
    # (review s51 opinion: "[nan]" was "one value (nan), so the sweep has nothing to compare it
    # with", as if nan were a value)
    from in_process import balance

    done = balance("sweep", "--vary", f"setup.start_coins={values}", "--games", 100, "--out",
                   tmp_path / "sw", check=False)
    assert done.returncode == 2
    line = done.stderr.strip()
    assert f"{said} is not a number a setting can take" in line and "one value" not in line, line
    assert len(line.splitlines()) == 1 and not (tmp_path / "sw").exists()
