"""Pig's rules file → a frozen parameter array (PG-3 target, PG-4 turn bound); each setting is
checked with one line naming file and key. May import :mod:`simcore.config` and numpy."""

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simcore.config import Table, TomlSource, read_toml

P_TARGET, P_MAX_TURNS = 0, 1


def default_rules_path() -> Path:
    return Path(__file__).with_name("rules.toml")


@dataclass(frozen=True)
class PigRules:
    params: np.ndarray        # int64[2]: target, max_turns
    source: TomlSource


def load(path=None) -> PigRules:
    src = read_toml(path or default_rules_path(), what="rules")
    top = Table(src.data, src.name)
    params = np.array([top.get("target", int, 100, lo=1, hi=30000),
                       top.get("max_turns", int, 2000, lo=1, hi=30000)], np.int64)
    top.done()
    params.flags.writeable = False
    return PigRules(params, src)
