"""Issue 28, point 6: every hostile case of docs/reliability.md, run as real processes.

``tests/reliability/hostile.py`` builds a workspace (a real run, a 3-player run, a sweep, a tune, a
report, a baseline, the user's own files), runs each case in a fresh copy and classifies it;
this test fails on any case whose class is not the one the list expects (lost data, a traceback,
a hang, bad input silently accepted, or a refusal with other words). Slow: about a hundred
process starts.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import hostile  # noqa: E402


@pytest.mark.slow
def test_every_hostile_case_gets_its_expected_class(tmp_path, capsys):
    code = hostile.main(["--jobs", "2"])
    out = capsys.readouterr().out
    assert code == 0, out[-6000:]


def test_the_documented_list_is_the_list_the_runner_plays(capsys):
    """docs/reliability.md holds the table ``hostile.py --list`` prints (regenerate it there)."""
    hostile.main(["--list"])
    table = capsys.readouterr().out
    doc = (Path(__file__).resolve().parents[2] / "docs" / "reliability.md").read_text(encoding="utf-8")
    assert table in doc
