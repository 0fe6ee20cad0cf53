"""Seigneurial tables: which objective cards are too easy or too hard, and what the land
improvements change (SG-2, SG-5.6, SG-6, SG-8).

:func:`objective_table`: per Objective card (the players' ``objective`` column indexes the rules'
``objectives.cards``, run.json ``rules_text``), how often a Censitaire holding it wins, with a
Wilson interval, against the average Censitaire; and its mean goal progress (``score``). Each card
is dealt at most once per game, so its player rows come from independent games.
:func:`improvement_table`: how many games reach the midpoint (the land improvements, games'
``improvement_turn`` ≥ 0), when, and who wins games that end before the improvements against games
that end after them. These are associations under bot play: a game that ends before the
improvements is a short game, and short games favour whoever is quick to their goal.
:func:`square_table`: the Seigneur's final square on the rent track (games' ``seigneur_square``).

:func:`tables` is the hook :func:`analysis.analyse` calls (through the spec's ``analysis_hooks``).

May import polars, numpy, the standard library, :mod:`analysis.load` and :mod:`analysis.stats`.
"""

from __future__ import annotations

import tomllib

import numpy as np
import polars as pl

from analysis import stats
from analysis.load import RunSet, collect, int_moments

SEIGNEUR, CENSITAIRE = "seigneur", "censitaire"
TABLES = ("objectives", "improvements", "seigneur_squares")    # what :func:`tables` may give


def objective_labels(rs: RunSet) -> dict[int, str]:
    """Objective index → its requirement in words (``grain ≥ 6, wood ≥ 4``), from the rules text
    in run.json; ``Objective k`` when the text is missing or unreadable."""
    try:
        cards = tomllib.loads(rs.metas[0].get("rules_text") or "")["objectives"]["cards"]
        return {i: ", ".join(f"{k} ≥ {v}" for k, v in card.items() if v) for i, card in enumerate(cards)}
    except (tomllib.TOMLDecodeError, KeyError, TypeError, AttributeError):
        return {}


def has_objectives(rs: RunSet) -> bool:
    return rs.has("objective", "role", "win_share")


def _is_censitaire() -> pl.Expr:
    return pl.col("role").cast(pl.Utf8) == CENSITAIRE


def objective_table(rs: RunSet) -> pl.DataFrame:
    """One row per Objective card dealt, easiest first.

    Columns: objective (index in the rules' deck), label, dealt (player-games of a Censitaire
    holding it), wins (Σ win_share), win_share, ci_low, ci_high (Wilson), censitaire_share (every
    Censitaire's win share: the average card), diff (win_share − censitaire_share), significant
    (censitaire_share outside the card's interval), mean_progress, progress_ci_low,
    progress_ci_high (mean ``score``, % of the card's requirement reached at the end; t interval).
    """
    if rs.from_stats:
        st = rs.stats
        seats = [i for i, r in enumerate(st.layout["seat_roles"]) if r == CENSITAIRE]
        v = st.valued["n:objective"].values
        n_v, w_v, s_v, q_v = (st.valued[f"{p}:objective"].a[seats].sum(axis=0) for p in "nwsq")
        keep = n_v > 0
        mean, m2 = int_moments(n_v[keep], s_v[keep], q_v[keep])
        with np.errstate(invalid="ignore", divide="ignore"):
            sd = np.where(n_v[keep] > 1, np.sqrt(np.maximum(m2, 0) / (n_v[keep] - 1)), np.nan)
        agg = pl.DataFrame({"objective": v[keep], "dealt": n_v[keep],
                            "wins": w_v[keep] / st.layout["win_units"], "mean_progress": mean, "_sd": sd})
    else:
        lf = rs.players(["role", "objective", "win_share", "score"]).filter(_is_censitaire())
        agg = collect(lf.group_by("objective").agg(
            pl.len().alias("dealt"),
            pl.col("win_share").cast(pl.Float64).sum().alias("wins"),
            pl.col("score").cast(pl.Float64).mean().alias("mean_progress"),
            pl.col("score").cast(pl.Float64).std().alias("_sd"),
        ).sort("objective"))
    n = agg["dealt"].to_numpy().astype(float)
    wins = agg["wins"].to_numpy()
    low, high = stats.wilson(wins, n)
    overall = wins.sum() / n.sum() if n.sum() else np.nan
    mean = agg["mean_progress"].to_numpy()
    sd = np.nan_to_num(agg["_sd"].to_numpy().astype(float), nan=0.0)
    p_low, p_high = stats.t_interval(mean, sd, n)
    labels = objective_labels(rs)
    out = pl.DataFrame({
        "objective": agg["objective"].cast(pl.Int16),
        "label": [labels.get(int(i), f"Objective {int(i)}") for i in agg["objective"]],
        "dealt": agg["dealt"].cast(pl.Int64), "wins": wins, "win_share": wins / n,
        "ci_low": low, "ci_high": high, "censitaire_share": np.full(len(n), overall),
        "diff": wins / n - overall, "significant": (low > overall) | (high < overall),
        "mean_progress": mean, "progress_ci_low": p_low, "progress_ci_high": p_high,
    })
    return out.sort(["win_share", "objective"], descending=[True, False])


def has_improvements(rs: RunSet) -> bool:
    return rs.has_games("improvement_turn", "turns") and rs.has("role", "win_share")


def _role_wins(rs: RunSet) -> pl.LazyFrame:
    """Per game: the Seigneur's win share and the game's improvement turn and length."""
    seig = (rs.players(["run", "game", "role", "win_share"])
            .filter(pl.col("role").cast(pl.Utf8) == SEIGNEUR)
            .select("run", "game", pl.col("win_share").cast(pl.Float64).alias("seigneur_win")))
    games = rs.games(["run", "game", "turns", "improvement_turn"])
    return games.join(seig, on=["run", "game"], how="inner")


def improvement_table(rs: RunSet) -> pl.DataFrame:
    """Two rows: games that ended before the land improvements, and games that ended after them.

    Columns: period ("before" / "after"), label, games, share (of all games; Wilson ci_low,
    ci_high), seigneur_wins, seigneur_share, seigneur_ci_low, seigneur_ci_high (the Seigneur's win
    share in those games, Wilson), mean_turns (game length), mean_improvement_turn (the turn the
    improvements came, for "after"; null for "before").
    """
    if rs.from_stats:
        return _improvements_from_stats(rs)
    d = collect(_role_wins(rs).select(
        (pl.col("improvement_turn") >= 0).alias("after"),
        "seigneur_win", "turns", "improvement_turn"))
    total = d.height
    sums = {}
    for period, mask in (("before", ~d["after"]), ("after", d["after"])):
        part = d.filter(mask)
        n = part.height
        sums[period] = (n, float(part["seigneur_win"].sum()) if n else 0.0,
                        float(part["turns"].mean()) if n else np.nan,
                        float(part["improvement_turn"].mean()) if n else np.nan)
    return _improvement_rows(total, sums)


def _improvements_from_stats(rs: RunSet) -> pl.DataFrame:
    st = rs.stats
    L = st.layout["win_units"]
    seig = [i for i, r in enumerate(st.layout["seat_roles"]) if r == SEIGNEUR]
    h = st.valued["g:improvement_turn"]
    v, n = h.values, h.a
    w = st.valued["gw:improvement_turn"].a[seig].sum(axis=0) / L
    t = st.valued["gl:improvement_turn"].a
    sums = {}
    for period, mask in (("before", v < 0), ("after", v >= 0)):
        k = int(n[mask].sum())
        sums[period] = (k, float(w[mask].sum()), t[mask].sum() / k if k else np.nan,
                        (v[mask] * n[mask]).sum() / k if k else np.nan)
    return _improvement_rows(st.games, sums)


def _improvement_rows(total: int, sums: dict) -> pl.DataFrame:
    rows = []
    for period, label in (("before", "Ended before the land improvements"),
                          ("after", "Reached the land improvements")):
        n, w, mean_turns, mean_improvement = sums[period]
        lo, hi = stats.wilson(np.array([float(n)]), np.array([float(total)]))
        slo, shi = stats.wilson(np.array([w]), np.array([float(n)])) if n else (np.array([np.nan]),) * 2
        rows.append({
            "period": period, "label": label, "games": n, "share": n / total if total else np.nan,
            "ci_low": float(lo[0]), "ci_high": float(hi[0]),
            "seigneur_wins": w, "seigneur_share": w / n if n else np.nan,
            "seigneur_ci_low": float(slo[0]), "seigneur_ci_high": float(shi[0]),
            "mean_turns": float(mean_turns) if n else np.nan,
            "mean_improvement_turn": float(mean_improvement) if n and period == "after" else None,
        })
    return pl.DataFrame(rows, schema_overrides={"mean_improvement_turn": pl.Float64})


def square_table(rs: RunSet) -> pl.DataFrame:
    """The Seigneur's final square: columns square, games, share (of all games)."""
    if rs.from_stats:
        h = rs.stats.valued["g:seigneur_square"]
        keep = h.a > 0
        d = pl.DataFrame({"seigneur_square": h.values[keep].astype(np.int8), "games": h.a[keep]},
                         schema={"seigneur_square": pl.Int8, "games": pl.UInt32})
    else:
        d = collect(rs.games(["seigneur_square"]).group_by("seigneur_square").agg(pl.len().alias("games"))
                    .sort("seigneur_square"))
    total = d["games"].sum()
    return d.rename({"seigneur_square": "square"}).with_columns(
        (pl.col("games") / total).alias("share"))


def tables(rs: RunSet) -> dict[str, pl.DataFrame]:
    """The Seigneurial tables the columns of ``rs`` allow: ``objectives``, ``improvements``,
    ``seigneur_squares``."""
    out: dict[str, pl.DataFrame] = {}
    if has_objectives(rs):
        out["objectives"] = objective_table(rs)
    if has_improvements(rs):
        out["improvements"] = improvement_table(rs)
    if rs.has_games("seigneur_square"):
        out["seigneur_squares"] = square_table(rs)
    return out
