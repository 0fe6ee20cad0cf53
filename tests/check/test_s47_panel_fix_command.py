"""A panel check's line for a cell the baseline did not record gives a command that reads the same
panel (review s47 panels #3): for a panel of the user's file it said "--panel mine", which then
stopped on "unknown panel 'mine'"; a shipped panel is still named alone."""

from __future__ import annotations

import re

import pytest

from analysis.check.panel import select_cells
from simcore.errors import UsageError
from strategies.panels import from_options


def _suggested(recorded, wanted) -> str:
    with pytest.raises(UsageError) as exc:
        select_cells(recorded, [None] * len(recorded.cells), wanted, "ex/base")
    return re.search(r"--panel (\S+) --out DIR", str(exc.value))[1]


def test_a_file_panels_fix_names_the_file_and_reads_back(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine2.toml").write_text(
        '[mine]\nplayers = [4]\nlineups = [{ seigneur = "harsh-lord", censitaire = "objective" }]\n')
    recorded = from_options("seigneurial", players="4", lineups=["even-lord,fair-share,fair-share,fair-share"])
    wanted = from_options("seigneurial", panel="mine2.toml")
    typed = _suggested(recorded, wanted)
    assert typed.endswith("mine2.toml:mine"), typed
    again = from_options("seigneurial", panel=typed)            # the command's --panel, as typed
    assert again.cells == wanted.cells


def test_a_shipped_panel_is_named_alone():
    recorded = from_options("seigneurial", players="4", lineups=["even-lord,fair-share,fair-share,fair-share"])
    wanted = from_options("seigneurial", panel="wide")
    assert _suggested(recorded, wanted) == "wide"


def test_an_unknown_key_lists_cells_among_the_known(tmp_path):
    (tmp_path / "p.toml").write_text('[p]\nplayers = [4]\nlineups = ["balanced"]\ncolour = "red"\n')
    with pytest.raises(UsageError) as exc:
        from_options("middle-ages", panel=str(tmp_path / "p.toml"))
    assert "colour: unknown key" in str(exc.value) and "cells" in str(exc.value).split("known here:")[1]


def test_the_panel_file_docs_sweep_md_shows_is_read_as_written(tmp_path):
    """docs/sweep.md's example panel file (review s47 panels #2: its per-seat line-up of 3 bots was
    crossed with 3-5 players, and a line-up repeated a roles cell: both refused)."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "sweep.md").read_text(encoding="utf-8")
    block = re.search(r"```toml\n(\[hard-tables\].*?)```", doc, re.S)[1]
    (tmp_path / "mine.toml").write_text(block)
    panel = from_options("seigneurial", panel=str(tmp_path / "mine.toml"))
    # roles 1 x 2 and 2 line-ups at 3 counts, and the one cell: 13 cells
    assert len(panel.cells) == 3 * (1 * 2 + 2) + 1
