"""Runs pooled into one are said to be pooled, first.

Two runs of the same rules with different seeds (a designer who meant a before/after and forgot
the --set) became one report of both runs' games, titled "ma-base (+1 runs)", without a sentence
saying why. The page and the terminal now lead with it and say how to compare them instead.
"""

from __future__ import annotations

import re

from simcore import runner
import pytest

pytestmark = pytest.mark.slow   # a costly file: make test-slow and CI run it (docs/testing.md, the fast suite's budget)


def test_pooled_runs_are_said_first(tmp_path, undrawn):
    # (the page's and the terminal's words are read: the figures are built, not drawn, ``undrawn``)
    from in_process import balance

    a = runner.simulate("middle-ages", games=2000, seed=2, out=tmp_path / "first", quiet=True)
    b = runner.simulate("middle-ages", games=2000, seed=3, out=tmp_path / "second", quiet=True)
    done = balance("report", a, b, "--out", tmp_path / "r")
    said = ("Pooled: first and second (seeds 2 and 3) have the same game, rules, bots and players, so they "
            "are read as one run of 4,000 games")
    assert done.stdout.strip().splitlines()[0].startswith(said), done.stdout[:300]
    assert "balance report --no-pool" in done.stdout
    page = (tmp_path / "r" / "report.html").read_text()
    first = re.search(r"<li>(.*?)</li>", page).group(1)
    assert first.startswith(said), first[:200]
    # one run: nothing said
    done = balance("report", a, "--out", tmp_path / "one")
    assert "Pooled" not in done.stdout and "Pooled" not in (tmp_path / "one" / "report.html").read_text()
