"""The Médiévallons before/after figure caption prints each founded share's before, after and change
at one precision where they agree (review s50 PDF follow-up: "Noble, 35.0% → 37.2% of players
(+2.3 pp)", the list and the table printing 34.954% → 37.236%, +2.282 pp)."""

from __future__ import annotations

import html
import re

from cli.report import make_report
from simcore import runner
from undrawn_figures import figures_undrawn
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def test_caption_changes_are_the_difference_of_their_printed_values(tmp_path):
    runs = []
    for name, settings in (("a", []), ("b", ["setup.hand_size=7"])):
        prep = runner.prepare("medievallons", players=4, strategies="balanced", settings=settings)
        runs.append(runner.run(prep, games=20000, seed=5, out=tmp_path / name, quiet=True))
    with figures_undrawn():
        out = make_report(runs, tmp_path / "rep", questions_games=0)
    page = html.unescape(re.sub(r"<[^>]+>", " ", out.read_text(encoding="utf-8")))
    found = re.findall(r"(\d+\.(\d+))% → (\d+\.(\d+))% of players \(([+−]\d+\.(\d+)) pp\)", page)
    assert found, "precondition: the caption names founded shares that moved"
    for before, d1, after, d2, change, d3 in found:
        assert len(d1) == len(d2) == len(d3)
        assert abs(float(after) - float(before) - float(change.replace("−", "-"))) < 1e-9, (before, after, change)
