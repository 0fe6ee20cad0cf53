"""Pig's adapter: options → :class:`simcore.contract.PreparedRun`, either engine, through the
shared skeleton :func:`simcore.adapter.player_run`. May import numpy, :mod:`simcore.adapter`
and this game's modules."""

import numpy as np

from simcore.adapter import player_run, record_arrays

from . import driver, reference, rules as rules_mod
from .spec import SPEC


def prepare(*, players=3, bots=None, rules_path=None, engine="kernel", debug=False):
    SPEC.check_players(players)
    rules = rules_mod.load(rules_path)
    names, rows = bots if bots is not None else (["random"] * players, np.zeros((players, 2)))

    def kernel(first, n, seed):
        return driver.run_chunk(rules, players, first, n, seed, rows)

    def reference_chunk(first, n, seed):
        return record_arrays([reference.play_game(rules, players, seed, first + g) for g in range(n)],
                             {"score": np.int16, "rolls": np.int16, "busts": np.int16,
                              "best_turn": np.int16, "rank": np.int8, "win_share": np.float32},
                             {"turns": np.int16, "end_reason": np.int8})

    return player_run(SPEC, players=players, names=names, rules=rules, engine=engine,
                      kernel=kernel, reference=reference_chunk, warmup=lambda: kernel(0, 1, 0),
                      all_random=all(n == "random" for n in names), debug=debug,
                      summary_columns=("score", "rolls", "busts", "best_turn"))
