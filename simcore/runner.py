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
    seat_strategy: Callable[[np.ndarray], np.ndarray] | None = None  # game row -> strategy index
    compile_message: str = "Compiling the kernel (first run only; cached afterwards)"


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


class SeatSummary:
    """Per-seat (and per strategy) running sums: the sufficient statistics of a run."""

    def __init__(self, n_players: int, strategy_names: list[str], columns: tuple[str, ...]):
        self.P = n_players
        self.names = strategy_names
        self.columns = columns
        self.n = np.zeros(n_players, np.int64)
        self.sums: dict[str, np.ndarray] = {c: np.zeros(n_players) for c in ("win_share", *columns)}
        self.sq: dict[str, np.ndarray] = {c: np.zeros(n_players) for c in ("win_share", *columns)}
        self.outright = np.zeros(n_players, np.int64)
        self.shared = np.zeros(n_players, np.int64)

    def add(self, players: dict[str, np.ndarray]) -> None:
        P = self.P
        self.n += players["win_share"].shape[0] // P
        for c in self.sums:
            v = players[c].reshape(-1, P).astype(np.float64)
            self.sums[c] += v.sum(axis=0)
            self.sq[c] += (v * v).sum(axis=0)
        w = players["win_share"].reshape(-1, P)
        self.outright += (w == 1.0).sum(axis=0)
        self.shared += ((w > 0) & (w < 1.0)).sum(axis=0)

    def table(self) -> pa.Table:
        cols: dict[str, Any] = {
            "seat": pa.array(np.arange(self.P, dtype=np.int8)),
            "strategy": pa.array(self.names, pa.string()),
            "games": pa.array(self.n),
            "outright_wins": pa.array(self.outright),
            "shared_wins": pa.array(self.shared),
        }
        for c in self.sums:
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

    summary = SeatSummary(prep.n_players, prep.strategy_names, prep.summary_columns) \
        if prep.seat_strategy is None else None
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
                if summary is not None:
                    summary.add(chunk.players)
                if write_raw:
                    writer.write(rundir.PLAYERS, _table(chunk.players, prep.players_schema))
                writer.write(rundir.GAMES, _table(chunk.games, prep.games_schema))
                done += n
                progress.update(done)
        finally:
            progress.stop()
        wall = time.perf_counter() - t0
        if summary is not None:
            writer.write_table(rundir.SUMMARY, summary.table())
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
    if not quiet and summary is not None:
        print_summary(console, meta, summary, path)
    return path


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


def print_summary(console, meta: dict, summary: SeatSummary, path: Path) -> None:
    from rich.table import Table

    n = int(summary.n[0])
    t = Table(title=f"{meta['game']}: {n:,} games, {meta['players']} players, seed {meta['seed']}"
                    f" — {meta['games_per_s']:,.0f} games/s", title_justify="left")
    t.add_column("seat", justify="right")
    t.add_column("strategy")
    t.add_column("win rate", justify="right")
    t.add_column("95% interval (Wilson)", justify="right")
    t.add_column("vs fair share", justify="right")
    t.add_column("mean score", justify="right")
    fair = 1.0 / summary.P
    for p in range(summary.P):
        w = summary.sums["win_share"][p] / n
        lo, hi = wilson_interval(w, n)
        mean_score = summary.sums["score"][p] / n if "score" in summary.sums else float("nan")
        t.add_row(str(p + 1), summary.names[p], f"{100 * w:.2f}%", f"{100 * lo:.2f}–{100 * hi:.2f}%",
                  f"{100 * (w - fair):+.2f} pts", f"{mean_score:.2f}")
    console.print(t)
    console.print(f"run directory: {path}  (wall {meta['wall_time_s']:.2f} s, kernel "
                  f"{meta['kernel_time_s']:.2f} s)")
