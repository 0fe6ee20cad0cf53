"""balance fief-odds / fief-calamity from the command line (FF-5, FF-6, FF-7)."""

from __future__ import annotations

import polars as pl
import pytest

from cli import _run

import undrawn_figures as undrawn

ODDS_HEAD = ["attacker", "defender", "terrain", "darc", "method", "p_attacker_wins",
             "p_defender_holds", "p_both_wiped", "expected_rounds", "attacker_points_left",
             "defender_points_left"]


@pytest.fixture
def heat_maps_undrawn():
    """The heat maps written as stand-ins (tests/undrawn_figures.py) for the tests that read the
    command's tables, messages and file names."""
    with undrawn.heat_maps_undrawn():
        yield


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_fief_odds_writes_tables_heat_maps_and_break_even(tmp_path, capsys):
    """FF-7: odds.csv/.parquet with the documented columns, one PNG heat map per terrain, and the
    smallest attacker reaching 50 / 75 / 90 % against each defence."""
    out = tmp_path / "odds"
    assert _run(["fief-odds", "--attackers", "1-30", "--defenders", "1-20", "--terrain", "all",
                 "--out", str(out)]) == 0
    assert "Break-even" in capsys.readouterr().out
    odds = pl.read_parquet(out / "odds.parquet")
    assert odds.columns[:11] == ODDS_HEAD
    assert odds.height == 30 * 20 * 3
    assert pl.read_csv(out / "odds.csv").height == odds.height
    for t in ("open", "castle", "city"):
        assert (out / f"heatmap_{t}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    be = pl.read_csv(out / "break_even.csv")
    assert be.columns == ["terrain", "darc", "method", "defender", "min_attacker_p50",
                          "min_attacker_p75", "min_attacker_p90", "mark_p50", "mark_p75",
                          "mark_p90"]
    row = be.filter((pl.col("terrain") == "castle") & (pl.col("defender") == 6)).row(0, named=True)
    assert row["min_attacker_p50"] <= row["min_attacker_p75"] <= row["min_attacker_p90"]
    # the smallest attacker at 50 % really is the first to reach it
    cas = odds.filter((pl.col("terrain") == "castle") & (pl.col("defender") == 6)).sort("attacker")
    p = cas["p_attacker_wins"].to_list()
    a50 = row["min_attacker_p50"]
    assert p[a50 - 1] >= 0.5 and all(x < 0.5 for x in p[: a50 - 1])


def test_fief_odds_both_methods_with_darc_and_mercy(tmp_path, heat_maps_undrawn):
    """FF-4/FF-3/FF-7: --method both writes exact and Monte Carlo rows side by side."""
    out = tmp_path / "both"
    assert _run(["fief-odds", "--attackers", "3-6", "--defenders", "2,4", "--terrain", "castle",
                 "--darc", "defender", "--mercy", "attacker:2", "--method", "both", "--games", "2000",
                 "--out", str(out), "-q"]) == 0
    odds = pl.read_parquet(out / "odds.parquet")
    assert sorted(odds["method"].unique().to_list()) == ["exact", "mc"]
    assert odds.height == 2 * 4 * 2 and set(odds["darc"]) == {"defender"}
    assert set(odds["mercy"]) == {"attacker:2"}


def test_fief_calamity_writes_plague_and_revolt_tables(tmp_path, capsys):
    """FF-5: 0-30 soldiers lose half rounded down, Lords 1-4 survive on 4+ (binomial);
    FF-6: P(bishop succeeds) = 1/2, 2/3, 5/6, 1 for 0, 500, 1000, 1500 écus."""
    out = tmp_path / "cal"
    assert _run(["fief-calamity", "--out", str(out)]) == 0
    assert "Plague" in capsys.readouterr().out
    summary = pl.read_parquet(out / "plague_summary.parquet")
    assert summary.height == 31 * 4
    five = summary.filter((pl.col("soldiers") == 5) & (pl.col("lords") == 2)).row(0, named=True)
    assert (five["soldiers_removed"], five["soldiers_left"]) == (2, 3)
    assert five["p_no_lord_survives"] == pytest.approx(0.25)
    assert five["p_all_lords_survive"] == pytest.approx(0.25)


def test_fief_calamity_village_without_lords_has_no_survival_odds(tmp_path):
    """FF-5 with 0 Lords: 'no Lord survives' and 'every Lord survives' are both vacuous, so the
    summary leaves them empty rather than printing 1 and 1 side by side; 1 Lord reads 1/2, 1/2."""
    out = tmp_path / "cal0"
    assert _run(["fief-calamity", "--lords", "0-1", "--soldiers", "4", "--out", str(out), "-q"]) == 0
    summary = pl.read_csv(out / "plague_summary.csv")
    none = summary.filter(pl.col("lords") == 0).row(0, named=True)
    assert none["p_no_lord_survives"] is None and none["p_all_lords_survive"] is None
    assert none["expected_lords_left"] == 0 and none["soldiers_left"] == 2
    one = summary.filter(pl.col("lords") == 1).row(0, named=True)
    assert (one["p_no_lord_survives"], one["p_all_lords_survive"]) == pytest.approx((0.5, 0.5))
    dist = pl.read_parquet(out / "plague.parquet")
    totals = dist.group_by(["soldiers", "lords"]).agg(pl.col("probability").sum())
    assert all(abs(x - 1) < 1e-12 for x in totals["probability"])
    revolt = pl.read_csv(out / "revolt.csv")
    assert revolt["p_success"].to_list()[:4] == pytest.approx([1 / 2, 2 / 3, 5 / 6, 1.0])


@pytest.mark.parametrize("argv,message", [
    (["fief-odds", "--attackers", "5-1"], "--attackers 5-1: the range 5-1 goes down"),
    (["fief-odds", "--terrain", "swamp"], "--terrain 'swamp': unknown terrain"),
    (["fief-odds", "--darc", "nobody"], "--darc 'nobody': unknown side"),
    (["fief-odds", "--method", "guess"], "--method 'guess'"),
    (["fief-odds", "--defenders", "0-3"], "--defenders 0-3: values must be from 1"),
    (["fief-odds", "--levels", "1.5"], "--levels"),
    (["fief-calamity", "--soldiers", "a-b"], "--soldiers"),
    (["fief-calamity", "--max-ecus", "-5"], "--max-ecus"),
])
def test_bad_input_is_one_line_and_exit_code_2(tmp_path, capsys, argv, message):
    """FF-1/FF-2/FF-4/FF-7 options: bad ones give one clear line on stderr, exit code 2, nothing written."""
    out = tmp_path / "never"
    assert _run([*argv, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err
    assert not out.exists()


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_output_directory_problems_are_usage_errors(tmp_path, capsys, heat_maps_undrawn):
    """FF-7 outputs: a non-empty --out needs --force; a path under a file cannot be written."""
    full = tmp_path / "full"
    full.mkdir()
    (full / "keep.txt").write_text("mine")
    assert _run(["fief-odds", "--attackers", "1-2", "--defenders", "1", "--out", str(full)]) == 2
    assert "no ownership marker" in capsys.readouterr().err
    assert (full / "keep.txt").read_text() == "mine"
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert _run(["fief-calamity", "--out", str(blocker / "sub")]) == 2
    assert "cannot write" in capsys.readouterr().err
    # --force replaces an output this toolkit wrote (its ownership marker proves it), never a
    # folder of other files, not even one holding a file named run.json (issue #28)
    assert _run(["fief-odds", "--attackers", "1-2", "--defenders", "1", "--out", str(full),
                 "--force", "-q"]) == 2
    assert "not a directory this toolkit wrote" in capsys.readouterr().err
    (full / "run.json").write_text("{}")
    assert _run(["fief-odds", "--attackers", "1-2", "--defenders", "1", "--out", str(full),
                 "--force", "-q"]) == 2
    assert (full / "keep.txt").read_text() == "mine"
    ours = tmp_path / "ours"
    assert _run(["fief-odds", "--attackers", "1-2", "--defenders", "1", "--out", str(ours), "-q"]) == 0
    assert _run(["fief-odds", "--attackers", "1-3", "--defenders", "1", "--out", str(ours),
                 "--force", "-q"]) == 0
    assert (ours / "odds.csv").exists()


@pytest.mark.parametrize("argv,message", [
    # 999 x 999 cells x 20 000 combats: days of Monte Carlo; refused before any combat
    (["fief-odds", "--attackers", "1-999", "--defenders", "1-999", "--terrain", "castle",
      "--method", "mc"], "Monte Carlo work"),
    # 3 million rows (and their heat maps) for the exact grid over three terrains
    (["fief-odds", "--attackers", "1-999", "--defenders", "1-999"], "rows"),
    # Lords removed first: every cell is its own solve, sum of a x d states is about 2.5e11
    (["fief-odds", "--attackers", "1-700", "--defenders", "1-700", "--terrain", "city",
      "--set", "combat.lords_removed=\"first\""], "exact work"),
    (["fief-calamity", "--soldiers", "0-9999", "--lords", "0-16", "--method", "mc",
      "--games", "1e9"], "Monte Carlo work"),
])
def test_a_grid_too_large_is_refused_before_any_work(tmp_path, capsys, argv, message):
    """FF-7: a grid whose work would take hours is one line, exit code 2, nothing written (the
    checks are on the validated request, so this test takes milliseconds; before they existed the
    first case ran for more than ten minutes)."""
    import time

    out = tmp_path / "never"
    t0 = time.perf_counter()
    assert _run([*argv, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and message in err, err
    assert time.perf_counter() - t0 < 5
    assert not out.exists()


@pytest.mark.parametrize("levels,columns", [
    ("0.5,0.504", ["min_attacker_p50", "min_attacker_p50.4"]),
    ("0.999,0.9999", ["min_attacker_p99.9", "min_attacker_p99.99"]),
    ("0.5,0.5000000001", None),
])
def test_close_levels_get_their_own_columns_or_one_line(tmp_path, capsys, levels, columns,
                                                       heat_maps_undrawn):
    """FF-7: break-even columns are named by the level in percent, unrounded, so close levels get
    columns of their own; levels equal to 6 significant digits are refused with one line. (Both
    crashed with a polars DuplicateError traceback after the computation: 0.5 and 0.504 were both
    named p50, 0.999 and 0.9999 both p100.)"""
    out = tmp_path / "lv"
    rc = _run(["fief-odds", "--attackers", "1-3", "--defenders", "1", "--levels", levels,
               "--out", str(out), "-q"])
    if columns is None:
        assert rc == 2
        err = capsys.readouterr().err
        assert err.startswith("error: --levels") and err.count("\n") == 1, err
        assert not out.exists()
    else:
        assert rc == 0
        assert pl.read_csv(out / "break_even.csv").columns[-4:-2] == columns


def test_break_even_column_names_say_the_level_they_hold(tmp_path, capsys, heat_maps_undrawn):
    """FF-7: a level of 0.999 is reported as 99.9 %, not rounded up to "P >= 100%" / p100, and the
    smallest attacker it gives really reaches 0.999 (checked against the odds rows)."""
    out = tmp_path / "lv"
    assert _run(["fief-odds", "--attackers", "1-20", "--defenders", "1-2", "--terrain", "open",
                 "--levels", "0.5,0.999", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "99.9%" in printed and "100%" not in printed
    be = pl.read_csv(out / "break_even.csv")
    assert be.columns[-4:-2] == ["min_attacker_p50", "min_attacker_p99.9"]
    odds = pl.read_csv(out / "odds.csv")
    for d, a in be.select("defender", "min_attacker_p99.9").iter_rows():
        p = odds.filter((pl.col("defender") == d) & (pl.col("attacker") <= a)).sort("attacker")
        assert p["p_attacker_wins"][-1] >= 0.999 > p["p_attacker_wins"][-2]


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_heat_map_of_a_large_grid_stays_page_sized(tmp_path):
    """FF-7: the heat map grows with the grid only up to a page (16 x 14 inches at 110 dpi); a
    200 x 200 grid asked for a 7 150 x 5 800 pixel canvas, and 999 x 999 for about a gigapixel.
    100 x 100 (was 200 x 200: the exact solve 0.3 s of CPU more) would be 33.6 x 28 inches, twice
    the page each way."""
    import struct

    out = tmp_path / "big"
    assert _run(["fief-odds", "--attackers", "1-100", "--defenders", "1-100", "--terrain", "open",
                 "--out", str(out), "-q"]) == 0
    head = (out / "heatmap_open.png").read_bytes()[:24]
    width, height = struct.unpack(">II", head[16:24])
    assert width <= 16 * 110 and height <= 14 * 110


def test_printed_break_even_says_d_arc_and_mercy(tmp_path, capsys, heat_maps_undrawn):
    """FF-3/FF-4/FF-7: the printed break-even title names the conditions its numbers hold under
    (d'Arc's side, the mercy policy), as the heat map's title does; without them a designer reads
    "beating a defender in a castle" as the plain odds."""
    assert _run(["fief-odds", "--attackers", "1-8", "--defenders", "1-2", "--terrain", "castle",
                 "--darc", "defender", "--mercy", "defender:1", "--out", str(tmp_path / "o")]) == 0
    printed = " ".join(capsys.readouterr().out.split())
    assert "d'Arc with the defender" in printed and "mercy defender:1" in printed
    assert _run(["fief-odds", "--attackers", "1-8", "--defenders", "1-2", "--terrain", "castle",
                 "--out", str(tmp_path / "p")]) == 0
    printed = " ".join(capsys.readouterr().out.split())
    assert "d'Arc" not in printed and "mercy" not in printed
