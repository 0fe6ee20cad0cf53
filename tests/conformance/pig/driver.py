"""Pig's chunk driver (a :class:`simcore.contract.TracedDriver`): arrays in, named arrays out.
May import numpy, :mod:`simcore.contract` and this game's kernel."""

import numpy as np

from simcore.contract import ranks_and_win_shares

from .kernel import play_chunk

TRACE_CAP = 40000


def run_chunk(rules, n_players, first_game, n_games, seed, strat=None, *, trace_decisions=False,
              **_):
    P = n_players
    strat = np.zeros((P, 2)) if strat is None else strat
    out = np.zeros((4, n_games * P), np.int16)
    turns, reason = np.zeros(n_games, np.int16), np.zeros(n_games, np.int8)
    trace = np.zeros((n_games, TRACE_CAP if trace_decisions else 0), np.int64)
    play_chunk(first_game, n_games, seed, P, rules.params, strat, out, turns, reason, trace)
    o = {"score": out[0], "rolls": out[1], "busts": out[2], "best_turn": out[3],
         "turns": turns, "end_reason": reason}
    o["rank"], o["win_share"] = ranks_and_win_shares(out[0].reshape(n_games, P))
    if trace_decisions:
        o["trace"] = [[(int(row[2 * i]), int(row[2 * i + 1])) for i in range(_end(row))]
                      for row in trace]
    return o


def _end(row) -> int:
    stop = np.flatnonzero(row[0::2] == -1)
    return int(stop[0]) if stop.size else len(row) // 2
