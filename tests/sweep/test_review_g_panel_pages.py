"""Review G's panel pass, the panel pages (findings 1-5): a panel of 3, 4 and 5 players lists every
seat column before the finding's call; the finding says why its seat was picked with gaps from
each cell's own 1/P, not raw win shares, and compares cells of different player counts by those
gaps; a panel sweep's caveat says what its counts are without pointing at a command that does not
adjust them; the panel sweep page's table holds every effect its sentences cite (an effect of 0
among them) and its agreement table says how many cells have each metric; a panel tune's cell
table labels its intervals as each cell's own simultaneous family.

The finding's cells and the tune's result are written by hand; the one sweep played is 2 cells
(3p and 4p greedy) × 2 variants × 300 games, its page with undrawn figures (a few seconds)."""

from __future__ import annotations

import html
import re
from types import SimpleNamespace

import polars as pl
import pytest
from statsmodels.stats.proportion import proportion_confint

from analysis import panel
from undrawn_figures import figures_undrawn

ALIKE = SimpleNamespace(roles_alike=True)
GAMES = 10000
# the reviewer's panel (/tmp/revPT/pmine), seat 1 down in two line-ups and up under eventwise
SHARES = {"3p 3×balanced": (0.288, 0.336, 0.376),
          "3p 3×eventwise": (0.372, 0.322, 0.306),
          "4p 4×balanced": (0.198, 0.245, 0.300, 0.257),
          "5p 5×greedy": (0.148, 0.182, 0.224, 0.222, 0.224),
          "5p 5×eventwise": (0.216, 0.197, 0.191, 0.189, 0.207)}


def _cells(shares=SHARES) -> pl.DataFrame:
    rows = []
    for k, (label, xs) in enumerate(shares.items()):
        for s, x in enumerate(xs, start=1):
            lo, hi = proportion_confint(round(x * GAMES), GAMES, alpha=0.05, method="wilson")
            rows.append({"cell": k, "label": label, "players": len(xs), "games": GAMES, "run": f"r{k}",
                         "metric": f"seat_win_share_{s}", "what": f"seat {s}'s win share", "share": True,
                         "estimate": round(x * GAMES) / GAMES, "low": lo, "high": hi, "fair": 1 / len(xs)})
    return pl.DataFrame(rows)


def test_every_seat_column_comes_before_the_findings_call_whatever_the_player_counts():
    from reports.panel import _cell_metric_table

    cells = _cells()
    calls, title = panel.cell_calls(cells)
    table = _cell_metric_table(cells, calls, title)
    seats = [c for c in table.columns if c.startswith("Seat ") and c.endswith("'s win share")]
    assert seats == [f"Seat {s}'s win share" for s in range(1, 6)]
    # cell, players, games, the call, then Seat 1 … Seat 5: the call sat between Seat 3 and Seat 4
    # (review G), then past the right edge of a 1280-pixel page behind 5 seats (review s42 A #4)
    assert table.columns == ["cell", "players", "games", title, *seats], table.columns
    row = table.row(0, named=True)           # a 3-player cell: its seats 4 and 5 are empty
    assert row["Seat 4's win share"] is None and row[title].startswith("below 1/P")


def test_the_finding_picks_its_seat_by_gaps_from_each_cells_own_fair_share():
    cells = _cells()
    text = panel.finding_statement(cells, ALIKE)
    gaps = {k: 100 * (xs[0] - 1 / len(xs)) for k, xs in SHARES.items()}
    mean = sum(gaps.values()) / len(gaps)
    assert f"−{abs(mean):.1f} pp, is the largest in size of any seat's (the next, Seat 3:" in text, text
    # the numbers beside "the largest" are gaps, not win shares: no raw share of seat 1 is quoted
    for xs in SHARES.values():
        assert f"{100 * xs[0]:.1f}%" not in text, text


def test_cells_of_different_player_counts_are_compared_by_their_gaps_from_1_over_p():
    text = panel.finding(_cells(), ALIKE, n=len(SHARES))
    # 37.2% at 3 players is +3.9 pp over its fair share, 14.8% at 5 players −5.2 pp under its own:
    # the range is of gaps, each end with its win share and its cell's 1/P
    assert "its win share runs from" not in text, text
    assert ("its gap from 1/P (win share minus the cell's own 1/P) runs from −5.2 pp (5p 5×greedy: 14.8% "
            "against 1/P = 20%) to +3.9 pp (3p 3×eventwise: 37.2% against 1/P = 33.3%)") in text, text
    # at one player count the win shares compare directly and are kept
    four = {k: v for k, v in SHARES.items() if k.startswith("5p")}
    assert "its win share runs from 14.8% (5p 5×greedy) to 21.6% (5p 5×eventwise)" in panel.finding(
        _cells(four), ALIKE, n=2)


def _sweep_effects():
    from analysis import stats

    rows = []
    for cell, (label, players) in enumerate((("3p 3×greedy", 3), ("4p 4×greedy", 4))):
        for s in range(1, players + 1):
            d = 0.0 if (cell, s) == (0, 3) else (-0.086 if s == 3 else 0.02 * s)
            lo, hi = d - 0.07, d + 0.07
            rows.append({"parameter": "setup.start_coins[0]", "from": "0", "to": "2", "at": "",
                         "metric": f"seat_win_share_{s}", "label": f"seat {s}'s win share", "unit": "pp",
                         "share": True, "delta": d, "low": lo, "high": hi, "smallest": 0.01,
                         "verdict": str(stats.practical(d, lo, hi, 0.01)), "same_as": None, "mirror": False,
                         "cell": cell, "cell_label": label, "players": players})
    return pl.DataFrame(rows)


def test_a_panel_sweeps_counts_say_what_they_are_and_name_no_command_that_does_not_adjust_them():
    from analysis.sweep.panel_effects import sentences

    last = sentences(_sweep_effects(), ["3p 3×greedy", "4p 4×greedy"])[-1]
    assert last.startswith("These counts of cells are not adjusted over the 2 cells"), last
    # balance report --cells adjusts a panel of runs' seat finding, never a sweep's effects
    assert "--cells" not in last and "nothing adjusts them" in last
    assert "each cell's effects are a family of their own" in last
    assert 'Read "k of 2 cells" as unadjusted' in last and "balance report DIR/cells/cell-K" in last


def _tables(page: str) -> dict[str, list[dict]]:
    out = {}
    for title, body in re.findall(r"<h3>([^<]*)</h3><table>(.*?)</table>", page, flags=re.S):
        heads = [html.unescape(h) for h in re.findall(r"<th[^>]*>([^<]*)</th>", body)]
        rows = [[html.unescape(c) for c in re.findall(r"<td[^>]*>([^<]*)</td>", r)]
                for r in re.findall(r"<tr>(.*?)</tr>", body.split("<tbody>", 1)[-1], flags=re.S)]
        out[html.unescape(title)] = [dict(zip(heads, r)) for r in rows if r]
    return out


@pytest.fixture(scope="module")
def panel_sweep(tmp_path_factory):
    from analysis.sweep.panel import sweep
    from strategies.panels import from_options

    out = tmp_path_factory.mktemp("g") / "z"

    p = from_options("middle-ages", players="3,4", lineups=["greedy"])
    return sweep("middle-ages", varies=["setup.start_coins[0]=0..2:2"], games=300, out=out, panel=p)


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_panel_sweep_page_tables_every_effect_its_sentences_cite_and_counts_the_cells(
        panel_sweep, tmp_path, monkeypatch):
    import analysis.sweep.panel_effects as pe
    from analysis import stats
    from reports.panel import build_panel_sweep_report

    # the played effects, seat 1's in the 3-player cell made exactly 0 (its interval kept as wide):
    # with 2 cells it is one end of the range the sentence cites, the review's "+0.0 pp (3p 3×greedy)",
    # now "0.0 pp": an effect of 0 is printed without a sign (session 55)
    real = pe.panel_effects(panel_sweep)
    zero = (pl.col("cell_label") == "3p 3×greedy") & (pl.col("metric") == "seat_win_share_1")
    half = (pl.col("high") - pl.col("low")) / 2
    effects = real.with_columns(pl.when(zero).then(0.0).otherwise(pl.col("delta")).alias("delta"),
                                pl.when(zero).then(-half).otherwise(pl.col("low")).alias("low"),
                                pl.when(zero).then(half).otherwise(pl.col("high")).alias("high"))
    words = [str(stats.practical(d, lo, hi, m))
             for d, lo, hi, m in effects.select("delta", "low", "high", "smallest").iter_rows()]
    effects = effects.with_columns(pl.Series("verdict", words))
    monkeypatch.setattr(pe, "panel_effects", lambda path, smallest=None: effects)
    with figures_undrawn():
        page = build_panel_sweep_report(panel_sweep, tmp_path / "page").read_text(encoding="utf-8")
    tables = _tables(page)
    every = tables["Every effect in every cell"]
    assert len(every) == effects.height              # every effect of every cell, 0 among them
    labels = sorted(set(effects["label"].to_list()), key=len, reverse=True)
    findings = page.split("What moves what, cell by cell", 1)[1].split("</ul>", 1)[0]
    lines = [html.unescape(x) for x in re.findall(r"<li>(.*?)</li>", findings, flags=re.S)]
    assert any("0.0 pp (3p 3×greedy)" in x and "+0.0 pp" not in x for x in lines), lines   # no sign: session 55
    cited = 0
    for line in lines:
        label = next((x for x in labels
                      if re.search(rf"(move|moves|raises|lowers) {re.escape(x)}", line)), None)
        if label is None:
            continue
        for value, cell in re.findall(r"([+−-]\d+\.\d) \w+ \(([^():]+)\)", line):
            value = float(value.replace("−", "-"))
            rows = [r for r in every if r["cell_label"] == cell and r["label"] == label]
            assert rows and abs(float(rows[0]["delta"]) - value) <= 0.051, (line, cell, rows)
            cited += 1
    assert cited >= 4, lines
    # the agreement table says how many cells have each seat: seat 4 only the 4-player cell
    agree = {r["label"]: r for r in tables["Does every cell move the same way?"]}
    assert agree["seat 4's win share"]["cells (of 2)"] == "1"
    assert agree["seat 1's win share"]["cells (of 2)"] == "2"
    for r in agree.values():
        assert sum(int(r[k]) for k in ("up", "down", "unchanged", "unclear")) == int(r["cells (of 2)"]), r


def test_a_panel_tunes_cell_table_labels_its_intervals_as_each_cells_own_simultaneous_family(tmp_path):
    from reports import sweep as page

    fam = "simultaneous 95% over every column of every target"
    cells = [{"label": f"4p 4×{b}", "players": 4, "outcome": "met", "met": True,
              "targets": [{"target": "seat-balance:2", "intervals": fam,
                           "metrics": [{"metric": f"seat_win_share_{s}", "estimate": 0.25, "low": 0.24,
                                        "high": 0.26} for s in range(1, 5)]}]}
             for b in ("balanced", "greedy")]
    words = page.cells_section(cells, "middle-ages")
    assert "its 95% interval" not in words.intro
    assert f"{fam} of that cell" in words.intro and "not adjusted over the 2 cells" in words.intro
    assert words.tables[0][0] == f"Every cell of the panel (intervals: {fam}, per cell)"
