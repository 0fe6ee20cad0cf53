"""``balance ladder --out ladder.csv`` writes the family-adjusted interval each ▲ / ▼ reads
(``adjusted_low``, ``adjusted_high``): a call "above" always has adjusted_low above fair_share,
"below" adjusted_high below it, and no call has the fair share inside. The bounds are recomputed
here from the CSV's own figures, independently of the toolkit's statistics: Bonferroni over
``calls_adjusted_over`` matchups, Student t critical value from scipy, the interval Wilson's
(statsmodels) at the deals' effective number of games m(1 − m)/se² (Brown, Cai & DasGupta's exact
Poisson end from scipy's gamma law where three effective wins or fewer, at the same tail); for a shared role's cells
(Seigneurial Censitaire) the share ± scipy's t half-width of the paired difference, whose standard
error is (win_share − fair_share)/margin_in_se (where both shares hold 10 games' worth of wins and of
losses; the other cells, Newcombe's interval: tests/analysis/test_ladder_bound_edges.py); for the
Seigneur's cells, statsmodels' Wilson interval over the games at 1 − 0.05/m, m its cells."""

from __future__ import annotations

import math

import polars as pl
import pytest
from scipy.stats import gamma, norm
from scipy.stats import t as student
from statsmodels.stats.proportion import proportion_confint

from in_process import balance


@pytest.fixture(scope="module")
def ladders(tmp_path_factory):
    d = tmp_path_factory.mktemp("ladder")
    alike, roles = d / "alike.csv", d / "roles.csv"
    balance("ladder", "--bots", "random,greedy,balanced", "--games", "400", "--out", alike)
    balance("ladder", "--game", "seigneurial", "--bots", "even-lord,fair-share,dutiful",
            "--games", "300", "--out", roles)
    return pl.read_csv(alike), pl.read_csv(roles)


def _wilson_at_t(m, se, deals, k):
    """Bonferroni over k: the two-sided 1 − 0.05/k interval, Wilson's at n_eff with t(deals − 1)."""
    q = 0.05 / k / 2
    t = student.ppf(1 - q, deals - 1)
    n = m * (1 - m) / se ** 2
    x = m * n
    tail = norm.sf(t)                    # the normal tail whose critical value is that t
    lo, hi = proportion_confint(x, n, alpha=2 * tail, method="wilson")
    ends = 2 if n <= 50 else 3
    if 0 < x < ends + 0.5:               # Brown, Cai & DasGupta: the exact Poisson lower end
        lo = gamma.ppf(tail, x) / n
    if 0 < n - x < ends + 0.5:
        hi = 1 - gamma.ppf(tail, n - x) / n
    return lo, hi


def _check_calls(rows):
    for r in rows:
        lo, hi, fair = r["adjusted_low"], r["adjusted_high"], r["fair_share"]
        assert lo is not None and hi is not None and lo <= r["win_share"] <= hi, r
        want = "above" if lo > fair else "below" if hi < fair else ""
        assert (r["call"] or "") == want, r


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_ladder_csv_carries_the_adjusted_interval_behind_each_call(ladders):
    t, _ = ladders
    assert t.columns.index("adjusted_low") + 1 == t.columns.index("adjusted_high")
    k = t.height
    assert k == 6 and (t["calls_adjusted_over"] == k).all()
    for r in t.iter_rows(named=True):
        lo, hi = _wilson_at_t(r["win_share"], r["std_error"], r["games"] // r["players"], k)
        assert r["adjusted_low"] == pytest.approx(lo, rel=1e-6, abs=1e-9), r
        assert r["adjusted_high"] == pytest.approx(hi, rel=1e-6, abs=1e-9), r
        # wider than the cell's own 95% interval: adjusted over the 6 matchups
        assert r["adjusted_low"] < r["ci_low"] and r["adjusted_high"] > r["ci_high"], r
    _check_calls(t.iter_rows(named=True))
    calls = set(t["call"].fill_null(""))
    assert {"above", "below"} <= calls         # both kinds of call occur in this ladder


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_shared_roles_csv_carries_its_paired_adjusted_interval(ladders):
    _, t = ladders
    cens = t.filter(pl.col("role") == "censitaire")
    k = cens.height
    assert k == 2 and (cens["calls_adjusted_over"] == k).all()
    for r in cens.iter_rows(named=True):
        deals = r["games"] // (r["players"] - 1)          # the row bot at every Censitaire seat
        assert all(min(p, 1 - p) * r["games"] >= 10 for p in (r["win_share"], r["fair_share"])), r
        diff_se = (r["win_share"] - r["fair_share"]) / r["margin_in_se"]
        half = student.ppf(1 - 0.05 / k / 2, deals - 1) * diff_se
        assert r["adjusted_low"] == pytest.approx(r["win_share"] - half, rel=1e-6), r
        assert r["adjusted_high"] == pytest.approx(r["win_share"] + half, rel=1e-6), r
    _check_calls(cens.iter_rows(named=True))
    assert set(cens["call"].fill_null("")) == {"above", "below"}
    # the Seigneur's cells have no fair share to call against (no call), but carry the bounds its
    # sentence reads: Wilson over the games, Bonferroni over its 2 cells (no random bot here)
    lead = t.filter(pl.col("role") == "seigneur")
    assert lead.height == 2 and lead["call"].is_null().all() and (lead["calls_adjusted_over"] == 2).all()
    for r in lead.iter_rows(named=True):
        x, n = r["win_share"] * r["games"], r["games"]
        lo, hi = proportion_confint(x, n, alpha=0.05 / 2, method="wilson")
        if 0 < x <= 3:                   # Brown, Cai & DasGupta: the exact Poisson lower end
            lo = gamma.ppf(0.05 / 2 / 2, x) / n
        if 0 < n - x <= 3:
            hi = 1 - gamma.ppf(0.05 / 2 / 2, n - x) / n
        assert r["adjusted_low"] == pytest.approx(lo, rel=1e-6, abs=1e-9), r
        assert r["adjusted_high"] == pytest.approx(hi, rel=1e-6, abs=1e-9), r
    assert not any(math.isnan(v) for v in cens["adjusted_low"])


def test_force_replaces_a_ladder_csv_written_before_the_adjusted_bounds(ladders, tmp_path):
    """A ladder.csv of the earlier layout (no adjusted_low/adjusted_high) is the same table:
    ``--force`` replaces it; a CSV of other columns is still refused (a guard: the old code wrote
    that layout, so this holds there too)."""
    old = tmp_path / "old.csv"
    ladders[0].drop("adjusted_low", "adjusted_high").write_csv(old)
    balance("ladder", "--bots", "random,greedy", "--games", "40", "--out", old, "--force")
    assert "adjusted_low" in pl.read_csv(old).columns
    mine = tmp_path / "mine.csv"
    mine.write_text("game,bot,notes\nx,y,z\n")
    done = balance("ladder", "--bots", "random,greedy", "--games", "40", "--out", mine, "--force",
                   check=False)
    assert done.returncode == 2 and "other columns" in done.stderr, done.stderr
    assert mine.read_text() == "game,bot,notes\nx,y,z\n"
