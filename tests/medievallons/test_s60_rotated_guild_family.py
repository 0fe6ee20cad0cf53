"""Session 60 review: a Médiévallons run played with ``--rotate-seats`` had guild-type verdicts that
contradicted their own p-values, intervals, the headline and the export. The page's "All N types at
once" range and its verdict words were read again from player-game counts as if every game were
independent, while the table (:func:`analysis.guilds.guild_table`: the p-values, the intervals,
the headline, ``balance export --what guilds``) counts a rotated run's deal as one game
(:attr:`analysis.load.RunSet.games_per_unit`): Rôdeur's own interval −0.9 to +3.6 pp, p (Holm) =
0.245, beside an all-at-once range of 0.0 to +2.9 pp and "clear, may matter"; the export and the
headline said "within noise".

Checked here on a small real rotated run, against numbers computed in the test from
players.parquet alone (its ``deal`` column: each deal's games weigh as one game), scipy's normal
quantiles and statsmodels' Holm: each ranked type's all-at-once range is that per-deal Bonferroni
interval (cut at 0 for a clear one), it holds the type's own 95% interval, it is at least as wide
as a 95% interval read deal by deal (cluster-robust, the deals as independent units), and the
page's verdict is the export's and the headline's."""

from __future__ import annotations

import re

import numpy as np
import polars as pl
import pytest
from scipy.stats import norm

from analysis import analyse, open_runs
from reports.games import medievallons as M
from reports.text import verdict_words
from tests.in_process import balance

from holm_reference import multipletests  # noqa: E402  (statsmodels' Holm, without its gc.collect)

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

LINEUP = "balanced,collector,saboteur,balanced"     # the review's line-up
SMALLEST = 0.01                                     # the run's smallest share difference (1 pp)


@pytest.fixture(scope="module")
def rot(tmp_path_factory):
    """2,000 rotated games (500 deals of 4), a few seconds to play once the kernels are cached."""
    out = tmp_path_factory.mktemp("rot") / "rot"
    balance("simulate", "--game", "medievallons", "--players", "4", "--games", "2000", "--seed", "3",
            "--rotate-seats", "--strategies", LINEUP, "--out", out)
    return out


def _num(text: str) -> float:
    return float(text.replace("−", "-").replace("+", ""))


def _range(cell: str) -> tuple[float, float, float]:
    """"−0.7 to +3.4 pp" → (−0.007, 0.034, half a unit of its last printed decimal, as a share)."""
    got = re.fullmatch(r"([−+]?[\d.]+) to ([−+]?[\d.]+) pp", cell)
    assert got, cell
    d = len(got.group(1).split(".")[1]) if "." in got.group(1) else 0
    return _num(got.group(1)) / 100, _num(got.group(2)) / 100, 0.5 * 10 ** -d / 100


def _per_deal(players: pl.DataFrame) -> dict:
    """Per type, from the player rows alone: the founders' and the others' win shares, the
    unpooled s.e. of their difference with each count divided by the games of a deal (a deal
    weighs as one game), a cluster-robust s.e. over the deals (the difference of two ratios,
    linearised, summed within each deal), whether the type ranks, and the Holm decision and the
    Bonferroni interval over the ranked types; the family size under ``None``."""
    deal = players["deal"].to_numpy()
    games_per_deal = players["game"].n_unique() / np.unique(deal).size
    assert games_per_deal == 4            # four seats, rotated once per seat
    _, deal_index = np.unique(deal, return_inverse=True)
    _, game_index = np.unique(players["game"].to_numpy(), return_inverse=True)
    win = players["win_share"].to_numpy().astype(float)
    n = win.size
    rows = {}
    for c in (c for c in players.columns if c.startswith("founded_")):
        hit = players[c].to_numpy() > 0
        f, o = hit.sum(), n - hit.sum()
        if f == 0:
            rows[c.removeprefix("founded_")] = {"ranked": False}
            continue
        p1, p2 = win[hit].mean(), win[~hit].mean()
        se = np.sqrt(p1 * (1 - p1) / (f / games_per_deal) + p2 * (1 - p2) / (o / games_per_deal))
        lin = np.where(hit, (win - p1) / f, -(win - p2) / o)        # the difference, linearised
        se_deals = np.sqrt((np.bincount(deal_index, weights=lin) ** 2).sum())
        # times the difference's design effect with each game a cluster, at least 1 (review s62 #2)
        se_games = np.sqrt((np.bincount(game_index, weights=lin) ** 2).sum())
        se_rows = np.sqrt(p1 * (1 - p1) / f + p2 * (1 - p2) / o)
        se *= max(se_games / se_rows, 1.0)
        rows[c.removeprefix("founded_")] = {"diff": p1 - p2, "se": se, "se_deals": se_deals,
                                            "ranked": f >= 30 and f / n >= 0.005}
    tested = [k for k, r in rows.items() if r["ranked"]]
    m = len(tested)
    p = [2 * norm.sf(abs(rows[k]["diff"] / rows[k]["se"])) for k in tested]
    reject = multipletests(p, alpha=0.05, method="holm")[0]
    crit = norm.ppf(1 - 0.05 / (2 * m))
    for k, clear in zip(tested, reject):
        r = rows[k]
        lo, hi = r["diff"] - crit * r["se"], r["diff"] + crit * r["se"]
        r.update(clear=bool(clear), width=hi - lo,
                 low=max(lo, 0.0) if clear and r["diff"] > 0 else lo,
                 high=min(hi, 0.0) if clear and r["diff"] < 0 else hi)
    rows[None] = m
    return rows


def test_a_rotated_runs_guild_ranges_and_verdicts_are_the_tables_read_by_deal(rot, tmp_path):
    expected = _per_deal(pl.read_parquet(rot / "players.parquet"))
    m = expected[None]
    t = analyse(open_runs([rot]))
    rows = M._guild_rows(t, SMALLEST)
    range_col = f"All {m} types at once (pp, the verdict's range)"
    verdict_col = f"Verdict (Holm over the {m} types; {100 * SMALLEST:g} pp matters)"
    own_col = next(c for c in rows.columns if c.startswith("Founders − others"))
    assert range_col in rows.columns and verdict_col in rows.columns, rows.columns
    export = balance("export", rot, "--what", "guilds", "--out", tmp_path / "guilds.csv")
    assert export.returncode == 0
    exported = dict(pl.read_csv(tmp_path / "guilds.csv").select("card", "verdict").iter_rows())
    table = {r["card"]: r for r in t["guild_types"].iter_rows(named=True)}
    headlines = M.guild_headlines(t)
    checked = 0
    for key, r in zip(t["guild_types"]["card"], rows.iter_rows(named=True)):
        e = expected[key]
        if not e["ranked"]:
            assert r[range_col] == "" and r[verdict_col].startswith("too few players ("), (key, r)
            continue
        lo, hi, half = _range(r[range_col])
        # the range: the per-deal Bonferroni interval over the ranked types, from the player rows
        assert abs(lo - e["low"]) <= half + 1e-12 and abs(hi - e["high"]) <= half + 1e-12, \
            (key, r[range_col], e["low"], e["high"])
        # ... never narrower than the type's own 95% interval (the table's, unrounded) ...
        own = table[key]
        assert lo <= own["diff_low"] + half and hi >= own["diff_high"] - half, (key, r[range_col], r[own_col])
        # ... nor than a 95% interval read deal by deal (where no cut at 0 shortens it)
        assert e["width"] >= 2 * 1.96 * e["se_deals"], (key, e["width"], e["se_deals"])
        # the verdict: the export's, worded as the page words it, and the table's own p beside it
        page_words = r[verdict_col].split(" (")[0]
        assert page_words == verdict_words(exported[key]), (key, r[verdict_col], exported[key])
        assert (page_words != "within noise") == e["clear"], (key, r[verdict_col], r["p (Holm-adjusted)"])
        # the headline that names the type says the same words
        name = own["card_name"]
        for line in headlines:
            if line.startswith(f"Players who found {M.with_article(name)} guild"):
                assert page_words in line, (key, page_words, line)
        checked += 1
    assert checked == m >= 10
