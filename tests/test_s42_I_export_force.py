"""``balance export --force`` replaces only an earlier copy of the same table, in Parquet as in CSV
(review C #1, session 42: ``--what length --out seats.parquet --force`` replaced a seats export with
the one-row length table, while the CSV of the same table was refused). The refusal is one line,
exit 2, in the CSV's words, and leaves the file byte for byte; a Parquet export written before the
toolkit named its tables (signed, no table named) is judged by its columns, as a CSV is."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest

from cli import _run
from simcore import runner

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    return runner.simulate("seigneurial", games=400, seed=11, out=tmp_path_factory.mktemp("x") / "sg",
                           quiet=True, raw=True)


def _export(run: Path, what: str, out: Path, *extra: str) -> int:
    return _run(["export", str(run), "--what", what, "--out", str(out), *extra])


def _refused(capsys, code: int, path: Path, before: bytes, *words: str) -> str:
    err = capsys.readouterr().err
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1, err
    for w in words:
        assert w in err, err
    assert path.read_bytes() == before
    return err


def test_parquet_force_refuses_another_table_as_the_csv_does(run, tmp_path, capsys):
    seats_pq, seats_csv = tmp_path / "seats.parquet", tmp_path / "seats.csv"
    assert _export(run, "seats", seats_pq) == 0
    assert _export(run, "seats", seats_csv) == 0
    capsys.readouterr()
    pq_before, csv_before = seats_pq.read_bytes(), seats_csv.read_bytes()
    # the CSV path (as it was): refused
    _refused(capsys, _export(run, "length", seats_csv, "--force"), seats_csv, csv_before,
             "holds a CSV table with other columns (seat, seat_label", "not a CSV of the length export")
    # the Parquet path: refused in the same words, the seats table kept
    for other in ("length", "players", "roles", "summary"):
        _refused(capsys, _export(run, other, seats_pq, "--force"), seats_pq, pq_before,
                 "holds a Parquet table of the seats export (seat, seat_label",
                 f"not a Parquet table of the {other} export")
    assert pq.read_table(seats_pq).num_rows == 4          # still the four seats
    # an earlier copy of the same table is replaced
    assert _export(run, "seats", seats_pq, "--force") == 0
    assert pq.read_table(seats_pq).column_names[:2] == ["seat", "seat_label"]


def test_each_parquet_export_names_its_table(run, tmp_path):
    for what in ("players", "games", "seats", "length"):
        out = tmp_path / f"{what}.parquet"
        assert _export(run, what, out) == 0
        meta = pq.read_metadata(out).metadata
        assert meta[b"written_by"] == b"balance-toolkit"
        assert meta[b"table"] == what.encode()


def _unnamed(src: Path, dest: Path) -> None:
    """``src`` as an older version wrote it: signed, but no table named."""
    table = pq.read_table(src)
    meta = {k: v for k, v in pq.read_metadata(src).metadata.items()
            if k not in (b"table", b"ARROW:schema")}
    pq.write_table(table.replace_schema_metadata(meta), dest)
    assert pq.read_metadata(dest).metadata[b"written_by"] == b"balance-toolkit"
    assert b"table" not in pq.read_metadata(dest).metadata


def test_an_older_parquet_export_is_judged_by_its_columns(run, tmp_path, capsys):
    fresh = tmp_path / "fresh.parquet"
    assert _export(run, "seats", fresh) == 0
    old = tmp_path / "old_seats.parquet"
    _unnamed(fresh, old)
    capsys.readouterr()
    before = old.read_bytes()
    _refused(capsys, _export(run, "length", old, "--force"), old, before,
             "holds a Parquet table with other columns (seat, seat_label",
             "not a Parquet table of the length export")
    # the same table (its columns) is an earlier copy: replaced, and now named
    assert _export(run, "seats", old, "--force") == 0
    assert pq.read_metadata(old).metadata[b"table"] == b"seats"
