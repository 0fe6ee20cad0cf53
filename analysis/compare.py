"""Comparison of two configurations (baseline vs variant rules, or two strategy sets).

:func:`metric_vector` flattens the tables of :func:`analysis.analyse` into one row per scalar metric
(seat win shares and mean scores, each role's win share in an asymmetric game, Ludii's Balance
and the win-share Balance, outcome metrics, pooled event metrics, tile slopes, strategy win shares
and matchups, mean game length and end-reason shares, guild types' founded share and founders' win
share), each with its estimate, 95 % interval and count. :func:`compare_tables` joins two such
vectors: the difference variant − baseline, its 95 % interval and a two-sided p-value — Newcombe's
interval and the two-proportion z test for proportions, Welch's t interval and test for means (each
run's standard deviation recovered exactly from its Student t interval), the tie-aware Wald test
for seat win shares (per-game variance from the seat table), a normal interval from the
half-widths otherwise (slopes) — and a Holm-adjusted p-value over all tested metrics. Each
difference is worded by its practical size (``verdict``: :func:`analysis.stats.practical`, read on
the metric's interval at the Bonferroni level over the tested metrics) and the table is ordered by
that wording and by size, never by p-value.
``significant`` uses the adjusted p-value, so that two runs of the same configuration flag *any*
metric in at most ~5 % of comparisons (family-wise error rate). Balance rows (kind ``index``) are
shown with both runs' intervals and the difference but not tested: a maximum over seat pairs has no
standard error to combine (their intervals come from simultaneous intervals, not from a normal law),
and the seat win-share rows carry the test.

May import polars, numpy, :mod:`analysis` and its modules.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from analysis import stats
from analysis.load import RunSet

ALPHA = 0.05
_Z = stats.z_quantile()

VECTOR_SCHEMA = {"metric": pl.String, "key": pl.String, "label": pl.String, "kind": pl.String,
                 "estimate": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64, "n": pl.Int64}


def _rows(df: pl.DataFrame, metric: str, key, label, kind: str, est: str, lo: str, hi: str,
          n: str | None) -> list[tuple]:
    out = []
    for r in df.iter_rows(named=True):
        if r[est] is None or r[est] != r[est]:
            continue        # not measured in this run (a seat balance of a game with roles): nothing to compare
        k = key(r) if callable(key) else key
        lab = label(r) if callable(label) else label
        count = int(r[n]) if n is not None and r[n] is not None else 0
        out.append((metric, str(k), lab, kind, r[est], r[lo], r[hi], count))
    return out


def metric_vector(tables: dict[str, pl.DataFrame]) -> pl.DataFrame:
    """One row per comparable scalar metric.

    Columns: metric, key (which seat / event / tile / strategy), label (a sentence fragment for
    people), kind (proportion, mean, slope, index), estimate, ci_low, ci_high, n.
    """
    rows: list[tuple] = []
    if "seats" in tables:
        t = tables["seats"]
        rows += _rows(t, "seat_win_share", lambda r: r["seat_label"],
                      lambda r: f"{r['seat_label']} win share", "proportion",
                      "win_share", "ci_low", "ci_high", "games")
        rows += _rows(t, "seat_mean_score", lambda r: r["seat_label"],
                      lambda r: f"{r['seat_label']} mean score", "mean",
                      "mean_score", "score_ci_low", "score_ci_high", "games")
    if "roles" in tables:
        rows += _rows(tables["roles"], "role_win_share", lambda r: r["role"],
                      lambda r: f"{r['role_label']} side win share", "proportion",
                      "win_share", "ci_low", "ci_high", "games")
    if "seat_tests" in tables:
        st = tables["seat_tests"]
        rows += _rows(st, "balance", "all", "Balance (Ludii: 1 − largest seat gap in rank credit)", "index",
                      "balance", "balance_low", "balance_high", "games")
        if "win_share_balance" in st.columns:
            rows += _rows(st, "win_share_balance", "all", "Win-share balance (1 − largest seat gap in win share)",
                          "index", "win_share_balance", "win_share_balance_low", "win_share_balance_high",
                          "games")
    if "outcomes" in tables:
        for r in tables["outcomes"].iter_rows(named=True):
            rows.append((r["metric"], "all", r["label"], r["kind"], r["estimate"], r["ci_low"], r["ci_high"],
                         r["n"]))
    if "events" in tables:
        t = tables["events"].filter(pl.col("slot") == 0)
        name = lambda r: f"{r['event_name']}"  # noqa: E731
        rows += _rows(t, "event_mean_gain", name, lambda r: f"{r['event_name']}: mean coin gain per player",
                      "mean", "mean_gain", "gain_ci_low", "gain_ci_high", "games")
        rows += _rows(t.filter(pl.col("leader_change").is_not_null() & pl.col("leader_change").is_not_nan()),
                      "event_leader_change", name, lambda r: f"{r['event_name']}: changes the leader",
                      "proportion", "leader_change", "leader_change_ci_low", "leader_change_ci_high", "games")
        rows += _rows(t.filter(pl.col("top_gainer_games") > 0), "event_top_gainer_wins", name,
                      lambda r: f"{r['event_name']}: biggest gainer wins", "proportion",
                      "top_gainer_win_share", "top_gainer_ci_low", "top_gainer_ci_high", "top_gainer_games")
    if "tile_summary" in tables:
        t = tables["tile_summary"].filter(pl.col("slope").is_not_nan())
        rows += _rows(t, "tile_slope", lambda r: r["tile_name"],
                      lambda r: f"Win share per extra {r['tile_name']} tile", "slope",
                      "slope", "slope_ci_low", "slope_ci_high", None)
    if "strategies" in tables:
        rows += _rows(tables["strategies"], "strategy_win_share", lambda r: r["strategy"],
                      lambda r: f"{r['strategy']} win share", "proportion", "win_share", "ci_low", "ci_high",
                      "units")
    if "matchups" in tables:
        t = tables["matchups"].filter(pl.col("strategy") < pl.col("opponent"))
        rows += _rows(t, "matchup_ahead_share", lambda r: f"{r['strategy']} vs {r['opponent']}",
                      lambda r: f"{r['strategy']} finishes ahead of {r['opponent']}", "proportion",
                      "ahead_share", "ci_low", "ci_high", "meetings")
    if "length" in tables:
        rows += _rows(tables["length"], "mean_turns", "all", "Mean game length (turns)", "mean",
                      "mean_turns", "ci_low", "ci_high", "games")
    if "end_reasons" in tables:
        rows += _rows(tables["end_reasons"], "end_reason_share", lambda r: r["end_reason_name"],
                      lambda r: f"Games ending: {r['label']}", "proportion", "share", "ci_low", "ci_high",
                      "total")
    if "guild_types" in tables:
        t = tables["guild_types"]
        rows += _rows(t, "guild_founded_share", lambda r: r["card"],
                      lambda r: f"{r['card_name']}: players founding a guild", "proportion",
                      "founded_share", "founded_ci_low", "founded_ci_high", "players")
        rows += _rows(t.filter(pl.col("founders") > 0), "guild_founders_win_share", lambda r: r["card"],
                      lambda r: f"{r['card_name']}: founders' win share", "proportion",
                      "founders_win_share", "founders_ci_low", "founders_ci_high", "founders")

    def num(x) -> float:
        return float(x) if x is not None else float("nan")

    fixed = [(m, k, lab, kind, num(e), num(lo), num(hi), n) for m, k, lab, kind, e, lo, hi, n in rows]
    return pl.DataFrame(fixed, schema=VECTOR_SCHEMA, orient="row")


def _with_sd(vec: pl.DataFrame, tables: dict[str, pl.DataFrame]) -> pl.DataFrame:
    """``vec`` with ``sd``: the per-game standard deviation of the seat win shares (tie-aware:
    shared wins make it smaller than √(p(1 − p))) where the seat table has it, else null."""
    seats = tables.get("seats")
    if seats is None or "win_share_sd" not in seats.columns:
        return vec.with_columns(pl.lit(None, pl.Float64).alias("sd"))
    sd = seats.select(pl.lit("seat_win_share").alias("metric"), pl.col("seat_label").alias("key"),
                      pl.col("win_share_sd").cast(pl.Float64).alias("sd"))
    return vec.join(sd, on=["metric", "key"], how="left")


def _smallest_kind(metric: str, kind: str) -> str:
    if kind in ("proportion", "slope", "index"):
        return "share"
    return "length" if metric == "mean_turns" else "score"


COMPARE_SCHEMA = {"metric": pl.String, "key": pl.String, "label": pl.String, "kind": pl.String,
                  "base": pl.Float64, "base_low": pl.Float64, "base_high": pl.Float64,
                  "variant": pl.Float64, "variant_low": pl.Float64, "variant_high": pl.Float64,
                  "diff": pl.Float64, "diff_low": pl.Float64, "diff_high": pl.Float64, "z": pl.Float64,
                  "p_value": pl.Float64, "p_adjusted": pl.Float64, "significant": pl.Boolean,
                  "smallest": pl.Float64, "size_low": pl.Float64, "size_high": pl.Float64,
                  "verdict": pl.String}


def compare_tables(base: dict[str, pl.DataFrame], variant: dict[str, pl.DataFrame],
                   alpha: float = ALPHA, game: str | None = None,
                   smallest: dict | None = None) -> pl.DataFrame:
    """Every metric present in both analyses: difference variant − base with interval and flag.

    Columns: metric, key, label, kind, base, base_low, base_high, variant, variant_low,
    variant_high, diff, diff_low, diff_high, z, p_value, p_adjusted (Holm), significant
    (p_adjusted < alpha), smallest (the metric's smallest difference that matters,
    :func:`analysis.load.smallest_difference` for ``game``, ``smallest`` overriding by kind),
    size_low, size_high (the interval the verdict's size is read on: :func:`_size_intervals`),
    verdict (:func:`analysis.stats.practical`, when significant: "clear and large enough to matter"
    when its interval's near end is at least ``smallest``, "clear but small" when its far end is
    below it, "clear, may matter" when the interval straddles it; else "not shown"; a guild's
    founders' win share where fewer than 1 % of players found it is never shown. The size is read
    on the Bonferroni interval over the tested metrics, :func:`_size_intervals`: wider than the
    diff_low/diff_high shown, which are each metric's own 95 % interval). Seat win shares
    are tested with the tie-aware per-game variance (Wald), not p(1 − p). Sorted by verdict, then
    by size |diff| / smallest — never by p-value. Balance rows (kind ``index``) have no diff
    interval, z or p-value (see the module docstring) and are never significant.
    """
    from analysis.load import smallest_difference

    b = _with_sd(metric_vector(base), base)
    v = _with_sd(metric_vector(variant), variant)
    j = b.join(v, on=["metric", "key"], how="inner", suffix="_v")
    e1, l1, h1, n1 = (j[c].to_numpy() for c in ("estimate", "ci_low", "ci_high", "n"))
    e2, l2, h2, n2 = (j[c].to_numpy() for c in ("estimate_v", "ci_low_v", "ci_high_v", "n_v"))
    kind = j["kind"].to_numpy()
    se1, se2 = (h1 - l1) / (2 * _Z), (h2 - l2) / (2 * _Z)
    se = np.sqrt(se1 ** 2 + se2 ** 2)
    diff = e2 - e1
    nlo, nhi = stats.newcombe(e2, l2, h2, e1, l1, h1)   # from the tables' Wilson intervals (exact ends)
    prop = kind == "proportion"
    dlo = np.where(prop, nlo, diff - _Z * se)
    dhi = np.where(prop, nhi, diff + _Z * se)
    with np.errstate(invalid="ignore", divide="ignore"):
        z = np.where(se > 0, diff / se, np.where(diff == 0, 0.0, np.nan))
    p = stats.two_sided_p(z)
    welch_sd = {}
    for i in np.flatnonzero(kind == "mean"):
        if n1[i] > 1 and n2[i] > 1 and np.isfinite(h1[i] - l1[i]) and np.isfinite(h2[i] - l2[i]):
            # Student t interval mean ± t(n−1)·sd/√n  →  sd = half-width · √n / t(n−1)
            sd1 = (h1[i] - l1[i]) / 2 * np.sqrt(n1[i]) / stats.t_quantile(float(n1[i] - 1))
            sd2 = (h2[i] - l2[i]) / 2 * np.sqrt(n2[i]) / stats.t_quantile(float(n2[i] - 1))
            _, lo, hi, pw = stats.welch(e2[i], sd2, n2[i], e1[i], sd1, n1[i])
            dlo[i], dhi[i], p[i] = lo, hi, pw
            welch_sd[i] = (sd1, sd2)
    sd1, sd2 = (j[c].fill_null(np.nan).to_numpy() for c in ("sd", "sd_v"))
    wald = prop & np.isfinite(sd1) & np.isfinite(sd2) & (n1 > 0) & (n2 > 0)
    if wald.any():      # tie-aware Wald test and interval of a seat's win-share change
        with np.errstate(invalid="ignore", divide="ignore"):
            wse = np.sqrt(sd1 ** 2 / n1 + sd2 ** 2 / n2)
            wz = np.where(wse > 0, diff / wse, np.where(diff == 0, 0.0, np.inf))
        z = np.where(wald, wz, z)
        p = np.where(wald, stats.two_sided_p(wz), p)
        dlo = np.where(wald, diff - _Z * wse, dlo)
        dhi = np.where(wald, diff + _Z * wse, dhi)
    index = kind == "index"
    z = np.where(index, np.nan, z)
    p = np.where(index, np.nan, p)
    dlo = np.where(index, np.nan, dlo)
    dhi = np.where(index, np.nan, dhi)
    adj = stats.holm(p)
    significant = np.nan_to_num(adj, nan=1.0) < alpha
    slo, shi = _size_intervals(diff, dlo, dhi, p, alpha, welch_sd, (e1, n1, e2, n2))
    metrics = j["metric"].to_list()
    small = np.array([smallest_difference(game, _smallest_kind(m, k), smallest)
                      for m, k in zip(metrics, kind)], dtype=float)
    founded = {r["key"]: min(r["estimate"], r["estimate_v"]) for r in
               j.filter(pl.col("metric") == "guild_founded_share").iter_rows(named=True)}
    support = np.array([founded.get(k, 1.0) if m == "guild_founders_win_share" else 1.0
                        for m, k in zip(metrics, j["key"].to_list())], dtype=float)
    verdict = stats.practical(diff, slo, shi, small, support=support, clear=significant)
    out = pl.DataFrame({
        "metric": j["metric"], "key": j["key"], "label": j["label"], "kind": j["kind"],
        "base": e1, "base_low": l1, "base_high": h1, "variant": e2, "variant_low": l2, "variant_high": h2,
        "diff": diff, "diff_low": dlo, "diff_high": dhi, "z": z, "p_value": p, "p_adjusted": adj,
        "significant": significant, "smallest": small, "size_low": slo, "size_high": shi,
        "verdict": verdict}, schema=COMPARE_SCHEMA)
    order = stats.practical_order(verdict, diff, small)
    return out[order]


def _size_intervals(diff, dlo, dhi, p, alpha: float, welch_sd: dict, runs) -> tuple[np.ndarray, np.ndarray]:
    """The intervals the verdicts' sizes are read on: each tested metric's own interval at the
    Bonferroni level 1 − alpha/m over the m tested metrics (the family Holm's correction runs over;
    Bonferroni is wider than any of Holm's steps, so conservative for it). Welch's interval is
    recomputed at that level (its t quantile); every other interval (normal, the tie-aware Wald,
    Newcombe's) is widened about the difference by z(1 − alpha/(2m)) / z(0.975), each end
    separately (exact for the normal ones; for Newcombe's score interval the same widening of its
    two sides). nan for an untested row."""
    m = int(np.isfinite(p).sum())
    c = stats.z_quantile(1.0 - alpha / max(m, 1)) / _Z
    slo = np.where(np.isfinite(p), diff - (diff - dlo) * c, np.nan)
    shi = np.where(np.isfinite(p), diff + (dhi - diff) * c, np.nan)
    e1, n1, e2, n2 = runs
    for i, (sd1, sd2) in welch_sd.items():
        _, slo[i], shi[i], _ = stats.welch(e2[i], sd2, n2[i], e1[i], sd1, n1[i], level=1.0 - alpha / max(m, 1))
    return slo, shi


def compare(base: RunSet, variant: RunSet, alpha: float = ALPHA) -> pl.DataFrame:
    """Analyse two run sets and compare them (see :func:`compare_tables`)."""
    from analysis import analyse

    return compare_tables(analyse(base), analyse(variant), alpha, game=base.game)
