"""Game length, end reasons and guild types (analysis.length, analysis.guilds) on real Médiévallons
runs: every number is recomputed here from the parquet files with numpy / scipy, and the card
ablation run as a comparison of two runs (one copy fewer) gives rows for the new metrics."""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest
from analysis_runs import medievallons_run, synthetic_run, wilson_ref
from scipy import stats as sps

from analysis import TABLES, analyse, open_runs
from analysis.compare import compare_tables, metric_vector
from analysis.length import bin_width

Z = sps.norm.ppf(0.975)
CARDS = ("artisan", "assassin", "bouffon", "chevalier", "etoile", "magicien", "marchand", "mendiant",
         "moine", "noble", "pretre", "rodeur", "sorciere")


def wilson(s, n):
    return wilson_ref(s, n)            # the score interval with exact Poisson ends


@pytest.fixture(scope="module")
def mv(tmp_path_factory):
    root = tmp_path_factory.mktemp("mv")
    base = medievallons_run(root / "base", 3000, 4, seed=3)
    variant = medievallons_run(root / "chevalier7", 3000, 4, seed=4, copies={"chevalier": 7})
    return {"base": base, "variant": variant, "t": analyse(open_runs([base])),
            "vt": analyse(open_runs([variant])),
            "games": pl.read_parquet(base / "games.parquet"),
            "players": pl.read_parquet(base / "players.parquet")}


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_tables_are_listed_and_present_only_for_runs_with_the_columns(mv, tmp_path):
    new = {"length", "length_distribution", "end_reasons", "guild_types"}
    assert new <= set(TABLES)
    assert new <= set(mv["t"])
    ma = analyse(open_runs([synthetic_run(tmp_path / "ma", 300, 4)]))
    assert not new & set(ma)


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_length_summary_equals_numpy(mv):
    turns = mv["games"]["turns"].to_numpy().astype(float)
    r = mv["t"]["length"].row(0, named=True)
    n = len(turns)
    assert r["games"] == n == 3000
    assert r["mean_turns"] == pytest.approx(turns.mean(), rel=1e-12)
    assert r["turns_sd"] == pytest.approx(turns.std(ddof=1), rel=1e-9)
    half = sps.t.ppf(0.975, n - 1) * turns.std(ddof=1) / np.sqrt(n)
    assert r["ci_low"] == pytest.approx(turns.mean() - half, rel=1e-9)
    assert r["ci_high"] == pytest.approx(turns.mean() + half, rel=1e-9)
    for name, q in (("p05", 0.05), ("p25", 0.25), ("median", 0.5), ("p75", 0.75), ("p95", 0.95)):
        assert r[name] == pytest.approx(np.quantile(turns, q)), name
    assert (r["min"], r["max"]) == (turns.min(), turns.max())
    resh = mv["games"]["reshuffles"].to_numpy().astype(float)
    assert r["mean_reshuffles"] == pytest.approx(resh.mean())
    assert 0 < r["mean_reshuffles"] < 1       # MV-6: at 4 players the End card is red (one reshuffle)


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_length_distribution_bins_by_end_reason(mv):
    d = mv["t"]["length_distribution"]
    g = mv["games"]
    turns, reason = g["turns"].to_numpy(), g["end_reason"].to_numpy()
    w = int(d["turns_to"][0] - d["turns_from"][0] + 1)
    assert w == bin_width(int(turns.min()), int(turns.max()))
    assert (d["turns_from"] % w == 0).all()
    assert d["turns_from"].n_unique() <= 40
    assert d["share"].sum() == pytest.approx(1.0)
    for row in d.iter_rows(named=True):
        hit = (turns >= row["turns_from"]) & (turns <= row["turns_to"]) & (reason == row["end_reason"])
        assert row["games"] == int(hit.sum())
    assert int(d["games"].sum()) == len(turns)
    assert bin_width(9, 109) == 5 and bin_width(20, 30) == 1 and bin_width(0, 1000) == 50


def test_end_reasons_equal_numpy_with_wilson_intervals_and_run_json_names(mv):
    e = mv["t"]["end_reasons"]
    g = mv["games"]
    names = json.loads((mv["base"] / "run.json").read_text())["end_reason_names"]
    assert e["end_reason"].to_list() == sorted(int(k) for k in names)
    assert e["end_reason_name"].to_list() == [names[str(k)] for k in e["end_reason"]]
    reason, turns = g["end_reason"].to_numpy(), g["turns"].to_numpy().astype(float)
    counts = np.bincount(reason, minlength=len(names))
    for r in e.iter_rows(named=True):
        k = counts[r["end_reason"]]
        assert r["games"] == k and r["total"] == len(reason)
        assert r["share"] == pytest.approx(k / len(reason))
        lo, hi = wilson(k, len(reason))
        assert (r["ci_low"], r["ci_high"]) == (pytest.approx(lo, abs=1e-12), pytest.approx(hi, abs=1e-12))
        if k:
            assert r["mean_turns"] == pytest.approx(turns[reason == r["end_reason"]].mean())
        else:
            assert r["mean_turns"] is None
    assert e.filter(pl.col("end_reason_name") == "third_guild")["label"][0] == "Guild goal reached"
    assert e["games"].sum() == len(reason)


def test_guild_types_equal_numpy(mv):
    gt = mv["t"]["guild_types"]
    p = mv["players"]
    w = p["win_share"].to_numpy().astype(float)
    assert gt["card"].to_list() == list(CARDS)
    assert gt.filter(pl.col("card") == "pretre")["card_name"][0] == "Prêtre"
    for r in gt.iter_rows(named=True):
        f = p[f"founded_{r['card']}"].to_numpy() > 0
        n = len(w)
        assert r["players"] == n and r["founders"] == int(f.sum())
        assert r["founded_share"] == pytest.approx(f.mean())
        assert r["mean_guilds"] == pytest.approx(p[f"founded_{r['card']}"].to_numpy().mean())
        assert r["fair_share"] == pytest.approx(0.25)
        if f.sum():
            assert r["founders_win_share"] == pytest.approx(w[f].mean(), rel=1e-9)
            lo, hi = wilson(w[f].sum(), f.sum())
            assert r["founders_ci_low"] == pytest.approx(lo, abs=1e-9)
            assert r["founders_ci_high"] == pytest.approx(hi, abs=1e-9)
        assert r["others_win_share"] == pytest.approx(w[~f].mean(), rel=1e-9)
        if r["founders"] > 100:
            p1, p2 = w[f].mean(), w[~f].mean()
            # the statistics hold a shared win as exactly 1/k; the rows as float32 (1/3 off by 1e-8)
            assert r["diff"] == pytest.approx(p1 - p2, abs=1e-9)
            assert r["diff_low"] < r["diff"] < r["diff_high"]
            # its s.e. the games' (each game a cluster, review s62 #2), never below the rows'
            g = p["game"].to_numpy()
            lin = np.where(f, (w - p1) / f.sum(), -(w - p2) / (~f).sum())
            se_game = np.sqrt((np.bincount(g, weights=lin) ** 2).sum())
            se_rows = np.sqrt(p1 * (1 - p1) / f.sum() + p2 * (1 - p2) / (~f).sum())
            z = (p1 - p2) / max(se_game, se_rows)
            assert r["p_value"] == pytest.approx(2 * sps.norm.sf(abs(z)), rel=1e-6, abs=1e-300)
        if r["card"] == "bouffon":
            assert r["mean_powers"] is None          # MV-5: the Bouffon has no power
        else:
            assert r["mean_powers"] == pytest.approx(p[f"powers_{r['card']}"].to_numpy().mean())
    # Holm over the types: adjusted p-values are never below the raw ones.
    assert (gt["p_adjusted"] >= gt["p_value"] - 1e-15).all()


def test_metric_vector_has_length_end_reason_and_guild_rows(mv):
    v = metric_vector(mv["t"])
    by = {m: v.filter(pl.col("metric") == m) for m in ("mean_turns", "end_reason_share",
                                                       "guild_founded_share", "guild_founders_win_share")}
    assert by["mean_turns"].height == 1
    assert by["mean_turns"]["estimate"][0] == pytest.approx(mv["games"]["turns"].to_numpy().mean())
    assert sorted(by["end_reason_share"]["key"]) == ["empty_pile", "third_guild", "truncated"]
    assert by["guild_founded_share"].height == 13
    assert set(by["guild_founders_win_share"]["key"]) <= set(CARDS)
    assert by["guild_founders_win_share"].filter(pl.col("key") == "pretre")["kind"][0] == "proportion"


def test_card_ablation_as_a_comparison_of_two_runs(mv):
    """Base rules against a rules file with one Chevalier fewer: the comparison has rows for guild,
    length and end-reason metrics, and flags the drop in Chevalier guilds founded."""
    cmp = compare_tables(mv["t"], mv["vt"])
    metrics = set(cmp["metric"])
    assert {"mean_turns", "end_reason_share", "guild_founded_share", "guild_founders_win_share"} <= metrics
    row = cmp.filter((pl.col("metric") == "guild_founded_share") & (pl.col("key") == "chevalier")).row(
        0, named=True)
    vp = pl.read_parquet(mv["variant"] / "players.parquet")
    expected_base = (mv["players"]["founded_chevalier"].to_numpy() > 0).mean()
    expected_var = (vp["founded_chevalier"].to_numpy() > 0).mean()
    assert row["base"] == pytest.approx(expected_base)
    assert row["variant"] == pytest.approx(expected_var)
    assert row["diff"] == pytest.approx(expected_var - expected_base)
    assert row["diff"] < 0 and row["significant"]
    vg = pl.read_parquet(mv["variant"] / "games.parquet")
    t = cmp.filter(pl.col("metric") == "mean_turns").row(0, named=True)
    assert t["diff"] == pytest.approx(vg["turns"].to_numpy().mean() - mv["games"]["turns"].to_numpy().mean())


def test_small_run_by_hand(tmp_path):
    """5 games, 2 players, worked out by hand: quantiles interpolate linearly (numpy's default)."""
    from analysis_runs import write_run

    players = {"game": [0, 0, 1, 1, 2, 2, 3, 3, 4, 4], "seat": [0, 1] * 5, "strategy": ["A"] * 10,
               "score": [5, 3, 2, 6, 4, 4, 7, 1, 0, 9], "win_share": [1, 0, 0, 1, 0.5, 0.5, 1, 0, 0, 1],
               "rank": [1, 2, 2, 1, 1, 1, 1, 2, 2, 1],
               # founded_moine: players 0, 3, 4, 5, 6 → win shares 1, 1, .5, .5, 1 → 4 / 5 = 0.8
               "founded_moine": [1, 0, 0, 2, 1, 1, 1, 0, 0, 0],
               "founded_bouffon": [0] * 10, "powers_moine": [2, 0, 0, 3, 1, 1, 0, 0, 0, 1]}
    games = {"game": [0, 1, 2, 3, 4], "n_players": [2] * 5, "turns": [1, 2, 3, 4, 10],
             "end_reason": [0, 0, 1, 0, 2], "reshuffles": [0, 1, 0, 0, 1]}
    run = write_run(tmp_path / "hand", players, games, game="medievallons",
                    end_reason_names={"0": "third_guild", "1": "empty_pile", "2": "truncated"})
    t = analyse(open_runs([run]))
    r = t["length"].row(0, named=True)
    assert r["mean_turns"] == pytest.approx(4.0)
    assert (r["p05"], r["p25"], r["median"], r["p75"], r["p95"]) == pytest.approx((1.2, 2.0, 3.0, 4.0, 8.8))
    assert r["mean_reshuffles"] == pytest.approx(0.4)
    e = t["end_reasons"]
    assert e["games"].to_list() == [3, 1, 1]
    assert e["mean_turns"].to_list() == pytest.approx([7 / 3, 3.0, 10.0])
    assert e["label"].to_list() == ["Guild goal reached", "Draw pile ran out", "Turn limit reached"]
    d = t["length_distribution"]
    assert d["turns_from"].to_list() == [1, 2, 3, 4, 10]          # width 1: 10 bins at most
    g = {x["card"]: x for x in t["guild_types"].iter_rows(named=True)}
    m = g["moine"]
    assert (m["founders"], m["founded_share"], m["mean_guilds"]) == (5, 0.5, pytest.approx(0.6))
    assert m["founders_win_share"] == pytest.approx(0.8)
    assert m["others_win_share"] == pytest.approx(0.2)           # players 1, 2, 7, 8, 9: 0+0+0+0+1
    assert m["diff"] == pytest.approx(0.6)
    assert m["mean_powers"] == pytest.approx(0.8)
    assert g["bouffon"]["founders"] == 0 and g["bouffon"]["founders_win_share"] is None
    assert g["bouffon"]["mean_powers"] is None
    v = metric_vector(t)
    assert "bouffon" not in v.filter(pl.col("metric") == "guild_founders_win_share")["key"].to_list()
