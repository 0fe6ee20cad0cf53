"""A sweep directory written by hand, for tests of what a sweep page says: one integer setting,
every variant's players.parquet holding only the seat and the win share of planted winners (no game
played), so every number a test checks can be recomputed from the winners it planted.

Used by tests/sweep/test_review_l_sweep.py and test_review_m_sweep.py (it sits in tests/, which is
on the import path of every test folder, as tests/undrawn_figures.py)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq


def write_sweep(root: Path, name: str, values: list[int], winners: dict[int, np.ndarray],
                games: int) -> Path:
    """A Middle-Ages sweep of setting ``name`` over ``values`` at ``root`` (4 seats): variant ``i``
    has ``games`` games whose winner is ``winners[values[i]]`` (a seat index per game; the base
    rules' value is 0). Returns ``root``."""
    variants = []
    for i, v in enumerate(values):
        vid = f"v{i:03d}"
        variants.append({"id": vid, "label": f"{name}={v}", "values": {name: v}})
        d = root / "variants" / vid
        d.mkdir(parents=True)
        (d / "run.json").write_text(json.dumps({
            "game": "middle-ages", "players": 4, "games": games, "seed": 0,
            "rules_name": f"rules.toml with --set {name}={v}"}))
        w = np.zeros((games, 4))
        w[np.arange(games), winners[v]] = 1.0
        pq.write_table(pa.table({"seat": np.tile(np.arange(4), games), "win_share": w.ravel()}),
                       d / "players.parquet")
    (root / "sweep.json").write_text(json.dumps({
        "format": 1, "kind": "sweep", "game": "middle-ages", "players": None, "games": games,
        "seed": 0, "rules_name": "rules.toml", "rules_text": "[setup]\nstart_coins = 0\n",
        "settings": [], "strategies": None, "mode": "grid", "variants": variants,
        "varies": [{"text": f"{name}={values[0]}..{values[-1]}", "name": name, "kind": "int",
                    "values": values}]}))
    return root


def plant_winners(values: list[int], seat1: list[float], seat3: list[float], seat4: list[float],
                  games: int, seed: int) -> dict[int, np.ndarray]:
    """Each value's winner per game (a seat index), from the same uniform draw per game (common
    random numbers): seat 1 below its share, seat 4 above 1 − its share, seat 3 just below seat 4's,
    seat 2 the rest."""
    u = np.random.default_rng(seed).random(games)
    return {v: np.where(u < p1, 0, np.where(u >= 1 - p4, 3, np.where(u >= 1 - p4 - p3, 2, 1)))
            for v, p1, p3, p4 in zip(values, seat1, seat3, seat4)}


def swept_sensitivity(root: Path, name: str, values: list[int], winners: dict[int, np.ndarray],
                      n: int):
    """:func:`write_sweep` into ``root``, then the sweep's sensitivity as the sweep page reads it
    (``analysis.sweep.metrics.sensitivity``)."""
    from analysis.sweep.metrics import sensitivity

    write_sweep(root, name, values, winners, n)
    return sensitivity(root)
