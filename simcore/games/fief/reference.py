"""Slow, readable pure-Python Fief combat, plague and revolt (FF-1 … FF-6), used by the tests.

Armies are kept as soldiers plus a list of named Lords (not just points), and losses are removed
pawn by pawn, so this is an independent reading of the rules, checked against the kernel
(``kernel.py``) draw for draw: it takes its dice from :class:`simcore.rng.PyStream` in the kernel's
draw order (mercy asks, attacker's dice, defender's dice), optionally after a list of forced dice.
Each combat keeps a human-readable log, one line per round.

``replay_run`` replays combat ``i`` of a run from its run.json (``balance replay``): the combat's
log with each round's dice, the pawns that fall and what stays on the field, and the final figures
players.parquet and games.parquet hold, for :mod:`simcore.replay` to check against the run.

May import the standard library, :mod:`simcore.rng`, :mod:`simcore.errors` and
:mod:`simcore.games.fief.rules`.
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

    def remove(self, n: int, lords_first: bool) -> list[str]:
        """FF-3: remove n points, soldiers before Lords (or Lords first); d'Arc sits in the Lord list
        where the rules put her (the end of the list falls last). Returns the pawns removed."""
        gone = []
        for _ in range(min(n, self.points)):
            if lords_first and self.lords:
                gone.append(self.lords.pop(0))
            elif self.soldiers > 0:
                self.soldiers -= 1
                gone.append("soldier")
            else:
                gone.append(self.lords.pop(0))
        return gone

    def describe(self) -> str:
        lords = ", ".join(self.lords) if self.lords else "no Lord"
        return f"{self.points} pts ({_many(self.soldiers, 'soldier')}; {lords})"


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
           forced: list[int] | None = None, standing: bool = False) -> CombatResult:
    """Play one combat (FF-3) and return its result with a round-by-round log. With ``standing``
    the log also says, after each round, which pawns fell and what each side still has on the
    field (``balance replay``'s turn-by-turn log)."""
    p = rules.params
    lords_first = bool(p[P_LORDS_FIRST])
    darc_first = bool(p[P_DARC_FIRST])
    dice = Dice(seed, index, forced)
    att = make_army(attacker, lords_attacker, "open", darc == "attacker", darc_first)
    dfn = make_army(defender, lords_defender, terrain, darc == "defender", darc_first)
    log = [f"start: attacker {att.points} pts ({_many(att.soldiers, 'soldier')}, "
           f"{_many(len(att.lords), 'Lord')}, open) vs defender {dfn.points} pts "
           f"({_many(dfn.soldiers, 'soldier')}, {_many(len(dfn.lords), 'Lord')}, {terrain})"]
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
                    log.append(f"{side} asks for mercy and it is granted: "
                               f"{_many(len(army.lords), 'Lord')} captured, "
                               f"{_many(army.soldiers, 'soldier')} removed; {other} wins")
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
        shown = {side: "+".join(map(str, rolls[side][0]))
                 + (f" (+{int(p[P_DARC_BONUS])} d'Arc)" if DARC in sides[side].lords else "")
                 for side in sides}
        log.append(f"round {rounds}: attacker {att.points} pts rolls {shown['attacker']}"
                   f"={rolls['attacker'][1]} -> defender loses {to_def}; defender {dfn.points} pts rolls "
                   f"{shown['defender']}={rolls['defender'][1]} -> attacker loses {to_att}")
        fell_att = att.remove(to_att, lords_first)   # simultaneous: both computed before either is removed
        fell_def = dfn.remove(to_def, lords_first)
        if standing:
            log.append(f"  falls: attacker {_pawns(fell_att)}; defender {_pawns(fell_def)}")
            log.append(f"  on the field: attacker {att.describe()}; defender {dfn.describe()}")
    if att.points > 0:
        winner = "attacker"
    elif dfn.points > 0:
        winner = "defender"
    else:
        winner = "both wiped"
    log.append(f"end: {winner}; attacker {_many(att.soldiers, 'soldier')} + "
               f"{_many(len(att.lords), 'Lord')}, defender {_many(dfn.soldiers, 'soldier')} + "
               f"{_many(len(dfn.lords), 'Lord')}")
    return CombatResult(winner, False, rounds, att, dfn, log)


def _many(n: int, pawn: str) -> str:
    """'1 Lord', '0 Lords', '3 soldiers': a count of pawns as the log reads it."""
    return f"{n} {pawn}{'' if n == 1 else 's'}"


def _pawns(fell: list[str]) -> str:
    if not fell:
        return "nothing"
    soldiers = fell.count("soldier")
    parts = [_many(soldiers, "soldier")] if soldiers else []
    return ", ".join(parts + [x for x in fell if x != "soldier"])


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


# ---------------------------------------------------------------------------------------------
# balance replay: one combat of a run, from run.json's matchup and rules (FF-1 … FF-4)
# ---------------------------------------------------------------------------------------------

_WINNER_CODE = {"attacker": 0, "defender": 1, "both wiped": 2}
SIDES = ("attacker", "defender")


@dataclass
class RunReplay:
    """One combat of a run, replayed: its log, the per-seat figures players.parquet holds (seat 0
    the attacker, seat 1 the defender) and the per-combat figures games.parquet holds."""

    lines: list[str]
    seat_figures: dict[str, list]
    game_figures: dict[str, float]


def replay_run(meta: dict, game: int) -> RunReplay:
    """Combat ``game`` of the run whose run.json is ``meta``: the rules as played (run.json's
    ``rules_text``, any ``--set`` or rules file included), the matchup run.json records, and the
    combat's own stream ``(seed, game)`` — the kernel's (``stream_state(seed, i)``)."""
    from simcore.config import reading_recorded_rules
    from simcore.games.fief.rules import load, loads, parse_mercy

    text = meta.get("rules_text")
    with reading_recorded_rules(meta, "run.json"):
        rules = loads(text, name=str(meta.get("rules_name") or "run.json rules_text")) if text else load()
    m = meta.get("matchup") or {}
    try:
        a, d = int(m["attacker"]), int(m["defender"])
        la, ld = int(m["lords_attacker"]), int(m["lords_defender"])
        terrain, darc, mercy = str(m["terrain"]), str(m["darc"]), parse_mercy(str(m["mercy"]))
    except (KeyError, TypeError, ValueError) as e:
        from simcore.errors import UsageError

        raise UsageError(f"run.json matchup {m!r}: cannot rebuild the combat ({e})") from None
    r = combat(rules, a, d, terrain, lords_attacker=la, lords_defender=ld, darc=darc, mercy=mercy,
               seed=int(meta["seed"]), index=game, standing=True)
    share_att = {"attacker": 1.0, "defender": 0.0, "both wiped": 0.5}[r.winner]
    shares = [share_att, 1.0 - share_att]
    field = {"attacker": f"the attacker takes the field ({terrain})",
             "defender": f"the defender holds the field ({terrain})",
             "both wiped": "both armies are wiped out: nobody holds the field"}[r.winner]
    how = " by mercy" if r.by_mercy else ""
    lines = [f"Matchup: attacker {a} pts ({la} Lord{'s' if la != 1 else ''}) vs defender {d} pts "
             f"({ld} Lord{'s' if ld != 1 else ''}) on {terrain}; Jeanne d'Arc: {darc}; mercy: "
             f"{m['mercy']}"] + [f"  {x}" for x in r.log] + [
        f"Outcome{how} after {r.rounds} round{'s' if r.rounds != 1 else ''}: {field}."]
    armies = (r.attacker, r.defender)
    seat_figures = {"score": [x.points for x in armies], "win_share": shares,
                    "rank": [1 if s >= 0.5 else 2 for s in shares]}
    game_figures: dict[str, float] = {"winner": _WINNER_CODE[r.winner], "by_mercy": int(r.by_mercy),
                                      "rounds": r.rounds}
    lords0 = (la, ld)
    for side, army, l0 in zip(SIDES, armies, lords0):
        game_figures[f"{side}_points_left"] = army.points
        game_figures[f"{side}_soldiers_left"] = army.soldiers
        game_figures[f"{side}_lords_left"] = len(army.lords)
        game_figures[f"{side}_lords_captured"] = len(army.captured)
        game_figures[f"{side}_lords_killed"] = l0 - len(army.lords) - len(army.captured)
    return RunReplay(lines, seat_figures, game_figures)


def record_table(figures: dict[str, list]) -> list[str]:
    """The final table of a replayed combat, one line per side (seats 0 and 1 = P0, P1)."""
    return [f"P{s} {side:<8}  points left {figures['score'][s]:>3}  win share "
            f"{figures['win_share'][s]:.1f}  rank {figures['rank'][s]}" for s, side in enumerate(SIDES)]


__all__ = ["DARC_SIDES", "combat", "plague", "bishop", "Dice", "Army", "CombatResult",
           "replay_run", "RunReplay"]
