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
formed in int64 by one jitted pass per group of columns, or in float64 by ``bincount``, exact
below 2^53, then rounded) and merging adds them, so the
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
jitted ``_*_py`` helpers, each one pass over a chunk's columns as the kernel wrote them, compiled
on first use and cached on disk; reading stats.json does not import it). Cost and figures: docs/analysis.md (Performance), benchmarks/bench_stats_fill.py.
"""

from __future__ import annotations

import json
import math
from functools import reduce
from pathlib import Path
from typing import Any

import numpy as np

FORMAT = "balance-toolkit statistics"
VERSION = 2
"""2: ``clu:<group>`` (per type of a count group, sums over games of products of the game's
per-type aggregates, :func:`_cluster_py`: the tile slopes' standard errors clustered by game). A
version-1 file is read without them (:meth:`RunStats.from_dict`), and so is a merge with one."""

CLUSTER_TERMS = ("XX", "XQ", "XA", "XY", "QQ", "QA", "QY", "AA", "AY", "YY")
"""The columns of ``clu:<group>`` (one row per type of the group): Σ over games of the products of
the game's X = Σ x, Q = Σ x², A = Σ x·W and Y = Σ W over its players (x the player's count of
the type, W its win units)."""
STATS_FILE = "stats.json"
LIMIT = 1 << 62          # a total beyond this would overflow int64 soon: refused

_INT_DTYPES = ("int8", "int16", "int32", "int64", "bool")
_SKIP_PLAYER = ("game", "seat", "strategy", "deal", "rotation")


def _lcm(values) -> int:
    return reduce(lambda a, b: a * b // math.gcd(a, b), [int(v) for v in values], 1)


def win_units(n_players: int) -> int:
    """L = lcm(1 … P): a win shared by k ≤ P players is exactly L / k units."""
    return _lcm(range(1, n_players + 1))


def share_units(win_share, units: int, game: str = "") -> np.ndarray:
    """Win shares as whole units of 1/``units`` (int32, int64 for ``units`` ≥ 2³¹; ``units`` = :func:`win_units` of the
    player count): a win shared by k players is units / k, exactly. Sums of these integers are the
    same in any order, so every running sum of win shares (stats.json, summary.parquet,
    events_summary.parquet) is identical for any chunk size, thread or worker count; a float
    share such as 1/3 summed chunk by chunk would round differently. A share that is not a
    whole number of units is refused (ValueError)."""
    wf = np.asarray(win_share, np.float64) * units
    wg = np.rint(wf)
    if wf.size and np.abs(wf - wg).max() > 1e-3:
        raise ValueError(f"{game + ': ' if game else ''}a win share is not a multiple of "
                         f"1/{units} (1/k for a win shared by k players)")
    return wg.astype(np.int32 if units < 2 ** 31 else np.int64)


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


def _by_seat_value_py(values, per_game, P, lo, V, Wg, Sg, full):
    """Sums per cell (seat, value) in one pass, into the columns of an int64 matrix (P·V, 4):
    with ``full`` the count, Σ W, Σ S and Σ S² (``Wg``, ``Sg``: win units and scores per player
    row), else only Σ W (column 1). Player row i (game-major, P a game) is cell
    ``(i % P) · V + value − lo``, its value ``values[i]``, or with ``per_game`` ``values[i // P]``
    (a game column counted at every seat). No index array is built (4 MB of int64 per chunk and
    column); indices are unsigned (no wrap-around test) and the sums fixed, which made this 4-5x
    faster than a loop over a weights matrix. False when a value is outside [lo, lo + V)."""
    out = np.zeros((P * V, 4), np.int64)
    G = Wg.shape[0] // P
    top = np.uint64(V)
    for g in range(G):
        for s in range(P):
            i = np.uint64(g * P + s)
            v = np.uint64((np.int64(values[np.uint64(g)]) if per_game else np.int64(values[i])) - lo)
            if v >= top:                   # below lo wraps round to a huge unsigned value
                return out, False
            j = np.uint64(s) * top + v
            w = np.int64(Wg[i])
            out[j, 1] += w
            if full:
                x = np.int64(Sg[i])
                out[j, 0] += 1
                out[j, 2] += x
                out[j, 3] += x * x
    return out, True


def deal_credits(Rg, P: int, games_per_deal: int) -> np.ndarray:
    """Per deal (rows) and seat, the seat's Ludii credits summed over the deal's rotated games, in
    units of 1/(2(P − 1)) (int64): each game's credit as :func:`_per_game_py` gives it, 2(P − 1) −
    2(rank − 1) − (players tied at that rank − 1). ``Rg``: ranks, game-major, P a game."""
    R = np.asarray(Rg, np.int64).reshape(-1, P)
    tied = (R[:, :, None] == R[:, None, :]).sum(axis=2)
    C = 2 * (P - 1) - 2 * (R - 1) - (tied - 1)
    return C.reshape(-1, games_per_deal, P).sum(axis=1)


def _per_game_py(Wg, Rg, Sg, P, L):
    """One pass over the games (player rows game-major, P a game) for the per-game sums of
    :meth:`RunStats.add`: Σ W_s W_t (win shares in units), the Ludii credits' Σ C_s and
    Σ C_s C_t (rank credit 1 − (mean place − 1)/(P − 1) in units of 1/(2(P − 1)), tied players
    getting the mean of the places they share, as :func:`analysis.seats.ludii_credit`), the
    games whose win is shared (no seat holds all L units) and each game's winner's margin (the
    best score minus the runner-up's, 0 when the top is shared). All int64."""
    G = Wg.shape[0] // P
    u = np.uint64
    win_cross = np.zeros((P, P), np.int64)
    credit_sum = np.zeros(P, np.int64)
    credit_cross = np.zeros((P, P), np.int64)
    gap = np.empty(G, np.int64)
    shared = 0
    w = np.zeros(P, np.int64)
    c = np.zeros(P, np.int64)
    for g in range(G):
        b = u(g * P)
        wmax = np.int64(Wg[b])
        best = np.int64(Sg[b])
        for s in range(P):
            i = b + u(s)
            ws = np.int64(Wg[i])
            w[u(s)] = ws
            if ws > wmax:
                wmax = ws
            v = np.int64(Sg[i])
            if v > best:
                best = v
            r = np.int64(Rg[i])
            tied = 0
            for t in range(P):
                if np.int64(Rg[b + u(t)]) == r:
                    tied += 1
            c[u(s)] = 2 * (P - 1) - 2 * (r - 1) - (tied - 1)
        if wmax < L:
            shared += 1
        for s in range(P):
            cs = c[u(s)]
            ws = w[u(s)]
            credit_sum[u(s)] += cs
            for t in range(P):
                win_cross[u(s), u(t)] += ws * w[u(t)]
                credit_cross[u(s), u(t)] += cs * c[u(t)]
        count = 0
        second = best
        found = False
        for s in range(P):
            v = np.int64(Sg[b + u(s)])
            if v == best:
                count += 1
            elif not found or v > second:
                second = v
                found = True
        gap[u(g)] = 0 if count > 1 or not found else best - second
    return win_cross, credit_sum, credit_cross, shared, gap


def _flow_column_py(col, rank, Wg, P, checkpoint, prev, changes):
    """One column of the game flow (:meth:`RunStats._checkpoints`; player rows game-major, P a
    game), in one pass: per final rank the sum and the sum of squares of ``col``; when it is a
    ``checkpoint``, also the games with a sole leader in it, the win units that leader ended
    with, and per game the running lead-change count (``changes``, a new sole leader after
    another) and the last sole leader (``prev``, -1 before any), both updated in place. Columns
    one by one in their own dtype (a stacked copy of 17 columns cost more than the sums).
    ``ok`` False when a rank is outside 1 … P."""
    G = col.shape[0] // P
    u = np.uint64
    flow_sum = np.zeros(P, np.int64)
    flow_sq = np.zeros(P, np.int64)
    games = 0
    win = 0
    for g in range(G):
        b = u(g * P)
        best = col[b]
        top = 0
        count = 0
        for s in range(P):
            i = b + u(s)
            r = u(np.int64(rank[i]) - 1)
            if r >= u(P):                     # a rank below 1 wraps round too
                return flow_sum, flow_sq, games, win, False
            v = col[i]
            x = np.int64(v)
            flow_sum[r] += x
            flow_sq[r] += x * x
            if v > best:
                best, top, count = v, s, 1
            elif v == best:
                count += 1
        if checkpoint and count == 1:
            games += 1
            win += np.int64(Wg[b + u(top)])
            p = prev[u(g)]
            if p >= 0 and p != top:
                changes[u(g)] += 1
            prev[u(g)] = top
    return flow_sum, flow_sq, games, win, True


def _cells_py(strat, K, P, Wg, Rg, Sg, L, lo, V):
    """Per (seat, strategy) cell, in one pass (player rows game-major; ``strat`` the strategy
    index of each row, ignored when K = 1): games, Σ W, outright wins (W = L), shared wins
    (0 < W < L), Σ rank, Σ score, Σ W², Σ score² (columns of a (P·K, 8) int64 matrix) and the
    score histogram per cell (P·K·V, scores from ``lo``). False when a score is outside
    [lo, lo + V)."""
    u = np.uint64
    cells = np.zeros((P * K, 8), np.int64)
    hist = np.zeros(P * K * V, np.int64)
    G = Wg.shape[0] // P
    for g in range(G):
        b = u(g * P)
        for s in range(P):
            i = b + u(s)
            c = u(s) * u(K) + (u(strat[i]) if K > 1 else u(0))
            w = np.int64(Wg[i])
            x = np.int64(Sg[i])
            v = u(x - lo)
            if v >= u(V):
                return cells, hist, False
            cells[c, 0] += 1
            cells[c, 1] += w
            if w == L:
                cells[c, 2] += 1
            elif w > 0 and w < L:
                cells[c, 3] += 1
            cells[c, 4] += np.int64(Rg[i])
            cells[c, 5] += x
            cells[c, 6] += w * w
            cells[c, 7] += x * x
            hist[c * u(V) + v] += 1
    return cells, hist, True


def _pairs_py(types, Wg, P):
    """Per pair (the type a player holds most of, the next one or none), the player rows and
    their win units (:meth:`RunStats.add`, ``pair_groups``): ``types`` stacks the group's k
    columns (k, rows). Ties go to the later column, as the keys value·k + column did (here
    value·2^b + column, 2^b ≥ k: the same order, with the column read back by a mask).

    Rows in blocks: for each column, one pass over the block's rows keeps each row's largest and
    second-largest key without a branch (``max``/``min``), a loop LLVM vectorizes; then the
    block's pairs are counted. Row by row, with the k columns as the inner loop, it cost 8x more
    (11.9 → 1.4 ms of CPU for a chunk of 131,072 4-player Middle-Ages games)."""
    k, n = types.shape
    u = np.uint64
    b = 1
    while (1 << b) < k:
        b += 1
    mask = (1 << b) - 1
    lowest = np.int64(-(1 << 62))
    B = 512
    first = np.empty(B, np.int64)
    second = np.empty(B, np.int64)
    out = np.zeros((2, k * (k + 1)), np.int64)
    for b0 in range(0, n, B):
        m = min(B, n - b0)
        for i in range(m):
            first[i] = lowest
            second[i] = lowest
        for j in range(k):
            for i in range(m):
                key = (np.int64(types[u(j), u(b0 + i)]) << b) | j
                top = first[i]
                second[i] = max(second[i], min(key, top))
                first[i] = max(top, key)
        for i in range(m):
            x = first[i]
            y = second[i]
            idx = u((x & mask) * (k + 1) + ((y & mask) if y > mask else k))
            out[0, idx] += 1
            out[1, idx] += np.int64(Wg[u(b0 + i)])
    return out


def _cluster_py(types, Wg, P):
    """Per type j of a count group (``types`` stacks its k columns, (k, rows), game-major, P rows
    a game), Σ over games of the products :data:`CLUSTER_TERMS` of the game's X = Σ x, Q = Σ x²,
    A = Σ x·W, Y = Σ W (W: win units): with the totals of x, x², x·W and W these give the
    sandwich variance of the slope of win share on x clustered by game
    (:func:`analysis.tiles.tile_summary`). Integer sums: exact and mergeable."""
    k, n = types.shape
    G = n // P
    out = np.zeros((k, 10), np.int64)
    # the game's aggregates first, then the ten sums of their products in locals (one pass each:
    # 0.70x the time of the products formed inside the loop over a game's players)
    X = np.empty(G, np.int64)
    Q = np.empty(G, np.int64)
    A = np.empty(G, np.int64)
    Y = np.zeros(G, np.int64)
    for g in range(G):
        for s in range(P):
            Y[g] += np.int64(Wg[g * P + s])
    for j in range(k):
        row = types[j]
        for g in range(G):
            b = g * P
            x0 = np.int64(0)
            q0 = np.int64(0)
            a0 = np.int64(0)
            for s in range(P):
                x = np.int64(row[b + s])
                x0 += x
                q0 += x * x
                a0 += x * np.int64(Wg[b + s])
            X[g] = x0
            Q[g] = q0
            A[g] = a0
        s0 = s1 = s2 = s3 = s4 = s5 = s6 = s7 = s8 = s9 = np.int64(0)
        for g in range(G):
            x, q, a, y = X[g], Q[g], A[g], Y[g]
            s0 += x * x
            s1 += x * q
            s2 += x * a
            s3 += x * y
            s4 += q * q
            s5 += q * a
            s6 += q * y
            s7 += a * a
            s8 += a * y
            s9 += y * y
        out[j, 0] = s0
        out[j, 1] = s1
        out[j, 2] = s2
        out[j, 3] = s3
        out[j, 4] = s4
        out[j, 5] = s5
        out[j, 6] = s6
        out[j, 7] = s7
        out[j, 8] = s8
        out[j, 9] = s9
    return out


def _event_slot_py(gain, before, has_before, Wg, P):
    """Per game, for one event slot (:meth:`RunStats._events`; player rows game-major): the
    players' total gain, the spread (most − least), whether one seat gained the most, that
    seat's win units (0 when shared), and whether the event changed the sole leader in coins
    (``before`` → ``before + gain``; 0 without ``has_before``). int64 rows of a (5, games)
    matrix."""
    G = gain.shape[0] // P
    u = np.uint64
    out = np.zeros((5, G), np.int64)
    for g in range(G):
        b = u(g * P)
        best = np.int64(gain[b])
        low = best
        total = best
        top = 0
        count = 1
        for s in range(1, P):
            v = np.int64(gain[b + u(s)])
            total += v
            if v > best:
                best, top, count = v, s, 1
            elif v == best:
                count += 1
            if v < low:
                low = v
        out[0, u(g)] = total
        out[1, u(g)] = best - low
        if count == 1:
            out[2, u(g)] = 1
            out[3, u(g)] = np.int64(Wg[b + u(top)])
        if has_before:
            lead_before = -1
            for a in range(2):
                best = np.int64(before[b]) + (np.int64(gain[b]) if a else 0)
                top = 0
                count = 1
                for s in range(1, P):
                    v = np.int64(before[b + u(s)]) + (np.int64(gain[b + u(s)]) if a else 0)
                    if v > best:
                        best, top, count = v, s, 1
                    elif v == best:
                        count += 1
                lead = top if count == 1 else -1
                if a == 0:
                    lead_before = lead
                elif lead != lead_before:
                    out[4, u(g)] = 1
    return out


def _matchups_py(Wg, Rg, strat, P, K, gpd, L, D):
    """Head-to-head sums per unit (a game, or a deal's ``gpd`` games with rotated seats), in one
    pass (:meth:`RunStats._matchups`; player rows game-major, ``strat`` each row's strategy):
    per strategy the units it plays and Σ, Σ² of its mean win share in units of 1/D; per
    ordered pair of different strategies the units they meet and Σ, Σ² of A's mean "ahead of B"
    share (halves for a tie) and of A's mean win share, both in units of 1/D. Rows of the
    returned (8, K·K) int64 matrix: mu_s_n, mu_s_sum, mu_s_sq (first K entries), mu_m_n,
    mu_m_sum, mu_m_sq, mu_w_sum, mu_w_sq."""
    u = np.uint64
    KK = K * K
    G = Wg.shape[0] // P
    out = np.zeros((8, KK), np.int64)
    ssum = np.zeros(K, np.int64)
    scnt = np.zeros(K, np.int64)
    asum = np.zeros(KK, np.int64)
    wsum = np.zeros(KK, np.int64)
    cnt = np.zeros(KK, np.int64)
    for unit in range(G // gpd):
        ssum[:] = 0
        scnt[:] = 0
        asum[:] = 0
        wsum[:] = 0
        cnt[:] = 0
        for g in range(unit * gpd, (unit + 1) * gpd):
            b = u(g * P)
            for i in range(P):
                si = u(strat[b + u(i)])
                wi = np.int64(Wg[b + u(i)])
                ri = np.int64(Rg[b + u(i)])
                ssum[si] += wi
                scnt[si] += 1
                for j in range(P):
                    sj = u(strat[b + u(j)])
                    if i == j or si == sj:
                        continue
                    rj = np.int64(Rg[b + u(j)])
                    c = si * u(K) + sj
                    asum[c] += 2 if ri < rj else (1 if ri == rj else 0)
                    wsum[c] += wi
                    cnt[c] += 1
        for k in range(K):
            if scnt[u(k)] > 0:
                v = ssum[u(k)] * (D // L) // scnt[u(k)]
                out[0, u(k)] += 1
                out[1, u(k)] += v
                out[2, u(k)] += v * v
        for c in range(KK):
            n = cnt[u(c)]
            if n > 0:
                a = asum[u(c)] * (D // 2) // n
                w = wsum[u(c)] * (D // L) // n
                out[3, u(c)] += 1
                out[4, u(c)] += a
                out[5, u(c)] += a * a
                out[6, u(c)] += w
                out[7, u(c)] += w * w
    return out


def _period_sums_py(col, period):
    """Σ x and Σ x² (int64) of an integer column per position ``i % period`` (the (rotation,
    seat) cells of summary.parquet, :class:`simcore.runner.CellSums`), in one pass."""
    u = np.uint64
    sums = np.zeros(period, np.int64)
    sq = np.zeros(period, np.int64)
    n = col.shape[0] // period
    for r in range(n):
        b = u(r * period)
        for j in range(period):
            x = np.int64(col[b + u(j)])
            sums[u(j)] += x
            sq[u(j)] += x * x
    return sums, sq


def period_sums(column, period: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_period_sums_py` of an integer column (jitted on first use): exact int64 sums and
    sums of squares per cell of a repeating row pattern of ``period`` rows."""
    col = np.ascontiguousarray(column)
    if col.dtype == np.bool_:
        col = col.view(np.int8)
    elif col.dtype == np.uint64:
        col = col.astype(np.int64)
    return _jit("period_sums", _period_sums_py)(col, int(period))


def _value_seat_sums_py(value, seat, weight, share, P, E):
    """Per (value, seat) cell of player rows (game-major, ``P`` rows a game; ``value`` one per
    game, ``seat`` and ``weight`` and ``share`` one per row), in one pass in row order: the rows
    (int64), Σ weight, Σ weight² and Σ share (float64 sums of whole numbers: ``share`` in units of
    :func:`share_units`, exact in any order). ``ok`` False when a value is outside
    [0, E) or a seat outside [0, P)."""
    u = np.uint64
    n = np.zeros(E * P, np.int64)
    ws = np.zeros(E * P, np.float64)
    wq = np.zeros(E * P, np.float64)
    sh = np.zeros(E * P, np.float64)
    G = seat.shape[0] // P
    for g in range(G):
        e = u(np.int64(value[g]))
        if e >= u(E):
            return n, ws, wq, sh, False
        for s in range(P):
            i = u(g * P + s)
            t = u(np.int64(seat[i]))
            if t >= u(P):
                return n, ws, wq, sh, False
            k = e * u(P) + t
            x = np.float64(weight[i])
            n[k] += 1
            ws[k] += x
            wq[k] += x * x
            sh[k] += np.float64(share[i])
    return n, ws, wq, sh, True


def value_seat_sums(value, seat, weight, share, P: int, E: int):
    """:func:`_value_seat_sums_py` (jitted on first use): per (value, seat) cell the rows, Σ
    weight, Σ weight² and Σ share, each (E, P); a game's own accumulator (Middle-Ages'
    events_summary: per event id and seat, the coins an event slot gave and the win shares) in one
    pass instead of four weighted ``bincount``s over every row (a chunk of 131,072 4-player games:
    21.5 → 3.6 ms of CPU, 0.16 → 0.03 s per 1e6 games; byte-identical sums)."""
    def exact(x, dtype):            # one specialisation; a wider column is refused, not cut
        x = np.asarray(x)
        if not np.can_cast(x.dtype, dtype, "safe"):
            raise TypeError(f"value_seat_sums takes {np.dtype(dtype)} or narrower, not {x.dtype}")
        return np.ascontiguousarray(x, dtype)

    n, ws, wq, sh, ok = _jit("value_seat_sums", _value_seat_sums_py)(
        exact(value, np.int8), exact(seat, np.int8), exact(weight, np.int16),
        exact(share, np.int32), int(P), int(E))
    if not ok:
        raise ValueError(f"a value outside [0, {E}) or a seat outside [0, {P})")
    return n.reshape(E, P), ws.reshape(E, P), wq.reshape(E, P), sh.reshape(E, P)


_COMPILED: dict[str, Any] = {}


def _jit(name: str, fn):
    out = _COMPILED.get(name)
    if out is None:
        from numba import njit

        out = _COMPILED[name] = njit(cache=True, nogil=True)(fn)
    return out


def helper_signatures() -> dict[str, tuple[Any, list[tuple]]]:
    """Every jitted helper of the statistics (and of summary.parquet's cell sums) with the
    argument types :meth:`RunStats.add` and :func:`period_sums` pass it for the games' column
    dtypes (int8 to int32 columns; rank int8, score int32, win units int32 after their casts).
    A test checks that a run of every game compiles nothing else."""
    from numba import types as t

    def a(dtype, ndim=1):
        return t.Array(dtype, ndim, "C")

    i8, i16, i32, i64, b = t.int8, t.int16, t.int32, t.int64, t.boolean
    small = (i8, i16, i32)
    return {
        "cells": (_cells_py, [(a(i64), i64, i64, a(i32), a(i8), a(i32), i64, i64, i64)]),
        "per_game": (_per_game_py, [(a(i32), a(i8), a(i32), i64, i64)]),
        "flow_column": (_flow_column_py, [(a(x), a(i8), a(i32), i64, b, a(i64), a(i64))
                                          for x in small]),
        "by_seat_value": (_by_seat_value_py, [(a(x), b, i64, i64, i64, a(i32), a(i32), b)
                                              for x in small + (i64,)]),
        "pairs": (_pairs_py, [(a(i16, 2), a(i32), i64)]),
        "cluster": (_cluster_py, [(a(i16, 2), a(i32), i64)]),
        "event_slot": (_event_slot_py, [(a(x), a(x), b, a(i32), i64) for x in small]),
        "group_sums": (_group_sums_py, [(a(i64), i64, a(i64, 2), a(i64))]),
        "matchups": (_matchups_py, [(a(i32), a(i8), a(i64), i64, i64, i64, i64, i64)]),
        "period_sums": (_period_sums_py, [(a(x), i64) for x in small]),
        "value_seat_sums": (_value_seat_sums_py, [(a(i8), a(i8), a(i16), a(i32), i64, i64)]),
    }


def helpers_for(layout: dict[str, Any], dtypes: dict[str, str]) -> dict[str, list[str]]:
    """The helpers a configuration's statistics and summary sums use, each with the dtypes of
    its first argument: from the layout (:func:`layout_for`) and each column's dtype
    (``dtypes``: name → "int8", …, players and games tables): the specialisations a run of it
    compiles on a cold cache, one per column dtype (tests/test_startup.py checks a run of every
    game compiles no other)."""
    def of(names, extra=()):        # a bool column is read as int8
        return sorted({dtypes[n].replace("bool", "int8") for n in names if n in dtypes} | set(extra))

    ints = [n for n, d in dtypes.items() if d.startswith("int") or d == "bool"]
    # (period_sums also sums the win shares as int32 units: share_units, summary.parquet)
    out = {"cells": [], "per_game": [], "group_sums": [], "period_sums": of(ints, ["int32"]),
           "flow_column": of(layout["checkpoints"]["columns"], ["int32"]),
           "by_seat_value": of(layout["hist_player"] + layout["hist_game"]
                               + [s["event"] for s in layout["event_slots"]])}
    if layout["pair_groups"]:
        out["pairs"] = []
    if layout.get("slope_groups") or layout.get("founder_groups"):
        out["cluster"] = []
    if layout["event_slots"]:
        out["event_slot"] = of([s["gain"] for s in layout["event_slots"]])
        out["value_seat_sums"] = []           # a game's events_summary (Middle-Ages)
    if len(layout["strategies"]) > 1:
        out["matchups"] = []
    return out


def jobs_for(layout: dict[str, Any], dtypes: dict[str, str]) -> list[str]:
    """The specialisations a configuration's statistics compile on a cold cache
    (:func:`helpers_for`), each as ``"name:k"``: the k-th signature :func:`helper_signatures`
    lists for helper ``name`` (what :func:`compile_jobs` takes, e.g. in another process)."""
    listed = helper_signatures()
    jobs = []
    for name, firsts in helpers_for(layout, dtypes).items():
        for k, sig in enumerate(listed[name][1]):
            if not firsts or str(sig[0].dtype) in firsts:
                jobs.append(f"{name}:{k}")
    return jobs


def uncached_jobs(jobs: list[str]) -> list[str]:
    """The jobs of :func:`jobs_for` whose machine code is not in Numba's on-disk cache (or is
    stale: ``accumulate.py`` changed since), found without compiling or loading anything
    (:func:`simcore.numba_cache.is_cached`, a few milliseconds): what a run would compile at its
    first chunk's statistics, though its kernel came from the cache (an upgrade that changed
    only this module)."""
    from simcore.numba_cache import is_cached

    listed = helper_signatures()
    out = []
    for job in jobs:
        name, k = job.rsplit(":", 1)
        fn, signatures = listed[name]
        if not is_cached(_jit(name, fn), signatures[int(k)]):
            out.append(job)
    return out


def compile_jobs(jobs: list[str]) -> None:
    """Compile (or load from the on-disk cache) each ``"name:k"`` of :func:`jobs_for`: run by
    the child process :class:`simcore.runner.HelperCompile` starts beside a cold kernel compile,
    so that the process filling the statistics later finds them in the cache."""
    from simcore.numba_cache import eased_collector

    listed = helper_signatures()
    collector = eased_collector()
    collector.begin()
    try:
        for job in jobs:
            name, k = job.rsplit(":", 1)
            fn, signatures = listed[name]
            _jit(name, fn).compile(signatures[int(k)])
    finally:
        collector.end()


def _group_sums(index: np.ndarray, size: int, weights: np.ndarray, squared=None) -> np.ndarray:
    """Counts and integer sums (and sums of squares where ``squared``) per index in one pass
    (:func:`_group_sums_py`, jitted on first use: numba is imported only by a process that fills
    statistics, not by one that reads them). ``weights``: an int32 or int64 matrix, one row per
    quantity."""
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
        ``self``) in order, the sums of each row of ``weights`` (an integer matrix, one column per
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

    def add_by_seat(self, values: np.ndarray, P: int, Wg: np.ndarray, Sg: np.ndarray | None = None,
                    targets=(), per_game: bool = False) -> None:
        """Per cell (seat, value) of player rows (game-major, ``P`` a game): with ``Sg`` (scores)
        the counts into ``self`` and Σ W, Σ S, Σ S² into ``targets``; without, only Σ W (win
        units ``Wg``) into ``self``. ``values`` one per player row, or with ``per_game`` one per
        game (a game column counted at every seat); every histogram has the cells (P,). One
        jitted pass (:func:`_by_seat_value_py`)."""
        v = np.asarray(values)
        if v.size == 0:
            return
        lo, hi = int(v.min()), int(v.max())
        hists = (self, *targets)
        for h in hists:
            h._cover(lo, hi)
        lo, V = self.lo, self.a.shape[-1]
        if any(h.lo != lo or h.a.shape != self.a.shape for h in hists):
            raise ValueError("statistics: histograms filled together must share their values")
        if v.dtype == np.bool_:
            v = v.view(np.int8)
        elif v.dtype.kind not in "iu" or v.dtype == np.uint64:
            v = v.astype(np.int64)
        full = Sg is not None
        out, ok = _jit("by_seat_value", _by_seat_value_py)(
            np.ascontiguousarray(v), bool(per_game), int(P), int(lo), int(V),
            np.ascontiguousarray(Wg), np.ascontiguousarray(Sg if full else Wg), full)
        if not ok:
            raise ValueError(f"statistics: a value outside [{lo}, {lo + V})")
        for h, k in zip(hists, (0, 1, 2, 3) if full else (1,)):
            h.a += out[:, k].reshape(h.a.shape)

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
        # the pair groups the type tables fit a slope of win share on (analysis.tiles: the
        # drafted types), which get the per-game sums of a slope's clustered error (clu:<group>)
        "slope_groups": [g for g, cols in grouped("drafted_by_type").items() if len(cols) >= 2],
        # the founded types (analysis.guilds): per type, the same per-game sums over the indicator
        # "founded one or more" (fclu:<group>), the founders − others difference's error with the
        # game as the cluster (review s62 #2: a game's founders and others are tied)
        "founder_groups": {g: [n for _, n in cols] for g, cols in grouped("founded_by_type").items()},
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
# The statistics
# ---------------------------------------------------------------------------------------------

#: The per-deal sums of a rotated-seat run's statistics, each absent from statistics written
#: before it (deal_win_sq since 0bb185e; deal_score_sq and deal_win_cross after): :meth:`RunStats.from_dict`
#: and :meth:`RunStats.merge` drop one a file or a part lacks, and the analysis then reads what it
#: gives game by game.
DEAL_SUMS = ("deal_win_sq", "deal_score_sq", "deal_win_cross", "deal_credit_cross")


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
        if layout["games_per_deal"] > 1:
            # Σ over deals of (a seat's win units over the deal's rotated games)² and of (its score
            # over them)², and Σ over deals of the outer product of the seats' win units per deal:
            # the seats' win shares' and mean scores' variance between deals, the independent units
            # of a rotated run (analysis.seats.deal_clustered_sd, the Wald test of seat_tests);
            # each is absent from statistics written before it (DEAL_SUMS)
            self.fixed.update({"deal_win_sq": z(P), "deal_score_sq": z(P), "deal_win_cross": z(P, P),
                               # the same for the Ludii credits (in credit units): Balance's and
                               # AdvantageP1's intervals over the deals (review s48 MA #2)
                               "deal_credit_cross": z(P, P)})
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
            if g in layout.get("slope_groups", ()):
                self.fixed[f"clu:{g}"] = z(len(cols), len(CLUSTER_TERMS))
        for g, cols in layout.get("founder_groups", {}).items():
            self.fixed[f"fclu:{g}"] = z(len(cols), len(CLUSTER_TERMS))
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
        0 … P − 1 within a game; with rotated seats a whole number of deals).

        Each group of sums is one jitted pass over the chunk's columns as the kernel wrote them,
        in their own dtypes (:func:`_cells_py`, :func:`_per_game_py`, :func:`_flow_column_py`,
        :func:`_by_seat_value_py`, :func:`_pairs_py`, :func:`_event_slot_py`), with unsigned
        indices: ~150 numpy passes and their temporaries took 200 ms of CPU for a chunk of
        131,072 4-player Middle-Ages games (docs/cluster.md, ``benchmarks/bench_stats_fill.py``)."""
        lay = self.layout
        P, K = lay["players"], len(lay["strategies"])
        L, gpd = lay["win_units"], lay["games_per_deal"]
        pc, gc = chunk.players, chunk.games

        # win shares in units of 1/L, game-major, checked to be whole units
        Wg = share_units(pc[lay["win_share"]], L, lay["game"])
        G = len(Wg) // P
        if G == 0:
            return
        if gpd > 1 and G % gpd:
            raise ValueError(f"a chunk of {G} games holds part of a deal ({gpd} games each)")
        # one dtype per argument, so each jitted helper compiles once on a cold start whatever
        # the game's column dtypes (a cast of one column costs ~0.3 ms a chunk; a compile 0.3 s)
        Rg = np.ascontiguousarray(pc[lay["rank"]], np.int8 if np.asarray(pc[lay["rank"]]).dtype.itemsize == 1
                                  else np.int64)
        Sg = np.ascontiguousarray(pc[lay["score"]], np.int32 if np.asarray(pc[lay["score"]]).dtype.itemsize <= 4
                                  else np.int64)
        from simcore.contract import strategy_codes

        strat_g = strategy_codes(chunk, lay["strategies"])
        if strat_g is None:
            strat_g = _strategy_index(pc["strategy"], lay["strategies"])
        f = self.fixed
        f["games"] += G
        h = self.valued["score"]
        h._cover(int(Sg.min()), int(Sg.max()))
        V = h.a.shape[-1]
        cells, hist, ok = _jit("cells", _cells_py)(
            np.ascontiguousarray(strat_g, np.int64) if K > 1 else np.zeros(1, np.int64), K, P, Wg,
            Rg, Sg, L, h.lo, V)
        if not ok:
            raise ValueError("statistics: a score outside its histogram")
        h.a += hist.reshape(h.a.shape)
        for k, name in enumerate(("cell_n", "cell_win", "cell_outright", "cell_shared",
                                  "cell_rank", "cell_score", "cell_win_sq", "cell_score_sq")):
            f[name] += cells[:, k].reshape(P, K)
        win_cross, credit_sum, credit_cross, shared, gap = _jit("per_game", _per_game_py)(
            Wg, Rg, Sg, P, L)
        per_deal = Wg.reshape(G // gpd, gpd, P).sum(axis=1, dtype=np.int64) if gpd > 1 else None
        if "deal_win_sq" in f:
            f["deal_win_sq"] += (per_deal * per_deal).sum(axis=0)
        if "deal_win_cross" in f:
            f["deal_win_cross"] += per_deal.T @ per_deal
        if "deal_credit_cross" in f:
            per_deal_credit = deal_credits(Rg, P, gpd)
            f["deal_credit_cross"] += per_deal_credit.T @ per_deal_credit
        if "deal_score_sq" in f:
            per_deal_score = Sg.reshape(G // gpd, gpd, P).sum(axis=1, dtype=np.int64)
            f["deal_score_sq"] += (per_deal_score * per_deal_score).sum(axis=0)
        f["win_cross"] += win_cross
        f["credit_sum"] += credit_sum
        f["credit_cross"] += credit_cross
        f["shared_games"] += int(shared)
        self.valued["spread"].add(0, gap)
        self._checkpoints(pc, Wg, Rg, Sg, G)
        for c in lay["hist_player"]:
            self.valued[f"n:{c}"].add_by_seat(pc[c], P, Wg, Sg, (
                self.valued[f"w:{c}"], self.valued[f"s:{c}"], self.valued[f"q:{c}"]))
        for g, cols in lay["pair_groups"].items():
            k = len(cols)
            wide = max(np.asarray(pc[c]).dtype.itemsize for c in cols) > 2
            types = np.empty((k, G * P), np.int64 if wide else np.int16)
            for i, c in enumerate(cols):
                types[i] = pc[c]
            sums = _jit("pairs", _pairs_py)(types, Wg, P)
            f[f"pair_n:{g}"] += sums[0].reshape(k, k + 1)
            f[f"pair_w:{g}"] += sums[1].reshape(k, k + 1)
            if f"clu:{g}" in f:
                f[f"clu:{g}"] += _jit("cluster", _cluster_py)(types, Wg, P)
        for g, cols in lay.get("founder_groups", {}).items():
            founded = np.empty((len(cols), G * P), np.int16)
            for i, c in enumerate(cols):
                founded[i] = np.asarray(pc[c]) > 0
            f[f"fclu:{g}"] += _jit("cluster", _cluster_py)(founded, Wg, P)
        self._events(pc, gc, Wg, G)
        self._games(gc, Wg, G)
        if K >= 2:
            m = _jit("matchups", _matchups_py)(Wg, Rg, np.ascontiguousarray(strat_g, np.int64), P, K,
                                               gpd, L, lay["matchup_units"])
            for r, name in enumerate(("mu_s_n", "mu_s_sum", "mu_s_sq")):
                f[name] += m[r, :K]
            for r, name in enumerate(("mu_m_n", "mu_m_sum", "mu_m_sq", "mu_w_sum", "mu_w_sq"), 3):
                f[name] += m[r]
        self._check_range()

    def _checkpoints(self, pc, Wg, Rg, Sg, G) -> None:
        lay, f = self.layout, self.fixed
        P = lay["players"]
        cols = lay["checkpoints"]["columns"]
        prev = np.full(G, -1, np.int64)
        changes = np.zeros(G, np.int64)
        fill = _jit("flow_column", _flow_column_py)
        for j, c in enumerate(cols + [None]):
            col = np.ascontiguousarray(pc[c]) if c is not None else Sg
            flow_sum, flow_sq, games, win, ok = fill(col, Rg, Wg, P, c is not None, prev, changes)
            if not ok:
                raise ValueError(f"statistics: an index outside [0, {P})")
            f["flow_sum"][:, j] += flow_sum
            f["flow_sq"][:, j] += flow_sq
            if c is not None:
                f["leader_games"][j] += games
                f["leader_win"][j] += win
        f["flow_n"] += _binc(np.asarray(Rg).astype(np.int64) - 1, P)
        if cols:
            n = len(f["lead_changes"])
            f["lead_changes"] += _binc(changes, n)[:n]

    def _events(self, pc, gc, Wg, G) -> None:
        lay, v = self.layout, self.valued
        P = lay["players"]
        for i, s in enumerate(lay["event_slots"]):
            ev = np.asarray(gc[s["event"]])
            gain = np.ascontiguousarray(pc[s["gain"]])
            before = np.ascontiguousarray(pc[s["before"]]) if s["before"] else gain
            per_game = _jit("event_slot", _event_slot_py)(gain, before, bool(s["before"]), Wg, P)
            v["ev_games"].add_stack(i, ev.astype(np.int64), (
                v["ev_gain_s"], v["ev_spread_s"], v["ev_top_games"], v["ev_top_win"], v["ev_changes"],
                v["ev_gain_q"], v["ev_spread_q"]), per_game, (1, 1, 0, 0, 0))
            v["ev_seat_win"].add_by_seat(ev, P, Wg, per_game=True)

    def _games(self, gc, Wg, G) -> None:
        lay, v = self.layout, self.valued
        P = lay["players"]
        length = np.asarray(gc[lay["length"]]).astype(np.int64) if lay["length"] else None
        for c in lay["hist_game"]:
            x = np.asarray(gc[c]).astype(np.int64)
            v[f"g:{c}"].add_many(0, x, ((None, None),) + (((v[f"gl:{c}"], length),)
                                                           if length is not None else ()))
            v[f"gw:{c}"].add_by_seat(gc[c], P, Wg, per_game=True)
        if length is not None:
            reason = (np.asarray(gc[lay["end_reason"]]).astype(np.int64) if lay["end_reason"]
                      else np.zeros(G, np.int64))
            v["length"].add(reason, length)

    def _check_range(self) -> None:
        for name, a in self.fixed.items():
            if a.size and np.abs(a).max() > LIMIT:
                raise OverflowError(f"statistics {name}: a total beyond 2**62")

    # -- merging ---------------------------------------------------------------------------------
    def merge(self, other: "RunStats") -> "RunStats":
        """Add ``other``'s sums to these (same layout); returns self."""
        if other.layout != self.layout:
            raise ValueError("statistics of different configurations cannot be merged")
        for name in [n for n in self.fixed if n not in other.fixed and (n.startswith("clu:")
                                                                          or n in DEAL_SUMS)]:
            del self.fixed[name]             # an older part: the pool has no clustered sums
        for name, a in other.fixed.items():
            if name in self.fixed:
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
        for k in [k for k in out.fixed if (k.startswith("clu:") or k in DEAL_SUMS) and k not in d["fixed"]]:
            del out.fixed[k]                 # no clustered sums (an older run)
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
