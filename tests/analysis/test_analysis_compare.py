"""Comparing two configurations: planted differences are flagged, same-configuration runs are not."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from analysis_runs import synthetic_run

from analysis import analyse, open_runs
from analysis.compare import compare, compare_tables, metric_vector

pytestmark = pytest.mark.slow   # a costly file: make test-slow and CI run it (docs/testing.md, the fast suite's budget)


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    """``tables(games, seed, **kw)``: the analysis of a synthetic 4-player run, each drawn and
    analysed once for the module (an analysis costs ~0.35 s of CPU whatever the games: the 1,000-game
    runs of seeds 1 and 2 serve four tests, the false-flag test's null comparisons among them)."""
    root = tmp_path_factory.mktemp("compare")
    made: dict[tuple, dict[str, pl.DataFrame]] = {}

    def get(games: int, seed: int, **kw) -> dict[str, pl.DataFrame]:
        key = (games, seed, *sorted(kw.items()))
        if key not in made:
            path = root / "-".join(map(str, (games, seed, *kw.values())))
            made[key] = analyse(open_runs([synthetic_run(path, games, 4, seed=seed, **kw)]))
        return dict(made[key])
    return get


def test_metric_vector_has_one_row_per_scalar_metric(tables):
    v = metric_vector(tables(1000, 1))
    kinds = dict(v.group_by("metric").agg(pl.len()).iter_rows())
    assert kinds["seat_win_share"] == 4 and kinds["seat_mean_score"] == 4 and kinds["balance"] == 1
    assert kinds["win_share_balance"] == 1
    assert kinds["tile_slope"] == 8 and kinds["event_mean_gain"] == 15
    assert kinds["matchup_ahead_share"] == 1        # random vs greedy, counted once
    assert v.filter(pl.col("ci_low") > pl.col("estimate") + 1e-12).height == 0
    assert not v.select(pl.col("metric", "key")).is_duplicated().any()


def test_planted_seat_advantage_is_flagged(tables):
    base = tables(6000, 1, seat_edge=0.0)
    variant = tables(6000, 2, seat_edge=3.0)
    cmp = compare_tables(base, variant)
    seat1 = cmp.filter((pl.col("metric") == "seat_win_share") & (pl.col("key") == "Seat 1"))
    seat1 = seat1.row(0, named=True)
    assert seat1["significant"]
    assert seat1["diff"] > 0 and seat1["diff_low"] > 0
    assert seat1["diff"] == pytest.approx(seat1["variant"] - seat1["base"])
    # The flagged metrics are the seat ones (and what follows from them), never the event cards.
    flagged = set(cmp.filter(pl.col("significant"))["metric"])
    assert "event_mean_gain" not in flagged


def test_two_seeds_of_one_configuration_are_not_flagged(tmp_path):
    cmp = compare(open_runs([synthetic_run(tmp_path / "a", 4000, 4, seed=11)]),
                  open_runs([synthetic_run(tmp_path / "b", 4000, 4, seed=12)]))
    assert cmp.height > 50     # (the metrics the same in every game of both runs are left out: revF #5)
    assert not cmp["significant"].any()
    # Unadjusted p-values of a null comparison are spread out, not piled near 0.
    assert (cmp["p_value"] < 0.05).mean() < 0.15


def test_false_flag_rate_over_several_null_comparisons_is_near_the_documented_5_percent(tables):
    # Holm keeps the chance of any flag in one comparison at or below 5%: over 5 null comparisons,
    # 2 or more flagged comparisons would happen with probability < 2.3% if that holds. (Without
    # the adjustment every one of them is flagged: 1 to 7 of the 58 metrics have p < 0.05. The
    # rate does not depend on the games: 1,000 a run, the other tests' runs of seeds 1 and 2 among
    # them.) 5 comparisons (each new run's analysis ~0.35 s of CPU): a rule flagging 30% or 50% of
    # null comparisons fails this with probability 0.47 or 0.81, the slow test's 8 (3 or more
    # flagged) with 0.45 or 0.86; measured: none of the 8 flagged.
    runs = [tables(1000, seed) for seed in (1, 2, *range(100, 104))]
    flagged = sum(bool(compare_tables(runs[0], t)["significant"].any()) for t in runs[1:])
    assert flagged <= 1


@pytest.mark.slow
def test_false_flag_rate_over_eight_null_comparisons(tables):
    # 3 or more flagged of 8 null comparisons: probability < 0.6% at Holm's 5%
    runs = [tables(1000, seed) for seed in (1, 2, *range(100, 107))]
    flagged = sum(bool(compare_tables(runs[0], t)["significant"].any()) for t in runs[1:])
    assert flagged <= 2


def test_proportion_differences_use_newcombe_intervals(tables):
    base = tables(1000, 1)
    variant = tables(1000, 2)
    cmp = compare_tables(base, variant)
    r = cmp.filter(pl.col("metric") == "shared_wins").row(0, named=True)
    from analysis import stats

    low, high = stats.newcombe(r["variant"], r["variant_low"], r["variant_high"], r["base"], r["base_low"],
                               r["base_high"])
    assert (r["diff_low"], r["diff_high"]) == pytest.approx((float(low), float(high)))
    # Means: Welch's interval and test, each run's sd recovered from its t interval (checked with scipy)
    from scipy import stats as sps

    m = cmp.filter(pl.col("metric") == "score_spread").row(0, named=True)
    vb = metric_vector(base).filter(pl.col("metric") == "score_spread").row(0, named=True)
    vv = metric_vector(variant).filter(pl.col("metric") == "score_spread").row(0, named=True)
    sds = [(r["ci_high"] - r["ci_low"]) / 2 * np.sqrt(r["n"]) / sps.t.ppf(0.975, r["n"] - 1) for r in (vb, vv)]
    ref = sps.ttest_ind_from_stats(vv["estimate"], sds[1], vv["n"], vb["estimate"], sds[0], vb["n"], equal_var=False)
    assert m["p_value"] == pytest.approx(ref.pvalue, rel=1e-8)
    se = np.hypot(sds[0] / np.sqrt(vb["n"]), sds[1] / np.sqrt(vv["n"]))
    dof = se ** 4 / ((sds[0] ** 2 / vb["n"]) ** 2 / (vb["n"] - 1) + (sds[1] ** 2 / vv["n"]) ** 2 / (vv["n"] - 1))
    assert m["diff_high"] - m["diff"] == pytest.approx(sps.t.ppf(0.975, dof) * se, rel=1e-8)


def test_balance_rows_are_shown_but_not_tested(tables):
    cmp = compare_tables(tables(1000, 1), tables(1000, 2, seat_edge=3.0))
    rows = cmp.filter(pl.col("kind") == "index")
    assert sorted(rows["metric"].to_list()) == ["balance", "win_share_balance"]
    assert rows["p_value"].is_nan().all() and rows["diff_low"].is_nan().all() and not rows["significant"].any()
    assert rows["diff"].to_numpy() == pytest.approx((rows["variant"] - rows["base"]).to_numpy())
