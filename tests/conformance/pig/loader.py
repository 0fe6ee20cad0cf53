"""Pig's bots as data (PG-5): ``kind`` random or hold_at (with a ``threshold``), as the float64
row the kernel reads: [kind, threshold]. May import :mod:`strategies.common`."""

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from strategies.common import StrategyFiles

KINDS = {"random": 0, "hold_at": 1}


@dataclass(frozen=True)
class Strategy:
    name: str
    description: str
    kind: str
    row: np.ndarray
    weights: dict = field(default_factory=dict)
    bias: dict = field(default_factory=dict)


def parse(t, name: str) -> Strategy:
    description = t.get("description", str, "")
    kind = t.get("kind", str, choices=list(KINDS))
    threshold = t.get("threshold", int, 0 if kind == "random" else ..., lo=0, hi=1000)
    t.done()
    return Strategy(name, description, kind, np.array([KINDS[kind], threshold], np.float64))


LOADER = StrategyFiles(Path(__file__).with_name("strategies.toml"), parse, 2)
presets, load_file, lookup, resolve = LOADER.presets, LOADER.load_file, LOADER.lookup, LOADER.resolve
