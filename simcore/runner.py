"""The chunked runner: the one simulation path of every game, to a run directory or in memory.

:func:`prepare` reads the game's spec from the registry (:mod:`simcore.games`), refuses options the
game does not take, resolves the bots with the game's strategy loader and lets the game's adapter
build a :class:`~simcore.contract.PreparedRun`. :func:`run` plays it and streams the results into a
run directory; :func:`chunks` and :func:`collect` are the in-memory form (the ladder, the
Médiévallons questions, sweeps). The runner owns everything that is the same for every game:
checking the output path before any work, threads, chunking (memory stays bounded whatever the
game count), the run's mergeable statistics (:mod:`simcore.accumulate`, stats.json) and the
per-seat and per-strategy sums of summary.parquet, and atomic publication of the run directory.
It draws nothing: :func:`execute` returns a :class:`RunResult` and reports progress and Numba
compilation through callbacks; the progress bar, the compile spinner and the closing table are
the command line's (:mod:`cli.progress`). Results do not depend on
the chunk size or the thread count because every game draws from its own stream keyed on
(seed, game index). :func:`simulate` is prepare + run in one call.

May import numpy, pyarrow, numba, :mod:`strategies` (through the specs' loader names) and
:mod:`simcore` modules (never analysis/reports).
"""

from __future__ import annotations

import math
import os
import pickle
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import numpy as np
import pyarrow as pa

import simcore
from simcore import accumulate
from simcore import games as registry
from simcore import rundir
from simcore.atomic import claimed_option, input_paths
from simcore.contract import (ChunkResult, PreparedRun, arrow_column, check_chunk, strategy_codes,
                              strings)
from simcore.errors import UsageError
from simcore.options import check_chunk_size, check_seed, check_threads, parse_games, set_threads, usable_cores  # noqa: F401

DEFAULT_CHUNK = 1 << 17          # games per chunk: ~30 MB of player rows at 5 players
# above this many games, players.parquet is written only with raw=True (``simulate --raw``): no
# analysis, report, export of a table, baseline or check reads it (they read stats.json), and
# ``balance replay`` plays a row-less run's games again for the rows it needs. Writing it costs
# ~0.11 s of CPU, 14 MB of memory and an 8.4 MB file per 1e5 4-player Middle-Ages games
# (docs/cluster.md, "players.parquet by default"): up to 1e5 games it is kept, a small file for
# who wants to look at rows; at 1e6 it was the largest cost outside the kernel. (Defined in
# simcore.rundir, whose readers name the flag that left a run's rows out by it.)
RAW_LIMIT = rundir.RAW_LIMIT

# Disk space a run directory's rows take, estimated before any game is played (revC #3: a
# `--raw -n 1e10` run started and failed only when the disk filled). A table's rows are estimated
# from its schema: the fixed width of its columns (bytes per row, uncompressed) times the share
# zstd with the run's encodings keeps, plus a cost per row group (row_group_games) and column.
# Measured (200,000 games, 4 players, chunks of 131,072; bytes per row / fixed width):
# players.parquet Middle-Ages 21.0 / 77 B = 0.27 (the largest; 5 players and chunks of 5,000:
# 0.28), Médiévallons 8.9 / 58 B = 0.15, Seigneurial 4.2 / 31 B = 0.14, Fief combat 0.35 / 18 B;
# games.parquet 2.03 / 14 B = 0.15 (Middle-Ages; 5 players and chunks of 5,000: 0.16), the others
# 0.04 to 0.13. Chunks of 100 and 1,000 games added 105 to 145 bytes per row group and column. The
# figures below keep a margin of a quarter or more over the largest of these, so the estimate is
# rather too large than too small (1e10 4-player Middle-Ages games with --raw: 1.1 TB estimated,
# about 860 GB written); the run is refused when it exceeds the free space where --out is.
PLAYER_ROW_SHARE = 0.35         # compressed bytes per byte of a player row's fixed-width columns
GAME_ROW_SHARE = 0.20           # the same for a game row
ROW_GROUP_BYTES = 200           # per row group and column: headers, statistics, page index
SUMMARY_BYTES = 1 << 20         # summary.parquet, stats.json, run.json and the rest: 1 MB at most


def prepare(game: str, *, rules: str | Path | None = None, rules_arrays: Any = None,
            settings: Any = (), quiet: bool = False, show_compile=None, **options: Any) -> PreparedRun:
    """Validate ``options`` for ``game`` and build its run (nothing is played).

    ``settings`` are rule settings (``--set``: :class:`simcore.config.Setting` or ``"PATH=VALUE"``
    strings) applied to the rules file before the game's own loader validates it, so every game
    takes them (see :func:`rules_source`).

    ``options`` are the common ones (``players``, ``strategies``, ``rotate_seats``, ``engine``,
    ``debug``) and the game's own (its spec's ``options``); ``None`` means "not given". An option
    the game does not take is a one-line :class:`UsageError` naming it. ``rules`` is a rules file
    (default: the game's shipped rules); ``rules_arrays`` already loaded rules (programmatic
    variants), where the adapter accepts them. The run keeps a :class:`Recipe` of the validated
    options (bots resolved to their rows, the rules file's text) with which a Dask worker builds
    the same run (:mod:`simcore.cluster`). Building the run imports the game's kernel, which Numba
    compiles on a first run (or after an edit): ``show_compile(message)`` is called then, and only
    then (:class:`compile_notice`; the command line passes a spinner; ``quiet`` is kept for old
    callers and changes nothing: the runner draws nothing).
    """
    spec = registry.get(game)
    spec.check_options(options)
    own = {o.name for o in spec.options}
    given = {k: v for k, v in options.items() if v is not None}
    kwargs: dict[str, Any] = {k: v for k, v in given.items() if k in own}
    strategy_files: dict = {}
    if "players" in spec.takes:
        players = int(given.get("players", spec.default_players))
        spec.check_players(players)
        kwargs["players"] = players
        for k in ("rotate_seats", "engine", "debug"):
            if k in spec.takes and k in given:
                kwargs[k] = given[k]
        if spec.strategies is not None:
            from strategies.common import recording_files

            loader = registry.import_hook(spec.strategies)
            names = given.get("strategies") or spec.default_strategy
            with recording_files() as strategy_files:
                kwargs["bots"] = loader.resolve(names, players)
                # each bot's kind as the loader read it (run.json ``strategy_kinds``): the pages
                # that read runs cannot import the loader (analysis.start_coins.heuristic_bots)
                strategy_kinds = {str(n): getattr(loader.lookup(n), "kind", None)
                                  for n in dict.fromkeys(kwargs["bots"][0])}
    if rules_arrays is not None:
        kwargs["rules"] = rules_arrays
    if settings:
        if rules_arrays is not None:
            raise ValueError("give rule settings or already loaded rules, not both")
        rules = rules_source(game, rules, settings, seats=kwargs.get("players"))
    with compile_notice(f"Compiling the {spec.title} kernel (a first run after an install or an edit; "
                        f"cached afterwards)", show_compile):
        prep = build(game, kwargs, rules)
    if settings:
        prep.meta["settings"] = [getattr(x, "text", str(x)) for x in settings]
    if strategy_files:      # the bots' files as read: a replay plays these (strategies.common)
        prep.meta["strategy_files"] = dict(sorted(strategy_files.items()))
        prep.meta["strategy_kinds"] = strategy_kinds
    sent = None           # the shipped rules: the worker's own (its sha256 must match)
    if rules is not None and rules_arrays is None:
        from simcore.config import TomlSource, parse_toml

        sent = rules if isinstance(rules, TomlSource) else parse_toml(prep.rules_text,
                                                                      name=prep.rules_name)
    prep.recipe = Recipe(game, kwargs, sent, prep.rules_sha256)
    return prep


#: The ``show`` of :func:`compile_shown` blocks, innermost last: what a :class:`compile_notice`
#: calls when its caller gives none.
_SHOWN: list = []


class compile_shown:
    """A block in which every :class:`compile_notice` given no ``show`` of its own calls ``show``:
    a command whose runs are prepared and played deep in the analysis (``balance report
    --play-questions``, ``balance questions``, ``balance skill``: :func:`prepare` and
    :func:`collect` called without one) says "compiling …" as ``simulate`` does, while and only
    while Numba compiles (review 270 #3: 75 s of a report's first questions and 44 s of a skill
    part compiled kernels with nothing said). ``show`` None: nothing changes."""

    def __init__(self, show) -> None:
        self.show = show

    def __enter__(self) -> "compile_shown":
        _SHOWN.append(self.show)
        return self

    def __exit__(self, *exc) -> None:
        _SHOWN.remove(self.show)


class compile_notice:
    """While Numba really compiles (its ``numba:compile`` event, not a load from the on-disk cache),
    ``show(message)`` is called once and what it returns (a function without arguments) is called
    when the block ends: the command line draws a spinner then (``cli.progress.spinner``); nothing
    at all happens when every function comes from the cache or ``show`` is None. Compilation may
    start in any thread (the kernel's blocks), so ``show`` is called from the event listener.
    ``compiled`` says afterwards whether anything was compiled. While it compiles, the cyclic
    garbage collector is eased (:class:`simcore.numba_cache.eased_collector`). ``show`` None: the
    innermost :class:`compile_shown` block's, if any."""

    def __init__(self, message: str, show=None, also=None) -> None:
        if show is None and _SHOWN:
            show = _SHOWN[-1]
        self.message, self.show, self.also = message, show, also
        self.stop = None
        self.compiled = False
        from simcore.numba_cache import eased_collector

        self.collector = eased_collector()

    def __enter__(self):
        from numba.core import event

        notice = self

        class _Listener(event.Listener):
            def on_start(self, ev):
                notice._started()

            def on_end(self, ev):
                pass

        self._scope = event.install_listener("numba:compile", _Listener())
        self._scope.__enter__()
        return self

    def _started(self) -> None:
        if self.compiled:
            return
        self.compiled = True
        self.collector.begin()
        if self.also is not None:
            self.also()
        if self.show is not None:
            self.stop = self.show(self.message)

    def __exit__(self, *exc) -> None:
        self._scope.__exit__(*exc)
        self.collector.end()
        if self.stop is not None:
            self.stop()


class HelperCompile:
    """The statistics' jitted helpers a run will call (:func:`simcore.accumulate.jobs_for`),
    compiled in a child process while this one compiles the kernel, on a second core.

    A cold first run compiled the kernel, then, at the first chunk's statistics, a dozen helpers
    one after the other in the same process (~4 s of a ~15 s first run of ``simulate``: Numba
    compiles one function at a time, under one lock). :meth:`start` (called by
    :class:`compile_notice` when Numba starts compiling) starts ``python -c`` on
    :func:`simcore.accumulate.compile_jobs`, which writes them to the same on-disk cache;
    :meth:`wait`, once the kernel is ready, waits for it, and the statistics then load the helpers
    from the cache. Nothing is started on one core (or ``threads=1``) or without a writable cache,
    and nothing depends on the child: if it fails or is stopped, this process compiles what it
    needs itself, as before. Only Numba's cache is written (each entry by Numba, atomically), so
    results never change."""

    def __init__(self, prep: PreparedRun, threads: int | None = None) -> None:
        self.prep, self.threads = prep, threads
        self.proc: subprocess.Popen | None = None

    @staticmethod
    def cores() -> int:
        return usable_cores()

    def start(self) -> None:
        from simcore import numba_cache

        if (self.proc is not None or min(self.threads or 2, self.cores()) < 2
                or not numba_cache.has_cache()):
            return
        jobs = statistics_jobs(self.prep)
        root = str(Path(simcore.__file__).resolve().parents[1])
        env = dict(os.environ)         # -P: not the working folder's modules, this simcore's
        env["PYTHONPATH"] = os.pathsep.join([root] + [p for p in [env.get("PYTHONPATH")] if p])
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-P", "-c", "import sys; from simcore import accumulate; "
                 "accumulate.compile_jobs(sys.argv[1:])", *jobs],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                env=env)
        except OSError:                             # no process to spare: compiled here later
            self.proc = None

    def wait(self, timeout: float = 600.0) -> None:
        """Wait for the child (if any) to end; one that runs past ``timeout`` s is stopped."""
        if self.proc is None:
            return
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.stop()

    def stop(self) -> None:
        """Stop the child now (the run failed or was interrupted)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


@dataclass
class Recipe:
    """How to build a run again elsewhere (a Dask worker): the game, its adapter's validated
    keyword arguments (bots as rows, loaded rules arrays if any), the rules as read here when a
    file or ``--set`` settings were given (a :class:`simcore.config.TomlSource`, which every
    game's loader takes in place of a path; ``None``: the shipped rules of the package there),
    and the rules' sha256 the client saw, which the rebuilt run must match."""

    game: str
    kwargs: dict[str, Any]
    rules: Any
    rules_sha256: str


def build(game: str, kwargs: dict[str, Any], rules: Any) -> PreparedRun:
    """The game's adapter's run for already validated ``kwargs`` and ``rules`` (a path, a
    :class:`simcore.config.TomlSource` or ``None``), with what the spec adds."""
    spec = registry.get(game)
    adapter = registry.import_hook(spec.adapter)
    prep = adapter.prepare(rules_path=rules, **kwargs)
    prep.score_unit = spec.score_unit
    prep.bounds = spec.bounds()
    if not prep.seat_labels and spec.roles and not spec.roles_alike:
        prep.seat_labels = spec.seat_roles(prep.n_players)
    if prep.fair_share is None and spec.roles_alike:
        prep.fair_share = spec.fair_share(prep.n_players)
    return prep


def default_rules_path(game: str) -> Path:
    """The rules file a game plays by default: its rules module's ``default_rules_path()``
    (``spec.rules_module``, a :class:`simcore.contract.RulesModule`)."""
    spec = registry.get(game)
    module = spec.rules_module
    try:
        rules_mod = registry.import_hook(module)
    except ModuleNotFoundError:
        rules_mod = None
    if rules_mod is None or not hasattr(rules_mod, "default_rules_path"):
        raise UsageError(f"--set: {spec.title} has no rules file to change")
    return Path(rules_mod.default_rules_path())


def rules_source(game: str, rules: str | Path | None, settings: Any, *,
                 seats: int | None = None):
    """The rules file of a run (``rules``, or the game's default) with ``settings`` applied, as a
    :class:`simcore.config.TomlSource` every game's loader reads in place of a path. An index into
    a single value (``setup.start_coins[0]=3``) makes it a per-seat list of ``seats`` values."""
    from simcore.config import Setting, apply_settings, parse_setting, read_toml

    parsed = [s if isinstance(s, Setting) else parse_setting(str(s)) for s in settings]
    if rules is not None and not isinstance(rules, (str, Path)):
        src = rules                                    # already a TomlSource
    else:
        src = read_toml(rules if rules is not None else default_rules_path(game), what="rules")
    return apply_settings(src, parsed, seats=seats)


def chunks(prep: PreparedRun, *, games: int, seed: int = 0, chunk_size: int | None = None,
           threads: int | None = None, first: int = 0) -> Iterator[ChunkResult]:
    """The in-memory runner: play ``games`` games of ``prep`` and yield one result per chunk.

    The same games as :func:`run` writes (same seed → same rows, whatever ``chunk_size`` and
    ``threads``); nothing touches the disk. ``first`` starts at game ``first`` of the seed's
    streams (a tune adds games to a candidate rung by rung without replaying any). Here only
    (see :func:`collect` for a cluster)."""
    _check_counts(prep, games, seed, chunk_size)
    if first < 0 or first % prep.games_per_deal:
        raise ValueError(f"first game {first}: must be >= 0 and a whole number of deals")
    set_threads(threads)
    for start, n in chunk_spans(games, chunk_size or prep.default_chunk or DEFAULT_CHUNK, first,
                                   unit=prep.games_per_deal):
        yield prep.play(start, n, seed)


FIRST_CHUNK = 256     # games in the first chunk of a run; each next one as many as all before it


def whole_deals(size: int, unit: int) -> int:
    """``size`` games rounded down to whole deals of ``unit`` games (at least one deal)."""
    return max(unit, size - size % unit)


def row_group_games(prep: PreparedRun) -> int:
    """Games in a row group of a run directory's players.parquet and games.parquet: the game's
    default chunk in whole deals, whatever ``--chunk-size``, ``--threads`` or Dask workers play
    the run (:class:`simcore.rundir.RunWriter` cuts the chunks it is given into row groups of this
    many games), so the files' bytes depend only on what was played. The ramp of a default run's
    first chunks (:func:`chunk_spans`) adds up to one row group, and every later chunk is one,
    written without a copy."""
    return whole_deals(prep.default_chunk or DEFAULT_CHUNK, prep.games_per_deal)


def chunk_spans(games: int, size: int, first: int = 0, ramp: bool = True,
                unit: int = 1) -> list[tuple[int, int]]:
    """The chunks of a run of ``games`` games from game ``first``: (first game, game count), in
    game order. With ``ramp`` the first chunk has :data:`FIRST_CHUNK` games (at most ``size``) and
    each next one as many as all before it (256, 256, 512, 1,024 …), the last of the ramp cut (or
    grown, rather than leave a shorter one after it) so that the ramp adds up to ``size`` exactly,
    then chunks of ``size``: progress shows (with a time left) within about a second even for slow
    bots, long runs still play full chunks, and with the default size every chunk after the ramp
    is a row group of the run's files (:func:`row_group_games`). A game's
    result depends only on (seed, game index), so the spans change nothing in the run's content.
    ``unit``: every span holds whole deals of this many games (seat rotation; the statistics pair
    a deal's games)."""
    spans = []
    done = 0
    whole = whole_deals(size, unit)
    step = whole_deals(min(FIRST_CHUNK, whole), unit) if ramp else whole
    while done < games:
        n = min(step, games - done)
        spans.append((first + done, n))
        done += n
        if done < whole:
            step = min(done, whole - done)
            if whole - done - step < step:           # no shorter chunk to end the ramp on
                step = whole - done
        else:
            step = whole
    return spans


# ---------------------------------------------------------------------------------------------
# Parts: a chunk made ready for the run directory, wherever it was played
# ---------------------------------------------------------------------------------------------

@dataclass
class Part:
    """One chunk as the client needs it: its Arrow tables (``players`` only when kept) and its
    sufficient statistics (per seat, per strategy, the game's own accumulators), which the client
    adds to the run's totals in game order. Made by :func:`play_part`, here or on a Dask worker;
    the totals are the same whoever made the parts because each part's statistics are the sums
    of its own rows only, added to the totals in the same order."""

    first: int
    n: int
    players: pa.Table | None
    games: pa.Table
    by_seat: "GroupSummary"
    by_strategy: "GroupSummary | None"
    extras: dict[str, Any]
    kernel_s: float
    stats: "accumulate.RunStats | None" = None


@dataclass(frozen=True)
class PartPlan:
    """What a part keeps: the player columns (``None``: no players table) and whether the
    per-strategy and game-specific statistics are made (a run directory) or only per seat
    (:func:`collect`)."""

    player_columns: tuple[str, ...] | None
    full_summaries: bool = True
    statistics: bool = True


def play_part(prep: PreparedRun, first: int, n: int, seed: int, plan: PartPlan) -> Part:
    """Play one chunk of ``prep`` and make its :class:`Part`."""
    t = time.perf_counter()
    chunk = prep.play(first, n, seed)
    return make_part(prep, chunk, first, n, plan, time.perf_counter() - t)


def make_part(prep: PreparedRun, chunk: ChunkResult, first: int, n: int, plan: PartPlan,
              kernel_s: float = 0.0) -> Part:
    """A played chunk's :class:`Part` (tables and sufficient statistics)."""
    check_chunk(prep, chunk, n, plan.player_columns)   # dtypes and ranges, before any cast
    P = prep.n_players
    by_seat = GroupSummary("seat", _seat_labels(prep), prep.summary_columns,
                           win_units=accumulate.win_units(prep.n_players))
    by_strategy, extras = None, {}
    labels = list(dict.fromkeys(prep.strategy_names))
    key = strategy_codes(chunk, labels) if plan.full_summaries else None
    period = P * prep.games_per_deal
    if n % prep.games_per_deal == 0 and (key is None and not plan.full_summaries
                                         or key is not None and _repeats(key, period)):
        # the rows repeat a pattern of `period` (rotation, seat) cells: each column summed per
        # cell once, then per seat and per strategy from the cells
        cells = CellSums(chunk.players, by_seat.columns, period, win_units=by_seat.win_units)
        by_seat.add_cells(cells, np.arange(period) % P)
        if plan.full_summaries:
            by_strategy = GroupSummary("strategy", labels, prep.summary_columns,
                                       win_units=accumulate.win_units(P))
            by_strategy.add_cells(cells, key[:period])
    else:
        by_seat.add(chunk.players, np.tile(np.arange(P), n))
        if plan.full_summaries:
            by_strategy = GroupSummary("strategy", labels, prep.summary_columns,
                                       win_units=accumulate.win_units(P))
            by_strategy.add(chunk.players, key if key is not None
                            else _strategy_key(chunk.players["strategy"], labels))
    if plan.full_summaries:
        for name, make in prep.extra_summaries.items():
            acc = extras[name] = make()
            acc.add(chunk)
    players = None
    if plan.player_columns is not None:
        schema = prep.players_schema
        if plan.player_columns != tuple(schema.names):
            schema = pa.schema([f for f in schema if f.name in plan.player_columns])
        players = _table(chunk.players, schema)
    stats = None
    if plan.statistics:
        stats = accumulate.RunStats(stats_layout(prep))
        stats.add(chunk)
    return Part(first, n, players, _table(chunk.games, prep.games_schema), by_seat, by_strategy,
                extras, kernel_s, stats)


def _repeats(key: np.ndarray, period: int) -> bool:
    """``key`` (one value per row) repeats its first ``period`` values all the way."""
    if period <= 0 or len(key) % period:
        return False
    k = key.reshape(-1, period)
    return bool((k == k[0]).all())


def statistics_jobs(prep: PreparedRun) -> list[str]:
    """The statistics' helper specialisations ``prep``'s run calls
    (:func:`simcore.accumulate.jobs_for`, from its layout and its columns' dtypes)."""
    dtypes = {f.name: str(f.type) for f in (*prep.players_schema, *prep.games_schema)}
    return accumulate.jobs_for(stats_layout(prep), dtypes)


def stats_layout(prep: PreparedRun) -> dict:
    """The layout of ``prep``'s statistics (:func:`simcore.accumulate.layout_of_run`), made once."""
    lay = getattr(prep, "_stats_layout", None)
    if lay is None:
        lay = accumulate.layout_of_run(prep)
        prep._stats_layout = lay
    return lay


def merge_sums(total: Any, part: Any) -> None:
    """Add a part's accumulator to the run's: ``total.merge(part)`` when the accumulator has
    one, else every attribute that is a number, a numpy array or a dict of these is added (an
    accumulator whose ``add`` only adds each chunk's sums to its attributes, as every one here
    does: a part's attributes are then exactly its chunk's sums)."""
    if hasattr(total, "merge"):
        total.merge(part)
        return
    for name, value in vars(part).items():
        mine = getattr(total, name)
        if isinstance(value, dict):
            for k, v in value.items():
                mine[k] = mine[k] + v if isinstance(v, (int, float, np.number)) else _add(mine[k], v)
        elif isinstance(value, np.ndarray) or (isinstance(value, (int, float, np.number))
                                               and not isinstance(value, bool)):
            setattr(total, name, _add(mine, value))


def _add(a, b):
    if isinstance(a, np.ndarray):
        a += b
        return a
    return a + b


STATISTICS_MESSAGE = ("Compiling the statistics (a first run after an install or an edit; cached "
                      "afterwards)")


def compile_statistics(prep: PreparedRun, show=None) -> None:
    """When the kernel came from the cache but the statistics' helpers a run calls did not (an
    upgrade that changed only :mod:`simcore.accumulate`), compile them now, under
    ``show(STATISTICS_MESSAGE)`` (:class:`compile_notice`): else the first chunk's statistics
    compiled them in the writer thread, several seconds with nothing said. Looking costs a few
    milliseconds (:func:`simcore.accumulate.uncached_jobs`); nothing is compiled when all are
    cached, and what is compiled is what the run would have compiled anyway."""
    missing = accumulate.uncached_jobs(statistics_jobs(prep))
    if missing:
        with compile_notice(STATISTICS_MESSAGE, show):
            accumulate.compile_jobs(missing)


class LocalExecutor:
    """Plays the chunks in this process, as a pipeline: while the kernel plays chunk k + 1 (its
    threads release the GIL), one writer thread makes chunk k's part and hands it to ``sink``
    (the run directory's writer), in game order. At most two chunks are in memory."""

    kind = "local"

    def __init__(self, threads: int | None = None) -> None:
        self.threads = threads

    def describe(self, plan: "PartPlan | None" = None) -> dict[str, Any]:
        return {"kind": self.kind}

    def warm(self, prep: PreparedRun, show=None) -> None:
        """Compile or load the kernel; ``show(message)`` while Numba compiles (see
        :class:`compile_notice`). When it compiles, the statistics' helpers are compiled beside
        it in a child process (:class:`HelperCompile`), waited for before the first chunk; when
        the kernel came from the cache, the helpers it lacks are compiled here, under a notice
        (:func:`compile_statistics`)."""
        helpers = HelperCompile(prep, self.threads)
        try:
            with compile_notice(prep.compile_message, show, also=helpers.start) as notice:
                prep.warmup()
            helpers.wait()
        finally:
            helpers.stop()
        if not notice.compiled:
            compile_statistics(prep, show)

    def play(self, prep: PreparedRun, spans: list[tuple[int, int]], seed: int, plan: PartPlan,
             sink, progress=None) -> None:
        """Play ``spans`` and call ``sink(part)`` for each, in order (in the writer thread)."""
        from concurrent.futures import ThreadPoolExecutor

        set_threads(self.threads)
        with ThreadPoolExecutor(1, thread_name_prefix="run-writer") as writer:
            pending = None
            try:
                for first, n in spans:
                    t = time.perf_counter()
                    chunk = prep.play(first, n, seed)
                    kernel_s = time.perf_counter() - t
                    if pending is not None:
                        pending.result()
                    pending = writer.submit(_finish_part, prep, chunk, first, n, plan, kernel_s,
                                            sink)
                if pending is not None:
                    pending.result()
            except BaseException:
                if pending is not None:
                    pending.cancel()
                raise


def _finish_part(prep, chunk, first, n, plan, kernel_s, sink) -> None:
    sink(make_part(prep, chunk, first, n, plan, kernel_s))


@dataclass
class Played:
    """The outcome of :func:`collect`: every player and game row as Arrow tables, the per-seat
    sufficient statistics (as in summary.parquet) and the run's mergeable statistics
    (:class:`simcore.accumulate.RunStats`, as in stats.json; ``None`` when not asked for)."""

    players: pa.Table
    games: pa.Table
    by_seat: "GroupSummary"
    stats: "accumulate.RunStats | None" = None

    def win_shares(self, n_players: int) -> np.ndarray:
        """float64[games, players]: each game's win share per seat."""
        return np.asarray(self.players["win_share"], np.float64).reshape(-1, n_players)


def collect(prep: PreparedRun, *, games: int, seed: int = 0, chunk_size: int | None = None,
            threads: int | None = None, columns: tuple[str, ...] | None = None,
            first: int = 0, executor=None, statistics: bool = True) -> Played:
    """Play ``games`` games in memory and return them as tables.

    ``columns`` limits the player columns kept (memory); game columns are always kept.
    ``statistics``: also make the run's mergeable statistics (``Played.stats``; off saves the
    time of a tune or ladder that reads only the rows).
    ``first``: as for :func:`chunks`. ``executor``: where the chunks are played (default here; a
    :class:`simcore.cluster.Cluster` plays them on Dask workers: the same tables)."""
    _check_counts(prep, games, seed, chunk_size)
    if first < 0 or first % prep.games_per_deal:
        raise ValueError(f"first game {first}: must be >= 0 and a whole number of deals")
    executor = executor or LocalExecutor(threads)
    executor.warm(prep)
    size = chunk_size or prep.default_chunk or DEFAULT_CHUNK
    by_seat = GroupSummary("seat", _seat_labels(prep), prep.summary_columns,
                           win_units=accumulate.win_units(prep.n_players))
    players, game_rows = [], []
    plan = PartPlan(tuple(prep.players_schema.names) if columns is None else tuple(columns),
                    full_summaries=False, statistics=statistics)
    stats = accumulate.RunStats(stats_layout(prep)) if statistics else None

    def keep(part: Part) -> None:
        by_seat.merge(part.by_seat)
        if stats is not None:
            stats.merge(part.stats)
        players.append(part.players)
        game_rows.append(part.games)

    executor.play(prep, chunk_spans(games, size, first, unit=prep.games_per_deal), seed, plan, keep)
    return Played(pa.concat_tables(players), pa.concat_tables(game_rows), by_seat, stats)


def simulate(game: str, *, games: int | str, seed: int = 0, out: str | Path | None = None,
             force: bool = False, threads: int | None = None, chunk_size: int | None = None,
             raw: bool | None = None, quiet: bool = False, rules: str | Path | None = None,
             settings: Any = (), executor=None, progress=None, show_compile=None,
             result: bool = False, **options: Any):
    """Prepare and run ``games`` games of ``game`` into a run directory; returns its path (with
    ``result=True`` the :class:`RunResult`).

    The Python form of ``simulate``: ``simulate("fief-combat", attacker=10, defender=6,
    terrain="castle", games=100_000)`` or ``simulate("middle-ages", players=4, games=1e6)``.
    ``executor``, ``progress``, ``show_compile``: see :func:`execute` (a
    :class:`simcore.cluster.Cluster` plays on Dask)."""
    n = parse_games(games)
    check_seed(seed)
    check_threads(threads)
    check_chunk_size(chunk_size)
    out_dir = Path(out) if out is not None else None
    if out_dir is not None:
        rundir.check_output_dir(out_dir, force, inputs=input_paths(rules, options.get("strategies")))
    prep = prepare(game, rules=rules, settings=settings, show_compile=show_compile, **options)
    res = execute(prep, games=n, seed=seed, out=out_dir, force=force, threads=threads,
                  chunk_size=chunk_size, raw=raw, executor=executor, progress=progress,
                  show_compile=show_compile)
    return res if result else res.path


def _fixed_width(schema: pa.Schema) -> int:
    """Bytes of one row's fixed-width columns, uncompressed (a string column, dictionary-encoded,
    counts one byte: a run's strings are a few repeated names)."""
    width = 0
    for f in schema:
        try:
            width += max(1, f.type.bit_width // 8)
        except ValueError:             # a variable-width type
            width += 1
    return width


def estimated_bytes(prep: PreparedRun, games: int, raw: bool) -> int:
    """An estimate, on the large side, of the disk space a run directory of ``games`` games of
    ``prep`` takes (players.parquet only with ``raw``): see :data:`PLAYER_ROW_SHARE`. The chunk
    size changes nothing: the row groups are :func:`row_group_games` games whatever the chunks."""
    row_groups = -(-games // row_group_games(prep))
    total = SUMMARY_BYTES
    tables = [(prep.games_schema, games, GAME_ROW_SHARE)]
    if raw:
        tables.append((prep.players_schema, games * prep.n_players, PLAYER_ROW_SHARE))
    for schema, rows, share in tables:
        if schema is None:
            continue
        total += int(rows * _fixed_width(schema) * share) + row_groups * len(schema) * ROW_GROUP_BYTES
    return total


def human_bytes(n: float) -> str:
    """``n`` bytes in decimal units (``840 GB``, ``12.5 MB``)."""
    for unit in ("bytes", "kB", "MB", "GB", "TB", "PB"):
        if n < 1000 or unit == "PB":
            return f"{n:,.0f} {unit}" if unit == "bytes" or n >= 100 else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n:.1f} PB"


def check_disk_space(runs: list[tuple[PreparedRun, int]], out: str | Path, raw: bool | None,
                     option: str = "--out") -> None:
    """Refuse (one :class:`UsageError` line, before any game) runs whose directories would need
    more than the free space of the file system ``out`` is on: ``runs`` is a list of (prepared
    run, games) written under ``out`` (a panel's cells; one run for simulate). ``raw`` as in
    :func:`execute` (None: rows kept up to :data:`RAW_LIMIT` games)."""
    import shutil

    from simcore.atomic import _nearest_existing, show

    keeps = [raw if raw is not None else games <= RAW_LIMIT for _, games in runs]
    need = sum(estimated_bytes(prep, games, keep) for (prep, games), keep in zip(runs, keeps))
    probe = _nearest_existing(Path(os.path.abspath(out)))
    try:
        free = shutil.disk_usage(probe).free
    except OSError:
        return                                   # nothing to say: the writing will tell
    if need > free:
        # (the player rows the runs keep: --raw, or by default up to RAW_LIMIT games)
        rows = "players.parquet and games.parquet" if any(keeps) else "games.parquet"
        raise UsageError(f"{option} {show(out)}: the run needs about {human_bytes(need)} of disk "
                         f"space ({rows}), and {human_bytes(free)} is free there; play fewer games"
                         + (", drop --raw" if raw else "") + " or write somewhere else")


def _check_counts(prep: PreparedRun, games: int, seed: int, chunk_size: int | None) -> None:
    parse_games(games)
    check_seed(seed)
    check_chunk_size(chunk_size)
    if games % prep.games_per_deal:
        raise UsageError(f"--games {games}: with --rotate-seats the count must be a multiple of "
                         f"{prep.games_per_deal} (one game per rotation of every deal)")


def _seat_labels(prep: PreparedRun) -> list[str]:
    if prep.games_per_deal > 1:
        return ["(rotating)"] * prep.n_players
    return list(prep.strategy_names)


class GroupSummary:
    """Running sums per group (seat, or strategy): the sufficient statistics of a run.

    Rows of a chunk are assigned to groups by an integer key per row; for every numeric column
    the sum and the sum of squares are kept, plus outright and shared wins. Win shares are summed
    as whole units of 1/``win_units`` (:func:`simcore.accumulate.share_units`; whole numbers in
    float64, exact below 2⁵³), so the sums do not depend on how the games were chunked (a 1/3
    share summed chunk by chunk as a float rounded differently); :meth:`table` divides them back.
    """

    def __init__(self, kind: str, labels: list[str], columns: tuple[str, ...], *, win_units: int):
        self.kind, self.labels, self.columns = kind, labels, ("win_share", *columns)
        self.win_units = int(win_units)
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
            v = (accumulate.share_units(players[c], self.win_units) if c == "win_share"
                 else players[c]).astype(np.float64)
            self.sums[c] += np.bincount(key, weights=v, minlength=g)
            self.sq[c] += np.bincount(key, weights=v * v, minlength=g)
        w = np.asarray(players["win_share"])
        self.outright += np.bincount(key, weights=(w == 1.0), minlength=g).astype(np.int64)
        self.shared += np.bincount(key, weights=(w > 0) & (w < 1.0), minlength=g).astype(np.int64)

    def add_cells(self, cells: "CellSums", key_of_cell: np.ndarray) -> None:
        """:meth:`add` from a chunk's per-cell sums (:class:`CellSums`, made with the same
        ``win_units``): ``key_of_cell[j]`` is the group of cell j. The same sums as :meth:`add`
        of the rows (exactly for integer columns and win shares; a float column's sum is added
        in another order)."""
        g = len(self.labels)
        key = np.asarray(key_of_cell, np.int64)
        self.n += np.bincount(key, weights=cells.n, minlength=g).astype(np.int64)
        for c in self.columns:
            self.sums[c] += np.bincount(key, weights=cells.sums[c], minlength=g)
            self.sq[c] += np.bincount(key, weights=cells.sq[c], minlength=g)
        self.outright += np.bincount(key, weights=cells.outright, minlength=g).astype(np.int64)
        self.shared += np.bincount(key, weights=cells.shared, minlength=g).astype(np.int64)

    def merge(self, part: "GroupSummary") -> None:
        """Add a part's sums (:class:`Part`): the same additions :meth:`add` makes."""
        self.n += part.n
        for c in self.columns:
            self.sums[c] += part.sums[c]
            self.sq[c] += part.sq[c]
        self.outright += part.outright
        self.shared += part.shared

    def table(self) -> pa.Table:
        g = len(self.labels)
        cols: dict[str, Any] = {
            "group": strings([self.kind] * g),
            "seat": arrow_column(np.arange(g, dtype=np.int8) if self.kind == "seat"
                                 else np.full(g, -1, np.int8), pa.int8()),
            "strategy": strings(self.labels),
            "games": arrow_column(self.n, pa.int64()),
            "outright_wins": arrow_column(self.outright, pa.int64()),
            "shared_wins": arrow_column(self.shared, pa.int64()),
        }
        for c in self.columns:
            unit = self.win_units if c == "win_share" else 1
            cols[f"{c}_sum"] = arrow_column(self.sums[c] / unit, pa.float64())
            cols[f"{c}_sq_sum"] = arrow_column(self.sq[c] / (unit * unit), pa.float64())
        return pa.table(cols)


class CellSums:
    """A chunk's player columns summed per cell of its repeating row pattern: the rows are
    game-major with ``period`` rows per pattern (the seats of a game, or of a deal's games with
    rotated seats), so row i is cell ``i % period``. Integer columns are summed in int64 (exact,
    in any order), win shares likewise in units of 1/``win_units`` (:class:`GroupSummary`), other
    float columns in float64; then :meth:`GroupSummary.add_cells`
    gathers the cells into seats or strategies. One pass over each column instead of a
    weighted ``bincount`` over every row for every grouping (summary.parquet's sums per seat and
    per strategy, a mixed 4-player Middle-Ages line-up: 96 → 53 ms of CPU per chunk of 131,072
    games, 0.73 → 0.40 s per 1e6 games, best of 5 on a loaded machine)."""

    def __init__(self, players: dict[str, Any], columns: tuple[str, ...], period: int, *,
                 win_units: int) -> None:
        rows = len(np.asarray(players[columns[0]]))
        self.n = np.full(period, rows // period, np.float64)
        self.sums: dict[str, np.ndarray] = {}
        self.sq: dict[str, np.ndarray] = {}
        for c in columns:
            v = np.asarray(players[c])
            if c == "win_share":
                v = accumulate.share_units(v, win_units)
            if v.dtype.kind in "iub":         # one jitted pass, no int64 copy (45 → 9 ms a chunk)
                sums, sq = accumulate.period_sums(v, period)
                self.sums[c] = sums.astype(np.float64)
                self.sq[c] = sq.astype(np.float64)
            else:
                x = v.reshape(-1, period).astype(np.float64)
                self.sums[c] = x.sum(axis=0)
                self.sq[c] = np.einsum("ij,ij->j", x, x)
        w = np.asarray(players["win_share"]).reshape(-1, period)
        self.outright = (w == 1.0).sum(axis=0).astype(np.float64)
        self.shared = ((w > 0) & (w < 1.0)).sum(axis=0).astype(np.float64)


@dataclass
class RunResult:
    """What :func:`execute` hands back: the published run directory, its run.json (``meta``), the
    run's statistics (:class:`simcore.accumulate.RunStats`, as in stats.json), the prepared run
    and the lines the game adds under the closing table (:class:`~simcore.contract.ClosingRow`).
    The command line draws the closing table from it (``cli.progress.print_summary``)."""

    path: Path
    meta: dict
    stats: "accumulate.RunStats"
    prep: PreparedRun
    closing: list


def run(prep: PreparedRun, *, games: int, seed: int = 0, out: str | Path | None = None,
        force: bool = False, threads: int | None = None, chunk_size: int | None = None,
        raw: bool | None = None, quiet: bool = True, console=None,
        on_chunk: Any = None, executor=None, progress=None, show_compile=None) -> Path:
    """:func:`execute`, returning the run directory's path (``quiet`` and ``console`` are kept
    for old callers and change nothing: the runner draws nothing; ``on_chunk(games_done)`` is a
    progress callback of one argument)."""
    if on_chunk is not None and progress is None:
        progress = lambda done, total: on_chunk(done)  # noqa: E731
    return execute(prep, games=games, seed=seed, out=out, force=force, threads=threads,
                   chunk_size=chunk_size, raw=raw, executor=executor, progress=progress,
                   show_compile=show_compile).path


def execute(prep: PreparedRun, *, games: int, seed: int = 0, out: str | Path | None = None,
            force: bool = False, threads: int | None = None, chunk_size: int | None = None,
            raw: bool | None = None, executor=None, progress=None,
            show_compile=None) -> RunResult:
    """Play ``games`` games of ``prep`` and publish the run directory; return a :class:`RunResult`.

    ``progress(games_done, games)`` is called after every chunk, in game order (an object with
    ``update(done, total)`` is called that way, and its ``note(text, idle)``, if any, receives what an
    executor has to say, e.g. a cluster's live workers, ``idle`` when none is left to play); ``show_compile(message)`` while Numba
    compiles (:class:`compile_notice`). The runner prints and draws nothing. ``executor`` says where the
    chunks are played: here (default, :class:`LocalExecutor`: the kernel plays chunk k + 1 while
    chunk k is written) or on a Dask cluster (:class:`simcore.cluster.Cluster`, opened by the
    caller). The run directory's content is the same either way; run.json's ``executor`` and
    ``threads`` say how it ran, and the timings differ (:data:`RUN_JSON_HOW_IT_RAN`)."""
    _check_counts(prep, games, seed, chunk_size)
    chunk_size = chunk_size or prep.default_chunk or DEFAULT_CHUNK
    out_dir = Path(out) if out is not None else rundir.default_run_dir(prep.game)
    rundir.check_output_dir(out_dir, force)
    write_raw = raw if raw is not None else games <= RAW_LIMIT
    check_disk_space([(prep, games)], out_dir, write_raw, option=claimed_option(out_dir))
    executor, n_threads = _executor(executor, threads)
    report = _progress_callback(progress)

    t_compile = time.perf_counter()
    executor.warm(prep, show_compile)
    t_compile = time.perf_counter() - t_compile
    with RunBuild(prep, games=games, seed=seed, out=out_dir, force=force, raw=write_raw,
                  chunk_size=chunk_size, threads=n_threads, executor=executor) as build:
        def sink(part: Part) -> None:
            # called in game order, one part at a time (locally: in the writer thread)
            build.add(part)
            report(build.done, games)

        t0 = time.perf_counter()
        executor.play(prep, chunk_spans(games, chunk_size, unit=prep.games_per_deal), seed,
                      build.plan, sink, progress if hasattr(progress, "note") else None)
        return build.finish(time.perf_counter() - t0, t_compile)


def execute_together(preps: list[PreparedRun], *, games: int, seed: int, outs: list[str | Path],
                     force: bool = False, threads: int | None = None,
                     chunk_size: int | None = None, raw: bool = False, executor=None,
                     progress=None, show_compile=None,
                     player_columns: tuple[str, ...] | None = None, observe=None,
                     before_publish=None, checkpoint: Path | None = None,
                     checkpoint_every: int = 8, observer_state=None,
                     on_resume=None) -> list[RunResult]:
    """Play the same ``games`` games (the same seed and game indices) of several prepared runs
    chunk by chunk in lockstep, each into its own run directory ``outs[k]``, identical to the one
    :func:`execute` writes for it alone (only run.json's timings differ). After each chunk,
    ``observe(k, part)`` receives run k's :class:`Part` of the chunk as soon as it is made, for k
    = 0 … len(preps) − 1 in turn (with the ``player_columns`` named in memory, whether or not
    players.parquet is written): what needs a game's results in several runs at once — a sweep's
    paired effects without player rows (:mod:`analysis.sweep.joint`) — is accumulated there. ``before_publish()`` is called once every
    game is played and before any directory is published (a caller's own file goes first, so a
    run directory never stands without it). ``progress(done, total)`` counts the games of every
    run. Memory: one chunk at a time. Every run's deals must divide the chunks: the
    spans hold whole deals of every run (the least common multiple of their deal sizes).

    ``checkpoint``: a directory where the games played so far are kept every ``checkpoint_every``
    chunks (each run's game rows spooled, its sums and the observer's state,
    ``observer_state = (save, load)``: ``save()`` returns a picklable state, ``load(state)`` puts
    it back), so that the same call after a kill or Ctrl-C goes on from the last checkpoint
    instead of game 0: the same directories and sums, since every chunk's sums are exact and
    added in game order. A checkpoint of other runs, games or seed is not used. Removed once
    every run is published. ``on_resume(start, problem)`` is called once the checkpoint has been
    read, before the first game: ``start`` the first game played (where the checkpoint left off,
    or 0 when it kept nothing), ``problem`` None, or a few words saying why a checkpoint there
    could not be used (``start`` is then 0): what a caller says about resuming is said once it is
    known to be true."""
    if len(preps) != len(outs) or not preps:
        raise ValueError("one output directory per prepared run, and at least one run")
    for prep in preps:
        _check_counts(prep, games, seed, chunk_size)
    unit = math.lcm(*(prep.games_per_deal for prep in preps))
    if games % unit:
        raise UsageError(f"--games {games}: with --rotate-seats the count must be a multiple of "
                         f"{unit} (one game per rotation of every deal of every run)")
    size = chunk_size or min(p.default_chunk or DEFAULT_CHUNK for p in preps)
    out_dirs = [Path(o) for o in outs]
    for o in out_dirs:
        rundir.check_output_dir(o, force)
    check_disk_space([(p, games) for p in preps], out_dirs[0], raw,
                     option=claimed_option(out_dirs[0]))
    executor, n_threads = _executor(executor, threads)
    report = _progress_callback(progress)
    t_compile = []
    for prep in preps:
        t = time.perf_counter()
        executor.warm(prep, show_compile)
        t_compile.append(time.perf_counter() - t)
    from contextlib import ExitStack

    with ExitStack() as stack:
        builds = [stack.enter_context(RunBuild(p, games=games, seed=seed, out=o, force=force,
                                               raw=raw, chunk_size=size, threads=n_threads,
                                               executor=executor, player_columns=player_columns,
                                               spool=None if checkpoint is None
                                               else Path(checkpoint) / f"run-{k}"))
                  for k, (p, o) in enumerate(zip(preps, out_dirs))]
        key = {"format": 1, "version": simcore.__version__, "games": games, "seed": seed,
               "unit": unit, "raw": raw,
               "runs": [[p.game, p.n_players, list(p.strategy_names), p.rules_sha256]
                        for p in preps]}
        start, problem = _resume_checkpoint(checkpoint, key, builds, observer_state)
        if checkpoint is not None and on_resume is not None:
            on_resume(start, problem)
        t0 = time.perf_counter()
        spans = chunk_spans(games - start, size, first=start, unit=unit)
        step = len(spans) if checkpoint is None else max(1, checkpoint_every)
        done = start * len(preps)
        for i in range(0, len(spans), step):
            some = spans[i:i + step]
            if isinstance(executor, LocalExecutor):
                set_threads(executor.threads)
                done = _play_together_here(preps, builds, some, seed, observe, report,
                                           games * len(preps), done)
            else:
                done = _play_together_there(executor, preps, builds, some, seed, observe, report,
                                            games * len(preps), done)
            if checkpoint is not None and i + step < len(spans):
                _save_checkpoint(checkpoint, key, builds, observer_state, some[-1][0] + some[-1][1])
        wall = time.perf_counter() - t0
        if before_publish is not None:
            before_publish()
        # each run's share of the wall time is its share of the kernel time (its run.json's
        # games_per_s is then its own), and its compile or load its own
        kernel = sum(b.kernel_s for b in builds)
        results = [b.finish(wall * (b.kernel_s / kernel if kernel > 0 else 1 / len(builds)), tc)
                   for b, tc in zip(builds, t_compile)]
    if checkpoint is not None:
        import shutil

        shutil.rmtree(checkpoint, ignore_errors=True)
    return results


CHECKPOINT_STATE = "state.json"


#: The numpy globals a checkpoint's arrays and scalars are pickled with (numpy 2 and 1.x names).
_NUMPY_GLOBALS = frozenset({("numpy", "ndarray"), ("numpy", "dtype"),
                            ("numpy._core.multiarray", "_reconstruct"),
                            ("numpy.core.multiarray", "_reconstruct"),
                            ("numpy._core.multiarray", "scalar"), ("numpy.core.multiarray", "scalar")})


def _classes_in(obj, found: set, seen: set) -> None:
    """Every class of the objects ``obj`` holds (dicts, lists, tuples, sets, object arrays and
    objects' attributes, followed), as (module, qualified name)."""
    import numpy as np

    if id(obj) in seen or obj is None or isinstance(obj, (str, bytes, int, float, bool, complex)):
        return
    seen.add(id(obj))
    if isinstance(obj, np.ndarray):
        if obj.dtype == object:
            for x in obj.ravel():
                _classes_in(x, found, seen)
        return
    if isinstance(obj, np.generic):
        return
    kind = type(obj)
    if kind not in (dict, list, tuple, set, frozenset):
        found.add((kind.__module__, kind.__qualname__))
    if isinstance(obj, dict):
        for k, v in obj.items():
            _classes_in(k, found, seen)
            _classes_in(v, found, seen)
    elif isinstance(obj, (list, tuple, set, frozenset)):
        for x in obj:
            _classes_in(x, found, seen)
    else:
        for v in getattr(obj, "__dict__", {}).values():
            _classes_in(v, found, seen)
        for name in getattr(kind, "__slots__", ()):
            _classes_in(getattr(obj, name, None), found, seen)


def _checkpoint_classes(builds, observer_state) -> frozenset:
    """The globals a checkpoint of these builds may name: the classes their sums are made of now
    (a fresh build holds the same kinds of objects as a saved one), and numpy's."""
    found: set = set()
    _classes_in([b.snapshot() for b in builds], found, set())
    if observer_state is not None:
        _classes_in(observer_state[0](), found, set())
    return _NUMPY_GLOBALS | frozenset(found)


class _CheckpointUnpickler(pickle.Unpickler):
    """Reads a checkpoint's sums, refusing any global but the classes they are made of: a
    checkpoint is a file in a directory a user may have been given (a sweep on a shared disk), and
    a plain unpickle runs whatever function such a file names (review's finding: a crafted
    ``sums-N.pkl`` ran a shell command on resume)."""

    def __init__(self, f, allowed: frozenset) -> None:
        super().__init__(f)
        self.allowed = allowed

    def find_class(self, module: str, name: str):
        if (module, name) not in self.allowed:
            raise pickle.UnpicklingError(f"{module}.{name}: not something a checkpoint holds")
        return super().find_class(module, name)


def checkpoint_games(checkpoint) -> int:
    """The games a checkpoint directory says it kept (``state.json``'s ``games_done``), 0 without
    one or when it cannot be read: what an interrupted command may tell the user it will resume
    from (whether the checkpoint is of these very games is checked only on resume)."""
    import json

    try:
        state = json.loads((Path(checkpoint) / CHECKPOINT_STATE).read_text(encoding="utf-8"))
        return max(0, int(state.get("games_done", 0)))
    except (OSError, ValueError, TypeError, AttributeError):
        return 0


def _resume_checkpoint(checkpoint, key: dict, builds, observer_state) -> tuple[int, str | None]:
    """The first game still to play and, when a checkpoint there could not be used, why:
    (0, None) without one, (where ``checkpoint`` — of these very runs, games and seed — left off,
    None) with every build's sums and spooled rows and the observer's state put back, or (0, a few
    words) for a checkpoint of anything else (another sweep's, a damaged or crafted one), which is
    removed."""
    if checkpoint is None:
        return 0, None
    import json
    import pickle
    import shutil

    d = Path(checkpoint)
    problem = None
    try:
        if not (d / CHECKPOINT_STATE).exists():
            raise FileNotFoundError(d / CHECKPOINT_STATE)      # nothing kept: no problem to name
        problem = "unreadable"
        state = json.loads((d / CHECKPOINT_STATE).read_text(encoding="utf-8"))
        if state.get("key") != key:
            problem = "kept for other games, rules or seed, or by another version"
            raise ValueError(problem)
        with open(d / state["file"], "rb") as f:
            saved = _CheckpointUnpickler(f, _checkpoint_classes(builds, observer_state)).load()
        for b, st in zip(builds, saved["builds"], strict=True):
            b.restore(st)
        if observer_state is not None:
            observer_state[1](saved["observer"])
        return int(state["games_done"]), None
    except pickle.UnpicklingError as exc:
        problem = str(exc) or "unreadable"
    except (OSError, ValueError, KeyError, TypeError, EOFError, AttributeError):
        pass
    for b in builds:                         # nothing restored: start from game 0, afresh
        b.restore(None)
    shutil.rmtree(d, ignore_errors=True)
    return 0, problem


def _save_checkpoint(checkpoint, key: dict, builds, observer_state, games_done: int) -> None:
    """Spool every build's rows since the last checkpoint, then write their sums and the
    observer's state in a new file, then ``state.json`` naming it (written atomically: the
    commit). What a kill leaves half-written is never named by state.json."""
    import json
    import pickle

    d = Path(checkpoint)
    d.mkdir(parents=True, exist_ok=True)
    for b in builds:
        b.spool_flush()
    name = f"sums-{games_done}.pkl"
    tmp = d / (name + ".tmp")
    with open(tmp, "wb") as f:
        pickle.dump({"builds": [b.snapshot() for b in builds],
                     "observer": observer_state[0]() if observer_state is not None else None}, f)
    os.replace(tmp, d / name)
    tmp = d / (CHECKPOINT_STATE + ".tmp")
    tmp.write_text(json.dumps({"key": key, "games_done": games_done, "file": name}),
                   encoding="utf-8")
    os.replace(tmp, d / CHECKPOINT_STATE)
    for old in d.glob("sums-*.pkl"):
        if old.name != name:
            old.unlink(missing_ok=True)


def _play_together_there(executor, preps, builds, spans, seed, observe, report, total,
                         done) -> int:
    """:func:`execute_together` elsewhere (a Dask cluster): a few chunks of a run at a time,
    played in parallel, then the same chunks of the next run (``observe`` sees each run's part
    of a chunk, in the order of the runs, chunk after chunk). Returns the games done."""
    parallel = getattr(executor, "parallel_chunks", None)
    batch = max(1, min(int(parallel()) if parallel else 1, TOGETHER_HELD // len(preps)))
    for i in range(0, len(spans), batch):
        some = spans[i:i + batch]
        for k, (prep, build) in enumerate(zip(preps, builds)):
            def sink(part: Part, k=k, build=build) -> None:
                build.add(part)
                if observe is not None:
                    observe(k, part)

            executor.play(prep, some, seed, build.plan, sink)
            done += sum(n for _, n in some)
            report(done, total)
    return done


# chunks of every run an observer of execute_together may hold at once on a cluster (a chunk of
# every run is held until the last run has played it; runs × chunks at most this)
TOGETHER_HELD = 64


def _play_together_here(preps, builds, spans, seed, observe, report, total, done: int = 0) -> int:
    """:func:`execute_together` in this process, as :class:`LocalExecutor` plays one run: while
    the kernel plays the next (run, chunk), one writer thread makes the last one's part, adds it
    to its run and hands it to ``observe``, in order. Returns the games done (``done`` before)."""
    from concurrent.futures import ThreadPoolExecutor

    def finish(k, prep, build, chunk, first, n, kernel_s):
        part = make_part(prep, chunk, first, n, build.plan, kernel_s)
        build.add(part)
        if observe is not None:
            observe(k, part)

    with ThreadPoolExecutor(1, thread_name_prefix="run-writer") as writer:
        pending = None
        try:
            for first, n in spans:
                for k, (prep, build) in enumerate(zip(preps, builds)):
                    t = time.perf_counter()
                    chunk = prep.play(first, n, seed)
                    kernel_s = time.perf_counter() - t
                    if pending is not None:
                        pending.result()
                        report(done, total)
                    pending = writer.submit(finish, k, prep, build, chunk, first, n, kernel_s)
                    done += n
            if pending is not None:
                pending.result()
                report(done, total)
        except BaseException:
            if pending is not None:
                pending.cancel()
            raise
    return done


class RunBuild:
    """One run directory being written from its parts, in game order: the sums of
    summary.parquet, the statistics of stats.json, the game's own accumulators and the streamed
    tables (:class:`simcore.rundir.RunWriter`), then run.json and the atomic publication
    (:meth:`finish`). :func:`execute` feeds one from an executor; :func:`execute_together` feeds
    several, a chunk of each in turn. A context manager: on an exception nothing is published and
    the target is left as it was. ``raw``: write players.parquet (the parts then carry every
    player column; ``player_columns`` asks for the named columns in memory even when none is
    written, for a caller that reads them from the parts)."""

    def __init__(self, prep: PreparedRun, *, games: int, seed: int, out: Path, force: bool,
                 raw: bool, chunk_size: int, threads: int | None, executor,
                 player_columns: tuple[str, ...] | None = None, spool: Path | None = None) -> None:
        self.prep, self.games, self.seed, self.raw = prep, games, seed, raw
        self.chunk_size, self.threads, self.executor = chunk_size, threads, executor
        self.by_seat = GroupSummary("seat", _seat_labels(prep), prep.summary_columns,
                                    win_units=accumulate.win_units(prep.n_players))
        self.by_strategy = GroupSummary("strategy", list(dict.fromkeys(prep.strategy_names)),
                                        prep.summary_columns,
                                        win_units=accumulate.win_units(prep.n_players))
        self.extras = {name: make() for name, make in prep.extra_summaries.items()}
        self.stats = accumulate.RunStats(stats_layout(prep))
        columns = tuple(prep.players_schema.names) if raw else None
        if player_columns is not None and not raw:
            names = prep.players_schema.names
            columns = tuple(c for c in names if c in player_columns)
        self.plan = PartPlan(columns)
        self.kernel_s = 0.0
        self.done = 0
        self.out, self.force = out, force
        # spool: the streamed tables are kept in files there (one per checkpoint, in game order)
        # and written into the run directory by finish (execute_together's checkpoints)
        self.spool = Path(spool) if spool is not None else None
        self.spooled: list[dict[str, str]] = []
        self.held: dict[str, list] = {rundir.GAMES: [], rundir.PLAYERS: []}
        self.writer = None if self.spool is not None else self._writer()

    def _writer(self) -> "rundir.RunWriter":
        prep, group = self.prep, row_group_games(self.prep)
        return rundir.RunWriter(self.out, self.force,
                                players_schema=prep.players_schema if self.raw else None,
                                games_schema=prep.games_schema,
                                group_rows={rundir.GAMES: group, rundir.PLAYERS: group * prep.n_players})

    def __enter__(self) -> "RunBuild":
        if self.writer is not None:
            self.writer.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        if self.writer is not None:
            return self.writer.__exit__(*exc)
        return None

    # -- spooled (checkpointed) form --------------------------------------------------------
    def spool_flush(self) -> None:
        """Write the rows added since the last flush into new spool files (not yet named by any
        checkpoint: a kill here leaves files the next checkpoint overwrites)."""
        import pyarrow.parquet as pq

        self.spool.mkdir(parents=True, exist_ok=True)
        files = {}
        k = len(self.spooled)
        for name, tables in self.held.items():
            if tables:
                f = f"{Path(name).stem}-{k:05d}.parquet"
                pq.write_table(pa.concat_tables(tables), self.spool / f, compression="zstd")
                files[name] = f
                tables.clear()
        self.spooled.append(files)

    def snapshot(self) -> dict:
        """The sums so far and the spool files that hold the rows so far (picklable)."""
        return {"by_seat": self.by_seat, "by_strategy": self.by_strategy, "extras": self.extras,
                "stats": self.stats, "kernel_s": self.kernel_s, "done": self.done,
                "spooled": list(self.spooled)}

    def restore(self, state: dict | None) -> None:
        """Put back a :meth:`snapshot` (None: start afresh, nothing spooled)."""
        for v in self.held.values():
            v.clear()
        if state is None:
            self.spooled = []
            return
        self.by_seat, self.by_strategy = state["by_seat"], state["by_strategy"]
        self.extras, self.stats = state["extras"], state["stats"]
        self.kernel_s, self.done = state["kernel_s"], state["done"]
        self.spooled = list(state["spooled"])

    def add(self, part: Part) -> None:
        """Add the next part (game order) to the sums and the streamed tables."""
        self.by_seat.merge(part.by_seat)
        self.by_strategy.merge(part.by_strategy)
        self.stats.merge(part.stats)
        for name, acc in self.extras.items():
            merge_sums(acc, part.extras[name])
        if self.writer is None:
            if self.raw:
                self.held[rundir.PLAYERS].append(part.players)
            self.held[rundir.GAMES].append(part.games)
        else:
            if self.raw:
                self.writer.write(rundir.PLAYERS, part.players)
            self.writer.write(rundir.GAMES, part.games)
        self.kernel_s += part.kernel_s
        self.done += part.n

    def finish(self, wall: float, t_compile: float) -> RunResult:
        """Write summary.parquet, stats.json, the accumulators' tables and run.json; publish.
        Spooled: the run directory is written now, its streamed tables from the spool files and
        the rows held since, in game order."""
        if self.writer is None:
            import pyarrow.parquet as pq

            self.spool_flush()
            with self._writer() as writer:
                self.writer = writer
                for files in self.spooled:
                    for name, f in files.items():
                        writer.write(name, pq.read_table(self.spool / f))
                return self._finish(wall, t_compile)
        return self._finish(wall, t_compile)

    def _finish(self, wall: float, t_compile: float) -> RunResult:
        prep, writer, games = self.prep, self.writer, self.games
        writer.write_table(rundir.SUMMARY, pa.concat_tables([self.by_seat.table(),
                                                             self.by_strategy.table()]))
        self.stats.write(writer.tmp / accumulate.STATS_FILE)
        extra_meta: dict[str, Any] = {}
        closing: list = []
        for name, acc in self.extras.items():
            table = acc.table()
            if table is not None:
                writer.write_table(f"{name}.parquet", table)
            if hasattr(acc, "meta"):
                extra_meta.update(acc.meta())
            if hasattr(acc, "closing_rows"):
                closing += acc.closing_rows()
        meta = {
            "game": prep.game,
            "players": prep.n_players,
            "games": games,
            "seed": self.seed,
            "strategies": prep.strategy_names,
            "rules_name": prep.rules_name,
            "rules_sha256": prep.rules_sha256,
            "rules_text": prep.rules_text,
            "version": simcore.__version__,
            # a --scheduler run: each worker's own count, when they agree (Cluster.threads_used)
            "threads": self.threads if self.threads is not None or not hasattr(self.executor, "threads_used")
            else self.executor.threads_used(),
            "executor": self.executor.describe(self.plan),    # (a cluster: who played it)
            "chunk_size": self.chunk_size,
            "raw_players": self.raw,
            "statistics": {"file": accumulate.STATS_FILE, "version": accumulate.VERSION},
            "wall_time_s": round(wall, 3),
            "kernel_time_s": round(self.kernel_s, 3),
            "compile_or_load_s": round(t_compile, 3),
            "games_per_s": round(games / wall, 1) if wall > 0 else None,
            "created_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            **prep.meta,
            **extra_meta,
        }
        path = writer.finish(meta)
        return RunResult(path, meta, self.stats, prep, closing)


def _executor(executor, threads: int | None):
    """(the executor, the thread count run.json records): here with ``threads`` set now when
    none is given, else the given one's."""
    if executor is None:
        return LocalExecutor(threads), set_threads(threads)
    return executor, getattr(executor, "threads", threads)


def _progress_callback(progress):
    """``progress`` as a function of (done, total): an object's ``update``, a function, or
    nothing."""
    if progress is None:
        return lambda done, total: None
    if hasattr(progress, "update"):
        return progress.update
    return progress


# run.json's fields that say how a run ran rather than what it played: they differ between a
# local run and the same run on a cluster (and between two local runs); every other field, and
# every parquet file, is identical.
RUN_JSON_HOW_IT_RAN = ("threads", "executor", "wall_time_s", "kernel_time_s", "compile_or_load_s",
                       "games_per_s", "created_utc", "integrity")


def _strategy_key(strategy: pa.Array, labels: list[str]) -> np.ndarray:
    """Row → index of its strategy name in ``labels`` (every name is one of them)."""
    import pyarrow.compute as pc

    idx = pc.index_in(strategy, value_set=strings(labels))
    if isinstance(idx, pa.ChunkedArray):
        idx = idx.combine_chunks()
    if idx.null_count:
        raise ValueError("a strategy name outside the run's line-up")
    # read the int32 buffer (Array.to_numpy imports pandas when it is installed: 0.4 s)
    return np.frombuffer(idx.buffers()[1], np.int32, len(idx), idx.offset * 4).astype(np.int64)


def _table(cols: dict[str, np.ndarray], schema: pa.Schema) -> pa.Table:
    return pa.Table.from_arrays([arrow_column(cols[f.name], f.type) for f in schema], schema=schema)
