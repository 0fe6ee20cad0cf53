"""The chunked runner: plays a prepared game in chunks and streams the results into a run directory.

A game adapter (e.g. :mod:`simcore.games.middle_ages.game`) turns user options into a
:class:`PreparedRun`: the per-chunk play function, the Arrow schemas and what run.json must say. The
runner owns everything that is the same for every game: parsing the game count, checking the output
path before any work, threads, the compile spinner and progress bar, chunking (memory stays bounded
whatever the game count), per-seat sufficient statistics, atomic publication of the run directory,
and the closing summary table. Results do not depend on the chunk size or the thread count because
every game draws from its own stream keyed on (seed, game index).

May import numpy, pyarrow, numba, rich and :mod:`simcore` modules (never analysis/reports).
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pyarrow as pa

import simcore
from simcore import rundir
from simcore.errors import UsageError
from simcore.stats import wilson_interval

DEFAULT_CHUNK = 1 << 17          # games per chunk: ~30 MB of player rows at 5 players
RAW_LIMIT = 10_000_000           # above this, players.parquet only with raw=True
MAX_GAMES = 10**11


@dataclass
class ChunkResult:
    """Column arrays of one chunk: ``players`` has n_games * n_players rows, ``games`` n_games."""

    players: dict[str, np.ndarray]
    games: dict[str, np.ndarray]


@dataclass
class PreparedRun:
    """Everything the runner needs to play one configuration, built by a game adapter."""

    game: str
    n_players: int
    strategy_names: list[str]                    # one per seat
    players_schema: pa.Schema
    games_schema: pa.Schema
    play: Callable[[int, int, int], ChunkResult]  # (first_game, n_games, seed) -> columns
    warmup: Callable[[], None] = lambda: None
    rules_name: str = ""
    rules_text: str = ""
    rules_sha256: str = ""
    meta: dict[str, Any] = field(default_factory=dict)
    summary_columns: tuple[str, ...] = ()        # numeric player columns summed per seat
    games_per_deal: int = 1                      # seat rotation plays each deal several times
    compile_message: str = "Compiling the kernel (first run only; cached afterwards)"
    # game-specific sufficient statistics: name -> factory of an object with
    # .add(ChunkResult) and .table() -> pa.Table, written as <name>.parquet
    extra_summaries: dict[str, Callable[[], Any]] = field(default_factory=dict)


class SeatStrategies:
    """The strategy of every seat as the player rows need it, for any game's adapter.

    ``names`` has one strategy name per seat (strategy row order). :meth:`columns` builds the
    columns every game's players table starts with: ``game``, ``seat``, ``strategy`` (a string
    column built from a dictionary of the distinct names), ``deal`` and ``rotation``. With seat
    rotation (``n_rot`` = players), game ``i`` is deal ``i // n_rot`` in rotation ``i % n_rot``,
    and in rotation k seat s is played by strategy row ``(s + k) % players``.
    """

    def __init__(self, names: list[str]) -> None:
        index = {n: i for i, n in enumerate(dict.fromkeys(names))}
        self.dictionary = pa.array(list(index), pa.string())
        self.codes = np.array([index[n] for n in names], np.int32)

    def columns(self, first: int, n: int, n_rot: int = 1) -> dict:
        P = len(self.codes)
        games = np.arange(first, first + n, dtype=np.int64)
        seats = np.tile(np.arange(P, dtype=np.int64), n)
        rot = np.repeat(games % n_rot, P)
        codes = self.codes[(seats + rot) % P]
        return {
            "game": np.repeat(games, P),
            "seat": seats.astype(np.int8),
            "strategy": pa.DictionaryArray.from_arrays(pa.array(codes), self.dictionary).cast(pa.string()),
            "deal": np.repeat(games // n_rot, P),
            "rotation": rot.astype(np.int8),
        }


def raise_game_error(errors: np.ndarray, first: int, error_text: dict[int, str]) -> None:
    """RuntimeError naming the first game of a chunk whose kernel error code is not 0."""
    bad = np.flatnonzero(errors)
    if bad.size:
        code = int(errors[bad[0]])
        raise RuntimeError(f"game {first + int(bad[0])}: {error_text.get(code, f'kernel error {code}')}")


def parse_games(text: str | int | float, option: str = "--games") -> int:
    """Parse a game count: ``1e6``, ``1_000_000``, ``250000``; refuse 0, negatives, fractions."""
    s = str(text).strip().replace("_", "")
    if re.fullmatch(r"[+]?\d+", s):
        n = int(s)
    elif re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", s):
        value = float(s)
        if not math.isfinite(value) or value != int(value):
            raise UsageError(f"{option} {text}: must be a whole number of games (e.g. 1e6, 250000)")
        n = int(value)
    else:
        raise UsageError(f"{option} {text!s}: not a number of games (e.g. 1e6, 1_000_000, 250000)")
    if n <= 0:
        raise UsageError(f"{option} {text}: must be at least 1")
    if n > MAX_GAMES:
        raise UsageError(f"{option} {text}: more than {MAX_GAMES:.0e} games is not supported")
    return n


def set_threads(threads: int | None) -> int:
    import numba

    available = numba.config.NUMBA_NUM_THREADS
    if threads is None:
        threads = available
    if threads < 1:
        raise UsageError(f"--threads {threads}: must be at least 1")
    if threads > available:
        raise UsageError(f"--threads {threads}: this machine allows at most {available} "
                         "(set NUMBA_NUM_THREADS to raise the limit)")
    numba.set_num_threads(threads)
    return threads


class GroupSummary:
    """Running sums per group (seat, or strategy): the sufficient statistics of a run.

    Rows of a chunk are assigned to groups by an integer key per row; for every numeric column
    the sum and the sum of squares are kept, plus outright and shared wins.
    """

    def __init__(self, kind: str, labels: list[str], columns: tuple[str, ...]):
        self.kind, self.labels, self.columns = kind, labels, ("win_share", *columns)
        g = len(labels)
        self.n = np.zeros(g, np.int64)
        self.sums = {c: np.zeros(g) for c in self.columns}
        self.sq = {c: np.zeros(g) for c in self.columns}
        self.outright = np.zeros(g, np.int64)
        self.shared = np.zeros(g, np.int64)

    def add(self, players: dict[str, np.ndarray], key: np.ndarray) -> None:
        g = len(self.labels)
        self.n += np.bincount(key, minlength=g)
        for c in self.columns:
            v = np.asarray(players[c], np.float64)
            self.sums[c] += np.bincount(key, weights=v, minlength=g)
            self.sq[c] += np.bincount(key, weights=v * v, minlength=g)
        w = np.asarray(players["win_share"])
        self.outright += np.bincount(key, weights=(w == 1.0), minlength=g).astype(np.int64)
        self.shared += np.bincount(key, weights=(w > 0) & (w < 1.0), minlength=g).astype(np.int64)

    def table(self) -> pa.Table:
        g = len(self.labels)
        cols: dict[str, Any] = {
            "group": pa.array([self.kind] * g, pa.string()),
            "seat": pa.array(np.arange(g, dtype=np.int8) if self.kind == "seat"
                             else np.full(g, -1, np.int8)),
            "strategy": pa.array(self.labels, pa.string()),
            "games": pa.array(self.n),
            "outright_wins": pa.array(self.outright),
            "shared_wins": pa.array(self.shared),
        }
        for c in self.columns:
            cols[f"{c}_sum"] = pa.array(self.sums[c])
            cols[f"{c}_sq_sum"] = pa.array(self.sq[c])
        return pa.table(cols)


def run(prep: PreparedRun, *, games: int, seed: int = 0, out: str | Path | None = None,
        force: bool = False, threads: int | None = None, chunk_size: int = DEFAULT_CHUNK,
        raw: bool | None = None, quiet: bool = False, console=None) -> Path:
    """Play ``games`` games of ``prep`` and publish the run directory; return its path."""
    if games <= 0:
        raise UsageError(f"--games {games}: must be at least 1")
    if seed < 0 or seed >= 2**63:
        raise UsageError(f"--seed {seed}: must be between 0 and 2**63 - 1")
    if chunk_size <= 0:
        raise UsageError(f"--chunk-size {chunk_size}: must be at least 1")
    out_dir = Path(out) if out is not None else rundir.default_run_dir(prep.game)
    rundir.check_output_dir(out_dir, force)
    n_threads = set_threads(threads)
    write_raw = raw if raw is not None else games <= RAW_LIMIT
    if console is None:
        from rich.console import Console

        console = Console(stderr=True, quiet=quiet)

    t_compile = time.perf_counter()
    with console.status(prep.compile_message):
        prep.warmup()
    t_compile = time.perf_counter() - t_compile

    if games % prep.games_per_deal:
        raise UsageError(f"--games {games}: with --rotate-seats the count must be a multiple of "
                         f"{prep.games_per_deal} (one game per rotation of every deal)")
    rotating = prep.games_per_deal > 1
    strategy_labels = list(dict.fromkeys(prep.strategy_names))
    seat_labels = ["(rotating)" if rotating else nm for nm in prep.strategy_names]
    by_seat = GroupSummary("seat", seat_labels, prep.summary_columns)
    by_strategy = GroupSummary("strategy", strategy_labels, prep.summary_columns)
    extras = {name: make() for name, make in prep.extra_summaries.items()}
    t0 = time.perf_counter()
    kernel_s = 0.0
    done = 0
    with rundir.RunWriter(out_dir, force, players_schema=prep.players_schema if write_raw else None,
                          games_schema=prep.games_schema) as writer:
        progress = _Progress(console, games)
        try:
            while done < games:
                n = min(chunk_size, games - done)
                tk = time.perf_counter()
                chunk = prep.play(done, n, seed)
                kernel_s += time.perf_counter() - tk
                seat_key = np.tile(np.arange(prep.n_players), n)
                by_seat.add(chunk.players, seat_key)
                by_strategy.add(chunk.players, _strategy_key(chunk.players["strategy"],
                                                             strategy_labels))
                for acc in extras.values():
                    acc.add(chunk)
                if write_raw:
                    writer.write(rundir.PLAYERS, _table(chunk.players, prep.players_schema))
                writer.write(rundir.GAMES, _table(chunk.games, prep.games_schema))
                done += n
                progress.update(done)
        finally:
            progress.stop()
        wall = time.perf_counter() - t0
        writer.write_table(rundir.SUMMARY, pa.concat_tables([by_seat.table(), by_strategy.table()]))
        for name, acc in extras.items():
            writer.write_table(f"{name}.parquet", acc.table())
        meta = {
            "game": prep.game,
            "players": prep.n_players,
            "games": games,
            "seed": seed,
            "strategies": prep.strategy_names,
            "rules_name": prep.rules_name,
            "rules_sha256": prep.rules_sha256,
            "rules_text": prep.rules_text,
            "version": simcore.__version__,
            "threads": n_threads,
            "chunk_size": chunk_size,
            "raw_players": write_raw,
            "wall_time_s": round(wall, 3),
            "kernel_time_s": round(kernel_s, 3),
            "compile_or_load_s": round(t_compile, 3),
            "games_per_s": round(games / wall, 1) if wall > 0 else None,
            "created_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            **prep.meta,
        }
        path = writer.finish(meta)
    if not quiet:
        print_summary(console, meta, by_seat, by_strategy if len(strategy_labels) > 1 else None, path)
    return path


def _strategy_key(strategy: pa.Array, labels: list[str]) -> np.ndarray:
    """Row → index of its strategy name in ``labels``."""
    import pyarrow.compute as pc

    return np.asarray(pc.index_in(strategy, value_set=pa.array(labels, pa.string())),
                      dtype=np.int64)


def _table(cols: dict[str, np.ndarray], schema: pa.Schema) -> pa.Table:
    arrays = []
    for f in schema:
        v = cols[f.name]
        arrays.append(v if isinstance(v, (pa.Array, pa.ChunkedArray)) else pa.array(v, f.type))
    return pa.Table.from_arrays(arrays, schema=schema)


class _Progress:
    """A rich progress bar that appears only when the run lasts more than a second."""

    def __init__(self, console, total: int) -> None:
        self.console, self.total = console, total
        self.start = time.perf_counter()
        self.bar = None
        self.task = None

    def update(self, done: int) -> None:
        elapsed = time.perf_counter() - self.start
        if self.bar is None and done < self.total and elapsed > 0:
            # projected total time > 1 s: show a bar
            if elapsed / done * self.total > 1.0 and not self.console.quiet:
                from rich.progress import (BarColumn, MofNCompleteColumn, Progress,
                                           TextColumn, TimeRemainingColumn)

                self.bar = Progress(TextColumn("[bold]simulating"), BarColumn(),
                                    MofNCompleteColumn(), TextColumn("games"),
                                    TimeRemainingColumn(), console=self.console, transient=True)
                self.bar.start()
                self.task = self.bar.add_task("games", total=self.total)
        if self.bar is not None:
            self.bar.update(self.task, completed=done)

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def print_summary(console, meta: dict, by_seat: GroupSummary, by_strategy: GroupSummary | None,
                  path: Path) -> None:
    from rich.table import Table

    P = meta["players"]
    fair = 1.0 / P
    title = (f"{meta['game']}: {meta['games']:,} games, {P} players, seed {meta['seed']}"
             f" — {meta['games_per_s']:,.0f} games/s")
    for summary, head in ((by_seat, "seat"), (by_strategy, "strategy")):
        if summary is None:
            continue
        t = Table(title=title if head == "seat" else "per strategy (all seats)", title_justify="left")
        if head == "seat":
            t.add_column("seat", justify="right")
        t.add_column("strategy")
        for c in ("win rate", "95% interval (Wilson)", "vs fair share", "mean score"):
            t.add_column(c, justify="right")
        for i, label in enumerate(summary.labels):
            n = int(summary.n[i])
            w = summary.sums["win_share"][i] / n
            lo, hi = wilson_interval(w, n)
            score = summary.sums["score"][i] / n if "score" in summary.sums else float("nan")
            cells = [label, f"{100 * w:.2f}%", f"{100 * lo:.2f}–{100 * hi:.2f}%",
                     f"{100 * (w - fair):+.2f} pts", f"{score:.2f}"]
            t.add_row(*([str(i + 1)] if head == "seat" else []), *cells)
        console.print(t)
    console.print(f"run directory: {path}  (wall {meta['wall_time_s']:.2f} s, kernel "
                  f"{meta['kernel_time_s']:.2f} s)")
