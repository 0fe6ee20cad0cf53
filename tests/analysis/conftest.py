"""Fixtures for the analysis tests; the run factories live in analysis_runs.py (a unique module name,
so the report tests can import it too)."""

from __future__ import annotations

from pathlib import Path

import pytest
from analysis_runs import HAND, HAND_GAMES, write_run


@pytest.fixture
def hand_run(tmp_path) -> Path:
    return write_run(tmp_path / "hand", HAND, HAND_GAMES, strategies=["A", "B"],
                     event_names={"0": "Métiers qualifiés", "1": "Marchandises précieuses"})
