"""Tile impact: how the tiles a player ends with relate to winning (the spec's ``drafted_by_type``
columns, :attr:`analysis.load.RunSet.tile_columns`: Middle-Ages' ``tiles_<domain>``).

:func:`tile_impact` gives the win share of players holding exactly c tiles of each type at the end;
:func:`tile_summary` one row per type (mean count among all players and among winners, weighted by
win share, the range of win share over the common counts, and the least-squares slope of win share
on the count, its interval clustered by game);
:func:`domain_pairs` the win share of each "Domain mix", a player's two most-stocked tile types, and
how much more often that mix appears among winners than among all players. Each reads the run's
statistics, or polars lazy queries over player rows. The Wilson intervals of win shares treat
player rows as independent; the slope's standard error does not (a game's rows are correlated).

May import polars, numpy, :mod:`analysis.load`, :mod:`analysis.stats` and
:mod:`simcore.accumulate` (its units and the names of its per-game sums).
"""

from __future__ import annotations

import numpy as np
import polars as pl

from analysis import stats
from analysis.load import PLAYERS, RunSet, collect, tile_name
from simcore.accumulate import CLUSTER_TERMS, win_units


def has_tiles(rs: RunSet) -> bool:
    return bool(rs.tile_columns)


def tile_impact(rs: RunSet) -> pl.DataFrame:
    """Win share by the number of tiles of each type held at the end.

    Columns: tile (the type's key), tile_name, tiles (count held), players, win_share, ci_low,
    ci_high (Wilson), fair_share (1/n). Sorted by board order of the columns, then count.
    """
    cols = list(rs.tile_columns)
    schema = {"tile": pl.String, "tile_name": pl.String, "tiles": pl.Int64, "players": pl.Int64,
              "win_share": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64, "fair_share": pl.Float64}
    if not cols:
        return pl.DataFrame(schema=schema)
    if rs.from_stats:
        st, L = rs.stats, rs.stats.layout["win_units"]
        rows = []
        for c in cols:
            n = st.valued[f"n:{c}"]
            counts, wins = n.a.sum(axis=0), st.valued[f"w:{c}"].a.sum(axis=0) / L
            rows += [(c, int(v), int(k), float(w)) for v, k, w in zip(n.values, counts, wins) if k]
        return _impact(rs, rows, schema)
    lf = rs.players(["win_share", *cols])
    lim = collect(lf.select(pl.min_horizontal([pl.col(c).min() for c in cols]).alias("lo"),
                            pl.max_horizontal([pl.col(c).max() for c in cols]).alias("hi"))).row(0)
    if lim[0] is None:
        return pl.DataFrame(schema=schema)
    # One pass of conditional sums (count = v) is several times faster than a group_by per column.
    values = range(int(lim[0]), int(lim[1]) + 1)
    w = pl.col("win_share").cast(pl.Float64)
    exprs = []
    for i, c in enumerate(cols):
        for v in values:
            hit = pl.col(c) == v
            exprs += [hit.sum().alias(f"n{i}_{v}"),
                      pl.when(hit).then(w).otherwise(0.0).sum().alias(f"w{i}_{v}")]
    sums = collect(lf.select(exprs)).row(0, named=True)
    rows = [(c, v, sums[f"n{i}_{v}"], sums[f"w{i}_{v}"]) for i, c in enumerate(cols) for v in values
            if sums[f"n{i}_{v}"]]
    return _impact(rs, rows, schema)


def _impact(rs: RunSet, rows: list, schema: dict) -> pl.DataFrame:
    agg = pl.DataFrame(rows, schema={"column": pl.String, "tiles": pl.Int64, "players": pl.Int64,
                                     "wins": pl.Float64}, orient="row")
    n = agg["players"].to_numpy().astype(float)
    wins = agg["wins"].to_numpy()
    u = float(rs.games_per_unit)         # a rotated run's deals weigh as one game each
    lo, hi = stats.wilson(wins / u, n / u)
    return pl.DataFrame({
        "tile": [rs.type_key(c) for c in agg["column"]],
        "tile_name": [tile_name(c, rs.game) for c in agg["column"]],
        "tiles": agg["tiles"].cast(pl.Int64), "players": agg["players"].cast(pl.Int64),
        "win_share": wins / n, "ci_low": lo, "ci_high": hi, "fair_share": np.full(len(n), 1.0 / rs.n_players),
    }, schema=schema)


def tile_summary(rs: RunSet) -> pl.DataFrame:
    """One row per tile type.

    Columns: tile, tile_name, mean_tiles (all players), winner_mean_tiles (weighted by win share),
    slope (change in win share per extra tile, least squares over player rows), slope_se and
    slope_ci_low, slope_ci_high (a standard error clustered by game, the sandwich with the
    small-sample factor G/(G − 1)·(N − 1)/(N − 2) statsmodels' ``cov_type="cluster"`` uses, and a
    t interval with G − 1 degrees of freedom: a game's P rows are not independent, their win
    shares sum to 1 and the tiles come from one supply; revD #2), slope_se_by ("game"; "deal" in a
    rotated-seat run, whose bound over its deals is read from the games' sums, :func:`_cluster_se`; or
    "player rows" for statistics written before version 2, which hold no per-game sums, of a run
    without players.parquet: the interval of independent rows, a little too narrow; with the
    player rows, the per-game sums come from them and the interval is clustered, revF #8), correlation (Pearson, count vs win share),
    significant (slope interval excludes 0), spread (largest minus smallest win share over the
    counts held by at least :data:`COMMON_COUNT` of players: a size that holds for curves; revD
    #1), linear_fit (share of the between-count variation of win share, weighted by players, that
    the straight line explains: near 1 when the line describes the curve, low when it bends),
    low_tiles, low_share, low_ci_low, low_ci_high and high_tiles, high_share, high_ci_low,
    high_ci_high (the common counts with the lowest and the highest win share, Wilson intervals),
    curve (over the common counts: "rises" or "falls" from the lowest to the highest point when
    both are at the ends, "dips" when the lowest is in the middle, "peaks" when the highest is,
    "flat").
    """
    cols = list(rs.tile_columns)
    schema = {"tile": pl.String, "tile_name": pl.String, "mean_tiles": pl.Float64,
              "winner_mean_tiles": pl.Float64, "slope": pl.Float64, "slope_se": pl.Float64,
              "slope_ci_low": pl.Float64, "slope_ci_high": pl.Float64, "slope_se_by": pl.String,
              "correlation": pl.Float64, "significant": pl.Boolean, "spread": pl.Float64,
              "linear_fit": pl.Float64, "low_tiles": pl.Int64, "low_share": pl.Float64,
              "low_ci_low": pl.Float64, "low_ci_high": pl.Float64, "high_tiles": pl.Int64,
              "high_share": pl.Float64, "high_ci_low": pl.Float64, "high_ci_high": pl.Float64,
              "curve": pl.String}
    if not cols:
        return pl.DataFrame(schema=schema)
    L = win_units(rs.n_players)
    s, clu = _tile_sums(rs, cols, L)
    shape = _curve_shape(tile_impact(rs))
    n, sy, syy = float(s["n"]), s["sy"], s["syy"]
    Syy = syy - sy * sy / n
    rows = []
    for i, c in enumerate(cols):
        sx, sxx, sxy = s[f"sx{i}"], s[f"sxx{i}"], s[f"sxy{i}"]
        Sxx = sxx - sx * sx / n
        Sxy = sxy - sx * sy / n
        se, by = float("nan"), "game"
        if Sxx <= 0 or n < 3:
            slope = lo = hi = corr = float("nan")
        else:
            slope = Sxy / Sxx
            corr = Sxy / (Sxx * Syy) ** 0.5 if Syy > 0 else float("nan")
            if clu is not None:
                se, dof = _cluster_se(clu["G"], rs.n_players, n, clu[c], slope, sx / n, sy / n, Sxx, L,
                                      rs.games_per_unit)
                by = "game" if rs.games_per_unit == 1 else "deal"
            else:               # older statistics: independent rows
                se, dof, by = (max(Syy - slope * Sxy, 0.0) / (n - 2) / Sxx) ** 0.5, n - 2, "player rows"
            q = stats.t_quantile(max(dof, 1))
            lo, hi = slope - q * se, slope + q * se
        nan = float("nan")
        curve = shape.get(rs.type_key(c), (nan, nan, None, nan, nan, nan, None, nan, nan, nan, ""))
        rows.append((rs.type_key(c), tile_name(c, rs.game), sx / n, sxy / sy if sy else nan,
                     slope, se, lo, hi, by, corr, bool(lo > 0 or hi < 0), *curve))
    return pl.DataFrame(rows, schema=schema, orient="row")


LINE_FITS = 0.9
"""The share of a tile curve's between-count variation (``linear_fit``) a straight line must
explain to describe the curve: below it the pages call the curve "not linear" (the run page's tile
section and the before/after's slope rows alike)."""

COMMON_COUNT = 0.01
"""The share of players a tile count must be held by to count in a tile's ``spread`` (revD #1:
the extreme counts of a few hundred players would otherwise set it)."""


def _curve_shape(impact: pl.DataFrame) -> dict[str, tuple]:
    """Per tile, from :func:`tile_impact`'s rows: (spread, linear_fit, low_tiles, low_share,
    low_ci_low, low_ci_high, high_tiles, high_share, high_ci_low, high_ci_high, curve) of
    :func:`tile_summary`."""
    out = {}
    for (tile,), t in impact.group_by(["tile"], maintain_order=True):
        k = t["players"].to_numpy().astype(float)
        x = t["tiles"].to_numpy().astype(float)
        y = t["win_share"].to_numpy()
        xm, ym = (k * x).sum() / k.sum(), (k * y).sum() / k.sum()
        sxx, sxy, syy = (k * (x - xm) ** 2).sum(), (k * (x - xm) * (y - ym)).sum(), (k * (y - ym) ** 2).sum()
        fit = float(sxy * sxy / (sxx * syy)) if sxx > 0 and syy > 0 else float("nan")
        common = np.flatnonzero(k >= COMMON_COUNT * k.sum())
        if common.size == 0:
            out[tile] = (float("nan"), fit, None, *[float("nan")] * 3, None, *[float("nan")] * 3, "")
            continue
        lo, hi = common[np.argmin(y[common])], common[np.argmax(y[common])]
        inner = lambda i: common[0] < i < common[-1]      # noqa: E731
        curve = ("flat" if lo == hi else "dips" if inner(lo) else "peaks" if inner(hi)
                 else "rises" if lo < hi else "falls")
        lo_lo, lo_hi, hi_lo, hi_hi = t["ci_low"][int(lo)], t["ci_high"][int(lo)], t["ci_low"][int(hi)], t["ci_high"][int(hi)]
        out[tile] = (float(y[hi] - y[lo]), fit, int(x[lo]), float(y[lo]), lo_lo, lo_hi,
                     int(x[hi]), float(y[hi]), hi_lo, hi_hi, curve)
    return out


def _tile_sums(rs: RunSet, cols: list[str], L: int) -> tuple[dict, dict | None]:
    """The row sums of the slopes (n, Σy, Σy², Σx, Σx², Σxy per type; y the win share) and the
    per-game sums of :data:`simcore.accumulate.CLUSTER_TERMS` per column (with ``G``, the games;
    from the player rows for statistics written before version 2 when the run kept them, None when
    it did not), from the statistics or the player rows."""
    if rs.from_stats:
        st = rs.stats
        f = st.fixed
        s = {"n": st.games * rs.n_players, "sy": f["cell_win"].sum() / L,
             "syy": f["cell_win_sq"].sum() / (L * L)}
        for i, c in enumerate(cols):
            h = st.valued[f"n:{c}"]
            v, k = h.values, h.a.sum(axis=0)
            s[f"sx{i}"] = float((v * k).sum())
            s[f"sxx{i}"] = float((v * v * k).sum())
            s[f"sxy{i}"] = float((v * st.valued[f"w:{c}"].a.sum(axis=0)).sum()) / L
        clu: dict | None = {"G": st.games}
        for g, gc in st.layout["pair_groups"].items():
            if f"clu:{g}" in f:
                clu.update({c: {t: int(f[f"clu:{g}"][j, m]) for m, t in enumerate(CLUSTER_TERMS)}
                            for j, c in enumerate(gc)})
        if not all(c in clu for c in cols):
            # statistics written before version 2 hold no per-game sums: the player rows, when the
            # run kept them, give them exactly (revF #8); else the caller falls back to the
            # interval of independent rows and says so
            return s, (_row_cluster_sums(rs, cols, L) if _have_rows(rs) else None)
        for c in cols:
            v, k = st.valued[f"n:{c}"].values.astype(np.int64), st.valued[f"n:{c}"].a.sum(axis=0)
            clu[c].update(X=int((v * k).sum()), Q=int((v * v * k).sum()),
                          A=int((v * st.valued[f"w:{c}"].a.sum(axis=0)).sum()), Y=int(f["cell_win"].sum()))
        return s, clu
    y = pl.col("win_share").cast(pl.Float64)
    exprs = [pl.len().alias("n"), y.sum().alias("sy"), (y * y).sum().alias("syy")]
    for i, c in enumerate(cols):
        x = pl.col(c).cast(pl.Float64)
        exprs += [x.sum().alias(f"sx{i}"), (x * x).sum().alias(f"sxx{i}"), (x * y).sum().alias(f"sxy{i}")]
    lf = rs.players(["game", "win_share", *cols])
    s = collect(lf.select(exprs)).row(0, named=True)
    return s, _row_cluster_sums(rs, cols, L)


def _have_rows(rs: RunSet) -> bool:
    """Every pooled run kept its player rows (players.parquet)."""
    return all((p / PLAYERS).is_file() for p in rs.paths)


def _row_cluster_sums(rs: RunSet, cols: list[str], L: int) -> dict:
    """The per-game sums of :data:`simcore.accumulate.CLUSTER_TERMS` per column, and ``G``, from
    the player rows (as the statistics of version 2 hold them)."""
    lf = rs.players(["game", "win_share", *cols])
    # per game (run, game): X, Q, A, Y in integers (W = win share · L), then Σ of their products
    w = (pl.col("win_share").cast(pl.Float64) * L).round().cast(pl.Int64)
    per = []
    for i, c in enumerate(cols):
        x = pl.col(c).cast(pl.Int64)
        per += [x.sum().alias(f"X{i}"), (x * x).sum().alias(f"Q{i}"), (x * w).sum().alias(f"A{i}")]
    games = lf.group_by(["run", "game"]).agg(*per, w.sum().alias("Y"))
    prods = [pl.len().alias("G")]
    for i in range(len(cols)):
        z = {"X": pl.col(f"X{i}"), "Q": pl.col(f"Q{i}"), "A": pl.col(f"A{i}"), "Y": pl.col("Y")}
        prods += [(z[t[0]] * z[t[1]]).sum().alias(f"{t}{i}") for t in CLUSTER_TERMS]
        prods += [z[t].sum().alias(f"{t}{i}") for t in "XQAY"]
    got = collect(games.select(prods)).row(0, named=True)
    clu = {"G": int(got["G"])}
    clu.update({c: {t: int(got[f"{t}{i}"]) for t in (*CLUSTER_TERMS, *"XQAY")} for i, c in enumerate(cols)})
    return clu


def _cluster_se(G: int, P: int, n: float, terms: dict, slope: float, xbar: float, ybar: float,
                Sxx: float, L: int, games_per_unit: int = 1) -> tuple[float, float]:
    """Standard error of a least-squares slope clustered by game, and its degrees of freedom
    (G − 1), from Σ over games of the products of the game's X = Σx, Q = Σx², A = Σxy, Y = Σy
    (A, Y in win units, 1/L; ``terms``: :data:`CLUSTER_TERMS` and the totals X, Q, A, Y). A game's score u = Σ (x − x̄)·e (e the residual) is linear in
    (X, Q, A, Y): u = β·z + c with β = (2b·x̄ − ȳ, −b, 1, −x̄); Σu = 0, so Σu² = β'Cβ / G with
    C = G·Σzz' − Σz·Σz' (formed exactly in integers). Var b = Σu² / Sxx² · G/(G − 1) ·
    (n − 1)/(n − 2), as statsmodels' ``cov_type="cluster"``.

    A rotated-seat run (``games_per_unit`` g > 1 games a deal): clustered by its D = G/g deals,
    read as a bound from the games' sums: a deal's Σu over its g games is at most g·Σu² of them
    (Cauchy-Schwarz), so Var b ≤ g·Σu² / Sxx² · D/(D − 1) · (n − 1)/(n − 2), on D − 1 degrees of
    freedom (:attr:`analysis.load.RunSet.games_per_unit`)."""
    D = G / games_per_unit
    if D < 2:
        return float("nan"), 1.0
    names = "XQAY"
    M = [[0] * 4 for _ in range(4)]
    for t in CLUSTER_TERMS:
        a, b = names.index(t[0]), names.index(t[1])
        M[a][b] = M[b][a] = terms[t]
    S = [terms[k] for k in names]
    scale = [1.0, 1.0, 1.0 / L, 1.0 / L]
    beta = [2 * slope * xbar - ybar, -slope, 1.0, -xbar]
    su2 = 0.0
    for a in range(4):
        for b in range(4):
            C = G * M[a][b] - S[a] * S[b]           # exact (Python integers)
            su2 += beta[a] * beta[b] * C * scale[a] * scale[b]
    su2 = max(su2 / G, 0.0)
    var = games_per_unit * su2 / (Sxx * Sxx) * D / (D - 1) * (n - 1) / (n - 2)
    return var ** 0.5, float(D - 1)


def domain_pairs(rs: RunSet) -> pl.DataFrame:
    """Win share of each Domain mix: the two tile types a player holds most of.

    Ties between counts go to the type further right on the board (later column), as MA-9's tie
    break does; a player with tiles of a single type has the mix "X only".
    Columns: pair (e.g. "Village + Palais", board order), first, second (column suffixes, board
    order; second null for "only"), players, share_of_players, share_of_wins (Σ win share of the mix
    / Σ win share), lift (share_of_wins / share_of_players), win_share, ci_low, ci_high (Wilson).
    Sorted by win share, best first (then by players, most first, then by name).
    """
    cols = list(rs.tile_columns)
    schema = {"pair": pl.String, "first": pl.String, "second": pl.String, "players": pl.Int64,
              "share_of_players": pl.Float64, "share_of_wins": pl.Float64, "lift": pl.Float64,
              "win_share": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64}
    if len(cols) < 2:
        return pl.DataFrame(schema=schema)
    k = len(cols)
    if rs.from_stats:
        st = rs.stats
        group = next((g for g, gc in st.layout["pair_groups"].items() if list(gc) == cols), None)
        if group is None:
            raise ValueError(f"the statistics hold no Domain mixes of {', '.join(cols)}")
        pn, pw = st.fixed[f"pair_n:{group}"], st.fixed[f"pair_w:{group}"] / st.layout["win_units"]
        a, b = np.nonzero(pn)
        agg = pl.DataFrame({"a": a, "b": [None if x == k else int(x) for x in b],
                            "players": pn[a, b], "wins": pw[a, b]},
                           schema={"a": pl.Int64, "b": pl.Int64, "players": pl.Int64, "wins": pl.Float64})
        return _pairs(rs, cols, agg, schema)
    keys = [pl.col(c).cast(pl.Int64) * k + i for i, c in enumerate(cols)]
    lf = rs.players(["win_share", *cols]).select(
        pl.col("win_share").cast(pl.Float64), pl.max_horizontal(keys).alias("_k1"),
        *[kk.alias(f"_c{i}") for i, kk in enumerate(keys)])
    lf = lf.with_columns(pl.max_horizontal([pl.when(pl.col(f"_c{i}") != pl.col("_k1")).then(pl.col(f"_c{i}"))
                                            for i in range(k)]).alias("_k2"))
    lf = lf.select(
        "win_share", (pl.col("_k1") % k).alias("a"),
        pl.when(pl.col("_k2") >= k).then(pl.col("_k2") % k).alias("b"))
    agg = collect(lf.group_by(["a", "b"]).agg(pl.len().alias("players"),
                                              pl.col("win_share").sum().alias("wins")))
    return _pairs(rs, cols, agg, schema)


def _pairs(rs: RunSet, cols: list[str], agg: pl.DataFrame, schema: dict) -> pl.DataFrame:
    u = float(rs.games_per_unit)         # a rotated run's deals weigh as one game each
    total_players = float(agg["players"].sum())
    total_wins = float(agg["wins"].sum())
    rows = []
    for a, b, players, wins in agg.iter_rows():
        lo_t, hi_t = (a, b) if b is None or a < b else (b, a)
        first, second = cols[lo_t], (cols[hi_t] if hi_t is not None else None)
        label = (f"{tile_name(first, rs.game)} only" if second is None
                 else f"{tile_name(first, rs.game)} + {tile_name(second, rs.game)}")
        low, high = stats.wilson(wins / u, players / u)
        sp, sw = players / total_players, (wins / total_wins if total_wins else float("nan"))
        rows.append((label, rs.type_key(first), rs.type_key(second) if second else None,
                     int(players), sp, sw, sw / sp, wins / players, float(low), float(high)))
    out = pl.DataFrame(rows, schema=schema, orient="row")
    # Several (a, b) orders map to one unordered pair: merge them.
    out = out.group_by(["pair", "first", "second"]).agg(
        pl.col("players").sum(), pl.col("share_of_players").sum(), pl.col("share_of_wins").sum(),
        (pl.col("win_share") * pl.col("players")).sum().alias("_w"))
    n = out["players"].to_numpy().astype(float)
    w = out["_w"].to_numpy()
    low, high = stats.wilson(w / u, n / u)
    out = out.with_columns((pl.col("share_of_wins") / pl.col("share_of_players")).alias("lift"),
                           pl.Series("win_share", w / n), pl.Series("ci_low", low),
                           pl.Series("ci_high", high))
    # ties (a mix of 1 player who won, …) by name: a group_by's order is not stable from run to run
    return out.select(list(schema)).sort(["win_share", "players", "pair"], descending=[True, True, False])
