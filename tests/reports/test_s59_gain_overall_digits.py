"""Helper 234 #3: in the one-searching-seat sentence (:func:`reports.skill.gain_sentence`) each
seat's item printed the bot's 0.25% at the decimals its interval needs and the change as the true
one at the coarser decimals ("33.3% … vs the bot's 0.25% …, +33.1 pp", helper 228 #3), while the
overall clause of the same sentence printed the bots' share at one decimal and the printed shares'
difference: "33.3% against the bots' 0.3% in the same seats, +33.0 pp". Now the overall clause
prints each share at the finest decimals its seats' shares print at and states the change by the
seat items' rule (:func:`reports.skill._shown_change`): "33.3% against the bots' 0.25%, +33.1 pp".
Where every share prints at one decimal nothing changes (50.0% vs 33.3%: +16.7 pp)."""

from __future__ import annotations

import re

from analysis.skill_words import ci_digits
from reports.skill import gain_sentence

# the same one-cell table as the item test (one builder for both files)
from tests.reports.test_s59_gain_change_digits import _table


def _changes(words: str) -> tuple[list[str], str]:
    """The seat items' changes and the overall clause's ("over all its … games …, +x pp")."""
    seats = re.findall(r"of 1,000,000, ([+−-][\d.]+) pp", words)
    overall = re.search(r"over all its [\d,]+ games \(the seats in turn\) it wins ([\d.]+)% against "
                        r"the bots' ([\d.]+)% in the same seats, ([+−-][\d.]+) pp", words)
    assert seats and overall, words
    return seats, overall


def test_the_overall_clause_prints_its_shares_and_change_as_the_seat_items_do():
    top = [(10, 30)] * 4                      # 33.333…% every seat: printed 33.3
    bot, ci = 0.0025, (0.0024, 0.0026)        # 0.25%: printed at 2 decimals
    assert ci_digits(bot, *ci) == 2
    words = gain_sentence(_table(top, bot, ci))
    seats, overall = _changes(words)
    assert set(seats) == {"+33.1"}, words
    # the overall share is the seats' (every seat the same): the same figures and change
    assert overall.groups() == ("33.3", "0.25", "+33.1"), words


def test_one_decimal_shares_keep_the_printed_difference_overall():
    # 50.0% against 33.325% (printed 33.3): +16.7 pp in the seats and over all the games
    words = gain_sentence(_table([(20, 40)] * 4, 0.33325, (0.0, 1.0)))
    seats, overall = _changes(words)
    assert set(seats) == {"+16.7"}, words
    assert overall.groups() == ("50.0", "33.3", "+16.7"), words
