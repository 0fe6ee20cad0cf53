"""The game contract: what every game declares, and what its adapter hands the runner.

A game folder (``simcore/games/<game>/``) declares one :class:`GameSpec` in its ``spec.py``: name
and description, player range, seat roles, the columns of its player and game tables (from which
the Arrow schemas of ``players.parquet`` / ``games.parquet`` are derived), the unit of its score in
words, its default bot and strategy loader, the options it takes, and optional hooks (module paths,
imported only by the layer that uses them) for game-specific analysis tables and report sections.
The registry (:mod:`simcore.games`) lists the specs; every layer reads it instead of keeping its
own table of games. A spec is plain data: reading one never imports numba or compiles a kernel.

A game's adapter (``spec.adapter``) turns validated options into a :class:`PreparedRun`: the
per-chunk play function returning a :class:`ChunkResult`, plus what run.json must say. The runner
(:mod:`simcore.runner`) owns everything else.

May import numpy, pyarrow, the standard library and :mod:`simcore.errors`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import pyarrow as pa

from simcore.errors import UsageError

# ---------------------------------------------------------------------------------------------
# Columns and schemas
# ---------------------------------------------------------------------------------------------

_ARROW_TYPES = {
    "int8": pa.int8(), "int16": pa.int16(), "int32": pa.int32(), "int64": pa.int64(),
    "float32": pa.float32(), "float64": pa.float64(), "bool": pa.bool_(), "string": pa.string(),
}


@dataclass(frozen=True)
class Column:
    """One column of a player or game table.

    ``dtype`` is a numpy/Arrow name (``int8`` … ``float64``, ``bool``, ``string``); ``meaning`` is
    the sentence docs and ``balance export`` show; ``display`` the short name a report prints
    (default: the name with spaces); ``unit`` what one unit of the value is ("coins", "tiles").
    """

    name: str
    dtype: str
    meaning: str
    display: str = ""
    unit: str = ""

    def __post_init__(self) -> None:
        if self.dtype not in _ARROW_TYPES:
            raise ValueError(f"column {self.name}: unknown dtype {self.dtype!r}")

    @property
    def arrow_type(self) -> pa.DataType:
        return _ARROW_TYPES[self.dtype]

    @property
    def label(self) -> str:
        return self.display or self.name.replace("_", " ")


def schema(columns: tuple[Column, ...] | list[Column]) -> pa.Schema:
    """The Arrow schema of a table with these columns, in this order."""
    return pa.schema([(c.name, c.arrow_type) for c in columns])


# The columns every player table starts with (the runner's summaries and every analysis read
# them) and the two that seat rotation adds at the end.
COMMON_PLAYER_COLUMNS = (
    Column("game", "int64", "game number, 0-based; game i draws from the stream (seed, i)"),
    Column("seat", "int8", "seat, 0-based (seat 0 plays first)"),
    Column("strategy", "string", "name of the bot that played this seat"),
)
RESULT_COLUMNS_DOC = {
    "win_share": "1 for an outright win, 1/k for a win shared by k players, 0 otherwise",
    "rank": "1 = best; tied players share a rank",
}
ROTATION_COLUMNS = (
    Column("deal", "int64", "deal number with --rotate-seats: the rotations of a deal share every "
                            "shuffle"),
    Column("rotation", "int8", "rotation k of the deal: seat s is played by strategy (s + k) mod P"),
)


# ---------------------------------------------------------------------------------------------
# Roles and options
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Role:
    """A seat role: ``count`` seats play it (a range when the player count varies it)."""

    name: str
    display: str
    min_count: int
    max_count: int


@dataclass(frozen=True)
class GameOption:
    """An option of one game only (e.g. ``--attacker`` of fief-combat).

    ``name`` is the keyword the adapter's ``prepare`` receives; ``flag`` the command-line spelling.
    """

    name: str
    flag: str
    help: str
    default: Any = None
    type: type = int


# Options every player game may take; a spec lists the ones it takes in ``takes``.
COMMON_OPTIONS = {
    "players": "--players",
    "strategies": "--strategies",
    "rotate_seats": "--rotate-seats",
    "engine": "--engine",
    "debug": "--debug",
}


@dataclass(frozen=True)
class GameSpec:
    """What one game declares (see the module docstring). Plain data: no kernel is imported."""

    name: str                                   # as typed after --game and stored in run.json
    title: str                                  # as a report's title prints it
    description: str                            # one line for `balance games` and --help
    rules_doc: str                              # the spec in shared/rules/
    players: tuple[int, int]                    # fewest and most players
    default_players: int
    player_columns: tuple[Column, ...]          # after the common game, seat, strategy columns
    game_columns: tuple[Column, ...]            # after the common game column
    score_unit: str                             # what `score` counts: "coins", "guild cards"
    adapter: str                                # module with prepare(**options) -> PreparedRun
    roles: tuple[Role, ...] = ()                # () = every seat alike
    default_strategy: str | None = None         # None: the game has no bots to choose
    strategies: str | None = None               # module with presets/resolve/lookup/load_file
    takes: frozenset[str] = frozenset(COMMON_OPTIONS)
    options: tuple[GameOption, ...] = ()        # options of this game only
    golden: str | None = None                   # module with main(argv) (simcore.golden)
    reference: bool = False                     # has a pure-Python reference engine
    analysis_hooks: str | None = None           # module of game-specific analysis (e.g. the
                                                # questions a report plays: questions_for_run)
    report_hooks: str | None = None             # module adding game-specific report sections
                                                # (reports.games: headlines, sections, ...)
    check_metrics: tuple[str, ...] = ("seat_win_share", "seat_mean_score", "strategy_win_share")
    search: str | None = None                   # module with the search hooks (playout,
                                                # search_choice; docs/search.md), None: no search bot
    extra: dict[str, Any] = field(default_factory=dict)

    # -- derived -----------------------------------------------------------------------------

    @property
    def all_player_columns(self) -> tuple[Column, ...]:
        return (*COMMON_PLAYER_COLUMNS, *self.player_columns)

    @property
    def all_game_columns(self) -> tuple[Column, ...]:
        return (COMMON_PLAYER_COLUMNS[0], *self.game_columns)

    def players_schema(self, rotate_seats: bool = False) -> pa.Schema:
        cols = self.all_player_columns + (ROTATION_COLUMNS if rotate_seats else ())
        return schema(cols)

    def games_schema(self) -> pa.Schema:
        return schema(self.all_game_columns)

    def column(self, name: str) -> Column:
        for c in (*self.all_player_columns, *ROTATION_COLUMNS, *self.game_columns):
            if c.name == name:
                return c
        raise KeyError(name)

    @property
    def roles_alike(self) -> bool:
        return len(self.roles) <= 1

    def seat_roles(self, n_players: int) -> tuple[str, ...]:
        """The role of every seat at this player count: each role's ``min_count`` seats in the
        order the roles are declared, the remaining seats to the last role (all ``player`` when
        every seat is alike)."""
        if not self.roles:
            return ("player",) * n_players
        out: list[str] = []
        for r in self.roles:
            out += [r.name] * r.min_count
        out += [self.roles[-1].name] * (n_players - len(out))
        return tuple(out[:n_players])

    def fair_share(self, n_players: int) -> float | None:
        """The win share of a seat if the game were balanced: 1/P when every seat is alike;
        ``None`` for asymmetric roles (there is no single fair figure)."""
        return 1.0 / n_players if self.roles_alike else None

    def check_players(self, n_players: int) -> None:
        lo, hi = self.players
        if not lo <= n_players <= hi:
            span = f"{lo} to {hi}" if lo != hi else f"exactly {lo}"
            raise UsageError(f"--players {n_players}: {self.title} is played by {span} players")

    def check_options(self, given: dict[str, Any]) -> None:
        """Refuse an option the game does not take; ``given`` holds only options the user set."""
        own = {o.name: o.flag for o in self.options}
        for name, value in given.items():
            if value is None or value is False or name in self.takes or name in own:
                continue
            flag = COMMON_OPTIONS.get(name) or "--" + name.replace("_", "-")
            shown = flag if value is True else f"{flag} {value}"
            takes = ", ".join(self.option_flags()) or "no game options"
            raise UsageError(f"{shown}: {self.name} does not take this option (it takes {takes})")

    def option_flags(self) -> tuple[str, ...]:
        return tuple(COMMON_OPTIONS[k] for k in COMMON_OPTIONS if k in self.takes) + tuple(
            o.flag for o in self.options)


# ---------------------------------------------------------------------------------------------
# What an adapter hands the runner
# ---------------------------------------------------------------------------------------------

@dataclass
class ChunkResult:
    """Column arrays of one chunk: ``players`` has n_games * n_players rows, ``games`` n_games."""

    players: dict[str, Any]
    games: dict[str, Any]


@dataclass(frozen=True)
class ClosingRow:
    """A line a game adds under the runner's closing table (e.g. Fief's P(both wiped out))."""

    label: str
    estimate: float
    low: float
    high: float
    percent: bool = True


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
    # .add(ChunkResult) and .table() -> pa.Table, written as <name>.parquet; an accumulator
    # may also have .meta() -> dict (merged into run.json) and .closing_rows() -> [ClosingRow]
    extra_summaries: dict[str, Callable[[], Any]] = field(default_factory=dict)
    score_unit: str = "points"
    seat_labels: tuple[str, ...] = ()            # how the closing table names seats (default 1…P)
    fair_share: float | None = None              # None: no single fair share (asymmetric roles)
    default_chunk: int | None = None             # the game's games per chunk (default: runner's)
    recipe: Any = None                           # set by simcore.runner.prepare: how a Dask
                                                 # worker builds the same run (runner.Recipe)


_NUMPY_OF_ARROW = {pa.int8(): np.int8, pa.int16(): np.int16, pa.int32(): np.int32,
                   pa.int64(): np.int64, pa.float32(): np.float32, pa.float64(): np.float64}


def arrow_column(values: Any, type_: pa.DataType) -> pa.Array:
    """An Arrow column from a numpy array of the column's exact dtype, sharing its memory (no
    copy, and no pandas: ``pa.array`` imports pandas when it is installed, 0.4 s of every run's
    start); any other dtype or sequence goes through ``pa.array`` (checked conversion)."""
    if isinstance(values, (pa.Array, pa.ChunkedArray)):
        return values
    dtype = _NUMPY_OF_ARROW.get(type_)
    if dtype is not None and isinstance(values, np.ndarray) and values.dtype == dtype \
            and values.ndim == 1:
        a = np.ascontiguousarray(values)
        return pa.Array.from_buffers(type_, len(a), [None, pa.py_buffer(a)])
    return pa.array(values, type_)


def strings(values: list[str]) -> pa.Array:
    """An Arrow string array from its buffers: ``pa.array`` of Python strings (a list or an
    object array) imports pandas when it is installed, to ask whether they are pandas objects,
    0.4 s of every run's start."""
    encoded = [v.encode("utf-8") for v in values]
    offsets = np.zeros(len(encoded) + 1, np.int32)
    np.cumsum([len(b) for b in encoded], out=offsets[1:])
    return pa.StringArray.from_buffers(len(encoded), pa.py_buffer(offsets.tobytes()),
                                       pa.py_buffer(b"".join(encoded)))


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
        self.dictionary = strings(list(index))
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
            "strategy": pa.DictionaryArray.from_arrays(arrow_column(codes.astype(np.int32), pa.int32()),
                                                       self.dictionary).cast(pa.string()),
            "deal": np.repeat(games // n_rot, P),
            "rotation": rot.astype(np.int8),
        }


def raise_game_error(errors: np.ndarray, first: int, error_text: dict[int, str]) -> None:
    """RuntimeError naming the first game of a chunk whose kernel error code is not 0."""
    bad = np.flatnonzero(errors)
    if bad.size:
        code = int(errors[bad[0]])
        raise RuntimeError(f"game {first + int(bad[0])}: {error_text.get(code, f'kernel error {code}')}")
