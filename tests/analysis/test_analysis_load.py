"""Opening runs: errors, column detection, pooling, and chunked passes that do not change results."""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pyarrow.parquet as pq
import pytest
from analysis_runs import HAND, HAND_GAMES, synthetic_run, write_run

from analysis import analyse, group_runs, load, open_runs
from analysis.load import COMMON_COLUMNS
from simcore.errors import UsageError


def _assert_tables_equal(a: dict, b: dict) -> None:
    assert set(a) == set(b)
    for name in a:
        x, y = a[name], b[name]
        assert x.columns == y.columns, name
        for c in x.columns:
            if x[c].dtype.is_float():
                np.testing.assert_allclose(x[c].to_numpy(), y[c].to_numpy(), rtol=1e-9, atol=1e-12,
                                           err_msg=f"{name}.{c}")
            else:
                assert x[c].to_list() == y[c].to_list(), f"{name}.{c}"


def test_not_a_run_directory_is_a_one_line_usage_error(tmp_path):
    with pytest.raises(UsageError, match="not a run directory") as e:
        open_runs([tmp_path])
    assert "\n" not in str(e.value)


def test_run_without_players_or_common_columns_is_refused(tmp_path):
    run = write_run(tmp_path / "r", HAND, HAND_GAMES)
    (run / "players.parquet").unlink()
    with pytest.raises(UsageError, match="players.parquet"):
        open_runs([run])
    bad = dict(HAND)
    del bad["rank"]
    run = write_run(tmp_path / "s", bad, HAND_GAMES)
    with pytest.raises(UsageError, match="missing column.*rank"):
        open_runs([run])


def test_runs_of_different_games_cannot_be_pooled(tmp_path):
    a = write_run(tmp_path / "a", HAND, HAND_GAMES)
    common = {k: HAND[k] for k in COMMON_COLUMNS}
    b = write_run(tmp_path / "b", common, None, game="fief-combat")
    with pytest.raises(UsageError, match="different games"):
        open_runs([a, b])


def test_game_specific_columns_are_detected(hand_run, tmp_path):
    rs = open_runs([hand_run])
    assert rs.tile_columns == ("tiles_champs", "tiles_palais")
    assert rs.has("coins_before_event_1") and rs.has_games("event_1")
    common = {k: HAND[k] for k in ("game", "seat", "strategy", "score", "win_share", "rank")}
    generic = open_runs([write_run(tmp_path / "g", common, None, game="medievallons")])
    t = analyse(generic)
    assert set(t) == {"seats", "seat_tests", "outcomes", "spread_counts", "scores_by_seat",
                      "scores_by_strategy", "strategies", "matchups", "score_pairs"}
    assert t["outcomes"]["metric"].to_list() == ["shared_wins", "score_spread"]


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_chunked_pass_gives_the_same_tables_as_one_pass(tmp_path):
    rs = open_runs([synthetic_run(tmp_path / "r", 3000, 4, seed=2)])
    whole = analyse(rs)
    chunked = analyse(rs, rows_per_chunk=1000)
    _assert_tables_equal(whole, chunked)


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_rotated_run_chunked_by_deal_gives_the_same_tables(tmp_path):
    rs = open_runs([synthetic_run(tmp_path / "r", 2000, 4, seed=3, rotate=True)])
    assert rs.cluster == "deal"
    _assert_tables_equal(analyse(rs), analyse(rs, rows_per_chunk=999))


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_rows_in_any_order_give_the_same_tables(tmp_path):
    rs = open_runs([synthetic_run(tmp_path / "r", 1500, 3, seed=4)])
    shuffled = tmp_path / "shuffled"
    shuffled.mkdir()
    table = pq.read_table(rs.paths[0] / "players.parquet")
    order = np.random.default_rng(0).permutation(table.num_rows)
    pq.write_table(table.take(order), shuffled / "players.parquet")
    for name in ("games.parquet", "run.json"):
        (shuffled / name).write_bytes((rs.paths[0] / name).read_bytes())
    _assert_tables_equal(analyse(rs), analyse(open_runs([shuffled])))


def test_a_game_with_missing_player_rows_is_a_clear_error(tmp_path):
    bad = {k: v[:-1] for k, v in HAND.items()}
    # refused when the run is opened (analysis.load.check_figures: one row per seat in every
    # game), before any table is made
    with pytest.raises(UsageError, match="game 3 has 1 rows for 1 seats where a 2-player game"):
        open_runs([write_run(tmp_path / "r", bad, HAND_GAMES)])


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_pooled_runs_add_up(tmp_path):
    a = synthetic_run(tmp_path / "a", 800, 4, seed=1)
    b = synthetic_run(tmp_path / "b", 800, 4, seed=2)
    pooled = open_runs([a, b])
    assert pooled.n_games == 1600
    t = analyse(pooled)
    ta, tb = analyse(open_runs([a])), analyse(open_runs([b]))
    assert t["seats"]["games"].to_list() == [1600] * 4
    np.testing.assert_allclose(t["seats"]["wins"].to_numpy(),
                               ta["seats"]["wins"].to_numpy() + tb["seats"]["wins"].to_numpy())
    ev = lambda x: x["events"].filter(pl.col("slot") == 0)["games"].sum()  # noqa: E731
    assert ev(t) == ev(ta) + ev(tb) == 4 * 1600


def test_group_runs_splits_configurations(tmp_path):
    a = synthetic_run(tmp_path / "a", 200, 4, seed=1)
    b = synthetic_run(tmp_path / "b", 200, 4, seed=2)
    c = synthetic_run(tmp_path / "c", 200, 4, seed=3)
    meta = json.loads((c / "run.json").read_text())
    meta["rules_sha256"] = "variant"
    (c / "run.json").write_text(json.dumps(meta))
    groups = group_runs([a, c, b])
    assert [len(g.paths) for g in groups] == [2, 1]
    assert groups[0].n_games == 400


def test_chunk_ranges_cover_every_game_once(tmp_path):
    rs = open_runs([synthetic_run(tmp_path / "r", 1000, 4, seed=1)])
    ranges = load._chunk_ranges(rs, rows_per_chunk=900)
    assert ranges[0][0] == 0 and ranges[-1][1] == 1000
    assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:]))


def test_games_missing_from_games_parquet_are_left_out_of_event_tables(tmp_path):
    games = {k: v[:3] for k, v in HAND_GAMES.items()}          # game 3 has no games row
    t = analyse(open_runs([write_run(tmp_path / "r", HAND, games)]))
    pooled = t["events"].filter(pl.col("slot") == 0)
    assert pooled["games"].sum() == 4 * 3
    seat = t["event_seats"].filter((pl.col("event") == 0) & (pl.col("seat") == 0)).row(0, named=True)
    assert (seat["games_with"], seat["games_without"]) == (3, 0)
    assert t["seats"]["games"].to_list() == [4, 4]               # seat metrics still use every game
