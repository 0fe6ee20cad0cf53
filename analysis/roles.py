"""Role advantage: how often each role wins in a game whose seats are not alike, and how the seats
of one role compare with each other.

In an asymmetric game (the spec declares roles, e.g. Seigneurial's one Seigneur against 2-4
Censitaires) a seat's win share against the fair 1/n says nothing: the roles are not meant to win
equally often per seat. The designer's questions are instead "how often does the Seigneur's side
win, against the Censitaires'?" and "among the Censitaires, does one seat win more than its
fellows?". :func:`role_table` answers the first: per role, the share of games the role wins (the win
shares of its players summed per game), with a Wilson interval over games, and per seat of that role.
:func:`role_seat_table` answers the second: per seat, its share of its own role's wins against the
equal split 1/k among the role's k seats, with a Wilson interval, and a chi-square test of "the
role's seats are equal" per role. The seats of the roles of several seats are one family of
comparisons, adjusted by Holm (:func:`role_seat_flags`): each seat's test is the exact binomial
test of its wins among its role's wins against 1/k where the games are independent and every win
of the role is one seat's (:func:`within_role_p`, the test a panel's cells use too), else the Wald
test from the seats' joint win-share covariance (shared wins, or a rotated-seat run); the
chi-square tests of the roles are a second family, Holm over the roles.

Roles come from the players' ``role`` column (a string, or an integer code indexing the spec's
roles in declaration order); a run without that column has one role, ``player``, and these tables
are not computed (:func:`has_roles`).

May import polars, numpy, :mod:`analysis.load`, :mod:`analysis.stats`, :mod:`analysis.seats` and
the registry of games (:mod:`simcore.games`, for role display names).
"""

from __future__ import annotations

import numpy as np
import polars as pl

from analysis import stats
from analysis.load import RunSet, collect, seat_label


def _spec_roles(rs: RunSet) -> tuple:
    from simcore import games as registry

    spec = registry.specs().get(rs.game)
    return tuple(spec.roles) if spec is not None else ()


def role_names(rs: RunSet) -> dict[str, str]:
    """Role name → display name (the spec's; the name itself for a game not registered)."""
    return {r.name: r.display for r in _spec_roles(rs)}


def _role_column(rs: RunSet) -> str:
    """The players column the spec declares ``seat_role`` (Seigneurial's ``role``)."""
    return rs.role_column("seat_role") or "role"


def _role_expr(rs: RunSet) -> pl.Expr:
    """The seat-role column as role names (named ``role``), whatever its stored type."""
    col = _role_column(rs)
    dtype = rs.players([col]).collect_schema()[col]     # the files' metadata, no rows read
    if dtype.is_integer():
        names = [r.name for r in _spec_roles(rs)]
        return pl.col(col).cast(pl.Int64).replace_strict(
            list(range(len(names))), names, default=None, return_dtype=pl.Utf8).alias("role")
    return pl.col(col).cast(pl.Utf8).alias("role")


def has_roles(rs: RunSet) -> bool:
    """True when the players carry a column of role ``seat_role`` with more than one role."""
    if rs.role_column("seat_role") is None:
        return False
    if rs.from_stats:
        return len(set(rs.stats.layout["seat_roles"])) > 1
    found = collect(rs.players([_role_column(rs)]).select(_role_expr(rs).unique()))
    return found.height > 1


def _order(rs: RunSet) -> list[str]:
    """Roles present, in the spec's declaration order (a game not registered: by first seat)."""
    if rs.from_stats:
        present = list(dict.fromkeys(rs.stats.layout["seat_roles"]))
        declared = [r.name for r in _spec_roles(rs)]
        return [r for r in declared if r in present] + [r for r in present if r not in declared]
    first = collect(rs.players(["seat", _role_column(rs)]).with_columns(_role_expr(rs))
                    .group_by("role").agg(pl.col("seat").min()).sort("seat"))
    present = first["role"].to_list()
    declared = [r.name for r in _spec_roles(rs)]
    return [r for r in declared if r in present] + [r for r in present if r not in declared]


def role_table(rs: RunSet) -> pl.DataFrame:
    """Per role, the share of games the role wins.

    Columns: role, role_label, players (n), seats (how many seats play the role), games, wins
    (Σ over games of the role's win shares: a game the role shares counts for its share),
    win_share (wins / games), ci_low, ci_high (Wilson, 95%), per_seat (win_share / seats: what one
    seat of the role wins on average), per_seat_low, per_seat_high, mean_rank.

    A game has exactly one winning side unless the rules let roles share a win, so the roles' win
    shares add up to 1 per game; the interval is the Wilson interval of the role's wins over the
    independent games.
    """
    if rs.from_stats:
        st = rs.stats
        f, L, G = st.fixed, st.layout["win_units"], st.games
        seat_roles = st.layout["seat_roles"]
        rows = []
        for r in _order(rs):
            idx = [i for i, x in enumerate(seat_roles) if x == r]
            rows.append((r, G, f["cell_win"][idx].sum() / L, len(idx), f["cell_rank"][idx].sum() / (len(idx) * G)))
        agg = pl.DataFrame(rows, schema=["role", "games", "wins", "seats", "mean_rank"], orient="row")
        return _role_table(rs, agg)
    lf = rs.players(["run", "game", "seat", _role_column(rs), "win_share", "rank"]).with_columns(
        _role_expr(rs))
    per_game = lf.group_by("run", "game", "role").agg(
        pl.col("win_share").cast(pl.Float64).sum().alias("w"),
        pl.len().alias("k"),
        pl.col("rank").cast(pl.Float64).mean().alias("r"),
    )
    agg = collect(per_game.group_by("role").agg(
        pl.len().alias("games"),
        pl.col("w").sum().alias("wins"),
        pl.col("k").max().alias("seats"),
        pl.col("r").mean().alias("mean_rank"),
    ))
    order = _order(rs)
    agg = agg.with_columns(pl.col("role").replace_strict(order, list(range(len(order)))).alias("_o")
                           ).sort("_o").drop("_o")
    return _role_table(rs, agg)


def _role_table(rs: RunSet, agg: pl.DataFrame) -> pl.DataFrame:
    n = agg["games"].to_numpy().astype(float)
    wins = agg["wins"].to_numpy()
    u = float(rs.games_per_unit)         # a rotated run's deals weigh as one game each
    low, high = stats.wilson(wins / u, n / u)
    seats = agg["seats"].to_numpy().astype(float)
    shown = role_names(rs)
    return pl.DataFrame({
        "role": agg["role"],
        "role_label": [shown.get(r, r) for r in agg["role"]],
        "players": np.full(agg.height, rs.n_players, dtype=np.int64),
        "seats": agg["seats"].cast(pl.Int64),
        "games": agg["games"].cast(pl.Int64),
        "wins": wins, "win_share": wins / n, "ci_low": low, "ci_high": high,
        "per_seat": wins / n / seats, "per_seat_low": low / seats, "per_seat_high": high / seats,
        "mean_rank": agg["mean_rank"],
    })


ALPHA = 0.05


def within_role_p(wald_p, wins, seat_roles, games_per_unit: int = 1, whole=None
                  ) -> tuple[np.ndarray, np.ndarray]:
    """(p_value, exact) per seat of "this seat wins as often as the average seat of its role", the
    p-values a run's page and a panel's cells adjust (one function, so the two cannot drift).

    Where the games are independent (``games_per_unit`` 1: not a rotated-seat run) and every win
    of the role is one seat's (``whole``: per seat, True when none of its wins was shared; None:
    when its wins add up to a whole number, all a caller holding only the sums can check), the k
    seats of a role winning equally often make a seat's wins among the role's N wins
    Binomial(N, 1/k), whatever the chance that the role wins a game: the exact binomial test
    (:func:`analysis.stats.binomial_test`, two-sided, as R's ``binom.test`` and scipy's
    ``binomtest``). The Wald test is anti-conservative at a few dozen wins of the role (statistics
    audit s37 #2, s38 #2: a run's table flagged some Censitaire of a fair split in 9.7% of runs at
    ~10 Censitaire wins and 6.3% at ~20, for a claimed 5%; exact, 1.8% and 2.5%). Elsewhere, and
    for a role with no win (N = 0) or a seat not tested (a role's only seat: nan), ``wald_p`` is
    kept. ``exact`` says which seats got the exact test."""
    p = np.asarray(wald_p, dtype=float).copy()
    exact = np.zeros(p.size, dtype=bool)
    if games_per_unit > 1:
        return p, exact
    w = np.asarray(wins, dtype=float)
    roles = list(seat_roles)
    ok = (np.abs(w - np.round(w)) < 1e-9) if whole is None else np.asarray(whole, dtype=bool)
    for role in dict.fromkeys(roles):
        idx = np.array([i for i, r in enumerate(roles) if r == role])
        if idx.size < 2 or not np.all(ok[idx]) or not np.all(np.abs(w[idx] - np.round(w[idx])) < 1e-9):
            continue
        n = float(np.round(w[idx].sum()))
        if n < 1:
            continue
        live = np.isfinite(p[idx])
        p[idx[live]] = stats.binomial_test(np.round(w[idx[live]]), n, 1.0 / idx.size)
        exact[idx[live]] = True
    return p, exact


def role_seat_flags(mean, cov, seat_roles, alpha: float = ALPHA, *, wins=None, games_per_unit: int = 1,
                    whole=None):
    """(seat_p_value, seat_p_adjusted, flag) per seat of "this seat wins as often as the average
    seat of its role", Holm over every seat of every role of several seats (one family). A seat
    alone in its role is not tested (nan).

    Without ``wins``: the Wald test of the contrast d_i = w_i − mean of w_j over the role's seats,
    with its variance from the joint covariance ``cov`` of the seats' mean win shares (tie-aware,
    and the contrasts of one role are correlated). With ``wins`` (each seat's Σ win share) the
    exact binomial test replaces it where the games are independent and the role's wins whole
    (:func:`within_role_p`, ``games_per_unit`` and ``whole`` as there): the run page's table."""
    mean = np.asarray(mean, dtype=float)
    cov = np.asarray(cov, dtype=float)
    P = mean.size
    roles = list(seat_roles)
    C = np.zeros((P, P))
    tested = np.zeros(P, dtype=bool)
    for s in range(P):
        mates = [j for j in range(P) if roles[j] == roles[s]]
        if len(mates) < 2:
            continue
        tested[s] = True
        C[s, s] = 1.0
        C[s, mates] -= 1.0 / len(mates)
    d = C @ mean
    dcov = C @ cov @ C.T
    _, pval = stats.wald_vs(d, dcov, 0.0)
    pval = np.where(tested, pval, np.nan)
    if wins is not None:
        pval, _ = within_role_p(pval, wins, roles, games_per_unit, whole)
    padj = stats.holm(pval)
    return pval, padj, np.nan_to_num(padj, nan=1.0) < alpha


def role_share_size_intervals(mean, cov, seat_roles, tested, alpha: float = ALPHA
                              ) -> tuple[np.ndarray, np.ndarray]:
    """Per seat, the interval a verdict's size is read on (:func:`analysis.stats.practical`): the
    Bonferroni interval, over the ``tested`` seats (:func:`role_seat_flags`' family), of the seat's
    share of its role's wins minus the equal share, share_i − 1/k with share_i = w_i / Σ_role w_j;
    its standard error by the delta method from the joint covariance ``cov`` of the seats' mean
    win shares (gradient (e_i·S − w_i) / S² over the role's seats, S = Σ_role w_j). nan for an
    untested seat."""
    mean = np.asarray(mean, dtype=float)
    cov = np.asarray(cov, dtype=float)
    roles = list(seat_roles)
    tested = np.asarray(tested, dtype=bool)
    diff = np.full(mean.size, np.nan)
    se = np.full(mean.size, np.nan)
    for s in np.flatnonzero(tested):
        mates = [j for j in range(mean.size) if roles[j] == roles[s]]
        diff[s], grad = split_gap_gradient(mean, mates, int(s))
        if grad is None:
            continue
        se[s] = float(np.sqrt(max(grad @ cov[np.ix_(mates, mates)] @ grad, 0.0)))
    return stats.bonferroni_interval(diff, se, alpha, m=int(tested.sum()))


def split_gap_gradient(mean: np.ndarray, mates: list[int], s: int) -> tuple[float, np.ndarray | None]:
    """Seat ``s``'s share of its role's wins minus the equal share, d = w_s / S − 1/k (S = Σ w over
    the role's seats ``mates``, k of them), and its gradient over the mates' mean win shares,
    (e_s·S − w_s) / S² (the delta method's); (nan, None) where the role never won."""
    total = float(mean[mates].sum())
    if not total > 0:
        return float("nan"), None
    grad = -mean[s] / total ** 2 * np.ones(len(mates))
    grad[mates.index(s)] += 1.0 / total
    return float(mean[s] / total - 1.0 / len(mates)), grad


def _seat_mean_cov(rs: RunSet, seat_acc=None):
    """Mean win-share vector of the seats and the covariance of that mean (from the per-game
    cross-products Σ w wᵀ: :class:`analysis.seats.SeatAccumulator`; a rotated-seat run's read over
    its deals, :func:`analysis.seats.seat_share_cov`)."""
    from analysis import seats as seats_mod
    from analysis.load import run_pass

    acc = seat_acc
    if acc is None:
        if rs.from_stats:
            acc = seats_mod.seat_accumulator_from_stats(rs)
        else:
            acc = seats_mod.SeatAccumulator(rs.n_players)
            run_pass(rs, [acc])
    return seats_mod.seat_share_cov(rs, acc)


def role_seat_table(rs: RunSet, seat_acc=None) -> pl.DataFrame:
    """Per seat, its win share and its share of its own role's wins.

    Columns: role, role_label, seat, seat_label, games, wins, win_share, ci_low, ci_high (Wilson over
    games), share_of_role (wins / the role's wins), share_low, share_high (Wilson over the role's
    wins; 95 %, this seat's alone: unadjusted; nan for a role's only seat, whose share is exactly 1), equal_share (1 / seats of the role), diff
    (share_of_role − equal_share), seat_p_value (test of "wins as often as its role's average
    seat", :func:`role_seat_flags`: the exact binomial test of the seat's wins among its role's
    against 1/k where the games are independent and no win of the role is shared, else the Wald
    test from the seats' joint win-share covariance), seat_p_adjusted (Holm over every seat of
    every role of several seats: one family), significant (seat_p_adjusted < 0.05: in a game whose seats of a role are
    alike, some seat is flagged in at most 5 % of runs), verdict (the gap worded by its size against
    smallest: 1 pp of the role's wins unless the run set says otherwise; the size read on the
    Bonferroni interval over the same seats, :func:`role_share_size_intervals`), and per role: chi2, dof, p_value of "the role's seats win equally
    often" (chi-square on the seats' wins; nan for a role of one seat) and chi2_p_adjusted (Holm
    over the roles of several seats).
    """
    if rs.from_stats:
        f, L = rs.stats.fixed, rs.stats.layout["win_units"]
        agg = pl.DataFrame({"role": rs.stats.layout["seat_roles"],
                            "seat": np.arange(rs.n_players, dtype=np.int8),
                            "games": f["cell_n"].sum(axis=1), "wins": f["cell_win"].sum(axis=1) / L,
                            "_shared": f["cell_shared"].sum(axis=1)})
    else:
        lf = rs.players(["seat", _role_column(rs), "win_share"]).with_columns(_role_expr(rs))
        w = pl.col("win_share").cast(pl.Float64)
        agg = collect(lf.group_by("role", "seat").agg(
            pl.len().alias("games"),
            w.sum().alias("wins"),
            ((w > 0) & (w < 1)).sum().alias("_shared"),      # the seat's shared wins
        ))
    order = _order(rs)
    shown = role_names(rs)
    seat_roles = dict(zip(agg["seat"].to_list(), agg["role"].to_list()))
    mean, cov = _seat_mean_cov(rs, seat_acc)
    roles_of = [seat_roles[s] for s in range(rs.n_players)]
    by_seat = agg.sort("seat")
    # the exact binomial test where the games are independent and no win of the role was shared,
    # else Wald (within_role_p; a panel's cells read these p-values)
    spval, spadj, sflag = role_seat_flags(mean, cov, roles_of, wins=by_seat["wins"].to_numpy(),
                                          games_per_unit=rs.games_per_unit,
                                          whole=by_seat["_shared"].to_numpy() == 0)
    size_low, size_high = role_share_size_intervals(mean, cov, roles_of, np.isfinite(spval))
    small = rs.smallest_of("share")
    u = float(rs.games_per_unit)         # a rotated run's deals weigh as one game each
    frames = []
    for role in order:
        part = agg.filter(pl.col("role") == role).sort("seat")
        seats_of = part["seat"].cast(pl.Int64).to_numpy()
        n = part["games"].to_numpy().astype(float)
        wins = part["wins"].to_numpy()
        low, high = stats.wilson(wins / u, n / u)
        total = float(wins.sum())
        k = part.height
        if total > 0 and k == 1:        # a role's only seat holds all its wins: exactly 1, no interval
            share, s_low, s_high = np.ones(1), np.full(1, np.nan), np.full(1, np.nan)
        elif total > 0:
            s_low, s_high = stats.wilson(wins / u, np.full(k, total / u))
            share = wins / total
        else:
            s_low = s_high = share = np.full(k, np.nan)
        # a rotated run: Pearson on the counts over the deal's games (the largest design effect, a
        # bound as for the intervals: RunSet.games_per_unit)
        chi2, dof, p = stats.chi_square_equal(wins / u) if k > 1 and total > 0 else (np.nan, 0, np.nan)
        equal = 1.0 / k
        frames.append(pl.DataFrame({
            "role": [role] * k, "role_label": [shown.get(role, role)] * k,
            "seat": part["seat"].cast(pl.Int8), "seat_label": [seat_label(s) for s in part["seat"]],
            "games": part["games"].cast(pl.Int64), "wins": wins, "win_share": wins / n,
            "ci_low": low, "ci_high": high,
            "share_of_role": share, "share_low": s_low, "share_high": s_high,
            "equal_share": np.full(k, equal), "diff": share - equal,
            "seat_p_value": spval[seats_of], "seat_p_adjusted": spadj[seats_of],
            "significant": sflag[seats_of],
            "verdict": np.atleast_1d(stats.practical(share - equal, size_low[seats_of],
                                                     size_high[seats_of], small, clear=sflag[seats_of])),
            "smallest": np.full(k, small),
            "chi2": np.full(k, chi2, dtype=float), "dof": np.full(k, dof, dtype=np.int64),
            "p_value": np.full(k, p, dtype=float),
        }))
    out = pl.concat(frames)
    per_role = out.group_by("role", maintain_order=True).agg(pl.col("p_value").first())
    adj = stats.holm(per_role["p_value"].to_numpy())
    return out.join(pl.DataFrame({"role": per_role["role"], "chi2_p_adjusted": adj}), on="role",
                    how="left", maintain_order="left")


def _seat_role_list(rs: RunSet) -> list[str]:
    """The role of every seat, seat 1 first."""
    if rs.from_stats:
        return list(rs.stats.layout["seat_roles"])
    got = collect(rs.players(["seat", _role_column(rs)]).with_columns(_role_expr(rs))
                  .group_by("seat").agg(pl.col("role").first()).sort("seat"))
    return got["role"].to_list()


def strategy_table_within_roles(rs: RunSet, mu_acc, seat_acc=None) -> pl.DataFrame:
    """The strategies of a game with roles, each against its own role's average seat: the table
    :func:`analysis.matchups.strategy_table` gives a game whose seats are alike, where a strategy's
    fair share is 1/n. With roles there is no such share (a Censitaire bot's 44% and the Seigneur
    bot's 0.4% are not one scale): a strategy is compared with the seats of its role instead, as
    :func:`role_seat_table` compares seats. In such a game every bot keeps its seats (seats are
    not rotated between roles), so strategy ``g`` is the group of seats S_g it holds, within one
    role R of k_R seats; a bot holding seats of two roles (random, a search bot) is one row per
    role, judged within each.

    Same columns as :func:`analysis.matchups.strategy_table` (fair_share is the role's average
    seat's win share, Σ_R w / k_R; diff = the strategy's win share per seat it holds − that), plus
    role and role_label. The test of "wins as often as its role's average seat" is the Wald test
    of the contrast mean_{S_g} w − mean_{S_R} w from the seats' joint win-share covariance over
    games (tie-aware, the contrasts of one role correlated), Holm over the strategies of the roles
    that hold two strategies or more (one family); a strategy alone in its role (the Seigneur's bot,
    or every Censitaire on one bot) is not tested (nan): its share is its role's. ci_low/ci_high:
    the strategy's own win share, Wilson's over its games for a bot on one seat, else Wilson's at
    the effective games of its per-game means (:func:`analysis.stats.share_mean_interval`; the mean of its seats' shares in each game, its variance from the seats'
    covariance; ``units`` then counts the games, or a rotated run's deals); the verdict's size is
    read on the Bonferroni interval of the contrast over the same family."""
    P = rs.n_players
    names = list(rs.strategies)
    seat_roles = _seat_role_list(rs)
    mean, cov = _seat_mean_cov(rs, seat_acc)
    shown = role_names(rs)
    games = int(mu_acc.games)
    # one group per bot and role it plays (random or a search bot may hold the Seigneur's seat and
    # a Censitaire's in one line-up: each is judged within its own role)
    groups: list[tuple[int, str, list[int]]] = []
    for i in range(len(names)):
        held = [s for s in range(P) if mu_acc.seats[i, s] > 0]
        for r in dict.fromkeys(seat_roles[s] for s in held):
            groups.append((i, r, [s for s in held if seat_roles[s] == r]))
    bots_in = {r: sum(1 for _, g, _ in groups if g == r) for _, r, _ in groups}
    n = len(groups)
    C = np.zeros((n, P))
    tested = np.zeros(n, dtype=bool)
    fair = np.zeros(n)
    for row, (i, r, seats) in enumerate(groups):
        mates = [s for s in range(P) if seat_roles[s] == r]
        C[row, seats] += 1.0 / len(seats)
        C[row, mates] -= 1.0 / len(mates)
        fair[row] = float(mean[mates].mean())
        tested[row] = bots_in[r] > 1
    d = C @ mean
    dcov = C @ cov @ C.T
    _, pval = stats.wald_vs(d, dcov, 0.0)
    pval = np.where(tested, pval, np.nan)
    padj = stats.holm(pval)
    flag = np.nan_to_num(padj, nan=1.0) < ALPHA
    se = np.sqrt(np.clip(np.diag(dcov), 0.0, None))
    size_low, size_high = stats.bonferroni_interval(np.where(tested, d, np.nan), se, ALPHA,
                                                    m=max(int(tested.sum()), 1))
    rows = np.array([games * len(seats) for _, _, seats in groups], dtype=float)
    share = np.array([float(mean[seats].mean()) for _, _, seats in groups])
    u = float(rs.games_per_unit)         # a rotated run's deals weigh as one game each
    low, high = stats.wilson(share * rows / u, rows / u)
    # a bot on several seats of its role: the interval of its per-game means (the mean of its
    # seats' shares in each game), whose variance is the seats' covariance summed over them,
    # as analysis.matchups.strategy_table reads such a bot (review s60: objective on two Censitaire
    # seats of Seigneurial, 20,000 games, 39.13–40.09% over its player rows against 39.33–39.89%
    # per game; its seats' shares in a game are negatively correlated)
    units = games / u
    for row, (_, _, seats) in enumerate(groups):
        if len(seats) > 1:
            c = np.zeros(P)
            c[seats] = 1.0 / len(seats)
            sd = float(np.sqrt(max(float(c @ cov @ c), 0.0) * units))
            # (no spread, a bot that won no game on any of its seats: Wilson's over its player
            # rows, as analysis.matchups reads one, session 64; over the games it read wider
            # than one win did)
            lo, hi = stats.share_mean_interval(share[row], sd, units, games=rows[row])
            low[row], high[row] = float(lo), float(hi)
    small = rs.smallest_of("share")
    return pl.DataFrame({
        "strategy": [names[i] for i, _, _ in groups], "players": rows.astype(np.int64),
        "units": np.full(n, round(units), dtype=np.int64), "win_share": share, "ci_low": low, "ci_high": high,
        "fair_share": fair, "diff": share - fair,
        "test_units": np.full(n, games, dtype=np.int64),
        "p_value": pval, "p_adjusted": padj, "significant": flag,
        "verdict": np.where(tested, np.atleast_1d(stats.practical(share - fair, size_low, size_high,
                                                                  small, clear=flag)), stats.NOT_SHOWN),
        "smallest": np.full(n, small), "paired": np.zeros(n, dtype=bool),
        "confounded": np.ones(n, dtype=bool),
        "role": [r for _, r, _ in groups], "role_label": [shown.get(r, r) for _, r, _ in groups],
    })


def bots_share_a_role(rs: RunSet) -> bool:
    """Whether two different bots play one role in some run of ``rs`` (read from run.json's
    line-up, seat by seat; True when a run does not record it): without that, a game with roles
    has no strategy matchups (:func:`same_role_matchups` keeps none), e.g. Fief's attacker and
    defender or a Seigneur's bot against one Censitaire bot."""
    from simcore import games as registry

    spec = registry.specs().get(rs.game)
    if spec is None:
        return True
    seat_roles = spec.seat_roles(rs.n_players)
    bots: dict[str, set] = {}
    for meta in rs.metas:
        lineup = meta.get("strategies")
        if not isinstance(lineup, list) or len(lineup) != rs.n_players:
            return True
        for role, bot in zip(seat_roles, lineup):
            bots.setdefault(role, set()).add(bot)
    return any(len(b) > 1 for b in bots.values())


def same_role_matchups(matchups: pl.DataFrame, strategies: pl.DataFrame) -> pl.DataFrame:
    """The rows of a matchup table whose two strategies play the same role (a Censitaire bot
    finishing ahead of the Seigneur's bot compares progress toward different goals): ``strategies``
    is :func:`strategy_table_within_roles`'s table."""
    roles: dict[str, set] = {}
    for bot, r in zip(strategies["strategy"].to_list(), strategies["role"].to_list()):
        roles.setdefault(bot, set()).add(r)
    # a bot playing two roles meets the others in both: its matchups mix goals, so they are left out
    same = [len(roles.get(a, ())) == 1 and roles.get(a) == roles.get(b)
            for a, b in zip(matchups["strategy"].to_list(), matchups["opponent"].to_list())]
    return matchups.filter(pl.Series(same, dtype=pl.Boolean))
