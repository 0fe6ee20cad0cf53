"""A number prints the same in a sentence as in the table beside it.

The sentences' formatters rounded with Python's format (the binary value: 0.8975 → "0.897") while
the tables rounded halves away from zero (simcore.numbers.rounded: "0.898"), so one page read
"Balance 0.897" above a table row of 0.898 (the designer review's #10). Both now use the one rule.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

import pytest


@pytest.mark.parametrize("x, digits", [(0.8975, 3), (0.28125, 2), (25.95, 1), (-0.8975, 3), (0.0004, 3)])
def test_sentences_round_halves_away_from_zero(x, digits):
    from reports.text import num, pct

    want = Decimal(repr(x)).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    shown = num(x, digits).replace("−", "-")
    assert Decimal(shown) == want or (want == 0 and Decimal(shown) == 0), (x, shown, want)
    assert Decimal(pct(x / 100, digits)) == abs(want) or x < 0
