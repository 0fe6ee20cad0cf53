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

import polars as pl

from analysis import skill as K
from analysis.skill_words import ci_digits
from reports.skill import gain_sentence

REST = (None,) * (len(K.BALANCE_COLUMNS) + 1) + (None,) * len(K.ROLE_GAP_COLUMNS)
BOT_GAMES = 1_000_000


def _table(top, bot_share, bot_ci):
    """One cell: budget 0, every seat its own bot (share ``bot_share`` of BOT_GAMES, interval
    ``bot_ci``); budget 4, one searching seat (``top``: wins, games per seat)."""
    rows = []
    for s in range(4):
        rows.append(("c", 4, 0, "all", s, "player", "balanced", BOT_GAMES, bot_share, *bot_ci, *REST))
        rows.append(("c", 4, 0, "one", s, "player", "balanced", 100, 0.5, 0.0, 1.0, *REST))
    for s, (x, n) in enumerate(top):
        rows.append(("c", 4, 4, "one", s, "player", "search4", n, x / n, 0.0, 1.0, *REST))
    return pl.DataFrame(rows, schema=K.SCHEMA, orient="row")


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
