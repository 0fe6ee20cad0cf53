"""Synthetic run directories for the analysis and report tests (imported by both conftests).

``write_run`` writes players.parquet / games.parquet / run.json with the simulator's exact Middle-Ages
dtypes (other columns are written with the dtype numpy gives them); ``hand_run`` is a 4-game,
2-player run whose metrics are worked out by hand in the tests; ``synthetic_run`` draws a larger
random run through the benchmark's generator (benchmarks/bench_report.py), so tests and benchmark
exercise the same schema.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parents[2]

DOMAINS = ("champs", "moulin", "village", "rempart", "marche", "caserne", "eglise", "palais")
PLAYER_TYPES = {"game": pa.int64(), "seat": pa.int8(), "strategy": pa.string(), "score": pa.int32(),
                "win_share": pa.float32(), "rank": pa.int8(), "graveyard": pa.int8(), "penalty": pa.int16(),
                "deal": pa.int64(), "rotation": pa.int8()}
PLAYER_TYPES.update({f"tiles_{d}": pa.int8() for d in DOMAINS})
PLAYER_TYPES.update({f"event_gain_{k}": pa.int16() for k in range(1, 5)})
PLAYER_TYPES.update({f"coins_before_event_{k}": pa.int16() for k in range(1, 5)})
PLAYER_TYPES.update({f"coins_turn_{t}": pa.int16() for t in range(1, 17)})
GAME_TYPES = {"game": pa.int64(), "n_players": pa.int8(), "reshuffles": pa.int8()}
GAME_TYPES.update({f"event_{k}": pa.int8() for k in range(1, 5)})


def _table(cols: dict, types: dict) -> pa.Table:
    arrays = {}
    for name, values in cols.items():
        t = types.get(name)
        arrays[name] = pa.array(list(values) if t == pa.string() else np.asarray(values), type=t)
    return pa.table(arrays)


def write_run(path: Path, players: dict, games: dict | None = None, **meta) -> Path:
    """Write a run directory from column dicts (values in row order)."""
    path = Path(path)
    path.mkdir(parents=True, exist_ok=True)
    pq.write_table(_table(players, PLAYER_TYPES), path / "players.parquet")
    if games is not None:
        pq.write_table(_table(games, GAME_TYPES), path / "games.parquet")
    n = int(np.max(players["seat"])) + 1
    first = min(players["game"])     # run.json names each seat's bot as in the first game
    seats = {s: b for g, s, b in zip(players["game"], players["seat"], players["strategy"]) if g == first}
    info = {"game": "middle-ages", "players": n, "games": len(set(players["game"])), "seed": 0,
            "strategies": [seats.get(s, "random") for s in range(n)], "rules_sha256": "test", "rules_name": "test", "version": "test"}
    info.update(meta)
    (path / "run.json").write_text(json.dumps(info), encoding="utf-8")
    return path


# The hand-worked run: 4 games, 2 players. Per game (seat 0, seat 1):
#   game 0: scores 10, 5  → seat 0 wins;        strategies A, B
#   game 1: scores 7, 7   → shared win (½, ½);  strategies B, A
#   game 2: scores 3, 9   → seat 1 wins;        strategies A, A
#   game 3: scores 12, 2  → seat 0 wins;        strategies A, B
HAND = {
    "game": [0, 0, 1, 1, 2, 2, 3, 3],
    "seat": [0, 1] * 4,
    "strategy": ["A", "B", "B", "A", "A", "A", "A", "B"],
    "score": [10, 5, 7, 7, 3, 9, 12, 2],
    "win_share": [1, 0, 0.5, 0.5, 0, 1, 1, 0],
    "rank": [1, 2, 1, 1, 2, 1, 1, 2],
    "tiles_champs": [2, 3, 1, 1, 4, 0, 1, 2],
    "tiles_palais": [1, 0, 1, 1, 0, 2, 2, 0],
    # Coins before events 1..4 (turns 4, 8, 12, 16):
    "coins_before_event_1": [5, 3, 1, 0, 2, 2, 0, 1],
    "coins_before_event_2": [8, 9, 1, 0, 2, 2, 5, 1],
    "coins_before_event_3": [9, 9, 1, 0, 2, 2, 5, 1],
    "coins_before_event_4": [12, 4, 1, 0, 2, 2, 5, 1],
    # Coins gained by each event (slot k):
    "event_gain_1": [2, 0, 3, 1, 0, 0, 0, 0],
    "event_gain_2": [1, 1, 0, 2, 1, 3, 2, 2],
    "event_gain_3": [0, 4, 0, 0, 2, 0, 1, 1],
    "event_gain_4": [0, 0, 5, 5, 0, 0, 4, 0],
}
HAND_GAMES = {
    "game": [0, 1, 2, 3], "n_players": [2, 2, 2, 2], "reshuffles": [0, 0, 0, 0],
    # Event ids in firing order; event 0 fires in games 0 (slot 1), 1 (slot 2), 2 (slot 1), not in 3.
    "event_1": [0, 1, 0, 5], "event_2": [1, 0, 2, 2], "event_3": [2, 4, 1, 1], "event_4": [3, 5, 3, 4],
}


def load_bench():
    spec = importlib.util.spec_from_file_location("bench_report", ROOT / "benchmarks" / "bench_report.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def synthetic_run(path: Path, games: int, players: int = 4, seed: int = 1, **kw) -> Path:
    """A random Middle-Ages-schema run (see benchmarks/bench_report.write_synthetic_run)."""
    return load_bench().write_synthetic_run(Path(path), games, players, seed=seed, **kw)


def medievallons_run(path: Path, games: int, players: int = 4, seed: int = 0,
                     copies: dict[str, int] | None = None, strategies: str = "balanced") -> Path:
    """A real Médiévallons run through the simulator (Numba kernel): ``copies`` edits the shipped
    rules' ``[deck.copies]`` (e.g. ``{"chevalier": 7}``, the card ablation as a rules variant)."""
    from simcore import runner
    from simcore.games.medievallons import rules

    r = rules.load()
    if copies:
        r = rules.with_copies(r, copies)
    prep = runner.prepare("medievallons", players=players, strategies=strategies, rules_arrays=r)
    return runner.run(prep, games=games, seed=seed, out=Path(path), quiet=True)


def wilson_ref(s, n, level: float = 0.95) -> tuple[float, float]:
    """The toolkit's Wilson interval computed independently: statsmodels' score interval, then
    Brown, Cai & DasGupta's (2001, §4.1.1) exact Poisson ends for 0 < x ≤ x* successes (failures; x*
    = 2 for n ≤ 50, else 3; a fractional count as the whole count nearest it, session 64),
    ½ χ²(2x; α/2) / n from scipy (analysis.stats.wilson's docstring)."""
    from scipy.stats import chi2
    from statsmodels.stats.proportion import proportion_confint

    s, n = float(s), float(n)
    p = min(max(s / n, 0.0), 1.0)
    z = float(__import__("scipy.stats", fromlist=["norm"]).norm.ppf(1 - (1 - level) / 2))
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5 / (1 + z * z / n)
    low, high = max(centre - half, 0.0), min(centre + half, 1.0)
    if s.is_integer():                         # whole counts: statsmodels' own interval
        low, high = proportion_confint(int(s), int(n), alpha=1 - level, method="wilson")
    q = (1 - level) / 2
    ends = 2 if n <= 50 else 3                 # their x*
    if 0 < s < ends + 0.5:
        low = chi2.ppf(q, 2 * s) / 2 / n
    if 0 < n - s < ends + 0.5:
        high = 1 - chi2.ppf(q, 2 * (n - s)) / 2 / n
    return float(low), float(high)
