"""``balance report`` of a sweep stopped part-way says so in the terminal, before its answers (review
s62 rv267 #1): a sweep interrupted after 2 of its 9 values printed "Fairest value of …: the smallest
seat imbalance is at 2 …" as a whole sweep's answer; only the page's notes said "Not finished yet"."""

from __future__ import annotations

import shutil

from in_process import balance
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def test_the_terminal_says_a_sweep_is_unfinished_before_its_answers(tmp_path):
    d = tmp_path / "sw"
    balance("sweep", "--vary", "setup.extra_coin_tokens=[2,3,4]", "--games", "60", "--players", "4",
            "--seed", "1", "-q", "--out", d)
    whole = balance("report", d, "--out", tmp_path / "r1").stdout
    assert "Not finished" not in whole
    shutil.rmtree(d / "variants" / "v002")          # as a sweep stopped before its third value
    lines = balance("report", d, "--out", tmp_path / "r2").stdout.splitlines()
    first = next(i for i, x in enumerate(lines) if "Not finished" in x)
    assert "2 of 3 variants played" in lines[first] and "v002" in lines[first]
    answer = next(i for i, x in enumerate(lines) if "Fairest value" in x)
    assert first < answer
