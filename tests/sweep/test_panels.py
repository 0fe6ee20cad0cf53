"""Panels: the shipped panels load and say what they cover; a bad panel is one line and exit 2
before any game; a panel tune judges every cell (its confirmation figures equal games played
here on the same seed), says in how many cells the target is met, and a panel tune killed
mid-search and resumed gives the same answer as one never interrupted."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from simcore import runner
from simcore.errors import UsageError
from strategies import panels
from strategies.seigneurial import presets as sg_presets

from in_process import balance

CLI = [sys.executable, "-c", "import cli; cli.main()"]
ENV = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}


def test_seigneurial_wide_panel_is_every_seigneur_preset_against_every_uniform_censitaire_lineup():
    wide = panels.lookup("seigneurial", "wide")
    presets = sg_presets()
    lords = {n for n, s in presets.items() if s.roles == ("seigneur",)}
    tenants = {n for n, s in presets.items() if s.roles == ("censitaire",)}
    assert wide.player_counts == (3, 4, 5)
    at4 = wide.only_players([4])
    assert len(at4) == len(lords) * len(tenants) == 12
    seen = set()
    for c in at4.cells:
        assert c.players == 4 and len(c.lineup) == 4
        assert len(set(c.lineup[1:])) == 1                       # a uniform Censitaire line-up
        seen.add((c.lineup[0], c.lineup[1]))
    assert seen == {(a, b) for a in lords for b in tenants}


def test_players_naming_a_count_the_panel_lacks_is_refused_not_dropped():
    """--players 3,4 on a panel of 4-player cells played the 4-player cells alone, named
    "default@3,4p" (designer review 44 #3): a count with no cell is one line naming it."""
    from simcore.errors import UsageError
    wide = panels.lookup("seigneurial", "wide")
    assert wide.only_players([3, 5]).player_counts == (3, 5)
    at4 = wide.only_players([4])
    with pytest.raises(UsageError) as e:
        at4.only_players([3, 4])
    assert str(e.value) == ("--players 3,4: panel wide@4p has no cell at that player count (3; it has 4)")
    with pytest.raises(UsageError, match=r"at those player counts \(2,6; it has 3, 4, 5\)"):
        wide.only_players([2, 4, 6])


@pytest.mark.parametrize("game", ["seigneurial", "middle-ages", "medievallons"])
def test_every_game_with_bots_ships_a_default_and_a_wide_panel_covering_every_player_count(game):
    from simcore import games as registry

    found = panels.shipped(game)
    assert {"default", "wide"} <= set(found)
    lo, hi = registry.get(game).players
    assert found["wide"].player_counts == tuple(range(lo, hi + 1))


def test_command_line_panel_crosses_player_counts_and_lineups_by_seat_or_role():
    p = panels.from_options("seigneurial", players="3,5",
                            lineups=["seigneur=harsh-lord,censitaire=objective", "greedy-lord,hoarder"])
    assert [c.label for c in p.cells] == ["3p harsh-lord + 2×objective", "3p greedy-lord + 2×hoarder",
                                          "5p harsh-lord + 4×objective", "5p greedy-lord + 4×hoarder"]
    assert p.cells[2].lineup == ("harsh-lord",) + ("objective",) * 4
    one = panels.from_options("seigneurial", players="3", lineups=["even-lord,fair-share,dutiful"])
    assert one.cells[0].lineup == ("even-lord", "fair-share", "dutiful")
    with pytest.raises(UsageError, match="3 bots for 5 players"):
        panels.from_options("seigneurial", players="3,5", lineups=["even-lord,fair-share,dutiful"])


BAD_FILES = {
    "unknown bot": ('[p]\nplayers = [4]\nlineups = ["balancd"]\n', "did you mean balanced"),
    "player count": ('[p]\nplayers = [4, 9]\nlineups = ["balanced"]\n', "played by 2 to 5"),
    "unknown key": ('[p]\nplayers = [4]\nlinups = ["balanced"]\n', "unknown key"),
    "duplicate": ('[p]\nplayers = [4]\nlineups = ["balanced", "balanced,balanced,balanced,balanced"]\n',
                  "given twice"),
}


@pytest.mark.parametrize("case", list(BAD_FILES))
def test_bad_panel_file_is_one_line_naming_file_and_key(case, tmp_path):
    text, words = BAD_FILES[case]
    f = tmp_path / "mine.toml"
    f.write_text(text)
    with pytest.raises(UsageError, match=words) as e:
        panels.lookup("middle-ages", str(f))
    assert str(f) in str(e.value) and "\n" not in str(e.value)


def test_a_panel_named_in_a_file_is_read_alone_and_its_own_errors_named(tmp_path):
    """--panel FILE:NAME reads panel NAME: another panel of the file, broken or of another game's
    bots, is not what was asked for (the error used to name that other panel's key)."""
    f = tmp_path / "mine.toml"
    f.write_text('[good]\nplayers = [4]\nlineups = ["greedy"]\n[broken]\nplayers = [4]\nlineups = ["nobot"]\n')
    assert [c.label for c in panels.lookup("middle-ages", f"{f}:good").cells] == ["4p 4×greedy"]
    with pytest.raises(UsageError, match=r"broken\.lineups\[0\].*nobot"):
        panels.lookup("middle-ages", f"{f}:broken")
    with pytest.raises(UsageError, match="no panel 'nope'.*it has: good, broken"):
        panels.lookup("middle-ages", f"{f}:nope")


def test_bad_panels_on_the_command_line_exit_2_with_one_line_before_any_game(tmp_path):
    cases = [
        (["--game", "seigneurial", "--lineup", "fair-share"], "seat 1 is a Seigneur"),
        (["--game", "seigneurial", "--players", "3,6", "--lineup", "standard"], "3 to 5 players"),
        (["--game", "seigneurial", "--panel", "wid"], "did you mean wide"),
        (["--game", "seigneurial", "--panel", "wide", "--players", "2"], "no cell at that player count"),
        (["--game", "middle-ages", "--lineup", "nobot"], "unknown strategy 'nobot'"),
    ]
    for args, words in cases:
        r = balance("tune", "-o", tmp_path / "t", "--vary", "setup.start_coins[0]=0..4",
                    "--target", "seat-balance" if "middle-ages" in args else "role=seigneur:0.45:10",
                    *args, check=False)
        assert r.returncode == 2, (args, r.stderr)
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and words in lines[0], (args, r.stderr)
        assert not (tmp_path / "t").exists()


PANEL_TUNE = ["--game", "middle-ages", "--players", "2", "--lineup", "random", "--lineup", "balanced",
              "--vary", "setup.start_coins[0]=0..80:20", "--set", "setup.start_coins[1]=40",
              "--target", "seat-balance:5",
              "--trials", "6", "--min-games", "1000", "--max-games", "4000", "--eta", "2",
              "--confirm-games", "6000", "--seed", "5", "--keep-going", "-q"]


@pytest.mark.slow
def test_panel_tune_confirms_every_cell_and_says_in_how_many_the_target_is_met(tmp_path):
    out = tmp_path / "tune"
    balance("tune", "-o", out, *PANEL_TUNE)
    result = json.loads((out / "result.json").read_text())
    cells = result["confirm"]["cells"]
    assert [c["lineup"] for c in cells] == [["random", "random"], ["balanced", "balanced"]]
    seed = result["confirm"]["seed"]
    assert seed != json.loads((out / "tune.json").read_text())["seed"]
    for c in cells:
        # the cell's confirmation figures = the same games played here (the best rules, its line-up)
        prep = runner.prepare("middle-ages", players=2, strategies=",".join(c["lineup"]),
                              rules=out / "best_rules.toml")
        w = runner.collect(prep, games=6000, seed=seed).win_shares(2)
        share = c["targets"][0]["metrics"][0]
        assert share["metric"] == "seat_win_share_1"
        assert share["estimate"] == pytest.approx(w[:, 0].mean(), abs=1e-12)
        half = 0.05
        inside = all(0.5 - half <= m["low"] and m["high"] <= 0.5 + half
                     for m in c["targets"][0]["metrics"])
        assert c["met"] == inside
    n_met = sum(c["met"] for c in cells)
    assert result["met"] == (n_met == 2)
    if n_met == 2:
        assert result["sentence"].startswith("Target met in every cell")
    else:
        assert f"met in {n_met} of 2 cells" in result["sentence"]
        # the cells not met or unclear are named, with their figures, after the counts
        rest = result["sentence"].split("fresh games per cell", 1)[1]
        for c in cells:
            assert (c["label"] in rest) == (not c["met"])
    # the search page shows the cell × target table
    balance("report", out, "--out", tmp_path / "page")
    page = (tmp_path / "page" / "report.html").read_text()
    assert "Every cell of the panel" in page and "2p 2×balanced" in page


@pytest.mark.slow
def test_panel_tune_killed_mid_search_and_resumed_gives_the_same_answer(tmp_path):
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    balance("tune", "-o", whole, *PANEL_TUNE)
    p = subprocess.Popen([*CLI, "tune", "-o", str(cut), *PANEL_TUNE], env=ENV,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 300
    while time.time() < deadline:            # kill it once two trials are logged
        f = cut / "trials.csv"
        if f.is_file() and len(f.read_text().splitlines()) >= 3:
            break
        time.sleep(0.05)
    p.send_signal(signal.SIGKILL)
    p.wait()
    assert not (cut / "result.json").exists()
    balance("tune", "-o", cut, *PANEL_TUNE)
    a = json.loads((whole / "result.json").read_text())
    b = json.loads((cut / "result.json").read_text())
    assert b["values"] == a["values"] and b["sentence"] == a["sentence"]
    assert [c["targets"] for c in b["confirm"]["cells"]] == [c["targets"] for c in a["confirm"]["cells"]]
    assert np.isclose(b["search"]["objective"], a["search"]["objective"])

    # the same candidates, in the same order, with the same figures (the cut trial aside)
    def tried(d):
        rows = [r.split(",") for r in (d / "trials.csv").read_text().splitlines()[1:]]
        return [(r[2], r[3], r[4], r[5]) for r in rows if r[1] in ("complete", "pruned")]

    assert tried(cut) == tried(whole)


def test_ladder_plays_the_rules_it_is_given_with_set_or_rules(tmp_path):
    from analysis.ladder import duel

    sets = ["setup.start_coins[0]=40"]
    f = tmp_path / "rules.toml"
    f.write_text(runner.rules_source("middle-ages", None, sets, seats=2).text)
    plain = duel("greedy", "random", 400, players=2, seed=3)
    by_set = duel("greedy", "random", 400, players=2, seed=3, settings=sets)
    by_file = duel("greedy", "random", 400, players=2, seed=3, rules=f)
    assert by_set == by_file
    assert by_set.win_share != plain.win_share


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_panel_baseline_and_check_decide_every_cell_with_alpha_split_over_the_cells(tmp_path):
    from analysis.check.baseline import load_baseline
    from analysis.check.panel import check_panel, record_panel_baseline

    panel = panels.from_options("middle-ages", players="2", lineups=["random", "greedy"])
    out = record_panel_baseline(panel, tmp_path / "base", games=6000, seed=1, check_games=6000,
                                tolerance={"seat_win_share": 5.0, "strategy_win_share": 5.0,
                                           "seat_mean_score": 20.0})
    assert sorted(p.name for p in out.glob("cell-*.toml")) == ["cell-0.toml", "cell-1.toml"]
    assert load_baseline(out / "cell-1.toml").strategies == ["greedy", "greedy"]
    moved = check_panel(out, settings=["setup.start_coins[0]=60"])
    assert moved.exit_code == 1 and moved.alpha_cell == pytest.approx(moved.alpha / 2)
    assert all(r.alpha == pytest.approx(moved.alpha / 2) for r in moved.results)
    same = check_panel(out)
    assert same.exit_code in (0, 3)


def _effects(rows, smallest: float = 0.01):
    import polars as pl

    from analysis import stats

    return pl.DataFrame([{"parameter": "track.goal.4", "from": "8", "to": "12", "metric": "role_win_share_seigneur",
                          "label": "the seigneurs' win share", "unit": "pp", "share": True,
                          "cell_label": f"cell {k}", "delta": d, "low": lo, "high": hi,
                          "smallest": smallest, "verdict": stats.practical(d, lo, hi, smallest)}
                         for k, (d, lo, hi) in enumerate(rows)])


def test_panel_sweep_sentence_says_every_cell_only_when_every_interval_is_on_one_side():
    from analysis.sweep.panel_effects import agreement, sentences

    every = _effects([(-0.02, -0.03, -0.01), (-0.19, -0.21, -0.17), (-0.05, -0.06, -0.04)])
    s = sentences(every, 3)[0]
    assert "lowers the seigneurs' win share in every cell (3 of 3)" in s and "2.0 to 19.0 pp" in s
    mixed = _effects([(-0.02, -0.03, -0.01), (0.01, -0.001, 0.02), (0.0, 0.0, 0.0)])
    a = agreement(mixed, 3).row(0, named=True)
    assert (a["down"], a["up"], a["unchanged"], a["unclear"], a["same_way_everywhere"]) == (1, 0, 1, 1, "no")
    assert "not move the seigneurs' win share the same way" in sentences(mixed, 3)[0]


def test_panel_sweep_sentence_words_the_cells_effects_by_the_smallest_difference():
    from analysis.sweep.panel_effects import sentences

    rows = [(-0.02, -0.03, -0.01), (-0.19, -0.21, -0.17), (-0.05, -0.06, -0.04)]
    assert ("clear and large enough to matter (at least 1 pp) in 3 of 3 cells"
            in sentences(_effects(rows), 3)[0])
    # at 3 pp, −2 pp (−3 to −1): its interval's far end is at 3 pp, so it may matter (it was "clear
    # but small" when the estimate alone decided)
    assert ("clear and large enough to matter (at least 3 pp) in 2, clear, may matter (these games cannot "
            "tell whether it reaches 3 pp) in 1 of 3 cells"
            in sentences(_effects(rows, 0.03), 3)[0])
    assert ("clear and large enough to matter (at least 3 pp) in 2, clear but small in 1 of 3 cells"
            in sentences(_effects([(-0.02, -0.025, -0.015)] + rows[1:], 0.03), 3)[0])


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_check_panel_decides_the_named_cells_of_a_panel_baseline_recorded_with_set(tmp_path, capsys,
                                                                                  monkeypatch):
    """balance baseline --panel takes --set (each cell's complete rules kept beside its baseline);
    balance check --baseline DIR --panel FILE checks those cells of it, alpha split over the cells
    checked; a cell the baseline did not record is one line, exit 2, before any game."""
    from cli import _run

    monkeypatch.chdir(tmp_path)

    def cli(*args):
        capsys.readouterr()
        code = _run([str(a) for a in args])
        out = capsys.readouterr()
        return code, out.out, out.err

    code, _, err = cli("baseline", "--game", "middle-ages", "--players", "2", "--lineup", "random",
                       "--lineup", "greedy", "--games", "6000", "--seed", "1", "--check-games", "6000",
                       "--tolerance", "5", "--score-tolerance", "20", "--set", "setup.start_coins[1]=30",
                       "--out", "base")
    assert code == 0, err
    assert "start_coins = [0, 30]" in (tmp_path / "base" / "cell-1.rules.toml").read_text()
    assert 'rules = "cell-1.rules.toml"' in (tmp_path / "base" / "cell-1.toml").read_text()
    (tmp_path / "greedy.toml").write_text('[only]\nplayers = [2]\nlineups = ["greedy"]\n')
    code, out, err = cli("check", "--baseline", "base", "--panel", "greedy.toml")
    assert code in (0, 3), err
    assert "2p 2×greedy" in out and "2×random" not in out and "1 cell (" in out
    assert "at most 0.05 (0.05 per cell)" in out            # one cell: alpha is not split
    # the recorded rules are played: seat 2's 30 coins taken away is a regression in both cells
    code, out, err = cli("check", "--baseline", "base", "--set", "setup.start_coins[1]=0")
    assert code == 1 and "(0.025 per cell)" in out, out + err
    code, _, err = cli("check", "--baseline", "base", "--players", "2", "--lineup", "balanced")
    assert code == 2 and "cell 2p 2×balanced is not recorded in the baseline base" in err, err
    # named by the options the designer typed, with a command that records it (s42 review A #9)
    assert "--panel command-line" not in err and "error: --players/--lineup: cell" in err, err
    assert ("record a baseline of it with balance baseline --game middle-ages --players 2 "
            "--lineup balanced,balanced --out DIR") in err, err
    code, _, err = cli("check", "--baseline", "base", "--players", "3")
    assert code == 2 and "no cell at that player count" in err, err


def test_ladder_ranks_the_bots_of_a_panels_lineups_at_each_of_its_player_counts(tmp_path, capsys,
                                                                                monkeypatch):
    import polars as pl

    from cli import _run

    monkeypatch.chdir(tmp_path)
    (tmp_path / "p.toml").write_text('[two]\ncells = [{ players = 2, lineup = "greedy,random" },\n'
                                     '  { players = 3, lineup = "balanced,greedy,balanced" }]\n')
    code = _run(["ladder", "--game", "middle-ages", "--panel", "p.toml", "--games", "60",
                 "--set", "setup.extra_coin_tokens=6", "--out", "l.csv"])
    assert code == 0, capsys.readouterr().err
    t = pl.read_csv(tmp_path / "l.csv")
    got = {(r["players"], r["bot"], r["opponent"]) for r in t.iter_rows(named=True)}
    assert got == {(2, "greedy", "random"), (2, "random", "greedy"), (3, "balanced", "greedy"),
                   (3, "greedy", "balanced")}
    # the matrix says the rules it was played under, printed and in the table (a ladder under a
    # --set was indistinguishable from one under the shipped rules)
    shipped = str(Path(__file__).resolve().parents[2] / "configs/middle_ages/rules.toml")
    assert set(t["settings"]) == {"setup.extra_coin_tokens=6"} and set(t["rules"]) == {shipped}
    printed = capsys.readouterr().out
    assert "setup.extra_coin_tokens=6" in " ".join(printed.split())
    code = _run(["ladder", "--game", "middle-ages", "--lineup", "greedy", "--players", "2", "--games", "60"])
    assert code == 2 and "line-ups hold one bot (greedy)" in capsys.readouterr().err
    code = _run(["ladder", "--game", "middle-ages", "--lineup", "greedy,random", "--bots", "random,greedy"])
    assert code == 2 and "not both" in capsys.readouterr().err


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_panel_baselines_cells_plan_their_most_games_at_the_alpha_the_panel_check_gives_them(tmp_path):
    """Review AB #3: each cell file recorded alpha 0.05 and planned its most games (and the advice
    "record a baseline of at least N games") for it, while the panel check runs each cell at
    0.05 / cells: the cells ended undecided more often than planned. Each cell's most games is now
    plan_games' at alpha / cells; the file still records the family's alpha."""
    from analysis.check.baseline import load_baseline
    from analysis.check.decision import plan_games
    from analysis.check.panel import record_panel_baseline

    panel = panels.from_options("middle-ages", players="2", lineups=["random", "greedy", "balanced"])
    tol = {"seat_win_share": 5.0, "strategy_win_share": 5.0, "seat_mean_score": 20.0}
    out = record_panel_baseline(panel, tmp_path / "base", games=4000, seed=1, tolerance=tol)
    named = [(f"cell-{k}.toml", load_baseline(out / f"cell-{k}.toml")) for k in range(3)]
    for _, b in named:
        assert b.alpha == pytest.approx(0.05)
        split = plan_games(b.metrics, b.tolerances(), 0.05 / 3, b.beta, game=b.game).max_games
        alone = plan_games(b.metrics, b.tolerances(), 0.05, b.beta, game=b.game).max_games
        assert b.max_games() == split and split > alone
