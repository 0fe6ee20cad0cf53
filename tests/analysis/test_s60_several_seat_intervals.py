"""Review s60: a bot on several seats of a game played without seat rotation had two 95% intervals
for one win share, both too wide: the Strategies table (and its export) a Wilson interval over its
player rows as if they were independent, the Matchups table ("Its win share in those games") a
Wilson interval over the meetings at the mean of its seats (so was ``ahead_share``'s). Its seats'
shares in one game are dependent; the independent unit is the game, and its share of a game the
mean of its seats' shares (the definition the CI baseline measures, docs/ci.md).

Each expected interval is computed here from players.parquet with numpy and scipy (Wilson's at
the per-game means' effective number of games, review s62 #1; the Student t interval before), independently of the toolkit; a bot on one seat keeps Wilson's
interval (statsmodels'); the tables read from the rows and from the statistics (no rows) agree to
1e-9; the exports print the tables' numbers; Seigneurial's table of bots within roles reads a
bot on two Censitaire seats the same way."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from scipy import stats as sps
from statsmodels.stats.proportion import proportion_confint

from analysis import analyse, open_runs

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

GAMES = 3000


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    from simcore import runner

    out = tmp_path_factory.mktemp("s60") / "mixed"
    runner.simulate("middle-ages", games=GAMES, seed=60, out=out, quiet=True, raw=True,
                    strategies="greedy,balanced,balanced,balanced")
    return out


@pytest.fixture(scope="module")
def seigneurial(tmp_path_factory):
    from simcore import runner

    out = tmp_path_factory.mktemp("s60") / "sg"
    runner.simulate("seigneurial", players=4, games=GAMES, seed=60, out=out, quiet=True, raw=True,
                    strategies="standard,objective,objective,hoarder")
    return out


def _players(run) -> pl.DataFrame:
    p = pl.read_parquet(run / "players.parquet").with_columns(pl.col("strategy").cast(pl.String),
                                                              pl.col("win_share").cast(pl.Float64))
    return p.sort("game", "seat")


def _t95(per_game: np.ndarray) -> tuple[float, float, float]:
    """(mean, low, high): the 95% interval of the per-game values' mean, Wilson's score interval at
    their effective number of games n = m(1 − m)/se² with Student t(n − 1)'s critical value (review
    s62 #1; these shares are mid-range, where Brown, Cai & DasGupta's end correction does not apply,
    and within a fraction of the t interval's width of it)."""
    n = per_game.size
    m, se = float(per_game.mean()), float(per_game.std(ddof=1)) / math.sqrt(n)
    z = float(sps.t.ppf(0.975, n - 1))
    k = m * (1 - m) / (se * se)
    centre = (m + z * z / (2 * k)) / (1 + z * z / k)
    half = z / (1 + z * z / k) * math.sqrt(m * (1 - m) / k + z * z / (4 * k * k))
    assert m * k > 3 and (1 - m) * k > 3          # (no end correction: the plain score interval)
    return m, centre - half, centre + half


def _share_per_game(p: pl.DataFrame, bot: str) -> np.ndarray:
    return (p.filter(pl.col("strategy") == bot).group_by("game").agg(pl.col("win_share").mean())
            .sort("game")["win_share"].to_numpy())


def _ahead_per_game(p: pl.DataFrame, bot: str, other: str) -> np.ndarray:
    """Per game, the mean over the (bot seat, other seat) pairs of "bot finishes ahead" (tie ½)."""
    a = p.filter(pl.col("strategy") == bot).select("game", pl.col("rank").alias("ra"))
    b = p.filter(pl.col("strategy") == other).select("game", pl.col("rank").alias("rb"))
    pairs = a.join(b, on="game").with_columns(
        ((pl.col("ra") < pl.col("rb")).cast(pl.Float64)
         + 0.5 * (pl.col("ra") == pl.col("rb")).cast(pl.Float64)).alias("x"))
    return pairs.group_by("game").agg(pl.col("x").mean()).sort("game")["x"].to_numpy()


def _row(t: pl.DataFrame, **key) -> dict:
    got = t.filter(*[pl.col(c) == v for c, v in key.items()])
    assert got.height == 1, (key, t)
    return got.row(0, named=True)


@pytest.mark.parametrize("source", ["rows", "stats"])
def test_a_bot_on_three_seats_gets_the_t_interval_of_its_per_game_share(mixed, source):
    p = _players(mixed)
    t = analyse(open_runs([mixed], source=source))
    m, lo, hi = _t95(_share_per_game(p, "balanced"))
    r = _row(t["strategies"], strategy="balanced")
    assert r["units"] == GAMES and r["players"] == 3 * GAMES
    assert r["win_share"] == pytest.approx(m, abs=1e-12)
    assert (r["ci_low"], r["ci_high"]) == pytest.approx((lo, hi), abs=1e-9), (r, lo, hi)
    # the matchups' "its win share in those games" is the same number with the same interval
    w = _row(t["matchups"], strategy="balanced", opponent="greedy")
    assert (w["win_share"], w["win_ci_low"], w["win_ci_high"]) == pytest.approx((m, lo, hi), abs=1e-9)
    # narrower than the Wilson interval over the player rows the table printed (old)
    old_lo, old_hi = proportion_confint(m * 3 * GAMES, 3 * GAMES, 0.05, "wilson")
    assert hi - lo < 0.9 * (old_hi - old_lo)


@pytest.mark.parametrize("source", ["rows", "stats"])
def test_ahead_shares_against_a_bot_on_three_seats_are_per_game_means(mixed, source):
    p = _players(mixed)
    t = analyse(open_runs([mixed], source=source))["matchups"]
    for bot, other in (("balanced", "greedy"), ("greedy", "balanced")):
        m, lo, hi = _t95(_ahead_per_game(p, bot, other))
        r = _row(t, strategy=bot, opponent=other)
        assert r["meetings"] == GAMES
        assert r["ahead_share"] == pytest.approx(m, abs=1e-12)
        assert (r["ci_low"], r["ci_high"]) == pytest.approx((lo, hi), abs=1e-9), (bot, r, lo, hi)


@pytest.mark.parametrize("source", ["rows", "stats"])
def test_a_bot_on_one_seat_keeps_wilsons_interval(mixed, source):
    p = _players(mixed)
    t = analyse(open_runs([mixed], source=source))
    wins = float(p.filter(pl.col("strategy") == "greedy")["win_share"].sum())
    assert 3 < wins < GAMES - 3                     # past the project's exact Wilson ends
    lo, hi = proportion_confint(wins, GAMES, 0.05, "wilson")
    r = _row(t["strategies"], strategy="greedy")
    assert r["units"] == GAMES and r["win_share"] == pytest.approx(wins / GAMES, abs=1e-12)
    assert (r["ci_low"], r["ci_high"]) == pytest.approx((lo, hi), abs=1e-9)
    w = _row(t["matchups"], strategy="greedy", opponent="balanced")
    assert (w["win_ci_low"], w["win_ci_high"]) == pytest.approx((lo, hi), abs=1e-9)


def test_the_rows_and_the_statistics_give_the_same_intervals(mixed):
    rows, st = (analyse(open_runs([mixed], source=s)) for s in ("rows", "stats"))
    for name, cols in (("strategies", ("win_share", "ci_low", "ci_high", "units")),
                       ("matchups", ("ahead_share", "ci_low", "ci_high", "win_share", "win_ci_low",
                                     "win_ci_high"))):
        for c in cols:
            a, b = rows[name][c].to_numpy(), st[name][c].to_numpy()
            assert np.allclose(a, b, rtol=0, atol=1e-9), (name, c, a, b)


def test_the_exports_print_the_per_game_interval(mixed, tmp_path, capsys):
    from cli import _run

    p = _players(mixed)
    m, lo, hi = _t95(_share_per_game(p, "balanced"))
    for what in ("strategies", "matchups"):
        assert _run(["export", str(mixed), "--what", what, "--out", str(tmp_path / f"{what}.csv")]) == 0
    capsys.readouterr()
    s = _row(pl.read_csv(tmp_path / "strategies.csv"), strategy="balanced")
    assert (s["win_share"], s["ci_low"], s["ci_high"]) == pytest.approx((m, lo, hi), abs=1e-9)
    w = _row(pl.read_csv(tmp_path / "matchups.csv"), strategy="balanced", opponent="greedy")
    assert (w["win_share"], w["win_ci_low"], w["win_ci_high"]) == pytest.approx((m, lo, hi), abs=1e-9)


def test_the_baseline_measures_what_the_table_prints(mixed):
    from analysis.check.measure import measure

    rs = open_runs([mixed])
    got = {m.key: m for m in measure(rs, keep_copies=True) if m.metric == "strategy_win_share"}
    r = _row(analyse(rs)["strategies"], strategy="balanced")
    b = got["balanced"]
    assert b.n == r["units"] == GAMES
    assert (b.value, b.ci_low, b.ci_high) == pytest.approx(
        (100 * r["win_share"], 100 * r["ci_low"], 100 * r["ci_high"]), abs=1e-9)


@pytest.mark.parametrize("source", ["rows", "stats"])
def test_seigneurial_bot_on_two_censitaire_seats_gets_its_per_game_interval(seigneurial, source):
    p = _players(seigneurial)
    t = analyse(open_runs([seigneurial], source=source))["strategies"]
    assert "role" in t.columns
    m, lo, hi = _t95(_share_per_game(p, "objective"))
    r = _row(t, strategy="objective")
    assert r["players"] == 2 * GAMES and r["units"] == GAMES
    assert r["win_share"] == pytest.approx(m, abs=1e-12)
    assert (r["ci_low"], r["ci_high"]) == pytest.approx((lo, hi), abs=1e-9), (r, lo, hi)
    # hoarder, on one seat, keeps Wilson's over its games
    wins = float(p.filter(pl.col("strategy") == "hoarder")["win_share"].sum())
    assert 3 < wins < GAMES - 3
    h = _row(t, strategy="hoarder")
    assert (h["ci_low"], h["ci_high"]) == pytest.approx(proportion_confint(wins, GAMES, 0.05, "wilson"),
                                                        abs=1e-9)


def test_simulates_closing_table_prints_the_per_game_interval(tmp_path):
    """The closing table of ``simulate`` ("per strategy (all seats)") printed Wilson's interval over
    the player rows too; it now prints the report's, computed here from players.parquet."""
    import io

    from rich.console import Console

    from cli.progress import print_summary
    from simcore import runner
    from simcore.numbers import rounded

    res = runner.simulate("middle-ages", games=1000, seed=61, out=tmp_path / "r", quiet=True, raw=True,
                          result=True, strategies="greedy,balanced,balanced,balanced")
    out = io.StringIO()
    print_summary(Console(file=out, width=220), res)
    text = out.getvalue()
    m, lo, hi = _t95(_share_per_game(_players(res.path), "balanced"))
    two = lambda v: f"{rounded(100 * v, 2):.2f}"         # noqa: E731
    block = text[text.index("per strategy (all seats)"):]
    line = next(ln for ln in block.splitlines() if " balanced " in ln)
    assert f"{two(m)}%" in line and f"{two(lo)}–{two(hi)}%" in line, (line, m, lo, hi)
    assert "95% interval (over games)" in block
