"""``balance tune`` on a disk too full for its confirmation is refused in one line, exit 2, before
any trial (review s62 rv267 #5: on a 400 kB disk it searched for 19 s, then said "--out
tiny/tu/confirmations/trial-3: the run needs about 1.5 MB …", and again on every rerun; a sweep
refuses this before any game). The disk's free space is made small where it is read."""

from __future__ import annotations

import shutil
from collections import namedtuple

from in_process import balance

TUNE = ["tune", "--vary", "setup.extra_coin_tokens=2..10", "--target", "seat-balance:5",
        "--min-games", "2000", "--max-games", "8000", "--confirm-games", "4000", "-p", "4", "-q",
        "--trials", "6"]


def test_a_tune_too_big_for_the_disk_is_refused_before_any_trial(tmp_path, monkeypatch):
    from analysis.tune import search

    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda p: usage(400_000, 0, 400_000))
    played = []
    monkeypatch.setattr(search, "run_tune", lambda *a, **k: played.append(1))
    done = balance(*TUNE, "-o", tmp_path / "tu", check=False)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --out "), lines
    assert "confirmation" in lines[0] and "--confirm-games" in lines[0], lines[0]
    assert not played and list(tmp_path.iterdir()) == []


def test_a_tune_that_fits_is_not_refused(tmp_path, monkeypatch):
    from analysis.tune import search

    played = []

    def run_tune(*a, **k):
        played.append(1)
        raise SystemExit(0)         # (the search itself is not what this test is about)

    monkeypatch.setattr(search, "run_tune", run_tune)
    balance(*TUNE, "-o", tmp_path / "tu", check=False)
    assert played
