"""A real Middle-Ages run's report shows the game flow turn by turn (``coins_turn_t``, MA-12): the
flow section says so, its sentences carry the numbers of the metric tables, and the figure is drawn."""

from __future__ import annotations

import re

import polars as pl
import pytest

from analysis import analyse, open_runs
from reports.text import flow_headlines, num, num_ci, pct, winners_ahead_from


@pytest.fixture(scope="module")
def report(middle_ages_report):
    """4 players, balanced bots, 2,000 games, seed 3 (the shared run of tests/reports/conftest.py)."""
    run, out = middle_ages_report
    html = (out / "report.html").read_text(encoding="utf-8")
    rs = open_runs([run])
    return out, html, analyse(rs), rs


def _section(html: str, sid: str) -> str:
    m = re.search(rf"<section id='{sid}'>(.*?)</section>", html, re.S)
    assert m, sid
    import html as h
    return h.unescape(re.sub(r"<[^>]+>", "", m.group(1)))


def test_flow_section_reads_the_per_turn_coins(report):
    out, html, t, rs = report
    flow = t["flow"]
    assert flow["turn"].drop_nulls().unique().sort().to_list() == list(range(1, 17))
    text = _section(html, "flow")
    assert "at the end of every turn" in text
    o = {r["metric"]: r for r in t["outcomes"].iter_rows(named=True)}
    lc = o["lead_changes_by_turn"]
    assert (f"The lead changes {num(lc['estimate'])} times per game ({num_ci(lc['ci_low'], lc['ci_high'])}) "
            f"from turn to turn over the 16 turns.") in text
    for turn in (8, 16):
        r = o[f"leader_wins_turn_{turn}"]
        assert f"at the end of turn {turn} wins {pct(r['estimate'])}% ({pct(r['ci_low'])}–{pct(r['ci_high'])})" in text
    # the winners-ahead sentence, against the flow table read directly
    first = flow.filter((pl.col("rank") == 1) & pl.col("turn").is_not_null()).sort("turn")
    second = flow.filter((pl.col("rank") == 2) & pl.col("turn").is_not_null()).sort("turn")
    apart = [a > b for a, b in zip(first["ci_low"], second["ci_high"])]
    expected = next((i + 1 for i in range(16) if all(apart[i:])), None)
    assert winners_ahead_from(flow) == expected
    where = f"from the end of turn {expected} on" if expected else "at no turn"
    assert f"the eventual winners hold clearly more coins than the runners-up {where}" in text
    assert (f"after turn 16 they hold {num(first['mean_coins'][15], 1)} coins against "
            f"{num(second['mean_coins'][15], 1)}") in text
    assert all(s in text for s in flow_headlines(t, rs))
    assert (out / "figures" / "game_flow.png").stat().st_size > 10_000
