"""The trend of a balance-by-search-budget table (:mod:`analysis.skill`) in figures and words: the
seat (or role) advantage per budget with its interval, and whether it grows or shrinks, each worded
by its size against the smallest difference that matters.
Reads a table only, plays nothing, so reports may use it.

In a game with roles the sentence first says whether the first role's side is ahead or behind at
each budget (:func:`role_state`, against the range a balance of the roles can sit in,
:func:`role_balance_range`) and whether that advantage persists, then what these games can tell of
its change; given the designer's target for that role's share (``balance skill --target
role=NAME:SHARE[:TOL]``, a :class:`Band`), it says instead at which budgets the target is met or
missed (:func:`_band_words`), as the page's target section does. With seats alike it says whether
the largest gap between two seats grows, shrinks, changes by less than the difference that matters,
or cannot be told (never "persists": the two budgets' gaps are each worded by their size); in a
line-up whose seats hold different bots, a gap between seats is mostly their bots' strength, so it
is worded as a gap with each seat's bot named, not as a seat advantage (:func:`bots_words`). The
roles' intervals are read at the Bonferroni level over every budget of every cell the sentences
read (:func:`role_level`: 98.75% for 4 budgets, 99.58% for 4 budgets of 3 cells), so that all the
claims of a table, or a panel, hold together at 95%, as the seats-alike sentence's do.

Every percentage is written as the tables, pages and terminal write it, halves away from zero
(:func:`percent`, :func:`simcore.numbers.rounded`), at the decimals the table beside it prints the
same share with (:func:`ci_digits`); a difference the sentence states (a gap, a change) is the
difference of the shares as printed (:func:`shown_gap`, review s42 B #5: 26.6% and 23.8% beside a
gap of 2.9 pp), its interval from the unrounded shares.

May import numpy, polars, :mod:`analysis.stats` and :mod:`simcore.numbers`.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from analysis import stats
from analysis.stats import wilson
from simcore.numbers import rounded, share_digits, signed


def percent(x: float, digits: int = 1) -> str:
    """A fraction in percent at ``digits`` decimals, without the sign, a half rounded away from
    zero as every table and page of the toolkit rounds it (:func:`simcore.numbers.rounded`, as
    :func:`reports.text.pct`): 0.3625 → "36.3" (Python's own rounding gave "36.2")."""
    return f"{rounded(100 * x, digits):.{digits}f}"


def ci_digits(p: float, low: float, high: float, digits: int = 1, most: int = 3) -> int:
    """The decimals a share and its interval are printed with in the tables
    (:func:`reports.text.pct_ci`'s rule): ``digits``, or more while an end of the interval prints as
    the share, as the other end, or as 0% or 100% without being it. A sentence naming the same share
    uses at least these, so the two agree ("0.25% (0.01–1.40)" in the table, not "0.3%" beside it)."""
    def onto(x: float, to: float, d: int) -> bool:
        return x != to and percent(x, d) == percent(to, d)

    values = [float(x) for x in (p, low, high)]
    if not all(np.isfinite(values)):
        return digits
    p, low, high = values
    d = digits
    while d < most and ((high > low and percent(low, d) == percent(high, d))
                        or any(onto(e, t, d) for e in (low, high) for t in (p, 0.0, 1.0))):
        d += 1
    return d


def shown_difference(a: float, b: float, digits: int = 1) -> float:
    """``a`` minus ``b`` (fractions) as the difference of the two as printed in percent at
    ``digits`` decimals (:func:`percent`): 0.5 and 0.3325 print 50.0 and 33.3, so 0.167, not 0.1675
    (which printed +16.8 beside them)."""
    return round(rounded(100 * a, digits) - rounded(100 * b, digits), digits) / 100


def shown_gap(rows: list[dict]) -> tuple[float, int]:
    """The largest gap between the win shares of ``rows`` (a budget's seats, each with
    ``win_share``, ``ci_low``, ``ci_high``) as the table prints them, and its decimals: the
    difference of the largest and smallest share, each rounded at the decimals the table prints it
    with (:func:`ci_digits`, the larger of the two)."""
    best = max(rows, key=lambda r: r["win_share"])
    worst = min(rows, key=lambda r: r["win_share"])
    d = max(ci_digits(r["win_share"], r.get("ci_low", np.nan), r.get("ci_high", np.nan))
            for r in (best, worst))
    return shown_difference(best["win_share"], worst["win_share"], d), d


def signed_percent(x: float, digits: int = 1) -> str:
    """:func:`percent` with its sign: "+2.5", "-0.6" (the caller makes the minus typographic)."""
    return f"{rounded(100 * x, digits):+.{digits}f}"


# The Balance figures of a budget's ``all`` part (:func:`analysis.skill.balance_figures`), the same
# on each of its seats' rows; null on ``one`` rows. The ``_adjusted`` interval is the win-share
# balance's at FAMILY_LEVEL: the sentence (:func:`verdict`) reads two budgets, the smallest and the
# largest, so each is read at 1 - 0.05 / 2 (Bonferroni over the two).
BALANCE_COLUMNS = ("balance", "balance_low", "balance_high", "win_share_balance",
                   "win_share_balance_low", "win_share_balance_high",
                   "win_share_balance_low_adjusted", "win_share_balance_high_adjusted")
FAMILY_LEVEL = 1 - 0.05 / 2
# The level the ``_adjusted`` interval was computed at, on the ``all`` rows: a panel's sentences
# read two budgets of every cell, so each is read at 1 - 0.05 / (2 x cells) (:func:`family_level`)
# and the claims of all its cells hold together at 95%. A table without the column was written
# before it, at FAMILY_LEVEL.
LEVEL_COLUMN = "adjusted_level"
# In a game with roles (Seigneurial: one Seigneur against the Censitaires) the seats are not meant
# to win alike, so no seat-balance index is recorded (BALANCE_COLUMNS null; docs/reports.md: a game
# with roles compares no seat-balance index); instead, on the ``all`` rows, the largest gap between
# two seats of the role of several seats (the Censitaires) with its 95% interval, simultaneous over
# that role's pairs of seats (:func:`analysis.skill.role_gap`). Null with seats alike, and in a game
# with no role (or more than one role) of several seats.
ROLE_GAP_COLUMNS = ("role_gap", "role_gap_low", "role_gap_high")


def family_level(n_cells: int) -> float:
    """The level each budget's gap interval is read at when the sentences of ``n_cells`` cells
    each read two budgets (Bonferroni over the 2 x ``n_cells`` intervals: 95% for them all)."""
    return 1 - 0.05 / (2 * max(1, int(n_cells)))


def role_level(n_intervals: int) -> float:
    """The level each budget's interval of the first role's win share is read at in a game with
    roles, when the sentences read ``n_intervals`` of them: every budget of every cell (B x k for
    a panel of k cells of B budgets), Bonferroni: 1 - 0.05 / ``n_intervals``, so that all of them
    hold together at 95%. Not the two budgets :func:`family_level` adjusts for: the role sentence
    (:func:`_role_words`) names every budget's state, each a claim of its own ("wholly below 24% at
    budget 4": the Censitaires' advantage at budget 4), and "persists" reads every budget. At a
    fixed 95% each, a table of 4 budgets whose Seigneur sits on the range's edge named a false
    advantage in 8.8% of simulated tables and a panel of 3 such cells in 25.3%; a false
    "vanishes" came in 6.5% of 3-cell and 12.9% of 6-cell panels (review R's simulation, 4,000
    each); at this level 2.3%, 2.0%, 0.4% and 0.4% (the same simulation; a faster one in
    tests/analysis/test_review_r_skill_roles.py)."""
    return 1 - 0.05 / max(1, int(n_intervals))


# The smallest win-share difference that matters when the caller passes none (1 pp, as
# analysis.load.SMALLEST_SHARE; reports pass the run's or the game's own).
SMALLEST_SHARE = 0.01


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
    Wilson interval (Brown, Cai & DasGupta's ends, as the table's own 95% one,
    :func:`analysis.skill.seat_interval`) at :func:`role_level` over every budget of every cell of
    ``table`` (the sentences read them all; the table's ``ci_low``/``ci_high`` are each seat's own
    95% interval, for its figure and its table, and are not what the sentence reads). ``level``: the
    level of the interval beside it, as the seats-alike rows carry the table's ``adjusted_level``,
    so the sentence says the level it read. ``games``: the games the budget's figure is read from
    (the sentence says when they are too few to tell). ``bots``: each seat's bot in the line-up
    (:func:`lineup_bots`): where they differ the gaps are worded as the bots', not as a seat
    advantage (:func:`mixed`, review s58 #1)."""
    parts = [(c, table if c == "" else table.filter(pl.col("cell") == c)) for c in cells(table)]
    # the intervals the role sentences read: one per budget with an every-seat part, in every cell
    read = sum(one.filter(pl.col("part") == "all")["budget"].n_unique() for _, one in parts)
    level = role_level(read)
    frames = []
    for c, one in parts:
        frames.append(_advantage(one, roles_alike, level).with_columns(pl.lit(c).alias("cell")))
    return pl.concat(frames).select(["cell", "budget", "figure", "value", "low", "high", "best", "worst",
                                     "level", "games", "players", "other", "shown", "digits", "bots"])


GAP = "largest gap between two seats' win shares"
#: What that gap is at 2 players, where a report's seats are read from the fair share (review Z #4:
#: "12.9 pp" here beside "+7.5 pp from fair" on the run's page read as two findings)
TWO_SEATS = "at 2 players, twice each seat's gap from the fair 50%"


def _two_seats(r: dict) -> str:
    """:data:`TWO_SEATS` for a row of 2 players, else ''."""
    return TWO_SEATS if int(r.get("players") or 0) == 2 else ""


def lineup_bots(table: pl.DataFrame, budget: int) -> list[str]:
    """Each seat's bot (seat 1 first) in one cell's ``all`` part at ``budget``, named as the line-up
    names it: the bot the seat plays at budget 0 (whose playouts its search plays above it), from
    the cell's budget-0 rows where it has them, else the bot of that budget without the search-bot
    file's path ("search4-greedy"). [] for a table without the ``bot`` column."""
    if "bot" not in table.columns:
        return []
    every = table.filter(pl.col("part") == "all")
    at = every.filter(pl.col("budget") == budget).sort("seat")["bot"].to_list()
    zero = every.filter(pl.col("budget") == 0).sort("seat")["bot"].to_list()
    if len(zero) == len(at):
        return [str(b) for b in zero]
    return [str(b).rsplit(":", 1)[-1] for b in at]


def _advantage(table: pl.DataFrame, roles_alike: bool, roles_level: float) -> pl.DataFrame:
    out = []
    for b in sorted(table["budget"].unique().to_list()):
        t = table.filter((pl.col("budget") == b) & (pl.col("part") == "all")).sort("seat")
        if t.height == 0:
            continue
        shares = t["win_share"].to_numpy()
        best, worst = int(np.argmax(shares)), int(np.argmin(shares))
        r = t.row(0, named=True)         # the Balance figures are on every seat's row; seat 0's role
        if roles_alike:
            level = r.get(LEVEL_COLUMN)
            # the gap as stated: the difference of the two shares as the table prints them
            gap, d = shown_gap(list(t.iter_rows(named=True)))
            out.append((b, GAP, 1.0 - r["win_share_balance"],
                        1.0 - r["win_share_balance_high_adjusted"],
                        1.0 - r["win_share_balance_low_adjusted"], best, worst,
                        FAMILY_LEVEL if level is None else float(level), int(t["games"].min()),
                        t.height, "", gap, d, lineup_bots(table, b)))
        else:
            # the first role's share with its interval at the level the sentences' family needs
            # (:func:`role_level`), made again from its share and games (shared wins as fractions)
            low, high = wilson(r["win_share"] * r["games"], r["games"], roles_level)
            d = ci_digits(r["win_share"], r.get("ci_low", np.nan), r.get("ci_high", np.nan))
            out.append((b, f"{r['role'].capitalize()} win share", r["win_share"], float(low), float(high),
                        best, worst, roles_level, int(r["games"]), t.height,
                        _other_side(t["role"].to_list()), rounded(100 * r["win_share"], d) / 100, d,
                        lineup_bots(table, b)))
    return pl.DataFrame(out, schema=[("budget", pl.Int64), ("figure", pl.Utf8), ("value", pl.Float64),
                                     ("low", pl.Float64), ("high", pl.Float64), ("best", pl.Int64),
                                     ("worst", pl.Int64), ("level", pl.Float64), ("games", pl.Int64),
                                     ("players", pl.Int64), ("other", pl.Utf8),
                                     ("shown", pl.Float64), ("digits", pl.Int64),
                                     ("bots", pl.List(pl.Utf8))],
                        orient="row")


def _other_side(roles: list) -> str:
    """The side against the first role's seat (seat 0), as a sentence names it: "the Censitaires"
    (a role of several seats), "the Defender"; "the other seats" when they play no one role of
    their own."""
    others = [str(r) for r in roles[1:] if r != roles[0]]
    if len(others) != len(roles) - 1 or len(set(others)) != 1:
        return "the other seats"
    return "the " + others[0].capitalize() + ("s" if len(others) > 1 else "")


def role_balance_range(players: int) -> tuple[float, float]:
    """Where a balance of the roles can sit, for the first role's seat (the Seigneur) of
    ``players`` seats: from 1/``players`` (it wins as often as any one seat) to 1/2 (its side wins
    as often as the other side). A game with roles has no single fair share (the designer sets the
    aim, e.g. a tune's ``role=seigneur:0.30``), so an advantage is only claimed outside this whole
    range."""
    a, b = 1.0 / max(1, int(players)), 0.5
    return min(a, b), max(a, b)


def role_state(low: float, high: float, players: int, smallest: float = SMALLEST_SHARE) -> str:
    """Where one budget's interval of the first role's win share lies against
    :func:`role_balance_range` widened by ``smallest`` (the difference that matters) on each side:
    ``"behind"`` (its high end below the range's low edge: the other side's advantage, by at least
    ``smallest`` from any balance), ``"ahead"`` (its low end above the high edge), ``"within"``
    (wholly inside the widened range: no role advantage as large as ``smallest`` outside it) or
    ``"cannot tell"`` (it reaches across an edge)."""
    lo, hi = role_balance_range(players)
    lo, hi = lo - smallest, hi + smallest
    if high < lo:
        return "behind"
    if low > hi:
        return "ahead"
    if low >= lo and high <= hi:
        return "within"
    return "cannot tell"


def decimals(values, edges, digits: int = 1, most: int = 3) -> int:
    """The decimals (from ``digits`` up to ``most``) at which no share of ``values`` prints in
    percent as one of ``edges`` (a band's or a range's edge, fractions) it differs from: an
    interval's end at 26.549% beside a 26.5% edge is "26.55", not "26.5", which reads as touching
    it (as :func:`reports.text.pct_ci` adds decimals for narrow intervals)."""
    for d in range(digits, most + 1):
        if not any(v != e and percent(v, d) == percent(e, d) for v in values for e in edges):
            return d
    return most


def _edge(x: float) -> str:
    """A range's edge in percent: "24", "32.3"."""
    return percent(x).removesuffix(".0")


def _lies_by_budget(where: str, budgets: list[int], states: list[str], edge_words: dict) -> str:
    """"<where>, its interval lies <words> at budgets …, <words> at … and <words> at …": the
    budgets grouped by where the interval lies against the band (behind, ahead, within, cannot
    tell), for budgets in more than one state."""
    groups = []
    for s in ("behind", "ahead", "within", "cannot tell"):
        bs = [b for b, x in zip(budgets, states) if x == s]
        if bs:
            groups.append(f"{edge_words[s]} at {_budgets(bs)}")
    return f"{where}, its interval lies " + ", ".join(groups[:-1]) + f" and {groups[-1]}"


def _budgets(bs: list[int]) -> str:
    """"budget 4", "budgets 0 and 4", "budgets 0, 4 and 16"."""
    n = [str(b) for b in bs]
    return f"budget {n[0]}" if len(n) == 1 else "budgets " + ", ".join(n[:-1]) + f" and {n[-1]}"


class Band:
    """The designer's aim for the first role's win share (a ``--target role=NAME:SHARE[:TOL]`` of
    ``balance skill``, read as the first role's share: :func:`analysis.skill_target.lead_band`):
    ``text`` the target as given, ``low`` and ``high`` its band (fractions). With one, the
    sentence judges every budget against it instead of the built-in range of
    :func:`role_balance_range` (review s37 seig #10)."""

    def __init__(self, text: str, low: float, high: float, note: str = "") -> None:
        self.text, self.low, self.high, self.note = text, float(low), float(high), note


def band_state(low: float, high: float, band: Band) -> str:
    """One budget's interval against the designer's band, in :func:`role_state`'s words:
    ``"behind"`` (wholly below it), ``"ahead"`` (wholly above it), ``"within"`` (wholly inside it:
    the target met there) or ``"cannot tell"`` (across an edge); as the target's own reading
    (:func:`analysis.skill_target.share_status`) reads an interval, the band not widened."""
    if high < band.low:
        return "behind"
    if low > band.high:
        return "ahead"
    if band.low <= low and high <= band.high:
        return "within"
    return "cannot tell"


def _band_words(rows: list[dict], band: Band) -> str:
    """The first role's win share at every budget against the designer's target (``band``): where
    each budget's interval lies, then met or missed at which budgets, and what that says as play
    gets stronger (the fix holds; breaks under stronger play; is met only under stronger play);
    an interval across an edge is a budget these games cannot tell."""
    role = rows[0]["figure"].replace(" win share", "")
    budgets = [r["budget"] for r in rows]
    states = [band_state(r["low"], r["high"], band) for r in rows]
    d = decimals([x for r in rows for x in (r["low"], r["high"])], (band.low, band.high))
    lo, hi = (percent(x, d).rstrip("0").rstrip(".") for x in (band.low, band.high))
    where = (f"Against the target {band.text} (the {role}'s win share from {lo}% to {hi}%"
             + (f"; {band.note}" if band.note else "") + ")")
    edge_words = {"behind": f"wholly below {lo}%", "ahead": f"wholly above {hi}%",
                  "within": "wholly within it", "cannot tell": "across one of its edges"}
    why = {"behind": f"the {role} wins too seldom", "ahead": f"the {role} wins too often"}
    every = len(rows) > 1
    if len(set(states)) == 1:
        s = states[0]
        at = "at every budget" if every else f"at budget {budgets[0]}"
        if s == "within":
            tail = (": the target is met at every budget, so it holds as play gets stronger." if every
                    else ": the target is met.")
        elif s in why:
            tail = f": the target is missed {at} ({why[s]})."
        else:
            tail = f": these games cannot tell whether the target is met {at}."
        return f"{where}, its interval lies {edge_words[s]} {at}{tail}"
    text = _lies_by_budget(where, budgets, states, edge_words)
    met = [b for b, x in zip(budgets, states) if x == "within"]
    missed = [b for b, x in zip(budgets, states) if x in why]
    unclear = [b for b, x in zip(budgets, states) if x == "cannot tell"]
    said = []
    if met:
        said.append(f"the target is met at {_budgets(met)}")
    if missed:
        ways = sorted({why[x] for x in states if x in why})
        said.append(("the target is " if not met else "") + f"missed at {_budgets(missed)} ("
                    + " or ".join(ways) + ")")
    if unclear:
        said.append(f"these games cannot tell at {_budgets(unclear)}")
    first, last = states[0], states[-1]
    if last in why and "within" in states[:-1]:
        trend = (f"; so it does not hold as play gets stronger (the strongest play read, budget "
                 f"{budgets[-1]}, misses it)")
    elif last == "within" and first in why:
        trend = "; so it is met only as play gets stronger"
    elif last in why:
        trend = f"; the strongest play read (budget {budgets[-1]}) misses it"
    else:
        trend = ""
    return text + ": " + ", ".join(said[:-1]) + (" and " if len(said) > 1 else "") + said[-1] + trend + "."


def _role_words(rows: list[dict], smallest: float, band: Band | None = None) -> str:
    """Whether the first role's side is ahead or behind at every budget (each budget's interval
    against :func:`role_balance_range` widened by ``smallest``, :func:`role_state`) and what that
    says of the advantage as play gets stronger. "Persists" is said only when every budget's
    interval lies wholly on the same side outside the widened range; "vanishes", "appears" and
    "reverses" only when no budget's interval reaches across an edge; else these games cannot tell
    (and which budgets' intervals reach across).

    The sentence names the state of every budget, each a claim of its own (an interval wholly
    below the range at one budget says the other side is ahead there), and a panel says this of
    every cell: it reads every budget's interval of every cell, not only the first and the last.
    So the intervals are read at :func:`role_level`, Bonferroni over all of them (B x k), and
    every claim made from them holds whenever they all do: together at 95%. "One claim on all the
    budgets' intervals together" (an intersection-union reading) kept "persists" at 95% alone,
    not the per-budget states beside it nor the claims of several cells (tests/analysis/
    test_review_r_skill_roles.py).

    With the designer's target (``band``) the budgets are judged against it instead
    (:func:`_band_words`): a game with roles has no single fair share, and the designer's aim is
    the one that counts (review s37 seig #10: "cannot tell" against 25-50% beside "missed" against
    the target on the same page)."""
    if band is not None:
        return _band_words(rows, band)
    role = rows[0]["figure"].replace(" win share", "")
    other = rows[0].get("other") or "the other seats"
    P = int(rows[0].get("players") or 2)
    a, b = role_balance_range(P)
    lo, hi = a - smallest, b + smallest
    states = [role_state(r["low"], r["high"], P, smallest) for r in rows]
    budgets = [r["budget"] for r in rows]
    span = (f"{_edge(a)}%, what any one of the {P} seats wins when all win alike, to {_edge(b)}%, what "
            "each side wins when the two sides win alike"
            if a < b else f"{_edge(a)}%, an even split")
    # (no target given: the built-in range, said as such, and how to give one's own aim)
    where = (f"With no target of one's own given, against the range a balance of the roles can sit "
             f"in (from {span}; widened by the "
             f"{100 * smallest:g} pp that matters: {_edge(lo)}% to {_edge(hi)}%)")
    if a == b:
        where = (f"With no target of one's own given, against a balance of the roles ({span}; "
                 f"widened by the {100 * smallest:g} pp "
                 f"that matters: {_edge(lo)}% to {_edge(hi)}%)")
    edge_words = {"behind": f"wholly below {_edge(lo)}%", "ahead": f"wholly above {_edge(hi)}%",
                  "within": "wholly within it", "cannot tell": "across one of its edges"}
    adv = {"behind": f"{other}' advantage" if other.endswith("s") else f"{other}'s advantage",
           "ahead": f"the {role}'s advantage"}
    every = len(rows) > 1
    if len(set(states)) == 1:
        s = states[0]
        at = "at every budget" if every else f"at budget {budgets[0]}"
        if s in adv:
            tail = (f": {adv[s]} is there {at}, so it persists as play gets stronger." if every
                    else f": {adv[s]} is there.")
            return f"{where}, its interval lies {edge_words[s]} {at}{tail}"
        if s == "within":
            return (f"{where}, its interval lies wholly within it {at}: no role advantage as large "
                    f"as the {100 * smallest:g} pp that matters outside that range.")
        return (f"{where}, its interval reaches across one of its edges {at}: these games cannot "
                "tell whether either side has an advantage.")
    text = _lies_by_budget(where, budgets, states, edge_words)
    first, last = states[0], states[-1]
    if "cannot tell" in states:
        side = next((x for x in states if x in adv), None)
        what = (f"whether {adv[side]} is there at every budget, so not whether it persists as play "
                "gets stronger" if side else "whether either side has an advantage")
        # what is clear is said first (review s37 seig #10: a Seigneur at 93% and 87% read "cannot
        # tell" alone): the side ahead at the budgets whose intervals lie wholly outside the range
        clear = []
        for s in ("behind", "ahead"):
            bs = [b for b, x in zip(budgets, states) if x == s]
            if bs:
                strongest = ", the strongest play read" if budgets[-1] in bs else ""
                clear.append(f"{adv[s]} is there at {_budgets(bs)}{strongest}")
        said = "; ".join(clear) + "; " if clear else ""
        return text + f": {said}these games cannot tell {what}."
    if first in adv and last == "within":
        return text + f": {adv[first]} vanishes as play gets stronger."
    if first == "within" and last in adv:
        return text + f": {adv[last]} appears as play gets stronger."
    if first in adv and last in adv and first != last:
        return text + f": the advantage reverses, from {adv[first]} to {adv[last]}."
    return text + "."


def _role_family(rows: list[dict]) -> str:
    """The level of a cell's role intervals and what it is adjusted for, in the words of its
    sentence: "98.75% intervals, Bonferroni over the 4 budgets read: together at 95%" (one cell),
    "... over the 4 budgets of each of 3 cells read: ..." (a panel), from the level the rows carry
    (:func:`role_level`: 1 - 0.05 / (B x k), so B x k = 0.05 / (1 - level)). Rows at 95% each
    (built before the adjustment) say so: they are not adjusted for the budgets read."""
    level = min(float(r["level"]) for r in rows)
    n = round(0.05 / (1 - level)) if level < 1 else 0
    B = len(rows)
    if n < B:
        alone = "each budget's alone, " if n <= 1 else ""
        return f"{_level(level)}% intervals, {alone}not adjusted for the {B} budgets read"
    over = (f"the {B} budgets" if n == B else f"the {B} budgets of each of {n // B} cells"
            if n % B == 0 else f"{n} intervals of budgets and cells")
    return f"{_level(level)}% intervals, Bonferroni over {over} read: together at 95%"


def verdict(adv: pl.DataFrame, smallest: float = SMALLEST_SHARE, band: Band | None = None) -> str:
    """The advantage at the smallest and the largest budget and its change between them, each
    worded by its size against ``smallest`` (the smallest win-share difference that matters, a
    fraction; reports pass :func:`analysis.load.smallest_difference`): an interval that lies at or
    above it is a difference that matters, one that lies below it none that matters, and one that
    reaches both sides is one these games cannot tell. One or two sentences per cell (player count
    and line-up: whom the answer holds for), led by the cell's name and the part read
    (:data:`EVERY_SEAT`: every seat searching). ``band``: the designer's target for the first
    role's win share (a game with roles; :class:`Band`), which the sentence then judges every
    budget against instead of the built-in range."""
    out = []
    for c in cells(adv):
        one = adv if c == "" else adv.filter(pl.col("cell") == c)
        text = _verdict(one, smallest, band)
        # the part it reads, said first: the every-seat part (the page also has one searching seat)
        # "(at budget 0 every seat plays its own bot)" only where budget 0 was played
        every = EVERY_SEAT if 0 in set(one["budget"].to_list()) else EVERY_SEARCHING
        text = f"{every}, {text}" if one.height >= 2 else text
        out.append(f"In {c}, {text[:1].lower() + text[1:]}" if c else text[:1].upper() + text[1:])
    return " ".join(out)


# the part of the table the trend sentence reads (:func:`verdict`)
EVERY_SEARCHING = "with every seat searching at the budget"
EVERY_SEAT = f"{EVERY_SEARCHING} (at budget 0 every seat plays its own bot)"


def several_seats_role(roles) -> tuple[str, list[int]] | None:
    """In a game with roles, the role that several seats play and those seats (0-based), when
    exactly one role has several seats (Seigneurial's Censitaires); else None (seats alike, or no
    such role, or more than one)."""
    roles = tuple(roles)
    if len(set(roles)) <= 1:
        return None
    several = [r for r in dict.fromkeys(roles) if roles.count(r) > 1]
    if len(several) != 1:
        return None
    return several[0], [s for s, r in enumerate(roles) if r == several[0]]


def _span(value: float, low: float, high: float, digits: int = 1) -> str:
    """A difference in percentage points with its interval: "12.0 pp (9.0 to 15.0)"."""
    return f"{percent(value, digits)} pp ({percent(low, digits)} to {percent(high, digits)})"


def _shown(r: dict) -> tuple[float, int]:
    """A row of :func:`advantage`'s figure as the sentence states it, and its decimals: the gap or
    share as the table prints it (``shown``), else (a frame made without it) its value at 1."""
    shown = r.get("shown")
    if shown is None or not np.isfinite(shown):
        return r["value"], 1
    return float(shown), int(r.get("digits") or 1)


def size(low: float, high: float, smallest: float) -> str:
    """Where an interval lies against the smallest difference that matters (both ≥ 0 in size):
    ``"matters"`` (its low end at or above ``smallest``), ``"none"`` (its high end below it) or
    ``"cannot tell"``."""
    if low >= smallest:
        return "matters"
    if high < smallest:
        return "none"
    return "cannot tell"


def mixed(r: dict) -> bool:
    """True when a row of :func:`advantage` (seats alike) is of a line-up whose seats hold different
    bots (``bots``): a gap between two of its seats is then mostly a gap between their bots, not a
    seat advantage (review s58 #1; :func:`reports.text.lineup_note` on a run's page)."""
    return len(set(r.get("bots") or [])) > 1


def _seat(r: dict, s: int) -> str:
    """"seat 2", or in a mixed line-up (:func:`mixed`) with its bot: "seat 2 (greedy)"."""
    return f"seat {s + 1}" + (f" ({r['bots'][s]})" if mixed(r) and s < len(r["bots"]) else "")


def _advantage_noun(r: dict) -> str:
    """What a largest gap between two seats is called: a "seat advantage" where every seat holds the
    same bot; where they hold different bots only a "gap" (mostly the bots' strength)."""
    return "gap" if mixed(r) else "seat advantage"


def bots_words(r: dict) -> str:
    """The sentence after a mixed line-up's gaps (:func:`mixed`): which seat holds which bot and what
    that makes of a gap between seats (the words of :func:`reports.text.lineup_note`, review s58
    #1: "seat 1 ahead of seat 2, a seat advantage" of a balanced bot beside three greedy ones);
    '' where every seat holds the same bot."""
    if not mixed(r):
        return ""
    return (f"The seats hold different bots ({bots_held(r['bots'])}), each the same seat in every game, so a gap "
            "between seats of different bots is mostly a gap between those bots, not a seat "
            "advantage: to measure the seats, play one bot in every seat.")


def bots_held(bots: list[str]) -> str:
    """Which seats hold which bot, seat 1's bot first: "seat 1 balanced, seats 2, 3 and 4 greedy"
    (``bots``: each seat's, :func:`lineup_bots`)."""
    groups: dict[str, list[int]] = {}
    for s, b in enumerate(bots):
        groups.setdefault(b, []).append(s)
    return ", ".join(f"{_seats_named(ss)} {b}" for b, ss in groups.items())


def _seats_named(seats: list[int]) -> str:
    """"seat 1", "seats 2 and 4", "seats 2, 3 and 4" (0-based ``seats``)."""
    n = [str(s + 1) for s in seats]
    return f"seat {n[0]}" if len(n) == 1 else "seats " + ", ".join(n[:-1]) + f" and {n[-1]}"


def _gap_words(r: dict, smallest: float, before: dict | None = None) -> str:
    """One budget's largest gap between two seats with its interval, worded by its size; "instead"
    when ``before`` (the smallest budget) had another seat clearly ahead. In a mixed line-up
    (:func:`mixed`) the seats are named with their bots and the gap is not called a seat
    advantage (:func:`_advantage_noun`)."""
    at = f"{_span(*_spanned(r))} at budget {r['budget']}"
    if r["low"] > 0:             # a clear gap: who leads and who trails in these games
        at += f" with {_seat(r, r['best'])} ahead of {_seat(r, r['worst'])}"
        if before is not None and before["low"] > 0 and before["best"] != r["best"]:
            at += " instead"
    s, that = size(r["low"], r["high"], smallest), f"the {100 * smallest:g} pp that matters"
    adv = _advantage_noun(r)
    if s == "matters":
        return f"{at}, a {adv} of at least {that}"
    if s == "none":
        return (f"{at}, a clear {adv} but smaller than {that}" if r["low"] > 0 else
                f"{at}, no {adv} as large as {that}")
    if r["low"] > 0:
        return f"{at}, a clear {adv}, though these games cannot tell whether it reaches {that}"
    # the chance level once per sentence: not again for a second budget of the same games
    said = (before is not None and before["low"] <= 0 and size(before["low"], before["high"], smallest) != "none"
            and (before.get("games"), before.get("players")) == (r.get("games"), r.get("players")))
    return (f"{at}, where these games cannot tell a {adv} of at least {that} from none"
            + ("" if said else _chance_words(r)))


def _chance_words(r: dict) -> str:
    """" (with every seat equal, 300 games give a largest gap of about 5.9 pp by chance alone)":
    beside a largest gap these games cannot tell from none, its chance level
    (:func:`analysis.stats.chance_largest_gap`; review 45 #3: a designer remembers the 9.0 pp, not
    its interval from 0.0); '' without the row's games and player count. In a mixed line-up
    (:func:`mixed`), whose seats are not equal, "with every seat winning alike"."""
    games, players = r.get("games"), r.get("players")
    if not games or not players or int(players) < 2:
        return ""
    level = stats.chance_largest_gap(int(players), int(games))
    alike = "winning alike" if mixed(r) else "equal"
    return (f" (with every seat {alike}, {int(games):,} games give a largest gap of about "
            f"{100 * level:.1f} pp by chance alone)")


def _spanned(r: dict) -> tuple[float, float, float, int]:
    """(the figure as stated, its interval's ends, the decimals) of a row of :func:`advantage`."""
    value, d = _shown(r)
    return value, r["low"], r["high"], d


def _level(level: float) -> str:
    """A level in percent, four significant digits at most: 97.5, 99.38, 99.79."""
    return f"{100 * level:.4g}"


def _signed(x: float, digits: int = 1) -> str:
    """A change in pp with its sign, the minus typographic as on every page: "+8.3", "−0.6"; one
    that rounds to zero without a sign, "0.0" (:func:`simcore.numbers.signed`: "+0.0 pp" read as
    a gain, session 55)."""
    return signed(100 * x, digits)


def _change_number(first: dict, last: dict, d: float, k: int) -> str:
    """The change stated by :func:`_change_words`: ``d`` (the difference of the two figures as
    printed) at ``k`` decimals; where the two figures print alike but differ, the difference of
    the two printed at the decimals (up to 3) where it is not 0 (30.00% and 30.03%: "+0.03", not
    "+0.0", session 55 review)."""
    a, b = first.get("value"), last.get("value")
    if rounded(100 * d, k) == 0 and a is not None and b is not None and a == a and b == b and a != b:
        for kd in range(k + 1, 4):
            dd = round(rounded(100 * b, kd) - rounded(100 * a, kd), kd)
            if dd != 0:
                return signed(dd, kd)
    return _signed(d, k)


def _too_few(first: dict, last: dict) -> str:
    """What a change these games cannot size says of them: "1,000 games per budget are too few to
    tell; more would narrow it" (the games of the two budgets read; a table without the count:
    "more games per budget would narrow it")."""
    games = [r.get("games") for r in (first, last) if r.get("games") is not None]
    if not games:
        return "more games per budget would narrow it"
    n = min(games)
    return f"{n:,} game{'s' if n != 1 else ''} per budget {'are' if n != 1 else 'is'} too few to tell; more would narrow it"


def _change_words(first: dict, last: dict, smallest: float, what: str, up: str, down: str,
                  printed: tuple[float, int] | None = None) -> str:
    """The change of a figure from the first to the last budget worded by its size: its interval
    runs between the two budgets' intervals' far ends, so it holds whenever both of them do. One
    these games cannot size says the games per budget are too few (:func:`_too_few`), not that
    the figure persists. The change stated is the difference of the two figures as the sentence
    states them (``printed``: the change and its decimals; else :func:`_shown` of each: "3.1 pp …
    2.9 pp … a change of −0.2 pp", review s42 B #5), its interval from the unrounded ones."""
    if printed is None:
        (a, da), (b, db) = _shown(first), _shown(last)
        k = max(da, db)
        printed = (round(100 * b - 100 * a, k) / 100, k)
    d, k = printed[:2]
    lo, hi = last["low"] - first["high"], last["high"] - first["low"]
    # the range said: from the interval ends as printed when the caller gives them (review s42 K
    # #10: "(0.0 to 1.6) … (0.1 to 2.8) … from −1.6" where the printed ends give −1.5); the words
    # are judged on the unrounded ends
    say_lo, say_hi = printed[2:4] if len(printed) >= 4 else (lo, hi)
    between, that = f"from budget {first['budget']} to budget {last['budget']}", f"the {100 * smallest:g} pp that matters"
    if lo >= smallest:
        return f"{what} {up} by {_span(d, say_lo, say_hi, k)} {between}, at least {that}."
    if hi <= -smallest:
        return f"{what} {down} by {_span(-d, -say_hi, -say_lo, k)} {between}, at least {that}."
    if -smallest < lo and hi < smallest:
        return (f"{what} changes by less than {that} {between} ({_change_number(first, last, d, k)} pp, "
                f"{_signed(say_lo, k)} to {_signed(say_hi, k)}).")
    return (f"These games cannot tell whether {what[:1].lower() + what[1:]} changes by as much as {that} {between}, "
            f"a change of {_change_number(first, last, d, k)} pp that could lie anywhere from {_signed(say_lo, k)} to "
            f"{_signed(say_hi, k)} ({_too_few(first, last)}).")


def role_share_digits(rows: list[dict], smallest: float = SMALLEST_SHARE,
                      band: Band | None = None) -> list[int]:
    """The decimals each budget's row of a role's win share (one cell's rows of :func:`advantage`)
    is printed with, its interval being the one the sentence reads (at :func:`role_level`): the
    one rule of the skill section's sentence and the report's lead on it
    (:func:`reports.skill.trend_headline`), so that the two print the same share alike (session 55
    review: "0.50% (0.03–2.29)" in the lead, "0.5% (0.0 to 2.3)" in the section). At least the
    decimals the table prints the share with (``digits``, its own 95% interval: review s42 B #5,
    "0.25%" in the role table beside "0.3%" here); no end printed as an edge the sentence reads it
    against (the range's, widened by ``smallest``, or the target ``band``'s: :func:`decimals`),
    as the share or as the other end (:func:`ci_digits`, the rule of
    :func:`reports.text.pct_ci`); and no share or end that is not 0% or 100% printed as it
    (:func:`simcore.numbers.share_digits`, the rule of ``balance check``'s rare shares)."""
    if not rows:
        return []
    a, b = role_balance_range(int(rows[0].get("players") or 2))
    edges = (a - smallest, b + smallest) if band is None else (band.low, band.high)
    d = decimals([x for r in rows for x in (r["low"], r["high"])], edges)
    return [max(d, int(r.get("digits") or 1), ci_digits(r["value"], r["low"], r["high"]),
                share_digits(*(100 * float(r[k]) for k in ("value", "low", "high"))))
            for r in rows]


def _verdict(adv: pl.DataFrame, smallest: float = SMALLEST_SHARE, band: Band | None = None) -> str:
    if adv.height < 2:
        return "only one budget was played, so there is no trend to read."
    first, last = adv.row(0, named=True), adv.row(adv.height - 1, named=True)
    what = first["figure"]
    if what != GAP:              # a role's win share: is its side ahead or behind at each budget,
        # then which way it moves
        role = what.replace(" win share", "'s win share")
        rows = list(adv.iter_rows(named=True))
        ds = role_share_digits(rows, smallest, band)
        at = [f"{percent(r['value'], k)}% ({percent(r['low'], k)} to {percent(r['high'], k)}) at "
              f"budget {r['budget']}" for r, k in zip(rows, ds)]
        shares = (f"the {role} is " + ", ".join(at[:-1]) + f" and {at[-1]} ({_role_family(rows)}).")
        # the change as the difference of the two shares as printed, at the decimals of the coarser
        # of the two, and its ends likewise: of shares printed at different decimals (a rare one
        # gets more) the difference of the two as printed stated a change with false precision,
        # and a wrong one (review s58 #4: 0.25% and 0.75% printed "0.250%" and "0.8%", "a change of
        # +0.550 pp ... from −1.773 to +2.698" for +0.50 from −1.771 to +2.683); at the coarser
        # decimals: "+0.5 pp ... from −1.8 to +2.7"
        k = min(ds[0], ds[-1])

        def diff(x: float, y: float) -> float:
            return round(rounded(100 * x, k) - rounded(100 * y, k), k) / 100

        printed = (diff(last["value"], first["value"]), k, diff(last["low"], first["high"]),
                   diff(last["high"], first["low"]))
        return (shares + " " + _role_words(rows, smallest, band) + " "
                + _change_words(first, last, smallest, f"The {role}", "rises", "falls", printed))
    # The seats' advantage is the largest gap between two seats, with its interval simultaneous over
    # every pair of seats at FAMILY_LEVEL (two budgets read, 95% for the pair; a panel of k cells:
    # family_level(k), 95% for its 2k intervals); the change's interval runs between the two
    # intervals' far ends, so it holds whenever both do.
    level = min(first["level"], last["level"])
    k = round(0.05 / (2 * (1 - level))) if level < 1 else 1
    family = "two budgets compared" if k <= 1 else f"two budgets of each of {k} cells compared"
    two = f"; {_two_seats(first)}" if _two_seats(first) else ""
    bots = bots_words(last) or bots_words(first)
    return (f"the {GAP} ({_level(level)}% intervals, {family}{two}) is "
            f"{_gap_words(first, smallest)}, and {_gap_words(last, smallest, first)}. "
            + _change_words(first, last, smallest, "The gap", "grows", "shrinks")
            + (f" {bots}" if bots else ""))


def gap_headline(first: dict, last: dict, smallest: float = SMALLEST_SHARE, note: str = "") -> str:
    """The seat advantage as a report's leading line words it (``reports.skill.trend_headline``),
    from two budgets' rows of :func:`advantage` (seats alike): the largest budget (``last``) first,
    then the bots (``first``, budget 0). It is read as the trend sentence reads it
    (:func:`_gap_words`), so the two never disagree (review N #5: the line named "seat 1 leads seat
    3 by 7.3 pp (0.0 to 17.0)" and "seat 3 led instead" where the sentence said these games cannot
    tell an advantage from none): a seat is named as leading only where the interval of the
    largest gap lies above 0, a reversal ("instead") only where both do with other seats ahead,
    and the interval is said to be of the largest gap between two seats, not of the two seats
    named. Else these games cannot tell (or, below the difference that matters, show no such
    advantage). In a mixed line-up (:func:`mixed`) the seats are named with their bots, the gap
    is not called a seat advantage, and the closing parenthesis says why (review s58 #1).
    ``note``: more words for the closing parenthesis, which names the intervals."""
    that = f"the {100 * smallest:g} pp that matters"

    def how(r):                 # a clear gap's size against the difference that matters
        adv = _advantage_noun(r)
        return {"matters": f"a {adv} of at least {that}",
                "none": f"a clear {adv} but smaller than {that}",
                "cannot tell": f"a clear {adv}, though these games cannot tell whether it "
                               f"reaches {that}"}[size(r["low"], r["high"], smallest)]

    def unclear(r):             # a gap whose interval reaches 0
        adv = _advantage_noun(r)
        return (f"no {adv} as large as {that}" if size(r["low"], r["high"], smallest) == "none"
                else f"these games cannot tell a {adv} of at least {that} from none")

    span = {k: _span(*_spanned(r)) for k, r in (("first", first), ("last", last))}
    if last["low"] > 0:
        said = (f"at budget {last['budget']} {_seat(last, last['best'])} leads {_seat(last, last['worst'])}: "
                f"the {GAP} is {span['last']}, {how(last)}")
    else:
        said = f"at budget {last['budget']} {unclear(last)}: the {GAP} is {span['last']}"
    bots = (f"with the bots (budget {first['budget']})" if first["budget"] == 0 else
            f"at budget {first['budget']}")
    if first["low"] > 0:
        ahead = (f"{_seat(first, first['best'])} led instead, ahead of {_seat(first, first['worst'])}"
                 if last["low"] > 0 and first["best"] != last["best"] else
                 f"the same seat led, ahead of {_seat(first, first['worst'])}" if last["low"] > 0 else
                 f"{_seat(first, first['best'])} led {_seat(first, first['worst'])}")
        bots += f" {ahead}: the largest gap was {span['first']}, {how(first)}"
    elif last["low"] <= 0 and unclear(first) == unclear(last):
        bots += f" likewise: the largest gap was {span['first']}"
    else:
        bots += f" {unclear(first)}: the largest gap was {span['first']}"
    level = min(first["level"], last["level"])
    # a mixed line-up (review s58 #1): its gaps are mostly its bots', said in the closing parenthesis
    lineup = ("the seats hold different bots, so a gap between seats of different bots is mostly "
              "theirs, not a seat advantage" if mixed(last) or mixed(first) else "")
    notes = [x for x in (_two_seats(last), lineup, note) if x]
    return (f"{said}; {bots} ({_level(level)}% intervals of that largest gap, simultaneous over "
            "every pair of seats" + "".join(f"; {x}" for x in notes) + ")")
