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

import hashlib
import json
import os
import shutil
import stat
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from simcore.atomic import (being_replaced, check_output_dir, no_space, out_of_space,  # noqa: F401
                            publish_dir, read_marker, release_claim, restore_interrupted, show,
                            temporary_dir)
from simcore.errors import UsageError

RUN_JSON = "run.json"
PLAYERS = "players.parquet"
GAMES = "games.parquet"
SUMMARY = "summary.parquet"
PANEL_JSON = "panel.json"            # a panel played by simulate --panel (analysis.panel_run)
MAX_RUN_JSON_BYTES = 64 * 1024 * 1024     # rules text and tables included, a run.json is far smaller
#: Up to this many games a run keeps players.parquet unless ``--no-raw`` is given; above it, only
#: with ``--raw`` (why: :data:`simcore.runner.RAW_LIMIT`, which is this value). Here, below the
#: runner, so that the readers can say which flag left a run's rows out (session 60 #2).
RAW_LIMIT = 100_000


def stamped_run_dir(game: str, root: str | Path = "runs") -> Path:
    """``runs/<game>-<UTC time to the second>``."""
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    return Path(root) / f"{game}-{stamp}"


def default_run_dir(game: str, root: str | Path = "runs") -> Path:
    """Where a run without ``--out`` goes: :func:`stamped_run_dir`, or, when a run of the same
    second has it already or is writing it (its lock), ``…-2``, ``…-3`` …: two quick runs in a row
    must not collide (the second was refused, "use --force to replace it", advice that would
    lose the first).

    The name is claimed here (:func:`simcore.atomic.claim_output`: its lock taken, as the run's own
    output check would take it, which finds it this process's), not only looked at: two commands
    started in the same second both saw ``…Z`` free and the second then stopped, "another command
    is writing it right now", about a name it was never given (review s46 #6). A candidate whose
    lock another command holds (or a file of that name is in the way), that exists, or that this
    process has claimed already, is passed over for the next suffix."""
    from simcore.atomic import _CLAIMS, claim_output, lock_path_for

    base = stamped_run_dir(game, root)
    candidate, k = base, 1
    while True:
        absolute = Path(os.path.abspath(candidate))
        if not os.path.lexists(candidate) and absolute not in _CLAIMS:
            try:
                claim_output(candidate, "--out")
            except UsageError:
                if not os.path.lexists(lock_path_for(absolute)):
                    raise                      # not taken: a folder that cannot be written, say
            else:
                if not os.path.lexists(candidate):
                    return candidate
                release_claim(candidate, published=False)   # made meanwhile, by a run now done
        k += 1
        candidate = base.with_name(f"{base.name}-{k}")


# Columns that count up game by game (every value new, or repeated once per seat): Parquet's
# dictionary encoding, tried by default on every column, only costs time there; delta encoding
# stores them in a few bits a row. Measured on a chunk of 131,072 Middle-Ages games: games.parquet
# 112 → 16 ms to write and 0.66 → 0.27 MB; players.parquet 332 → 302 ms, 5.8 → 4.9 MB
# (benchmarks/bench_cluster.py: the client's time per part bounds how many workers it can feed).
COUNTING_COLUMNS = ("game", "deal")
# Every other number column (scores, tiles, coins, win shares) is written BYTE_STREAM_SPLIT: the
# bytes of each value split into one stream per byte position, which zstd then compresses well,
# instead of a dictionary (a hash of every value). A chunk of 131,072 Middle-Ages games
# (players.parquet, best of 3 on one core): 254 → 159-173 ms of CPU, 10.8 → 10.6 MB. Reading it
# needs a Parquet reader of 2024 or later for the integer columns (Arrow/pyarrow ≥ 17, polars;
# see docs/export.md); the strings (the strategy) stay dictionary-encoded.
SPLIT_TYPES = (pa.int8(), pa.int16(), pa.int32(), pa.int64(), pa.uint8(), pa.uint16(),
               pa.uint32(), pa.uint64(), pa.float32(), pa.float64())


# Min/max statistics are written for the counting columns only: they are the columns whose row
# groups hold disjoint ranges (a row group is a chunk of consecutive games), so a reader asking for
# some games (`pq.read_table(filters=[("game", "=", g)])`, polars' scan) skips the other row
# groups. Every other column's range is the same in every row group (each chunk holds every seat,
# strategy and nearly every score), so its statistics never let a reader skip anything; computing
# them cost ~13 % of writing players.parquet (a chunk of 131,072 games: 127 → 111 ms).
def parquet_encoding(schema: pa.Schema) -> dict[str, Any]:
    """Writer options for a run table: delta encoding for the counting columns, byte-stream split
    for the other number columns, a dictionary for the rest (strings, booleans); statistics for the
    counting columns only."""
    encoding = {}
    for f in schema:
        if f.name in COUNTING_COLUMNS and pa.types.is_integer(f.type):
            encoding[f.name] = "DELTA_BINARY_PACKED"
        elif f.type in SPLIT_TYPES:
            encoding[f.name] = "BYTE_STREAM_SPLIT"
    stats = [n for n in schema.names if n in COUNTING_COLUMNS]
    options: dict[str, Any] = {"write_statistics": stats or False}
    if encoding:
        options.update(use_dictionary=[n for n in schema.names if n not in encoding],
                       column_encoding=encoding)
    return options


# Rows of a row group of a streamed table when the caller does not say (the runner does: a fixed
# number of whole games, simcore.runner.row_group_games).
GROUP_ROWS = 1 << 19


class RunWriter:
    """Streams record batches into a temporary run directory and publishes it atomically.

    Use as a context manager: on an exception the temporary directory is removed and the target
    is left exactly as it was.

    The streamed tables (``players.parquet``, ``games.parquet``) are written in row groups of a
    fixed number of rows, ``group_rows[name]`` (default :data:`GROUP_ROWS`), whatever the sizes of
    the tables :meth:`write` is given: the file's bytes then depend only on its rows, never on the
    chunks, threads or Dask workers that made them (run.json's sha256 is the same for the same
    games). Memory: fewer than one row group's rows wait between writes (a slice of a larger table
    keeps that table's buffers: at most one chunk more).
    """

    def __init__(self, out: str | Path, force: bool = False, *, players_schema: pa.Schema | None,
                 games_schema: pa.Schema | None, inputs=(), kind: str = "run",
                 group_rows: dict[str, int] | None = None) -> None:
        group_rows = group_rows or {}
        for name, rows in group_rows.items():
            if name not in (PLAYERS, GAMES):
                raise ValueError(f"{name}: not a streamed table ({PLAYERS}, {GAMES})")
            if not isinstance(rows, int) or rows < 1:
                raise ValueError(f"{name}: rows per row group must be at least 1, not {rows!r}")
        self.out = check_output_dir(out, force, inputs=inputs, kind=kind)
        self.force = force
        self.tmp: Path | None = None
        self._schemas = {PLAYERS: players_schema, GAMES: games_schema}
        self._writers: dict[str, pq.ParquetWriter] = {}
        self._group_rows = {name: group_rows.get(name, GROUP_ROWS) for name in self._schemas}
        self._held: dict[str, list[pa.Table]] = {name: [] for name in self._schemas}
        self._held_rows = dict.fromkeys(self._schemas, 0)

    def __enter__(self) -> "RunWriter":
        self.tmp = temporary_dir(self.out)
        for name, schema in self._schemas.items():
            if schema is not None:
                self._writers[name] = pq.ParquetWriter(self.tmp / name, schema, compression="zstd",
                                                       **parquet_encoding(schema))
        return self

    def write(self, name: str, table: pa.Table) -> None:
        """Add ``table``'s rows to the streamed table ``name``: every full row group is written
        now, the rest held for the next call (or :meth:`finish`)."""
        if table.num_rows == 0:
            return
        size = self._group_rows[name]
        held = self._held[name]
        held.append(table)
        self._held_rows[name] += table.num_rows
        if self._held_rows[name] < size:
            return
        rows = pa.concat_tables(held) if len(held) > 1 else table   # (no copy: chunks side by side)
        start = 0
        while rows.num_rows - start >= size:
            self._write_group(name, rows.slice(start, size))
            start += size
        rest = rows.num_rows - start
        held[:] = [rows.slice(start)] if rest else []
        self._held_rows[name] = rest

    def _write_group(self, name: str, rows: pa.Table) -> None:
        """One row group, each column one piece. pyarrow 17 cuts its write batches, and so its
        pages, at the pieces' ends: a row group of 524,288 rows in pieces of 1,000 rows was other
        bytes than the same rows in one piece (pyarrow 26: the same bytes). A column already one
        piece is not copied (a default chunk is a row group: simcore.runner.chunk_spans); the copy
        cost ~10 % of writing 3e5 games with --raw --chunk-size 1000."""
        self._writers[name].write_table(rows.combine_chunks(), row_group_size=rows.num_rows)

    def write_table(self, name: str, table: pa.Table) -> None:
        pq.write_table(table, self.tmp / name, compression="zstd")

    def finish(self, meta: dict[str, Any]) -> Path:
        for name, held in self._held.items():
            if held:                                  # the last row group, shorter
                self._write_group(name, pa.concat_tables(held))
                held.clear()
                self._held_rows[name] = 0
        for w in self._writers.values():
            w.close()
        self._writers.clear()
        meta = {**meta, INTEGRITY: integrity_record(self.tmp, meta)}
        (self.tmp / RUN_JSON).write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n",
                                         encoding="utf-8")
        return publish_dir(self.tmp, self.out)

    def __exit__(self, exc_type, exc, tb) -> None:
        for held in self._held.values():
            held.clear()
        for w in self._writers.values():
            try:
                w.close()
            except Exception:
                pass
        if self.tmp is not None and self.tmp.exists():
            shutil.rmtree(self.tmp, ignore_errors=True)
        if exc_type is not None:
            full = isinstance(exc, Exception) and no_space(exc)
            error = out_of_space(self.out) if full else None     # (names the option it was claimed under)
            release_claim(self.out, published=False)
            if error is not None:     # one line naming --out, not pyarrow's "Error writing bytes"
                raise error from None


def refuse_tables(run: str | Path, meta: dict) -> dict:
    """``meta`` (a run.json), or one :class:`UsageError` line when it is the run.json of a directory
    of tables (balance questions, sweep and tune write one too, with ``command`` and ``files``):
    its fields are not a run's, and a command reading it as one would fail late or answer for the
    wrong games."""
    if "command" in meta or "files" in meta:
        raise UsageError(f"{run}: a directory of tables written by balance "
                         f"{meta.get('command') or meta.get('game')}, not a run of games (give the run "
                         f"simulate --out wrote)")
    return meta


def _first_run(directory: Path, pattern: str) -> Path | None:
    """The first (by name) directory matching ``pattern`` under ``directory`` that holds a run.json."""
    try:
        found = sorted(directory.glob(pattern))
    except OSError:
        return None
    return next((d for d in found if (d / RUN_JSON).is_file()), None)


def not_a_run(directory: str | Path) -> str:
    """Why the directory ``directory`` (no run.json in it) is not a run, and what to give instead:
    a sweep or panel sweep names one of its variants, a panel one of its cells (or its own
    report), a tune, report or skill directory says what it is; else "no run.json" (revC #10)."""
    d = Path(directory)
    marker = read_marker(d)
    kind = marker["kind"] if marker is not None else None
    if kind == "panel_sweep" or (d / "panel_sweep.json").is_file():
        example = _first_run(d, "cells/*/variants/*")
        return ("a panel sweep directory, not a run: give a variant of one of its cells, e.g. "
                f"{show(example or d / 'cells' / 'cell-0' / 'variants' / 'v000')}, or balance report "
                f"{show(d)}")
    if kind == "sweep" or (d / "sweep.json").is_file():
        example = _first_run(d, "variants/*")
        return (f"a sweep directory, not a run: give a variant, e.g. "
                f"{show(example or d / 'variants' / 'v000')}, or balance report {show(d)}")
    if kind == "panel" or _first_run(d, "cell-*") is not None:
        example = _first_run(d, "cell-*")
        return (f"a panel, not a run: give a cell, e.g. {show(example or d / 'cell-0')}, "
                f"or balance report {show(d)}")
    if kind == "tune" or (d / "tune.json").is_file():
        example = _first_run(d, "confirmations/*")
        if example is not None:
            return (f"a tune directory, not a run: give a confirmation run, e.g. {show(example)}, "
                    f"or balance report {show(d)}")
        return f"a tune directory, not a run (balance report {show(d)} reads it)"
    if (d / "skill.json").is_file():
        return (f"a balance skill directory, not a run (its page is {show(d / 'report.html')}; to add "
                f"it to a run's report: balance report RUN --out DIR --skill {show(d)})")
    if kind == "report" or (d / "report.html").is_file():
        return "a report, not a run (give the run directory it was made from)"
    return f"not a run directory (no {RUN_JSON})"


def unfinished_panel(directory: str | Path) -> str | None:
    """Why ``directory``, a panel written by ``simulate --panel``, cannot be read yet, or None:
    the cells its ``panel.json`` lists that are not played (an interrupted panel, resumed by the
    same command)."""
    d = Path(directory)
    try:
        meta = json.loads((d / PANEL_JSON).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(meta, dict):
        return None
    cells = [str(c) for c in meta.get("cells") or []]
    missing = [c for c in cells if not (d / c / RUN_JSON).is_file()]
    if not missing:
        return None
    more = " …" if len(missing) > 3 else ""
    return (f"an unfinished panel: {len(cells) - len(missing)} of {len(cells)} cells played "
            f"({', '.join(missing[:3])}{more} not yet); run the same simulate --panel command "
            f"again to play the rest")


def panel_cell_mismatch(directory: str | Path, cell: str, run_meta: dict[str, Any]) -> str | None:
    """Why run ``cell`` (``cell-K``) of the panel in ``directory`` is not the cell its
    ``panel.json`` says it is, or None: its player count, line-up, games, seed and rules against the
    panel's K-th cell. A run played into a cell by hand (``simulate --out PANEL/cell-2 --force``),
    or a cell copied from another panel, would otherwise be read, and resumed, as that cell. None
    also when there is no readable panel.json (a directory of runs the user gathered)."""
    d = Path(directory)
    try:
        meta = json.loads((d / PANEL_JSON).read_text(encoding="utf-8"))
        names = [str(c) for c in meta["cells"]]
        want = meta["panel"]["cells"][names.index(cell)]
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None
    wrong = []
    if run_meta.get("players") != want.get("players"):
        wrong.append(f"{run_meta.get('players')} players, not {want.get('players')}")
    bots, lineup = list(run_meta.get("strategies") or []), list(want.get("lineup") or [])
    if len(bots) != len(lineup) or any(":" not in w and b != w for b, w in zip(bots, lineup)):
        wrong.append(f"bots {', '.join(map(str, bots))}, not {', '.join(map(str, lineup))}")
    for key in ("games", "seed"):
        if run_meta.get(key) != meta.get(key):
            wrong.append(f"{key} {run_meta.get(key)}, not the panel's {meta.get(key)}")
    settings = [str(x) for x in meta.get("settings") or []]
    rules = str(meta.get("rules_name")) + (" with --set " + ", ".join(settings) if settings else "")
    if meta.get("rules_name") is not None and run_meta.get("rules_name") != rules:
        wrong.append(f"rules {run_meta.get('rules_name')}, not {rules}")
    if not wrong:
        return None
    return (f"{cell} is not the cell panel.json lists as {want.get('label', cell)}: {'; '.join(wrong)} "
            "(played into the panel by another command, or copied from elsewhere: move it away and "
            "run the same simulate --panel command again to play it anew)")


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
        if being_replaced(p):
            raise UsageError(f"{show(p)}: being replaced right now (another command holds its lock); "
                             "retry in a moment")
        raise UsageError(f"{show(p)}: not a run directory (it does not exist)")
    if not p.is_dir():
        raise UsageError(f"{show(p)}: not a run directory (a file, not a directory)")
    if not meta_path.is_file():
        raise UsageError(f"{show(p)}: {not_a_run(p)}")
    try:
        st = meta_path.stat()
        if not stat.S_ISREG(st.st_mode):
            raise UsageError(f"{show(meta_path)}: not a regular file")
        if st.st_size > MAX_RUN_JSON_BYTES:
            raise UsageError(f"{show(meta_path)}: {st.st_size:,} bytes, more than a run.json can be "
                             f"(at most {MAX_RUN_JSON_BYTES:,})")
        with open(meta_path, "rb") as fh:
            raw = fh.read(MAX_RUN_JSON_BYTES + 1)
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


# ---------------------------------------------------------------------------------------------
# Integrity: every file's size and hash, and the figures that tie the tables together
# ---------------------------------------------------------------------------------------------

INTEGRITY = "integrity"
INTEGRITY_FORMAT = 1


def _data_files(directory: Path) -> list[str]:
    """Every regular file under ``directory`` but run.json and hidden entries (the ownership marker,
    locks), as paths relative to it, sorted."""
    out = []
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for f in files:
            if f.startswith("."):
                continue
            rel = os.path.relpath(os.path.join(root, f), directory)
            if rel != RUN_JSON:
                out.append(rel)
    return sorted(out)


def file_sha256(path: Path) -> str:
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def _parquet_rows(path: Path) -> int | None:
    try:
        return int(pq.ParquetFile(path).metadata.num_rows)
    except Exception:       # not a readable Parquet file: its hash still guards it
        return None


def integrity_record(directory: str | Path, meta: dict[str, Any]) -> dict[str, Any]:
    """What run.json records so that every reader can prove the files are the ones written with
    it: each file's size and sha256, the rows of each Parquet table, and the figures tying them
    (games, players: players.parquet has games x players rows, games.parquet one per game)."""
    d = Path(directory)
    files = {}
    for rel in _data_files(d):
        p = d / rel
        entry: dict[str, Any] = {"size": p.stat().st_size, "sha256": file_sha256(p)}
        if rel.endswith(".parquet"):
            rows = _parquet_rows(p)
            if rows is not None:
                entry["rows"] = rows
        files[rel] = entry
    return {"format": INTEGRITY_FORMAT, "files": files,
            "figures": {"games": meta.get("games"), "players": meta.get("players")}}


def _damaged_dir(p: Path, problem: str, what: str = "run directory",
             again: str = "rerun the simulation") -> UsageError:
    mixed = "runs" if what == "run directory" else "directories"
    return UsageError(f"{show(p)}: {problem}: the {what} was changed after it was written "
                      f"(damaged, or files of different {mixed} mixed); {again}")


def damage(run: str | Path) -> str | None:
    """Why the played run directory ``run`` (its run.json there) cannot be kept as it is: its
    run.json unreadable or a file differing from its integrity record (the first problem, one
    line), or None when it is whole. A resumed sweep or panel plays such a variant or cell again
    instead of calling it played."""
    try:
        verify_integrity(run, read_meta(run))
    except UsageError as exc:
        return str(exc)
    return None


def verify_integrity(run: str | Path, meta: dict[str, Any], what: str = "run directory",
                     again: str = "rerun the simulation") -> None:
    """Check the files of run directory ``run`` against run.json's integrity record (one
    :class:`UsageError` line naming the first file that differs). Generic over the files the
    record lists, so a new file of a run is covered without a change here. Runs written before the
    record existed have none and are read as they are. ``what`` and ``again``: how the line names
    the directory and what to do (a questions directory's run.json has the same record: review
    s62 #3, "play them again")."""
    d = Path(run)
    rec = meta.get(INTEGRITY)
    if rec is None:
        return

    def _damaged(p: Path, problem: str) -> UsageError:
        return _damaged_dir(p, problem, what, again)
    files = rec.get("files") if isinstance(rec, dict) else None
    if not isinstance(files, dict) or rec.get("format") != INTEGRITY_FORMAT or not all(
            isinstance(v, dict) and isinstance(v.get("size"), int) and isinstance(v.get("sha256"), str)
            for v in files.values()):
        raise UsageError(f"{show(d / RUN_JSON)}: its {INTEGRITY} record is damaged ({again})")
    for rel, want in files.items():
        p = d / rel
        if os.path.isabs(rel) or ".." in Path(rel).parts:
            raise UsageError(f"{show(d / RUN_JSON)}: its {INTEGRITY} record names {show(rel)}, outside the "
                             f"{'run' if what == 'run directory' else what}")
        if not p.is_file():
            raise _damaged(p, "missing, although run.json lists it")
        size = p.stat().st_size
        if size != want["size"]:
            raise _damaged(p, f"{size:,} bytes where run.json recorded {want['size']:,}")
        if file_sha256(p) != want["sha256"]:
            raise _damaged(p, "its contents differ from what run.json recorded (sha256)")
    for rel in _data_files(d):
        if rel.endswith(".parquet") and rel not in files:
            raise _damaged(d / rel, "not written with this run (run.json does not list it)")
    figures = rec.get("figures") or {}
    games, players = meta.get("games"), meta.get("players")
    if figures.get("games") != games or figures.get("players") != players:
        raise _damaged(d / RUN_JSON, f"games = {games}, players = {players}, but the files were written "
                       f"for games = {figures.get('games')}, players = {figures.get('players')}")
    if isinstance(games, int) and isinstance(players, int):
        expect = {PLAYERS: games * players, GAMES: games}
        for name, n in expect.items():
            rows = files.get(name, {}).get("rows")
            if rows is not None and rows != n:
                raise _damaged(d / name, f"{rows:,} rows where {games:,} games of {players} players "
                               f"need {n:,}")


def run_identity(meta: dict[str, Any]) -> tuple:
    """What makes two runs play the same games: game, players, rules, strategies (their names and
    the files they were read from: :func:`bots_key`), seed, seat rotation and matchup (a game's
    random stream is keyed on the seed and its index, so runs that agree on these play the very
    same game at every index both cover)."""
    return (meta.get("game"), meta.get("players"), meta.get("rules_sha256"),
            tuple(meta.get("strategies") or ()), bots_key(meta), meta.get("seed"),
            meta.get("rotate_seats"), matchup_key(meta))


def bots_key(meta: dict[str, Any]) -> tuple:
    """The strategy files a run's bots were read from, as (file, sha256) pairs (run.json
    ``strategy_files``; ``()`` for a run that recorded none, as earlier versions did). Two runs
    whose seats name the same bots (``bots.toml:mine``, ``balanced``) read from files of other
    contents played other bots: an edit of the file between them is a change to compare, not
    games to pool (nor the same games given twice)."""
    files = meta.get("strategy_files")
    if not isinstance(files, dict):
        return ()
    return tuple(sorted((str(k), str(v.get("sha256")) if isinstance(v, dict) else "")
                        for k, v in files.items()))


def matchup_key(meta: dict[str, Any]) -> str:
    """The options a game's run played besides its rules and bots (run.json ``matchup``: Fief's
    attacker, defender, terrain, …), canonical; "" for a game without. Two runs of one game and
    rules but another matchup play other games (a castle siege and a city siege of 10 against 6)."""
    m = meta.get("matchup")
    return json.dumps(m, sort_keys=True) if m else ""


def _game_span(meta: dict[str, Any]) -> tuple[int, int]:
    first = meta.get("first_game", 0)
    first = first if isinstance(first, int) else 0
    games = meta.get("games")
    return first, first + (games if isinstance(games, int) else 0)


def check_distinct_runs(paths, metas) -> None:
    """Refuse, in one line, the same run given twice (the same directory, a copy of it, or a run
    of the very same games, even some of them: a rerun with the same seed and more games holds the
    first run's games): pooled, those games would count twice."""
    seen_paths: dict[str, Path] = {}
    seen_games: list[tuple[tuple, tuple[int, int], Path]] = []
    for p, meta in zip(paths, metas):
        real = os.path.realpath(p)
        if real in seen_paths:
            raise UsageError(f"{show(p)}: given twice (the same directory as {show(seen_paths[real])}); "
                             "each run may be given once")
        seen_paths[real] = Path(p)
        ident, (a, b) = run_identity(meta), _game_span(meta)
        for other_ident, (c, d), other in seen_games:
            if ident == other_ident and a < d and c < b:
                lo, hi = max(a, c), min(b, d)
                what = ("the very same games (same seed and settings)" if (a, b) == (c, d) else
                        f"games {lo}…{hi - 1} of both are the very same games (same seed and settings)")
                raise UsageError(f"{show(p)}: given twice ({what} as {show(other)}); each run may "
                                 "be given once (pool runs of different seeds)")
        seen_games.append((ident, (a, b), Path(p)))
