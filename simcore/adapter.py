"""The adapter of a player game written once: engine choice, chunk columns by the spec's names,
the :class:`~simcore.contract.PreparedRun` every player game hands the runner.

A game's ``game.py`` loads and checks its rules, then calls :func:`player_run` with its kernel
driver (``run_chunk``-like: (first, n, seed) → named arrays), its reference engine's chunk (the
same names, from :func:`record_arrays` over the reference's game records) and what run.json adds.
The arrays are named as the spec's columns, or as a column group (``tiles`` → ``tiles_champs`` …,
:func:`simcore.contract.spec_columns`); ``error`` (one int16 per game, 0 = fine) names a kernel
error through the game's error texts. Everything else (the common columns, seat rotation, schemas,
engine and reference checks, warm-up, the rules file's name and hash, the compile notice) is here.

May import numpy, :mod:`simcore.contract` and :mod:`simcore.errors`.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from simcore.contract import (ChunkResult, GameSpec, PreparedRun, SeatStrategies, chunk_from_arrays,
                              raise_game_error)
from simcore.errors import UsageError

Arrays = dict[str, Any]
PlayArrays = Callable[[int, int, int], Arrays]      # (first game, games, seed) -> named arrays

REFERENCE_RANDOM_ONLY = ("--engine reference plays the random strategy only "
                         "(other bots are checked by replaying the kernel's decisions)")


def player_run(spec: GameSpec, *, players: int, names: list[str], rules: Any, engine: str,
               kernel: PlayArrays, reference: PlayArrays, warmup: Callable[[], Any],
               all_random: bool, error_text: dict[int, str] | None = None,
               rotate_seats: bool = False, debug: bool = False, meta: dict | None = None,
               summary_columns: tuple[str, ...] = (), rename: dict[str, str] | None = None,
               extra_summaries: dict[str, Callable[[], Any]] | None = None) -> PreparedRun:
    """The run of a player game: ``kernel`` or ``reference`` plays a chunk into named arrays
    (``rename`` maps an array's name to the spec's column or group name where they differ), the
    spec's columns are taken from them by name, and a kernel ``error`` stops the run naming the
    game. ``engine="reference"`` needs random bots at every seat (``all_random``): other bots are
    checked by replaying the kernel's decisions. ``meta`` follows engine, debug (and rotate_seats
    when the game takes it) in run.json."""
    if engine == "kernel":
        raw = kernel
    elif engine == "reference":
        if not all_random:
            raise UsageError(REFERENCE_RANDOM_ONLY)
        raw = reference
    else:
        raise UsageError(f"--engine {engine}: must be kernel or reference")
    n_rot = players if rotate_seats else 1
    seats = SeatStrategies(names)

    def play(first: int, n: int, seed: int) -> ChunkResult:
        o = raw(first, n, seed)
        if "error" in o:
            raise_game_error(o["error"], first, error_text or {})
        if rename:
            o = {rename.get(k, k): v for k, v in o.items()}
        return chunk_from_arrays(spec.player_columns, spec.game_columns, o, first, n, players,
                                 seats, n_rot)

    src = rules.source
    head = {"engine": engine, "debug": debug}
    if "rotate_seats" in spec.takes:
        head["rotate_seats"] = rotate_seats
    return PreparedRun(
        game=spec.name, n_players=players, strategy_names=names,
        players_schema=spec.players_schema(rotate_seats=rotate_seats), games_per_deal=n_rot,
        games_schema=spec.games_schema(), play=play,
        warmup=warmup if engine == "kernel" else (lambda: None),
        rules_name=str(src.name), rules_text=src.text, rules_sha256=src.sha256,
        meta={**head, **(meta or {})}, summary_columns=summary_columns,
        extra_summaries=dict(extra_summaries or {}),
        compile_message=spec.compile_message())


def record_arrays(records: list, players: dict[str, Any], games: dict[str, Any]) -> Arrays:
    """A reference engine's game records as a driver's named arrays: each of ``players`` (name →
    dtype, or → (record attribute, dtype)) concatenated over the records (one row per player, a
    per-seat 2-D attribute stays 2-D), each of ``games`` one row per game, and ``error`` all 0."""
    def spec_of(name, v):
        return v if isinstance(v, tuple) else (name, v)

    out: Arrays = {}
    for name, v in players.items():
        attr, dt = spec_of(name, v)
        out[name] = np.concatenate([np.asarray(getattr(r, attr)) for r in records]).astype(dt)
    for name, v in games.items():
        attr, dt = spec_of(name, v)
        out[name] = np.array([getattr(r, attr) for r in records]).astype(dt)
    out["error"] = np.zeros(len(records), np.int16)
    return out
