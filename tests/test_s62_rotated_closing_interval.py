"""Session 62 #1: on a rotated-seat run ``simulate``'s closing table and ``balance report`` print one
interval for a strategy's win share, and it is Wilson's at the deals' effective number of games
(:func:`analysis.stats.share_mean_wilson` of the per-deal means, read here from players.parquet;
over the bot's games where the deals have no spread, session 64),
not the t interval clipped at 0 that gave a rarely winning ``random`` "0.15% 0.00–0.32%" where
20,000 games measure 0.41%. A small seeded run: 100 deals of 4 rotations."""

from __future__ import annotations

import io

import numpy as np
import polars as pl
from rich.console import Console

from simcore import runner


def test_s62_rotated_closing_table_and_report_print_the_deals_wilson_interval(tmp_path):
    from analysis import open_runs
    from analysis.matchups import strategy_table
    from analysis.stats import share_mean_wilson
    from cli.progress import print_summary
    from simcore.numbers import rounded

    res = runner.simulate("middle-ages", games=400, seed=3, out=tmp_path / "r", quiet=True, result=True,
                          strategies="eventwise,balanced,greedy,random", rotate_seats=True)
    out = io.StringIO()
    print_summary(Console(file=out, width=220), res)
    text = out.getvalue()
    two = lambda v: f"{rounded(100 * v, 2):.2f}"         # noqa: E731
    players = pl.read_parquet(res.path / "players.parquet")
    per_deal = (players.group_by("deal", "strategy").agg(pl.col("win_share").cast(pl.Float64).mean())
                .sort("deal"))
    stat = {r["strategy"]: r for r in strategy_table(open_runs([res.path], source="stats")).iter_rows(named=True)}
    rows = {r["strategy"]: r for r in strategy_table(open_runs([res.path], source="rows")).iter_rows(named=True)}
    for name in ("eventwise", "balanced", "greedy", "random"):
        x = per_deal.filter(pl.col("strategy") == name)["win_share"].to_numpy()
        assert x.size == 100
        # (each bot on one seat of the deal's 4 games: 4 player rows a deal, read where the deals
        # have no spread; random wins no game here, 0-0.97% over its 400 games, where Wilson's
        # over the 100 deals read 0-3.70%, wider than one win would: session 64)
        lo, hi = share_mean_wilson(x.mean(), x.std(ddof=1), x.size, games=4 * x.size)
        r = stat[name]
        assert abs(r["ci_low"] - float(lo)) < 1e-9 and abs(r["ci_high"] - float(hi)) < 1e-9, (name, r, lo, hi)
        assert abs(rows[name]["ci_low"] - r["ci_low"]) < 1e-9 and abs(rows[name]["ci_high"] - r["ci_high"]) < 1e-9
        line = next(ln for ln in text.splitlines() if f" {name} " in ln and "│" in ln
                    and not ln.lstrip("│ ")[:1].isdigit())
        assert f"{two(r['ci_low'])}–{two(r['ci_high'])}%" in line, (line, r)
    assert np.isfinite(stat["random"]["ci_high"]) and stat["random"]["ci_high"] > stat["random"]["win_share"]
