"""Game length and how games end (the games columns the spec declares ``length``, in turns,
``end_reason`` and ``count_per_game``: a pile's reshuffles).

:func:`length_summary` gives one row: the mean number of turns with a t interval, quantiles, and the
mean of every ``count_per_game`` column (with its t interval); :func:`length_distribution` the share of games per bin of turns, split by
end reason (bins of a round width, at most :data:`MAX_BINS` of them); :func:`end_reason_table` the
share of games ending each way with Wilson intervals and the mean length of those games. End reason
codes are named by run.json's ``end_reason_names`` (``{"0": "third_guild", …}``) and shown in the
words of the spec's labels; unnamed codes show as "End reason *k*". Every interval is over the
games where they are independent; a rotated-seat run's count each deal as one game
(:func:`deal_bound_interval`). All are polars lazy
queries over games.parquet; a game without a length in turns (Middle-Ages, Fief combat) has none of these tables.
:func:`turn_limit` reads from an analysed run's tables how many of its games ended at the turn
limit (:mod:`simcore.turn_limit`: the warning its answers lead with), and :func:`end_wins_table`
who won the finished games against who won the stopped ones (the warning says both).

May import polars, numpy, :mod:`analysis.load`, :mod:`analysis.stats`, :mod:`simcore.turn_limit` and
:func:`simcore.accumulate.win_units` and the game registry (:func:`length_unit`: the spec's word for a turn).
"""

from __future__ import annotations

import numpy as np
import polars as pl

from analysis import stats
from analysis.load import RunSet, code_names, collect, int_moments
from simcore.accumulate import win_units
from simcore.turn_limit import TURN_LIMIT_REASONS, TurnLimit, from_counts, sides, split_from_stats

QUANTILES = (("p05", 0.05), ("p25", 0.25), ("median", 0.5), ("p75", 0.75), ("p95", 0.95))
MAX_BINS = 40
_WIDTHS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000)

def length_unit(game: str | None) -> str:
    """The unit a game's length in turns is said in, read from its spec: "player turns" where each
    turn is one player's (``extra["player_turns"]``: Médiévallons, MV-3), else "turns" (also for a
    game the registry does not know). Every page says a game's length in this unit: a run's, a
    before/after's, a panel's, a sweep's and a tune's."""
    from simcore import games as registry

    spec = registry.specs().get(game) if game else None
    return "player turns" if spec is not None and spec.extra.get("player_turns") else "turns"


def length_column(rs: RunSet) -> str | None:
    """The games column the spec declares ``length``, when it counts turns (the tables and the
    report's words speak of turns; a length in other units, Fief's combat rounds, is left out)."""
    cols = rs.role_columns("length", "games")
    return cols[0].name if cols and cols[0].unit == "turns" else None


def reason_column(rs: RunSet):
    """The games column the spec declares ``end_reason`` (a :class:`simcore.contract.Column`)."""
    cols = rs.role_columns("end_reason", "games")
    return cols[0] if cols else None


def other_length_column(rs: RunSet):
    """The games column the spec declares ``length`` when it is not in turns (Fief's combat
    ``rounds``: a :class:`simcore.contract.Column`, its ``unit`` the words), else None. The length
    tables leave it out (they speak of turns); a before/after compares its mean
    (:func:`analysis.compare.length_vector`)."""
    cols = rs.role_columns("length", "games")
    return cols[0] if cols and cols[0].unit != "turns" else None


def count_columns(rs: RunSet) -> list[str]:
    """The games columns the spec declares ``count_per_game`` (Middle-Ages' and Médiévallons'
    ``reshuffles``), in table order."""
    return [c.name for c in rs.role_columns("count_per_game", "games")]


def has_length(rs: RunSet) -> bool:
    return length_column(rs) is not None


def has_end_reasons(rs: RunSet) -> bool:
    """Whether the games say how they ended (an ``end_reason`` column), with or without a length
    in turns (a Fief combat's outcome: its length is in rounds)."""
    return reason_column(rs) is not None


def _games(rs: RunSet, reason: bool = False, extra: tuple[str, ...] = ()) -> pl.LazyFrame:
    """The games' length (as ``turns``), end reason (as ``end_reason``) and ``extra`` columns."""
    length, why = length_column(rs), reason_column(rs)
    names = {**({length: "turns"} if length else {}), **({why.name: "end_reason"} if reason else {})}
    return rs.games([*names, *extra]).rename({k: v for k, v in names.items() if k != v})


def end_reason_names(rs: RunSet) -> dict[int, str]:
    """End reason code → name from run.json ``end_reason_names`` (dict or list), else empty."""
    return code_names(rs.metas[0].get("end_reason_names"))


def end_reason_label(name: str, rs: RunSet | None = None) -> str:
    """The words a report shows for an end reason: the spec's label words (Médiévallons'
    ``third_guild`` → ``Guild goal reached``), else the name capitalised with spaces."""
    col = reason_column(rs) if rs is not None else None
    words = col.label_words if col is not None else {}
    return words.get(name, name.replace("_", " ").capitalize())


def _name(names: dict[int, str], code) -> str:
    return names.get(int(code), f"end_reason_{int(code)}")


def bin_width(lo: int, hi: int, max_bins: int = MAX_BINS) -> int:
    """The smallest round width (1, 2, 5, 10, 20, 25, 50, …) giving at most ``max_bins`` bins
    aligned on multiples of the width between ``lo`` and ``hi``."""
    for w in _WIDTHS:
        if hi // w - lo // w + 1 <= max_bins:
            return w
    return _WIDTHS[-1]


def _length_hist(rs: RunSet) -> tuple[np.ndarray, np.ndarray]:
    """(turn values, games per end reason and value) from the statistics."""
    h = rs.stats.valued["length"]
    return h.values, h.a


def hist_quantile(values: np.ndarray, counts: np.ndarray, q: float) -> float:
    """Quantile ``q`` of the values a histogram counts, interpolated linearly between the two
    nearest order statistics (numpy's and polars' ``linear``): exact, as from the rows."""
    n = int(counts.sum())
    cum = np.cumsum(counts)
    h = q * (n - 1)
    lo, hi = int(np.floor(h)), int(np.ceil(h))
    x_lo = float(values[np.searchsorted(cum, lo, side="right")])
    x_hi = float(values[np.searchsorted(cum, hi, side="right")])
    return x_lo + (h - lo) * (x_hi - x_lo)


def deal_bound_interval(mean, sd, games, games_per_unit, level: float = stats.LEVEL
                        ) -> tuple[np.ndarray, np.ndarray]:
    """The t interval of a per-game mean (a game's length, a count per game) over ``games`` games
    of which each ``games_per_unit`` form one deal of a rotated-seat run, whose games are not
    independent and whose per-deal sums are not kept: mean ± t(D − 1)·s/√D over the D = games / g
    deals, s² the games' centred sum of squares over (games − g), ``sd`` the games' sample sd
    (games − 1). A deal's mean has at most the variance σ² of one game (Cauchy-Schwarz: a design
    effect of at most g, :attr:`analysis.load.RunSet.games_per_unit`), and that sum of squares has
    expectation at least (games − g)·σ² (so s² at least σ² on average; with (games − 1), as
    before, it fell short by (games − g)/(games − 1) where the rotations replay one game: the 95%
    interval then covered 94.5% at 15 deals of 4 games and 93.7% at 5, normal lengths; statistics
    audit s38 #1). Where the rotations replay one game it is exactly the t interval of the deals'
    means. One game a unit: the t interval over the games."""
    mean = np.asarray(mean, dtype=float)
    sd = np.asarray(sd, dtype=float)
    n = np.asarray(games, dtype=float)
    g = float(games_per_unit)
    if g <= 1:
        return stats.t_interval(mean, sd, n, level)
    with np.errstate(invalid="ignore", divide="ignore"):
        s = np.where(n > g, sd * np.sqrt((n - 1.0) / (n - g)), np.nan)
    return stats.t_interval(mean, s, n / g, level)


def _summary_from_stats(rs: RunSet) -> dict:
    values, by_reason = _length_hist(rs)
    counts = by_reason.sum(axis=0)
    n = int(counts.sum())
    s = {"games": n, "min": float(values[counts > 0].min()), "max": float(values[counts > 0].max())}
    m, m2 = int_moments(n, int((values * counts).sum()), int((values * values * counts).sum()))
    s["_s"], s["_ss"] = float(m[0]), float(m2[0])
    for name, q in QUANTILES:
        s[name] = hist_quantile(values, counts, q)
    for c in count_columns(rs):
        h = rs.stats.valued[f"g:{c}"]
        v, k = h.values, h.a
        m, m2 = int_moments(int(k.sum()), int((v * k).sum()), int((v * v * k).sum()))
        s[f"_s:{c}"], s[f"_ss:{c}"] = float(m[0]), float(m2[0])
    return s


def length_summary(rs: RunSet) -> pl.DataFrame:
    """One row: games, mean_turns, turns_sd, ci_low, ci_high (t interval over games), p05, p25,
    median, p75, p95 (linear interpolation, as numpy's default), min, max, and for every
    ``count_per_game`` column C (:func:`count_columns`) mean_C, C_ci_low, C_ci_high (t). In a
    rotated-seat run the intervals read each deal as one game (:func:`deal_bound_interval`)."""
    counts = count_columns(rs)
    if rs.from_stats:
        s = _summary_from_stats(rs)
    else:
        lf = _games(rs, extra=tuple(counts))
        t = pl.col("turns").cast(pl.Float64)
        exprs = [pl.len().alias("games"), t.mean().alias("_s"), ((t - t.mean()) ** 2).sum().alias("_ss"),
                 t.min().alias("min"), t.max().alias("max")]
        exprs += [t.quantile(q, interpolation="linear").alias(name) for name, q in QUANTILES]
        for c in counts:
            r = pl.col(c).cast(pl.Float64)
            exprs += [r.mean().alias(f"_s:{c}"), ((r - r.mean()) ** 2).sum().alias(f"_ss:{c}")]
        s = collect(lf.select(exprs)).row(0, named=True)
    n = s["games"]
    u = float(rs.games_per_unit)         # a rotated run's deals weigh as one game each
    mean, sd = stats.moments(n, mean=s["_s"], m2=s["_ss"])
    lo, hi = deal_bound_interval(mean, sd, n, u)
    row = {"games": n, "mean_turns": float(mean), "turns_sd": float(sd), "ci_low": float(lo),
           "ci_high": float(hi)}
    row.update({name: s[name] for name, _ in QUANTILES})
    row.update({"min": s["min"], "max": s["max"]})
    for c in counts:
        rm, rsd = stats.moments(n, mean=s[f"_s:{c}"], m2=s[f"_ss:{c}"])
        rlo, rhi = deal_bound_interval(rm, rsd, n, u)
        row.update({f"mean_{c}": float(rm), f"{c}_ci_low": float(rlo), f"{c}_ci_high": float(rhi)})
    schema = {"games": pl.Int64, "mean_turns": pl.Float64, "turns_sd": pl.Float64, "ci_low": pl.Float64,
              "ci_high": pl.Float64, **{name: pl.Float64 for name, _ in QUANTILES}, "min": pl.Float64,
              "max": pl.Float64, **{k: pl.Float64 for c in counts
                                    for k in (f"mean_{c}", f"{c}_ci_low", f"{c}_ci_high")}}
    return pl.DataFrame([row], schema=schema)


def length_distribution(rs: RunSet) -> pl.DataFrame:
    """Share of games per bin of turns and end reason.

    Columns: turns_from, turns_to (inclusive; bins of :func:`bin_width`, aligned on its multiples),
    end_reason (code; null without an ``end_reason`` column), end_reason_name, label, games, share
    (of all games, so the shares of every bin and reason add up to 1). Bins × reasons with no game
    are left out.
    """
    reasons = has_end_reasons(rs)
    keys = ["turns", *(["end_reason"] if reasons else [])]
    if rs.from_stats:
        values, by_reason = _length_hist(rs)
        r, v = np.nonzero(by_reason)
        d = {"turns": values[v], "games": by_reason[r, v]}
        if reasons:
            d["end_reason"] = r
        agg = pl.DataFrame(d)
    else:
        agg = collect(_games(rs, reason=reasons).group_by(keys).agg(pl.len().alias("games")))
    schema = {"turns_from": pl.Int64, "turns_to": pl.Int64, "end_reason": pl.Int64,
              "end_reason_name": pl.String, "label": pl.String, "games": pl.Int64, "share": pl.Float64}
    if agg.height == 0:
        return pl.DataFrame(schema=schema)
    turns = agg["turns"].cast(pl.Int64).to_numpy()
    w = bin_width(int(turns.min()), int(turns.max()))
    agg = agg.with_columns((pl.col("turns").cast(pl.Int64) // w * w).alias("turns_from"))
    if not reasons:
        agg = agg.with_columns(pl.lit(None, pl.Int64).alias("end_reason"))
    out = agg.group_by(["turns_from", "end_reason"]).agg(pl.col("games").sum()).sort(
        ["turns_from", "end_reason"])
    total = float(out["games"].sum())
    names = end_reason_names(rs)
    codes = out["end_reason"].to_list()
    nm = ["all" if c is None else _name(names, c) for c in codes]
    return pl.DataFrame({
        "turns_from": out["turns_from"], "turns_to": out["turns_from"] + (w - 1),
        "end_reason": out["end_reason"].cast(pl.Int64), "end_reason_name": nm,
        "label": ["All games" if c is None else end_reason_label(n, rs) for c, n in zip(codes, nm)],
        "games": out["games"].cast(pl.Int64), "share": out["games"].cast(pl.Float64) / total,
    }, schema=schema)


def end_reason_table(rs: RunSet) -> pl.DataFrame:
    """Share of games ending each way.

    One row per code named in run.json (even when no game ended that way) or seen in the data,
    by code. Columns: end_reason, end_reason_name, label, games (ending that way), total (all
    games), share, ci_low, ci_high (Wilson), mean_turns, turns_ci_low, turns_ci_high (t interval
    over those games; null below two games). In a rotated-seat run the intervals read each deal as
    one game (:attr:`RunSet.games_per_unit`).
    """
    turns = has_length(rs)
    if rs.from_stats and not turns:        # the end reason's own histogram; no length in turns
        h = rs.stats.valued[f"g:{reason_column(rs).name}"]
        keep = h.a > 0
        agg = pl.DataFrame({"end_reason": h.values[keep].astype(np.int64), "games": h.a[keep],
                            "_s": np.zeros(int(keep.sum())), "_ss": np.zeros(int(keep.sum()))})
    elif rs.from_stats:
        values, by_reason = _length_hist(rs)
        n_r = by_reason.sum(axis=1)
        m, m2 = int_moments(n_r, (by_reason * values).sum(axis=1), (by_reason * values * values).sum(axis=1))
        keep = n_r > 0
        agg = pl.DataFrame({"end_reason": np.flatnonzero(keep), "games": n_r[keep], "_s": m[keep],
                            "_ss": m2[keep]})
    elif not turns:
        agg = collect(_games(rs, reason=True).group_by("end_reason").agg(
            pl.len().alias("games"), pl.lit(0.0).alias("_s"), pl.lit(0.0).alias("_ss")))
    else:
        t = pl.col("turns").cast(pl.Float64)
        agg = collect(_games(rs, reason=True).group_by("end_reason").agg(
            pl.len().alias("games"), t.mean().alias("_s"), ((t - t.mean()) ** 2).sum().alias("_ss")))
    names = end_reason_names(rs)
    codes = sorted(set(int(c) for c in agg["end_reason"].to_list() if c is not None) | set(names))
    found = {int(c): (g, s, ss) for c, g, s, ss in agg.iter_rows() if c is not None}
    total = float(agg["games"].sum())
    n = np.array([found.get(c, (0, 0.0, 0.0))[0] for c in codes], float)
    s = np.array([found.get(c, (0, 0.0, 0.0))[1] for c in codes], float)
    ss = np.array([found.get(c, (0, 0.0, 0.0))[2] for c in codes], float)
    u = float(rs.games_per_unit)         # a rotated run's deals weigh as one game each
    lo, hi = stats.wilson(n / u, np.full(len(codes), total / u))
    mean, sd = stats.moments(n, mean=s, m2=ss)
    tlo, thi = stats.t_interval(mean, sd, n / u)
    if not turns:                            # no length in turns: no mean length per end
        mean = tlo = thi = np.full(len(codes), np.nan)
    nm = [_name(names, c) for c in codes]

    def clean(x):
        return [float(v) if np.isfinite(v) else None for v in x]

    return pl.DataFrame({
        "end_reason": codes, "end_reason_name": nm, "label": [end_reason_label(x, rs) for x in nm],
        "games": n.astype(np.int64), "total": np.full(len(codes), int(total), np.int64),
        "share": n / total if total else np.full(len(codes), np.nan), "ci_low": lo, "ci_high": hi,
        "mean_turns": clean(mean), "turns_ci_low": clean(tlo), "turns_ci_high": clean(thi),
    }, schema={"end_reason": pl.Int64, "end_reason_name": pl.String, "label": pl.String,
               "games": pl.Int64, "total": pl.Int64, "share": pl.Float64, "ci_low": pl.Float64,
               "ci_high": pl.Float64, "mean_turns": pl.Float64, "turns_ci_low": pl.Float64,
               "turns_ci_high": pl.Float64})


def _sides(rs: RunSet) -> list[tuple[str, list[int]]]:
    """Who a split of the wins names (:func:`simcore.turn_limit.sides`): the seats, or the sides
    of a game with roles, in the spec's words."""
    spec = rs.spec
    P = rs.n_players
    if spec is None or not spec.roles:
        return sides(["player"] * P)
    return sides(list(spec.seat_roles(P)), {r.name: r.display for r in spec.roles})


def end_wins_table(rs: RunSet) -> pl.DataFrame | None:
    """Who won the games that ended by the rules and who won those stopped at the turn limit
    (:data:`simcore.turn_limit.TURN_LIMIT_REASONS`), one row per seat or, in a game with roles, per
    side (``who``): finished_games, stopped_games, finished_win_share, stopped_win_share (its
    share of those games' wins, a shared win split; null where there is no such game). From the
    statistics (:func:`simcore.turn_limit.split_from_stats`) or the rows, the same numbers; None
    when the game has no turn-limit end reason."""
    names = end_reason_names(rs)
    why = reason_column(rs)
    if why is None or not any(n in TURN_LIMIT_REASONS for n in names.values()):
        return None
    who = _sides(rs)
    stopped_codes = [c for c, n in names.items() if n in TURN_LIMIT_REASONS]
    if rs.from_stats:
        h = rs.stats.valued.get(f"g:{why.name}")
        if h is None:
            return None
        stop = np.isin(h.values, stopped_codes)
        n_stop, n_done = int(h.a[stop].sum()), int(h.a[~stop].sum())
        split = split_from_stats(rs.stats, names, who)
        done = [d for _, d, _ in split]
        stopped = [x for _, _, x in split]
    else:
        win = rs.role_column("win_share") or "win_share"
        games = rs.games(["game", why.name]).select(
            "run", "game", pl.col(why.name).cast(pl.Int64).is_in(stopped_codes).alias("_stop"))
        n = collect(games.group_by("_stop").agg(pl.len().alias("n")))
        counts = dict(zip(n["_stop"].to_list(), n["n"].to_list()))
        n_stop, n_done = int(counts.get(True, 0)), int(counts.get(False, 0))
        L = win_units(rs.n_players)       # a win shared by k is L/k units: exact sums, as the statistics'
        wins = collect(rs.players(["game", "seat", win]).join(games, on=["run", "game"])
                       .group_by(["seat", "_stop"])
                       .agg((pl.col(win).cast(pl.Float64) * L).round().cast(pl.Int64).sum().alias("w")))
        by = {(int(a), bool(b)): w / L for a, b, w in wins.select("seat", "_stop", "w").iter_rows()}

        def share(seats, stop_, n_):
            return sum(by.get((i, stop_), 0.0) for i in seats) / n_ if n_ else float("nan")

        done = [share(seats, False, n_done) for _, seats in who]
        stopped = [share(seats, True, n_stop) for _, seats in who]
    clean = lambda x: [float(v) if v == v else None for v in x]  # noqa: E731
    return pl.DataFrame({"who": [w for w, _ in who], "seats": [len(x) for _, x in who],
                         "finished_games": [n_done] * len(who), "stopped_games": [n_stop] * len(who),
                         "finished_win_share": clean(done), "stopped_win_share": clean(stopped)},
                        schema={"who": pl.String, "seats": pl.Int64, "finished_games": pl.Int64,
                                "stopped_games": pl.Int64, "finished_win_share": pl.Float64,
                                "stopped_win_share": pl.Float64})


def turn_limit(t: dict) -> TurnLimit | None:
    """The games of an analysed run (:func:`analysis.analyse`'s tables) that ended at the turn
    limit (:class:`simcore.turn_limit.TurnLimit`, from its ``end_reasons`` table, the mean length
    from ``length``), None when its game has no turn-limit end reason."""
    ends = t.get("end_reasons") if isinstance(t, dict) else None
    if ends is None or ends.height == 0:
        return None
    counts = dict(zip(ends["end_reason_name"].to_list(), (int(x) for x in ends["games"].to_list())))
    label = next((lab for name, lab in zip(ends["end_reason_name"], ends["label"])
                  if name in TURN_LIMIT_REASONS), "Turn limit reached")
    # the stopped games' mean length is the bound itself (every one of them ran to it)
    limit = next((m for name, m in zip(ends["end_reason_name"], ends["mean_turns"])
                  if name in TURN_LIMIT_REASONS), None) if "mean_turns" in ends.columns else None
    summary = t.get("length")
    mean = None
    if summary is not None and summary.height and "mean_turns" in summary.columns:
        m = summary["mean_turns"][0]
        mean = float(m) if m is not None and np.isfinite(m) else None
    wins = t.get("end_wins")
    split = (tuple((w, float("nan") if d is None else d, float("nan") if x is None else x)
                   for w, d, x in wins.select("who", "finished_win_share", "stopped_win_share").iter_rows())
             if wins is not None and wins.height else ())
    return from_counts(counts, label, mean, limit, split)


def run_turn_limit(run_dir) -> TurnLimit | None:
    """:func:`turn_limit` of one run directory (its statistics or rows: the end-reason table and
    the mean length), None when it cannot be read or its game has no turn-limit end reason (a
    sweep's variant, a panel's cell, a tune's confirmation run)."""
    from pathlib import Path

    from analysis.load import open_runs
    from simcore.errors import UsageError

    try:
        rs = open_runs([Path(run_dir)])
        if not has_end_reasons(rs):
            return None
        t = {"end_reasons": end_reason_table(rs)}
        if has_length(rs):
            t["length"] = length_summary(rs)
        wins = end_wins_table(rs)
        if wins is not None:
            t["end_wins"] = wins
    except (UsageError, OSError, ValueError, KeyError, pl.exceptions.PolarsError):
        return None
    return turn_limit(t)
