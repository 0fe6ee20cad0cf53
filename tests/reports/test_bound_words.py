"""A "no game differs" bound prints rounded up to two significant digits, one rule on every page.

The two-run page printed it to two significant digits rounded to nearest (a bound of 0.01234 pp read
"0.012", tighter than the games show) and the panel page at its own decimals rounded up: the same
bound read differently on two pages. Checked as a property (hypothesis), not against the code's
own output."""

from __future__ import annotations

import math
from decimal import Decimal

from hypothesis import given, strategies as st

from reports.text import bound_pp


@given(st.floats(min_value=1e-9, max_value=0.5, allow_nan=False))
def test_a_bound_prints_rounded_up_to_two_significant_digits(x):
    shown = bound_pp(x)
    assert "e" not in shown.lower()
    value = Decimal(shown)
    exact = Decimal(repr(100 * x))
    assert value >= exact * (1 - Decimal("1e-12"))               # never below the bound
    digits = value.normalize().as_tuple().digits
    assert len(digits) <= 2 or shown.endswith("0") and "." not in shown
    step = Decimal(10) ** (math.floor(math.log10(100 * x)) - 1)  # one unit of the 2nd digit
    assert value - exact <= step * (1 + Decimal("1e-9"))


def test_the_run_pair_and_the_panel_pages_print_the_same_bound():
    from reports.panel import same_games_words as panel_words
    from reports.text import same_games_words as pair_words

    bound = 0.0001234           # 0.01234 pp: two significant digits rounded up, 0.013
    pair = pair_words({"same_games": 20_000, "change_at_most": bound})
    panel = panel_words({"games_before": 20_000, "change_at_most": bound})
    assert "at most 0.013 pp either way" in pair and "at most 0.013 pp either way" in panel
