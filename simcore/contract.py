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
from typing import Any, Callable, Protocol, runtime_checkable

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


# What a column means to the layers that read it (``Column.role``). Analysis chooses its tables
# from these, never from name patterns; the conformance suite checks each against the reference.
COLUMN_ROLES = {
    "": "a plain measure (summed, averaged, shown as it is)",
    "score": "the player's score, in the spec's score_unit; one per player table (the result)",
    "win_share": "1 for an outright win, 1/k for a win shared by k players, else 0; adds to 1",
    "rank": "1 = best; tied players share a rank",
    "seat_role": "the seat's role (a string naming one of the spec's roles)",
    "player_count": "players in the game (games table)",
    "length": "how long the game lasted (turns, rounds), in the column's unit",
    "end_reason": "why the game ended: an integer code named by the column's labels",
    "checkpoint_by_turn": "a running total at the end of turn t (group: one column per turn, "
                          "in turn order)",
    "checkpoint_by_event": "a running total just before event k (group: one column per event)",
    "gain_by_event": "what event k gave or took (group: one column per event)",
    "count_by_type": "how many of one type a player has or did (group: one column per type)",
    "drafted_by_type": "how many of one type a player drafted and holds at the end (group: one "
                       "column per type): the type tables (impact on winning, pairs of types)",
    "founded_by_type": "how many of one type a player founded during the game (group: one column "
                       "per type): the founders table, with the count_by_type columns of the "
                       "same type (e.g. powers used) beside it",
    "event_by_slot": "the id of the event fired in slot k (group: one column per slot)",
    "count_per_game": "how many times something happened in one game (a pile reshuffled): the "
                      "length table gives its mean with an interval (games table)",
}
# Roles a table may hold once at most (the rest come in groups or as plain measures).
SINGLE_ROLES = ("score", "win_share", "rank", "seat_role", "player_count", "length", "end_reason")
# Roles that come as a group of columns, one per turn, event or type (``group`` and ``key`` set).
GROUP_ROLES = ("checkpoint_by_turn", "checkpoint_by_event", "gain_by_event", "count_by_type",
               "drafted_by_type", "founded_by_type", "event_by_slot")
# The per-type counts (statistics keep their value histograms and pairs of types).
TYPE_COUNT_ROLES = ("count_by_type", "drafted_by_type", "founded_by_type")

# What kind of number a column holds when it is not an amount (``Column.value_is``).
VALUE_KINDS = ("", "seat", "turn", "index")

_DTYPE_RANGE = {"int8": (-2 ** 7, 2 ** 7 - 1), "int16": (-2 ** 15, 2 ** 15 - 1),
                "int32": (-2 ** 31, 2 ** 31 - 1), "int64": (-2 ** 63, 2 ** 63 - 1),
                "bool": (0, 1)}


@dataclass(frozen=True)
class Column:
    """One column of a player or game table.

    ``dtype`` is a numpy/Arrow name (``int8`` … ``float64``, ``bool``, ``string``); ``meaning`` is
    the sentence docs and ``balance export`` show; ``display`` the short name a report prints
    (default: the name with spaces); ``unit`` what one unit of the value is ("coins", "tiles").

    ``role`` says what the column is to the toolkit (a key of :data:`COLUMN_ROLES`: ``score``,
    ``rank``, ``checkpoint_by_turn`` …; ``""`` for a plain measure); ``group`` names the block a
    column belongs to when the role comes as one column per turn, event or type (``coins_turn``,
    ``tiles``), and ``key`` is the column's turn, event or type within that block (1-based turn,
    a type's name). ``low`` / ``high`` are the values the game can produce, inclusive (``None``:
    no bound beyond the dtype); they must fit the dtype, and every chunk is checked against them.
    ``labels`` names integer codes (``end_reason``: ``((0, "third_guild"), …)``), each optionally
    with the words a report shows (``(0, "third_guild", "Guild goal reached")``). ``turn``: the
    turn at whose end a checkpoint_by_event column is taken (event k of Middle-Ages: turn 4k).

    ``never``: the value that stands for "never" or "none" rather than an amount (Seigneurial's
    ``improvement_turn`` -1: the land improvements never came), and ``having`` what a row with any
    other value did, in words that follow "games that" (a game column) or "those that" (a player
    column): "had land improvements". A reader that ranks a column's values (``balance replay
    --find``: min, max, median) leaves the ``never`` rows out and says so. ``value_is`` says what
    kind of number the value is when it is not an amount: ``"seat"``, a 0-based seat index, shown
    to a person from 1 ("seat 1"), as every page counts seats; ``"turn"``, the turn at which
    something happened, said "turn 5" and ranked earliest to latest; ``"index"``, a 0-based place
    in a list of the rules that a person numbers from #1 (Seigneurial's ``objective``, a card of
    ``objectives.cards``: "#1", as the replay's log and the report's table number it).
    """

    name: str
    dtype: str
    meaning: str
    display: str = ""
    unit: str = ""
    role: str = ""
    group: str = ""
    key: Any = None
    low: float | None = None
    high: float | None = None
    labels: tuple[tuple, ...] = ()
    turn: int | None = None
    never: float | None = None
    having: str = ""
    value_is: str = ""

    def __post_init__(self) -> None:
        if self.value_is not in VALUE_KINDS:
            raise ValueError(f"column {self.name}: value_is {self.value_is!r} is not one of "
                             f"{', '.join(repr(k) for k in VALUE_KINDS)}")
        if self.never is not None and not self.having:
            raise ValueError(f"column {self.name}: a never value needs its having words (what a "
                             f"row with any other value did)")
        if self.never is not None and not (
                (self.low is None or self.low <= self.never)
                and (self.high is None or self.never <= self.high)):
            raise ValueError(f"column {self.name}: never value {self.never} outside its range")
        if self.dtype not in _ARROW_TYPES:
            raise ValueError(f"column {self.name}: unknown dtype {self.dtype!r}")
        if self.role not in COLUMN_ROLES:
            raise ValueError(f"column {self.name}: unknown role {self.role!r} "
                             f"(known: {', '.join(r for r in COLUMN_ROLES if r)})")
        if self.role in GROUP_ROLES and not (self.group and self.key is not None):
            raise ValueError(f"column {self.name}: role {self.role} needs a group and a key")
        if self.role == "end_reason" and not self.labels:
            raise ValueError(f"column {self.name}: an end_reason column names its codes (labels)")
        if self.low is not None and self.high is not None and self.low > self.high:
            raise ValueError(f"column {self.name}: low {self.low} > high {self.high}")
        span = _DTYPE_RANGE.get(self.dtype)
        if span is not None:
            for bound in (self.low, self.high):
                if bound is not None and not span[0] <= bound <= span[1]:
                    raise ValueError(
                        f"column {self.name}: the range {self.low}..{self.high} does not fit "
                        f"{self.dtype} ({span[0]}..{span[1]}); widen the dtype")
        for code, *_ in self.labels:
            if (self.low is not None and code < self.low) or (
                    self.high is not None and code > self.high):
                raise ValueError(f"column {self.name}: label code {code} outside its range")

    @property
    def arrow_type(self) -> pa.DataType:
        return _ARROW_TYPES[self.dtype]

    @property
    def label(self) -> str:
        return self.display or self.name.replace("_", " ")

    @property
    def label_names(self) -> dict[int, str]:
        """The ``labels`` as a dict: code → name."""
        return {code: name for code, name, *_ in self.labels}

    @property
    def label_words(self) -> dict[str, str]:
        """Name → the words a report shows, for the labels that give them."""
        return {name: rest[0] for _, name, *rest in self.labels if rest}

    @property
    def bounds(self) -> tuple[float, float] | None:
        """(low, high) the values must lie in, the dtype's limits standing in for a missing bound;
        None for floats and strings without a declared range."""
        span = _DTYPE_RANGE.get(self.dtype)
        if span is None and self.low is None and self.high is None:
            return None
        lo = self.low if self.low is not None else (span[0] if span else float("-inf"))
        hi = self.high if self.high is not None else (span[1] if span else float("inf"))
        return lo, hi


def labelled(names: tuple[str, ...] | list[str], words: dict[str, str] | None = None
             ) -> tuple[tuple, ...]:
    """``labels`` for codes 0, 1, … in the order of ``names`` (with ``words``: name → what a
    report shows)."""
    words = words or {}
    return tuple((i, n, words[n]) if n in words else (i, n) for i, n in enumerate(names))


def code_words(names: tuple[str, ...] | list[str], words: dict[str, str] | None, code: int) -> str:
    """Code ``code`` of ``names`` in the words a report shows for it (``words``: name → words, as
    :func:`labelled` takes them), else its name with spaces, capitalised ("Censitaire objective");
    a code beyond ``names`` as "End reason k". A reference engine's replay log says an end reason
    so (``balance replay``), as the reports' tables do."""
    k = int(code)
    if not 0 <= k < len(names):
        return f"End reason {k}"
    return (words or {}).get(names[k], names[k].replace("_", " ").capitalize())


def schema(columns: tuple[Column, ...] | list[Column]) -> pa.Schema:
    """The Arrow schema of a table with these columns, in this order. Every field is required (not
    nullable): a game writes a value in every column of every row (the columns come from numpy
    arrays, :func:`check_table`), and Parquet then stores no definition level per value: writing
    players.parquet took a third less CPU (a chunk of 131,072 Middle-Ages games, 192 → 127 ms)."""
    return pa.schema([pa.field(c.name, c.arrow_type, nullable=False) for c in columns])


# The columns every player table starts with (the runner's summaries and every analysis read
# them) and the two that seat rotation adds at the end.
COMMON_PLAYER_COLUMNS = (
    Column("game", "int64", "game number, 0-based; game i draws from the stream (seed, i)"),
    Column("seat", "int8", "seat index, 0-based: 0 is the seat reports call seat 1 (it plays first)",
           value_is="seat"),
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


@dataclass(frozen=True)
class TableCommand:
    """A command computing tables of one game outside any run (Fief's combat-odds grid): declared
    as data in the spec (``GameSpec.commands``); one generic module of the command line
    (``cli/tables.py``) makes ``balance <name>`` of every declaration, with the declared
    ``options`` plus ``--rules``, ``--set``, ``--out``, ``--force``, ``--threads``, ``--quiet``.

    ``job`` ("module:function" in the game folder) takes the options (and ``rules_path``) and
    returns a :class:`TablesJob` (validating first: bad input is one line, exit code 2).
    ``figures`` and ``show`` ("module:function", in :mod:`reports`) draw the job's figures into
    the output folder (``(job, tables, folder) -> [file names]``) and print its summary
    (``(job, tables, path)``); without ``show`` the command prints where it wrote."""

    name: str                                   # the command: "fief-odds"
    help: str                                   # its --help text
    job: str
    options: tuple[GameOption, ...] = ()
    figures: str | None = None
    show: str | None = None
    kind: str = "game-tables"                   # the output folder's ownership kind (--force)


@runtime_checkable
class TablesJob(Protocol):
    """What a :class:`TableCommand`'s ``job`` returns: ``compute()`` gives the tables by file stem
    (polars DataFrames, written as CSV and parquet); ``meta(tables, files, wall_time_s)`` the
    output folder's run.json."""

    def compute(self) -> dict[str, Any]: ...

    def meta(self, tables: dict[str, Any], files: list[str], wall_time_s: float) -> dict: ...


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
                                                # (an :class:`Adapter`)
    roles: tuple[Role, ...] = ()                # () = every seat alike
    default_strategy: str | None = None         # None: the game has no bots to choose
    strategies: str | None = None               # module with presets/resolve/lookup/load_file
                                                # (a :class:`StrategyLoader`)
    takes: frozenset[str] = frozenset(COMMON_OPTIONS)
    options: tuple[GameOption, ...] = ()        # options of this game only
    golden: str | None = None                   # module with main(argv) (simcore.golden)
    reference: bool = False                     # has a pure-Python reference engine (the
                                                # module ``reference`` beside the adapter, a
                                                # :class:`ReferenceEngine`)
    rules: str | None = None                    # the rules module (a :class:`RulesModule`);
                                                # default: ``rules`` beside the adapter
    analysis_hooks: str | None = None           # module of game-specific analysis (e.g. the
                                                # questions a report plays: questions_for_run)
    report_hooks: str | None = None             # module adding game-specific report sections
                                                # (reports.games: headlines, sections, ...)
    check_metrics: tuple[str, ...] = ("seat_win_share", "seat_mean_score", "strategy_win_share")
    commands: tuple[TableCommand, ...] = ()     # the game's own table commands (cli/tables.py)
    search: str | None = None                   # module with the search hooks (playout,
                                                # search_choice; docs/search.md), None: no search bot
    # a `balance skill` game's CPU time relative to Middle-Ages' at the same games and players (a
    # rough figure: the printed cost of a tune's follow-up skill commands, cli/tune.py)
    search_cost: float = 1.0
    # what the kernel's compiled variants differ by (which entry point a run calls, each compiled
    # once and then loaded from Numba's cache), for the compile notice and the closing line
    # (:meth:`compiled_words`): "kind of line-up and player count" (Middle-Ages, Médiévallons: the
    # bots' kinds choose the entry point, 4 players have their own); "" a single kernel
    compiled_per: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    # the smallest difference that matters to a designer, by metric kind: "score" (in score_unit,
    # also margins and swings) and "length" (turns); win shares use 1 percentage point
    # (analysis.load.smallest_difference; a run or a baseline may set its own)
    smallest_difference: dict[str, float] = field(default_factory=dict)
    # what a report calls each type of a per-type group (its columns' ``key``): "marche" → "Marché"
    type_names: dict[str, str] = field(default_factory=dict)
    # the rules' per-seat lists whose entry [0] is not seat 1's: a dotted path in the rules file →
    # the 0-based seat its entry [0] belongs to (Seigneurial's resources.start_cards counts the
    # Censitaires only: entry [0] is seat 2's, so 1). Entry [k] is then seat first + k's (the
    # tune's and sweep's "(seat 4's)", analysis.tune.advice.seat_of; a --vary or --set of an entry
    # no played cell seats is refused). A per-seat list not listed here starts at seat 1 (the
    # conformance suite checks every path listed exists in the game's rules file)
    seat_lists: dict[str, int] = field(default_factory=dict)
    # what each role's score is measured against, when the score is progress toward a goal set in
    # the rules (Seigneurial's "% of own goal"): role → the rule settings (dotted paths as a rules
    # diff names them, analysis.rules_diff; "{players}" stands for the player count) that set it.
    # A change of one of them changes that role's score unit, so a before/after and a check leave
    # out that role's seats' mean scores (and the winner's lead), and only theirs, at the player
    # count played (review s58 #1: every seat's score was dropped for any path containing "goal"
    # or starting with "objectives", a 5-player goal at 4 players included). {} for a score in a
    # unit no setting moves (coins, cards)
    score_goals: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def smallest(self, kind: str) -> float:
        """The game's smallest difference that matters of a ``kind`` measured in its own unit
        ("score", "length"): its ``smallest_difference``, else 1 unit (win shares: 1 pp,
        analysis.load.smallest_difference)."""
        return float(self.smallest_difference.get(kind, 1.0))

    def __post_init__(self) -> None:
        for table, cols in (("player", self.all_player_columns), ("game", self.all_game_columns)):
            names = [c.name for c in cols]
            if len(set(names)) != len(names):
                raise ValueError(f"{self.name}: a {table} column is declared twice")
            for role in SINGLE_ROLES:
                found = [c.name for c in cols if c.role == role]
                if len(found) > 1:
                    raise ValueError(f"{self.name}: {len(found)} {table} columns have role {role} "
                                     f"({', '.join(found)}); a table has one")
        scores = [c for c in self.player_columns if c.role == "score"]
        if len(scores) != 1:
            raise ValueError(f"{self.name}: the player table needs one column with role score")
        if scores[0].unit != self.score_unit:
            raise ValueError(f"{self.name}: the score column's unit {scores[0].unit!r} differs from "
                             f"the spec's score_unit {self.score_unit!r}")

    # -- derived -----------------------------------------------------------------------------

    @property
    def module_folder(self) -> str:
        """The package of the game's folder (``simcore.games.middle_ages``): the adapter's."""
        return self.adapter.rsplit(".", 1)[0]

    @property
    def rules_module(self) -> str:
        return self.rules or self.module_folder + ".rules"

    @property
    def reference_module(self) -> str | None:
        return self.module_folder + ".reference" if self.reference else None

    @property
    def driver_module(self) -> str | None:
        """The kernel driver the reference replays (a :class:`TracedDriver`), with a reference."""
        return self.module_folder + ".driver" if self.reference else None

    def columns_with_role(self, role: str, table: str = "players") -> tuple[Column, ...]:
        """The columns of ``table`` ("players" or "games") that have ``role``, in table order."""
        cols = self.all_player_columns if table == "players" else self.all_game_columns
        return tuple(c for c in cols if c.role == role)

    def role_column(self, role: str, table: str = "players") -> Column | None:
        """The one column of ``table`` with a single role (``score``, ``length``, ``end_reason`` …),
        or None when the game has none."""
        found = self.columns_with_role(role, table)
        return found[0] if found else None

    def bounds(self) -> dict[str, tuple[float, float]]:
        """Column → (low, high) for every column of either table with a declared range (the
        ranges every chunk is checked against; a dtype's own limits need no check)."""
        return {c.name: c.bounds for c in (*self.all_player_columns, *ROTATION_COLUMNS,
                                            *self.game_columns)
                if c.low is not None or c.high is not None}

    def groups(self, role: str, table: str = "players") -> dict[str, tuple[Column, ...]]:
        """Blocks of columns with ``role`` by group name, in table order (e.g. role
        ``checkpoint_by_turn`` → ``{"coins_turn": (coins_turn_1, …)}``)."""
        out: dict[str, list[Column]] = {}
        for c in self.columns_with_role(role, table):
            out.setdefault(c.group, []).append(c)
        return {g: tuple(cs) for g, cs in out.items()}

    def type_name(self, key: Any) -> str:
        """What a report calls type ``key`` of a per-type group (``type_names``, else the key
        capitalised, underscores as spaces)."""
        return self.type_names.get(key) or str(key).replace("_", " ").capitalize()

    @property
    def score_column(self) -> Column:
        return self.columns_with_role("score")[0]

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

    def role_named(self, text: str) -> str | None:
        """The role ``text`` names, as its name or as a report prints it, in any case ("Seigneur",
        "seigneur", "SEIGNEUR": ``balance games`` and the reports print it capitalised, review X
        #4); None when it names none."""
        want = str(text).strip().casefold()
        for r in self.roles:
            if want in (r.name.casefold(), (r.display or r.name).casefold()):
                return r.name
        return None

    def role_display(self, name: str) -> str:
        """How the reports print role ``name`` ("Seigneur"); ``name`` itself for a role the spec
        does not declare."""
        return next((r.display or r.name for r in self.roles if r.name == name), name)

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

    def compiled_words(self) -> str:
        """How often the kernel compiles, for the compile notice and the closing line: "once per
        kind of line-up and player count" (:attr:`compiled_per`), else "first run only" (review
        270 #2: "first run only" was said at every new line-up or player count that compiled)."""
        return f"once per {self.compiled_per}" if self.compiled_per else "first run only"

    def compile_message(self, what: str = "kernel") -> str:
        """The compile notice: "Compiling the Middle-Ages kernel (once per kind of line-up and
        player count; cached afterwards)"."""
        return f"Compiling the {self.title} {what} ({self.compiled_words()}; cached afterwards)"

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
# What a game folder's modules provide (checked by tests/conformance)
# ---------------------------------------------------------------------------------------------

@runtime_checkable
class Adapter(Protocol):
    """``spec.adapter``: validated options → :class:`PreparedRun`. Keyword arguments are the
    common options the spec ``takes`` (``players``, ``bots`` = (names, rows) from the strategy
    loader, ``engine``, ``debug``, ``rotate_seats``), the spec's own ``options`` and
    ``rules_path``; bad input raises :class:`~simcore.errors.UsageError` before any game."""

    def prepare(self, **options: Any) -> "PreparedRun": ...


@runtime_checkable
class Strategy(Protocol):
    """One named bot as its loader returns it: ``row`` is what the kernel reads (float64)."""

    name: str
    description: str
    kind: str
    weights: dict
    bias: dict
    row: np.ndarray


@runtime_checkable
class StrategyLoader(Protocol):
    """``spec.strategies``: bots as data (see :mod:`strategies.common`). ``resolve`` turns a
    ``--strategies`` value into (names per seat, float64 rows per seat)."""

    def presets(self) -> dict[str, Strategy]: ...

    def load_file(self, path: Any) -> dict[str, Strategy]: ...

    def lookup(self, spec: str, option: str = "--strategies") -> Strategy: ...

    def resolve(self, spec: Any, n_players: int) -> tuple[list[str], np.ndarray]: ...


@runtime_checkable
class RulesModule(Protocol):
    """``spec.rules_module``: the designer's rules file → frozen arrays. ``load(None)`` reads
    ``default_rules_path()``; errors name the file and key (:class:`~simcore.errors.ConfigError`)."""

    def default_rules_path(self) -> Any: ...

    def load(self, path: Any = None) -> Any: ...


@runtime_checkable
class GameRecord(Protocol):
    """What the reference engine returns for one game: per seat ``score`` (the score role),
    ``win_share`` and ``rank``, and ``decisions`` = [(kind, n_options, chosen index)]."""

    score: Any
    win_share: Any
    rank: Any
    decisions: list


@runtime_checkable
class ReferenceEngine(Protocol):
    """``spec.reference_module``: the slow, readable engine the kernel is checked against.
    ``play_game(rules, n_players, seed, game, strategies=None, log=None, debug=False)`` plays game
    ``game`` of stream ``seed``; ``strategies`` (one per seat) choose with
    ``choose(kind, options, state, seat, rng)``; ``record_table`` renders a record's final table
    (the golden playthrough)."""

    def play_game(self, rules: Any, n_players: int, seed: int, game: int, strategies: Any = None,
                  log: Any = None, debug: bool = False) -> GameRecord: ...

    def record_table(self, record: Any) -> list[str]: ...


@runtime_checkable
class TracedDriver(Protocol):
    """``spec.driver_module`` of a game with a reference engine: the kernel's chunk driver.
    ``run_chunk(rules, n_players, first_game, n_games, seed, strat, trace_decisions=True)``
    returns per-seat ``score``/``win_share``/``rank`` arrays (game-major) and ``trace``: per game
    the (n_options, chosen) pairs of every decision, which the reference replays
    (:class:`simcore.reference_strategies.ReplayStrategy`)."""

    def run_chunk(self, rules: Any, n_players: int, first_game: int, n_games: int, seed: int,
                  strat: Any = None, **options: Any) -> dict: ...


# ---------------------------------------------------------------------------------------------
# What an adapter hands the runner
# ---------------------------------------------------------------------------------------------

@dataclass
class ChunkResult:
    """Column arrays of one chunk: ``players`` has n_games * n_players rows, ``games`` n_games."""

    players: dict[str, Any]
    games: dict[str, Any]
    # (labels, codes): each player row's strategy as an index into ``labels`` (the line-up's
    # distinct names in seat order), when the adapter knows it: the statistics then need not
    # look the names up again (:func:`strategy_codes`)
    strategy_codes: tuple[tuple[str, ...], Any] | None = None


def strategy_codes(chunk: ChunkResult, labels) -> Any:
    """int64 per player row: the index of its strategy in ``labels``, from the chunk's own codes
    when they are of these labels, else None (the caller looks the names up)."""
    known = chunk.strategy_codes
    if known is None or tuple(known[0]) != tuple(labels):
        return None
    return np.asarray(known[1], np.int64)


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
    bounds: dict[str, tuple[float, float]] = field(default_factory=dict)
                                                 # set by simcore.runner.prepare from the spec:
                                                 # column -> (low, high) every chunk must obey


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
        self.labels = tuple(index)
        self.dictionary = strings(list(index))
        self.codes = np.array([index[n] for n in names], np.int32)
        self._encoded = [n.encode("utf-8") for n in self.labels]
        self._lengths = np.array([len(b) for b in self._encoded], np.int64)

    @staticmethod
    def _periodic(one_game, first: int, n: int, n_rot: int) -> np.ndarray:
        """The rows of games ``first … first + n - 1`` of a column whose rows depend only on the
        seat and the game's rotation (``one_game(rotation)``: one game's P rows): one period of
        ``n_rot`` games made once and repeated, not an index computed per row (two integer
        divisions and a gather per row: ~23 ms of the main thread per chunk of 131,072 games,
        while the kernel's threads waited)."""
        k = min(n, n_rot)
        one = np.concatenate([one_game((first + i) % n_rot) for i in range(k)]) if k else \
            one_game(0)[:0]
        return np.tile(one, -(-n // k) if k else 0)[: len(one) // max(k, 1) * n]

    def row_codes(self, first: int, n: int, n_rot: int = 1) -> np.ndarray:
        """int32 per player row of games ``first … first + n - 1``: the index of its strategy in
        :attr:`labels` (in rotation k, seat s is played by strategy row ``(s + k) % P``)."""
        return self._periodic(lambda k: np.roll(self.codes, -k), first, n, n_rot)

    def columns(self, first: int, n: int, n_rot: int = 1, codes: np.ndarray | None = None) -> dict:
        """The common columns of the player rows: game, seat, strategy, deal and rotation. Without
        rotation (``n_rot`` 1) game i is deal i: both columns are the same (read-only) array."""
        P = len(self.codes)
        games = np.arange(first, first + n, dtype=np.int64)
        game = np.repeat(games, P)
        game.flags.writeable = False
        if codes is None:
            codes = self.row_codes(first, n, n_rot)
        if n_rot == 1:
            deal, rot = game, np.zeros(n * P, np.int8)
        else:
            deal = np.repeat(games // n_rot, P)
            rot = self._periodic(lambda k: np.full(P, k, np.int8), first, n, n_rot)
        return {
            "game": game,
            "seat": np.tile(np.arange(P, dtype=np.int8), n),
            "strategy": self._strategy_column(codes, P * n_rot),
            "deal": deal,
            "rotation": rot,
        }

    def _strategy_column(self, codes: np.ndarray, period: int) -> pa.Array:
        """The string column of ``codes`` (row → index into :attr:`labels`), whose values repeat
        every ``period`` rows (a seat's strategy depends on its seat and its game's rotation
        only), built from its buffers: one period's bytes repeated, and its offsets one period's
        running lengths shifted by a period's bytes (a running sum over every row took ~6 ms of
        the main thread per chunk of 131,072 four-player games). A dictionary array cast to
        strings gave the same column through pyarrow.compute (0.04 s to import at every start,
        and a pass over every row)."""
        rows = len(codes)
        if rows == 0:
            return pa.StringArray.from_buffers(0, pa.py_buffer(np.zeros(1, np.int32)), pa.py_buffer(b""))
        period = min(period, rows)
        one_len = self._lengths[codes[:period]]
        per = int(one_len.sum())
        reps = -(-rows // period)
        total = per * (rows // period) + int(one_len[: rows % period].sum())
        if total >= 2 ** 31:
            return pa.DictionaryArray.from_arrays(arrow_column(codes.astype(np.int32), pa.int32()),
                                                  self.dictionary).cast(pa.string())
        offsets = np.zeros(rows + 1, np.int32)
        cum = np.cumsum(one_len).astype(np.int32)
        full = rows // period
        np.add.outer(np.arange(full, dtype=np.int32) * np.int32(per), cum,
                     out=offsets[1:1 + full * period].reshape(full, period))
        offsets[1 + full * period:] = full * per + cum[: rows % period]
        one = b"".join(self._encoded[c] for c in codes[:period])
        data = (one * reps)[:total]
        return pa.StringArray.from_buffers(rows, pa.py_buffer(offsets), pa.py_buffer(data))


def raise_game_error(errors: np.ndarray, first: int, error_text: dict[int, str]) -> None:
    """RuntimeError naming the first game of a chunk whose kernel error code is not 0."""
    bad = np.flatnonzero(errors)
    if bad.size:
        code = int(errors[bad[0]])
        raise RuntimeError(f"game {first + int(bad[0])}: {error_text.get(code, f'kernel error {code}')}")


class ContractError(RuntimeError):
    """A game's adapter handed the runner something its spec does not declare (a missing column,
    a wrong dtype, a wrong row count): a bug in the game, named by column."""


class ColumnRangeError(UsageError):
    """A value outside the range its spec column declares: the rules in use (``--set``, a rules
    file) make the game produce values the column was not declared for. One line, exit code 2."""


def check_table(cols: dict[str, Any], schema: pa.Schema, rows: int, bounds: dict, game: str,
                table: str) -> None:
    """Every column of ``schema`` in ``cols``, of exactly its dtype (no cast: numpy arrays of the
    column's numpy dtype, Arrow arrays of its Arrow type), ``rows`` long, its values inside
    ``bounds[name]``, no missing values. Raises :class:`ContractError` (naming every column of a
    wrong dtype) or
    :class:`ColumnRangeError` naming the column."""
    wrong = []
    for f in schema:
        name = f.name
        if name not in cols:
            raise ContractError(f"{game}: the adapter's {table} chunk has no column {name!r}")
        v = cols[name]
        if isinstance(v, (pa.Array, pa.ChunkedArray)):
            got, ok = str(v.type), v.type == f.type
        elif isinstance(v, np.ndarray):
            want = _NUMPY_OF_ARROW.get(f.type) or (np.bool_ if f.type == pa.bool_() else None)
            got, ok = str(v.dtype), want is not None and v.dtype == want and v.ndim == 1
        else:
            got, ok = type(v).__name__, False
        if not ok:
            wrong.append(f"{table} column {name!r} is {got} but the spec declares {f.type}")
            continue
        if len(v) != rows:
            raise ContractError(f"{game}: {table} column {name!r} has {len(v)} rows, not {rows}")
        if isinstance(v, (pa.Array, pa.ChunkedArray)) and v.null_count:
            raise ContractError(f"{game}: {table} column {name!r} has {v.null_count} missing "
                                "values (every column is required: a value in every row)")
        span = bounds.get(name)
        if span is not None and rows and isinstance(v, np.ndarray):
            lo, hi = v.min(), v.max()
            if lo < span[0] or hi > span[1]:
                bad = lo if lo < span[0] else hi
                raise ColumnRangeError(
                    f"{game}: {table} column {name!r} holds {bad}, outside its declared range "
                    f"{_num(span[0])}..{_num(span[1])} ({f.type}): these rules make values the "
                    "spec does not allow (a column too narrow for this setting, or a kernel bug)")
    if wrong:
        raise ContractError(f"{game}: " + "; ".join(wrong) + " (the kernel/adapter must produce "
                            "the spec's dtypes; nothing is cast)")


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def check_chunk(prep: PreparedRun, chunk: ChunkResult, n_games: int,
                player_columns: tuple[str, ...] | None = None) -> None:
    """:func:`check_table` on both tables of a chunk of ``n_games`` games, before the runner
    turns them into Arrow tables (``player_columns``: only these player columns are needed)."""
    ps = prep.players_schema
    if player_columns is not None and player_columns != tuple(ps.names):
        ps = pa.schema([f for f in ps if f.name in player_columns])
    check_table(chunk.players, ps, n_games * prep.n_players, prep.bounds, prep.game, "players")
    check_table(chunk.games, prep.games_schema, n_games, prep.bounds, prep.game, "games")
    check_win_shares(chunk, n_games, prep.n_players, prep.game)


def check_win_shares(chunk: ChunkResult, n_games: int, n_players: int, game: str) -> None:
    """Every game's win shares add up to 1 (a win shared by k players is 1/k each), checked on
    every chunk as the ranges are (review s48: a game whose engines gave second place 0.5 too was
    simulated and reported without a word; only a test of the conformance suite saw it). Raises
    :class:`ContractError` naming the first game that does not."""
    w = chunk.players.get("win_share")
    if w is None or n_games == 0:
        return
    sums = np.asarray(w, np.float64).reshape(n_games, n_players).sum(axis=1)
    bad = np.flatnonzero(np.abs(sums - 1.0) > 1e-4)
    if bad.size:
        first = chunk.games.get("game")
        which = int(np.asarray(first)[bad[0]]) if first is not None else int(bad[0])
        raise ContractError(f"{game}: the win shares of game {which} add up to {sums[bad[0]]:g}, not 1 "
                            f"({bad.size} of the chunk's {n_games} games): a game's win goes to one "
                            "player, or 1/k to each of k who share it")


# ---------------------------------------------------------------------------------------------
# Written once for every game: results, and arrays -> columns by the spec's names
# ---------------------------------------------------------------------------------------------

def ranks_and_win_shares(scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rank (int8, 1 = best, ties share the better rank) and win share (float32: 1/k for each of
    the k players with the best score, else 0) of every player of every game, game-major, from
    ``scores`` [n_games, n_players] (higher is better)."""
    s = np.asarray(scores)
    rank = 1 + (s[:, None, :] > s[:, :, None]).sum(axis=2)
    best = s == s.max(axis=1, keepdims=True)
    win = best / best.sum(axis=1, keepdims=True)
    return rank.astype(np.int8).ravel(), win.astype(np.float32).ravel()


def spec_columns(columns: tuple[Column, ...], arrays: dict[str, Any],
                 skip: tuple[str, ...] = ()) -> dict[str, Any]:
    """The adapter skeleton: each of ``columns`` (but ``skip``) taken from ``arrays`` by name,
    or, for a column of a group (``tiles_champs`` of group ``tiles``), column ``i`` of the 2-D
    array named after the group, ``i`` its place within the group. Arrays are taken as they are
    (the runner checks their dtypes): the kernel must write the spec's dtypes."""
    out: dict[str, Any] = {}
    place: dict[str, int] = {}
    for c in columns:
        if c.name in skip:
            continue
        if c.name in arrays:
            out[c.name] = arrays[c.name]
        elif c.group and c.group in arrays:
            i = place[c.group] = place.get(c.group, -1) + 1
            out[c.name] = np.ascontiguousarray(arrays[c.group][:, i])
        else:
            raise ContractError(f"the kernel's outputs have no array {c.name!r}"
                                + (f" nor {c.group!r}" if c.group else ""))
    return out


def chunk_from_arrays(spec_players: tuple[Column, ...], spec_games: tuple[Column, ...],
                      arrays: dict[str, Any], first: int, n: int, n_players: int,
                      seats: "SeatStrategies", n_rot: int = 1) -> ChunkResult:
    """A :class:`ChunkResult` from a kernel's output arrays, named as the spec's columns (player
    arrays game-major, one row per player-game): the common columns (game, seat, strategy,
    deal, rotation, n_players) are filled here."""
    codes = seats.row_codes(first, n, n_rot)
    players = seats.columns(first, n, n_rot, codes)
    players.update(spec_columns(spec_players, arrays))
    games = {"game": np.arange(first, first + n, dtype=np.int64)}
    counts = [c.name for c in spec_games if c.role == "player_count"]
    games.update({name: np.full(n, n_players, np.int8) for name in counts})
    games.update(spec_columns(spec_games, arrays, skip=tuple(counts)))
    return ChunkResult(players, games, (seats.labels, codes))
