"""Strategy strength and head-to-head matchups from mixed or rotated-seat runs (common columns).

:func:`strategy_table`: the win share of each strategy against the fair 1/n. :func:`matchup_table`:
for every ordered pair of different strategies A, B meeting in a game, how often A finishes ahead
of B (``ahead_share``: rank better = 1, equal = ½, averaged over the A–B player pairs of a game) and
A's win share in games where B also plays. The independent unit is the game, or the deal when the
run has ``deal``/``rotation`` columns (rotated seats): values are averaged over the rotations of a
deal first, which cancels seat advantage and deal luck (paired analysis), and intervals are over deals
(Wilson's at the deals' effective number of games, :func:`analysis.stats.share_mean_interval`). Without deals the unit is the game: a strategy's value in a game is the mean
over its seats (its win share) or over the A–B player pairs (ahead share, A's win share against B),
and a value that is one seat's (one pair's) share is a count's, with a Wilson interval over the
games; a strategy on several seats of a game gets the interval of those per-game means
(:func:`analysis.stats.share_mean_interval`: Wilson's at their effective number of games, review
s62 #1, where a t interval clipped at 0 was too short for a bot that rarely wins), the definition
the CI baseline measures
(docs/ci.md): its seats' shares in one game are dependent (they add up with the others' to 1), and a
Wilson interval over its player rows, or over the meetings at the mean, overstated the error
(review s60: balanced on three seats against rollout, 4,000 games, 9.8–10.9% over rows and
9.4–11.3% over meetings against 9.85–10.80% per game). When strategies are tied to seats the seat
advantage is part of the matchup (``confounded`` column).

Each table is one family of comparisons, adjusted by Holm's step-down procedure (issue 29): the
strategies against the fair share, and the unordered strategy pairs against ½ (A–B and B–A are
mirror images, one test). The tests are t tests over the independent units (deals, or games), so
shared wins carry their own (smaller) variance. ``significant`` is the adjusted call and
``verdict`` words it by size, read on the Bonferroni interval of the same test over the family
(wider than any of Holm's steps, so conservative); the intervals shown are each comparison's own
95 % interval, unadjusted, and the pages say so.

May import polars, numpy, :mod:`analysis.load` and :mod:`analysis.stats`.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from analysis import stats
from analysis.load import Block, RunSet, int_moments, run_pass

ALPHA = 0.05          # family-wise error of each family (strategies; unordered matchup pairs)
_SUB = 250_000  # games per sub-block: bounds the (games × strategies²) work arrays


def has_matchups(rs: RunSet) -> bool:
    return len(rs.strategies) >= 2


def _cluster_means(cluster: np.ndarray, sums: np.ndarray, counts: np.ndarray, same_unit: bool):
    """Per-unit means of per-game sums (units = games or deals); returns (means, present) per unit."""
    if not same_unit:
        uniq, inv = np.unique(cluster, return_inverse=True)
        s = np.zeros((uniq.size, sums.shape[1]))
        c = np.zeros((uniq.size, sums.shape[1]))
        for j in range(sums.shape[1]):
            s[:, j] = np.bincount(inv, weights=sums[:, j], minlength=uniq.size)
            c[:, j] = np.bincount(inv, weights=counts[:, j], minlength=uniq.size)
        sums, counts = s, c
    present = counts > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        means = np.where(present, sums / np.where(present, counts, 1), 0.0)
    return means, present


class MatchupAccumulator:
    """Per strategy and per ordered strategy pair: unit counts, sums and sums of squares."""

    player_columns = ("strategy", "rank", "win_share")
    game_columns: tuple[str, ...] = ()

    def __init__(self, rs: RunSet) -> None:
        self.k = len(rs.strategies)
        self.n = rs.n_players
        self.paired = rs.cluster == "deal"
        k = self.k
        self.games = 0
        self.rows = np.zeros(k)
        self.row_wins = np.zeros(k)
        self.seats = np.zeros((k, self.n))
        self.s_n = np.zeros(k)
        self.s_sum = np.zeros(k)
        self.s_mom = stats.Moments.zeros(k)       # per-unit means, centred (paired intervals)
        self.m_n = np.zeros(k * k)
        self.m_sum = np.zeros(k * k)
        self.m_mom = stats.Moments.zeros(k * k)
        self.w_sum = np.zeros(k * k)
        self.w_mom = stats.Moments.zeros(k * k)

    def add(self, block: Block) -> None:
        # Deals must not be split: with rotated seats, sub-blocks are cut between deals.
        G = block.n_games
        self.games += G
        if not self.paired:
            for start in range(0, G, _SUB):
                self._add(block, slice(start, min(start + _SUB, G)))
            return
        order = np.argsort(block.cluster, kind="stable")
        unit = block.cluster[order]
        start = 0
        while start < G:
            stop = min(start + _SUB, G)
            while stop < G and unit[stop] == unit[stop - 1]:
                stop += 1
            self._add(block, order[start:stop])
            start = stop

    def _add(self, block: Block, sl) -> None:
        k, n = self.k, self.n
        # Column-major copies: every per-seat column below is contiguous.
        S = np.asfortranarray(block.p["strategy"][sl], dtype=np.int64)
        R = np.asfortranarray(block.p["rank"][sl])
        W = np.asfortranarray(block.p["win_share"][sl], dtype=np.float64)
        G = S.shape[0]
        for s in range(n):
            self.seats[:, s] += np.bincount(S[:, s], minlength=k)[:k]
            self.rows += np.bincount(S[:, s], minlength=k)[:k]
            self.row_wins += np.bincount(S[:, s], weights=W[:, s], minlength=k)[:k]
        # Per-game sums in flat (game, strategy) and (game, strategy pair) cells. Within one seat
        # (pair) every game hits one cell, so plain fancy-index += never meets a duplicate index.
        base = np.arange(G, dtype=np.int64)
        ssum = np.zeros(G * k)
        scnt = np.zeros(G * k)
        for s in range(n):
            idx = base * k + S[:, s]
            ssum[idx] += W[:, s]
            scnt[idx] += 1.0
        means, present = _cluster_means(block.cluster[sl], ssum.reshape(G, k), scnt.reshape(G, k),
                                        not self.paired)
        self.s_n += present.sum(0)
        self.s_sum += means.sum(0)
        self.s_mom = self.s_mom.merge(stats.Moments.of_columns(means, present))
        kk = k * k
        asum = np.zeros(G * kk)
        wsum = np.zeros(G * kk)
        cnt = np.zeros(G * kk)
        for i in range(n):
            si, ri, wi = S[:, i], R[:, i], W[:, i]
            cell_i = base * kk + si * k
            for j in range(n):
                if i == j:
                    continue
                sj, rj = S[:, j], R[:, j]
                differ = si != sj
                idx = (cell_i + sj)[differ]
                ahead = (ri < rj) + 0.5 * (ri == rj)
                asum[idx] += ahead[differ]
                wsum[idx] += wi[differ]
                cnt[idx] += 1.0
        asum, wsum, cnt = asum.reshape(G, kk), wsum.reshape(G, kk), cnt.reshape(G, kk)
        am, present = _cluster_means(block.cluster[sl], asum, cnt, not self.paired)
        wm, _ = _cluster_means(block.cluster[sl], wsum, cnt, not self.paired)
        self.m_n += present.sum(0)
        self.m_sum += am.sum(0)
        self.m_mom = self.m_mom.merge(stats.Moments.of_columns(am, present))
        self.w_sum += wm.sum(0)
        self.w_mom = self.w_mom.merge(stats.Moments.of_columns(wm, present))


def accumulator_from_stats(rs: RunSet) -> MatchupAccumulator:
    """A :class:`MatchupAccumulator` filled from the statistics: per strategy and ordered pair,
    the count, sum and sum of squares of the per-unit means (exact, in units of 1/D)."""
    st = rs.stats
    f, lay = st.fixed, st.layout
    L, D = lay["win_units"], lay["matchup_units"]
    names = list(lay["strategies"])
    keep = [names.index(s) for s in rs.strategies]
    K = len(names)
    acc = MatchupAccumulator.__new__(MatchupAccumulator)
    acc.k, acc.n, acc.paired = len(keep), st.n_players, lay["games_per_deal"] > 1
    acc.games = st.games
    acc.rows = f["cell_n"].sum(axis=0)[keep].astype(float)
    acc.row_wins = (f["cell_win"].sum(axis=0) / L)[keep]
    acc.seats = f["cell_n"].T[keep].astype(float)

    def mom(n, total, sq):
        mean, m2 = int_moments(n, total, sq, scale=D)
        return stats.Moments(np.asarray(n, float), np.nan_to_num(mean), m2)

    pairs = [i * K + j for i in keep for j in keep]
    acc.s_n = f["mu_s_n"][keep].astype(float)
    acc.s_sum = f["mu_s_sum"][keep] / D
    acc.s_mom = mom(f["mu_s_n"][keep], f["mu_s_sum"][keep], f["mu_s_sq"][keep])
    acc.m_n = f["mu_m_n"][pairs].astype(float)
    acc.m_sum = f["mu_m_sum"][pairs] / D
    acc.m_mom = mom(f["mu_m_n"][pairs], f["mu_m_sum"][pairs], f["mu_m_sq"][pairs])
    acc.w_sum = f["mu_w_sum"][pairs] / D
    acc.w_mom = mom(f["mu_m_n"][pairs], f["mu_w_sum"][pairs], f["mu_w_sq"][pairs])
    return acc


def _interval(total, mom: stats.Moments, n, counted, games=None):
    """(mean, 95 % low, high) of per-unit shares: the unit's sum ``total`` over ``n`` units with
    ``mom`` their moments. Where ``counted`` (a bool per entry: each unit's value is one seat's or
    one player pair's share, 0 or 1 but for a shared win or a tie) the Wilson interval of ``total``
    wins in ``n``; elsewhere (a deal's mean over its rotations, a game's mean over a strategy's
    several seats) Wilson's interval at the units' effective number of games
    (:func:`analysis.stats.share_mean_interval`; review s62 #1: the t interval clipped at 0 that
    stood here covered a rarely winning bot's share in 88.4% of 500-deal samples). Where the units
    have no spread (every deal lost, or won), Wilson's over ``games`` (the shares the units hold,
    all told, :func:`_games_behind`) with the t(n − 1) critical value, as the ladder reads a cell
    (review 283 #2, session 64: over the units, the deals, 0 wins of 1,000 games in 250 deals read
    0–1.51 % and 1 win 0–0.57 %: the upper end fell as a win was added; now 0–0.39 % at 0 wins)."""
    counted = np.broadcast_to(np.asarray(counted, dtype=bool), np.shape(n))
    mean, sd = mom.mean_sd()
    lo, hi = stats.share_mean_interval(mean, sd, n, games=games)  # (a unit's mean share: in [0, 1])
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(n > 0, total / np.where(n > 0, n, 1), np.nan)
    wlo, whi = stats.wilson(total, n)
    return (np.where(counted, share, mean), np.where(counted, wlo, lo), np.where(counted, whi, hi))


def _games_behind(acc: MatchupAccumulator, rs: RunSet) -> tuple[np.ndarray, np.ndarray]:
    """The shares behind each value's units, all told, that an interval over units without spread
    reads (Wilson's over them, :func:`_interval`): (per strategy, per ordered strategy pair).

    A strategy's win share: its player rows (deals × rotations × its seats in each game). Its seats'
    wins in one game exclude each other (their shares add up to at most 1), so with c seats a game
    is won by one of them with chance c·p and no win in N games has chance (1 − c·p)^N, at most
    that of c·N independent games: Wilson's over the player rows holds (and is the effective
    number of games one win gives, c·N(1 − m), so the upper end rises with the wins; over the
    games alone it would still fall, c times too wide at 0 wins). A pair's values (A ahead of B,
    A's win share where B plays): the games where they met (``meetings``: deals × rotations). A's
    several seats against B's are not counted: whether A finishes ahead of B may be alike for
    every A–B pair of a game (no independence to count on), and A's seats in the games B plays are
    not kept by pair; where each holds one seat, the meetings are the pairs, exactly."""
    per_unit = float(getattr(rs, "games_per_unit", rs.n_players)) if acc.paired else 1.0
    return acc.rows.astype(float), acc.m_n * per_unit


def _one_seat(acc: MatchupAccumulator) -> np.ndarray:
    """Per strategy: games are the units (no deals) and it holds at most one seat of every game
    it plays (player rows = games), so its share of a game is one seat's (a count's)."""
    return np.asarray((acc.rows == acc.s_n) & (not acc.paired), dtype=bool)


def _seat_bound(acc: MatchupAccumulator) -> np.ndarray:
    """Strategies that, in every seat they use, sit there in every game."""
    return ((acc.seats == 0) | (acc.seats == acc.games)).all(axis=1)


def _acc(rs: RunSet, acc: MatchupAccumulator | None) -> MatchupAccumulator:
    if acc is None and rs.from_stats:
        acc = accumulator_from_stats(rs)
    if acc is None:
        acc = MatchupAccumulator(rs)
        run_pass(rs, [acc])
    return acc


def _smallest_share(rs) -> float:
    """The smallest win-share difference that matters (1 pp unless the run set says otherwise)."""
    from analysis.load import smallest_difference

    return smallest_difference(getattr(rs, "game", None), "share", getattr(rs, "smallest", None))


def _unit_p_values(mom: stats.Moments, n, aim) -> np.ndarray:
    """Two-sided t p-values of "per-unit mean = aim" over the independent units (deals or games):
    the per-unit means carry the tie-aware variance (shared wins) and, paired by deal, cancel seat
    advantage and deal luck."""
    mean, sd = mom.mean_sd()
    return stats.t_test_vs(mean, sd, n, aim)


def _unit_size_interval(mom: stats.Moments, n, aim, m: int) -> tuple[np.ndarray, np.ndarray]:
    """The interval a verdict's size is read on (:func:`analysis.stats.practical`): the Bonferroni
    interval over the family's ``m`` tests of the same t test as :func:`_unit_p_values`, (per-unit
    mean − aim) ± t(n − 1; 1 − 0.05/(2m))·sd/√n — conservative for Holm's step-down, which picks the
    clear ones."""
    mean, sd = mom.mean_sd()
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        se = np.where(n > 0, sd / np.sqrt(np.where(n > 0, n, 1.0)), np.nan)
    return stats.bonferroni_interval(mean - aim, se, ALPHA, m=m, dof=n - 1)


def strategy_table(rs: RunSet, acc: MatchupAccumulator | None = None) -> pl.DataFrame:
    """Win share of each strategy.

    Columns: strategy, players (player rows), units (what the interval is over: games without
    deals, deals when paired), win_share (the mean over the units of the strategy's mean win share
    in each: with one seat a game, its player rows' share), ci_low, ci_high (95 %, this strategy's
    alone: unadjusted; Wilson's over the games for a strategy on one seat of every game it plays,
    else Wilson's at the effective games of the per-game or per-deal means, :func:`_interval`,
    review s62 #1, and Wilson's over its player rows where those means have no spread, a bot that
    won no game, session 64; review s60, a bot on
    three seats read 9.8–10.9% over its player rows where its games give 9.85–10.80%), fair_share
    (1/n), diff, test_units (what
    the t test is over: games without deals, deals when paired — the strategy's per-game or
    per-deal mean win share is one unit), p_value (t test of "win share = fair share" over the
    test_units), p_adjusted (Holm over the
    strategies of the table: one family), significant (p_adjusted < 0.05: with strategies that are
    all equally strong, some strategy is flagged in at most 5 % of runs), verdict (the gap worded
    by its size, :func:`analysis.stats.practical`, read on the Bonferroni interval of the same t
    test over the strategies: :func:`_unit_size_interval`), smallest (the smallest win-share difference
    that matters: 1 pp unless the run set says otherwise), paired (deal-level analysis),
    confounded (the strategy always sits in the same seats, so its win share includes their seat
    advantage).
    """
    acc = _acc(rs, acc)
    one = _one_seat(acc)
    p, lo, hi = _interval(acc.s_sum, acc.s_mom, acc.s_n, one, games=_games_behind(acc, rs)[0])
    units = acc.s_n
    fair = 1.0 / rs.n_players
    fixed = _seat_bound(acc)
    keep = acc.rows > 0
    pval = np.where(keep, _unit_p_values(acc.s_mom, acc.s_n, fair), np.nan)
    padj = stats.holm(pval)
    flag = np.nan_to_num(padj, nan=1.0) < ALPHA
    small = _smallest_share(rs)
    size_low, size_high = _unit_size_interval(acc.s_mom, acc.s_n, fair, int(np.isfinite(pval).sum()))
    return pl.DataFrame({
        "strategy": list(rs.strategies), "players": acc.rows.astype(np.int64),
        "units": units.astype(np.int64),
        "win_share": p, "ci_low": lo, "ci_high": hi, "fair_share": np.full(acc.k, fair), "diff": p - fair,
        "test_units": acc.s_n.astype(np.int64), "p_value": pval, "p_adjusted": padj, "significant": flag,
        "verdict": np.atleast_1d(stats.practical(p - fair, size_low, size_high, small, clear=flag)),
        "smallest": np.full(acc.k, small),
        "paired": np.full(acc.k, acc.paired),
        "confounded": fixed & (acc.k > 1) & (not acc.paired),
    }).filter(pl.Series(keep))


def seat_bot_table(rs: RunSet, acc: MatchupAccumulator | None = None) -> pl.DataFrame | None:
    """The bot of every seat when each bot keeps its seats in every game and the seats are not
    rotated (every strategy ``confounded``): columns seat (0-based), bot. None otherwise (rotated
    seats, or a bot moving between seats): then no seat has one bot."""
    acc = _acc(rs, acc)
    if acc.paired or acc.k < 2 or not bool(_seat_bound(acc).all()):
        return None
    names = list(rs.strategies)
    owner = [[i for i in range(acc.k) if acc.seats[i, s] > 0] for s in range(acc.n)]
    if any(len(o) != 1 for o in owner):
        return None
    return pl.DataFrame({"seat": pl.Series(range(acc.n), dtype=pl.Int8),
                         "bot": [names[o[0]] for o in owner]})


def matchup_table(rs: RunSet, acc: MatchupAccumulator | None = None) -> pl.DataFrame:
    """Head-to-head results of every ordered pair of different strategies that met.

    Columns: strategy, opponent, meetings (the games where both played: on a rotated run every
    game of a deal both played, the deal's games all holding the same line-up), units (what the
    interval and test are over: those games, or the deals on a rotated run, ``paired``; as the
    strategies table's ``units`` beside its ``players``), ahead_share (A finishes
    ahead of B; ties ½, the mean over the units of its mean over the A–B player pairs of each),
    ci_low, ci_high (95 %, this pair's alone: unadjusted; Wilson's over the meetings where A and B
    each hold one seat of every game they play, one pair a game, else Wilson's at the
    effective games of the per-game or per-deal means, :func:`_interval`, over the meetings where
    those means have no spread, session 64), p_value (t test of
    "ahead share = ½" over the units), p_adjusted (Holm over the unordered pairs that met: one
    family; A–B and B–A are one comparison, mirror images, and carry the same p-values),
    significant (p_adjusted < 0.05), verdict (the gap from ½ worded by its size against smallest,
    1 pp unless the run set says otherwise, read on the Bonferroni interval of the same t test over
    the pairs: :func:`_unit_size_interval`),
    win_share (A's win share in those games, the mean of its seats' in each) with win_ci_low,
    win_ci_high (unadjusted; Wilson's over the meetings where A holds one seat of every game it
    plays, else Wilson's at the effective games of the per-game or per-deal means; not tested), fair_share (1/n),
    paired, confounded.
    """
    acc = _acc(rs, acc)
    k = acc.k
    names = list(rs.strategies)
    # one A–B pair a game (each on one seat of every game it plays): a count's Wilson interval;
    # else Wilson's at the effective games of the per-game (per-deal) means over the pairs. A's win share in a game
    # is one seat's wherever A holds one seat, whatever B holds.
    one = _one_seat(acc)
    met = _games_behind(acc, rs)[1]
    a, lo, hi = _interval(acc.m_sum, acc.m_mom, acc.m_n, (one[:, None] & one[None, :]).ravel(), games=met)
    w, wlo, whi = _interval(acc.w_sum, acc.w_mom, acc.m_n, np.repeat(one, k), games=met)
    fixed = _seat_bound(acc)
    keys = [key for key in range(k * k) if acc.m_n[key] > 0]
    raw = _unit_p_values(acc.m_mom, acc.m_n, 0.5)
    upper = [key for key in keys if key // k < key % k]           # one test per unordered pair
    pval = np.full(k * k, np.nan)
    padj = np.full(k * k, np.nan)
    pval[upper] = raw[upper]
    padj[upper] = stats.holm(raw[upper]) if upper else []
    for key in upper:
        mirror = (key % k) * k + key // k
        pval[mirror], padj[mirror] = pval[key], padj[key]
    flag = np.nan_to_num(padj, nan=1.0) < ALPHA
    size_low, size_high = _unit_size_interval(acc.m_mom, acc.m_n, 0.5, int(np.isfinite(raw[upper]).sum()))
    return pl.DataFrame({
        "strategy": [names[key // k] for key in keys], "opponent": [names[key % k] for key in keys],
        # the games the pair met, and the units its interval counts (review s61 fix 260 #3:
        # "meetings 5000" where each pair met in all 20,000 games of a rotated run's 5,000 deals)
        # (a deal's games: RunSet.games_per_unit, its players on a run read from the rows)
        "meetings": met[keys].astype(np.int64),
        "units": acc.m_n[keys].astype(np.int64), "ahead_share": a[keys],
        "ci_low": lo[keys], "ci_high": hi[keys],
        "p_value": pval[keys], "p_adjusted": padj[keys], "significant": flag[keys],
        "verdict": np.atleast_1d(stats.practical(a[keys] - 0.5, size_low[keys], size_high[keys],
                                                 _smallest_share(rs), clear=flag[keys])).tolist(),
        "smallest": np.full(len(keys), _smallest_share(rs)),
        "win_share": w[keys], "win_ci_low": wlo[keys], "win_ci_high": whi[keys],
        "fair_share": np.full(len(keys), 1.0 / rs.n_players), "paired": np.full(len(keys), acc.paired),
        "confounded": [bool(fixed[key // k] and fixed[key % k] and not acc.paired) for key in keys],
    }, schema_overrides={"meetings": pl.Int64, "units": pl.Int64, "ahead_share": pl.Float64, "ci_low": pl.Float64,
                         "ci_high": pl.Float64, "p_value": pl.Float64, "p_adjusted": pl.Float64,
                         "significant": pl.Boolean, "verdict": pl.String, "smallest": pl.Float64, "win_share": pl.Float64,
                         "win_ci_low": pl.Float64, "win_ci_high": pl.Float64, "fair_share": pl.Float64,
                         "paired": pl.Boolean, "confounded": pl.Boolean})
