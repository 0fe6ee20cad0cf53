"""Fixtures of the reliability suite (issue 18): a tiny real run, and a guard that fails a test
when a game is prepared or played before the bad input was refused. Helpers:
reliability_helpers.py."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def _tiny_run_source(tmp_path_factory) -> Path:
    from simcore import runner

    out = tmp_path_factory.mktemp("reliability-runs") / "tiny"
    runner.simulate("middle-ages", games=200, seed=3, out=out, quiet=True, players=4)
    return out


@pytest.fixture
def tiny_run(_tiny_run_source, tmp_path) -> Path:
    """A copy of a real 200-game, 4-player Middle-Ages run directory in ``tmp_path/run``."""
    return Path(shutil.copytree(_tiny_run_source, tmp_path / "run"))


@pytest.fixture
def no_playing(monkeypatch):
    """Playing a game (or preparing a run) fails the test: for checks that must come first."""
    from simcore import runner

    def played(*args, **kwargs):
        raise AssertionError("a game was prepared or played before the bad input was refused")

    monkeypatch.setattr(runner, "prepare", played)
    monkeypatch.setattr(runner, "run", played)
    monkeypatch.setattr(runner, "chunks", played)
