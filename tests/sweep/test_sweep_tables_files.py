"""A sweep's report writes the tables its page shows as files a designer can load: values.csv (one
row per variant and headline metric, with its interval) and effects.csv (one row per comparison and
metric the page makes, with the family it is adjusted in), lists them on the page, and writes them
with the page (atomically: nothing else appears in the report directory).

Every number is checked against the variants' own rows, computed here without the toolkit: win
shares from players.parquet with statsmodels' Wilson interval, the seat imbalance as the largest
distance of a seat's share from 1/P, game lengths and turn-limit stops from games.parquet, paired
changes as the mean of per-game differences (their adjusted interval must hold the unadjusted
normal interval computed here and be no narrower). Two small sweeps (Middle-Ages 4 values × 3,000
games, Seigneurial 3 values × 2,000), played once for the module.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from statsmodels.stats.proportion import proportion_confint

from in_process import balance
from undrawn_figures import figures_undrawn

pytestmark = pytest.mark.slow   # a costly file: make test-slow and CI run it (docs/testing.md, the fast suite's budget)

Z = 1.959963984540054


def _swept(root, game: str, vary: str, games: int, seed: int):
    """A sweep of ``game`` over ``vary`` and its report (figures undrawn): (sweep, report, stdout)."""
    sw, rep = root / "sw", root / "rep"
    balance("sweep", "--game", game, "--vary", vary, "--games", games, "--seed", seed, "--out", sw,
            "--quiet")
    with figures_undrawn():
        done = balance("report", sw, "--out", rep)
    return sw, rep, done.stdout


@pytest.fixture(scope="module")
def ma(tmp_path_factory):
    return _swept(tmp_path_factory.mktemp("ma_files"), "middle-ages", "setup.start_coins=0..3", 3000, 11)


@pytest.fixture(scope="module")
def sg(tmp_path_factory):
    return _swept(tmp_path_factory.mktemp("sg_files"), "seigneurial", "track.start_square=0..2", 2000, 4)


def _csv(path: Path) -> pl.DataFrame:
    return pl.read_csv(path, infer_schema_length=None)


def _variants(sw: Path) -> dict[str, str]:
    """variant id → the swept value, from sweep.json."""
    import json

    meta = json.loads((sw / "sweep.json").read_text())
    name = meta["varies"][0]["name"]
    return {v["id"]: str(v["values"][name]) for v in meta["variants"]}


def _seat_wins(sw: Path, vid: str) -> np.ndarray:
    """games × seats array of each seat's win share per game, from the variant's rows."""
    p = pl.read_parquet(sw / "variants" / vid / "players.parquet", columns=["game", "seat", "win_share"])
    wide = p.pivot(on="seat", index="game", values="win_share").sort("game")
    seats = sorted(c for c in wide.columns if c != "game")
    return wide.select(seats).to_numpy().astype(float)


def test_the_report_directory_holds_the_page_its_figures_and_the_two_tables(ma):
    sw, rep, _ = ma
    # (the ownership marker is the report's own hidden file; no temporary is left beside it)
    assert sorted(p.name for p in rep.iterdir() if not p.name.startswith(".")) == [
        "effects.csv", "figures", "report.html", "values.csv"]
    assert sorted(p.name for p in rep.parent.iterdir()) == ["rep", "sw"]
    page = (rep / "report.html").read_text()
    assert "Tables as files" in page
    for name in ("values.csv", "effects.csv"):
        assert f"{name}: one row per" in page, name


def test_values_csv_has_every_value_with_its_seat_shares_wilson_and_the_imbalance(ma):
    sw, rep, _ = ma
    vals = _csv(rep / "values.csv")
    ids = _variants(sw)
    assert set(vals["variant"].to_list()) == set(ids)
    assert vals["setup.start_coins"].cast(pl.String).to_list() == [ids[v] for v in vals["variant"].to_list()]
    for vid in ids:
        w = _seat_wins(sw, vid)
        n, P = w.shape
        mine = vals.filter(pl.col("variant") == vid)
        for s in range(P):
            row = mine.filter(pl.col("metric") == f"seat_win_share_{s + 1}").row(0, named=True)
            share = w[:, s].sum() / n
            lo, hi = proportion_confint(w[:, s].sum(), n, alpha=0.05, method="wilson")
            assert row["estimate"] == pytest.approx(share, abs=1e-9)
            assert (row["low"], row["high"]) == (pytest.approx(lo, abs=1e-9), pytest.approx(hi, abs=1e-9))
            assert row["unit"] == "fraction" and row["games"] == n and "Wilson" in row["interval"]
        bal = mine.filter(pl.col("metric") == "balance").row(0, named=True)
        assert bal["estimate"] == pytest.approx(np.abs(w.mean(axis=0) - 1 / P).max(), abs=1e-9)
        assert bal["low"] <= bal["estimate"] <= bal["high"] and "Balance interval" in bal["interval"]


def test_values_csv_of_a_game_with_roles_has_role_shares_length_and_turn_limit_stops(sg):
    sw, rep, _ = sg
    vals = _csv(rep / "values.csv")
    for vid in _variants(sw):
        games = pl.read_parquet(sw / "variants" / vid / "games.parquet")
        players = pl.read_parquet(sw / "variants" / vid / "players.parquet")
        n = games.height
        mine = vals.filter(pl.col("variant") == vid)
        seigneur = players.filter(pl.col("role") == "seigneur")["win_share"].sum()
        row = mine.filter(pl.col("metric") == "role_win_share_seigneur").row(0, named=True)
        lo, hi = proportion_confint(seigneur, n, alpha=0.05, method="wilson")
        assert row["estimate"] == pytest.approx(seigneur / n, abs=1e-9)
        assert (row["low"], row["high"]) == (pytest.approx(lo, abs=1e-9), pytest.approx(hi, abs=1e-9))
        turns = games["turns"].to_numpy().astype(float)
        length = mine.filter(pl.col("metric") == "game_length").row(0, named=True)
        half = Z * turns.std(ddof=1) / np.sqrt(n)
        assert length["estimate"] == pytest.approx(turns.mean(), abs=1e-9)
        assert length["high"] - length["low"] == pytest.approx(2 * half, rel=1e-6)
        stopped = int((games["end_reason"] == 2).sum())            # 2 = truncated (SG-6)
        t = mine.filter(pl.col("metric") == "turn_limit_share").row(0, named=True)
        lo, hi = proportion_confint(stopped, n, alpha=0.05, method="wilson")
        assert t["estimate"] == pytest.approx(stopped / n) and t["high"] == pytest.approx(hi, abs=1e-9)
    assert "turn_limit_share" in (rep / "report.html").read_text()


def test_effects_csv_has_each_value_against_the_base_paired_with_its_family(ma):
    sw, rep, _ = ma
    eff = _csv(rep / "effects.csv")
    ids = {v: k for k, v in _variants(sw).items()}              # value → variant id
    k = len(ids)
    vbv = eff.filter(pl.col("family") == "value by value")
    # every two values but 0 → 3, which the first-vs-last family states (session 55: one
    # comparison, one family)
    m = k * (k - 1) // 2 - 1
    assert set(vbv["comparisons_in_family"].to_list()) == {m}
    assert vbv["level"][0] == pytest.approx(1 - 0.05 / m)
    base = eff.filter(pl.col("against_base"))
    assert set(base["family"].to_list()) == {"value by value", "first vs last value"}
    # every other value against the base rules' 0, from 0
    assert sorted(set(base["to"].cast(pl.String).to_list())) == ["1", "2", "3"]
    assert set(base["from"].cast(pl.String).to_list()) == {"0"}
    w0 = _seat_wins(sw, ids["0"])
    for v in ("1", "2", "3"):
        wv = _seat_wins(sw, ids[v])
        for s in range(w0.shape[1]):
            d = wv[:, s] - w0[:, s]
            row = base.filter((pl.col("to").cast(pl.String) == v)
                              & (pl.col("metric") == f"seat_win_share_{s + 1}")).row(0, named=True)
            half = Z * d.std(ddof=1) / np.sqrt(d.size)
            assert row["change"] == pytest.approx(d.mean(), abs=1e-9)
            assert row["low_unadjusted"] == pytest.approx(d.mean() - half, abs=1e-9)
            # adjusted over the family: never narrower than the one comparison's own interval
            assert row["low"] <= d.mean() - half + 1e-12 and row["high"] >= d.mean() + half - 1e-12
            assert row["verdict"] in ("clear and large enough to matter", "clear, may matter",
                                      "clear but small", "within noise")
        bal = base.filter((pl.col("to").cast(pl.String) == v) & (pl.col("metric") == "balance")).row(0, named=True)
        want = np.abs(wv.mean(axis=0) - 0.25).max() - np.abs(w0.mean(axis=0) - 0.25).max()
        assert bal["change"] == pytest.approx(want, abs=1e-9)
    # the other pairs are there too, and the first-vs-last family of the sentences
    assert vbv.filter(~pl.col("against_base")).select("from", "to").unique().height == k * (k - 1) // 2 - (k - 1)
    fl = eff.filter(pl.col("family") == "first vs last value")
    assert fl.select("from", "to").unique().rows() == [(0, 3)] and fl["comparisons_in_family"][0] == 1


def test_the_csv_verdicts_are_the_pages_words_and_no_row_says_not_shown(ma):
    _, rep, _ = ma
    text = (rep / "effects.csv").read_text()
    assert "not shown" not in text
    rows = list(csv.DictReader(io.StringIO(text)))
    assert rows and all(r["verdict"] for r in rows)
