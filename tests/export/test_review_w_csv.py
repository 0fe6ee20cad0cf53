"""Review W #7: CSV files written by `balance questions` and `balance ladder` broke the export's
conventions: card_types.csv held "NaN", the ladder's CSV "inf", best_of_three.csv float32 noise
such as 0.6848248839378357. Missing and unbounded values are empty cells, float32 values keep the 7
significant digits they hold (the ladder's CSV, and a questions directory's CSVs, which the report
reads back with NaN for a missing value through the column types run.json records)."""

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


def test_a_questions_directory_writes_missing_values_empty_and_reads_them_back_as_nan(tmp_path):
    """A questions CSV had "NaN" where a card type was never played; now an empty cell, and the
    report's reader gets NaN back (what its tables test for), a float column even when every cell
    of it is empty, and integers and text as they were."""
    from analysis.questions import write_dir
    from reports.questions import read_questions

    table = pl.DataFrame({"card": ["a", "b"], "players": [3, 4],
                          "win_share": [0.25, float("nan")], "margin": [float("inf"), 1.5],
                          "never": [float("nan"), float("nan")], "note": ["x", None]})
    out = write_dir(tmp_path / "q", {"card_types": table}, {"game": "medievallons"})
    text = (out / "card_types.csv").read_text()
    assert "NaN" not in text and "inf" not in text
    assert text.splitlines()[2].split(",") == ["b", "4", "", "1.5", "", ""]
    back = read_questions(out).tables["card_types"]
    assert back.schema == {"card": pl.String, "players": pl.Int64, "win_share": pl.Float64,
                           "margin": pl.Float64, "never": pl.Float64, "note": pl.String}
    assert back["win_share"][0] == 0.25 and np.isnan(back["win_share"][1])
    assert np.isnan(back["margin"][0]) and back["margin"][1] == 1.5
    assert back["never"].is_nan().all() and back["note"].to_list() == ["x", None]


def test_a_questions_directory_written_before_the_convention_still_reads(tmp_path):
    """A directory of an earlier version: "NaN" in the CSV, no ``columns`` in run.json."""
    import json

    from reports.questions import read_questions

    d = tmp_path / "old"
    d.mkdir()
    (d / "card_types.csv").write_text("card,win_share\na,0.5\nb,NaN\n")
    (d / "run.json").write_text(json.dumps({"game": "medievallons", "files": ["card_types.csv"]}))
    back = read_questions(d).tables["card_types"]
    assert back["win_share"][0] == 0.5 and np.isnan(back["win_share"][1])
