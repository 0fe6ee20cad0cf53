"""Session 64 (helper 292's finding): ``balance check``'s note on a rare share's factor rounded the
factor's 95% interval to the nearest value, so the interval printed could be narrower than the one
computed: "1.2 to 2.1 times" for 1.184 to 2.101, where the before/after page of the same runs
rounded outward ("1.1 to 2.2"). Both now print through one rule (:func:`simcore.numbers.factor_ends`),
checked here against the exact conditional interval computed independently (scipy's beta quantiles
of the two Poisson counts), on the note's own text."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from scipy.stats import beta

from analysis.check import presentation as P
from simcore.numbers import factor_ends


def _exact_ratio(x_new: int, n_new: int, x_old: int, n_old: int) -> tuple[float, float]:
    """The exact conditional 95% interval of rate_new / rate_old (Clopper-Pearson on the share of
    the pooled events that fall in the new sample, then as a ratio of rates)."""
    k, m = x_new, x_new + x_old
    lo_p = beta.ppf(0.025, k, m - k + 1) if k > 0 else 0.0
    hi_p = beta.ppf(0.975, k + 1, m - k) if k < m else 1.0
    r = n_old / n_new
    return lo_p / (1 - lo_p) * r, hi_p / (1 - hi_p) * r


def _printed_holds(text: str, low: float, high: float) -> None:
    m = re.search(r"95% interval ([0-9.,]+) to ([0-9.,]+) times", text)
    assert m, text
    a, b = (float(g.replace(",", "")) for g in m.groups())
    assert a <= low + 1e-12 and b >= high - 1e-12, (text, low, high)
    assert a > 1.0, text                       # an end above 1 never prints as 1


@pytest.mark.parametrize("near,far", [(1.184, 2.101), (1.044, 1.81), (3.21, 10.7), (1.0049, 1.31)])
def test_s64_factor_ends_hold_the_interval(near, far):
    _printed_holds(f"95% interval {factor_ends(near, far)} times", near, far)


def test_s64_check_note_prints_the_interval_outward(monkeypatch):
    # the counts helper 292 met: 129 -> 82 Seigneur wins of 30,000 games each (1.57 times less often)
    low, high = _exact_ratio(129, 30_000, 82, 30_000)
    assert 1.15 < low < 1.2 and 2.05 < high < 2.15        # (1.184 to 2.101: the case at issue)
    r = SimpleNamespace(kind=SimpleNamespace(unit="%"), diff=82 / 30_000 - 129 / 30_000,
                        base=129 / 30_000, value=82 / 30_000, label="Seigneur side win share")
    res = SimpleNamespace(results=[r], paired=False)
    monkeypatch.setattr(P, "_smallest", lambda res: (lambda r: 0.01))
    monkeypatch.setattr(P, "shown_diff", lambda r: r.diff)
    monkeypatch.setattr(P, "_digits", lambda r: 2)
    monkeypatch.setattr(P, "_change", lambda r: f"{100 * r.diff:+.2f}")
    monkeypatch.setattr(P, "_fmt", lambda v, unit, d: f"{100 * v:.{d}f}%")
    # the factor and its interval as the check computes them (rate old / rate new, as the note
    # orients a fall: 1 / the new-over-old ratio)
    monkeypatch.setattr(P, "_factor_of", lambda res, r: (82 / 129, 1 / high, 1 / low))
    note = P.factor_note(res)
    assert "1.6 times less often" in note, note
    _printed_holds(note, low, high)
