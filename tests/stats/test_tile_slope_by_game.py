"""The tile slopes' interval is clustered by game (revD #2): a game's P player rows are not
independent (their win shares sum to 1, the tiles come from one supply), so the standard error of
the slope of win share on a tile count is the sandwich clustered by game, from exact per-game sums
in the statistics (simcore.accumulate ``clu:<group>``, stats version 2). Checked against
statsmodels' OLS with ``cov_type="cluster"`` on the rows (from the statistics and from the rows,
within 1e-9 relative); older statistics (version 1) still read, with the interval of independent
rows and a label saying so; coverage by simulation (slow)."""

from __future__ import annotations

import functools
import json

import numpy as np
import polars as pl
import pytest

from analysis import open_runs, tiles
from simcore import accumulate, runner


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("clu") / "run"
    runner.simulate("middle-ages", players=4, games=600, seed=11, out=out, quiet=True, chunk_size=250,
                    strategies="balanced,greedy,random,balanced")
    return out


@functools.lru_cache(maxsize=None)
def _statsmodels(out, column):
    """statsmodels' OLS of win share on ``column`` over the run's player rows: (slope, its standard
    error clustered by game, its interval, the rows-as-independent standard error); once per run
    and column (both sources' tests read the same). Its OLS module alone: statsmodels.api imports
    every model (~0.5 s of CPU more)."""
    lm = pytest.importorskip("statsmodels.regression.linear_model")
    from statsmodels.tools.tools import add_constant

    df = pl.read_parquet(out / "players.parquet")
    X = add_constant(df[column].to_numpy().astype(float))
    y = df["win_share"].to_numpy().astype(float)
    fit = lm.OLS(y, X).fit(cov_type="cluster", cov_kwds={"groups": df["game"].to_numpy()}, use_t=True)
    return fit.params[1], fit.bse[1], tuple(fit.conf_int()[1]), lm.OLS(y, X).fit().bse[1]


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
@pytest.mark.parametrize("source", ["stats", "rows"])
def test_tile_slope_interval_is_clustered_by_game_as_statsmodels(run, source):
    table = tiles.tile_summary(open_runs([run], source=source))
    wider = 0
    for r in table.iter_rows(named=True):
        slope, se, (lo, hi), se_rows = _statsmodels(run, f"tiles_{r['tile']}")
        assert r["slope_se_by"] == "game"
        assert r["slope"] == pytest.approx(slope, rel=1e-9)
        assert r["slope_se"] == pytest.approx(se, rel=1e-9)
        assert (r["slope_ci_low"], r["slope_ci_high"]) == pytest.approx((lo, hi), rel=1e-9)
        wider += se > se_rows
    assert wider >= 6            # the rows-as-independent interval was too narrow for most types


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_older_statistics_read_with_the_rows_interval_and_say_so(run, tmp_path):
    d = json.loads((run / accumulate.STATS_FILE).read_text())
    assert d["version"] == accumulate.VERSION == 2
    old = {**d, "version": 1, "fixed": {k: v for k, v in d["fixed"].items() if not k.startswith("clu:")}}
    st_old = accumulate.RunStats.from_dict(old)
    assert not any(k.startswith("clu:") for k in st_old.fixed)
    new = accumulate.RunStats.from_dict(d)
    pooled = accumulate.merged([new, st_old])          # a version-2 run pooled with a version-1 one
    assert not any(k.startswith("clu:") for k in pooled.fixed)
    assert pooled.games == 2 * new.games
    rs = open_runs([run], source="stats")
    rs.stats = st_old
    # a version-1 run that kept its player rows: the per-game sums come from them, and the interval
    # is clustered by game, as statsmodels' (revF #8: it was the rows-as-independent one)
    t = tiles.tile_summary(rs)
    assert set(t["slope_se_by"]) == {"game"}
    sm_slope, se, (lo, hi), se_rows = _statsmodels(run, "tiles_caserne")
    r = t.filter(pl.col("tile") == "caserne").row(0, named=True)
    assert r["slope"] == pytest.approx(sm_slope, rel=1e-9)
    assert (r["slope_se"], r["slope_ci_low"], r["slope_ci_high"]) == pytest.approx((se, lo, hi), rel=1e-9)
    # without the rows (players.parquet not kept): the interval of independent rows, labelled so
    rs.paths = (tmp_path,)
    t = tiles.tile_summary(rs)
    assert set(t["slope_se_by"]) == {"player rows"}
    r = t.filter(pl.col("tile") == "caserne").row(0, named=True)
    assert r["slope_se"] == pytest.approx(se_rows, rel=1e-9)


def _games(rng, G, P=4, tiles=6, k=0.3):
    """Synthetic games: P players draft ``tiles`` tiles of a type from one supply (what one takes,
    the others cannot: the counts of a game are negatively correlated), the win goes to the highest
    score (ties shared), and the score rises with the count: as in Middle-Ages, the clustered
    standard error is ~20% larger than the one of independent rows."""
    x = rng.multinomial(tiles, [1 / P] * P, size=G)
    score = k * x + rng.gumbel(size=(G, P))
    w = (score == score.max(axis=1, keepdims=True)).astype(float)
    w /= w.sum(axis=1, keepdims=True)
    return x, w


def _slope_interval(x, w, L=12):
    """(slope, clustered low, high, rows-as-independent low, high) from per-game sums, as the
    statistics hold them."""
    G, P = x.shape
    W = np.rint(w * L).astype(np.int64)
    X, Q, A, Y = x.sum(1), (x * x).sum(1), (x * W).sum(1), W.sum(1)
    z = {"X": X, "Q": Q, "A": A, "Y": Y}
    terms = {t: int((z[t[0]] * z[t[1]]).sum()) for t in accumulate.CLUSTER_TERMS}
    terms.update({k: int(v.sum()) for k, v in z.items()})
    xs, ys = x.ravel().astype(float), w.ravel()
    n = xs.size
    Sxx = ((xs - xs.mean()) ** 2).sum()
    b = ((xs - xs.mean()) * (ys - ys.mean())).sum() / Sxx
    se, dof = tiles._cluster_se(G, P, n, terms, b, xs.mean(), ys.mean(), Sxx, L)
    q = tiles.stats.t_quantile(dof)
    resid = ys - ys.mean() - b * (xs - xs.mean())
    se_rows = ((resid ** 2).sum() / (n - 2) / Sxx) ** 0.5
    q_rows = tiles.stats.t_quantile(n - 2)
    return b, b - q * se, b + q * se, b - q_rows * se_rows, b + q_rows * se_rows


@pytest.mark.slow
def test_clustered_tile_slope_interval_covers_95_percent():
    rng = np.random.default_rng(7)
    truth = _slope_interval(*_games(rng, 2_000_000))[0]
    reps, G = 2000, 300
    hits = hits_rows = 0
    for _ in range(reps):
        b, lo, hi, lo_rows, hi_rows = _slope_interval(*_games(rng, G))
        hits += lo <= truth <= hi
        hits_rows += lo_rows <= truth <= hi_rows
    mc = 3 * (0.95 * 0.05 / reps) ** 0.5
    assert abs(hits / reps - 0.95) < mc + 0.005, hits / reps
    assert hits_rows / reps < 0.95 - mc, hits_rows / reps     # the old interval: too narrow here
