"""Review S #5 and #6: the rest of a rotated-seat run's seat reading, over its deals.

With ``--rotate-seats`` each deal is played once per seat rotation, and its games share it. The win
shares' intervals were read over the deals (0bb185e); the review found the rest still read games:

* #5: the seat table's chi-square "seats are equal" was Pearson's statistic on game counts, about
  twice the Wald statistic on the per-deal means (49.3 against 22.5 on the review's run). It is now
  that Wald test (``analysis.seats.deal_wald_equal``), from the rows or the statistics'
  ``deal_win_cross`` alike; checked against the per-deal means of a real run, and its false alarms
  by simulation of equal seats.
* #6: ``simulate``'s closing table printed per-game Wilson intervals (seat 1 21.30–23.12% against
  the report's 21.0–23.5%; greedy 15.31–16.92% against 14.7–17.5%). For a rotated run it now prints
  the report's own intervals (``analysis.seats.seat_table``, ``analysis.matchups.strategy_table``).

And the statistics' per-deal sums are the same whatever the chunking, and a file written before
one of them existed is read game by game."""

from __future__ import annotations

import io

import numpy as np
import polars as pl
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

P = 4


@pytest.fixture(scope="module")
def rotated(tmp_path_factory):
    from simcore import runner

    return runner.simulate("middle-ages", players=4, games=2400, seed=8, out=tmp_path_factory.mktemp("rot") / "r",
                           strategies="balanced,balanced,balanced,greedy", rotate_seats=True, quiet=True,
                           result=True)


def _deal_means(path) -> np.ndarray:
    """(deals, seats) of each seat's mean win share over the deal's games, from players.parquet."""
    x = (pl.read_parquet(path / "players.parquet").group_by(["deal", "seat"])
         .agg(pl.col("win_share").cast(pl.Float64).mean().alias("x")).sort("deal", "seat"))
    return x["x"].to_numpy().reshape(-1, P)


@pytest.mark.parametrize("source", ["rows", "stats"])
def test_the_seats_equal_test_of_a_rotated_run_is_the_wald_test_on_its_deals(rotated, source):
    from scipy.stats import chi2 as chi2_dist

    from analysis import open_runs
    from analysis.seats import seat_tests

    x = _deal_means(rotated.path)
    p = x.mean(axis=0)
    cov = np.cov(x, rowvar=False) / x.shape[0]          # the covariance of the per-deal means' mean
    a = np.hstack([np.eye(P - 1), -np.ones((P - 1, 1))])
    d = a @ p
    wald = float(d @ np.linalg.solve(a @ cov @ a.T, d))
    st = seat_tests(open_runs([rotated.path], source=source)).row(0, named=True)
    assert st["dof"] == P - 1
    assert st["chi2"] == pytest.approx(wald, rel=1e-9)
    assert st["p_value"] == pytest.approx(chi2_dist.sf(wald, P - 1), rel=1e-6)
    # the premise: Pearson's statistic on the game counts is much larger on this run
    from analysis.stats import chi_square_equal

    assert chi_square_equal(x.sum(axis=0) * P)[0] > 1.4 * wald


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_deal_wald_test_holds_its_level_where_pearsons_does_not():
    """Equal seats (four alike bots, rotated), deals favouring some seats in every rotation: over
    2,000 synthetic runs the Wald test on the deals rejects at 5% in 5% of them (± 1.5 pp, three
    binomial sds); Pearson's on the game counts, in far more."""
    from analysis.seats import deal_wald_equal
    from analysis.stats import chi_square_equal

    rng = np.random.default_rng(5)
    reps, deals, at_once = 2000, 300, 100
    wald = pearson = 0
    for _ in range(reps // at_once):              # the runs drawn 100 at a time (numpy's per-call cost)
        favour = rng.normal(0.0, 0.9, size=(at_once, deals, 1, P))
        prob = np.exp(favour) / np.exp(favour).sum(axis=-1, keepdims=True)
        winner = (prob.cumsum(axis=-1) < rng.random(size=(at_once, deals, P, 1))).sum(axis=-1)
        w = (np.arange(P) == winner[..., None]).astype(float)
        for s in w.sum(axis=2):                      # (deals, seats): win shares over the deal
            wald += deal_wald_equal(s.sum(axis=0), s.T @ s, deals * P, P)[2] < 0.05
            pearson += chi_square_equal(s.sum(axis=0))[2] < 0.05
    assert abs(wald / reps - 0.05) < 0.015, wald / reps
    assert pearson / reps > 0.09, pearson / reps


def test_simulates_closing_table_prints_the_reports_intervals_for_a_rotated_run(rotated):
    """The closing table of a rotated run prints, for each seat and each strategy, the 95% interval
    of the report's seat and strategy tables (read here from the rows), rounded as the report
    rounds; not the per-game Wilson interval (the review's 21.30–23.12% against 21.0–23.5%)."""
    from rich.console import Console

    from analysis import open_runs
    from analysis.matchups import strategy_table
    from analysis.seats import seat_table
    from cli.progress import print_summary
    from simcore.numbers import rounded
    from simcore.stats import wilson_interval

    out = io.StringIO()
    print_summary(Console(file=out, width=200), rotated)
    text = out.getvalue()
    rs = open_runs([rotated.path], source="rows")
    two = lambda v: f"{rounded(100 * v, 2):.2f}"       # noqa: E731
    seats = seat_table(rs).sort("seat")
    per_game = []
    for r in seats.iter_rows(named=True):
        line = next(ln for ln in text.splitlines() if ln.strip().startswith(f"│ {r['seat'] + 1} │")
                    or ln.lstrip("│ ").startswith(f"{r['seat'] + 1} │"))
        assert f"{two(r['ci_low'])}–{two(r['ci_high'])}%" in line, (line, r)
        lo, hi = wilson_interval(r["win_share"], r["games"])
        per_game.append(f"{two(lo)}–{two(hi)}%")
    for r in strategy_table(rs).iter_rows(named=True):
        line = next(ln for ln in text.splitlines() if f" {r['strategy']} " in ln)
        assert f"{two(r['ci_low'])}–{two(r['ci_high'])}%" in line, (line, r)
    assert not any(iv in text for iv in per_game)       # the per-game intervals are gone
    assert "(over deals)" in text and "(Wilson)" not in text
    assert "intervals over the 600 deals" in text


def test_the_per_deal_statistics_do_not_depend_on_the_chunking(tmp_path):
    from simcore import runner

    runs = [runner.simulate("middle-ages", players=4, games=960, seed=3, out=tmp_path / f"c{c}",
                            strategies="balanced,greedy,balanced,random", rotate_seats=True,
                            quiet=True, result=True, chunk_size=c) for c in (40, 960)]
    a, b = (r.stats.fixed for r in runs)
    for name in ("deal_win_sq", "deal_score_sq", "deal_win_cross"):
        assert name in a and np.array_equal(a[name], b[name]), name
    # and they are the per-deal sums of the rows
    p = pl.read_parquet(runs[0].path / "players.parquet").group_by(["deal", "seat"]).agg(
        pl.col("score").cast(pl.Int64).sum().alias("s")).sort("deal", "seat")
    s = p["s"].to_numpy().reshape(-1, P)
    assert np.array_equal(a["deal_score_sq"], (s * s).sum(axis=0))


def test_statistics_written_before_the_score_and_cross_sums_are_read_game_by_game(rotated):
    """A rotated run's stats.json written before deal_score_sq and deal_win_cross (this morning's,
    with deal_win_sq only) has them dropped on reading and in a merge, and its score intervals and
    test of equal seats are read game by game, as before."""
    from analysis import open_runs
    from analysis.seats import seat_table, seat_tests
    from analysis.stats import chi_square_equal, t_interval
    from simcore.accumulate import RunStats

    d = rotated.stats.to_dict()
    for name in ("deal_score_sq", "deal_win_cross"):
        del d["fixed"][name]
    old = RunStats.from_dict(d)
    assert "deal_win_sq" in old.fixed and "deal_score_sq" not in old.fixed and "deal_win_cross" not in old.fixed
    merged = rotated.stats.copy().merge(old)
    assert "deal_score_sq" not in merged.fixed and "deal_win_cross" not in merged.fixed

    rs = open_runs([rotated.path], source="stats")
    new = seat_table(rs)
    rs.stats = old
    wins = old.fixed["cell_win"].sum(axis=1) / old.layout["win_units"]
    assert seat_tests(rs)["chi2"][0] == pytest.approx(chi_square_equal(wins)[0], rel=1e-12)
    t = seat_table(rs)
    lo, hi = t_interval(t["mean_score"].to_numpy(), t["score_sd"].to_numpy(), t["games"].to_numpy())
    np.testing.assert_allclose(t["score_ci_low"].to_numpy(), lo, rtol=1e-12)
    np.testing.assert_allclose(t["score_ci_high"].to_numpy(), hi, rtol=1e-12)
    # game by game the interval is narrower than over the deals (the design effect of this run)
    width = lambda x: (x["score_ci_high"] - x["score_ci_low"]).to_numpy()     # noqa: E731
    assert np.all(width(t) < 0.9 * width(new))
    # the win shares still read the deals (deal_win_sq kept)
    np.testing.assert_allclose(t["ci_low"].to_numpy(), new["ci_low"].to_numpy(), rtol=1e-12)
