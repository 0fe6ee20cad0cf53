"""A before/after's list of changes prints each kind's lines of one unit at one precision (review
s50 PDF #2 and its follow-up: under "Game shape" "Leader at the end of turn 6 wins: 44.538% →
45.287%, +0.749 pp" sat beside "turn 9: 54.4% → 55.4%, +1.0 pp", and then lines at 1, 2 and 3
decimals). Each line's before, after and change agree (the change printed is the measured one
rounded), within the two decimals past a share's own that the list may add."""

from __future__ import annotations

import re

import pytest

from analysis import analyse, open_runs
from analysis.compare import compare_runs
from reports.text import comparison_headlines
from simcore import runner

# the tests' CPU over docs/testing.md's budget (session 63): this module runs in make test-slow
# and CI, not in make test
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def lines(tmp_path_factory):
    root = tmp_path_factory.mktemp("prec")
    runs = []
    for name, settings in (("a", []), ("b", ["income.palais.base=4"])):
        prep = runner.prepare("middle-ages", players=4, strategies="balanced", settings=settings)
        runs.append(runner.run(prep, games=100_000, seed=1, out=root / name, quiet=True))
    a, b = open_runs([runs[0]]), open_runs([runs[1]])
    cmp = compare_runs(a, b, analyse(a), analyse(b)).table
    out = []
    for x in comparison_headlines(cmp, "a", "b", "coins"):
        out += [str(x), *[str(i) for i in getattr(x, "items", ())]]
    return cmp, out


def test_leader_lines_at_most_one_decimal_past_their_own(lines):
    cmp, out = lines
    found = [x for x in out if x.startswith("Leader at the end of turn")]
    assert len(found) >= 3, out                  # the case: several such lines moved
    from decimal import ROUND_HALF_UP, Decimal

    def agrees(r, d) -> bool:          # printed after − before is the change rounded (half a unit)
        q = Decimal(1).scaleb(-d)
        b, v = (Decimal(repr(100 * r[k])).quantize(q, ROUND_HALF_UP) for k in ("base", "variant"))
        return abs(float(v - b) - 100 * r["diff"]) <= 0.5 * 10 ** -d + 1e-9

    for x in found:
        m = re.match(r"Leader at the end of turn (\d+) wins: (\d+\.(\d+))% → (\d+\.(\d+))%, ([+−]\d+\.(\d+)) pp", x)
        assert m, x
        decimals = {len(m.group(3)), len(m.group(5)), len(m.group(7))}
        assert len(decimals) == 1, x
        d = decimals.pop()
        r = cmp.filter(cmp["metric"] == f"leader_wins_turn_{m.group(1)}").row(0, named=True)
        # the change printed is the measured one rounded, and the printed values agree with it
        assert abs(float(m.group(6).replace("−", "-")) - 100 * r["diff"]) <= 0.5 * 10 ** -d + 1e-9, x
        # at most one decimal past a share's own, unless the line agrees at neither 1 nor 2
        assert d <= 2 or not (agrees(r, 1) or agrees(r, 2)), x
