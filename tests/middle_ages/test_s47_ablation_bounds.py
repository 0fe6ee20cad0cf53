"""Event ablation with few games (review s47): a card and seat whose win share no drawn game
changes showed "0.0 (0.0 to 0.0 pp)" and was counted as ruling out 1 pp; intervals reached past
±100 pp; --games 1 printed NaN intervals and exited 0. Checked against the per-game rows of both
decks, played here through the runner (not the ablation's own code)."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from analysis.questions import middle_ages as Q
from cli import _run
from simcore import runner
from simcore.games.middle_ages import rules as R

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

GAMES = 200


@pytest.fixture(scope="module")
def table():
    return Q.event_ablation(GAMES, seed=3, threads=1)


def _win_shares(rules):
    """Per-game win shares (games × seats) and the cards drawn, played through the runner."""
    prep = runner.prepare("middle-ages", players=4, rules_arrays=rules, quiet=True)
    played = runner.collect(prep, games=GAMES, seed=3, threads=1, columns=("win_share",))
    w = np.asarray(played.players["win_share"], np.float64).reshape(-1, 4)
    ev = np.stack([np.asarray(played.games[f"event_{k}"]) for k in range(1, R.N_EVENTS + 1)], axis=1)
    return w, ev


def test_a_cell_no_game_changes_gets_the_rule_of_three_bound_not_a_point(table):
    rules = R.load()
    base, ev = _win_shares(rules)
    cells, flat = table.height, 0
    for eid in (int(e) for e in rules.event_ids):
        diff = base - _win_shares(Q.neutralised(rules, eid))[0]
        drawn = int((ev == eid).any(axis=1).sum())
        for seat in range(4):
            row = table.filter((pl.col("event") == eid) & (pl.col("seat") == seat)).row(0, named=True)
            assert row["win_share_effect"] == pytest.approx(diff[:, seat].mean())
            if diff[:, seat].any():
                continue
            flat += 1
            per_drawn = 1 - (0.05 / cells) ** (1 / drawn)      # Bonferroni over the table's cells
            assert row["win_share_effect_high"] == pytest.approx(drawn / GAMES * per_drawn)
            assert row["win_share_effect_low"] == pytest.approx(-drawn / GAMES * per_drawn)
            assert row["win_share_when_drawn_high"] == pytest.approx(per_drawn)
            assert row["verdict"] == "within noise"
    assert flat > 0                  # (200 games: some card changes no win of some seat)


def test_no_interval_reaches_past_what_a_win_share_can_move(table):
    for row in table.iter_rows(named=True):
        limit = row["fires"] if row["unchanged_when_not_drawn"] else 1.0
        assert -limit - 1e-12 <= row["win_share_effect_low"] <= row["win_share_effect_high"] <= limit + 1e-12
        assert -1 - 1e-12 <= row["win_share_when_drawn_low"] and row["win_share_when_drawn_high"] <= 1 + 1e-12


@pytest.mark.parametrize("games", ["1", "10", "99"])
def test_too_few_games_is_one_line_before_any_game(tmp_path, capsys, games):
    run = tmp_path / "run"
    assert _run(["simulate", "-n", "50", "--out", str(run), "-q"]) == 0
    capsys.readouterr()
    out = tmp_path / "q"
    assert _run(["questions", str(run), "--games", games, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"--games {games}: too few for the event ablation" in err
    assert not out.exists()
