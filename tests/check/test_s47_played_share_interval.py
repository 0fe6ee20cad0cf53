"""A played check prints a bot's win-share interval as the games give it (review s47, CI gate).

A bot on several seats (fair-share on seats 2 and 4) or any share of a rotated run is, per unit, a
mean of shares, not a 0-or-1 outcome; the played check drew Wilson's interval over the units as if
it were one (24.5-26.5% where the games give 24.9-26.1%, 6x too wide per deal with rotated seats),
so its sentence read "cannot tell" where the same games judged as a RUN read "smaller than the 1 pp
that matters". The interval is recomputed here from the saved run's players.parquet (scipy's t)."""

from __future__ import annotations

import re

import numpy as np
import polars as pl
import pytest
from scipy import stats as st

from cli import _run

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

CASES = {
    "several seats": (["--game", "seigneurial", "--strategies", "greedy-lord,fair-share,objective,fair-share"],
                      "fair-share", 1),
    "rotated deals": (["--game", "medievallons", "--strategies", "collector,balanced,balanced,balanced",
                       "--rotate-seats"], "collector", 4),
}


def _printed_interval(text: str, bot: str) -> tuple[float, float]:
    line = next(x for x in text.splitlines() if x.strip().startswith(f"{bot} win share"))
    low, high = re.search(r"\((\d+\.\d+)–(\d+\.\d+)\)", line).groups()
    return float(low), float(high)


@pytest.mark.parametrize("case", list(CASES))
def test_the_played_interval_is_the_t_interval_of_the_units(tmp_path, capsys, case):
    args, bot, per_deal = CASES[case]
    base = tmp_path / "base"
    assert _run(["simulate", *args, "--games", "30000", "--seed", "11", "--out", str(base), "-q"]) == 0
    assert _run(["baseline", str(base), "--out", str(tmp_path / "b.toml")]) == 0
    capsys.readouterr()
    saved = tmp_path / "saved"
    _run(["check", "--baseline", str(tmp_path / "b.toml"), "--games", "4000", "--batch", "4000",
          "--save-run", str(saved)])
    played = _printed_interval(capsys.readouterr().out, bot)
    _run(["check", "--baseline", str(tmp_path / "b.toml"), str(saved)])
    as_run = _printed_interval(capsys.readouterr().out, bot)
    p = pl.read_parquet(saved / "players.parquet")
    w = p["win_share"].cast(pl.Float64).to_numpy().reshape(-1, 4)
    mine = p["strategy"].cast(pl.String).to_numpy().reshape(-1, 4) == bot
    per_game = (w * mine).sum(axis=1) / mine.sum(axis=1)
    units = per_game.reshape(-1, per_deal).mean(axis=1)
    lo, hi = st.t.interval(0.95, len(units) - 1, loc=units.mean(), scale=st.sem(units))
    assert played == pytest.approx((100 * lo, 100 * hi), abs=0.051), (played, lo, hi)
    assert played == as_run


def test_the_second_bots_mirror_share_is_not_tested_again_with_rotated_seats(tmp_path):
    """Two bots, seats rotated: every game's shares add up to 1, so balanced's share is
    (1 − collector's)/3 deal by deal (checked on the rows here) and the baseline keeps collector's
    only (it tested both: alpha split over one more metric for nothing)."""
    from analysis.check.baseline import load_baseline

    run = tmp_path / "run"
    assert _run(["simulate", "--game", "medievallons", "--strategies", "collector,balanced,balanced,balanced",
                 "--rotate-seats", "--games", "30000", "--seed", "3", "--out", str(run), "-q"]) == 0
    p = pl.read_parquet(run / "players.parquet")
    w = p["win_share"].cast(pl.Float64).to_numpy().reshape(-1, 4)
    mine = p["strategy"].cast(pl.String).to_numpy().reshape(-1, 4) == "collector"
    collector = (w * mine).sum(axis=1)
    balanced = (w * ~mine).sum(axis=1) / 3
    assert np.allclose(balanced, (1 - collector) / 3)
    assert _run(["baseline", str(run), "--out", str(tmp_path / "b.toml")]) == 0
    kept = {(m.metric, m.key) for m in load_baseline(tmp_path / "b.toml").metrics}
    assert ("strategy_win_share", "collector") in kept
    assert ("strategy_win_share", "balanced") not in kept
