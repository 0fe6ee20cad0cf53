"""Pig's adapter: options → :class:`simcore.contract.PreparedRun`, either engine.
May import numpy, :mod:`simcore.contract`, :mod:`simcore.errors` and this game's modules."""

import numpy as np

from simcore.contract import PreparedRun, SeatStrategies, chunk_from_arrays
from simcore.errors import UsageError

from . import driver, reference, rules as rules_mod
from .spec import SPEC


def _reference_chunk(rules, P, first, n, seed):
    recs = [reference.play_game(rules, P, seed, first + g) for g in range(n)]
    cat = lambda key, dt: np.array([v for r in recs for v in getattr(r, key)], dt)  # noqa: E731
    return {"score": cat("score", np.int16), "rolls": cat("rolls", np.int16),
            "busts": cat("busts", np.int16), "best_turn": cat("best_turn", np.int16),
            "rank": cat("rank", np.int8), "win_share": cat("win_share", np.float32),
            "turns": np.array([r.turns for r in recs], np.int16),
            "end_reason": np.array([r.end_reason for r in recs], np.int8)}


def prepare(*, players=3, bots=None, rules_path=None, engine="kernel", debug=False) -> PreparedRun:
    SPEC.check_players(players)
    rules = rules_mod.load(rules_path)
    names, rows = bots if bots is not None else (["random"] * players, np.zeros((players, 2)))
    if engine == "reference" and any(n != "random" for n in names):
        raise UsageError("--engine reference plays the random strategy only")
    if engine not in ("kernel", "reference"):
        raise UsageError(f"--engine {engine}: must be kernel or reference")
    seats = SeatStrategies(names)

    def play(first, n, seed):
        o = (driver.run_chunk(rules, players, first, n, seed, rows) if engine == "kernel"
             else _reference_chunk(rules, players, first, n, seed))
        return chunk_from_arrays(SPEC.player_columns, SPEC.game_columns, o, first, n, players,
                                 seats)

    return PreparedRun(
        game=SPEC.name, n_players=players, strategy_names=names,
        players_schema=SPEC.players_schema(), games_schema=SPEC.games_schema(), play=play,
        warmup=lambda: driver.run_chunk(rules, players, 0, 1, 0, rows),
        rules_name=rules.source.name, rules_text=rules.source.text,
        rules_sha256=rules.source.sha256, meta={"engine": engine},
        summary_columns=("score", "rolls", "busts", "best_turn"))
