"""How a number is rounded where it is written: one rule for the command line and the reports.

:func:`rounded` is the rule ``balance report`` prints with (:mod:`reports.text` imports it), and
``simulate``'s closing table (:mod:`cli.progress`) too, so that a win share of exactly 0.25375
reads 25.38% in both (review P #7: 25.37% in one, 25.38% in the other). Here, below the reports,
so that a run's closing table does not import the report's text module (polars and the analysis
package: 0.2-0.3 s of CPU at every run's end).

Also :func:`singular`, a unit's name for exactly one of it ("1 guild card"), here so that the
analysis layer's sentences (a panel sweep's) and the reports' use one rule; and :func:`factor_ends`,
a factor's 95% interval rounded outward ("1.04 to 1.82 times"), which the reports and ``balance
check``'s note print alike.

May import the standard library only.
"""

from __future__ import annotations

import math
import re
from decimal import ROUND_HALF_DOWN, ROUND_HALF_UP, Decimal


def rounded(x: float, d: int) -> float:
    """``x`` rounded to ``d`` decimals as it is written, halves away from zero: 31.0735 → 31.074
    (the binary 31.0735 lies just under it and printed as 31.073, while 30.0455 printed as
    30.046: the two rounded in opposite directions, and their difference missed the change's)."""
    if not math.isfinite(x):
        return x
    return float(Decimal(f"{x:.12g}").quantize(Decimal(1).scaleb(-d), rounding=ROUND_HALF_UP))


def fair_gap(share: float, fair: float, d: int) -> float:
    """The gap of a win share from a reference share (the fair share 1/P, an equal split of a
    role's wins, a role's average seat, the average Censitaire), both in percent, as a page prints
    it at ``d`` decimals (in pp): the difference rounded, one value for one gap wherever it is
    printed (review s61 fix 258 #2: "Seat 2 (+11.2 pp)" in one headline and "objective … +11.3 pp"
    in the next for one gap of 44.57% − 33.33% = 11.24 pp, the second the printed share minus the
    printed 33.3%; ±11.56 pp printed +11.5 and −11.6 beside an average seat of 49.96% printed
    50.0%). A half rounds up (toward +∞, as a share's half does), so that against a reference the
    page prints exactly (25%, 50%) the gap is still the printed share minus it: 24.525% is "24.53%"
    and "−0.47 pp", not the exact −0.475 rounded away from zero to −0.48 (review s55 #1). Against a
    reference that does not print exactly (a third: 33.3%) the printed share minus the printed
    reference may differ from the gap by one in the last decimal. Two measured values printed side
    by side with their difference: :func:`printed_difference`."""
    if not (math.isfinite(share) and math.isfinite(fair)):
        return share - fair
    x = share - fair
    # (the difference's text at 12 significant digits, as rounded() reads a share, so that a binary
    # 0.47499999… of an exact half rounds as the half it is)
    half = ROUND_HALF_UP if x >= 0 else ROUND_HALF_DOWN
    return float(Decimal(f"{x:.12g}").quantize(Decimal(1).scaleb(-d), rounding=half)) + 0.0


def printed_difference(a: float, b: float, d: int) -> float:
    """``a − b`` of two measured values printed side by side at ``d`` decimals with their difference
    (a card's share with it and without it, a tile type's highest and lowest share, founders and
    others, a check's value and its baseline): the printed ``a`` minus the printed ``b``, so that
    the three printed numbers add up (session 56 review: "27.37% … 24.15%" beside "+3.21 pp" read as
    a slip). A gap from a reference share: :func:`fair_gap`."""
    if not (math.isfinite(a) and math.isfinite(b)):
        return a - b
    return rounded(rounded(a, d) - rounded(b, d), d)


def verdict_digits(low: float, high: float, smallest: float, scale: float = 100.0, digits: int = 1,
                   most: int = 3) -> int:
    """The decimals an interval printed beside its verdict needs: ``digits``, or more (up to
    ``most``) while an end would print as 0 or as ± the smallest difference that matters without
    being it, so that every printed end lies on the side of 0 and of that difference its verdict
    was read from ("−0.3 to 0.0 pp, clear but small" beside "−0.1 to 0.0 pp, within noise" reads as
    a contradiction; at two decimals, −0.32 to −0.02 against −0.14 to +0.01, it does not).
    ``scale`` is what the printed numbers are multiplied by (100 for shares in pp). Here, below
    every layer, so that the analysis's sentences and the reports' apply the one rule. An end is
    read as it prints (:func:`rounded`, halves away from zero): −0.95 pp prints "−1.0", though
    Python's ``round`` gives −0.9 (review s61 fix 266 #1)."""
    marks = (0.0, scale * smallest, -scale * smallest)
    ends = [scale * x for x in (low, high) if x is not None and math.isfinite(x)]
    d = digits
    while d < most and any(rounded(x, d) == m and abs(x - m) > 1e-12 for x in ends for m in marks):
        d += 1
    return d


def share_digits(*percents: float, digits: int = 1, most: int = 4, significant: int = 1) -> int:
    """The decimals a win share (and its interval's ends) in percent print with: ``digits``, more
    (up to ``most``) while one that is not 0% or 100% would print as it ("0.0% (0.0–0.0)" for a
    Seigneur winning 3 of 20,000 games, review s53: "0.015% (0.005–0.044)"; a 97.5% interval from
    0.04% printed "0.5% (0.0 to 2.1)" in the skill section, session 55). ``balance check``'s rule
    for rare shares (:func:`analysis.check.presentation._share_digits`), here below every layer so
    that the analysis's sentences and the reports' apply it alike. NaN is left out.

    ``significant``: more while one would print with fewer significant digits than that, counted
    on its distance from 0% or from 100%, whichever is nearer (2: "0.031%" and "99.958%", where
    "0.03% → 0.04%, +0.01 pp" read a change of +0.004 pp as mostly rounding: session 56); 1 is the
    rule above, and a share from 1% to 99% has 2 at one decimal."""
    least = 10 ** (significant - 1)

    def short(x: float, d: int) -> bool:
        if x != x or x in (0.0, 100.0):
            return False
        shown = rounded(x, d)             # (as printed: 99.95 prints 100.0 at one decimal)
        return round(min(abs(shown), abs(100.0 - shown)) * 10 ** d) < least
    d = digits
    while d < most and any(short(x, d) for x in percents):
        d += 1
    return d


def signed(x: float, digits: int = 1) -> str:
    """``+2.9`` / ``−2.9`` (the minus typographic); a value that rounds to zero is ``0.0``, with
    neither sign ("−0.0" reads as a loss, "+0.0" as a gain: review U #15, session 55). Rounded as
    the tables round (:func:`rounded`). :func:`reports.text.signed` is this one, here below every
    layer so that the analysis's sentences write a change as the reports do."""
    text = f"{rounded(x, digits):+.{digits}f}"
    if float(text) == 0:
        return f"{0:.{digits}f}"
    return text.replace("-", "−")


def change_digits(x: float, digits: int = 1, most: int = 3) -> int:
    """The decimals a change ``x`` (in the unit it is printed in: pp for shares) prints with:
    ``digits``, or more (up to ``most``) while it is not 0 but would print as 0, so that a change
    that is not zero never reads as none ("+0.0 pp" for 30.03% against 30.00%: "+0.03 pp"; session
    55), as :func:`verdict_digits` keeps an interval's ends off 0. A change that is 0 keeps
    ``digits`` (printed without a sign by :func:`signed`)."""
    d = digits
    while d < most and math.isfinite(x) and x != 0 and rounded(x, d) == 0:
        d += 1
    return d


_UNIT_TAIL = re.compile(r" (?:of|per) |\(")


def singular(unit: str) -> str:
    """One of a ``unit``: its head noun, the last word before any "of …", "per …" or "(…)", without
    its plural s ("guild cards" → "guild card", "player turns" → "player turn", "lead changes" →
    "lead change"); a unit whose head is not a plural as it is ("pp of own goal", "pp per tile",
    "index (1 = equal seats)"). Every unit the games declare forms its plural with a final s."""
    cut = _UNIT_TAIL.search(unit)
    head, tail = (unit[:cut.start()].rstrip(), unit[cut.start():]) if cut else (unit, "")
    if head.endswith("s"):
        head = head[:-1]
    return f"{head} {tail}".replace("  ", " ").rstrip() if tail else head


def factor_times(x: float, up: bool, sig: int = 2) -> str:
    """A factor to ``sig`` significant figures (2), rounded away from the estimate (``up``: the upper end
    of an interval up, the lower one down), so that the interval printed holds the one computed: 10.99
    → "10" below, 344.2 → "350" above, 5.85 → "5.8", 3,524 → "3,600"."""
    if not math.isfinite(x) or x <= 0:
        return "0" if x == 0 else "∞"
    d = sig - 1 - math.floor(math.log10(x))
    scale = 10.0 ** d
    v = (math.ceil(x * scale - 1e-9) if up else math.floor(x * scale + 1e-9)) / scale
    return f"{v:,.{max(d, 0)}f}"


def factor_ends(near: float, far: float) -> str:
    """A factor's 95% interval, its near end (the one closer to 1) first: "3.2 to 11 times". Where the
    near end is above 1 it never prints as 1 (review s64 #1: "1.0 to 1.9 times" beside a change
    called clear, for a near end of 1.044): up to 4 significant figures, "1.04 to 1.82 times", the
    far end under 10 then at the near end's decimals (rounded outward too). Both ends are rounded
    outward, so the interval printed holds the one computed (``balance check`` rounded them to the
    nearest before session 64: "1.2 to 2.1" for 1.184 to 2.101)."""
    sig = 2
    while sig < 4 and near > 1.0 and float(factor_times(near, False, sig).replace(",", "")) <= 1.0:
        sig += 1
    lo = factor_times(near, False, sig)
    if not math.isfinite(far):
        return f"at least {lo}"
    places = len(lo.split(".")[1]) if "." in lo else 0
    hi = (f"{math.ceil(far * 10 ** places - 1e-9) / 10 ** places:.{places}f}" if sig > 2 and far < 10
          else factor_times(far, True))
    return f"{lo} to {hi}"
