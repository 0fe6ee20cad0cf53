"""Mergeable statistics of a run: the primary output every analysis table derives from.

A :class:`RunStats` holds, for one configuration (game, player count, line-up, seat rotation),
every sum the analysis needs, per seat, strategy, role, event card, tile count, turn and end
reason: counts and sums per (seat, strategy) cell, score histograms, sums of cross-products of
the per-seat win shares and Ludii credits (the Balance intervals' covariances), the game-flow
checkpoints by final rank, lead changes, the winner's margin, event impact per slot and card,
histograms of every integer player column by seat (with the win shares, scores and squared scores
of each value: tile impact, guild founders, objective cards), Domain mixes, head-to-head
matchups (per game or per deal), and histograms of every integer game column (length by end
reason, reshuffles, the Seigneur's square). Which statistics a game gets is read from its spec's
column roles (:data:`simcore.contract.COLUMN_ROLES`), never from column names.

**Exact and order-free.** Every quantity is an integer: win shares in units of 1/L with
L = lcm(1 … P) (a win shared by k ≤ P players is L/k units), Ludii credits in units of
1/(2(P − 1)), per-unit matchup means in units of 1/D (D makes every possible mean an integer,
:func:`_matchup_units`), scores, counts and coins as they are. Sums are int64 (a chunk's sums are
formed in int64 by one jitted pass per group of columns, :func:`_group_sums`, or in float64 by
``bincount``, exact below 2^53, then rounded) and merging adds them, so the
result is identical for any chunk size, thread count, worker count or merge order (tests:
tests/test_accumulate.py). Histograms have one bin per integer value (width 1: quantiles are
exact) over a range that grows as values appear. The statistics of 1e9 games are the size of
those of 1e3, a few hundred kB of JSON.

**Stored** as ``stats.json`` in the run directory (:data:`STATS_FILE`, format
:data:`FORMAT` version :data:`VERSION`: the layout, then each array's shape, value offset and
data). :func:`simcore.runner.run` writes it; :func:`simcore.runner.collect` returns it in memory;
:mod:`analysis.load` reads it (``RunSet.stats``).

May import numpy, pyarrow, the standard library and :mod:`simcore.contract` / :mod:`simcore.games`
(the registry, for a game's spec), and numba, lazily, when a chunk's statistics are filled (the
jitted helpers :func:`_group_sums` and :func:`_top_by_game`, cached on disk; reading stats.json
does not import it). Cost and figures: docs/analysis.md (Performance), benchmarks/bench_stats_fill.py.
"""

from __future__ import annotations

import json
import math
from functools import reduce
from pathlib import Path
from typing import Any

import numpy as np

FORMAT = "balance-toolkit statistics"
VERSION = 1
STATS_FILE = "stats.json"
LIMIT = 1 << 62          # a total beyond this would overflow int64 soon: refused

_INT_DTYPES = ("int8", "int16", "int32", "int64", "bool")
_SKIP_PLAYER = ("game", "seat", "strategy", "deal", "rotation")


def _lcm(values) -> int:
    return reduce(lambda a, b: a * b // math.gcd(a, b), [int(v) for v in values], 1)


def win_units(n_players: int) -> int:
    """L = lcm(1 … P): a win shared by k ≤ P players is exactly L / k units."""
    return _lcm(range(1, n_players + 1))


def _matchup_units(n_players: int, games_per_deal: int) -> int:
    """D: every per-unit matchup mean (an ahead share in halves, or a win share in 1/L, averaged
    over the a·b strategy-A-against-B seat pairs of the g games of a unit) is a multiple of 1/D."""
    P, g = n_players, games_per_deal
    cnts = [a * b * g for a in range(1, P + 1) for b in range(0, P + 1 - a)]
    return _lcm([2, win_units(P)]) * _lcm([c for c in cnts if c > 0])


def _binc(index: np.ndarray, size: int, weights: np.ndarray | None = None) -> np.ndarray:
    """Counts or integer-weighted sums per index, exact (float64 sums stay below 2^53 here)."""
    if weights is None:
        return np.bincount(index, minlength=size).astype(np.int64, copy=False)
    if weights.dtype != np.float64:
        weights = weights.astype(np.float64)
    return np.rint(np.bincount(index, weights=weights, minlength=size)).astype(np.int64)


def _group_sums_py(index, size, weights, squared):
    """Row 0: how many times each index in [0, size) occurs; row k + 1: the sum of ``weights[k]``
    over its occurrences; then, for each k with ``squared[k]``, in order, the sum of its squares.
    Sums in int64: exact, whatever the order. Compiled by :func:`_group_sums` (Numba, cached on
    disk; no globals but numpy)."""
    m = weights.shape[0]
    nsq = 0
    for k in range(m):
        nsq += squared[k]
    out = np.zeros((1 + m + nsq, size), np.int64)
    for i in range(index.shape[0]):
        j = index[i]
        if j < 0 or j >= size:          # an index outside the table: the caller raises
            return out, False
        out[0, j] += 1
        q = 1 + m
        for k in range(m):
            x = np.int64(weights[k, i])
            out[k + 1, j] += x
            if squared[k]:
                out[q, j] += x * x
                q += 1
    return out, True


def _top_py(x):
    """For each game (row of ``x``, games × seats): the number of seats holding the maximum, the
    lowest such seat, the maximum and the minimum (int64). Jitted by :func:`_top_by_game`."""
    G, P = x.shape
    count = np.zeros(G, np.int64)
    seat = np.zeros(G, np.int64)
    best = np.zeros(G, np.int64)
    low = np.zeros(G, np.int64)
    for g in range(G):
        b = np.int64(x[g, 0])
        lo = b
        c = 1
        t = 0
        for s in range(1, P):
            v = np.int64(x[g, s])
            if v > b:
                b, c, t = v, 1, s
            elif v == b:
                c += 1
            if v < lo:
                lo = v
        count[g], seat[g], best[g], low[g] = c, t, b, lo
    return count, seat, best, low


_COMPILED: dict[str, Any] = {}


def _jit(name: str, fn):
    out = _COMPILED.get(name)
    if out is None:
        from numba import njit

        out = _COMPILED[name] = njit(cache=True, nogil=True)(fn)
    return out


def _top_by_game(column, P: int):
    """:func:`_top_py` of a game-major player column (rows in table order)."""
    x = np.ascontiguousarray(np.asarray(column)).reshape(-1, P)
    return _jit("top", _top_py)(x)


def _sole_by_game(column, P: int) -> np.ndarray:
    """Seat with strictly the most of a game-major player column in each game, -1 where shared."""
    count, seat, _, _ = _top_by_game(column, P)
    return np.where(count == 1, seat, -1)


def _group_sums(index: np.ndarray, size: int, weights: np.ndarray, squared=None) -> np.ndarray:
    """Counts and integer sums (and sums of squares where ``squared``) per index in one pass
    (:func:`_group_sums_py`, jitted on first use: numba is imported only by a process that fills
    statistics, not by one that reads them). ``weights``: an int32 or int64 matrix (:func:`_stack`),
    one row per quantity."""
    fn = _jit("group_sums", _group_sums_py)
    index = np.ascontiguousarray(index, np.int64)
    weights = np.ascontiguousarray(weights)
    if weights.dtype not in (np.int32, np.int64):
        weights = weights.astype(np.int64)
    squared = np.zeros(len(weights), np.int64) if squared is None else np.asarray(squared, np.int64)
    out, ok = fn(index, int(size), weights.reshape(len(weights), -1), squared)
    if not ok:
        raise ValueError(f"statistics: an index outside [0, {size})")
    return out


def _wide(*columns) -> type:
    """int32 when every column (those not None) holds at most 16-bit integers: sums and
    differences of a few of them then stay exact in int32 (half int64's memory); else int64."""
    return np.int32 if all(np.asarray(c).dtype.itemsize <= 2 for c in columns if c is not None) \
        else np.int64


def _stack(rows, n: int) -> np.ndarray:
    """Matrix (len(rows), n) of the given row vectors (any integer or bool dtype): int32 when
    every row's dtype fits in int32 (half the memory to write and read), else int64."""
    rows = [np.asarray(r) for r in rows]
    small = all(r.dtype == np.bool_ or (r.dtype.kind in "iu" and r.dtype.itemsize <= 4
                                        and r.dtype != np.uint32) for r in rows)
    out = np.empty((len(rows), n), np.int32 if small else np.int64)
    for k, r in enumerate(rows):
        out[k] = np.ravel(r)
    return out


class Valued:
    """Integer sums per cell and per integer value: ``a[..., v - lo]`` (cells first, values
    last); the value range grows as values appear."""

    __slots__ = ("lo", "a")

    def __init__(self, cells: tuple[int, ...], lo: int | None = None, a: np.ndarray | None = None):
        self.lo = lo
        self.a = a if a is not None else np.zeros((*cells, 0), np.int64)

    @property
    def values(self) -> np.ndarray:
        return np.arange(self.lo or 0, (self.lo or 0) + self.a.shape[-1], dtype=np.int64)

    def _cover(self, lo: int, hi: int) -> None:
        if self.lo is None:
            self.lo = lo
            self.a = np.zeros((*self.a.shape[:-1], hi - lo + 1), np.int64)
            return
        old_hi = self.lo + self.a.shape[-1] - 1
        new_lo, new_hi = min(lo, self.lo), max(hi, old_hi)
        if (new_lo, new_hi) != (self.lo, old_hi):
            a = np.zeros((*self.a.shape[:-1], new_hi - new_lo + 1), np.int64)
            a[..., self.lo - new_lo: self.lo - new_lo + self.a.shape[-1]] = self.a
            self.lo, self.a = new_lo, a

    def add(self, cell: np.ndarray | int, value: np.ndarray, weights: np.ndarray | None = None) -> None:
        v = np.asarray(value).astype(np.int64, copy=False).ravel()
        if v.size == 0:
            return
        self._cover(int(v.min()), int(v.max()))
        V = self.a.shape[-1]
        ncell = int(np.prod(self.a.shape[:-1], dtype=np.int64))
        idx = np.asarray(cell, np.int64).ravel() * V + (v - self.lo)
        self.a += _binc(idx, ncell * V, None if weights is None else np.ravel(weights)).reshape(self.a.shape)

    def add_many(self, cell, value: np.ndarray, targets) -> None:
        """Several sums over the same (cell, value) pairs at once: ``targets`` is a sequence of
        (Valued or None for ``self``, weights or None for counts); every target has the cells
        of ``self``. One index computation for all."""
        v = np.asarray(value).astype(np.int64, copy=False).ravel()
        if v.size == 0:
            return
        lo, hi = int(v.min()), int(v.max())
        for h, _ in targets:
            (h or self)._cover(lo, hi)
        V = self.a.shape[-1]
        ncell = int(np.prod(self.a.shape[:-1], dtype=np.int64))
        idx = np.asarray(cell, np.int64).ravel() * V + (v - self.lo)
        for h, weights in targets:
            h = h or self
            if h.lo != self.lo or h.a.shape != self.a.shape:
                h.add(cell, value, weights)
                continue
            h.a += _binc(idx, ncell * V, None if weights is None else np.ravel(weights)).reshape(h.a.shape)

    def add_stack(self, cell, value: np.ndarray, targets, weights: np.ndarray, squared=None) -> None:
        """Counts per (cell, value) into ``self`` and, into ``targets`` (Valued with the cells of
        ``self``) in order, the sums of each row of ``weights`` (:func:`_stack`, one column per
        value), then the sums of squares of the rows flagged in ``squared``, in one pass
        (:func:`_group_sums`)."""
        v = np.asarray(value).ravel()
        if v.size == 0:
            return
        lo, hi = int(v.min()), int(v.max())
        for h in (self, *targets):
            h._cover(lo, hi)
        if any(h.lo != self.lo or h.a.shape != self.a.shape for h in targets):
            self.add(cell, v)
            w64 = weights.astype(np.int64)
            rows = list(w64) + [w * w for w, q in zip(w64, squared if squared is not None
                                                      else [0] * len(w64)) if q]
            for h, w in zip(targets, rows):
                h.add(cell, v, w)
            return
        V = self.a.shape[-1]
        ncell = int(np.prod(self.a.shape[:-1], dtype=np.int64))
        idx = np.asarray(cell, np.int64).ravel() * V + (v.astype(np.int64) - self.lo)
        out = _group_sums(idx, ncell * V, weights, squared)
        self.a += out[0].reshape(self.a.shape)
        for k, h in enumerate(targets):
            h.a += out[k + 1].reshape(h.a.shape)

    def merge(self, other: "Valued") -> None:
        if other.lo is None:
            return
        self._cover(other.lo, other.lo + other.a.shape[-1] - 1)
        s = other.lo - self.lo
        self.a[..., s: s + other.a.shape[-1]] += other.a

    def copy(self) -> "Valued":
        return Valued(self.a.shape[:-1], self.lo, self.a.copy())


# ---------------------------------------------------------------------------------------------
# Layout: which statistics a configuration gets, from its spec's column roles
# ---------------------------------------------------------------------------------------------

def layout_for(spec, n_players: int, strategies: list[str], games_per_deal: int,
               player_columns: list[str], game_columns: list[str]) -> dict[str, Any]:
    """The layout of a configuration's statistics (plain JSON data): the columns by role among
    those the run writes (``player_columns``, ``game_columns``), the units, the line-up."""
    from simcore.contract import TYPE_COUNT_ROLES

    P = int(n_players)
    pcols = {c.name: c for c in spec.all_player_columns if c.name in player_columns}
    gcols = {c.name: c for c in spec.all_game_columns if c.name in game_columns}

    def role(r, table=pcols):
        found = [c.name for c in table.values() if c.role == r]
        return found[0] if found else None

    def grouped(r, table=pcols):
        roles = r if isinstance(r, tuple) else (r,)
        out: dict[str, list] = {}
        for c in table.values():
            if c.role in roles:
                out.setdefault(c.group, []).append((c.key, c.name))
        return out

    turn = next(iter(grouped("checkpoint_by_turn").values()), [])
    before = next(iter(grouped("checkpoint_by_event").values()), [])
    if turn:
        checkpoints = {"kind": "turn", "columns": [n for _, n in turn], "turns": [int(k) for k, _ in turn]}
    elif before:
        checkpoints = {"kind": "event", "columns": [n for _, n in before],
                       "turns": [int(pcols[n].turn) for _, n in before]}
    else:
        checkpoints = {"kind": "", "columns": [], "turns": []}
    gains = {k: n for g in grouped("gain_by_event").values() for k, n in g}
    befores = {k: n for k, n in before}
    slots = []
    for _, cols in grouped("event_by_slot", gcols).items():
        for k, name in cols:
            if k in gains:
                slots.append({"slot": int(k), "event": name, "gain": gains[k],
                              "before": befores.get(k)})
    slots.sort(key=lambda s: s["slot"])
    if slots and not all(s["before"] for s in slots):
        for s in slots:
            s["before"] = None
    score = role("score")
    hist_player = [c.name for c in pcols.values() if c.dtype in _INT_DTYPES and c.name not in _SKIP_PLAYER
                   and c.role in ("", *TYPE_COUNT_ROLES, "rank")]
    hist_game = [c.name for c in gcols.values() if c.dtype in _INT_DTYPES and c.name != "game"
                 and c.role not in ("event_by_slot",)]
    reason = role("end_reason", gcols)
    reasons = 1
    if reason is not None:
        col = gcols[reason]
        reasons = int(col.high if col.high is not None else max(k for k, *_ in col.labels)) + 1
    seat_roles = list(spec.seat_roles(P)) if spec.roles else ["player"] * P
    return {
        "game": spec.name, "players": P, "strategies": list(dict.fromkeys(strategies)),
        "games_per_deal": int(games_per_deal), "win_units": win_units(P),
        "credit_units": 2 * (P - 1) if P > 1 else 1,
        "matchup_units": _matchup_units(P, games_per_deal),
        "score": score, "win_share": role("win_share"), "rank": role("rank"),
        "player_columns": list(player_columns), "game_columns": list(game_columns),
        "checkpoints": checkpoints, "event_slots": slots,
        "hist_player": hist_player, "hist_game": hist_game,
        "pair_groups": {g: [n for _, n in cols] for g, cols in grouped(TYPE_COUNT_ROLES).items()
                        if len(cols) >= 2},
        "length": role("length", gcols), "end_reason": reason, "end_reasons": reasons,
        "seat_roles": seat_roles,
    }


def layout_of_run(prep) -> dict[str, Any]:
    """The layout of a prepared run (:class:`simcore.contract.PreparedRun`)."""
    from simcore import games as registry

    spec = registry.get(prep.game)
    return layout_for(spec, prep.n_players, list(prep.strategy_names), prep.games_per_deal,
                      list(prep.players_schema.names), list(prep.games_schema.names))


# ---------------------------------------------------------------------------------------------
# Per-game helpers (rows = games, columns = seats)
# ---------------------------------------------------------------------------------------------

def top_seat(x: np.ndarray, best: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(number of seats holding the game's maximum, lowest such seat) for each game; ``x`` is
    seat-major (seats × games, as every matrix here: reductions over seats run along rows)."""
    best = x.max(axis=0) if best is None else best
    hit = x[-1] == best
    count = hit.astype(np.int64)
    seat = np.where(hit, x.shape[0] - 1, 0)
    for s in range(x.shape[0] - 2, -1, -1):       # a loop over seats: argmax over axis 0 is slow
        hit = x[s] == best
        count += hit
        seat = np.where(hit, s, seat)
    return count, seat


def sole_leader(x: np.ndarray) -> np.ndarray:
    """Seat with strictly the most of ``x`` in each game, -1 where the lead is shared."""
    count, seat = top_seat(x)
    return np.where(count == 1, seat, -1)


def runner_up_gap(score: np.ndarray) -> np.ndarray:
    """Winner's score minus the runner-up's (0 when the top is shared)."""
    low = np.iinfo(np.int64).min
    best = score.max(axis=0)
    second = np.where(score < best, score, low).max(axis=0)
    count = (score == best).sum(axis=0)
    second = np.where((count > 1) | (second == low), best, second)
    return best - second


def credit_units(rank: np.ndarray) -> np.ndarray:
    """Ludii's rank credit 1 − (mean place − 1)/(P − 1) in units of 1/(2(P − 1)): tied players
    get the mean of the places they share (:func:`analysis.seats.ludii_credit`)."""
    P = rank.shape[0]
    tied = np.zeros(rank.shape, np.int64)
    for s in range(P):
        tied += rank == rank[s]
    return 2 * (P - 1) - 2 * (rank - 1) - (tied - 1)


# ---------------------------------------------------------------------------------------------
# The statistics
# ---------------------------------------------------------------------------------------------

class RunStats:
    """The mergeable statistics of one configuration (see the module docstring).

    ``fixed`` holds arrays of fixed shape, ``valued`` :class:`Valued` histograms; both are int64.
    :meth:`add` adds a played chunk (whole deals with rotated seats), :meth:`merge` another
    :class:`RunStats` of the same layout."""

    def __init__(self, layout: dict[str, Any]) -> None:
        self.layout = layout
        P, K = layout["players"], len(layout["strategies"])
        k = len(layout["checkpoints"]["columns"])
        z = lambda *s: np.zeros(s, np.int64)  # noqa: E731
        self.fixed: dict[str, np.ndarray] = {
            "games": z(1), "cell_n": z(P, K), "cell_win": z(P, K), "cell_win_sq": z(P, K), "cell_outright": z(P, K),
            "cell_shared": z(P, K), "cell_rank": z(P, K), "cell_score": z(P, K), "cell_score_sq": z(P, K),
            "win_cross": z(P, P), "credit_sum": z(P), "credit_cross": z(P, P), "shared_games": z(1),
            "lead_changes": z(max(k, 1) if k else 1), "leader_games": z(k), "leader_win": z(k),
            "flow_n": z(P), "flow_sum": z(P, k + 1), "flow_sq": z(P, k + 1),
        }
        if K >= 2:
            self.fixed.update({"mu_s_n": z(K), "mu_s_sum": z(K), "mu_s_sq": z(K),
                               "mu_m_n": z(K * K), "mu_m_sum": z(K * K), "mu_m_sq": z(K * K),
                               "mu_w_sum": z(K * K), "mu_w_sq": z(K * K)})
        self.valued: dict[str, Valued] = {"score": Valued((P, K)), "spread": Valued(())}
        for c in layout["hist_player"]:
            for p in ("n", "w", "s", "q"):
                self.valued[f"{p}:{c}"] = Valued((P,))
        for g, cols in layout["pair_groups"].items():
            self.fixed[f"pair_n:{g}"] = z(len(cols), len(cols) + 1)
            self.fixed[f"pair_w:{g}"] = z(len(cols), len(cols) + 1)
        ns = len(layout["event_slots"])
        if ns:
            for p in ("games", "gain_s", "gain_q", "spread_s", "spread_q", "top_games", "top_win",
                      "changes"):
                self.valued[f"ev_{p}"] = Valued((ns,))
            self.valued["ev_seat_win"] = Valued((P,))
        for c in layout["hist_game"]:
            self.valued[f"g:{c}"] = Valued(())
            self.valued[f"gw:{c}"] = Valued((P,))
            if layout["length"]:
                self.valued[f"gl:{c}"] = Valued(())
        if layout["length"]:
            self.valued["length"] = Valued((layout["end_reasons"],))

    # -- derived sizes ---------------------------------------------------------------------------
    @property
    def games(self) -> int:
        return int(self.fixed["games"][0])

    @property
    def n_players(self) -> int:
        return int(self.layout["players"])

    @property
    def strategies(self) -> list[str]:
        return list(self.layout["strategies"])

    # -- filling ---------------------------------------------------------------------------------
    def add(self, chunk) -> None:
        """Add a played chunk (:class:`simcore.contract.ChunkResult`; rows game-major, seats
        0 … P − 1 within a game; with rotated seats a whole number of deals)."""
        lay = self.layout
        P, K = lay["players"], len(lay["strategies"])
        L, gpd = lay["win_units"], lay["games_per_deal"]
        pc, gc = chunk.players, chunk.games

        def mat(name, dtype=np.int64):      # seat-major copy: (seats, games)
            return np.ascontiguousarray(np.asarray(pc[name]).reshape(-1, P).T, dtype=dtype)

        # game-major (player rows in table order) float64 weights, made once: bincount sums them
        # exactly (integers below 2^53), in any order
        wf = np.asarray(pc[lay["win_share"]], np.float64) * L
        wgf = np.rint(wf)
        Wg = wgf.astype(np.int32 if L < 2 ** 31 else np.int64)
        W = np.ascontiguousarray(Wg.reshape(-1, P).T, dtype=np.int64)
        if W.size and np.abs(wf - wgf).max() > 1e-3:
            raise ValueError(f"{lay['game']}: a win share is not a multiple of 1/{L} (1/k for a win "
                             "shared by k players)")
        G = W.shape[1]
        if G == 0:
            return
        if gpd > 1 and G % gpd:
            raise ValueError(f"a chunk of {G} games holds part of a deal ({gpd} games each)")
        R, S = mat(lay["rank"]), mat(lay["score"])
        Rg = np.asarray(pc[lay["rank"]])
        Sg = np.asarray(pc[lay["score"]])
        from simcore.contract import strategy_codes

        strat_g = strategy_codes(chunk, lay["strategies"])
        if strat_g is None:
            strat_g = _strategy_index(pc["strategy"], lay["strategies"])
        strat = np.ascontiguousarray(strat_g.reshape(G, P).T)
        seat = np.broadcast_to(np.arange(P, dtype=np.int64)[:, None], (P, G))
        seat_g = np.tile(np.arange(P, dtype=np.int64), G)
        cell = seat_g * K + strat_g if K > 1 else seat_g
        f = self.fixed
        f["games"] += G
        sums = _group_sums(cell, P * K, _stack((Wg, Wg == L, (Wg > 0) & (Wg < L), Rg, Sg), G * P),
                           (1, 0, 0, 0, 1))
        for k, name in enumerate(("cell_n", "cell_win", "cell_outright", "cell_shared",
                                  "cell_rank", "cell_score", "cell_win_sq", "cell_score_sq")):
            f[name] += sums[k].reshape(P, K)
        self.valued["score"].add(cell, Sg)
        Wf = W.astype(np.float64)
        f["win_cross"] += np.rint(Wf @ Wf.T).astype(np.int64)
        C = credit_units(R).astype(np.float64)
        f["credit_sum"] += np.rint(C.sum(axis=1)).astype(np.int64)
        f["credit_cross"] += np.rint(C @ C.T).astype(np.int64)
        f["shared_games"] += int((W.max(axis=0) < L).sum())
        self.valued["spread"].add(0, runner_up_gap(S))
        self._checkpoints(pc, W, R, S, G, seat_g)
        ws = _stack((Wg, Sg), G * P)
        for c in lay["hist_player"]:
            self.valued[f"n:{c}"].add_stack(seat_g, np.asarray(pc[c]), (
                self.valued[f"w:{c}"], self.valued[f"s:{c}"], self.valued[f"q:{c}"]), ws, (0, 1))
        for g, cols in lay["pair_groups"].items():
            k = len(cols)
            keys = np.stack([np.asarray(pc[c]).astype(np.int64) * k + i for i, c in enumerate(cols)])
            k1 = keys.max(axis=0)
            other = np.where(keys != k1, keys, -1).max(axis=0)
            idx = (k1 % k) * (k + 1) + np.where(other >= k, other % k, k)
            sums = _group_sums(idx, k * (k + 1), _stack((Wg,), G * P))
            f[f"pair_n:{g}"] += sums[0].reshape(k, k + 1)
            f[f"pair_w:{g}"] += sums[1].reshape(k, k + 1)
        self._events(pc, gc, W, (seat_g, wgf), G, mat)
        self._games(gc, W, (seat_g, wgf), G)
        if K >= 2:
            self._matchups(W, R, strat, G)
        self._check_range()

    def _checkpoints(self, pc, W, R, S, G, seat_g) -> None:
        lay, f = self.layout, self.fixed
        P = lay["players"]
        cols = lay["checkpoints"]["columns"]
        r = np.asarray(pc[lay["rank"]]).astype(np.int64) - 1       # game-major, as the columns
        m = len(cols) + 1
        sums = _group_sums(r, P, _stack([pc[c] for c in cols + [lay["score"]]], G * P), [1] * m)
        f["flow_n"] += sums[0]
        f["flow_sum"] += sums[1:1 + m].T
        f["flow_sq"] += sums[1 + m:].T
        if not cols:
            return
        rows = np.arange(G)
        prev = np.full(G, -1)
        changes = np.zeros(G, np.int64)
        for k, c in enumerate(cols):
            lead = _sole_by_game(pc[c], P)
            sole = lead >= 0
            f["leader_games"][k] += int(sole.sum())
            f["leader_win"][k] += int(np.where(sole, W[lead, rows], 0).sum())
            changes += sole & (prev >= 0) & (lead != prev)
            prev = np.where(sole, lead, prev)
        f["lead_changes"] += _binc(changes, len(f["lead_changes"]))[: len(f["lead_changes"])]

    def _events(self, pc, gc, W, rows_g, G, mat) -> None:
        lay, v = self.layout, self.valued
        P = lay["players"]
        rows = np.arange(G)
        for i, s in enumerate(lay["event_slots"]):
            ev = np.asarray(gc[s["event"]]).astype(np.int64)
            wide = _wide(pc[s["gain"]], pc[s["before"]] if s["before"] else None)
            gain = np.asarray(pc[s["gain"]])
            total = gain.reshape(G, P).sum(axis=1, dtype=wide)
            count, top, best, low = _top_by_game(gain, P)
            spread = best - low
            sole = count == 1
            if s["before"]:
                before = np.asarray(pc[s["before"]])
                after = before.astype(wide) + gain
                changes = _sole_by_game(before, P) != _sole_by_game(after, P)
            else:
                changes = np.zeros(G, np.int64)
            v["ev_games"].add_stack(i, ev, (
                v["ev_gain_s"], v["ev_spread_s"], v["ev_top_games"], v["ev_top_win"], v["ev_changes"],
                v["ev_gain_q"], v["ev_spread_q"]), _stack((
                    total, spread, sole, np.where(sole, W[top, rows], 0), changes), G), (1, 1, 0, 0, 0))
            v["ev_seat_win"].add(rows_g[0], np.repeat(ev, P), rows_g[1])

    def _games(self, gc, W, rows_g, G) -> None:
        lay, v = self.layout, self.valued
        P = lay["players"]
        length = np.asarray(gc[lay["length"]]).astype(np.int64) if lay["length"] else None
        for c in lay["hist_game"]:
            x = np.asarray(gc[c]).astype(np.int64)
            v[f"g:{c}"].add_many(0, x, ((None, None),) + (((v[f"gl:{c}"], length),)
                                                           if length is not None else ()))
            v[f"gw:{c}"].add(rows_g[0], np.repeat(x, P), rows_g[1])
        if length is not None:
            reason = (np.asarray(gc[lay["end_reason"]]).astype(np.int64) if lay["end_reason"]
                      else np.zeros(G, np.int64))
            v["length"].add(reason, length)

    def _matchups(self, W, R, strat, G) -> None:
        lay, f = self.layout, self.fixed
        P, K = lay["players"], len(lay["strategies"])
        L, D, gpd = lay["win_units"], lay["matchup_units"], lay["games_per_deal"]
        U = G // gpd
        base = np.arange(G, dtype=np.int64)
        ssum = np.zeros(G * K, np.int64)
        scnt = np.zeros(G * K, np.int64)
        for s in range(P):
            idx = base * K + strat[s]
            ssum[idx] += W[s]
            scnt[idx] += 1
        ssum = ssum.reshape(U, gpd, K).sum(axis=1)
        scnt = scnt.reshape(U, gpd, K).sum(axis=1)
        present = scnt > 0
        val = np.where(present, ssum * (D // L) // np.maximum(scnt, 1), 0)
        f["mu_s_n"] += present.sum(axis=0)
        f["mu_s_sum"] += val.sum(axis=0)
        f["mu_s_sq"] += (val * val).sum(axis=0)
        KK = K * K
        asum = np.zeros(G * KK, np.int64)
        wsum = np.zeros(G * KK, np.int64)
        cnt = np.zeros(G * KK, np.int64)
        for i in range(P):
            si, ri, wi = strat[i], R[i], W[i]
            for j in range(P):
                if i == j:
                    continue
                differ = si != strat[j]
                idx = (base * KK + si * K + strat[j])[differ]
                asum[idx] += (2 * (ri < R[j]) + (ri == R[j]))[differ]
                wsum[idx] += wi[differ]
                cnt[idx] += 1
        asum, wsum, cnt = (x.reshape(U, gpd, KK).sum(axis=1) for x in (asum, wsum, cnt))
        present = cnt > 0
        c1 = np.maximum(cnt, 1)
        am = np.where(present, asum * (D // 2) // c1, 0)
        wm = np.where(present, wsum * (D // L) // c1, 0)
        f["mu_m_n"] += present.sum(axis=0)
        f["mu_m_sum"] += am.sum(axis=0)
        f["mu_m_sq"] += (am * am).sum(axis=0)
        f["mu_w_sum"] += wm.sum(axis=0)
        f["mu_w_sq"] += (wm * wm).sum(axis=0)

    def _check_range(self) -> None:
        for name, a in self.fixed.items():
            if a.size and np.abs(a).max() > LIMIT:
                raise OverflowError(f"statistics {name}: a total beyond 2**62")

    # -- merging ---------------------------------------------------------------------------------
    def merge(self, other: "RunStats") -> "RunStats":
        """Add ``other``'s sums to these (same layout); returns self."""
        if other.layout != self.layout:
            raise ValueError("statistics of different configurations cannot be merged")
        for name, a in other.fixed.items():
            self.fixed[name] += a
        for name, h in other.valued.items():
            self.valued[name].merge(h)
        self._check_range()
        return self

    def copy(self) -> "RunStats":
        out = RunStats.__new__(RunStats)
        out.layout = json.loads(json.dumps(self.layout))
        out.fixed = {k: v.copy() for k, v in self.fixed.items()}
        out.valued = {k: v.copy() for k, v in self.valued.items()}
        return out

    def equals(self, other: "RunStats") -> bool:
        return self.to_json() == other.to_json()

    # -- storage ---------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT, "version": VERSION, "layout": self.layout,
            "fixed": {k: {"shape": list(a.shape), "data": a.ravel().tolist()} for k, a in self.fixed.items()},
            "valued": {k: {"lo": h.lo, "shape": list(h.a.shape), "data": h.a.ravel().tolist()}
                       for k, h in self.valued.items()},
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "RunStats":
        if d.get("format") != FORMAT or not isinstance(d.get("version"), int):
            raise ValueError("not a statistics file of this toolkit")
        if d["version"] > VERSION:
            raise ValueError(f"statistics version {d['version']} is newer than this toolkit's "
                             f"({VERSION}): update the toolkit")
        out = cls(d["layout"])
        for k, e in d["fixed"].items():
            out.fixed[k] = np.asarray(e["data"], np.int64).reshape(e["shape"])
        for k, e in d["valued"].items():
            out.valued[k] = Valued(tuple(e["shape"][:-1]), e["lo"],
                                   np.asarray(e["data"], np.int64).reshape(e["shape"]))
        return out

    def write(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json() + "\n", encoding="utf-8")

    @classmethod
    def read(cls, path: str | Path) -> "RunStats":
        return cls.from_dict(json.loads(Path(path).read_text(encoding="utf-8")))


def for_run(prep) -> RunStats:
    """Empty statistics for a prepared run."""
    return RunStats(layout_of_run(prep))


def merged(parts) -> RunStats:
    """The statistics of several runs of one configuration pooled (a new object)."""
    parts = list(parts)
    out = parts[0].copy()
    for p in parts[1:]:
        out.merge(p)
    return out


def _strategy_index(strategy, labels: list[str]) -> np.ndarray:
    """Row → index of its strategy name in ``labels``."""
    import pyarrow as pa
    import pyarrow.compute as pc

    from simcore.contract import strings

    arr = strategy if isinstance(strategy, (pa.Array, pa.ChunkedArray)) else pa.array(strategy, pa.string())
    idx = pc.index_in(arr, value_set=strings(labels))
    if isinstance(idx, pa.ChunkedArray):
        idx = idx.combine_chunks()
    if idx.null_count:
        raise ValueError("a strategy name outside the run's line-up")
    return np.frombuffer(idx.buffers()[1], np.int32, len(idx), idx.offset * 4).astype(np.int64)


def results_by(stats: RunStats, by: str = "seat") -> dict[str, np.ndarray]:
    """Per seat (or per strategy, ``by="strategy"``): ``games`` (player rows), ``wins`` (Σ win
    share), ``win_share`` (wins / games), ``mean_score``. The one place seat and strategy win
    shares are computed from a run's sums (the closing table, :func:`analysis.seats.seat_table`)."""
    f, L = stats.fixed, stats.layout["win_units"]
    axis = 1 if by == "seat" else 0
    n = f["cell_n"].sum(axis=axis)
    wins = f["cell_win"].sum(axis=axis) / L
    with np.errstate(invalid="ignore", divide="ignore"):
        return {"games": n, "wins": wins, "win_share": wins / n,
                "mean_score": f["cell_score"].sum(axis=axis) / n}
