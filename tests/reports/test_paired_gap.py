""""Toward or away from a fair seat share?" reads the pairing of a before/after.

Two runs of the same deals differ game by game only where the rules make them differ, so each
seat's change is measured to a tenth of a point where the runs' own intervals are ±1.5 pp wide.
The largest gap's change was read on the runs' intervals alone (Bonferroni over both runs' seats):
~10 times wider than the seat changes beside it, so the designer's first question read "these
games cannot tell" in nearly every report, even beside "no game differs". It is now read on every
seat's share before and after and its paired change, held at once (analysis.stats.
max_distance_change, the bound a tune's race uses), and says "unchanged" where no game differs.
"""

from __future__ import annotations

import functools

import pytest

from simcore import runner

pytestmark = pytest.mark.slow   # a costly file: make test-slow and CI run it (docs/testing.md, the fast suite's budget)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    d = tmp_path_factory.mktemp("gap")
    out = {}
    for name, settings in (("base", []), ("noop", ["income.palais.base=3"]),
                           ("tokens", ["setup.extra_coin_tokens=7"]), ("coins", ["setup.start_coins=5"])):
        out[name] = runner.simulate("middle-ages", games=20000, seed=1, out=d / name, settings=settings,
                                    raw=True, quiet=True)
    return out


@functools.lru_cache(maxsize=None)
def _analysed(run):
    """(the run set, its tables) of one run, read once for the module (the baseline is in every pair)."""
    from analysis import analyse, open_runs

    rs = open_runs([run])
    return rs, analyse(rs)


@functools.lru_cache(maxsize=None)
def _balance(a, b):
    """(the paired row, the unpaired row) of the largest gap's change from run ``a`` to ``b``;
    read once a pair for the module (the same pair is read by two checks)."""
    from analysis.compare import compare_runs
    from analysis.panel_compare import PanelComparison, run_pair_balance, seat_balance
    import polars as pl

    (ra, ta), (rb, tb) = _analysed(a), _analysed(b)
    cmp = compare_runs(ra, rb, ta, tb).table
    paired = run_pair_balance(cmp, ta, tb, 4)
    # the same rows read on both runs' intervals alone (as before)
    seats = cmp.filter(pl.col("metric") == "seat_win_share")
    games = [int(t["seat_tests"]["games"][0]) for t in (ta, tb)]
    rows = seats.select(pl.lit("").alias("cell"), "key", pl.col("base").alias("before"),
                        pl.col("variant").alias("after"), pl.lit(games[0]).alias("games_before"),
                        pl.lit(games[1]).alias("games_after"), pl.lit(4).alias("players"))
    unpaired = seat_balance(PanelComparison(game="", rows=rows, cells=[""], what="seat", family=0,
                                            smallest=0.01))
    return paired.row(0, named=True), unpaired.row(0, named=True)


def test_no_game_differs_is_unchanged(runs, tmp_path, undrawn):
    # (the terminal's words are read: the figures are built, not drawn, ``undrawn``)
    from in_process import balance

    p, _ = _balance(runs["base"], runs["noop"])
    assert p["paired"] and p["change"] == 0 and p["change_low"] == p["change_high"] == 0.0
    text = " ".join(balance("report", runs["base"], runs["noop"], "--out", tmp_path / "r").stdout.split())
    said = text[text.index("Toward or away"):]
    assert said.split("?", 1)[1].strip().startswith("Unchanged: no game differs"), said[:300]
    assert "cannot tell" not in said[:400]


def test_the_pairing_narrows_the_gap_change(runs, tmp_path, undrawn):
    from in_process import balance

    for name, most in (("tokens", 0.3), ("coins", 1.1)):
        p, u = _balance(runs["base"], runs[name])
        assert p["paired"] and not u["paired"]
        assert p["change_low"] <= p["change"] <= p["change_high"]
        # a small change is measured far more narrowly on the pairing; a large one, whose games
        # differ a lot, is bounded by the runs' own intervals in the same family (a little wider
        # than alone: 12 intervals held at once instead of 8)
        assert (p["change_high"] - p["change_low"]) < most * (u["change_high"] - u["change_low"]), (p, u)
    # five start coins each: seat 3's lead shrinks, and the page says so
    p, _ = _balance(runs["base"], runs["coins"])
    assert p["change_high"] < 0
    text = " ".join(balance("report", runs["base"], runs["coins"], "--out", tmp_path / "c").stdout.split())
    said = text[text.index("Toward or away"):]
    assert said.split("?", 1)[1].strip().startswith("Toward:"), said[:300]
    assert "read on the pairing, game by game" in said


def test_two_panels_of_the_same_deals_read_each_cells_gap_on_the_pairing(tmp_path, undrawn):
    """Two panels played on the same deals: each cell's largest-gap change is read on its seats'
    paired changes (one family over every seat of every cell), no wider than on the panels'
    intervals alone and far narrower for a small change, and the lead says so. (The terminal's
    words are read: the page's figures are built, not drawn, ``undrawn``.)"""
    import polars as pl

    from analysis.panel_compare import PanelComparison, panel_comparison, seat_balance
    from cli import _run, _simulate_app
    from in_process import balance

    for name, sets in (("base", []), ("tokens", ["--set", "setup.extra_coin_tokens=7"])):
        assert _run(["--panel", "default", "--games", "5000", "--seed", "2", *sets, "--out",
                     str(tmp_path / name), "-q"], prog="simulate", target=_simulate_app()) == 0
    c = panel_comparison(tmp_path / "base", tmp_path / "tokens")
    paired = seat_balance(c)
    assert paired["paired"].all() and paired["family"][0] == 3 * c.rows.height
    unpaired = seat_balance(PanelComparison(game=c.game, rows=c.rows.drop("paired").with_columns(
        pl.lit(False).alias("paired")), cells=c.cells, what=c.what, family=c.family, smallest=c.smallest))
    assert not unpaired["paired"].any()
    for p, u in zip(paired.iter_rows(named=True), unpaired.iter_rows(named=True)):
        assert p["change_low"] <= p["change"] <= p["change_high"]
        assert p["change_high"] - p["change_low"] < 0.35 * (u["change_high"] - u["change_low"]), (p, u)
    text = " ".join(balance("report", tmp_path / "base", tmp_path / "tokens", "--out", tmp_path / "r").stdout.split())
    said = text[text.index("Toward or away"):]
    assert "read on the pairing, game by game" in said and "wider than a paired test" not in said
    assert "moves by less than the 1 pp that matters in" in said, said[:400]
