"""A rotated-seat run's seat intervals cover what they claim (statistics audit R #1).

With ``--rotate-seats`` each deal is played once per rotation, and its games share the deal (the
tiles and cards), so a seat's wins over them are correlated: the audit measured a design effect of
1.9 at seats 1 and 4 of three ``balanced`` bots and a ``greedy`` one, and the seat table's 95%
interval, computed as if the games were independent, covered ~84%. The seat table now reads a
rotated run's seats over its deals (``analysis.seats.deal_clustered_sd``). Checked here by
simulation: synthetic rotated runs whose deals favour some seats across all their rotations, with
a known true share, through the seat table's own interval code; and on a real run, the table's
standard error against the per-deal means computed here from players.parquet, from the rows and
from the statistics alike.

The seat's mean score beside it is read over the deals too (review S #5: its game-by-game t interval
was 21-33% too narrow in a rotated run, design effects 1.6-2.2): the synthetic deals favour some
seats' scores across all their rotations as well, and the real run's score interval is checked
against the t interval of its per-deal mean scores."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import polars as pl
import pytest

from analysis.seats import _seat_table

P = 4
BOTS = np.array([0.0, 0.0, 0.0, 0.6])          # three alike bots and a stronger one, rotated
DEAL_SD = 0.9                                  # how much a deal favours some seats, every rotation
SCORE_BASE, SCORE_DEAL, SCORE_BOT, SCORE_NOISE = 100.0, 15.0, 10.0, 25.0
TRUE_SCORE = SCORE_BASE + SCORE_BOT * BOTS.mean()   # every seat holds every bot once per deal


def _scores(rng, favour: np.ndarray, bot: np.ndarray) -> np.ndarray:
    """(deals, P rotations, P seats) whole-number scores: the deal's favour of the seat (the same in
    every rotation: the deal effect), the bot in the seat and the game's own noise."""
    noise = rng.normal(0.0, SCORE_NOISE, size=(favour.shape[0], P, P))
    return np.rint(SCORE_BASE + SCORE_DEAL * favour + SCORE_BOT * bot + noise)


def _games(rng, deals: int, scores: bool = False):
    """(deals, P rotations, P seats) win shares: one winner per game, its odds the softmax of the
    deal's favour of each seat plus the strength of the bot rotation r puts in that seat (and the
    scores of those games, :func:`_scores`, when asked)."""
    favour = rng.normal(0.0, DEAL_SD, size=(deals, 1, P))
    bot = BOTS[(np.arange(P)[None, :] + np.arange(P)[:, None]) % P][None]    # seat s, rotation r
    logit = favour + bot
    prob = np.exp(logit) / np.exp(logit).sum(axis=-1, keepdims=True)
    u = rng.random(size=(deals, P, 1))
    winner = (prob.cumsum(axis=-1) < u).sum(axis=-1)
    w = (np.arange(P)[None, None, :] == winner[..., None]).astype(float)
    return (w, _scores(rng, favour, bot)) if scores else w


def _agg(w: np.ndarray, clustered: bool, score: np.ndarray | None = None) -> pl.DataFrame:
    """The seat table's aggregate (as analysis.seats._seat_agg and _deal_sums build it from rows) of
    runs (runs, deals, P rotations, P seats), one under the other: P rows a run."""
    runs, deals = w.shape[:2]
    games = np.full((runs, P), deals * P)
    wins = w.sum(axis=(1, 2))
    p = wins / games
    score = np.zeros_like(w) if score is None else score
    m = score.mean(axis=(1, 2))
    cols = {"seat": np.tile(np.arange(P, dtype=np.int8), runs), "games": games, "wins": wins,
            "_w2": ((w - p[:, None, None]) ** 2).sum(axis=(1, 2)), "_m": m,
            "_m2": ((score - m[:, None, None]) ** 2).sum(axis=(1, 2)), "mean_rank": np.ones((runs, P))}
    if clustered:
        cols |= {"_deal_sq": (w.sum(axis=2) ** 2).sum(axis=1), "_gpd": np.full((runs, P), P),
                 "_deal_score_sq": (score.sum(axis=2) ** 2).sum(axis=1)}
    return pl.DataFrame({c: v.ravel() for c, v in cols.items()})


RUNS_A_CALL = 50


def _covered(rng, reps: int, deals: int, lo: str, hi: str, truth, scores: bool = False
             ) -> tuple[dict[bool, np.ndarray], np.ndarray]:
    """Per seat, in how many of ``reps`` synthetic rotated runs of ``deals`` deals the seat table's
    interval [``lo``, ``hi``] holds ``truth``, read by deals (True) and game by game (False), and
    every seat's win share over all the runs' games. The runs are drawn :data:`RUNS_A_CALL` at a
    time and their tables read in one call of the seat table's own code over all their rows (one
    call a run cost ~5 s of CPU a test): every interval column is computed row by row (only the
    Holm adjustment over the rows mixes them, and it is not read here), so the rows are each run's
    own table (checked on the first run)."""
    hit = {True: np.zeros(P, int), False: np.zeros(P, int)}
    wins = np.zeros(P)
    for first in range(0, reps, RUNS_A_CALL):
        n = min(RUNS_A_CALL, reps - first)
        drawn = _games(rng, n * deals, scores)
        w, score = ((d.reshape(n, deals, P, P) for d in drawn) if scores else
                    (drawn.reshape(n, deals, P, P), None))
        wins += w.sum(axis=(0, 1, 2))
        for clustered in (True, False):
            t = _seat_table(RS, _agg(w, clustered, score))
            if first == 0:
                alone = _seat_table(RS, _agg(w[:1], clustered, None if score is None else score[:1]))
                for c in (lo, hi):
                    np.testing.assert_array_equal(t[c].to_numpy()[:P], alone[c].to_numpy(), err_msg=c)
            inside = (t[lo].to_numpy() <= np.tile(truth, n)) & (np.tile(truth, n) <= t[hi].to_numpy())
            hit[clustered] += inside.reshape(n, P).sum(axis=0)
    return hit, wins / (reps * deals * P)


RS = SimpleNamespace(n_players=P, smallest_of=lambda kind: 0.01)


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_seat_intervals_of_rotated_runs_cover_95_percent():
    """Every seat's true win share is 1/P: each deal's favour is drawn alike and independently for
    every seat, and every seat holds every bot once per deal (a Monte Carlo of 400,000 deals put the
    four within 0.0004 of 0.25; checked again on the 200,000 deals of the runs below).

    Runs of 200 deals (400 before, twice the CPU): the deals' intervals still cover 94-96%, the
    games' 90-93% (87-90% for the scores below), and with the games' intervals in place of the
    deals' (the mistake this guards against) both tests fail on every seat."""
    rng = np.random.default_rng(20261126)
    truth = np.full(P, 1.0 / P)
    reps, deals = 1000, 200
    hit, shares = _covered(rng, reps, deals, "ci_low", "ci_high", truth)
    assert np.all(np.abs(shares - truth) < 0.002), shares     # 3.4 sds (0.00058 each)
    cover, naive = hit[True] / reps, hit[False] / reps
    # the premise: counted as independent games, the intervals of the seats a deal favours together
    # undercover (the audit's 84%); by deals, every seat covers 95% (± 2.1 pp: three binomial sds)
    assert naive.min() < 0.91, naive
    assert np.all(np.abs(cover - 0.95) < 0.021), cover


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_mean_score_intervals_of_rotated_runs_cover_95_percent():
    """Review S #5: the seat's mean score interval beside its win share read the games as
    independent. Synthetic rotated runs whose deals favour some seats' scores in every rotation
    (a known true mean, :data:`TRUE_SCORE`): read over the deals, every seat's 95% t interval
    covers 95% (± 2.1 pp: three binomial sds over 1,000 runs); game by game, it undercovers."""
    rng = np.random.default_rng(20261127)
    reps, deals = 1000, 200
    hit, _ = _covered(rng, reps, deals, "score_ci_low", "score_ci_high", np.full(P, TRUE_SCORE), scores=True)
    cover, naive = hit[True] / reps, hit[False] / reps
    assert naive.max() < 0.91, naive                    # the premise: the deal effect is real
    assert np.all(np.abs(cover - 0.95) < 0.021), cover


@pytest.fixture(scope="module")
def rotated(tmp_path_factory):
    from simcore import runner

    return runner.simulate("middle-ages", players=4, games=4000, seed=4, out=tmp_path_factory.mktemp("rot") / "r",
                           strategies="balanced,balanced,balanced,greedy", rotate_seats=True, quiet=True)


def _per_deal_means(run, column: str) -> list[np.ndarray]:
    """Per seat, the mean of ``column`` over each deal's rotated games, computed here from
    players.parquet (the deal is the independent unit)."""
    x = (pl.read_parquet(run / "players.parquet").group_by(["deal", "seat"])
         .agg(pl.col(column).cast(pl.Float64).mean().alias("x")).sort("deal", "seat"))
    return [x.filter(pl.col("seat") == s)["x"].to_numpy() for s in range(P)]


@pytest.mark.parametrize("source", ["rows", "stats"])
def test_a_rotated_runs_seat_errors_are_the_deals(rotated, source):
    from analysis import open_runs
    from analysis.seats import seat_table

    t = seat_table(open_runs([rotated], source=source))
    for s, xs in enumerate(_per_deal_means(rotated, "win_share")):
        se = xs.std(ddof=1) / np.sqrt(xs.size)
        r = t.row(s, named=True)
        assert r["win_share"] == pytest.approx(xs.mean(), rel=1e-12)
        assert r["win_share_sd"] / np.sqrt(r["games"]) == pytest.approx(se, rel=1e-9)


@pytest.mark.parametrize("source", ["rows", "stats"])
def test_a_rotated_runs_score_intervals_are_the_deals(rotated, source):
    """The mean score's interval is the t interval of the seat's per-deal mean scores (computed
    here from players.parquet, with scipy's t quantile on D − 1 degrees of freedom), and score_sd
    the per-game sd whose sd / √games is their standard error; from the rows and from the
    statistics alike."""
    from scipy.stats import t as student

    from analysis import open_runs
    from analysis.seats import seat_table

    t = seat_table(open_runs([rotated], source=source))
    for s, xs in enumerate(_per_deal_means(rotated, "score")):
        se = xs.std(ddof=1) / np.sqrt(xs.size)
        half = student.ppf(0.975, xs.size - 1) * se
        r = t.row(s, named=True)
        assert r["mean_score"] == pytest.approx(xs.mean(), rel=1e-12)
        assert r["score_sd"] / np.sqrt(r["games"]) == pytest.approx(se, rel=1e-9)
        assert r["score_ci_low"] == pytest.approx(xs.mean() - half, rel=1e-9)
        assert r["score_ci_high"] == pytest.approx(xs.mean() + half, rel=1e-9)


def test_a_rotated_runs_seat_table_is_the_same_from_rows_and_statistics(rotated):
    """Rows and statistics give the same seat table and the same test of equal seats (standards:
    identical results from rows and from the statistics)."""
    from analysis import open_runs
    from analysis.seats import seat_table, seat_tests

    rows, st = (open_runs([rotated], source=s) for s in ("rows", "stats"))
    a, b = seat_table(rows), seat_table(st)
    for c in ("win_share", "ci_low", "ci_high", "win_share_sd", "mean_score", "score_sd",
              "score_ci_low", "score_ci_high", "p_value"):
        np.testing.assert_allclose(a[c].to_numpy(), b[c].to_numpy(), rtol=1e-12, err_msg=c)
    ta, tb = seat_tests(rows), seat_tests(st)
    assert ta["dof"][0] == tb["dof"][0] == P - 1
    assert ta["chi2"][0] == pytest.approx(tb["chi2"][0], rel=1e-10)
    assert ta["p_value"][0] == pytest.approx(tb["p_value"][0], rel=1e-8)


@pytest.mark.parametrize("source", ["rows", "stats"])
def test_a_rotated_runs_first_seat_and_balance_intervals_are_the_deals(rotated, source):
    """seat_tests' Seat 1 interval is the seat table's (it was per game beside the table's over
    deals), and the win-share Balance interval reads the covariance of the seats' per-deal means
    (computed here from players.parquet)."""
    from analysis import open_runs
    from analysis.seats import balance_interval, seat_table, seat_tests

    rs = open_runs([rotated], source=source)
    seat1, tests = seat_table(rs).row(0, named=True), seat_tests(rs).row(0, named=True)
    assert (tests["first_seat_win_share_low"], tests["first_seat_win_share_high"]) == pytest.approx(
        (seat1["ci_low"], seat1["ci_high"]), rel=1e-12)
    x = np.column_stack(_per_deal_means(rotated, "win_share"))          # deals × seats
    cov = np.cov(x, rowvar=False, ddof=1) / x.shape[0]
    low, high = balance_interval(x.mean(axis=0), cov)
    assert (tests["win_share_balance_low"], tests["win_share_balance_high"]) == pytest.approx((low, high), rel=1e-9)


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_design_target_judged_on_a_rotated_run_holds_its_intervals_together_at_95_percent():
    """``balance report --target`` judges the seats' win shares with Wilson intervals at the
    Bonferroni level over the shares, "all of them together at 95%". Fed the raw games of a rotated
    run, they held together 86.9% of the time (statistics audit, 1,000 runs of 500 deals): its
    deals' games are not independent. Through the seat table's ``effective_games`` (Kish) they hold
    95%: checked here on 600 synthetic rotated runs of 200 deals, every seat's true share 1/P,
    through the report's own path (:func:`analysis.skill_target.run_rows`, ``judge``). ± 2.7 pp:
    three binomial sds; with the raw games in place of the effective ones (the mistake) it falls to
    ~0.87 and fails."""
    from analysis.skill_target import judge, run_rows
    from analysis.tune.targets import Target

    rng = np.random.default_rng(20261128)
    reps, deals, batch = 600, 200, 50
    target = (Target("seat-balance:3", "seat-balance", 0.03),)
    together = 0
    for first in range(0, reps, batch):
        w = _games(rng, batch * deals).reshape(batch, deals, P, P)
        t = _seat_table(RS, _agg(w, True))
        for k in range(batch):
            j = judge(run_rows("run", t.slice(k * P, P), ("player",) * P), target)
            together += bool(((j["low"] <= 1 / P) & (1 / P <= j["high"])).all())
    assert abs(together / reps - 0.95) < 0.027, together / reps
