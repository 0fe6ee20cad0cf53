"""Middle-Ages adapter for the runner: options → :class:`simcore.contract.PreparedRun`.

Declares the exact Arrow schemas of ``players.parquet`` and ``games.parquet`` (MA-12), validates
the player count and the tile supply (MA-7) before any game is played, and provides the per-chunk
play function for either engine: the Numba kernel (default) or the pure-Python reference
(``engine="reference"``, slow, random bots only, for small runs and cross-checks), through the
shared skeleton :func:`simcore.adapter.player_run` (arrays named as the spec's columns and groups).

May import numpy, pyarrow, :mod:`simcore.contract`, :mod:`simcore.adapter`, :mod:`simcore.errors`,
:mod:`simcore.accumulate` (its jitted sums)
and this game's modules (never :mod:`strategies`: the runner resolves the bots and passes their rows).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa

from simcore.errors import UsageError
from simcore.games.middle_ages import driver, rules as rules_mod
from simcore.games.middle_ages.layout import ERROR_TEXT
from simcore.games.middle_ages.rules import MAX_PLAYERS, MIN_PLAYERS, N_EVENTS
from simcore.games.middle_ages.spec import GAIN_COLS, SPEC, TILE_COLS
from simcore.adapter import player_run, record_arrays
from simcore.contract import ChunkResult, PreparedRun, arrow_column

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
    rk = driver.pack_rules(rules)
    return player_run(
        SPEC, players=players, names=names, rules=rules, engine=engine,
        kernel=lambda first, n, seed: driver.run_chunk(rules, players, first, n, seed, strat_rows,
                                                       debug=debug, rk=rk, rotate=rotate_seats),
        reference=lambda first, n, seed: _reference_chunk(rules, players, first, n, seed, debug),
        warmup=lambda: driver.run_chunk(rules, players, 0, 1, 0, strat_rows, debug=debug, rk=rk),
        all_random=all(nm == "random" for nm in names), error_text=ERROR_TEXT,
        rotate_seats=rotate_seats, debug=debug,
        rename={"coins_by_turn": "coins_turn", "events": "event"},   # driver name -> spec group
        meta={"event_names": {int(i): n for i, n in zip(rules.event_ids, rules.event_names)}},
        summary_columns=SUMMARY_COLUMNS,
        extra_summaries={"events_summary": lambda: EventSummary(players, int(rules.event_ids.max()) + 1)})


def _reference_chunk(rules, P: int, first: int, n: int, seed: int, debug: bool = False) -> dict:
    """The same outputs as :func:`driver.run_chunk`, from the pure-Python reference engine (with
    ``debug``, its invariants checked in every game, as the kernel's are)."""
    from simcore.games.middle_ages import reference

    recs = [reference.play_game(rules, P, seed, first + g, debug=debug) for g in range(n)]
    return record_arrays(
        recs, {"score": np.int32, "win_share": np.float32, "rank": np.int8, "tiles": np.int8,
               "graveyard": np.int8, "penalty": np.int16, "event_gain": np.int16,
               "coins_before_event": np.int16, "coins_by_turn": np.int16},
        {"events": np.int8, "reshuffles": np.int8})


class EventSummary:
    """Sufficient statistics of MA-8 event impact, kept for runs too large for raw rows.

    One row per (slot k = 1…4, event id, seat): ``players`` (player-games), ``gain_sum`` and
    ``gain_sq_sum`` (coins the event gave or took, MA-12), ``win_share_sum``. Mean gain and its
    standard error per event follow directly; ``events_summary.parquet`` in the run directory.
    """

    def __init__(self, n_players: int, n_ids: int) -> None:
        from simcore.accumulate import win_units

        self.P, self.E = n_players, n_ids
        self.units = win_units(n_players)   # win shares summed in whole units: exact, any chunking
        shape = (N_EVENTS, n_ids, n_players)
        self.n = np.zeros(shape, np.int64)
        self.gain = np.zeros(shape)
        self.gain_sq = np.zeros(shape)
        self.win = np.zeros(shape)

    def add(self, chunk: ChunkResult) -> None:
        """One pass per event slot over the player rows (:func:`simcore.accumulate.value_seat_sums`;
        four weighted ``bincount``s per slot before: 0.22 s per 1e6 games), the same sums."""
        from simcore.accumulate import share_units, value_seat_sums

        P, E = self.P, self.E
        seat = chunk.players["seat"]
        win = share_units(chunk.players["win_share"], self.units, "middle-ages")
        for k in range(N_EVENTS):
            n, gain, gain_sq, share = value_seat_sums(chunk.games[f"event_{k + 1}"], seat,
                                                      chunk.players[GAIN_COLS[k]], win, P, E)
            self.n[k] += n
            self.gain[k] += gain
            self.gain_sq[k] += gain_sq
            self.win[k] += share

    def merge(self, part: "EventSummary") -> None:
        """Add a part's sums (the runner's merge of parts: only the sums, never ``P``, ``E`` or
        ``units``, which a merge by attributes added too and so divided the win shares by the
        number of parts)."""
        self.n += part.n
        self.gain += part.gain
        self.gain_sq += part.gain_sq
        self.win += part.win

    def table(self) -> pa.Table:
        k, e, s = np.nonzero(self.n)
        i8, i64, f8 = pa.int8(), pa.int64(), pa.float64()
        return pa.table({
            "slot": arrow_column((k + 1).astype(np.int8), i8),
            "event": arrow_column(e.astype(np.int8), i8), "seat": arrow_column(s.astype(np.int8), i8),
            "players": arrow_column(self.n[k, e, s], i64),
            "gain_sum": arrow_column(self.gain[k, e, s], f8),
            "gain_sq_sum": arrow_column(self.gain_sq[k, e, s], f8),
            "win_share_sum": arrow_column(self.win[k, e, s] / self.units, f8),
        })
