"""Seat advantage and the shape of a game's outcome (common columns, plus checkpoints if recorded).

Seat metrics: :func:`seat_table` (win share per seat against the fair 1/n, Wilson intervals),
:func:`seat_tests` (chi-square test of "seats are equal", Ludii-style Balance and AdvantageP1).
Outcome metrics: :func:`outcome_table` (shared wins, winner − runner-up spread, lead changes across
the event checkpoints, how often the leader at each checkpoint wins), :func:`lead_change_counts`,
:func:`spread_counts`, :func:`flow_table` (mean coins at each checkpoint by final rank) and
:func:`score_distribution`. Per-game metrics are computed by accumulators fed by
:func:`analysis.load.run_pass`; pass a filled accumulator to avoid a second pass over the data.
Every function returns a polars DataFrame whose column names are documented in docs/analysis.md.

May import polars, numpy, :mod:`analysis.load` and :mod:`analysis.stats`.
"""

from __future__ import annotations

import re

import numpy as np
import polars as pl

from analysis import stats
from analysis.load import Block, RunSet, collect, run_pass, seat_label

BOOTSTRAP_DRAWS = 4000
BOOTSTRAP_SEED = 20240601
_SHARED_EPS = 1e-6


def checkpoint_columns(rs: RunSet) -> list[str]:
    """``coins_before_event_k`` columns present, in k order (empty for games without them)."""
    found = []
    for c in rs.player_columns:
        m = re.fullmatch(r"coins_before_event_(\d+)", c)
        if m:
            found.append((int(m.group(1)), c))
    return [c for _, c in sorted(found)]


def _checkpoint_turn(k: int) -> int:
    # MA-3: event card k fires at the end of turn 4k.
    return 4 * k


# ---------------------------------------------------------------------------------------------
# Seats
# ---------------------------------------------------------------------------------------------

def seat_table(rs: RunSet) -> pl.DataFrame:
    """Win share per seat with a Wilson interval, against the fair share 1/n.

    Columns: seat (0-based), seat_label, games, wins (Σ win_share), win_share, ci_low, ci_high,
    fair_share, diff, diff_low, diff_high, significant (fair share outside the interval),
    mean_score, score_sd, score_ci_low, score_ci_high (t interval), mean_rank.
    """
    agg = collect(rs.players(["seat", "win_share", "score", "rank"]).group_by("seat").agg(
        pl.len().alias("games"),
        pl.col("win_share").cast(pl.Float64).sum().alias("wins"),
        pl.col("score").cast(pl.Float64).sum().alias("_s"),
        (pl.col("score").cast(pl.Float64) ** 2).sum().alias("_ss"),
        pl.col("rank").cast(pl.Float64).mean().alias("mean_rank"),
    ).sort("seat"))
    n = agg["games"].to_numpy().astype(float)
    wins = agg["wins"].to_numpy()
    low, high = stats.wilson(wins, n)
    fair = 1.0 / rs.n_players
    p = wins / n
    mean, sd = stats.moments(n, agg["_s"].to_numpy(), agg["_ss"].to_numpy())
    slow, shigh = stats.t_interval(mean, sd, n)
    return pl.DataFrame({
        "seat": agg["seat"].cast(pl.Int8),
        "seat_label": [seat_label(s) for s in agg["seat"]],
        "games": agg["games"].cast(pl.Int64),
        "wins": wins, "win_share": p, "ci_low": low, "ci_high": high,
        "fair_share": np.full(len(p), fair), "diff": p - fair,
        "diff_low": low - fair, "diff_high": high - fair,
        "significant": (low > fair) | (high < fair),
        "mean_score": mean, "score_sd": sd, "score_ci_low": slow, "score_ci_high": shigh,
        "mean_rank": agg["mean_rank"],
    })


class SeatAccumulator:
    """Per-seat win-share sums and cross-products Σ w wᵀ over games (for Balance's interval)."""

    player_columns = ("win_share",)
    game_columns: tuple[str, ...] = ()

    def __init__(self, n_players: int) -> None:
        self.games = 0
        self.total = np.zeros(n_players)
        self.cross = np.zeros((n_players, n_players))

    def add(self, block: Block) -> None:
        w = block.p["win_share"].astype(np.float64)
        self.games += block.n_games
        self.total += w.sum(axis=0)
        self.cross += w.T @ w


def seat_tests(rs: RunSet, acc: SeatAccumulator | None = None) -> pl.DataFrame:
    """One row of run-level seat statistics.

    Columns: games, chi2, dof, p_value, seats_differ (p < 0.05), balance, balance_low, balance_high,
    largest_gap, best_seat, worst_seat, advantage_p1, advantage_p1_low, advantage_p1_high.

    * chi2: Σ (O − E)² / E over seats with O = wins per seat (win shares summed), E = games / n.
    * balance = 1 − (largest − smallest seat win share), Ludii's Balance; its interval is a parametric
      bootstrap: 4000 draws of the seat-share vector from a normal with the observed covariance of
      the per-game win-share vectors / games (fixed seed), 2.5 and 97.5 percentiles.
    * advantage_p1 = win share of seat 1 (ties count 1/k, as Ludii's partial wins), Wilson interval.
    """
    if acc is None:
        acc = SeatAccumulator(rs.n_players)
        run_pass(rs, [acc])
    g = acc.games
    p = acc.total / g
    chi2, dof, pval = stats.chi_square_equal(acc.total)
    balance = 1.0 - (p.max() - p.min())
    cov = (acc.cross / g - np.outer(p, p)) * g / max(g - 1, 1)
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    vals, vecs = np.linalg.eigh(cov / g)
    draws = p + (rng.standard_normal((BOOTSTRAP_DRAWS, len(p))) * np.sqrt(np.clip(vals, 0, None))) @ vecs.T
    boot = 1.0 - (draws.max(axis=1) - draws.min(axis=1))
    blow, bhigh = np.percentile(boot, [2.5, 97.5])
    alow, ahigh = stats.wilson(acc.total[0], g)
    return pl.DataFrame({
        "games": [g], "chi2": [chi2], "dof": [dof], "p_value": [pval], "seats_differ": [bool(pval < 0.05)],
        "balance": [balance], "balance_low": [float(blow)], "balance_high": [float(min(bhigh, 1.0))],
        "largest_gap": [p.max() - p.min()], "best_seat": [int(p.argmax())], "worst_seat": [int(p.argmin())],
        "advantage_p1": [p[0]], "advantage_p1_low": [float(alow)], "advantage_p1_high": [float(ahigh)],
    }, schema_overrides={"best_seat": pl.Int8, "worst_seat": pl.Int8})


# ---------------------------------------------------------------------------------------------
# Outcome shape
# ---------------------------------------------------------------------------------------------

def row_max(x: np.ndarray) -> np.ndarray:
    """Largest value of each game (row); column by column, which is fast on short rows."""
    out = x[:, 0].copy()
    for s in range(1, x.shape[1]):
        np.maximum(out, x[:, s], out=out)
    return out


def row_min(x: np.ndarray) -> np.ndarray:
    out = x[:, 0].copy()
    for s in range(1, x.shape[1]):
        np.minimum(out, x[:, s], out=out)
    return out


def top_seat(x: np.ndarray, best: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(number of seats holding the row maximum, lowest such seat) for each game."""
    best = row_max(x) if best is None else best
    count = np.zeros(x.shape[0], np.int8)
    seat = np.full(x.shape[0], -1, np.int8)
    hit = np.empty(x.shape[0], bool)
    for s in range(x.shape[1] - 1, -1, -1):
        np.equal(x[:, s], best, out=hit)
        count += hit
        np.copyto(seat, np.int8(s), where=hit)
    return count, seat


def sole_leader(coins: np.ndarray) -> np.ndarray:
    """Seat with strictly the most coins in each game, ``-1`` where the lead is shared."""
    count, seat = top_seat(coins)
    return np.where(count == 1, seat, -1)


def runner_up(score: np.ndarray, best: np.ndarray, count: np.ndarray) -> np.ndarray:
    """Second-highest score of each game (equal to the best when the top is shared)."""
    low = np.iinfo(score.dtype).min
    second = np.full(score.shape[0], low, score.dtype)
    for s in range(score.shape[1]):
        col = score[:, s]
        np.maximum(second, col, out=second, where=col < best)
    return np.where((count > 1) | (second == low), best, second)


class OutcomeAccumulator:
    """Shared wins, winner − runner-up spread, lead changes and checkpoint leaders' win shares."""

    game_columns: tuple[str, ...] = ()
    MAX_SPREAD = 400

    def __init__(self, checkpoints: list[str]) -> None:
        self.checkpoints = list(checkpoints)
        self.player_columns = ("score", "win_share", *self.checkpoints)
        k = len(self.checkpoints)
        self.games = 0
        self.shared = 0
        self.spread = np.zeros(self.MAX_SPREAD + 1, np.int64)
        self.changes = np.zeros(max(k, 1), np.int64)
        self.leader_games = np.zeros(k, np.int64)
        self.leader_wins = np.zeros(k)

    def add(self, block: Block) -> None:
        w = block.p["win_share"]
        score = block.p["score"]
        rows = np.arange(block.n_games)
        self.games += block.n_games
        self.shared += int((row_max(w) < 1.0 - _SHARED_EPS).sum())
        best = row_max(score)
        count, _ = top_seat(score, best)
        gap = np.clip(best.astype(np.int64) - runner_up(score, best, count), 0, self.MAX_SPREAD)
        self.spread += np.bincount(gap, minlength=self.MAX_SPREAD + 1)
        prev = np.full(block.n_games, -1)
        changes = np.zeros(block.n_games, np.int64)
        for k, col in enumerate(self.checkpoints):
            lead = sole_leader(block.p[col])
            sole = lead >= 0
            self.leader_games[k] += int(sole.sum())
            self.leader_wins[k] += float(w[rows[sole], lead[sole]].sum(dtype=np.float64))
            changes += sole & (prev >= 0) & (lead != prev)
            prev = np.where(sole, lead, prev)
        if self.checkpoints:
            self.changes += np.bincount(changes, minlength=len(self.changes))[: len(self.changes)]


def _outcome_acc(rs: RunSet, acc: OutcomeAccumulator | None) -> OutcomeAccumulator:
    if acc is None:
        acc = OutcomeAccumulator(checkpoint_columns(rs))
        run_pass(rs, [acc])
    return acc


def outcome_table(rs: RunSet, acc: OutcomeAccumulator | None = None) -> pl.DataFrame:
    """Run-level outcome metrics, one row each.

    Columns: metric, label, estimate, ci_low, ci_high, n, kind ("proportion": Wilson; "mean": t).
    Metrics: shared_wins (games whose win is shared), score_spread (winner − runner-up, coins),
    and with checkpoints: lead_changes (times the sole leader changes between consecutive
    checkpoints), leader_wins_event_k (win share of the sole leader just before event k).
    """
    acc = _outcome_acc(rs, acc)
    rows = []
    g = acc.games
    lo, hi = stats.wilson(acc.shared, g)
    rows.append(("shared_wins", "Games with a shared win", acc.shared / g, lo, hi, g, "proportion"))
    v = np.arange(len(acc.spread), dtype=float)
    mean, sd = stats.moments(g, (v * acc.spread).sum(), (v * v * acc.spread).sum())
    lo, hi = stats.t_interval(mean, sd, g)
    rows.append(("score_spread", "Winner's lead over the runner-up (coins)", mean, lo, hi, g, "mean"))
    if acc.checkpoints:
        v = np.arange(len(acc.changes), dtype=float)
        mean, sd = stats.moments(g, (v * acc.changes).sum(), (v * v * acc.changes).sum())
        lo, hi = stats.t_interval(mean, sd, g)
        rows.append(("lead_changes", f"Lead changes across the {len(acc.checkpoints)} event checkpoints",
                     mean, lo, hi, g, "mean"))
        for k in range(len(acc.checkpoints)):
            n = acc.leader_games[k]
            lo, hi = stats.wilson(acc.leader_wins[k], n)
            rows.append((f"leader_wins_event_{k + 1}",
                         f"Leader before event {k + 1} (turn {_checkpoint_turn(k + 1)}) wins",
                         acc.leader_wins[k] / n if n else float("nan"), lo, hi, int(n), "proportion"))
    rows = [(m, lab, float(e), float(lo), float(hi), int(n), kind) for m, lab, e, lo, hi, n, kind in rows]
    return pl.DataFrame(rows, schema=["metric", "label", "estimate", "ci_low", "ci_high", "n", "kind"],
                        orient="row")


def lead_change_counts(rs: RunSet, acc: OutcomeAccumulator | None = None) -> pl.DataFrame:
    """Distribution of lead changes per game. Columns: lead_changes, games, share."""
    acc = _outcome_acc(rs, acc)
    if not acc.checkpoints:
        return pl.DataFrame(schema={"lead_changes": pl.Int64, "games": pl.Int64, "share": pl.Float64})
    return pl.DataFrame({"lead_changes": np.arange(len(acc.changes)), "games": acc.changes,
                         "share": acc.changes / max(acc.games, 1)})


def spread_counts(rs: RunSet, acc: OutcomeAccumulator | None = None) -> pl.DataFrame:
    """Distribution of the winner − runner-up spread. Columns: spread, games, share."""
    acc = _outcome_acc(rs, acc)
    last = int(np.flatnonzero(acc.spread).max()) if acc.spread.any() else 0
    counts = acc.spread[: last + 1]
    return pl.DataFrame({"spread": np.arange(last + 1), "games": counts, "share": counts / max(acc.games, 1)})


def flow_table(rs: RunSet) -> pl.DataFrame:
    """Mean coins at each event checkpoint (and the final score) by final rank.

    Columns: checkpoint (1…k, k+1 = end), label, turn (null at the end), rank, players, mean_coins,
    ci_low, ci_high (t interval). Empty without checkpoint columns.
    """
    cols = checkpoint_columns(rs)
    schema = {"checkpoint": pl.Int64, "label": pl.String, "turn": pl.Int64, "rank": pl.Int8,
              "players": pl.Int64, "mean_coins": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64}
    if not cols:
        return pl.DataFrame(schema=schema)
    all_cols = cols + ["score"]
    aggs = [pl.len().alias("players")]
    for i, c in enumerate(all_cols):
        x = pl.col(c).cast(pl.Float64)
        aggs += [x.sum().alias(f"s{i}"), (x * x).sum().alias(f"q{i}")]
    agg = collect(rs.players(["rank", *all_cols]).group_by("rank").agg(aggs).sort("rank"))
    parts = []
    n = agg["players"].to_numpy()
    for i, c in enumerate(all_cols):
        mean, sd = stats.moments(n, agg[f"s{i}"].to_numpy(), agg[f"q{i}"].to_numpy())
        lo, hi = stats.t_interval(mean, sd, n)
        end = i == len(cols)
        parts.append(pl.DataFrame({
            "checkpoint": np.full(len(n), i + 1),
            "label": ["Final score" if end else f"Turn {_checkpoint_turn(i + 1)}"] * len(n),
            "turn": [None if end else _checkpoint_turn(i + 1)] * len(n), "rank": agg["rank"].cast(pl.Int8),
            "players": n, "mean_coins": mean, "ci_low": lo, "ci_high": hi}, schema=schema))
    return pl.concat(parts)


def score_distribution(rs: RunSet, by: str = "seat") -> pl.DataFrame:
    """Histogram of final scores per seat or per strategy.

    Columns: group (Seat k / strategy name), score, players, share (within the group).
    """
    if by not in ("seat", "strategy"):
        raise ValueError("by must be 'seat' or 'strategy'")
    agg = collect(rs.players([by, "score"]).group_by([by, "score"]).agg(pl.len().alias("players")))
    agg = agg.with_columns((pl.col("players") / pl.col("players").sum().over(by)).alias("share"))
    agg = agg.sort([by, "score"])
    if by == "seat":
        group = pl.Series([seat_label(s) for s in agg["seat"]], dtype=pl.String)
    else:
        group = agg[by].cast(pl.String)
    return pl.DataFrame({"group": group, "score": agg["score"].cast(pl.Int64),
                         "players": agg["players"].cast(pl.Int64), "share": agg["share"]})
