"""The replay line of a game with roles says what "why" is about.

A Seigneurial before/after read "To see why in sg-start3, look at a game the Seigneur lost with its
highest score": a sentence missing its object. The line now names the side that wins least, on a
run's page and, with the variant's name, on a before/after's.
"""

from __future__ import annotations

import pytest
from simcore import runner


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_side_that_wins_least_is_named(tmp_path, undrawn):
    # (the page's words are read: the figures are built, not drawn, ``undrawn``)
    from in_process import balance

    a = runner.simulate("seigneurial", games=2000, seed=1, out=tmp_path / "base", quiet=True)
    b = runner.simulate("seigneurial", games=2000, seed=1, out=tmp_path / "start3",
                        settings=["track.start_square=3"], quiet=True)
    balance("report", a, b, "--out", tmp_path / "r")
    page = (tmp_path / "r" / "report.html").read_text()
    assert "To see why the Seigneur wins least in start3, look at a game the Seigneur lost" in page
    assert "To see why in start3," not in page
    balance("report", a, "--out", tmp_path / "one")
    assert "To see why the Seigneur wins least, look at a game" in (tmp_path / "one" / "report.html").read_text()
