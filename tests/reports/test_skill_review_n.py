"""Designer review N of the skill page and the report's ``--skill`` line: the report's leading line
names a leading seat or a reversal only where the trend sentence does (#5), the skill table says the
level of each interval it holds (#9, tests/reports/test_skill_review_g.py on a played Seigneurial
table), the budget figure's seats side by side at each budget and the tables and captions true of
budget 0 (#10), and the page's terms explained as the run report explains them (#6)."""

from __future__ import annotations

import html
import json
import re

import numpy as np
import polars as pl

from analysis.skill_words import GAP, advantage, verdict
from simcore import games as registry

from test_skill_review_g import _medievallons_dir
from undrawn_figures import skill_pages_undrawn_in_this_module  # noqa: F401  (every page undrawn)


def _text(page: str) -> str:
    # a sentence's hover titles (<abbr>, reports.html.with_titles) sit inside it: no space for them
    return html.unescape(re.sub(r"<[^>]+>", " ", re.sub(r"</?abbr[^>]*>", "", page)))


def _headline(d):
    from reports.skill import trend_headline

    q = json.loads((d / "skill.json").read_text())
    return trend_headline(d, q, registry.get(q["game"]))


def _named_leaders(words: str) -> list[str]:
    """The seats a text names as ahead: "seat 2 leads seat 3", "seat 2 ahead of seat 3", "seat 1 led"."""
    return re.findall(r"seat (\d) (?:leads|led|ahead of)", words)


# --- finding 5: the leading line as the trend sentence reads it ---------------------------------

def test_the_leading_line_names_no_leader_where_the_gaps_interval_reaches_0(tmp_path):
    """Médiévallons, 200 games: seat 1 has the most wins at budget 0 and seat 2 at budget 4, but the
    largest gap's interval reaches 0 at both (GAP_FIGURES: adjusted high end 1.0), so the trend
    sentence says these games cannot tell an advantage from none. The line said "seat 2 leads seat 3
    by 8.0 pp (0.0 to 21.3) … with the bots seat 1 led instead": a leader, a reversal and an interval
    read as those two seats' gap."""
    d = _medievallons_dir(tmp_path / "sk")
    line = _headline(d)
    table = pl.read_parquet(d / "skill.parquet")
    sentence = verdict(advantage(table, True))
    assert _named_leaders(sentence) == []                      # the section names none ...
    assert _named_leaders(line) == [] and "instead" not in line, line   # ... nor does the line
    assert "these games cannot tell a seat advantage of at least the 1 pp that matters from none" in line
    # the interval is said to be of the largest gap between two seats, from the table's own ends
    top = table.filter((pl.col("part") == "all") & (pl.col("budget") == 4)).row(0, named=True)
    assert (f"the {GAP} is {100 * (1 - top['win_share_balance']):.1f} pp "
            f"({100 * (1 - top['win_share_balance_high_adjusted']):.1f} to "
            f"{100 * (1 - top['win_share_balance_low_adjusted']):.1f})") in line
    assert "intervals of that largest gap" in line


def test_the_leading_line_names_a_leader_and_a_reversal_where_both_intervals_lie_above_0(tmp_path):
    """The same games with both gaps' adjusted intervals above 0 (high end of the balance 0.95: the
    gap at least 5 pp): the sentence names seat 2 ahead of seat 3 at budget 4 and seat 1 "instead"
    at budget 0, and so does the line."""
    d = _medievallons_dir(tmp_path / "sk")
    table = pl.read_parquet(d / "skill.parquet")
    clear = table.with_columns(pl.when(pl.col("part") == "all").then(0.95)
                               .otherwise(pl.col("win_share_balance_high_adjusted"))
                               .alias("win_share_balance_high_adjusted"))
    clear.write_parquet(d / "skill.parquet")
    line = _headline(d)
    sentence = verdict(advantage(clear, True))
    shares = {b: clear.filter((pl.col("part") == "all") & (pl.col("budget") == b)).sort("seat")
              ["win_share"].to_list() for b in (0, 4)}
    best = {b: max(range(4), key=lambda s: shares[b][s]) + 1 for b in (0, 4)}
    worst = {b: min(range(4), key=lambda s: shares[b][s]) + 1 for b in (0, 4)}
    assert best[0] != best[4]                                   # the planted reversal
    assert f"with seat {best[4]} ahead of seat {worst[4]} instead" in sentence
    assert f"at budget 4 seat {best[4]} leads seat {worst[4]}:" in line
    assert f"with the bots (budget 0) seat {best[0]} led instead, ahead of seat {worst[0]}" in line


# --- finding 10: the budget figure, its tables and its caption true of budget 0 -----------------

def _seat_points(ax):
    """Per seat's series (errorbar containers in seat order): its points' x and y."""
    return [(np.asarray(c.lines[0].get_xdata(), float), np.asarray(c.lines[0].get_ydata(), float))
            for c in ax.containers]


def test_the_budget_figure_sets_the_seats_side_by_side_at_each_budget(tmp_path):
    """Seats 2 and 4 of Middle-Ages at budget 0 (20.3–28.7 and 21.5–30.0) had their error bars at
    one x, one covering the other. Each seat's points now sit beside their budget's tick, in seat
    order, nearer it than any other tick; the legend is still one entry per seat."""
    from reports.skill import budget_figure

    t = pl.read_parquet(_medievallons_dir(tmp_path / "sk") / "skill.parquet")
    fig = budget_figure(t, ("player",) * 4, 0.25)
    for ax in fig.axes:
        ticks = np.asarray(ax.get_xticks(), float)
        series = _seat_points(ax)
        assert len(series) == 4
        for k, tick in enumerate(ticks):
            xs = [x[k] for x, _ in series]
            assert xs == sorted(xs) and len(set(xs)) == 4, xs          # side by side, seat 1 leftmost
            assert all(np.argmin(np.abs(ticks - x)) == k for x in xs)   # read as this budget's
    # one legend for both panels, under them (review s49 skill #3)
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert [x for x in labels if x.startswith("Seat")] == [f"Seat {s}" for s in range(1, 5)]


def test_the_tables_and_the_caption_say_what_budget_0_is(tmp_path):
    """The table titled "every seat searching" held budget 0, where no seat searches; the right
    panel's budget-0 points (the one-seat part: 50 games a seat here) differed from the left's (200
    games) for the same bots without a word. The caption gives both counts from the table and says
    why they differ."""
    from reports.skill import build_skill_page

    d = _medievallons_dir(tmp_path / "sk")
    t = pl.read_parquet(d / "skill.parquet")
    n0 = t.filter((pl.col("part") == "all") & (pl.col("budget") == 0))["games"].min()
    m0 = t.filter((pl.col("part") == "one") & (pl.col("budget") == 0))["games"].min()
    page = build_skill_page(d).read_text(encoding="utf-8")
    heading = re.search(r"<h2>(Balance by budget[^<]*)</h2>", page).group(1)
    assert "budget 0: no seat searches" in heading
    caption = _text(re.search(r"<figcaption>(.*?)</figcaption>", page).group(1))
    assert f"in only the first {m0:,} of the left's {n0:,} games" in caption
    assert "differ from the left's by chance" in caption


# --- finding 6: the page's terms explained as the run report explains them ----------------------

def test_the_skill_page_explains_its_terms_as_the_run_report_does(tmp_path):
    """"Balance (Ludii)" 0.892, "pp" and "playouts per option" stood on the skill page with no word
    of what they are; the run report gives its terms hover titles (reports.html.with_titles) and a
    glossary (reports.glossary). The page now does both, from the same glossary."""
    from reports import glossary
    from reports.skill import build_skill_page

    page = build_skill_page(_medievallons_dir(tmp_path / "sk")).read_text(encoding="utf-8")
    # a sentence's first "pp" carries the glossary's explanation as its hover title
    assert f"<abbr title='{html.escape(glossary.TERMS['pp'], quote=True)}'>pp</abbr>" in page
    # the page's glossary: every term its tables and sentences use, with the run report's words
    terms = page.split("<h2>How to read this page</h2>")[1]
    rows = dict(re.findall(r"<tr><td>(.*?)</td><td>(.*?)</td></tr>", terms))
    for term in ("Balance", "pp", "Wilson"):
        assert html.unescape(rows[term]) == glossary.TERMS[term], term
    assert "AdvantageP1" not in rows                 # not on this page, not in its glossary
    budget = next(v for k, v in rows.items() if "playouts per option" in k)
    assert "Budget 0 is no search" in html.unescape(budget)
