"""Review fx04 #1: the tune page's confirmation table says on each row only what is true of that
row (its interval inside the band, straddling an edge of it, or wholly outside it), and states each
target's verdict once, above the table, with the rows that decide it. Before, every seat's row
carried the whole target's verdict ("Interval inside the band: yes", "Target met: unclear" side by
side on seat 1's row).

Nothing is played: the numbers are a real tune's (balance tune --players 4 --vary
setup.start_coins[0..3]=0..15 --target seat-balance --trials 20 --min-games 2000 --max-games 8000
--confirm-games 20000: trial 5 confirmed on 20,000 games, unclear)."""

from __future__ import annotations

import copy
import html
import json
import re

from tests.reports.test_tune_says_what_to_change import RESULT, TRIALS, TUNE
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

BAND = "23.5 to 26.5"            # 25% ± 1.5 pp (seat-balance at 4 players, its default tolerance)


def _m(seat, est, lo, hi):
    return {"metric": f"seat_win_share_{seat}", "estimate": est, "low": lo, "high": hi}


# seat 1 inside; seat 2 straddles the upper edge; seats 3 and 4 the lower one
UNCLEAR = [_m(1, 0.25115, 0.24367709541744856, 0.2587736669598534),
           _m(2, 0.27115, 0.2634817636693216, 0.2789568819808514),
           _m(3, 0.2379, 0.23056815631219432, 0.24539063339683057),
           _m(4, 0.2398, 0.23244733408934884, 0.2473103045305988)]


def _tune_dir(tmp_path, metrics, outcome):
    tune = copy.deepcopy(TUNE)
    tune["targets"] = [{"text": "seat-balance", "kind": "seat-balance", "tol": 0.015, "role": "",
                        "aim": 0.0, "lo": 0.0, "hi": 0.0}]
    result = copy.deepcopy(RESULT)
    met = outcome == "met"
    result["confirm"].update(met=met, outcome=outcome, targets=[
        {"target": "seat-balance", "objective": 1.41, "met": met, "missed": outcome == "missed",
         "metrics": metrics, "intervals": "simultaneous 95% over every column of every target"}])
    d = tmp_path / "tune"
    d.mkdir()
    (d / "tune.json").write_text(json.dumps(tune), encoding="utf-8")
    (d / "result.json").write_text(json.dumps(result), encoding="utf-8")
    TRIALS.write_csv(d / "trials.csv")
    (d / "confirmations" / "trial-2").mkdir(parents=True)
    (d / "confirmations" / "trial-2" / "run.json").write_text(json.dumps({"players": 4}))
    return d, result


def _confirmation(tmp_path, metrics, outcome):
    """The page's confirmation table: its title, its header and its rows (as text)."""
    from undrawn_figures import figures_undrawn

    from reports.sweep import build_tune_report

    d, _ = _tune_dir(tmp_path, metrics, outcome)
    with figures_undrawn():
        page = build_tune_report(d, tmp_path / "rep").read_text(encoding="utf-8")

    def text(x):
        return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", x))).strip()

    i = page.index("<h3>Confirmation")
    table = page[i:page.index("</table>", i)]
    title = text(table[:table.index("</h3>")])
    head = [text(h) for h in re.findall(r"<th[^>]*>(.*?)</th>", table, re.S)]
    rows = [dict(zip(head, (text(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S))))
            for tr in re.findall(r"<tr>(.*?)</tr>", table, re.S)]
    return title, head, [r for r in rows if r]


def test_each_confirmation_row_says_only_its_own_interval_against_the_band(tmp_path):
    """Seat 1's interval lies inside the band: its row says so and nothing on it reads 'unclear'
    (the target's verdict); the straddling rows say which edge they straddle."""
    from reports.sweep import confirm_table

    d, result = _tune_dir(tmp_path, UNCLEAR, "unclear")
    t = confirm_table(result, d, "middle-ages")
    assert "Target met" not in t.columns, t.columns
    assert t["Band"].to_list() == [BAND] * 4
    assert t["Interval inside the band"].to_list() == [
        "yes", "partly: straddles its upper edge", "partly: straddles its lower edge",
        "partly: straddles its lower edge"]
    # no column repeats the target's verdict on every row
    assert not [c for c in t.columns if set(t[c].to_list()) == {"unclear"}], t


def test_the_target_verdict_is_stated_once_with_the_rows_that_make_it_unclear(tmp_path):
    title, head, rows = _confirmation(tmp_path, UNCLEAR, "unclear")
    assert len(rows) == 4, (head, rows)
    assert "Target met" not in head
    assert rows[0]["Interval inside the band"] == "yes"
    assert not any("unclear" in v for v in rows[0].values()), rows[0]
    assert "seat-balance: unclear" in title, title
    assert "seats 2, 3 and 4" in title and "straddle the band's edge" in title, title
    assert "seat 1's interval lies inside it" in title, title


def test_a_missed_target_names_the_rows_wholly_outside_the_band(tmp_path):
    ms = copy.deepcopy(UNCLEAR)
    ms[1] = _m(2, 0.285, 0.277, 0.293)           # wholly above 26.5
    title, _, rows = _confirmation(tmp_path, ms, "missed")
    assert rows[1]["Interval inside the band"] == "no: wholly above it", rows[1]
    assert "seat-balance: not met" in title and "seat 2's interval lies wholly outside the band" in title, title
    assert "seats 3 and 4" in title and "straddle" in title, title


def test_a_met_target_says_every_interval_lies_inside(tmp_path):
    ms = [_m(s, 0.25, 0.242, 0.258) for s in (1, 2, 3, 4)]
    title, _, rows = _confirmation(tmp_path, ms, "met")
    assert [r["Interval inside the band"] for r in rows] == ["yes"] * 4
    assert "seat-balance: met (every interval lies inside the band)" in title, title
