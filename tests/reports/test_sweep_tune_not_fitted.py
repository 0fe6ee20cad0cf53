"""The tune page says why "What each setting does to the target" has no fit (revB #11: a tune with 3
full-budget trials for 3 settings dropped the section without a word). A tune directory is written
by hand (tune.json and trials.csv of an unfinished tune, the numbers of revB's tu/sg): nothing is
played."""

from __future__ import annotations

import json
import re

import polars as pl

VARIES = [{"text": f"{n}={lo}..{hi}", "name": n, "kind": "int", "lo": lo, "hi": hi, "step": None,
           "values": list(range(lo, hi + 1))}
          for n, lo, hi in (("track.goal.4", 6, 14), ("improvements.forced_draws_before", 0, 3),
                            ("track.start_square", 0, 3))]
TUNE = {"format": 1, "kind": "tune", "game": "seigneurial", "players": 4, "seed": 11,
        "rules_name": "rules.toml", "rules_text": "", "settings": [], "varies": VARIES,
        "targets": [{"text": "role=seigneur:0.30:10", "kind": "role", "tol": 0.1, "role": "seigneur",
                     "aim": 0.3}],
        "games": {"min": 2000, "max": 8000, "eta": 2, "rungs": [2000, 4000, 8000]},
        "racing": "a candidate is dropped when shown worse"}
TRIALS = pl.DataFrame({
    "trial": [0, 1, 2, 3], "state": ["complete", "complete", "complete", "pruned"],
    "track.goal.4": [12, 13, 6, 9], "improvements.forced_draws_before": [0, 2, 1, 3],
    "track.start_square": [1, 2, 1, 0], "games": [8000, 8000, 8000, 2000],
    "objective": [3.0, 2.98, 0.24, 1.5], "met": [False, False, True, False], "note": ["", "", "", ""],
    "role_win_share_seigneur": [0.0, 0.0016, 0.324, 0.15], "game_length": [5.3, 6.9, 6.9, 6.1]})


def test_a_tune_with_too_few_full_budget_trials_says_why_it_has_no_fit(tmp_path):
    from reports.sweep import build_tune_report, why_not_fitted

    tune_dir = tmp_path / "tu"
    tune_dir.mkdir()
    (tune_dir / "tune.json").write_text(json.dumps(TUNE), encoding="utf-8")
    TRIALS.write_csv(tune_dir / "trials.csv")
    want = ("Not fitted: 3 trials played the full budget for 3 settings (a fit needs at least 7")
    assert why_not_fitted(TRIALS, TUNE, "role_win_share_seigneur").startswith(want)
    from undrawn_figures import figures_undrawn

    with figures_undrawn():      # the page's words (its figure is drawn in test_sweep_tune_pages.py)
        page = build_tune_report(tune_dir, tmp_path / "rep")
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page.read_text(encoding="utf-8")))
    assert "What each setting does to the target" in text
    assert want in text and "--trials" in text
