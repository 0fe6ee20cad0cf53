"""Two balance-by-search-budget tables (:mod:`analysis.skill`) of the same game and panel under two
rules, compared budget by budget (``balance skill --rules FIX --against DIR``): does a fix's effect on
the seats (or roles) hold as play gets stronger?

For every cell, every budget both tables played and every seat, the change of the seat's win share
when every seat searches (the ``all`` part; budget 0 is the cell's own bots), from the rules of the
``before`` table to those of the ``after`` table, with Newcombe's hybrid score interval (Newcombe
1998, method 10: built from the two Wilson score intervals; shared wins count as fractions of a win)
at the Bonferroni level over every (cell, budget, seat) compared, so that all of the table's
intervals hold together at 95%. The two tables' games are taken as independent samples: the same
seed deals the same games under both rules, and where the two rules' results agree game by game
that makes the true interval narrower, not wider. Each change is worded by its size against the
smallest difference that matters, read on its interval (:func:`analysis.stats.practical`).

The sentence (:func:`against_words`) leads with what the new rules change at the smallest budget
and says, seat by seat, whether that change holds at the largest budget: still clear on the same
side ("holds"), reversed, or not shown there (these games cannot tell).
Reads tables only, plays nothing, so reports may use it.

May import numpy, polars and :mod:`analysis.stats`.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from analysis.stats import (
    LARGE, MAY_MATTER, NOT_SHOWN, SMALL, newcombe, practical, score_interval,
)

ALPHA = 0.05
COLUMNS = ("cell", "players", "budget", "seat", "role", "before_games", "before_win_share",
           "after_games", "after_win_share", "change", "change_low", "change_high", "level", "verdict")


def family_level(comparisons: int, alpha: float = ALPHA) -> float:
    """The level of each interval when ``comparisons`` are read together (Bonferroni: 1 − α/m)."""
    return 1.0 - alpha / max(1, int(comparisons))


def _all_part(table: pl.DataFrame) -> pl.DataFrame:
    t = table.filter(pl.col("part") == "all")
    if "cell" not in t.columns:
        t = t.with_columns(pl.lit("").alias("cell"))
    return t.select(["cell", "players", "budget", "seat", "role", "games", "win_share"])


def against(before: pl.DataFrame, after: pl.DataFrame, smallest: float,
            alpha: float = ALPHA) -> pl.DataFrame:
    """Per cell, budget (played in both tables) and seat: the win share every seat searching under
    ``before``'s rules and under ``after``'s, the change (after − before) with its interval at the
    family's level (:func:`family_level` over all the rows: they hold together at 1 − ``alpha``)
    and its verdict by size against ``smallest`` (a fraction: 0.01 = 1 pp). Rows as
    :data:`COLUMNS`, in the after table's order of cells, then by budget and seat."""
    b = _all_part(before).rename({"games": "before_games", "win_share": "before_win_share"})
    a = _all_part(after).rename({"games": "after_games", "win_share": "after_win_share"})
    order = {c: k for k, c in enumerate(dict.fromkeys(a["cell"].to_list()))}
    t = a.join(b.select(["cell", "budget", "seat", "before_games", "before_win_share"]),
               on=["cell", "budget", "seat"], how="inner")
    t = t.with_columns(pl.col("cell").replace_strict(order, return_dtype=pl.Int64).alias("_k")) \
        .sort(["_k", "budget", "seat"]).drop("_k")
    level = family_level(t.height, alpha)
    n1, p1 = t["after_games"].to_numpy().astype(float), t["after_win_share"].to_numpy()
    n0, p0 = t["before_games"].to_numpy().astype(float), t["before_win_share"].to_numpy()
    low, high = newcombe(p1, *score_interval(p1 * n1, n1, level), p0, *score_interval(p0 * n0, n0, level))
    change = p1 - p0
    verdicts = practical(change, low, high, smallest) if t.height else np.array([], dtype=str)
    return t.with_columns(pl.Series("change", change, pl.Float64),
                          pl.Series("change_low", low, pl.Float64),
                          pl.Series("change_high", high, pl.Float64),
                          pl.lit(level, pl.Float64).alias("level"),
                          pl.Series("verdict", list(verdicts), pl.Utf8)).select(list(COLUMNS))


def _pp(x: float) -> str:
    return f"{100 * x:+.1f}".replace("-", "−")


def _change(r: dict) -> str:
    """"−4.2 pp (−6.0 to −2.4)"."""
    lo, hi = (f"{100 * v:.1f}".replace("-", "−") for v in (r["change_low"], r["change_high"]))
    return f"{_pp(r['change'])} pp ({lo} to {hi})"


def _seat(r: dict, roles_alike: bool) -> str:
    return f"seat {r['seat'] + 1}" + ("" if roles_alike else f" ({str(r['role']).capitalize()})")


_SIZE = {LARGE: "large enough to matter", MAY_MATTER: "clear, may matter", SMALL: "clear but small"}


def _budget_words(rows: list[dict], roles_alike: bool) -> str:
    """What one budget's changes say: the clear ones by size, largest first, then how many seats
    moved by no clear amount."""
    clear = [r for r in rows if r["verdict"] != NOT_SHOWN]
    order = [LARGE, MAY_MATTER, SMALL]
    clear.sort(key=lambda r: (order.index(r["verdict"]), -abs(r["change"])))
    if not clear:
        return "no seat's win share changes clearly"
    parts = [f"{_seat(r, roles_alike)} {_change(r)}, {_SIZE[r['verdict']]}" for r in clear]
    rest = len(rows) - len(clear)
    if rest:
        parts.append(f"the other {'seat' if rest == 1 else f'{rest} seats'}: no clear change")
    return "; ".join(parts)


def _seats(rows: list[dict], roles_alike: bool) -> str:
    """"seat 1", "seats 1 and 3", "seats 1, 2 and 4" (with roles: "seat 1 (Seigneur) and …")."""
    if roles_alike:
        n = [str(r["seat"] + 1) for r in rows]
        return f"seat {n[0]}" if len(n) == 1 else "seats " + ", ".join(n[:-1]) + f" and {n[-1]}"
    n = [_seat(r, roles_alike) for r in rows]
    return n[0] if len(n) == 1 else ", ".join(n[:-1]) + f" and {n[-1]}"


def _listed(rows: list[dict], roles_alike: bool, size: bool = True) -> str:
    return "; ".join(f"{_seat(r, roles_alike)} {_change(r)}" + (f", {_SIZE[r['verdict']]}" if size else "")
                     for r in rows)


def _at_largest(first: dict, last: list[dict], budget: int, roles_alike: bool) -> str:
    """Whether the clear changes at the smallest budget (``first``: seat -> row) hold at the largest
    (``last``: its rows), grouped: they hold (still clear, same side), reverse (clear, the other
    side) or these games cannot tell (the interval holds 0); then the seats that move there only."""
    moved = [r for r in last if r["seat"] in first and first[r["seat"]]["verdict"] != NOT_SHOWN]
    held = [r for r in moved if r["verdict"] != NOT_SHOWN and
            np.sign(r["change"]) == np.sign(first[r["seat"]]["change"])]
    turned = [r for r in moved if r["verdict"] != NOT_SHOWN and r not in held]
    unknown = [r for r in moved if r["verdict"] == NOT_SHOWN]
    out = []
    for rows, verb in ((held, "holds"), (turned, "reverses")):
        if rows:
            what = "change" if len(rows) == 1 else "changes"
            verb = verb if len(rows) == 1 else verb[:-1]
            out.append(f"At budget {budget} the {what} of {_seats(rows, roles_alike)} {verb}: "
                       f"{_listed(rows, roles_alike)}.")
    if unknown:
        what = "change" if len(unknown) == 1 else "changes"
        verb = "holds" if len(unknown) == 1 else "hold"
        out.append(f"At budget {budget} these games cannot tell whether the {what} of "
                   f"{_seats(unknown, roles_alike)} {verb}: {_listed(unknown, roles_alike, size=False)} "
                   f"({'its interval holds' if len(unknown) == 1 else 'each interval holds'} 0).")
    others = [r for r in last if r not in moved and r["verdict"] != NOT_SHOWN]
    others.sort(key=lambda r: ([LARGE, MAY_MATTER, SMALL].index(r["verdict"]), -abs(r["change"])))
    if others:
        out.append(f"At budget {budget} the rules {'also move' if moved else 'move'} "
                   f"{_seats(others, roles_alike)}: {_listed(others, roles_alike)}.")
    if not moved and not others:
        out.append(f"At budget {budget}: no seat's win share changes clearly.")
    return " ".join(out)


def against_words(table: pl.DataFrame, before_name: str, after_name: str,
                  roles_alike: bool = True) -> str:
    """The comparison in words, per cell: what ``after_name``'s rules change against
    ``before_name``'s at the smallest budget, whether each clear change holds at the largest, and
    the level of the intervals. ``table``: :func:`against`'s."""
    if table.height == 0:
        return "The two tables share no budget of any cell: nothing to compare."
    level = float(table["level"][0])
    m = table.height
    out = [f"{after_name[:1].upper() + after_name[1:]} against {before_name}, every seat searching (change in win share, "
           f"intervals at {100 * level:.4g}%: Bonferroni over the {m} seat and budget comparisons, "
           "all holding together at 95%)."]
    cells = list(dict.fromkeys(table["cell"].to_list()))
    for c in cells:
        ct = table.filter(pl.col("cell") == c)
        budgets = sorted(ct["budget"].unique().to_list())
        lead = f"In {c}, at" if c else "At"
        by_budget = {b: list(ct.filter(pl.col("budget") == b).sort("seat").iter_rows(named=True))
                     for b in budgets}
        lo, hi = budgets[0], budgets[-1]
        text = f"{lead} budget {lo}: {_budget_words(by_budget[lo], roles_alike)}."
        for b in budgets[1:-1]:
            text += f" At budget {b}: {_budget_words(by_budget[b], roles_alike)}."
        if hi != lo:
            first = {r["seat"]: r for r in by_budget[lo]}
            text += " " + _at_largest(first, by_budget[hi], hi, roles_alike)
        out.append(text)
    return " ".join(out)
