"""A sweep page's sides sentence prints a rare share as the rest of the toolkit does (session 55, the
rare-share rule of the skill section and ``balance check``, ``simcore.numbers.share_digits``):
``balance sweep --game seigneurial --vary 'payment.order=[seat,simultaneous]' --games 400 --seed 1``
read "the Seigneur's win share is 0.2% (0.0 to 1.4) at "seat"" for 1 win in 400 games, 0.25%
(0.01–1.40) in its own table: the share rounded down by Python's formatting (0.25 → "0.2") and an
interval reaching 0% printed for one that does not. Now "0.25% (0.01 to 1.40)", halves away from
zero as the tables round (``simcore.numbers.rounded``)."""

from __future__ import annotations

from reports.sweep import _pct_text


def test_a_rare_share_and_its_ends_do_not_print_as_zero():
    assert _pct_text(0.0025, 0.0001, 0.014) == "0.25% (0.01 to 1.40)"
    # no end near 0 at one decimal: one decimal, as before
    assert _pct_text(0.005, 0.0006, 0.018) == "0.5% (0.1 to 1.8)"


def test_an_ordinary_share_keeps_one_decimal_and_rounds_halves_away_from_zero():
    assert _pct_text(0.3025, 0.29, 0.315) == "30.3% (29.0 to 31.5)"
    assert _pct_text(0.25, 0.24, 0.26) == "25.0% (24.0 to 26.0)"
