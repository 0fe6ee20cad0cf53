"""Review W #7: CSV files written by `balance questions` and `balance ladder` broke the export's
conventions: card_types.csv held "NaN", the ladder's CSV "inf", best_of_three.csv float32 noise
such as 0.6848248839378357. Missing and unbounded values are empty cells, float32 values keep the 7
significant digits they hold (the ladder's CSV; a questions directory's CSVs, which the report reads
back with NaN for a missing value, are left as they are).""" 

from __future__ import annotations

import io

import numpy as np
import polars as pl

from analysis.export import csv_ready


def test_nan_and_inf_are_empty_and_float32_keeps_its_digits():
    df = pl.DataFrame({"name": ["a", "b", "c"], "x": [1.5, float("nan"), float("inf")],
                       "y": pl.Series([0.6848248839378357, 0.25, -1.0], dtype=pl.Float32),
                       "n": [1, 2, 3]})
    text = csv_ready(df).write_csv()
    assert "NaN" not in text and "inf" not in text and "0.6848248839378357" not in text
    back = pl.read_csv(io.StringIO(text))
    assert back["x"].to_list() == [1.5, None, None]
    assert back["y"].to_list() == [0.6848249, 0.25, -1.0] and back["n"].to_list() == [1, 2, 3]



def test_a_ladder_csv_writes_an_unbounded_margin_as_an_empty_cell(tmp_path):
    """A bot winning every game has margin_in_se inf (no spread): an empty cell in the CSV."""
    from in_process import balance

    out = tmp_path / "ladder.csv"
    done = balance("ladder", "--bots", "random,greedy", "--games", 10, "--players", 3, "--out", out)
    assert done.returncode == 0, done.stderr
    text = out.read_text()
    assert "inf" not in text and "NaN" not in text
    back = pl.read_csv(out)
    # greedy wins every game of its 4 deals against random: no spread, an unbounded margin
    greedy = back.filter(pl.col("bot") == "greedy").row(0, named=True)
    assert greedy["win_share"] == 1.0 and greedy["std_error"] == 0.0 and greedy["margin_in_se"] is None
    assert 0.0 < greedy["ci_low"] < 1.0 == greedy["ci_high"]       # the Wilson interval of its deals, not a point
