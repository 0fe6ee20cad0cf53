"""Helper 228 #3: the one-searching-seat sentence (:func:`reports.skill.gain_sentence`, one seat's
item :func:`reports.skill._gain_item`) stated the change as the difference of the two shares as
printed at *different* decimals, at the finer of them: the searching seat's 33.3% (10 of 30
games, printed at 1 decimal) against the bot's 0.25% (printed at 2: its interval needs them) read
"+33.05 pp", a figure neither true (+33.08) nor at a precision either share has. The mistake was
fixed in session 58 for the role sentence (analysis/skill_words.py) and the --against table
(analysis.skill_against.row_digits). Now the change is computed from the true shares and printed
at the coarser of the two shares' decimals: "+33.1 pp". Where both shares print at the same
decimals the change stays their printed difference (review s42 B #5: 50.0% vs 33.3% reads
+16.7 pp, not +16.8)."""

from __future__ import annotations

import polars as pl

from analysis import skill as K
from analysis.skill_words import ci_digits
from reports.skill import gain_sentence

REST = (None,) * (len(K.BALANCE_COLUMNS) + 1) + (None,) * len(K.ROLE_GAP_COLUMNS)
BOT_GAMES = 1_000_000


def _table(top, bot_share, bot_ci):
    """One cell: budget 0, every seat its own bot (share ``bot_share`` of BOT_GAMES, interval
    ``bot_ci``, as the table prints it); budget 4, one searching seat (``top``: wins, games)."""
    rows = []
    for s in range(4):
        rows.append(("c", 4, 0, "all", s, "player", "balanced", BOT_GAMES, bot_share, *bot_ci, *REST))
        rows.append(("c", 4, 0, "one", s, "player", "balanced", 100, 0.5, 0.0, 1.0, *REST))
    for s, (x, n) in enumerate(top):
        rows.append(("c", 4, 4, "one", s, "player", "search4", n, x / n, 0.0, 1.0, *REST))
    return pl.DataFrame(rows, schema=K.SCHEMA, orient="row")


def test_a_change_between_shares_at_different_decimals_is_the_true_one_at_the_coarser():
    top = [(10, 30)] * 4                      # 33.333…%: printed 33.3 (1 decimal)
    bot, ci = 0.0025, (0.0024, 0.0026)        # 0.25%, its interval 0.24–0.26: printed at 2 decimals
    assert ci_digits(10 / 30, 0.0, 1.0) == 1 and ci_digits(bot, *ci) == 2
    words = gain_sentence(_table(top, bot, ci))
    assert "33.3% of 30 games vs the bot's 0.25% of 1,000,000" in words, words
    true = 100 * (10 / 30 - bot)              # 33.083 pp
    printed_diff = 33.3 - 0.25                # 33.05: the two as printed, subtracted
    assert f"{printed_diff:.2f}" != f"{true:.2f}" and f"{true:.1f}" == "33.1"
    assert f", +{true:.1f} pp, 95% interval" in words, words
    # (neither the printed shares' difference nor the two re-rounded at 1 decimal, 33.3 − 0.3)
    assert "+33.05" not in words and "1,000,000, +33.0 pp" not in words, words


def test_shares_at_the_same_decimals_keep_their_printed_difference():
    # 50.0% (20 of 40) against 33.325% (printed 33.3): +16.7 pp, the printed shares' difference
    top = [(20, 40)] * 4
    words = gain_sentence(_table(top, 0.33325, (0.0, 1.0)))
    assert "50.0% of 40 games vs the bot's 33.3% of 1,000,000" in words, words
    assert ", +16.7 pp, 95% interval" in words, words
