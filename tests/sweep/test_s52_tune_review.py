"""Session 52 tune review: a listed --vary of numbers is fitted like a range and one of words is
never silently left out of the fit; intervals that print alike get decimals; --players beside
--vary players is refused; a tune of the player count alone names the count in its advice."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from reports.sweep import cell_target_table, setting_effects, why_not_fitted

RNG = np.random.default_rng(3)


def _trials(n: int, listed) -> tuple[pl.DataFrame, dict]:
    a = RNG.integers(0, 7, n)
    b = RNG.choice(listed, n)
    y = 0.2 + 0.01 * a + (0.02 * b if isinstance(listed[0], int) else 0.0) + RNG.normal(0, 0.001, n)
    trials = pl.DataFrame({"a": a, "b": b, "games": [2000] * n, "role_win_share_seigneur": y})
    tune = {"game": "seigneurial", "varies": [
        {"name": "a", "kind": "int", "values": list(range(7))},
        {"name": "b", "kind": "list", "values": list(listed)}]}
    return trials, tune


def test_a_listed_setting_of_numbers_is_fitted_with_its_own_slope():
    trials, tune = _trials(30, [3, 7, 11])
    fit = setting_effects(trials, tune, "role_win_share_seigneur")
    assert set(fit["parameter"]) == {"a", "b"}
    b = fit.filter(pl.col("parameter") == "b").row(0, named=True)
    assert (b["from"], b["to"]) == (3, 11) and abs(b["effect"] - 100 * 0.02 * 8) < 1.0
    a = fit.filter(pl.col("parameter") == "a").row(0, named=True)
    assert abs(a["effect"] - 100 * 0.01 * (a["to"] - a["from"])) < 1.0      # not b's effect folded in


def test_a_listed_setting_of_words_that_changes_stops_the_fit_and_is_named():
    trials, tune = _trials(30, ["last", "first"])
    assert setting_effects(trials, tune, "role_win_share_seigneur").height == 0
    why = why_not_fitted(trials, tune, "role_win_share_seigneur")
    assert why.startswith("Not fitted: b (a list of words or tables) changes among the trials")


def test_a_cells_interval_that_prints_alike_gets_decimals():
    cells = [{"label": "5p harsh-lord", "players": 5, "met": False, "outcome": "missed", "targets": [
        {"target": "role=seigneur", "metrics": [{"metric": "role_win_share_seigneur", "estimate": 0.0,
                                                 "low": 0.0, "high": 0.00038}]}]}]
    row = cell_target_table(cells, "seigneurial").row(0, named=True)
    assert "0.00% (0.00 to 0.04)" in row.values(), row


def test_band_words_show_decimals_where_the_interval_would_print_as_a_point():
    from analysis.tune.advice import _band_words

    said = _band_words({"estimate": 0.0, "low": 0.0, "high": 0.00038},
                       {"kind": "role", "aim": 0.3, "tol": 0.1}, 5)
    assert said.startswith("0.00% (0.00 to 0.04) against the band 20.0 to 40.0%"), said


def test_players_given_beside_a_players_vary_is_refused(tmp_path):
    from in_process import balance

    done = balance("tune", "-o", tmp_path / "t", "--vary", "players=2..5", "--players", 4,
                   "--target", "seat-balance", check=False)
    assert done.returncode == 2 and "--vary players=2..5 and --players: give one" in done.stderr
    assert not (tmp_path / "t").exists()


def test_the_advice_of_a_player_count_tune_names_the_count():
    from analysis.tune.advice import _players_found

    assert _players_found({"values": {"players": 2}, "settings": []}) == "players=2"
    assert _players_found({"values": {"setup.start_coins": 3}}) == ""


def test_a_mean_over_cells_under_1_beside_not_met_says_what_the_mean_is():
    from analysis.tune.advice import search_path

    result = {"best_trial": 6, "confirm": {"games": 10_000},
              "search": {"objective": 0.82, "low": 0.75, "high": 0.89, "met": False, "outcome": "missed",
                         "games": 4000}}
    said = search_path(result, aggregate="mean")
    assert "1 at its edge; with --aggregate mean that is the cells' weighted mean, and the target is met " \
           "only when every cell is within its tolerance)" in said
    assert "weighted mean" not in search_path(result)


@pytest.mark.slow       # four small tunes, ~15 s
def test_a_tune_resumed_with_more_trials_records_it_and_goes_on_with_the_search_it_began(tmp_path):
    import json

    from in_process import balance

    args = ["--vary", "setup.start_coins[0]=0..6", "--vary", "setup.start_coins[2]=0..6", "--target",
            "seat-balance:5", "--min-games", 500, "--max-games", 1000, "--eta", 2, "--confirm-games",
            2000, "--seed", 5, "-q"]
    for d in ("a", "b"):
        balance("tune", "-o", tmp_path / d, "--trials", 8, *args)
        balance("tune", "-o", tmp_path / d, "--trials", 12, *args)
    t = json.loads((tmp_path / "a" / "tune.json").read_text())
    assert (t["trials"], t["trials_before"], t["startup_trials"]) == (12, [8], 2)
    # the record replays: the same runs in the same order give the same trials
    rows = [pl.read_csv(tmp_path / d / "trials.csv").drop("seconds") for d in ("a", "b")]
    assert rows[0].equals(rows[1]) and rows[0].height >= 12


def test_the_start_rules_row_of_settings_as_good_as_the_best_is_marked():
    from pathlib import Path

    from reports.sweep import as_good_section

    root = Path(__file__).resolve().parents[2]
    tune = {"varies": [{"name": "income.palais.base", "kind": "int", "lo": 2, "hi": 6}], "settings": [],
            "rules_text": (root / "configs" / "middle_ages" / "rules.toml").read_text(encoding="utf-8"),
            "targets": ["seat-balance:1.5"], "players": 4}
    trials = pl.DataFrame({"trial": [0, 1, 2], "state": ["complete"] * 3, "games": [8000] * 3,
                           "income.palais.base": [5, 3, 2], "objective": [0.5, 0.6, 3.0],
                           "low": [0.2, 0.3, 2.5], "high": [0.8, 0.9, 3.5], "met": [True, True, False],
                           "outcome": ["met", "met", "missed"]})
    secs = as_good_section(tune, {"best_trial": 0}, trials, "middle-ages")
    table = dict(secs[0].tables)["Trials as good as the best"] if secs[0].tables else None
    rows = {int(r["Trial"]): r["Difference"] for r in table.iter_rows(named=True)}
    assert rows[1].endswith("(the start rules)") and not rows[0].endswith("(the start rules)")


@pytest.mark.slow       # three small tunes, ~12 s
def test_a_tune_resumed_with_more_trials_keeps_the_earlier_confirmation_listed(tmp_path):
    import json

    from in_process import balance

    args = ["--vary", "setup.start_coins[0]=0..6", "--vary", "setup.start_coins[2]=0..6", "--target",
            "seat-balance:2", "--min-games", 1000, "--max-games", 2000, "--eta", 2, "--confirm-games",
            4000, "--seed", 5, "-q"]
    firsts = []
    for n in (8, 12, 20):
        balance("tune", "-o", tmp_path / "t", "--trials", n, *args)
        r = json.loads((tmp_path / "t" / "result.json").read_text())
        firsts.append(r["best_trial"])
        listed = [c["trial"] for c in r["confirmations"]]
        assert all(b in listed for b in firsts), (firsts, listed)


@pytest.mark.slow       # four small tunes, ~15 s
def test_a_study_continued_into_another_out_goes_on_with_its_start_up(tmp_path):
    import json

    from in_process import balance

    args = ["--vary", "income.palais.base=0..40", "--vary", "income.champs.base=0..10", "--target",
            "seat-balance:5", "--keep-going", "--min-games", 1000, "--max-games", 2000,
            "--confirm-games", 2000, "-q"]
    balance("tune", "--trials", 4, "--storage", tmp_path / "f.db", "-o", tmp_path / "f1", *args)
    balance("tune", "--trials", 12, "--storage", tmp_path / "f.db", "-o", tmp_path / "f2", *args)
    balance("tune", "--trials", 4, "--storage", tmp_path / "g.db", "-o", tmp_path / "g", *args)
    balance("tune", "--trials", 12, "--storage", tmp_path / "g.db", "-o", tmp_path / "g", *args)
    assert json.loads((tmp_path / "f2" / "tune.json").read_text())["startup_trials"] == 2
    cols = ["trial", "state", "income.palais.base", "income.champs.base"]
    a, b = (pl.read_csv(tmp_path / d / "trials.csv").select(cols) for d in ("f2", "g"))
    assert a.equals(b)
