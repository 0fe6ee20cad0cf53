"""A before/after of two runs that played the same deals is compared game by game (paired t on the
per-game differences), adds the reshuffle metrics, leaves out a share of almost nobody and copies
of a role's number, and lists changes within noise by |z| (revA #10, #11; revB #10)."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from scipy import stats as sps

from analysis import analyse, open_runs
from analysis.compare import _paired_t, compare_runs, compare_tables
from tests.analysis.analysis_runs import write_run

G = 400


def _pair(tmp_path, seed_after: int = 0, games: int = G, same_winners: bool = False):
    """Two 2-player runs of the same deals: the after rules move seat 0's score by a little and
    reshuffle more often; per-game scores share the deal's luck (common random numbers). With
    ``same_winners`` both seats' scores move by the same amount: every game has the same winner (and
    the same lead) before and after, while the mean scores change."""
    rng = np.random.default_rng(5)
    luck = rng.integers(0, 40, size=(games, 2))
    shift = rng.integers(0, 3, size=games)
    resh_b = rng.integers(0, 2, size=games)
    resh_a = np.maximum(resh_b, rng.random(games) < 0.2).astype(int)
    out = []
    for name, score, resh, seed in (("before", luck, resh_b, 0),
                                     ("after", luck + np.stack([shift, shift if same_winners else 0 * shift], 1),
                                      resh_a, seed_after)):
        s = score.ravel()
        win = np.zeros((games, 2))
        best = score.max(axis=1, keepdims=True)
        win[score == best] = 1
        win = win / win.sum(axis=1, keepdims=True)
        players = {"game": np.repeat(np.arange(games), 2), "seat": np.tile([0, 1], games),
                   "strategy": ["A"] * (2 * games), "score": s, "win_share": win.ravel(),
                   "rank": np.where(win.ravel() > 0, 1, 2)}
        games_t = {"game": np.arange(games), "n_players": np.full(games, 2), "reshuffles": resh}
        out.append((write_run(tmp_path / name, players, games_t, seed=seed), score, resh))
    return out


def _row(cmp: pl.DataFrame, metric: str, key: str) -> dict:
    return cmp.filter((pl.col("metric") == metric) & (pl.col("key") == key)).row(0, named=True)


def test_same_deals_are_compared_paired_as_a_one_sample_t_on_the_differences(tmp_path):
    (b, sb, rb), (a, sa, ra) = _pair(tmp_path)
    rs_b, rs_a = open_runs([b]), open_runs([a])
    c = compare_runs(rs_b, rs_a, analyse(rs_b), analyse(rs_a))
    assert c.pairing.paired and c.pairing.games == G
    r = _row(c.table, "seat_mean_score", "Seat 1")
    d = (sa - sb)[:, 0].astype(float)
    ref = sps.ttest_1samp(d, 0.0)
    lo, hi = ref.confidence_interval(0.95)
    assert r["paired"] and r["diff"] == pytest.approx(d.mean(), abs=1e-12)
    assert (r["diff_low"], r["diff_high"]) == pytest.approx((lo, hi), rel=1e-9)
    assert r["p_value"] == pytest.approx(ref.pvalue, rel=1e-6)
    # far narrower than the unpaired (Welch) interval of the same two runs: the deal's luck cancels
    u = _row(compare_tables(analyse(rs_b), analyse(rs_a)), "seat_mean_score", "Seat 1")
    assert (hi - lo) < 0.5 * (u["diff_high"] - u["diff_low"])
    # the reshuffle metrics are compared, paired too
    share = _row(c.table, "count_share", "reshuffles")
    assert share["paired"] and share["diff"] == pytest.approx(((ra > 0).mean() - (rb > 0).mean()))
    assert share["label"] == "Games with at least one reshuffle"


def test_different_deals_stay_unpaired_and_say_why(tmp_path):
    (b, *_), (a, *_) = _pair(tmp_path, seed_after=9)
    rs_b, rs_a = open_runs([b]), open_runs([a])
    c = compare_runs(rs_b, rs_a, analyse(rs_b), analyse(rs_a))
    assert not c.pairing.paired and "different deals" in c.pairing.why
    assert not c.table["paired"].any()
    assert "count_share" in c.table["metric"].to_list()      # reshuffles compared, unpaired


def test_paired_t_interval_covers_the_true_difference_95_percent_of_the_time():
    rng = np.random.default_rng(11)
    n, reps, true = 25, 2000, 0.3
    deal = rng.normal(0, 3, size=(reps, n))        # shared luck, large against the change
    before = deal + rng.normal(0, 1, size=(reps, n))
    after = deal + true + rng.exponential(1, size=(reps, n)) - 1     # skewed noise
    d = after - before
    cover = 0
    for k in range(reps):
        lo, hi, _, _ = _paired_t(n, d[k].mean(), d[k].std(ddof=1))
        cover += lo <= true <= hi
    assert 0.93 <= cover / reps <= 0.97


def _guilds(founded: list[float], founders_win: list[float], players: int = 400_000) -> dict:
    f = np.array(founded)
    n_f = np.maximum((f * players).astype(int), 1)
    w = np.array(founders_win)
    half = 1.96 * np.sqrt(w * (1 - w) / n_f)
    fh = 1.96 * np.sqrt(f * (1 - f) / players)
    return {"guild_types": pl.DataFrame({
        "card": ["bouffon", "pretre", "moine"], "card_name": ["Bouffon", "Prêtre", "Moine"],
        "founded_share": f, "founded_ci_low": f - fh, "founded_ci_high": f + fh, "players": [players] * 3,
        "founders": n_f, "founders_win_share": w, "founders_ci_low": w - half, "founders_ci_high": w + half})}


def test_a_share_of_almost_nobody_is_left_out_and_noise_is_ordered_by_z():
    base = _guilds([0.0003, 0.30, 0.35], [0.626, 0.354, 0.2657])
    after = _guilds([0.0003, 0.3002, 0.3495], [0.603, 0.3534, 0.2665])
    cmp = compare_tables(base, after)
    labels = cmp["label"].to_list()
    assert "Bouffon: founders' win share" not in labels      # both runs under 1 %: not shown at all
    z = np.abs(cmp["z"].to_numpy())
    assert (cmp["verdict"] == "not shown").all()
    assert list(z) == sorted(z, reverse=True)                # within noise: strongest evidence first


def _roles(seigneur: float, goal: float) -> dict:
    n = 20_000
    rows = lambda p: (p, p - 0.002, p + 0.002)  # noqa: E731
    seats = pl.DataFrame({"seat_label": ["Seat 1", "Seat 2"], "win_share": [seigneur, 1 - seigneur],
                          "ci_low": [rows(seigneur)[1], rows(1 - seigneur)[1]],
                          "ci_high": [rows(seigneur)[2], rows(1 - seigneur)[2]], "games": [n, n],
                          "mean_score": [36.0, 80.0], "score_ci_low": [35.5, 79.5], "score_ci_high": [36.5, 80.5]})
    roles = pl.DataFrame({"role": ["seigneur", "censitaire"], "role_label": ["Seigneur", "Censitaire"],
                          "win_share": [seigneur, 1 - seigneur], "ci_low": [rows(seigneur)[1], rows(1 - seigneur)[1]],
                          "ci_high": [rows(seigneur)[2], rows(1 - seigneur)[2]], "games": [n, n]})
    tests = pl.DataFrame({"balance": [0.65], "balance_low": [0.64], "balance_high": [0.66], "games": [n],
                          "win_share_balance": [0.6], "win_share_balance_low": [0.59],
                          "win_share_balance_high": [0.61]})
    ends = pl.DataFrame({"end_reason_name": ["seigneur_goal", "other"], "label": ["Seigneur goal", "Other"],
                         "share": [seigneur, goal], "ci_low": [seigneur - 0.002, goal - 0.002],
                         "ci_high": [seigneur + 0.002, goal + 0.002], "total": [n, n]})
    return {"seats": seats, "roles": roles, "seat_tests": tests, "end_reasons": ends}


def test_a_game_with_roles_tests_the_roles_number_once_and_no_seat_balance_index():
    cmp = compare_tables(_roles(0.0041, 0.3), _roles(0.00815, 0.31))
    metrics = list(zip(cmp["metric"].to_list(), cmp["key"].to_list()))
    assert ("role_win_share", "seigneur") in metrics
    assert ("seat_win_share", "Seat 1") not in metrics                 # the same number as the role's
    assert ("seat_win_share", "Seat 2") not in metrics                 # the Censitaire's number
    assert ("end_reason_share", "seigneur_goal") not in metrics        # the same number again
    assert ("role_win_share", "censitaire") not in metrics             # 100 % minus the Seigneur's
    assert ("end_reason_share", "other") in metrics                    # a different number: kept
    assert not {"balance", "win_share_balance"} & set(cmp["metric"].to_list())


def test_the_paired_paragraph_names_only_the_metrics_it_pairs():
    """rev22: the paragraph listed game length and end reasons for Middle-Ages, which records
    neither; it names the kinds the paired rows hold."""
    from reports.sections import _paired_words

    t = pl.DataFrame({"metric": ["seat_win_share", "seat_mean_score", "score_spread", "shared_wins",
                                 "count_share"], "key": ["Seat 1", "Seat 1", "all", "all", "reshuffles"]})
    assert _paired_words(t) == "seat win shares, mean scores, the winner's lead, shared wins and reshuffles"
    assert _paired_words(t.filter(pl.col("metric") == "seat_win_share")) == "seat win shares"


def test_a_count_the_same_in_every_game_of_both_runs_is_left_out():
    """rev22: at 4 players the shipped rules never reshuffle (at 3, exactly twice a game): a row
    that cannot move is left out of the tested family, with why."""
    from analysis.compare import _left_out

    def row(metric, est, lo, hi, est_v, lo_v, hi_v):
        # (revF #5: the rule reads every metric by its kind, so a row carries it)
        return {"metric": metric, "key": "reshuffles", "label": metric,
                "kind": "proportion" if metric == "count_share" else "mean", "estimate": est, "ci_low": lo,
                "ci_high": hi, "estimate_v": est_v, "ci_low_v": lo_v, "ci_high_v": hi_v, "n": 100, "n_v": 100}

    never = pl.DataFrame([row("count_share", 0.0, 0.0, 0.04, 0.0, 0.0, 0.04), row("count_mean", 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)])
    kept, dropped = _left_out(never, roles=False)
    assert kept.height == 0 and all("the same in every game of both runs" in why for _, why in dropped)
    twice = pl.DataFrame([row("count_share", 1.0, 0.96, 1.0, 1.0, 0.96, 1.0), row("count_mean", 2.0, 2.0, 2.0, 2.0, 2.0, 2.0)])
    assert _left_out(twice, roles=False)[0].height == 0
    moving = pl.DataFrame([row("count_share", 0.3, 0.2, 0.4, 0.4, 0.3, 0.5)])
    assert _left_out(moving, roles=False)[0].height == 1


@pytest.fixture(scope="module")
def same_winners(tmp_path_factory):
    """A paired before/after where every game has the same winner and lead in both runs (both seats'
    scores move together): (its comparison table, the per-game score changes of seat 1)."""
    (b, sb, _), (a, sa, _) = _pair(tmp_path_factory.mktemp("same"), same_winners=True)
    rs_b, rs_a = open_runs([b]), open_runs([a])
    return compare_runs(rs_b, rs_a, analyse(rs_b), analyse(rs_a)).table, (sa - sb)[:, 0].astype(float)


def test_a_paired_metric_where_no_game_differs_is_untested_with_its_bound_and_outside_the_family(same_winners):
    """Review N #8 for two runs: a side that won the very same games in both runs got the paired t
    interval "0.0 to 0.0 pp", p = 1, "within noise", and a seat in the Holm family, widening every
    other row's Bonferroni interval. Such a row is shown untested, with the bound the games put on a
    share's change (a mean gets none), and the family m holds only the rows with a test."""
    cmp, d = same_winners
    bound = sps.beta.ppf(0.95, 1, G)        # exact one-sided 95% upper bound on a chance seen 0 times in G
    for key in ("Seat 1", "Seat 2"):
        r = _row(cmp, "seat_win_share", key)
        assert r["paired"] and r["diff"] == 0 and r["same_games"] == G and not r["significant"]
        assert all(np.isnan(r[k]) for k in ("diff_low", "diff_high", "z", "p_value", "p_adjusted",
                                            "size_low", "size_high")), r
        assert r["change_at_most"] == pytest.approx(bound, rel=1e-9)
    shared = _row(cmp, "shared_wins", "all")           # a share of the games: bounded too
    assert shared["same_games"] == G and shared["change_at_most"] == pytest.approx(bound, rel=1e-9)
    lead = _row(cmp, "score_spread", "all")            # a mean: no game differs, no bound in its unit
    assert lead["same_games"] == G and np.isnan(lead["p_value"]) and np.isnan(lead["change_at_most"])
    # the family: the rows with a test, neither the Balance indices nor the rows where no game differs
    tested = cmp.filter(pl.col("p_value").is_not_nan())
    m = cmp.filter(pl.col("same_games").is_null() & (pl.col("kind") != "index")).height
    assert tested.height == m and m < cmp.height - 2
    # a tested paired row's size interval: its t interval at 1 − 0.05/m (Bonferroni over those m)
    r = _row(cmp, "seat_mean_score", "Seat 1")
    half = sps.t.ppf(1 - 0.05 / (2 * m), G - 1) * d.std(ddof=1) / np.sqrt(G)
    assert (r["size_low"], r["size_high"]) == pytest.approx((d.mean() - half, d.mean() + half), rel=1e-9)
    p, adj = tested["p_value"].to_numpy(), tested["p_adjusted"].to_numpy()
    assert adj[np.argmin(p)] == pytest.approx(min(1.0, m * p.min()), rel=1e-12)      # Holm's first step


def test_the_page_and_csv_name_a_row_where_no_game_differs_with_its_bound(same_winners):
    """The table, the seats' question, the count sentence, the caption and comparison.csv say that
    no game differs and what the games bound the change to, never "0.0 to 0.0 pp" or "within
    noise", and name such rows (not "the Balance indices") among the rows outside Holm's family."""
    from reports.build import comparison_csv
    from reports.sections import _comparison_caption, comparison_intro, comparison_rows
    from reports.text import comparison_headlines

    cmp, _ = same_winners
    at_most = f"at most {np.format_float_positional(100 * sps.beta.ppf(0.95, 1, G), 2, fractional=False)} pp"
    rows = comparison_rows(cmp, "coins")
    seat = rows.filter(pl.col("Metric") == "Seat 1 win share").row(0, named=True)
    assert f"no game of the {G} differs" in seat["95% interval of the change"]
    assert at_most in seat["95% interval of the change"] and seat["p (Holm-adjusted)"] == ""
    assert seat["Verdict"].startswith("not tested") and "noise" not in seat["Verdict"]
    lead = rows.filter(pl.col("Metric").str.starts_with("Winner's lead")).row(0, named=True)
    assert f"no game of the {G} differs" in lead["95% interval of the change"] and " pp" not in lead["95% interval of the change"]
    question, count = comparison_headlines(cmp, "before", "after", "coins")[:2]
    assert "No:" in question and "no game differs" in question and at_most.replace("at most ", "") in question
    assert "0.0 to 0.0" not in question and "noise" not in question
    m = int(cmp["p_value"].is_not_nan().sum())
    same = int(cmp["same_games"].is_not_null().sum())
    assert f"of the {m} tested metrics" in count and f"Holm over the {m};" in count
    assert f"{same} metrics where no game differs between the runs" in count
    assert f"{same} metrics where no game of the {G} differs" in comparison_intro(cmp)
    caption = _comparison_caption(cmp, "coins")
    assert "no game differs" in caption and "largest change" not in caption
    csv = pl.read_csv(comparison_csv("before", [("after", cmp, None)]).encode())
    line = csv.filter((pl.col("metric") == "seat_win_share") & (pl.col("key") == "Seat 1")).row(0, named=True)
    assert line["same_games"] == G and line["verdict"] is None and line["diff_low"] is None
    assert line["change_at_most"] == pytest.approx(sps.beta.ppf(0.95, 1, G), rel=1e-9)
