"""Session 52 Fief review: tune on a combat finishes, the printout names the combat, a mean's
interval stays within what a count can be, at most four break-even levels."""

from __future__ import annotations

import pytest

from in_process import balance
from undrawn_figures import figures_undrawn

# the tests' CPU over docs/testing.md's budget (session 63): this module runs in make test-slow
# and CI, not in make test
pytestmark = pytest.mark.slow


def test_a_tune_of_a_combat_confirms_its_best_rules_without_a_player_count(tmp_path):
    # (it played every trial, then stopped: "--players 2: fief-combat does not take this option")
    done = balance("tune", "--game", "fief-combat", "--target", "role=attacker:80%:5", "--vary",
                   "darc.bonus=0..12", "--trials", 3, "--min-games", 500, "--max-games", 1000,
                   "--out", tmp_path / "t", check=False)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "t" / "best_rules.toml").is_file()


def test_the_printout_names_the_combat_and_no_interval_goes_below_zero(tmp_path, capsys):
    from cli import _run

    assert _run(["simulate", "--game", "fief-combat", "--attacker", "5", "--games", "100",
                 "--out", str(tmp_path / "o")]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "outcomes of 5 points with 1 Lord attacking 6 points with 1 Lord in open terrain" in out, out
    assert " −" not in out.replace("−0.00", "") and " -0." not in out


def test_the_mean_interval_of_a_count_is_clipped_at_zero():
    from simcore.games.fief.game import CombatOdds

    acc = CombatOdds()
    acc.n = 100
    acc.sums = {"x": 2.0}
    acc.sumsq = {"x": 2.0}          # two combats with 1 point left, 98 with none
    m, lo, hi = acc._mean_ci("x")
    assert m == pytest.approx(0.02) and lo == 0.0 and hi > 0.02


def test_more_than_four_levels_are_refused_in_one_line(tmp_path):
    from reports.figures.fief import LEVEL_COLOURS
    from simcore.games.fief.odds import MAX_LEVELS

    assert MAX_LEVELS == len(LEVEL_COLOURS)
    done = balance("fief-odds", "--attackers", "1-8", "--defenders", "1-3", "--levels",
                   "0.1,0.2,0.3,0.4,0.5", "--out", tmp_path / "fo", check=False)
    assert done.returncode == 2 and "at most 4 levels" in done.stderr and not (tmp_path / "fo").exists()


def test_a_sweep_and_a_tune_of_a_combat_name_the_combat_they_played(tmp_path):
    balance("sweep", "--game", "fief-combat", "--vary", "darc.bonus=[0,12]", "--games", 500,
            "--out", tmp_path / "s")
    with figures_undrawn():      # (the words are read; a Fief sweep page is drawn by the next test)
        balance("report", tmp_path / "s", "--out", tmp_path / "r")
    page = (tmp_path / "r" / "report.html").read_text(encoding="utf-8")
    assert "measured on</th><td>10 points with 1 Lord attacking 6 points with 1 Lord in open terrain" in page
    # no Jeanne d'Arc in that combat: every value of her bonus gives every game the same result
    import re

    text = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    assert "darc.bonus: every value tried gave every game the same result" in text


def test_a_setting_that_acts_is_not_called_idle(tmp_path):
    balance("sweep", "--game", "fief-combat", "--vary", "dice.dice_thresholds=[[1, 7, 13], [1, 5, 9]]",
            "--games", 500, "--out", tmp_path / "s")
    balance("report", tmp_path / "s", "--out", tmp_path / "r")
    page = (tmp_path / "r" / "report.html").read_text(encoding="utf-8")
    assert "gave every game the same result" not in page


def test_a_before_after_of_two_runs_the_attacker_always_wins_says_why_nothing_is_tested(tmp_path):
    common = ["--game", "fief-combat", "--attacker", 10, "--defender", 6, "--terrain", "castle",
              "--darc", "attacker", "--games", 2000, "-q"]
    balance("simulate", *common, "--out", tmp_path / "a")
    balance("simulate", *common, "--set", "darc.bonus=9", "--out", tmp_path / "b")
    done = balance("report", tmp_path / "a", tmp_path / "b", "--out", tmp_path / "r")
    assert "Did the side win rates move? Not tested" in done.stdout, done.stdout
    assert "no seat win shares" not in done.stdout
