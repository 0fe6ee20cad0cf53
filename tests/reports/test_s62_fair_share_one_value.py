"""A page prints the fair share as one value, and each seat's share and gap as one value
(session 62). The session's Middle-Ages run (``simulate --games 2000 --seed 3``, the
``middle_ages_report`` fixture) printed "Seat 1 wins 18.95% (17.29–20.73) against a fair 25.00%"
and "Seat 2 wins 26.900% (25.002–28.886) against a fair 25.000%" above "clear of the fair 25.0%",
"a fair share is 25.0%" and Figure 1's "Fair share (25%)": four printings of one exact 1/4. Its
seats table then printed "18.950% (17.293–20.726)" and "−6.050 pp" for the headline's "18.95%" and
"−6.05 pp", and Figure 1's bars "19.0%" for it. The fair share is printed as
:func:`reports.text.seats_fair` chooses for the page lead (25.0% at 4 players); a measured share
keeps the decimals its interval needs (:func:`reports.text.seat_digits`), the same in its
headline, its table row and Figure 1. Every number is read from the printed page and checked
against the run's players.parquet, counted here."""

from __future__ import annotations

import html
import re

import polars as pl
import pytest

from page_tables import tables_by_heading
from printed_numbers import NUM, as_float, decimals, is_the_gap

# the tests' CPU over docs/testing.md's budget (session 63): this module runs in make test-slow
# and CI, not in make test
pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("middle_ages_report")]

FAIR = rf"(?:against a fair|the fair|a fair share is|Fair share \() ?({NUM})%"
HEADLINE = rf"(Seat \d) wins ({NUM})% \(({NUM})–({NUM})\) against a fair ({NUM})%: ({NUM}) pp"


def _text(page: str) -> str:
    """The page's words as a reader sees them: styles left out, a block's tags a space, inline
    tags (an <abbr> of the glossary, a folded <span>) nothing."""
    page = re.sub(r"<(style|script)[^>]*>.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r"</?(?:p|li|ul|td|th|tr|table|h\d|div|section|figcaption|figure|br|caption)\b[^>]*>", " ", page)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", page)).split())


@pytest.fixture(scope="module")
def printed(middle_ages_report):
    run, out = middle_ages_report
    page = (out / "report.html").read_text(encoding="utf-8")
    players = pl.read_parquet(run / "players.parquet")
    shares = {f"Seat {s + 1}": 100 * w / n for s, w, n in
              players.group_by("seat").agg(pl.col("win_share").sum(), pl.len()).iter_rows()}
    return page, _text(page), shares


def test_every_fair_share_on_the_page_is_one_exact_value(printed):
    page, _, _ = printed
    # (the glossary's example, "27% against a fair 25% is +2 pp", is no measurement of this run)
    said = re.findall(FAIR, _text(page.split("<section id='glossary'>")[0]))
    assert len(said) >= 4, said                    # the seat lines, the verdict words, the caption, the flow
    assert set(said) == {"25.0"}, sorted(set(said))


def test_each_seat_headline_prints_its_share_and_gap_from_the_runs_rows(printed):
    _, text, shares = printed
    lines = re.findall(HEADLINE, text)
    assert len(lines) >= 2, text[:2000]
    for seat, share, low, high, fair, gap in lines:
        # the share within half a unit of its last printed digit, its interval at its decimals
        assert abs(as_float(share) - shares[seat]) <= 0.5 * 10.0 ** -decimals(share) + 1e-9, (seat, share)
        assert decimals(low) == decimals(high) == decimals(share), (seat, share, low, high)
        assert decimals(gap) == decimals(share), (seat, share, gap)
        is_the_gap(shares[seat], 25.0, gap)
        assert fair == "25.0", (seat, fair)


def test_the_seats_table_prints_each_share_and_gap_as_its_headline(printed):
    page, text, shares = printed
    rows = {r["Seat"]: r for r in tables_by_heading(page)["Seats"]}
    lines = re.findall(HEADLINE, text)
    assert lines
    for seat, share, low, high, _, gap in lines:
        row = rows[seat]
        assert row["Win share (95% interval, unadjusted)"] == f"{share}% ({low}–{high})", (row, share)
        assert row["vs fair share (pp)"] == f"{gap} pp", (row, gap)
    for seat, row in rows.items():          # and every row's share is the run's
        cell = re.match(rf"({NUM})%", row["Win share (95% interval, unadjusted)"]).group(1)
        assert abs(as_float(cell) - shares[seat]) <= 0.5 * 10.0 ** -decimals(cell) + 1e-9, (seat, cell)


def test_figure_1_prints_each_share_as_the_page_and_the_fair_share_as_the_lead(printed, middle_ages_report):
    import matplotlib.pyplot as plt

    from analysis import analyse, open_runs
    from reports.figures.common import seat_advantage

    page, _, shares = printed
    rows = {r["Seat"]: r for r in tables_by_heading(page)["Seats"]}
    t = analyse(open_runs([middle_ages_report[0]]))
    fig = seat_advantage(t)
    try:
        ax = fig.axes[0]
        bars = [a.get_text() for a in ax.texts]
        legend = [x.get_text() for x in ax.get_legend().get_texts()]
    finally:
        plt.close(fig)
    labels = t["seats"]["seat_label"].to_list()
    assert len(bars) == len(labels), bars
    for seat, bar in zip(labels, bars):
        table = rows[seat]["Win share (95% interval, unadjusted)"].split(" (")[0]
        assert bar == table, (seat, bar, table)
        assert abs(as_float(bar.rstrip("%")) - shares[seat]) <= 0.5 * 10.0 ** -decimals(bar.rstrip("%")) + 1e-9
    assert legend == ["Fair share (25.0%)"], legend
