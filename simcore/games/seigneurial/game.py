"""Seigneurial adapter for the runner: options → :class:`simcore.contract.PreparedRun`.

Builds the exact Arrow tables of ``players.parquet`` and ``games.parquet`` from the spec's columns
(SG-8), validates the player count against the rules file (SG-1) before any game is played, and
provides the per-chunk play function for either engine: the Numba kernel (default) or the
pure-Python reference (``engine="reference"``, slow, random bots only, for small runs and
cross-checks). Seat rotation is not taken: a seat's bot must fit its role (seat 0 is the Seigneur).

End reasons are stored as an int8 code in ``games.parquet``; run.json's ``end_reason_names`` maps
the codes to names: 0 censitaire_objective, 1 seigneur_goal, 2 truncated (SG-6).

May import numpy, pyarrow, :mod:`simcore.contract`, :mod:`simcore.errors` and this game's modules
(never :mod:`strategies`: the runner resolves the bots and passes their rows).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa

from simcore.contract import ChunkResult, PreparedRun, SeatStrategies, raise_game_error
from simcore.errors import UsageError
from simcore.games.seigneurial import driver, layout
from simcore.games.seigneurial import rules as rules_mod
from simcore.games.seigneurial.rules import RESOURCE_TYPES
from simcore.games.seigneurial.spec import END_REASONS, SPEC

GAME = SPEC.name
END_REASON_NAMES = dict(enumerate(END_REASONS))
PLAYERS_SCHEMA = SPEC.players_schema()
GAMES_SCHEMA = SPEC.games_schema()
SUMMARY_COLUMNS = ("score", *RESOURCE_TYPES, "favour", "turns_sick", "paid", "seized")
_ROLES = pa.array(["seigneur", "censitaire"], pa.string())
_WINNER_ROLES = pa.array(["seigneur", "censitaire", "censitaires"], pa.string())


def prepare(*, players: int = 4, bots: tuple[list[str], np.ndarray] | None = None,
            rules_path: str | Path | None = None, engine: str = "kernel", debug: bool = False,
            rules=None) -> PreparedRun:
    """Validate the options and build the run (rules loaded once).

    ``bots`` is ``(names, rows)`` as :func:`strategies.seigneurial.resolve` returns them (default:
    random at every seat); ``rules`` (a :class:`RulesArrays`) overrides ``rules_path``.
    """
    if rules is None:
        rules = rules_mod.load(rules_path)
    rules_mod.check_players(rules, players)
    names, strat_rows = bots if bots is not None else (
        ["random"] * players, np.zeros((players, layout.N_STRAT_COLS), np.float64))
    rk = driver.pack_rules(rules)
    seat_strategies = SeatStrategies(names)

    if engine == "kernel":
        def play_raw(first, n, seed):
            return driver.run_chunk(rules, players, first, n, seed, strat_rows, debug=debug, rk=rk)
    elif engine == "reference":
        if any(strat_rows[:, layout.S_KIND] != layout.KIND_RANDOM):
            raise UsageError("--engine reference plays the random strategy only "
                             "(other bots are checked by replaying the kernel's decisions)")

        def play_raw(first, n, seed):
            return reference_chunk(rules, players, first, n, seed, debug)
    else:
        raise UsageError(f"--engine {engine}: must be kernel or reference")

    def play(first: int, n: int, seed: int) -> ChunkResult:
        o = play_raw(first, n, seed)
        raise_game_error(o["error"], first, layout.ERROR_TEXT)
        return ChunkResult(players=player_columns(o, first, n, seat_strategies, players),
                           games=game_columns(o, first, n, players))

    src = rules.source
    return PreparedRun(
        game=GAME, n_players=players, strategy_names=names,
        players_schema=PLAYERS_SCHEMA, games_schema=GAMES_SCHEMA, play=play,
        warmup=(lambda: driver.run_chunk(rules, players, 0, 1, 0, strat_rows, rk=rk))
        if engine == "kernel" else (lambda: None),
        rules_name=src.name, rules_text=src.text, rules_sha256=src.sha256,
        meta={"engine": engine, "debug": debug, "end_reason_names": END_REASON_NAMES,
              "resource_types": list(RESOURCE_TYPES),
              "seat_roles": ["seigneur"] + ["censitaire"] * (players - 1),
              "goal_square": rules.goal(players), "midpoint": rules.midpoint(players),
              "objectives": rules.objectives.tolist()},
        summary_columns=SUMMARY_COLUMNS,
        compile_message="Compiling the Seigneurial kernel (first run only; cached afterwards)")


def player_columns(o: dict, first: int, n: int, seats: SeatStrategies, P: int) -> dict:
    cols = seats.columns(first, n)
    roles = np.tile(np.r_[0, np.ones(P - 1, np.int32)].astype(np.int32), n)
    cols["role"] = pa.DictionaryArray.from_arrays(pa.array(roles), _ROLES).cast(pa.string())
    cols.update({"score": o["score"], "win_share": o["win_share"], "rank": o["rank"].astype(np.int8),
                 "favour": o["favour"], "turns_sick": o["turns_sick"],
                 "objective": o["objective"].astype(np.int8), "paid": o["paid"], "seized": o["seized"]})
    for t, name in enumerate(RESOURCE_TYPES):
        cols[name] = np.ascontiguousarray(o["resources"][:, t])
    return cols


def game_columns(o: dict, first: int, n: int, P: int) -> dict:
    reason = o["end_reason"].astype(np.int8)
    winner_code = np.where(reason == 1, 0, np.where(reason == 0, 1, 2)).astype(np.int32)
    return {"game": np.arange(first, first + n, dtype=np.int64),
            "n_players": np.full(n, P, np.int8), "turns": o["turns"],
            "winner_role": pa.DictionaryArray.from_arrays(pa.array(winner_code),
                                                          _WINNER_ROLES).cast(pa.string()),
            "winning_seat": o["winning_seat"].astype(np.int8), "end_reason": reason,
            "seigneur_square": o["seigneur_square"].astype(np.int8),
            "improvement_turn": o["improvement_turn"]}


def reference_chunk(rules, P: int, first: int, n: int, seed: int, debug: bool = False) -> dict:
    """The same outputs as :func:`driver.run_chunk` (random bots), from the reference engine."""
    from simcore.games.seigneurial import reference

    recs = [reference.play_game(rules, P, seed, first + g, debug=debug) for g in range(n)]
    cat = lambda f, dt: np.concatenate([getattr(r, f) for r in recs]).astype(dt)  # noqa: E731
    return dict(
        score=cat("score", np.int16), win_share=cat("win_share", np.float32),
        rank=cat("rank", np.int16), resources=cat("resources", np.int16),
        favour=cat("favour", np.int16), turns_sick=cat("turns_sick", np.int16),
        objective=cat("objective", np.int16), paid=cat("paid", np.int16),
        seized=cat("seized", np.int16),
        turns=np.array([r.turns for r in recs], np.int16),
        end_reason=np.array([r.end_reason for r in recs], np.int16),
        winning_seat=np.array([r.winner for r in recs], np.int16),
        seigneur_square=np.array([r.square for r in recs], np.int16),
        improvement_turn=np.array([r.improvement_turn for r in recs], np.int16),
        error=np.zeros(n, np.int16),
    )
