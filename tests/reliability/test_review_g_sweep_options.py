"""Review G #3: ``balance sweep`` checks every option before it creates anything.

``--chunk-size -5`` (and ``--games`` not a multiple of the players with ``--rotate-seats``, and a
sweep larger than the free disk space) was refused only after ``--out`` held sweep.json and an
empty variants/; the next sweep into it was then refused as "holds another sweep".
"""

from __future__ import annotations

import shutil
from collections import namedtuple

import pytest

from in_process import balance

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

VARY = ["--vary", "income.palais.base=3..4"]


def one_line(done) -> str:
    lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
    assert done.returncode == 2 and len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    return lines[0]


@pytest.mark.parametrize("args, words", [
    (["--chunk-size", "-5", "--games", "300"], "--chunk-size -5: must be a whole number"),
    (["--chunk-size", "0", "--games", "300"], "--chunk-size 0: must be a whole number"),
    (["--rotate-seats", "--games", "301"], "--games 301: with --rotate-seats the count must be a multiple of 4"),
    (["--panel", "default", "--rotate-seats", "--games", "301"], "--games 301: with --rotate-seats"),
])
def test_a_bad_option_creates_nothing(tmp_path, args, words):
    out = tmp_path / "D"
    line = one_line(balance("sweep", "--out", out, *VARY, *args, "-q", check=False))
    assert words in line, line
    assert not out.exists() and sorted(p.name for p in tmp_path.iterdir()) == []


def test_a_sweep_larger_than_the_disk_creates_nothing(tmp_path, monkeypatch):
    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda path: usage(10**6, 0, 1000))
    out = tmp_path / "D"
    line = one_line(balance("sweep", "--out", out, *VARY, "--games", "300", "-q", check=False))
    assert "the 2 variants to play need about" in line and "--raw" not in line, line
    assert not out.exists()


def test_after_a_refusal_the_same_out_takes_the_sweep(tmp_path):
    out = tmp_path / "D"
    one_line(balance("sweep", "--out", out, *VARY, "--chunk-size", "-5", "--games", "300", check=False))
    # another sweep (it was refused: "holds another sweep")
    done = balance("sweep", "--out", out, "--vary", "income.palais.base=5..6", "--games", "300", "-q")
    assert done.returncode == 0 and (out / "variants").is_dir()
