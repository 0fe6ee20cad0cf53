"""The path outside the kernel (issue #27 item 5): summary.parquet's sums per (rotation, seat)
cell, the strategy column built from its buffers, and the figure checks of a reader done on numpy
columns when the rows are in the runner's order."""

from __future__ import annotations

import shutil

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from simcore import runner


@pytest.fixture(scope="module")
def mixed_runs(tmp_path_factory):
    """Mixed line-ups, with and without rotated seats, in chunks that do not divide the games."""
    base = tmp_path_factory.mktemp("output-path")
    out = {}
    for name, rotate in (("plain", False), ("rotated", True)):
        out[name] = runner.simulate("middle-ages", games=1200, seed=7, out=base / name,
                                    players=4, strategies="balanced,random,greedy,random",
                                    rotate_seats=rotate, chunk_size=400)
    return out


@pytest.mark.parametrize("name", ["plain", "rotated"])
def test_summary_sums_equal_the_sums_of_the_player_rows(mixed_runs, name):
    run = mixed_runs[name]
    rows = pl.read_parquet(run / "players.parquet")
    summary = pl.read_parquet(run / "summary.parquet")
    columns = [c.removesuffix("_sum") for c in summary.columns
               if c.endswith("_sum") and not c.endswith("_sq_sum")]
    for group in ("seat", "strategy"):
        want = rows.group_by(group).agg(
            pl.len().alias("games"),
            *[pl.col(c).cast(pl.Float64).sum().alias(f"{c}_sum") for c in columns],
            *[(pl.col(c).cast(pl.Float64) ** 2).sum().alias(f"{c}_sq_sum") for c in columns],
            (pl.col("win_share") == 1).sum().alias("outright_wins"),
            ((pl.col("win_share") > 0) & (pl.col("win_share") < 1)).sum().alias("shared_wins"))
        got = summary.filter(pl.col("group") == group)
        key = "seat" if group == "seat" else "strategy"
        want = want.sort(key)
        got = got.sort(key)
        if group == "seat":
            assert got["seat"].to_list() == want["seat"].cast(pl.Int8).to_list()
        else:
            assert got["strategy"].to_list() == want["strategy"].to_list()
        for c in want.columns:
            if c == key:
                continue
            np.testing.assert_allclose(got[c].to_numpy().astype(float), want[c].to_numpy().astype(float),
                                       rtol=1e-12, err_msg=f"{name} {group} {c}")


def test_the_strategy_column_names_each_seats_bot_in_every_rotation(mixed_runs):
    rows = pl.read_parquet(mixed_runs["rotated"] / "players.parquet", columns=["game", "seat", "strategy"])
    line_up = ["balanced", "random", "greedy", "random"]
    want = [line_up[(s + g % 4) % 4] for g, s in zip(rows["game"].to_list(), rows["seat"].to_list())]
    assert rows["strategy"].to_list() == want
    assert pq.read_schema(mixed_runs["rotated"] / "players.parquet").field("strategy").type == pa.string()


def test_a_readers_figure_checks_group_nothing_for_rows_in_the_runners_order(mixed_runs, monkeypatch):
    from analysis import load

    meta = load.read_meta(mixed_runs["plain"])

    def no_grouping(*args, **kwargs):
        raise AssertionError("grouped the rows of a run in the runner's order")

    monkeypatch.setattr(pl.LazyFrame, "group_by", no_grouping)
    load.check_figures(mixed_runs["plain"], meta)


def test_rows_in_another_order_pass_the_figure_checks(mixed_runs, tmp_path):
    from analysis import load
    from simcore.rundir import integrity_record
    import json

    run = shutil.copytree(mixed_runs["plain"], tmp_path / "run")
    table = pq.read_table(run / "players.parquet")
    pq.write_table(pl.from_arrow(table).sort(["seat", "game"]).to_arrow(), run / "players.parquet")
    meta = json.loads((run / "run.json").read_text(encoding="utf-8"))
    meta["integrity"] = integrity_record(run, meta)
    (run / "run.json").write_text(json.dumps(meta), encoding="utf-8")
    assert not load._regular_rows_hold(run / "players.parquet", meta["games"], meta["players"], None)
    load.check_figures(run, meta)
