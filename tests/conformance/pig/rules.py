"""Pig's rules file → a frozen parameter array (PG-3 target, PG-4 turn bound); each setting is
checked with one line naming file and key. May import :mod:`simcore.config` and numpy."""

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simcore.config import RulesFile, Table, TomlSource

P_TARGET, P_MAX_TURNS = 0, 1


@dataclass(frozen=True)
class PigRules:
    params: np.ndarray        # int64[2]: target, max_turns
    source: TomlSource


def from_source(src: TomlSource) -> PigRules:
    top = Table(src.data, src.name)
    params = np.array([top.get("target", int, 100, lo=1, hi=30000),
                       top.get("max_turns", int, 2000, lo=1, hi=30000)], np.int64)
    top.done()
    params.flags.writeable = False
    return PigRules(params, src)


RULES = RulesFile(Path(__file__).with_name("rules.toml"), from_source)
default_rules_path, load, loads = RULES.default_rules_path, RULES.load, RULES.loads
