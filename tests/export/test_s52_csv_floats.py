"""CSV exports keep a float column a float to a reader: a whole number is written ``1.0``, never
``1`` (review s52 export #2: 2,493 whole win shares before the first 0.5 made polars.read_csv type
the column as integers and fail), and no number in scientific notation."""

from __future__ import annotations

import polars as pl

from analysis.export import decimal_text, table_csv
from in_process import balance
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def test_a_players_csv_reads_back_with_float_win_shares_whatever_comes_first(tmp_path):
    run = tmp_path / "mv"
    balance("simulate", "--game", "medievallons", "--games", 3000, "-q", "--out", run)
    rows = pl.read_parquet(run / "players.parquet")
    first_shared = rows.with_row_index().filter((pl.col("win_share") > 0) & (pl.col("win_share") < 1))
    assert first_shared.height and first_shared["index"][0] > 100      # past polars' inference window
    balance("export", run, "--what", "players", "--out", tmp_path / "p.csv")
    back = pl.read_csv(tmp_path / "p.csv")
    assert back.schema["win_share"] == pl.Float64
    assert back["win_share"].to_list() == [round(x, 7) for x in rows["win_share"].to_list()]


def test_decimal_text_has_a_point_and_no_exponent():
    df = pl.DataFrame({"a": [1.0, 0.5, None, 1e-7, 2.5e17, -0.0], "n": [1, 2, 3, 4, 5, 6]})
    text = decimal_text(df).write_csv()
    assert text.splitlines()[1:] == ["1.0,1", "0.5,2", ",3", "0.0000001,4", "250000000000000000.0,5", "-0.0,6"]
    assert "e" not in table_csv(pl.DataFrame({"x": [3e-9, 1.0]})).lower().replace("x\n", "")


def test_bom_with_parquet_is_refused_in_one_line(tmp_path):
    run = tmp_path / "ma"
    balance("simulate", "--games", 200, "-q", "--out", run)
    done = balance("export", run, "--what", "seats", "--out", tmp_path / "s.parquet", "--bom", check=False)
    assert done.returncode == 2 and "--bom: a byte-order mark is for CSV files" in done.stderr
    assert not (tmp_path / "s.parquet").exists()
