"""Médiévallons adapter for the runner: options → :class:`simcore.contract.PreparedRun`.

Declares the exact Arrow schemas of ``players.parquet`` and ``games.parquet`` (MV-9), validates the
player count against the rules file (MV-1) before any game is played, and provides the per-chunk
play function for either engine: the Numba kernel (default) or the pure-Python reference
(``engine="reference"``, slow, random bots only, for small runs and cross-checks).

End reasons are stored as an int8 code in ``games.parquet``; run.json's ``end_reason_names`` maps
the codes to names: 0 third_guild (a player founded the winning guild, MV-7), 1 empty_pile (the draw
pile ran out with the End card yellow, MV-6), 2 truncated (the max_turns safety bound, MV-7).

May import numpy, pyarrow, :mod:`simcore.contract`, :mod:`simcore.errors` and this game's
modules (never :mod:`strategies`: the runner resolves the bots and passes their rows).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from simcore.errors import UsageError
from simcore.games.medievallons import driver, layout
from simcore.games.medievallons import rules as rules_mod
from simcore.games.medievallons.rules import BOUFFON, CARD_TYPES, N_TYPES
from simcore.games.medievallons.spec import FOUNDED_COLS, POWER_COLS, SPEC
from simcore.contract import ChunkResult, PreparedRun, SeatStrategies, raise_game_error

GAME = SPEC.name
POWER_TYPES = tuple(t for t in range(N_TYPES) if t != BOUFFON)     # the Bouffon has no power
END_REASON_NAMES = dict(enumerate(layout.END_REASONS))
PLAYERS_SCHEMA = SPEC.players_schema()          # MV-9, from the spec's columns
ROTATED_SCHEMA = SPEC.players_schema(rotate_seats=True)
GAMES_SCHEMA = SPEC.games_schema()
DEFAULT_STRATEGY = SPEC.default_strategy
SUMMARY_COLUMNS = ("score", "guilds", "hand", *FOUNDED_COLS, *POWER_COLS)


def prepare(*, players: int = 4, bots: tuple[list[str], np.ndarray] | None = None,
            rules_path: str | Path | None = None, engine: str = "kernel", debug: bool = False,
            rotate_seats: bool = False, rules=None) -> PreparedRun:
    """Validate the options and build the run (rules loaded once).

    ``bots`` is ``(names, rows)`` as :func:`strategies.medievallons.resolve` returns them
    (default: random at every seat); ``rules`` (a :class:`RulesArrays`) overrides ``rules_path``
    for programmatic variants.
    """
    if rules is None:
        rules = rules_mod.load(rules_path)
    rules_mod.check_players(rules, players)
    names, strat_rows = bots if bots is not None else (
        ["random"] * players, np.zeros((players, layout.N_STRAT_COLS), np.float64))
    n_rot = players if rotate_seats else 1
    rk = driver.pack_rules(rules)
    seat_strategies = SeatStrategies(names)

    if engine == "kernel":
        def play_raw(first, n, seed):
            return driver.run_chunk(rules, players, first, n, seed, strat_rows, debug=debug, rk=rk,
                                    rotate=rotate_seats)
    elif engine == "reference":
        if any(strat_rows[:, layout.S_KIND] != layout.STRAT_RANDOM):
            raise UsageError("--engine reference plays the random strategy only "
                             "(other bots are checked by replaying the kernel's decisions)")

        def play_raw(first, n, seed):
            return reference_chunk(rules, players, first, n, seed, n_rot, debug)
    else:
        raise UsageError(f"--engine {engine}: must be kernel or reference")

    def play(first: int, n: int, seed: int) -> ChunkResult:
        o = play_raw(first, n, seed)
        raise_game_error(o["error"], first, layout.ERROR_TEXT)
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
              "end_reason_names": END_REASON_NAMES, "card_types": list(CARD_TYPES)},
        summary_columns=SUMMARY_COLUMNS,
        compile_message="Compiling the Médiévallons kernel (first run only; cached afterwards)")


def player_columns(o: dict, first: int, n: int, seats: SeatStrategies, n_rot: int = 1) -> dict:
    cols = seats.columns(first, n, n_rot)
    cols.update({
        "score": o["score"], "win_share": o["win_share"], "rank": o["rank"],
        "guilds": o["guilds"], "hand": o["hand"],
    })
    for t, c in enumerate(FOUNDED_COLS):
        cols[c] = np.ascontiguousarray(o["founded"][:, t])
    for t, c in zip(POWER_TYPES, POWER_COLS):
        cols[c] = np.ascontiguousarray(o["powers"][:, t])
    return cols


def game_columns(o: dict, first: int, n: int, P: int) -> dict:
    return {"game": np.arange(first, first + n, dtype=np.int64),
            "n_players": np.full(n, P, np.int8), "turns": o["turns"],
            "end_reason": o["end_reason"], "reshuffles": o["reshuffles"]}


def reference_chunk(rules, P: int, first: int, n: int, seed: int, n_rot: int = 1,
                    debug: bool = False) -> dict:
    """The same outputs as :func:`driver.run_chunk` (random bots), from the reference engine.

    With seat rotation every rotation of a deal replays the deal's stream: random bots at every
    seat make the rotations identical games, as the kernel does."""
    from simcore.games.medievallons import reference

    recs = [reference.play_game(rules, P, seed, (first + g) // n_rot, debug=debug)
            for g in range(n)]
    return dict(
        score=np.concatenate([r.score for r in recs]).astype(np.int32),
        win_share=np.concatenate([r.win_share for r in recs]).astype(np.float32),
        rank=np.concatenate([r.rank for r in recs]).astype(np.int8),
        guilds=np.concatenate([r.guilds for r in recs]).astype(np.int8),
        hand=np.concatenate([r.hand for r in recs]).astype(np.int16),
        founded=np.concatenate([r.founded for r in recs]).astype(np.int8),
        powers=np.concatenate([r.powers for r in recs]).astype(np.int16),
        turns=np.array([r.turns for r in recs], np.int16),
        end_reason=np.array([r.end_reason for r in recs], np.int8),
        reshuffles=np.array([r.reshuffles for r in recs], np.int8),
        error=np.zeros(n, np.int16),
    )
