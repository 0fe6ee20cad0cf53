"""Run directories: the unit every later step (analysis, reports, export, check) reads.

A run directory holds ``players.parquet`` (one row per player per game), ``games.parquet`` (one row
per game), ``run.json`` (what was run and how to reproduce it) and ``summary.parquet`` (per-seat
sufficient statistics, written always; the only per-player data of very large runs without
``--raw``). Writing is atomic: everything goes to a hidden temporary directory beside the target,
which is renamed into place only when complete, so an interrupted run never leaves a half-written
file under the final name. The target is checked and claimed (locked) by
:func:`simcore.atomic.check_output_dir`: a non-empty existing directory is refused unless ``force``.

May import pyarrow, the standard library, :mod:`simcore.atomic` and :mod:`simcore.errors`.
"""

from __future__ import annotations

import json
import os
import shutil
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from simcore.atomic import (check_output_dir, publish_dir, release_claim, restore_interrupted,  # noqa: F401
                            show, temporary_dir)
from simcore.errors import UsageError

RUN_JSON = "run.json"
PLAYERS = "players.parquet"
GAMES = "games.parquet"
SUMMARY = "summary.parquet"


def default_run_dir(game: str, root: str | Path = "runs") -> Path:
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    return Path(root) / f"{game}-{stamp}"


# Columns that count up game by game (every value new, or repeated once per seat): Parquet's
# dictionary encoding, tried by default on every column, only costs time there; delta encoding
# stores them in a few bits a row. Measured on a chunk of 131,072 Middle-Ages games: games.parquet
# 112 → 16 ms to write and 0.66 → 0.27 MB; players.parquet 332 → 302 ms, 5.8 → 4.9 MB
# (benchmarks/bench_cluster.py: the client's time per part bounds how many workers it can feed).
COUNTING_COLUMNS = ("game", "deal")


def parquet_encoding(schema: pa.Schema) -> dict[str, Any]:
    """Writer options for a run table: delta encoding for the counting columns."""
    counting = [n for n in schema.names if n in COUNTING_COLUMNS
                and pa.types.is_integer(schema.field(n).type)]
    if not counting:
        return {}
    return {"use_dictionary": [n for n in schema.names if n not in counting],
            "column_encoding": {n: "DELTA_BINARY_PACKED" for n in counting}}


class RunWriter:
    """Streams record batches into a temporary run directory and publishes it atomically.

    Use as a context manager: on an exception the temporary directory is removed and the target
    is left exactly as it was.
    """

    def __init__(self, out: str | Path, force: bool = False, *, players_schema: pa.Schema | None,
                 games_schema: pa.Schema | None, inputs=()) -> None:
        self.out = check_output_dir(out, force, inputs=inputs)
        self.force = force
        self.tmp: Path | None = None
        self._schemas = {PLAYERS: players_schema, GAMES: games_schema}
        self._writers: dict[str, pq.ParquetWriter] = {}

    def __enter__(self) -> "RunWriter":
        self.tmp = temporary_dir(self.out)
        for name, schema in self._schemas.items():
            if schema is not None:
                self._writers[name] = pq.ParquetWriter(self.tmp / name, schema, compression="zstd",
                                                       **parquet_encoding(schema))
        return self

    def write(self, name: str, table: pa.Table) -> None:
        self._writers[name].write_table(table)

    def write_table(self, name: str, table: pa.Table) -> None:
        pq.write_table(table, self.tmp / name, compression="zstd")

    def finish(self, meta: dict[str, Any]) -> Path:
        for w in self._writers.values():
            w.close()
        self._writers.clear()
        (self.tmp / RUN_JSON).write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n",
                                         encoding="utf-8")
        return publish_dir(self.tmp, self.out)

    def __exit__(self, exc_type, exc, tb) -> None:
        for w in self._writers.values():
            try:
                w.close()
            except Exception:
                pass
        if self.tmp is not None and self.tmp.exists():
            shutil.rmtree(self.tmp, ignore_errors=True)
        if exc_type is not None:
            release_claim(self.out, published=False)


def read_meta(run: str | Path) -> dict[str, Any]:
    """run.json of a run directory as an object, with one clear error line if ``run`` is not one.

    A run missing because a ``--force`` replacement was killed between its two renames is
    restored first (:func:`simcore.atomic.restore_interrupted`). The fields are checked by
    :func:`analysis.load.check_run`, which every reader calls."""
    p = Path(run)
    meta_path = p / RUN_JSON
    if not os.path.lexists(p):
        restore_interrupted(p)
    if not p.exists():
        raise UsageError(f"{show(p)}: not a run directory (it does not exist)")
    if not p.is_dir():
        raise UsageError(f"{show(p)}: not a run directory (a file, not a directory)")
    if not meta_path.is_file():
        raise UsageError(f"{show(p)}: not a run directory (no {RUN_JSON})")
    try:
        raw = meta_path.read_bytes()
    except OSError as exc:
        raise UsageError(f"{show(meta_path)}: cannot read ({exc.strerror})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"{show(meta_path)}: not UTF-8 text (byte {exc.start})") from None
    try:
        meta = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{show(meta_path)}: invalid JSON ({exc.msg} at line {exc.lineno} "
                         f"column {exc.colno})") from None
    except RecursionError:
        raise UsageError(f"{show(meta_path)}: invalid JSON (nested too deeply)") from None
    if not isinstance(meta, dict):
        raise UsageError(f"{show(meta_path)}: must hold a JSON object {{...}}, not "
                         f"{type(meta).__name__ if meta is not None else 'null'}")
    return meta
