"""Middle-Ages adapter for the runner: options → :class:`simcore.contract.PreparedRun`.

Declares the exact Arrow schemas of ``players.parquet`` and ``games.parquet`` (MA-12), validates
the player count and the tile supply (MA-7) before any game is played, and provides the per-chunk
play function for either engine: the Numba kernel (default) or the pure-Python reference
(``engine="reference"``, slow, for small runs and cross-checks).

May import numpy, pyarrow, :mod:`simcore.contract`, :mod:`simcore.errors` and this game's
modules (never :mod:`strategies`: the runner resolves the bots and passes their rows).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa

from simcore.errors import UsageError
from simcore.games.middle_ages import driver, rules as rules_mod
from simcore.games.middle_ages.layout import ERROR_TEXT
from simcore.games.middle_ages.rules import MAX_PLAYERS, MIN_PLAYERS, N_EVENTS, N_TURNS
from simcore.games.middle_ages.spec import BEFORE_COLS, GAIN_COLS, SPEC, TILE_COLS, TURN_COLS
from simcore.contract import (ChunkResult, PreparedRun, SeatStrategies, arrow_column,
                              raise_game_error)

GAME = SPEC.name
PLAYERS_SCHEMA = SPEC.players_schema()          # MA-12, from the spec's columns
ROTATED_SCHEMA = SPEC.players_schema(rotate_seats=True)
GAMES_SCHEMA = SPEC.games_schema()
DEFAULT_STRATEGY = SPEC.default_strategy
SUMMARY_COLUMNS = ("score", *TILE_COLS, "graveyard", "penalty", *GAIN_COLS)


def check_players(n_players: int) -> None:
    if not MIN_PLAYERS <= n_players <= MAX_PLAYERS:
        raise UsageError(f"--players {n_players}: Middle-Ages is played by {MIN_PLAYERS} to "
                         f"{MAX_PLAYERS} players (MA-1)")


def prepare(*, players: int = 4, bots: tuple[list[str], np.ndarray] | None = None,
            rules_path: str | Path | None = None, engine: str = "kernel",
            debug: bool = False, rotate_seats: bool = False, rules=None) -> PreparedRun:
    """Validate the options and build the run (rules loaded once; ``rules``: already loaded
    :class:`~simcore.games.middle_ages.rules.RulesArrays`, e.g. a deck with a card neutralised).

    ``bots`` is ``(names, rows)``: one strategy name and one strategy row per seat, as
    :func:`strategies.middle_ages.resolve` returns them (default: random at every seat)."""
    check_players(players)
    rules = rules if rules is not None else rules_mod.load(rules_path)
    rules_mod.check_tile_supply(rules, players)
    rules_mod.check_seats(rules, players)
    names, strat_rows = bots if bots is not None else (["random"] * players,
                                                       driver.random_strategies(players))
    n_rot = players if rotate_seats else 1
    rk = driver.pack_rules(rules)
    seat_strategies = SeatStrategies(names)

    if engine == "kernel":
        def play_raw(first, n, seed):
            return driver.run_chunk(rules, players, first, n, seed, strat_rows, debug=debug, rk=rk,
                                    rotate=rotate_seats)
    elif engine == "reference":
        def play_raw(first, n, seed):
            return _reference_chunk(rules, players, first, n, seed, names)
    else:
        raise UsageError(f"--engine {engine}: must be kernel or reference")

    def play(first: int, n: int, seed: int) -> ChunkResult:
        o = play_raw(first, n, seed)
        raise_game_error(o["error"], first, ERROR_TEXT)
        return ChunkResult(
            players=player_columns(o, first, n, seat_strategies, n_rot),
            games=game_columns(o, first, n, players))

    src = rules.source
    return PreparedRun(
        game=GAME, n_players=players, strategy_names=names,
        players_schema=ROTATED_SCHEMA if rotate_seats else PLAYERS_SCHEMA, games_per_deal=n_rot,
        games_schema=GAMES_SCHEMA, play=play,
        warmup=(lambda: driver.run_chunk(rules, players, 0, 1, 0, strat_rows, rk=rk))
        if engine == "kernel" else (lambda: None),
        rules_name=src.name, rules_text=src.text, rules_sha256=src.sha256,
        meta={"engine": engine, "debug": debug, "rotate_seats": rotate_seats,
              "event_names": {int(i): n for i, n in zip(rules.event_ids, rules.event_names)}},
        summary_columns=SUMMARY_COLUMNS,
        extra_summaries={"events_summary": lambda: EventSummary(players, int(rules.event_ids.max()) + 1)},
        compile_message="Compiling the Middle-Ages kernel (first run only; cached afterwards)")


def player_columns(o: dict, first: int, n: int, seats: SeatStrategies, n_rot: int = 1) -> dict:
    cols = seats.columns(first, n, n_rot)
    cols.update({
        "score": o["score"], "win_share": o["win_share"], "rank": o["rank"],
        "graveyard": o["graveyard"], "penalty": o["penalty"],
    })
    for i, c in enumerate(TILE_COLS):
        cols[c] = np.ascontiguousarray(o["tiles"][:, i])
    for k in range(N_EVENTS):
        cols[GAIN_COLS[k]] = np.ascontiguousarray(o["event_gain"][:, k])
        cols[BEFORE_COLS[k]] = np.ascontiguousarray(o["coins_before_event"][:, k])
    for t in range(N_TURNS):
        cols[TURN_COLS[t]] = np.ascontiguousarray(o["coins_by_turn"][:, t])
    return cols


def game_columns(o: dict, first: int, n: int, P: int) -> dict:
    cols = {"game": np.arange(first, first + n, dtype=np.int64),
            "n_players": np.full(n, P, np.int8), "reshuffles": o["reshuffles"]}
    for k in range(N_EVENTS):
        cols[f"event_{k + 1}"] = np.ascontiguousarray(o["events"][:, k])
    return cols


def _reference_chunk(rules, P: int, first: int, n: int, seed: int, names: list[str]) -> dict:
    """The same outputs as :func:`driver.run_chunk`, from the pure-Python reference engine."""
    from simcore.games.middle_ages import reference

    if any(nm != "random" for nm in names):
        raise UsageError("--engine reference plays the random strategy only "
                         "(other bots are checked by replaying the kernel's decisions)")
    recs = [reference.play_game(rules, P, seed, first + g) for g in range(n)]
    return dict(
        score=np.concatenate([r.score for r in recs]).astype(np.int32),
        win_share=np.concatenate([r.win_share for r in recs]).astype(np.float32),
        rank=np.concatenate([r.rank for r in recs]).astype(np.int8),
        tiles=np.concatenate([r.tiles for r in recs]).astype(np.int8),
        graveyard=np.concatenate([r.graveyard for r in recs]).astype(np.int8),
        penalty=np.concatenate([r.penalty for r in recs]).astype(np.int16),
        event_gain=np.concatenate([r.event_gain for r in recs]).astype(np.int16),
        coins_before_event=np.concatenate([r.coins_before_event for r in recs]).astype(np.int16),
        coins_by_turn=np.concatenate([r.coins_by_turn for r in recs]).astype(np.int16),
        events=np.stack([r.events for r in recs]).astype(np.int8),
        reshuffles=np.array([r.reshuffles for r in recs], np.int8),
        error=np.zeros(n, np.int16),
    )


class EventSummary:
    """Sufficient statistics of MA-8 event impact, kept for runs too large for raw rows.

    One row per (slot k = 1…4, event id, seat): ``players`` (player-games), ``gain_sum`` and
    ``gain_sq_sum`` (coins the event gave or took, MA-12), ``win_share_sum``. Mean gain and its
    standard error per event follow directly; ``events_summary.parquet`` in the run directory.
    """

    def __init__(self, n_players: int, n_ids: int) -> None:
        self.P, self.E = n_players, n_ids
        shape = (N_EVENTS, n_ids, n_players)
        self.n = np.zeros(shape, np.int64)
        self.gain = np.zeros(shape)
        self.gain_sq = np.zeros(shape)
        self.win = np.zeros(shape)

    def add(self, chunk: ChunkResult) -> None:
        P, E = self.P, self.E
        seat = np.asarray(chunk.players["seat"], np.int64)
        win = np.asarray(chunk.players["win_share"], np.float64)
        for k in range(N_EVENTS):
            ev = np.repeat(np.asarray(chunk.games[f"event_{k + 1}"], np.int64), P)
            key = ev * P + seat
            g = np.asarray(chunk.players[GAIN_COLS[k]], np.float64)
            self.n[k] += np.bincount(key, minlength=E * P).reshape(E, P)
            self.gain[k] += np.bincount(key, weights=g, minlength=E * P).reshape(E, P)
            self.gain_sq[k] += np.bincount(key, weights=g * g, minlength=E * P).reshape(E, P)
            self.win[k] += np.bincount(key, weights=win, minlength=E * P).reshape(E, P)

    def table(self) -> pa.Table:
        k, e, s = np.nonzero(self.n)
        i8, i64, f8 = pa.int8(), pa.int64(), pa.float64()
        return pa.table({
            "slot": arrow_column((k + 1).astype(np.int8), i8),
            "event": arrow_column(e.astype(np.int8), i8), "seat": arrow_column(s.astype(np.int8), i8),
            "players": arrow_column(self.n[k, e, s], i64),
            "gain_sum": arrow_column(self.gain[k, e, s], f8),
            "gain_sq_sum": arrow_column(self.gain_sq[k, e, s], f8),
            "win_share_sum": arrow_column(self.win[k, e, s], f8),
        })
