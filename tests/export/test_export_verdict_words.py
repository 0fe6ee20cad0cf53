"""``balance export --what seats`` writes the report's verdict words (revD #14): a seat the report
calls "within noise" is "within noise" in the export, never analysis.stats.practical's internal
"not shown"; the other words are the report's too (reports.text.verdict_words is the check)."""

from __future__ import annotations

import polars as pl

from analysis.export import report_verdicts
from analysis.load import open_runs
from analysis.seats import seat_table
from cli import _run
from reports.text import verdict_words


def test_the_seat_export_uses_the_reports_words(tmp_path):
    run = tmp_path / "run"
    assert _run(["simulate", "-n", "200", "--seed", "11", "-s", "balanced",
                 "--out", str(run), "--quiet"]) == 0
    assert _run(["export", str(run), "--what", "seats", "--out", str(tmp_path / "s.csv")]) == 0
    got = pl.read_csv(tmp_path / "s.csv")
    seats = seat_table(open_runs([run]))
    want = [verdict_words(v, c) for v, c in zip(seats["verdict"].to_list(), seats["significant"].to_list())]
    assert got["verdict"].to_list() == want
    assert "within noise" in want and "not shown" not in got["verdict"].to_list()


def test_an_untested_row_stays_empty_and_a_clear_row_about_almost_nobody_says_so():
    df = pl.DataFrame({"verdict": ["not shown", "not shown", None, "clear but small"],
                       "significant": [False, True, None, True]})
    assert report_verdicts(df)["verdict"].to_list() == ["within noise", "too few players to say", None,
                                                         "clear but small"]
