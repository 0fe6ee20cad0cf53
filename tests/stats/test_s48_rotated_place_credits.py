"""A rotated-seat run's Balance and AdvantageP1 intervals read its deals (review s48 MA #2: they
read each deal as one game, a bound twice as wide as the deals give, "possibly perfectly balanced
(1.000)" beside seats the page called clear). Checked against an independent per-deal computation
from the rows (scipy's t), and the statistics against the rows."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from scipy import stats as sps

from analysis import open_runs
from analysis.seats import ludii_credit, seat_tests
from simcore import runner

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


@pytest.fixture(scope="module")
def rotated(tmp_path_factory):
    return runner.simulate("middle-ages", games=4000, seed=8, quiet=True, players=4, raw=True,
                           strategies="eventwise,balanced,greedy,random", rotate_seats=True,
                           out=tmp_path_factory.mktemp("rot") / "run")


def test_advantage_p1_is_a_t_interval_over_the_deals(rotated):
    p = pl.read_parquet(rotated / "players.parquet").sort("game", "seat")
    credit = ludii_credit(p["rank"].to_numpy().reshape(-1, 4))
    deal = p["deal"].to_numpy().reshape(-1, 4)[:, 0]
    D = len(np.unique(deal))
    per_deal = np.array([credit[deal == d, 0].mean() for d in np.unique(deal)])
    half = sps.t.ppf(0.975, D - 1) * per_deal.std(ddof=1) / np.sqrt(D)
    for source in ("stats", "rows"):
        t = seat_tests(open_runs([rotated], source=source)).row(0, named=True)
        assert t["advantage_p1"] == pytest.approx(credit[:, 0].mean(), abs=1e-12)
        assert t["advantage_p1_low"] == pytest.approx(per_deal.mean() - half, abs=1e-9)
        assert t["advantage_p1_high"] == pytest.approx(per_deal.mean() + half, abs=1e-9)


def test_balance_reads_the_deals_and_both_sources_agree(rotated):
    a = seat_tests(open_runs([rotated], source="stats")).row(0, named=True)
    b = seat_tests(open_runs([rotated], source="rows")).row(0, named=True)
    for k in ("balance", "balance_low", "balance_high"):
        assert a[k] == pytest.approx(b[k], rel=1e-9, abs=1e-12)
    # narrower than the bound that read each deal of 4 games as one game (twice the games' width)
    p = pl.read_parquet(rotated / "players.parquet").sort("game", "seat")
    credit = ludii_credit(p["rank"].to_numpy().reshape(-1, 4))
    game_half = 1.96 * credit.std(axis=0, ddof=1).max() / np.sqrt(len(credit))
    assert a["balance_high"] - a["balance_low"] < 4 * 2 * game_half * 1.2
    assert a["balance_low"] <= a["balance"] <= a["balance_high"]


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_advantage_p1_over_deals_covers_95_percent(tmp_path):
    """A real rotated run of 60,000 games (15,000 deals) cut into 150 runs of 100 deals: the
    per-deal t interval (what seat_tests gives, checked above) holds the whole run's AdvantageP1 in
    95% of them (± 5.3 pp: three binomial sds of 150, plus the truth's own error, ~2% of a width)."""
    run = runner.simulate("middle-ages", games=60_000, seed=3, quiet=True, players=4, raw=True,
                          strategies="eventwise,balanced,greedy,random", rotate_seats=True,
                          out=tmp_path / "run")
    p = pl.read_parquet(run / "players.parquet").sort("game", "seat")
    credit = ludii_credit(p["rank"].to_numpy().reshape(-1, 4))[:, 0].reshape(-1, 4).mean(axis=1)
    truth = credit.mean()
    parts = credit.reshape(150, 100)
    half = sps.t.ppf(0.975, 99) * parts.std(axis=1, ddof=1) / 10
    cover = np.mean(np.abs(parts.mean(axis=1) - truth) <= half)
    assert abs(cover - 0.95) < 0.053, cover
