"""Helpers for the Fief tests (imported by name: tests/fief is on sys.path under pytest)."""

from __future__ import annotations

import re

import numpy as np

from simcore.games.fief import rules as fief_rules
from simcore.games.fief.kernel import fight_forced


def variant(**settings) -> fief_rules.FiefRules:
    """The shipped rules with some ``key = value`` lines replaced (keys are unique in the file)."""
    text = fief_rules.default_rules_path().read_text(encoding="utf-8")
    for key, value in settings.items():
        text, n = re.subn(rf"(?m)^{key}\s*=\s*[^#\n]*", f"{key} = {value} ", text)
        assert n == 1, key
    return fief_rules.loads(text, name="<variant>")


def kernel_fight(rules, a, d, terrain="castle", *, la=1, ld=1, darc="none", mercy=(-1, -1),
                 seed=0, index=0, forced=()):
    """The kernel's combat for one (seed, index), as a tuple, plus the forced dice it consumed."""
    r, used = fight_forced(a, d, la, ld, fief_rules.TERRAINS.index(terrain),
                           fief_rules.DARC_SIDES.index(darc), mercy[0], mercy[1],
                           *rules.kernel_args(), np.uint64(seed), np.int64(index),
                           np.array(forced, np.int64))
    return tuple(int(x) for x in r), int(used)
