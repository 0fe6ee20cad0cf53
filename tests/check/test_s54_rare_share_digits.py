"""Review s53 leftover: a share the check measured near 0 printed "0.0% (0.0–0.0)" (a Seigneur that
won 3 of 20,000 games: 0.015%, interval 0.005–0.044%), a share read as none with an interval of
nothing, beside a change in pp. Shares near 0% or 100% now get the decimals that tell them from it;
the ends are checked against statsmodels' Wilson interval of the same counts."""

from __future__ import annotations

import re

from statsmodels.stats.proportion import proportion_confint

from analysis.check.decision import MetricResult
from analysis.check.presentation import _row_cells, explain


def _rare(x: int, n: int, base: float = 0.4) -> MetricResult:
    lo, hi = (100 * e for e in proportion_confint(x, n, method="wilson"))
    value = 100 * x / n
    fields = MetricResult.__dataclass_fields__
    values = dict(metric="role_win_share", key="seigneur", label="Seigneur side win share",
                  value=value, low=lo, high=hi, base=base, base_low=0.33, base_high=0.48,
                  base_n=30_000, n=n, diff=value - base, diff_se=0.05, tolerance=1.0,
                  verdict="pass", decided_games=n)
    return MetricResult(**{k: values.get(k, 0.0) for k in fields})


def _numbers(s: str) -> list[float]:
    return [float(v) for v in re.findall(r"\d+\.\d+", s)]


def test_a_rare_share_and_its_interval_are_not_printed_as_zero():
    r = _rare(3, 20_000)
    cell = _row_cells(r, "seigneurial")[2]
    value, lo, hi = _numbers(cell)
    assert value > 0 and lo > 0 and hi > lo, cell
    assert abs(value - 0.015) < 0.0051 and abs(hi - r.high) < 0.005 and abs(lo - r.low) < 0.005, cell
    line = explain(r, game="seigneurial")
    m = re.search(r"side wins ([\d.]+)% \(([\d.]+)–([\d.]+)\)", line)
    assert m and all(float(g) > 0 for g in m.groups()), line


def test_none_in_many_games_keeps_zero_and_an_upper_end_above_it():
    r = _rare(0, 20_000)
    value, lo, hi = _numbers(_row_cells(r, "seigneurial")[2])
    assert value == 0 and lo == 0 and hi > 0, _row_cells(r, "seigneurial")


def test_ordinary_shares_print_at_the_two_decimals_of_their_change():
    # (one decimal beside a change at two read "25.0% → 25.2%, +0.14 pp": session 56)
    r = _rare(6_000, 20_000, base=30.0)
    assert re.fullmatch(r"30\.00% \(\d\d\.\d\d–\d\d\.\d\d\)", _row_cells(r, "seigneurial")[2])
