"""Presenting a check's result: plain sentences, the terminal report, Markdown and JUnit XML.

:func:`explain` says in one sentence what happened to a metric (and after how many games it was
decided); :func:`status_line` and :func:`text_report` are the terminal output
of ``balance check``, :func:`markdown_summary` the CI job summary, :func:`junit_xml` the report for
CI test reporters; :func:`write_reports` writes the last two (``--junit``, ``--summary``). Last
module of :mod:`analysis.check`: nothing in the package imports it. May import the standard library,
:mod:`analysis.stats` (the 95% critical value, Newcombe's interval), :mod:`analysis.check.decision` (the results it
presents), :mod:`analysis.check.measure` (units), :mod:`analysis.rules_diff` (how a setting is
written), :mod:`analysis.export` (atomic writes), :mod:`analysis.compare` (a rare share's factor interval), :mod:`simcore.numbers` (the tables' rounding) and :mod:`simcore.errors`. Every output leads with
the verdict and what the checked rules change (:func:`rules_lead`, :func:`rules_change_lines`):
the terminal report's first line, the ``--quiet`` line, the summary and a JUnit property; a FAIL
line also says what the win shares none of which failed did (:func:`_shares_not_failed`). A metric
that passes with its change beyond its tolerance (:func:`beyond_tolerance`: the procedure may pass a
change between the tolerance and twice it) says so in its row (:func:`verdict_cell`), the PASS line,
a sentence under the table, the summary and JUnit, with the tolerance that would gate it
(:func:`halve_text`; :func:`halve_advice`: or the baseline games that tolerance needs, when
``balance baseline`` would refuse it on this baseline; in paired mode the file's line alone, which a
paired check takes on any baseline). :func:`junit_xml` replaces the characters XML 1.0 does not
allow (:func:`xml_safe`). :func:`report_parts` gives the terminal report in parts (lines, table,
lines) for ``cli.check`` to lay out at a terminal's width. A change
that rounds to zero is written ``0.00``, without a sign (:func:`_signed`, the rule of
:func:`reports.text.signed`, which this layer may not import). A metric's baseline, run value and
change print at one precision (:func:`_digits`: two decimals, more for a rare share) and the change
printed is the difference of the two values printed (:func:`shown_diff`,
:func:`simcore.numbers.printed_difference`), wherever it is said (session 56 review: "124.26 vs 110.14:
+14.11", "25.0% → 25.2%, +0.14 pp").
"""

from __future__ import annotations

import math
import re
import time
from pathlib import Path
from xml.etree import ElementTree as ET

from analysis import stats
from analysis.check.decision import DEFAULT_BETA, DETECT, CheckResult, MetricResult, game_title
from analysis.check.measure import diff_unit_of, unit_of
from analysis.rules_diff import value_text
from simcore.atomic import signed_file
from simcore.errors import UsageError
from simcore.numbers import factor_ends, printed_difference, rounded, share_digits


def _fmt(x: float, unit: str, digits: int | None = None) -> str:
    """A value in the check's output: win shares to 0.1 % where no change is printed beside them
    (:func:`factor_note`), else at ``digits`` (a metric's :func:`_digits`, the change's precision:
    session 56 review, "25.0% → 25.2%, +0.14 pp"); scores (``unit`` anything else: the score unit,
    or "" for an interval's ends) to two decimals, as their change is printed, so that "5.45 → 5.43"
    reads as the −0.02 beside it (revA #16: "5.5 → 5.4 … −0.02 guild cards" read as −0.1). Rounded
    as the report's tables round (:func:`simcore.numbers.rounded`, halves away from zero as written:
    a baseline's 32.55 % is 32.6 %, as ``balance report`` prints the run it measured; review C #7,
    session 42: the check printed 32.5 %)."""
    if unit == "%":
        d = _share_digits(x) if digits is None else digits
        return f"{rounded(x, d):.{d}f}%"
    d = 2 if digits is None else digits
    return f"{rounded(x, d):.{d}f}"


def _digits(r: MetricResult) -> int:
    """The decimals a metric's baseline, run value (with its interval) and change print with: two,
    the change's (a score's, and a share's in pp); for a share more, up to four, while one of them
    that is not 0% or 100% would print as it (:func:`simcore.numbers.share_digits`: "0.0048%" of a
    rare share is "0.005%", not "0.00%")."""
    if r.kind.unit != "%":
        return 2
    return share_digits(*(x for x in (r.base, r.value, r.low, r.high) if x is not None), digits=2)


def shown_diff(r: MetricResult) -> float:
    """A metric's change as printed: its run value minus its baseline, each rounded at
    :func:`_digits` (:func:`simcore.numbers.printed_difference`), so that the three printed numbers add up
    (session 56 review: "124.26 vs 110.14: +14.11" for 110.144 and 124.256); the change itself
    where a value is missing."""
    if not (math.isfinite(r.value) and math.isfinite(r.base)):
        return r.diff
    return printed_difference(r.value, r.base, _digits(r))


def _change(r: MetricResult) -> str:
    """A metric's change as printed beside its values: :func:`shown_diff` at :func:`_digits`."""
    return _signed(shown_diff(r), _digits(r))


def _all_metrics(n: int) -> str:
    """"all 5 metrics", "the one metric" (not "all 1 metrics")."""
    return "the one metric" if n == 1 else f"all {n:,} metrics"


def _share_digits(*xs: float) -> int:
    """Decimals for win shares in %: one, more (up to four) while a share that is not 0% or 100%
    would print as it ("0.0% (0.0–0.0)" for a rare share: review s53). The rule is
    :func:`simcore.numbers.share_digits` (since session 55, where the skill sentences use it too)."""
    return share_digits(*xs)


def _signed(x: float, digits: int = 2) -> str:
    """A change with its sign, ``+0.33`` / ``-0.12``; one that rounds to zero is ``0.00``, with
    neither sign ("-0.00" read as a loss), the rule of :func:`reports.text.signed` (which the
    analysis layer may not import; the check keeps its ASCII minus)."""
    text = f"{rounded(x, digits):+.{digits}f}"
    return f"{0:.{digits}f}" if float(text) == 0 else text


def _span(lo: float, hi: float, smallest: float | None = None, to: str = " to ") -> str:
    """A change's interval, "-1.84 to -0.02": two decimals, more (up to four) while an end that is
    not 0 would print as 0.00, or one that is not the smallest difference that matters would print
    as it (review s53 #5: "change -1.84 to 0.00 pp" for an upper end of -0.015, which excludes 0)."""
    marks = [0.0] + ([abs(smallest)] if smallest else [])

    def blurred(x: float, d: int) -> bool:
        return any(abs(x) != m and rounded(abs(x), d) == m for m in marks if x == x)

    d = 2
    while d < 4 and (blurred(lo, d) or blurred(hi, d)):
        d += 1
    return f"{_signed(lo, d)}{to}{_signed(hi, d)}"


def _ends(lo: float, hi: float, unit: str, digits: int | None = None) -> str:
    """An interval's ends, e.g. "30.4–32.0" (shares; both ends with the decimals the one nearer 0%
    or 100% needs: "0.00–0.04"; ``digits``: the value's beside it, :func:`_digits`) or "5.40–5.49"
    (scores)."""
    if unit == "%":
        d = _share_digits(lo, hi) if digits is None else digits
        return f"{rounded(lo, d):.{d}f}–{rounded(hi, d):.{d}f}"
    return f"{_fmt(lo, unit)}–{_fmt(hi, unit)}"


def diff_interval(r: MetricResult, paired: bool = False) -> tuple[float, float]:
    """The 95 % interval of the change printed beside a metric.

    A win share against a baseline: Newcombe's square-and-add (:func:`analysis.stats.newcombe`)
    from the run's own interval (``low``/``high``, Wilson's, printed beside it) and the baseline's
    (``base_low``/``base_high``), then held to [−baseline, 100 − baseline] (a share cannot fall
    below 0% nor rise above 100%). So it holds the run's interval minus the baseline (the run's
    "0.0% (0.0–3.7)" beside "0.4% in the baseline" allows +3.3 pp) and no change that cannot be:
    review S #3, where diff ± 1.96 · diff_se read "change −1.82 to +0.94 pp" from a baseline of
    0.44%, a symmetric interval made of the error the test floors for a rare share
    (:func:`analysis.check.measure.tested_se`; the floor is the test's, not an interval). The hold
    moves an end by at most the baseline's own half-width: at a run share of 0 Newcombe's low end
    is −(the baseline's high end), a fall possible only were the baseline's true share above the
    value the change is read from.

    A mean score: ``diff ± 1.96 · diff_se``, the run's and the baseline's errors together.
    ``paired``: the mean paired difference's, ``diff ± 1.96 · diff_se`` whatever the metric (the
    differences of the same deals are not two independent shares)."""
    z = stats.z_quantile()
    if not paired and r.kind.unit == "%" and r.low == r.low and r.base_low == r.base_low:
        lo, hi = stats.newcombe(r.value, r.low, r.high, r.base, r.base_low, r.base_high)
        full = r.kind.scale                 # 100%: the whole of a share
        return max(float(lo), -r.base), min(float(hi), full - r.base)
    se = r.diff_se if r.diff_se == r.diff_se and r.diff_se >= 0 else 0.0
    return r.diff - z * se, r.diff + z * se


def _p_text(p: float) -> str:
    if p != p:
        return "p = nan"
    return f"p = {p:.2g}" if p > 0 else "p < 1e-300"


def _fmt_tol(t: float) -> str:
    return f"±{t:.1f}" if abs(t * 10 - round(t * 10)) < 1e-9 else f"±{t:g}"


def _games(n: int | None) -> str:
    return f"{n:,} games" if n is not None else "the last look"


def size_words(r: MetricResult, smallest: float | None, game: str | None = None,
               interval_said: bool = False, alone: bool = False, paired: bool = False) -> str:
    """How large the measured change is against the smallest difference that matters (the
    baseline's ``[smallest_difference]``, or ``--smallest-difference``), judged by the change's own
    95% interval (:func:`diff_interval`: Newcombe's for a share against a baseline, ``diff ± 1.96 ·
    diff_se`` for a score or, ``paired``, a paired difference), not its estimate alone: clearly at least that
    difference (the interval beyond it, on one side), smaller (the interval inside it), or not
    told apart by these games (with that interval, unless ``interval_said``: the sentence gives it
    already); "" when not known. ``alone``: the metric is undecided, so "at least" is said to be
    read on this interval alone (the decision reads a stricter, adjusted bound: review L #11)."""
    if smallest is None or not smallest > 0 or r.diff != r.diff:
        return ""
    unit = diff_unit_of(r.metric, game)
    verb = "matters" if smallest == 1 else "matter"
    what = f"the {smallest:g} {unit} that {verb}"
    lo, hi = diff_interval(r, paired)
    if lo >= smallest or hi <= -smallest:
        if alone:       # the interval named must be on the line (review M #7: only the run's was)
            shown = "" if interval_said else f" (change {_span(lo, hi, smallest)} {unit})"
            return f"; on this interval alone{shown}, at least {what}"
        return f"; at least {what}"
    if -smallest < lo and hi < smallest:
        return f"; smaller than {what}"
    if interval_said:       # the sentence already gives this interval (paired mode): not twice
        return f"; these games cannot tell whether it reaches {what}"
    return f"; these games cannot tell whether it reaches {what} (change {_span(lo, hi, smallest)} {unit})"



def explain(r: MetricResult, paired: bool = False, stopped: bool = False, game: str | None = None,
            smallest: float | None = None, beta: float = DEFAULT_BETA, *,
            limited_by: int | None = None, more: str = "a larger --games may",
            n_metrics: int | None = None, alpha: float | None = None, halve: str = "") -> str:
    """One plain sentence on a metric, e.g. "Seat 1 wins 31.2% (30.4–32.0) vs 25.0% in the baseline:
    +6.20 pp, beyond the ±1.0 accepted (shown after 4,000 games)."; ``stopped``: the check stopped
    at a regression before this metric was decided; ``game`` names the score unit (coins for
    Middle-Ages). A pass says what the procedure guarantees: a change of twice the tolerance or more
    passes with probability at most ``beta``; a change between the tolerance and twice it (the
    indifference zone) may pass, so a pass is not said to be "within the tolerance".

    An undecided metric says what would decide it: ``more`` (played: "a larger --games may"; a
    RUN: "a larger run may") and, when the baseline's own error limits this metric
    (``limited_by``: the baseline games that would lift it, :attr:`CheckResult.limited`), that
    more games are limited by it and a baseline of how many games would not be; that a change
    between the tolerance and twice it is the slowest to decide is said only when this change
    lies there (revH #4: it was said of +0.14 against ±1.0).

    An undecided metric's interval is its own 95% interval, read once (unadjusted); the decision
    reads the sequential test, whose error is held at ``alpha`` over the ``n_metrics`` metrics and
    every look, a stricter bound: so the sentence says "on this interval alone" of its size and,
    with ``n_metrics``, why such an interval does not decide (review L #11). ``stopped``: the check
    stopped because another metric failed, before this one reached a decision.

    A metric that passes with its change beyond its tolerance (:func:`beyond_tolerance`) says so,
    whether its interval lies wholly beyond it, and why it passes: the check fails a change only
    when it is shown nearer twice the tolerance than the tolerance (review P #1); ``halve``: the
    clause advising this metric's tolerance halved, to gate a change of its tolerance
    (:func:`halve_advice`: the edit, or the baseline such a tolerance needs)."""
    unit = unit_of(r.metric, game)
    dunit = diff_unit_of(r.metric, game)
    d = _digits(r)          # the values at the change's precision, the change their difference
    if r.metric == "seat_mean_score":
        what = f"{r.key} scores {_fmt(r.value, unit, d)} {unit} on average"
    elif r.metric == "role_win_share":
        what = f"The {r.label.removesuffix(' side win share')} side wins {_fmt(r.value, unit, d)}"
    else:
        who = r.key if r.metric == "seat_win_share" else f"Strategy {r.key}"
        what = f"{who} wins {_fmt(r.value, unit, d)}"
    open_ = r.verdict == "undecided"
    if paired:
        # the paired difference is what is tested: its interval, not the new rules' own (revA #16),
        # said once (size_words would repeat it)
        lo, hi = diff_interval(r, paired=True)
        head = (f"{what} vs {_fmt(r.base, unit, d)} with the old rules on the same deals: "
                f"{_change(r)} {dunit} (95% interval of the paired difference "
                f"{_span(lo, hi, smallest)}){size_words(r, smallest, game, interval_said=True, alone=open_, paired=True)}")
    else:
        head = (f"{what} ({_ends(r.low, r.high, unit, d)}) vs {_fmt(r.base, unit, d)} in the baseline: "
                f"{_change(r)} {dunit}{size_words(r, smallest, game, alone=open_)}")
    # why an interval beyond the tolerance need not decide (review L #11)
    stricter = (f", which reads a stricter bound than this metric's own unadjusted 95% interval "
                f"(the error held at alpha {alpha if alpha is not None else 0.05:g} over "
                f"{_all_metrics(n_metrics)} and every look)" if n_metrics else "")
    tol = _fmt_tol(r.tolerance)
    big = _fmt_tol(DETECT * r.tolerance)
    if r.verdict == "fail":
        # the change's own 95% interval beside it, as a pass or an undecided metric has (review AB
        # #6: the one a reader cares most about had none); paired, the head holds it already
        if not paired:
            lo, hi = diff_interval(r, paired)
            head = (f"{what} ({_ends(r.low, r.high, unit, d)}) vs {_fmt(r.base, unit, d)} in the baseline: "
                    f"{_change(r)} {dunit} (95% interval of the change "
                    f"{_span(lo, hi, smallest)} {dunit}){size_words(r, smallest, game, interval_said=True, alone=open_)}")
        return f"{head}, beyond the {tol} accepted (shown after {_games(r.decided_games)})."
    if r.verdict == "pass" and beyond_tolerance(r):
        # review P #1: "+4.50 coins ±3.5 pass" with no word on why a change beyond the tolerance
        # passes; its interval is said here (size_words is told so, not to say it twice)
        lo, hi = diff_interval(r, paired)
        wholly = "lies wholly beyond it" if lo > r.tolerance or hi < -r.tolerance else "reaches within it"
        if not paired:
            head = (f"{what} ({_ends(r.low, r.high, unit, d)}) vs {_fmt(r.base, unit, d)} in the baseline: "
                    f"{_change(r)} {dunit}{size_words(r, smallest, game, interval_said=True)}")
        gate = (f". For a change of {tol} {dunit} to pass with at most a {100 * beta:g}% chance, "
                f"{halve}" if halve else "")
        shown = "" if paired else f", {_span(lo, hi, smallest)} {dunit},"   # paired: in head
        if reached_twice(r):
            # review s53 #2: "a change of ±3.38 or more is ruled out" beside +3.32 (+2.81 to +3.90),
            # decided after 90 games of the 4,770 played: the later games are said, not denied
            return (f"{head}; beyond its {tol} tolerance (the change's 95% interval{shown} {wholly}), "
                    f"yet passes: it was decided after {_games(r.decided_games)}, and the "
                    f"{r.n:,} measured by the end put the change at twice its tolerance ({big}) "
                    f"or more, so this pass does not rule such a change out; check again with "
                    f"another --seed (a larger --batch decides on more games){gate}.")
        return (f"{head}; beyond its {tol} tolerance (the change's 95% interval{shown} {wholly}), yet passes: the check fails a change only when it "
                f"is shown to be nearer twice its tolerance ({big}) than its tolerance, and a change "
                f"of {big} or more is ruled out (at most a {100 * beta:g}% chance of passing one), "
                f"decided after {_games(r.decided_games)}{gate}.")
    if r.verdict == "pass":
        return (f"{head}; passes: a change of {big} or more is ruled out (at most a {100 * beta:g}% chance "
                f"of passing one; changes between {tol} and {big} may pass), decided after "
                f"{_games(r.decided_games)}.")
    if stopped:
        return (f"{head}; not decided when the check stopped at the first regression: another "
                f"metric failed before this one reached its decision{stricter}.")
    zone = (f" (this change lies between {tol} and {big}, where a check is slowest to decide)"
            if r.tolerance <= abs(shown_diff(r)) <= DETECT * r.tolerance else "")
    remedy = more
    if limited_by is not None:
        remedy += (f", though this baseline's own error limits what more games can tell (a baseline "
                   f"of {limited_by:,} games or more would lift that limit)")
    why = (f" (the decision reads a stricter bound than this metric's own unadjusted 95% "
           f"interval: the error held at alpha {alpha if alpha is not None else 0.05:g} over "
           f"{_all_metrics(n_metrics)} and every look)" if n_metrics else "")
    return (f"{head}; the games played cannot tell yet whether this is beyond the {tol} "
            f"accepted{zone}{why}: {remedy}.")


def stopped_early(res: CheckResult) -> bool:
    """Whether a check stopped at its first regression before some metric was decided: a played
    check (looks, batch after batch) that failed before its maximum number of games. A check of a
    run directory is one look at all its games: a metric it leaves undecided was not stopped by
    another (review S: "not decided when the check stopped at the first regression" after one look
    at 4,000 of 4,000 games)."""
    return bool(res.failed) and bool(res.looks) and res.games < res.max_games


def _explain(res: CheckResult, r: MetricResult, beta: float | None = None) -> str:
    """:func:`explain` of one of ``res``'s metrics, with everything the result knows: paired mode,
    whether the check stopped at a regression, the game, the smallest difference that matters,
    whether the baseline limits the metric and how more games would be had."""
    limited = getattr(res, "limited", None) or []
    return explain(r, res.paired, stopped_early(res), res.baseline.game, _smallest(res)(r),
                   res.beta if beta is None else beta,
                   limited_by=(getattr(res, "baseline_games_needed", None)
                               if r.label in limited else None),
                   more="a larger --games may" if res.looks or res.paired else "a larger run may",
                   n_metrics=len(res.results), alpha=res.alpha,
                   halve=halve_advice(res, r) if beyond_tolerance(r) else "")


def reached_twice(r: MetricResult) -> bool:
    """A metric that passed with its change, measured on every game played by the end, at twice
    its tolerance or more: decided at an early look (a direction's decision is kept), then the
    games played for the other metrics moved its estimate there. Rare since the test floors a
    share's error at its hypotheses' (:func:`analysis.check.decision.hypothesis_error`), but its
    line must not then say such a change is ruled out (review s53 #2)."""
    return (r.verdict == "pass" and r.diff == r.diff
            and abs(shown_diff(r)) >= rounded(DETECT * r.tolerance, 2))


def beyond_tolerance(r: MetricResult) -> bool:
    """A metric that passes with its change, as printed (:func:`shown_diff`), beyond its tolerance:
    the procedure passes a change between the tolerance and twice it when it is shown nearer the
    tolerance than twice it (docs/ci.md §3), so "pass" beside such a change needs its words."""
    return r.verdict == "pass" and r.diff == r.diff and abs(shown_diff(r)) > r.tolerance


#: The ``balance baseline`` option that sets exactly one kind's tolerance (``--tolerance`` sets the
#: seat, strategy and role win shares together: a role's or a strategy's advice names its own key).
_OPTION_OF = {"seat_win_share": "--tolerance", "seat_mean_score": "--score-tolerance"}
#: The kinds each option sets (cli.check's ``_tolerances``).
_OPTION_SETS = {"--tolerance": ("seat_win_share", "strategy_win_share", "role_win_share"),
                "--score-tolerance": ("seat_mean_score",)}


def _own_block(res: CheckResult, r: MetricResult):
    return next((m for m in getattr(res.baseline, "metrics", []) if m.metric == r.metric
                 and m.key == r.key and m.tolerance is not None), None)


def halve_text(res: CheckResult, r: MetricResult, short: bool = False) -> str:
    """How to set ``r``'s tolerance to half its value (so that a change of its present tolerance
    is one of twice the new one: failed with probability at least 1 − β): the metric's own
    ``tolerance =`` line when its ``[[metric]]`` block has one, else its kind's line under
    ``[tolerance]`` and, for a kind one ``balance baseline`` option sets alone (seat win shares,
    mean scores: :data:`_OPTION_OF`), that option; ``short``: the option alone where there is one,
    else the line (review C #3, session 42: a role's advice was ``--tolerance``, which halves every
    seat's too)."""
    half = f"{r.tolerance / 2:g}"
    base = res.baseline
    name = Path(str(base.path)).name
    if _own_block(res, r) is not None:
        return f"tolerance = {half} in its [[metric]] block of {name}"
    option = _OPTION_OF.get(r.metric)
    line = f"{r.metric} = {half} under [tolerance] in {name}"
    if option is None:
        return line
    if short:
        return f"balance baseline {option} {half}"
    return f"{line} (balance baseline {option} {half})"


def _file_line(res: CheckResult, r: MetricResult) -> str:
    """The baseline file's line that halves ``r``'s tolerance (:func:`halve_text` without the
    ``balance baseline`` option)."""
    half = f"{r.tolerance / 2:g}"
    name = Path(str(res.baseline.path)).name
    if _own_block(res, r) is not None:
        return f"tolerance = {half} in its [[metric]] block of {name}"
    return f"{r.metric} = {half} under [tolerance] in {name}"


def halved_baseline_games(res: CheckResult, r: MetricResult, short: bool = False) -> int | None:
    """None when ``balance baseline`` accepts ``r``'s tolerance halved as :func:`halve_text` says
    (the metric's own block; its kind's line; with ``short`` and an option, every kind the option
    sets) on this baseline's measurements, by the rule it applies
    (:func:`analysis.check.decision.baseline_games_for`); else the baseline games it asks for
    (``r``'s own need when ``r`` is refused, as balance baseline words it)."""
    from analysis.check.decision import baseline_games_for

    base = res.baseline
    metrics = list(getattr(base, "metrics", []) or [])
    if not metrics or not hasattr(base, "tolerances"):
        return None
    half = r.tolerance / 2
    own = _own_block(res, r)
    option = _OPTION_OF.get(r.metric)
    kinds = (_OPTION_SETS[option] if short and option else (r.metric,))
    tols = []
    for m, t in zip(metrics, base.tolerances()):
        if own is not None:
            tols.append(half if m is own else t)
        else:
            tols.append(half if m.metric in kinds and m.tolerance is None else t)
    refused = baseline_games_for(metrics, tols, getattr(base, "alpha", res.alpha), res.beta,
                                 games=getattr(base, "games", None))
    if not refused:
        return None
    # this metric's own need when it is refused (what balance baseline names, refusing it), else
    # the largest of the others the edit halves
    mine = next((i for i, m in enumerate(metrics) if (m.metric, m.key) == (r.metric, r.key)), None)
    return refused.get(mine, max(refused.values()))


def halve_advice(res: CheckResult, r: MetricResult, short: bool = False) -> str:
    """The clause advising ``r``'s tolerance halved: "halve the tolerance (balance baseline
    --tolerance 0.5)" when ``balance baseline`` accepts that on this baseline
    (:func:`halved_baseline_games`), else how many games a baseline needs for it (review C #3,
    session 42: the advice was refused on the baseline it was given for)."""
    if res.paired:
        # paired mode reads the old rules on the same deals, not the baseline's error: balance
        # baseline's refusal (and the baseline size it asks for) says nothing of it (review s61
        # #6: "needs a baseline of about 115,784 games" where a paired check of 0.5 ran and
        # decided at 54,000 games); the file's own line, which a paired check takes as it is
        return (f"halve this tolerance in the baseline file: {_file_line(res, r)} (a check with "
                f"--against-rules reads no baseline error, so it takes it on this baseline)")
    need = halved_baseline_games(res, r, short)
    if need is None:
        text = halve_text(res, r, short)
        return f"halve the tolerance ({text})" if short else f"halve this tolerance: {text}"
    game = res.baseline.game
    unit = diff_unit_of(r.metric, game)
    return (f"the tolerance must be halved to {_fmt_tol(r.tolerance / 2)} {unit}, which needs a "
            f"baseline of about {need:,} games (balance baseline refuses it on this one of "
            f"{res.baseline.games:,})")


#: Rule settings named in the verdict line; the report, the summary and JUnit list every one.
LEAD_SHOWN = 3


def _changes_compared(res: CheckResult) -> str:
    return "the old rules (--against-rules)" if res.paired else "the baseline"


def rules_lead(res: CheckResult) -> str:
    """What the verdict line says the rules change, before anything else: "rules differ from the
    baseline: effects.caserne_payment 2 → 4" (in paired mode "new rules against the old:" …, what
    the paired differences measure), the first :data:`LEAD_SHOWN` settings and how many more;
    when the rules differ but a rules text is not known, their sha256 and why the settings cannot
    be listed. "" when the rules are the same (the same sha256, or the same settings with other
    comments or layout): then the line says nothing extra."""
    changes = res.rules_changes
    if res.paired:
        if not changes:
            return ""
        return f"new rules against the old on the same deals: {_listed(changes)}"
    if not res.rules_changed or changes == []:
        return ""
    if changes is None:
        sha = str(res.run_meta.get("rules_sha256", ""))
        why = ("this run's rules text is not recorded" if not res.run_meta.get("rules_text") else
               "the baseline records no rules text and its rules file has changed since it was "
               "measured (regenerate it with balance baseline)")
        return (f"rules differ from the baseline: sha256 {sha[:12]}… against {res.baseline.rules_sha256[:12]}…; "
                f"the settings cannot be listed, {why}")
    return f"rules differ from the baseline: {_listed(changes)}"


def unread_clause(res: CheckResult) -> str:
    """"settings not read at 3 players: track.goal.4 10 → 11": the settings the checked rules change
    that the baseline's player count does not read (:attr:`CheckResult.rules_unread`), said where
    no setting it reads changed (then :func:`rules_lead` says nothing: the games are the
    baseline's; review s61 #1, a 3-player cell said "rules differ … track.goal.4 10 → 11"). ''
    otherwise."""
    unread = getattr(res, "rules_unread", None) or []
    if not unread or res.paired or res.rules_changes:
        return ""
    return f"settings not read at {res.baseline.players} players: {_listed(unread)}"


def verdict_lead(res: CheckResult) -> str:
    """What the verdict line says in brackets before anything else: the rules changed
    (:func:`rules_lead`) or only settings the player count does not read (:func:`unread_clause`),
    the strategy files edited since the baseline measured them (:attr:`CheckResult.bots_changed`,
    review s61 #2) and the metrics left out (:func:`left_out_clause`), '' for none."""
    bots = getattr(res, "bots_changed", None)
    edited = (f"strategy file{'s' if len(bots) > 1 else ''} edited since the baseline: "
              f"{', '.join(b.split(' (sha256')[0] for b in bots)}" if bots else "")
    return "; ".join(x for x in (rules_lead(res), unread_clause(res), edited, left_out_clause(res))
                     if x)


def left_out_clause(res: CheckResult) -> str:
    """"not checked: Seat 1 (Seigneur) mean score, its goal changed": the baseline's metrics this
    check left out (:attr:`CheckResult.left_out`, the mean scores whose goal the checked rules move),
    said on the verdict line itself, the one line ``--quiet`` prints (review s58 #1: only a ``note:``
    line said it, so a quiet PASS of a change whose scores went untested read as a full pass).
    '' when every metric of the baseline is checked."""
    if not res.left_out:
        return ""
    names = res.left_out
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" and {names[-1]}"
    return f"not checked: {listed}, {'its goal' if len(names) == 1 else 'their goals'} changed"


def _listed(changes: list) -> str:
    more = len(changes) - LEAD_SHOWN
    return "; ".join(c.inline for c in changes[:LEAD_SHOWN]) + (
        f"; and {more} more setting{'s' if more != 1 else ''}" if more > 0 else "")


def rules_change_lines(res: CheckResult) -> list[str]:
    """Every rule setting the checked rules change, one ``path: before → after`` each (the report's
    rules diff, :mod:`analysis.rules_diff`); [] when the same or not known."""
    if not rules_lead(res) or not res.rules_changes:
        return []
    return [c.text for c in res.rules_changes]


def status_line(res: CheckResult, lead: bool = True, cell: bool = False) -> str:
    """:func:`_status_core`'s line, with the rare shares that moved by a factor of 1.25 or more, its
    interval excluding 1 (:func:`factor_note`: worded "may matter", no claim of a large factor) under every verdict (review s61 #1: an UNDECIDED or FAIL line, 0.39% →
    1.04% of games over 128,000, said it only as a table row)."""
    return _status_core(res, lead, cell) + factor_note(res)


def _factor_of(res: CheckResult, r: MetricResult) -> tuple[float, float, float] | None:
    """(factor, low, high) of a share's move, its 95 % interval from the games: the run's and the
    baseline's independent (:func:`analysis.compare.factor_interval`, exact conditional), or in
    paired mode the two rule sets on the same deals (:func:`analysis.compare.
    paired_factor_interval`: the delta method on the log factor from the paired counts, adjusted
    by one win, a win's size read from the units: one game of a rotated deal, session 62; review
    s61 #1: paired mode never said 0.41% → 1.06% on the same deals); None when not known."""
    from analysis.compare import factor_interval, paired_factor_interval

    if not (r.base_n > 0 and r.n > 0):
        return None
    x1, x2 = r.base / r.kind.scale * r.base_n, r.value / r.kind.scale * r.n
    if res.paired:
        if r.pair_se is None:
            return None
        k = r.kind.scale
        # each side's own error gives the size of a win in units (a deal of k games: 1/k; s62)
        ends = paired_factor_interval(r.base / k, r.value / k, r.pair_se / k, r.n,
                                      se_old=r.base_se / k, se_new=r.se / k)
        return None if ends is None else (r.value / r.base, *ends)
    x1, x2 = round(x1), round(x2)
    if x1 <= 0 or x2 <= 0:
        return None
    low, high = factor_interval(x1, float(r.base_n), x2, float(r.n))
    return (x2 / r.n) / (x1 / r.base_n), low, high


def factor_note(res: CheckResult) -> str:
    """"; Seigneur side win share went from 0.41% to 0.83% of games (+0.42 pp): under the 1 pp
    that matters, but 2.0 times as often (95% interval 1.5 to 2.7 times)" — a share whose change
    is under the smallest difference that matters while the share itself is under it on one side,
    moved by a factor of 1.25 or more, its 95 % interval excluding 1 (:func:`_factor_of`; review
    s53 #2: a doubled Seigneur share read as a bare PASS, where the report of the same runs said
    "1.9 times as often"). In paired mode "on the same deals", the factor of the two paired shares.
    The values print at the change's precision, the change their difference (review s61 #1:
    "0.4% to 1.0%" beside a change of 0.65 pp). The largest such factor; '' when none."""
    best = None
    for r in res.results:
        smallest = _smallest(res)(r)
        if r.kind.unit != "%" or smallest is None or r.diff != r.diff:
            continue
        if not (min(r.base, r.value) < smallest and abs(shown_diff(r)) < smallest):
            continue
        found = _factor_of(res, r)
        if found is None:
            continue
        factor, low, high = found
        up = factor >= 1.25 and low > 1.0
        down = factor <= 0.8 and high < 1.0
        if (up or down) and (best is None or abs(math.log(factor)) > abs(math.log(best[1]))):
            best = (r, factor, low, high)
    if best is None:
        return ""
    r, factor, low, high = best
    f, lo, hi = (factor, low, high) if factor > 1 else (1 / factor, 1 / high, 1 / low)
    how = "as often" if factor > 1 else "less often"
    d = _digits(r)
    where = " on the same deals" if res.paired else ""
    # the interval rounded outward, as the pages print it (simcore.numbers.factor_ends): an end
    # that excludes 1 is never printed as 1.0 ("3.0 times less often (95% interval 1.0 to 6.0
    # times)" for a low end of 1.02), and the ends printed hold the interval computed (session 64:
    # "1.2 to 2.1" for 1.184 to 2.101, where the before/after page of the same runs said 1.1 to 2.2)
    return (f"; {r.label} went from {_fmt(r.base, '%', d)} to {_fmt(r.value, '%', d)} of games{where} "
            f"({_change(r)} pp): under the {_smallest(res)(r):g} pp that matters, but {f:.1f} times "
            f"{how} (95% interval {factor_ends(lo, hi)} times), which may matter for a share this small")


def _status_core(res: CheckResult, lead: bool = True, cell: bool = False) -> str:
    """The verdict in one line, led by the verdict and what changed in the rules
    (:func:`rules_lead`, e.g. "FAIL (rules differ from the baseline: effects.caserne_payment 2 → 4):
    …") with any metric left out (:func:`verdict_lead`), then what decided it: the failing metrics and their changes; for a pass, what was ruled
    out (a change of twice each metric's tolerance, the procedure's pass condition) and the largest
    change measured. ``lead=False`` leaves the rules out (a panel's cells, whose head line says
    them once); ``cell``: a panel's cell, whose line says no exit code of its own."""
    n = len(res.results)
    at = f"after {res.games:,} of at most {res.max_games:,} games"
    game = res.run_meta.get("game")
    said = verdict_lead(res) if lead else ""
    head = lambda verdict: f"{verdict} ({said}): " if said else f"{verdict}: "  # noqa: E731
    ratio = lambda r: abs(r.diff / r.tolerance) if r.tolerance > 0 else 0.0  # noqa: E731
    if res.verdict == "fail":
        # the largest against its tolerance first: in file order a Seigneurial cell's Seigneur side
        # +60.48 pp was folded into "and 4 more" behind three Censitaire seats (s42 review A #3)
        failed = sorted(res.failed, key=ratio, reverse=True)
        moved = "; ".join(f"{r.label} {_change(r)} {diff_unit_of(r.metric, game)} against "
                          f"{_fmt_tol(r.tolerance)} accepted" for r in failed[:3])
        more = f"; and {len(res.failed) - 3} more" if len(res.failed) > 3 else ""
        order = ", the largest against its tolerance first" if len(res.failed) > 1 else ""
        moved_words = (f"{len(res.failed)} of {n} metrics moved beyond their tolerance" if n > 1 else
                       "the one metric checked moved beyond its tolerance")
        return (f"{head('FAIL')}{moved_words} ({at}){order}: "
                f"{moved}{more}{_scores_together(res, game)}{_shares_not_failed(res)}")
    if res.verdict == "undecided":
        # which ones, as a FAIL names its metrics (s42 review A #12: the designer had to rerun with
        # --summary to learn them)
        open_ = sorted(res.undecided, key=ratio, reverse=True)
        named = "; ".join(f"{r.label} {_change(r)} {diff_unit_of(r.metric, game)} so far, "
                          f"{_fmt_tol(r.tolerance)} accepted" for r in open_[:3])
        more = f"; and {len(open_) - 3} more" if len(open_) > 3 else ""
        # what "not decided" means beside a change already past its tolerance (-3.58 against ±2.0,
        # review K #5: "none is yet shown nearer twice …" read as a contradiction)
        said = (f"{head('UNDECIDED')}"
                + (f"{len(res.undecided)} of {n} metrics not decided" if n > 1 else "the one metric checked not decided")
                + f" {at} "
                f"({named}{more}); these games cannot yet tell whether each is within its "
                f"tolerance or nearer twice it, the bar for a FAIL")
        if not cell:
            return said + " (exit code 3)"
        # a panel's cell: the command's exit code is the panel's (1 when another cell failed), and
        # the single check's note on a baseline too small for more games to help is said here too
        limit = next((x for x in res.notes if x.startswith("this baseline's own error")), "")
        return said + (f"; {limit}" if limit else "")
    top = max(res.results, key=ratio, default=None)
    ruled_out = (f"{head('PASS')}no metric moved by twice its tolerance or more (ruled out for all {n}, "
                 f"each with at most a {res.beta:.0%} chance of passing such a change, {at})")
    if late := [r for r in res.results if reached_twice(r)]:
        # review s53 #2: a metric decided early whose later games reach twice its tolerance
        top = max(late, key=ratio)
        ruled_out = (f"{head('PASS')}every metric passed ({at}), but {len(late)} of the {n} passed on "
                     f"an early look and the games played by the end put "
                     f"{'its' if len(late) == 1 else 'the largest one’s'} change at twice its "
                     f"tolerance or more ({top.label} {_change(top)} "
                     f"{diff_unit_of(top.metric, game)} against {_fmt_tol(top.tolerance)}): this pass "
                     f"does not rule that out; check again with another --seed")
    beyond = [r for r in res.results if beyond_tolerance(r)]
    if beyond:
        # review P #1: passes beside changes beyond their tolerance, said with their numbers
        top = max(beyond, key=ratio)
        unit = diff_unit_of(top.metric, game)
        k = len(beyond)
        # "estimated": the change measured, not a change shown (review C #3, session 42: "moved" was
        # said of an unchanged configuration whose interval reached well within the tolerance)
        moved = (f"{k} of the {n} are estimated beyond their tolerance and pass" if k > 1 else
                 f"1 of the {n} is estimated beyond its tolerance and passes")
        largest = "the largest" if k > 1 else "that one"
        return (f"{ruled_out}; but {moved}: the check fails a change only when it is shown to be "
                f"nearer twice its tolerance than its tolerance; {largest}: {top.label} "
                f"{_change(top)} {unit} against {_fmt_tol(top.tolerance)} (twice it "
                f"{_fmt_tol(DETECT * top.tolerance)}){size_words(top, _smallest(res)(top), game, paired=res.paired)}; for "
                f"a change of {_fmt_tol(top.tolerance)} {unit} to pass with at most a {res.beta:.0%} "
                f"chance, {halve_advice(res, top, short=True)}")
    # sized against the smallest difference that matters, as the FAIL sentences are (revA #16)
    if top is None:
        return ruled_out
    unit = diff_unit_of(top.metric, game)
    size = size_words(top, _smallest(res)(top), game, paired=res.paired)
    if size.startswith("; these games cannot tell"):
        # a PASS rules out twice the tolerance, not the smallest difference that matters: said as
        # what a pass leaves open, not as "PASS … cannot tell" in one breath (designer review #17)
        lo, hi = diff_interval(top, res.paired)
        smallest = _smallest(res)(top)
        verb = "matters" if smallest == 1 else "matter"
        return (f"{ruled_out}; smaller changes may pass: the largest here, {top.label} "
                f"{_change(top)} {unit} against {_fmt_tol(top.tolerance)} accepted (change "
                f"{_span(lo, hi, smallest)} {unit}), may or may not reach the {smallest:g} {unit} "
                f"that {verb}")
    return f"{ruled_out}; the largest change: {top.label} {_change(top)} {unit} against " \
           f"{_fmt_tol(top.tolerance)} accepted{size}"


#: The win-share kinds a FAIL line sums up when none of them failed, and their names there.
SHARE_KINDS = {"seat_win_share": "seat win shares", "strategy_win_share": "strategy win shares",
               "role_win_share": "role win shares"}


def _scores_together(res: CheckResult, game: str | None) -> str:
    """A FAIL on a seat's mean score where every seat's mean score moved the same way (review V #8:
    more Palais income raised every seat's coins, and the line read as one seat's regression):
    " (every seat's mean score rose, +2.87 to +5.14 coins: the scores moved together, as a change
    of what the game pays does; the win shares say whether the seats' balance moved)", unless a
    seat's win share moved beyond its tolerance by its estimate; "" else."""
    scores = [r for r in res.results if r.metric == "seat_mean_score" and r.diff == r.diff]
    if not any(r.verdict == "fail" for r in scores) or len(scores) < 2:
        return ""
    if not (all(r.diff > 0 for r in scores) or all(r.diff < 0 for r in scores)):
        return ""
    # not when a seat's win share moved beyond its tolerance by its estimate (review AB #2: −0.57 to
    # −7.84 coins, seat 1 gaining +4.7 pp of win share, undecided when the check stopped, was said
    # to be "a change of what the game pays")
    shares = [r for r in res.results if r.metric == "seat_win_share" and r.diff == r.diff]
    if any(abs(r.diff) > r.tolerance for r in shares):
        return ""
    lo, hi = sorted((min(shown_diff(r) for r in scores), max(shown_diff(r) for r in scores)), key=abs)
    way = "rose" if scores[0].diff > 0 else "fell"
    unit = diff_unit_of("seat_mean_score", game)
    return (f" (every seat's mean score {way}, {_signed(lo)} to {_signed(hi)} {unit}: the scores moved "
            "together, as a change of what the game pays does; the win shares say whether the seats' "
            "balance moved)")


def _shares_not_failed(res: CheckResult) -> str:
    """What a FAIL line adds on the win shares when none of a kind failed (a CI log shows that
    line alone; "4 of 8 metrics moved … mean score …" left unsaid that every seat's win share
    passed): " — seat win shares: all 4 passed (largest change +0.33 pp)", or that none failed and
    how many passed, the others not decided; "" for a kind with a failure (the line lists it) or
    no metric."""
    parts = []
    for kind, name in SHARE_KINDS.items():
        rs = [r for r in res.results if r.metric == kind]
        if not rs or any(r.verdict == "fail" for r in rs):
            continue
        passed = sum(r.verdict == "pass" for r in rs)
        when = " when the check stopped" if res.looks else ""
        if passed == len(rs):
            status = "passed" if len(rs) == 1 else f"all {len(rs)} passed"
        elif passed == 0:
            status = f"none failed, none decided{when}"
        else:
            status = f"none failed, {passed} of {len(rs)} passed, the others not decided{when}"
        top = max(rs, key=lambda r: abs(r.diff) if r.diff == r.diff else -1.0)
        parts.append(f"{name}: {status} (largest change {_change(top)} pp)")
    return (" — " + "; ".join(parts)) if parts else ""


def panel_report(pc, quiet: bool = False) -> list[str]:
    """The output of ``balance check --baseline DIR`` (a panel, :class:`analysis.check.panel.PanelCheck`):
    the panel's verdict first, with what the checked rules change when every cell changes the same
    settings (said once there, not on every cell's line), or in how many cells they differ (then
    each cell's line says how); then one verdict line per cell. ``quiet``: the first line only."""
    leads = [verdict_lead(r) for r in pc.results]
    same = len(set(leads)) == 1
    if same:
        lead = leads[0] if leads else ""
    else:
        # a cell whose changed settings its player count does not read plays the baseline's rules
        k = sum(1 for r in pc.results if rules_lead(r) or left_out_clause(r))
        lead = (f"rules differ from the baseline in {k} of {len(leads)} cells, each cell's line "
                f"says how") if k else ("every cell plays the baseline's rules as its player count "
                                        "reads them, each cell's line says which settings it does not read")
    head = pc.text(lead)
    if quiet:
        return [head]
    return [head] + [f"{label}: {status_line(r, lead=not same, cell=True)}"
                     for label, r in zip(pc.labels, pc.results)]


def _run_line(res: CheckResult) -> str:
    m = res.run_meta
    sha = str(m.get("rules_sha256", ""))
    same = "same as the baseline" if not res.rules_changed else "DIFFERENT from the baseline"
    # the game's title, not its command name (review C #8, session 42: "games of seigneurial")
    return (f"{int(m.get('games', 0)):,} games of {game_title(m.get('game'))}, {m.get('players')} "
            f"players, seed {m.get('seed')}, rules {m.get('rules_name', '?')} (sha256 {sha[:12]}…, {same})")


def _procedure_line(res: CheckResult) -> str:
    what = "paired differences new − old rules" if res.paired else "run − baseline"
    return (f"procedure: sequential probability ratio test per metric on {what} (fail: shown nearer "
            f"twice the tolerance than the tolerance, alpha {res.alpha:g} over "
            f"{_all_metrics(len(res.results))}; pass: twice the tolerance ruled out, beta {res.beta:g}; "
            f"a change between the "
            f"two may pass or fail); stops when every metric is decided or one fails")


def _head(paired: bool) -> list[str]:
    """The table's columns: against a baseline, this run's value with its own 95 % interval and the
    change; in paired mode both rule sets' values and the tested paired difference with its
    interval (a rule set's own interval is not what is tested there)."""
    if paired:
        return ["metric", "old rules", "new rules", "diff (95% interval)", "tolerance", "verdict"]
    return ["metric", "baseline", "this run (95%)", "diff", "tolerance", "verdict"]


def _row_cells(r: MetricResult, game: str | None = None, paired: bool = False) -> list[str]:
    u = unit_of(r.metric, game)
    du = diff_unit_of(r.metric, game)
    d = _digits(r)
    if paired:
        lo, hi = diff_interval(r, paired=True)
        cells = [_fmt(r.value, u, d), f"{_change(r)} {du} ({_span(lo, hi)})"]
    else:
        cells = [f"{_fmt(r.value, u, d)} ({_ends(r.low, r.high, u, d)})", f"{_change(r)} {du}"]
    return [r.label, _fmt(r.base, u, d), *cells, _fmt_tol(r.tolerance), verdict_cell(r)]


def verdict_cell(r: MetricResult) -> str:
    """The verdict column: ``FAIL``, ``undecided``, ``pass``, or for a pass beside a change beyond
    its tolerance ``pass (beyond ±3.5, under ±7.0)`` (review P #1: a bare "pass" read as within
    it); "under" only while the change is under twice the tolerance."""
    if r.verdict == "fail":
        return "FAIL"
    if not beyond_tolerance(r):
        return r.verdict
    under = (f", under {_fmt_tol(DETECT * r.tolerance)}" if abs(shown_diff(r)) < DETECT * r.tolerance
             else "")
    return f"pass (beyond {_fmt_tol(r.tolerance)}{under})"


#: The table's left-aligned columns (the metric and the verdict); the others are numbers.
LEFT_COLUMNS = (0, 5)


def report_parts(res: CheckResult) -> tuple[list[str], list[str], list[list[str]], list[str]]:
    """The terminal output of ``balance check`` in its parts: the lines above the table, the
    table's head and rows (cells as text; :data:`LEFT_COLUMNS` left-aligned), and the lines under
    it. :func:`text_report` joins them as plain text; ``cli.check`` lays them out for a terminal
    (the table fitted to its width, the sentences wrapped at word boundaries)."""
    head = _head(res.paired)
    rows = [_row_cells(r, res.baseline.game, res.paired) for r in res.results]
    # the verdict and what changed in the rules first: the line a reader (and a CI log) sees first
    above = [status_line(res), f"  balance check against {res.baseline.path}",
             f"  run: {res.run_path}", f"       {_run_line(res)}", f"  {_procedure_line(res)}"]
    changed = rules_change_lines(res)
    if changed:
        above.append(f"  rule settings changed from {_changes_compared(res)} ({len(changed)}):")
        above += [f"    {c}" for c in changed]
    above += [f"  note: {n}" for n in res.notes]
    below = []
    if res.undecided:
        below.append(f"  {_verdicts_note(res)}")
    beyond = [r for r in res.results if beyond_tolerance(r)]
    if res.failed or res.undecided or beyond:
        below.append("")
    for r in res.failed:
        below.append(f"  - {_explain(res, r)}")
    for r in res.undecided:
        below.append(f"  ? {_explain(res, r)}")
    for r in beyond:        # passed beside a change beyond its tolerance: why (review P #1)
        below.append(f"  ! {_explain(res, r)}")
    note = _smallest_note(res)
    if note:
        below.append(f"  {note}")
    return above, head, rows, below


def text_report(res: CheckResult) -> str:
    """The terminal output of ``balance check`` as plain text (one line per sentence: a CI log, a
    pipe; :func:`report_parts`)."""
    above, head, rows, below = report_parts(res)
    width = [max(len(x) for x in col) for col in zip(head, *rows)]
    fmt = lambda cells: "  ".join(c.ljust(w) if i in LEFT_COLUMNS else c.rjust(w)  # noqa: E731
                                  for i, (c, w) in enumerate(zip(cells, width))).rstrip()
    lines = [*above, "", "  " + fmt(head), *("  " + fmt(r) for r in rows), *below]
    return "\n".join(lines) + "\n"


def _verdicts_note(res: CheckResult) -> str:
    """Under the table when a metric is undecided (review L #11): the intervals shown are each
    metric's own, unadjusted; the verdicts are the sequential test's, adjusted over the metrics, so
    an interval beyond the tolerance may sit beside "undecided"."""
    why = (" or was stopped by the first regression before it was decided" if stopped_early(res) else "")
    return (f"the 95% intervals are each metric's own (unadjusted); the verdict column is the "
            f"sequential test's, which holds the error at alpha {res.alpha:g} over "
            f"{_all_metrics(len(res.results))} and every look: a metric whose interval lies beyond its "
            f"tolerance is undecided when that stricter bound was not yet crossed{why}")


def _smallest(res: CheckResult):
    base = res.baseline
    return (lambda r: base.smallest_of(r.metric)) if hasattr(base, "smallest_of") else (lambda r: None)


def _smallest_note(res: CheckResult) -> str:
    """Which smallest differences the sentences above use, and where they come from."""
    base = res.baseline
    if not hasattr(base, "smallest_of"):
        return ""
    metrics = list(dict.fromkeys(r.metric for r in res.results))
    parts = []
    for m in metrics:
        text = f"{base.smallest_of(m):g} {diff_unit_of(m, base.game)}"
        if text not in parts:
            parts.append(text)
    where = "this check's --smallest-difference or the baseline's [smallest_difference]" \
        if base.smallest else "the game's defaults"
    return f"smallest difference that matters: {', '.join(parts)} ({where})"


def markdown_summary(res: CheckResult) -> str:
    """A Markdown summary for a CI job (GitHub's $GITHUB_STEP_SUMMARY)."""
    icon = {"pass": "✅", "fail": "❌", "undecided": "⚠️"}[res.verdict]
    lines = [f"## {icon} balance check: {res.verdict.upper()}", "",
             f"{status_line(res)}.", "",
             f"- **baseline**: `{res.baseline.path}` ({res.baseline.games:,} games, seed "
             f"{res.baseline.seed}, rules `{res.baseline.rules}`, sha256 `{res.baseline.rules_sha256[:12]}`)",
             f"- **this run**: {_run_line(res)}",
             f"- **{_procedure_line(res)}**"]
    changed = rules_change_lines(res)
    if changed:
        lines.append(f"- **rule settings changed** from {_changes_compared(res)}: "
                     + "; ".join(f"`{c.path}` {value_text(c.before)} → {value_text(c.after)}"
                                 for c in res.rules_changes))
    for n in res.notes:
        lines.append(f"- ⚠️ **note**: {n}")
    lines += ["", "| " + " | ".join(_head(res.paired)) + " |", "|---|---:|---:|---:|---:|---|"]
    for r in res.results:
        c = _row_cells(r, res.baseline.game, res.paired)
        mark = {"pass": f"✅ {c[5]}", "fail": "❌ **FAIL**", "undecided": "⚠️ undecided"}[r.verdict]
        lines.append(f"| {c[0]} | {c[1]} | {c[2]} | {c[3]} | {c[4]} | {mark} |")
    if res.undecided:
        lines += ["", _verdicts_note(res)[0].upper() + _verdicts_note(res)[1:] + "."]
    beyond = [r for r in res.results if beyond_tolerance(r)]
    if res.failed or res.undecided or beyond:
        lines.append("")
    for r in res.failed:
        lines.append(f"- ❌ {_explain(res, r)}")
    for r in res.undecided:
        lines.append(f"- ⚠️ {_explain(res, r)}")
    for r in beyond:
        lines.append(f"- ✅ {_explain(res, r)}")
    return "\n".join(lines) + "\n"


def junit_xml(res: CheckResult) -> str:
    """JUnit XML: one testcase per metric; failures are metrics beyond tolerance, and the metrics
    left undecided are ``<skipped message=…>`` (revF #13): CI test reporters show an ``<error>`` as a
    broken test, and an undecided metric is neither broken nor a regression, it was not decided
    (because the check stopped at the first regression, or at the maximum number of games: then
    the check exits 3, which is what fails or lets through the CI step). No ``<error>`` is written."""
    m = len(res.results)
    failures = len(res.failed)
    skipped = len(res.undecided)
    suite = ET.Element("testsuite", name=f"balance check {res.baseline.path.name}", tests=str(m),
                       failures=str(failures), errors="0", skipped=str(skipped),
                       timestamp=time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime()))
    props = ET.SubElement(suite, "properties")
    for name, value in (("baseline", str(res.baseline.path)), ("run", res.run_path),
                        ("games", str(res.games)), ("max_games", str(res.max_games)),
                        ("seed", str(res.run_meta.get("seed"))),
                        ("rules_sha256", str(res.run_meta.get("rules_sha256"))),
                        ("baseline_rules_sha256", res.baseline.rules_sha256),
                        ("rules_changed", str(res.rules_changed).lower()), ("alpha", f"{res.alpha:g}"),
                        ("beta", f"{res.beta:g}"), ("paired", str(res.paired).lower()),
                        ("verdict", res.verdict)):
        ET.SubElement(props, "property", name=name, value=value)
    lead = rules_lead(res)
    if lead:       # what changed in the rules, as the verdict line says it; nothing for the same rules
        changed = rules_change_lines(res)
        ET.SubElement(props, "property", name="rules_changes",
                      value="; ".join(changed) if changed else lead)
    for r in res.results:
        case = ET.SubElement(suite, "testcase", classname=f"balance.check.{r.metric}", name=r.label,
                             time="0")
        text = _explain(res, r)
        if r.verdict == "fail":
            ET.SubElement(case, "failure", message=text, type="regression").text = text
        elif r.verdict == "undecided":
            ET.SubElement(case, "skipped", message=text).text = text
        else:
            ET.SubElement(case, "system-out").text = text
    out = ET.SubElement(suite, "system-out")
    out.text = "\n".join([status_line(res), _run_line(res), _procedure_line(res),
                          *(f"rule setting changed: {c}" for c in rules_change_lines(res)), *res.notes])
    root = ET.Element("testsuites", name="balance check", tests=str(m), failures=str(failures),
                      errors="0", skipped=str(skipped))
    root.append(suite)
    ET.indent(root)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n' + JUNIT_SIGN + "\n"
            + xml_safe(ET.tostring(root, encoding="unicode")) + "\n")


#: Characters XML 1.0 does not allow anywhere in a document (ElementTree writes them as they are):
#: the control characters but tab, newline and carriage return, lone surrogates, U+FFFE and U+FFFF.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_safe(text: str) -> str:
    """``text`` with every character XML 1.0 does not allow replaced by U+FFFD (review s61 #7: a
    rules string holding U+0001 in an event name made a JUnit file no parser reads). Markup
    characters are escaped by ElementTree before; a replaced character was never markup."""
    return _NOT_XML.sub("\ufffd", text)


#: The comment that marks a JUnit file as written by ``balance check``: such a file is replaced by
#: the next check without ``--force``; any other file at that path is not.
JUNIT_SIGN = "<!-- written by balance check (balance-toolkit) -->"
#: What --force may replace at --junit: a JUnit report balance check wrote (simcore.atomic.FileKind).
JUNIT_FILE = signed_file("a JUnit report of balance check", JUNIT_SIGN)


def write_reports(res: CheckResult, junit: str | Path | None = None,
                  summary: str | Path | None = None, force: bool = False) -> None:
    """``--junit``: replaced atomically; ``--summary``: appended (as $GITHUB_STEP_SUMMARY expects)."""
    from analysis.export import write_text_atomic

    if junit is not None:
        write_text_atomic(junit, junit_xml(res), force=force, option="--junit", own_sign=JUNIT_SIGN,
                          replaces=JUNIT_FILE)
    if summary is not None:         # (the one appending writer: a Markdown file, on a line of its own)
        from simcore.atomic import append_text

        p = Path(summary)
        if str(summary) == "-":                                   # standard output
            append_text("-", markdown_summary(res), "--summary")
            return
        if p.is_dir():
            raise UsageError(f"--summary {p}: is a directory (give a file name)")
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"--summary {p}: cannot write ({exc.strerror})") from None
        append_text(p, markdown_summary(res), "--summary")



__all__ = ["unread_clause", "LEAD_SHOWN", "LEFT_COLUMNS", "beyond_tolerance", "explain", "halve_advice", "halve_text", "junit_xml",
           "left_out_clause", "markdown_summary", "panel_report", "report_parts", "rules_change_lines", "rules_lead",
           "status_line", "text_report", "verdict_cell", "verdict_lead", "write_reports"]
