"""Replay any game of any run: its turn-by-turn log from the reference engine, checked against the run.

A run directory's run.json records everything a game depends on: the game, player count, run seed,
the bots of every seat (and ``rotate_seats``) and the rules text as played (after any ``--set`` or
rules file). :func:`replay` rebuilds game ``N`` from that: the Numba kernel plays it once more with
its decision trace on (game ``N`` draws from the stream (seed, N), or (seed, N // P) with rotated
seats, so one game alone reproduces it exactly), then the game's pure-Python reference engine
(``reference.py`` beside the game's adapter) plays the same game from the same seed, taking the
bots' recorded choices (:class:`simcore.reference_strategies.ReplayStrategy`, one draw per decision
as the kernel spends it) and writing its readable log: every decision with its options, every
draw, the scores turn by turn, then the final table. The reference's final figures are then checked
against the run's rows in ``players.parquet`` (score, win share, rank and every per-seat column both
know), and a clear line says whether they agree.

A game without bots or decisions (Fief combats: dice only) is replayed by its reference engine's
own ``replay_run(meta, game)`` (:func:`run_hook`): the combat is rebuilt from run.json's matchup
and rules and played from its stream (seed, game), the kernel's; its final figures are checked
against players.parquet and games.parquet.

:func:`find_game` picks a game by a small grammar (:data:`FIND_GRAMMAR`): ``[seat=N|role=R|strategy=S]
[wins|loses] (max|min|median) COLUMN`` — "a game where seat 1 loses with the most coins" is
``seat=1 loses max score``. Seats are numbered from 1 here, as everywhere a person reads them.

Seats in the log are printed 1-based (``P1`` is seat 1), as in the reports; the reference engines'
own golden files keep their 0-based ``P0``.

May import numpy, pyarrow, the standard library and :mod:`simcore` (the game's modules and its
strategy loader through the registry's module names, as :mod:`simcore.runner` does).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq

from simcore import games as registry
from simcore.errors import UsageError
from simcore.reference_strategies import ReplayStrategy

FIND_GRAMMAR = ("[seat=N | role=NAME | strategy=NAME] [wins | loses] (max | min | median) COLUMN, "
                "e.g. 'seat=1 loses max score', 'median turns', 'role=seigneur wins min turns'")


@dataclass
class Replay:
    """A replayed game: its log lines, the reference's final per-seat figures, and the check."""

    game: int
    lines: list[str]
    figures: dict[str, list]                       # column → per-seat values (reference engine)
    row: dict[str, list] | None                    # column → per-seat values (players.parquet)
    differences: list[str] = field(default_factory=list)

    @property
    def matches(self) -> bool:
        return self.row is not None and not self.differences

    @property
    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def read_meta(run: str | Path) -> dict:
    path = Path(run) / "run.json"
    if not path.is_file():
        raise UsageError(f"{run}: not a run directory (no run.json)")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise UsageError(f"{path}: cannot be read ({e})") from None


def _modules(spec):
    """The game's kernel driver, reference engine and rules loader (the spec's module names)."""
    return (registry.import_hook(spec.module_folder + ".driver"),
            registry.import_hook(spec.reference_module), registry.import_hook(spec.rules_module))


def run_hook(spec):
    """The reference's own ``replay_run(meta, game)`` when the game has one, else None.

    A game without bots or decisions (Fief combats: dice only) is replayed by its reference engine
    alone, from run.json's record of the matchup and rules and the game's stream (seed, game); the
    hook returns the log and the final figures of players.parquet and games.parquet
    (``lines``, ``seat_figures``, ``game_figures``)."""
    import importlib.util

    name = spec.module_folder + ".reference"
    try:
        found = importlib.util.find_spec(name)
    except ImportError:
        found = None
    if found is None:
        return None
    return getattr(registry.import_hook(name), "replay_run", None)


def can_replay(spec) -> bool:
    """Whether ``balance replay`` (and ``simulate --log``) can replay this game's runs."""
    return bool(spec.reference and spec.strategies is not None) or run_hook(spec) is not None


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
    from simcore.config import parse_toml

    text = meta.get("rules_text")
    if not text:
        return rules_mod.load()
    return rules_mod.load(parse_toml(text, name=str(meta.get("rules_name") or "run.json rules_text")))


class _LoggedReplay(ReplayStrategy):
    """Plays back the kernel's choices and writes each decision, with its options, into ``log``."""

    def __init__(self, choices, reference, log: list, shown: int = 8) -> None:
        super().__init__(choices, consume_draw=True)
        self.reference, self.log, self.shown = reference, log, shown

    def choose(self, kind, options, state, seat, rng):
        i = super().choose(kind, options, state, seat, rng)
        text = getattr(self.reference, "option_text", None)
        if text is None:                  # the engine's own log says what was done (Middle-Ages)
            return i
        shown = ", ".join(text(kind, o) for o in options[:self.shown])
        more = f", … ({len(options)} in all)" if len(options) > self.shown else ""
        self.log.append(f"      [{kind}] P{seat} chooses {text(kind, options[i])}  (options: {shown}{more})")
        return i


_SEAT = re.compile(r"\bP(\d)\b")


def people_seats(line: str) -> str:
    """``P0`` … of a reference log as the reports number seats: ``P1`` is seat 1."""
    return _SEAT.sub(lambda m: f"P{int(m.group(1)) + 1}", line)


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


def _replay_by_hook(run: Path, meta: dict, spec, game: int, hook) -> Replay:
    """A game its reference replays alone (:func:`run_hook`), checked against players.parquet and
    games.parquet."""
    P, seed = int(meta["players"]), int(meta["seed"])
    result = hook(meta, game)
    row = _row(run, game, P)
    grow = _games_row(run, game)
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
    diffs = _differences(figures, row, P)
    if grow is not None:
        for c, v in result.game_figures.items():
            if c in grow and not abs(float(v) - float(grow[c])) <= 1e-6 * max(1.0, abs(float(grow[c]))):
                diffs.append(f"game {c}: replay {v}, run {grow[c]}")
    extra = [c for c in result.game_figures if grow is not None and c in grow]
    lines += _check_lines(figures, row, diffs, "the run's rows",
                          f"; its {', '.join(extra)} equal games.parquet's row." if extra else ".")
    return Replay(game, lines, figures, row, diffs)


def replay(run: str | Path, game: int, strategies: str | None = None) -> Replay:
    """Replay game ``game`` of the run in ``run`` (see the module docstring)."""
    run = Path(run)
    meta = read_meta(run)
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
    row = _row(run, game, P)
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
    figures = {k: v.tolist() for k, v in vars(record).items()
               if isinstance(v, np.ndarray) and v.shape == (P,)}
    lines = head + [""] + [people_seats(x) for x in log]
    lines += ["", "Final table"] + [people_seats(x) for x in reference.record_table(record)]
    diffs = _differences(figures, row, P)
    if len(player.choices) != player.pos:
        diffs.append(f"the reference took {player.pos} of the kernel's {len(player.choices)} decisions")
    lines += _check_lines(figures, row, diffs, "the run's row in players.parquet", ".")
    return Replay(game, lines, figures, row, diffs)


def _check_lines(figures: dict, row, diffs: list[str], compared: str, tail: str) -> list[str]:
    """The closing lines of a replay log: a blank line, then no rows to compare with, the
    differences from ``compared`` (the run's rows), or the figures that agree (``tail`` ends it)."""
    if row is None:
        return ["", "Check: the run kept no players.parquet rows for this game (--no-raw); "
                    "nothing to compare with."]
    if diffs:
        return ["", f"CHECK FAILED: the replay differs from {compared}:"] + [f"  {d}" for d in diffs]
    checked = ", ".join(c for c in figures if c in row)
    return ["", f"Check: the final {checked} of every seat equal the run's row in players.parquet{tail}"]


def _differences(figures: dict[str, list], row: dict[str, list] | None, P: int) -> list[str]:
    if row is None:
        return []
    out = []
    for c, ref in figures.items():
        if c not in row:
            continue
        for s in range(P):
            a, b = float(ref[s]), float(row[c][s])
            if not (abs(a - b) <= 1e-6 * max(1.0, abs(b))):
                out.append(f"seat {s + 1} {c}: replay {ref[s]}, run {row[c][s]}")
    return out


# ---------------------------------------------------------------------------------------------
# --find
# ---------------------------------------------------------------------------------------------

_FIND = re.compile(r"^\s*(?:(seat|role|strategy)\s*=\s*(\S+)\s+)?(?:(wins|loses)\s+)?"
                   r"(max|min|median)\s+([A-Za-z_][A-Za-z0-9_]*)\s*$")


def find_game(run: str | Path, query: str) -> tuple[int, str]:
    """The game the ``query`` (:data:`FIND_GRAMMAR`) picks, and a sentence saying why. Ties go to
    the lowest game number, so the answer is reproducible."""
    import polars as pl

    run = Path(run)
    meta = read_meta(run)
    m = _FIND.match(query)
    if not m:
        raise UsageError(f"--find {query!r}: expected {FIND_GRAMMAR}")
    who, value, outcome, how, column = m.groups()
    path = run / "players.parquet"
    if not path.is_file():
        raise UsageError(f"--find: {run} kept no players.parquet (simulated with --no-raw)")
    df = pl.read_parquet(path)
    games_path = run / "games.parquet"
    if column not in df.columns and games_path.is_file():
        g = pl.read_parquet(games_path)
        if column in g.columns:
            df = df.join(g.select("game", column), on="game")
    if column not in df.columns:
        raise UsageError(f"--find: no column {column!r}; columns: " + ", ".join(df.columns))
    P = int(meta["players"])
    spec = registry.get(meta["game"])
    what = "a game"
    if who == "seat":
        if not value.isdigit() or not 1 <= int(value) <= P:
            raise UsageError(f"--find seat={value}: seats are numbered 1 to {P}")
        df = df.filter(pl.col("seat") == int(value) - 1)
        what = f"seat {value}"
    elif who == "role":
        roles = spec.seat_roles(P)
        seats = [s for s, r in enumerate(roles) if r == value.lower()]
        if not seats:
            raise UsageError(f"--find role={value}: roles are " + ", ".join(sorted(set(roles))))
        df = df.filter(pl.col("seat").is_in(seats))
        what = f"the {value}"
    elif who == "strategy":
        df = df.filter(pl.col("strategy") == value)
        if df.is_empty():
            raise UsageError(f"--find strategy={value}: no seat of this run played it")
        what = f"a seat played by {value}"
    if outcome == "wins":
        df = df.filter(pl.col("win_share") > 0)
    elif outcome == "loses":
        df = df.filter(pl.col("win_share") == 0)
    if df.is_empty():
        raise UsageError(f"--find {query!r}: no game of the run matches")
    df = df.sort(["game", "seat"])
    vals = df[column].cast(pl.Float64)
    if how == "max":
        target = vals.max()
    elif how == "min":
        target = vals.min()
    else:
        target = float(np.sort(vals.to_numpy())[(len(vals) - 1) // 2])
    pick = df.filter(vals == target).row(0, named=True)
    word = {"max": "the highest", "min": "the lowest", "median": "a median"}[how]
    verb = {"wins": " wins", "loses": " loses", None: ""}[outcome]
    shown = int(target) if float(target).is_integer() else round(float(target), 3)
    return int(pick["game"]), (f"game {pick['game']}: {what}{verb} with {word} {column} "
                               f"({shown}; {df.height} candidate rows)")
