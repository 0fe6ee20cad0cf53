"""A run's files are the same bytes whatever the chunks and threads that played it.

games.parquet and players.parquet (and so run.json's integrity sha256) depend only on what was
played (seed, rules, bots, game count, --raw): the run writer cuts the rows into row groups of a
fixed number of games (:func:`simcore.runner.row_group_games`), whatever the chunk size
(``--chunk-size``), thread count (``--threads``) or Dask workers that made them. Before, each chunk
was its own row group, so ``--chunk-size 1000`` and the default gave equal tables in different
bytes, and a designer checksumming outputs saw two "different" runs.
"""

from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from simcore import rundir, runner
from simcore.rundir import file_sha256

GAMES = 3000
# "many chunks": 49 chunks of 61 games to 3,000 games, none a divisor of a row group (1,024 games,
# or 1,023 in whole deals of 3). Chunks of 7 games (429 of them) checked the same things at five
# times the CPU: each chunk costs ~4 ms of its own (its statistics, its tables), so the tiny chunks
# were 85 % of this file's 12 s. A writer making each chunk its own row group fails every test here
# with either size (tried, simcore.rundir.RunWriter.write).
MANY = 61
# Each game's own test plays fewer: its row group is the game's default chunk (131,072 games), so
# 3,000 games were one row group as 1,500 are, made of 25 chunks of 61 games, of 2 chunks of 1,000,
# or of the default ramp's 4 (256, 256, 512, 476) instead of 50, 3 and 5: each setting still
# many chunks to a row group, written as one (1.2 s of CPU less for the three games; the writer
# making each chunk its own row group still fails it for every game: tried).
GAMES_PER_GAME = 1500


def _run(prep, out, chunk_size, threads, games=GAMES):
    path = runner.run(prep, games=games, seed=11, out=out, chunk_size=chunk_size, threads=threads,
                      raw=True)
    meta = json.loads((path / rundir.RUN_JSON).read_text())
    files = {name: file_sha256(path / name) for name in (rundir.GAMES, rundir.PLAYERS)}
    return files, meta["integrity"]["files"], path


def _same_bytes(prep, tmp_path, settings, games=GAMES):
    """Play ``prep`` (``games`` games) once per (chunk size, threads) of ``settings``; return the
    runs' paths after checking every one has the first one's bytes and integrity record."""
    first, paths = None, []
    for k, (chunk, threads) in enumerate(settings):
        files, integrity, path = _run(prep, tmp_path / f"r{k}", chunk, threads, games)
        paths.append(path)
        if first is None:
            first = (files, integrity, (chunk, threads))
            continue
        assert files == first[0], (f"--chunk-size {chunk} --threads {threads} wrote other bytes than "
                                   f"--chunk-size {first[2][0]} --threads {first[2][1]}")
        assert integrity == first[1]
    return paths


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
@pytest.mark.parametrize("game", ["middle-ages", "medievallons", "seigneurial"])
def test_run_files_are_the_same_bytes_whatever_the_chunk_size_and_threads(game, tmp_path):
    prep = runner.prepare(game, players=4)
    assert runner.row_group_games(prep) > GAMES_PER_GAME         # one row group (see GAMES_PER_GAME)
    _same_bytes(prep, tmp_path, [(None, 2), (MANY, 1), (1000, 2), (None, 1)], GAMES_PER_GAME)


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_row_groups_are_fixed_runs_of_games_across_chunk_boundaries(tmp_path, monkeypatch):
    """Row groups of 1,024 games (the game's default chunk, made small here): 3,000 games are
    three row groups, 0-1023, 1024-2047 and 2048-2999, in both tables, whether the chunks were 61
    games (many chunks to a row group, MANY), 1,000 (row groups cut across chunks), 3,000 (one chunk,
    three row groups) or the default ramp (256, 256, 512, then 1,024: no chunk crosses a row
    group); the bytes are the same."""
    monkeypatch.setattr(runner, "DEFAULT_CHUNK", 1024)
    prep = runner.prepare("middle-ages", players=3)
    assert runner.row_group_games(prep) == 1024
    paths = _same_bytes(prep, tmp_path, [(None, 2), (MANY, 1), (1000, 2), (3000, 1)])
    for name, rows_per_game in ((rundir.GAMES, 1), (rundir.PLAYERS, 3)):
        md = pq.ParquetFile(paths[0] / name).metadata
        assert [md.row_group(g).num_rows for g in range(md.num_row_groups)] == [
            1024 * rows_per_game, 1024 * rows_per_game, 952 * rows_per_game]
        spans = [(md.row_group(g).column(0).statistics.min, md.row_group(g).column(0).statistics.max)
                 for g in range(md.num_row_groups)]
        assert spans == [(0, 1023), (1024, 2047), (2048, 2999)]


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_seat_rotation_row_groups_hold_whole_deals(tmp_path, monkeypatch):
    """With --rotate-seats a chunk holds whole deals (3 games at 3 players): the row group is the
    default chunk rounded down to whole deals (1,023 games of 1,024), and the bytes still do not
    depend on the chunks."""
    monkeypatch.setattr(runner, "DEFAULT_CHUNK", 1024)
    prep = runner.prepare("middle-ages", players=3, rotate_seats=True)
    assert prep.games_per_deal == 3 and runner.row_group_games(prep) == 1023
    paths = _same_bytes(prep, tmp_path, [(None, 1), (MANY, 2), (1000, 1)])
    md = pq.ParquetFile(paths[0] / rundir.GAMES).metadata
    assert [md.row_group(g).num_rows for g in range(md.num_row_groups)] == [1023, 1023, 954]


def _table(first: int, n: int) -> pa.Table:
    game = pa.array(range(first, first + n), pa.int64())
    return pa.table({"game": game, "score": pa.array([(g * 7919) % 101 for g in range(first, first + n)],
                                                     pa.int32()),
                     "strategy": pa.array(["balanced" if g % 3 else "random" for g in range(first, first + n)])})


@pytest.mark.parametrize("splits", [[2500], [1, 999, 1, 1499], [700] * 3 + [400], [1000, 1000, 500]])
def test_the_writer_cuts_row_groups_of_a_fixed_size_whatever_it_is_given(tmp_path, splits):
    """RunWriter.write, given the same rows cut into any writes, writes the same file: row groups
    of exactly the rows asked for (the last one shorter), each column one piece."""
    schema = _table(0, 1).schema
    out = tmp_path / "w"
    with rundir.RunWriter(out, players_schema=None, games_schema=schema,
                          group_rows={rundir.GAMES: 1000}) as w:
        first = 0
        for n in splits:
            w.write(rundir.GAMES, _table(first, n))
            first += n
        w.finish({"games": first})
    md = pq.ParquetFile(out / rundir.GAMES).metadata
    assert [md.row_group(g).num_rows for g in range(md.num_row_groups)] == [1000, 1000, 500]
    assert pq.read_table(out / rundir.GAMES).equals(_table(0, 2500))
    expected = tmp_path / "one"
    with rundir.RunWriter(expected, players_schema=None, games_schema=schema,
                          group_rows={rundir.GAMES: 1000}) as w:
        w.write(rundir.GAMES, _table(0, 2500))
        w.finish({"games": 2500})
    assert file_sha256(out / rundir.GAMES) == file_sha256(expected / rundir.GAMES)


def test_the_writer_refuses_a_row_group_of_no_rows(tmp_path):
    schema = _table(0, 1).schema
    with pytest.raises(ValueError, match="at least 1"):
        rundir.RunWriter(tmp_path / "w", players_schema=None, games_schema=schema,
                         group_rows={rundir.GAMES: 0})
