"""`balance export`: every table in both formats with stable column names, spreadsheet-ready CSV,
refusal to overwrite, and atomic writing (nothing under the final name unless complete)."""

from __future__ import annotations

import polars as pl
import pytest

from analysis import export as export_mod
from cli import _run

DOMAINS = ("champs", "moulin", "village", "rempart", "marche", "caserne", "eglise", "palais")
PLAYERS = (["game", "seat", "strategy", "score", "win_share", "rank"] + [f"tiles_{d}" for d in DOMAINS]
           + ["graveyard", "penalty"] + [f"event_gain_{k}" for k in range(1, 5)]
           + [f"coins_before_event_{k}" for k in range(1, 5)]
           + [f"coins_turn_{t}" for t in range(1, 17)])
GAMES = ["game", "n_players", "event_1", "event_2", "event_3", "event_4", "reshuffles"]
SEATS = ["seat", "seat_label", "games", "effective_games", "wins", "win_share", "ci_low", "ci_high", "fair_share", "diff",
         "diff_low", "diff_high", "win_share_sd", "p_value", "p_adjusted", "significant", "verdict",
         "smallest", "mean_score", "score_sd", "score_ci_low",
         "score_ci_high", "mean_rank"]
EVENTS = ["event", "event_name", "slot", "turn", "games", "mean_gain", "gain_sd", "gain_ci_low",
          "gain_ci_high", "mean_spread", "spread_ci_low", "spread_ci_high", "leader_change",
          "leader_change_ci_low", "leader_change_ci_high", "top_gainer_games", "top_gainer_win_share",
          "top_gainer_ci_low", "top_gainer_ci_high", "fair_share"]
MATCHUPS = ["strategy", "opponent", "meetings", "units", "ahead_share", "ci_low", "ci_high", "p_value",
            "p_adjusted", "significant", "verdict", "smallest", "win_share", "win_ci_low", "win_ci_high", "fair_share", "paired", "confounded"]
SUMMARY = ["metric", "key", "label", "kind", "estimate", "ci_low", "ci_high", "n"]
COLUMNS = {"players": PLAYERS, "games": GAMES, "seats": SEATS, "events": EVENTS, "matchups": MATCHUPS,
           "summary": SUMMARY}
N_GAMES = 300


@pytest.fixture(scope="module")
def mixed_run(tmp_path_factory):
    """A real 4-player run with two strategies (so matchups exist)."""
    out = tmp_path_factory.mktemp("export") / "run"
    assert _run(["simulate", "-n", str(N_GAMES), "--seed", "11", "-s", "balanced,random,balanced,random",
                 "--out", str(out), "--quiet"]) == 0
    return out


def export(run, what, out, *extra):
    return _run(["export", str(run), "--what", what, "--out", str(out), *extra])


def read(path, fmt):
    return pl.read_csv(path) if fmt == "csv" else pl.read_parquet(path)


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
@pytest.mark.parametrize("what", list(COLUMNS))
def test_every_table_exports_in_both_formats_with_the_documented_columns(mixed_run, tmp_path, what, fmt):
    out = tmp_path / f"{what}.{fmt}"
    assert export(mixed_run, what, out, "--format", fmt) == 0
    df = read(out, fmt)
    assert df.columns == COLUMNS[what]
    rows = {"players": 4 * N_GAMES, "games": N_GAMES, "seats": 4, "matchups": 2}
    if what in rows:
        assert df.height == rows[what]
    else:
        assert df.height > 0
    assert not list(tmp_path.glob(".*tmp*"))  # no temporary file left behind


def test_csv_and_parquet_hold_the_same_numbers(mixed_run, tmp_path):
    for fmt in ("csv", "parquet"):
        assert export(mixed_run, "seats", tmp_path / f"s.{fmt}") == 0  # format from the suffix
    csv, pq = read(tmp_path / "s.csv", "csv"), read(tmp_path / "s.parquet", "parquet")
    for col in ("games", "wins", "win_share", "ci_low", "mean_score", "score_ci_high"):
        assert csv[col].dtype.is_numeric()  # plain numbers: a spreadsheet reads them as numbers
        assert csv[col].to_list() == pytest.approx(pq[col].to_list(), rel=1e-12)
    raw_csv = read(tmp_path / "s.csv", "csv")
    assert raw_csv["seat_label"].to_list() == ["Seat 1", "Seat 2", "Seat 3", "Seat 4"]


def test_raw_players_match_the_run_file_exactly(mixed_run, tmp_path):
    assert export(mixed_run, "players", tmp_path / "p.csv") == 0
    assert export(mixed_run, "players", tmp_path / "p.parquet") == 0
    original = pl.read_parquet(mixed_run / "players.parquet")
    assert pl.read_parquet(tmp_path / "p.parquet").equals(original)
    csv = pl.read_csv(tmp_path / "p.csv", schema=original.schema)
    assert csv.equals(original)


def test_csv_is_utf8_with_a_header_and_optional_bom(mixed_run, tmp_path):
    assert export(mixed_run, "events", tmp_path / "e.csv") == 0
    text = (tmp_path / "e.csv").read_bytes().decode("utf-8")
    assert text.startswith("event,event_name,slot,")
    assert "Métiers qualifiés" in text  # event names from the rules, UTF-8
    assert "NaN" not in text and "nan" not in text.lower().split(",")  # missing values: empty cells
    assert export(mixed_run, "events", tmp_path / "bom.csv", "--bom") == 0
    assert (tmp_path / "bom.csv").read_bytes().startswith(b"\xef\xbb\xbf")


def test_rotated_players_export_adds_deal_and_rotation(tmp_path):
    run = tmp_path / "rot"
    assert _run(["simulate", "-n", "40", "--seed", "2", "-s", "balanced,random", "--players", "2",
                 "--rotate-seats", "--out", str(run), "--quiet"]) == 0
    assert export(run, "players", tmp_path / "p.csv") == 0
    assert pl.read_csv(tmp_path / "p.csv").columns == PLAYERS + ["deal", "rotation"]


def test_existing_file_is_refused_without_force(mixed_run, tmp_path, capsys):
    out = tmp_path / "seats.csv"
    out.write_text("precious", encoding="utf-8")
    assert export(mixed_run, "seats", out) == 2
    assert "file exists (use --force" in capsys.readouterr().err
    assert out.read_text(encoding="utf-8") == "precious"
    # --force replaces a table, never a file of another kind (review P: it replaced a rules file)
    assert export(mixed_run, "seats", out, "--force") == 2
    assert "is a text file, not a CSV table (--force replaces only a CSV table" in capsys.readouterr().err
    assert out.read_text(encoding="utf-8") == "precious"
    # nor a CSV table of other columns: a user's own (review W #5), or another export's
    out.write_text("seat,win_share\n1,0.25\n", encoding="utf-8")
    assert export(mixed_run, "seats", out, "--force") == 2
    assert ("holds a CSV table with other columns (seat, win_share), not a CSV of the seats export"
            in capsys.readouterr().err)
    assert out.read_text(encoding="utf-8") == "seat,win_share\n1,0.25\n"
    # an earlier export of the same table is replaced
    out.write_text(",".join(SEATS) + "\n", encoding="utf-8")
    assert export(mixed_run, "seats", out, "--force") == 0
    assert pl.read_csv(out).columns == SEATS and pl.read_csv(out).height > 0


@pytest.mark.parametrize("name, content, kind", [
    ("rules.csv", "# Middle-Ages rules\n[setup]\nstart_coins = [5, 5]\n", "a TOML file"),
    ("notes.csv", "# My notes, a, b\n", "a text file"),
    ("data.csv", "\x00\x01binary", "binary data"),
    ("table.parquet", "seat,win_share\n1,0.25\n", "a CSV table, not a Parquet table of the seats export"),
])
def test_force_refuses_a_file_of_another_kind(mixed_run, tmp_path, capsys, name, content, kind):
    out = tmp_path / name
    out.write_text(content, encoding="utf-8")
    assert export(mixed_run, "seats", out, "--force") == 2
    err = capsys.readouterr().err
    assert kind in err and err.count("\n") == 1, err
    assert out.read_text(encoding="utf-8") == content


def test_force_replaces_a_parquet_table(mixed_run, tmp_path):
    # an earlier copy of the same table only (review C #1, session 42: --what games replaced a
    # seats export; tests/test_s42_I_export_force.py)
    out = tmp_path / "seats.parquet"
    assert export(mixed_run, "seats", out) == 0
    assert export(mixed_run, "games", out, "--force") == 2
    assert pl.read_parquet(out).columns == SEATS
    assert export(mixed_run, "seats", out, "--force") == 0
    assert pl.read_parquet(out).columns == SEATS


def test_interrupted_export_leaves_no_file_and_keeps_the_old_one(mixed_run, tmp_path, monkeypatch):
    real = pl.DataFrame.write_csv
    calls = []

    def write_then_fail(self, fh, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise OSError("disk full")  # the second batch never arrives
        return real(self, fh, **kwargs)

    monkeypatch.setattr(export_mod, "BATCH_ROWS", 100)
    monkeypatch.setattr(pl.DataFrame, "write_csv", write_then_fail)
    out = tmp_path / "players.csv"
    with pytest.raises(OSError):
        export_mod.export(mixed_run, "players", out)
    assert not out.exists()
    old = ",".join(pl.read_parquet_schema(mixed_run / "players.parquet")) + "\n"   # an earlier export
    out.write_text(old, encoding="utf-8")
    calls.clear()
    with pytest.raises(OSError):
        export_mod.export(mixed_run, "players", out, force=True)
    assert out.read_text(encoding="utf-8") == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["players.csv"]


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_raw_exports_stream_in_batches_instead_of_loading_the_file(mixed_run, tmp_path, monkeypatch, fmt):
    from analysis.load import check_run

    check_run(mixed_run, players=True)  # the run's own check reads its schema (once per process):
    # done first, so the test passes alone as in the suite, where an earlier test did it
    monkeypatch.setattr(export_mod, "BATCH_ROWS", 97)  # 1200 rows → 13 batches
    monkeypatch.setattr(pl, "read_parquet", lambda *a, **k: pytest.fail("raw export loaded the file"))
    monkeypatch.setattr(pl, "scan_parquet", lambda *a, **k: pytest.fail("raw export used a polars scan"))
    out = tmp_path / f"p.{fmt}"
    assert export_mod.export(mixed_run, "players", out, bom=fmt == "csv") == out   # (--bom with Parquet is refused since s52)
    monkeypatch.undo()
    original = pl.read_parquet(mixed_run / "players.parquet")
    if fmt == "csv":
        text = out.read_text(encoding="utf-8-sig")
        assert text.count("game,seat,strategy") == 1  # one header, one BOM, whatever the batches
        assert out.read_bytes().count(b"\xef\xbb\xbf") == 1
        back = pl.read_csv(out, schema=original.schema)
    else:
        back = pl.read_parquet(out)
    assert back.equals(original)


@pytest.mark.parametrize("args, message", [
    (["--what", "nonsense"], "--what nonsense: must be one of players, games, seats"),
    # a designer review: "seat" got no suggestion, where --set, ladder and skill suggest
    (["--what", "seat"], "seigneur_squares; did you mean seats?"),
    (["--what", "seats", "--format", "xlsx"], "--format xlsx: must be csv or parquet"),
    # review W #11: Parquet bytes were written into a file named .csv
    (["--what", "seats", "--format", "parquet"], "the file's name says csv; name it x.parquet or "
                                                 "leave out --format"),
])
def test_bad_options_are_one_line_errors(mixed_run, tmp_path, capsys, args, message):
    assert _run(["export", str(mixed_run), "--out", str(tmp_path / "x.csv"), *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not (tmp_path / "x.csv").exists()


@pytest.mark.parametrize("name, said", [("roles.xlsx", "not an Excel workbook; name it roles.csv "
                                                      "(spreadsheets open CSV) or roles.parquet"),
                                         ("t.json", "not JSON"), ("t.tsv", "not tab-separated values")])
def test_an_out_named_for_another_format_is_refused(mixed_run, tmp_path, capsys, name, said):
    """--out roles.xlsx wrote CSV bytes that a spreadsheet refuses to open as a workbook
    (designer review 44 #12); a name without a known suffix still gets CSV, as documented."""
    assert _run(["export", str(mixed_run), "--out", str(tmp_path / name), "--what", "seats"]) == 2
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1
    assert not (tmp_path / name).exists()
    assert _run(["export", str(mixed_run), "--out", str(tmp_path / "seats.txt"), "--what", "seats"]) == 0
    assert (tmp_path / "seats.txt").read_text(encoding="utf-8").startswith("seat,")


def test_not_a_run_or_no_matchups_or_a_directory_are_refused(mixed_run, tmp_path, capsys):
    assert export(tmp_path, "seats", tmp_path / "x.csv") == 2
    assert "not a run directory" in capsys.readouterr().err
    assert export(mixed_run, "seats", tmp_path) == 2
    assert "is a directory" in capsys.readouterr().err
    single = tmp_path / "single"
    assert _run(["simulate", "-n", "20", "--out", str(single), "--quiet"]) == 0
    capsys.readouterr()
    assert export(single, "matchups", tmp_path / "m.csv") == 2
    assert "at least two strategies" in capsys.readouterr().err


def test_an_out_ending_in_a_slash_names_a_directory_and_is_refused(mixed_run, tmp_path, capsys):
    """`--out tables/` (no such directory yet) meant a directory: refused, not written as a file
    named `tables` (typer's Path dropped the slash before the output check saw it)."""
    for name in ("tables/", "new/sub/"):
        assert _run(["export", str(mixed_run), "--what", "seats", "--out", f"{tmp_path}/{name}"]) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and err.count("\n") == 1 and "names a directory" in err
    assert list(tmp_path.iterdir()) == []


def test_a_medievallons_run_exports_its_guild_table_checked_against_its_rows(mixed_run, tmp_path, capsys):
    """Review Z #10: the report's main Médiévallons table had no --what. Each type's founders and
    their win share against the other players', recomputed from players.parquet; a game without
    guilds is one line naming the games that have them."""
    run = tmp_path / "mv"
    assert _run(["simulate", "--game", "medievallons", "-n", "400", "--seed", "3", "--out", str(run),
                 "--quiet"]) == 0
    out = tmp_path / "guilds.csv"
    assert export(run, "guilds", out) == 0
    g = pl.read_csv(out)
    p = pl.read_parquet(run / "players.parquet")
    founded = [c for c in p.columns if c.startswith("founded_")]
    assert g.height == len(founded)
    for r in g.iter_rows(named=True):
        f = p["founded_" + r["card"]].to_numpy() > 0
        w = p["win_share"].cast(pl.Float64).to_numpy()
        assert r["players"] == len(f) and r["founders"] == int(f.sum()), r["card"]
        if f.any():
            assert r["founders_win_share"] == pytest.approx(w[f].mean(), abs=1e-6)
            assert r["others_win_share"] == pytest.approx(w[~f].mean(), abs=1e-6)
    capsys.readouterr()
    assert export(mixed_run, "guilds", tmp_path / "x.csv") == 2       # Middle-Ages has no guilds
    err = capsys.readouterr().err.strip()
    assert "no guilds to export" in err and "only Médiévallons has them" in err and "\n" not in err
