"""How a panel before/after prints one row's change: the row's before and after, its change and its
interval over the family, at the decimals the table of every cell prints them
(:func:`row_print`, :func:`interval_digits`), a clear change's interval cut at 0 where Holm shows
its sign but that wider (Bonferroni) interval still holds 0 (:func:`shown_range`). One set of
functions for every page that prints such a change: the panel before/after (:mod:`reports.panel`,
``balance report BASE_PANEL VARIANT_PANEL``) and a panel tune's 'How each cell responds'
(:mod:`reports.sweep`, whose figures docs/sweep.md says are the before/after's: review s59 fx229 #1,
the tune page printed "+1.38 pp (−0.14 to +2.90), clear" beside the before/after's "+1.38 pp (0.0
to +2.9 pp)" for the same games). A row is a dict with the before/after's columns (``before``,
``after``, ``diff``, ``size_low``, ``size_high``, ``significant``, ``verdict``, ``cell``, and
``metric``, ``games_before``, ``games_after`` where known).

May import the standard library, :mod:`analysis` (its constants) and :mod:`reports.text`.
"""

from __future__ import annotations

from reports.text import pct


def _printed_change(before: float, after: float, change: float, d: int) -> str:
    """A change beside its before and after printed at ``d`` decimals (all three in the same unit,
    pp or turns), signed: the change rounded at ``d`` where the printed after − before is that;
    else at one decimal fewer where the printed after − before rounds to it there (1.73 → 0.78 pp
    beside −1.0, for a change of −0.955: at 2 decimals the difference of the printed values, −0.95,
    is not the change's −0.96); else the difference of the printed values (a change on a half),
    within one unit of its last decimal. So the printed after − before, rounded to the change's
    decimals, is the printed change, and the change of the data rounds to it (review s42 K #8). A
    change is never printed as none at fewer decimals."""
    from reports.text import rounded, signed

    b, a = rounded(before, d), rounded(after, d)
    for k in (d, d - 1):
        if k >= 1 and rounded(a - b, k) == rounded(change, k) and (k == d or rounded(change, k) != 0):
            return signed(change, k)
    return signed(rounded(a - b, d), d)


def shown_range(r: dict) -> tuple[float, float]:
    """The interval over the family a row of the comparison is shown with: for a change Holm calls
    clear, its Bonferroni interval on the change's side of 0, the range its size was read on
    (:func:`reports.text.size_range`: Holm shows the sign even where that wider interval still
    holds 0, review N #1); otherwise the interval as it is. ``comparison.csv`` keeps the
    interval's own ends (``size_low``, ``size_high``)."""
    from reports.text import size_range

    clear = bool(r.get("significant")) and r.get("verdict") is not None
    return size_range(r["diff"], r["size_low"], r["size_high"], clear)


def _change(r: dict, smallest: float) -> str:
    """A cell's change with its interval over the family (:func:`shown_range`), as the table of every
    cell prints them (:func:`comparison_table`, :func:`_row_print`): the interval at the decimals at
    which no end prints on the wrong side of 0 or of the smallest difference for its verdict
    (review M #11: "+1.0 to +2.3 pp, clear, may matter" for a low end of 0.97), the table's (review
    s42 K #8: "(−2.973 to −1.138 pp)" in the lead beside "−3.0 to −1.1 pp" in the table), and the
    change as the table prints it beside the row's before and after (review s42 A #1: "+1.5 pp" in
    the lead beside "31.0% | 32.4% | +1.4 pp" in the table for a change of 1.45 pp)."""
    return f"{r['cell']} {change_with_interval(r, smallest)}"


def change_with_interval(r: dict, smallest: float) -> str:
    """:func:`_change` without the cell: ``+1.38 pp (0.0 to +2.9 pp)``."""
    from reports.text import pp_ci

    lo, hi = shown_range(r)
    _, _, change = _row_print(r, smallest)
    return f"{change} ({pp_ci(lo, hi, _interval_digits(r, smallest))})"


def _interval_digits(r: dict, smallest: float) -> int:
    """The decimals of a row's interval over the family (:func:`shown_range`):
    :func:`reports.text.verdict_digits`, the table's and the lead's."""
    from reports.text import verdict_digits

    return verdict_digits(*shown_range(r), smallest)


def _as_metric(r: dict) -> dict | None:
    if None in (r.get("before"), r.get("after"), r.get("diff")):
        return None
    return {"metric": "seat_win_share", "kind": "proportion", "base": r["before"], "variant": r["after"],
            "diff": r["diff"]}


#: the most decimals a before/after's share is printed with beside its change (review s42 K #8:
#: "35.033% → 32.978%" beside "30.7%" in one column, a precision 3,000 games do not have)
LEVEL_DIGITS = 2


def _row_print(r: dict, smallest: float) -> tuple[int, int, str]:
    """(the decimals of a row's before and after, of its change, the change as printed: ``+0.4
    pp``) in the table of every cell (:func:`comparison_table`) and the lead (:func:`_change`).
    The before and after print at 1 decimal, or at 2 where 1 does not make the printed after −
    before the change rounded (:func:`reports.text.common_digits`, at most 1 more: "24.7% → 24.9%
    (+0.3 pp)" becomes "24.71% → 24.95% (+0.24 pp)"), or where the interval needs 2 not to print an
    end as 0 (:func:`_interval_digits`); 3 only for a share that would print as 0% or 100% without
    being it (0.004%), never for precision (review s42 K #8). The change is the change of the
    data rounded (a half away from zero) at the levels' decimals where the printed after − before
    is that, else at one decimal fewer where the printed after − before rounds to it there
    ("0.37% → 0.73%, +0.4 pp" for 11 and 22 games of 3,000: at 2 decimals the difference of the
    printed levels, 0.36, is not the change's 0.37 at any number of decimals); only where neither
    holds (a change on a half), the difference of the printed levels, within one unit of the last
    decimal of the change (:func:`_printed_change`). So a printed after − before, rounded to the
    change's decimals, is the printed change, and the change in ``comparison.csv`` rounds to it."""
    from reports.text import common_digits, pp, rounded

    m = _as_metric(r)
    v = _interval_digits(r, smallest) if r.get("verdict") is not None and r.get("size_low") is not None else 1
    if m is None:
        return 1, v, ("" if r.get("diff") is None else pp(r["diff"], v))
    d = max(common_digits([m], more=LEVEL_DIGITS - 1), min(v, LEVEL_DIGITS))
    # a share that is neither 0% nor 100% never prints as one (review S #2, N #8): 3 decimals there
    while d < 3 and any(0 < 100 * x < 100 and rounded(100 * x, d) in (0.0, 100.0) for x in (r["before"], r["after"])):
        d += 1
    text = _printed_change(100 * r["before"], 100 * r["after"], 100 * r["diff"], d)
    k = len(text.split(".", 1)[1]) if "." in text else 0
    return d, k, f"{text} pp"


def _decimals(x: float) -> int:
    """The decimals that show ``x`` (a number of percent or pp) with 2 significant digits when it is
    below 0.1, 1 otherwise, at most 3: 0.015, 0.005, 0.8."""
    import math

    return 1 if not 0 < abs(x) < 0.1 else min(3, 1 - math.floor(math.log10(abs(x))))


def _share(x: float) -> str:
    """A small share at the decimals that keep it from printing as 0: ``0.015%``, ``0.8%``; a half
    rounded away from zero as the tables round it (:func:`reports.text.pct`: 25.45% is 25.5%, as
    simulate's closing line prints it, not 25.4%, review s42 A #1)."""
    return f"{pct(x, _decimals(100 * x))}%"


def _share_at(x: float, d: int, games: int | None = None) -> str:
    """A row's before or after in the table of every cell (:func:`comparison_table`): at ``d``, the
    decimals at which the row's printed after − before is its change (:func:`reports.text.
    metric_digits`), or, at 1, a small share at the decimals that keep it from printing as 0
    (:func:`_share`). Given the ``games`` it is a share of, a share that is neither 0% nor 100% at
    least at the decimals the panel page prints it with (:func:`_rare_share_digits`; a share of
    none of the games stays "0.0%")."""
    from reports.text import metric_value

    if games and 0 < x < 1:
        d = max(d, _rare_share_digits(x, games))
        return metric_value(x, "seat_win_share", "proportion", d)
    return _share(x) if d <= 1 else metric_value(x, "seat_win_share", "proportion", d)


def _rare_share_digits(x: float, games: int) -> int:
    """The decimals of a win share of ``games`` games as the panel page prints it beside its 95%
    Wilson interval (:func:`reports.text.pct_ci`, whose rule :func:`reports.text.pct_ci_digits`
    is, at most 3 decimals). A side that won 1 game of 20,000 under both rules read "0.01% before
    and after" here, "0.005% (0.001–0.028)" on the panel page (review s56 B)."""
    from analysis.stats import wilson
    from reports.text import pct_ci_digits

    lo, hi = wilson(x * games, games)
    return pct_ci_digits(x, float(lo), float(hi))


def _games_of(r: dict, x: float) -> int | None:
    """The games a row's before (``x`` is it) or after is a win share of, when it is one (not a
    seat's share of its role's wins, a ratio)."""
    from analysis.panel_compare import SPLIT_METRIC

    if r.get("metric") == SPLIT_METRIC:
        return None
    n = r.get("games_before") if x is r.get("before") else r.get("games_after")
    return int(n) if n else None


#: what a page says when a clear change's interval is cut at 0 (:func:`shown_range`)
CUT_AT_ZERO = ("a clear change's interval is cut at 0 where Holm shows its sign but that wider "
               "(Bonferroni) interval still holds 0: the range on the change's side of 0 its size is "
               "read on")

# the public names (the panel page keeps its private ones)
printed_change = _printed_change
change_text = _change
interval_digits = _interval_digits
row_print = _row_print
share_at = _share_at
games_of = _games_of

__all__ = ["CUT_AT_ZERO", "LEVEL_DIGITS", "change_text", "change_with_interval", "games_of", "interval_digits", "printed_change", "row_print",
           "share_at", "shown_range"]
