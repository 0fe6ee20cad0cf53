"""A before/after of two panels compares each cell's game length too, and its first answer ends with
the largest other changes (analysis.panel_compare.other_changes, reports.panel.other_changes_sentence).

A designer who changed Médiévallons' guilds.to_win from 3 to 2 read "Did the seat win rates move…?
Cannot tell" and nothing else, while every game became about 44% shorter. The length's change is
checked here against an independent computation from each cell's games.parquet (scipy's paired t
and Welch intervals at the family's Bonferroni level), and the family's intervals are checked to
hold all at once by simulation."""

from __future__ import annotations

import csv
import html
import io
import re

import numpy as np
import polars as pl
import pytest
from scipy import stats as sps

from cli import _run
from undrawn_figures import figures_undrawn

pytestmark = pytest.mark.slow   # a costly file: make test-slow and CI run it (docs/testing.md, the fast suite's budget)

GAMES = "300"


def _panel(out, seed: int, *extra: str) -> None:
    assert _run(["simulate", "--game", "medievallons", "--panel", "default", "--games", GAMES, "--seed",
                 str(seed), "--quiet", "--out", str(out), *extra]) == 0


@pytest.fixture(scope="module")
def panels(tmp_path_factory):
    """Médiévallons' default panel (3 cells at 4 players), guilds.to_win 3 → 2: on the same deals
    with rows (paired), and on other deals without players.parquet (unpaired, from stats.json)."""
    d = tmp_path_factory.mktemp("length")
    _panel(d / "a0", 0)
    _panel(d / "a1", 0, "--set", "guilds.to_win=2")
    _panel(d / "b0", 5, "--no-raw")
    _panel(d / "b1", 6, "--no-raw", "--set", "guilds.to_win=2")
    return d


def _report(panels, before: str, after: str, name: str) -> tuple[list[dict], str]:
    """``balance report BEFORE AFTER``: (comparison.csv's rows, the page). Its table and words are
    read, not its figures' pixels: the figures are built, not drawn (tests/undrawn_figures.py)."""
    out = panels / f"r-{name}"
    if not (out / "report.html").is_file():
        with figures_undrawn():
            assert _run(["report", str(panels / before), str(panels / after), "--out", str(out)]) == 0
    rows = list(csv.DictReader(io.StringIO((out / "comparison.csv").read_text())))
    return rows, (out / "report.html").read_text()


def _turns(run) -> np.ndarray:
    return pl.read_parquet(run / "games.parquet").sort("game")["turns"].to_numpy().astype(float)


def _lengths(rows: list[dict]) -> list[dict]:
    return [r for r in rows if r["metric"] == "mean_game_length"]


def _family(rows: list[dict]) -> int:
    """The size of the other changes' family: its rows with a p-value (length and end reasons)."""
    return sum(1 for r in rows if r["metric"] in ("mean_game_length", "end_reason_share") and r["p_value"])


def _cell_dirs(panel) -> dict[str, object]:
    import json

    out = {}
    for d in sorted(panel.glob("cell-*")):
        names = json.loads((d / "run.json").read_text())["strategies"]
        out[f"4p 4×{names[0]}"] = d
    return out


def test_each_cells_game_length_is_compared_paired_on_the_same_deals(panels):
    rows, page = _report(panels, "a0", "a1", "paired")
    lengths = _lengths(rows)
    assert len(lengths) == 3, rows
    m = _family(rows)
    assert m >= 3
    before, after = _cell_dirs(panels / "a0"), _cell_dirs(panels / "a1")
    for r in lengths:
        tb, ta = _turns(before[r["cell"]]), _turns(after[r["cell"]])
        assert r["unit"] == "player turns" and r["paired"] == "true"      # MV-3: a turn is one player's
        assert float(r["before"]) == pytest.approx(tb.mean(), abs=1e-9)
        assert float(r["after"]) == pytest.approx(ta.mean(), abs=1e-9)
        d = ta - tb
        assert float(r["diff"]) == pytest.approx(d.mean(), abs=1e-9)
        own = sps.ttest_rel(ta, tb).confidence_interval(0.95)
        assert (float(r["diff_low"]), float(r["diff_high"])) == pytest.approx((own.low, own.high), abs=1e-6)
        fam = sps.ttest_rel(ta, tb).confidence_interval(1 - 0.05 / m)       # Bonferroni over the family
        assert (float(r["size_low"]), float(r["size_high"])) == pytest.approx((fam.low, fam.high), abs=1e-6)
        # 2 turns matter in Médiévallons: a quarter to a half of every game is gone
        assert r["verdict"] == "clear and large enough to matter" and float(r["size_high"]) < -2
    # the first answer ends with the largest other changes, and their numbers are the table's
    lead = re.search(r"Did the seat win rates move, line-up by line-up\?(.*?)</p>", page, re.S).group(1)
    lead = html.unescape(re.sub(r"<[^>]+>", "", lead))
    tail = lead[lead.index("Largest other changes:"):]
    assert tail.startswith("Largest other changes: the mean game length, shorter in 3 of 3 cells by "), tail
    top = max(lengths, key=lambda r: abs(float(r["diff"])))
    said = re.search(rf"; the most in {re.escape(top['cell'])}: ([\d.]+) → ([\d.]+) player turns, ([+−][\d.]+) "
                     rf"player turns \(([+−][\d.]+) to ([+−][\d.]+) player turns\)", tail)
    assert said, tail
    before, after, change, low, high = (float(x.replace("−", "-")) for x in said.groups())
    d = len(said.group(3).split(".")[1])
    assert round(after - before, d) == change                  # the printed after − before is the change
    for x, col in ((before, "before"), (after, "after"), (change, "diff"), (low, "size_low"), (high, "size_high")):
        assert abs(x - float(top[col])) <= 0.5 * 10 ** -d + 1e-9, (col, x, top[col])
    assert f"over the {m} comparisons of every cell's game length" in tail, tail
    assert tail.rstrip().endswith("intervals over that family)."), tail
    assert "Game length and how games end, per cell" in page


def test_cells_without_players_rows_compare_the_length_unpaired_from_their_statistics(panels):
    rows, page = _report(panels, "b0", "b1", "unpaired")
    assert not list((panels / "b0").glob("cell-*/players.parquet"))
    lengths = _lengths(rows)
    assert len(lengths) == 3
    m = _family(rows)
    before, after = _cell_dirs(panels / "b0"), _cell_dirs(panels / "b1")
    for r in lengths:
        tb, ta = _turns(before[r["cell"]]), _turns(after[r["cell"]])
        assert r["paired"] == "false"
        assert float(r["before"]) == pytest.approx(tb.mean(), abs=1e-9)
        assert float(r["after"]) == pytest.approx(ta.mean(), abs=1e-9)
        welch = sps.ttest_ind(ta, tb, equal_var=False)
        own = welch.confidence_interval(0.95)
        assert (float(r["diff_low"]), float(r["diff_high"])) == pytest.approx((own.low, own.high), abs=1e-6)
        fam = welch.confidence_interval(1 - 0.05 / m)
        assert (float(r["size_low"]), float(r["size_high"])) == pytest.approx((fam.low, fam.high), abs=1e-6)
    assert "Largest other changes: the mean game length, shorter in 3 of 3 cells" in page


def test_the_same_rules_on_other_deals_say_no_other_change_is_clear(panels):
    rows, page = _report(panels, "a0", "b0", "same")
    lengths = _lengths(rows)
    assert len(lengths) == 3 and all(r["verdict"] == "within noise" for r in lengths), lengths
    assert all(r["verdict"] in ("within noise", "") for r in rows if r["metric"] == "end_reason_share")
    words = html.unescape(re.sub(r"<[^>]+>", "", page))          # (the method clause folds on the page)
    assert "Largest other changes: none clear (Holm's correction over the " in words, page


def test_the_familys_intervals_hold_all_at_once_by_simulation():
    """4 cells of 200 skewed game lengths each, paired (the same deals: after = a share of before
    plus noise) and unpaired (Welch): every cell's Bonferroni interval over the family of 4
    (family_intervals, rescaled from each cell's own 95% t interval) holds its true change at once
    in at least ~95% of 1,500 panels (of 150, unpaired: at least 90%); each cell's own 95% interval
    alone, in about 81%."""
    from analysis.panel_compare import _welch_dof, family_intervals

    rng = np.random.default_rng(39)
    reps, k, n = 1500, 4, 200
    mean_before = 20.0 + 5.0 * np.arange(k)          # gamma(shape 4, scale μ/4): right-skewed lengths
    keep = np.array([0.6, 0.7, 0.8, 1.0])           # after = keep × before + noise (mean 1)
    truth = (keep - 1.0) * mean_before + 1.0
    before = rng.gamma(4.0, mean_before[None, :, None] / 4.0, size=(reps, k, n))
    after = keep[None, :, None] * before + rng.exponential(1.0, size=(reps, k, n))
    # paired: each cell's own 95% t interval over the per-game differences (computed here, by hand)
    d = after - before
    est, se = d.mean(axis=2), d.std(axis=2, ddof=1) / np.sqrt(n)
    q = sps.t.ppf(0.975, n - 1)
    own_lo, own_hi = est - q * se, est + q * se
    held = held_own = 0
    for i in range(reps):
        lo, hi = family_intervals(est[i], own_lo[i], own_hi[i], np.full(k, n - 1.0), np.ones(k, bool))
        held += bool(np.all((lo <= truth) & (truth <= hi)))
        held_own += bool(np.all((own_lo[i] <= truth) & (truth <= own_hi[i])))
    print(f"paired: the family's intervals held all 4 changes in {held / reps:.3f} of {reps} panels, "
          f"each cell's own 95% interval in {held_own / reps:.3f}")
    assert held / reps >= 0.935, held / reps
    assert held_own / reps < 0.88, held_own / reps          # without the family: too many misses
    # exact: the rescaled interval is the t interval at level 1 − 0.05/4
    lo, hi = family_intervals(est[0], own_lo[0], own_hi[0], np.full(k, n - 1.0), np.ones(k, bool))
    q4 = sps.t.ppf(1 - 0.05 / 8, n - 1)
    np.testing.assert_allclose(lo, est[0] - q4 * se[0], rtol=1e-9)
    np.testing.assert_allclose(hi, est[0] + q4 * se[0], rtol=1e-9)

    # unpaired (other deals), the first 2 cells: Welch's interval from each side's own t interval,
    # its df recovered (each panel's differ, so no quantile is shared: fewer panels)
    wr, kw = 150, 2
    other = keep[None, :kw, None] * rng.gamma(4.0, mean_before[None, :kw, None] / 4.0, size=(wr, kw, n)) \
        + rng.exponential(1.0, size=(wr, kw, n))
    mb, ma = before[:wr, :kw].mean(axis=2), other.mean(axis=2)
    sb, sa = before[:wr, :kw].std(axis=2, ddof=1) / np.sqrt(n), other.std(axis=2, ddof=1) / np.sqrt(n)
    qn = sps.t.ppf(0.975, n - 1)
    held = 0
    for i in range(wr):
        dof = np.array([_welch_dof(mb[i, j] - qn * sb[i, j], mb[i, j] + qn * sb[i, j], n,
                                   ma[i, j] - qn * sa[i, j], ma[i, j] + qn * sa[i, j], n) for j in range(kw)])
        w, diff = np.hypot(sb[i], sa[i]), ma[i] - mb[i]
        q95 = sps.t.ppf(0.975, dof)
        lo, hi = family_intervals(diff, diff - q95 * w, diff + q95 * w, dof, np.ones(kw, bool))
        held += bool(np.all((lo <= truth[:kw]) & (truth[:kw] <= hi)))
        if i == 0:     # the df is Welch–Satterthwaite's, as scipy computes it; the interval its own
            ref = sps.ttest_ind(other[0, 0], before[0, 0], equal_var=False)
            assert dof[0] == pytest.approx(ref.df, rel=1e-9)
            fam = ref.confidence_interval(1 - 0.05 / kw)
            assert (lo[0], hi[0]) == pytest.approx((fam.low, fam.high), rel=1e-9)
    print(f"unpaired (Welch): the family's intervals held both changes in {held / wr:.3f} of {wr} panels")
    assert held / wr >= 0.9, held / wr


def test_a_share_that_mirrors_one_already_said_is_not_said_twice():
    """A game that ends one of two ways: fewer games ending by the draw pile are more games reaching
    the guild goal; the first answer names one of the two, and counts no "more" for the other."""
    from analysis.panel_compare import OTHER_SCHEMA, PanelComparison, other_changes
    from reports.panel import other_changes_sentence

    def row(cell, metric, item, key, unit, before, after, half, smallest):
        d = after - before
        return {"cell": cell, "players": 4, "metric": metric, "item": item, "key": key, "unit": unit,
                "before": before, "after": after, "diff": d, "diff_low": d - half, "diff_high": d + half,
                "z": d / (half / 1.96), "p_value": 1e-12, "paired": True, "note": None, "dof": 1999.0,
                "smallest": smallest, "games_before": 2000, "games_after": 2000, "seed_before": 0,
                "seed_after": 0, "unpaired_why": ""}

    rows = [row("4p a", "mean_game_length", "Mean game length", "all", "turns", 50.0, 30.0, 0.7, 2.0),
            row("4p a", "end_reason_share", "Games ending: Guild goal reached", "g", "share", 0.9, 1.0, 0.013, 0.01),
            row("4p a", "end_reason_share", "Games ending: Draw pile ran out", "p", "share", 0.1, 0.0, 0.013, 0.01),
            row("4p b", "mean_game_length", "Mean game length", "all", "turns", 30.0, 31.0, 0.2, 2.0)]
    other, m = other_changes(rows)
    assert m == 4 and other.columns == list(OTHER_SCHEMA)
    c = PanelComparison("medievallons", pl.DataFrame(), ["4p a", "4p b"], "seat", 0, 0.01, other=other,
                        other_family=m)
    text = other_changes_sentence(c)
    assert text.startswith("Largest other changes: the mean game length, longer in 1 and shorter in 1 of 2 "
                           "cells, "), text
    assert "; the most in 4p a: 50.0 → 30.0 turns, −20.0 turns (" in text, text
    assert "games ending: Guild goal reached in 4p a 90.0% → 100.0%, +10.0 pp (" in text, text
    assert "Draw pile" not in text and "more in the table" not in text, text
    assert "1 clear and large enough to matter, 1 clear but small" in text, text
