"""Pig's reference engine: slow, readable, the same rules (PG-1 … PG-5) and the same stream of
draws as the kernel, with its own hold_at bot (:func:`bot`). May import :mod:`simcore.rng`,
:mod:`simcore.reference_strategies` and :mod:`simcore.contract`."""

from dataclasses import dataclass, field

import numpy as np

from simcore.contract import ranks_and_win_shares
from simcore.reference_strategies import RandomStrategy, ReplayStrategy  # noqa: F401
from simcore.rng import PyStream


class HoldAt:
    """PG-5 hold_at: hold once the turn total reaches the threshold or wins the game."""

    def __init__(self, threshold: int) -> None:
        self.threshold = threshold

    def choose(self, kind, options, state, seat, rng):
        rng.below(2)                                # every decision spends one draw
        total, banked, target = state
        return 0 if total >= self.threshold or banked + total >= target else 1


def bot(strategy):
    """The reference's own version of a kernel bot, or None (random is the reference default)."""
    return HoldAt(int(strategy.row[1])) if strategy.kind == "hold_at" else None


@dataclass
class GameRecord:
    score: list
    rolls: list
    busts: list
    best_turn: list
    turns: int = 0
    end_reason: int = 1
    win_share: list = field(default_factory=list)
    rank: list = field(default_factory=list)
    decisions: list = field(default_factory=list)


def play_game(rules, n_players, seed, game, strategies=None, log=None, debug=False):
    target, max_turns = (int(x) for x in rules.params)
    bots = strategies or [RandomStrategy() for _ in range(n_players)]
    rng = PyStream(seed, game)
    rec = GameRecord(*([0] * n_players for _ in range(4)))
    while rec.turns < max_turns:
        seat = rec.turns % n_players
        rec.turns += 1
        total = 0
        while True:
            c = bots[seat].choose("roll_or_hold", ["hold", "roll"], (total, rec.score[seat], target),
                                  seat, rng)
            rec.decisions.append(("roll_or_hold", 2, c))
            if c == 0:
                rec.score[seat] += total
                rec.best_turn[seat] = max(rec.best_turn[seat], total)
                break
            die = 1 + rng.below(6)
            rec.rolls[seat] += 1
            if die == 1:
                rec.busts[seat] += 1
                break
            total += die
        if log is not None:
            log.append(f"turn {rec.turns}: P{seat} has {rec.score[seat]}")
        if rec.score[seat] >= target:
            rec.end_reason = 0
            break
    rank, win = ranks_and_win_shares(np.array([rec.score]))
    rec.rank, rec.win_share = rank.tolist(), win.tolist()
    return rec


def record_table(record) -> list[str]:
    return [f"P{s}: {record.score[s]} points, rank {record.rank[s]}" for s in range(len(record.score))]
