"""Fief's own tables as the command line shows them: the odds grid's heat maps and break-even
table (FF-7), the plague and revolt tables (FF-5, FF-6). The hooks ``figures`` / ``show`` of the
Fief spec's table commands (:class:`simcore.contract.TableCommand`), called by ``cli/tables.py``;
and a fief-combat run's page's first sentence (:func:`lead_headlines`: the matchup and its odds),
its sentence on the winning side's lead (:func:`margin_headline`: over the combats with a winner),
the outcome shares a sweep's or tune's page gives beside a side's win share
(:func:`side_share_note`) and the combat its replay line points to (:func:`replay_focus`).

May import rich, polars, :mod:`analysis.stats`, :mod:`analysis.seats` (the lead over decided
combats), :mod:`reports.text` (number formats), :mod:`reports.figures.fief`, the Fief rules
constants and :mod:`simcore.games.fief.spec` (the words for a combat played).
"""

from __future__ import annotations

from pathlib import Path


def _rules_name(job) -> str | None:
    """The name of the rules a table job computed under ("…/rules.toml with --set …"), if known."""
    return getattr(getattr(getattr(job, "rules", None), "source", None), "name", None)


def rules_changes_words(job) -> str:
    """What the rules a table job computed under change from the shipped ones, setting by setting
    (:func:`analysis.rules_diff.settings_diff`): "Rules: 2 settings differ from the shipped ones:
    combat.castle_row: … → …; mercy.grant_probability: 1 → 0.3." (Fief review 45 #4: with
    ``--rules`` the only trace of a change was the file's name in the titles); "Rules: the same
    settings as the shipped ones." for another file that changes nothing; '' for the shipped rules
    themselves or when either text cannot be read."""
    from analysis.rules_diff import settings_diff
    from reports.figures.fief import rules_words
    from simcore.games.fief.rules import load

    src = getattr(getattr(job, "rules", None), "source", None)
    text = getattr(src, "text", None)
    if not isinstance(text, str):
        return ""
    diff = settings_diff(load().source.text, text)
    if diff is None or (not diff and not rules_words(_rules_name(job))):
        return ""
    if not diff:
        return "Rules: the same settings as the shipped ones."
    shown = "; ".join(c.text for c in diff[:6]) + (f"; and {len(diff) - 6} more (run.json rules_text)"
                                                   if len(diff) > 6 else "")
    many = f"{len(diff)} settings differ" if len(diff) > 1 else "1 setting differs"
    return f"Rules: {many} from the shipped ones: {shown}."


def odds_figures(job, tables: dict, folder: Path) -> list[str]:
    """One heat map of P(attacker wins) per terrain of the grid."""
    from reports.figures.fief import heatmap

    rules = _rules_name(job)
    for t in job.terrains:
        heatmap(tables["odds"], t, folder / f"heatmap_{t}.png", job.levels, rules)
    return [f"heatmap_{t}.png" for t in job.terrains]


def show_odds(job, tables: dict, path: Path) -> None:
    mercy = tables["odds"]["mercy"][0] if tables["odds"].height else "never"
    rules = _rules_name(job)
    hint = job.method == "mc" and job.exact_covers() if hasattr(job, "exact_covers") else False
    odds = tables["odds"]
    top = int(odds["attacker"].max()) if odds.height else None     # the grid's largest attacker
    from reports.figures.fief import _lords

    # the Lords each side counts, as the heat maps' titles say them (Fief review 45 #6)
    lords = (f"Lords: attacker {_lords(odds, 'attacker')}, defender {_lords(odds, 'defender')}"
             if odds.height and "attacker_lords" in odds.columns else "")
    print_odds_summary(tables["break_even"], path, job.agreement(tables), mercy, rules, hint, top,
                       changes=rules_changes_words(job), lords=lords,
                       attackers=sorted(odds["attacker"].unique().to_list()))


def show_calamity(job, tables: dict, path: Path) -> None:
    changes = rules_changes_words(job)
    if changes:
        print(changes)
    print_calamity(job.rules, tables["plague_summary"], tables["plague"], tables["revolt"], path,
                   job.agreement(tables) if hasattr(job, "agreement") else None,
                   job.notes() if hasattr(job, "notes") else None)


#: Under Monte Carlo tables, when the exact method computes the same grid (FF-7).
EXACT_HINT = "Exact odds of this grid: --method exact (computed outright, no sampling, nothing marked ≈)."


def print_odds_summary(be, path: Path, agreement, mercy: str = "never", rules: str | None = None,
                       exact_hint: bool = False, top: int | None = None, changes: str = "",
                       lords: str = "", attackers: list[int] | None = None) -> None:
    """Print the break-even table of each terrain; its title names the conditions the numbers
    hold under (FF-4 d'Arc's side, FF-3 mercy policy, rules other than the shipped ones:
    :func:`reports.figures.fief.rules_words`) when they are not the plain combat. Under each, what
    its marks mean (:func:`break_even_caption`; a Monte Carlo table's says how its intervals are
    adjusted for all the break-evens printed); ``exact_hint``: under Monte Carlo tables whose grid
    the exact method computes too, :data:`EXACT_HINT`. Then what the tables say a designer can act
    on (:func:`break_even_words`; ``top``: the grid's largest attacker). ``changes``: what the rules
    change from the shipped ones (:func:`rules_changes_words`), printed first."""
    import polars as pl
    from rich.console import Console
    from rich.table import Table

    from reports.figures.fief import rules_words

    console = Console()
    if changes:
        console.print(changes, markup=False)
    for terrain in be["terrain"].unique(maintain_order=True).to_list():
        sub = be.filter(pl.col("terrain") == terrain)
        where = {"open": "in open ground", "castle": "in a castle", "city": "in a city"}[terrain]
        darc = sub["darc"][0]
        given = ((f", {lords}" if lords else "")
                 + (f", d'Arc with the {darc}" if darc != "none" else "")
                 + (f", mercy {mercy}" if mercy != "never" else "")
                 + (f", {rules_words(rules)}" if rules_words(rules) else ""))
        cols = [c for c in sub.columns if c.startswith("min_attacker_p")]
        t = Table(title=f"Break-even: smallest attacker (points) beating a defender {where}{given} "
                        f"({sub['method'][0]}; '-' = not within the grid)")
        t.add_column("defender", justify="right")
        for c in cols:
            t.add_column(f"P >= {c.removeprefix('min_attacker_p')}%", justify="right")
        for row in sub.iter_rows(named=True):
            t.add_row(str(row["defender"]), *(break_even_cell(row, c) for c in cols))
        console.print(t)
        caption = break_even_caption(sub, cols, be.height * len(cols), attackers)
        if caption:
            console.print(caption, markup=False)
    if exact_hint and (be["method"] == "mc").all():
        console.print(EXACT_HINT, markup=False)
    said = break_even_words(be, top, attackers)
    if said:
        console.print(said)
    if agreement:
        console.print(agreement_words(agreement))
    console.print(f"wrote {path}")


def _mark(row: dict, col: str):
    """A break-even cell's mark (``mark_p<level>`` beside ``min_attacker_p<level>``), if any."""
    return row.get("mark_p" + col.removeprefix("min_attacker_p"))


def break_even_cell(row: dict, col: str) -> str:
    """One break-even cell as printed (FF-7): the attacker, "-" when the grid does not reach the
    level; "≈" before it when Monte Carlo cannot tell it from another attacker of the grid, "≤"
    when it is the grid's smallest attacker, which may not be the smallest to reach the level
    ("≤20": 20 or fewer; "≈≤20" with both), "(exactly)" after it when the exact odds there are
    the level itself (not "tie": a combat can end with both armies wiped out, and a tie would
    read as that)."""
    from simcore.games.fief.spec import AT_LEVEL, AT_MOST, WITHIN_NOISE

    value, mark = row[col], _mark(row, col)
    text = "-" if value is None else str(value)
    if mark in (WITHIN_NOISE, AT_MOST, WITHIN_NOISE + AT_MOST):
        return mark + text
    if mark == AT_LEVEL and value is not None:
        return f"{text} ({AT_LEVEL})"
    return text


def _confidence_words(confidence: float) -> str:
    """A confidence as a percent, its distance from 100% to two significant digits: 1 - 0.05/27
    → "99.81%", 1 - 0.05/180 → "99.972%", 0.99 → "99%"."""
    import math

    miss = 100 * (1 - confidence)
    digits = max(0, 1 - math.floor(math.log10(miss))) if miss > 0 else 0
    text = f"{100 - miss:.{digits}f}"
    return (text.rstrip("0").rstrip(".") if "." in text else text) + "%"


def break_even_caption(sub, cols: list[str], family: int | None = None,
                       attackers: list[int] | None = None) -> str:
    """What the marks of a break-even table mean (FF-7): a Monte Carlo table's "≈" (its odds
    carry an uncertainty) and, always under a Monte Carlo table, how sure its unmarked cells are:
    the intervals are Wilson at 1 - 0.05 / k, Bonferroni over the ``family`` of k break-evens
    the tables print (all terrains; ``sub``'s own cells when not given); an exact table's cells
    at the level itself ("exactly"); and a break-even at the grid's smallest attacker ("≤20":
    20 or fewer, below the grid) or just after a gap of the grid's ``attackers`` ("≤8" of
    1-5,8: 6 to 8). '' for an exact table without such a cell."""
    from simcore.games.fief.spec import AT_LEVEL, AT_MOST, NOISE_ALPHA, WITHIN_NOISE, noise_confidence

    cells = [break_even_cell(row, c) for row in sub.iter_rows(named=True) for c in cols]
    said = []
    if sub.height and (sub["method"] == "mc").all():
        k = family if family is not None else len(cells)
        unreached = (" (≈- : an attacker of the grid may reach the level)"
                     if WITHIN_NOISE + "-" in cells else "")
        marked = (f"≈ = within Monte Carlo noise: the interval of P(attacker wins) at this "
                  f"attacker, or at a smaller one of the grid, holds the level, so the break-even "
                  f"may be another attacker{unreached}. " if any(c.startswith(WITHIN_NOISE)
                                                                for c in cells)
                  else "No break-even is within Monte Carlo noise. ")
        said.append(marked + f"The intervals are Wilson at {_confidence_words(noise_confidence(k))} "
                    f"(1 - {NOISE_ALPHA:g}/{k:,}: Bonferroni over the {k:,} break-evens of these "
                    f"tables), so that an unmarked break-even other than the exact odds' one turns up "
                    f"in at most about 1 run in {round(1 / NOISE_ALPHA)}.")
    if any(c.endswith(f"({AT_LEVEL})") for c in cells):
        said.append(f"{AT_LEVEL}: the exact P(attacker wins) equals the level (to 12 decimal "
                    "places): this attacker reaches it without passing it.")
    for a in at_most_attackers(sub):
        before = [x for x in (attackers or ()) if x < a]
        if not before:
            said.append(f"{AT_MOST}{a}: the grid's smallest attacker, {a} points, already reaches "
                        f"the level, so the break-even is {a} or fewer (start --attackers lower to "
                        f"see it).")
            continue
        skipped = _points_words(tuple(range(max(before) + 1, a)))
        said.append(f"{AT_MOST}{a}: the grid skips {skipped} points, just below {a}, so the "
                    f"break-even is {max(before) + 1} to {a} (add {skipped} to --attackers to see "
                    f"it).")
    return " ".join(said)


def at_most_attackers(be) -> list[int]:
    """The attackers of the break-evens marked "≤" (FF-7: the grid's smallest, or the first
    after a gap of the grid, which already reaches the level there), ascending; [] when no cell
    of ``be`` is."""
    from simcore.games.fief.spec import AT_MOST

    found = set()
    for c in be.columns:
        if c.startswith("mark_p"):
            at = be.filter(be[c].str.ends_with(AT_MOST).fill_null(False))
            found.update(int(a) for a in at["min_attacker_p" + c.removeprefix("mark_p")])
    return sorted(found)


#: The defenders a break-even ratio is read over: below 5 points a point more or less is a large
#: share of the defence, so the ratio of the smallest defences says little of a terrain.
RATIO_FROM = 5


def break_even_words(be, top: int | None = None, attackers: list[int] | None = None) -> str:
    """What the break-even tables say a designer can act on (FF-7): per terrain, how many times the
    defender's points an attacker needs to take the fief at the first level of the table (50% by
    default), as the range of the ratio smallest attacker / defender over the defences of
    :data:`RATIO_FROM` points or more that the grid resolves, from the exact odds where the table has
    them: "To take the fief with P(attacker wins) ≥ 50%, an attacker needs 1.1 to 1.2 times the
    defender's points in open ground, 1.3 to 1.6 in a castle and 1.6 to 1.9 in a city (the smallest
    such attacker divided by the defender's points, over defences of 5 to 20 points in open ground
    and in a castle, and of 5 to 16 in a city: a larger one in a city is not taken with P ≥ 50% by
    the grid's largest attacker, 30 points)." The defences are said per terrain where they differ, and
    why a terrain's stop below the table's largest defence (no attacker of the grid reaches the
    level there; ``top``: the grid's largest attacker, named when given); designer review,
    session 41: "over defences of 5 to 20 points" was said of a city whose table had no
    break-even from 17 up. A defence the grid's smallest attacker already takes (marked "≤": its
    break-even is that attacker or fewer, below the grid) has no ratio: it is left out and the
    sentence says so (:func:`_at_most_words`; session 45: attackers 20-30 against 5-8 read "2.5 to
    4 times" where the exact break-evens are 6 to 9); when every defence is, no ratio is given.
    So is a defence whose break-even is the first attacker after a gap of the grid's
    ``attackers`` (1-5,8: a break-even at 8 is 6 to 8), named with the attackers it may be.
    '' when no terrain has a defence within the grid."""
    import polars as pl

    from simcore.games.fief.spec import AT_MOST, WITHIN_NOISE

    cols = [c for c in be.columns if c.startswith("min_attacker_p")]
    if not cols or be.height == 0:
        return ""
    col = cols[0]
    level = col.removeprefix("min_attacker_p")
    rows = be.filter(pl.col("method") == "exact") if (be["method"] == "exact").any() else be
    names = {"open": "in open ground", "castle": "in a castle", "city": "in a city"}
    mark = "mark_p" + level
    # below the grid: the break-even is the grid's smallest attacker or fewer, no ratio
    at_most = (pl.col(mark).str.ends_with(AT_MOST).fill_null(False) if mark in rows.columns
               else pl.lit(False))
    parts, spans, below, first, gaps = [], {}, {}, None, {}
    smallest = min(attackers) if attackers else None
    for terrain in ("open", "castle", "city"):
        table = rows.filter((pl.col("terrain") == terrain) & (pl.col("defender") >= RATIO_FROM))
        under = table.filter(at_most)
        after_gap = (under.filter(pl.col(col) != smallest) if smallest is not None
                     else under.clear())
        under = under.filter(pl.col(col) == smallest) if smallest is not None else under
        if under.height:
            below.setdefault(tuple(under["defender"].to_list()), []).append(names[terrain])
            first = int(under[col][0])
        for d, a in zip(after_gap["defender"], after_gap[col]):
            lo = max(x for x in attackers if x < a) + 1
            where = f" {names[terrain]}" if rows["terrain"].n_unique() > 1 else ""
            gaps.setdefault((lo, a, where), []).append(d)
        sub = table.filter(pl.col(col).is_not_null() & ~at_most)
        if sub.height == 0:
            continue
        ratio = (sub[col] / sub["defender"]).to_numpy()
        a, b = float(ratio.min()), float(ratio.max())
        span = f"{a:.2g}" if f"{a:.2g}" == f"{b:.2g}" else f"{a:.2g} to {b:.2g}"
        parts.append((terrain, f"{span} {{times}} {names.get(terrain, terrain)}"))
        d = sub["defender"]
        lo, hi = int(d.min()), int(d.max())
        within = table.filter(pl.col("defender").is_between(lo, hi))["defender"].n_unique()
        # stopped below the table's largest defence: "" (not stopped), "clear", or "noise" (a
        # Monte Carlo "≈-": an attacker of the grid may reach the level there)
        above = table.filter((pl.col("defender") > hi) & pl.col(col).is_null())
        stopped = ("" if above.height == 0 else "noise" if mark in above.columns
                   and (above[mark] == WITHIN_NOISE).any() else "clear")
        spans.setdefault((lo, hi, d.n_unique() if d.n_unique() < within else 0, stopped),
                         []).append(names.get(terrain, terrain))
    one = len(below) == 1 and len(next(iter(below))) == 1
    lower = f"start --attackers lower to see {'its' if one else 'their'} break-even"
    taken = _at_most_words(below, first, level, rows["terrain"].n_unique() > 1) if below else ""
    many = sum(len(ds) for ds in gaps.values()) > 1
    skipped = (f"the grid skips attackers just below the break-even of defence{'s' if many else ''} "
               + _listed([f"{_points_words(tuple(ds))}{where} ({lo} to {a} points)"
                          for (lo, a, where), ds in gaps.items()])
               + f": add them to --attackers to see {'their break-evens' if many else 'it'}"
               if gaps else "")
    if not parts:
        left = "; ".join(x for x in (f"{taken} ({lower})" if below else "", skipped) if x)
        return (f"To take the fief with P(attacker wins) ≥ {level}%, the grid gives no ratio to the "
                f"defender's points: {left}." if left else "")
    words = [text.format(times="times the defender's points" if i == 0 else "")
             .replace("  ", " ") for i, (_, text) in enumerate(parts)]
    listed = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
    return (f"To take the fief with P(attacker wins) ≥ {level}%, an attacker needs {listed} (the "
            f"smallest such attacker divided by the defender's points, over defences "
            f"{_defences_words(spans, level, top)}{noise_words(rows, col)}"
            + (f"; {taken}: {lower}" if below else "") + (f"; {skipped}" if gaps else "") + ").")


def _points_words(points: tuple[int, ...]) -> str:
    """Defences as a designer lists them: "5", "5 and 6", "5 to 8" (consecutive), "5, 7 and 9"."""
    p = sorted(points)
    if len(p) >= 3 and p[-1] - p[0] == len(p) - 1:
        return f"{p[0]} to {p[-1]}"
    return str(p[0]) if len(p) == 1 else ", ".join(map(str, p[:-1])) + f" and {p[-1]}"


def _listed(said: list[str]) -> str:
    """Phrases in one list: "a", "a and b" ("a, and b" where a holds an "and" itself), "a, b and c"."""
    if len(said) == 1:
        return said[0]
    if len(said) == 2:
        return said[0] + (", and " if " and " in said[0] else " and ") + said[1]
    return ", ".join(said[:-1]) + " and " + said[-1]


def _at_most_words(below: dict, first: int, level: str, several: bool) -> str:
    """The defences the break-even sentence has no ratio for (FF-7: the grid's smallest attacker,
    ``first``, already takes them, so their break-even is ``first`` or fewer; ``below``: their
    defences → the terrains' names, named when the table has ``several`` terrains): "defences 5
    to 8 are taken with P ≥ 50% already by the grid's smallest attacker, 20 points"."""
    said = [_points_words(d) + (" " + " and ".join(where) if several else "")
            for d, where in below.items()]
    out = _listed(said)
    one = len(below) == 1 and len(next(iter(below))) == 1
    return (f"defence{'' if one else 's'} {out} {'is' if one else 'are'} taken with P ≥ {level}% "
            f"already by the grid's smallest attacker, {first} points")


def _defences_words(spans: dict, level: str, top: int | None) -> str:
    """The defences the break-even ratios are read over, per terrain where they differ (``spans``:
    (lowest, highest, how many when not all of those between, whether the terrain's stop below the
    table's largest defence: "", "clear" or "noise") → the terrains' names), then why those that
    stop short of it do: "of 5 to 20 points", "of 5 to 20 points in open ground and in a castle,
    and of 5 to 16 in a city: a larger one in a city is not taken with P ≥ 50% by the grid's
    largest attacker, 30 points"."""
    said, stopped, noisy = [], [], False
    for k, ((lo, hi, n, stop), where) in enumerate(spans.items()):
        unit = " points" if k == 0 else ""
        text = (f"of {lo}{unit}" if lo == hi else f"of {n} from {lo} to {hi}{unit}" if n
                else f"of {lo} to {hi}{unit}")
        said.append(text + (" " + " and ".join(where) if len(spans) > 1 else ""))
        if stop:
            stopped += where
            noisy = noisy or stop == "noise"
    out = _listed(said)
    if stopped:
        every = sum(len(w) for w in spans.values())
        out += (": a larger one" + ("" if len(stopped) == every else " " + " or ".join(stopped))
                + f" is not taken with P ≥ {level}% by "
                + (f"the grid's largest attacker, {top} points" if top is not None
                   else "any attacker of the grid")
                + (", as Monte Carlo estimates it: some are marked ≈-, within its noise" if noisy else ""))
    return out


def noise_words(rows, col: str) -> str:
    """The break-even sentence's caveat (FF-7) when its ratios come from Monte Carlo: how many of
    the break-evens behind them (defences of :data:`RATIO_FROM` points or more) are within its
    noise (marked "≈" in the tables; not those marked "≤", which have no ratio), so no ratio
    reads more precise than it is; '' for exact odds or when none is."""
    import polars as pl

    from simcore.games.fief.spec import AT_MOST, WITHIN_NOISE

    mark = "mark_p" + col.removeprefix("min_attacker_p")
    if mark not in rows.columns:
        return ""
    used = rows.filter((pl.col("defender") >= RATIO_FROM) & pl.col(col).is_not_null()
                       & (pl.col("method") == "mc")
                       & ~pl.col(mark).str.ends_with(AT_MOST).fill_null(False))
    noisy = used.filter(pl.col(mark) == WITHIN_NOISE).height
    if not noisy:
        return ""
    verb = "is" if noisy == 1 else "are"
    return (f"; from Monte Carlo: {noisy} of these {used.height} break-evens {verb} within its "
            f"noise, marked ≈ in the tables, so the ratios are less precise than their digits")


def _p(p: float) -> str:
    return "0" if p == 0 else f"{p:.2g}"


def _where(x: dict) -> str:
    return f"{x['terrain']} {x['attacker']} v {x['defender']}"


#: What a disagreement of Monte Carlo with the exact odds asks of the designer: a correct kernel is
#: told "disagree" up to 1 time in 20, and the same seed replays the same games, so the same
#: false alarm; another seed tells a chance result from a real one.
RECHECK = (" (a correct kernel gives this up to 1 time in 20, and again at every run with the same "
           "--seed, which replays the same games: run again with another --seed; a disagreement that "
           "returns at other seeds is real)")


def agreement_words(agreement: dict) -> str:
    """The MC-vs-exact line of ``balance fief-odds --method both`` (FF-7): every cell's wins
    (binomial) and rounds (their exact distribution) tested exactly under the exact odds
    (:mod:`simcore.games.fief.agreement`), the smallest p of each and where, and the smallest
    over all tests adjusted by Bonferroni; below 0.05 Monte Carlo and the exact odds disagree. A
    correct kernel is told "disagree" at most 1 time in 20 (measured: docs/fief.md)."""
    cells, tests = int(agreement["cells"]), int(agreement["tests"])
    w, r = agreement["p_attacker_wins"], agreement["rounds"]
    parts = []
    if w is not None:
        parts.append(f"P(attacker wins) {_p(w['p'])} ({_where(w)})")
    parts.append(f"rounds {_p(r['p'])} ({_where(r)})" if r is not None else
                 "rounds not tested (the grid is too large for their exact distribution)")
    p = float(agreement["p_bonferroni"])
    head = (f"MC vs exact over {cells:,} cells of {int(agreement['games']):,} combats, each cell's "
            f"wins and rounds tested exactly under the exact odds: smallest p "
            + ", ".join(parts) + f"; Bonferroni over the {tests:,} tests: p = {_p(p)}")
    if agreement["disagree"]:
        return (head + " < 0.05: Monte Carlo and the exact odds disagree" + RECHECK)
    return head + " ≥ 0.05: no disagreement detected (these games show none; not a proof that they agree)"


def revolt_cells(row: dict) -> list[str]:
    """One row of the revolt table (FF-6): an exact row's interval reads "exact" (its bounds are the
    value itself, "0.5000 – 0.5000" said nothing; revA #19); a Monte Carlo row's is its Wilson 95 %."""
    interval = ("exact" if row["method"] == "exact"
                else f"{row['p_success_lo']:.4f} – {row['p_success_hi']:.4f}")
    return [row["method"], f"{row['ecus']:,}", str(row["conviction_points"]), f"{row['p_success']:.4f}",
            interval, f"{row['p_bishop_stoned']:.4f}"]


def print_calamity(rules, summary, dist, revolt, path: Path, agreement: dict | None = None,
                   notes: dict | None = None) -> None:
    """Print the plague tables (FF-5) and the bishop's (FF-6), each followed by its ``notes``
    (:meth:`simcore.games.fief.calamity.CalamityRequest.notes`: no Lord surviving under the
    rules, écus past which the bishop's odds no longer change), then the Monte Carlo check."""
    import polars as pl

    from simcore.games.fief.rules import (
        P_PLAGUE_LORD_SURVIVES, P_PLAGUE_ROUND_UP, P_REVOLT_SUCCESS,
    )
    from rich.console import Console
    from rich.table import Table

    console = Console()
    methods = [m for m in ("exact", "mc") if m in dist["method"].to_list()]
    method = methods[0]
    lords = sorted(dist["lords"].unique().to_list())
    max_l = max(lords) if lords else 0
    n_soldiers = dist["soldiers"].n_unique()
    for m in methods:
        # one table per method (exact, then Monte Carlo): side by side in one table, a method
        # column and the interval cut the probabilities to "0.50…" at 80 columns (session 45 review)
        pooled = (" (exact)" if m == "exact" else
                  f" (Monte Carlo, pooled over the {n_soldiers} soldier count"
                  f"{'s' if n_soldiers != 1 else ''}: a Lord's die does not depend on them; each "
                  f"cell in plague_summary.csv)")
        t = Table(title=f"Plague (FF-5): P(k Lords survive) and their mean, each Lord on a die >= "
                        f"{rules.param(P_PLAGUE_LORD_SURVIVES)}{pooled}")
        t.add_column("Lords", justify="right")
        for k in range(max_l + 1):
            t.add_column(f"P({k})", justify="right")
        t.add_column("mean", justify="right")
        if m == "mc":
            t.add_column("95% interval", justify="right", no_wrap=True)
        for row in plague_rows(dist, m, max_l):
            t.add_row(*(row[1:] if m == "mc" else row[1:-1]))
        console.print(t)
    notes = notes or {}
    for note in notes.get("plague", []):
        console.print(note, markup=False)
    soldiers = (summary.filter(pl.col("method") == method).group_by("soldiers", maintain_order=True)
                .agg(pl.col("soldiers_left").first()).sort("soldiers"))
    rounding = "down" if not rules.param(P_PLAGUE_ROUND_UP) else "up"
    st = Table(title=f"Plague (FF-5): soldiers left (half removed, rounded {rounding})")
    st.add_column("soldiers", justify="right")
    st.add_column("left", justify="right")
    pairs = list(soldiers.iter_rows())
    half = (len(pairs) + 1) // 2
    if len(pairs) > 12:
        st.add_column("soldiers", justify="right")
        st.add_column("left", justify="right")
        for i in range(half):
            right = pairs[i + half] if i + half < len(pairs) else ("", "")
            st.add_row(str(pairs[i][0]), str(pairs[i][1]), str(right[0]), str(right[1]))
    else:
        for s, left in pairs:
            st.add_row(str(s), str(left))
    console.print(st)
    rt = Table(title=f"Bishop's intervention (FF-6): die + conviction points >= "
                     f"{rules.param(P_REVOLT_SUCCESS)} ends the revolt")
    for c in ("method", "écus spent", "points", "P(success)", "95% interval", "P(stoned)"):
        rt.add_column(c, justify="right")
    for row in revolt.iter_rows(named=True):
        rt.add_row(*revolt_cells(row))
    console.print(rt)
    for note in notes.get("revolt", []):
        console.print(note, markup=False)
    if agreement:
        console.print(calamity_agreement_words(agreement))
    console.print(f"wrote {path}")


def plague_rows(dist, method: str, max_l: int) -> list[list[str]]:
    """The plague table's rows of one method, one per Lords count (FF-5): P(k survive), the
    mean survivors and its 95% interval ("exact" for an exact row). Exact rows are the same for
    every soldier count (the soldiers lost are fixed), so the smallest is shown; Monte Carlo rows
    pool the trials of every soldier count (each cell draws its own dice), with the mean's 95%
    interval (normal: thousands of trials)."""
    import math

    import polars as pl

    d = dist.filter(pl.col("method") == method)
    out = []
    for n in sorted(d["lords"].unique().to_list()):
        sub = d.filter(pl.col("lords") == n)
        if method == "exact":
            sub = sub.filter(pl.col("soldiers") == sub["soldiers"].min())
            trials = None
        else:
            sub = sub.with_columns((pl.col("probability") * pl.col("games")).round().alias("count"))
            trials = int(sub.group_by("soldiers").agg(pl.col("games").first())["games"].sum())
            sub = sub.group_by("lords_left").agg(pl.col("count").sum()).with_columns(
                (pl.col("count") / trials).alias("probability"))
        probs = dict(zip(sub["lords_left"].to_list(), sub["probability"].to_list()))
        mean = sum(k * p for k, p in probs.items())
        if trials:
            var = sum((k - mean) ** 2 * p for k, p in probs.items()) * trials / max(trials - 1, 1)
            half = 1.959963984540054 * math.sqrt(var / trials)
            interval = f"{mean - half:.3f} – {mean + half:.3f}"     # as the bishop's table
        else:
            interval = "exact"
        out.append([method, str(n), *(f"{probs[k]:.4f}" if k in probs else ""
                                      for k in range(max_l + 1)), f"{mean:.3f}", interval])
    return out


def calamity_agreement_words(agreement: dict) -> str:
    """The MC-vs-exact line of ``balance fief-calamity --method both`` (FF-5, FF-6): every plague
    cell's count of trials with k Lords surviving and every revolt row's successes tested exactly
    (binomial) under the exact odds (:func:`simcore.games.fief.calamity.calamity_agreement`), the
    smallest p of each and where, the smallest over all tests adjusted by Bonferroni."""
    pl_, rv = agreement["plague"], agreement["revolt"]
    parts = []
    if pl_ is not None:
        k = int(pl_["lords_left"])
        parts.append(f"plague {_p(pl_['p'])} ({pl_['soldiers']} soldiers, {pl_['lords']} Lords: "
                     f"{k} survive{'s' if k == 1 else ''})")
    if rv is not None:
        parts.append(f"revolt {_p(rv['p'])} ({rv['ecus']:,} écus)")
    p = float(agreement["p_bonferroni"])
    head = (f"MC vs exact, {int(agreement['games']):,} trials per cell: each plague cell's count of "
            f"trials with k Lords surviving ({int(agreement['plague_cells']):,} cells) and each "
            f"revolt row's successes tested exactly (binomial) under the exact odds: smallest p "
            + ", ".join(parts) + f"; Bonferroni over the {int(agreement['tests']):,} tests: "
            f"p = {_p(p)}")
    differ = int(agreement.get("soldiers_left_differ", 0))
    if differ:
        return (head + f"; soldiers left differ from the rule in {differ} cell"
                f"{'s' if differ != 1 else ''}: Monte Carlo and the exact tables disagree")
    if agreement["disagree"]:
        return (head + " < 0.05: Monte Carlo and the exact tables disagree" + RECHECK)
    return head + " ≥ 0.05: no disagreement detected (these games show none; not a proof that they agree)"


#: What the generic sentences call a combat run's games and how a replay shows one (a combat has
#: rounds, not turns; review Q #6).
GAMES_NOUN = "combats"
REPLAY_STEP = "round by round"


def run_line(meta: dict) -> str:
    """The combat a fief-combat run measured, in a few words (run.json ``matchup``): "10 points
    with 1 Lord attacking 6 points with 1 Lord in open terrain, no Jeanne d'Arc, mercy never";
    '' without one. ``simulate`` titles its outcome table with it; the words are the spec's
    (:func:`simcore.games.fief.spec.played_as`), which a tune's verdict names too."""
    from simcore.games.fief.spec import played_as

    return played_as(meta)


def lead_headlines(t: dict, rs) -> list[str]:
    """A fief-combat run's page opens with the combat it measured (run.json ``matchup``, FF-1 to
    FF-4) and its three outcomes (run.json ``results``, summed over pooled runs, Wilson 95%
    intervals): the generic sentences below count half of each mutual wipe-out as each side's
    "win share" and call it a "shared win", which is not the attacker's odds of taking the fief;
    the sentence says so, with each side's share as they compute it (the defender's beside how
    often it holds: the page gave two answers to that question, review O #2). A run has the sides
    as its players' ``side`` column (the spec's seat role), so the page reads it by side; a run written
    before that column existed is read as seats, and then the sentence adds that the seats' fair
    50%, balance and chi-square below say nothing about a combat (review K #2). [] for a run
    without them."""
    from analysis.stats import wilson
    from reports.text import pct, pct_ci

    metas = [m for m in rs.metas if m.get("matchup") and m.get("results")]
    if not metas or len(metas) != len(rs.metas):
        return []
    m = metas[0]["matchup"]
    games = sum(int(x["results"]["games"]) for x in metas)

    def share(key: str) -> str:
        # (as every share of the page prints, pct_ci: "0.2% (0.2–0.3)" for 41 of 20,000 combats
        # beside the end reasons' "Defender holds 0.21%", session 62)
        k = sum(int(x["results"][key]["count"]) for x in metas)
        lo, hi = wilson(k, games)
        return pct_ci(k / games, float(lo), float(hi))

    def side(role: str, x: float) -> str:
        """A side's win share as the Roles table prints it (its row's pct_ci), else at one decimal."""
        roles = t.get("roles")
        if roles is not None and {"role", "win_share", "ci_low", "ci_high"} <= set(roles.columns):
            for r in roles.iter_rows(named=True):
                if r["role"] == role and abs(r["win_share"] - x) < 1e-9:
                    return pct_ci(r["win_share"], r["ci_low"], r["ci_high"]).split("%")[0]
        return pct(x)

    count = lambda key: sum(int(x["results"][key]["count"]) for x in metas)  # noqa: E731
    side_share = (count("p_attacker_wins") + 0.5 * count("p_both_wiped")) / games
    # the defender's win share beside how often it holds: the page's two answers to "how often
    # does the defender hold?" (11.3% and 8.2%, review O #2), told apart
    held = count("p_defender_holds") / games
    held_share = held + 0.5 * count("p_both_wiped") / games
    if "roles" in t:            # the run has the sides as a seat_role column
        below, seats = "The sides' win shares below", ""
    else:
        below = "The seat figures in the sections below (Seat 1 the attacker, Seat 2 the defender)"
        seats = (", so their \"fair 50%\", seat balance and chi-square say nothing about it")
    lords = lambda n: f"{n} Lord{'s' if n != 1 else ''}"  # noqa: E731
    darc = "" if m.get("darc") in (None, "none") else f", Jeanne d'Arc with the {m['darc']}"
    mercy = "" if m.get("mercy") in (None, "never") else f", {mercy_words(str(m['mercy']))}"
    # how many of a side's wins were the other's surrender (review s52 Fief: a mercy run's page
    # never said; 64% of the attacker's wins at defender:2 are surrenders, not fights to the end)
    gave_up = surrender_sentence(metas, count, games) if mercy else ""
    rounds = sum(float(x["results"]["expected_rounds"]["mean"]) * int(x["results"]["games"])
                 for x in metas) / games
    if count("p_both_wiped") == 0:
        # no mutual wipe-out: the sides' win shares are the outcomes (review S #7: "the defender's
        # win share, 2.1%, is not how often it holds (2.1%)" beside two equal numbers)
        return [f"The combat: {m['attacker']} points with {lords(m['lords_attacker'])} attack "
                f"{m['defender']} points with {lords(m['lords_defender'])} in {m['terrain']} terrain"
                f"{darc}{mercy} ({games:,} combats). The attacker takes the fief in "
                f"{share('p_attacker_wins')} of combats, the defender holds in {share('p_defender_holds')}; "
                f"no combat ended with both armies wiped out; a combat lasts {rounds:.2f} rounds on average. "
                f"({below} are these outcomes: a combat's two sides have no fair share to be measured "
                f"against{seats}; read the odds here, `balance fief-odds` gives them exactly.)"
                + gave_up]
    return [f"The combat: {m['attacker']} points with {lords(m['lords_attacker'])} attack "
            f"{m['defender']} points with {lords(m['lords_defender'])} in {m['terrain']} terrain"
            f"{darc}{mercy} ({games:,} combats). The attacker takes the fief in "
            f"{share('p_attacker_wins')} of combats, the defender holds in {share('p_defender_holds')}, "
            f"both armies are wiped out in {share('p_both_wiped')}; a combat lasts {rounds:.2f} rounds "
            f"on average. ({below} count half of each mutual wipe-out as a win for each side, so the "
            f"attacker's reads {side('attacker', side_share)}%, and the \"shared win\" below is a mutual "
            f"wipe-out: a combat's two sides have no fair share to be measured against{seats}; the "
            f"defender's win share, {side('defender', held_share)}%, is not how often it holds "
            f"({share('p_defender_holds').split('%')[0]}%): read the odds here, `balance fief-odds` "
            "gives them exactly.)"
            + gave_up]


def margin_headline(t: dict, rs) -> str | None:
    """The run page's sentence on the winning side's lead (FF-3), in place of the generic "The
    winning side finishes X points ahead", whose X (``score_spread``) counts each mutual wipe-out,
    where nobody wins, as a 0-point lead (review 247 #2: 4.50 points for 10 v 6 in a castle with 2
    Lords, where the combats with a winner averaged 4.78). The lead over the combats with a winner
    (:func:`analysis.seats.decided_spread`: a wipe-out leaves both armies at 0 points, so it is the
    spread histogram's 0 bin less the wipe-outs, exact from the same statistics), the wipe-outs'
    share named, and the all-combats figure the outcome table, the export and a sweep show, said as
    what it is. None (the generic sentence, then true) when no combat ended in a mutual wipe-out."""
    from analysis.seats import decided_spread
    from reports.text import ci_digits, num, num_ci

    o = {r["metric"]: r for r in t["outcomes"].iter_rows(named=True)}
    r = o.get("score_spread")
    d = decided_spread(rs) if r is not None else None
    if d is None or d["shared"] == 0:
        return None
    g = d["games"]

    def lead(x: dict) -> str:
        return f"{num(x['estimate'], ci_digits(x['ci_low'], x['ci_high']))} points ({num_ci(x['ci_low'], x['ci_high'])})"

    return (f"Over the {100 * d['n'] / g:.1f}% of combats with a winner, the winning side finishes "
            f"{lead(d)} ahead of the losing side on average; in the other {100 * d['shared'] / g:.1f}% "
            f"both armies are wiped out and nobody wins. (The outcome table's lead, {lead(r)}, is over "
            f"all combats, a mutual wipe-out counting as a lead of 0.)")


#: What a side's outcome is called beside its win share (FF-3)
SIDE_OUTCOME = {"attacker": ("p_attacker_wins", "takes the fief"),
                "defender": ("p_defender_holds", "holds")}


def side_share_note(role: str, runs: list[tuple[str, dict]]) -> str:
    """What a side's win share on a sweep's or a tune's page counts, with the outcomes beside it
    (review 247 #1: "the bonus that gives the attacker 85%" was a win share counting each mutual
    wipe-out as half a win to each side, where the attacker took the fief in 76.4% and 16.9% of
    combats wiped both armies out; neither page said so). ``runs``: (where, run.json) per variant
    or confirmation run, ``where`` as the sentence says it ("at darc.bonus=2", "with the tuned
    rules"); each run's ``results`` counts (FF-1 to FF-4), Wilson 95% intervals as the run page's
    (:func:`lead_headlines`). '' for a run without results, or a role other than the two sides."""
    from analysis.stats import wilson

    if role not in SIDE_OUTCOME:
        return ""
    key, verb = SIDE_OUTCOME[role]
    rows = []
    for where, meta in runs:
        res = meta.get("results") if isinstance(meta, dict) else None
        try:
            n = int(res["games"])
            rows.append((where, int(res[key]["count"]), int(res["p_both_wiped"]["count"]), n))
        except (KeyError, TypeError, ValueError):
            return ""
    if not rows or any(n <= 0 for *_, n in rows):
        return ""

    def share(k: int, n: int) -> str:
        lo, hi = wilson(k, n)
        return f"{100 * k / n:.1f}% ({100 * float(lo):.1f}–{100 * float(hi):.1f})"

    def listed(bits: list[str]) -> str:
        return bits[0] if len(bits) == 1 else ", ".join(bits[:-1]) + " and " + bits[-1]

    wins = listed([f"{share(k, n)}{' of combats' if i == 0 else ''} {where}".rstrip()
                   for i, (where, k, _, n) in enumerate(rows)])
    wiped = listed([f"{share(w, n)} {where}".rstrip() for where, _, w, n in rows])
    return (f"The {role}'s win share counts each combat where both armies are wiped out as half a "
            f"win to each side, so it is not how often the {role} {verb}: the {role} {verb} in "
            f"{wins}; both armies are wiped out in {wiped}.")


def mercy_words(policy: str) -> str:
    """A mercy policy (FF-3, ``--mercy``: "defender:2", "attacker:1,defender:3") in words: "the
    defender asks for mercy at 2 points or fewer and always granted"."""
    parts = []
    for bit in policy.split(","):
        side, _, k = bit.partition(":")
        if side.strip() in ("attacker", "defender") and k.strip().lstrip("-").isdigit():
            parts.append(f"the {side.strip()} at {int(k)} point{'s' if int(k) != 1 else ''} or fewer")
    if not parts:
        return f"mercy {policy}"
    return "mercy asked by " + " and by ".join(parts) + " and always granted"


def surrender_sentence(metas: list, count, games: int) -> str:
    """" The defender surrendered in 64.4% (63.8–65.1) of combats: 64.5% of the attacker's wins
    were not fought to the end." — for each side whose surrender the policy allows, from run.json
    ``results`` (``p_attacker_wins_by_mercy``: the attacker won by the defender's surrender);
    Wilson 95% interval. '' when the results do not have the counts."""
    from analysis.stats import wilson

    out = []
    for won, by, loser, winner in (("p_attacker_wins", "p_attacker_wins_by_mercy", "defender", "attacker"),
                                   ("p_defender_holds", "p_defender_holds_by_mercy", "attacker", "defender")):
        try:
            k, wins = count(by), count(won)
        except (KeyError, TypeError, ValueError):
            return ""
        if not k:
            continue
        lo, hi = wilson(k, games)
        out.append(f" The {loser} surrendered in {100 * k / games:.1f}% ({100 * float(lo):.1f}–"
                   f"{100 * float(hi):.1f}) of combats: {100 * k / wins:.1f}% of the {winner}'s wins "
                   "were not fought to the end.")
    return "".join(out) or (" No side asked for mercy in these combats." if games else "")



#: The comparison rows a combat's before/after answers first (:func:`comparison_lead`): the three
#: outcomes, the "shared win", which in a combat is the mutual wipe-out (the same games), and the
#: share of combats ended by the loser's surrender (``by_mercy``, the spec's one count per game).
OUTCOME_METRICS = ("end_reason_share", "shared_wins", "count_share")


def comparison_lead(cmp, unit: str = "points") -> tuple[list[str], tuple[str, ...]]:
    """A combat's before/after opens with its three outcomes, as its run page does (review O #2:
    the page compared only the sides' win shares, which count half of each mutual wipe-out, so
    "defender +17.9 pp" stood where the hold rate moved +15.7 pp, and listed the wipe-outs a
    second time as "Games with a shared win"), and how often the loser's surrender ended a combat
    (FF-3 mercy: what a change of the mercy policy moves first): each share of combats before →
    after, the change with its 95% interval and its verdict beside the interval it was read on
    (:func:`reports.text.verdict_with_range`). Where the outcomes are the sides' win shares (no
    mutual wipe-out in either run: the comparison kept them once, as the sides'), the sentence
    says so and leaves them to the role question that follows. Returns the sentences and the
    metrics they answer (left out of the page's list of changes, as the seat question's are)."""
    import polars as pl

    from reports.text import common_digits, metric_value, moved_opener, pp, pp_ci, shown_change, tested_count
    from reports.text import interval_digits, verdict_with_range

    ends = cmp.filter(pl.col("metric") == "end_reason_share")
    mercy = cmp.filter((pl.col("metric") == "count_share") & (pl.col("key") == "by_mercy"))
    if ends.height == 0 and mercy.height == 0:
        return [], ()
    order = {"attacker": 0, "defender": 1, "both_wiped": 2}
    ends = ends.with_columns(pl.col("key").replace_strict(order, default=9).alias("_o")).sort("_o").drop("_o")
    rows = pl.concat([ends, mercy])
    family = tested_count(cmp)
    d = common_digits(list(rows.iter_rows(named=True)))
    words = {"attacker": "the attacker takes the fief", "defender": "the defender holds",
             "both_wiped": "both armies are wiped out (the table's shared win)",
             "by_mercy": "the loser's surrender (mercy granted) ends the combat"}
    parts, moved = [], 0
    for r in rows.iter_rows(named=True):
        before, after = (metric_value(r[k], r["metric"], r["kind"], d) for k in ("base", "variant"))
        what = words.get(r["key"], r["label"].removeprefix("Games ending: "))
        if r.get("same_games") is not None:
            parts.append(f"{what} in {before} → {after} of combats (the same combats in both runs)")
            continue
        di = interval_digits(r, r["diff_low"], r["diff_high"], d)
        moved += bool(r.get("significant"))
        # sized within its own family (the outcomes are "other metrics", not the sides' family)
        fam = int(r["family_size"]) if r.get("family_size") else family
        parts.append(f"{what} in {before} → {after} of combats ({pp(shown_change(r, d), d)}, 95% interval "
                     f"{pp_ci(r['diff_low'], r['diff_high'], di)}), {verdict_with_range(r, 'pp', fam, d)}")
    question = "Did the combat's outcomes move? " if ends.height else "Did the mercy endings move? "
    # opened by the size of what moved (review S #2, as the seats' answer: "Yes, 4 of 4 beyond
    # noise" stood over four changes all clear but small)
    clear = rows.filter(pl.col("significant").fill_null(False))
    count = f"{moved} of {rows.height} beyond noise, " if rows.height > 1 else ""
    sizes = [int(x) for x in rows["family_size"].to_list() if x] if "family_size" in rows.columns else []
    over = (f"the {sizes[0]} tested metrics of their family" if sizes and len(set(sizes)) == 1
            else "the tested metrics")
    head = (question + (f"{moved_opener(clear['verdict'].to_list(), clear['smallest'][0])} ({count}clear after "
                        f"Holm's correction over {over})" if moved
                        else "No, none beyond noise" if rows.height > 1 else "Not beyond noise")
            + ": ")
    if ends.height:
        tail = (". The sides' win shares below count half of each mutual wipe-out as a win for each side: "
                "the defender's is not how often it holds.")
    else:
        tail = (". Who wins is the role win rates below: no combat ended with both armies wiped out in "
                "either run, so the attacker's and defender's outcomes are their sides' win shares.")
    text = head + "; ".join(parts) + tail
    return [text[0].upper() + text[1:]], OUTCOME_METRICS


def replay_focus(role: str, label: str) -> tuple[str, str]:
    """The game behind a side's losses worth watching (review M #10): a losing
    side has no points left (FF-1, without mercy), so "its highest score" picks any loss; the
    longest stand it lost (the most rounds) is the close fight. (query, words) for
    :func:`reports.sections.replay_line`."""
    return f"role={role} loses max rounds", f"the combat the {label} lost after the most rounds (its longest stand)"
