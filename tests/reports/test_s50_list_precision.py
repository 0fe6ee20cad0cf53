"""A before/after's list of changes prints each kind's lines of one unit at one precision, at most
one decimal past the metric's own (review s50 PDF #2: under "Game shape" the mean lead changes,
2 decimals of its own, set the kind at 3, so that "Leader at the end of turn 6 wins: 44.538% →
45.287%, +0.749 pp" sat beside "turn 9: 54.4% → 55.4%, +1.0 pp"). Each line's before, after and
change still agree (the change printed is the measured one rounded)."""

from __future__ import annotations

import re

import pytest

from analysis import analyse, open_runs
from analysis.compare import compare_runs
from reports.text import comparison_headlines
from simcore import runner


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
    for x in found:
        m = re.match(r"Leader at the end of turn (\d+) wins: (\d+\.(\d+))% → (\d+\.(\d+))%, ([+−]\d+\.(\d+)) pp", x)
        assert m, x
        decimals = {len(m.group(3)), len(m.group(5)), len(m.group(7))}
        assert len(decimals) == 1 and decimals <= {1, 2}, x
        # the change printed is the measured change rounded
        r = cmp.filter(cmp["metric"] == f"leader_wins_turn_{m.group(1)}").row(0, named=True)
        d = decimals.pop()
        assert abs(float(m.group(6).replace("−", "-")) - 100 * r["diff"]) <= 0.5 * 10 ** -d + 1e-9, x
