"""`balance export --what matchups`: `meetings` counts the games the two bots met, `units` what the
interval is over (games, or deals on a rotated run), as `--what strategies` separates `players`
and `units` (review s61 fix 260 #3: on a rotated 20,000-game run every pair met in all 20,000
games, and `meetings` read 5000, the deals)."""

from __future__ import annotations

import polars as pl
import pytest

from cli import _run

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

N_GAMES = 200      # 50 deals of 4 rotated games


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("s61_matchups")
    rot, fixed = root / "rot", root / "fixed"
    assert _run(["simulate", "-n", str(N_GAMES), "--seed", "3", "-s", "eventwise,balanced,greedy,random",
                 "--rotate-seats", "--out", str(rot), "--quiet"]) == 0
    assert _run(["simulate", "-n", str(N_GAMES), "--seed", "3", "-s", "balanced,random,balanced,random",
                 "--out", str(fixed), "--quiet"]) == 0
    return rot, fixed


def _export(run, what, out):
    assert _run(["export", str(run), "--what", what, "--out", str(out)]) == 0
    return pl.read_csv(out)


def test_a_rotated_runs_pairs_met_in_every_game_over_its_deals(runs, tmp_path):
    m = _export(runs[0], "matchups", tmp_path / "m.csv")
    assert m.height == 12
    assert m["meetings"].to_list() == [N_GAMES] * 12          # every pair plays every game
    assert m["units"].to_list() == [N_GAMES // 4] * 12        # the interval is over the deals
    s = _export(runs[0], "strategies", tmp_path / "s.csv")
    assert set(s["units"].to_list()) == set(m["units"].to_list())


def test_a_fixed_seat_runs_pairs_met_in_every_game_which_are_its_units(runs, tmp_path):
    m = _export(runs[1], "matchups", tmp_path / "m.csv")
    assert m["meetings"].to_list() == [N_GAMES] * 2
    assert m["units"].to_list() == [N_GAMES] * 2
