"""A played ``balance skill`` directory for the tests that copy one, and a folder's whole tree.

:func:`played_skill` plays ``balance skill --game middle-ages --players 2`` once (its pages not
drawn), :func:`folder_tree` reads every path under a folder with its bytes, so a test can say that
nothing was lost or changed; the fixture :func:`sk` copies a module's ``played`` directory. May import the standard library and the tests' :mod:`in_process` and
:mod:`undrawn_figures`.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

SKILL = ["skill", "--game", "middle-ages", "--players", "2", "-q"]


def folder_tree(folder: Path) -> dict:
    """Every path under ``folder`` (relative) with its bytes (None for a folder or a link)."""
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() and not p.is_symlink() else None)
            for p in sorted(folder.rglob("*"))}


def played_skill(tmp_path_factory, *args) -> Path:
    """A complete skill directory, ``balance skill`` with :data:`SKILL`, budgets 0,1 and ``args``."""
    from in_process import balance
    from undrawn_figures import skill_pages_undrawn

    out = tmp_path_factory.mktemp("skill") / "sk"
    with skill_pages_undrawn():
        balance(*SKILL, "--budgets", "0,1", *args, "--out", out)
    return out


@pytest.fixture
def sk(played, tmp_path, monkeypatch) -> Path:
    """A copy of the module's ``played`` skill directory in the test's own folder (the working
    directory), for a test to change or replace. Imported by a test module as a fixture."""
    monkeypatch.chdir(tmp_path)
    return Path(shutil.copytree(played, tmp_path / "sk", symlinks=True))
