"""The two strategies every pure-Python reference engine shares: ``random`` and replay.

A reference engine asks ``strategy.choose(kind, options, state, seat, rng)`` for every decision
(``kind`` names the decision, ``options`` lists the legal ones in the protocol's order) and gets
the index of the chosen option. :class:`RandomStrategy` is the `random` bot of MA-11 and MV-8;
:class:`ReplayStrategy` plays back a recorded game (the kernel's decision trace), which is how the
references check a Numba kernel game by game.

May import :mod:`simcore.rng` only.
"""

from __future__ import annotations

from simcore.rng import PyStream


class RandomStrategy:
    """`random` (MA-11, MV-8): uniform over the legal options, one ``below(n)`` draw per decision."""

    name = "random"

    def choose(self, kind: str, options: list, state, seat: int, rng: PyStream) -> int:
        return rng.below(len(options))


class ReplayStrategy:
    """Plays back pre-recorded option indices in order.

    ``choices`` holds ints, ``(n_options, index)`` pairs (the kernel's trace) or
    ``(kind, n_options, index)`` triples (as in a reference's ``GameRecord.decisions``); the
    recorded option count (and kind) are checked against the game. To replay a whole game's
    sequence (as the kernel exports it), give the *same* instance to every seat; to replay per
    seat, give each seat its own instance holding that seat's choices.

    Every kernel strategy spends exactly one draw of the game's stream per decision (random: the
    choice; heuristics: the tie-break; playouts: the seed). Replaying a non-random bot therefore
    needs ``consume_draw=True``, or later draws (discard reshuffles, Mendiant picks) diverge.
    """

    name = "replay"

    def __init__(self, choices, consume_draw: bool = False) -> None:
        self.choices = list(choices)
        self.pos = 0
        self.consume_draw = consume_draw

    def choose(self, kind: str, options: list, state, seat: int, rng: PyStream) -> int:
        if self.pos >= len(self.choices):
            raise ValueError(f"replay ran out of choices at decision {self.pos} ({kind}, seat {seat})")
        c = self.choices[self.pos]
        if isinstance(c, (tuple, list)) and len(c) == 2:   # the kernel's (n_options, index)
            want_n, c = c
            if want_n != len(options):
                raise ValueError(f"replay decision {self.pos}: recorded {want_n} options but the "
                                 f"game asks ({kind}, {len(options)} options)")
        elif isinstance(c, (tuple, list)):
            want_kind, want_n, c = c
            if want_kind != kind or want_n != len(options):
                raise ValueError(f"replay decision {self.pos}: recorded ({want_kind}, {want_n} options)"
                                 f" but the game asks ({kind}, {len(options)} options)")
        c = int(c)
        if not 0 <= c < len(options):
            raise ValueError(f"replay decision {self.pos}: index {c} not in 0..{len(options) - 1}")
        self.pos += 1
        if self.consume_draw:
            rng.next_u64()
        return c
