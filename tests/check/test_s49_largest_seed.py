"""A baseline of a run played with the largest seed (2**63 - 1) is recorded with seed_offset -1 when
--seed-offset was not given, and its check plays seed 2**63 - 2 (session 48's list: the baseline
stopped on "--seed-offset 1: … out of range", an option the user never typed). A --seed-offset
that was typed is kept as typed, and refused there when its seed is no seed."""

from __future__ import annotations

import tomllib

from tests.in_process import balance
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

LARGEST = 2**63 - 1


def _run(tmp_path, seed):
    out = tmp_path / f"run-{seed}"
    done = balance("simulate", "--games", "300", "--seed", seed, "--out", out)
    assert done.returncode == 0, done.stderr
    return out


def test_largest_seed_takes_minus_one_and_the_check_plays_the_seed_below(tmp_path):
    run = _run(tmp_path, LARGEST)
    base = tmp_path / "b.toml"
    done = balance("baseline", run, "--out", base, "--tolerance", "20pp", "--score-tolerance", "30", "--check-games", "2000",
                   check=False)
    assert done.returncode == 0, done.stderr
    recorded = tomllib.loads(base.read_text())
    assert recorded["check"]["seed_offset"] == -1
    checked = balance("check", "--baseline", base, "--games", "600", check=False)
    assert checked.returncode in (0, 1, 3), checked.stderr
    assert str(LARGEST - 1) in checked.stdout + checked.stderr


def test_a_typed_offset_is_kept_and_refused_by_its_own_name(tmp_path):
    run = _run(tmp_path, LARGEST)
    done = balance("baseline", run, "--out", tmp_path / "b.toml", "--seed-offset", "1", check=False)
    assert done.returncode == 2
    assert "--seed-offset 1" in done.stderr and "out of range" in done.stderr


def test_an_ordinary_seed_keeps_plus_one(tmp_path):
    run = _run(tmp_path, 7)
    base = tmp_path / "b.toml"
    balance("baseline", run, "--out", base, "--tolerance", "20pp", "--score-tolerance", "30", "--check-games", "2000")
    assert tomllib.loads(base.read_text())["check"]["seed_offset"] == 1
