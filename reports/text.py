"""The report's words: number formats and the headline sentences every game's report has.

:func:`pct`, :func:`pct_ci`, :func:`num`, :func:`num_ci`, :func:`signed`, :func:`pp`, :func:`pvalue`
and :func:`turns` format numbers the same way in sentences and tables, so tests can check a sentence
against its table. Units are never ambiguous: a difference of two percentages is in ``pp``
(percentage points), a score in the unit the game's spec declares (:func:`score_unit`: coins,
guild cards …). :func:`headlines` builds the plain findings from the metric tables of
:func:`analysis.analyse` (seats, outcomes, game length, strategies, matchups) and asks the game's
report hook (:mod:`reports.games`) for its own sentences; "significant" is said together with what
it means there. :func:`comparison_headlines` words a before/after comparison: first the designer's
question (did the seat, or role, win rates move: yes or no, by how much; its verdicts cite their own
Holm family, the seats' or sides' win shares, :func:`row_family`, and the answer ends with the
largest clear changes of the other family that matter, :func:`largest_other_changes`), then every
metric that moved, each in its own unit (:func:`metric_unit`), each verdict citing its family; its
rows named in the game's words first (:func:`sides_named`: a seat with its role, the game length in
its game's unit, as the run page says them), and a rare share's change as a factor with its games
and that factor's exact 95% interval (:func:`factor_words`), called large only where that
interval's near end is (:func:`factor_size`). Both
lead with :func:`turn_limit_lines` when many games stopped at the turn limit
(:mod:`simcore.turn_limit`).

May import polars, the standard library, :mod:`analysis.load` (types), :mod:`analysis.stats` and
:mod:`analysis.seats` (the verdicts and the intervals their sizes are read on) and
:mod:`reports.games` (the registry lookup of a game's spec and hook), and
:mod:`simcore.numbers` (how a number is rounded where it is written, the same rule as the command
line's), :mod:`analysis.length` and :mod:`simcore.turn_limit` (games stopped at the turn limit),
:mod:`analysis.export` (a seat named with its role, as the exports name it) and
:mod:`analysis.compare` (the exact interval of a rare share's factor).
"""

from __future__ import annotations

import math
import re

import numpy as np
import polars as pl

from analysis import stats
from analysis.load import RunSet, smallest_difference
from analysis.load import score_unit as load_score_unit
from reports.games import hook_for, spec_for
from simcore import numbers
from simcore.numbers import factor_ends, factor_times, singular  # (one unit's singular, a factor's ends: here, below the analysis, for both layers)

# ---------------------------------------------------------------------------------------------
# Number formats shared by sentences and tables
# ---------------------------------------------------------------------------------------------


def pct(p: float, digits: int = 1) -> str:
    """A proportion as a percentage without the sign: 0.2791 → ``27.9``; a half rounded away from
    zero as the tables round it (:func:`simcore.numbers.rounded`: 0.28125 → 28.13 at two decimals, not
    28.12 in a sentence beside 28.13 in its table, the designer review's #10)."""
    return f"{numbers.rounded(100 * p, digits):.{digits}f}"


def _rounds_onto(x: float, to: float, digits: int) -> bool:
    """Whether ``x`` prints as ``to`` with ``digits`` decimals though it differs from it."""
    return x != to and pct(x, digits) == pct(to, digits)


def pct_some(p: float, digits: int = 1) -> str:
    """:func:`pct`, with more decimals (up to 3) where a share that is not 0 (not 1) would print as
    0 (100): 6 turn-limit games in 20,000 read "0.0%", as none did (review s46 #10): "0.03";
    below 0.0005% (0.9995+), "<0.001" (">99.999")."""
    while digits < 3 and any(_rounds_onto(p, to, digits) for to in (0.0, 1.0)):
        digits += 1
    if _rounds_onto(p, 0.0, digits):
        return "<" + pct(10.0 ** -(digits + 2), digits)
    if _rounds_onto(p, 1.0, digits):
        return ">" + pct(1 - 10.0 ** -(digits + 2), digits)
    return pct(p, digits)


def _seat_numbers_named(keys) -> str:
    """``Seat 2``, ``Seats 2 and 4``, ``Seats 2, 3 and 4`` from rows' keys ("Seat 4", "censitaire
    seat 4"); a key without a seat number as it is."""
    nums = sorted({int(m.group()) for k in keys if (m := re.search(r"\d+", str(k)))})
    if not nums:
        return ", ".join(map(str, keys))
    if len(nums) == 1:
        return f"Seat {nums[0]}"
    return "Seats " + ", ".join(map(str, nums[:-1])) + f" and {nums[-1]}"


def pct_ci(p: float, low: float, high: float, least: int = 1) -> str:
    """``27.9% (27.6–28.2)``; with more decimals (up to 3) when an end of the interval prints as
    the estimate, as the other end, or as 0% or 100%, without being it, so that an interval never
    prints as a single value (``33.2% (33.2–33.2)`` for a million games reads as a certainty:
    ``33.23% (33.19–33.27)``) nor as one that looks wrong (385 shared wins in 100,000 games were
    ``0.4% (0.3–0.4)``: ``0.39% (0.35–0.43)``; 9,996 of 10,000, ``99.9% (99.9–100.0)``: ``99.96%
    (99.90–99.98)``). ``least``: at least that many decimals (:func:`fair_gap_digits`)."""
    digits = pct_ci_digits(p, low, high, least)
    top = pct(high, digits)
    if high > 0 and float(top) == 0:        # none of a million games: its bound is not 0 (review 44 #2)
        top = "<" + pct(10.0 ** -(digits + 2), digits)
    return f"{pct(p, digits)}% ({pct(low, digits)}–{top})"


def pct_ci_digits(p: float, low: float, high: float, least: int = 1) -> int:
    """The decimals :func:`pct_ci` prints a share and its interval with: ``least``, or more (up to
    3) while an end of the interval prints as the estimate, as the other end, or as 0% or 100%,
    without being it."""
    digits = least
    while digits < 3 and (
            (high > low and pct(low, digits) == pct(high, digits))
            or any(_rounds_onto(end, to, digits) for end in (low, high) for to in (p, 0.0, 1.0))):
        digits += 1
    return digits


def _fair_gap_agrees(share: float, fair: float, diff: float, d: int, low: float | None = None,
                     high: float | None = None) -> bool:
    """Whether at ``d`` decimals the printed share minus the printed fair share is the printed gap
    and each end of the share's interval prints on its side of the fair share
    (:func:`fair_gap_digits`)."""
    f = float(pct(fair, d))
    sides = all(x is None or not np.isfinite(x) or np.sign(round(float(pct(x, d)) - f, 9))
                == np.sign(round(100 * (x - fair), 9)) for x in (low, high))
    return sides and abs(float(pct(share, d)) - f - float(signed(100 * diff, d).replace("−", "-"))) <= 10.0 ** -(d + 3)


def fair_gap_digits(share: float, fair: float, diff: float, most: int = 3,
                    low: float | None = None, high: float | None = None) -> int:
    """The decimals at which a seat's win share, the fair share and the gap between them print so
    that the printed share minus the printed fair share is the printed gap (review 45 #5: "Seat 1
    wins 23.5% (23.1–23.8) against a fair 25.0%: −1.6 pp" for 23.45% and −1.55 pp, each rounded
    half away from zero; at 3 players the fair 33.3% is itself rounded), and, given the share's
    interval (``low``, ``high``), each end prints on its side of the fair share (review s51: an
    interval starting at 25.002% printed "(25.0–28.9)" beside a fair 25.0%, read as touching it):
    1, or more up to ``most``."""
    d = 1
    while d < most and not _fair_gap_agrees(share, fair, diff, d, low, high):
        d += 1
    return d


def seat_vs_fair(r: dict, d: int | None = None) -> tuple[str, str, str]:
    """(share with its interval, fair share, gap in pp) of a seat row as one sentence prints them,
    at the decimals that agree (:func:`fair_gap_digits`; ``d``: the page's for the seat,
    :func:`seat_digits`); the gap is the printed share minus the printed fair share
    (:func:`simcore.numbers.fair_gap`), so that the three add up at any ``d`` (review s55 #1). A
    page prints the fair share beside it as :func:`seats_fair` does, one value for the page (session
    62); the second value is the fair share at the share's decimals, the one the gap agrees with."""
    d = fair_gap_digits(r["win_share"], r["fair_share"], r["diff"], low=r.get("ci_low"),
                        high=r.get("ci_high")) if d is None else d
    share = pct_ci(r["win_share"], r["ci_low"], r["ci_high"], d)
    shown = share.split("%")[0]
    k = len(shown.split(".")[1]) if "." in shown else 0      # (pct_ci may add decimals to its interval)
    return share, pct(r["fair_share"], k), fair_gap_pp(r["win_share"], r["fair_share"], k)


def gap_beside(share_text: str, share: float, fair: float) -> str:
    """The gap in pp of a share from the fair share, beside the share's printed text (``"24.5%
    (23.2–25.9)"``): the difference rounded at the share's decimals
    (:func:`simcore.numbers.fair_gap`: a half up, so that against a fair share printed exactly the
    two add up, "24.5%" beside "−0.5 pp" for 24.45%: review s55 #1; against an average seat of
    49.96% printed 50.0%, 61.52% is "61.5%" beside "+11.6 pp", the gap: review s61 fix 258 #2);
    '' without a share."""
    if not share_text or share is None or share != share or fair is None or fair != fair:
        return ""
    number = share_text.split("%")[0].lstrip("<>")
    return fair_gap_pp(share, fair, len(number.split(".")[1]) if "." in number else 0)


def fair_gap_pp(share: float, fair: float, d: int) -> str:
    """``−0.47 pp``: a share's gap from a reference share (fractions: the fair share, a role's
    average seat) at ``d`` decimals, the difference rounded (:func:`simcore.numbers.fair_gap`:
    one value for one gap wherever it is printed, review s61 fix 258 #2)."""
    return f"{signed(numbers.fair_gap(100 * share, 100 * fair, d), d)} pp"


def difference_pp(a: float, b: float, d: int) -> str:
    """``+3.22 pp``: two measured shares' difference (fractions) beside the two printed at ``d``
    decimals: the printed ``a`` minus the printed ``b`` (:func:`simcore.numbers.printed_difference`,
    session 56 review)."""
    return f"{signed(numbers.printed_difference(100 * a, 100 * b, d), d)} pp"


def shares_and_gap(a: tuple[float, float, float], b: tuple[float, float, float],
                   least: int = 1) -> tuple[str, str, str, int]:
    """(``a`` with its interval, ``b`` with its, ``a − b`` in pp, their decimals) for two win
    shares printed side by side with their difference, each share a (share, low, high) of
    fractions: both shares at the decimals the two need (:func:`pct_ci`, at least ``least``), the
    difference the printed ``a`` minus the printed ``b`` (:func:`difference_pp`), so that the three
    printed numbers add up ("27.37% … 24.15%: +3.21 pp" for 27.366%, 24.154% and a change of
    3.212 pp read as an arithmetic slip: designer review, session 56)."""
    d = least
    while True:
        k = max(pct_ci_digits(*a, d), pct_ci_digits(*b, d))
        if k <= d:
            return pct_ci(*a, d), pct_ci(*b, d), difference_pp(a[0], b[0], d), d
        d = k


def amount(text: str, unit: str) -> str:
    """A number's text with its unit as a page writes it: "2 coins", "1 turn", "1 player turn",
    "19.27% of own goal" (a unit that starts with % is written against the number), "3 pp"; the
    unit's plural s goes when the number is exactly 1 ("1 turns" read as a typo; "1 guild cards",
    session 56 review: :func:`singular`)."""
    if not unit:
        return text
    if unit.startswith("%"):
        return text + unit
    if text.lstrip("+−-") in ("1", "1.0", "1.00"):
        unit = singular(unit)
    return f"{text} {unit}"


def change_unit(unit: str) -> str:
    """The unit of a *change* of a metric: a percentage unit changes in percentage points ("% of
    own goal" → "pp of own goal"; "+0.62% of own goal" read as a relative change), any other as
    itself."""
    return "pp" + unit[1:] if unit.startswith("%") else unit


def num(x: float, digits: int = 2) -> str:
    """Fixed decimals, with a typographic minus: −3.80; a value that rounds to zero has no sign
    ("−0.0" read as a loss, review U #15)."""
    text = f"{numbers.rounded(x, digits):.{digits}f}"      # (halves as the tables round them: pct)
    if text.startswith("-") and float(text) == 0:
        text = text[1:]
    return text.replace("-", "−")


def num_ci(low: float, high: float, digits: int = 2) -> str:
    """An interval of plain numbers: ``8.37–8.40``, or ``−3.86 to −3.75`` when a bound is negative;
    with up to two more decimals when its ends would print the same (a million games: the lead
    changes "3.00 times per game (3.00–3.00)" read as a certainty; ``2.998–3.003``)."""
    sep = " to " if low < 0 or high < 0 else "–"
    digits = ci_digits(low, high, digits)
    return f"{num(low, digits)}{sep}{num(high, digits)}"


def ci_digits(low: float, high: float, digits: int = 2) -> int:
    """The decimals :func:`num_ci` prints an interval with: ``digits``, or up to two more when its
    ends would print the same."""
    for d in range(digits, digits + 3):
        if not high > low or num(low, d) != num(high, d):
            return d
    return digits + 2


def num_and_ci(m: float, low: float, high: float, digits: int = 2) -> str:
    """``7.34 (7.33–7.34)``: a mean and its interval (:func:`num_ci`), the mean with as many
    decimals as the interval's ends, so that it never prints outside them (designer review 44
    #2: "7.3 (7.33–7.34)")."""
    return f"{num(m, ci_digits(low, high, digits))} ({num_ci(low, high, digits)})"


def signed(x: float, digits: int = 1) -> str:
    """``+2.9`` / ``−2.9``; a value that rounds to zero is ``0.0`` (neither sign: "−0.0" reads as a
    loss). Rounded as the tables round (:func:`simcore.numbers.rounded`, halves away from zero as
    written: +0.125 → ``+0.13``, which Python's formatting printed ``+0.12`` beside a table's 0.13).
    The rule is :func:`simcore.numbers.signed` (the analysis's sentences use it too)."""
    return numbers.signed(x, digits)


def pp(d: float, digits: int = 1) -> str:
    """A difference of two shares in percentage points: 0.029 → ``+2.9 pp``."""
    return f"{signed(100 * d, digits)} pp"


def pp_ci(low: float, high: float, digits: int = 1) -> str:
    """The interval of a difference of shares: ``+2.5 to +3.3 pp``."""
    return f"{signed(100 * low, digits)} to {signed(100 * high, digits)} pp"


verdict_digits = numbers.verdict_digits   # (the one rule: simcore.numbers)


def pvalue(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


# A sentence's method clauses (how a verdict was reached: the correction, the family, the pairing):
# the HTML page folds them to "…" until the reader asks (reports.html.with_folds); the terminal and
# the PDF print them whole. Only method: a part that carries a result (a number with its unit, an
# interval such as the one a verdict is read on, advice such as "more games would tell") stays in
# view, so the folded sentence keeps every number its verdict is read on.
_METHOD = re.compile(r"Holm|Bonferroni|common random numbers|the pairing|on the pairing|"
                     r"each at level|Newcombe|Welch|Wilson|Student t|as Ludii defines|the same game "
                     r"numbers|exact binomial|Wald|chi-square|Chi-square")
_RESULT = re.compile(r"\d\s*(%|pp\b|coins?\b|turns?\b|player turns\b|points?\b|games?\b)|"
                     r"\bto [+−-]?\d|more games|cannot tell|these games|would tell|[+−]\d|cut at 0")


def method_spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, mark) of each method clause of ``text``, in order. A parenthetical (outermost)
    is cut into parts at its own ``;``; a part is method when it names one (:data:`_METHOD`) and
    carries no result (:data:`_RESULT`). Each run of method parts folds: the whole parenthetical
    marked "(…)"; its first parts, from the parenthesis up to and with the ``;`` after them, marked
    "(…;" ("(…; all 4 seats at once: −5.85 to −4.44 pp, …)"); later parts from their ``;`` marked "; …"
    ("(+2.4 to +5.2 pp; …)"). A parenthesis left open folds nothing."""
    out: list[tuple[int, int, str]] = []
    depth, start, semis = 0, -1, []
    for i, c in enumerate(text):
        if c == "(":
            if depth == 0:
                start, semis = i, []
            depth += 1
        elif c == ";" and depth == 1:
            semis.append(i)
        elif c == ")" and depth:
            depth -= 1
            if depth:
                continue
            bounds = [start + 1, *semis, i]
            method = [bool(_METHOD.search(text[a:b])) and not _RESULT.search(text[a:b])
                      for a, b in zip(bounds, bounds[1:])]
            k, n = 0, len(method)
            while k < n:
                if not method[k]:
                    k += 1
                    continue
                m = k
                while m + 1 < n and method[m + 1]:
                    m += 1
                if k == 0 and m == n - 1:
                    out.append((start, i + 1, "(…)"))
                elif k == 0:
                    out.append((start, bounds[m + 1] + 1, "(…;"))
                else:
                    out.append((bounds[k], bounds[m + 1], "; …"))
                k = m + 1
    return out


def without_code_marks(text: str) -> str:
    """``text`` without Markdown code marks (`balance questions` → balance questions): for the PDF,
    whose text has no code face (the HTML page sets them as code, :func:`reports.html.code_marks`)."""
    return re.sub(r"`([^`]+)`", r"\1", text)


def cell_text(v) -> str:
    """A table cell as plain text, the same in the HTML page and the PDF: '' for a missing value or
    NaN, yes/no for booleans, 4 significant digits for floats (scientific below 0.001, unless the
    number has at most four decimals: a table's value rounded to 4 decimals, "0.0001", prints as
    written beside its row's "0.2498", session 57), whole numbers from 1,000 with thousands
    separators, as the runs' table writes them."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        if v != v:
            return ""
        if abs(v) >= 1e-3 or v == 0:
            return f"{v:.4g}"
        return f"{v:.4f}".rstrip("0") if round(v, 4) == v else f"{v:.2e}"
    if isinstance(v, int) and abs(v) >= 1_000:
        return f"{v:,}"       # a count of games as the runs' table writes it (review s50 PDF: "100000")
    return str(v)


SAID_ONCE_ROWS = 3      # a table of fewer rows keeps its columns: "every row" of two is no saving


def said_once(df: pl.DataFrame) -> tuple[pl.DataFrame, str]:
    """``df`` without the columns empty in every row and those of one value in every row, and the
    words that say them once (for the table's caption, or a note above it): "in every row,
    'parameter': setup.start_coins[0] (seat 1's); 'interval of': the value-by-value family; empty
    in every row, left out: 'others at', 'repeats'". A table of fewer than
    :data:`SAID_ONCE_ROWS` rows, and one that would keep fewer than two columns, is given back
    whole with no words. Session 57 review: the one-parameter sweep's value tables were cut in two
    parts only to print an always-empty `repeats` and a constant `interval of` beside parameter,
    from, to and metric repeated."""
    if df.height < SAID_ONCE_ROWS:
        return df, ""
    cells = {c: {cell_text(v) for v in df[c]} for c in df.columns}
    empty = [c for c in df.columns if cells[c] == {""}]
    same = [c for c in df.columns if len(cells[c]) == 1 and c not in empty]
    if len(df.columns) - len(empty) - len(same) < 2:
        same = []
    if len(df.columns) - len(empty) < 2:
        empty = []
    if not empty and not same:
        return df, ""
    said = []
    if same:
        said.append("in every row, " + "; ".join(f"'{c}': {next(iter(cells[c]))}" for c in same))
    if empty:
        said.append("empty in every row, left out: " + ", ".join(f"'{c}'" for c in empty))
    return df.drop(empty + same), "; ".join(said)


def turns(x: float) -> str:
    """A number of turns: ``52`` when whole (quantiles of whole turns usually are), else ``52.5``."""
    return f"{x:.0f}" if float(x).is_integer() else num(x, 1)


def row_pct_ci(r: dict, est: str = "estimate", low: str = "ci_low", high: str = "ci_high") -> str:
    """A row's proportion with its interval: ``27.9% (27.6–28.2)``."""
    return pct_ci(r[est], r[low], r[high])


_p = row_pct_ci


def best_and_worst(df: pl.DataFrame, col: str, key: str) -> list[dict]:
    """The row with the highest ``col`` and the one with the lowest, or only the first when both
    are the same ``key`` (one row, or all tied)."""
    best = df.sort(col, descending=True).row(0, named=True)
    worst = df.sort(col).row(0, named=True)
    return [best] if worst[key] == best[key] else [best, worst]


# ---------------------------------------------------------------------------------------------
# The game's words
# ---------------------------------------------------------------------------------------------


def score_unit(rs: RunSet | None) -> str:
    """What a score counts in the run's game: its spec's ``score_unit`` (coins for Middle-Ages,
    guild cards for Médiévallons); ``points`` for a game the registry does not know."""
    return load_score_unit(rs.game if rs is not None else None)


def game_title(rs: RunSet) -> str:
    """The game's name as its spec prints it (the run.json name, readable, for an unknown game)."""
    spec = spec_for(rs.game)
    return spec.title if spec is not None else rs.game.replace("_", " ").title()


# ---------------------------------------------------------------------------------------------
# Sentences
# ---------------------------------------------------------------------------------------------


def headlines(t: dict, rs: RunSet | None = None) -> list[str]:
    """Plain-language findings built from the metric tables (numbers rounded as shown); the game's
    own sentences come from its report hook (``rs`` names the game). A game with roles (table
    ``roles``) is read by role: how often each side wins, and the seats within a role."""
    hook = hook_for(rs.game) if rs is not None else None
    hook_lead = hook.lead_headlines(t, rs) if hook is not None and hasattr(hook, "lead_headlines") else []
    # many games stopped at the turn limit: every finding below is read on unfinished games, and
    # the page says so first (simcore.turn_limit)
    lead = turn_limit_lines(t) + hook_lead
    if one_seat_sides(t, rs):
        # (Fief's attacker and defender, one seat each: how often each side wins, but no fair
        # share, seat balance, shared win or strongest strategy to speak of; the game's lead gives
        # the outcomes, a mutual wipe-out among them)
        return lead + (role_headlines(t, getattr(hook, "GAMES_NOUN", None), shared_win_words(rs))
                       if "roles" in t else []) + outcome_headlines(t, rs, sides=True)
    out: list[str] = role_headlines(t) if "roles" in t else seat_headlines(t)
    # the seats (sides) first: a designer's first question is whether a seat wins too often; the
    # game's own lead (Middle-Ages: the event card of the largest swing) follows them, still among
    # the headline findings (a designer review found Seat 1's −5.1 pp, clear and large enough to
    # matter, fourth under three sentences of event cards)
    warning, own = lead[:len(lead) - len(hook_lead)], hook_lead
    return warning + lineup_note(t, rs) + out + own + outcome_headlines(t, rs) + scope_line(rs)


def turn_limit_lines(t: dict, whose: str = "the games", about: str = "The findings below") -> list[str]:
    """The warning a page (or its lead in the terminal) gives first when at least
    :data:`simcore.turn_limit.TURN_LIMIT_WARN` of an analysed run's games ended at the turn limit
    (:func:`analysis.length.turn_limit`), as one sentence in a list; else []."""
    from analysis.length import turn_limit
    from simcore.turn_limit import warning

    said = warning(turn_limit(t), whose, about)
    return [said] if said else []


def comparison_turn_limit_lines(base: dict, variant: dict, base_label: str, var_label: str) -> list[str]:
    """The warnings a before/after leads with when at least
    :data:`simcore.turn_limit.TURN_LIMIT_WARN` of either side's games ended at the turn limit
    (each side's :func:`turn_limit_lines`, naming whose games; the other side's share beside it
    when only one warns); else []."""
    from analysis.length import turn_limit
    from simcore.turn_limit import warning

    limits = [(lab, turn_limit(t)) for lab, t in ((var_label, variant), (base_label, base))]
    out = [w for lab, lim in limits if (w := warning(lim, f"{lab}'s games", "The changes below"))]
    if len(out) == 1:
        lab, other = next((lab, lim) for lab, lim in limits if not (lim and lim.flagged))
        if other is not None:
            out[0] += (f" (In {lab}, {pct_some(other.share)}% of the games ended at the turn limit: "
                       f"{other.games:,} of {other.total:,}.)")
    return out


def shared_win_words(rs: RunSet | None) -> str:
    """How a shared win comes about in ``rs``'s game (its spec's ``extra["shared_win"]``: Fief's "a
    combat where both sides are wiped out counts half a win to each"), '' for other games."""
    spec = spec_for(rs.game) if rs is not None else None
    return str(spec.extra.get("shared_win") or "") if spec is not None else ""


#: The games per cell a page's suggested panel command plays: the run's own count, within these
#: bounds (without --games a panel plays simulate's default, 1e6 games in every cell: an hour
#: for a slow game's panel of 36 cells).
PANEL_GAMES_SUGGESTED = (10_000, 100_000)


def panel_games(rs: RunSet | None) -> str:
    """``"--games N "`` for a suggested panel command: as many games per cell as ``rs``'s first
    run played, within :data:`PANEL_GAMES_SUGGESTED`."""
    low, high = PANEL_GAMES_SUGGESTED
    try:
        games = int((rs.metas[0] if rs is not None and rs.metas else {}).get("games") or high)
    except (TypeError, ValueError):
        games = high
    return f"--games {min(max(games, low), high)} "


def _counts_words(counts) -> str:
    """Player counts as a sentence says them: "2 to 5" (a run of counts), "3 and 5", "4"."""
    counts = sorted(counts)
    if len(counts) > 2 and counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]} to {counts[-1]}"
    return ", ".join(map(str, counts[:-1])) + " and " + str(counts[-1]) if len(counts) > 1 else str(counts[0])


def panel_plan(game: str, players: int, lineup: list[str], panels=None) -> dict | None:
    """How a page whose answer holds for one line-up at ``players`` suggests asking it of others
    (session 56 review #4: "--panel default" was offered "for other line-ups and player counts"
    while every shipped ``default`` panel plays 4 players only). ``panels``: the game's shipped
    panels (:func:`analysis.panel_scope.shipped_panels`, read when None). Returns the ``option``
    of simulate that plays them, ``what`` it plays (its cells and player counts, and a panel of the
    run's count alone for other line-ups there, said to be that count only) and what it
    ``covers``; None when the game takes one player count and ships no panel of other line-ups.

    * the first shipped panel that plays ``players`` and another player count ("--panel wide":
      "the game's wide panel (28 cells at 2 to 5 players; --panel default plays 3 line-ups at 4
      players only)");
    * else, where the game takes other counts, ``--players LO..HI`` (with ``--lineup BOT`` when one
      bot plays every seat of the run, else the game's default bots);
    * else (one player count) a panel of other line-ups at it."""
    spec = spec_for(game)
    if spec is None:
        return None
    if panels is None:
        from analysis.panel_scope import shipped_panels

        panels = shipped_panels(game)
    lo, hi = spec.players
    # a panel of other counts that also plays the run's own: its finding is then one of the cells
    pick = next((p for p in panels if players in p.players and set(p.players) - {players}), None)
    # a panel of other line-ups at the run's count only: said to be that count only
    here = next((p for p in panels if p.players == (players,) and p.size > 1 and p is not pick), None)
    if pick is not None:
        lineups = max(n for _, n in pick.cells) > 1
        also = f"; --panel {here.name} plays {here.size} line-ups at {players} players only" if here else ""
        return {"option": f"--panel {pick.name}",
                "what": f"the game's {pick.name} panel ({pick.size} cells at "
                        f"{_counts_words(pick.players)} players{also})",
                "covers": "other line-ups and player counts" if lineups else "other player counts"}
    if lo < hi:
        one = len(set(lineup)) == 1
        also = f" (--panel {here.name} plays {here.size} line-ups at {players} players only)" if here else ""
        return {"option": f"--players {lo}..{hi}" + (f" --lineup {lineup[0]}" if one else ""),
                "what": (f"{lineup[0]} in every seat" if one else "the game's default bots")
                        + f" at {_counts_words(range(lo, hi + 1))} players{also}",
                "covers": "other player counts"}
    if here is not None:
        return {"option": f"--panel {here.name}",
                "what": f"the game's {here.name} panel ({here.size} line-ups at {players} players)",
                "covers": "other line-ups"}
    return None


def scope_line(rs: RunSet | None) -> list[str]:
    """Which line-up and player count a run's findings hold for, and how to ask them of others (a
    panel that plays them, :func:`panel_plan`): [] for a game without bots to line up (a Fief
    combat), a run that does not record its line-up, or runs of several line-ups pooled."""
    from analysis.panel import lineup_label

    spec = spec_for(rs.game) if rs is not None else None
    if spec is None or spec.strategies is None or not rs.metas:
        return []
    ups = {tuple(m.get("strategies") or ()) for m in rs.metas}
    if len(ups) != 1 or not next(iter(ups)):
        return []
    lineup = list(next(iter(ups)))
    where = lineup_label(rs.n_players, lineup)
    plan = panel_plan(rs.game, rs.n_players, lineup)
    if plan is None:
        return [f"These findings hold for the line-up this run played, {where}."]
    return [f"These findings hold for the line-up this run played, {where}; for {plan['covers']}, "
            f"simulate --game {rs.game} {plan['option']} {panel_games(rs)}--out DIR plays "
            f"{plan['what']}, and balance report DIR says in which of them the "
            f"{'seat' if spec.roles_alike else 'side'} finding holds."]


def with_start_scores(cmp: pl.DataFrame, base: RunSet, variant: RunSet) -> pl.DataFrame:
    """A before/after's rows with, on each seat's mean final score, the score the rules start that
    seat at in each run (columns ``base_start`` and ``variant_start``; null elsewhere), from the
    game's report hook ``start_scores`` (:mod:`reports.games`: the Seigneur's starting square,
    a Middle-Ages seat's start coins) and each run's recorded rules (run.json ``rules_text``).
    A rule that moves a seat's start moves its final score partly by construction (review #20,
    s38: "Seat 1 mean final score +27.98 pp of own goal" where the Seigneur now started 30 pp along
    his track), which :func:`start_words` then says beside the change. Unchanged when the game has
    no such hook, a run's rules do not load (a run written by an older version), or no seat's
    start differs."""
    hook = hook_for(base.game)
    if hook is None or not hasattr(hook, "start_scores") or "metric" not in cmp.columns:
        return cmp
    from simcore.errors import ConfigError

    try:
        before, after = (hook.start_scores(rs.metas[0]["rules_text"], rs.n_players) for rs in (base, variant))
    except (ConfigError, KeyError, IndexError, TypeError, ValueError):
        return cmp
    moved = {f"Seat {s + 1}": (before[s], after[s]) for s in before
             if s in after and before[s] != after[s]}
    if not moved:
        return cmp
    keys = cmp["key"].to_list()
    scores = (cmp["metric"] == "seat_mean_score").to_list()
    start = [moved.get(k) if m else None for k, m in zip(keys, scores)]
    return cmp.with_columns(pl.Series("base_start", [x[0] if x else None for x in start], pl.Float64),
                            pl.Series("variant_start", [x[1] if x else None for x in start], pl.Float64))


def start_words(r: dict, unit: str, who: str = "it") -> str:
    """"the changed rules start it at 30% of own goal instead of 0" for a seat's mean final score
    whose start the rules changed (:func:`with_start_scores`), '' otherwise. ``who``: the seat as
    the sentence names it ("it" where the sentence is about that seat alone)."""
    b, v = r.get("base_start"), r.get("variant_start")
    if b is None or v is None or b != b or v != v or b == v:
        return ""
    shown = (lambda x: f"{x:g}")
    # as every amount is written: "1 coin", "30% of own goal" (:func:`amount`; review s51: "1
    # coins", "30 % of own goal")
    return f"the changed rules start {who} at {amount(shown(v), unit)} instead of {shown(b)}"


def sides_named(cmp: pl.DataFrame, game: str | None, keys: bool = True) -> pl.DataFrame:
    """A before/after's rows named in the game's words, as its run page and exports name them (the
    CSV keeps the keys): where each of the game's unlike roles is one seat, the seat rows by side
    (Fief's combat: "Attacker (Seat 1) mean final score", not "Seat 1 mean final score", review
    O #2); in another game with roles, each seat's rows with its role, as the exports' labels
    (:func:`analysis.export.seat_role_labels`): "Seat 1 (Seigneur) mean score", "Seat 2
    (Censitaire) win share"; the game length in turns keyed and labelled by its game's unit
    (:func:`length_unit`: "player turns" where the run page says so), which :func:`metric_unit`
    reads. Naming a table twice names it once. ``keys`` False: the labels only, every key kept (a
    CSV's rows keep the keys other tables match on)."""
    if "metric" not in cmp.columns or "key" not in cmp.columns:
        return cmp
    spec = spec_for(game) if game else None
    if spec is not None and "label" in cmp.columns:
        u = length_unit(game)
        turns = pl.col("metric") == "mean_turns"
        cmp = cmp.with_columns(pl.when(turns).then(pl.lit(f"Mean game length ({u})")).otherwise(pl.col("label"))
                               .alias("label"))
        if keys:
            cmp = cmp.with_columns(pl.when(turns).then(pl.lit(u)).otherwise(pl.col("key")).alias("key"))
    if spec is None or spec.roles_alike or not spec.roles:
        return cmp
    seat_rows = pl.col("metric").is_in(["seat_win_share", "seat_mean_score"])
    if all(r.min_count == 1 and r.max_count == 1 for r in spec.roles):
        if not keys:        # (as the exports name them: "Seat 1 (Attacker) mean score")
            return _seats_with_roles(cmp, spec) if "label" in cmp.columns else cmp
        names = {f"Seat {k + 1}": f"{r.display} (Seat {k + 1})" for k, r in enumerate(spec.roles)}
        return cmp.with_columns(pl.when(seat_rows).then(pl.col("key").replace(names)).otherwise(pl.col("key"))
                                .alias("key"))
    return _seats_with_roles(cmp, spec) if "label" in cmp.columns else cmp


_SEAT_KEY = re.compile(r"^Seat (\d+)$")


def seat_label_named(label: str, game: str | None) -> str:
    """A seat row's label named as :func:`sides_named` names the page's table ("Seat 1 win share" →
    "Seat 1 (Seigneur) win share" in a game with roles; "Attacker (Seat 1) win share" where each
    role is one seat, a Fief combat), for a row named apart from the table (a row left out of it,
    listed with why); any other label as it is."""
    m = re.match(r"^(Seat (\d+)) (win share|mean score)$", str(label))
    spec = spec_for(game) if game else None
    if m is None or spec is None or spec.roles_alike or not spec.roles:
        return label
    if all(r.min_count == 1 and r.max_count == 1 for r in spec.roles):
        k = int(m.group(2)) - 1
        return f"{spec.roles[k].display} ({m.group(1)}) {m.group(3)}" if k < len(spec.roles) else label
    metric = "seat_win_share" if m.group(3) == "win share" else "seat_mean_score"
    one = pl.DataFrame({"metric": [metric], "key": [m.group(1)], "label": [str(label)]})
    return str(_seats_with_roles(one, spec)["label"][0])


def _seats_with_roles(cmp: pl.DataFrame, spec) -> pl.DataFrame:
    """``cmp`` with each seat row's label naming the seat's role, as a game with roles' exports do
    ("Seat 1 win share" → "Seat 1 (Seigneur) win share": :func:`analysis.export.seat_role_labels`,
    the roles of the seats by the spec); a label that names it already stays."""
    from analysis.export import SEAT_METRICS, role_labels_of

    seats = [int(m.group(1)) for k in cmp.filter(pl.col("metric").is_in(list(SEAT_METRICS)))["key"].to_list()
             if (m := _SEAT_KEY.match(str(k)))]
    if not seats:
        return cmp
    # (the seats a run has: the highest seat compared; a seat's role does not depend on the count)
    roles = role_labels_of(spec, max(seats)) or {}

    def said(metric: str, key: str, label: str) -> str:
        m = _SEAT_KEY.match(str(key))
        role = roles.get(int(m.group(1)) - 1) if m and metric in SEAT_METRICS else None
        if role is None or label is None or not label.startswith(f"{key} ") or label.startswith(f"{key} ("):
            return label
        return f"{key} ({role}){label[len(key):]}"

    return cmp.with_columns(pl.Series("label", [said(m, k, x) for m, k, x in
                                                cmp.select("metric", "key", "label").iter_rows()], dtype=pl.String))


def one_seat_sides(t: dict, rs: RunSet | None) -> bool:
    """A game whose seats play unlike roles (its spec has no fair share), each role one seat: Fief
    2's combat, its attacker and defender. Read as seats (a run without the role table), their
    "fair 50%", chi-square, Balance and "strongest strategy" say nothing about it (review K #2);
    read by role, each side's win share does, but a "shared win" is a mutual wipe-out and a side's
    only bot is the side itself."""
    spec = spec_for(rs.game) if rs is not None else None
    if spec is None or spec.roles_alike:
        return False
    return "roles" not in t or bool((t["roles"]["seats"] == 1).all())


def lineup_note(t: dict, rs: RunSet | None) -> list[str]:
    """When the seats hold different bots and keep them in every game (no rotation: table
    ``seat_bots``), one sentence before the seats' findings naming each seat's
    bot: a seat's gap from its fair (or its role's) share is then mostly its bot's strength, and a
    page that words it as the seat's advantage misleads. [] otherwise."""
    s, table = t.get("strategies"), t.get("seat_bots")
    if s is None or table is None:
        return []
    bots = table.sort("seat")["bot"].to_list()
    held = ", ".join(f"Seat {i + 1} {b}" for i, b in enumerate(bots))
    if "roles" in t:
        if "role" not in s.columns or not bool(s["p_value"].is_not_nan().any()):
            return []           # one bot per role: the role's seats play alike
        return [f"The seats hold different bots, each the same seat in every game ({held}), so a "
                "gap between seats of one role is mostly a gap between their bots, not between the "
                "seats: to measure the seats, give every seat of a role the same bot."]
    return [f"The seats hold different bots, each the same seat in every game ({held}), so a seat's "
            "gap from the fair share is mostly its bot's strength, not the seat's advantage: to "
            "measure the seats, play one bot in every seat or rotate the line-up over the seats "
            "(simulate --rotate-seats)."]


def seat_verdict(significant: bool, what: str = "the fair share") -> str:
    """"significant" with what it means for a single interval."""
    if significant:
        return f"significant ({what} lies outside the 95% interval)"
    return f"not significant ({what} lies inside the 95% interval)"


def verdict_words(v, clear: bool | None = None) -> str:
    """A verdict of :func:`analysis.stats.practical` as a page says it ("clear and large enough to
    matter", "clear, may matter", "clear but small" as they are). Its last verdict, "not shown",
    means "left out of the headlines"; on a row or a sentence that *is* shown it reads "within
    noise" (the difference is not clear, after the family's correction), or, for a clear
    difference about almost nobody (``clear``), "too few players to say"."""
    v = str(v) if v is not None else ""
    if v == stats.NOT_SHOWN:
        return "too few players to say" if clear else "within noise"
    return v


def gap_pp(d: float, smallest: float) -> str:
    """The size of a gap in pp, without its sign, to 1 decimal; to 2 when 1 decimal would print
    it at the smallest difference that matters though it is under it (0.996 pp is not "1.0 pp,
    under the 1 pp that matters")."""
    a = abs(100 * d)
    text = f"{a:.1f}"
    if abs(d) < smallest and float(text) >= 100 * smallest:
        text = f"{a:.2f}"
    return f"{text} pp"


def _largest_first(seats: pl.DataFrame, verdict: str) -> pl.DataFrame:
    """The rows of ``seats`` with ``verdict``, largest gap (``diff``) first; gaps equal to 9
    decimals in seat order (a 2-player game's ±7.5 pp: Seat 1 first)."""
    return seats.filter(pl.col("verdict") == verdict).with_columns(
        pl.col("diff").abs().round(9).alias("_a")).sort("_a", descending=True, maintain_order=True)


def seat_digits(r: dict, most: int = 3) -> int:
    """The decimals a seat's win share, the fair share and its gap print with wherever a page names
    the seat (its headline, the verdict words, Figure 1's caption: review s61 #2, "Seat 4 wins
    24.25% … −0.75 pp" then "Seat 4 (−0.8 pp)", and "by at most 0.4 pp (Seat 3)" above a caption's
    "+0.45 pp"): the seat's own (:func:`fair_gap_digits`), or more (up to ``most``) while a gap under
    the smallest difference that matters (``smallest``) would print at it ("by at most 1.0 pp" for
    0.996 pp beside "under the 1 pp that matters")."""
    d = fair_gap_digits(r["win_share"], r["fair_share"], r["diff"], most, low=r.get("ci_low"),
                        high=r.get("ci_high"))
    step = r.get("smallest")
    while d < most and step is not None and abs(r["diff"]) < step and abs(
            numbers.fair_gap(100 * r["win_share"], 100 * r["fair_share"], d)) >= 100 * step:
        d += 1
    return d


def seat_share(r: dict) -> str:
    """A seat's win share as its headline prints it, without the interval ("24.25%"), at
    :func:`seat_digits`."""
    if r.get("ci_low") is None:
        return f"{pct(r['win_share'], seat_digits(r))}%"
    return seat_vs_fair(r, seat_digits(r))[0].split(" (")[0]


def seats_fair(seats: pl.DataFrame) -> str:
    """The fair share as every sentence over several seats of a page prints it ("25.00", without
    the %): Figure 1's caption ("against a fair …"), the verdict words after the seat lines and in
    the caption ("clearly off the fair …", :func:`seat_gap_words`), the side-by-side sentence.
    At one decimal where that is the fair share exactly (25.0%, 20.0%, 12.5%: a seat's "24.25%,
    −0.75 pp" adds up to it as to 25.00%), else at the most decimals any seat's headline prints it
    with (:func:`seat_digits`), so that each seat's printed share and gap named beside it add up
    to it (review s61 fix 266 #2: "against a fair 25.00%: … clearly off the fair 25.0%" in one
    caption, and at 3 players "against a fair 33.33%; … the fair 33.3% by at most 0.45 pp" beside
    33.78%). Each seat's own line prints it so too, beside a share at that share's decimals
    ("24.25% (23.74–24.76) against a fair 25.0%": a fair share is exact, and "25.00%" there beside
    "25.0%" in the next sentence printed one value two ways, session 62), and so do the flow's "(a
    fair share is …)", the strongest strategy's line, Figure 1's legend and the side-by-side
    table."""
    rows = list(seats.iter_rows(named=True))
    fair = 100 * rows[0]["fair_share"]
    shown = [r for r in rows if r.get("win_share") is not None and r.get("fair_share") is not None]
    d = 1 if abs(rounded(fair, 1) - fair) < 1e-9 else max((seat_digits(r) for r in shown), default=1)
    return pct(rows[0]["fair_share"], d)


def run_fair(t: dict, fair: float) -> str:
    """A fair share ``fair`` (a fraction, 1/P) as the run's page prints it: where it is the run's
    own fair share (table ``seats``), as the page lead does (:func:`seats_fair`: one value on a
    page, session 62), else at one decimal. For the sentences and legends outside the seat lines
    that repeat it (Médiévallons' guild types: "(a fair share is 33.3%)" beside the lead's "the
    fair 33.33%", session 63)."""
    s = t.get("seats") if isinstance(t, dict) else None
    if (isinstance(s, pl.DataFrame) and s.height and {"win_share", "fair_share"} <= set(s.columns)
            and s["fair_share"][0] is not None and abs(float(s["fair_share"][0]) - float(fair)) < 1e-12):
        return seats_fair(s)
    return pct(fair)


def _page_fair(seats: pl.DataFrame) -> str:
    """The fair share of a seats table as the page lead prints it (:func:`seats_fair`), or at one
    decimal for a table without the seats' shares (made by hand)."""
    if {"win_share", "fair_share"} <= set(seats.columns):
        return seats_fair(seats)
    return pct(seats["fair_share"][0])


def seat_gap(r: dict) -> str:
    """A seat's gap from the fair share in pp as every sentence of a page prints it ("−0.75 pp"):
    the gap its headline prints beside its share (:func:`seat_vs_fair` at :func:`seat_digits`; one
    formatter, review s61 #2); a row without its shares, its rounded ``diff`` (:func:`pp`)."""
    if r.get("win_share") is None or r.get("fair_share") is None:
        return pp(r["diff"])
    if r.get("ci_low") is None:
        return fair_gap_pp(r["win_share"], r["fair_share"], seat_digits(r))
    return seat_vs_fair(r, seat_digits(r))[2]


def ablation_seat_bots(bots, seats: int) -> list[str] | None:
    """The bot at each seat of an ablation's fixed seating (its run.json ``strategies``: one name
    for every seat or one per seat, as the runner seats them), or None when every seat holds the
    same bot or the names are not known: then "Seat 1" says who it is. Review s61 #1: on a
    rotated-seat run the headline's "+6.8 pp for Seat 1" measured the eventwise bot, the ablation's
    Seat 1 in every replayed game, beside the run's own Seat 1 that every bot held in turn."""
    names = [str(b) for b in bots or []]
    if len(names) == 1:
        names = names * seats
    if len(names) != seats or len(set(names)) < 2:
        return None
    return names


def ablation_seat(seat: int, bots: list[str] | None) -> str:
    """A seat of an ablation as its tables name it (``seat`` from 0): "Seat 1 (eventwise)" when the
    seats hold different bots (:func:`ablation_seat_bots`), else "Seat 1"."""
    return f"Seat {seat + 1}" + (f" ({bots[seat]})" if bots else "")


def _seats_named(rows: pl.DataFrame, seats: bool = False) -> tuple[str, str]:
    """("Seat 3 (+4.9 pp) and Seat 1 (−4.7 pp)", "are"): the seats of ``rows`` with their gaps;
    for the seats' table (``seats``), each gap as the seat's headline prints it (:func:`seat_gap`),
    else rounded to one decimal."""
    who = [f"{r['seat_label']} ({seat_gap(r) if seats else pp(r['diff'])})"
           for r in rows.iter_rows(named=True)]
    names = who[0] if len(who) == 1 else ", ".join(who[:-1]) + " and " + who[-1]
    return names, "is" if len(who) == 1 else "are"


def _small_note(seats: pl.DataFrame) -> str:
    """How many of the gaps of ``seats`` (none large enough to matter, none that may matter) are
    clear but small, or "all within noise"."""
    clear = seats.filter(pl.col("verdict") == stats.SMALL).height
    return (f"; {clear} of these gaps {'is' if clear == 1 else 'are'} clear but small" if clear else
            "; all within noise")


def _gap_parts(df: pl.DataFrame) -> tuple[float, str, pl.DataFrame, dict]:
    """What :func:`seat_gap_words` and :func:`role_seat_gap_words` both start from: the smallest
    difference that matters (a share, and in words), the seats clear of it by at least that much
    (largest first), and the row of the largest gap."""
    step = float(df["smallest"][0]) if "smallest" in df.columns else stats.DEFAULT_SMALLEST_SHARE
    top = df.with_columns(pl.col("diff").abs().alias("_a")).sort("_a", descending=True).row(0, named=True)
    return step, f"{100 * step:g} pp", _largest_first(df, stats.LARGE), top


def _may_matter_words(df: pl.DataFrame, off: str | None, small: str, holm: str,
                      seats: bool = False) -> str:
    """The seats of ``df`` whose gap may matter (:data:`analysis.stats.MAY_MATTER`), largest
    first: "Seat 2 (+1.1 pp) is clearly off {off}, perhaps by the 1 pp that matters; these games
    cannot tell ({holm}; more games would)", or, after seats clear of it by that much (``off``
    None), "Seat 2 (+1.1 pp) is clearly off it too, perhaps by 1 pp or more (these games cannot
    tell)";
    "" when there are none. No colon: it goes into a caption that has one already."""
    may = _largest_first(df, stats.MAY_MATTER)
    if may.height == 0:
        return ""
    names, verb = _seats_named(may, seats)
    if off is None:
        return f"{names} {verb} clearly off it too, perhaps by {small} or more (these games cannot tell)"
    return (f"{names} {verb} clearly off {off}, perhaps by the {small} that matters; these games "
            f"cannot tell ({holm}; more games would)")


def _farthest_reach(seats: pl.DataFrame) -> tuple[str, float] | None:
    """(seat label, end) of the seat interval end farthest from the fair share, on the intervals
    the verdicts' sizes are read on (:func:`analysis.seats.seat_size_intervals`: Bonferroni over
    the tested seats); None when the table lacks what they need."""
    from analysis.seats import seat_size_intervals

    need = ("diff", "win_share_sd", "games", "p_value")
    if not all(c in seats.columns for c in need):
        return None
    low, high = seat_size_intervals(*(seats[c].to_numpy() for c in need))
    ends = np.where(np.abs(low) > np.abs(high), low, high)
    if not np.isfinite(ends).any():
        return None
    k = int(np.nanargmax(np.abs(ends)))
    return str(seats["seat_label"][k]), float(ends[k])


def seat_gap_words(seats: pl.DataFrame) -> str:
    """The seats' gaps from the fair share worded by their size (table ``seats`` with its Holm
    verdicts, :func:`analysis.stats.practical`), never by a p-value: which seats are clear of the
    fair share by at least the smallest difference that matters (and which clearly off it may be,
    :data:`analysis.stats.MAY_MATTER`); else which seats are clearly off it and may be by that much;
    else by how much at most the seats' win shares differ from it, under that difference; else the
    largest gap's verdict."""
    step, small, large, top = _gap_parts(seats)
    fair = seats_fair(seats)             # (as Figure 1's caption prints it: review s61 fix 266 #2)
    holm = f"Holm over the {seats.height} seats"
    # (each seat's gap as its headline and Figure 1's caption print it: review s61 #2)
    if large.height:
        names, verb = _seats_named(large, True)
        may = _may_matter_words(seats, None, small, holm, True)
        return (f"the seats do not win equally often: {names} {verb} clear of the fair {fair}% by at least "
                f"the {small} that matters ({holm})" + (f"; {may}" if may else ""))
    may = _may_matter_words(seats, f"the fair {fair}%", small, holm, True)
    if may:
        return may
    if abs(top["diff"]) < step:
        most = (seat_gap(top).lstrip("+−") if top.get("win_share") is not None and top.get("fair_share") is not None
                else gap_pp(top["diff"], step))
        head = (f"the seats' win shares differ from the fair {fair}% by at most {most} "
                f"({top['seat_label']})")
        # the estimates are under it, the intervals are not: "under 1 pp" would read the estimate
        # alone (review K #10: Seat 2 at 24.6%, its interval reaching 1.0 pp below the fair 25%)
        return _under_or_not(head, _small_note(seats), _farthest_reach(seats), step, small,
                             lambda who, end: f": {who}'s interval, held for all {seats.height} seats "
                                              f"at once, reaches {end} pp")
    return (f"no seat's gap from the fair {fair}% is both clear and at least the {small} that matters: the "
            f"largest, {top['seat_label']}'s {seat_gap(top)}, is "
            f"{verdict_words(top['verdict'])} (Holm over the {seats.height} seats)")


def _seat_size_words(seats: pl.DataFrame) -> list[str]:
    """Per seat, "+0.90 to +1.70 pp": the interval its verdict's size was read on
    (:func:`analysis.seats.seat_size_intervals`, from the table's columns: the one that holds for
    all seats at once) on the seat's side of the fair share (Holm shows the side even where that
    wider interval still reaches across: it then starts at 0.00), for a clear seat whose table has
    what it needs; "" otherwise. Two decimals, so an end at the smallest difference that matters
    does not print as past it."""
    from analysis.seats import seat_size_intervals

    if not {"win_share_sd", "games", "p_value"} <= set(seats.columns):
        return [""] * seats.height
    lo, hi = seat_size_intervals(seats["diff"].to_numpy(), seats["win_share_sd"].to_numpy(),
                                 seats["games"].to_numpy(), seats["p_value"].to_numpy())
    out = []
    for v, d, a, b in zip(seats["verdict"].to_list(), seats["diff"].to_list(), lo, hi):
        if v == stats.NOT_SHOWN or not (np.isfinite(a) and np.isfinite(b)):
            out.append("")
            continue
        a, b = (max(a, 0.0), b) if d > 0 else (a, min(b, 0.0))
        out.append(pp_ci(a, b, 2))
    return out


def _seat_verdict_note(r: dict, n: int, small: str, size: str) -> str:
    """The parenthesis after a seat's verdict, one short clause each (the glossary's "at once" and
    "Holm" say the rest): the family ("Holm over the 4 seats"); for a clear seat, the interval its
    size was read on against the smallest difference that matters ("all 4 seats at once: +4.29 to
    +5.92 pp, against the 1 pp that matters"); for a seat within noise whose own interval (the one
    in brackets) excludes the fair share, that this interval is the seat's alone."""
    note = f"Holm over the {n} seats"
    if r["verdict"] != stats.NOT_SHOWN:
        return note + (f"; all {n} seats at once: {size}, against the {small} that matters" if size
                       else f"; {small} matters")
    fair = r["fair_share"]
    if r.get("ci_low") is not None and (r["ci_low"] > fair or r["ci_high"] < fair):
        note += "; the interval shown is this seat's alone"
    return note


def seat_headlines(t: dict) -> list[str]:
    """Win share per seat against the fair 1/n, the chi-square test, Balance and AdvantageP1: for
    games whose seats are alike. When no seat is clearly off the fair share (every verdict "within
    noise") the per-seat lines are left out: the summary sentence says it for all of them, with the
    largest gap (the seat table beside it has every seat)."""
    out: list[str] = []
    seats = t["seats"]
    flagged = "verdict" in seats.columns and bool((seats["verdict"] != stats.NOT_SHOWN).any())
    if flagged:                         # largest gaps first; worded by size, Holm over the seats
        step = float(seats["smallest"][0]) if "smallest" in seats.columns else 0.01
        small = f"{100 * step:g} pp"
        order = stats.practical_order(seats["verdict"].to_numpy(), seats["diff"].to_numpy(), step)
        size = _seat_size_words(seats)
        # (each seat a sentence of its own: its own decimals, 1 unless its numbers disagree there,
        # as the verdict words below and Figure 1's caption print them: review s61 #2; the fair
        # share as the page lead prints it, exact, not at the seat's decimals: session 62, "24.25%
        # against a fair 25.00%" above "clear of the fair 25.0%")
        fair = seats_fair(seats)
        for k, r in zip(order, seats[order].iter_rows(named=True)):
            share, _, gap = seat_vs_fair(r, seat_digits(r))
            out.append(f"{r['seat_label']} wins {share} against a fair {fair}%: "
                       f"{gap}, {verdict_words(r['verdict'])} "
                       f"({_seat_verdict_note(r, seats.height, small, size[int(k)])}).")
    elif "verdict" not in seats.columns:
        fair = seats_fair(seats)
        for r in seats.iter_rows(named=True):
            share, _, gap = seat_vs_fair(r)
            out.append(f"{r['seat_label']} wins {share} against a fair {fair}%: "
                       f"{gap}, {seat_verdict(r['significant'])} (unadjusted).")
    st = t["seat_tests"].row(0, named=True)
    test = f"chi-square {num(st['chi2'], 1)} with {st['dof']} degrees of freedom, {pvalue(st['p_value'])}"
    if "verdict" in seats.columns:
        words = seat_gap_words(seats)
        # the test in a sentence of its own (the section's words), not in a parenthesis: the words
        # may end in one of their own ("... (Holm over the 4 seats)")
        out.append(f"{words[0].upper()}{words[1:]}. Chi-square test that all seats win equally often: "
                   f"{num(st['chi2'], 1)} on {st['dof']} degrees of freedom, {pvalue(st['p_value'])}.")
    elif st["seats_differ"]:
        out.append(f"The seats do not win equally often: {test} (chance alone would rarely give gaps "
                   f"this large).")
    else:
        out.append(f"No evidence that the seats differ: {test}.")
    out.append(f"Balance is {num_and_ci(st['balance'], st['balance_low'], st['balance_high'], 3)} and "
               f"AdvantageP1 is {num(st['advantage_p1'], 3)} "
               f"({num_ci(st['advantage_p1_low'], st['advantage_p1_high'], 3)}), as Ludii defines them: each "
               f"player earns 1 for first place, 0 for last and a share in between for the places between; "
               f"Balance is 1 minus the largest gap between two seats' average earnings (1 = every seat "
               f"does equally well) and AdvantageP1 is Seat 1's average.")
    if "win_share_balance" in st:
        # Seat 1's win share only where no seat line above gave it already (revD #15: it was said twice)
        # (at least the decimals its Seats row prints it with, seat_digits: one value for one number
        # on a page, session 63: "Seat 1 wins 36.2% (33.3–39.2)" here beside the table's "36.20%
        # (33.28–39.23)")
        r0 = seats.row(0, named=True)
        least = (seat_digits(r0) if all(r0.get(c) is not None for c in ("win_share", "fair_share", "diff"))
                 else 1)
        first = ("" if any(x.startswith(f"{seats['seat_label'][0]} wins ") for x in out) else
                 " and Seat 1 wins " + pct_ci(st['first_seat_win_share'], st['first_seat_win_share_low'],
                                              st['first_seat_win_share_high'], least))
        out.append(f"Counting wins only, the win-share balance is {num(st['win_share_balance'], 3)} "
                   f"({num_ci(st['win_share_balance_low'], st['win_share_balance_high'], 3)}; 1 minus the "
                   f"largest gap between two seats' win shares){first}.")
    return out


def shared_role_seats(seats: pl.DataFrame, n: int) -> str:
    """The family of the seats' Holm adjustment in words: "3 Censitaire seats" when one role has
    several seats (table ``role_seats``), else "5 seats that share their role"."""
    several = seats.filter(pl.col("p_value").is_not_nan()) if "p_value" in seats.columns else seats
    labels = list(dict.fromkeys(several["role_label"].to_list())) if "role_label" in several.columns else []
    return f"{n} {labels[0]} seats" if len(labels) == 1 else f"{n} seats that share their role"


def role_seat_gap_words(part: pl.DataFrame, seats: pl.DataFrame) -> str:
    """A role's seats (rows of table ``role_seats`` for one role of several seats) worded by the
    size of each seat's gap from an equal share of the role's wins, as :func:`seat_gap_words` words
    the seats: never by the chi-square's p-value. The verdicts are Holm over every seat of every role
    of several seats (``seats``: the whole table)."""
    step, small, large, top = _gap_parts(part)
    label = part["role_label"][0]
    equal = pct(part["equal_share"][0])
    family = int(seats.filter(pl.col("p_value").is_not_nan()).height)
    holm = f"Holm over the {shared_role_seats(seats, family)}"
    if large.height:
        names, verb = _seats_named(large)
        may = _may_matter_words(part, None, small, holm)
        return (f"{names} {verb} clear of an equal {equal}% of the {label}s' wins by at least the {small} "
                f"that matters ({holm}), so the seats do not win equally often" + (f"; {may}" if may else ""))
    may = _may_matter_words(part, f"an equal {equal}% of the {label}s' wins", small, holm)
    if may:
        return may
    if abs(top["diff"]) < step:
        head = (f"the seats' shares of the {label}s' wins differ from an equal {equal}% by at most "
                f"{gap_pp(top['diff'], step)} ({top['seat_label']})")
        # review Y #3: "under the 1 pp that matters" beside Seat 2's 32.5% (31.9–33.2) of the
        # Censitaires' wins, an interval reaching 1.4 pp below the equal 33.3%
        return _under_or_not(head, _small_note(part), _role_share_reach(part), step, small,
                             lambda who, end: f" ({who}'s 95% interval reaches {end} pp)")
    return (f"no seat's gap from an equal {equal}% of the {label}s' wins is both clear and at least the "
            f"{small} that matters; the largest, {top['seat_label']}'s {pp(top['diff'])}, is "
            f"{verdict_words(top['verdict'])} ({holm})")


def _under_or_not(head: str, note: str, reach: tuple[str, float] | None, step: float, small: str,
                  reached) -> str:
    """``head`` ("… by at most 0.8 pp (Seat 2)") said to be under the ``small`` difference that
    matters only when no interval end (``reach``: the seat and its end farthest out) reaches it;
    else that these games cannot rule it out, ``reached(seat, end)`` saying whose interval."""
    if reach is None or abs(reach[1]) < step:
        return f"{head}, under the {small} that matters{note}"
    return (f"{head}{note}, but these games cannot rule out a gap of the {small} that matters"
            + reached(reach[0], signed(100 * reach[1], 2)))


def _role_share_reach(part: pl.DataFrame) -> tuple[str, float] | None:
    """(seat label, end) of the printed interval of a seat's share of its role's wins
    (``share_low``/``share_high``) farthest from the equal share; None without them."""
    if not all(c in part.columns for c in ("share_low", "share_high", "equal_share")):
        return None
    eq = part["equal_share"].to_numpy().astype(float)
    low = part["share_low"].cast(pl.Float64).fill_null(np.nan).to_numpy() - eq
    high = part["share_high"].cast(pl.Float64).fill_null(np.nan).to_numpy() - eq
    ends = np.where(np.abs(low) > np.abs(high), low, high)
    if not np.isfinite(ends).any():
        return None
    k = int(np.nanargmax(np.abs(ends)))
    return str(part["seat_label"][k]), float(ends[k])


def role_headlines(t: dict, games: str | None = None, shared: str = "") -> list[str]:
    """How often each role's side wins (table ``roles``) and, for a role of several seats, whether
    one of its seats wins more than its fellows (table ``role_seats``): for asymmetric games, where
    a fair share per seat does not exist. ``games``: what the game's games are called (its report
    hook's ``GAMES_NOUN``: Fief's "combats"), else "N-player games". ``shared``: how a shared win
    comes about, in the game's words (its spec's ``extra["shared_win"]``: Fief's mutual wipe-out);
    then a one-seat role's share is said to be a win share, not how often it wins (review AA #1:
    "The Defender wins 11.3% of combats" where it holds 8.3% and shares 6.1% half and half)."""
    out: list[str] = []
    roles = t["roles"]
    n = int(roles["players"][0])
    played = games or f"{n}-player games"
    for r in roles.iter_rows(named=True):
        if r["seats"] == 1 and shared:
            sentence = f"The {r['role_label']}'s win share is {_p(r, 'win_share')} of {played} ({shared})"
        elif r["seats"] == 1:
            sentence = f"The {r['role_label']} wins {_p(r, 'win_share')} of {played}"
        else:
            sentence = f"The {r['seats']} {r['role_label']}s together win {_p(r, 'win_share')} of {played}"
        if r["seats"] > 1:
            # the side's share split evenly over its seats, not any one seat's share (review J #7:
            # "33.2% (33.1–33.3) per Censitaire seat" read as every seat near 33.2%, with seats at
            # 31.6%, 33.1% and 35.0%)
            sentence += (f", an average of {pct_ci(r['per_seat'], r['per_seat_low'], r['per_seat_high'])} "
                         f"per {r['role_label']} seat (the side's wins split evenly over its "
                         f"{r['seats']} seats)")
        out.append(sentence + ".")
    seats = t["role_seats"]
    for role in roles.filter(pl.col("seats") > 1)["role"].to_list():
        part = seats.filter(pl.col("role") == role)
        label = part["role_label"][0]
        best, worst = part.sort("share_of_role", descending=True).row(0, named=True), \
            part.sort("share_of_role").row(0, named=True)
        adjusted = "chi2_p_adjusted" in part.columns
        p = part["chi2_p_adjusted" if adjusted else "p_value"][0]
        n_tests = int(seats.filter(pl.col("p_value").is_not_nan())["role"].n_unique())
        how = ("chi-square, " + (f"Holm over {n_tests} roles, " if n_tests > 1 else "")
               if adjusted else "chi-square, unadjusted, ")
        equal = pct(best["equal_share"])
        test = f"{how}{pvalue(p)}"
        if "verdict" in part.columns:     # worded by size (Holm over the seats of roles of several seats)
            out.append(f"Among the {label}s, {role_seat_gap_words(part, seats)}: "
                       f"{best['seat_label']} takes {_p(best, 'share_of_role', 'share_low', 'share_high')} "
                       f"of the {label}s' wins and {worst['seat_label']} "
                       f"{_p(worst, 'share_of_role', 'share_low', 'share_high')}, against an equal "
                       f"{equal}% each.")
        elif p < 0.05:
            out.append(f"Among the {label}s, the seats do not win equally often ({test}): "
                       f"{best['seat_label']} takes {_p(best, 'share_of_role', 'share_low', 'share_high')} "
                       f"of the {label}s' wins and {worst['seat_label']} "
                       f"{_p(worst, 'share_of_role', 'share_low', 'share_high')}, against an equal "
                       f"{equal}% each.")
        else:
            out.append(f"No evidence that one {label} seat wins more than another ({test}): "
                       f"their shares of the {label}s' wins run from "
                       f"{pct(worst['share_of_role'])}% ({worst['seat_label']}) to "
                       f"{pct(best['share_of_role'])}% ({best['seat_label']}), against an equal {equal}% each.")
    return out


def shared_win_sentence(r: dict) -> str:
    """How often games end in a shared win (a row of table ``outcomes``): "0.39% (0.35–0.43) of
    games end in a shared win"; with none, "No shared win in 200,000 games (at most 0.002%, the
    upper end of the 95% interval)" ("0.000% (0.000–0.002)" read as a measured share of zero to
    three decimals); with every game shared, the mirror of that."""
    n = int(r.get("n") or 0)
    if n and r["estimate"] in (0.0, 1.0):
        end = r["ci_high"] if r["estimate"] == 0 else r["ci_low"]
        # as many decimals as the end needs to be told from 0% and 100% (at 1e8 games an end of
        # 0.0000038% printed "at most 0.0000%" under a cap of 4 decimals); 12 is beyond any run
        d = 1
        while d < 12 and pct(end, d) in (pct(0.0, d), pct(1.0, d)):
            d += 1
        if r["estimate"] == 0:
            return (f"No shared win in {n:,} games (at most {pct(end, d)}%, the upper end of the 95% "
                    f"interval).")
        return (f"Every one of the {n:,} games ends in a shared win (at least {pct(end, d)}%, the lower "
                f"end of the 95% interval).")
    return f"{_p(r)} of games end in a shared win."


def outcome_headlines(t: dict, rs: RunSet | None = None, sides: bool = False) -> list[str]:
    """Shared wins, the winner's margin, lead changes, game length, the game's own sentences and
    the strategies; with ``sides`` (:func:`one_seat_sides`) neither the shared wins nor the
    strategies (each a side of its own)."""
    out: list[str] = []
    o = {r["metric"]: r for r in t["outcomes"].iter_rows(named=True)}
    if not sides:
        out.append(shared_win_sentence(o["shared_wins"]))
    r = o["score_spread"]
    spec = spec_for(rs.game) if rs is not None else None
    rough = ("" if spec is None or spec.roles_alike or "goal" not in str(spec.score_unit) else
             # a score the roles earn toward goals of different sizes: the lead subtracts unlike things
             # (Seigneurial; Fief's points are what each side has left, not progress toward a goal)
             " (scores are progress toward each player's own goal, and the goals differ: a rough figure)")
    # two sides of one seat each (a Fief combat): the winning side against the losing one, not a
    # "runner-up" (review AA #4)
    winner, second = ("The winning side", "the losing side") if sides else ("The winner", "the runner-up")
    # a lead is a difference of scores: in a percentage unit, points of it ("19.27 pp of own goal",
    # not "19.27% of own goal", a relative 19%: review s46 #13)
    hook = hook_for(rs.game) if rs is not None else None
    # a game whose shared win has no winner (Fief's mutual wipe-out) words the lead itself: the
    # mean below counts such a game as a 0-point lead (review 247 #2)
    said = hook.margin_headline(t, rs) if sides and hasattr(hook, "margin_headline") else None
    out.append(said or
               f"{winner} finishes {amount(num(r['estimate'], ci_digits(r['ci_low'], r['ci_high'])), change_unit(score_unit(rs)))} ({num_ci(r['ci_low'], r['ci_high'])}) "
               f"ahead of {second} on average{rough}.")
    out += flow_headlines(t, rs, by_rank=False)     # (the flow section adds the by-rank sentence)
    out += length_headlines(t, rs)
    if hook is not None and hasattr(hook, "headlines"):
        out += hook.headlines(t, rs)
    if sides:
        return out
    if "strategies" in t and "role" in t["strategies"].columns:
        out += role_strategy_headlines(t["strategies"])
    elif "strategies" in t and t["strategies"].height > 1:
        r = t["strategies"].sort("win_share", descending=True).row(0, named=True)
        note = " (strategies keep their seats in this run, so this includes seat advantage)" \
            if r["confounded"] else ""
        if "verdict" in r:
            verdict = (f"{verdict_words(r['verdict'])} (Holm over the {t['strategies'].height} strategies; the "
                       f"interval is this strategy's alone)")
        else:
            verdict = f"{seat_verdict(r['significant'])} (unadjusted)"
        share, fair, gap = strategy_vs_fair(r)
        if "seats" in t:        # 1/P, as the seat lines print it (seats_fair, session 62)
            fair = _page_fair(t["seats"])
        out.append(f"The strongest strategy is {r['strategy']}: it wins {share} "
                   f"against a fair {fair}%, {gap}, "
                   f"{verdict}{note}.")
    if "matchups" in t and t["matchups"].height:
        m = t["matchups"].filter(pl.col("ahead_share") >= 0.5).sort("ahead_share", descending=True)
        if m.height:
            r = m.row(0, named=True)
            how = "paired by deal over rotated seats" if r["paired"] else "over the games where they meet"
            # the verdict after a colon, not inside the parenthesis of how the meetings were counted
            pairs = t["matchups"].height // 2
            family = "the one pair" if pairs == 1 else f"Holm over the {pairs} pairs"
            tail = (f"({how}): {verdict_words(r['verdict'])} ({family})"
                    if "verdict" in r else f"({how}; interval unadjusted)")
            # (a tie counts half, as the section's introduction says: review s48 SG #7, 65.9% read
            # as games ahead where 64.98% were and 1.86% tied)
            out.append(f"{r['strategy']} finishes ahead of {r['opponent']} in {_p(r, 'ahead_share')} "
                       f"of their meetings, a tie counting half {tail}.")
    return out


def strategy_vs_fair(r: dict) -> tuple[str, str, str]:
    """(share with its interval, fair share or role's average seat, gap in pp) of a Strategies row
    as the table prints them (:func:`reports.sections.strategy_rows`): the fair share at the share's
    decimals and the gap their printed difference (:func:`gap_beside`; review s58 #6: the table's
    +16.0 pp beside a sentence's +15.9 pp, the unrounded 0.1594, for one quantity)."""
    share = _p(r, "win_share")
    number = share.split("%")[0].lstrip("<>")
    k = len(number.split(".")[1]) if "." in number else 0
    return share, pct(r["fair_share"], k), gap_beside(share, r["win_share"], r["fair_share"])


def role_strategy_headlines(strategies: pl.DataFrame) -> list[str]:
    """In a game with roles, per role played by two bots or more, its strongest bot against the
    role's average seat (:func:`analysis.roles.strategy_table_within_roles`): a bot of another role
    plays for another goal, so there is no share fair to all."""
    out = []
    tested = strategies.filter(pl.col("p_value").is_not_nan())
    n = tested.height
    for role in dict.fromkeys(tested["role"].to_list()):
        part = tested.filter(pl.col("role") == role).sort("win_share", descending=True)
        r = part.row(0, named=True)
        label = r["role_label"]
        # the role's other bots whose interval reaches the best's (review Y #4: "standard wins
        # most" beside fair-share at 37.5% (36.8–38.2), a bot playing the Censitaire alike)
        near = [o for o in part.iter_rows(named=True)
                if o["strategy"] != r["strategy"] and o["ci_high"] >= r["ci_low"]]
        tied = ("; " + ", ".join(f"{o['strategy']} {_p(o, 'win_share')}" for o in near)
                + f": {'their' if len(near) > 1 else 'its'} interval{'s' if len(near) > 1 else ''} "
                f"overlap{'' if len(near) > 1 else 's'} {r['strategy']}'s, so these games do not show "
                f"{r['strategy']} ahead of {'them' if len(near) > 1 else 'it'}") if near else ""
        share, fair, gap = strategy_vs_fair(r)
        out.append(f"Among the {part.height} {label} bots, {r['strategy']} wins most: {share} "
                   f"of games against {fair}% for the {label}s' average seat, "
                   f"{gap}, {verdict_words(r['verdict'])} (Holm over the {n} bots that share "
                   f"a role; each bot keeps its seats, so its share includes its seat's){tied}.")
    return out


def flow_by_turn(t: dict) -> bool:
    """True when the game flow is recorded turn by turn (Middle-Ages' ``coins_turn_t``), False for
    the four event checkpoints of older runs or no flow at all."""
    return "outcomes" in t and t["outcomes"].filter(
        pl.col("metric").str.starts_with("leader_wins_turn_")).height > 0


def winners_ahead_from(flow: pl.DataFrame, smallest: float = 0.0) -> int | None:
    """The first turn from which, at every later turn too, the players who finish first hold more
    coins than those who finish second with the two 95% intervals apart by at least ``smallest``
    (the game's smallest score difference that matters: a lead of 0.07 coins at turn 1 is clear
    with 2e5 games, but nothing a player could see) (table ``flow``); None if they are not so far
    ahead at the last turn. The size is read on the intervals, not on the means (review s48 MA #3:
    a lead of 2.19 coins whose intervals were 1.99 apart was said to be "at least 2 coins"): the
    winners' lower end at least ``smallest`` above the runners-up's upper end, and strictly above
    it when ``smallest`` is 0."""
    by_turn = flow.filter(pl.col("turn").is_not_null())
    first = by_turn.filter(pl.col("rank") == 1).sort("turn")
    second = by_turn.filter(pl.col("rank") == 2).sort("turn")
    if first.height == 0 or second.height == 0:
        return None
    both = first.join(second, on="turn", suffix="_2").sort("turn")
    gap = both["ci_low"] - both["ci_high_2"]
    apart = ((gap > 0) & (gap >= smallest)).to_list()
    turns_ = both["turn"].to_list()
    start = None
    for turn, ok in zip(turns_, apart):
        start = (turn if start is None else start) if ok else None
    return start


def flow_headlines(t: dict, rs: RunSet | None = None, by_rank: bool = True) -> list[str]:
    """The game flow in words (tables ``outcomes`` and ``flow``): how often the lead changes, how
    often the leader wins, and (``by_rank``), when coins are recorded turn by turn, from which turn
    the eventual winners are ahead — what the game-flow figure shows."""
    o = {r["metric"]: r for r in t["outcomes"].iter_rows(named=True)} if "outcomes" in t else {}
    out: list[str] = []
    if "lead_changes_by_turn" in o:
        unit = score_unit(rs)
        r = o["lead_changes_by_turn"]
        turns_ = sorted(int(m.rsplit("_", 1)[1]) for m in o if m.startswith("leader_wins_turn_"))
        out.append(f"The lead changes {num(r['estimate'])} times per game "
                   f"({num_ci(r['ci_low'], r['ci_high'])}) from turn to turn over the {len(turns_)} turns.")
        shown = [x for x in (turns_[len(turns_) // 2 - 1], turns_[-1]) if o[f"leader_wins_turn_{x}"]["n"] > 0]
        if shown:
            parts = [f"the sole leader at the end of turn {x} wins {_p(o[f'leader_wins_turn_{x}'])} of the time"
                     for x in shown]
            # (the fair share as the seat lines print it: seats_fair, session 62)
            fair = f" (a fair share is {_page_fair(t['seats'])}%)" if "seats" in t else ""
            sentence = "; ".join(parts) + fair + "."
            out.append(sentence[0].upper() + sentence[1:])
        if by_rank and "flow" in t:
            f = t["flow"]
            smallest = smallest_difference(rs.game if rs is not None else None, "score",
                                           rs.smallest if rs is not None else None)
            start = winners_ahead_from(f, smallest)
            last = f.filter(pl.col("turn") == turns_[-1])
            win, second = last.filter(pl.col("rank") == 1), last.filter(pl.col("rank") == 2)
            where = (f"from the end of turn {start} on" if start is not None
                     else "at no turn (by the last one, their lead is still within noise or smaller)")
            if win.height and second.height:
                out.append(f"By final rank, the eventual winners hold clearly more {unit} than the runners-up, "
                           f"by at least {amount(num(smallest, 2 if smallest % 1 else 0), unit)} (the smallest score "
                           f"difference that matters), {where}; after turn {turns_[-1]} they hold {num(win['mean_coins'][0], 1)} "
                           f"{unit} against {num(second['mean_coins'][0], 1)}.")
    elif "lead_changes" in o:
        r = o["lead_changes"]
        k = sum(1 for m in o if m.startswith("leader_wins_event_"))
        out.append(f"The lead changes {num(r['estimate'])} times per game "
                   f"({num_ci(r['ci_low'], r['ci_high'])}) across the {k} event checkpoints.")
        last = o.get(f"leader_wins_event_{k}")
        if last is not None and last["n"] > 0:
            out.append(f"The leader just before the last event (turn {4 * k}) wins {_p(last)} of the time.")
    return out


def player_turns(rs: RunSet | None) -> bool:
    """Whether a turn of ``rs``'s game is one player's (the spec's ``extra["player_turns"]``:
    Médiévallons, MV-3), so that a game's length is said in player turns and the rounds they make
    (review Z #7: "A game lasts 54.7 turns" at 4 players never said it was ~13.7 rounds)."""
    return rs is not None and length_unit(rs.game) == "player turns"


def length_unit(game: str | None) -> str:
    """The unit a game's length in turns is said in, read from its spec: "player turns" where each
    turn is one player's (``extra["player_turns"]``), else "turns" (also for a game the registry
    does not know). The run page's length and a before/after's game length say the same unit
    (:func:`analysis.length.length_unit`, which the panel, sweep and tune pages read too)."""
    from analysis.length import length_unit as unit_of

    return unit_of(game)


def _end_share(r: dict) -> str:
    """An end reason's share of the games (a row of table ``end_reasons``) as the End reasons table
    prints it (:func:`pct_ci`, without the interval); :func:`pct_some` without its interval."""
    if r.get("ci_low") is None or r.get("ci_high") is None:
        return pct_some(r["share"])
    return pct_ci(r["share"], r["ci_low"], r["ci_high"]).split("%")[0]


def length_headlines(t: dict, rs: RunSet | None = None) -> list[str]:
    """Mean game length and quantiles; the most common end reason (tables ``length``, ``end_reasons``).
    In a game whose turns are each one player's (:func:`player_turns`), the length is said in
    player turns, with the rounds of the run's player count they make."""
    out = []
    if "length" in t:
        r = t["length"].row(0, named=True)
        each = player_turns(rs)
        rounds = (f", about {num(r['mean_turns'] / rs.n_players, 1)} rounds of {rs.n_players} players"
                  if each and rs.n_players else "")
        u = "player turns" if each else "turns"
        out.append(f"A game lasts {num(r['mean_turns'], 1)} {u} "
                   f"on average ({num_ci(r['ci_low'], r['ci_high'], 1)}{rounds}); half of the games end within "
                   f"{turns(r['median'])} {u}, 90% last {turns(r['p05'])} to {turns(r['p95'])} {u} "
                   f"(longest {turns(r['max'])}).")
    if "end_reasons" in t and t["end_reasons"]["games"].sum() > 0:
        er = t["end_reasons"].sort(["share", "end_reason"], descending=[True, False])
        top = er.row(0, named=True)
        # the labels as named (a role's name keeps its capital: "Seigneur goal")
        others = list(er.iter_rows(named=True))[1:]
        # each share as the End reasons table prints it, at the decimals its interval needs
        # (session 62: "Seigneur goal 0.1%" here beside the table's "0.11% (0.07–0.16)")
        rest = [f"{r['label']} {_end_share(r)}%" for r in others if r["share"] > 0]
        # an end no game reached is said so, not "0.0%" as a rare one read (review s46 #10)
        never = [r["label"] for r in others if r["share"] <= 0]
        nor = ("none by " + (", ".join(never[:-1]) + " or " + never[-1] if len(never) > 1 else never[0])
               if never else "")
        said = "; ".join(x for x in (f"then {', '.join(rest)}" if rest else "", nor) if x)
        out.append(f"The most common end is “{top['label']}”: {_p(top, 'share')} of games"
                   + (f" ({said})" if said else "") + ".")
    return out


# ---------------------------------------------------------------------------------------------
# Before / after
# ---------------------------------------------------------------------------------------------

_TRAILING_UNIT = re.compile(r" \((coins|turns|player turns|points)\)$")

LENGTH_UNITS = ("turns", "player turns")
"""The units a game length in turns is said in (:func:`length_unit`)."""


def metric_unit(metric: str, kind: str, unit: str = "points", key: str | None = None) -> str:
    """The unit a compared metric (a row of :func:`analysis.compare.compare_tables`) is shown in:
    ``pp`` for shares, the game's score ``unit`` for scores, coins, turns, lead changes, ``pp per
    tile`` for tile slopes, nothing for the Balance index; a length not in turns (``mean_length``,
    a Fief combat's rounds) in its unit, the row's ``key``; the game length in turns
    (``mean_turns``) in its game's unit where :func:`sides_named` keyed the row by it ("player
    turns", :func:`length_unit`), else in turns."""
    if kind == "proportion":
        return "pp"
    if metric in ("seat_mean_score", "score_spread"):
        return unit
    if metric == "mean_length":
        return key or ""
    if metric == "mean_turns" and key in LENGTH_UNITS:
        return key
    return {"event_mean_gain": "coins", "mean_turns": "turns", "lead_changes": "lead changes",
            "lead_changes_by_turn": "lead changes",
            "tile_slope": "pp per tile", "balance": "index (1 = equal seats)",
            "win_share_balance": "index (1 = equal seats)"}.get(metric, "")


def metric_label(r: dict) -> str:
    """A compared metric's name for people, without a unit of its own (the unit is shown apart)."""
    if r["metric"] == "seat_mean_score":
        # the seat as its label names it where that names its role ("Seat 1 (Seigneur) mean score",
        # :func:`sides_named`), else its key
        label = str(r.get("label") or "")
        seat = label.removesuffix(" mean score") if (
            label.startswith(f"{r['key']} (") and label.endswith(" mean score")) else r["key"]
        return f"{seat} mean final score"
    if r["metric"] == "score_spread":
        return "Winner's lead: the gap between the two highest final scores"
    if r["metric"] == "mean_turns":
        return "Mean game length"
    if r["metric"] == "balance":
        return "Balance (Ludii: 1 − largest seat gap in place credit)"
    return _TRAILING_UNIT.sub("", r["label"])


def _base_digits(metric: str, kind: str) -> tuple[float, int]:
    """(scale, decimals) a compared metric is printed with: shares and tile slopes ×100 to 1
    decimal, the balance indices to 3, other means to 2."""
    if kind == "proportion" or metric == "tile_slope":
        return 100.0, 1
    return 1.0, 3 if metric in INDEX_METRICS else 2


# Up to how many decimals past a metric's own :func:`metric_digits` adds so that its before, after
# and change printed agree; at the last of them the change printed is the difference of the printed
# values (off the change by under one unit there: 0.001 pp for a share).
MORE_DIGITS = 2


rounded = numbers.rounded      # how a number is rounded where it is written (one rule: simcore.numbers)


def _agrees(r: dict, d: int) -> bool:
    """Whether at ``d`` decimals the printed after − before of a compared metric is its change
    rounded (within half a unit of the last decimal: 30.0455% → 31.0735%, change 1.028 pp, prints
    at 2 decimals as 30.05 → 31.07, a difference of 1.02, not the change's 1.03)."""
    scale, _ = _base_digits(r["metric"], r["kind"])
    b, v, c = (scale * float(r[k]) for k in ("base", "variant", "diff"))
    if not all(np.isfinite(x) for x in (b, v, c)):
        return True
    if r["kind"] == "proportion" and any(0.0 < x < scale and rounded(x, d) in (0.0, scale) for x in (b, v)):
        return False     # a share not 0% or 100% must not print as one (review S #2: 99.958% as 100.0%)
    if (r["kind"] == "proportion" and min(b, v) < SMALL_SHARE_PP and rounded(v, d) == rounded(b, d)
            and abs(c) >= 0.5 * 10.0 ** -(d + MORE_DIGITS)):
        return False     # a small share's change must not print as none (review U #4: 0.42% → 0.45% as
        # "0.4% → 0.4% (0.0 pp)", a tenth of the Seigneur's chances erased)
    return abs(rounded(v, d) - rounded(b, d) - c) <= 0.5 * 10.0 ** -d + 1e-9


def metric_digits(r: dict) -> int:
    """The decimals a compared metric's before, after and change are printed with: the metric's
    own (:func:`_base_digits`), or more (up to :data:`MORE_DIGITS` more) until the printed
    after − before is the change rounded ("24.7% → 24.9% (+0.3 pp)" becomes "24.71% → 24.95%
    (+0.24 pp)"; "30.05% → 31.07% (+1.02 pp)" for a change of 1.028 pp becomes "30.046% → 31.074%
    (+1.028 pp)"). At that cap the change printed is the difference of the printed values
    (:func:`shown_change`), so the three always agree. A row of a page's comparison
    (:func:`with_page_digits`) prints at the page's precision for it."""
    if r.get(PAGE_DIGITS) is not None:
        return int(r[PAGE_DIGITS])
    return common_digits([r])


def named_change_digits(r: dict, start: int | None = None) -> int:
    """:func:`metric_digits`, or more (up to :data:`MORE_DIGITS` past the metric's own) while a change
    that is not 0 would print as "0.0 pp" where a sentence names it as the largest change (review
    45: "The largest change is Seat 1 34.2% → 34.2% (0.0 pp …)" beside "+0.04 pp" in the next
    sentence). ``start``: the decimals to start from (a sentence's common ones), else the row's own."""
    d = metric_digits(r) if start is None else start
    most = _base_digits(r["metric"], r["kind"])[1] + MORE_DIGITS
    scale, _ = _base_digits(r["metric"], r["kind"])
    while d < most and r["diff"] == r["diff"] and r["diff"] != 0 and float(
            signed(scale * shown_change(r, d), d).replace("−", "-")) == 0:
        d += 1
    return d


def common_digits(rows: list[dict], more: int = MORE_DIGITS) -> int:
    """The decimals at which every one of ``rows`` (compared metrics shown in one sentence, so at
    one precision) prints a before, after and change rounded that agree: the largest of their own
    (:func:`_base_digits`), or more, up to :data:`MORE_DIGITS` more; at the cap, that cap (where
    :func:`shown_change` prints the difference of the printed values). ``more``: how many decimals
    past their own at most (a list of many lines takes 1: at 4 decimals "111.8387 coins" read as
    noise; at the cap a line's change is still the difference of its printed values, within one
    unit of the last decimal of the change)."""
    if not rows:
        return 1
    if all(r.get(PAGE_DIGITS) is not None for r in rows):
        # rows of a page's comparison: the page's precision (with_page_digits), one per unit
        return max(int(r[PAGE_DIGITS]) for r in rows)
    d = max(_base_digits(r["metric"], r["kind"])[1] for r in rows)
    for k in range(d, d + more + 1):
        if all(_agrees(r, k) for r in rows):
            return k
    return d + more


PAGE_DIGITS = "page_digits"
"""The column :func:`with_page_digits` adds to a comparison: the decimals its page prints the row
with (not in comparison.csv, whose columns are listed: reports.build.COMPARISON_COLUMNS)."""

#: the metrics of a comparison's first answer, printed at the precision that answer gives them
FIRST_ANSWER_METRICS = ("seat_win_share", "role_win_share", "seat_share_of_role_wins")

#: the most decimals :func:`with_page_digits` gives a unit's rows (a metric whose own are more, the
#: Balance indices' three, keeps its own)
PAGE_MOST_DIGITS = 2

PAGE_DIGITS_WORDS = ("Decimals: each unit's rows print at one precision, in the table, the list and the "
                     "first answer alike (the seats' win shares as the first answer prints them; every other "
                     "unit at the fewest decimals at which its rows' before, after and change agree, at most "
                     "two, three for the Balance indices); a row that does not agree there gives as its change "
                     "the difference of its printed before and after (comparison.csv has the change "
                     "unrounded), a share or a change that would print as 0 without being it gets the "
                     "decimals it needs, and a share under 1% (or over 99%) two significant digits.")
"""The one rule of :func:`with_page_digits`, said once on the page (the comparison's "How this is
measured")."""


def _page_floor(r: dict, d: int) -> int:
    """``d``, or more (up to the metric's own plus :data:`MORE_DIGITS`) while a share that is not 0%
    or 100% would print as one, or a change that is not 0 would print as 0 from the printed values
    (:func:`shown_change`); a share under 1% or over 99% with two significant digits (of its
    distance from 0% or 100%: :func:`simcore.numbers.share_digits`, up to one decimal more); a
    Balance index keeps ``d`` (untested; the first answer says when it is "the same at three
    decimals")."""
    scale, own = _base_digits(r["metric"], r["kind"])
    if r["kind"] == "index":
        return d          # (an index untested, at its three decimals: the first answer reads it so)
    b, v, c = (float(r[k]) if r.get(k) is not None else float("nan") for k in ("base", "variant", "diff"))
    if r["kind"] == "proportion":
        # a rare share (under 1%, or over 99%) with two significant digits, the rule of the rare
        # shares (simcore.numbers.share_digits): "0.03% → 0.04%, +0.01 pp" for 0.031% → 0.035%
        # read a change of +0.004 pp as mostly rounding (session 56)
        d = numbers.share_digits(*(scale * x for x in (b, v) if np.isfinite(x)), digits=d,
                                 most=own + MORE_DIGITS + 1, significant=2)
    while d < own + MORE_DIGITS and (
            (r["kind"] == "proportion" and any(np.isfinite(x) and 0.0 < scale * x < scale
                                               and rounded(scale * x, d) in (0.0, scale) for x in (b, v)))
            or (np.isfinite(c) and c != 0 and np.isfinite(b) and np.isfinite(v)
                and rounded(scale * shown_change(r, d), d) == 0)):
        d += 1
    return d


def with_page_digits(cmp: pl.DataFrame, unit: str = "points") -> pl.DataFrame:
    """A comparison with the decimals its page prints each row with (column :data:`PAGE_DIGITS`),
    so that the table, the list of changes, the first answer and the figure's labels print a row
    alike and the rows of a unit alike (review s55 #3: "25.0% → 24.9%, −0.1 pp" beside "25.05% →
    25.38%" in one table, the figure labelling the first −0.12 pp, and "41.255% → 42.417%" among
    rows of one decimal). The rule (:data:`PAGE_DIGITS_WORDS`): the first answer's win shares
    (:data:`FIRST_ANSWER_METRICS`, each metric apart) at the decimals where all of theirs agree
    (:func:`common_digits`, as that answer prints them), raised for all of them where one would
    print as 0 without being it (:func:`_page_floor`); every other unit (:func:`metric_unit`) at
    :func:`common_digits` of its rows, at most :data:`PAGE_MOST_DIGITS` decimals (or its own, where
    more), a row raised alone where it would print as 0. Every change printed is the difference of its printed values
    (:func:`shown_change`: :func:`metric_change` prints so)."""
    if cmp.height == 0 or not {"metric", "kind", "base", "variant", "diff"} <= set(cmp.columns):
        return cmp
    plain = cmp.drop(PAGE_DIGITS) if PAGE_DIGITS in cmp.columns else cmp
    rows = list(plain.iter_rows(named=True))
    groups: dict[tuple[str, str], list[int]] = {}
    for i, r in enumerate(rows):
        key = (("first", r["metric"]) if r["metric"] in FIRST_ANSWER_METRICS else
               ("unit", metric_unit(r["metric"], r["kind"], unit, r.get("key"))))
        groups.setdefault(key, []).append(i)
    digits = [0] * len(rows)
    for (what, _), idx in groups.items():
        members = [rows[i] for i in idx]
        if what == "first":
            d = common_digits(members)
            d = max([d] + [_page_floor(r, d) for r in members])
            for i in idx:
                digits[i] = d
        else:
            # at most two decimals (the Balance indices' own three): shares and slopes one past
            # their own, means at their own ("113.547 coins" at three read as noise)
            own = max(_base_digits(r["metric"], r["kind"])[1] for r in members)
            d = common_digits(members, more=max(0, PAGE_MOST_DIGITS - own))
            for i in idx:
                digits[i] = _page_floor(rows[i], d)
    return plain.with_columns(pl.Series(PAGE_DIGITS, digits, dtype=pl.Int64))


def shown_change(r: dict, digits: int) -> float:
    """A compared metric's change as printed at ``digits`` (in the metric's own scale, a fraction
    for shares): the difference of its printed after and before, which is the change rounded
    wherever :func:`metric_digits` found them to agree, and within one unit of the last decimal at
    its cap (:data:`MORE_DIGITS`); the change itself when a value is missing."""
    scale, _ = _base_digits(r["metric"], r["kind"])
    b, v = float(r["base"]), float(r["variant"])
    if not (np.isfinite(b) and np.isfinite(v)):
        return float(r["diff"])
    return round(rounded(scale * v, digits) - rounded(scale * b, digits), digits) / scale


def _as_printed(x: float, metric: str, kind: str, digits: int | None) -> float:
    """``x`` as :func:`metric_value` prints it, back on its own scale (a share 0.00375 printed
    "0.38%" → 0.0038)."""
    scale, base = _base_digits(metric, kind)
    return rounded(scale * x, base if digits is None else digits) / scale


def metric_value(x: float, metric: str, kind: str, digits: int | None = None) -> str:
    """One value of a compared metric: a share as ``27.9%``, a slope in pp per tile, Balance with 3
    decimals, other means with 2 (``digits`` overrides: :func:`metric_digits`; the value is then
    rounded as :func:`rounded`, the rounding :func:`shown_change` subtracts)."""
    if digits is not None:
        scale, _ = _base_digits(metric, kind)
        x = rounded(scale * x, digits) / scale
    if kind == "proportion":
        return f"{pct(x, digits or 1)}%"
    if metric == "tile_slope":
        return signed(100 * x, digits or 1)
    return num(x, digits or (3 if metric in INDEX_METRICS else 2))


# Below this share (in pp) a before/after's change is never printed as none: more decimals instead
# (:func:`_agrees`; a share of a few per cent moves by a large part of itself in a tenth of a pp).
SMALL_SHARE_PP = 2.0

# The balance indices (0 to 1) read in thousandths: a change of 0.005 is shown, not rounded to 0.00.
INDEX_METRICS = ("balance", "win_share_balance")


def no_game_differs(r: dict) -> bool:
    """Whether a compared row was paired game by game with every per-game difference 0 (its
    ``same_games``: :func:`analysis.compare.compare_tables`): shown, not tested, no interval."""
    g = r.get("same_games")
    return g is not None and g == g


def bound_pp(x: float) -> str:
    """A share's upper bound in pp to two significant digits, rounded up (a bound printed below
    itself would claim more than the games show) and never in exponent form: 0.00014978 →
    ``0.015``, 0.0074 → ``0.74``, 0.00741 → ``0.75``, 0.0295 → ``3``. The one rule for every page
    that prints a "no game differs" bound (the run pair's and the panel's before/after)."""
    import math

    v = 100 * float(x)
    if not v > 0:
        return "0"
    d = 1 - math.floor(math.log10(v))          # the decimals of two significant digits
    up = math.ceil(round(v * 10.0 ** d, 9)) / 10.0 ** d
    return np.format_float_positional(up, precision=max(d, 0), unique=True, fractional=True, trim="-")


def same_games_words(r: dict) -> str:
    """What the games say of a row where no game differs (:func:`no_game_differs`): "no game of the
    20,000 differs (each gives it the same value in both runs), so its change is at most 0.015 pp
    either way (95% bound)" for a share (its ``change_at_most``: :func:`analysis.stats.
    same_games_bound`); for a mean (a score, a length) only that no game differs: one game that
    differed could move it by any amount, so the games bound nothing in its unit."""
    head = f"no game of the {int(r['same_games']):,} differs (each gives it the same value in both runs)"
    bound = r.get("change_at_most")
    if bound is None or not np.isfinite(bound):
        return head
    return f"{head}, so its change is at most {bound_pp(bound)} pp either way (95% bound)"


NO_GAME_DIFFERS = "not tested: no game differs between the runs"
"""A before/after table's verdict for a row where no game differs (:func:`no_game_differs`)."""


def no_game_differs_in(cmp: pl.DataFrame, metric: str) -> bool:
    """Whether a before/after has rows of ``metric`` (the seat or role win shares) and no game
    differs in any of them: none is tested, so they do not "carry the test" of the Balance indices
    (or of the roles); what the games show is their bound (:func:`same_games_words`)."""
    rows = cmp.filter(pl.col("metric") == metric)
    return rows.height > 0 and "same_games" in rows.columns and bool(rows["same_games"].is_not_null().all())


INDEX_UNTESTED = "none for a change of this index (the seat rows are tested)"
"""A Balance index's interval of the change in a before/after's table (:func:`metric_change`)."""

INDEX_UNTESTED_SEATS = "none for a change of this index (no game differs in the seats' win shares: see their rows)"
"""A Balance index's interval where no game differs in any seat's win share (:func:`no_game_differs_in`)."""


def _scale(r: dict) -> float:
    """What a compared metric's values are multiplied by to be printed: 100 for a share or a tile's
    slope (in pp), 1 for the rest."""
    return 100.0 if r["kind"] == "proportion" or r["metric"] == "tile_slope" else 1.0


def interval_digits(r: dict, low: float, high: float, digits: int) -> int:
    """The decimals an interval of a compared metric's change is printed with beside its verdict:
    ``digits``, or more (up to three past the metric's own) while an end would print as 0 or as ± the smallest
    difference that matters without being it (:func:`verdict_digits`): "0.0 to +0.3 pp per tile"
    beside "clear" (review O #10: its low end was +0.04) reads as an interval that holds 0."""
    small = r.get("smallest")
    small = float(small) if small is not None and small == small else 0.0
    # (up to three more: at two, the table printed +0.368 to +1.000 pp, on the 1 pp that matters,
    # where the list at its own precision printed +0.3681 to +0.9996; review U #9)
    most = _base_digits(r["metric"], r["kind"])[1] + 3
    d = verdict_digits(low, high, small, _scale(r), max(digits, _base_digits(r["metric"], r["kind"])[1]),
                       most=most)
    # an interval of some width whose two ends print alike ("+0.16 to +0.16 points", Fief review 45
    # #6) reads as no interval at all: more decimals, up to the same cap, until they differ
    while d < most and high > low and rounded(_scale(r) * low, d) == rounded(_scale(r) * high, d):
        d += 1
    return d


def metric_change(r: dict, unit: str, digits: int | None = None) -> tuple[str, str]:
    """(the change, its 95% interval) of a compared metric, each with its unit (``digits``: as
    :func:`metric_digits`, the change then :func:`shown_change`; the interval with more decimals
    where an end would print as 0 or as ± the smallest difference that matters without being it:
    :func:`interval_digits`); a row where no game differs has no interval, the games' words
    instead (:func:`same_games_words`)."""
    # an index's change is a bare number (its unit, "index (1 = equal seats)", is shown apart)
    u = f" {change_unit(unit)}" if unit and r["metric"] not in INDEX_METRICS else ""
    diff = r["diff"] if digits is None else shown_change(r, digits)
    if no_game_differs(r):
        d = digits or _base_digits(r["metric"], r["kind"])[1]
        return f"{signed(_scale(r) * diff, d)}{u}", f"none: {same_games_words(r)}"
    d = digits or (1 if _scale(r) == 100 else 3 if r["metric"] in INDEX_METRICS else 2)
    change = f"{signed(_scale(r) * diff, d)}{u}"
    if not (np.isfinite(r["diff_low"]) and np.isfinite(r["diff_high"])):
        # each run's index has its interval (the seat table's, from simultaneous intervals over the
        # seat gaps, not from a standard error): none combines into a test of the change, and the
        # seat win shares carry the test
        return change, INDEX_UNTESTED
    di = interval_digits(r, r["diff_low"], r["diff_high"], d)
    return change, f"{signed(_scale(r) * r['diff_low'], di)} to {signed(_scale(r) * r['diff_high'], di)}{u}"


def verdict_range(r: dict, unit: str, digits: int) -> str:
    """The range a clear change's verdict was read on, with its unit: its interval over the family
    (``size_low``/``size_high``, Bonferroni), cut at 0 on the change's side where Holm shows the
    sign but that interval still holds 0 (:func:`size_range`), one decimal more than the change
    (``digits``; at most the metric's own plus :data:`MORE_DIGITS`: "+4.8920 to +6.3960 pp" beside
    a change at three decimals read as noise) and more while an end would print as 0 or as ± the smallest difference that
    matters without being it (:func:`interval_digits`); '' when the row has none."""
    lo, hi = r.get("size_low"), r.get("size_high")
    if lo is None or hi is None or not (np.isfinite(lo) and np.isfinite(hi)):
        return ""
    lo, hi = size_range(r["diff"], lo, hi)
    u = f" {change_unit(unit)}" if unit and r["metric"] not in INDEX_METRICS else ""
    d = interval_digits(r, lo, hi, min(digits + 1, _base_digits(r["metric"], r["kind"])[1] + MORE_DIGITS))
    return f"{signed(_scale(r) * lo, d)} to {signed(_scale(r) * hi, d)}{u}"


def verdict_with_range(r: dict, unit: str, family: int, digits: int | None = None,
                       say_cut: bool = False) -> str:
    """A compared metric's verdict beside the interval it was read on, named (review O #4: "Seat 4
    −0.5 pp (95% interval −0.9 to −0.2 pp), clear, may matter" beside "Seat 1 +0.5 pp (+0.2 to
    +0.8 pp), clear but small": the size was read on an interval the page did not print):
    "clear, may matter (all 4 seat win shares at once: −1.08 to 0.00 pp, cut at 0 where Holm's
    correction shows the sign)" for a clear change (:func:`verdict_range`: its interval over the
    tested metrics of its family at once, :func:`all_at_once`, cut at 0 where Holm shows the sign,
    which ``say_cut`` says on the row, as a table's cell needs; in a table without families, over all
    ``family`` tested metrics: "all 64 at once"); a change within noise whose own 95% interval
    excludes 0 says that Holm's correction over its family is why; else the verdict's words
    alone."""
    words = verdict_words(r.get("verdict"), r.get("significant"))
    if r.get("significant") and r.get("verdict") != stats.NOT_SHOWN:
        d = metric_digits(r) if digits is None else digits
        rng = verdict_range(r, metric_unit(r["metric"], r["kind"], unit, r.get("key")), d)
        if say_cut and rng and size_range(r["diff"], r["size_low"], r["size_high"]) != (r["size_low"], r["size_high"]):
            # Holm showed the sign where that wider interval still holds 0 (session 57: a table's
            # "−4.390 to 0.000 pp" beside "clear", and nothing on the row said why it ends at 0; a
            # sentence of several seats says it once after them, _read_on)
            rng += ", cut at 0 where Holm's correction shows the sign"
        return f"{words} ({all_at_once(r, family)} at once: {rng})" if rng else words
    lo, hi = r.get("diff_low"), r.get("diff_high")
    if (words == verdict_words(stats.NOT_SHOWN) and lo is not None and hi is not None
            and (lo > 0 or hi < 0)):
        return (f"{words} (its 95% interval excludes 0, but not after Holm's correction over "
                f"{holm_over(r, family)})")
    return words


def change_sentence(r: dict, unit: str, digits: int | None = None) -> str:
    """``Seat 1 win share: 19.9% → 22.1%, +2.2 pp (95% interval +1.4 to +3.0 pp).`` (``digits``:
    the precision of a list the sentence is one line of, :func:`line_digits`; by default its
    own, :func:`metric_digits`). A tile's slope whose curve bends in either run says so
    (:func:`bent_words`)."""
    u = metric_unit(r["metric"], r["kind"], unit, r.get("key"))
    d = metric_digits(r) if digits is None else digits
    before, after = (metric_value(r["base"], r["metric"], r["kind"], d),
                     metric_value(r["variant"], r["metric"], r["kind"], d))
    shown_u = "" if r["kind"] == "proportion" or not u else f" {u}"
    change, interval = metric_change(r, u, d)
    if no_game_differs(r):
        return f"{metric_label(r)}: {before} → {after}{shown_u}, {change}: {same_games_words(r)}."
    bent = bent_words(r)
    start = start_words(r, u)       # a start the changed rules moved (review #20, s38)
    return (f"{metric_label(r)}: {before} → {after}{shown_u}, {change} (95% interval {interval}"
            + (f"; {start}" if start else "") + ")" + (f": {bent}" if bent else "") + ".")


def line_fits() -> float:
    """The share of a tile curve's between-count variation a straight line must explain to
    describe it: :data:`analysis.tiles.LINE_FITS`, the threshold the run page uses too, so that the
    before/after and the run page call the same curves "not linear"."""
    from analysis.tiles import LINE_FITS

    return LINE_FITS


def bends(r: dict) -> bool:
    """Whether a compared row is a tile's slope whose curve the straight line does not describe
    in at least one of the two runs (``base_fit`` or ``variant_fit`` below :func:`line_fits`):
    the run page calls that curve "not linear", so a change of its slope is a change of a
    straight-line summary, not of the curve (revF #6)."""
    if r.get("metric") != "tile_slope":
        return False
    fits = [r.get(k) for k in ("base_fit", "variant_fit")]
    return any(f is not None and f == f and f < line_fits() for f in fits)


def bent_words(r: dict) -> str:
    """"a straight-line summary only: the curve bends (the line explains 22% of it before, 40%
    after); best minus worst common count 19.8 pp before, 15.2 pp after" for a tile slope that
    :func:`bends`, else ''. The ranges are the run pages' (:func:`analysis.tiles.tile_summary`'s
    ``spread``), shown as they are: not tested."""
    if not bends(r):
        return ""
    words = (f"a straight-line summary only: the curve bends (the line explains {100 * r['base_fit']:.0f}% "
             f"of it before, {100 * r['variant_fit']:.0f}% after)")
    spreads = [r.get(k) for k in ("base_spread", "variant_spread")]
    if all(x is not None and x == x for x in spreads):
        words += (f"; best minus worst common tile count {100 * spreads[0]:.1f} pp before, "
                  f"{100 * spreads[1]:.1f} pp after (the run pages' range, not tested)")
    return words


def size_range(diff: float, low: float, high: float, clear: bool = True) -> tuple[float, float]:
    """The range a clear change's size is read on (:func:`analysis.stats.practical`): its interval
    over the family (Bonferroni) on the change's side of 0. Where "clear" is Holm's step-down, Holm
    shows the sign even where that wider interval still holds 0, so the end past 0 is cut at 0
    ("−2.2 to 0.0 pp, clear, may matter", never "−2.2 to +0.1 pp, clear"). A change that is not
    clear keeps its interval as it is (it holds 0: within noise)."""
    if not clear:
        return low, high
    return (max(low, 0.0), high) if diff > 0 else (low, min(high, 0.0))


def may_matter_sentence(r: dict, unit: str, family: int, digits: int | None = None) -> str:
    """A compared metric that moved clearly and may matter (:data:`analysis.stats.MAY_MATTER`):
    its change sentence, then, in one short clause, the range its size was read on
    (``size_low``/``size_high``: the Bonferroni interval over the tested metrics of its family,
    :func:`all_at_once`, or over the ``family`` tested metrics of a table without families, on the
    change's side of 0, low to high like every interval of the page; one more decimal than the
    change) and the smallest difference that matters it straddles: "…: clear, may matter (all 35
    other tested metrics at once: +0.09 to +3.46 pp, on both sides of the smallest difference that
    matters, 1 pp; more games would tell)"."""
    u = metric_unit(r["metric"], r["kind"], unit, r.get("key"))
    d = metric_digits(r) if digits is None else digits
    head = change_sentence(r, unit, d)[:-1] + ": clear, may matter ("
    interval = verdict_range(r, u, d)
    if not interval:
        return head + "these games cannot tell whether it reaches the smallest difference that matters)."
    that = f"{_scale(r) * r['smallest']:g}{(' ' + u) if u else ''}"
    at_once = all_at_once(r, family) if row_family(r) is not None else f"all {family} tested metrics"
    return (head + f"{at_once} at once: {interval}, on both sides of the smallest "
            f"difference that matters, {that}; more games would tell).")


def holm_note(r: dict, family: int) -> str:
    """Why a change whose interval excludes zero is still not significant, or '': Holm's
    correction over the row's family ("the 4 seat win shares"; in a table without families, the
    ``family`` compared metrics)."""
    if r["significant"] or not (r["diff_low"] > 0 or r["diff_high"] < 0):
        return ""
    return (f"its interval excludes zero, but after Holm's correction over "
            f"{holm_over(r, family, ' compared metrics')} ({pvalue(r['p_adjusted'])}) it is within what "
            f"chance gives when that many numbers are compared")


_VERDICT_READ_ON = ("each size read on the change's interval over {family} at once, Bonferroni, "
                    "given after its verdict")
"""How a before/after's seat sentence says which interval its verdicts were read on
(:func:`verdict_with_range`); :data:`_CUT_AT_ZERO` follows when one of them is cut at 0."""

_CUT_AT_ZERO = ": cut at 0 where Holm shows the sign but that wider interval still holds 0"


def _read_on(rows: pl.DataFrame, family: int) -> str:
    """Which interval the verdicts of ``rows`` (clear seat or role changes) were read on (over
    their family at once, :func:`all_at_once`; ``family`` in a table without families), and, when
    one of them holds 0 and is shown cut there (:func:`size_range`), why."""
    cut = any(np.isfinite(r["size_low"]) and np.isfinite(r["size_high"])
              and size_range(r["diff"], r["size_low"], r["size_high"]) != (r["size_low"], r["size_high"])
              for r in rows.iter_rows(named=True)
              if r.get("size_low") is not None and r.get("size_high") is not None)
    first = rows.row(0, named=True) if rows.height else {}
    return _VERDICT_READ_ON.format(family=all_at_once(first, family)) + (_CUT_AT_ZERO if cut else "")


def _holm_alone(rows: pl.DataFrame) -> str:
    """What the first answers' Holm correction ran over: "the 4 seat win shares alone" (their
    family, :func:`row_family`: the other tested metrics are a family of their own), or "the
    tested metrics" in a table without families."""
    own = row_family(rows.row(0, named=True)) if rows.height else None
    return f"the {family_noun(*own)} alone" if own is not None else "the tested metrics"


def _seat_change(r: dict, d: int | None = None) -> str:
    """``Seat 2 24.71% → 24.95% (+0.24 pp, 95% interval …)``: a seat's (role's) win share before
    and after and the change, to ``d`` decimals, by default the ones that make them agree
    (:func:`metric_digits`; a sentence of several seats passes their :func:`common_digits`)."""
    d = metric_digits(r) if d is None else d
    before, after = (metric_value(r[k], r["metric"], r["kind"], d) for k in ("base", "variant"))
    di = interval_digits(r, r["diff_low"], r["diff_high"], d)
    return (f"{metric_label(r).replace(' win share', '')} {before} → {after} "
            f"({pp(shown_change(r, d), d)}, 95% interval {pp_ci(r['diff_low'], r['diff_high'], di)})")


def moved_opener(verdicts, smallest: float | None) -> str:
    """How a before/after's first answer opens, by the size of what moved beyond noise (review R
    #4: "Yes" stood before a change the same sentence called "clear but small", whose whole
    interval lay under the 1 pp that matters): "Yes, by enough to matter" when one change is
    clear and large enough; "Yes, perhaps by enough to matter (these games cannot tell)" when the
    largest may matter; "Not by enough to matter (beyond noise, but each by less than the
    smallest difference that matters, 1 pp)" when every one is clear but small; else "Yes" (the
    verdicts unknown). ``verdicts``: the moved rows' verdicts; ``smallest`` a share, as a row's."""
    given = [x for x in verdicts if x]
    v = set(given)
    if stats.LARGE in v:
        return "Yes, by enough to matter"
    if stats.MAY_MATTER in v:
        return "Yes, perhaps by enough to matter (these games cannot tell)"
    if v and v <= {stats.SMALL}:
        said = f", {100 * smallest:g} pp" if smallest else ""
        each = "each " if len(given) > 1 else ""
        return (f"Not by enough to matter (beyond noise, but {each}by less than the smallest difference "
                f"that matters{said})")
    return "Yes"


def seat_question(cmp: pl.DataFrame, unit: str = "points", game: str | None = None) -> str:
    """The designer's first question about a before/after: did the seat (or, in a game of roles,
    the role) win rates move? Yes or no, by how much, every seat (role) that moved. ``game`` names
    the other side of a two-side game (its spec's roles)."""
    roles = cmp.filter(pl.col("metric") == "role_win_share")
    rows = roles if roles.height else cmp.filter(pl.col("metric") == "seat_win_share")
    what = "role" if roles.height else "seat"
    if rows.height == 0:
        # (review s52 Fief #5: "seat" in a combat of two sides, and "no win shares" beside two runs
        # whose attacker took the fief in every combat: a share the same in every game of both
        # runs cannot move, so it is listed with the metrics not compared, not tested)
        spec = spec_for(game) if game is not None else None
        if spec is not None and not spec.roles_alike:
            what = "side"
        return (f"Did the {what} win rates move? Not tested: no {what}'s win share can be compared "
                f"(a {what} that wins every game, or none, in both runs cannot move; the page lists it "
                "among the rows left out of the table).")
    # a seat (side) where no game differs between the runs is not tested: said apart, with the
    # games' bound on its change, never as "0.0 pp (0.0 to 0.0 pp), within noise" (review N #8)
    same = rows.filter(pl.col("same_games").is_not_null()) if "same_games" in rows.columns else rows.clear()
    rows = rows.filter(pl.col("same_games").is_null()) if same.height else rows
    if rows.height == 0:
        return f"Did the {what} win rates move? No: " + _same_games_clause(same, what, alone=True) + "."
    unmoved = f"; {_same_games_clause(same, what)}" if same.height else ""
    moved = rows.filter(pl.col("significant")).with_columns(pl.col("diff").abs().alias("_a")).sort(
        "_a", descending=True)
    if moved.height:
        # each with its verdict: the seat rows are left out of the lists of changes that follow (this
        # question answers for them), so this is where a seat's change is sized
        # one precision for the whole sentence ("Seat 3 30.05% → 31.07% … Seat 2 24.7% → 23.9%" read
        # as two kinds of number), the one at which every seat's three numbers agree
        d = common_digits(list(rows.iter_rows(named=True)))      # (every seat's: the figure's too)
        # each verdict beside the interval it was read on, named (review O #4): the seat's own 95%
        # interval can lie wholly under 1 pp beside "may matter", read on the family's interval
        family = tested_count(cmp)
        parts = [_seat_change(r, d) + (f", {verdict_with_range(r, 'pp', family, d)}" if r.get("verdict") else "")
                 for r in moved.iter_rows(named=True)]
        rest = rows.height - moved.height
        # the ones that stayed, named with their values (review 45 #2: "the other 1 seat stayed
        # within noise" was Seat 1, the seat the changed start coins were meant to help)
        quiet = rows.filter(~pl.col("significant"))
        stayed = ", ".join(f"{metric_label(x).replace(' win share', '')} "
                           f"{metric_value(x['base'], x['metric'], x['kind'], d)} → "
                           f"{metric_value(x['variant'], x['metric'], x['kind'], d)}"
                           for x in quiet.iter_rows(named=True))
        tail = ((f"; the other {what}, {stayed}, stayed within noise" if rest == 1 else
                 f"; the other {rest} {what}s ({stayed}) stayed within noise") if rest else "")
        opener = moved_opener(moved["verdict"].to_list() if "verdict" in moved.columns else [],
                              moved["smallest"][0] if "smallest" in moved.columns else None)
        # every change clear but small: a side or seat winning less than the smallest difference
        # itself may have doubled its chances (review Y #7: "Seigneur side 0.4% → 0.8% … clear but
        # small" with no word that its share doubled nor how to size smaller changes)
        low = (_below_smallest(rows, float(moved["smallest"][0]), what)
               if opener.startswith("Not by enough") and "smallest" in moved.columns
               and moved["smallest"][0] is not None else "")
        claim = _factor_claim(rows, float(moved["smallest"][0]))[1] if low else ""
        if claim:
            # a share below the smallest difference itself moved by a large factor: said in the
            # opener, not only sentences later (a designer stopped at "Not by enough to matter"
            # beside a Seigneur whose wins fell 3.7 times); "large" read on the factor's interval,
            # else the factors that interval allows (review s64 #1, factor_size)
            opener += f", though {claim} for a share this small (below)"
        if what == "role" and rows.height == 1:
            # two sides: the comparison keeps one, the other's share is its mirror (they sum to 100%)
            # the other side said too, in view (a designer read "both sides' shares moved" beside
            # one side's numbers, the mirror's words folded away on the page)
            r0 = moved.row(0, named=True)
            # 100% minus the share as printed, so that the two printed figures sum to 100% as the
            # sentence says (review 214 #9: 0.38% beside 99.63%, 0.375% and 99.625% both rounded
            # away from zero); within half a unit of the mirror's own share, a tie the other way
            mirror = " → ".join(metric_value(1.0 - _as_printed(float(r0[k]), r0["metric"], r0["kind"], d),
                                             r0["metric"], r0["kind"], d)
                                for k in ("base", "variant"))
            spec = spec_for(game) if game else None
            other = [x.display for x in getattr(spec, "roles", ()) if x.name != r0["key"]]
            whose = f"the {other[0]} side's" if len(other) == 1 else "the other side's"
            return (f"Did the role win rates move? {opener}: both sides' shares moved beyond noise (clear "
                    f"after Holm's correction over {_holm_alone(moved)}; "
                    f"{_read_on(moved, family)}; the other side's share is this "
                    "one's mirror, the two sum to 100%): " + "; ".join(parts)
                    + f", and so {whose} share {mirror}." + low)
        return (f"Did the {what} win rates move? {opener}: {moved.height} of {rows.height + same.height} {what}s "
                f"moved beyond noise (clear after Holm's correction over {_holm_alone(moved)}; "
                f"{_read_on(moved, family)}): " + "; ".join(parts) + tail + unmoved + "." + low)
    r = rows.with_columns(pl.col("diff").abs().alias("_a")).sort("_a", descending=True).row(0, named=True)
    why = holm_note(r, tested_count(cmp))
    room = _room_for_a_change(rows, what)
    # answered by size (review V #1: "No" opened a sentence whose intervals reached three times the
    # 1 pp that matters): "No" only where every interval rules out a change that matters
    answer = "Cannot tell" if room.startswith(" These games cannot rule out") else "No"
    return (f"Did the {what} win rates move? {answer}: no {what}'s win share changed beyond noise. The largest "
            f"change is {_seat_change(r, named_change_digits(r, common_digits(list(rows.iter_rows(named=True)))))}"
            + (f": {why}" if why else ", within noise") + unmoved + "." + room)


LARGEST_OTHER = "Largest other changes:"
"""How the first answer's last sentence opens (:func:`largest_other_changes`)."""

# the first words of a label that read in lower case inside a sentence ("game length", "games with
# at least one reshuffle"); a name (Seat 4, a card, a guild) keeps its capital
_COMMON_FIRST_WORDS = {"mean", "games", "game", "winner's", "win", "leader", "lead", "shared", "share",
                       "biggest", "players", "reshuffles", "length"}


def _short_label(r: dict) -> str:
    """A compared row's name inside a sentence: "game length", "games with at least one reshuffle",
    "Seat 4 mean final score", "Sorcière: players founding a guild"."""
    label = metric_label(r)
    if r["metric"] in ("mean_turns", "mean_length"):
        label = label.removeprefix("Mean ").strip() or label
        label = "game length" if r["metric"] == "mean_turns" else label
    first = label.split(" ", 1)[0]
    return label[:1].lower() + label[1:] if first.lower() in _COMMON_FIRST_WORDS else label


def relative_change(r: dict) -> float | None:
    """A mean's change as a fraction of its value before (diff / |before|: game length −24.0 turns
    from 54.7 is −0.44); None for a share, a slope or an index (their change is already a part of
    the whole, in pp), or a mean whose value before is 0 or missing."""
    if r.get("kind") != "mean" or r.get("metric") in INDEX_METRICS:
        return None
    b, d = r.get("base"), r.get("diff")
    if b is None or d is None or not (np.isfinite(b) and np.isfinite(d)) or b == 0:
        return None
    return float(d) / abs(float(b))


def relative_size(r: dict) -> float:
    """How large a change is against the whole it is part of, to rank changes of different units:
    a mean's change against its value before (:func:`relative_change`: −24.0 turns of 54.7, 0.44);
    a share's or a slope's change as it is, a part of all games or players (−35.9 pp, 0.359;
    measured against its own value a rare share moving 0.1% → 0.3% would outrank every other).
    -1 for a mean whose value before is 0 (no relative size: ranked last)."""
    rel = relative_change(r)
    if rel is not None:
        return abs(rel)
    if r.get("kind") in ("proportion", "slope"):
        d = r.get("diff")
        return abs(float(d)) if d is not None and np.isfinite(d) else -1.0
    return -1.0


def _relative_words(rel: float) -> str:
    """A relative change in per cent, as printed beside a change: "−44%", "+4.9%"."""
    x = 100 * rel
    return signed(x, 0 if abs(x) >= 10 else 1) + "%"


def largest_other_changes(cmp: pl.DataFrame, unit: str = "points", exclude=(), most: int = 3) -> str:
    """The first answer's last sentence: the largest changes outside the seats' (roles') family
    (``family`` "other metrics": :func:`analysis.compare.family_of`) that are clear and large enough
    to matter, up to ``most``, biggest first by relative size (:func:`relative_size`), one row per
    kind of metric (the seats' mean scores moving together are named once, as the seats', with the
    largest: :func:`_scores_together`),
    each with its change as the table prints it: "Largest other changes: game length −24.02 turns
    (−44%); games with at least one reshuffle −35.9 pp (38.0% → 2.2%)." A mean's relative change is
    against its value before; a share's values before and after stand beside its change in pp.
    ``exclude``: metrics a first answer already gives (a combat's outcomes). '' when there are none,
    or in a table without families."""
    if "family" not in cmp.columns or "verdict" not in cmp.columns:
        return ""
    rows = cmp.filter((pl.col("family") == OTHER_FAMILY) & (pl.col("verdict") == stats.LARGE)
                      & ~pl.col("metric").is_in(list(exclude)))
    best: dict[str, dict] = {}
    kin: dict[str, list[dict]] = {}
    for r in rows.iter_rows(named=True):
        if r["kind"] == "index":
            continue
        k = r["metric"]
        kin.setdefault(k, []).append(r)
        if k not in best or relative_size(r) > relative_size(best[k]):
            best[k] = r
    ranked = sorted(best.values(), key=lambda r: -relative_size(r))[:most]
    if not ranked:
        return ""
    parts = []
    for r in ranked:
        u = metric_unit(r["metric"], r["kind"], unit, r.get("key"))
        # a share at the decimals where its before, after and change printed agree; a mean, whose
        # values are not printed here, as its change rounded to its own decimals (−0.33, not −0.3263;
        # +5.38 for +5.3755, not the +5.37 between its values rounded apart)
        slope = r["metric"] == "tile_slope"
        d = metric_digits(r)
        change, _ = (metric_change(r, u, d) if r["kind"] == "proportion" or slope or r.get(PAGE_DIGITS) is not None
                     else metric_change(r, u))
        rel = relative_change(r)
        if slope:
            # the slope before and after, as the list below gives it, and its change named as one
            # (review s55 #2: "win share per extra Palais tile +3.5 pp per tile" for a slope of
            # −1.7 → +1.8 read as the slope itself)
            tail = f" (the slope's change {change})"
            change = (f"{metric_value(r['base'], r['metric'], r['kind'], d)} → "
                      f"{metric_value(r['variant'], r['metric'], r['kind'], d)} {u}")
        elif r["kind"] == "proportion":
            tail = f" ({metric_value(r['base'], r['metric'], r['kind'], d)} → {metric_value(r['variant'], r['metric'], r['kind'], d)})"
        elif rel is not None:
            tail = f" ({_relative_words(rel)})"
        else:
            tail = ""
        together = _scores_together(r, kin.get(r["metric"], []), cmp)
        if together:
            # a seat whose start the changed rules moved, named (review #20, s38)
            starts = "; ".join(w for w in (start_words(x, u, metric_label(x).split(" mean ", 1)[0])
                                           for x in kin.get(r["metric"], [])) if w)
            part = together(change, tail)
            parts.append(f"{part[:-1]}; {starts})" if starts and part.endswith(")") else part)
        else:
            start = start_words(r, u)
            if start:
                tail = f"{tail[:-1]}; {start})" if tail.endswith(")") else f" ({start})"
            # a tile's slope whose curve bends keeps its warning here too (review s48 MA #4: the
            # list below said it, this sentence dropped it)
            if bends(r):
                bent = (f"a straight-line summary only: the curve bends, the line explaining "
                        f"{100 * r['base_fit']:.0f}% of it before, {100 * r['variant_fit']:.0f}% after")
                tail = f"{tail[:-1]}; {bent})" if tail.endswith(")") else f" ({bent})"
            parts.append(f"{_short_label(r)} {change}{tail}")
    return f"{LARGEST_OTHER} " + "; ".join(parts) + "."


def _scores_together(top: dict, moved: list[dict], cmp: pl.DataFrame):
    """Where several seats' mean final scores moved the same way, each clear and large enough to
    matter, the largest alone would read as one seat's change ("Seat 4 mean final score −51%" when
    every seat's fell by 45-51%): a function wording it for the seats together, "every seat's mean
    final score, −45% to −51% (the most in proportion: Seat 4, −2.78 guild cards)", or None (one seat moved,
    another metric, or the seats moved apart)."""
    if top["metric"] != "seat_mean_score" or len(moved) < 2:
        return None
    signs = {np.sign(float(x["diff"])) for x in moved if x.get("diff") is not None}
    rels = [relative_change(x) for x in moved]
    if len(signs) != 1 or any(v is None for v in rels):
        return None
    n_all = cmp.filter(pl.col("metric") == "seat_mean_score").height
    who = "every seat's" if len(moved) == n_all else f"{len(moved)} of the {n_all} seats'"
    lo, hi = sorted(rels, key=abs)[0], sorted(rels, key=abs)[-1]
    span = _relative_words(lo) if _relative_words(lo) == _relative_words(hi) else \
        f"{_relative_words(lo)} to {_relative_words(hi)}"
    seat = _short_label(top).split(" mean ", 1)[0]
    # "the most" as the span reads, in proportion: in the score's unit another seat may have moved
    # more (review D #1, s41: "the most: Seat 4, +4.31 coins" beside Seat 2's +4.35 coins)
    return lambda change, tail: f"{who} mean final score, {span} (the most in proportion: {seat}, {change})"


def with_balance(answer: str, balance: str) -> str:
    """The seats' answer with whether the seats moved toward or away from fair (``balance``:
    :func:`seat_balance_sentence`) in it, before its last sentence, the largest other changes
    (:data:`LARGEST_OTHER`), so that the answer still ends with them."""
    if not balance:
        return answer
    at = answer.find(f" {LARGEST_OTHER} ")
    if at < 0:
        return f"{answer} {balance}"
    return f"{answer[:at]} {balance}{answer[at:]}"


SPLIT_METRIC = "seat_share_of_role_wins"     # analysis.panel_compare.SPLIT_METRIC (no import here)


def _small_thresholds(cmp: pl.DataFrame, unit: str) -> str:
    """The smallest differences the clear-but-small changes were read against, by unit: "1 pp for
    shares", "1 points", "1 pp for shares, 2 points" (review S #9: "(1 pp for shares)" stood beside a
    clear but small change of a mean score in points); "1 pp for shares" when none is small."""
    small = cmp.filter(pl.col("verdict") == stats.SMALL) if "verdict" in cmp.columns else cmp.clear()
    seen: dict[str, str] = {}
    for r in small.iter_rows(named=True):
        u = metric_unit(r["metric"], r["kind"], unit, r.get("key"))
        s = r.get("smallest")
        if s is None or s != s:
            continue
        # 1 point, 1 turn, 1 player turn; "% of own goal" as "pp of own goal"
        if u.startswith("%"):
            # a difference of a percentage is in pp (review s50 PDF: "2 % of own goal" beside
            # changes in "pp of own goal"); the smallest is in the score's own points, not a fraction
            seen.setdefault(u, f"{s:g} pp{u[1:]}")
            continue
        # (a share's and a tile slope's are fractions: 0.01 is 1 pp, 1 pp per tile; review U #3
        # read "0.01 pp per tile")
        seen.setdefault(u, f"{100 * s:g} pp for shares" if u == "pp" else f"{100 * s:g} {u}" if u.startswith("pp ")
                        else f"{s:g} {singular(u) if s == 1 else u}".strip())
    if seen:
        return ", ".join(seen.values())
    # none is small: the shares' amount the table was read against, not always 1 pp (session 56
    # review #2: "(1 pp for shares)" beside verdicts read against --smallest-difference win_share=2pp)
    shares = cmp.filter(pl.col("kind") == "proportion")["smallest"].drop_nulls().drop_nans() \
        if "smallest" in cmp.columns and "kind" in cmp.columns else pl.Series([], dtype=pl.Float64)
    return f"{100 * float(shares[0]):g} pp for shares" if shares.len() else "1 pp for shares"


#: The kinds of smallest difference a before/after names, in the order it names them.
AMOUNT_KINDS = ("share", "slope", "count", "score", "length")


def smallest_amounts(cmp: pl.DataFrame, unit: str, game: str | None = None) -> str:
    """The smallest differences that matter a before/after's tested rows were sized against, one
    per kind present, as "How this is measured" states them (session 56 review #2: it said "1 pp
    for shares, … the game's own amount for scores" beside verdicts read against
    ``--smallest-difference win_share=2pp,score=3``): "2 pp for shares, 2 pp per tile for tile
    slopes, 0.1 a game for lead changes, 0.01 a game for reshuffles, 3 coins for scores, 1 turn for
    game lengths" (``unit``: the game's score unit; a score in "% of own goal" is sized in pp of own
    goal; counts per game sized alike named together: "0.2 a game for lead changes and
    reshuffles"). '' when no tested row has one (the Balance indices are not tested)."""
    from analysis.compare import COUNT_METRICS

    if "smallest" not in cmp.columns or "kind" not in cmp.columns:
        return ""
    seen: dict[str, dict[str, None]] = {k: {} for k in AMOUNT_KINDS}
    counts: dict[float, dict[str, None]] = {}     # amount → the counts per game sized at it
    for r in cmp.filter(pl.col("kind") != "index").iter_rows(named=True):
        s = r.get("smallest")
        if s is None or s != s:
            continue
        m, k = r["metric"], r["kind"]
        if k == "proportion":
            seen["share"][f"{100 * s:g} pp for shares"] = None
        elif k == "slope":
            seen["slope"][f"{100 * s:g} {metric_unit(m, k, unit, r.get('key')) or 'pp'} for tile slopes"] = None
        elif m in COUNT_METRICS:
            # (a count's label: "Mean reshuffles per game", analysis.compare._count_labels)
            counts.setdefault(s, {})["lead changes" if m.startswith("lead_changes") else
                                    re.sub(r"^Mean (.*) per game$", r"\1", str(r.get("label") or ""))
                                    or "counts per game"] = None
        elif m in ("mean_turns", "mean_length"):
            u = length_unit(game) if m == "mean_turns" else metric_unit(m, k, unit, r.get("key"))
            seen["length"][f"{amount(f'{s:g}', u)} for game lengths"] = None
        else:
            u = metric_unit(m, k, unit, r.get("key")) or unit
            said = f"{s:g} pp{u[1:]}" if u.startswith("%") else amount(f"{s:g}", u)
            seen["score"][f"{said} for scores"] = None
    for s, names in sorted(counts.items(), key=lambda x: -x[0]):      # (the lead changes' first)
        n = list(names)
        seen["count"][f"{s:g} a game for " + (", ".join(n[:-1]) + " and " + n[-1] if len(n) > 1 else n[0])] = None
    return ", ".join(x for k in AMOUNT_KINDS for x in seen[k])


def split_question(cmp: pl.DataFrame) -> str:
    """A before/after of a game whose role has several seats, its second question: did the split of
    that role's wins among its seats move? (review R #2: a Seigneurial pair page listed the three
    Censitaire seats' win shares as changes that matter, −2.2, −2.7 and −3.3 pp, which together
    mirror the Seigneur's +8.2 pp, and never said whether the split among the Censitaires moved).
    Each seat's share of its role's wins before → after (:func:`analysis.compare.
    role_split_vectors`), the ones that moved beyond noise with their verdicts beside the interval
    they were read on, or the largest change; '' without such rows."""
    rows = cmp.filter(pl.col("metric") == SPLIT_METRIC)
    if rows.height == 0:
        return ""
    role = re.sub(r"^Seat \d+'s share of the (.*) wins$", r"\1", str(rows["label"][0]))
    ask = f"Did the split of the {role} wins among their seats move?"
    return _split_answer(cmp, rows, role, ask) + _split_after(rows, role)


def _split_after(rows: pl.DataFrame, role: str) -> str:
    """Where the split ends after the change: each seat's share of the role's wins in the variant
    with its 95% interval, against the equal share (review Y #2: the before/after said the seats
    moved, never where they ended up, which is the designer's question: are they fair now?)."""
    if not all(c in rows.columns for c in ("variant", "variant_low", "variant_high")):
        return ""
    seat = lambda r: int(re.sub(r"\D", "", str(r["key"])) or 0)     # noqa: E731
    name = lambda r: re.sub(r"'s share of .*$", "", str(r["label"]))      # noqa: E731 ("Seat 2")
    listed = ", ".join(f"{name(r)} {pct_ci(r['variant'], r['variant_low'], r['variant_high'])}"
                       for r in sorted(rows.iter_rows(named=True), key=seat))
    return f" After the change the seats take {listed} of the {role} wins, against an equal {pct(1 / rows.height)}% each."


def _split_answer(cmp: pl.DataFrame, rows: pl.DataFrame, role: str, ask: str) -> str:
    family = tested_count(cmp)
    moved = rows.filter(pl.col("significant")).with_columns(pl.col("diff").abs().alias("_a")).sort(
        "_a", descending=True)
    if moved.height:
        d = common_digits(list(moved.iter_rows(named=True)))
        parts = [_seat_change(r, d) + (f", {verdict_with_range(r, 'pp', family, d)}" if r.get("verdict") else "")
                 for r in moved.iter_rows(named=True)]
        rest = rows.height - moved.height
        opener = moved_opener(moved["verdict"].to_list(), moved["smallest"][0])
        return (f"{ask} {opener}: {moved.height} of {rows.height} seats' shares moved beyond noise "
                f"(clear after Holm's correction over {_holm_alone(moved)}; {_read_on(moved, family)}): "
                + "; ".join(parts) + (f"; the other {rest} stayed within noise" if rest else "")
                + ". (Each seat's win share of all games also carries its role's change: read the split here.)")
    r = rows.with_columns(pl.col("diff").abs().alias("_a")).sort("_a", descending=True).row(0, named=True)
    why = holm_note(r, family)
    return (f"{ask} No: no seat's share moved beyond noise. The largest change is {_seat_change(r, named_change_digits(r))}"
            + (f": {why}" if why else ", within noise") + "."
            + " (Each seat's win share of all games also carries its role's change: read the split here.)")


def gap_digits(r: dict, smallest: float | None = None, most: int = 3, from_shares: bool = False) -> int:
    """The decimals of a largest gap from the fair share before and after and its change (pp; a
    :func:`analysis.panel_compare.seat_balance` row): as many as the change's range needs for no
    end to print as 0 or as the smallest difference that matters without being it
    (:func:`verdict_digits`), and more (up to ``most``) while the printed before and after would
    not give the printed change. ``smallest``: the row's own when not given. ``from_shares``: the
    gaps as :func:`shown_gap` prints them (each seat's printed share minus the printed fair share),
    else each gap rounded. The two-run and the panel before/after print their balance rows so."""
    small = float(r.get("smallest") or 0.0) if smallest is None else smallest
    d = verdict_digits(r["change_low"], r["change_high"], small)

    def gap(when: str, k: int) -> float:
        return shown_gap(r, when, k) if from_shares else rounded(100 * r[when], k)
    while d < most and rounded(gap("after", d) - gap("before", d), d) != rounded(100 * r["change"], d):
        d += 1
    return d


def shown_gap(r: dict, when: str, d: int) -> float:
    """The size of a balance row's largest gap ``when`` ("before", "after"), in pp at ``d``
    decimals, as the seat's printed share minus the printed fair share
    (:func:`simcore.numbers.fair_gap`, as ``simulate``'s closing table prints it: review s55 #1,
    "24.53%" and "−0.47 pp" there, "0.48 pp" here, for a share of 24.525%); the gap rounded where
    the row has no signed gap or fair share."""
    signed_gap, fair = r.get(f"{when}_signed_gap"), r.get("fair")
    if signed_gap is None or fair is None or not (np.isfinite(signed_gap) and np.isfinite(fair)):
        return rounded(100 * r[when], d)
    return abs(numbers.fair_gap(100 * (fair + signed_gap), 100 * fair, d))


def untold_gap_words(r: dict, d: int, where: str = "", fair: str = "the fair share") -> str:
    """Why a largest gap's change cannot be told when the seats' own changes may be clear (review Z
    #1: "Seat 1 −7.2 pp, clear and large enough to matter" beside "toward or away: these games
    cannot tell" read as a contradiction): the ranges of the gap before (its low end) and after
    (its high end) overlap, and a seat that moved clearly may have crossed ``fair``, what the gap is
    from ("the equal split" of a role's wins in a game with roles, which has no fair share: review
    s42 A #7). '' when they do not overlap. A gap that grew is asked the other way: whether it grew
    at all, from the before's high end and the after's low end, "so it may be no larger" (review s53
    #3: "4.85 → 5.06 pp … so it may be no smaller" argued for a fall the games never suggested)."""
    grew = (r.get("change") or 0.0) > 0
    # (grew: the before's high end against the after's low end; else the before's low against the
    # after's high)
    b, a = (r.get("before_high"), r.get("after_low")) if grew else (r.get("before_low"), r.get("after_high"))
    if b is None or a is None or not (b > a if grew else a > b):
        return ""
    before, after = ((f"up to {pct(b, d)} pp", f"{pct(a, d)} pp or more") if grew else
                     (f"{pct(b, d)} pp or more", f"up to {pct(a, d)} pp"))
    return (f"; {where}the games put the largest gap at {before} before and at {after} after, so it "
            f"may be no {'larger' if grew else 'smaller'}, even where a seat moved clearly (it may "
            f"have crossed {fair}); more games would tell")


def seat_balance_sentence(balance: pl.DataFrame | None, cmp: pl.DataFrame) -> str:
    """Whether a two-run before/after moves the seats toward or away from a fair share (review O
    #3: the page gave each seat's direction only, and its two Balance indices, untested, moved
    opposite ways): the largest gap of a seat's win share from 1/P before → after (the runs'
    values, whose it is) and its change with the range every seat's interval over both runs allows
    at once, worded by size (``balance``: one row of :func:`analysis.panel_compare.run_pair_balance`); then the
    table's Balance indices (``cmp``'s untested ``balance`` and ``win_share_balance`` rows), said to be
    untested and which way each moved. '' without a row (a game with roles: no fair seat share)."""
    if balance is None or balance.height == 0:
        return ""
    # which way the seats that moved clearly went, said where the largest gap cannot tell (a name of
    # its own: "after" is the gap after, a number, which the "Neither" branch printed as a stray
    # "4.9" after the sentence, session 56 review #3)
    moved = ""
    r = balance.row(0, named=True)
    small = cmp.filter(pl.col("metric") == "seat_win_share")["smallest"]
    r["smallest"] = float(small[0]) if small.len() else 0.0
    d = gap_digits(r, from_shares=True)
    fair = f"{pct(r['fair'], 1)}%"
    ask = f"Toward or away from a fair seat share (1/P = {fair})?"
    def side(key: str) -> str:
        # which side of fair the named seat is on (review R #9: with 3 or more players the largest
        # gap may be a seat below fair, which the sentence did not say)
        g = r.get(f"{key}_signed_gap")
        return "" if g is None or g != g or g == 0 else (", above fair" if g > 0 else ", below fair")

    # the change's interval is over the family at once: said beside it, in view where the page folds
    # how it is read (a designer took it for a plain 95% interval, the page's note saying "each on
    # its own, unless marked as adjusted")
    at_once = f"all {int(r['family'])} at once: " if r.get("family") else ""
    # each gap as its seat's printed share minus the printed fair share (review s55 #1), the change
    # their difference as printed (gap_digits: the change rounded, but at its cap)
    before, after = shown_gap(r, "before", d), shown_gap(r, "after", d)
    gap = (f"the largest gap of a seat's win share from {fair} {{verb}} {before:.{d}f} pp "
           f"(Seat {r['before_seat']}{side('before')}) {{to}} {after:.{d}f} pp "
           f"(Seat {r['after_seat']}{side('after')}), a change of "
           f"{pp((after - before) / 100, d)} ({at_once}{pp_ci(r['change_low'], r['change_high'], d)}), "
           f"{verdict_words(r['verdict'])}")
    paired = bool(r.get("paired"))
    same = paired and "same_games" in cmp.columns and cmp.filter(pl.col("metric") == "seat_win_share")[
        "same_games"].is_not_null().all()
    if same:
        # no game differs: nothing can have moved (designer review: "cannot tell" beside "no game
        # differs" read as a contradiction)
        words = (f"Unchanged: no game differs between the runs, so the largest gap of a seat's win share "
                 f"from {fair} stays {before:.{d}f} pp (Seat {r['before_seat']}{side('before')})")
    elif r["verdict"] == stats.NOT_SHOWN and paired and r["smallest"] > 0 \
            and max(abs(r["change_low"]), abs(r["change_high"])) < r["smallest"]:
        words = (f"Neither by a change that matters: {gap.format(verb='goes from', to='to')}; these games "
                 f"leave no room for a change of the {100 * r['smallest']:g} pp that matters")
    elif r["verdict"] == stats.NOT_SHOWN:
        words = (f"These games cannot tell: {gap.format(verb='goes from', to='to')}"
                 + ("; more games would tell" if paired else untold_gap_words(r, d)))
        moved = _moved_from_fair(cmp, r["fair"], fair)
    elif r["change"] < 0:
        words = "Toward: " + gap.format(verb="shrinks from", to="to")
    else:
        words = "Away: " + gap.format(verb="grows from", to="to")
    n = int(r["family"])
    how = (f" (before → after: the runs' values; the change read on the pairing, game by game: every "
           f"seat's win share before and after and its paired change, all {n} at once, Bonferroni, each "
           f"at level 1 − 0.05/{n})" if paired and not same else
           " (before → after: the runs' values)" if same else
           f" (before → after: the runs' values; the change read on the range that every seat's Wilson "
           f"interval allows, all {n} of both runs at once, Bonferroni, each at level 1 − 0.05/{n}: wider "
           "than a paired test of the gap would be)")
    out = f"{ask} {words}{how}." + (f" {moved}" if moved else "")
    idx = {x["metric"]: x for x in cmp.filter(pl.col("metric").is_in(list(INDEX_METRICS))).iter_rows(named=True)}
    if len(idx) == 2:
        # which way each moved, as printed (three decimals): review R #8 read "both fall" beside
        # "Balance 0.992 → 0.992" (−0.00008)
        shown = {m: (num(idx[m]["base"], 3), num(idx[m]["variant"], 3)) for m in INDEX_METRICS}
        printed = lambda s: float(s.replace("−", "-"))  # noqa: E731
        moves = [printed(shown[m][1]) - printed(shown[m][0]) for m in INDEX_METRICS]
        moves = [0.0 if abs(x) < 5e-4 else x for x in moves]
        way = ("move opposite ways" if moves[0] * moves[1] < 0 else "both rise" if min(moves) > 0
               else "both fall" if max(moves) < 0 else "")
        said = "; ".join(f"{name} {shown[m][0]} → {shown[m][1]}"
                         + ("" if way else ", up" if x > 0 else ", down" if x < 0 else ", the same at three decimals")
                         for m, name, x in zip(INDEX_METRICS, ("Balance, on places,", "win-share balance, on wins,"),
                                               moves))
        out += (f" The table's two Balance indices{' ' + way if way else ''}, untested ({said}): whether "
                "balance got better or worse is read on the largest gap above.")
    return out


def _moved_from_fair(cmp: pl.DataFrame, fair: float, shown: str) -> str:
    """Which way the seats that moved clearly went, against the fair share, where the largest gap
    cannot tell (review 45 #1: "These games cannot tell" whether balance got better or worse, while
    Seat 2 24.8% → 22.7%, Seat 3 29.9% → 30.7% and Seat 4 25.1% → 26.4%, all clear, all moved away
    from 25%): "Every seat that moved clearly moved away from the fair 25.0%: Seat 2, Seat 3 and
    Seat 4."; toward it; or which did which (``shown``: the fair share as printed). '' when no
    seat moved clearly."""
    if "significant" not in cmp.columns:
        return ""
    seats = cmp.filter((pl.col("metric") == "seat_win_share") & pl.col("significant"))
    if seats.height == 0:
        return ""
    away, toward = [], []               # (seat, whether it crossed the fair share)
    for x in seats.sort("key").iter_rows(named=True):
        before, after = x["base"] - fair, x["variant"] - fair
        # a crossing from one side of fair to the other is said beside toward or away by distance
        # (review s51: 23.0% → 26.9% "toward" the fair 25.0% by 1.9 < 2.0 hid a swing of 3.9 pp
        # through it; "crossed" alone then hid Seat 4's 25.2% → 19.8%, away); the seat's before →
        # after, printed just before this sentence, gives the distances at the page's precision
        (away if abs(after) > abs(before) else toward).append(
            (metric_label(x).replace(" win share", ""), before * after < 0))

    def listed(seats_):
        names = [f"{n} (crossing it)" if crossed else n for n, crossed in seats_]
        return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]

    def one(seats_, verb):         # a lone seat: its crossing, if any, after the fair share
        seat, crossed = seats_[0]
        return (f"The one seat that moved clearly, {seat}, {verb} the fair {shown}"
                + (", crossing it" if crossed else "") + ".")

    if not toward:
        return (f"Every seat that moved clearly moved away from the fair {shown}: {listed(away)}." if len(away) > 1
                else one(away, "moved away from"))
    if not away:
        return (f"Every seat that moved clearly moved toward the fair {shown}: {listed(toward)}." if len(toward) > 1
                else one(toward, "moved toward"))
    return (f"Of the seats that moved clearly, {listed(toward)} moved toward the fair {shown} and "
            f"{listed(away)} away from it.")


def _same_games_clause(same: pl.DataFrame, what: str, alone: bool = False) -> str:
    """The seats (sides) of a before/after where no game differs between the runs, in one clause:
    "the Seigneur side has the same result in every one of the 20,000 games of both runs (paired
    game by game: no game differs), so its win share changed in none of them and its change is at
    most 0.015 pp either way (95% bound), within the 1 pp that matters" (:func:`analysis.stats.
    same_games_bound`); ``alone``: every seat (side) of the question is one, so the clause answers
    it (whether these games leave room for a change that matters)."""
    first = same.row(0, named=True)
    names = [metric_label(r).replace(" win share", "") for r in same.iter_rows(named=True)]
    many = len(names) > 1
    who = (", ".join(names[:-1]) + " and " + names[-1]) if many else names[0]
    if alone and many:
        who = f"every {what} ({who})"
    bound = max(float(x) for x in same["change_at_most"].fill_null(float("nan")).to_list()) \
        if "change_at_most" in same.columns else float("nan")
    text = (f"{who} {'have' if many and not alone else 'has'} the same result in every one of the "
            f"{int(first['same_games']):,} games of both runs (paired game by game: no game differs), so "
            f"{'their win shares' if many else 'its win share'} changed in none of them")
    if not np.isfinite(bound):
        return text + ", untested"
    text += (f"; untested, the games bound {'each' if many else 'its'} change at {bound_pp(bound)} pp "
             "either way (95% bound)")
    small = float(first["smallest"]) if first.get("smallest") is not None else float("nan")
    if alone and np.isfinite(small) and small > 0:
        text += (f": these games leave no room for a change that matters ({100 * small:g} pp)" if bound < small
                 else f": these games cannot rule out a change of {100 * small:g} pp (the smallest "
                 "difference that matters); more games would tell")
    return text


def _room_for_a_change(rows: pl.DataFrame, what: str) -> str:
    """After "no seat moved": whether these games leave room for a change that matters (a change
    within noise is not a change ruled out). Every seat's 95% interval inside ± the smallest
    difference that matters, or every seat whose interval reaches it, furthest first, each with
    the end that does (review O #6: naming only the furthest, Seat 1, read as if the other three
    were settled, though all four intervals reached past 1 pp), and "every seat" when all do."""
    if "smallest" not in rows.columns:
        return ""
    small = rows["smallest"].drop_nulls()
    if small.len() == 0 or not small[0] > 0:
        return ""
    small = float(small[0])
    that = f"{100 * small:g} pp"
    reach = rows.with_columns(pl.max_horizontal(pl.col("diff_low").abs(), pl.col("diff_high").abs())
                              .alias("_reach")).sort("_reach", descending=True)
    open_ = reach.filter(pl.col("_reach") >= small)
    if open_.height == 0:
        return (f" Every {what}'s 95% interval lies within ±{that}, the smallest difference that "
                f"matters: these games leave no room for a change that matters." + _below_smallest(rows, small, what))
    ends = []           # (the seat, the end of its interval that reaches the smallest difference)
    d = common_digits(list(rows.iter_rows(named=True)))      # the seats' own, as the table prints them
    for r in open_.iter_rows(named=True):
        edge = r["diff_high"] if abs(r["diff_high"]) >= abs(r["diff_low"]) else r["diff_low"]
        ends.append((metric_label(r).replace(" win share", ""), pp(edge, interval_digits(r, edge, edge, d))))
    listed = " and ".join(", ".join(f"{who} {end}" for who, end in ends).rsplit(", ", 1))
    if open_.height == rows.height and rows.height > 1:
        where = f"at every {what}: each one's 95% interval reaches it ({listed})"
    elif open_.height == 1:
        where = f"at {ends[0][0]}: its 95% interval reaches {ends[0][1]}"
    else:
        where = (f"at {open_.height} of the {rows.height} {what}s: their 95% intervals reach it ({listed}); "
                 f"the other {what}s' lie within ±{that}")
    return (f" These games cannot rule out a change of {that} (the smallest difference that matters) "
            f"{where}; more games would tell." + _below_smallest(rows, small, what))


def _below_smallest(rows: pl.DataFrame, small: float, what: str) -> str:
    """A seat or side whose share is under the smallest difference that matters itself, before or
    after: " The Seigneur side wins 0.42% → 0.45% of games: the 1 pp that matters is more than its
    whole share, so a change that multiplies its chances may not count; to size smaller changes,
    give `--smallest-difference win_share=0.1pp`." (review U #5: "no room for a change that matters" beside a side that wins
    0.42% of games read as settled where doubling its chances would not count), with the factor
    its chances moved by where its estimate is 1.25 or more, its games and that factor's 95% interval
    (:func:`factor_words`: "(82 → 2 games: 41 times less often; 95% interval 10 to 350 times)");
    '' otherwise. The share is :func:`_lowest_share`'s (the one the opener's factor clause names,
    :func:`_factor_claim`)."""
    r = _lowest_share(rows, small)
    if r is None:
        return ""
    d = common_digits(list(rows.iter_rows(named=True)))
    before, after = (metric_value(r[k], r["metric"], r["kind"], d) for k in ("base", "variant"))
    how = factor_words(r)
    return (f" {_share_owner(r)} wins {before} → {after} of games{f' ({how})' if how else ''}: "
            f"{small_share_caveat(small)}.")


def small_share_caveat(small: float) -> str:
    """What a share under the smallest difference that matters (``small``, a fraction) means for
    its verdicts and what to do about it, the words both the before/after page
    (:func:`_below_smallest`) and the sweep page (:func:`reports.sweep.sides_sentence`) give: "the 1
    pp that matters is more than its whole share, so a change that multiplies its chances may not
    count; to size smaller changes, give `--smallest-difference win_share=0.1pp` (it sizes every
    share at 0.1 pp, the seats' too)"."""
    return (f"the {100 * small:g} pp that matters is more than its whole share, so a change that "
            f"multiplies its chances may not count; to size smaller changes, give `--smallest-difference "
            f"win_share={100 * small / 10:g}pp` (it sizes every share at {100 * small / 10:g} pp, the seats' too)")


def _lowest_share(rows: pl.DataFrame, small: float) -> dict | None:
    """The seat or side of ``rows`` whose share is lowest, where it is under ``small`` before or
    after, among those that moved beyond noise (``significant``) when one did, else among all;
    None otherwise (review s64 #1: the lowest share picked whether or not it moved could lend an
    opener's "though by a large factor" to a share the page says stayed within noise, beside
    another share under ``small`` that moved)."""
    low = [r for r in rows.iter_rows(named=True)
           if r["base"] is not None and r["variant"] is not None and min(r["base"], r["variant"]) < small]
    moved = [r for r in low if r.get("significant")]
    return min(moved or low, key=lambda r: min(r["base"], r["variant"])) if low else None


def _factor_claim(rows: pl.DataFrame, small: float) -> tuple[dict | None, str]:
    """The share :func:`_lowest_share` picks and what an opener or a caption may say of its change
    as a factor (:func:`factor_clause`, read on the factor's 95% interval: "by a large factor", "by
    a factor of 1.04 to 1.82"); '' for a share that did not move beyond noise (the page says it
    stayed within noise) or whose interval holds 1."""
    r = _lowest_share(rows, small)
    if r is None or not r.get("significant", True):
        return r, ""
    return r, factor_clause(r)


def _share_owner(r: dict) -> str:
    """Who a seat's or side's win share is, opening a sentence: "Seat 2 (Censitaire)", "The
    Seigneur side"."""
    name = metric_label(r).replace(" win share", "")
    return name if name.startswith("Seat") else f"The {name}"


LARGE_FACTOR = 1.25
"""From how many times as often (or less often) a share's change is said as a factor (its estimate,
:func:`factor_words`), and how many times the near end of that factor's 95% interval must reach
for the change to be called large (:func:`factor_size`)."""


# a factor and its 95% interval, rounded outward: one rule for the pages and balance check's note
_times = factor_times
_factor_ends = factor_ends


def _games_count(share: float, n) -> tuple[float, str] | None:
    """The games a share of ``n`` games is (share × n) and its text ("82"; "about 41" where shared
    wins split a game's credit, not a whole number); None without a count."""
    if n is None or n != n or n <= 0 or share is None or share != share:
        return None
    x = float(share) * float(n)
    whole = abs(x - round(x)) < 1e-6
    return (float(round(x)) if whole else x), (f"{round(x):,}" if whole else f"about {round(x):,}")


def _factor_parts(r: dict) -> dict | None:
    """What :func:`factor_words` and :func:`factor_size` read of a rare share's change: ``how`` (the
    estimate in words, or that the side never wins on one side), ``down`` (fewer wins after), and,
    with the row's counts, ``games`` ("82 → 2 games") and the exact 95% interval of the factor
    (:func:`analysis.compare.factor_interval`) as its ``near`` and ``far`` ends in the change's own
    direction (times less often for a fall); None where no factor is said (under
    :data:`LARGE_FACTOR` either way by its estimate, or 0 on both sides)."""
    from analysis.compare import factor_interval

    b, v = float(r["base"]), float(r["variant"])
    if b > 0 and v > 0 and max(v / b, b / v) >= LARGE_FACTOR:       # the relative change, where it is large
        factor = max(v / b, b / v)
        # (a factor of 10 or more as a whole number: "1e+02 times" printed for 100)
        said = f"{factor:,.0f}" if factor >= 10 else f"{factor:.2g}"
        how = f"{said} times as often" if v > b else f"{said} times less often"
    elif (b > 0) != (v > 0):
        # a side that never won after the change (or before it): the largest change of all for its
        # share, which the 1 pp that matters cannot size (a rule making the Seigneur unwinnable
        # read "Not by enough to matter" without a word)
        how = "it never wins after the change" if v == 0 else "it never won before the change"
    else:
        return None
    out = {"how": how, "down": v < b}
    c1, c2 = _games_count(b, r.get("base_n")), _games_count(v, r.get("variant_n"))
    if c1 is None or c2 is None:
        return out
    low, high = factor_interval(round(c1[0]), float(r["base_n"]), round(c2[0]), float(r["variant_n"]))
    near, far = ((1.0 / high if high > 0 else float("inf")), (1.0 / low if low > 0 else float("inf"))) \
        if v < b else (low, high)
    return {**out, "games": f"{c1[1]} → {c2[1]} game{'' if c2[0] == 1 else 's'}", "low": low, "high": high,
            "near": near, "far": far}


def factor_size(r: dict) -> str:
    """How large a rare share's change is as a factor, read on the factor's exact 95% interval, the
    one :func:`factor_words` prints (:func:`analysis.compare.factor_interval`: conditional
    Clopper-Pearson from the two counts), never on its estimate (review s64 #1: 129 → 94 games,
    1.4 times less often, was called "a large factor" though the interval, 1.04 to 1.81 times,
    reaches below :data:`LARGE_FACTOR`): "large" where the interval's near end (the one closer to
    1, in the change's direction) is at least :data:`LARGE_FACTOR`; "clear" where the interval
    excludes 1 but its near end is under that; '' where it holds 1, where no factor is said, or
    without the row's counts (no interval to read it on)."""
    f = _factor_parts(r)
    if f is None or "near" not in f or not f["near"] > 1.0:
        return ""
    return "large" if f["near"] >= LARGE_FACTOR else "clear"


def factor_clause(r: dict) -> str:
    """The words an opener or a caption gives a rare share's change as a factor, by
    :func:`factor_size`: "by a large factor" where its interval's near end is at least
    :data:`LARGE_FACTOR`, "by a factor of 1.04 to 1.82" where the interval excludes 1 but does not
    rule out a small factor (the interval as :func:`factor_words` prints it; "by a factor of at
    least 1.1" where it has no far end); '' otherwise."""
    size = factor_size(r)
    if size == "large":
        return "by a large factor"
    if size == "clear":
        f = _factor_parts(r)
        return f"by a factor of {_factor_ends(f['near'], f['far'])}"
    return ""


def factor_words(r: dict, games_of: str = "the runs'") -> str:
    """A rare share's change as a factor, with the games it is counted on and that factor's 95%
    interval (:func:`analysis.compare.factor_interval`: exact, from the two counts, the runs' games
    taken as independent), "82 → 2 games: 41 times less often; 95% interval 10 to 350 times" (a
    factor from 82 games to 2 is very uncertain; review: the factor stood alone); where a side
    never wins on one side, its words and the interval's one end: "88 → 0 games: it never wins
    after the change; 95% interval: at least 23 times less often". An interval that excludes 1
    prints its near end with the digits that keep it above 1 ("1.04 to 1.82 times",
    :func:`_factor_ends`). Where the runs played the same deals (paired), says that the interval
    takes ``games_of`` games as independent. Without the row's counts (``base_n``,
    ``variant_n``), the factor alone; '' where the factor is under :data:`LARGE_FACTOR` either way
    by its estimate, or the share is 0 on both sides. Whether the factor is large is read on the
    interval (:func:`factor_size`), not here."""
    f = _factor_parts(r)
    if f is None:
        return ""
    how = f["how"]
    if "games" not in f:
        return how
    low, high = f["low"], f["high"]
    if low >= 1.0:
        ends = (f"{_factor_ends(low, high)} times as often" if not np.isfinite(high)
                else f"{_factor_ends(low, high)} times")
    elif high <= 1.0:
        ends = (f"{_factor_ends(1.0 / high, float('inf'))} times less often" if low <= 0
                else f"{_factor_ends(1.0 / high, 1.0 / low)} times")
    else:   # (the interval holds no change: from less often to as often)
        less = "any factor" if low <= 0 else f"{_times(1.0 / low, True)} times"
        more = "any factor" if not np.isfinite(high) else f"{_times(high, True)} times"
        ends = f"from {less} less often to {more} as often"
    ind = f", {games_of} games taken as independent" if r.get("paired") else ""
    if how.startswith("it never"):
        return f"{f['games']}: {how}; 95% interval: {ends}{ind}"
    return f"{f['games']}: {how}; 95% interval {ends}{ind}"


def factor_caveat(rows: pl.DataFrame, moved: pl.DataFrame) -> str:
    """Where every seat or side that moved beyond noise moved by less than the smallest difference
    that matters, but a share under that difference itself moved beyond noise by a factor its 95%
    interval shows to be large (or clearly away from 1: :func:`_factor_claim`), the clause the
    first answer's opener and the before/after figure's caption add: ", though by a large factor
    for a share this small: the Seigneur side wins 0.44% → 0.04% of games (88 → 7 games: 13 times
    less often; 95% interval 5.8 to 33 times)", or ", though by a factor of 1.04 to 1.82 for a
    share this small: …" where the interval does not rule out a small factor (review s64 #1);
    (the sentence below the answer, :func:`_below_smallest`, says what to do about it); ''
    otherwise. ``rows``: the seats' (sides') rows, ``moved``: those of them that moved."""
    if moved.height == 0 or "verdict" not in moved.columns or "smallest" not in moved.columns:
        return ""
    if not set(x for x in moved["verdict"].to_list() if x) <= {stats.SMALL} or moved["smallest"][0] is None:
        return ""
    r, claim = _factor_claim(rows, float(moved["smallest"][0]))
    if not claim:
        return ""
    how = factor_words(r)
    d = common_digits(list(rows.iter_rows(named=True)))
    before, after = (metric_value(r[k], r["metric"], r["kind"], d) for k in ("base", "variant"))
    if moved.height == 1 and moved["key"][0] == r["key"] and moved["metric"][0] == r["metric"]:
        # (the one share named just before: not named again)
        return f", though {claim} for a share this small: {before} → {after} of games ({how})"
    owner = _share_owner(r)
    owner = owner[:1].lower() + owner[1:] if owner.startswith("The ") else owner
    return f", though {claim} for a share this small: {owner} wins {before} → {after} of games ({how})"


def room_for_a_swing(within: list[tuple[str, float, float]], smallest: float, what: tuple[str, str],
                     more: str = "more games would tell", at_once: str = "") -> str:
    """After "none of these changed clearly": whether these games leave room for a change of
    ``smallest`` (a share's, as a fraction) among the rows ``within`` noise, each ``(name, low,
    high)``, its own 95% interval (review U #1, #2: "no event card clearly changes any seat's win
    share" and "not clearly for the other 12" read as "no effect" where every interval reached past
    the 1 pp that matters). " Every … lies within ±1 pp: these games leave no room for a change
    that matters." or " These games cannot rule out a change of 1 pp for 9 of the 12 …: their 95%
    intervals reach it (the furthest: Chevalier, −2.59 pp); more games would tell."; '' without
    rows or a smallest difference. ``what``: a row in words, singular and plural ("card-and-seat
    swing", "card-and-seat swings"). ``at_once``: the words naming intervals for a whole family
    (" for all 12 types at once"), said after "95% interval(s)"."""
    rows = list(within)
    if not rows or not smallest > 0:
        return ""
    that = f"{100 * smallest:g} pp"
    finite = [(n, lo, hi) for n, lo, hi in rows
              if lo is not None and hi is not None and np.isfinite(lo) and np.isfinite(hi)]
    reach = sorted(((max(abs(lo), abs(hi)), n, hi if abs(hi) >= abs(lo) else lo) for n, lo, hi in finite),
                   key=lambda x: -x[0])
    # a row without a finite interval rules nothing out: it counts among those that cannot (review
    # s62 #3: a change of exactly 0 had a nan interval and dropped out of "for N of the M"), named
    # as the furthest only when no finite interval reaches the smallest difference
    unknown = [(math.inf, n, None) for n, lo, hi in rows
               if not (lo is not None and hi is not None and np.isfinite(lo) and np.isfinite(hi))]
    open_ = [x for x in reach if x[0] >= smallest] + unknown
    one, many = what
    if not open_:
        whose = (f"both {many}" if len(rows) == 2 else f"all {len(rows)} {many}" if len(rows) > 1
                 else f"the one {one}")
        together = " (for all at once)" if at_once and len(rows) > 1 else ""
        return (f" The 95% interval{'s' if len(rows) > 1 else ''} of {whose}{together} lie{'' if len(rows) > 1 else 's'} "
                f"within ±{that}, the smallest difference that matters: these games leave no room for a "
                "change that matters.")
    _, name, edge = open_[0]
    count = (f"both {many}" if len(open_) == len(rows) == 2 else
             f"all {len(rows)} {many}" if len(open_) == len(rows) and len(rows) > 1
             else f"the one {one}" if len(rows) == 1 else f"{len(open_)} of the {len(rows)} {many}")
    its = f"their 95% intervals{at_once} reach it" if len(open_) > 1 else f"its 95% interval{at_once} reaches it"
    furthest = "the furthest: " if len(open_) > 1 else ""
    where = (f"{name}, {pp(edge, verdict_digits(edge, edge, smallest))}" if edge is not None
             else f"{name}, no interval computed")
    return (f" These games cannot rule out a change of {that} (the smallest difference that matters) "
            f"for {count}: {its} ({furthest}{where}); {more}.")


# The two families a before/after's tested metrics are adjusted in (:func:`analysis.compare.
# family_of`, its ``family`` column): the seats' (a game of roles: the sides' and seats') win
# shares, and the other tested metrics; their names in words, (one, many).
FAMILY_NOUNS = {"seats": ("seat win share", "seat win shares"),
                "roles": ("side and seat share", "side and seat shares"),
                "other metrics": ("other tested metric", "other tested metrics")}
FIRST_FAMILIES = ("seats", "roles")
OTHER_FAMILY = "other metrics"


def row_family(r: dict) -> tuple[str, int] | None:
    """A compared row's family and its size (``family``, ``family_size``), or None: an untested
    row, or a table without families (one family over all tested metrics)."""
    f, n = r.get("family"), r.get("family_size")
    if f is None or f not in FAMILY_NOUNS or n is None or n != n:
        return None
    return str(f), int(n)


def family_noun(family: str, n: int) -> str:
    """"4 seat win shares", "35 other tested metrics", "1 side and seat share"."""
    one, many = FAMILY_NOUNS[family]
    return f"{n} {one if n == 1 else many}"


def all_at_once(r: dict, family: int) -> str:
    """Which intervals a clear change's size was read on, held at once: "all 4 seat win shares"
    (the row's family, :func:`row_family`), "the one side and seat share" (a family of one), or,
    in a table without families, "all 64" (``family``, the tested metrics)."""
    own = row_family(r)
    if own is None:
        return f"all {family}"
    f, n = own
    return f"the one {FAMILY_NOUNS[f][0]}" if n == 1 else f"all {family_noun(f, n)}"


def holm_over(r: dict, family: int, what: str = "") -> str:
    """What a row's Holm correction ran over: "the 4 seat win shares" (its family), or in a table
    without families "the 64" + ``what`` (" compared metrics")."""
    own = row_family(r)
    return f"the {family_noun(*own)}" if own is not None else f"the {family}{what}"


def families(cmp: pl.DataFrame) -> list[tuple[str, int]]:
    """The families of a before/after's tested rows with their sizes, the first question's first:
    [("seats", 4), ("other metrics", 35)]; [] for a table without families."""
    if "family" not in cmp.columns or "family_size" not in cmp.columns:
        return []
    got = {}
    for f, n in cmp.select("family", "family_size").drop_nulls().iter_rows():
        if f in FAMILY_NOUNS:
            got[f] = int(n)
    return sorted(got.items(), key=lambda x: list(FAMILY_NOUNS).index(x[0]))


def families_words(cmp: pl.DataFrame) -> str:
    """"the 4 seat win shares and the 35 other tested metrics", each family as its own Holm
    correction runs over it; '' for a table without families."""
    fams = families(cmp)
    return " and ".join(f"the {family_noun(f, n)}" for f, n in fams)


def tested_count(cmp: pl.DataFrame) -> int:
    """How many compared metrics are tested, the family Holm's correction runs over: every row with
    a p-value (the Balance indices, and the rows where no game differs between the runs, are shown
    with both runs' values but not tested)."""
    return int(cmp["p_adjusted"].fill_null(float("nan")).is_finite().sum())


def family_words(cmp: pl.DataFrame) -> str:
    """``all 77`` or, when some rows are shown untested, ``the 75 tested (the table's other 2 rows,
    the Balance indices, are shown but not tested)``: the Holm family a before/after's sentences
    name; in a table with families (:func:`families`), ``each family apart (the 4 seat win shares
    and the 35 other tested metrics; …)``."""
    n = tested_count(cmp)
    if len(families(cmp)) > 1:
        rest = "" if n == cmp.height else f"; {_untested_words(cmp)}"
        return f"each family apart ({families_words(cmp)}{rest})"
    if n == cmp.height:
        return f"all {n}"
    return f"the {n} tested ({_untested_words(cmp)})"


def _untested_words(cmp: pl.DataFrame) -> str:
    """"the table's other 2 rows, the Balance indices, are shown but not tested": the rows of a
    before/after's table outside the Holm family, named by what they are: the Balance indices, and
    the metrics where no game differs between the runs (:func:`no_game_differs`)."""
    n = tested_count(cmp)
    rest = cmp.height - n
    same = int(cmp["same_games"].is_not_null().sum()) if "same_games" in cmp.columns else 0
    index = rest - same
    no_game = "where no game differs between the runs"
    if not same:
        what = f"the Balance ind{'ex' if index == 1 else 'ices'}"
    elif not index:
        what = f"a metric {no_game}" if same == 1 else f"metrics {no_game}"
    else:
        what = (f"the {f'{index} Balance indices' if index > 1 else 'Balance index'} and {same} "
                f"metric{'s' if same > 1 else ''} {no_game}")
    other = "other " if n else ""
    if rest == 1:
        return f"the table's {other}row, {what}, is shown but not tested"
    return f"the table's {other}{rest} rows, {what}, are shown but not tested"


def _holm_family(cmp: pl.DataFrame) -> str:
    """``Holm over all 77`` or ``Holm over the 75; the table's other 2 rows, the Balance indices,
    are shown but not tested``: the family of a before/after's count sentence, in one clause (the
    sentence has just said "of the 75 tested metrics"). In a table with families
    (:func:`families`): ``Holm within each family: the 4 seat win shares and the 35 other tested
    metrics; …``; with one family tested (the seats' rows all untested), as without families."""
    n = tested_count(cmp)
    fams = families(cmp)
    if len(fams) > 1:
        head = f"Holm within each family: {families_words(cmp)}"
    else:       # (one family, or none: the tested metrics the sentence has just counted)
        head = f"Holm over all {n}" if n == cmp.height else f"Holm over the {n}"
    return head if n == cmp.height else f"{head}; {_untested_words(cmp)}"


# The kinds of change a before/after lists, in the order a designer reads them: what the seats
# score, then the shape of a game (who leads, for how long, how it ends), then the event cards,
# the tiles and the rest. Every compared metric falls in one (the last takes what no other names).
CHANGE_GROUPS = (
    ("Seats and scores", ("seat_win_share", "role_win_share", "seat_mean_score", "score_spread",
                          "shared_wins"), ()),
    ("Game shape", ("lead_changes", "lead_changes_by_turn", "mean_turns", "mean_length", "end_reason_share",
                    "count_mean", "count_share"), ("leader_wins_",)),
    ("Event cards", (), ("event_",)),
    ("Tiles", ("tile_slope",), ()),
    ("Strategies", ("strategy_win_share", "matchup_ahead_share"), ()),
    ("Guilds", (), ("guild_",)),
)


def change_group(metric: str) -> str:
    """The kind of change a compared metric is listed under (:data:`CHANGE_GROUPS`; "Other
    measures" for a metric none names)."""
    for name, exact, prefixes in CHANGE_GROUPS:
        if metric in exact or any(metric.startswith(x) for x in prefixes):
            return name
    return "Other measures"


def _turn(metric: str) -> int | None:
    """The turn (or event) number of a ``leader_wins_turn_t`` / ``leader_wins_event_k`` row."""
    tail = metric.rsplit("_", 1)[-1]
    return int(tail) if metric.startswith("leader_wins_") and tail.isdigit() else None


def grouped_changes(rows: pl.DataFrame, unit: str = "points") -> list[tuple[str, list[dict]]]:
    """The rows of a before/after's list of changes by kind (:func:`change_group`, in the order of
    :data:`CHANGE_GROUPS`), and within a kind by unit (the unit whose largest change comes first
    leads), each unit's rows largest change first: sizes are compared only within a unit ("−7.554
    coins" sat between two pp changes when one list ran across units). Two exceptions (revF #7,
    #6): the leader-at-turn rows in turn order, after the group's other rows of their unit (a
    designer reads them as a curve over the game: turns 11, 10, 9, 12, … scattered it), and a tile
    slope whose curve :func:`bends` after the slopes that describe their curves."""
    order = [g for g, _, _ in CHANGE_GROUPS] + ["Other measures"]
    out: dict[str, list[dict]] = {}
    for r in rows.iter_rows(named=True):
        out.setdefault(change_group(r["metric"]), []).append(r)
    groups = []
    for name in sorted(out, key=order.index):
        by_unit: dict[str, list[dict]] = {}
        for r in out[name]:
            by_unit.setdefault(metric_unit(r["metric"], r["kind"], unit, r.get("key")), []).append(r)
        parts = [sorted(v, key=lambda r: -abs(float(r["diff"]))) for v in by_unit.values()]
        parts.sort(key=lambda v: -abs(float(v[0]["diff"])) / (float(v[0].get("smallest") or 1.0)))
        flat = [r for v in parts for r in v]
        turns = sorted((r for r in flat if _turn(r["metric"]) is not None), key=lambda r: _turn(r["metric"]))
        flat = [r for r in flat if _turn(r["metric"]) is None] + turns
        flat = [r for r in flat if not bends(r)] + [r for r in flat if bends(r)]
        groups.append((name, flat))
    return groups


def _examples(rows: pl.DataFrame, unit: str, most: int = 2) -> str:
    """"Win share per extra Moulin tile −0.7 pp per tile, Seat 1 win share +0.4 pp": the first
    ``most`` of ``rows`` (in the table's reading order) named with their change."""
    parts = []
    for r in rows.head(most).iter_rows(named=True):
        change, _ = metric_change(r, metric_unit(r["metric"], r["kind"], unit, r.get("key")), metric_digits(r))
        parts.append(f"{metric_label(r)} {change}")
    return ", ".join(parts)


def _not_listed(cmp: pl.DataFrame, unit: str) -> str:
    """What the grouped list leaves out, so that its silence is not read as "nothing else moved"
    (revF #7): the clear but small changes (with two examples) and the ones within noise, both in
    the table only."""
    small = cmp.filter(pl.col("verdict") == stats.SMALL)
    noise = cmp.filter((pl.col("verdict") == stats.NOT_SHOWN) & pl.col("p_adjusted").is_not_nan()
                       & pl.col("p_adjusted").is_not_null())
    parts = []
    if small.height:
        parts.append(f"the {small.height} clear but small change{'s' if small.height > 1 else ''} "
                     f"({'such as ' if small.height > 2 else ''}{_examples(small, unit)})")
    if noise.height:
        parts.append(f"the {noise.height} within noise")
    if not parts:
        return ""
    one = small.height + noise.height == 1
    return " and ".join(parts) + (" is" if one else " are") + " in the table only"


def comparison_headlines(cmp: pl.DataFrame, base_label: str, var_label: str, unit: str = "points",
                         game: str | None = None) -> list[str]:
    """Sentences for a before/after comparison: the game's own first question when its report hook
    has one (``comparison_lead``: a combat's three outcomes; the metrics it answers are left out of
    the list, as the seats' are), the seat (role) question first, then how many
    of the tested metrics moved (significance after Holm's correction over them; by their verdicts
    when the table has them), then every one that moved clearly and by enough to matter or may
    matter, grouped by kind (:func:`grouped_changes`: seats and scores, game shape, event cards,
    tiles, …; each group headed by its name and count, largest first within a unit), each in its
    unit (``unit`` is the game's score unit). The rows are named in the game's words first
    (:func:`sides_named`: a seat with its role, the game length in its game's unit), as the page's
    table names them."""
    cmp = sides_named(cmp, game)
    hook = hook_for(game) if game is not None else None
    lead, answered_first = (hook.comparison_lead(cmp, unit) if hook is not None
                            and hasattr(hook, "comparison_lead") else ([], ()))
    split = split_question(cmp)
    # the first answer ends with the largest changes of the other family (what the change did
    # besides the seats: a rule that shortens the games said before any list)
    others = largest_other_changes(cmp, unit, exclude=answered_first)
    seats = seat_question(cmp, unit, game) + (f" {others}" if others else "")
    # the game's own word after the seats' (sides') answer and the split of a role's wins
    # (Seigneurial: how much of the Seigneur's wins the tie-break gave him, before and after)
    notes = hook.comparison_notes(cmp) if hook is not None and hasattr(hook, "comparison_notes") else []
    out = [*lead, seats, *([split] if split else []), *notes]
    seat_metrics = ("role_win_share",) if (cmp["metric"] == "role_win_share").any() else ("seat_win_share",)
    # with the split of a role's wins answered, the seats' win shares of all games (which also
    # carry the role's change) are the table's, not listed again as changes
    split_metrics = (SPLIT_METRIC, "seat_win_share") if split else ()
    first_metrics = seat_metrics + tuple(answered_first) + split_metrics
    sig = cmp.filter(pl.col("significant"))
    n = tested_count(cmp)
    if n == 0:
        # (every row untested: the Balance indices, the metrics where no game differs)
        out.append(f"{var_label} against {base_label}: no metric is tested ({_untested_words(cmp)}).")
        listed = cmp.clear()
    elif "verdict" in cmp.columns:
        large = cmp.filter(pl.col("verdict") == stats.LARGE)
        maybe = cmp.filter(pl.col("verdict") == stats.MAY_MATTER)
        n_small = cmp.filter(pl.col("verdict") == stats.SMALL).height
        few = sig.filter(pl.col("verdict") == stats.NOT_SHOWN).height
        # counts in reading order (VERDICT_ORDER), over the tested metrics they add up to; what
        # "clear" and the size mean is the section's "How this is measured" and the glossary's
        out.append(f"{var_label} against {base_label}: {large.height} of the {n} tested metrics "
                   f"moved clearly and by enough to matter, "
                   + (f"{maybe.height} clearly and perhaps by enough to matter (these games cannot tell), "
                      if maybe.height else "")
                   + f"{n_small} clearly but by less than the smallest difference that matters "
                   f"({_small_thresholds(cmp, unit)}), "
                   + (f"{few} clearly but about too few players to say, " if few else "")
                   + f"{n - sig.height} within noise ({_holm_family(cmp)})")
        worth = pl.col("verdict").is_in([stats.LARGE, stats.MAY_MATTER])
        listed = cmp.filter(worth & ~pl.col("metric").is_in(first_metrics))
        # the seats' (roles') changes are the first sentence's: the list says it leaves them to it, so
        # that its count adds up to the one above (review O #7: "40 … and 9 …" then 46 lines)
        answered = cmp.filter(worth & pl.col("metric").is_in(seat_metrics)).height
        what = "role" if seat_metrics == ("role_win_share",) else "seat"
        also = cmp.filter(worth & pl.col("metric").is_in(answered_first)).height
        seated = cmp.filter(worth & pl.col("metric").is_in(split_metrics)).height
        given = [f"{answered} {what} win share{'s' if answered > 1 else ''}"] if answered else []
        given += [f"{also} outcome row{'s' if also > 1 else ''}"] if also else []
        given += [f"{seated} seat row{'s' if seated > 1 else ''}"] if seated else []
        if not listed.height and (answered or also or seated):
            # nothing left to list: say where the counted changes are (review S #1: "4 of the 8 …
            # moved clearly and by enough to matter", one named, then "Nothing else moved")
            seat_keys = (cmp.filter(worth & (pl.col("metric") == "seat_win_share"))["key"].to_list()
                         if seated else [])
            split_keys = (cmp.filter(worth & (pl.col("metric") == SPLIT_METRIC))["key"].to_list()
                          if seated else [])
            seat_n, split_n = len(seat_keys), len(split_keys)
            parts = ([f"the {' and the '.join(g for g in given if 'seat row' not in g)} "
                      f"{'are' if answered + also > 1 else 'is'} the first answer's"] if answered or also else [])
            # the seats named, not counted (review D #13: "the 2 seats' win shares" in a 4-player
            # game read as if it had two seats)
            parts += ([f"the win share{'s' if seat_n > 1 else ''} of all games of {_seat_numbers_named(seat_keys)} "
                       f"(which carry the roles' change) {'are' if seat_n > 1 else 'is'} in the table"]
                      if seat_n else [])
            parts += ([f"the share{'s' if split_n > 1 else ''} of their role's wins of "
                       f"{_seat_numbers_named(split_keys)} {'are' if split_n > 1 else 'is'} the split answered "
                       f"above"] if split_n else [])
            text = "; ".join(parts)
            out[-1] += ". " + text[0].upper() + text[1:]
        besides = (f" except the {' and the '.join(given)} the first answer{'s' if len(given) > 1 else ''} "
                   f"give{'' if len(given) > 1 else 's'}" if given else "")
        # "by kind" only before a list: with nothing listed it announced what never came; the list
        # says what it holds and what it leaves out (revF #7)
        rest = _not_listed(cmp, unit)
        out[-1] += (". Listed below by kind: the changes clear and large enough to matter or that may "
                    f"matter{besides}, largest first within a unit"
                    + (" (the leaders by turn in turn order)"
                       if listed.filter(pl.col("metric").str.starts_with("leader_wins_")).height else "")
                    + (f"; {rest}." if rest else ".") if listed.height else ".")
    else:
        out.append(f"{var_label} against {base_label}: {sig.height} of the {n} tested metrics moved "
                   f"significantly (significant = after Holm's correction over {family_words(cmp)}, so two "
                   + ("runs of the same rules flag anything in a family at most 5% of the time)."
                      if len(families(cmp)) > 1 else "runs of the same rules flag anything at most 5% of the time)."))
        listed = sig.filter(~pl.col("metric").is_in(first_metrics))
    if listed.height == 0:
        if n:
            open_ = _left_open(cmp, first_metrics)
            # (review s50 PDF, Seigneurial: "Nothing else moved by enough to matter" beside a caption
            # saying 9 of the 19 shares could still have moved by 1 pp: said only when it is so)
            out.append("Nothing else moved by enough to matter." if not open_ else
                       f"Nothing else is shown to have moved by enough to matter, but these games "
                       f"cannot rule out a change that matters for {open_[0]} of the {open_[1]} other "
                       f"tested metrics within noise (their 95% intervals reach the smallest "
                       f"difference that matters); more games would tell.")
    elif "verdict" in cmp.columns and listed.filter(pl.col("verdict") == stats.LARGE).height == 0:
        out.append("Nothing else is shown to have moved by enough to matter; these may:")
    for name, rows in grouped_changes(listed, unit):
        # one precision for a group's lines (revF #7: "67.343% → 72.377%" among one-decimal lines),
        # the one at which every line's before, after and change agree (:func:`common_digits`, at
        # most one decimal more than their own); a line that does not agree there is printed as its
        # table row (:func:`line_digits`), so that each change printed is the measured one rounded
        # (review O #9: at that cap "54.63% → 60.28%, +5.65 pp" printed the difference of the
        # rounded values, the table +5.644)
        # (per unit within the kind: review s50 PDF #2, a mean in lead changes, 2 decimals of its
        # own, set the kind's shares at 3, two past their own, beside shares at 1)
        by_unit: dict[str, list] = {}
        for r in rows:
            by_unit.setdefault(metric_unit(r["metric"], r["kind"], unit, r.get("key")), []).append(r)
        at = {u: common_digits(rs, more=1) for u, rs in by_unit.items()}

        def d_of(r) -> int:
            return at[metric_unit(r["metric"], r["kind"], unit, r.get("key"))]

        bent = sum(bends(r) for r in rows)
        note = (f"; {'the last ' + str(bent) + ' are' if bent < len(rows) else 'all are'} slopes of curves "
                f"that bend: straight-line summaries that say little about the curves" if bent else "")
        out.append(Grouped(f"{name} ({len(rows)} change{'s' if len(rows) > 1 else ''}{note}):",
                           [(may_matter_sentence(r, unit, n, line_digits(r, d_of(r))) if r.get("verdict") == stats.MAY_MATTER
                             # each line with its verdict (review U #8: the clear and large enough
                             # ones carried none, beside the long verdicts of the ones that may matter)
                             else (change_sentence(r, unit, line_digits(r, d_of(r)))[:-1]
                                   + f"{'; ' if bends(r) else ': '}{verdict_words(r['verdict'])}.")
                             if r.get("verdict") == stats.LARGE
                             else change_sentence(r, unit, line_digits(r, d_of(r)))) + composition_note(r, cmp)
                            for r in rows]))
    return out


def composition_note(r: dict, cmp: pl.DataFrame) -> str:
    """After a founders' win share that moved (Médiévallons, MV-4), when the share of players who
    found that guild moved clearly too: the founders are then other players, so the change need not
    be the guild's own doing (review Z #6: "Noble: founders' win share −1.28 pp, clear, may matter"
    beside "Noble: players founding +1.15 pp", with more and weaker founders behind it). ''
    otherwise."""
    if r.get("metric") != "guild_founders_win_share" or "verdict" not in cmp.columns:
        return ""
    f = cmp.filter((pl.col("metric") == "guild_founded_share") & (pl.col("key") == r.get("key")))
    if f.height == 0 or f["verdict"][0] in (None, stats.NOT_SHOWN):
        return ""
    return (f" Who founds it changed too (players founding it: {pp(float(f['diff'][0]))}, "
            f"{verdict_words(f['verdict'][0])}): some of its founders are other players now, so the "
            "change need not be the guild's own doing.")


def _left_open(cmp: pl.DataFrame, first_metrics) -> tuple[int, int] | None:
    """(how many, of how many) tested metrics other than ``first_metrics`` that are within noise
    yet whose 95% interval reaches the smallest difference that matters (the interval the figure's
    caption counts shares by, so that a row the caption rules out is ruled out here too: review
    s50 PDF follow-up); None when there is none."""
    need = {"verdict", "smallest", "metric"}
    if not need <= set(cmp.columns):
        return None
    def tested(r) -> bool:       # as tested_count: a row with a p-value (review s51: the Balance
        # indices, shown but not tested, made "48 of the 62 other tested metrics" beside 60)
        p = r.get("p_adjusted", 0.0)
        return p is not None and bool(np.isfinite(p))

    rows = [r for r in cmp.filter(~pl.col("metric").is_in(list(first_metrics))).iter_rows(named=True)
            if r["verdict"] == stats.NOT_SHOWN and tested(r)]

    def reach(r) -> bool:
        lo, hi = r.get("diff_low"), r.get("diff_high")
        small = r.get("smallest")
        if lo is None or hi is None or small is None or not small > 0:
            return False
        return max(abs(lo), abs(hi)) >= small
    k = sum(reach(r) for r in rows)
    return (k, len(rows)) if k else None


def line_digits(r: dict, digits: int) -> int:
    """The decimals of one line of a list whose kind is printed at ``digits`` (one precision for
    the kind's lines of one unit, at most one past the metric's own: :func:`common_digits`, revF
    #7): ``digits`` where the line's before, after and change agree there; else, as its row of the
    table, its own decimals (:func:`metric_digits`) when those are fewer (review s50 PDF #2), else
    the first precision above ``digits`` where they agree (up to the metric's own plus
    :data:`MORE_DIGITS`), else the decimals of its row in the table,
    so that the change printed is the measured one rounded, as the table's and comparison.csv's,
    never the difference of values rounded apart (review O #9: "54.63% → 60.28%, +5.65 pp" beside
    the table's +5.644). A row of a page's comparison prints as its table row
    (:func:`with_page_digits`)."""
    if r.get(PAGE_DIGITS) is not None:
        return int(r[PAGE_DIGITS])
    if _agrees(r, digits):
        return digits
    own = metric_digits(r)
    if own <= digits:
        # its table row's decimals, fewer than the unit's (review s50 PDF #2)
        return own
    top = _base_digits(r["metric"], r["kind"])[1] + MORE_DIGITS
    return next((k for k in range(digits, top + 1) if _agrees(r, k)), own)


class Grouped(str):
    """A sentence that heads sentences of its own: a before/after's kind of change ("Game shape
    (16 changes):") and the changes of that kind (``items``). The string is the heading, so what
    reads sentences as text reads it; the pages nest the items under it (the HTML a list inside
    the heading's item, the PDF indented bullets; revF #7: the headings were siblings of their
    items, with the same bullet)."""

    items: tuple[str, ...]

    def __new__(cls, heading: str, items=()) -> "Grouped":
        obj = super().__new__(cls, heading)
        obj.items = tuple(items)
        return obj

    def map(self, f) -> "Grouped":
        """The heading and every item passed through ``f`` (a text transform)."""
        return Grouped(f(str(self)), [f(x) for x in self.items])


def sentence_texts(sentences: list[str]) -> list[str]:
    """Every text of a section's sentences, a :class:`Grouped` heading's items included."""
    out = []
    for x in sentences:
        out.append(str(x))
        out += list(getattr(x, "items", ()))
    return out
