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

The sentence (:func:`against_words`) leads, per cell, with each rules' largest gap between two seats
at every budget (described, each with the adjusted interval its own table gives, the one its trend
reads at the first and last budgets: one gap, one interval), or in a game with roles with the first
role's win share and its change; then what the new rules change at each budget (each clear change
placed against the fair share, from the estimates; where none is clear, how large a change the
games still allow), and, seat by seat, whether a change at the smallest budget holds at the
largest: still clear on the same side ("holds"), reversed, or not shown there (these games cannot
tell; how large it can still be in its direction). Reads tables only, plays nothing, so reports
may use it.

May import numpy, polars, :mod:`analysis.stats`, :mod:`analysis.load`'s seat labels,
:mod:`analysis.skill_words` (a change or gap as the difference of the shares as printed) and
:mod:`simcore.numbers` (every percentage rounded as the tables and pages round it, halves away
from zero: :func:`_pc`).
"""

from __future__ import annotations

import numpy as np
import polars as pl

from analysis.load import with_seat_label
from analysis.skill_words import ci_digits, shown_difference, shown_gap
from simcore.numbers import change_digits, fair_gap, rounded, signed
from analysis.stats import (
    LARGE, MAY_MATTER, NOT_SHOWN, SMALL, newcombe, practical, score_interval, wilson,
)

ALPHA = 0.05
COLUMNS = ("cell", "players", "budget", "seat", "role", "before_games", "before_win_share",
           "after_games", "after_win_share", "change", "change_low", "change_high", "level", "verdict",
           "before_gap", "before_gap_low", "before_gap_high", "after_gap", "after_gap_low",
           "after_gap_high", "gap_level")
# before_gap …, after_gap …: each table's largest gap between two seats' win shares at the budget
# (1 minus its win-share balance) with the interval that table's own trend sentence and tables read
# (simultaneous over the pairs of seats, analysis.skill.gap_interval, at the table's adjusted level:
# 97.5% for one cell, two budgets compared; ``gap_level``), the same on every seat's row: each rules
# described on its own, not a comparison (the comparison is the per-seat change). One gap, one
# interval, wherever it is shown.
# The verdict as the files and the page write it: practical()'s "not shown" (left out of headlines)
# is, on a row that is shown, "no clear change".
NO_CLEAR_CHANGE = "no clear change"


def family_level(comparisons: int, alpha: float = ALPHA) -> float:
    """The level of each interval when ``comparisons`` are read together (Bonferroni: 1 − α/m)."""
    return 1.0 - alpha / max(1, int(comparisons))


def _all_part(table: pl.DataFrame) -> pl.DataFrame:
    t = table.filter(pl.col("part") == "all")
    if "cell" not in t.columns:
        t = t.with_columns(pl.lit("").alias("cell"))
    for c in ("win_share_balance", "win_share_balance_low_adjusted", "win_share_balance_high_adjusted",
              "adjusted_level"):
        if c not in t.columns:
            t = t.with_columns(pl.lit(None, pl.Float64).alias(c))
    return t.select(["cell", "players", "budget", "seat", "role", "games", "win_share",
                     (1 - pl.col("win_share_balance")).alias("gap"),
                     (1 - pl.col("win_share_balance_high_adjusted")).alias("gap_low"),
                     (1 - pl.col("win_share_balance_low_adjusted")).alias("gap_high"),
                     pl.col("adjusted_level").cast(pl.Float64).alias("gap_level")])


def against(before: pl.DataFrame, after: pl.DataFrame, smallest: float,
            alpha: float = ALPHA) -> pl.DataFrame:
    """Per cell, budget (played in both tables) and seat: the win share every seat searching under
    ``before``'s rules and under ``after``'s, the change (after − before) with its interval at the
    family's level (:func:`family_level` over all the rows: they hold together at 1 − ``alpha``)
    and its verdict by size against ``smallest`` (a fraction: 0.01 = 1 pp). Rows as
    :data:`COLUMNS`, in the after table's order of cells, then by budget and seat."""
    gaps = ("gap", "gap_low", "gap_high")
    b = _all_part(before).rename({"games": "before_games", "win_share": "before_win_share",
                                  **{g: f"before_{g}" for g in gaps}})
    a = _all_part(after).rename({"games": "after_games", "win_share": "after_win_share",
                                 **{g: f"after_{g}" for g in gaps}})
    order = {c: k for k, c in enumerate(dict.fromkeys(a["cell"].to_list()))}
    t = a.join(b.select(["cell", "budget", "seat", "before_games", "before_win_share",
                         *(f"before_{g}" for g in gaps)]),
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


def _pc(x: float, digits: int = 1, sign: str = "") -> str:
    """A fraction in percent, a half rounded away from zero (:func:`simcore.numbers.rounded`, the
    rule of every table and page): 0.3625 → "36.3"; ``sign="+"`` writes the sign."""
    return f"{rounded(100 * x, digits):{sign}.{digits}f}"


def _num(x: float) -> str:
    return _pc(x).replace("-", "−")


def verdict_text(v) -> str:
    """A row's verdict as the page and the files write it: :data:`NO_CLEAR_CHANGE` for
    :data:`analysis.stats.NOT_SHOWN`, else the size as it is ("clear, may matter" …)."""
    return NO_CLEAR_CHANGE if v == NOT_SHOWN else str(v)


def written(cmp: pl.DataFrame) -> pl.DataFrame:
    """:func:`against`'s table as ``against.csv``/``.parquet`` hold it: its verdicts in the page's
    words (:func:`verdict_text`), and ``seat_label`` ("Seat 1") after the 0-based ``seat``."""
    return with_seat_label(cmp.with_columns(pl.col("verdict").map_elements(verdict_text,
                                                                           return_dtype=pl.Utf8)))


def row_digits(r: dict) -> int:
    """The decimals a row's two shares, its change and its interval are printed with, one rule for
    the sentence, the page's table and the terminal's (review s58 #5: a Seigneur's 0.00% → 0.25%
    read "+0.25 pp" in the sentence and "+0.3" in the table beside it, its share "0.3%" there and
    "0.25% (0.01–1.40)" in the seat table): 2 when both shares are below 5% (0.50% → 0.75%, +0.25
    pp), and at least the decimals each share's own table prints it with (:func:`ci_digits`, with
    the share's own 95% interval over its games, :func:`analysis.stats.wilson`, as
    :func:`analysis.skill.seat_interval` makes it); else 1."""
    d = 2 if max(r["before_win_share"], r["after_win_share"]) < 0.05 else 1
    for side in ("before", "after"):
        p, n = r.get(f"{side}_win_share"), r.get(f"{side}_games")
        if p is not None and n:
            low, high = wilson(float(p) * int(n), int(n))
            d = max(d, ci_digits(float(p), float(low), float(high)))
    return d


def change_number(r: dict, digits: int | None = None) -> str:
    """A row's change in pp with its sign, the minus typographic, as the sentence, the page's table
    and the terminal's print it (``digits``: default :func:`row_digits`, the one rule of the three):
    the difference of the two shares as printed at ``digits`` (review
    s47: 23.0% → 22.3% read −0.8 pp), "+2.5"; where the two shares print alike but differ, at the
    decimals (up to 3) where that difference is not 0 (30.03% against 30.00%: "+0.03", not
    "+0.0"); a change of 0, "0.0", without a sign (session 55 review: "seat 2 +0.0 pp"; the
    toolkit's rule, :func:`simcore.numbers.signed`)."""
    a, b = r.get("after_win_share"), r.get("before_win_share")
    if a is None or b is None:
        x = 100 * float(r["change"])
        return signed(x, change_digits(x, 1 if digits is None else digits))
    k = row_digits(r) if digits is None else digits
    change = shown_difference(a, b, k)
    while change == 0 and a != b and k < 3:
        k += 1
        change = shown_difference(a, b, k)
    return signed(100 * change, k)


def change_text(r: dict, digits: int | None = None) -> str:
    """A row's change with its interval, the minus typographic: "−4.2 pp (−6.0 to −2.4)" (also the
    report's line, :func:`reports.skill.skill_headline`); the change as :func:`change_number`
    prints it, at :func:`row_digits` unless ``digits`` is given."""
    digits = row_digits(r) if digits is None else digits
    n = lambda x: _pc(x, digits).replace("-", "−")  # noqa: E731
    return f"{change_number(r, digits)} pp ({n(r['change_low'])} to {n(r['change_high'])})"


def seat_text(r: dict, roles_alike: bool) -> str:
    """"seat 3", or with roles "seat 1 (Seigneur)"."""
    return f"seat {r['seat'] + 1}" + ("" if roles_alike else f" ({str(r['role']).capitalize()})")


_SIZE = {LARGE: "large enough to matter", MAY_MATTER: "clear, may matter", SMALL: "clear but small"}


def _fairness(r: dict, fair: float | None) -> str:
    """Where a seat's win share moved against the fair share (estimates, the seats alike):
    ": 19.4% → 24.5%, toward the fair 25%", "away from the fair 25%", or, when it crossed the
    fair share, ": 28.6% → 21.5%, past the fair 25%: from 3.6 pp above to 3.5 pp below" (a
    crossing is never called "toward": by a tenth of a point the estimates would call an overshoot
    a repair); "" without a fair share. Each gap is its share as printed minus the fair share
    (:func:`simcore.numbers.fair_gap`: "24.5%" beside "0.6 pp below" 25% for 24.45%, session 56)."""
    if fair is None:
        return ""
    b, a = r["before_win_share"] - fair, r["after_win_share"] - fair
    f = f"the fair {100 * fair:g}%"
    shares = f": {_pc(r['before_win_share'])}% → {_pc(r['after_win_share'])}%"
    if a * b < 0:
        def side(share: float, x: float) -> str:
            return f"{abs(fair_gap(100 * share, 100 * fair, 1)):.1f} pp {'above' if x > 0 else 'below'}"
        return (f"{shares}, past {f}: from {side(r['before_win_share'], b)} to "
                f"{side(r['after_win_share'], a)}")
    return f"{shares}, {'toward' if abs(a) < abs(b) else 'away from'} {f}"


def _clear_rows(rows: list[dict]) -> list[dict]:
    clear = [r for r in rows if r["verdict"] != NOT_SHOWN]
    clear.sort(key=lambda r: ([LARGE, MAY_MATTER, SMALL].index(r["verdict"]), -abs(r["change"])))
    return clear


def bound_text(rows: list[dict]) -> str:
    """The largest change these rows' intervals still allow, either way: "±4.7 pp"."""
    return f"±{_pc(max(max(abs(r['change_low']), abs(r['change_high'])) for r in rows))} pp"


def _budget_words(rows: list[dict], roles_alike: bool, fair: float | None = None) -> str:
    """What one budget's changes say: the clear ones by size, largest first (with where each seat
    moved against the fair share), then the seats with no clear change; with none clear, how large
    a change the games still allow."""
    clear = _clear_rows(rows)
    if not clear:
        return (f"no seat's win share changes clearly (changes of up to {bound_text(rows)} are not "
                "excluded; more games would narrow them)")
    parts = [f"{seat_text(r, roles_alike)} {change_text(r)}, {_SIZE[r['verdict']]}{_fairness(r, fair)}"
             for r in clear]
    rest = len(rows) - len(clear)
    if rest:
        parts.append(f"the other {'seat' if rest == 1 else f'{rest} seats'}: no clear change")
    return "; ".join(parts)


def _seats(rows: list[dict], roles_alike: bool) -> str:
    """"seat 1", "seats 1 and 3", "seats 1, 2 and 4" (with roles: "seat 1 (Seigneur) and …")."""
    if roles_alike:
        n = [str(r["seat"] + 1) for r in rows]
        return f"seat {n[0]}" if len(n) == 1 else "seats " + ", ".join(n[:-1]) + f" and {n[-1]}"
    n = [seat_text(r, roles_alike) for r in rows]
    return n[0] if len(n) == 1 else ", ".join(n[:-1]) + f" and {n[-1]}"


def _listed(rows: list[dict], roles_alike: bool, size: bool = True, fair: float | None = None) -> str:
    return "; ".join(f"{seat_text(r, roles_alike)} {change_text(r)}"
                     + (f", {_SIZE[r['verdict']]}{_fairness(r, fair)}" if size else "") for r in rows)


def _left(first: dict, last: dict) -> str:
    """How large a change that may no longer hold can still be on its first side, from its
    interval at the largest budget: "at most 3.3 pp in the same direction" (the earlier estimate
    is not compared with it: its own interval may reach that far)."""
    most = -last["change_low"] if first["change"] < 0 else last["change_high"]
    return f"at most {_pc(max(most, 0.0))} pp in the same direction"


def _at_largest(first: dict, last: list[dict], budget: int, roles_alike: bool,
                fair: float | None = None) -> str:
    """Whether the clear changes at the smallest budget (``first``: seat -> row) hold at the largest
    (``last``: its rows), grouped: they hold (still clear, same side), reverse (clear, the other
    side) or these games cannot tell (the interval holds 0: how much of the change may remain);
    then the seats that move there only."""
    moved = [r for r in last if r["seat"] in first and first[r["seat"]]["verdict"] != NOT_SHOWN]
    held = [r for r in moved if r["verdict"] != NOT_SHOWN and
            np.sign(r["change"]) == np.sign(first[r["seat"]]["change"])]
    turned = [r for r in moved if r["verdict"] != NOT_SHOWN and r not in held]
    unknown = [r for r in moved if r["verdict"] == NOT_SHOWN]
    out = []
    for rows, verb in ((held, "holds"), (turned, "reverses")):
        if len(rows) == 1:
            r = rows[0]
            out.append(f"At budget {budget} the change of {seat_text(r, roles_alike)} {verb}: {change_text(r)}, "
                       f"{_SIZE[r['verdict']]}{_fairness(r, fair)}.")
        elif rows:
            out.append(f"At budget {budget} the changes of {_seats(rows, roles_alike)} {verb[:-1]}: "
                       f"{_listed(rows, roles_alike, fair=fair)}.")
    if unknown:
        what = "change" if len(unknown) == 1 else "changes"
        verb = "holds" if len(unknown) == 1 else "hold"
        out.append(f"At budget {budget} these games cannot tell whether the {what} of "
                   f"{_seats(unknown, roles_alike)} {verb}: "
                   + "; ".join(f"{seat_text(r, roles_alike)} {change_text(r)}, {_left(first[r['seat']], r)}"
                               for r in unknown) + ".")
    others = _clear_rows([r for r in last if r not in moved])
    if others:
        r = others[0]
        listed = (f"{change_text(r)}, {_SIZE[r['verdict']]}{_fairness(r, fair)}" if len(others) == 1
                  else _listed(others, roles_alike, fair=fair))
        out.append(f"At budget {budget} the rules {'also move' if moved else 'move'} "
                   f"{_seats(others, roles_alike)}: {listed}.")
    if not moved and not others:
        out.append(f"At budget {budget}: {_budget_words(last, roles_alike, fair)}.")
    return " ".join(out)


def _gap_words(by_budget: dict[int, list[dict]], before_short: str, after_short: str) -> str:
    """Each table's largest gap between two seats at every budget, each with the adjusted interval
    its own table gives (at ``gap_level``, named: the level at which its trend sentence reads its
    first and last budgets; a middle budget's interval is not one the trend reads, review s58 #10):
    a description of each rules, not a comparison."""
    parts = []
    levels = set()
    for b, rows in by_budget.items():
        r = rows[0]
        if any(r.get(k) is None for k in ("before_gap", "after_gap", "before_gap_low", "after_gap_low",
                                          "gap_level")):
            return ""           # a table written without the adjusted interval: no gap described
        levels.add(r.get("gap_level"))
        # each gap as its own page prints it: the difference of the largest and smallest shares as
        # printed (analysis.skill_words.shown_gap; review s47: 11.7 pp on the trend's line, 11.8 here)
        gap_before = shown_gap([{"win_share": x["before_win_share"]} for x in rows])[0]
        gap_after = shown_gap([{"win_share": x["after_win_share"]} for x in rows])[0]
        parts.append(f"at budget {b}: {_num(gap_before)} pp ({_num(r['before_gap_low'])} to "
                     f"{_num(r['before_gap_high'])}) → {_num(gap_after)} pp "
                     f"({_num(r['after_gap_low'])} to {_num(r['after_gap_high'])})")
    level = min(levels)
    k = round(0.05 / (2 * (1 - level))) if level < 1 else 1
    family = "two budgets compared" if k <= 1 else f"two budgets of each of {k} cells compared"
    return (f"The largest gap between two seats' win shares, {before_short} → {after_short}, each "
            f"with the adjusted interval of its own table ({100 * level:.4g}%, the level its trend "
            f"sentence reads its first and last budgets at: {family}; a "
            "description of each rules, not a test of their difference: the seats' changes below "
            "are that): " + "; ".join(parts) + ".")


def _role_words(by_budget: dict[int, list[dict]]) -> str:
    """With roles: the first role's seat (the Seigneur's) at every budget, its change whether clear
    or not: the figure the game's balance turns on."""
    parts = []
    for b, rows in by_budget.items():
        r = rows[0]
        d = row_digits(r)         # 0.50% → 0.75%, as the page's table and the terminal's print it
        parts.append(f"budget {b}: {_pc(r['before_win_share'], d)}% → "
                     f"{_pc(r['after_win_share'], d)}%, {change_text(r, d)}, "
                     f"{_SIZE.get(r['verdict'], 'no clear change')}")
    role = str(by_budget[next(iter(by_budget))][0]["role"]).capitalize()
    return f"The {role}'s win share: " + "; ".join(parts) + "."


def against_words(table: pl.DataFrame, before_name: str, after_name: str,
                  roles_alike: bool = True, fair=None, only_after: list[int] = (),
                  before_short: str = "the other rules", after_short: str = "these rules") -> str:
    """The comparison in words, per cell: with seats alike, each rules' largest gap between two
    seats at every budget (described, each on its own interval); with roles, the first role's win
    share and its change at every budget; then what ``after_name``'s rules change against
    ``before_name``'s at the smallest budget (each clear change with where the seat moved against
    the fair share, ``fair``: a function of the player count, or None), whether each clear change
    holds at the largest budget, and the level of the intervals. ``only_after``: budgets played
    under ``after_name``'s rules only (said, not compared). ``table``: :func:`against`'s."""
    if table.height == 0:
        return "The two tables share no budget of any cell: nothing to compare."
    level = float(table["level"][0])
    m = table.height
    out = [f"{after_name[:1].upper() + after_name[1:]} against {before_name}, every seat searching "
           f"(changes in win share with intervals at {100 * level:.4g}%: Bonferroni over the {m} seat "
           "and budget comparisons, all holding together at 95%)."]
    if (table["change"] == 0).all() and (table["change_low"] < 0).all():
        out.append("Every seat's win share is the same under both rules at every budget: these rules "
                   "play the same games (the change has no effect on these line-ups).")
        return " ".join(out + _only_after(only_after, before_name))
    cells = list(dict.fromkeys(table["cell"].to_list()))
    for c in cells:
        ct = table.filter(pl.col("cell") == c)
        budgets = sorted(ct["budget"].unique().to_list())
        share = fair(int(ct["players"][0])) if (fair is not None and roles_alike) else None
        by_budget = {b: list(ct.filter(pl.col("budget") == b).sort("seat").iter_rows(named=True))
                     for b in budgets}
        head = (_gap_words(by_budget, before_short, after_short) if roles_alike
                else _role_words(by_budget))
        lo, hi = budgets[0], budgets[-1]
        text = (head + " " if head else "") + \
            f"At budget {lo}: {_budget_words(by_budget[lo], roles_alike, share)}."
        if c:
            text = f"In {c}, {text[:1].lower() + text[1:]}"
        for b in budgets[1:-1]:
            text += f" At budget {b}: {_budget_words(by_budget[b], roles_alike, share)}."
        if hi != lo:
            first = {r["seat"]: r for r in by_budget[lo]}
            text += " " + _at_largest(first, by_budget[hi], hi, roles_alike, share)
        out.append(text)
    return " ".join(out + _only_after(only_after, before_name))


def _only_after(only_after, before_name: str) -> list[str]:
    if not only_after:
        return []
    return [f"Budget{'s' if len(only_after) > 1 else ''} {', '.join(map(str, only_after))} "
            f"{'were' if len(only_after) > 1 else 'was'} not played under {before_name}: not "
            "compared (play them there with balance skill --budgets to compare them)."]
