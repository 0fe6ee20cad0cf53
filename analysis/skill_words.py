"""The trend of a balance-by-search-budget table (:mod:`analysis.skill`) in figures and words: the
seat (or role) advantage per budget with its interval, and whether it persists, grows or vanishes.
Reads a table only, plays nothing, so reports may use it.

May import numpy and polars.
"""

from __future__ import annotations

import numpy as np
import polars as pl


# The Balance figures of a budget's ``all`` part (:func:`analysis.skill.balance_figures`), the same
# on each of its seats' rows; null on ``one`` rows. The ``_adjusted`` interval is the win-share
# balance's at FAMILY_LEVEL: the sentence (:func:`verdict`) reads two budgets, the smallest and the
# largest, so each is read at 1 - 0.05 / 2 (Bonferroni over the two).
BALANCE_COLUMNS = ("balance", "balance_low", "balance_high", "win_share_balance",
                   "win_share_balance_low", "win_share_balance_high",
                   "win_share_balance_low_adjusted", "win_share_balance_high_adjusted")
FAMILY_LEVEL = 1 - 0.05 / 2


def has_balance(table) -> bool:
    """True when ``table`` (a cell's part or a whole skill table, or its column names) records the
    Balance figures: a balance skill written before they were recorded lacks them (and is played
    again)."""
    names = set(table.columns if isinstance(table, pl.DataFrame) else table)
    return all(c in names for c in BALANCE_COLUMNS)


def cells(table: pl.DataFrame) -> list[str]:
    """The table's cells (panel cells) in the order they first appear ("" for a table without)."""
    if "cell" not in table.columns:
        return [""]
    return list(dict.fromkeys(table["cell"].to_list()))


def advantage(table: pl.DataFrame, roles_alike: bool) -> pl.DataFrame:
    """Per cell (of a panel) and budget, from the ``all`` part: the seat advantage, the largest gap
    between two seats' win shares (1 minus the win-share balance) with its interval at
    :data:`FAMILY_LEVEL` (from the simultaneous intervals on every pair of seats,
    :func:`analysis.seats.balance_interval`) and the seats that lead and trail in these games
    (``best``, ``worst``: 0-based); with roles, the first role's win share (its seat 0) and its
    95% Wilson interval."""
    frames = []
    for c in cells(table):
        one = table if c == "" else table.filter(pl.col("cell") == c)
        frames.append(_advantage(one, roles_alike).with_columns(pl.lit(c).alias("cell")))
    return pl.concat(frames).select(["cell", "budget", "figure", "value", "low", "high", "best", "worst"])


GAP = "largest gap between two seats' win shares"


def _advantage(table: pl.DataFrame, roles_alike: bool) -> pl.DataFrame:
    out = []
    for b in sorted(table["budget"].unique().to_list()):
        t = table.filter((pl.col("budget") == b) & (pl.col("part") == "all")).sort("seat")
        if t.height == 0:
            continue
        shares = t["win_share"].to_numpy()
        best, worst = int(np.argmax(shares)), int(np.argmin(shares))
        r = t.row(0, named=True)         # the Balance figures are on every seat's row; seat 0's role
        if roles_alike:
            out.append((b, GAP, 1.0 - r["win_share_balance"],
                        1.0 - r["win_share_balance_high_adjusted"],
                        1.0 - r["win_share_balance_low_adjusted"], best, worst))
        else:
            out.append((b, f"{r['role']} win share", r["win_share"], r["ci_low"], r["ci_high"],
                        best, worst))
    return pl.DataFrame(out, schema=[("budget", pl.Int64), ("figure", pl.Utf8), ("value", pl.Float64),
                                     ("low", pl.Float64), ("high", pl.Float64), ("best", pl.Int64),
                                     ("worst", pl.Int64)], orient="row")


def verdict(adv: pl.DataFrame) -> str:
    """Whether the advantage persists, grows or vanishes from the smallest to the largest budget,
    judged by the intervals beside it (conservative: non-overlapping intervals for a change); one
    sentence per cell (player count and line-up: whom the answer holds for), led by the cell's
    name."""
    out = []
    for c in cells(adv):
        text = _verdict(adv if c == "" else adv.filter(pl.col("cell") == c))
        out.append(f"{c}: {text}" if c else text[:1].upper() + text[1:])
    return " ".join(out)


def _pp(x: float) -> str:
    return f"{100 * x:.1f} pp"


def _gap_at(r: dict) -> str:
    """One budget's largest gap in words: the figure, its interval, and who leads and trails."""
    who = (f", seat {r['best'] + 1} ahead of seat {r['worst'] + 1} in these games"
           if r["low"] > 0 else "")
    return (f"{_pp(r['value'])} ({100 * r['low']:.1f} to {100 * r['high']:.1f}) at budget "
            f"{r['budget']}{who}")


def _verdict(adv: pl.DataFrame) -> str:
    if adv.height < 2:
        return "One budget only: no trend to read."
    first, last = adv.row(0, named=True), adv.row(adv.height - 1, named=True)
    what = first["figure"]
    if what != GAP:              # a role's win share: say which way it moves, not "advantage"
        span = (f"{what}: {100 * first['value']:.1f}% at budget {first['budget']}, "
                f"{100 * last['value']:.1f}% at budget {last['budget']}")
        if last["low"] > first["high"]:
            return f"{span}: it rises as play gets stronger (the intervals do not overlap)."
        if last["high"] < first["low"]:
            return f"{span}: it falls as play gets stronger (the intervals do not overlap)."
        return f"{span}: it stays within the intervals (they overlap) as play gets stronger."
    # The seats' advantage is the largest gap between two seats; it is shown at a budget when its
    # interval (simultaneous over every pair of seats, 95%) lies above 0. Growing or shrinking
    # asks more: the two budgets' intervals apart (conservative).
    span = (f"{GAP}: {_gap_at(first)}; {_gap_at(last)} ({100 * FAMILY_LEVEL:g}% intervals: two "
            "budgets compared)")
    shown_first, shown_last = first["low"] > 0, last["low"] > 0
    if last["low"] > first["high"]:
        return f"{span}: the advantage grows as play gets stronger (the intervals do not overlap)."
    if last["high"] < first["low"]:
        if not shown_last:
            return f"{span}: the advantage shrinks and is no longer distinguishable from none."
        return f"{span}: the advantage shrinks as play gets stronger (the intervals do not overlap)."
    if shown_first and shown_last:
        moved = ("" if first["best"] == last["best"] else
                 f" The seat ahead differs, though: seat {first['best'] + 1} at budget "
                 f"{first['budget']}, seat {last['best'] + 1} at budget {last['budget']}.")
        return (f"{span}: the advantage persists (the intervals overlap, so these games do not show "
                f"it changing with the budget).{moved}")
    if not shown_first and not shown_last:
        return (f"{span}: these games show no seat advantage at either budget (both intervals reach "
                "0), nor a change; more games would narrow the intervals.")
    at, not_at = (first, last) if shown_first else (last, first)
    return (f"{span}: an advantage is shown at budget {at['budget']} but not at budget "
            f"{not_at['budget']}; the intervals overlap, so these games do not show it changing "
            "with the budget (more games would narrow them).")
