"""A tune's target read on a balance-by-search-budget table (``balance skill --target``): is the
target met, missed or not told apart at every budget, with every seat searching?

A tune judges its fix with the line-up's own bots; ``balance skill`` plays the same line-up with
the search bot at growing budgets. This module reads the ``all`` part of the skill table (every
seat searching with budget b; b = 0 is the line-up itself) against the targets a tune takes
(:mod:`analysis.tune.targets`), the ones a table of win shares measures:

* ``seat-balance[:TOL]``: every seat's win share within 1/P ± TOL;
* ``role=NAME:SHARE[:TOL]``: the win share of the seats playing role NAME (the sum of their win
  shares: the share of games that side wins) within SHARE ± TOL.

Each measured share gets Wilson's interval (:func:`analysis.stats.wilson`, Brown, Cai & DasGupta's
ends) at the Bonferroni level over every share judged in the table (cells x budgets x targets x
shares per target), so that every claim of the table holds together at 95%. A win share in [0, 1]
per game has a variance of at most p(1 - p), so the interval is also valid for a role's summed
share when a tie splits a win between sides. The words are the tune's: *met* (every interval inside
the tolerance), *missed* (an interval wholly outside it), *unclear* (neither: more games would
tell) (:func:`analysis.tune.targets.outcome`).

Each row carries its share's own status against the band (``share_status``: inside, outside,
unclear) beside the target's verdict at the budget (``budget_outcome``): a seat inside the band at a
budget whose target is missed reads inside / missed, never missed alone.

Reads a table only, plays nothing, so reports may use it. May import numpy, polars,
:mod:`analysis.stats`, :mod:`analysis.skill_words` and :mod:`analysis.tune.targets`.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from analysis.skill_words import ci_digits, decimals, percent
from analysis.stats import wilson
from analysis.tune.targets import Target, _outside, _within, outcome

# the targets a table of win shares measures (a game's length or a strategy's share is not in it)
JUDGED_KINDS = ("seat-balance", "role")
FAMILY = 0.05

# ``share_status``: the row's own share against the band (inside: its interval wholly in it; outside:
# wholly out of it; unclear: across an edge); ``budget_outcome``: the target's verdict at that budget,
# from all its shares (the same on each of them: met, missed, unclear). A seat inside the band at a
# budget whose target is missed (another seat is outside) reads inside / missed.
COLUMNS = {"cell": pl.String, "players": pl.Int64, "budget": pl.Int64, "target": pl.String,
           "measure": pl.String, "games": pl.Int64, "win_share": pl.Float64, "low": pl.Float64,
           "high": pl.Float64, "band_low": pl.Float64, "band_high": pl.Float64, "level": pl.Float64,
           "share_status": pl.String, "budget_outcome": pl.String}
INSIDE, OUTSIDE, UNCLEAR = "inside", "outside", "unclear"


def share_status(low: float, high: float, band_low: float, band_high: float) -> str:
    """One share's interval against its band: :data:`INSIDE` (wholly in it), :data:`OUTSIDE`
    (wholly out of it) or :data:`UNCLEAR` (across an edge), as the tune reads each interval
    (:func:`analysis.tune.targets._within`, :func:`analysis.tune.targets._outside`)."""
    if band_low <= low and high <= band_high:
        return INSIDE
    if low > band_high or high < band_low:
        return OUTSIDE
    return UNCLEAR


def _measures(t: Target, part: pl.DataFrame) -> list[tuple[str, float, float, float, float]]:
    """(what, win share, band low, band high, games its interval counts) of every share target
    ``t`` reads in one budget's ``all`` part (seats in order). The games are the row's
    ``effective_games`` where the part has them (a rotated-seat run's games over the design
    effect, Kish, as the seat table's own interval counts them: the games of one deal are not
    independent), else its ``games``; a role's summed share counts its seats' fewest."""
    P = part.height
    n = part["effective_games" if "effective_games" in part.columns else "games"].cast(pl.Float64)
    part = part.with_columns(n.alias("_n"))
    if t.kind == "seat-balance":
        fair = 1.0 / P
        return [(f"seat {int(r['seat']) + 1}", float(r["win_share"]), fair - t.tol, fair + t.tol,
                 float(r["_n"])) for r in part.iter_rows(named=True)]
    mine = part.filter(pl.col("role") == t.role)
    return [(t.role, float(mine["win_share"].sum()), t.aim - t.tol, t.aim + t.tol, float(mine["_n"].min()))]


def judge(table: pl.DataFrame, targets: tuple[Target, ...]) -> pl.DataFrame:
    """One row per cell, budget, target and share read (``measure``: "seat 2", or the role): the
    share, its interval at ``level`` (Bonferroni over every row), the band it must lie in, the
    share's own status against it (``share_status``: :func:`share_status`) and the target's outcome
    at that budget (``budget_outcome``, the same on the target's rows of the budget)."""
    judged = tuple(t for t in targets if t.kind in JUDGED_KINDS)
    allp = table.filter(pl.col("part") == "all").sort(["budget", "seat"], maintain_order=True)
    cells = list(dict.fromkeys(allp["cell"].to_list())) if "cell" in allp.columns else [""]
    groups = []
    for c in cells:
        ct = allp.filter(pl.col("cell") == c) if c else allp
        for b in sorted(set(ct["budget"].to_list())):
            part = ct.filter(pl.col("budget") == b).sort("seat")
            for t in judged:
                groups.append((c, int(part["players"][0]), b, int(part["games"][0]), t,
                               _measures(t, part)))
    m = sum(len(g[-1]) for g in groups)
    if m == 0:
        return pl.DataFrame(schema=COLUMNS)
    level = 1 - FAMILY / m
    rows = []
    for c, players, b, n, t, measures in groups:
        shares = np.array([x[1] for x in measures])
        counted = np.array([x[4] for x in measures])
        lo, hi = wilson(shares * counted, counted, level)
        # the tune's own reading of its target on these intervals (met, missed, unclear)
        word = outcome({"met": _within(t, 1.0 / players, lo, hi), "missed": _outside(t, 1.0 / players, lo, hi)})
        # the band's ends as written (0.3 - 0.1 is 0.19999999999999998 in binary)
        rows += [(c, players, b, t.text, what, n, share, float(lo[k]), float(hi[k]), round(blo, 12),
                  round(bhi, 12), level, share_status(float(lo[k]), float(hi[k]), round(blo, 12),
                                                      round(bhi, 12)), word)
                 for k, (what, share, blo, bhi, _) in enumerate(measures)]
    return pl.DataFrame(rows, schema=COLUMNS, orient="row")


def lead_band(table: pl.DataFrame, targets: tuple[Target, ...], labels: dict[str, str] | None = None):
    """The designer's aim the skill sentence judges the first role's win share against
    (:class:`analysis.skill_words.Band`), from the first ``role=NAME:SHARE[:TOL]`` target that
    measures it: one of the first role (seat 0's), when that role is one seat's in every cell (its
    share is the seat's); else one of the other side's role in a game of two sides whose win
    shares add up to 1 at every budget (the first role wins what that side does not: its band is
    1 minus the target's). None without such a target (a seat-balance target, a role of several
    seats), or in a game with seats alike: the sentence then reads the built-in range (review s37
    seig #10: it read 25-50% beside a target of 25-35%)."""
    from analysis.skill_words import Band

    labels = labels or {}
    allp = table.filter(pl.col("part") == "all")
    if not allp.height or "role" not in allp.columns:
        return None
    groups = allp.group_by(["cell", "budget"] if "cell" in allp.columns else ["budget"])
    firsts, sides, sums = set(), set(), []
    for _, part in groups:
        part = part.sort("seat")
        roles = [str(r) for r in part["role"].to_list()]
        if len(set(roles)) < 2:
            return None                         # seats alike: the sentence reads the gap
        firsts.add((roles[0], roles.count(roles[0])))
        sides.add(tuple(sorted(set(roles))))
        sums.append(float(part["win_share"].sum()))
    if len(firsts) != 1:
        return None
    (first, count), = firsts
    two_sides = len(sides) == 1 and len(next(iter(sides))) == 2
    for t in targets:
        if t.kind != "role":
            continue
        lo, hi = max(0.0, t.aim - t.tol), min(1.0, t.aim + t.tol)
        if t.role == first and count == 1:
            return Band(t.text, round(lo, 12), round(hi, 12))
        if t.role != first and two_sides and all(abs(x - 1.0) < 1e-9 for x in sums):
            other = labels.get(t.role, t.role.capitalize())
            return Band(t.text, round(1.0 - hi, 12), round(1.0 - lo, 12),
                        note=f"what the {other} do not win" if other.endswith("s")
                        else f"what the {other} does not win")
    return None


def role_labels(spec) -> dict[str, str]:
    """Each role's name as the sentences write it: "Seigneur", "Censitaires" (a role of several
    seats)."""
    return {r.name: r.display + ("s" if r.max_count > 1 else "") for r in spec.roles}


def _pct(x: float) -> str:
    """A share in percent at one decimal, or at the two or three a band's edge needs to be itself
    (a 0.06 pp tolerance about 99.6% is 99.54% to 99.66%, not "99.5% to 99.7%"); a share with no
    end at three decimals (a third) at one."""
    v = 100 * x
    d = next((d for d in (1, 2, 3) if abs(round(v, d) - v) < 1e-9), 1)
    return f"{v:.{d}f}"


def interval_text(r: dict, sep: str = ", ") -> str:
    """A judged row's share and interval, "29.7%, 26.2–33.0", with more decimals (up to 3) when an
    end would print as a band edge it is not (:func:`analysis.skill_words.decimals`): the
    interval's low end at 26.549% beside a 26.5% edge is "29.67%, 26.55–32.99", which reads as
    outside the band, as it is. At least the decimals the tables print the share with
    (:func:`analysis.skill_words.ci_digits`), so that an interval never prints without width: 0.40%
    with 0.37-0.43% is "0.40%, 0.37–0.43", not "0.4%, 0.4–0.4" (session 57 review #5)."""
    d = max(decimals([r["low"], r["high"], r["win_share"]], [r["band_low"], r["band_high"]]),
            ci_digits(r["win_share"], r["low"], r["high"]))
    return f"{percent(r['win_share'], d)}%{sep}{percent(r['low'], d)}–{percent(r['high'], d)}"


def _band_words(t: Target, players: int, role_label: str) -> str:
    """The band a target asks for, its ends within 0-100% (a share cannot lie past them: 99.5% ±
    1 pp is "from 98.5% to 100.0%")."""
    if t.kind == "seat-balance":
        fair = 1.0 / players
        return (f"every seat's win share from {_pct(max(0.0, fair - t.tol))}% to "
                f"{_pct(min(1.0, fair + t.tol))}% (the fair {_pct(fair)}% ± {100 * t.tol:g} pp)")
    lo, hi = _pct(max(0.0, t.aim - t.tol)), _pct(min(1.0, t.aim + t.tol))
    return (f"the {role_label}' win share from {lo}% to {hi}%" if role_label.endswith("s") else
            f"the {role_label}'s win share from {lo}% to {hi}%")


def sentences(judged: pl.DataFrame, targets: tuple[Target, ...], role_labels: dict[str, str] | None = None
              ) -> list[str]:
    """Per cell and target: "Target role=seigneur:0.30:10 (the Seigneur's win share from 20.0% to
    40.0%), every seat searching: met at budget 0 (32.2%, 29.4–35.1), unclear at budget 64 (41.4%,
    38.4–44.5)." Budget 0 is the line-up's own bots. For seat balance, the seat furthest from its
    band is quoted. Targets a win-share table cannot measure are named once, as not judged here."""
    role_labels = role_labels or {}
    out = []
    if judged.height:
        level = float(judged["level"][0])
        k = judged.height
        for c in dict.fromkeys(judged["cell"].to_list()):
            ct = judged.filter(pl.col("cell") == c)
            for t in targets:
                rows = ct.filter(pl.col("target") == t.text)
                if not rows.height:
                    continue
                bits = []
                for b in sorted(set(rows["budget"].to_list())):
                    # the share that decides: furthest outside its band (or nearest its edge)
                    q = _deciding(rows.filter(pl.col("budget") == b))
                    who = f"{q['measure']} " if t.kind == "seat-balance" else ""
                    edge = _edge_words(q) if q["budget_outcome"] == UNCLEAR else ""
                    bits.append(f"{q['budget_outcome']} at budget {b} ({who}{interval_text(q)}{edge})")
                players = int(rows["players"][0])
                label = role_labels.get(t.role, t.role.capitalize())
                where = f" in {c}" if c and len(set(judged['cell'].to_list())) > 1 else ""
                out.append(f"Target {t.text} ({_band_words(t, players, label)}){where}, every seat "
                           f"searching: " + "; ".join(bits) + ".")
        out.append(f"(Budget 0 is the line-up's own bots. {_family_words(level, k, 'tolerance')})")
    skipped = [t.text for t in targets if t.kind not in JUDGED_KINDS]
    if skipped:
        out.append(f"Not judged here: {', '.join(skipped)} (balance skill records win shares only).")
    return out


def run_rows(label: str, seats: pl.DataFrame, roles: tuple[str, ...]) -> pl.DataFrame:
    """A run's seats (the analysis ``seats`` table: seat, games, win_share) as the ``all`` part of
    a skill table at budget 0, the rows :func:`judge` reads: a report judges its runs' own bots
    against a designer's target (``balance report --target``). ``effective_games``: the games each
    seat's interval counts (a rotated-seat run's fewer, :func:`analysis.seats.seat_table`; review of
    the statistics: with the raw games the 4 seats' intervals held together 86.9% of the time, not
    95%)."""
    P = seats.height
    return pl.DataFrame({
        "cell": [label] * P, "players": [P] * P, "budget": [0] * P, "part": ["all"] * P,
        "seat": seats["seat"].cast(pl.Int64).to_list(),
        "role": [roles[int(s)] for s in seats["seat"].to_list()],
        "games": seats["games"].cast(pl.Int64).to_list(),
        "effective_games": seats["effective_games" if "effective_games" in seats.columns
                                 else "games"].cast(pl.Float64).to_list(),
        "win_share": seats["win_share"].cast(pl.Float64).to_list()})


def _deciding(rows: pl.DataFrame) -> dict:
    """The judged share that decides a target's outcome: the one furthest outside its band (or,
    all inside, the one nearest an edge)."""
    dist = np.maximum(rows["band_low"].to_numpy() - rows["win_share"].to_numpy(),
                      rows["win_share"].to_numpy() - rows["band_high"].to_numpy())
    return rows.row(int(np.argmax(dist)), named=True)


def _edge_words(q: dict) -> str:
    """Which edge of the band an unclear share's interval straddles (", across the 99.54% edge"),
    or that it is wider than the whole band; nothing for an interval inside or outside it."""
    low_in = q["low"] < q["band_low"] < q["high"]
    high_in = q["low"] < q["band_high"] < q["high"]
    if low_in and high_in:
        return ", wider than the band"
    if low_in or high_in:
        return f", across the {_pct(q['band_low'] if low_in else q['band_high'])}% edge"
    return ""


def _decided_words(q: dict, t: Target, where: str = "") -> str:
    """"missed (Seat 3 29.7%, 28.0–31.5, above the band)": the outcome with the share that decides
    it, and which way it lies off the band when it is outside or across an edge."""
    who = f"{q['measure'].capitalize()} " if t.kind == "seat-balance" else ""
    side = ""
    if q["share_status"] == OUTSIDE:
        side = ", below the band" if q["high"] < q["band_low"] else ", above the band"
    elif q["budget_outcome"] == UNCLEAR:
        side = _edge_words(q)
    return f"{_OUTCOME_WORDS[q['budget_outcome']]}{where} ({who}{interval_text(q)}{side})"


#: A target's outcome as a report's sentence writes it (the tune's words).
_OUTCOME_WORDS = {"met": "met", "missed": "missed", "unclear": "unclear"}


def run_sentences(judged: pl.DataFrame, targets: tuple[Target, ...],
                  role_labels: dict[str, str] | None = None) -> list[str]:
    """A report's reading of ``--target`` on its runs (``judged``: :func:`judge` of
    :func:`run_rows`, one cell per configuration): "Design target role=seigneur:25%:5 (the
    Seigneur's win share from 20.0% to 30.0%): missed (0.4%, 0.3–0.6, below the band)." With
    several configurations, each is named: "… missed in base (…); met in fix (…)". Then the
    level of the intervals, Bonferroni over every share judged on the page."""
    role_labels = role_labels or {}
    out = []
    if not judged.height:
        return out
    cells = list(dict.fromkeys(judged["cell"].to_list()))
    for t in targets:
        rows = judged.filter(pl.col("target") == t.text)
        if not rows.height:
            continue
        bits = []
        for c in cells:
            q = _deciding(rows.filter(pl.col("cell") == c))
            bits.append(_decided_words(q, t, f" in {c}" if len(cells) > 1 else ""))
        label = role_labels.get(t.role, t.role.capitalize())
        out.append(f"Design target {t.text} ({_band_words(t, int(rows['players'][0]), label)}): "
                   + "; ".join(bits) + ".")
    level = float(judged["level"][0])
    out.append(f"({_family_words(level, judged.height, 'band')})")
    return out


def _family_words(level: float, k: int, band: str) -> str:
    """How the ``k`` shares judged are read, after the targets' sentences: "Each interval at
    99.17%: Bonferroni over the 6 shares judged, all of them together at 95%. Met: every interval
    inside the target's band; …", or for one share (no family to adjust over; designer review,
    session 41: "Bonferroni over the 1 shares judged"): "One share judged, its interval at 95%.
    Met: its interval inside the target's band; …". ``band``: what the target's range is called."""
    if k == 1:
        return (f"One share judged, its interval at {100 * level:.4g}%. Met: its interval inside the "
                f"target's {band}; missed: wholly outside it; unclear: neither, more games would tell.")
    return (f"Each interval at {100 * level:.4g}%: Bonferroni over the {k} shares judged, all of them "
            f"together at 95%. Met: every interval inside the target's {band}; missed: one wholly "
            "outside it; unclear: neither, more games would tell.")


__all__ = ["judge", "lead_band", "sentences", "run_rows", "run_sentences", "role_labels", "share_status", "interval_text", "JUDGED_KINDS", "COLUMNS"]
