"""Review s58 #2: ``balance baseline --check-games`` is refused below the least a check may stop at.

A check refuses a maximum below one look of 30 games (30 deals with rotated seats: docs/ci.md §2,
"at least 30 games, or 30 deals with rotated seats"). ``balance baseline RUN --check-games 10``
exited 0 and wrote ``games = 10``; every ``balance check`` of that file then stopped with
"check.games 10: must be at least 30 games", exit 2. Now the baseline refuses it in one line, exit 2,
before writing anything (a panel baseline, before playing any cell).
"""

from __future__ import annotations

import pytest

from cli import _run

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

LOOSE = ["--tolerance", "20", "--score-tolerance", "40"]     # a baseline of 200 games may be written


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("s58cg")
    assert _run(["simulate", "--games", "200", "--seed", "3", "--out", str(root / "plain"), "--quiet"]) == 0
    assert _run(["simulate", "--games", "200", "--seed", "3", "--rotate-seats", "--out", str(root / "rotated"),
                 "--quiet"]) == 0
    return root


def _error(capsys) -> str:
    err = capsys.readouterr().err.strip()
    assert "\n" not in err, err
    return err


def test_too_few_check_games_are_refused_before_the_file_is_written(runs, capsys):
    out = runs / "t6.toml"
    assert _run(["baseline", str(runs / "plain"), "--out", str(out), "--check-games", "10", *LOOSE]) == 2
    assert _error(capsys).startswith("error: --check-games 10: must be at least 30 games: "), capsys
    assert not out.exists()
    # 30 games is a check's least: written, and a check of the file is not refused for it
    ok = runs / "t30.toml"
    assert _run(["baseline", str(runs / "plain"), "--out", str(ok), "--check-games", "30", *LOOSE]) == 0
    assert "games = 30 " in ok.read_text(encoding="utf-8")


def test_with_rotated_seats_the_least_is_thirty_deals(runs, capsys):
    # 4 players: a deal is 4 games, so 30 deals are 120 games
    out = runs / "r.toml"
    assert _run(["baseline", str(runs / "rotated"), "--out", str(out), "--check-games", "100", *LOOSE]) == 2
    assert _error(capsys).startswith("error: --check-games 100: must be at least 120 games (30 deals of 4)")
    assert not out.exists()


def test_a_panel_baseline_refuses_them_before_playing_a_cell(tmp_path, capsys):
    out = tmp_path / "panel"
    assert _run(["baseline", "--panel", "default", "--game", "seigneurial", "--games", "300", *LOOSE,
                 "--check-games", "10", "--out", str(out)]) == 2
    assert _error(capsys).startswith("error: --check-games 10: must be at least 30 games")
    assert not out.exists() and not list(tmp_path.iterdir())
