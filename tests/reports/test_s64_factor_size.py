"""Designer review (session 64) #1: "though by a large factor" is read on the factor's interval,
never on its estimate.

The before/after of `track.rent_before={3=2,4=4,5=4}` (30,000 Seigneurial games a run, seed 1) opened
"Not by enough to matter …, though by a large factor for a share this small (below)" over "129 → 94
games: 1.4 times less often; 95% interval 1.0 to 1.9 times", and its figure caption said the same.
The exact (Clopper-Pearson conditional) interval of that factor is 1.044 to 1.810: its near end
(the one closer to 1) is under the 1.25 the page means by "large" (reports.text.LARGE_FACTOR), so
"large" rested on the estimate 1.37 alone. Now "large" needs that near end at 1.25 or more; a
factor the interval shows clear of 1 but not surely large is worded by what the interval allows
("by a factor of 1.04 to 1.81"), its near end printed with the digits that keep it above 1 (not
"1.0" beside a change called clear). The interval is computed here with scipy, apart from the code.

And the share the opener speaks of is one that moved: the lowest share under the smallest
difference was picked whether or not it moved, so a seat the page said "stayed within noise" could
lend the opener its factor.
"""

from __future__ import annotations

import math
import re

import polars as pl
import pytest

from analysis import stats
from analysis.compare import COMPARE_SCHEMA
from reports.sections import _comparison_caption
from reports.text import LARGE_FACTOR, seat_question

scipy_stats = pytest.importorskip("scipy.stats")

N = 30000


def _scipy_factor(x1: int, n1: int, x2: int, n2: int) -> tuple[float, float]:
    """The exact 95% interval of the factor (x2/n2) / (x1/n1): Clopper-Pearson for x2 in x1 + x2."""
    ci = scipy_stats.binomtest(x2, x1 + x2).proportion_ci(confidence_level=0.95, method="exact")
    low = ci.low * n1 / ((1 - ci.low) * n2)
    high = math.inf if ci.high >= 1 else ci.high * n1 / ((1 - ci.high) * n2)
    return low, high


def _row(metric: str, key: str, label: str, before: int, after: int, n: int, significant: bool = True,
         verdict: str | None = stats.SMALL) -> dict:
    b, v = before / n, after / n
    diff = v - b
    half = 1.96 * math.sqrt((b * (1 - b) + v * (1 - v)) / n)
    return {"metric": metric, "key": key, "label": label,
            "kind": "proportion", "base": b, "base_low": max(b - half, 0), "base_high": b + half,
            "variant": v, "variant_low": max(v - half, 0), "variant_high": v + half,
            "diff": diff, "diff_low": diff - half, "diff_high": diff + half, "z": diff / half * 1.96,
            "p_value": 1e-4 if significant else 0.3, "p_adjusted": 1e-3 if significant else 0.6,
            "significant": significant, "family": "roles", "family_size": 1,
            "smallest": 0.01, "size_low": diff - 1.2 * half, "size_high": diff + 1.2 * half,
            "verdict": verdict if significant else None, "paired": True, "base_n": n, "variant_n": n}


def _side(before: int, after: int, n: int = N) -> pl.DataFrame:
    return pl.DataFrame([_row("role_win_share", "seigneur", "Seigneur side win share", before, after, n)],
                        schema=COMPARE_SCHEMA)


def _opener(answer: str) -> str:
    return answer[:answer.index(": ")]


def test_a_factor_whose_interval_reaches_below_the_large_one_is_not_called_large():
    # the reviewer's runs: 129 → 94 Seigneur wins of 30,000 each
    low, high = _scipy_factor(129, N, 94, N)
    near, far = 1 / high, 1 / low              # (fewer wins after: the factor "less often" is 1 / R)
    assert 1.0 < near < LARGE_FACTOR <= (129 / 94), (near, far)     # the premise: clear, not surely large
    cmp = _side(129, 94)
    answer = seat_question(cmp, "% of own goal", game="seigneurial")
    caption = _comparison_caption(cmp, "% of own goal")
    assert "large factor" not in answer, answer
    assert "large factor" not in caption, caption
    # worded by what the interval allows, in the opener and the caption alike
    m = re.search(r", though by a factor of ([\d.]+) to ([\d.]+) for a share this small \(below\)$", _opener(answer))
    assert m, _opener(answer)
    lo_said, hi_said = float(m.group(1)), float(m.group(2))
    # the printed ends hold the interval (rounded outward), and a near end above 1 does not print as 1.0
    assert 1.0 < lo_said <= near < lo_said + 0.01, (lo_said, near)
    assert hi_said - 0.01 < far <= hi_said, (hi_said, far)
    assert f"though by a factor of {m.group(1)} to {m.group(2)} for a share this small" in caption, caption
    # the sentence below gives the same interval
    assert f"(129 → 94 games: 1.4 times less often; 95% interval {m.group(1)} to {m.group(2)} times" in answer, answer


def test_a_factor_whose_interval_stays_above_the_large_one_is_called_large():
    # 88 → 16 of 20,000 (the sweep's 3 → 2): 5.5 times less often, 95% interval 3.2 to 11 times
    low, _ = _scipy_factor(88, 20000, 16, 20000)
    _, high = _scipy_factor(88, 20000, 16, 20000)
    assert 1 / high >= LARGE_FACTOR
    cmp = _side(88, 16, 20000)
    answer = seat_question(cmp, "% of own goal", game="seigneurial")
    assert _opener(answer).endswith(", though by a large factor for a share this small (below)"), answer
    assert "though by a large factor for a share this small" in _comparison_caption(cmp, "% of own goal")


def test_a_factor_whose_interval_holds_1_gets_no_word_in_the_opener():
    # 2 → 0 games: "it never wins after the change", but its interval runs from any factor less
    # often to 5.4 times as often (the verdict row marked clear: the opener's claim is the factor's)
    low, high = _scipy_factor(2, N, 0, N)
    assert low == 0 and high > 1
    cmp = _side(2, 0)
    answer = seat_question(cmp, "% of own goal", game="seigneurial")
    assert "factor" not in _opener(answer), answer
    assert "factor" not in _comparison_caption(cmp, "% of own goal")


def test_the_opener_speaks_of_a_share_that_moved_not_one_that_stayed_within_noise():
    # Seat 1 wins 2,000 → 1,000 of 200,000 games (2.0 times less often, its interval far above
    # 1.25) but the page's verdict (made up here: Holm over the seats) says it stayed within noise;
    # Seat 2 moved 30.0% → 30.5%, clear but small
    n = 200000
    low, high = _scipy_factor(2000, n, 1000, n)
    assert 1 / high >= LARGE_FACTOR                  # (a large factor by its own interval)
    rows = [_row("seat_win_share", "Seat 1", "Seat 1 win share", 2000, 1000, n, significant=False),
            _row("seat_win_share", "Seat 2", "Seat 2 win share", 60000, 61000, n)]
    cmp = pl.DataFrame(rows, schema=COMPARE_SCHEMA)
    answer = seat_question(cmp, "% of own goal")
    assert _opener(answer).startswith("Did the seat win rates move? Not by enough to matter"), answer
    assert "the other seat, Seat 1 1.0% → 0.5%, stayed within noise" in answer, answer
    assert "factor" not in _opener(answer), answer
    assert "factor" not in _comparison_caption(cmp, "% of own goal")
