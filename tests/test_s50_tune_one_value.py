"""balance tune refuses a --vary of one value before any game, as balance sweep does (review s50
tune #3: ``--vary setup.start_coins[0]=3..3`` played 160,000 search and 200,000 confirmation games
for its one trial, and ``players=4..4`` ended in a verdict naming the count as a tuned setting)."""

from __future__ import annotations

import pytest

from cli import _run


@pytest.mark.parametrize("vary, alone", [
    ("setup.start_coins[0]=3..3", "--set setup.start_coins[0]=3"),
    ("setup.start_coins[0]=[3]", "--set setup.start_coins[0]=3"),
    ("players=4..4", "--players 4"),
])
def test_tune_refuses_a_range_of_one_value(tmp_path, capsys, vary, alone):
    out = tmp_path / "t"
    assert _run(["tune", "--out", str(out), "--vary", vary, "--target", "seat-balance"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "one value" in err[0] and alone in err[0]
    assert not out.exists()
