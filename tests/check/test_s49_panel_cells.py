"""A panel check refuses, before any game, what it would otherwise play under a wrong name or stop
on halfway (review s49 panels): a cell file that plays another configuration than the cell
panel.json files it under (#1), a --set or rules file that fits only some cells (#2), and cells
whose files give different alpha (#3: the first cell's was taken for all)."""

from __future__ import annotations

import shutil

import pytest

from analysis.check.panel import check_panel, record_panel_baseline
from simcore.errors import UsageError
from strategies import panels

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    panel = panels.from_options("middle-ages", players="3,4", lineups=["random", "greedy"])
    return record_panel_baseline(panel, tmp_path_factory.mktemp("pb") / "base", games=6000, seed=1,
                                 check_games=6000,
                                 tolerance={"seat_win_share": 5.0, "strategy_win_share": 5.0,
                                            "seat_mean_score": 20.0})


def _copy(recorded, tmp_path):
    out = tmp_path / "base"
    shutil.copytree(recorded, out)
    return out


def _refused(out, monkeypatch, **kw) -> str:
    from analysis.check import play

    played = []
    monkeypatch.setattr(play, "play_check", lambda *a, **k: played.append(1))
    with pytest.raises(UsageError) as exc:
        check_panel(out, **kw)
    assert not played                     # refused before any cell played
    return str(exc.value)


def test_a_cell_file_edited_to_other_bots_is_refused(recorded, tmp_path, monkeypatch):
    out = _copy(recorded, tmp_path)
    f = out / "cell-0.toml"
    f.write_text(f.read_text().replace('strategies = ["random", "random", "random"]',
                                       'strategies = ["greedy", "greedy", "greedy"]'))
    line = _refused(out, monkeypatch)
    assert "cell-0.toml" in line and "3p 3×random" in line and "greedy" in line


def test_another_player_counts_file_copied_over_a_cell_is_refused(recorded, tmp_path, monkeypatch):
    out = _copy(recorded, tmp_path)
    shutil.copy(out / "cell-2.toml", out / "cell-0.toml")        # a 4-player file as 3p random
    line = _refused(out, monkeypatch)
    assert "players = 4" in line and "3p 3×random" in line


def test_a_set_that_fits_only_some_cells_is_refused_before_any_game(recorded, tmp_path, monkeypatch):
    line = _refused(recorded, monkeypatch, settings=["setup.start_coins=[1,0,0]"])
    assert "4" in line


def test_cells_with_different_alpha_are_refused_unless_alpha_is_given(recorded, tmp_path, monkeypatch):
    out = _copy(recorded, tmp_path)
    f = out / "cell-3.toml"
    f.write_text(f.read_text().replace("alpha = 0.05 ", "alpha = 0.001", 1))
    line = _refused(out, monkeypatch)
    assert "different alpha" in line and "cell-3.toml 0.001" in line
    from analysis.check import play

    monkeypatch.setattr(play, "play_check", lambda *a, **k: None)
    monkeypatch.setattr("analysis.check.panel.PanelCheck", lambda *a: a)
    labels, results, family, per_cell, files = check_panel(out, alpha=0.02)
    assert family == 0.02 and per_cell == pytest.approx(0.005)


def test_the_recorded_panel_itself_is_accepted(recorded, monkeypatch):
    from analysis.check import play

    monkeypatch.setattr(play, "play_check", lambda *a, **k: None)
    monkeypatch.setattr("analysis.check.panel.PanelCheck", lambda *a: a)
    labels, results, family, per_cell, files = check_panel(recorded)
    assert len(labels) == 4 and family == 0.05
