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
from seat_tables import R3 as _R3, R3_TESTS, ROT as _ROT, ROT_TESTS

ROT = {**_ROT, "mean_score": [104.52, 105.18, 104.77, 103.54]}
R3 = {**_R3, "mean_score": [50.0, 51.0, 52.0]}

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
