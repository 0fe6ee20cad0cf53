"""A side that wins every game under both rules has not moved.

players.parquet keeps win shares as float32: a win the three Censitaires share is three float32
thirds, 1.00000003 in float64, while a win one Censitaire takes alone is 1.0. A sweep read from
rows then saw the Censitaires' 100% move between two variants (games stopped at the turn limit in
one, won by an objective in the other) and called it "clear but small: 0.000 pp (0.000 to
0.000)". Each share is now taken as the whole number of 1/L it is.
"""

from __future__ import annotations


def test_an_unchanged_100_percent_is_not_a_change(tmp_path):
    import polars as pl

    from analysis.sweep.metrics import load_variant, parameter_effects
    from analysis.sweep.play import plan_sweep, run_sweep

    plan = plan_sweep("seigneurial", varies=["end.max_turns=[8, 300]"], games=400, seed=0, raw=True)
    run_sweep(plan, tmp_path / "sweep")
    a, b = (load_variant(tmp_path / "sweep" / "variants" / v) for v in ("v000", "v001"))
    # the case: the Censitaires win every game in both, shared (stopped games) in one of them
    for d in ("v000", "v001"):
        p = pl.read_parquet(tmp_path / "sweep" / "variants" / d / "players.parquet")
        side = p.filter(pl.col("role") == "censitaire").group_by("game").agg(pl.col("win_share").cast(pl.Float64).sum())
        assert ((side["win_share"] - 1.0).abs() < 1e-6).all()
    shared = pl.read_parquet(tmp_path / "sweep" / "variants" / "v000" / "players.parquet")
    assert (shared.filter(pl.col("role") == "censitaire")["win_share"] < 0.9).any()   # shared wins
    row = next(r for r in parameter_effects(a, b) if r["metric"] == "role_win_share_censitaire")
    assert row["delta"] == 0.0 and row["low"] <= 0.0 <= row["high"], row
    assert not row["verdict"].startswith("clear"), row
