"""A Médiévallons page prints the run's Seat 1 one way (session 63), as every page prints a seat's
headline and its table row alike since session 62. A 3-player run (``simulate --game medievallons
-p 3 -n 1000 --seed 1``, ``balance report --questions-games 60``) said "Seat 1 wins most (36.20%,
+2.87 pp)" in its seat caption and Seats table, while the first-player row and sentence taken from
the run said "36.2% (33.3–39.2) … +2.9 pp" and the first-player figure labelled it "36.2%". The rows
from the run now print the seat's share, interval and gap at the Seats table's decimals
(:func:`reports.text.seat_digits`). Built from tables made here (no run is simulated)."""

from __future__ import annotations

import re
from types import SimpleNamespace

import numpy as np
import polars as pl

from analysis import stats
from reports.games import medievallons as MV
from reports.sections import seat_rows
from reports.text import seat_gap, seat_share

GAMES = 1000
SHARES = (0.362, 0.318, 0.320)      # the run's seats: 36.20% needs 2 decimals (its interval's low end
#                                     33.3x prints as the fair 33.3 at one)


def _seats() -> pl.DataFrame:
    lo, hi = stats.wilson(np.array(SHARES) * GAMES, np.full(3, GAMES))
    return pl.DataFrame({
        "seat": [0, 1, 2], "seat_label": ["Seat 1", "Seat 2", "Seat 3"], "games": [GAMES] * 3,
        "win_share": list(SHARES), "win_share_sd": [(p * (1 - p)) ** 0.5 for p in SHARES],
        "fair_share": [1 / 3] * 3, "diff": [p - 1 / 3 for p in SHARES],
        "ci_low": np.asarray(lo, float), "ci_high": np.asarray(hi, float), "smallest": [0.01] * 3,
        "verdict": [stats.NOT_SHOWN] * 3, "mean_score": [10.0] * 3, "score_ci_low": [9.5] * 3,
        "score_ci_high": [10.5] * 3, "mean_rank": [2.0] * 3})


def _played() -> pl.DataFrame:
    rows = []
    for players in (2, 3, 4):
        for seat in range(players):
            p, n = 1 / players + (0.02 if seat == 0 else 0.0), 60
            se = (p * (1 - p) / n) ** 0.5
            rows.append(dict(players=players, seat=seat, games=n, win_share=p, std_error=se, fair=1 / players,
                             advantage=p - 1 / players, z=(p - 1 / players) / se))
    return pl.DataFrame(rows)


def _page():
    t = {"seats": _seats()}
    fp = MV.with_run_first_player(_played(), t, SimpleNamespace(n_players=3))
    seat1 = t["seats"].row(0, named=True)
    table = seat_rows(t).row(0, named=True)
    return t, fp, seat1, table


def test_s63_the_runs_first_player_row_prints_seat_1_as_the_seats_table_does():
    _, fp, seat1, table = _page()
    share, gap = table["Win share (95% interval, unadjusted)"], table["vs fair share (pp)"]
    assert share.startswith(seat_share(seat1) + " (") and gap == seat_gap(seat1), (share, gap)
    assert share.startswith("36.20% ") and gap == "+2.87 pp", (share, gap)       # the page's case
    rows = MV._first_player_rows(fp)
    mine = rows.filter((pl.col("Players") == 3) & (pl.col("Seat") == "Seat 1")).row(0, named=True)
    assert (mine["Win share"], mine["vs fair share (pp)"]) == (share, gap), mine
    # every seat of the run, as the Seats table prints it
    run, seats = rows.filter(pl.col("Players") == 3), seat_rows({"seats": _seats()})
    assert run["Win share"].to_list() == seats["Win share (95% interval, unadjusted)"].to_list()
    assert run["vs fair share (pp)"].to_list() == seats["vs fair share (pp)"].to_list()


def test_s63_the_runs_first_player_sentence_prints_seat_1_as_the_seats_table_does():
    t, fp, _, table = _page()
    fair = MV.fair_by_count(fp, 0.01, t["seats"], 3)
    line = next(x for x in MV.first_player_sentences(fp, 0.01, fair) if x.startswith("3 players"))
    m = re.search(r"wins (.+?) \(95%, unadjusted\).*?against a fair [\d.]+%: (\S+ pp),", line)
    assert m and m.groups() == (table["Win share (95% interval, unadjusted)"], table["vs fair share (pp)"]), line


def test_s63_the_first_player_figure_labels_the_runs_seat_1_as_the_seats_table_does():
    _, fp, seat1, _ = _page()
    fig = MV.F.played_first_player(fp)
    labels = [x.get_text() for x in fig.axes[0].texts]
    assert labels[1] == seat_share(seat1) == "36.20%", labels        # counts 2, 3, 4: the run's is the second
    assert labels[0] == "52.0%", labels                                 # a played count keeps its own decimals


def test_s63_the_counting_wins_headline_prints_seat_1_as_the_seats_table_does():
    # the seat headlines' last sentence gives Seat 1's share where no seat line did ("... and Seat 1
    # wins 36.2% (33.3–39.2)." above the Seats table's "36.20% (33.28–39.23)")
    from reports.text import seat_headlines

    seats = _seats()
    lo, hi = stats.wilson(SHARES[0] * GAMES, GAMES)
    t = {"seats": seats, "seat_tests": pl.DataFrame({
        "chi2": [4.6], "dof": [2], "p_value": [0.1], "seats_differ": [False], "balance": [0.95],
        "balance_low": [0.9], "balance_high": [1.0], "advantage_p1": [0.52], "advantage_p1_low": [0.5],
        "advantage_p1_high": [0.54], "win_share_balance": [0.947], "win_share_balance_low": [0.886],
        "win_share_balance_high": [1.0], "first_seat_win_share": [SHARES[0]],
        "first_seat_win_share_low": [float(lo)], "first_seat_win_share_high": [float(hi)]})}
    share = seat_rows(t)["Win share (95% interval, unadjusted)"][0]
    last = seat_headlines(t)[-1]
    assert last.startswith("Counting wins only") and last.endswith(f" and Seat 1 wins {share}."), (last, share)
