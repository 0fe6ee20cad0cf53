"""The trend of a balance-by-search-budget table (:mod:`analysis.skill`) in figures and words: the
seat (or role) advantage per budget with its interval, and whether it persists, grows or vanishes.
Reads a table only, plays nothing, so reports may use it.

May import numpy and polars.
"""

from __future__ import annotations

import numpy as np
import polars as pl


def cells(table: pl.DataFrame) -> list[str]:
    """The table's cells (panel cells) in the order they first appear ("" for a table without)."""
    if "cell" not in table.columns:
        return [""]
    return list(dict.fromkeys(table["cell"].to_list()))


def advantage(table: pl.DataFrame, roles_alike: bool) -> pl.DataFrame:
    """Per cell (of a panel) and budget, from the ``all`` part: the seat advantage (best seat's win
    share minus the worst's, with the seats' intervals' ends: best's low minus worst's high ..
    best's high minus worst's low), or with roles the first role's win share (its seat 0) and its
    interval."""
    frames = []
    for c in cells(table):
        one = table if c == "" else table.filter(pl.col("cell") == c)
        frames.append(_advantage(one, roles_alike).with_columns(pl.lit(c).alias("cell")))
    return pl.concat(frames).select(["cell", "budget", "figure", "value", "low", "high"])


def _advantage(table: pl.DataFrame, roles_alike: bool) -> pl.DataFrame:
    out = []
    for b in sorted(table["budget"].unique().to_list()):
        t = table.filter((pl.col("budget") == b) & (pl.col("part") == "all")).sort("seat")
        if t.height == 0:
            continue
        if roles_alike:
            best, worst = t.row(int(np.argmax(t["win_share"].to_numpy())), named=True), \
                t.row(int(np.argmin(t["win_share"].to_numpy())), named=True)
            out.append((b, "best seat − worst seat",
                        best["win_share"] - worst["win_share"],
                        best["ci_low"] - worst["ci_high"], best["ci_high"] - worst["ci_low"]))
        else:
            r = t.row(0, named=True)
            out.append((b, f"{r['role']} win share", r["win_share"], r["ci_low"], r["ci_high"]))
    return pl.DataFrame(out, schema=[("budget", pl.Int64), ("figure", pl.Utf8), ("value", pl.Float64),
                                     ("low", pl.Float64), ("high", pl.Float64)], orient="row")


def verdict(adv: pl.DataFrame) -> str:
    """Whether the advantage persists, grows or vanishes from the smallest to the largest budget,
    judged by the intervals beside it (conservative: non-overlapping intervals for a change); one
    sentence per cell of a panel, each led by the cell's name."""
    names = cells(adv)
    if len(names) > 1:
        return " ".join(f"{c}: {_verdict(adv.filter(pl.col('cell') == c))}" for c in names)
    return _verdict(adv)


def _verdict(adv: pl.DataFrame) -> str:
    if adv.height < 2:
        return "One budget only: no trend to read."
    first, last = adv.row(0, named=True), adv.row(adv.height - 1, named=True)
    what = first["figure"]
    a = f"{100 * first['value']:.1f} pp" if "−" in what else f"{100 * first['value']:.1f}%"
    z = f"{100 * last['value']:.1f} pp" if "−" in what else f"{100 * last['value']:.1f}%"
    span = f"{what}: {a} at budget {first['budget']}, {z} at budget {last['budget']}"
    if "−" not in what:          # a role's win share: say which way it moves, not "advantage"
        if last["low"] > first["high"]:
            return f"{span}: it rises as play gets stronger (the intervals do not overlap)."
        if last["high"] < first["low"]:
            return f"{span}: it falls as play gets stronger (the intervals do not overlap)."
        return f"{span}: it stays within the intervals (they overlap) as play gets stronger."
    if last["low"] > first["high"]:
        return f"{span}: the advantage grows as play gets stronger (the intervals do not overlap)."
    if last["high"] < first["low"]:
        if "−" in what and last["low"] <= 0:
            return f"{span}: the advantage shrinks and is no longer distinguishable from none."
        return f"{span}: the advantage shrinks as play gets stronger (the intervals do not overlap)."
    return (f"{span}: the advantage persists -- the intervals overlap, so these games do not show "
            "it changing with the budget.")
