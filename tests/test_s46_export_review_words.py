"""Small readings of review s46's export review: the summary's tile-slope rows had n = 0 ("measured
on nothing": they are fitted on every player row), a Middle-Ages before/after named the game's
length and ends among its paired metrics though Middle-Ages compares neither, and Médiévallons'
collector was said to "never attack" though it plays a Rôdeur on a guild about twice a game."""

from __future__ import annotations

import html
import re

import polars as pl

import undrawn_figures as undrawn
from cli import _run
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def test_tile_slope_rows_have_no_count(tmp_path, capsys):
    run = tmp_path / "r"
    assert _run(["simulate", "--games", "2000", "--out", str(run), "-q"]) == 0
    assert _run(["export", str(run), "--what", "summary", "--out", str(tmp_path / "s.csv")]) == 0
    s = pl.read_csv(tmp_path / "s.csv")
    slopes = s.filter(pl.col("metric") == "tile_slope")
    assert slopes.height > 0 and slopes["n"].null_count() == slopes.height
    seats = s.filter(pl.col("metric") == "seat_win_share")
    assert (seats["n"] == 2000).all()


def test_a_middle_ages_before_after_names_only_the_paired_metrics_it_has(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    assert _run(["simulate", "--games", "2000", "--out", str(a), "-q"]) == 0
    assert _run(["simulate", "--games", "2000", "--set", "setup.start_coins[0]=3", "--out", str(b), "-q"]) == 0
    with undrawn.figures_undrawn():
        assert _run(["report", str(a), str(b), "--out", str(tmp_path / "rep")]) == 0
    page = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", (tmp_path / "rep" / "report.html").read_text())).split())
    m = re.search(r"the metrics the table marks “paired” \(among them ([^)]*)\)", page)
    assert m and m[1] == "the seats' win shares , their scores", m and m[1]
    cmp = pl.read_csv(tmp_path / "rep" / "comparison.csv")
    assert not cmp.filter(pl.col("metric").is_in(["mean_turns", "end_reason_share"])).height


def test_collector_is_not_said_to_never_attack(tmp_path, capsys):
    run = tmp_path / "r"
    assert _run(["simulate", "--game", "medievallons", "--strategies", "collector,balanced,balanced,balanced",
                 "--games", "1000", "--out", str(run), "-q"]) == 0
    p = pl.read_parquet(run / "players.parquet").filter(pl.col("strategy") == "collector")
    assert p["powers_rodeur"].mean() > 1.0                    # it does take from guilds
    from strategies import medievallons as S

    said = S.presets()["collector"].description          # what `balance strategies` lists
    assert "never attacks" not in said and "no attack weight" in said and "Rôdeur" in said
