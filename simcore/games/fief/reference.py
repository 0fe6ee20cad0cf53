"""Slow, readable pure-Python Fief combat, plague and revolt (FF-1 … FF-6), used by the tests.

Armies are kept as soldiers plus a list of named Lords (not just points), and losses are removed
pawn by pawn, so this is an independent reading of the rules, checked against the kernel
(``kernel.py``) draw for draw: it takes its dice from :class:`simcore.rng.PyStream` in the kernel's
draw order (mercy asks, attacker's dice, defender's dice), optionally after a list of forced dice.
Each combat keeps a human-readable log, one line per round.

May import the standard library, :mod:`simcore.rng` and :mod:`simcore.games.fief.rules`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from simcore.games.fief.rules import (
    DARC_SIDES, GRANT_ONE, TERRAINS, FiefRules, P_DARC_BONUS, P_DARC_FIRST, P_GRANT_THRESHOLD,
    P_LORDS_FIRST, P_MERCY_BEFORE_FIRST, P_MERCY_DEFENDER_FIRST, P_MERCY_NEEDS_LORD,
    P_PLAGUE_LORD_SURVIVES, P_PLAGUE_ROUND_UP, P_REVOLT_SUCCESS,
)
from simcore.rng import PyStream

DARC = "d'Arc"


class Dice:
    """Dice from a forced list first, then from the combat's stream (the kernel's order)."""

    def __init__(self, seed: int = 0, index: int = 0, forced: list[int] | None = None) -> None:
        self.stream = PyStream(seed, index)
        self.forced = list(forced or [])
        self.used_forced = 0

    def die(self) -> int:
        if self.used_forced < len(self.forced):
            self.used_forced += 1
            return self.forced[self.used_forced - 1]
        return self.stream.below(6) + 1

    def granted(self, threshold: int) -> bool:
        if threshold >= GRANT_ONE:
            return True
        if threshold <= 0:
            return False
        return self.stream.below(GRANT_ONE) < threshold


@dataclass
class Army:
    """FF-1: soldiers (only their total matters) and Lords, each Lord worth 1 point."""

    soldiers: int
    lords: list[str]
    terrain: str
    captured: list[str] = field(default_factory=list)

    @property
    def points(self) -> int:
        return self.soldiers + len(self.lords)

    def remove(self, n: int, lords_first: bool) -> None:
        """FF-3: remove n points, soldiers before Lords (or Lords first); d'Arc sits in the Lord list
        where the rules put her (the end of the list falls last)."""
        for _ in range(min(n, self.points)):
            if lords_first and self.lords:
                self.lords.pop(0)
            elif self.soldiers > 0:
                self.soldiers -= 1
            else:
                self.lords.pop(0)


@dataclass
class CombatResult:
    winner: str            # "attacker", "defender" or "both wiped"
    by_mercy: bool
    rounds: int
    attacker: Army
    defender: Army
    log: list[str]


def make_army(points: int, lords: int, terrain: str, darc: bool, darc_first: bool) -> Army:
    names = [f"Lord {i + 1}" for i in range(lords)]
    if darc:
        # FF-4 [assumption]: she is one of the Lords; Lords fall from the front of the list.
        names[0 if darc_first else -1] = DARC
    return Army(soldiers=points - lords, lords=names, terrain=terrain)


def combat(rules: FiefRules, attacker: int, defender: int, terrain: str = "castle", *,
           lords_attacker: int = 1, lords_defender: int = 1, darc: str = "none",
           mercy: tuple[int, int] = (-1, -1), seed: int = 0, index: int = 0,
           forced: list[int] | None = None) -> CombatResult:
    """Play one combat (FF-3) and return its result with a round-by-round log."""
    p = rules.params
    lords_first = bool(p[P_LORDS_FIRST])
    darc_first = bool(p[P_DARC_FIRST])
    dice = Dice(seed, index, forced)
    att = make_army(attacker, lords_attacker, "open", darc == "attacker", darc_first)
    dfn = make_army(defender, lords_defender, terrain, darc == "defender", darc_first)
    log = [f"start: attacker {att.points} pts ({att.soldiers} soldiers, {len(att.lords)} Lords, open) "
           f"vs defender {dfn.points} pts ({dfn.soldiers} soldiers, {len(dfn.lords)} Lords, {terrain})"]
    k = {"attacker": mercy[0], "defender": mercy[1]}
    sides = {"attacker": att, "defender": dfn}
    rounds = 0

    def asks(side: str) -> bool:
        army = sides[side]
        if k[side] < 0 or army.points > k[side]:
            return False
        return not (p[P_MERCY_NEEDS_LORD] and not army.lords)

    while att.points > 0 and dfn.points > 0:
        if rounds > 0 or p[P_MERCY_BEFORE_FIRST]:
            order = ("defender", "attacker") if p[P_MERCY_DEFENDER_FIRST] else ("attacker", "defender")
            for side in order:
                if asks(side) and dice.granted(int(p[P_GRANT_THRESHOLD])):
                    army = sides[side]
                    other = "defender" if side == "attacker" else "attacker"
                    log.append(f"{side} asks for mercy and it is granted: {len(army.lords)} Lord(s) "
                               f"captured, {army.soldiers} soldier(s) removed; {other} wins")
                    army.captured, army.lords, army.soldiers = army.lords, [], 0
                    return CombatResult(other, True, rounds, att, dfn, log)
        rolls = {}
        for side in ("attacker", "defender"):
            army = sides[side]
            n = rules.dice_for(army.points)
            faces = [dice.die() for _ in range(n)]
            total = sum(faces)
            if DARC in army.lords:
                total += int(p[P_DARC_BONUS])
            rolls[side] = (faces, total)
        to_def = int(rules.loss[TERRAINS.index(dfn.terrain), rolls["attacker"][1]])
        to_att = int(rules.loss[TERRAINS.index(att.terrain), rolls["defender"][1]])
        rounds += 1
        log.append(f"round {rounds}: attacker {att.points} pts rolls {'+'.join(map(str, rolls['attacker'][0]))}"
                   f"={rolls['attacker'][1]} -> defender loses {to_def}; defender {dfn.points} pts rolls "
                   f"{'+'.join(map(str, rolls['defender'][0]))}={rolls['defender'][1]} -> attacker loses {to_att}")
        att.remove(to_att, lords_first)      # simultaneous: both computed before either is removed
        dfn.remove(to_def, lords_first)
    if att.points > 0:
        winner = "attacker"
    elif dfn.points > 0:
        winner = "defender"
    else:
        winner = "both wiped"
    log.append(f"end: {winner}; attacker {att.soldiers} soldiers + {len(att.lords)} Lords, "
               f"defender {dfn.soldiers} soldiers + {len(dfn.lords)} Lords")
    return CombatResult(winner, False, rounds, att, dfn, log)


def plague(rules: FiefRules, soldiers: int, lords: int, *, seed: int = 0, index: int = 0) -> tuple[int, int]:
    """FF-5 in one village: (soldiers left, Lords left); Lords roll in order from the stream."""
    p = rules.params
    removed = -(-soldiers // 2) if p[P_PLAGUE_ROUND_UP] else soldiers // 2
    s = PyStream(seed, index)
    alive = sum(1 for _ in range(lords) if s.below(6) + 1 >= p[P_PLAGUE_LORD_SURVIVES])
    return soldiers - removed, alive


def bishop(rules: FiefRules, conviction: int, *, seed: int = 0, index: int = 0) -> bool:
    """FF-6: True when the bishop's die plus conviction points ends the revolt."""
    return PyStream(seed, index).below(6) + 1 + conviction >= rules.params[P_REVOLT_SUCCESS]


__all__ = ["DARC_SIDES", "combat", "plague", "bishop", "Dice", "Army", "CombatResult"]
