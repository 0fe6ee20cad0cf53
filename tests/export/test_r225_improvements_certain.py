"""``balance export --what improvements`` says what the page says of the Seigneur's share in games
that end before the land improvements act: 0%, certain by the rules (SG-1: the midpoint lies below
the goal square; SG-5.6: he advances at most one square a turn; SG-6: he wins on the goal square),
with no interval (designer review 225 #5: the export gave that row a Wilson interval, 0–0.024%,
where the page shows none and says "certain by the rules")."""

from __future__ import annotations

import polars as pl
import pytest

from analysis.export import analysis_table, export
from simcore import runner


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return runner.simulate("seigneurial", games=3000, seed=4, out=tmp_path_factory.mktemp("r225i") / "r",
                           quiet=True)


def test_the_before_row_is_certain_by_the_rules_and_has_no_interval(run, tmp_path):
    t = analysis_table(run, "improvements")
    before, after = t.row(0, named=True), t.row(1, named=True)
    assert before["period"] == "before" and before["games"] > 0 and before["seigneur_wins"] == 0
    assert before["seigneur_share"] == 0 and before["seigneur_certain"] is True
    assert before["seigneur_ci_low"] is None and before["seigneur_ci_high"] is None
    assert after["seigneur_certain"] is False and after["seigneur_ci_low"] is not None
    assert after["seigneur_ci_low"] <= after["seigneur_share"] <= after["seigneur_ci_high"]
    export(run, "improvements", tmp_path / "imp.csv")
    rows = (tmp_path / "imp.csv").read_text().splitlines()
    head = rows[0].split(",")
    cells = dict(zip(head, rows[1].split(",")))
    assert (cells["seigneur_ci_low"], cells["seigneur_ci_high"], cells["seigneur_certain"]) == ("", "", "true")


def test_the_page_reads_the_same_decision(run):
    from analysis import analyse, open_runs
    from reports.games import seigneurial as report

    rs = open_runs([run])
    t = analyse(rs)
    rows = report._improvement_rows(t)
    assert rows["Seigneur's win share"][0] == "0% (certain by the rules)"
    assert any("the rules make that certain" in h for h in report.improvement_headlines(t))
    assert t["improvements"].filter(pl.col("period") == "before")["seigneur_certain"].to_list() == [True]
