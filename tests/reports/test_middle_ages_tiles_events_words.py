"""revD #1, #3, #4, #5, #15: the Middle-Ages tile and event sections say what their numbers show
(built on small hand-made tables: no run needed)."""

from __future__ import annotations

import polars as pl

from reports.figures import middle_ages as F
from reports.games import middle_ages as M


def _summary(**over):
    rows = {"tile": ["eglise", "marche"], "tile_name": ["Église", "Marché"], "slope": [0.005, -0.026],
            "slope_ci_low": [0.004, -0.027], "slope_ci_high": [0.006, -0.025], "slope_se_by": ["game"] * 2,
            "spread": [0.14, 0.13], "linear_fit": [0.06, 0.98], "low_tiles": [3, 5], "low_share": [0.221, 0.145],
            "high_tiles": [6, 0], "high_share": [0.359, 0.276]}
    rows.update(over)
    return pl.DataFrame(rows)


def test_a_bent_tile_curve_is_not_summed_up_by_its_slope():
    lines = M.tile_headlines({"tile_summary": _summary()})
    assert lines[0].startswith("Under these bots, the number of Église tiles held at the end goes with "
                               "the widest range of win share: 22.1% at 3 tiles to 35.9% at 6 tiles "
                               "(not a straight line)")
    # (the range is the printed highest minus the printed lowest, 35.9 − 22.1: session 56)
    assert "Église 13.8 pp" in lines[1] and lines[1].index("Église") < lines[1].index("Marché")
    assert "only Marché's curve" in lines[2] and "Église bend" in lines[2]
    assert not any("weakest" in x for x in lines)


def test_domain_mixes_the_data_cannot_separate_are_named_together():
    dp = pl.DataFrame({"pair": ["Rempart + Caserne", "Moulin + Caserne", "Caserne + Église"],
                       "win_share": [0.430, 0.427, 0.389], "ci_low": [0.424, 0.422, 0.384],
                       "ci_high": [0.435, 0.432, 0.395], "lift": [1.72, 1.71, 1.56],
                       "share_of_wins": [0.07, 0.08, 0.068], "share_of_players": [0.041, 0.047, 0.044]})
    line = M.domain_headline(dp)
    assert "Rempart + Caserne" in line and "Moulin + Caserne" in line and "Caserne + Église" not in line
    assert "not clearly different" in line and "unadjusted" in line
    alone = M.domain_headline(dp.filter(pl.col("pair") != "Moulin + Caserne"))
    assert alone.startswith("The Domain mix that goes with winning most is Rempart + Caserne") and "unadjusted" in alone


def _events():
    return pl.DataFrame({"event": [14, 3, 12, 8], "event_name": ["D", "A", "S", "C"], "slot": [0] * 4,
                         "games": [10] * 4, "mean_gain": [0.0, 0.0, 8.8, 0.0], "gain_ci_low": [0.0, 0.0, 8.7, 0.0],
                         "gain_ci_high": [0.0, 0.0, 8.9, 0.0], "mean_spread": [0.0, 0.0, 3.92, 0.0],
                         "spread_ci_low": [0.0, 0.0, 3.90, 0.0], "spread_ci_high": [0.0, 0.0, 3.94, 0.0],
                         "leader_change": [float("nan"), float("nan"), 0.096, float("nan")],
                         "leader_change_ci_low": [float("nan"), float("nan"), 0.094, float("nan")],
                         "leader_change_ci_high": [float("nan"), float("nan"), 0.099, float("nan")],
                         "top_gainer_games": [0, 0, 29148, 0],
                         "top_gainer_win_share": [float("nan"), float("nan"), 0.354, float("nan")],
                         "top_gainer_ci_low": [float("nan"), float("nan"), 0.348, float("nan")],
                         "top_gainer_ci_high": [float("nan"), float("nan"), 0.359, float("nan")]})


def test_event_table_defines_its_columns_and_keeps_one_card_order():
    t = {"events": _events()}
    rows = M._event_rows(t)
    assert rows["Event"].to_list() == ["S (12)", "A (3)", "C (8)", "D (14)"]
    assert rows["Spread between players (coins)"][0] == "3.92 (3.90–3.94)"
    assert rows["Games with a single biggest gainer"][0] == "29,148"
    note = M._event_note(t)
    assert "largest minus the smallest coin gain" in note and "single biggest gainer" in note
    assert "Blank cells: A (3), C (8) and D (14)" in note
    bars = F.event_impact(t).axes[0]
    assert [x.get_text() for x in bars.get_yticklabels()][::-1] == rows["Event"].to_list()   # top down


def test_event_seat_table_has_a_verdict_and_an_unadjusted_interval_that_does_not_wrap():
    es = pl.DataFrame({"event_name": ["Métiers qualifiés", "Alliance"], "seat_label": ["Seat 2", "Seat 4"],
                       "win_share_with": [0.252, 0.271], "with_ci_low": [0.249, 0.268], "with_ci_high": [0.256, 0.275],
                       "win_share_without": [0.245, 0.242], "without_ci_low": [0.243, 0.240],
                       "without_ci_high": [0.248, 0.244], "diff": [0.007, 0.029], "diff_low": [0.003, 0.025],
                       "diff_high": [0.011, 0.034], "p_adjusted": [0.041, 1e-9], "significant": [True, True],
                       "verdict": ["clear but small", "clear and large enough to matter"]})
    rows = M._event_seat_rows({"event_seats": es}, 0.01)
    verdict = "Verdict (Holm over every card and seat; 1 pp matters)"
    assert rows[verdict].to_list() == ["clear and large enough to matter", "clear but small"]
    change = rows["Change (pp, 95% interval, unadjusted)"][0]
    assert change.endswith("\u00a0pp)") and " pp" not in change


def test_the_tile_text_says_how_this_runs_slope_interval_was_made():
    # revF #8: "clustered by game" was said of a run whose intervals treat player rows as independent
    clustered = M.tile_section_text({"tile_summary": _summary()})
    assert "its interval clustered by game" in clustered and "independent, a little too narrow" not in clustered
    rows = M.tile_section_text({"tile_summary": _summary(slope_se_by=["player rows"] * 2)})
    assert "clustered by game:" not in rows and "treats the player rows as independent" in rows
