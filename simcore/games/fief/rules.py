"""Fief rules as data: load and validate ``configs/fief/rules.toml`` into frozen numpy arrays.

:func:`load` reads the designer-editable TOML (FF-1 dice thresholds, FF-2 results table, FF-3
combat and mercy settings, FF-4 d'Arc, FF-5 plague, FF-6 revolt), rejects unknown keys, wrong
types and tables under which a combat could never end, and returns :class:`FiefRules`, the only
form of the rules that the kernel, the exact solver and the reference see. The spec's
**[assumption]** items are all settings here (see ``docs/fief.md``).

May import numpy, the standard library and :mod:`simcore.config` / :mod:`simcore.errors`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simcore.config import RulesFile, Table, TomlSource
from simcore.errors import UsageError

# FF-2/FF-3: terrain a side stands in (index of a row of FiefRules.loss). The attacker is always
# in open ground; the defender in its village's terrain (a sortie fights in open ground).
TERRAINS = ("open", "castle", "city")
OPEN, CASTLE, CITY = 0, 1, 2
# FF-4: who has Jeanne d'Arc (there is one d'Arc card, so at most one side).
DARC_SIDES = ("none", "attacker", "defender")
DARC_NONE, DARC_ATTACKER, DARC_DEFENDER = 0, 1, 2
DIE_SIDES = 6
NEVER = -1                      # mercy threshold meaning "never asks"
MAX_ARMY = 9999                 # FF-1: the most points an army of any command may have (check_army)
# FF-3: the largest mercy threshold K. A side asks when its points are at most K, and no army has
# more than MAX_ARMY points, so a larger K asks exactly as MAX_ARMY does; unbounded, K reached the
# kernels as an int64 and 10**20 crashed there with a traceback (review 248 #2).
MAX_MERCY = MAX_ARMY
GRANT_ONE = 1 << 30             # grant probability is stored as a threshold out of 2**30

# Indices into FiefRules.params (an int64 vector, so kernels take one array of scalars).
#: Settings a rules file may leave out and the value the loader then takes (simcore.games.absent_defaults):
#: a rules diff reads a missing key as that value, not as a change (review s52 Fief #4: "darc.bonus:
#: 6 → (absent)" beside identical odds).
ABSENT_DEFAULTS = {
    "darc.bonus": 6, "darc.removed": "last", "results.clamp_above_table": True,
    "combat.lords_removed": "last", "combat.default_lords_attacker": 1, "combat.default_lords_defender": 1,
    "mercy.policy": "never", "mercy.grant_probability": 1.0, "mercy.requires_lords": True,
    "mercy.ask_before_first_round": False, "mercy.first_to_ask": "defender",
    "plague.removed_rounding": "down", "plague.lord_survives_at_least": 4,
    "revolt.ecus_per_conviction_point": 500, "revolt.success_at_least": 4,
}

P_LORDS_FIRST = 0               # FF-3: 0 = soldiers before Lords, 1 = Lords first
P_DARC_BONUS = 1                # FF-4
P_DARC_FIRST = 2                # FF-4: 0 = d'Arc is her side's last Lord to fall, 1 = first
P_MERCY_NEEDS_LORD = 3          # FF-3
P_MERCY_BEFORE_FIRST = 4        # FF-3
P_MERCY_DEFENDER_FIRST = 5      # FF-3: 1 = the defender asks first when both would ask
P_GRANT_THRESHOLD = 6           # FF-3: granted iff below(2**30) < this (2**30 = always, 0 = never)
P_PLAGUE_ROUND_UP = 7           # FF-5
P_PLAGUE_LORD_SURVIVES = 8      # FF-5
P_REVOLT_SUCCESS = 9            # FF-6
P_REVOLT_ECUS = 10              # FF-6
N_PARAMS = 11

# The rules file written once (simcore.config.RulesFile): the shipped default, load, loads.
RULES = RulesFile("fief", lambda src: from_source(src))
default_rules_path, load, loads = RULES.default_rules_path, RULES.load, RULES.loads


@dataclass(frozen=True)
class FiefRules:
    """One Fief variant as read-only arrays and scalars (no Python objects reach a kernel).

    Attributes
    ----------
    dice_thresholds : int64[k]
        FF-1: a side with p points rolls one die per threshold <= p.
    loss : int64[3, n_sums]
        FF-2: ``loss[terrain, s]`` = points lost by a side standing in ``terrain`` when the other
        side's dice sum (plus any d'Arc bonus) is ``s``; column 0 is unused. Already padded to the
        largest reachable sum, so kernels never clamp.
    params : int64[N_PARAMS]
        Scalar settings, indexed by the ``P_*`` constants of this module.
    grant_probability : float
        FF-3 mercy: probability the other side grants (kernels use ``params[P_GRANT_THRESHOLD]``).
    default_mercy : tuple[int, int]
        FF-3: (attacker, defender) mercy thresholds from ``[mercy] policy`` (-1 = never asks).
    """

    dice_thresholds: np.ndarray
    loss: np.ndarray
    params: np.ndarray
    grant_probability: float
    default_mercy: tuple
    default_mercy_text: str
    default_lords: tuple
    settings: dict
    source: TomlSource

    def __post_init__(self) -> None:
        for v in (self.dice_thresholds, self.loss, self.params):
            v.setflags(write=False)

    @property
    def max_dice(self) -> int:
        return int(self.dice_thresholds.shape[0])

    def param(self, index: int) -> int:
        return int(self.params[index])

    def dice_for(self, points: int) -> int:
        """FF-1: dice rolled by a side with ``points`` points."""
        return int((self.dice_thresholds <= points).sum())

    def kernel_args(self) -> tuple:
        return (self.dice_thresholds, self.loss, self.params)


def parse_mercy(text: str, flag: str = "") -> tuple[int, int]:
    """FF-3 mercy policy text → (attacker threshold, defender threshold), -1 = never asks.

    Accepted: ``never``, ``attacker:K``, ``defender:K``, ``attacker:K,defender:J`` (0 <= K <=
    MAX_MERCY). Raises :class:`UsageError` with one line otherwise, naming ``flag`` (the option
    the text came from, ``--mercy``) when given; the rules loader prefixes ``mercy.policy``.
    """
    t = text.strip().lower().replace(" ", "")
    hint = "use never, attacker:K, defender:K or attacker:K,defender:J"
    shown = text if len(text) <= 40 else text[:37] + "..."
    head = f"{flag} {shown!r}: mercy policy" if flag else f"mercy policy {shown!r}"
    if t in ("never", "none", ""):
        return NEVER, NEVER
    k = {"attacker": NEVER, "defender": NEVER}
    for part in t.split(","):
        side, sep, num = part.partition(":")
        # (ASCII digits only: "²".isdigit() is true and int("²") raises)
        if side not in k or not sep or not (num.isascii() and num.isdigit()) or k[side] != NEVER:
            raise UsageError(f"{head} not understood ({hint})")
        digits = num.lstrip("0") or "0"
        if len(digits) > len(str(MAX_MERCY)) or int(digits) > MAX_MERCY:
            raise UsageError(f"{head}: {side}:K must be from 0 to {MAX_MERCY} (a side asks for "
                             f"mercy when its points are at most K, and no army has more than "
                             f"{MAX_ARMY} points; FF-3)")
        k[side] = int(digits)
    return k["attacker"], k["defender"]


def mercy_text(k_att: int, k_def: int) -> str:
    parts = [f"{side}:{k}" for side, k in (("attacker", k_att), ("defender", k_def)) if k >= 0]
    return ",".join(parts) if parts else "never"


def from_source(src: TomlSource) -> FiefRules:
    top = Table(src.data, src.name)

    dice = top.table("dice")
    thresholds = dice.get("dice_thresholds", list)
    if not (1 <= len(thresholds) <= 4) or not all(isinstance(x, int) and not isinstance(x, bool)
                                                  for x in thresholds):
        raise dice.error("dice_thresholds", "must be a list of 1 to 4 integers")
    if thresholds[0] != 1 or any(b <= a for a, b in zip(thresholds, thresholds[1:])):
        raise dice.error("dice_thresholds", f"must start at 1 and increase strictly, got {thresholds}")
    dice.done()
    max_dice = len(thresholds)

    darc = top.table("darc")
    darc_bonus = darc.get("bonus", int, 6, lo=0, hi=60)
    darc_removed = darc.get("removed", str, "last", choices=["last", "first"])
    darc.done()

    res = top.table("results")
    clamp = res.get("clamp_above_table", bool, True)
    max_sum = DIE_SIDES * max_dice + darc_bonus
    loss = np.zeros((len(TERRAINS), max_sum + 1), np.int64)
    for ti, name in enumerate(TERRAINS):
        row = res.get(name, list)
        if not all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 999 for x in row):
            raise res.error(name, "must be a list of integers from 0 to 999")
        # FF-2: a column for every sum the dice can make; only sums above them (Jeanne d'Arc's
        # bonus, FF-4) may read the last column (review AA #7: a row of 6 columns read sums 7-18
        # from the sixth, silently)
        need = DIE_SIDES * max_dice if clamp else max_sum
        if len(row) < need:
            raise res.error(name, f"has {len(row)} columns; needs {need}"
                            + (f" (one per sum of {max_dice} dice; only a sum above them, Jeanne "
                               "d'Arc's, reads the last column)" if clamp else
                               " (every reachable dice sum, clamp_above_table = false)"))
        if any(b < a for a, b in zip(row, row[1:])):
            raise res.error(name, "must not decrease as the dice sum grows")
        if row[DIE_SIDES - 1] < 1:
            raise res.error(name, "a single die must be able to inflict a loss (value at sum 6 >= 1),"
                            " otherwise a combat could last forever")
        for s in range(1, max_sum + 1):
            loss[ti, s] = row[min(s, len(row)) - 1]
    res.done()

    combat = top.table("combat")
    lords_removed = combat.get("lords_removed", str, "last", choices=["last", "first"])
    dl_att = combat.get("default_lords_attacker", int, 1, lo=0, hi=99)
    dl_def = combat.get("default_lords_defender", int, 1, lo=0, hi=99)
    combat.done()

    mercy = top.table("mercy")
    policy = mercy.get("policy", str, "never")
    try:
        default_mercy = parse_mercy(policy)
    except UsageError as exc:
        raise mercy.error("policy", str(exc)) from None
    grant = mercy.get("grant_probability", float, 1.0, lo=0.0, hi=1.0)
    needs_lord = mercy.get("requires_lords", bool, True)
    before_first = mercy.get("ask_before_first_round", bool, False)
    first = mercy.get("first_to_ask", str, "defender", choices=["attacker", "defender"])
    mercy.done()

    plague = top.table("plague")
    rounding = plague.get("removed_rounding", str, "down", choices=["down", "up"])
    survives = plague.get("lord_survives_at_least", int, 4, lo=1, hi=7)
    plague.done()

    revolt = top.table("revolt")
    ecus = revolt.get("ecus_per_conviction_point", int, 500, lo=1, hi=10**9)
    success = revolt.get("success_at_least", int, 4, lo=1, hi=100)
    revolt.done()
    top.done()

    params = np.zeros(N_PARAMS, np.int64)
    params[P_LORDS_FIRST] = int(lords_removed == "first")
    params[P_DARC_BONUS] = darc_bonus
    params[P_DARC_FIRST] = int(darc_removed == "first")
    params[P_MERCY_NEEDS_LORD] = int(needs_lord)
    params[P_MERCY_BEFORE_FIRST] = int(before_first)
    params[P_MERCY_DEFENDER_FIRST] = int(first == "defender")
    params[P_GRANT_THRESHOLD] = int(round(grant * GRANT_ONE))
    params[P_PLAGUE_ROUND_UP] = int(rounding == "up")
    params[P_PLAGUE_LORD_SURVIVES] = survives
    params[P_REVOLT_SUCCESS] = success
    params[P_REVOLT_ECUS] = ecus
    settings = {
        "results.clamp_above_table": clamp, "combat.lords_removed": lords_removed,
        "darc.removed": darc_removed, "mercy.policy": policy, "mercy.grant_probability": grant,
        "mercy.requires_lords": needs_lord, "mercy.ask_before_first_round": before_first,
        "mercy.first_to_ask": first, "plague.removed_rounding": rounding,
    }
    return FiefRules(
        dice_thresholds=np.array(thresholds, np.int64), loss=loss, params=params,
        grant_probability=params[P_GRANT_THRESHOLD] / GRANT_ONE, default_mercy=default_mercy,
        default_mercy_text=mercy_text(*default_mercy), default_lords=(dl_att, dl_def),
        settings=settings, source=src)


def terrain_index(name: str) -> int:
    """FF-3 terrain name → row index; UsageError naming the accepted values otherwise."""
    key = name.strip().lower()
    if key not in TERRAINS:
        raise UsageError(f"--terrain {name!r}: unknown terrain (use {', '.join(TERRAINS)})")
    return TERRAINS.index(key)


def darc_index(name: str) -> int:
    """FF-4 d'Arc side name → DARC_* constant; UsageError otherwise."""
    key = name.strip().lower()
    if key not in DARC_SIDES:
        raise UsageError(f"--darc {name!r}: unknown side (use {', '.join(DARC_SIDES)})")
    return DARC_SIDES.index(key)


def check_army(rules: FiefRules, side: str, points: int, lords: int, darc: bool,
               max_points: int = MAX_ARMY) -> None:
    """FF-1/FF-4: an army's points and Lords make sense (UsageError with one line otherwise)."""
    if not 1 <= points <= max_points:
        raise UsageError(f"--{side} {points}: points must be from 1 to {max_points}")
    if not 0 <= lords <= points:
        raise UsageError(f"--lords-{side} {lords}: must be from 0 to the {side}'s points ({points}); "
                         "each Lord counts 1 point (FF-1)")
    if darc and lords < 1:
        raise UsageError(f"--darc {side}: Jeanne d'Arc is one of the {side}'s Lords, "
                         f"so the {side} needs at least 1 Lord (FF-4)")


def check_mercy(rules: FiefRules, mercy: tuple[int, int], lords: tuple[int, int],
                mercy_given: bool, lords_given: tuple[bool, bool]) -> None:
    """FF-3: refuse (one UsageError line) a mercy threshold for a side that could never ask: with
    ``mercy.requires_lords`` only a side that still has a Lord asks, so a side with no Lord at all
    never does, and a run titled "mercy defender:5" measured a combat without mercy (review 248
    #4; Jeanne d'Arc without a Lord is refused the same way, :func:`check_army`). ``lords`` are
    the sides' Lords as played (a grid caps them at each cell's points, never below 1 from 1);
    ``mercy_given`` / ``lords_given`` say whether they came from ``--mercy`` / ``--lords-<side>``
    (else from the rules' ``mercy.policy`` / ``combat.default_lords_<side>``), which the line names."""
    if not rules.param(P_MERCY_NEEDS_LORD):
        return
    for i, side in enumerate(("attacker", "defender")):
        if mercy[i] < 0 or lords[i] >= 1:
            continue
        said = (f"--mercy {mercy_text(*mercy)}" if mercy_given
                else f'mercy.policy = "{rules.settings["mercy.policy"]}"')
        lords_said = (f"--lords-{side} {lords[i]}" if lords_given[i]
                      else f"combat.default_lords_{side} = {lords[i]}")
        raise UsageError(f"{said} with {lords_said}: the {side} would never ask for mercy "
                         f"(mercy.requires_lords = true: only a side that still has a Lord asks); "
                         f"give the {side} a Lord, or set mercy.requires_lords = false (FF-3)")
