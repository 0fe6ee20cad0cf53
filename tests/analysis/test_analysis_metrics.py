"""Every metric on the hand-worked 4-game run of conftest.HAND, answers computed by hand."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from analysis_runs import HAND, HAND_GAMES, wilson_ref, write_run

from analysis import analyse, events, matchups, open_runs, seats, tiles

Z = 1.959963984540054
T3 = 3.182446305283708   # t(3, 0.975)
T2 = 4.302652729749462   # t(2, 0.975)


def wilson(s, n):
    return wilson_ref(s, n)            # the score interval with exact Poisson ends


@pytest.fixture
def rs(hand_run):
    return open_runs([hand_run])


# -- seats ------------------------------------------------------------------------------------

def test_seat_win_shares_and_wilson_intervals(rs):
    t = seats.seat_table(rs)
    assert t["seat_label"].to_list() == ["Seat 1", "Seat 2"]
    # Seat 1: 1 + ½ + 0 + 1 = 2.5 of 4 games; Seat 2: 1.5 of 4.
    assert t["win_share"].to_list() == pytest.approx([0.625, 0.375])
    assert t["ci_low"][0] == pytest.approx(0.2194265, abs=1e-6)
    # 1.5 losses of 4 games (n <= 50, at most 2): the upper end is the exact Poisson one
    # (Brown, Cai & DasGupta 2001), 1 - chi2(3; 0.025) / 2 / 4, not the score interval's 0.9081008
    from scipy.stats import chi2
    assert t["ci_high"][0] == pytest.approx(1 - chi2.ppf(0.025, 3) / 2 / 4, abs=1e-9)
    assert t["diff"].to_list() == pytest.approx([0.125, -0.125])
    assert t["significant"].to_list() == [False, False]
    # Mean score of seat 1: (10 + 7 + 3 + 12) / 4 = 8.
    assert t["mean_score"][0] == pytest.approx(8.0)
    assert t["mean_rank"].to_list() == pytest.approx([1.25, 1.5])


def test_chi_square_balance_and_advantage_p1(rs):
    r = seats.seat_tests(rs).row(0, named=True)
    # O = (2.5, 1.5), E = 2: (0.25 + 0.25) / 2 = 0.25 on 1 degree of freedom.
    assert r["chi2"] == pytest.approx(0.25)
    assert r["dof"] == 1
    assert r["p_value"] == pytest.approx(0.6170751, abs=1e-6)
    assert not r["seats_differ"]
    # Two players: Ludii's credit 1 − (place − 1)/(n − 1) is 1, ½ (tie: mean place 1.5), 0 — the win share.
    assert r["balance"] == pytest.approx(0.75)          # 1 − (0.625 − 0.375)
    assert r["win_share_balance"] == pytest.approx(0.75)
    assert r["advantage_p1"] == pytest.approx(0.625)
    # Seat 1's credits 1, ½, 0, 1: sd² = (0.375² + 0.125² + 0.625² + 0.375²) / 3; t interval, clipped to [0, 1]
    sd = np.sqrt((0.375 ** 2 + 0.125 ** 2 + 0.625 ** 2 + 0.375 ** 2) / 3)
    assert r["advantage_p1_low"] == pytest.approx(max(0.0, 0.625 - T3 * sd / 2))
    assert r["advantage_p1_high"] == pytest.approx(1.0)
    assert r["first_seat_win_share"] == pytest.approx(0.625)
    assert (r["first_seat_win_share_low"], r["first_seat_win_share_high"]) == pytest.approx(wilson(2.5, 4))
    # One gap (seat 1 − seat 2 = 2w − 1): 0.25 ± 1.96 · 2 · sd / 2 → [−0.69, 1.19], so |gap| ∈ [0, 1.19]
    assert 0.25 + Z * sd > 1 and 0.25 - Z * sd < 0
    assert (r["balance_low"], r["balance_high"]) == (0.0, 1.0)
    assert (r["best_seat"], r["worst_seat"]) == (0, 1)


def test_ludii_credit_by_hand():
    # places 1..4 → 1, 2/3, 1/3, 0; two tied first share places 1 and 2 (mean 1.5 → 1 − 0.5/3);
    # three tied second share places 2–4 (mean 3 → 1/3); four tied all get mean place 2.5 → ½.
    rank = np.array([[1, 2, 3, 4], [1, 1, 3, 4], [2, 1, 2, 2], [1, 1, 1, 1], [4, 3, 2, 1]], np.int8)
    want = [[1, 2 / 3, 1 / 3, 0], [5 / 6, 5 / 6, 1 / 3, 0], [1 / 3, 1, 1 / 3, 1 / 3], [0.5] * 4, [0, 1 / 3, 2 / 3, 1]]
    assert seats.ludii_credit(rank) == pytest.approx(np.array(want))


def test_ludii_metrics_use_places_where_win_shares_use_winners_only(tmp_path):
    # 3 players, 3 games: seat 1 is always second, seat 2 always first, seat 3 always last.
    rows = [(g, s, ["A"] * 3, score, win, rank) for g in range(3)
            for s, score, win, rank in ((0, 5, 0.0, 2), (1, 9, 1.0, 1), (2, 1, 0.0, 3))]
    from analysis_runs import write_run

    cols = {"game": [r[0] for r in rows], "seat": [r[1] for r in rows], "strategy": ["A"] * 9,
            "score": [r[3] for r in rows], "win_share": [r[4] for r in rows], "rank": [r[5] for r in rows]}
    run = write_run(tmp_path / "three", cols, {"game": [0, 1, 2], "n_players": [3, 3, 3]})
    r = seats.seat_tests(open_runs([run])).row(0, named=True)
    assert r["advantage_p1"] == pytest.approx(0.5)            # second of three: 1 − 1/2
    assert r["first_seat_win_share"] == pytest.approx(0.0)
    assert r["balance"] == pytest.approx(0.0)                 # 1 − (1 − 0)
    assert r["win_share_balance"] == pytest.approx(0.0)


def test_balance_interval_holds_a_fair_game_and_shrinks_with_games(tmp_path):
    from analysis_runs import synthetic_run

    rs = open_runs([synthetic_run(tmp_path / "r", 20_000, 4, seed=5, seat_edge=0.0)])
    r = seats.seat_tests(rs).row(0, named=True)
    assert r["balance_low"] < r["balance"] <= r["balance_high"] <= 1.0
    assert r["win_share_balance_low"] < r["win_share_balance"] <= r["win_share_balance_high"]
    assert r["balance"] > 0.95


# -- outcome shape ----------------------------------------------------------------------------

def test_shared_wins_spread_lead_changes_and_leader_wins(rs):
    o = {r["metric"]: r for r in seats.outcome_table(rs).iter_rows(named=True)}
    assert o["shared_wins"]["estimate"] == pytest.approx(0.25)         # game 1 only
    assert (o["shared_wins"]["ci_low"], o["shared_wins"]["ci_high"]) == pytest.approx(wilson(1, 4))
    # Spreads 5, 0, 6, 10: mean 5.25, sd 4.112988, t(3) interval.
    s = o["score_spread"]
    assert s["estimate"] == pytest.approx(5.25)
    half = T3 * 4.112987559751022 / 2
    assert (s["ci_low"], s["ci_high"]) == pytest.approx((5.25 - half, 5.25 + half))
    # Sole leaders per checkpoint: game 0: 0, 1, tie, 0 → 2 changes; game 3: 1, 0, 0, 0 → 1; others 0.
    lc = o["lead_changes"]
    assert lc["estimate"] == pytest.approx(0.75)
    half = T3 * 0.9574271077563381 / 2
    assert (lc["ci_low"], lc["ci_high"]) == pytest.approx((0.75 - half, 0.75 + half))
    # Leader before event 1: game 0 seat 1 (wins), game 1 seat 1 (½), game 3 seat 2 (loses); game 2 tied.
    assert o["leader_wins_event_1"]["estimate"] == pytest.approx(0.5)
    assert o["leader_wins_event_1"]["n"] == 3
    assert o["leader_wins_event_4"]["estimate"] == pytest.approx(2.5 / 3)
    counts = seats.lead_change_counts(rs)
    assert counts["games"].to_list() == [2, 1, 1, 0]
    spread = seats.spread_counts(rs)
    assert spread.filter(pl.col("games") > 0)["spread"].to_list() == [0, 5, 6, 10]


def test_flow_table_means_by_final_rank(rs):
    f = seats.flow_table(rs)
    # Rank 2 players: g0 seat 2, g2 seat 1, g3 seat 2 → coins before event 1: 3, 2, 1.
    r = f.filter((pl.col("checkpoint") == 1) & (pl.col("rank") == 2)).row(0, named=True)
    assert r["mean_coins"] == pytest.approx(2.0)
    assert r["players"] == 3
    end = f.filter((pl.col("label") == "Final score") & (pl.col("rank") == 2)).row(0, named=True)
    assert end["mean_coins"] == pytest.approx((5 + 3 + 2) / 3)


def test_score_distribution_per_seat_and_strategy(rs):
    d = seats.score_distribution(rs, "seat")
    assert d.filter(pl.col("group") == "Seat 1")["score"].to_list() == [3, 7, 10, 12]
    assert d.filter(pl.col("group") == "Seat 1")["share"].sum() == pytest.approx(1.0)
    d = seats.score_distribution(rs, "strategy")
    assert d.filter(pl.col("group") == "B")["players"].sum() == 3


# -- events -----------------------------------------------------------------------------------

def test_event_impact_pooled_over_slots(rs):
    ev = events.event_impact(rs)
    r = ev.filter((pl.col("event") == 0) & (pl.col("slot") == 0)).row(0, named=True)
    assert r["event_name"] == "Métiers qualifiés"
    # Event 0 fires in game 0 (slot 1, gains 2, 0), game 1 (slot 2, gains 0, 2), game 2 (slot 1, 0, 0).
    assert r["games"] == 3
    assert r["mean_gain"] == pytest.approx(2 / 3)                       # per-game means 1, 1, 0
    half = T2 * 0.5773502691896258 / np.sqrt(3)
    assert (r["gain_ci_low"], r["gain_ci_high"]) == pytest.approx((2 / 3 - half, 2 / 3 + half))
    assert r["mean_spread"] == pytest.approx(4 / 3)                     # spreads 2, 2, 0
    # Leader before → after: g0 seat 1 → seat 1; g1 seat 1 → seat 2 (change); g2 tie → tie.
    assert r["leader_change"] == pytest.approx(1 / 3)
    assert (r["leader_change_ci_low"], r["leader_change_ci_high"]) == pytest.approx(wilson(1, 3))
    # Biggest gainer: g0 seat 1 (wins), g1 seat 2 (½); g2 has no single biggest gainer.
    assert r["top_gainer_games"] == 2
    assert r["top_gainer_win_share"] == pytest.approx(0.75)
    assert r["fair_share"] == pytest.approx(0.5)


def test_event_impact_per_slot_and_fallback_names(rs):
    ev = events.event_impact(rs)
    slot1 = ev.filter((pl.col("event") == 0) & (pl.col("slot") == 1)).row(0, named=True)
    assert slot1["games"] == 2 and slot1["turn"] == 4
    assert slot1["mean_gain"] == pytest.approx(0.5)                     # games 0 and 2
    assert ev.filter(pl.col("event") == 5)["event_name"][0] == "Event 5"  # no name in run.json
    assert set(ev["slot"].to_list()) == {0, 1, 2, 3, 4}


def test_event_names_come_from_rules_text_when_run_json_has_none(tmp_path):
    text = ('[[events]]\nid = 0\nname = "Métiers qualifiés"\n\n'
            '[[events]]\nid = 5\nname = "Nouvelles défenses"\n')
    rs = open_runs([write_run(tmp_path / "r", HAND, HAND_GAMES, rules_text=text)])
    names = dict(events.event_impact(rs).select("event", "event_name").unique().iter_rows())
    assert names[0] == "Métiers qualifiés" and names[5] == "Nouvelles défenses" and names[1] == "Event 1"


def test_seat_win_share_with_and_without_a_card(rs):
    t = events.event_seat_table(rs)
    r = t.filter((pl.col("event") == 0) & (pl.col("seat") == 0)).row(0, named=True)
    # With event 0 (games 0, 1, 2) seat 1 wins 1 + ½ + 0 of 3; without (game 3) 1 of 1.
    assert (r["games_with"], r["games_without"]) == (3, 1)
    assert r["win_share_with"] == pytest.approx(0.5)
    assert r["win_share_without"] == pytest.approx(1.0)
    assert r["diff"] == pytest.approx(-0.5)
    assert r["diff_low"] < r["diff"] < r["diff_high"]
    assert r["p_adjusted"] >= r["p_value"]


# -- tiles ------------------------------------------------------------------------------------

def test_tile_impact_by_count(rs):
    t = tiles.tile_impact(rs).filter(pl.col("tile") == "palais")
    # Palais 0: 3 players, 0 wins; 1: 3 players, 2 wins; 2: 2 players, 2 wins.
    assert t["tiles"].to_list() == [0, 1, 2]
    assert t["players"].to_list() == [3, 3, 2]
    assert t["win_share"].to_list() == pytest.approx([0.0, 2 / 3, 1.0])
    assert (t["ci_low"][1], t["ci_high"][1]) == pytest.approx(wilson(2, 3))
    assert t["tile_name"][0] == "Palais"


def test_tile_summary_slope_and_winner_means(rs):
    r = tiles.tile_summary(rs).filter(pl.col("tile") == "palais").row(0, named=True)
    # x = palais, y = win share: Sxx = 11 − 49/8 = 4.875, Sxy = 6 − 7·4/8 = 2.5, slope = 20/39.
    assert r["slope"] == pytest.approx(20 / 39)
    assert r["mean_tiles"] == pytest.approx(7 / 8)
    assert r["winner_mean_tiles"] == pytest.approx(1.5)                 # Σ w·x / Σ w = 6 / 4
    assert r["slope_ci_low"] < r["slope"] < r["slope_ci_high"]
    ref = np.polyfit(np.array(HAND["tiles_palais"], float), np.array(HAND["win_share"], float), 1)[0]
    assert r["slope"] == pytest.approx(ref)


def test_domain_pairs_by_hand(rs):
    d = {r["pair"]: r for r in tiles.domain_pairs(rs).iter_rows(named=True)}
    # Champs + Palais: g0 seat 1, g1 both (tie → both types), g3 seat 1: 4 players, 3 wins.
    pair = d["Champs + Palais"]
    assert pair["players"] == 4 and pair["win_share"] == pytest.approx(0.75)
    assert pair["share_of_players"] == pytest.approx(0.5) and pair["share_of_wins"] == pytest.approx(0.75)
    assert pair["lift"] == pytest.approx(1.5)
    assert d["Champs only"]["players"] == 3 and d["Champs only"]["win_share"] == 0
    assert d["Palais only"]["players"] == 1 and d["Palais only"]["win_share"] == 1


# -- matchups ---------------------------------------------------------------------------------

def test_strategy_and_matchup_tables_by_hand(rs):
    st = {r["strategy"]: r for r in matchups.strategy_table(rs).iter_rows(named=True)}
    # A: 5 player rows in 4 games, on both seats of game 2; its share per game (the mean of its
    # seats') 1, ½, ½, 1: 0.75, with Wilson's interval at those 4 means' effective games (review
    # s62 #1; review s60: it was the row share 3.5 / 5 with Wilson's interval over the rows, as if
    # game 2's seats were independent). B: one seat a game, 3 games winning ½: Wilson's.
    from analysis.stats import share_mean_wilson

    assert st["A"]["win_share"] == pytest.approx(0.75) and st["A"]["players"] == 5
    assert st["A"]["units"] == 4
    lo, hi = share_mean_wilson(0.75, np.std([1, 0.5, 0.5, 1], ddof=1), 4)
    assert (st["A"]["ci_low"], st["A"]["ci_high"]) == pytest.approx((float(lo), float(hi)))
    assert 0.0 < float(lo) < 0.75 < float(hi) < 1.0
    assert st["B"]["win_share"] == pytest.approx(0.5 / 3) and st["B"]["units"] == 3
    assert (st["B"]["ci_low"], st["B"]["ci_high"]) == pytest.approx(wilson(0.5, 3))
    assert not st["A"]["confounded"] and not st["A"]["paired"]
    m = {(r["strategy"], r["opponent"]): r for r in matchups.matchup_table(rs).iter_rows(named=True)}
    # A meets B in games 0 (A ahead), 1 (tie: ½) and 3 (A ahead). A is not on one seat of every
    # game it plays, so the interval is Wilson's at the three meetings' values' effective games
    # (the plain Wilson interval is kept for two bots that each hold one seat of every game)
    ab = m[("A", "B")]
    assert ab["meetings"] == 3
    assert ab["ahead_share"] == pytest.approx(2.5 / 3)
    lo, hi = share_mean_wilson(2.5 / 3, np.std([1, 0.5, 1], ddof=1), 3)
    assert (ab["ci_low"], ab["ci_high"]) == pytest.approx((float(lo), float(hi)))
    assert ab["win_share"] == pytest.approx(2.5 / 3)
    assert m[("B", "A")]["ahead_share"] == pytest.approx(0.5 / 3)


def test_rotated_seats_are_paired_by_deal(tmp_path):
    # 3 deals × 2 rotations; A's result per deal: (1 + 0)/2, (1 + 1)/2, (½ + 1)/2 → 0.5, 1, 0.75.
    players = {
        "game": [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5], "seat": [0, 1] * 6,
        "strategy": ["A", "B", "B", "A"] * 3,
        "rank": [1, 2, 1, 2, 1, 2, 2, 1, 1, 1, 2, 1],
        "win_share": [1, 0, 1, 0, 1, 0, 0, 1, 0.5, 0.5, 0, 1],
        "score": [5, 3, 5, 3, 5, 3, 3, 5, 4, 4, 3, 5],
        "deal": [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2], "rotation": [0, 0, 1, 1] * 3,
    }
    rs = open_runs([write_run(tmp_path / "rot", players, strategies=["A", "B"])])
    assert rs.cluster == "deal"
    m = {(r["strategy"], r["opponent"]): r for r in matchups.matchup_table(rs).iter_rows(named=True)}
    ab = m[("A", "B")]
    # the 6 games the two met, over 3 deals (review s61 fix 260 #3: meetings counted the deals)
    assert ab["paired"] and ab["meetings"] == 6 and ab["units"] == 3
    assert ab["ahead_share"] == pytest.approx(0.75)
    # (a share: Wilson's at the deals' effective games, in [0, 1], review s62 #1; the t interval
    # reached 1.37, review W #1)
    from analysis.stats import share_mean_wilson
    lo, hi = share_mean_wilson(0.75, 0.25, 3)
    assert (ab["ci_low"], ab["ci_high"]) == pytest.approx((float(lo), float(hi)))
    assert 0.0 < float(lo) < 0.75 < float(hi) < 1.0
    st = {r["strategy"]: r for r in matchups.strategy_table(rs).iter_rows(named=True)}
    assert st["A"]["units"] == 3 and st["A"]["win_share"] == pytest.approx(0.75)


def test_strategies_tied_to_seats_are_flagged_confounded(tmp_path):
    from analysis_runs import synthetic_run

    rs = open_runs([synthetic_run(tmp_path / "r", 500, 4, strategies=["a", "b", "a", "b"])])
    assert matchups.strategy_table(rs)["confounded"].all()
    rs = open_runs([synthetic_run(tmp_path / "rot", 500, 4, strategies=["a", "b", "a", "b"], rotate=True)])
    t = matchups.strategy_table(rs)
    assert t["paired"].all() and not t["confounded"].any()


def test_analyse_returns_every_applicable_table(rs):
    t = analyse(rs)
    assert set(t) == {"seats", "seat_tests", "outcomes", "spread_counts", "lead_changes", "flow",
                      "scores_by_seat", "scores_by_strategy", "events", "event_seats", "tiles",
                      "tile_summary", "domain_pairs", "strategies", "matchups", "score_pairs"}
