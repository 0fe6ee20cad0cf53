"""Fixtures for the Fief tests (rule ids FF-1 … FF-7 in each test's docstring)."""

from __future__ import annotations

import pytest

from simcore.games.fief import rules as fief_rules


@pytest.fixture(scope="session")
def rules():
    return fief_rules.load()
