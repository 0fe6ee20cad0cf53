"""Tile impact: how the tiles a player ends with relate to winning (the spec's ``drafted_by_type``
columns, :attr:`analysis.load.RunSet.tile_columns`: Middle-Ages' ``tiles_<domain>``).

:func:`tile_impact` gives the win share of players holding exactly c tiles of each type at the end;
:func:`tile_summary` one row per type (mean count among all players and among winners, weighted by
win share, and the least-squares slope of win share on the count, with a t interval);
:func:`domain_pairs` the win share of each "Domain mix", a player's two most-stocked tile types, and
how much more often that mix appears among winners than among all players. All are polars lazy
queries over player rows (player rows are treated as independent; within a game they are slightly
negatively correlated, which makes these intervals a little conservative).

May import polars, numpy, :mod:`analysis.load` and :mod:`analysis.stats`.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from analysis import stats
from analysis.load import RunSet, collect, tile_name


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
    lo, hi = stats.wilson(wins, n)
    return pl.DataFrame({
        "tile": [rs.type_key(c) for c in agg["column"]],
        "tile_name": [tile_name(c, rs.game) for c in agg["column"]],
        "tiles": agg["tiles"].cast(pl.Int64), "players": agg["players"].cast(pl.Int64),
        "win_share": wins / n, "ci_low": lo, "ci_high": hi, "fair_share": np.full(len(n), 1.0 / rs.n_players),
    }, schema=schema)


def tile_summary(rs: RunSet) -> pl.DataFrame:
    """One row per tile type.

    Columns: tile, tile_name, mean_tiles (all players), winner_mean_tiles (weighted by win share),
    slope (change in win share per extra tile, least squares), slope_ci_low, slope_ci_high (t
    interval, n − 2 degrees of freedom), correlation (Pearson, count vs win share), significant
    (slope interval excludes 0).
    """
    cols = list(rs.tile_columns)
    schema = {"tile": pl.String, "tile_name": pl.String, "mean_tiles": pl.Float64,
              "winner_mean_tiles": pl.Float64, "slope": pl.Float64, "slope_ci_low": pl.Float64,
              "slope_ci_high": pl.Float64, "correlation": pl.Float64, "significant": pl.Boolean}
    if not cols:
        return pl.DataFrame(schema=schema)
    if rs.from_stats:
        st = rs.stats
        f, L = st.fixed, st.layout["win_units"]
        s = {"n": st.games * rs.n_players, "sy": f["cell_win"].sum() / L,
             "syy": f["cell_win_sq"].sum() / (L * L)}
        for i, c in enumerate(cols):
            h = st.valued[f"n:{c}"]
            v, k = h.values, h.a.sum(axis=0)
            s[f"sx{i}"] = float((v * k).sum())
            s[f"sxx{i}"] = float((v * v * k).sum())
            s[f"sxy{i}"] = float((v * st.valued[f"w:{c}"].a.sum(axis=0)).sum()) / L
    else:
        y = pl.col("win_share").cast(pl.Float64)
        exprs = [pl.len().alias("n"), y.sum().alias("sy"), (y * y).sum().alias("syy")]
        for i, c in enumerate(cols):
            x = pl.col(c).cast(pl.Float64)
            exprs += [x.sum().alias(f"sx{i}"), (x * x).sum().alias(f"sxx{i}"), (x * y).sum().alias(f"sxy{i}")]
        s = collect(rs.players(["win_share", *cols]).select(exprs)).row(0, named=True)
    n, sy, syy = float(s["n"]), s["sy"], s["syy"]
    Syy = syy - sy * sy / n
    q = stats.t_quantile(max(n - 2, 1))
    rows = []
    for i, c in enumerate(cols):
        sx, sxx, sxy = s[f"sx{i}"], s[f"sxx{i}"], s[f"sxy{i}"]
        Sxx = sxx - sx * sx / n
        Sxy = sxy - sx * sy / n
        if Sxx <= 0 or n < 3:
            slope = lo = hi = corr = float("nan")
        else:
            slope = Sxy / Sxx
            resid = max(Syy - slope * Sxy, 0.0) / (n - 2)
            se = (resid / Sxx) ** 0.5
            lo, hi = slope - q * se, slope + q * se
            corr = Sxy / (Sxx * Syy) ** 0.5 if Syy > 0 else float("nan")
        rows.append((rs.type_key(c), tile_name(c, rs.game), sx / n, sxy / sy if sy else float("nan"),
                     slope, lo, hi, corr, bool(lo > 0 or hi < 0)))
    return pl.DataFrame(rows, schema=schema, orient="row")


def domain_pairs(rs: RunSet) -> pl.DataFrame:
    """Win share of each Domain mix: the two tile types a player holds most of.

    Ties between counts go to the type further right on the board (later column), as MA-9's tie
    break does; a player with tiles of a single type has the mix "X only".
    Columns: pair (e.g. "Village + Palais", board order), first, second (column suffixes, board
    order; second null for "only"), players, share_of_players, share_of_wins (Σ win share of the mix
    / Σ win share), lift (share_of_wins / share_of_players), win_share, ci_low, ci_high (Wilson).
    Sorted by win share, best first.
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
    total_players = float(agg["players"].sum())
    total_wins = float(agg["wins"].sum())
    rows = []
    for a, b, players, wins in agg.iter_rows():
        lo_t, hi_t = (a, b) if b is None or a < b else (b, a)
        first, second = cols[lo_t], (cols[hi_t] if hi_t is not None else None)
        label = (f"{tile_name(first, rs.game)} only" if second is None
                 else f"{tile_name(first, rs.game)} + {tile_name(second, rs.game)}")
        low, high = stats.wilson(wins, players)
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
    low, high = stats.wilson(w, n)
    out = out.with_columns((pl.col("share_of_wins") / pl.col("share_of_players")).alias("lift"),
                           pl.Series("win_share", w / n), pl.Series("ci_low", low),
                           pl.Series("ci_high", high))
    return out.select(list(schema)).sort(["win_share", "players"], descending=True)
