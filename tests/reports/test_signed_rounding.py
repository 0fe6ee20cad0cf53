"""A sentence's signed figure rounds as the table beside it does.

``reports.text.signed`` (and ``pp``, ``pp_ci`` on it) printed with Python's formatting, which rounds
the binary value: +0.125 printed "+0.12" where the tables (``simcore.numbers.rounded``, halves away
from zero as the number is written) printed 0.13, so a sentence and its table disagreed in the last
digit. Checked against an independent rounding of the written number (``decimal``)."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

import pytest

from reports.text import pp, pp_ci, signed


def _written(x: float, digits: int) -> str:
    v = Decimal(repr(x)).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    if v == 0:
        return f"{0:.{digits}f}"
    return ("+" if v > 0 else "−") + f"{abs(v):.{digits}f}"


@pytest.mark.parametrize("digits", [1, 2])
def test_halves_round_away_from_zero_as_written(digits):
    step = 10.0 ** -digits / 2
    for k in range(-400, 401):
        x = round(k * step, digits + 1)          # every half-way value, written with one digit more
        assert signed(x, digits) == _written(x, digits), x


def test_the_share_helpers_follow():
    assert pp(0.00125, 2) == "+0.13 pp"          # 0.125 points: Python's format gave +0.12
    assert pp_ci(-0.00125, 0.00375, 2) == "−0.13 to +0.38 pp"
    assert signed(-0.04) == "0.0" and signed(0.05) == "+0.1" and signed(-0.05) == "−0.1"
