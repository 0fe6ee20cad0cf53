"""The fair share is printed one way in Figure 1's caption and in the seat headlines' verdict
words (review s61 fix 266 #2: a rotated Middle-Ages run's caption read "Seat 2 wins most (26.2%,
+1.2 pp) and Seat 4 least (24.25%, −0.75 pp) against a fair 25.00%: … clearly off the fair 25.0%";
at 3 players "against a fair 33.33%; … differ from the fair 33.3% by at most 0.45 pp", where
33.3 + 0.45 is not the printed 33.78%). Every sentence that names several seats' gaps prints the
fair share with :func:`reports.text.seats_fair`: at one decimal where that is the fair share
exactly (25.0%), else at the most decimals any seat's headline prints it with
(:func:`reports.text.seat_digits`: 33.33%). The tables are the reviewer's runs, as in
test_s61_seat_gap_one_formatter.py (copied here so that the test plays no game)."""

from __future__ import annotations

import re

import polars as pl
import pytest

from reports.sections import _seat_caption, side_by_side_sentences
from reports.text import seat_headlines

ROT = {"seat": [0, 1, 2, 3], "seat_label": ["Seat 1", "Seat 2", "Seat 3", "Seat 4"], "games": [20000] * 4,
       "win_share": [0.24945, 0.26205, 0.246, 0.2425],
       "ci_low": [0.24469066685404567, 0.25739197288524535, 0.24151687416150633, 0.23744638467259813],
       "ci_high": [0.25427074060604005, 0.2667620422907602, 0.2505388552583751, 0.24762624505127664],
       "fair_share": [0.25] * 4,
       "diff": [-0.0005499999999999949, 0.012050000000000005, -0.0040000000000000036, -0.007500000000000007],
       "win_share_sd": [0.3456482092198763, 0.33807107005729126, 0.32551066255698546, 0.3672900494106521],
       "p_value": [0.8219547445732587, 4.637424829412275e-07, 0.08223902378740355, 0.0038794656950894607],
       "significant": [False, True, False, True],
       "verdict": ["not shown", "clear, may matter", "not shown", "clear, may matter"], "smallest": [0.01] * 4,
       "mean_score": [104.52, 105.18, 104.77, 103.54]}
ROT_TESTS = {"games": 20000, "chi2": 25.567397265965916, "dof": 3, "p_value": 1.1748425099642855e-05,
             "seats_differ": True, "balance": 0.98725, "balance_low": 0.980716550261471,
             "balance_high": 0.9937834497385291, "advantage_p1": 0.4998166666666667,
             "advantage_p1_low": 0.49693643564928297, "advantage_p1_high": 0.5026968976840505}
R3 = {"seat": [0, 1, 2], "seat_label": ["Seat 1", "Seat 2", "Seat 3"], "games": [10000] * 3,
      "win_share": [0.3331, 0.3291, 0.3378],
      "ci_low": [0.32392790011081196, 0.319957556474102, 0.32859400959708773],
      "ci_high": [0.34240027854531985, 0.33837369416899515, 0.34713055947435967],
      "fair_share": [1 / 3] * 3,
      "diff": [-0.00023333333333330764, -0.004233333333333311, 0.004466666666666674],
      "win_share_sd": [0.47134552788868816, 0.4699098546818876, 0.47298364808218823],
      "p_value": [0.9605179127791871, 0.36765105851371915, 0.34498589963245885],
      "significant": [False] * 3, "verdict": ["not shown"] * 3, "smallest": [0.01] * 3,
      "mean_score": [50.0, 51.0, 52.0]}
R3_TESTS = {"games": 10000, "chi2": 1.1378, "dof": 2, "p_value": 0.5661478589504838, "seats_differ": False,
            "balance": 0.99855, "balance_low": 0.9820314338186208, "balance_high": 1.0,
            "advantage_p1": 0.5005, "advantage_p1_low": 0.49250592573019103,
            "advantage_p1_high": 0.5084940742698089}

FAIR = r"(?:against a|the) fair (\d+\.\d+)%"


def _table(seats, tests):
    return {"seats": pl.DataFrame(seats), "seat_tests": pl.DataFrame([tests])}


@pytest.mark.parametrize("seats, tests, fair", [(ROT, ROT_TESTS, "25.0"), (R3, R3_TESTS, "33.33")])
def test_figure_1_caption_prints_the_fair_share_one_way(seats, tests, fair):
    caption = _seat_caption(_table(seats, tests))
    assert set(re.findall(FAIR, caption)) == {fair}, caption


@pytest.mark.parametrize("seats, tests, fair", [(ROT, ROT_TESTS, "25.0"), (R3, R3_TESTS, "33.33")])
def test_the_verdict_words_after_the_seat_lines_print_the_fair_share_as_the_caption(seats, tests, fair):
    # (each seat's own line prints the fair share beside its share, at that share's decimals:
    # "Seat 2 wins 26.2% (25.7–26.7) against a fair 25.0%"; the sentence over the seats, as Figure 1)
    words = [h for h in seat_headlines(_table(seats, tests)) if not re.match(r"Seat \d wins", h)]
    said = re.findall(FAIR, " ".join(words))
    assert said and set(said) == {fair}, words


def test_the_side_by_side_sentence_prints_the_fair_share_one_way():
    class Runs:
        n_players, n_games, game = 4, 20000, "middle-ages"
    t = _table(ROT, ROT_TESTS)
    (line,) = side_by_side_sentences([("r", Runs(), t)])
    assert set(re.findall(FAIR, line)) == {"25.0"}, line
    # (and each seat's gap as the verdict words in it print it: "Seat 4 −0.8 pp" stood beside
    # "Seat 4 (−0.75 pp)")
    assert "and Seat 4 −0.75 pp against a fair" in line and "−0.8 pp" not in line, line
