"""Session 53: ``balance sweep`` and ``balance tune`` of a Fief combat take the matchup options
``simulate`` takes (review s52 Fief: they played only the default combat, so Jeanne d'Arc's bonus,
mercy or the Lords' order could not be swept or tuned where they act). Each variant is checked
against the combats ``simulate`` plays with the same options and settings (the game's own output,
not what the sweep turns it into)."""

from __future__ import annotations

import json
import re

import polars as pl

from in_process import balance
from undrawn_figures import figures_undrawn
import pytest

# the tests' CPU over docs/testing.md's budget (session 63): this module runs in make test-slow
# and CI, not in make test
pytestmark = pytest.mark.slow

MATCHUP = ["--darc", "attacker", "--attacker", 8, "--defender", 8, "--terrain", "castle"]


def _text(page: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", page).replace("&#x27;", "'").split())


def test_each_variant_plays_the_combat_simulate_plays_with_those_options(tmp_path):
    balance("sweep", "--game", "fief-combat", "--vary", "darc.bonus=[2,6]", "--games", 3000,
            "--seed", 4, *MATCHUP, "--out", tmp_path / "s", "-q")
    sweep = json.loads((tmp_path / "s" / "sweep.json").read_text(encoding="utf-8"))
    assert sweep["options"] == {"darc": "attacker", "attacker": 8, "defender": 8, "terrain": "castle"}
    shares = {}
    for bonus in (2, 6):
        balance("simulate", "--game", "fief-combat", "--set", f"darc.bonus={bonus}", "--games", 3000,
                "--seed", 4, *MATCHUP, "--out", tmp_path / f"sim{bonus}", "-q")
        want = pl.read_parquet(tmp_path / f"sim{bonus}" / "games.parquet")
        variant = next(v for v in sweep["variants"] if v["values"]["darc.bonus"] == bonus)
        got = pl.read_parquet(tmp_path / "s" / "variants" / variant["id"] / "games.parquet")
        assert got["winner"].to_list() == want["winner"].to_list()
        run = json.loads((tmp_path / "s" / "variants" / variant["id"] / "run.json").read_text("utf-8"))
        assert run["matchup"]["darc"] == "attacker" and run["matchup"]["terrain"] == "castle"
        shares[bonus] = (want["winner"] == 0).mean()
    # with Jeanne d'Arc beside the attacker her bonus acts (without her it changed no combat)
    assert shares[6] > shares[2] + 0.02
    # (figures 1x1 stand-ins: the page's words are read; a Fief sweep page is drawn by
    # test_s52_fief_review.py's test_a_setting_that_acts_is_not_called_idle)
    with figures_undrawn():
        balance("report", tmp_path / "s", "--out", tmp_path / "r")
    text = _text((tmp_path / "r" / "report.html").read_text(encoding="utf-8"))
    assert ("measured on 8 points with 1 Lord attacking 8 points with 1 Lord in castle terrain, "
            "Jeanne d'Arc with the attacker") in text
    assert "gave every game the same result" not in text


def test_a_sweep_resumed_with_another_combat_is_refused_and_bad_options_are_one_line(tmp_path):
    balance("sweep", "--game", "fief-combat", "--vary", "darc.bonus=[2,6]", "--games", 500,
            *MATCHUP, "--out", tmp_path / "s", "-q")
    before = sorted(p.name for p in (tmp_path / "s" / "variants").iterdir())
    again = balance("sweep", "--game", "fief-combat", "--vary", "darc.bonus=[2,6]", "--games", 500,
                    "--darc", "defender", "--attacker", 8, "--defender", 8, "--terrain", "castle",
                    "--out", tmp_path / "s", check=False)
    assert again.returncode == 2 and "another sweep" in again.stderr, again.stderr
    assert sorted(p.name for p in (tmp_path / "s" / "variants").iterdir()) == before
    bad = balance("sweep", "--game", "fief-combat", "--vary", "darc.bonus=1..2", "--darc", "nobody",
                  "--out", tmp_path / "b", check=False)
    assert bad.returncode == 2 and bad.stderr.strip().startswith("error: --darc 'nobody'"), bad.stderr
    assert "variant" not in bad.stderr and not (tmp_path / "b").exists()
    other = balance("sweep", "--game", "middle-ages", "--vary", "income.palais.base=1..2", "--darc",
                    "attacker", "--out", tmp_path / "m", check=False)
    assert other.returncode == 2 and "--darc attacker: middle-ages does not take this option" in other.stderr
    tune = balance("tune", "--game", "middle-ages", "--vary", "income.palais.base=1..2", "--target",
                   "seat-balance:2pp", "--mercy", "never", "--out", tmp_path / "t", check=False)
    assert tune.returncode == 2 and "--mercy never: middle-ages does not take this option" in tune.stderr


def test_a_tune_of_a_combat_plays_its_options_and_says_it_holds_for_that_combat(tmp_path):
    done = balance("tune", "--game", "fief-combat", "--vary", "darc.bonus=0..6", "--target",
                   "role=attacker:0.85", *MATCHUP, "--trials", 4, "--min-games", 1000, "--max-games",
                   2000, "--confirm-games", 4000, "--out", tmp_path / "t", "-q", check=False)
    assert done.returncode == 0, done.stderr
    tune = json.loads((tmp_path / "t" / "tune.json").read_text(encoding="utf-8"))
    assert tune["options"]["darc"] == "attacker"
    result = json.loads((tmp_path / "t" / "result.json").read_text(encoding="utf-8"))
    confirm = tmp_path / "t" / result["confirm"]["dir"]
    run = json.loads((confirm / "run.json").read_text(encoding="utf-8"))
    assert run["matchup"] == {**run["matchup"], "darc": "attacker", "attacker": 8, "defender": 8,
                              "terrain": "castle"}
    said = " ".join(done.stdout.split())
    combat = ("8 points with 1 Lord attacking 8 points with 1 Lord in castle terrain, Jeanne d'Arc "
              "with the attacker, mercy never")
    assert f"for {combat} (confirmed for this combat only)" in said, said
    assert "2p attacker + defender" not in said and "line-up and player count" not in said
    head = (tmp_path / "t" / "best_rules.toml").read_text(encoding="utf-8")
    assert f"for {combat} only" in head and "only this combat was played" in head
    balance("report", tmp_path / "t", "--out", tmp_path / "r")
    text = _text((tmp_path / "r" / "report.html").read_text(encoding="utf-8"))
    assert f"played with {combat}; only this combat was confirmed" in text
    assert "other line-ups and player counts" not in text


def test_a_mercy_run_says_how_many_wins_were_surrenders(tmp_path):
    # (review s52 Fief: the page never said; the count is the games' own by_mercy column)
    balance("simulate", "--game", "fief-combat", "--mercy", "defender:2", "--games", 4000, "--seed", 2,
            "--out", tmp_path / "m", "-q")
    games = pl.read_parquet(tmp_path / "m" / "games.parquet")
    gave_up = games.filter(pl.col("by_mercy") & (pl.col("winner") == 0)).height
    wins = games.filter(pl.col("winner") == 0).height
    assert 0 < gave_up < wins
    # (both reports' figures 1x1 stand-ins: the printout is read; a Fief run's figures are drawn by
    # test_s52_fief_review.py's before/after)
    with figures_undrawn():
        done = balance("report", tmp_path / "m", "--out", tmp_path / "r")
    said = " ".join(done.stdout.split())
    assert "mercy asked by the defender at 2 points or fewer and always granted" in said, said
    assert (f"The defender surrendered in {100 * gave_up / 4000:.1f}% (" in said
            and f"of combats: {100 * gave_up / wins:.1f}% of the attacker's wins were not fought to "
                "the end." in said), said
    assert "The attacker surrendered" not in said
    balance("simulate", "--game", "fief-combat", "--games", 500, "--out", tmp_path / "n", "-q")
    with figures_undrawn():
        plain = balance("report", tmp_path / "n", "--out", tmp_path / "rn").stdout
    assert "surrendered" not in plain and "mercy" not in plain.split("(The")[0]
