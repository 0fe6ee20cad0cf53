"""``simulate --panel`` prints each cell's answer, as a run's closing table does.

A panel printed only "cell 1 of 3 (cell-0): 4p 4×balanced (5,000 games)" per cell and the path: no
win share at all, where one run prints its table (the designer review's #15). Each cell now gets a
line of its seats' (a game with roles: its sides') win shares, checked here against the cell's own
rows, and the share of games stopped at the turn limit where that warns.
"""

from __future__ import annotations

import pytest
import contextlib
import io

import polars as pl


def _simulate(*args) -> str:
    from cli import _run, _simulate_app

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert _run([str(a) for a in args], prog="simulate", target=_simulate_app()) == 0
    return out.getvalue()


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_each_cell_prints_its_seats(tmp_path):
    from simcore.numbers import rounded

    text = _simulate("--panel", "default", "--games", "1500", "--seed", "4", "--raw", "--out", tmp_path / "p")
    cells = sorted(d for d in (tmp_path / "p").iterdir() if (d / "run.json").is_file())
    assert len(cells) >= 2
    for d in cells:
        p = pl.read_parquet(d / "players.parquet")
        shares = p.group_by("seat").agg(pl.col("win_share").cast(pl.Float64).mean()).sort("seat")["win_share"]
        want = "seats " + ", ".join(f"{rounded(100 * w, 1):.1f}%" for w in shares)
        line = next(x for x in text.splitlines() if x.strip().startswith(f"{d.name} ("))
        assert line.endswith(f": {want}"), (line, want)
    assert "cell-0 (" not in _simulate("--panel", "default", "--games", "600", "--out", tmp_path / "q", "-q")


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_game_with_roles_prints_its_sides_and_the_turn_limit(tmp_path):
    text = _simulate("--game", "seigneurial", "--panel", "default", "--games", "800", "--seed", "3",
                     "--set", "end.max_turns=9", "--out", tmp_path / "p")
    lines = [x.strip() for x in text.splitlines() if x.strip().startswith("cell-")]
    assert lines and all("Seigneur " in x and "Censitaires " in x for x in lines), lines
    assert any("of its games stopped at the turn limit" in x for x in lines), lines
