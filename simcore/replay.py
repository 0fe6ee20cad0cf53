"""Replay any game of any run: its turn-by-turn log from the reference engine, checked against the run.

A run directory's run.json records everything a game depends on: the game, player count, run seed,
the bots of every seat (and ``rotate_seats``) and the rules text as played (after any ``--set`` or
rules file). :func:`replay` rebuilds game ``N`` from that: the Numba kernel plays it once more with
its decision trace on (game ``N`` draws from the stream (seed, N), or (seed, N // P) with rotated
seats, so one game alone reproduces it exactly), then the game's pure-Python reference engine
(``reference.py`` beside the game's adapter) plays the same game from the same seed, taking the
bots' recorded choices (:class:`simcore.reference_strategies.ReplayStrategy`, one draw per decision
as the kernel spends it) and writing its readable log: every decision with its options, every
draw, the scores turn by turn, then the final table. A decision is one line
(:func:`simcore.golden.decision_line`) in the game's words: its reference engine's optional
``DECISION_WORDS`` name the decision ("[Corvée: target]"; the kind itself for a game without
them) and its ``option_text`` the options. The reference's record of the game is then checked
against the run's rows: every column of players.parquet (the seats' rows) and of games.parquet (the
game's row) that the record gives, as the game's own adapter turns a reference engine's record into
the run's columns (:func:`record_columns`: Middle-Ages' tile counts, event gains, coins per turn
and event ids included; review s46 #5: only the per-seat figures of shape (P,) were compared), and
a clear line says whether they agree, naming the columns compared as the reports do ("the final
coins, win share, rank, Champs … Palais tiles, … of every seat match the run's records, and so do
the game's event 1 … event 4 and reshuffles (37 per-seat columns and 5 of the game's)"); a
difference names the seat, the column, the replayed and the recorded value.
After the final table a line says how the game was decided (:func:`ending_lines`), where the game's
reference engine says it (``ending_words``: which tie-break of its ending rule gave the win, or that
the win was shared, in the rule's words).

A game without bots or decisions (Fief combats: dice only) is replayed by its reference engine's
own ``replay_run(meta, game)`` (:func:`run_hook`): the combat is rebuilt from run.json's matchup
and rules and played from its stream (seed, game), the kernel's; its final figures are checked
against players.parquet and games.parquet.

:func:`find_game` picks a game by a small grammar (:data:`FIND_GRAMMAR`): ``[seat=N|role=R|strategy=S]
[wins|loses] (max|min|median) COLUMN`` — "the game seat 1 lost with its most coins" is
``seat=1 loses max score``; ``wins`` is a win alone (win share 1), ``loses`` no share of the win,
so a shared win is neither (review s52 export #4: Fief's "the defender's longest hold" picked a
combat both armies lost, counted as half a win each). Seats are numbered from 1 here, as everywhere a person reads them.
``role=`` is for games of several roles (Seigneurial's Seigneur and Censitaires, Fief's attacker
and defender); in a game whose seats all play alike it is one line saying the game has no roles
and what to give instead. The sentence it answers with gives the value with its unit and what
the game was chosen among: "(221 coins; among the 16,052 games seat 1 lost)". A column's value
that means "never" or "none" (the spec's ``Column.never``: Seigneurial's ``improvement_turn``,
``winning_seat`` and ``objective`` -1, SG-5.6, SG-6, SG-2) is left out of min, max and median on
both paths, and the sentence says among how many games had one ("among the 6,117 of the run's
20,000 games that had land improvements"); none left is one line. A seat index (``seat``,
``winning_seat``: ``Column.value_is``) is shown from 1, an Objective card from #1 as the log
numbers it, a turn something happened at as "turn 5" (review s60: "-1 turns", "lowest winning
seat (0 …)"). A column of codes (``Column.labels``: Fief's ``winner``, FF-3; ``end_reason``, MV-6,
MV-7, SG-6) or of yes/no (``bool``: Fief's ``by_mercy``, FF-3) is no amount to rank: ``min``,
``max`` and ``median`` on it are one line, exit code 2, naming its codes and pointing to the
games table (``balance export RUN --what games``) and ``--game N``, on both paths (review s60 fix
250: "the game with the highest winner (2; …)").

Seats in the log are printed 1-based (``P1`` is seat 1), as in the reports and the golden
playthroughs (:func:`simcore.golden.people_seats`). With rotated seats the reference engine plays
the deal's stream, and its header, which names the game it played, says both numbers: "game 5 of
the run: deal 1, rotation 1" (review s46 #8: it said "game 1" under a header saying game 5).

Like every reader, :func:`replay` and :func:`find_game` first check the run directory against
run.json's integrity record (:func:`simcore.rundir.verify_integrity`: a file of another run copied
in, a file deleted, is one line naming it, not a replay that "differs"; review s46 #4);
``balance replay`` runs the whole reader's check first (:func:`analysis.load.check_run`).

A run written without players.parquet (above ``runner.RAW_LIMIT`` games, or ``--no-raw``) is
replayed all the same: the rows it needs are played again by the runner (:func:`prepare_run`:
the run's game, bots, seat rotation, options and rules from run.json, then its seed), which gives
exactly the rows the run would have written since every game draws from its own stream: game N
alone (its deal with rotated seats) for ``--game N``, checked also against games.parquet's row,
and every game for ``--find`` (reduced chunk by chunk, so memory stays flat; it costs about the
kernel time of the run).

May import numpy, pyarrow, polars, the standard library and :mod:`simcore` (the runner, to play a
row-less run's games again; the game's modules, its adapter (:func:`record_columns`) and its
strategy loader through the registry's module names, as :mod:`simcore.runner` does; :mod:`strategies.common`, whose recorded strategy
files a replay reads instead of the disk). What a reader needs without playing (which games can
be replayed) is in :mod:`simcore.replayable`, which imports no runner.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq

from simcore import games as registry
from simcore.errors import UsageError
from simcore.golden import decision_line, people_seats  # noqa: F401  (people_seats: its home before)
from simcore.reference_strategies import ReplayStrategy
from simcore.replayable import can_replay, run_hook  # noqa: F401  (their home before)
from simcore.rundir import verify_integrity
from strategies.common import using_recorded_files

FIND_GRAMMAR = "[seat=N | role=NAME | strategy=NAME] [wins | loses] (max | min | median) COLUMN"


def find_examples(spec, players: int) -> str:
    """``e.g. 'seat=1 loses max score', 'median turns'``: queries of :data:`FIND_GRAMMAR` that work
    on a run of this game (its score and length columns, ``role=`` only in a game of several
    roles; review P #9: 'median turns' was suggested for Middle-Ages, which has no such column)."""
    score = spec.role_column("score").name
    length = spec.role_column("length", "games") or spec.role_column("length")
    measure = length.name if length is not None else score       # Middle-Ages: no length column
    out = [f"'seat=1 loses max {score}'", f"'median {measure}'"]
    roles = list(dict.fromkeys(spec.seat_roles(players)))
    if len(roles) > 1:
        out.append(f"'role={roles[0]} wins min {measure}'")
    return "e.g. " + ", ".join(out)


@dataclass
class Replay:
    """A replayed game: its log lines, the reference's final per-seat figures, and the check."""

    game: int
    lines: list[str]
    figures: dict[str, list]                       # column → per-seat values (reference engine)
    row: dict[str, list] | None                    # column → per-seat values (players.parquet)
    differences: list[str] = field(default_factory=list)
    played: bool = False          # ``row`` played again by the kernel (the run kept no rows)
    game_figures: dict = field(default_factory=dict)   # column → value (reference engine)

    @property
    def matches(self) -> bool:
        return self.row is not None and not self.differences

    @property
    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def read_meta(run: str | Path) -> dict:
    """run.json of the run directory ``run`` (:func:`simcore.rundir.read_meta`, as every reader:
    a panel, sweep, tune or report directory given instead is named as such, with what to give),
    refusing the run.json of a directory of tables."""
    from simcore.rundir import read_meta as read_run_meta, refuse_tables

    return refuse_tables(run, read_run_meta(run))    # balance questions / sweep / tune write run.json too


def _modules(spec):
    """The game's kernel driver, reference engine and rules loader (the spec's module names)."""
    return (registry.import_hook(spec.module_folder + ".driver"),
            registry.import_hook(spec.reference_module), registry.import_hook(spec.rules_module))


def check_replayable(meta: dict, game: int | None = None) -> None:
    """One-line :class:`UsageError` when this run's games cannot be replayed (or ``game`` is not one
    of them); nothing is compiled or played."""
    spec = registry.get(meta.get("game", "?"))
    if not can_replay(spec):
        raise UsageError(f"{spec.title} has no turn-by-turn reference engine to replay a game with "
                         f"(its outcomes come from exact odds or single rolls)")
    if meta.get("engine", "kernel") not in ("kernel", "reference"):
        raise UsageError(f"run.json engine {meta.get('engine')!r}: cannot replay")
    n = int(meta.get("games", 0))
    if game is not None and not 0 <= game < n:
        raise UsageError(f"--game {game}: the run has games 0 to {n - 1}")


def _rules(meta: dict, rules_mod):
    from simcore.config import parse_toml, reading_recorded_rules

    text = meta.get("rules_text")
    if not text:
        return rules_mod.load()
    with reading_recorded_rules(meta, "run.json"):
        return rules_mod.load(parse_toml(text, name=str(meta.get("rules_name") or "run.json rules_text")))


class _LoggedReplay(ReplayStrategy):
    """Plays back the kernel's choices and writes each decision, with its options, into ``log``:
    :func:`simcore.golden.decision_line`, the decision named in the game's words (its reference
    engine's ``DECISION_WORDS``) and its options in the engine's ``option_text`` (an engine without
    ``option_text`` logs what was done in its own lines, and no decision line)."""

    def __init__(self, choices, reference, log: list, shown: int = 8) -> None:
        super().__init__(choices, consume_draw=True)
        self.reference, self.log, self.shown = reference, log, shown

    def choose(self, kind, options, state, seat, rng):
        i = super().choose(kind, options, state, seat, rng)
        if getattr(self.reference, "option_text", None) is not None:
            self.log.append(decision_line(self.reference, kind, options, i, seat, state, self.shown))
        return i


def _row(run: Path, game: int, n_players: int) -> dict[str, list] | None:
    path = run / "players.parquet"
    if not path.is_file():
        return None
    import pyarrow.compute as pc

    table = pq.read_table(path, filters=[("game", "=", game)])
    if table.num_rows != n_players:
        return None
    table = table.take(pc.sort_indices(table, [("seat", "ascending")]))
    return {c: table.column(c).to_pylist() for c in table.column_names}


def _games_row(run: Path, game: int) -> dict | None:
    path = run / "games.parquet"
    if not path.is_file():
        return None
    table = pq.read_table(path, filters=[("game", "=", game)])
    if table.num_rows != 1:
        return None
    return {c: table.column(c)[0].as_py() for c in table.column_names}


# ---------------------------------------------------------------------------------------------
# The columns the replayed game's record gives, as the game writes them
# ---------------------------------------------------------------------------------------------

#: Columns that place a row (its game, seat, bot, deal, rotation) rather than say what was played:
#: a replay takes them from the run, so they are not checked.
_PLACE = ("game", "seat", "strategy", "deal", "rotation")
#: Column roles that follow from the seat or the player count alone, not from the game played
#: (Seigneurial's ``role``, every game's ``n_players``): not checked either.
_PLACE_ROLES = ("seat_role", "player_count")


@contextmanager
def _handing_back(reference, record):
    """While the block runs, the reference engine's ``play_game`` hands back ``record`` (whatever it
    is asked to play); its own ``play_game`` again afterwards, however the block ends."""
    own = reference.play_game
    reference.play_game = lambda *args, **kwargs: record
    try:
        yield
    finally:
        reference.play_game = own


def _values(v) -> list:
    return v.to_pylist() if hasattr(v, "to_pylist") else np.asarray(v).tolist()


def record_columns(spec, meta: dict, reference, record, game: int) -> tuple[dict[str, list], dict]:
    """The players.parquet columns (column → per-seat values, seats in order) and games.parquet
    columns (column → value) that the reference engine's ``record`` of game ``game`` gives, exactly
    as the run would have written them had the reference engine played it (``simulate --engine
    reference``): the game's own adapter (``spec.adapter``, ``prepare(engine="reference")``, under
    the run's rules) turns the record into columns through its reference chunk (its names, dtypes
    and groups: Middle-Ages' eight tile counts, four event gains, sixteen coins per turn and four
    event ids; Médiévallons' guilds founded and powers of the types that have one; Seigneurial's
    resources and winner's role), so the replay checks every column that mapping gives without a
    copy of it. That chunk asks the reference engine to play its game: while it runs, the engine's
    ``play_game`` hands back ``record``, the game the replay played with the bots' recorded
    choices (:func:`_handing_back`; a command plays one game at a time). The columns that place a
    row (:data:`_PLACE`, and those of a role in :data:`_PLACE_ROLES`) are left out."""
    from simcore.config import parse_toml, reading_recorded_rules

    P, seed = int(meta["players"]), int(meta["seed"])
    text = meta.get("rules_text")
    with reading_recorded_rules(meta, "run.json"):
        source = parse_toml(text, name=str(meta.get("rules_name") or "run.json rules_text")) if text else None
    adapter = registry.import_hook(spec.adapter)
    with _handing_back(reference, record), reading_recorded_rules(meta, "run.json"):
        chunk = adapter.prepare(players=P, engine="reference", rules_path=source).play(game, 1, seed)
    skip = set(_PLACE) | {c.name for c in (*spec.player_columns, *spec.game_columns)
                          if c.role in _PLACE_ROLES}
    players = {c: _values(v) for c, v in chunk.players.items() if c not in skip}
    games = {c: _values(v)[0] for c, v in chunk.games.items() if c not in skip}
    return players, games


# ---------------------------------------------------------------------------------------------
# The run's games played again (a run written without players.parquet)
# ---------------------------------------------------------------------------------------------

def prepare_run(meta: dict, strategies: str | None = None):
    """The run of run.json ``meta`` built again (:func:`simcore.runner.prepare`): its game, player
    count, bots (``strategies`` when given), seat rotation, engine, the game's own options (run.json
    top level, or Fief's ``matchup``) and its rules as played (``rules_text``, any ``--set`` or
    rules file included). Played with run.json's seed, it gives the run's rows exactly: every game
    draws from its own stream (seed, game). A rules text whose sha256 is not run.json's, or bots
    that cannot be rebuilt here, is a one-line :class:`UsageError`."""
    from simcore import runner
    from simcore.config import parse_toml, reading_recorded_rules

    spec = registry.get(meta["game"])
    options: dict = {}
    if "players" in spec.takes:
        options["players"] = int(meta["players"])
        if spec.strategies is not None:
            options["strategies"] = strategies or ",".join(meta.get("strategies")
                                                           or [spec.default_strategy])
        if "rotate_seats" in spec.takes:
            options["rotate_seats"] = bool(meta.get("rotate_seats"))
        if "engine" in spec.takes and meta.get("engine"):
            options["engine"] = meta["engine"]
    recorded = {**meta, **(meta.get("matchup") or {})}
    for o in spec.options:
        if o.name in recorded:
            options[o.name] = recorded[o.name]
    text = meta.get("rules_text")
    with reading_recorded_rules(meta, "run.json"):
        rules = parse_toml(text, name=str(meta.get("rules_name") or "run.json rules_text")) if text else None
    try:
        with using_recorded_files(meta.get("strategy_files")), reading_recorded_rules(meta, "run.json"):
            prep = runner.prepare(meta["game"], rules=rules, **options)
    except UsageError as e:
        raise UsageError(f"the run cannot be played again here ({e}); give --strategies with the "
                         f"run's bots if they came from a strategy file") from None
    want = meta.get("rules_sha256")
    if want and prep.rules_sha256 != want:
        raise UsageError(f"the run's rules cannot be rebuilt exactly (sha256 {prep.rules_sha256[:12]}… "
                         f"against run.json's {str(want)[:12]}…)")
    return prep


def played_rows(meta: dict, game: int, strategies: str | None = None,
                prep=None) -> tuple[dict[str, list], dict]:
    """Game ``game``'s player rows (column → per-seat values, seats in order) and games row, as the
    run would have written them, played again by the runner (:func:`prepare_run`): the game alone,
    or with rotated seats its deal (a deal's rotations are played together), so it costs one game's
    (one deal's) time, not the run's."""
    from simcore import runner

    prep = prep or prepare_run(meta, strategies)
    unit = prep.games_per_deal
    first = game - game % unit
    played = runner.collect(prep, games=unit, seed=int(meta["seed"]), first=first, statistics=False)
    players = played.players.to_pydict()
    keep = [i for i, g in enumerate(players["game"]) if g == game]
    keep.sort(key=lambda i: players["seat"][i])
    row = {c: [v[i] for i in keep] for c, v in players.items()}
    games = played.games.to_pydict()
    j = games["game"].index(game)
    return row, {c: v[j] for c, v in games.items()}


def _games_differences(spec, kernel: dict, stored: dict | None) -> list[str]:
    """The columns where the games row played again differs from games.parquet's (in the spec's
    words)."""
    if stored is None:
        return ["the run holds no record of this game (games.parquet)"]
    return [f"the game's {_words(spec, c)}: played again {v}, the run's record {stored[c]}"
            for c, v in kernel.items() if c in stored and v != stored[c]]


def _replay_by_hook(run: Path, meta: dict, spec, game: int, hook) -> Replay:
    """A game its reference replays alone (:func:`run_hook`), checked against players.parquet and
    games.parquet."""
    P, seed = int(meta["players"]), int(meta["seed"])
    result = hook(meta, game)
    row = _row(run, game, P)
    grow = _games_row(run, game)
    played = row is None and not (run / "players.parquet").is_file()
    if played:
        row, kernel_games = played_rows(meta, game)
    roles = spec.seat_roles(P)
    head = [f"{spec.title}: game {game} of run {run.name} ({P} sides, run seed {seed}, the "
            f"game's own stream ({seed}, {game}))",
            f"Rules: {meta.get('rules_name') or 'the shipped rules'}",
            "Seats are numbered from 1 (P1 is seat 1, as in the reports); the reference engine "
            "replays the game's dice from its own random stream."]
    head += [f"  seat {s + 1}: {roles[s]}" for s in range(P)]
    figures = {k: list(v) for k, v in result.seat_figures.items()}
    table = getattr(registry.import_hook(spec.module_folder + ".reference"), "record_table", None)
    final = table(figures) if table else [f"  {k}: {v}" for k, v in figures.items()]
    lines = head + [""] + [people_seats(x) for x in result.lines]
    lines += ["", "Final table"] + [people_seats(x) for x in final]
    diffs = _differences(spec, figures, row, P)
    if played:
        diffs += _games_differences(spec, kernel_games, grow)
    diffs += _game_differences(spec, result.game_figures, grow)
    extra = [c for c in result.game_figures if grow is not None and c in grow]
    lines += _check_lines(spec, figures, row, diffs, extra, played=played)
    return Replay(game, lines, figures, row, diffs, played=played,
                  game_figures=dict(result.game_figures))


def replay(run: str | Path, game: int, strategies: str | None = None) -> Replay:
    """Replay game ``game`` of the run in ``run`` (see the module docstring)."""
    run = Path(run)
    meta = read_meta(run)
    verify_integrity(run, meta)           # a damaged or mixed directory is one line (review s46 #4)
    check_replayable(meta, game)
    spec = registry.get(meta["game"])
    hook = run_hook(spec)
    if hook is not None:
        return _replay_by_hook(run, meta, spec, game, hook)
    P, seed = int(meta["players"]), int(meta["seed"])
    rotate = bool(meta.get("rotate_seats"))
    n_rot = P if rotate else 1
    driver, reference, rules_mod = _modules(spec)
    rules = _rules(meta, rules_mod)
    loader = registry.import_hook(spec.strategies)
    names = strategies or ",".join(meta.get("strategies") or [spec.default_strategy])
    try:
        with using_recorded_files(meta.get("strategy_files")):
            _, rows = loader.resolve(names, P)
    except UsageError as e:
        raise UsageError(f"the bots of this run ({names}) cannot be rebuilt here: {e}; give "
                         f"--strategies with the same bots") from None
    kw = {"rotate": True} if rotate else {}
    out = driver.run_chunk(rules, P, game, 1, seed, rows, trace_decisions=True, **kw)
    trace = out["trace"][0]
    log: list[str] = []
    player = _LoggedReplay(trace, reference, log)
    deal = game // n_rot
    record = reference.play_game(rules, P, seed, deal, strategies=[player] * P, log=log)
    if rotate and log:                   # the engine played the deal: say the run's game too
        log[0] = _the_runs_game(log[0], game, deal, game % n_rot)
    row = _row(run, game, P)
    grow = _games_row(run, game)
    played = row is None and not (run / "players.parquet").is_file()
    if played:        # no rows kept: the run's row as the kernel plays the game again
        row, kernel_games = played_rows(meta, game, strategies)
    seat_bots = row["strategy"] if row and "strategy" in row else None
    roles = spec.seat_roles(P) if not spec.roles_alike else None
    head = [f"{spec.title}: game {game} of run {run.name} ({P} players, run seed {seed}"
            + (f", deal {deal}, rotation {game % n_rot}" if rotate else "") + ")",
            f"Rules: {meta.get('rules_name') or 'the shipped rules'}",
            "Seats are numbered from 1 (P1 is seat 1, as in the reports); the reference engine "
            "replays the bots' recorded choices from the game's own random stream."]
    for s in range(P):
        who = seat_bots[s] if seat_bots else names.split(",")[s if "," in names else 0]
        role = f" ({roles[s]})" if roles else ""
        head.append(f"  seat {s + 1}{role}: {who}")
    figures, game_figures = record_columns(spec, meta, reference, record, game)
    lines = head + [""] + [people_seats(x) for x in log]
    lines += ["", "Final table"] + [people_seats(x) for x in reference.record_table(record)]
    lines += ending_lines(spec, reference, rules, record, P)
    diffs = _differences(spec, figures, row, P)
    if len(player.choices) != player.pos:
        diffs.append(f"the replay took {player.pos} of the {len(player.choices)} decisions the "
                     f"simulator made")
    if played:
        diffs += _games_differences(spec, kernel_games, grow)
    diffs += _game_differences(spec, game_figures, grow)
    checked_games = [c for c in game_figures if grow is not None and c in grow]
    lines += _check_lines(spec, figures, row, diffs, checked_games, played=played, counted=True)
    return Replay(game, lines, figures, row, diffs, played=played, game_figures=game_figures)


def _the_runs_game(header: str, game: int, deal: int, rotation: int) -> str:
    """The reference engine's header line, which names the game it played (``… seed 0, game 1``),
    as a run with rotated seats numbers it: the engine played the deal's stream, so ``game 1``
    becomes ``game 5 of the run: deal 1, rotation 1`` (review s46 #8: the log said "game 1" under a
    header saying game 5). A header that does not end with the deal is left as it is."""
    return re.sub(rf"\bgame {deal}$", f"game {game} of the run: deal {deal}, rotation {rotation}",
                  header, count=1)


# ---------------------------------------------------------------------------------------------
# How the game was decided: the ending rule, its tie-breaks, in the rule's words
# ---------------------------------------------------------------------------------------------

def ending_lines(spec, reference, rules, record, P: int) -> list[str]:
    """The lines, after the final table, saying which rule decided the game: which tie-break of
    the game's ending rule picked the winner, or that the win was shared, from the game's reference
    engine (``reference.ending_words(rules, record, P)``, lines; [] for a game without it)."""
    own = getattr(reference, "ending_words", None)
    return ["", *own(rules, record, P)] if own is not None else []




def _words(spec, column: str) -> str:
    """A column as the reports name it (the spec's ``display``: ``win_share`` is "win share",
    Middle-Ages' ``score`` "coins"), for the lines a designer reads."""
    try:
        return spec.column(column).label
    except KeyError:
        return column.replace("_", " ")


def _listed(words: list[str]) -> str:
    """``a, b and c``."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _check_lines(spec, figures: dict, row, diffs: list[str], game_columns: list[str] = (),
                 played: bool = False, counted: bool = False) -> list[str]:
    """The closing lines of a replay log: a blank line, then no record to compare with, the
    differences from the run's records, or the columns that agree, in the reports' words ("the
    final coins, win share, rank, Champs … Palais tiles, … of every seat match the run's records",
    a run of columns of one group by its first and last), and how many were compared.
    ``game_columns``: the game's own columns also checked against the run's record of the game
    (games.parquet: Middle-Ages' event ids, a Fief combat's winner, rounds …). ``played``: the run
    kept no players.parquet, so its per-seat record is the simulator's, played again
    (:func:`played_rows`), and that game's record was checked against games.parquet.
    ``counted``: the line ends with how many columns were compared ("(37 per-seat columns and 5
    of the game's)"), for a replay that compares every column the record gives
    (:func:`record_columns`)."""
    if row is None:
        return ["", "Check: the run holds no per-seat record of this game; nothing to compare with."]
    compared = ("the game played again by the simulator (the run kept no per-seat records)"
                if played else "the run's records")
    if diffs:
        return ["", f"CHECK FAILED: the replay differs from {compared}:"] + [f"  {d}" for d in diffs]
    seat_columns = [c for c in figures if c in row]
    checked = _listed(_column_words(spec, seat_columns))
    game = (f", and so do the game's {_game_figures(spec, game_columns)}" if game_columns else "")
    count = "" if not counted else (
        f" ({len(seat_columns)} per-seat column{'s' if len(seat_columns) != 1 else ''}"
        + (f" and {len(game_columns)} of the game's)" if game_columns else ")"))
    if played:
        return ["", f"Check: the final {checked} of every seat match the game played again by the "
                    f"simulator (the run kept no per-seat records), whose record of the game "
                    f"matches the run's{game}{count}."]
    return ["", f"Check: the final {checked} of every seat match the run's records{game}{count}."]


def _column_words(spec, columns) -> list[str]:
    """``columns`` as the reports name them (:func:`_words`), in order, four or more in a row of one
    group (a type, event or turn each) said as the first and the last: "Champs … Palais tiles"
    (the group's unit added when it is the group itself and no label says it), "coins after turn
    1 … coins after turn 16"."""
    def col(c):
        try:
            return spec.column(c)
        except KeyError:
            return None
    cols = [(c, col(c)) for c in columns]
    out, i = [], 0
    while i < len(cols):
        first = cols[i][1]
        j = i
        while (first is not None and first.group and j + 1 < len(cols) and cols[j + 1][1] is not None
               and cols[j + 1][1].group == first.group):
            j += 1
        if j - i >= 3:
            unit = first.unit if first.unit == first.group and first.unit not in first.label else ""
            out.append(f"{first.label} … {cols[j][1].label}" + (f" {unit}" if unit else ""))
        else:
            out += [_words(spec, c) for c, _ in cols[i:j + 1]]
        i = j + 1
    return out


def _game_figures(spec, columns) -> str:
    """The game's figures a replay checked, in words: its measures listed (:func:`_column_words`),
    then each yes-or-no column as "whether it ended by the loser's surrender (mercy granted)"
    (Fief's ``by_mercy``, FF-3), which read as a noun in mid-list before."""
    def flag(c):
        try:
            return spec.column(c).dtype == "bool"
        except KeyError:
            return False
    words = _column_words(spec, [c for c in columns if not flag(c)])
    words += [f"whether it {_words(spec, c)}" for c in columns if flag(c)]
    return _listed(words)


def _same(a, b) -> bool:
    """A replayed value and the recorded one agree: numbers to a millionth (win shares are float32
    in the files), anything else (a role's name) exactly."""
    if isinstance(a, str) or isinstance(b, str) or a is None or b is None:
        return a == b
    a, b = float(a), float(b)
    return abs(a - b) <= 1e-6 * max(1.0, abs(b))


def _differences(spec, figures: dict[str, list], row: dict[str, list] | None, P: int) -> list[str]:
    """Every seat and column where the replay's record differs from the run's row: "seat 1 Champs:
    the replay has 0, the run 5 (tiles_champs)"."""
    if row is None:
        return []
    out = []
    for c, ref in figures.items():
        if c not in row:
            continue
        for s in range(P):
            if not _same(ref[s], row[c][s]):
                out.append(f"seat {s + 1} {_words(spec, c)}: the replay has {ref[s]}, the run "
                           f"{row[c][s]} ({c})")
    return out


def _game_differences(spec, figures: dict, stored: dict | None) -> list[str]:
    """Every column where the replay's record of the game differs from games.parquet's row: "the
    game's event 1: the replay has 1, the run 7 (event_1)"."""
    if stored is None:
        return []
    return [f"the game's {_words(spec, c)}: the replay has {v}, the run {stored[c]} ({c})"
            for c, v in figures.items() if c in stored and not _same(v, stored[c])]


# ---------------------------------------------------------------------------------------------
# --find
# ---------------------------------------------------------------------------------------------

_FIND = re.compile(r"^\s*(?:(seat|role|strategy)\s*=\s*(\S+)\s+)?(?:(wins|loses)\s+)?"
                   r"(max|min|median)\s+([A-Za-z_][A-Za-z0-9_]*)\s*$")


def find_game(run: str | Path, query: str, strategies: str | None = None,
              progress=None, notice=None) -> tuple[int, str]:
    """The game the ``query`` (:data:`FIND_GRAMMAR`) picks, and a sentence saying why. Ties go to
    the lowest game number, so the answer is reproducible.

    From players.parquet when the run kept it; else every game of the run is played again by the
    runner (:func:`prepare_run`: the same rows, as every game draws from its own stream) and
    reduced chunk by chunk to a count and the first game per value of the column, so memory does
    not grow with the run (1e6 4-player Middle-Ages games: a few seconds on 2 cores).
    ``notice(text)`` is called once before such a replay, ``progress(done, total)`` after each
    chunk."""
    run = Path(run)
    meta = read_meta(run)
    verify_integrity(run, meta)           # not another run's rows (review s46 #4)
    P = int(meta["players"])
    spec = registry.get(meta["game"])
    m = _FIND.match(query)
    if not m:
        raise UsageError(f"--find {query!r}: expected {FIND_GRAMMAR}, {find_examples(spec, P)}")
    who, value, outcome, how, column = m.groups()
    if who == "seat" and (not value.isdigit() or not 1 <= int(value) <= P):
        raise UsageError(f"--find seat={value}: seats are numbered 1 to {P}")
    if who == "role":
        _check_role(spec, value, P, meta)
    c = _spec_column(spec, column)
    if c is not None and c.dtype == "string":     # a traceback from the cast before (review s60)
        raise UsageError(f"--find {query!r}: {c.label} is text, not a number to rank; "
                         f"{find_examples(spec, P)}")
    coded = _not_an_amount(spec, column)
    if coded is not None:         # "the highest winner (2; …)": a code ranked (review s60 fix 250)
        table = "games" if _game_column(spec, column) else "players"
        raise UsageError(f"--find {query!r}: {column} is {coded}, not an amount to rank; --find "
                         f"ranks amounts and filters only by seat, role, bot and wins/loses: each "
                         f"game's {column} is in `balance export {run} --what {table} --out -`, "
                         f"and `balance replay {run} --game N` replays the one you pick")
    if (run / "players.parquet").is_file():
        found = _find_in_rows(run, query, who, value, outcome, how, column, P, spec)
    else:
        found = _find_by_playing(run, meta, query, who, value, outcome, how, column, P, spec,
                                 strategies, progress, notice)
    target, game, n, n_games = found.value, found.game, found.rows, found.games
    # with no seat named: "the winner" / "a loser" / "a player" (a designer read "a game wins with
    # the lowest score")
    anyone = {"wins": "the winner", "loses": "a loser", None: "a player"}[outcome]
    role = ""
    if who == "role":           # "the Seigneur" (one seat), "a Censitaire" (several)
        one = spec.seat_roles(P).count(value.lower()) == 1
        role = ("the " if one else "a ") + spec.role_display(value.lower())
    what = {"seat": f"seat {value}", "role": role,
            "strategy": f"a seat played by {value}", None: anyone}[who]
    verb = {"wins": " wins", "loses": " loses", None: ""}[outcome] if who is not None else ""
    shown = int(target) if float(target).is_integer() else round(float(target), 3)
    among = _among_kept(spec, who, value, outcome, P, column, found)
    if who is None and outcome is None and _game_column(spec, column):
        # a column of the game, not of a player: "the game with the most Seigneur's square (…;
        # among the run's 5,000 games)", not "a player with …, among the 20,000 seats" (review s52)
        what = "the game"
        among = (f"among the run's {n_games:,} games" if found.rows == found.all_rows else
                 f"among the {n_games:,} of the run's {found.all_games:,} games that "
                 f"{spec.column(column).having}")
    return game, (f"game {game}: {what}{verb} {_which(spec, how, column)} "
                  f"({_with_unit(spec, column, shown)}; {among})")


def _game_column(spec, column: str) -> bool:
    """Whether ``column`` is one of games.parquet's, not players.parquet's."""
    players = {c.name for c in spec.player_columns} | {"game", "seat", "strategy"}
    return column not in players and column in {c.name for c in spec.game_columns}


def _spec_column(spec, column: str):
    """The spec's :class:`~simcore.contract.Column` named ``column`` (the place columns ``game``,
    ``seat`` … included), or None."""
    try:
        return spec.column(column)
    except KeyError:
        return None


def _value_is(spec, column: str) -> str:
    """What kind of number ``column`` holds (:attr:`simcore.contract.Column.value_is`: ``"seat"``,
    ``"turn"``, ``"index"``, ``""`` for an amount)."""
    c = _spec_column(spec, column)
    return c.value_is if c is not None else ""


def _not_an_amount(spec, column: str) -> str | None:
    """What ``column`` holds when its values are codes or a yes/no rather than amounts ("a code
    (0 attacker, 1 defender, 2 both_wiped)": :attr:`Column.labels`, Fief's ``winner``, FF-3,
    Médiévallons' and Seigneurial's ``end_reason``, MV-6, MV-7, SG-6; "a yes or no (…)": a
    ``bool`` column, Fief's ``by_mercy``, FF-3), or None for an amount. ``--find`` refuses to rank
    those (review s60 fix 250: "the game with the highest winner (2; …)")."""
    c = _spec_column(spec, column)
    if c is None:
        return None
    if c.labels:
        return "a code (" + ", ".join(f"{code} {name}" for code, name, *_ in c.labels) + ")"
    if c.dtype == "bool":
        return f"a yes or no (1 yes, 0 no: whether it {_words(spec, column)})"
    return None


def _never(spec, column: str):
    """The value of ``column`` that means "never" or "none" (:attr:`Column.never`: Seigneurial's
    ``improvement_turn``, ``winning_seat`` and ``objective`` -1), or None: ``--find`` leaves those
    rows out of its min, max and median."""
    c = _spec_column(spec, column)
    return None if c is None or c.never is None else float(c.never)


@dataclass
class _Found:
    """What ``--find`` found: the ``value`` and the lowest ``game`` holding it, among ``rows``
    candidate rows of ``games`` games, after the rows whose value means "never" were left out of
    ``all_rows`` rows of ``all_games`` games."""

    value: float
    game: int
    rows: int
    games: int
    all_rows: int
    all_games: int


def _among_kept(spec, who, value, outcome, P: int, column: str, found: _Found) -> str:
    """:func:`_among` for what ``--find`` kept, saying which rows were kept when some were left out
    for holding the column's ``never`` value (Seigneurial: the land improvements that never came,
    SG-5.6; a truncated game's shared win, SG-6; the Seigneur, who holds no Objective card, SG-2;
    review s60: the -1 was ranked as a number). A game's column leaves out whole games: "among the
    6,117 of the run's 20,000 games that had land improvements", "among the 12,316 times a
    Censitaire lost, in 6,117 games that had land improvements"; a player's column leaves out
    seats: "among the 80,000 seats of 20,000 games, the 60,000 that held an Objective card"."""
    if found.rows == found.all_rows:
        return _among(spec, who, value, outcome, found.rows, found.games, P)
    having = spec.column(column).having
    if not _game_column(spec, column):
        return (f"{_among(spec, who, value, outcome, found.all_rows, found.all_games, P)}, the "
                f"{found.rows:,} that {having}")
    among = _among(spec, who, value, outcome, found.rows, found.games, P)
    if among.startswith("among the run's "):          # seat=N or the Seigneur, win or lose alike
        return f"among the {found.games:,} of the run's {found.all_games:,} games that {having}"
    return f"{among} that {having}"


def _leave_out_never(df, spec, column: str, query: str):
    """``df`` (the query's candidate rows) without the rows whose ``column`` holds its ``never``
    value; one line (:class:`UsageError`, exit code 2) when no row is left."""
    import polars as pl

    never = _never(spec, column)
    if never is None:
        return df
    kept = df.filter(pl.col(column).cast(pl.Float64) != never)
    if kept.is_empty():
        raise UsageError(_none_has(spec, column, query, df.height, df["game"].n_unique()))
    return kept


def _none_has(spec, column: str, query: str, rows: int, games: int) -> str:
    """The line for a query none of whose rows has a value (all of them ``never``)."""
    c = spec.column(column)
    never = int(c.never) if float(c.never).is_integer() else c.never
    if _game_column(spec, column):
        return (f"--find {query!r}: none of the {games:,} games it looks among {c.having} "
                f"({c.label} {never} in every one), so there is no game to pick")
    return (f"--find {query!r}: none of the {rows:,} seats it looks among {c.having} "
            f"({c.label} {never} for every one), so there is no game to pick")


def _find_unit(spec, column: str) -> str:
    """The unit a value of ``column`` is said in: the spec's, and "player turns" for a game whose
    turns are each one player's (``extra["player_turns"]``: Médiévallons, MV-3), as the reports
    say its length."""
    try:
        unit = spec.column(column).unit
    except KeyError:
        return ""
    return "player turns" if unit == "turns" and spec.extra.get("player_turns") else unit


def _which(spec, how: str, column: str) -> str:
    """What ``--find`` picked, in the reports' words for the column: "with the most coins", "with
    the fewest player turns" for a count, "with the highest goal progress" for a share or a
    figure without a unit, "with coins at the median" (review W #11: "a game with a median
    turns"; the typed name itself, "with the highest rounds", was echoed before)."""
    unit = _find_unit(spec, column)
    label = unit if unit == "player turns" else _words(spec, column)
    if how == "median":
        return f"with {label} at the median"
    if _value_is(spec, column) == "turn":     # a moment, not a count: "the fewest improvement turn"
        return f"with the {'latest' if how == 'max' else 'earliest'} {label}"    # (review s60)
    count = bool(unit) and not unit.startswith("%")
    more, less = ("most", "fewest") if count else ("highest", "lowest")
    return f"with the {more if how == 'max' else less} {label}"


def _with_unit(spec, column: str, value) -> str:
    """``221 coins``, ``100% of own goal``, ``52 player turns``, ``3``: a value of ``column`` with
    the unit :func:`_find_unit` says it in; a seat index as a person counts seats, from 1 (``seat
    1`` for Seigneurial's ``winning_seat`` 0), a place in a list of the rules from #1 (``#1`` for
    its ``objective`` 0, as the log numbers the card) and the turn something happened at as ``turn
    5`` (``improvement_turn``; "5 turns" read as a length; review s60)."""
    kind = _value_is(spec, column)
    if kind == "seat":
        return f"seat {int(value) + 1}"
    if kind == "index":         # Seigneurial's Objective card #1 is objectives.cards[0]
        return f"#{int(value) + 1}"
    if kind == "turn":
        return f"turn {value}"
    unit = _find_unit(spec, column)
    if not unit:
        return str(value)
    return f"{value}{unit}" if unit.startswith("%") else f"{value} {unit}"


def _among(spec, who, value, outcome, rows: int, games: int, P: int) -> str:
    """What ``--find`` chose among, in words: the ``rows`` player rows the query's seat, role or bot
    and outcome select, in ``games`` games. A seat has one row a game ("among the 16,052 games seat 1
    lost"); a role, a bot or any seat may have several ("among the 9,120 times a Censitaire lost,
    in 4,000 games", "among the 3,550 losers of 1,200 games")."""
    did = {"wins": "won", "loses": "lost", None: ""}[outcome]
    if who == "seat":
        return f"among the {games:,} games seat {value} {did}" if did else f"among the run's {games:,} games"
    if who == "role":
        name = spec.role_display(value.lower())
        if spec.seat_roles(P).count(value.lower()) == 1:     # the Seigneur, Fief's attacker
            return (f"among the {games:,} games the {name} {did}" if did
                    else f"among the run's {games:,} games")
        subject, seats = f"a {name}", f"{name} seats"
    elif who == "strategy":
        subject, seats = f"a seat played by {value}", f"seats played by {value}"
    else:               # any seat: "among the 3,550 losers of 1,200 games"
        seats = {"wins": "winners", "loses": "losers", None: "seats"}[outcome]
        return f"among the {rows:,} {seats} of {games:,} games"
    if did:
        return f"among the {rows:,} times {subject} {did}, in {games:,} games"
    return f"among the {rows:,} {seats} of {games:,} games"


def _check_role(spec, value: str, P: int, meta: dict) -> None:
    """``--find role=VALUE``: one line when the game's seats all play alike (it has no roles: what
    --find takes instead) or the game has no role of that name. A game of several roles takes
    their names: Seigneurial's ``seigneur`` and ``censitaire``, Fief's ``attacker`` and
    ``defender`` (one seat each)."""
    roles = list(dict.fromkeys(spec.seat_roles(P)))
    if len(roles) > 1:
        if value.lower() not in roles:
            raise UsageError(f"--find role={value}: {spec.title}'s roles are {', '.join(roles)}")
        return
    instead = f"pick a seat with seat=N (1 to {P})"
    if spec.strategies is not None:
        bots = list(dict.fromkeys(str(b) for b in meta.get("strategies") or []))
        instead += " or a bot with strategy=NAME" + (f" ({', '.join(bots)} in this run)" if bots else "")
    raise UsageError(f"--find role={value}: {spec.title} has no roles (every seat plays alike); {instead}")


def _candidates(df, who, value, outcome, P, spec):
    """The rows of ``df`` the query's seat, role or strategy and outcome select."""
    import polars as pl

    if who == "seat":
        df = df.filter(pl.col("seat") == int(value) - 1)
    elif who == "role":
        seats = [s for s, r in enumerate(spec.seat_roles(P)) if r == value.lower()]
        df = df.filter(pl.col("seat").is_in(seats))
    elif who == "strategy":
        df = df.filter(pl.col("strategy") == value)
    if outcome == "wins":
        df = df.filter(pl.col("win_share") == 1)
    elif outcome == "loses":
        df = df.filter(pl.col("win_share") == 0)
    return df


def _find_in_rows(run: Path, query: str, who, value, outcome, how, column, P, spec) -> _Found:
    """What the query finds (:class:`_Found`) read from players.parquet (and games.parquet): the
    candidate rows, less those whose value means "never" (:func:`_leave_out_never`)."""
    import polars as pl

    df = pl.read_parquet(run / "players.parquet")
    games_path = run / "games.parquet"
    if column not in df.columns and games_path.is_file():
        g = pl.read_parquet(games_path)
        if column in g.columns:
            df = df.join(g.select("game", column), on="game")
    if column not in df.columns:
        raise UsageError(f"--find: no column {column!r}; columns: " + ", ".join(df.columns))
    if who == "strategy" and df.filter(pl.col("strategy") == value).is_empty():
        raise UsageError(_no_such_bot(value, df["strategy"].unique().sort().to_list()))
    df = _candidates(df, who, value, outcome, P, spec)
    if df.is_empty():
        raise UsageError(f"--find {query!r}: no game of the run matches")
    all_rows, all_games = df.height, df["game"].n_unique()
    df = _leave_out_never(df, spec, column, query).sort(["game", "seat"])
    vals = df[column].cast(pl.Float64)
    if how == "max":
        target = vals.max()
    elif how == "min":
        target = vals.min()
    else:
        target = float(np.sort(vals.to_numpy())[(len(vals) - 1) // 2])
    pick = df.filter(vals == target).row(0, named=True)
    return _Found(float(target), int(pick["game"]), df.height, df["game"].n_unique(), all_rows,
                  all_games)


def _no_such_bot(value: str, played: list[str]) -> str:
    """``--find strategy=VALUE`` naming no bot of the run: the one line, with the bots it played
    and the closest of them."""
    from simcore.config import did_you_mean

    return (f"--find strategy={value}: no seat of this run played it{did_you_mean(value, played)} "
            f"(its bots: {', '.join(played)})")


def _find_by_playing(run: Path, meta: dict, query: str, who, value, outcome, how, column, P, spec, strategies,
                     progress, notice) -> _Found:
    """What the query finds (:class:`_Found`) over the run's games played again (no rows kept):
    per chunk, the candidate rows' count and lowest game per value of the column, and the games
    they come from, with and without the rows whose value means "never" (a chunk holds whole
    games, so the chunks' counts add up); those rows are then left out as :func:`_find_in_rows`
    leaves them out, so both pick the same game."""
    import polars as pl

    from simcore import runner

    prep = prepare_run(meta, strategies)
    pcols, gcols = list(prep.players_schema.names), list(prep.games_schema.names)
    if column not in pcols and column not in gcols:
        raise UsageError(f"--find: no column {column!r}; columns: " + ", ".join(pcols))
    if who == "strategy" and value not in prep.strategy_names:
        raise UsageError(_no_such_bot(value, sorted(set(prep.strategy_names))))
    keep = tuple(c for c in pcols if c in ("game", "seat", "strategy", "win_share", column))
    games, seed = int(meta["games"]), int(meta["seed"])
    if notice is not None:
        notice(f"{run} kept no players.parquet: playing its {games:,} games again to find the "
               f"game (the same games: each draws from its own stream (seed, game))")
    counts: dict[float, list[int]] = {}          # value → [candidate rows, lowest game]
    never = _never(spec, column)
    done = n_games = games_having = 0

    def sink(part) -> None:
        nonlocal done, n_games, games_having
        df = pl.from_arrow(part.players)
        if column not in df.columns:
            df = df.join(pl.from_arrow(part.games).select("game", column), on="game")
        df = _candidates(df, who, value, outcome, P, spec)
        n_games += df["game"].n_unique()
        games_having += (df if never is None else df.filter(pl.col(column).cast(pl.Float64) != never)
                         )["game"].n_unique()
        by_value = df.group_by(pl.col(column).cast(pl.Float64).alias("v")).agg(
            pl.len().alias("n"), pl.col("game").min().alias("first"))
        for v, n, first in by_value.iter_rows():
            c = counts.get(v)
            if c is None:
                counts[v] = [int(n), int(first)]
            else:
                c[0] += int(n)
                c[1] = min(c[1], int(first))
        done += part.n
        if progress is not None:
            progress(done, games)

    ex = runner.LocalExecutor()
    ex.warm(prep)
    plan = runner.PartPlan(keep, full_summaries=False, statistics=False)
    size = prep.default_chunk or runner.DEFAULT_CHUNK
    ex.play(prep, runner.chunk_spans(games, size, unit=prep.games_per_deal), seed, plan, sink)
    if not counts:
        raise UsageError(f"--find {query!r}: no game of the run matches")
    all_rows = sum(c[0] for c in counts.values())
    if never is not None:
        counts.pop(never, None)
        if not counts:
            raise UsageError(_none_has(spec, column, query, all_rows, n_games))
    values = sorted(counts)
    n = sum(c[0] for c in counts.values())
    if how == "max":
        target = values[-1]
    elif how == "min":
        target = values[0]
    else:
        k, seen = (n - 1) // 2, 0
        for target in values:
            seen += counts[target][0]
            if seen > k:
                break
    return _Found(float(target), counts[target][1], n, games_having, all_rows, n_games)
