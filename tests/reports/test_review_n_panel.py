"""Review N, the panel pages: a before/after over a panel printed "clear" beside a size interval
through 0 (#1); a seat that won the very same games under both rules was "0.0 to 0.0 pp, within
noise" inside the Holm family (#8); the lead never said whether the change moves the seats toward or
away from a fair share (#2); a panel page stated "The finding: …" as a fact that held in no cell
(#4). Panels here are written by hand (:func:`tests.analysis.analysis_runs.write_run`), a few
hundred games a cell, so that each case is there by construction."""

from __future__ import annotations

import re

import numpy as np
import polars as pl
import pytest

from analysis import stats
from analysis.panel_compare import PanelComparison, panel_comparison
from tests.analysis.analysis_runs import write_run

pytestmark = pytest.mark.slow   # a costly file: make test-slow and CI run it (docs/testing.md, the fast suite's budget)

G = 400


def _ends(text: str) -> list[tuple[float, float, float]]:
    """Every ``CHANGE pp (LOW to HIGH pp), clear…`` of a page's text as (change, low, high)."""
    num = r"([+−]?\d+\.\d+)"
    return [tuple(float(x.replace("−", "-")) for x in m)
            for m in re.findall(num + r" pp \(" + num + " to " + num + r" pp\), clear", text)]


def _hand_comparison() -> PanelComparison:
    """Two cells of two seats, as panel_comparison gives them: Seat 2 of cell A and of cell B
    clear after Holm (p_adjusted below 0.05) though their Bonferroni intervals over the family
    still hold 0 (the review's 4×eventwise Seat 2 and Seat 4); Seat 1 of cell B within noise."""
    rows = [("4p a", "Seat 1", 0.2022, 0.2506, 0.0484, 0.0370, 0.0600, 1e-30),
            ("4p a", "Seat 2", 0.2506, 0.2403, -0.0103, -0.0221, 0.0012, 0.0315),
            ("4p b", "Seat 1", 0.2422, 0.2368, -0.0054, -0.0170, 0.0062, 0.33),
            ("4p b", "Seat 2", 0.2352, 0.2268, -0.0085, -0.0193, 0.0020, 0.0402)]
    t = pl.DataFrame([{"cell": c, "players": 4, "item": i, "key": i, "before": b, "after": a, "diff": d,
                       "size_low": lo, "size_high": hi, "p_adjusted": p, "significant": p < 0.05,
                       "paired": True, "note": None, "games_before": 20000, "games_after": 20000,
                       "seed_before": 5, "seed_after": 5, "unpaired_why": ""}
                      for c, i, b, a, d, lo, hi, p in rows], schema_overrides={"note": pl.String})
    verdict = stats.practical(t["diff"].to_numpy(), t["size_low"].to_numpy(), t["size_high"].to_numpy(),
                              0.01, clear=t["significant"].to_numpy())
    t = t.with_columns(pl.Series("verdict", list(verdict), dtype=pl.String))
    return PanelComparison("middle-ages", t, ["4p a", "4p b"], "seat", 12, 0.01)


def test_no_clear_change_is_printed_or_drawn_beside_an_interval_through_0():
    """Review N #1: "−1.0 pp (−2.2 to +0.1 pp), clear, may matter". A clear change is shown on the
    range its size is read on: its side of 0 (Holm shows the sign), and the page says so."""
    from reports.panel import CUT_AT_ZERO, change_figure, comparison_findings, comparison_table

    c = _hand_comparison()
    lead = " ".join(comparison_findings(c))
    said = _ends(lead)
    assert len(said) == 3, lead                    # the three clear changes, each with its range
    for d, lo, hi in said:
        assert (lo >= 0 and hi >= 0) if d > 0 else (lo <= 0 and hi <= 0), (d, lo, hi, lead)
    assert CUT_AT_ZERO in lead
    table = comparison_table(c)
    col = next(k for k in table.columns if k.startswith("Interval over the family"))
    for r, shown in zip(c.rows.iter_rows(named=True), table[col]):
        lo, hi = (float(x.replace("−", "-")) for x in shown.removesuffix(" pp").split(" to "))
        if r["significant"]:
            assert (lo >= 0 and hi >= 0) if r["diff"] > 0 else (lo <= 0 and hi <= 0), (r, shown)
        else:                                      # within noise: its interval as it is, through 0
            assert lo < 0 < hi, shown
    fig = change_figure(c)
    bars = [b for b in fig.axes[0].containers if hasattr(b, "errorbar") and b.errorbar is not None]
    items = sorted(c.rows["item"].unique().to_list(), key=lambda s: (len(s), s))
    for cell, bar in zip(c.cells, bars):
        segments = bar.errorbar.lines[2][0].get_segments()
        for item, seg in zip(items, segments):
            r = c.rows.filter((pl.col("cell") == cell) & (pl.col("item") == item)).row(0, named=True)
            lo, hi = sorted(seg[:, 1])
            if r["significant"]:
                assert (lo >= 0) if r["diff"] > 0 else (hi <= 0), (cell, item, lo, hi)
    # the CSV's columns are the data: the interval's own ends
    assert (c.rows["size_high"] > 0).sum() == 4


def _panels(tmp_path, same_seat: int = 0):
    """A base and a variant panel of two Middle-Ages cells of 4 seats, the same deals (seed 7,
    G games): in cell-0 seat ``same_seat`` wins the very same games under both rules (the other
    seats' wins redrawn, seat 2 favoured after); in cell-1 every seat's games are redrawn."""
    rng = np.random.default_rng(7)
    out = {"base": tmp_path / "base", "variant": tmp_path / "variant"}
    wins = {}
    for k, bot in enumerate(("balanced", "greedy")):
        before = rng.integers(0, 4, size=G)
        after = before.copy()
        others = before != same_seat if k == 0 else np.ones(G, bool)
        pool = [s for s in range(4) if s != same_seat] if k == 0 else list(range(4))
        weights = np.array([3.0 if s == 1 else 1.0 for s in pool])
        after[others] = rng.choice(pool, size=int(others.sum()), p=weights / weights.sum())
        for side, winner, sha in (("base", before, "before"), ("variant", after, "after")):
            game = np.repeat(np.arange(G), 4)
            seat = np.tile(np.arange(4), G)
            win = (seat == np.repeat(winner, 4)).astype(float)
            wins[(side, k)] = win.reshape(G, 4)
            write_run(out[side] / f"cell-{k}", {"game": game, "seat": seat, "strategy": [bot] * (4 * G),
                                                "score": rng.integers(0, 30, size=4 * G), "win_share": win,
                                                "rank": np.where(win > 0, 1, 2)},
                      {"game": np.arange(G), "n_players": np.full(G, 4), "reshuffles": np.zeros(G, int)},
                      seed=7, strategies=[bot] * 4, rules_sha256=sha, rules_name=sha)
    return out["base"], out["variant"], wins


def test_a_seat_with_the_same_games_under_both_rules_is_named_and_kept_out_of_the_family(tmp_path, undrawn):
    """Review N #8: the Seigneur won the same 3 games under both rules; the paired differences were
    all 0, and the row read "0.0 to 0.0 pp, within noise" inside the Holm family of 4. Such a row is
    named and kept out of the family, with the bound its games put on its change. (The page's words
    are read: its figure need not be drawn, ``undrawn``; a panel before/after's change figure is
    drawn in test_a_game_with_roles_reads_the_split_within_a_role_before_and_after and
    test_review_l_panel_rules.py.)"""
    from reports.panel import build_panel_comparison_report

    base, variant, wins = _panels(tmp_path)
    c = panel_comparison(base, variant)
    assert c.rows["paired"].all()
    same = {(k, s) for k in range(2) for s in range(4)
            if np.array_equal(wins[("base", k)][:, s], wins[("variant", k)][:, s])}
    assert same == {(0, 0)}                         # by construction: seat 1 of cell-0
    untested = c.rows.filter(pl.col("p_value").is_null())
    assert [(r["cell"], r["item"]) for r in untested.iter_rows(named=True)] == [("4p 4×balanced", "Seat 1")]
    assert untested["verdict"].to_list() == [None] and untested["note"][0]
    assert c.family == 8 - len(same)
    tested = c.rows.filter(pl.col("p_value").is_not_null())
    assert tested["p_adjusted"].to_numpy() == pytest.approx(stats.holm(tested["p_value"].to_numpy()))
    answers: list[str] = []
    page = build_panel_comparison_report(base, variant, tmp_path / "r", answers=answers)
    lead = " ".join(answers)
    assert "Not tested, the same result in every game under both rules (paired game by game): Seat 1 in " \
           "4p 4×balanced" in lead, lead
    # what G games with no differing game allow: 1 − 0.05^(1/G), about 3/G (the rule of three)
    bound = 1 - 0.05 ** (1 / G)
    assert f"no game of the {G} differs, so its change is at most" in lead, lead
    at_most = float(re.search(r"at most (\d+\.\d+) pp", lead).group(1))
    assert 100 * bound <= at_most < 100 * bound + 0.1, (at_most, bound)
    assert "0.0 to 0.0 pp" not in page.read_text(encoding="utf-8")


# the shares of three 4-player cells of 20,000 games: Seat 3 the furthest from 1/P on average
# (+0.6 pp in each cell, within noise on the intervals adjusted over the panel), Seat 1 clearly
# below 1/P in 4p 4×balanced only (−1.5 pp): the review's panel of 300 games a cell, in kind
QUESTION = {"4p 4×balanced": (0.2350, 0.2545, 0.2560, 0.2545),
            "4p 4×greedy": (0.2550, 0.2440, 0.2560, 0.2450),
            "4p 4×eventwise": (0.2540, 0.2450, 0.2560, 0.2450)}


def test_a_finding_that_holds_in_no_cell_is_asked_and_the_clear_call_of_another_seat_is_named():
    """Review N #4 (rep-small): "The finding: Seat 3 wins more than a fair seat share", then "in none
    of the 3 cells"; the page's only clear call, Seat 1 in 4×balanced, was named only as "the
    largest gap among the other seats"."""
    from analysis import panel
    from tests.sweep.test_panel_states_its_finding import ALIKE, GAMES, _cells, _size

    cells = _cells(QUESTION)
    gaps = {s: np.mean([xs[s] - 0.25 for xs in QUESTION.values()]) for s in range(4)}
    picked = max(gaps, key=lambda s: abs(gaps[s]))
    clear = {(c, s) for c, xs in QUESTION.items() for s in range(4) if _size(xs[s]) != "within noise"}
    assert picked == 2 and clear == {("4p 4×balanced", 0)}          # the case, by construction
    statement = panel.finding_statement(cells, ALIKE)
    assert statement.startswith("The question: does Seat 3 win more than a fair seat share (1/P = 25%)? "
                                "Seat 3 is the seat picked"), statement
    text = panel.finding(cells, ALIKE, n=3)
    assert not text.startswith("The finding") and "(clear: " not in text, text
    x = QUESTION["4p 4×balanced"][0]
    assert (f"The only clear call is about another seat, on the same intervals: Seat 1 in 4p 4×balanced, "
            f"{100 * (0.25 - x):.1f} pp below 1/P ({_size(x)}).") in text, text
    # nothing clear anywhere: said so
    flat = _cells({c: (0.2500, 0.2480, 0.2560, 0.2460) for c in QUESTION})
    assert panel.finding_statement(flat, ALIKE).startswith("The question: does Seat 3 win more")
    assert panel.finding(flat, ALIKE, n=3).endswith("No other seat is clearly off 1/P in any cell either.")
    assert GAMES == 20000


def test_a_role_finding_that_holds_in_no_cell_is_asked(tmp_path, multipletests):
    """Review N #4 (rep-sg-variant): "The finding: the Censitaires' seats do not win equally often
    …", then "None of the 4 cells shows the Censitaires' seats winning unequally often". The lead
    states no finding about the split that no cell shows: its headline says it is in none."""
    from analysis import open_runs
    from analysis.roles import role_seat_table
    from tests.reports.test_panel_roles import _cell

    runs = [_cell(tmp_path / "p" / f"cell-{k}", (1, 1, 1), seigneur_wins=3, seed=4 + k) for k in range(2)]
    p = np.concatenate([role_seat_table(open_runs([r])).filter(pl.col("role") == "censitaire")["seat_p_value"]
                        .to_numpy() for r in runs])
    assert not multipletests(p, method="holm")[0].any()           # no seat clear in any cell (Holm)
    from analysis import panel

    lead = panel.panel_table([tmp_path / "p"]).lead
    none = [x for x in lead if x.startswith("Censitaire seats split the Censitaires' wins unequally in none of "
                                            "the 2 cells: no seat's share of the Censitaires' wins is clearly "
                                            "off an equal split")]
    assert len(none) == 1 and "that gap is not clear after the adjustment" in none[0], lead
    assert not any(x.startswith("The finding: ") for x in lead), lead


# the review's panel before/after (rep-ba): every seat's win share before and after start coins
# 0, 1, 2, 3, 20,000 games a cell
REVIEW_BA = {"4p 4×balanced": ((0.20225, 0.2548, 0.2973, 0.24565), (0.25065, 0.22555, 0.2492, 0.2746)),
             "4p 4×greedy": ((0.19935, 0.25235, 0.27175, 0.27655), (0.23625, 0.2202, 0.24875, 0.2948)),
             "4p 4×eventwise": ((0.27205, 0.25055, 0.2422, 0.2352), (0.2962, 0.24025, 0.2368, 0.22675))}


def _review_comparison() -> PanelComparison:
    rows = [{"cell": c, "players": 4, "item": f"Seat {s + 1}", "key": f"Seat {s + 1}", "before": b[s],
             "after": a[s], "diff": a[s] - b[s], "games_before": 20000, "games_after": 20000}
            for c, (b, a) in REVIEW_BA.items() for s in range(4)]
    return PanelComparison("middle-ages", pl.DataFrame(rows), list(REVIEW_BA), "seat", 12, 0.01)


def test_the_lead_says_per_cell_whether_the_seats_move_toward_or_away_from_fair():
    """Review N #2: the page said "Seat 1 … up in every one" and never whether the coins help
    balance; they even out 4×balanced and unbalance 4×eventwise. Each cell's largest gap from 1/P,
    before and after, with its range from every seat's Wilson interval over every seat of every
    cell of both panels (statsmodels', at 1 − 0.05/24), and the change worded on those ranges."""
    from statsmodels.stats.proportion import proportion_confint

    from analysis.panel_compare import seat_balance
    from reports.panel import balance_sentence, balance_table

    c = _review_comparison()
    bal = seat_balance(c)
    n = 2 * sum(len(b) for b, _ in REVIEW_BA.values())

    def gap_range(shares):
        near, far = [], []
        for x in shares:
            lo, hi = (e - 0.25 for e in proportion_confint(round(x * 20000), 20000, alpha=0.05 / n, method="wilson"))
            near.append(0.0 if lo <= 0 <= hi else min(abs(lo), abs(hi)))
            far.append(max(abs(lo), abs(hi)))
        return max(near), max(far)

    told = {}
    for cell, (b, a) in REVIEW_BA.items():
        r = bal.filter(pl.col("cell") == cell).row(0, named=True)
        (bl, bh), (al, ah) = gap_range(b), gap_range(a)
        assert (r["before_low"], r["before_high"], r["after_low"], r["after_high"]) == pytest.approx(
            (bl, bh, al, ah), rel=1e-9)
        assert r["before"] == pytest.approx(max(abs(x - 0.25) for x in b))
        assert r["after"] == pytest.approx(max(abs(x - 0.25) for x in a))
        low, high = al - bh, ah - bl
        told[cell] = "shrinks" if high < 0 else "grows" if low > 0 else "cannot tell"
    # the review's reading: the coins even out 4×balanced, unbalance 4×eventwise; 4×greedy untold
    assert told == {"4p 4×balanced": "shrinks", "4p 4×greedy": "cannot tell", "4p 4×eventwise": "grows"}
    text = balance_sentence(bal, c.smallest)
    assert text.startswith("Toward or away from a fair seat share (1/P = 25%)? The largest gap of a seat's "
                           "win share from 1/P shrinks in 4p 4×balanced (4.8 → 2.5 pp; change −2.3 pp ("), text
    assert "grows in 4p 4×eventwise (2.2 → 4.6 pp; change +2.4 pp (" in text, text
    # and why, on the untold cell's own ranges (review Z #1: beside clear seat moves it read as a
    # contradiction)
    gl, gh = gap_range(REVIEW_BA["4p 4×greedy"][0])[0], gap_range(REVIEW_BA["4p 4×greedy"][1])[1]
    assert (f"these games cannot tell in 4p 4×greedy; the games put the largest gap at "
            f"{100 * gl:.1f} pp or more before and at up to {100 * gh:.1f} pp after, so it may be no "
            "smaller, even where a seat moved clearly (it may have crossed the fair share); more games "
            "would tell (before → after: the runs' values;") in text, text
    table = balance_table(bal, c.smallest)
    # signed from the seat's side (review R #9): Seat 1 won 20.2%, below 25%; Seat 4 27.5%, above
    assert table["Largest gap before"][0].startswith("Seat 1 −4.8 pp (size ")
    assert table["Largest gap after"][0].startswith("Seat 4 +2.5 pp (size ")


def test_a_game_with_roles_reads_the_split_within_a_role_before_and_after(tmp_path):
    """In a game with roles the balance is what the panel page's finding is about: each Censitaire
    seat's share of the Censitaires' wins against an equal split (review N #2, #3: the
    Seigneurial before/after compared only the Seigneur's side)."""
    from analysis import open_runs
    from analysis.roles import role_seat_table
    from reports.panel import build_panel_comparison_report
    from tests.reports.test_panel_roles import _cell

    for side, split, sha in (("base", (0.05, 0.32, 0.63), "before"), ("variant", (1, 1, 1), "after")):
        _cell(tmp_path / side / "cell-0", split, seigneur_wins=30, lineup=("greedy-lord", "dutiful"))
        run = tmp_path / side / "cell-0" / "run.json"
        run.write_text(run.read_text().replace('"rules_sha256": "test"', f'"rules_sha256": "{sha}"'))
    answers: list[str] = []
    build_panel_comparison_report(tmp_path / "base", tmp_path / "variant", tmp_path / "r", answers=answers)
    lead = " ".join(answers)
    gaps = [float((role_seat_table(open_runs([tmp_path / s / "cell-0"])).filter(pl.col("role") == "censitaire")
                   ["share_of_role"] - 1 / 3).abs().max()) for s in ("base", "variant")]
    assert gaps[0] > 0.25 > 0.02 > gaps[1], gaps                      # the split, by construction
    assert ("The largest gap of a Censitaire seat's share of the Censitaires' wins from an equal split "
            f"shrinks in 4p greedy-lord + 3×dutiful ({100 * gaps[0]:.1f} → {100 * gaps[1]:.1f} pp;") in lead, lead
    assert (tmp_path / "r" / "balance.csv").is_file()


def test_the_panel_page_of_a_game_with_roles_splits_its_cell_table_so_the_finding_columns_fit(tmp_path, undrawn):
    """Review N #11: the Seigneurial panel page's one cell table of 12 columns ran past a 1300-pixel
    window, each seat's share of the Censitaires' wins behind a scroll bar. The columns the
    finding reads come first, in a table of their own; each seat's share of all games follows.
    (The page's tables are read: its figure need not be drawn, ``undrawn``; a role game's panel
    page is drawn in test_panel_roles.py.)"""
    import html as html_mod

    from reports.panel import build_panel_report
    from tests.reports.test_panel_roles import _cell

    _cell(tmp_path / "p" / "cell-0", (0.05, 0.32, 0.63), lineup=("greedy-lord", "dutiful"))
    _cell(tmp_path / "p" / "cell-1", (1, 1, 1), seigneur_wins=3, seed=4)
    page = build_panel_report([tmp_path / "p"], tmp_path / "rep").read_text(encoding="utf-8")
    every = page[page.index(">Every cell<"):]
    tables = [[html_mod.unescape(re.sub(r"<[^>]+>", "", h)) for h in re.findall(r"<th[^>]*>.*?</th>", t)]
              for t in re.findall(r"<table>(.*?)</thead>", every)]
    first, second = tables[0], tables[1]
    finding = [f"Seat {s}'s share of the Censitaires' wins" for s in (2, 3, 4)]
    assert all(x in first for x in finding) and "the Censitaires' win share" in first, first
    assert len(first) <= 8 and not any(h.endswith("'s win share") and h.startswith("Seat ") for h in first)
    assert [h for h in second if h.startswith("Seat ")] == [
        "Seat 1 (Seigneur)'s win share", "Seat 2 (Censitaire)'s win share", "Seat 3 (Censitaire)'s win share",
        "Seat 4 (Censitaire)'s win share"], second
