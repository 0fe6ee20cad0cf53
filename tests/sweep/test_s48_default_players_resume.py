"""A tune or sweep given ``--players 4`` (the default) resumes when the same command leaves it out,
and the other way round (review s48 tune #5: "holds another tune (different players)")."""

from __future__ import annotations

import pytest

from in_process import balance

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

TUNE = ("tune", "--vary", "income.palais.base=3..4", "--target", "seat-balance:10", "--trials", "1",
        "--min-games", "100", "--max-games", "100", "--confirm-games", "400")
SWEEP = ("sweep", "--vary", "income.palais.base=[3,4]", "--games", "100")


@pytest.mark.parametrize("command", [TUNE, SWEEP], ids=["tune", "sweep"])
@pytest.mark.parametrize("first, second", [(("--players", "4"), ()), ((), ("--players", "4"))])
def test_the_default_count_given_or_not_is_one_plan(tmp_path, command, first, second):
    out = tmp_path / "out"
    balance(*command, *first, "--out", out)
    again = balance(*command, *second, "--out", out, check=False)
    assert again.returncode == 0, again.stderr
    assert "holds another" not in again.stderr
    other = balance(*command, "--players", "3", "--out", out, check=False)
    assert other.returncode == 2 and "holds another" in other.stderr and "players" in other.stderr
