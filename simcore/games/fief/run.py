"""One Fief matchup by Monte Carlo into a run directory (FF-1 … FF-4, FF-7).

:func:`simulate_combats` validates the matchup, plays the combats in bounded chunks with the
Numba kernel (one stream per combat, so results do not depend on threads or chunk size), streams
``games.parquet`` (one row per combat), ``players.parquet`` (attacker and defender rows with the
common columns) and ``summary.parquet`` through :class:`simcore.rundir.RunWriter`, writes
``run.json`` and prints the odds with 95 % Wilson intervals.

May import numpy, numba, pyarrow, rich, the standard library and the simcore packages.
"""

from __future__ import annotations

import contextlib
import math
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pyarrow as pa

from simcore.errors import UsageError
from simcore.games.fief import kernel as K
from simcore.games.fief.rules import (
    DARC_SIDES, TERRAINS, FiefRules, check_army, darc_index, load, mercy_text, parse_mercy,
    terrain_index,
)
import simcore
from simcore.rundir import GAMES, PLAYERS, SUMMARY, RunWriter, default_run_dir
from simcore.stats import Z95, wilson_interval

GAME = "fief-combat"
WINNER_NAMES = ("attacker", "defender", "both_wiped")
SEATS = ("attacker", "defender")
DEFAULT_CHUNK = 1 << 20
RAW_LIMIT = 10_000_000          # as simcore.runner: players.parquet by default only up to this

GAMES_SCHEMA = pa.schema([
    ("game", pa.int64()),
    ("winner", pa.int8()),                  # 0 attacker, 1 defender, 2 both wiped out (FF-3)
    ("by_mercy", pa.bool_()),               # the loser asked for mercy and it was granted
    ("rounds", pa.int16()),
    ("attacker_points_left", pa.int16()),
    ("defender_points_left", pa.int16()),
    ("attacker_soldiers_left", pa.int16()),
    ("defender_soldiers_left", pa.int16()),
    ("attacker_lords_left", pa.int16()),
    ("defender_lords_left", pa.int16()),
    ("attacker_lords_captured", pa.int16()),
    ("defender_lords_captured", pa.int16()),
    ("attacker_lords_killed", pa.int16()),
    ("defender_lords_killed", pa.int16()),
])

PLAYERS_SCHEMA = pa.schema([
    ("game", pa.int64()),
    ("seat", pa.int8()),                    # 0 attacker, 1 defender
    ("strategy", pa.string()),              # "attacker" / "defender"
    ("score", pa.int32()),                  # points left at the end
    ("win_share", pa.float32()),            # 1 winner, 0 loser, 0.5 each when both are wiped out
    ("rank", pa.int8()),                    # 1 winner, 2 loser, 1 each when both are wiped out
])

def wilson(k: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for k successes in n trials (95 % by default)."""
    if n <= 0:
        return (float("nan"), float("nan"))
    return wilson_interval(k / n, n, z)


@contextlib.contextmanager
def numba_threads(threads: int | None):
    """Run with ``threads`` Numba threads (restored afterwards); UsageError if out of range."""
    import numba

    if threads is None:
        yield
        return
    top = numba.config.NUMBA_NUM_THREADS
    if not 1 <= threads <= top:
        raise UsageError(f"--threads {threads}: must be from 1 to {top}")
    before = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        yield
    finally:
        numba.set_num_threads(before)


def as_count(value, what: str, lo: int = 1, hi: int = 10**12) -> int:
    """An integer option that may arrive as 1e6 (float) or "1e6"; UsageError otherwise."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        v = int(value)
    else:
        try:
            f = float(value)
        except (TypeError, ValueError):
            raise UsageError(f"{what} {value!r}: not a number") from None
        if not math.isfinite(f) or f != int(f):
            raise UsageError(f"{what} {value!r}: must be a whole number")
        v = int(f)
    if not lo <= v <= hi:
        raise UsageError(f"{what} {value!r}: must be a whole number from {lo} to {hi}")
    return v


def resolve_matchup(rules: FiefRules, *, attacker: int, defender: int, terrain: str, darc: str,
                    lords_attacker: int | None, lords_defender: int | None, mercy: str | None):
    """Validate a matchup; returns (terrain index, darc index, Lords, mercy thresholds)."""
    ti = terrain_index(terrain)
    di = darc_index(darc)
    la = rules.default_lords[0] if lords_attacker is None else int(lords_attacker)
    ld = rules.default_lords[1] if lords_defender is None else int(lords_defender)
    if lords_attacker is None:
        la = min(la, max(attacker, 0))
    if lords_defender is None:
        ld = min(ld, max(defender, 0))
    check_army(rules, "attacker", attacker, la, DARC_SIDES[di] == "attacker")
    check_army(rules, "defender", defender, ld, DARC_SIDES[di] == "defender")
    k = rules.default_mercy if mercy is None else parse_mercy(mercy)
    return ti, di, la, ld, k


def simulate_combats(*, attacker: int, defender: int, terrain: str, darc: str = "none",
                     games: int, seed: int = 0, rules_path: str | Path | None = None,
                     out: Path | None = None,
                     force: bool = False, threads: int | None = None, quiet: bool = False,
                     lords_attacker: int | None = None, lords_defender: int | None = None,
                     mercy: str | None = None, raw: bool | None = None,
                     chunk_size: int = DEFAULT_CHUNK) -> Path:
    """Play ``games`` combats of one matchup (FF-1 … FF-4) and write a run directory.

    Parameters
    ----------
    attacker, defender : points of each side (soldiers at face value + 1 per Lord, FF-1).
    terrain : the defender's terrain, ``open`` (also a sortie), ``castle`` or ``city`` (FF-2/FF-3).
    darc : ``none``, ``attacker`` or ``defender`` — the side with Jeanne d'Arc (FF-4).
    lords_attacker, lords_defender : Lords among the points (default ``[combat]
        default_lords_*`` of the rules, capped at the points).
    mercy : ``never``, ``attacker:K``, ``defender:K`` or both (default ``[mercy] policy``).
    games, seed : number of combats; combat i uses the stream ``stream_state(seed, i)``.
    out, force : the run directory (default ``runs/fief-combat-<UTC time>``); a non-empty one is
        replaced only with ``force``.
    threads : Numba threads (default: all); results do not depend on it.
    raw : write players.parquet (two rows per combat); games.parquet is always written. Default:
        True up to 1e7 combats (as the runner).
    chunk_size : combats per kernel call (memory bound); results do not depend on it.

    Returns the run directory. Raises :class:`UsageError` (one line) on bad input.
    """
    t_start = time.perf_counter()
    rules = load(rules_path)
    games = as_count(games, "--games")
    seed = as_count(seed, "--seed", lo=0, hi=2**63 - 1)
    chunk_size = as_count(chunk_size, "chunk_size", hi=1 << 26)
    ti, di, la, ld, k = resolve_matchup(rules, attacker=attacker, defender=defender, terrain=terrain,
                                        darc=darc, lords_attacker=lords_attacker,
                                        lords_defender=lords_defender, mercy=mercy)
    if raw is None:
        raw = games <= RAW_LIMIT
    if out is None:
        out = default_run_dir(GAME)
    tally = _Tally()
    seats = _SeatSums()
    kernel_time = 0.0
    with numba_threads(threads), RunWriter(out, force, players_schema=PLAYERS_SCHEMA if raw else None,
                                           games_schema=GAMES_SCHEMA) as w:
        progress = _progress(quiet, games)
        with progress as bar:
            task = bar.add_task("combats", total=games) if bar else None

            def store(first: int, res: dict) -> None:
                tally.add(res)
                players = _players_columns(first, res)
                seats.add(players)
                w.write(GAMES, _games_table(first, res, la, ld))
                if raw:
                    w.write(PLAYERS, _players_table(players))

            # Chunk k is written by one background thread while chunk k+1 is played (the kernel
            # releases the GIL); at most two chunks are in memory.
            with ThreadPoolExecutor(max_workers=1) as pool:
                pending = None
                for first in range(0, games, chunk_size):
                    n = min(chunk_size, games - first)
                    t0 = time.perf_counter()
                    res = _run_chunk(rules, first, n, seed, attacker, defender, la, ld, ti, di, k)
                    kernel_time += time.perf_counter() - t0
                    if pending is not None:
                        pending.result()
                    pending = pool.submit(store, first, res)
                    if bar:
                        bar.advance(task, n)
                if pending is not None:
                    pending.result()
        w.write_table(SUMMARY, seats.table())
        wall = time.perf_counter() - t_start
        results = tally.results()
        meta = {
            "game": GAME,
            "players": 2,
            "games": games,
            "seed": seed,
            "strategies": list(SEATS),
            "rules_name": str(rules.source.name),
            "rules_sha256": rules.source.sha256,
            "rules_text": rules.source.text,
            "rules_settings": rules.settings,
            "version": simcore.__version__,
            "matchup": {"attacker": attacker, "defender": defender, "terrain": TERRAINS[ti],
                        "darc": DARC_SIDES[di], "lords_attacker": la, "lords_defender": ld,
                        "mercy": mercy_text(*k)},
            "stream": "combat i uses simcore.rng.stream_state(seed, i)",
            "columns": {"winner": dict(enumerate(WINNER_NAMES)), "seat": dict(enumerate(SEATS))},
            "threads": _threads_used(threads),
            "chunk_size": chunk_size,
            "raw_players": raw,
            "wall_time_s": round(wall, 4),
            "kernel_time_s": round(kernel_time, 4),
            "games_per_s": round(games / wall, 1) if wall > 0 else None,
            "created_utc": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "results": results,
        }
        path = w.finish(meta)
    if not quiet:
        print_odds(meta)
    return path


def _threads_used(threads: int | None) -> int:
    import numba

    return int(threads or numba.get_num_threads())


def _progress(quiet: bool, games: int):
    if quiet or games < 4 * DEFAULT_CHUNK:
        return contextlib.nullcontext(None)
    from rich.progress import Progress

    return Progress(transient=True)


def _run_chunk(rules, first, n, seed, a0, d0, la, ld, ti, di, k) -> dict:
    cols = {name: np.empty(n, np.int64) for name in
            ("winner", "mercy", "rounds", "a", "d", "lla", "lld", "capa", "capd")}
    K.combat_chunk(np.int64(first), np.int64(n), np.uint64(seed), np.int64(a0), np.int64(d0),
                   np.int64(la), np.int64(ld), np.int64(ti), np.int64(di), np.int64(k[0]),
                   np.int64(k[1]), *rules.kernel_args(), cols["winner"], cols["mercy"],
                   cols["rounds"], cols["a"], cols["d"], cols["lla"], cols["lld"], cols["capa"],
                   cols["capd"])
    return cols


def _games_table(first: int, r: dict, la: int, ld: int) -> pa.Table:
    n = r["winner"].shape[0]
    i16 = lambda x: x.astype(np.int16)  # noqa: E731
    return pa.Table.from_arrays([
        np.arange(first, first + n, dtype=np.int64),
        r["winner"].astype(np.int8),
        r["mercy"].astype(bool),
        i16(r["rounds"]),
        i16(r["a"]), i16(r["d"]),
        i16(r["a"] - r["lla"]), i16(r["d"] - r["lld"]),
        i16(r["lla"]), i16(r["lld"]),
        i16(r["capa"]), i16(r["capd"]),
        i16(la - r["lla"] - r["capa"]), i16(ld - r["lld"] - r["capd"]),
    ], schema=GAMES_SCHEMA)


_SEAT_NAMES = pa.array(list(SEATS), pa.string())


def _players_columns(first: int, r: dict) -> dict[str, np.ndarray]:
    """Two rows per combat (attacker then defender) with the common player columns."""
    n = r["winner"].shape[0]
    score = np.empty(2 * n, np.int32)
    score[0::2] = r["a"]
    score[1::2] = r["d"]
    win = r["winner"]
    share = np.empty(2 * n, np.float32)
    share[0::2] = np.where(win == K.ATTACKER_WINS, 1.0, np.where(win == K.BOTH_WIPED, 0.5, 0.0))
    share[1::2] = 1.0 - share[0::2]
    return {"game": np.repeat(np.arange(first, first + n, dtype=np.int64), 2),
            "seat": np.tile(np.array([0, 1], np.int8), n), "score": score, "win_share": share,
            "rank": np.where(share >= 0.5, 1, 2).astype(np.int8)}


def _players_table(c: dict[str, np.ndarray]) -> pa.Table:
    strategy = pa.DictionaryArray.from_arrays(pa.array(c["seat"]), _SEAT_NAMES).cast(pa.string())
    return pa.Table.from_arrays([c["game"], c["seat"], strategy, c["score"], c["win_share"],
                                 c["rank"]], schema=PLAYERS_SCHEMA)


class _SeatSums:
    """summary.parquet in the runner's layout: per seat and per strategy (here the same two
    groups), games, outright and shared wins, sums and sums of squares of win_share and score."""

    def __init__(self) -> None:
        self.n = 0
        self.outright = np.zeros(2, np.int64)
        self.shared = np.zeros(2, np.int64)
        self.sums = {c: np.zeros(2) for c in ("win_share", "score")}
        self.sq = {c: np.zeros(2) for c in ("win_share", "score")}

    def add(self, players: dict[str, np.ndarray]) -> None:
        self.n += players["score"].shape[0] // 2
        for c in self.sums:
            v = players[c].reshape(-1, 2).astype(np.float64)
            self.sums[c] += v.sum(axis=0)
            self.sq[c] += (v * v).sum(axis=0)
        w = players["win_share"].reshape(-1, 2)
        self.outright += (w == 1.0).sum(axis=0)
        self.shared += ((w > 0) & (w < 1.0)).sum(axis=0)

    def table(self) -> pa.Table:
        def group(kind: str) -> dict:
            cols = {"group": [kind] * 2, "seat": np.array([0, 1] if kind == "seat" else [-1, -1], np.int8),
                    "strategy": list(SEATS), "games": np.array([self.n, self.n], np.int64),
                    "outright_wins": self.outright, "shared_wins": self.shared}
            for c in self.sums:
                cols[f"{c}_sum"] = self.sums[c]
                cols[f"{c}_sq_sum"] = self.sq[c]
            return cols

        return pa.concat_tables([pa.table(group("seat")), pa.table(group("strategy"))])


class _Tally:
    """Sufficient statistics accumulated chunk by chunk (bounded memory)."""

    def __init__(self) -> None:
        self.n = 0
        self.winner = np.zeros(3, np.int64)
        self.mercy = np.zeros(3, np.int64)
        self.sums = {key: 0.0 for key in ("rounds", "a", "d", "lla", "lld", "capa", "capd")}
        self.sumsq = dict.fromkeys(self.sums, 0.0)

    def add(self, r: dict) -> None:
        self.n += r["winner"].shape[0]
        self.winner += np.bincount(r["winner"], minlength=3)[:3]
        self.mercy += np.bincount(r["winner"], weights=r["mercy"], minlength=3)[:3].astype(np.int64)
        for key in self.sums:
            x = r[key].astype(np.float64)
            self.sums[key] += float(x.sum())
            self.sumsq[key] += float((x * x).sum())

    def mean_ci(self, key: str) -> tuple[float, float, float]:
        n = self.n
        m = self.sums[key] / n
        var = max(self.sumsq[key] / n - m * m, 0.0) * n / max(n - 1, 1)
        half = Z95 * math.sqrt(var / n)
        return m, m - half, m + half

    def results(self) -> dict:
        out = {"games": self.n}
        for code, name in enumerate(WINNER_NAMES):
            k = int(self.winner[code])
            lo, hi = wilson(k, self.n)
            key = {"attacker": "p_attacker_wins", "defender": "p_defender_holds",
                   "both_wiped": "p_both_wiped"}[name]
            out[key] = {"count": k, "p": k / self.n, "ci95": [lo, hi]}
        for code, key in ((0, "p_attacker_wins_by_mercy"), (1, "p_defender_holds_by_mercy")):
            k = int(self.mercy[code])
            out[key] = {"count": k, "p": k / self.n, "ci95": list(wilson(k, self.n))}
        for key, name in (("rounds", "expected_rounds"), ("a", "attacker_points_left"),
                          ("d", "defender_points_left"), ("lla", "attacker_lords_left"),
                          ("lld", "defender_lords_left"), ("capa", "attacker_lords_captured"),
                          ("capd", "defender_lords_captured")):
            m, lo, hi = self.mean_ci(key)
            out[name] = {"mean": m, "ci95": [lo, hi]}
        return out


def print_odds(meta: dict) -> None:
    """Rich table of a run's odds with 95 % Wilson intervals (FF-7)."""
    from rich.console import Console
    from rich.table import Table

    m = meta["matchup"]
    r = meta["results"]
    title = (f"Fief combat: attacker {m['attacker']} pts ({m['lords_attacker']} Lords, open) vs "
             f"defender {m['defender']} pts ({m['lords_defender']} Lords, {m['terrain']}); "
             f"d'Arc: {m['darc']}; mercy: {m['mercy']}; {meta['games']:,} combats, seed {meta['seed']}")
    t = Table(title=title)
    t.add_column("outcome")
    t.add_column("estimate", justify="right")
    t.add_column("95% interval", justify="right")
    for key, label in (("p_attacker_wins", "P(attacker wins)"),
                       ("p_attacker_wins_by_mercy", "  of which by mercy"),
                       ("p_defender_holds", "P(defender holds)"),
                       ("p_defender_holds_by_mercy", "  of which by mercy"),
                       ("p_both_wiped", "P(both wiped out)")):
        v = r[key]
        t.add_row(label, f"{v['p']:.4f}", f"{v['ci95'][0]:.4f} – {v['ci95'][1]:.4f}")
    for key, label in (("expected_rounds", "rounds (mean)"),
                       ("attacker_points_left", "attacker points left (mean)"),
                       ("defender_points_left", "defender points left (mean)"),
                       ("attacker_lords_left", "attacker Lords left (mean)"),
                       ("defender_lords_left", "defender Lords left (mean)")):
        v = r[key]
        t.add_row(label, f"{v['mean']:.3f}", f"{v['ci95'][0]:.3f} – {v['ci95'][1]:.3f}")
    console = Console()
    console.print(t)
    console.print(f"{meta['games_per_s']:,.0f} combats/s (wall {meta['wall_time_s']:.2f} s, "
                  f"kernel {meta['kernel_time_s']:.2f} s)")
