"""The sensitivity page of a sweep directory and the search page of a tune directory.

:func:`build_sweep_report` reads a sweep (:func:`analysis.sweep.metrics.sensitivity`) and writes
one self-contained HTML page: plain sentences of what each parameter moves (paired effects with
95% intervals: shares in percentage points, scores in the game's score unit), a tornado chart of
which parameters move which metric most (one panel per unit), per parameter the curve of every
headline metric against its value, and the table of every variant. :func:`build_tune_report` reads
a tune directory (tune.json, trials.csv, result.json, the confirmation run) and writes the page of
the search: the verdict sentence, the candidates that met the targets (fewest and smallest setting
changes first), the target metric trial by trial in its own unit, what each setting does to it
(the trials that played the full budget play the same games, so their differences are paired),
and every trial with its win shares, game length and the target's outcome on the search's games
(met / not met / unclear). For a seat-balance tune, how each seat responds (start rules → tuned,
paired on the confirmation's games); over a panel, how each cell responds (every target metric,
start rules → tuned per cell, paired, one family over the cells and metrics); and the settings as
good as the best
(:mod:`analysis.tune.advice`); the verdict says how the search reached its confirmation and to run
the skill check before adopting a fix tuned on bots that do not search. Both pages are built as
:class:`reports.sections.Section` lists, written as HTML and, with ``pdf=True``, as a PDF by
:func:`reports.pdf.write_pdf`; they only read files and publish atomically (report.html,
report.pdf, figures/*.png, with ``svg=True`` figures/*.svg too).

The sweep page leads with which value of each parameter to pick (:func:`which_value_sentence`,
from :func:`analysis.sweep.tables.which_values`: by the seat imbalance; in a game with roles, what the
setting does to the sides (:func:`sides_sentence`: no value picked, the split between the sides is the
designer's call), and in a game with a role of several seats by how evenly its seats split its wins), then the
line-up and player count that answer holds for with the same sweep over a panel
(:func:`reports.sections.sweep_holds_for`), and writes its tables as files beside it
(values.csv, effects.csv: :func:`sweep_files`), listed in its section "Tables as files".

May import polars, the standard library, :mod:`analysis.stats`, :mod:`analysis.load` (smallest
differences), :mod:`analysis.sweep` (metrics, store, tables, recorded: the columns a setting moved
that the page does not measure),
:mod:`analysis.tune.targets`, :mod:`analysis.tune.advice` and :mod:`analysis.tune.ends` (games at the
turn limit), :mod:`analysis.length` (the same), :mod:`analysis.export` (CSV conventions),
:mod:`analysis.start_coins` (the caution of values of some seats' start coins),
:mod:`reports.figures`, :mod:`reports.html` (style),
:mod:`reports.panel_rows` (a panel before/after's change as it prints, 'How each cell responds'),
:mod:`reports.text` (verdict words) and
:mod:`simcore` (atomic, errors, registry).
"""

from __future__ import annotations

import base64
import html
import json
import re
from pathlib import Path

import numpy as np
import polars as pl

from analysis import stats
from analysis.length import length_unit
from analysis.load import smallest_difference
from analysis.sweep.metrics import FIRST_VS_LAST, VALUE_BY_VALUE, anchors, condition_text, sensitivity
from analysis.start_coins import dir_caution
from analysis.sweep.store import read_json
from analysis.tune.advice import (WORDS as OUTCOME_WORDS, as_good_as_best, confirmed_outcome, is_start_rules,
                                  objective_text, reworded_cells, reworded_seats, same_value,
                                  search_path, seat_named, seat_of, settings_named, start_settings,
                                  start_value, tied_trials, tied_with_best, trial_outcome)
from analysis.tune.ends import TURN_LIMIT_WARN, confirmation_turn_limits, flagged, qualified_verdict
from analysis.tune.targets import edge_digits
from reports.figures import sweep as FS
from reports.figures.draw import draw_all
from reports import panel_rows
from reports.glossary import INTERVALS_NOTE, generated_note
from reports.html import _CSS, FOLD_TOGGLE, _html_table, code_marks, with_folds
from reports.pdf import write_pdf
from reports.rules_diff import value_text
from reports.sections import FigureSet, Section, glossary_section, sweep_holds_for
from reports.text import (amount, change_unit, common_digits, interval_digits, metric_value, pct,
                          rounded as rounded_value, said_once, shown_change, signed, verdict_digits,
                          verdict_words)
from reports.text import bound_pp
from simcore import games as registry
from simcore.atomic import atomic_dir, published_as
from simcore.errors import UsageError


def _minus(text: str) -> str:
    """Signed numbers with the typographic minus every other page prints (−1.2, not -1.2); a number
    that prints as zero has no sign ("at 4 by 0.0 pp", not "−0.0 pp", which reads as a loss)."""
    return re.sub(r"[+-](0(?:\.0+)?)(?![\d.])", r"\1", text).replace("-", "−")


def _signed1(x: float) -> str:
    return _minus(f"{x:+.1f}")


def _places(lo: float, hi: float, base: int) -> int:
    """Decimals to print an interval with: ``base``, or up to two more when its ends would print
    the same ("−0.9 pp (−0.9 to −0.9)" at 1e7 games a variant; "(−0.93 to −0.87)" says it)."""
    for d in range(base, base + 3):
        if f"{lo:+.{d}f}" != f"{hi:+.{d}f}" or not (lo < hi):
            return d
    return base + 2


def _share_text(x: float, lo: float, hi: float, at_least: int = 0) -> str:
    d = max(_places(100 * lo, 100 * hi, 1), at_least)
    return _minus(f"{100 * x:+.{d}f} pp ({100 * lo:+.{d}f} to {100 * hi:+.{d}f})")


def _unit_text(x: float, lo: float, hi: float, unit: str, at_least: int = 0) -> str:
    d = max(_places(lo, hi, 2), at_least)
    return amount(_minus(f"{x:+.{d}f}"), change_unit(unit)) + " " + _minus(f"({lo:+.{d}f} to {hi:+.{d}f})")


#: the verdicts that say on which side of 0 and of the smallest difference that matters an
#: interval lies (a change within noise says neither: an end printed as 0 is on its side)
_SIDED = (stats.LARGE, stats.MAY_MATTER, stats.SMALL)


def _verdict_places(r: dict, base: int) -> int:
    """The decimals a clear change's interval needs beside its verdict (review M #11): ``base``, or
    up to two more while an end would print as 0 or as ± the smallest difference that matters on
    the wrong side of its verdict ("+1.0 pp (+0.0 to +1.9): clear, may matter" with a low end of
    +0.05 pp; :func:`reports.text.verdict_digits`). ``base`` for a change within noise or a row
    without its smallest difference."""
    small = r.get("smallest")
    if r.get("verdict") not in _SIDED or small is None or not np.isfinite(small):
        return base
    return verdict_digits(r["low"], r["high"], small, 100.0 if r["share"] else 1.0, base,
                          most=base + 2)


def _move_words(r: dict) -> str:
    """"raising income.palais.base from 3 to 5" (with the other parameters' values when the sweep
    has several: "… with track.goal.4 = 10 (the base rules' value)")."""
    verb = "raising" if r["rising"] else ("lowering" if r["numeric"] else "changing")
    at = f" with {r['at']}" if r.get("at") else ""
    return f"{verb} {r['parameter']} from {r['from']} to {r['to']}{at}"


def _counts_text(counts) -> str:
    """"3 players", "3 and 4 players": the player counts of comparisons that do not read their
    setting, lowest first."""
    at = sorted({int(c) for c in counts if c is not None})
    if not at:
        return "their player count"
    return (str(at[0]) if len(at) == 1 else ", ".join(map(str, at[:-1])) + f" and {at[-1]}") + " players"


def not_read(d: pl.DataFrame) -> bool:
    """Whether the rows of one comparison (or of several) measured nothing: their player count
    does not read the setting at the two values compared (column ``read`` False for every row,
    :func:`analysis.sweep.metrics.reads_comparison`), so both variants played the same games.
    False for rows without the column (a sweep read before it had one)."""
    return "read" in d.columns and d.height > 0 and not d["read"].any()


def read_rows(d: pl.DataFrame) -> pl.DataFrame:
    """``d`` without the rows of a comparison its player count does not read (:func:`not_read`):
    they are counted nowhere and drawn nowhere (session 62 #1, as a panel sweep leaves out a cell
    that does not read the setting)."""
    return d.filter(pl.col("read")) if "read" in d.columns and d.height else d


def effect_sentence(r: dict, twins: list[dict] = ()) -> str:
    """One paired effect in words: "raising income.palais.base from 3 to 5 moves seat 3's win
    share by +0.4 pp (+0.1 to +0.7): clear but small"; ``twins``: the effects that are the same
    number (or its mirror, :func:`analysis.sweep.metrics.same_numbers`), named once at the end."""
    verdict = f": {verdict_words(r['verdict'])}" if r.get("verdict") else ""
    same = [t["label"] for t in twins if not t.get("mirror")]
    mirror = [t["label"] for t in twins if t.get("mirror")]
    notes = ([f"{' and '.join(same)} {'is' if len(same) == 1 else 'are'} the same number"] if same else []) + \
        ([f"{' and '.join(mirror)} {'moves' if len(mirror) == 1 else 'move'} by as much the other way"]
         if mirror else [])
    if r.get("follows"):
        notes.append(follows_words(r))
    note = f" ({'; '.join(notes)})" if notes else ""
    return f"{_move_words(r)} moves {r['label']} by {_amount(r)}{verdict}{note}"


def _seat_of(metric: str) -> str:
    return f"seat {metric.removeprefix('seat_win_share_')}"


#: what the page says of the seats that keep the furthest seat from being clearly the furthest
#: when a row does not say which (a table written before column ``follows_rivals``)
SOME_RIVAL = "another seat's interval reaches as far from it"


def rivals_words(r: dict) -> str:
    """Which seats' intervals reach as far from the fair share as the nearest distance of the seat
    the imbalance's estimate repeats (``follows_rivals``, :func:`analysis.sweep.metrics.furthest_seat`),
    and at which of the comparison's two values (session 58: "another seat's interval reaches as
    far from it", and a designer asked which): "seat 3's interval reaches as far from it at both
    values", "the intervals of seats 2 and 4 reach as far from it at 0", "seat 1's interval reaches
    as far from it at both values, and those of seats 2 and 4 at 0". :data:`SOME_RIVAL` for a row
    without the column."""
    rivals = r.get("follows_rivals") or []
    groups: dict[tuple[bool, bool], list[str]] = {}
    for x in rivals:
        if x["at_from"] or x["at_to"]:
            groups.setdefault((bool(x["at_from"]), bool(x["at_to"])), []).append(
                x["seat"].removeprefix("seat_win_share_"))
    if not groups:
        return SOME_RIVAL
    places = {(True, True): "at both values", (True, False): f"at {r['from']}",
              (False, True): f"at {r['to']}"}
    parts = []
    for where in ((True, True), (True, False), (False, True)):
        seats = groups.get(where)
        if not seats:
            continue
        one = len(seats) == 1
        if not parts:
            who = f"seat {seats[0]}'s interval" if one else f"the intervals of seats {_and_list(seats)}"
            parts.append(f"{who} {'reaches' if one else 'reach'} as far from it {places[where]}")
        else:
            who = f"seat {seats[0]}'s" if one else f"those of seats {_and_list(seats)}"
            parts.append(f"{who} {places[where]}")
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + ", and " + parts[-1]


def _follows_parts(r: dict) -> dict:
    """The pieces every place that names the seat an imbalance's change repeats (``follows``) is
    worded from: the seat, "the other way" (a seat below fair), whether it is clearly the furthest
    at both values (``follows_clear``: only then does the imbalance follow it), how the intervals
    stand (``follows_interval``), the reason an interval differs, and the two verdicts where they
    differ (:func:`analysis.sweep.metrics.furthest_seat`)."""
    seat = _seat_of(r["follows"])
    clear = bool(r.get("follows_clear"))
    how = r.get("follows_interval") or "same"
    if how == "same":
        why = ""
    elif not clear and how == "wider":
        why = "it also allows for another seat having been the furthest"
    elif not clear:
        why = "it is read on every seat that may have been the furthest"
    elif how == "narrower":
        why = "the two values' own intervals of the seats' shares bound it too"
    else:
        why = f"it is read on {seat}'s distance from the fair share, not on its share"
    # review s62 #4: "wider" beside two intervals that print alike ("+2.6 pp (+0.2 to +5.0)"
    # both, ends 0.15 and 0.19): the digits that show it follow the word
    digits = _follows_digits(r, max(_places(100 * r["low"], 100 * r["high"], 1), _verdict_places(r, 1))
                             if r.get("share", True) else max(_places(r["low"], r["high"], 2),
                                                              _verdict_places(r, 2)))
    mine, theirs = verdict_words(r.get("verdict")), verdict_words(r.get("follows_verdict"))
    verdicts = (f"the imbalance's change {mine}, {seat}'s {theirs}"
                if r.get("verdict") and r.get("follows_verdict") and mine != theirs else "")
    return {"seat": seat, "other_way": bool(r.get("follows_mirror")), "clear": clear, "how": how,
            "interval": {"wider": "a wider interval", "narrower": "a narrower interval"}.get(
                how, "another interval") + digits,
            "than": {"wider": f"wider than {seat}'s", "narrower": f"narrower than {seat}'s"}.get(
                how, f"not {seat}'s") + digits,
            "why": why, "verdicts": verdicts,
            "where": (f"{seat} clearly the furthest from fair at both values" if clear else
                      f"{seat} the furthest from fair at both values by the estimates, but not clearly: "
                      f"{rivals_words(r)}")}


def _follows_digits(r: dict, base: int) -> str:
    """Where the imbalance's interval (row ``r``) and that of the seat it names (``follows_low``,
    ``follows_high``) print alike at the ``base`` decimals the page prints them with but differ
    (review s62 #4): " (+0.15 to +5.03 against +0.19 to +4.99, alike at 1 decimal)", at the
    first decimals that tell them apart (up to three more); '' otherwise (they print apart, or a
    row without the seat's ends)."""
    lo, hi = r.get("follows_low"), r.get("follows_high")
    if lo is None or hi is None or (r.get("follows_interval") or "same") == "same":
        return ""
    k = 100.0 if r.get("share", True) else 1.0
    ends = [k * r["low"], k * r["high"]], [k * lo, k * hi]

    def shown(d):
        return tuple(_minus(f"{x:+.{d}f}") for x in ends[0]), tuple(_minus(f"{x:+.{d}f}") for x in ends[1])

    own, theirs = shown(base)
    if own != theirs:
        return ""
    for d in range(base + 1, base + 4):
        own, theirs = shown(d)
        if own != theirs:
            return (f" ({own[0]} to {own[1]} against {theirs[0]} to {theirs[1]}, alike at {base} "
                    f"decimal{'s' if base != 1 else ''})")
    return ""


def follows_words(r: dict) -> str:
    """Why the seat imbalance's change ``r`` is a seat's (``follows``,
    :func:`analysis.sweep.metrics.furthest_seat`), for its sentence. That seat clearly the furthest
    from fair at both values and the same interval: "as seat 3's win share does here: seat 3 is
    clearly the seat furthest from the fair share at both values, above it; not the same metric"
    (by as much the other way for a seat below it; designer review s57 B). Otherwise the same
    estimate, which seats' intervals reach as far from fair and at which value
    (:func:`rivals_words`), and why the interval differs, with both verdicts where they differ
    (review of s57 B: "within noise" beside seat 1's "clear but small", both called the same
    change)."""
    f = _follows_parts(r)
    seat, side = f["seat"], "below" if f["other_way"] else "above"
    if f["clear"] and f["how"] == "same":
        if f["other_way"]:
            return (f"by as much as {seat}'s win share, the other way, here: {seat} is clearly the seat "
                    "furthest from the fair share at both values, below it; not the same metric")
        return (f"as {seat}'s win share does here: {seat} is clearly the seat furthest from the fair "
                "share at both values, above it; not the same metric")
    state = (f"{seat}, {side} the fair share, is clearly the seat furthest from it at both values"
             if f["clear"] else
             f"{seat}, {side} the fair share, is the seat furthest from it at both values by the "
             f"estimates, but not clearly: {rivals_words(r)}")
    interval = (f"; the imbalance's interval is {f['than']}: {f['why']}" if f["how"] != "same" else
                "; here the interval is the same")
    # the imbalance's verdict is the sentence's own; the seat's is said beside it
    verdicts = f"; {seat}'s change is {verdict_words(r.get('follows_verdict'))}" if f["verdicts"] else ""
    return (f"the same estimate as {seat}'s win share{', the other way,' if f['other_way'] else ''} "
            f"here: {state}{interval}{verdicts}; not the same metric")


def follows_cell(r: dict) -> str:
    """The seat imbalance's "repeats" cell in the effects tables, from the same pieces as its
    sentence (:func:`follows_words`): "not the same metric, the same change and interval as seat
    3's win share here (seat 3 clearly the furthest from fair at both values)", or "not the same
    metric: the same estimate, the other way, as seat 1's win share here (seat 1 the furthest …
    but not clearly: seat 3's interval reaches as far from it at both values), with a wider
    interval: it also allows for another seat having been the furthest; the imbalance's change
    within noise, seat 1's clear but small" (the seats not clear of it: :func:`rivals_words`)."""
    f = _follows_parts(r)
    way = ", the other way," if f["other_way"] else ""
    label = f"{f['seat']}'s win share"
    if f["clear"] and f["how"] == "same":
        return f"not the same metric, the same change and interval{way} as {label} here ({f['where']})"
    interval = (f", with {f['interval']}: {f['why']}" if f["how"] != "same" else
                ", with the same interval here")
    verdicts = f"; {f['verdicts']}" if f["verdicts"] else ""
    return f"not the same metric: the same estimate{way} as {label} here ({f['where']}){interval}{verdicts}"


def tornado_caption_notes(effects: pl.DataFrame) -> str:
    """The tornado chart of shares' caption after its first sentence: which bars it leaves out (a
    metric that repeats another in every game, :func:`analysis.sweep.metrics.same_numbers`) and,
    per comparison whose seat imbalance has a drawn seat's change (``follows``), that the two
    bars are one change but not one metric (designer review s57 B: two bars of +0.8 pp (−0.15 to
    1.75) under "A metric that repeats another … is left out"), or, where the seat is not clearly
    the furthest or the intervals differ, one estimate with two intervals, and why."""
    out = " A metric that repeats another in every game (the same number, or its mirror) is left out."
    if "follows" not in effects.columns or effects.height == 0:
        return out
    drawn = FS.tornado_bars(effects, True)
    for r in effects.filter(pl.col("follows").is_not_null()).iter_rows(named=True):
        if (r["parameter"], r["metric"]) not in drawn or (r["parameter"], r["follows"]) not in drawn:
            continue
        f = _follows_parts(r)
        seat, way = f["seat"], ", the other way" if f["other_way"] else ""
        both = f"The bars of the seat imbalance and of {seat}'s win share ({r['parameter']} {r['from']} → {r['to']})"
        if f["clear"] and f["how"] == "same":
            out += (f" {both} are the same change and interval{way}, not the same metric: {seat} is "
                    "clearly the seat furthest from the fair share at both values, so here the imbalance "
                    "moves as its share does (with another seat furthest they would part).")
            continue
        state = (f"{seat} is clearly the seat furthest from the fair share at both values"
                 if f["clear"] else
                 f"{seat} is the seat furthest from the fair share at both values by the estimates, "
                 f"but not clearly ({rivals_words(r)})")
        interval = (f"; the imbalance's interval is {f['than']}: {f['why']}" if f["how"] != "same" else
                    "; here the two intervals happen to be the same")
        verdicts = f" ({f['verdicts']})" if f["verdicts"] else ""
        out += (f" {both} have the same estimate{way}, not the same metric"
                f"{'' if f['how'] == 'same' else ' nor the same interval'}{verdicts}: {state}{interval}.")
    return out


EFFECTS_TABLE = "Every effect"


def sweep_sentences(effects: pl.DataFrame, per_comparison: int = 4,
                    slice_effects: pl.DataFrame | None = None) -> list[str]:
    """The clear effects of every comparison (a parameter from one value to another), worded by size
    (in reading order, :data:`analysis.stats.VERDICT_ORDER`: "clear and large enough to matter"
    first, then "clear, may matter", then "clear but small"; by size within each, never by
    p-value): at most ``per_comparison`` win shares and 2 other metrics per comparison, then "…
    and N more clear effects" naming the table that has them all (:data:`EFFECTS_TABLE`); a
    comparison with no clear effect says so in its own sentence. A metric that is the same number
    as another, or its mirror (a one-seat role's share is its seat's; with two roles one side's is
    one minus the other's: column ``same_as``), is not a sentence of its own: the sentence of the
    metric it repeats names it. Clear = outside 0 by the page's simultaneous intervals (one family
    over every metric and comparison: :func:`analysis.sweep.metrics.sensitivity`). With
    ``slice_effects`` (a grid's same comparisons at the other values of the other parameters),
    each parameter's sentences are followed by one that names where a verdict differs
    (:func:`slice_sentence`). A comparison whose player count does not read the setting (column
    ``read`` False: ``track.goal.4`` at 3 players) says so in one sentence: "… changes no game: not
    read at 3 players"."""
    out = []
    if effects.height == 0:
        return out
    last_of = {}                               # each parameter's last comparison: its slice sentence follows
    for p, a, b in effects.select("parameter", "from", "to").unique(maintain_order=True).iter_rows():
        last_of[p] = (a, b)
    if "same_as" not in effects.columns:
        effects = effects.with_columns(pl.lit(None, pl.String).alias("same_as"), pl.lit(False).alias("mirror"))
    if "at" not in effects.columns:
        effects = effects.with_columns(pl.lit("").alias("at"))
    if "smallest" in effects.columns:
        effects = effects.with_columns((pl.col("delta").abs() / pl.col("smallest")).alias("size"),
                                       pl.col("verdict").replace_strict(
                                           {v: k for k, v in enumerate(stats.VERDICT_ORDER)},
                                           default=len(stats.VERDICT_ORDER), return_dtype=pl.Int64).alias("_v"))
    else:
        effects = effects.with_columns(
            (pl.col("delta").abs() * pl.when(pl.col("share")).then(100.0).otherwise(1.0)).alias("size"),
            pl.lit(0).alias("_v"))
    for (p, a, b), d in effects.group_by(["parameter", "from", "to"], maintain_order=True):
        twins = {}
        for t in d.filter(pl.col("same_as").is_not_null()).iter_rows(named=True):
            twins.setdefault(t["same_as"], []).append(t)
        own = d.filter(pl.col("same_as").is_null())
        clear = own.filter((pl.col("low") > 0) | (pl.col("high") < 0))
        if not_read(d):
            # its player count does not read the setting: the same games at both values, so
            # nothing was measured (session 62 #1: "moves no headline metric beyond its noise")
            out.append(f"{_move_words(d.row(0, named=True))} changes no game: not read at "
                       f"{_counts_text(d['players'].to_list())} (the rules played are the same at "
                       "both values)")
        elif clear.height == 0:
            out.append(f"{_move_words(d.row(0, named=True))} moves no headline metric beyond its noise "
                       "(every interval includes 0, adjusted over the page)")
        else:
            shares = clear.filter(pl.col("share")).sort(["_v", "size"], descending=[False, True])
            others = clear.filter(~pl.col("share")).sort(["_v", "size"], descending=[False, True])
            rows = list(shares.head(per_comparison).iter_rows(named=True)) + \
                list(others.head(2).iter_rows(named=True))
            out += [effect_sentence(r, twins.get(r["metric"], ())) for r in rows]
            more = clear.height - len(rows)
            if more:
                first = d.row(0, named=True)
                out.append(f"… and {more} more clear effect{'s' if more != 1 else ''} of "
                           f"{_move_words(first)} (the table \"{EFFECTS_TABLE}\" below)")
        if slice_effects is not None and slice_effects.height and last_of.get(p) == (a, b):
            line = slice_sentence(effects.filter(pl.col("parameter") == p),
                                  slice_effects.filter(pl.col("parameter") == p))
            if line:
                out.append(line)
    return [s[0].upper() + s[1:] + "." if s[0] != "…" else s + "." for s in out]


def rounded(x: pl.Expr, decimals: int = 2) -> pl.Expr:
    """``x`` rounded to ``decimals`` for a table, a value that rounds to zero written 0: a change of
    −0.001 turns rounds to −0.0, which a page prints "-0" (a sign with no size)."""
    r = x.round(decimals)
    return pl.when(r == 0).then(pl.lit(0.0)).otherwise(r)


def effects_table(effects: pl.DataFrame) -> pl.DataFrame:
    """The page's table of every effect: per comparison, every metric's paired change with its
    simultaneous interval (shares in pp, every other metric in its own unit) and its words; a metric
    that is the same number as another, or its mirror, says which; a comparison whose player count
    does not read the setting says "not read at 3 players: the same games at both values"; a role's
    split gap whose interval is centred on 0 whatever its change says why (:func:`even_both_cell`)."""
    if effects.height == 0:
        return pl.DataFrame()
    d = effects
    if "same_as" not in d.columns:
        d = d.with_columns(pl.lit(None, pl.String).alias("same_as"), pl.lit(False).alias("mirror"))
    if "follows" not in d.columns:
        d = d.with_columns(pl.lit(None, pl.String).alias("follows"), pl.lit(False).alias("follows_mirror"))
    d = d.with_columns(*[pl.lit(v, t).alias(c) for c, v, t in (
        ("follows_clear", False, pl.Boolean), ("follows_interval", None, pl.String),
        ("follows_low", None, pl.Float64), ("follows_high", None, pl.Float64),
        ("smallest", None, pl.Float64),
        ("follows_verdict", None, pl.String), ("follows_rivals", None, pl.Null)) if c not in d.columns])
    if "at" not in d.columns:
        d = d.with_columns(pl.lit("").alias("at"))
    labels = dict(zip(d["metric"], d["label"]))
    share = pl.col("share")
    # a comparison its player count does not read measured nothing: said in its verdict, as a
    # panel sweep's table says it of a cell (session 62 #1: "within noise" beside 0 (0 to 0))
    unread = (~pl.col("read")) if "read" in d.columns else pl.lit(False)
    players = pl.col("players") if "players" in d.columns else pl.lit(None, pl.Int64)
    # two decimals, or up to two more where an end would print as 0 or as ± the smallest
    # difference that matters on the wrong side of its verdict (review M #11: "−0.4 to 0, clear
    # but small" for a high end of −0.001 pp)
    places = [_verdict_places(r, 2) for r in d.iter_rows(named=True)]
    even = [c for c in ("even_both", "same_games") if c in d.columns]
    return d.with_columns(
        *[pl.Series(c, [_table_number((100.0 if r["share"] else 1.0) * r[c], k)
                        for r, k in zip(d.iter_rows(named=True), places)], pl.Float64)
          for c in ("delta", "low", "high")],
        pl.when(share).then(pl.lit("pp")).otherwise(pl.col("unit")).alias("unit"),
        pl.when(unread).then(pl.format("not read at {} players: the same games at both values", players))
        .otherwise(pl.col("verdict").map_elements(verdict_words, return_dtype=pl.String)).alias("verdict"),
        pl.struct("same_as", "mirror", "follows", "follows_mirror", "follows_clear", "follows_interval",
                  "verdict", "follows_verdict", "follows_rivals", "from", "to", "follows_low",
                  "follows_high", "low", "high", "share", "smallest").map_elements(
            lambda x: follows_cell(x) if x["follows"] is not None else
            "" if x["same_as"] is None else
            (f"the mirror of {labels.get(x['same_as'], x['same_as'])}" if x["mirror"]
             else f"the same as {labels.get(x['same_as'], x['same_as'])}"),
            return_dtype=pl.String).alias("repeats"),
    ).with_columns(
        # a split gap's interval of ± one seat's change, centred on 0: said in its row, as the
        # "which value" sentence says it (session 64: the tables printed −9.6 / 9.6 bare)
        pl.struct("repeats", "label", *even).map_elements(
            lambda x: "; ".join(w for w in (x["repeats"], even_both_cell(x)) if w),
            return_dtype=pl.String).alias("repeats"),
    ).select("parameter", "from", "to", "at", "label", "delta", "low", "high", "unit", "verdict",
             "repeats").rename({"at": "others at", "label": "metric", "delta": "change"})


def even_both_cell(r: dict) -> str:
    """The "repeats" cell's words for a role's split gap whose change's interval is ± one seat's
    change, centred on 0 and not on the estimate (``even_both``,
    :func:`analysis.sweep.metrics._even_both`; the words of :func:`_even_both_words`, shortened):
    "interval centred on 0 whatever the change seen: every Censitaire seat may still take an equal
    share of the Censitaires' wins at both values (more games narrow it)"; '' for every other row,
    and for a change no game moves (its interval is the games' bound)."""
    if not r.get("even_both") or (r.get("same_games") is not None and r["same_games"] == r["same_games"]):
        return ""
    seat, role = _split_words(r.get("label") or "")
    return (f"interval centred on 0 whatever the change seen: every {seat} seat may still take an "
            f"equal share of {role}' wins at both values (more games narrow it)")


#: the value tables' column naming each row's family (session 55 review #1)
FAMILY_COLUMN = "interval of"
FAMILY_CELLS = {FIRST_VS_LAST: "the first-vs-last family (as 'Every effect')",
                VALUE_BY_VALUE: "the value-by-value family"}


def _pairs_table(rows: pl.DataFrame) -> pl.DataFrame:
    """The tables "Each value against the base value" and "Every two values": :func:`effects_table`
    with a last column naming each row's family (:data:`FAMILY_COLUMN`): a pair the first-vs-last
    family states carries that family's row, as the sentences and the table "Every effect" give it."""
    table = effects_table(rows)
    if table.height == 0 or "family" not in rows.columns:
        return table
    return table.with_columns(pl.Series(FAMILY_COLUMN, [FAMILY_CELLS.get(f, f or "") for f in rows["family"]],
                                        pl.String))


def _stated_rows_words(rows: list[dict]) -> str:
    """A value table's caption, when it holds a pair the first-vs-last family states: which rows,
    and that their intervals and words are that family's (session 55 review #1)."""
    stated = sorted({f"{r['parameter']} {r['from']} → {r['to']}" for r in rows
                     if r.get("family") == FIRST_VS_LAST})
    if not stated:
        return ""
    these = " and ".join(stated)
    one = len(stated) == 1
    return (f" The row{'' if one else 's'} of {these} {'is' if one else 'are'} the first-vs-last "
            f"effect{'' if one else 's'} of the sentences, with the interval and words of the table "
            f"'{EFFECTS_TABLE}' (column '{FAMILY_COLUMN}'): one comparison, one verdict on this page.")


def _table_number(x, decimals: int):
    """``x`` rounded to ``decimals`` for a table (:func:`rounded`: a value that rounds to zero is
    written 0, never "-0")."""
    if x is None or not np.isfinite(x):
        return x
    r = round(float(x), decimals)
    return 0.0 if r == 0 else r


SLICES_TABLE = "Effects at the other values of the other parameters"
VALUES_TABLE = "Each value against the base value"
PAIRS_TABLE = "Every two values"
LISTED_VALUES = 6        # a value sentence lists at most this many values, then counts the rest


def _value_list(rows: list[dict]) -> str:
    """"0 → 1 by +2.4 pp (+0.3 to +4.3), clear, may matter; 0 → 2 by …": each value's change
    against the reference in value order, each read from the earlier value to the later
    (:func:`_pair_item`), at most :data:`LISTED_VALUES` (the clear ones first, largest first,
    when there are more), then "… and N more (the table …)"."""
    if len(rows) > LISTED_VALUES:
        rank = {v: k for k, v in enumerate(stats.VERDICT_ORDER)}
        keep = sorted(rows, key=lambda r: (rank.get(r["verdict"], len(rank)), -abs(r["delta"])))
        keep = {id(r) for r in keep[:LISTED_VALUES]}
        shown = [r for r in rows if id(r) in keep]
    else:
        shown = rows
    text = "; ".join(f"{_pair_item(r)}, {verdict_words(r['verdict'])}" for r in shown)
    rest = len(rows) - len(shown)
    return text + (f"; … and {rest} more value{'s' if rest != 1 else ''} (the table "
                   f"\"{VALUES_TABLE}\")" if rest else "")


#: how every change on a sweep's page reads, said once on the page (its header table, row
#: :data:`DIRECTION_KEY`): session 55 designer review #2, the lead's "3 by +0.1 pp" (3 − 5) beside
#: the next sentence's "5 by −0.1 pp" (5 − 3)
DIRECTION_KEY = "a change a → b"
DIRECTION = ("b's value minus a's, game by game, a the lower value (a list of words: the earlier in "
             "the order tried): every change on this page reads that way, the base value's too")


def _pair_item(r: dict) -> str:
    """"3 → 5 by −0.1 pp (−3.1 to +3.1)": a comparison of two values of a parameter, in the page's
    one direction (:func:`analysis.sweep.metrics.as_page_reads`: from the earlier value to the
    later, whichever is the base value or the best), with its amount (:func:`_family_amount`)."""
    from analysis.sweep.metrics import as_page_reads

    p = as_page_reads(r)
    return f"{p['from']} → {p['to']} by {_family_amount(p)}"


def _family_amount(r: dict) -> str:
    """A change between two values as the page prints it everywhere: a pair the first-vs-last
    family states (``family``, :data:`analysis.sweep.metrics.FIRST_VS_LAST`) exactly as its
    sentence below and the table "Every effect" print it (:func:`_amount`; more decimals only
    where a sentence needs them beside a level, ``digits_at_least``), any other pair as the
    value-by-value sentences do (:func:`_pair_amount`)."""
    if r.get("family") != FIRST_VS_LAST:
        return _pair_amount(r)
    more = int(r.get("digits_at_least", 0))
    if r["share"]:
        return _share_text(r["delta"], r["low"], r["high"], max(_verdict_places(r, 1), more))
    return _unit_text(r["delta"], r["low"], r["high"], r["unit"], max(_verdict_places(r, 2), more))


def _pair_amount(r: dict) -> str:
    """A value-by-value change with its interval, with the decimals its verdict needs (an end
    never prints as 0 or as ± the smallest difference that matters without being it:
    :func:`reports.text.verdict_digits`), shares in pp, any other metric in its unit."""
    scale = 100.0 if r["share"] else 1.0
    base = 1 if r["share"] else 2
    d = max(verdict_digits(r["low"], r["high"], r["smallest"], scale, base, most=base + 2),
            _places(scale * r["low"], scale * r["high"], base), int(r.get("digits_at_least", 0)))
    # a half away from zero, as the levels printed beside it (review K #2: 6.98 and 0.63 printed
    # 7.0 and 0.6 beside a change of −6.35 printed −6.3)
    x, lo, hi = (_half_away(scale * r[k], d) for k in ("delta", "low", "high"))
    if r["share"]:
        return _minus(f"{x:+.{d}f} pp ({lo:+.{d}f} to {hi:+.{d}f})")
    return amount(_minus(f"{x:+.{d}f}"), change_unit(r["unit"])) + " " + _minus(f"({lo:+.{d}f} to {hi:+.{d}f})")


def _split_words(label: str) -> tuple[str, str]:
    """("Censitaire", "the Censitaires") from a split gap's label
    (:func:`analysis.sweep.metrics.split_metrics`: "the largest gap of a Censitaire seat from an
    equal split of the Censitaires' wins")."""
    m = re.match(r"the largest gap of an? (.+?) seat from an equal split of (the .+?)' wins$", label)
    return (m.group(1), m.group(2)) if m else ("role", "the role's seats")


def _gap_text(est: float, lo: float, hi: float) -> str:
    """A split gap with its interval: "1.6 pp (0.2 to 3.0)"."""
    d = _places(100 * lo, 100 * hi, 1)
    return _minus(f"{100 * est:.{d}f} pp ({100 * lo:.{d}f} to {100 * hi:.{d}f})")


def _half_away(x: float, d: int) -> float:
    """``x`` at ``d`` decimals, a half rounded away from zero (:func:`simcore.numbers.rounded`),
    as every table and sentence rounds."""
    from simcore.numbers import rounded as half_away

    return half_away(x, d)


def _balance_text(est: float, lo: float, hi: float, digits: int = 0) -> str:
    d = max(_places(100 * lo, 100 * hi, 1), digits)
    e, a, b = (_half_away(100 * v, d) for v in (est, lo, hi))
    return f"{e:.{d}f} pp from fair ({a:.{d}f} to {b:.{d}f})"


def _agreeing_digits(after: float, before: float, change: float, start: int = 1) -> int:
    """The decimals (``start`` to ``start`` + 2) at which two seat imbalances printed (shares, in
    pp) differ by their change as printed: 6.98 and 0.63 with −6.35 agree at 1 (7.0, 0.6, −6.4);
    the most when none does."""
    for d in range(start, start + 3):
        if abs((_half_away(100 * after, d) - _half_away(100 * before, d)) - _half_away(100 * change, d)) < 1e-9:
            return d
    return start + 2


def _ordered(rows: list[dict]) -> list[dict]:
    """Rows of one metric against the reference, in the order of their values (numbers by size)."""
    return sorted(rows, key=lambda r: (r["to_x"] if r.get("to_x") is not None else 0.0))


def fairest_sentence(name: str, ref: tuple[str, str], curves: pl.DataFrame, against: list[dict]
                     ) -> str | None:
    """The value of ``name`` with the smallest seat imbalance, and every other value against the
    reference (the base rules' value when tried: :func:`analysis.sweep.metrics.reference`), each
    change worded by its size on the value-by-value family's interval; None when the game has no
    seat balance (seats not alike)."""
    bal = [r for r in against if r["metric"] == "balance"]
    c = curves.filter((pl.col("parameter") == name) & (pl.col("metric") == "balance")) \
        if curves.height else curves
    if not bal or c.height == 0:
        return None
    value, why = ref
    best = c.sort(["estimate", "order"]).row(0, named=True)
    at_ref = c.filter(pl.col("value") == value).row(0, named=True)
    bal = _ordered(bal)
    where = f" with {bal[0]['at']}" if bal[0].get("at") else ""
    if best["value"] == value:
        n = len(bal)
        clear = sum(r["low"] > 0 for r in bal)
        worse = "less fair" if all(r["delta"] > 0 for r in bal) else "as fair or less fair"
        return (f"The fairest value of {name} tried{where} is {value} ({why}), its seat imbalance "
                f"{_balance_text(at_ref['estimate'], at_ref['low'], at_ref['high'])}; every other "
                f"value is {worse} by its estimate, clearly at {clear} of {n}: {_value_list(bal)}")
    fairer = sum(r["high"] < 0 for r in bal)
    tail = (f"against {value}, the seat imbalance is clearly smaller at {fairer} of {len(bal)} values: "
            f"{_value_list(bal)}")
    best_vs_ref = next((r for r in bal if str(r["to"]) == str(best["value"])), None)
    if best_vs_ref is not None and not best_vs_ref["high"] < 0:
        # the smallest estimate is not clearly smaller than the reference's: no value is named
        # fairest on a point estimate (review V #2: "the fairest value tried is 5" rested on a
        # −0.1 pp (−4.2 to +4.1) difference)
        lead = (f"No value of {name} tried{where} is shown fairer than {value} ({why}) by its seat imbalance"
                if fairer == 0 else
                f"The value of {name} tried{where} with the smallest seat imbalance is not shown fairer "
                f"than {value} ({why})")
        # (the designer review read this beside "Raising … from 0 to 6 … clear, may matter" as a
        # contradiction: two families, the value-by-value one over every pair of values at once;
        # session 55: the first → last pair is now the first-vs-last family's row, here too)
        family = f" ({_families_clause(bal)})" if len(bal) > 1 else ""
        return (f"{lead}: {_balance_text(at_ref['estimate'], at_ref['low'], at_ref['high'])} at {value}, "
                f"the smallest estimate {_balance_text(best['estimate'], best['low'], best['high'])} "
                f"at {best['value']}; {tail}{family}")
    # the two levels printed at decimals where their difference is the change printed in the list
    # (review K #2)
    if best_vs_ref is not None:
        k = _agreeing_digits(best["estimate"], at_ref["estimate"], best_vs_ref["delta"])
        bal = [{**r, "digits_at_least": k} if r is best_vs_ref else r for r in bal]
        tail = (f"against {value}, the seat imbalance is clearly smaller at {fairer} of {len(bal)} values: "
                f"{_value_list(bal)}")
    else:
        k = 0
    return (f"The fairest value of {name} tried{where} is {best['value']}, its seat imbalance "
            f"{_balance_text(best['estimate'], best['low'], best['high'], k)}, against "
            f"{_balance_text(at_ref['estimate'], at_ref['low'], at_ref['high'], k)} at {value} ({why}); "
            f"{tail}")


def _families_clause(rows: list[dict]) -> str:
    """How the intervals of a list of value comparisons are adjusted, in words (session 55 review
    #1): a pair the first-vs-last family states (first → last; a list of words: each value against
    the first) is that family's row, with the interval and words of the sentences below; every
    other pair's interval holds over the value-by-value family's pairs at once. "each interval
    holds over the 3 pairs of values at once, so it is wider than one comparison's"; "3 → 5 is the
    first-vs-last effect of the sentences below, adjusted over the page's 1 first-vs-last
    comparison; the other intervals hold over the 2 other pairs of values at once, so they are
    wider than one comparison's"."""
    from analysis.sweep.metrics import as_page_reads

    stated = [as_page_reads(r) for r in rows if r.get("family") == FIRST_VS_LAST]
    rest = [r for r in rows if r.get("family") != FIRST_VS_LAST]
    m_v = next((int(r.get("family_size") or r.get("pairs") or 0) for r in rest), 0)
    if not stated:
        return (f"each interval holds over the {m_v} pairs of values at once, so it is wider than one "
                "comparison's")
    m_f = int(stated[0].get("family_size") or 1)
    names = sorted({f"{r['from']} → {r['to']}" for r in stated})
    said = (f"{' and '.join(names)} {'is' if len(names) == 1 else 'are'} the first-vs-last effect"
            f"{'s' if len(names) > 1 else ''} of the sentences below, adjusted over the page's {m_f} "
            f"first-vs-last comparison{'s' if m_f != 1 else ''}")
    if not rest:
        return said
    return (f"{said}; the other intervals hold over the {m_v} other pair{'s' if m_v != 1 else ''} of "
            "values at once, so they are wider than one comparison's")


def _value_runs(picked: list[str], order: list[str]) -> str:
    """Values as a sentence lists them, in the chain's order, a run of 3 or more neighbouring
    values written as its ends: "1, 2 and 4–6"."""
    pos = sorted(order.index(v) for v in picked if v in order)
    runs, cur = [], []
    for k in pos:
        if cur and k == cur[-1] + 1:
            cur.append(k)
        else:
            if cur:
                runs.append(cur)
            cur = [k]
    if cur:
        runs.append(cur)
    bits = []
    for r in runs:
        if len(r) >= 3:
            bits.append(f"{order[r[0]]}–{order[r[-1]]}")
        else:
            bits += [order[k] for k in r]
    return bits[0] if len(bits) == 1 else ", ".join(bits[:-1]) + " and " + bits[-1]


def _pct_digits(x: float, lo: float, hi: float, at_least: int = 0) -> int:
    """The decimals :func:`_pct_text` prints a share and its interval with."""
    from simcore.numbers import rounded as half_away, share_digits

    d = max(_places(100 * lo, 100 * hi, 1), share_digits(100 * x, 100 * lo, 100 * hi), at_least)

    def text(a: float, k: int) -> str:
        return f"{half_away(100 * a, k):.{k}f}"

    while d < max(3, at_least) and ((x > lo and text(x, d) == text(lo, d)) or (x < hi and text(x, d) == text(hi, d))):
        d += 1
    return d


def _pct_text(x: float, lo: float, hi: float, at_least: int = 0) -> str:
    """"0.17% (0.12 to 0.23)": a share and its interval, with up to two more decimals while the
    share would print as an end it lies inside of (review s51: "0.2% (0.1 to 0.2)"), and while a
    share or an end that is not 0% or 100% would print as it (:func:`simcore.numbers.share_digits`,
    the toolkit's rule for rare shares: "0.2% (0.0 to 1.4)" for 1 Seigneur win in 400 games,
    0.25% (0.01–1.40) in the page's table, session 55); halves away from zero as the tables round
    (:func:`simcore.numbers.rounded`: 0.25 printed "0.2"). ``at_least``: the fewest decimals (a
    sentence's one precision, at which its changes agree with its shares: :func:`_sides_digits`)."""
    from simcore.numbers import rounded as half_away

    d = _pct_digits(x, lo, hi, at_least)

    def text(a: float, k: int) -> str:
        return f"{half_away(100 * a, k):.{k}f}"

    return f"{text(x, d)}% ({text(lo, d)} to {text(hi, d)})"


def _said_change(o: dict, at_least: int = 0) -> str:
    """The change of a value sentence's item as it prints it (:func:`_distance_item`, ``at_least``
    decimals or more): "+0.36" from "2 → 3 by +0.36 pp (…)"."""
    item = _distance_item({**o, "digits_at_least": max(at_least, int(o.get("digits_at_least") or 0))})
    return item.split(" by ", 1)[1].split(" ", 1)[0].replace("−", "-")


#: the most decimals :func:`_sides_digits` raises a sides sentence's shares and changes to (a share
#: whose own decimals are more keeps them): "0.333% … 0.617%", not "0.33333% (0.21589 to 0.51433)"
#: for 20 and 37 of 6,000 games, whose shares round apart from their change at every precision
SIDES_MOST_DIGITS = 3


def _sides_digits(points: dict, shown: list[str], rows: list[dict]) -> tuple[int, list[dict]]:
    """The one precision of a sides sentence (:func:`sides_sentence`) at which every change it
    prints agrees with the two shares printed beside it, as the before/after page prints its first
    answer (:func:`reports.text.common_digits`; review s64 #3: "0.44% … at 3 … 0.3% … at 4; … 3 → 4
    by −0.16 pp", where 57 of 20,000 games is 0.285%): from the most decimals any of them prints
    with on its own, up to :data:`SIDES_MOST_DIGITS` (or those, where more), the first at which
    each change printed is the difference of its printed shares. Returns those decimals and
    ``rows`` with ``digits_at_least`` set to them; where none agrees (shares of a number of games
    that is no power of ten can round apart from their change at any precision: 20 and 37 of 6,000
    games, 0.333% and 0.617%, +0.28333 pp), the most decimals, where a change and the difference of
    its printed shares are within a unit of its last decimal (+0.283 pp beside 0.333% and 0.617%).
    The change itself is printed, not that difference (which the before/after page prints at its
    cap, :func:`reports.text.shown_change`): the sweep page prints every comparison the same on
    every line, its sentences and tables (+0.283 pp in "Changing payment.order …" and "Every
    effect")."""
    from analysis.sweep.metrics import as_page_reads
    from simcore.numbers import rounded as half_away

    rows = [dict(o) for o in rows]
    ends = [as_page_reads(o) for o in rows]
    start = max([_pct_digits(points[v]["estimate"], points[v]["low"], points[v]["high"]) for v in shown]
                + [len((_said_change(o) + ".").split(".")[1]) for o in rows] + [1])

    def share(v: str, d: int) -> float:
        q = points[v]
        return half_away(100 * q["estimate"], _pct_digits(q["estimate"], q["low"], q["high"], d))

    def off(d: int) -> list[int]:
        """The rows whose change printed at ``d`` is not the difference of their printed shares."""
        bad = []
        for k, (o, p) in enumerate(zip(rows, ends)):
            if p["from"] not in points or p["to"] not in points:
                continue
            said = float(_said_change(o, d))
            if abs(round(share(p["to"], d) - share(p["from"], d), 9) - said) > 1e-9:
                bad.append(k)
        return bad

    most = max(start, SIDES_MOST_DIGITS)
    d = next((k for k in range(start, most + 1) if not off(k)), most)
    return d, [{**o, "digits_at_least": max(d, int(o.get("digits_at_least") or 0))} for o in rows]


def _small_share_item(o: dict, points: dict, smallest: float) -> str:
    """After a clear but small change of a share under the smallest difference that matters (one
    value or both), the factor its chances moved by, as the before/after page of the same two
    variants says it (:func:`reports.text.factor_words`, :func:`reports.text.factor_clause`; review
    s64 #2: the Seigneur's 16 → 88 wins of 20,000, 5.5 times as often, read "clear but small"):
    ", though by a large factor (16 → 88 games: 5.5 times as often; 95% interval 3.2 to 11
    times, the two values' games taken as independent)", "large" only where that interval's
    near end is 1.25 or more (:func:`reports.text.factor_size`); the factor and its interval
    alone where they are not (" (20 → 37 games: 1.8 times as often; 95% interval 1.04 to 3.37
    times, …)"); '' for any other change."""
    from analysis.sweep.metrics import as_page_reads
    from reports.text import factor_size, factor_words

    p = as_page_reads(o)
    if o.get("verdict") != stats.SMALL or p["from"] not in points or p["to"] not in points or not o.get("games"):
        return ""
    a, b = points[p["from"]]["estimate"], points[p["to"]]["estimate"]
    if not min(a, b) < smallest:
        return ""
    # the variants of a sweep play the same games: the factor's interval takes them as independent
    r = {"base": a, "variant": b, "base_n": o["games"], "variant_n": o["games"], "paired": True}
    how = factor_words(r, games_of="the two values'")
    if factor_size(r) == "large":
        return f", though by a large factor ({how})"
    return f" ({how})" if how else ""


def _distance_item(r: dict) -> str:
    """A change of the distance from fair (the seat imbalance, a role's split gap) or of a side's
    share between two values, with its interval, in the page's direction as the value sentences
    print a change (:func:`_pair_item`): "0 → 3 by −3.0 pp (−6.2 to +0.2)". Where no game differs
    between the two values (``same_games``, :func:`analysis.sweep.metrics.parameter_effects`), the
    interval is the games' bound on the change, and the item says so, as the before/after page
    does (session 62: "0.0 pp (0.0 to 0.0)" beside a bound of 3 pp there)."""
    g = r.get("same_games")
    if g is None or g != g:
        return _pair_item({**r, "share": True, "unit": "pp"})
    import math

    half = max(abs(r["low"]), abs(r["high"]))
    small = r.get("smallest")

    def up(k: int) -> float:
        """The bound in pp rounded up at ``k`` decimals (never printed below itself)."""
        return math.ceil(round(100 * half * 10 ** k, 9)) / 10 ** k

    # the decimals at which a bound under the smallest difference does not print as it (0.994 pp,
    # not "1.0" beside "within ±1 pp" at 300 games)
    d = 1
    while d < 4 and small is not None and half < small and up(d) >= 100 * small:
        d += 1
    text = _pair_item({**r, "share": True, "unit": "pp",
                       "digits_at_least": max(d, int(r.get("digits_at_least") or 0))})
    cannot = (f", so these games cannot rule out a change of the {100 * small:g} pp that matters"
              if small is not None and half >= small else "")
    return (f"{text} (no game of the {int(g):,} differs between the two values: the games bound "
            f"the change at {up(d):.{d}f} pp either way{cannot})")


def _adjusted_words(rows: list[dict]) -> str:
    """How the intervals of a lead's list of value comparisons are adjusted: "adjusted over the 3
    pairs of values" (the value-by-value family), "adjusted over the page's 1 first-vs-last
    comparison" (a parameter of two values), or both, naming the pair of the first-vs-last family
    (session 55 review #1: a pair that family states keeps its row everywhere)."""
    from analysis.sweep.metrics import as_page_reads

    stated = [as_page_reads(r) for r in rows if r.get("family") == FIRST_VS_LAST]
    rest = [r for r in rows if r.get("family") != FIRST_VS_LAST]
    m_f = int(next((r.get("family_size") or 0 for r in stated), 0))
    m_v = int(next((r.get("family_size") or r.get("pairs") or 0 for r in rest), 0))
    first_last = f"adjusted over the page's {m_f} first-vs-last comparison{'s' if m_f != 1 else ''}"
    if not stated:
        return f"adjusted over the {m_v} pairs of values"
    if not rest:
        return first_last
    names = " and ".join(sorted({f"{r['from']} → {r['to']}" for r in stated}))
    return (f"{names} as the first-vs-last effect below, {first_last}; the others adjusted over "
            f"the {m_v} other pair{'s' if m_v != 1 else ''} of values")


def which_value_sentence(w: dict) -> str:
    """The lead's answer to "which value of this parameter to pick" (:func:`analysis.sweep.tables.which_value`):
    the value(s) with the smallest seat imbalance (or role split gap), with its interval; which
    other values cannot be told apart from it and which are clearly less fair, each on the page's
    paired interval (the value-by-value family, adjusted over its pairs of values: the intervals of
    the tables "Each value against the base value" and "Every two values"); where the response is
    flat by those intervals, that it no longer changes by more than the smallest difference that
    matters; and, when the best is the last (or first) value tried with a step into it that is
    clear and may matter (:func:`analysis.sweep.tables.edge_of`), that a value beyond may do better,
    or, when the game's rules refuse the next value, that none can be tried. A game with roles
    gets :func:`sides_sentence` instead (what the setting does to the sides: no value to pick)."""
    name, kind, order = w["parameter"], w["kind"], w["values"]
    if kind == "sides":
        return sides_sentence(w)
    held = f" with {w['at']}" if w.get("at") else ""
    best = w["best"]
    p = w["points"][best[0]]
    small = f"{100 * w['smallest']:g} pp"
    who = " and ".join(best) + (" (the same estimate)" if len(best) > 1 else "")
    if kind == "balance":
        number = _balance_text(p['estimate'], p['low'], p['high'])
        at = f"{who}, seat imbalance {number}"
        what, worse, better = "the seat imbalance", "less fair", "be fairer"
        lowest = "The smallest seat imbalance is at"
        head = f"Fairest value of {name}{held}"
    elif kind == "split":
        seat, role = _split_words(w["label"])
        number = _gap_text(p['estimate'], p['low'], p['high'])
        at = f"{who}, largest gap {number}"
        what, worse, better = (f"the largest gap of a {seat} seat from an equal split",
                               "less even", "split them more evenly")
        lowest = (f"The largest gap of a {seat} seat from an equal split of {role}' wins is "
                  "smallest at")
        head = f"Most even split of {role}' wins over {name}{held}"
    further = [o for o in w["others"] if o["call"] == "further"]
    apart = [o for o in w["others"] if o["call"] in ("apart", "closer")]
    printed: list[dict] = []            # the rows whose change is printed with its interval

    def item(o: dict) -> str:
        printed.append(o)
        return _distance_item(o)

    def listed(rows: list[dict]) -> str:
        """Each value's change with its interval, the verdict once when every row has the same."""
        rows = sorted(rows, key=lambda o: order.index(o["value"]))
        words = {verdict_words(o["verdict"]) for o in rows}
        if len(rows) > 1 and len(words) == 1:
            return ("; ".join(item(o) for o in rows) + f", each {words.pop()}")
        return "; ".join(f"{item(o)}, {verdict_words(o['verdict'])}" for o in rows)

    def apart_words(rows: list[dict]) -> str:
        """Values that cannot be told apart from the best: one that differs by the smallest
        difference that matters or more by its estimate with its interval, the rest together
        (by the size of their estimates' difference from the best: in the page's direction
        some read up and some down, session 55 review #2)."""
        big = [o for o in rows if abs(o["delta"]) >= w["smallest"]]
        near = [o for o in rows if abs(o["delta"]) < w["smallest"]]
        if len(near) <= 1:
            return listed(rows)
        bits = [listed(big)] if big else []
        if near:
            top = max(abs(o["delta"]) for o in near)
            bits.append(f"{_value_runs([o['value'] for o in near], order)} differ from {best[0]} by "
                        f"{100 * top:.1f} pp or less")
        return "; ".join(bits)

    adjusted = _adjusted_words(w["others"])
    if not further:
        parts = [f"{head}: these games cannot tell. {lowest} {who}, {number}, but no other value is "
                 f"clearly {worse}: {apart_words(apart)} (the intervals hold 0, {adjusted})"]
    else:
        parts = [f"{head}: {at}"]
        if apart:
            parts.append(f"{_value_runs([o['value'] for o in apart], order)} cannot be told apart "
                         f"from it ({apart_words(apart)}, each interval holding 0)")
        if not apart:
            said = f"every other value is clearly {worse}: {listed(further)}"
        elif len(further) == 1:
            o = further[0]
            said = f"{o['value']} is clearly {worse}: {item(o)}, {verdict_words(o['verdict'])}"
        else:
            said = (f"{_value_runs([o['value'] for o in further], order)} are clearly {worse}: "
                    f"{listed(further)}")
        parts.append(f"{said} (intervals {adjusted})")
    text = "; ".join(parts) + "."
    flat = w.get("flat")
    if flat is not None:
        a, b = flat
        where = (f"across every value tried ({a} to {b})" if a == order[0] else f"from {a} to {b}")
        # "no longer" only for a plateau after the values before it (review s51: across every value)
        verb = "does not change" if a == order[0] else "no longer changes"
        text += (f" {where[0].upper()}{where[1:]} {what} {verb} by more than the {small} "
                 f"that matters (every two values' interval within ±{small}).")
    edge = w.get("edge")
    if edge is not None:
        way = "highest" if edge["last"] else "lowest"
        beyond = "higher" if edge["last"] else "lower"
        if edge.get("unplayed"):
            # the sweep is not finished: the values past it are still to be played
            more = edge["unplayed"]
            said = more[0] if len(more) == 1 else f"{', '.join(more[:-1])} and {more[-1]}"
            text += (f" {edge['value']} is the {way} value played so far and the step into it from "
                     f"{edge['neighbour']} is clear; {said} {'is' if len(more) == 1 else 'are'} not "
                     f"played yet: resume the sweep (the same command) to see whether a {beyond} "
                     f"value {'does' if len(more) == 1 else 'do'} better.")
        elif edge.get("refused"):
            # the rules' bound (review s46 #3: "a lower value may be fairer" for start coins of 0)
            text += (f" {edge['value']} is the {way} value tried and the {way} the rules allow "
                     f"({_minus(value_text(edge['beyond']))} is refused: {edge['refused']}), so no "
                     f"{beyond} value can be tried.")
        else:
            unknown = ("" if edge.get("checked", True) else
                       ", if the rules allow one (this sweep was written before sweeps checked)")
            text += (f" {edge['value']} is the {way} value tried and the step into it from "
                     f"{edge['neighbour']} is clear, so a {beyond} value may {better}{unknown}.")
    if kind == "split":
        text += _even_both_words(printed, seat, role)
        equal = (f" ({100 * w['equal']:.1f}% each)" if w.get("equal") else "")
        text += (f" (The gap: how far a {seat} seat's share of {role}' wins lies from an equal "
                 f"share{equal}, in pp of {role}' wins, the largest over the {seat} seats; 0 when "
                 f"they split them equally. Not their shares of all games, which the seat rows give.)")
    return text


def _even_both_words(rows: list[dict], seat: str, role: str) -> str:
    """Why a split gap's change printed among ``rows`` has an interval centred on 0 and not on its
    estimate (session 64: "−1.0 pp (−9.6 to +9.6)" at 100 games read as a bug): every seat may be
    at the equal split at both values and the largest seat change fits both ways (``even_both``,
    :func:`analysis.sweep.metrics.parameter_effects`), so the largest gap may have grown or shrunk
    by as much as that seat's share may have moved. "" where no printed change is such a one (a
    change no game moves prints the games' bound instead, and says so: :func:`_distance_item`)."""
    from analysis.sweep.metrics import as_page_reads

    hit = [o for o in rows if o.get("even_both") and (o.get("same_games") is None
                                                     or o["same_games"] != o["same_games"])]
    if not hit:
        return ""
    games = {int(o["games"]) for o in hit if o.get("games") is not None and o["games"] == o["games"]}
    many = f"At {games.pop():,} games" if len(games) == 1 else "At these games"
    which = ("this interval is" if len(rows) == 1 else "the intervals of " + " and of ".join(
        f"{p['from']} → {p['to']}" for p in map(as_page_reads, hit)) + " are")
    if len(hit) == 1 and len(rows) > 1:
        which = which.replace("intervals", "interval").removesuffix(" are") + " is"
    return (f" ({many} every {seat} seat may still take an equal share of {role}' wins at both "
            f"values, so the largest gap may have grown or shrunk by as much as one seat's share may "
            f"have moved: {which} centred on 0, not on the change seen, and more games narrow it.)")


def sides_sentence(w: dict) -> str:
    """The lead of a sweep of a game with roles (:func:`analysis.sweep.tables.sides_answer`): what
    the setting does to the sides, not a value to pick (review s46 SG #5: the page led with the
    value bringing the Seigneur's share "closest to 25%", its seats / P, a share the designer never
    gave; which split between the sides is right is the designer's call). The first role's win
    share at every value with its 95% interval, every other value against the reference on the
    page's paired interval worded by its size, whether the response is flat by those intervals,
    the other roles (the mirror: "moves by as much the other way"), and how to aim at a share.

    A share under the smallest difference that matters is read as the before/after page reads it
    (review s64 #2): a clear but small change of it gives the factor its chances moved by, with its
    games and exact 95% interval (:func:`_small_share_item`, "large" only where that interval's
    near end is 1.25 or more), and a sentence says that the difference that matters is more than
    its whole share and how to size smaller changes (:func:`_small_share_words`, the words of
    :func:`reports.text.small_share_caveat`). The shares and the changes print at one precision,
    the one at which every change is the difference of the two shares printed beside it
    (:func:`_sides_digits`, review s64 #3)."""
    name, order, label = w["parameter"], w["values"], w["label"]
    held = f" with {w['at']}" if w.get("at") else ""
    ref, why = w["reference"], w["why"]
    points, smallest = w["points"], w["smallest"]

    def level(v: str, pts: dict, d: int = 0) -> str:
        q = pts[v]
        return f"{_pct_text(q['estimate'], q['low'], q['high'], d)} at {v}" + (
            f" ({why})" if v == ref else "")

    def levels(pts: dict, d: int = 0) -> str:
        shown = [ref] + [v for v in order if v != ref and v in pts]
        bits = [level(v, pts, d) for v in shown if v in pts]
        return bits[0] if len(bits) == 1 else ", ".join(bits[:-1]) + " and " + bits[-1]

    rows = sorted(w["others"], key=lambda o: order.index(o["value"]))
    # one precision for the shares and the changes beside them (review s64 #3)
    digits, rows = _sides_digits(points, [v for v in [ref] + order if v in points], rows)
    words = {verdict_words(o["verdict"]) for o in rows}
    # a share under the smallest difference that matters: a clear but small change of it with the
    # factor its chances moved by (review s64 #2), as the before/after page of the two values says it
    factors = {id(o): _small_share_item(o, points, smallest) for o in rows}

    def listed() -> str:
        if len(rows) > 1 and len(words) == 1 and not any(factors.values()):
            return ("; ".join(_distance_item(o) for o in rows) + f", each {words.pop()}")
        return "; ".join(f"{_distance_item(o)}, {verdict_words(o['verdict'])}{factors[id(o)]}" for o in rows)

    adjusted = _adjusted_words(rows)
    clear = [o for o in rows if o["call"] == "clear"]
    if clear:
        moves = (f"against {ref}, it moves clearly at {len(clear)} of {len(rows)} other "
                 f"value{'s' if len(rows) != 1 else ''}: {listed()} (intervals {adjusted})")
    else:
        moves = (f"no other value moves it clearly from {ref}: {listed()} (the intervals hold 0, "
                 f"{adjusted})")
    text = (f"What {name}{held} does to the sides: {label} is {levels(points, digits)}; {moves}.")
    flat = w.get("flat")
    if flat is not None:
        a, b = flat
        small = f"{100 * w['smallest']:g} pp"
        where = (f"across every value tried ({a} to {b})" if a == order[0] else f"from {a} to {b}")
        verb = "does not change" if a == order[0] else "no longer changes"
        text += (f" {where[0].upper()}{where[1:]} {label} {verb} by more than the {small} "
                 f"that matters (every two values' interval within ±{small}).")
    text += _small_share_words(label, points, [v for v in [ref] + order if v in points], smallest, digits)
    for tw in w.get("twins") or ():
        if tw["kin"] == "mirror":
            text += f" {tw['label'][0].upper()}{tw['label'][1:]} moves by as much the other way."
        elif tw["kin"] == "same":
            text += f" {tw['label'][0].upper()}{tw['label'][1:]} is the same number."
        elif tw["points"]:
            text += f" {tw['label'][0].upper()}{tw['label'][1:]} is {levels(tw['points'])}."
    role_key = w["metric"].removeprefix("role_win_share_")
    text += (" (Which share each side should win is the designer's call: a game with roles has no "
             "fair share per seat and a sweep takes no target, so no value is picked here; to aim at "
             f"a share: balance tune --target role={role_key}:SHARE.)")
    return text


def _small_share_words(label: str, points: dict, shown: list[str], smallest: float, digits: int) -> str:
    """Where a side's share is under the smallest difference that matters at some value, what that
    means for the sentence's verdicts and how to size smaller changes, in the before/after page's
    words (:func:`reports.text.small_share_caveat`; review s64 #2: "does not change by more than
    the 1 pp that matters" beside a Seigneur whose wins changed 5.5-fold): " The Seigneur's win
    share is 0.080% to 0.440% over the values tried: the 1 pp that matters is more than its whole
    share, so …; to size smaller changes, give `--smallest-difference win_share=0.1pp` (…)."; ''
    otherwise. The shares at the sentence's precision (``digits``)."""
    from reports.text import small_share_caveat
    from simcore.numbers import rounded as half_away

    if not smallest or not smallest > 0:
        return ""
    under = [v for v in shown if points[v]["estimate"] < smallest]
    if not under:
        return ""

    def at(v: str) -> str:
        q = points[v]
        d = _pct_digits(q["estimate"], q["low"], q["high"], digits)
        return f"{half_away(100 * q['estimate'], d):.{d}f}%"

    if len(under) == len(shown) and len(shown) > 1:
        ranked = sorted(under, key=lambda v: points[v]["estimate"])
        where = f"{at(ranked[0])} to {at(ranked[-1])} over the values tried"
    else:
        bits = [f"{at(v)} at {v}" for v in under]
        where = bits[0] if len(bits) == 1 else ", ".join(bits[:-1]) + " and " + bits[-1]
    return f" {label[:1].upper()}{label[1:]} is {where}: {small_share_caveat(smallest)}."


def role_values_sentence(name: str, ref: tuple[str, str], against: list[dict]) -> str | None:
    """A game with roles (no seat balance): the first role's win share at every other value of
    ``name`` against the reference, each change worded by its size."""
    roles = [r for r in against if r["metric"].startswith("role_win_share_")]
    if not roles:
        return None
    first = roles[0]["metric"]
    rows = _ordered([r for r in roles if r["metric"] == first])
    value, why = ref
    where = f" with {rows[0]['at']}" if rows[0].get("at") else ""
    return (f"Against {name} = {value} ({why}){where}, {rows[0]['label']} changes: "
            f"{_value_list(rows)}")


def _smallest_text(t: dict) -> str:
    """The smallest difference that matters of a turn's metric, as the page says it ("1 pp")."""
    return f"{100 * t['smallest']:g} pp" if t["share"] else amount(f"{t['smallest']:g}", t["unit"])


def _ends_clause(t: dict, what: str) -> str:
    """The first-vs-last effect beside a turn or a levelling off (review M #2, #3): the page's own
    first-vs-last row (the family of its other sentences and of the table "Every effect"), printed
    as those print it, and whether it hides ``what`` (:func:`analysis.sweep.metrics.hidden_by`):
    within noise, or short of the larger step by at least the smallest difference that matters;
    else it is within that of the larger step. A turn read without the page's first-vs-last
    effects (``ends_family`` "value-by-value") names the value-by-value family's row as such."""
    e = t["ends"]
    if e is None:
        return ""
    words = verdict_words(e["verdict"])
    if t.get("ends_family") == "value-by-value":
        said = f"first to last in the value-by-value family ({e['from']} → {e['to']}: {_pair_amount(e)}, {words})"
    else:
        said = f"the first-vs-last effect ({e['from']} → {e['to']}: {_amount(e)}, {words})"
    if t["hidden"]:
        return f"; {said} hides {what}"
    from analysis.sweep.metrics import ends_short_of

    big = max((t["first"], t["second"]), key=lambda s: abs(s["delta"]))
    way = "rise" if big["delta"] > 0 else "fall"
    beyond = -ends_short_of(e, (t["first"], t["second"]))
    if beyond >= big["smallest"] - 1e-12:
        # it goes beyond the larger step (the response turns and goes on the first way): not
        # "within 1 pp" of it (review s47: −22.9 pp against a fall of −14.1)
        gap = f"{100 * beyond:.1f} pp" if t["share"] else amount(f"{beyond:.3g}", t["unit"])
        return (f"; {said} goes {gap} beyond the {way} from {big['from']} to {big['to']} (it "
                f"adds the later steps) and hides {what}")
    return (f"; {said} is within the {_smallest_text(t)} that matters of the {way} from "
            f"{big['from']} to {big['to']}")


def seat_names(sw: dict) -> dict[str, str]:
    """The varied per-seat settings of a sweep named with their seat, as the tune page names them
    (review D #8): "setup.hand_size[1]" → "setup.hand_size[1] (seat 2's)", the seat from
    :func:`analysis.tune.advice.seat_of` on the sweep's base rules (sweep.json's rules text and
    ``--set``, :func:`analysis.tune.advice.start_settings`); a setting that is not per seat is not
    in it."""
    names = [v["name"] for v in sw.get("varies") or ()]
    if not any(re.search(r"\[\d+\]$", n) for n in names):
        return {}
    base = start_settings(sw)
    out = {}
    for n in names:
        k = seat_of(n, base.get(re.sub(r"\[\d+\]$", "", n)), sw.get("game"))
        if k is not None:
            out[n] = f"{n} (seat {k + 1}'s)"
    return out


def with_seats(text: str, named: dict[str, str]) -> str:
    """``text`` with the first mention of each per-seat setting of ``named`` (:func:`seat_names`)
    followed by its seat: "Raising setup.hand_size[1] (seat 2's) from 6 to 8 moves …"; a mention
    that already says its seat is left as it is."""
    for name, shown in named.items():
        if shown in text:
            continue
        text = re.sub(re.escape(name) + r"(?![\w\[=]| \(seat)", lambda _m: shown, text, count=1)
    return text


def _seat_column(table: pl.DataFrame, named: dict[str, str]) -> pl.DataFrame:
    """A page table's ``parameter`` column with each per-seat setting's seat (:func:`seat_names`)."""
    if not named or "parameter" not in table.columns:
        return table
    return table.with_columns(pl.col("parameter").replace(named))


def turning_points(s, shares: bool | None = None, named: dict[str, str] | None = None) -> tuple[dict, str]:
    """Where a headline metric's response turns (:func:`analysis.sweep.metrics.turns` on the
    sweep's value-by-value family), for the tornado chart, whose first → last bars hide a turn
    (review Z #5: 6 → 9 "+9.8 pp" of seat imbalance hid that 7 is fair): (parameter, metric) →
    the value it turns at, and the captions' words for them ('' when none turns). With ``shares``
    (True: the win shares' figure, False: the other metrics'), only the turns that figure draws
    (:func:`reports.figures.sweep.tornado_bars`; review D #10: the second figure's caption named
    the seat imbalance, a bar of the first). "Reverses", not "turns": a page whose length unit is
    the player turn (review D #10). ``named``: per-seat settings with their seat (:func:`seat_names`)."""
    from analysis.sweep.metrics import turns

    ve = getattr(s, "value_effects", None)
    if ve is None or ve.height == 0:
        return {}, ""
    found = {}
    for name in dict.fromkeys(ve["parameter"].to_list()):
        sub = ve.filter(pl.col("parameter") == name)
        if not sub["numeric"].all():
            continue
        for t in turns(ve, name, s.effects):
            found[(name, t["metric"])] = (t["first"]["to"], t["label"])
    if shares is not None:
        drawn = FS.tornado_bars(s.effects, shares)
        found = {k: v for k, v in found.items() if k in drawn}
    if not found:
        return {}, ""
    said = "; ".join(f"{lab.split(' (')[0]} with {(named or {}).get(p, p)}, at {at}"
                     for (p, _), (at, lab) in found.items())
    return ({k: at for k, (at, _) in found.items()},
            f" A bar is the first → last change only: where a response reverses ({said}), the bar "
            "hides it, and the bar's label says so; the sentences of 'What moves what' give each step.")


def share_bars_words(effects: pl.DataFrame) -> str:
    """What the tornado chart of shares draws, for its caption (session 55 designer review #3: it
    began "Win shares: …" above a bar of the seat imbalance, which is no win share): the kinds of
    bar :func:`reports.figures.sweep.tornado_bars` draws, in the order "Seats' win shares, the
    seat imbalance (…) and …"."""
    drawn = [m for _, m in sorted(FS.tornado_bars(effects, True))]
    labels = dict(zip(effects["metric"], effects["label"])) if effects.height else {}
    kinds = []

    def add(words: str) -> None:
        if words not in kinds:
            kinds.append(words)

    for prefix, words in (("seat_win_share_", "seats' win shares"),
                          ("role_win_share_", "sides' win shares"),
                          ("strategy_win_share_", "strategies' win shares")):
        hits = [m for m in drawn if m.startswith(prefix)]
        if hits:
            # between player counts a seat's share is read as its advantage (win share − fair share;
            # in a game with roles, within its role: win share − the role's share / its seats)
            said = [str(labels.get(m, "")) for m in hits]
            add(words.replace("win shares", "advantages within their role (win share − their "
                                            "role's win share / its seats)")
                if any(" advantage among the " in x for x in said) else
                words.replace("win shares", "advantages (win share − fair share)")
                if any("advantage" in x for x in said) else words)
    if "balance" in drawn:
        add("the seat imbalance (the largest distance of a seat's win share from the fair share)")
    if any(m.startswith("role_split_") for m in drawn):
        add("how evenly a role's seats split its wins (the largest gap from an equal split)")
    if any(not m.startswith(("seat_win_share_", "role_win_share_", "strategy_win_share_",
                              "role_split_")) and m != "balance" for m in drawn):
        add("other shares")
    if not kinds:
        return "Shares"
    text = kinds[0] if len(kinds) == 1 else ", ".join(kinds[:-1]) + " and " + kinds[-1]
    return text[0].upper() + text[1:]


def turn_sentence(name: str, t: dict) -> str:
    """A metric whose response to ``name`` turns (:func:`analysis.sweep.metrics.turns`): both steps
    with their intervals, and the first-vs-last effect (the page's, :func:`_ends_clause`): it
    hides the turn, or it is within the smallest difference that matters of the larger step."""
    a, b = t["first"], t["second"]
    way = "rises" if a["delta"] > 0 else "falls"
    back = "falls" if way == "rises" else "rises"
    return (f"{t['label']} does not move one way with {name}: it {way} from {a['from']} to {a['to']} "
            f"by {_pair_amount(a)}, {verdict_words(a['verdict'])}, and {back} from {b['from']} to "
            f"{b['to']} by {_pair_amount(b)}, {verdict_words(b['verdict'])}{_ends_clause(t, 'it')}")


def level_sentence(name: str, t: dict) -> str:
    """A metric that moves clearly one way with ``name`` and then steps back by a clear but small
    amount (:func:`analysis.sweep.metrics.levels_off`): it levels off there, it does not turn."""
    a, b = t["first"], t["second"]
    way = "rises" if a["delta"] > 0 else "falls"
    back = "falls" if way == "rises" else "rises"
    return (f"{t['label']} {way} with {name} from {a['from']} to {a['to']} by {_pair_amount(a)}, "
            f"{verdict_words(a['verdict'])}, then levels off: from {b['from']} to {b['to']} it "
            f"{back} by {_pair_amount(b)}, {verdict_words(b['verdict'])} (under the "
            f"{_smallest_text(t)} that matters)"
            f"{_ends_clause(t, 'the ' + ('rise' if way == 'rises' else 'fall'))}")


def value_span(sub: pl.DataFrame) -> tuple[str, str] | None:
    """The lowest and the highest value a parameter's value-by-value pairs ``sub`` compare (by
    ``from_x``/``to_x``, either end of any pair), as they print; None for fewer than three values,
    where no response can turn. (The first pair's start and the last pair's end read "turn between
    2 and 2" for values listed out of order, as a one-at-a-time sweep holding the base value first
    lists them.)"""
    ends = pl.concat([sub.select(x=pl.col("from_x"), v=pl.col("from").cast(pl.Utf8)),
                      sub.select(x=pl.col("to_x"), v=pl.col("to").cast(pl.Utf8))]).unique("x").sort("x")
    return (ends["v"][0], ends["v"][-1]) if ends.height >= 3 else None


def value_sentences(value_effects: pl.DataFrame, references: dict, curves: pl.DataFrame,
                    per_parameter: int = 3, effects: pl.DataFrame | None = None) -> list[str]:
    """What the value-by-value comparisons of a sweep say (review L #2: first → last alone hid a
    setting that made the table less fair at every value tried), per parameter of 3 values or
    more: the fairest value tried and every other value against the base rules' value
    (:func:`fairest_sentence`; in a game with roles, the first role's share:
    :func:`role_values_sentence`), then the metrics whose response turns (:func:`turn_sentence`, at
    most ``per_parameter``, largest first, then "… and N more"), or that none does, then those
    that level off (:func:`level_sentence`, as many at most). Every step's interval is the pair
    family's (:attr:`analysis.sweep.metrics.Sensitivity.value_effects`); the first-vs-last effect
    beside a turn is ``effects``' (the page's first-vs-last family, review M #2), or, without
    them, the value-by-value family's row, said to be that. A parameter whose values are compared
    at a player count that does not read it gets none of these (:func:`not_read_sentences`)."""
    from analysis.sweep.metrics import against_reference, levels_off, turns

    out = []
    if value_effects.height == 0:
        return out
    for name in dict.fromkeys(value_effects["parameter"].to_list()):
        ref = references.get(name)
        if ref is None or not_read(value_effects.filter(pl.col("parameter") == name)):
            continue                # (its values played the same games: not_read_sentences)
        against = against_reference(value_effects, name, ref[0])
        head = fairest_sentence(name, ref, curves, against) or role_values_sentence(name, ref, against)
        if head:
            out.append(head)
        sub = value_effects.filter(pl.col("parameter") == name)
        if not sub["numeric"].all():
            continue
        found = [_with_ends(t, sub, effects) for t in turns(value_effects, name, effects)]
        level = [_with_ends(t, sub, effects) for t in levels_off(value_effects, name, effects)]
        out += [turn_sentence(name, t) for t in found[:per_parameter]]
        if len(found) > per_parameter:
            more = len(found) - per_parameter
            out.append(f"… and {more} more metric{'s' if more != 1 else ''} whose response to {name} "
                       f"turns (the table \"{PAIRS_TABLE}\")")
        span = value_span(sub)
        if not found and span is not None:
            lo, hi = span
            out.append(f"no headline metric's response to {name} is shown to turn between {lo} and "
                       f"{hi} (no two steps clearly opposite in the value-by-value family with each "
                       "interval reaching the smallest difference that matters)")
        out += [level_sentence(name, t) for t in level[:per_parameter]]
        if len(level) > per_parameter:
            more = len(level) - per_parameter
            out.append(f"… and {more} more metric{'s' if more != 1 else ''} whose response to {name} "
                       f"levels off (the table \"{PAIRS_TABLE}\")")
    return [x[0].upper() + x[1:] + "." if x[0] != "…" else x + "." for x in out]


def _with_ends(t: dict, sub: pl.DataFrame, effects: pl.DataFrame | None) -> dict:
    """A turn as :func:`value_sentences` words it: read without the page's first-vs-last effects
    (``effects`` None), its first-vs-last comparison is the value-by-value family's row of the
    lowest and the highest value, named as such (never "the first-vs-last effect", which is the
    other family's)."""
    if effects is not None or t["ends"] is not None:
        return t
    from analysis.sweep.metrics import hidden_by

    rows = sub.filter(pl.col("metric") == t["metric"])
    lo, hi = rows["from_x"].min(), rows["to_x"].max()
    e = rows.filter((pl.col("from_x") == lo) & (pl.col("to_x") == hi))
    if e.height != 1:
        return t
    ends = e.row(0, named=True)
    # a sensitivity that states that pair in the first-vs-last family carries that family's row
    # (session 55 review #1): it is the first-vs-last effect, and named so
    own = ends.get("family") == FIRST_VS_LAST
    return {**t, "ends": ends, "ends_family": None if own else "value-by-value",
            "hidden": hidden_by(ends, (t["first"], t["second"]))}


def value_family_words(value_effects: pl.DataFrame) -> str:
    """How the value-by-value comparisons are adjusted, as the page states it."""
    if value_effects.height == 0:
        return ""
    n = int(value_effects["pairs"][0])
    params = value_effects["parameter"].n_unique()
    # session 55 review #1: the pairs the first-vs-last sentences state are theirs alone
    stated = ("family" in value_effects.columns
              and value_effects.filter(pl.col("family") == FIRST_VS_LAST).height > 0)
    but = (", except the pairs the other sentences compare: the first and the last value, or each "
           "word of a list against the first; such a pair is in their family only and has their "
           "interval and words wherever this page shows it" if stated else "")
    return (f"Each value against another is a paired change with an interval of a family of its "
            f"own: simultaneous over a pair's metrics, Bonferroni over the {n} pairs of values of "
            f"the {params} parameter{'s' if params != 1 else ''} with 3 values or more (every two "
            f"values, the others held as the other sentences hold them{but}), so all of them hold "
            "together with 95% probability; a response is said to turn when one step is clearly up "
            "and a later one clearly down (or the reverse) in that family, each interval reaching "
            "the smallest difference that matters; a later step back that is clear but small "
            "(its whole interval under that difference) is said to level off, not to turn.")


def _amount(r: dict) -> str:
    """A change with its interval as the page's sentences print it: shares in pp, any other metric
    in its unit, with the decimals its ends need to differ and to lie on their verdict's side
    (:func:`_verdict_places`)."""
    if r["share"]:
        return _share_text(r["delta"], r["low"], r["high"], _verdict_places(r, 1))
    return _unit_text(r["delta"], r["low"], r["high"], r["unit"], _verdict_places(r, 2))


def _verdict_differences(effects: pl.DataFrame, slice_effects: pl.DataFrame) -> pl.DataFrame:
    """The rows of ``slice_effects`` whose verdict differs from the same comparison's and metric's
    where the sentences hold the others (``effects``), with that row's numbers (``a_delta``,
    ``a_low``, ``a_high``, ``a_verdict``, ``a_at``); a repeated metric (``same_as``) is left out, as
    in the sentences. Ordered for reading: the larger of the two verdicts first
    (:data:`analysis.stats.VERDICT_ORDER`), then by size |change| / smallest."""
    keys = ["parameter", "from", "to", "metric"]
    anchored = effects.select(*keys, *[pl.col(c).alias(f"a_{c}") for c in
                                       ("delta", "low", "high", "verdict", "at")])
    rank = {v: k for k, v in enumerate(stats.VERDICT_ORDER)}
    d = slice_effects
    if "same_as" in d.columns:
        d = d.filter(pl.col("same_as").is_null())
    d = d.join(anchored, on=keys, how="inner").filter(pl.col("verdict") != pl.col("a_verdict"))
    if d.height == 0:
        return d
    top = pl.min_horizontal(*[pl.col(c).replace_strict(rank, default=len(rank), return_dtype=pl.Int64)
                              for c in ("verdict", "a_verdict")])
    size = pl.max_horizontal(pl.col("delta").abs(), pl.col("a_delta").abs()) / pl.col("smallest")
    return d.with_columns(top.alias("_top"), size.alias("_size")).sort(
        ["_top", "_size"], descending=[False, True], maintain_order=True)


def slice_sentence(effects: pl.DataFrame, slice_effects: pl.DataFrame, cap: int = 3) -> str:
    """One parameter's sentence about the other slices of a grid: the slices (the other parameters
    at other values) where a headline metric's verdict differs from the sentences' ("At
    track.goal.4 = 8 the same change moves the Seigneur's win share by +1.2 pp (+0.5 to +1.9):
    clear, may matter, against +0.4 pp (−0.0 to +0.8), within noise, at track.goal.4 = 10 (the
    base rules' value)"), the metric with the larger verdict named per slice, at most ``cap``
    slices, then "… and N more"; or that every verdict is the same there. The slices' intervals
    are their own family's (:attr:`analysis.sweep.metrics.Sensitivity.slice_effects`). "" when
    the parameter has no other slice.

    A slice whose player count does not read the setting (column ``read`` False, :func:`not_read`)
    played the same games at both values: it is in none of these counts, and named after them
    ("not read at 3 players (players = 3: the same games at both values)"). Where the sentences'
    own comparison is such a one, a slice that reads the setting is not set against it (an effect
    "against 0.0 pp, within noise, at players = 3" compared it with a count that measured
    nothing): its own clear effects are said (:func:`_own_slice_words`; session 62 #1)."""
    if slice_effects.height == 0 or effects.height == 0:
        return ""
    p = effects["parameter"][0]
    several = effects.select("from", "to").unique().height > 1
    unread = slice_effects.filter(~pl.col("read")) if "read" in slice_effects.columns else slice_effects.clear()
    slice_effects = read_rows(slice_effects)
    skipped = list(dict.fromkeys(unread["at"].to_list()))
    note = (f"not read at {_counts_text(unread['players'].to_list())} ({'; '.join(skipped[:cap])}"
            f"{f'; … and {len(skipped) - cap} more' if len(skipped) > cap else ''}: the same games at "
            "both values)") if skipped else ""
    change = "each change" if several else "the same change"
    if slice_effects.height == 0:
        return (f"at the other values of the other parameters {change} of {p} is not read: {note}"
                if note else "")
    if not_read(effects):
        return _own_slice_words(slice_effects, several, cap) + (f"; {note}" if note else "")
    diff = _verdict_differences(effects, slice_effects)
    where = list(dict.fromkeys(slice_effects["at"].to_list()))
    if diff.height == 0:
        others = "; ".join(where[:cap]) + (f"; … and {len(where) - cap} more" if len(where) > cap else "")
        return (f"{change} of {p} gets the same verdict on every headline metric at the other "
                f"values of the other parameters ({others}) as where these sentences hold them "
                f"(the table \"{SLICES_TABLE}\")" + (f"; {note}" if note else ""))
    parts = []
    slices_differing = list(dict.fromkeys(diff["at"].to_list()))
    for at in slices_differing[:cap]:
        rows = diff.filter(pl.col("at") == at)
        r = rows.row(0, named=True)
        change = (f"{_move_words({**r, 'at': ''})}" if several else "the same change")
        anchored = {**r, "delta": r["a_delta"], "low": r["a_low"], "high": r["a_high"],
                    "verdict": r["a_verdict"]}
        more = rows.height - 1
        extra = ("" if not more else ", and 1 other metric's verdict differs there" if more == 1
                 else f", and {more} other metrics' verdicts differ there")
        parts.append(f"at {at} {change} moves {r['label']} by {_amount(r)}: "
                     f"{verdict_words(r['verdict'])}, against {_amount(anchored)}, "
                     f"{verdict_words(r['a_verdict'])}, at {r['a_at']}{extra}")
    rest = len(slices_differing) - cap
    tail = (f"; … and {rest} more slice{'s' if rest != 1 else ''} (the table \"{SLICES_TABLE}\")"
            if rest > 0 else f" (the table \"{SLICES_TABLE}\")")
    return "; ".join(parts) + tail + (f"; {note}" if note else "")


def _own_slice_words(slice_effects: pl.DataFrame, several: bool, cap: int = 3) -> str:
    """The slices that read a setting, where the sentences' own comparison does not (its count does
    not read it, :func:`slice_sentence`): per slice its clear headline effect of the largest
    verdict, then by size ("at players = 4 the same change moves the Seigneur's win share by −3.4
    pp (−4.6 to −2.2): clear and large enough to matter, and 4 other clear effects there"), or that
    it moves none beyond its noise; at most ``cap`` slices, then "… and N more"."""
    rank = {v: k for k, v in enumerate(stats.VERDICT_ORDER)}
    d = slice_effects
    if "same_as" in d.columns:
        d = d.filter(pl.col("same_as").is_null())
    d = d.with_columns(
        pl.col("verdict").replace_strict(rank, default=len(rank), return_dtype=pl.Int64).alias("_top"),
        (pl.col("delta").abs() / pl.col("smallest")).alias("_size"))
    parts = []
    where = list(dict.fromkeys(d["at"].to_list()))
    for at in where[:cap]:
        rows = d.filter(pl.col("at") == at)
        clear = rows.filter((pl.col("low") > 0) | (pl.col("high") < 0)).sort(
            ["_top", "_size"], descending=[False, True], maintain_order=True)
        r = rows.row(0, named=True)
        change = f"{_move_words({**r, 'at': ''})}" if several else "the same change"
        if clear.height == 0:
            parts.append(f"at {at} {change} moves no headline metric beyond its noise")
            continue
        r = clear.row(0, named=True)
        more = clear.height - 1
        extra = ("" if not more else ", and 1 other clear effect there" if more == 1
                 else f", and {more} other clear effects there")
        parts.append(f"at {at} {change} moves {r['label']} by {_amount(r)}: "
                     f"{verdict_words(r['verdict'])}{extra}")
    rest = len(where) - cap
    tail = (f"; … and {rest} more slice{'s' if rest != 1 else ''} (the table \"{SLICES_TABLE}\")"
            if rest > 0 else f" (the table \"{SLICES_TABLE}\")")
    return "; ".join(parts) + tail


def slice_table(effects: pl.DataFrame, slice_effects: pl.DataFrame) -> pl.DataFrame:
    """The table :data:`SLICES_TABLE`: one row per parameter, slice ('others at') and metric, the
    paired change with its interval (the slices' own family) and words, beside the same
    comparison's change and words where the sentences hold the others."""
    if slice_effects.height == 0:
        return pl.DataFrame()
    t = effects_table(slice_effects)
    keys = ["parameter", "from", "to", "metric"]
    a = effects_table(effects).select(*keys, pl.col("change").alias("change where held"),
                                      pl.col("verdict").alias("verdict where held"))
    return t.join(a, on=keys, how="left", maintain_order="left").select(
        "parameter", "from", "to", "others at", "metric", "change", "low", "high", "unit", "verdict",
        "change where held", "verdict where held", "repeats")


def _img(png: bytes, name: str, caption: str = "") -> str:
    data = base64.b64encode(png).decode("ascii")
    cap = f"<figcaption>{with_folds(caption, titles=False)}</figcaption>" if caption else ""
    return f"<figure><img alt='{html.escape(name)}' src='data:image/png;base64,{data}'>{cap}</figure>"


#: the sweep page's tables whose HTML says a column of one value once and leaves out an empty one
SAID_ONCE_TABLES = (EFFECTS_TABLE, VALUES_TABLE, PAIRS_TABLE, SLICES_TABLE)


def _section_html(s: Section, png: dict[str, bytes], captions: dict[str, str]) -> str:
    parts = [f"<section id='{html.escape(s.id)}'><h2>{html.escape(s.title)}</h2>"]
    if s.intro:
        parts.append(f"<p>{with_folds(s.intro, titles=False)}</p>")
    if s.sentences:
        parts.append("<ul class='headlines'>" + "".join(f"<li>{with_folds(x, titles=False)}</li>"
                                                        for x in s.sentences)
                     + "</ul>")
    parts += [_img(png[n], n, captions.get(n, "")) for n in s.figures if n in png]
    for caption, df in s.tables:
        # a value table's column empty in every row left out, one of a single value said once
        # above it (session 57 review: `repeats`, `interval of`), as the PDF does every table's
        df, said = said_once(df) if caption in SAID_ONCE_TABLES else (df, "")
        note = f"<p class='note'>{html.escape(said[0].upper() + said[1:])}.</p>" if said else ""
        parts.append(f"<h3>{html.escape(caption)}</h3>{note}" + _html_table(df))
    return "".join(parts) + "</section>"


def _page(title: str, meta: pl.DataFrame, secs: list[Section], png: dict[str, bytes],
          captions: dict[str, str], notes: list[str], lead: list[str] = (),
          generated: str = "") -> str:
    generated = generated or generated_note()
    rows = "".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>"
                   for k, v in zip(meta["Item"], meta["Value"]))
    return ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>"
            f"<h1>{html.escape(title)}</h1>{FOLD_TOGGLE}<p class='note'>{html.escape(generated)} "
            f"{html.escape(INTERVALS_NOTE)}</p>"
            + "".join(f"<p style='font-size:1.15em'>{_lead_html(x)}</p>" for x in lead)
            + "".join(f"<p class='note'>{html.escape(n)}</p>" for n in notes)
            + f"<table class='meta'><tbody>{rows}</tbody></table>"
            + "\n".join(_section_html(s, png, captions) for s in secs) + "</body></html>")


def _lead_html(text: str) -> str:
    """A lead sentence with its answer in bold, the rest in the page's weight (review V #11: whole
    paragraphs in bold, nothing stood out): the question and its answer up to the first ": "; a
    sentence without one (within its first 160 characters) stays bold whole if it is a short
    headline (120 characters at most), else plain."""
    cut = text.find(": ")
    if not 0 < cut <= 160:
        # a short headline stays bold whole; a longer paragraph without a question and its answer
        # (a panel before/after's "Seat 3 moved in 2 of 3 cells, …") is plain: the designer review
        # found twelve lines of solid bold, where nothing stood out
        return code_marks(f"<b>{html.escape(text)}</b>" if len(text) <= 120 else with_folds(text, titles=False))
    # (a method clause before the answer's colon is not folded: the bold part is read whole; a
    # command in code marks, "give `--smallest-difference win_share=0.1pp`", is set as code, as
    # every other page sets it: session 64, the backticks showed)
    return code_marks(f"<b>{html.escape(text[:cut + 1])}</b>{with_folds(text[cut + 1:], titles=False)}")


def _meta(rows: list[tuple[str, str]]) -> pl.DataFrame:
    return pl.DataFrame({"Item": [k for k, _ in rows], "Value": [v for _, v in rows]},
                        schema={"Item": pl.String, "Value": pl.String})


PDF_LEAD_ID = "answer"
PDF_LEAD_TITLE = "In short"                     # the PDF's first section: the page's lead
PDF_SETTINGS_TITLE = "What was played"          # its table: the page's settings (Item, Value)


def _publish(out: Path, force: bool, title: str, meta: pl.DataFrame, secs: list[Section],
             figs: FigureSet, pdf: bool, notes: list[str] = (), lead: list[str] = (),
             svg: bool = False, files: dict[str, str] | None = None) -> Path:
    """Write the page (the ``lead`` sentences first, in bold: what the reader came for), its
    figures, with ``pdf`` report.pdf (its first section, :data:`PDF_LEAD_TITLE`, the ``lead``
    and the settings table ``meta``), and ``files`` (name → text, e.g. a CSV of the page's
    table), atomically."""
    # the glossary's terms the page uses, last, as every report page has them (review V #7: the
    # panel, sweep and tune pages said Holm, Bonferroni, Wilson … without a word of explanation)
    terms = glossary_section(list(secs) + [Section("lead", "", " ".join((*lead, *notes)))], figs)
    secs = list(secs) + ([terms] if terms.tables and terms.tables[0][1].height else [])
    drawn = draw_all(figs, svg=svg)              # on two cores when it may (reports.figures.draw)
    png = {name: formats["png"] for name, formats in drawn.items()}
    with atomic_dir(out, force) as tmp:
        (tmp / "figures").mkdir()
        for name, formats in drawn.items():
            for fmt, content in formats.items():
                (tmp / "figures" / f"{name}.{fmt}").write_bytes(content)
        generated = generated_note()        # one minute for the page and the PDF
        (tmp / "report.html").write_text(_page(title, meta, secs, png, figs.captions, list(notes),
                                               list(lead), generated), encoding="utf-8")
        for name, text in (files or {}).items():
            (tmp / name).write_text(text, encoding="utf-8")
        if pdf:
            # the lead as the PDF's first section, set as body text under a heading, not among
            # the small grey notes under the title (review D #15), with the page's settings
            # table under it headed by its columns' names (an empty shaded header row stood
            # above it: review A #13)
            first = Section(PDF_LEAD_ID, PDF_LEAD_TITLE if lead else PDF_SETTINGS_TITLE,
                            sentences=list(lead), tables=[(PDF_SETTINGS_TITLE, meta)])
            write_pdf(tmp / "report.pdf", title, [first, *secs], figs, png, figs.captions, None,
                      (f"{generated} {INTERVALS_NOTE}",) + tuple(notes))
    return published_as(out) / "report.html"     # (beside, when something appeared there meanwhile)


def _title(game: str) -> str:
    spec = registry.specs().get(game)
    return spec.title if spec is not None else game


def short_seed(seed) -> str:
    """A seed as a person reads it: small ones as they are, long derived ones as "fresh"."""
    try:
        return f"seed {seed}" if abs(int(seed)) < 10**6 else "a fresh seed, recorded in result.json"
    except (TypeError, ValueError):
        return str(seed)


def variant_table(variants: pl.DataFrame) -> pl.DataFrame:
    """The 'Every variant' table: shares in %, the seat balance (a distance from the fair share) in
    pp, every other metric in its own unit; rounded to 2 decimals."""
    share = pl.col("share")
    return variants.with_columns(
        *[rounded(pl.when(share).then(pl.col(c) * 100).otherwise(pl.col(c))).alias(c)
          for c in ("estimate", "low", "high")],
        pl.when((pl.col("metric") == "balance") | pl.col("metric").str.starts_with("role_split_"))
        .then(pl.lit("pp"))
        .when(share).then(pl.lit("%")).otherwise(pl.col("unit")).alias("unit"),
    ).select("variant", "label_variant", "label", "estimate", "low", "high", "unit").rename(
        {"label_variant": "settings", "label": "metric"})


def _metrics_of_a_comparison(effects: pl.DataFrame) -> str:
    """How many metrics each comparison of ``effects`` holds (its rows per parameter, values and
    where the others were held): "7", or "6 to 7" where comparisons differ."""
    if effects.height == 0:
        return "0"
    n = effects.group_by([c for c in ("parameter", "from", "to", "at") if c in effects.columns]).len()["len"]
    lo, hi = int(n.min()), int(n.max())
    return f"{lo}" if lo == hi else f"{lo} to {hi}"


def family_size_words(effects: pl.DataFrame, sw: dict, sweep_dir: str | Path = "SWEEP") -> str:
    """What a comparison's intervals on this page are adjusted over, counted, and that a two-run
    page of two of its variants adjusts its win shares over fewer (session 56 review D: seat 1's
    0 → 4 read "within noise (−1.44 to +0.05)" here, adjusted over the comparison's 7 metrics at
    once, and "clear, may matter (−1.34 to −0.05)" on `balance report SWEEP/variants/v000
    SWEEP/variants/v004`, adjusted over its 4 seat win shares alone; both right, neither page said
    so). A game whose seats are alike names its seats' count (a two-run page's first family,
    :data:`reports.text.FAMILY_NOUNS`); between player counts no two-run page compares two
    variants (it refuses runs of different player counts), so only the count is said."""
    if effects.height == 0:
        return ""
    said = (f"The intervals here are adjusted over the {_metrics_of_a_comparison(effects)} "
            "metrics of each comparison at once")
    if varies_players(sw):
        return said + "."
    first = effects.filter(pl.col("parameter") == effects["parameter"][0])
    first = first.filter((pl.col("from") == first["from"][0]) & (pl.col("to") == first["to"][0]))
    seats = first.filter(pl.col("metric").str.starts_with("seat_win_share_"))["metric"].n_unique()
    spec = registry.specs().get(sw.get("game"))
    if not seats or (spec is not None and not spec.roles_alike):
        return said + "."
    # the sweep's path as the command was given it (review s62 #6: its last part alone,
    # "ma1/variants/vNNN", did not work from where out/ma1 was swept and reported)
    import shlex

    d = str(Path(sweep_dir) / "variants")
    where = f"balance report {shlex.quote(d + '/vNNN')} {shlex.quote(d + '/vMMM')}"
    return (f"{said}; a two-run page of two of these variants ({where}) adjusts its win shares over "
            f"its {seats} seat win shares alone (its other metrics are a family of their own), fewer "
            "numbers at once, so its intervals can be narrower and a change within noise here can "
            "read clear there.")


def effect_size_words(effects: pl.DataFrame) -> str:
    """How a sweep page words an effect's size, the verdicts in reading order
    (:data:`analysis.stats.VERDICT_ORDER`) and spelled as the sentences spell them."""
    return ("An effect is clear when its interval excludes 0; it is \"clear and large enough to "
            "matter\" when all of the interval is at least the smallest difference that matters"
            f"{_smallest_words(effects)}, \"clear, may matter\" when it reaches both sides of that "
            "(these games cannot tell whether it matters; more games would), \"clear but small\" "
            "when all of it is below that.")


def _smallest_words(effects: pl.DataFrame) -> str:
    """' (here 1 pp for shares, 2 coins for the winner's margin …)': the amounts the page's words
    were judged by (the effects' ``smallest`` column)."""
    if "smallest" not in effects.columns or effects.height == 0:
        return ""
    parts = []
    shares = effects.filter(pl.col("share"))["smallest"].unique().to_list()
    if shares:
        parts.append(" or ".join(f"{100 * x:g} pp" for x in sorted(shares)) + " for shares")
    other = effects.filter(~pl.col("share"))
    for (unit, small), g in other.group_by(["unit", "smallest"], maintain_order=True):
        labels = list(dict.fromkeys(g["label"].to_list()))
        parts.append(f"{amount(f'{small:g}', unit)} for " + " and ".join(labels))
    return " (here " + ", ".join(parts) + ")" if parts else ""


def strategies_text(sw: dict, spec) -> str:
    """The sweep's bots as its page heads them: those given, the game's default, or none; rotated
    over the seats when sweep.json says so (review s62 #2: the page never said it)."""
    rot = " (rotated over the seats: each deal played once in every rotation)" if sw.get("rotate_seats") else ""
    if sw.get("strategies"):
        return str(sw["strategies"]) + rot
    if spec is not None and spec.strategies is None:
        return "none (the game has no bots)"
    return f"the default ({spec.default_strategy if spec else '?'})" + rot


def _played_count(sweep_dir, spec) -> int | None:
    """The player count a sweep without ``--players`` played (sweep.json ``players`` is null then):
    its variants' run.json, else the game's default (review s50 PDF #1: such a page never said the
    count, in its title, its header table or its first sentence). None for a game without players."""
    if spec is None or "players" not in spec.takes:
        return None
    for meta in sorted((Path(sweep_dir) / "variants").glob("v*/run.json")):
        try:
            n = json.loads(meta.read_text(encoding="utf-8")).get("players")
        except (OSError, ValueError):
            continue
        if isinstance(n, int) and not isinstance(n, bool):
            return n
    return spec.default_players


def _measured_texts(sweep_dir, sw: dict) -> list[tuple[str, str]]:
    """(variant label, what it played) for every finished variant, where the game's report hook
    words it (``run_line``: a Fief combat's matchup); [] otherwise."""
    from reports.games import hook_for

    said = getattr(hook_for(str(sw.get("game"))), "run_line", None)
    if said is None:
        return []
    out = []
    for v in sw.get("variants") or []:
        name = v.get("id") if isinstance(v, dict) else v
        label = str(v.get("label") or name) if isinstance(v, dict) else str(v)
        try:
            meta = json.loads((Path(sweep_dir) / "variants" / str(name) / "run.json").read_text(encoding="utf-8"))
        except (OSError, ValueError, TypeError):
            continue
        if text := said(meta):
            out.append((label, text))
    return out


def _measured_on(sweep_dir, sw: dict) -> str:
    """What the variants played, where the game's report hook words it (a Fief combat's matchup,
    which the page never named: review s52 Fief #1): one text when every finished variant played
    the same, else each variant's ("combat.default_lords_attacker=1: 10 points with 1 Lord …;
    …=2: 10 points with 2 Lords …": the first variant's alone named 1 Lord beside Lords left of
    0.99, 1.97 and 2.94, review 248 #1); '' otherwise."""
    texts = _measured_texts(sweep_dir, sw)
    if len({t for _, t in texts}) <= 1:
        return texts[0][1] if texts else ""
    return "; ".join(f"{label}: {text}" for label, text in texts)


def _figures_words(labels: list[str]) -> str:
    """The page's metrics of a parameter in a few words: "win shares, the winner's margin and the
    game length"."""
    words = list(dict.fromkeys("win shares" if "win share" in x else x for x in labels))
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _number(x: float) -> str:
    return f"{x:.3g}" if abs(x) < 1000 else f"{x:,.0f}"


def _change_words(c, rec) -> str:
    """One recorded column that moved: "attacker_lords_left (the attacker's Lords at the end)
    differs in 4,859 of 5,000 games (mean 0.99 at "last", 0.02 at "first")"."""
    if len(c.differ) == 1:
        where = f"differs in {c.differ[0]:,} of {rec.games:,} games"
    else:
        where = (f"differs from its value at {rec.values[0]} in {c.differ[0]:,} of {rec.games:,} "
                 f"games at {rec.values[1]}"
                 + "".join(f", {n:,} at {v}" for n, v in zip(c.differ[1:], rec.values[2:])))
    means = ("" if any(m is None for m in c.means) else
             " (mean " + ", ".join(f"{_number(m)} at {v}" for m, v in zip(c.means, rec.values)) + ")")
    return f"{c.column} ({c.words}) {where}{means}"


def idle_sentences(s, measured: str = "", sweep_dir=None, most: int = 4) -> list[str]:
    """A sentence per varied setting whose every value played exactly the same games, as the page
    measures them: every change of every metric 0 with an interval of no width or, for a share, the
    games' bound (``same_games``: the paired per-game differences all 0; review s52 Fief #1: a combat without Jeanne d'Arc swept over her bonus read
    "does not change by more than the 1 pp that matters"). It says the setting does not act only
    when every column the variants recorded (games.parquet, players.parquet of ``sweep_dir``:
    :func:`analysis.sweep.recorded.recorded_changes`) is the same game by game; where some differ it
    names them (up to ``most``: which Lords fall moves no win, point or round of a Fief combat, and
    the page said "does not act" beside 4,859 of 5,000 combats whose attacker lost another Lord,
    review 248 #1); a sweep without rows (or no ``sweep_dir``) says what was compared."""
    from analysis.sweep.recorded import recorded_changes
    from simcore.rundir import RAW_LIMIT

    out = []
    # a comparison its player count does not read says nothing of the setting: not_read_sentences
    frames = [read_rows(f) for f in (s.effects, s.value_effects) if f is not None and f.height]
    frames = [f for f in frames if f.height]
    if not frames:
        return out
    done = {v["id"] for v in s.sweep.get("variants") or []} - set(s.missing)
    params = list(dict.fromkeys(x for f in frames for x in f["parameter"].to_list()))
    for name in params:
        # a share no game moves has the games' bound as its interval (same_games, session 62), not
        # the point 0 to 0: it is unmoved all the same
        rows = pl.concat([f.filter(pl.col("parameter") == name).select(
            "delta", "low", "high", "label",
            (pl.col("same_games").is_not_null() if "same_games" in f.columns else pl.lit(False)).alias("same"))
            for f in frames], how="vertical")
        unmoved = (rows["delta"].fill_null(1.0) == 0) & (rows["same"] | ((rows["low"].fill_null(1.0) == 0)
                                                                         & (rows["high"].fill_null(1.0) == 0)))
        if not (rows.height and unmoved.all()):
            continue
        figures = _figures_words(rows["label"].to_list())
        at = f" ({measured})" if measured else ""
        rec = recorded_changes(sweep_dir, s.sweep, name, done) if sweep_dir is not None else None
        if rec is None or not rec.rows:
            # (the flag that brings the rows back: at most RAW_LIMIT games a variant keep them
            # unless --no-raw was given; above it only --raw does: analysis.load.rows_flag)
            games = s.sweep.get("games")
            again = ("without --no-raw" if isinstance(games, int) and games <= RAW_LIMIT
                     else "with --raw")
            out.append(f"{name}: every value tried gave every game the same {figures} (the page's "
                       f"figures); the sweep kept no game rows, so nothing else its games recorded "
                       f"was compared (sweep again {again} to compare every column){at}.")
        elif not rec.changes:
            out.append(f"{name}: every value tried gave every game the same result (no game's "
                       "figures differ between them: the page's and every column its games "
                       "recorded), so this setting does not act in these games" + at + ".")
        else:
            shown = [_change_words(c, rec) for c in rec.changes[:most]]
            more = len(rec.changes) - len(shown)
            out.append(f"{name}: the page's figures did not change (every value tried gave every game "
                       f"the same {figures}), but the games did: " + "; ".join(shown)
                       + (f"; and {more} other recorded column{'s' if more > 1 else ''} ("
                          + ", ".join(c.column for c in rec.changes[most:]) + ")" if more else "")
                       + f". So this setting acts on what these games record but the page does not "
                         f"measure{at}.")
    return out


def not_read_sentences(s) -> list[str]:
    """A sentence per varied setting whose sentences' comparisons (the others held where the page
    holds them) are at a player count that does not read it (:func:`not_read`: ``track.goal.4`` with
    ``players`` = 3): every value tried plays the same games there, so the page measures nothing of
    it at that count, and it names where the grid compares it at a count that reads it (the
    slices that read it, :attr:`analysis.sweep.metrics.Sensitivity.slice_effects`), or that the
    sweep compares it at none (session 62 #1: the page's lead said the Seigneur's share "does not
    change by more than the 1 pp that matters" across every value of the goal of 4 players, at 3
    players)."""
    out = []
    if s.effects is None or s.effects.height == 0:
        return out
    for name in dict.fromkeys(s.effects["parameter"].to_list()):
        d = s.effects.filter(pl.col("parameter") == name)
        if not not_read(d):
            continue
        at = d["at"][0]
        held = f" with {at}" if at else ""
        sl = (read_rows(s.slice_effects.filter(pl.col("parameter") == name))
              if s.slice_effects is not None and s.slice_effects.height else pl.DataFrame())
        where = list(dict.fromkeys(sl["at"].to_list())) if sl.height else []
        tail = (f"where a count reads it ({'; '.join(where[:3])}"
                f"{f'; … and {len(where) - 3} more' if len(where) > 3 else ''}), its effects are in "
                f"the table \"{SLICES_TABLE}\"" if where else
                "this sweep compares its values at no count that reads it (sweep it with --players "
                "at a count that reads it)")
        out.append(f"{name}{held}: not read at {_counts_text(d['players'].to_list())}, so every "
                   f"value tried plays the same games there and nothing of it is measured at that "
                   f"count; {tail}.")
    return out


def _tune_measured_on(tune_dir, game: str) -> str:
    """:func:`_measured_on` for a tune: from its confirmation runs' run.json, one text when they
    played the same, else each run's (a tune of ``combat.default_lords_attacker`` confirms the
    start and the tuned rules on combats of other Lords)."""
    from reports.games import hook_for

    said = getattr(hook_for(str(game)), "run_line", None)
    if said is None:
        return ""
    texts = []
    for path in sorted((Path(tune_dir) / "confirmations").glob("*/run.json")):
        try:
            if text := said(json.loads(path.read_text(encoding="utf-8"))):
                texts.append((path.parent.name, text))
        except (OSError, ValueError):
            continue
    if len({t for _, t in texts}) <= 1:
        return texts[0][1] if texts else ""
    return "; ".join(f"{name}: {text}" for name, text in texts)


def build_sweep_report(sweep_dir: str | Path, out: str | Path, force: bool = False,
                       pdf: bool = False, smallest: dict | None = None, svg: bool = False,
                       answers: list[str] | None = None) -> Path:
    """The sensitivity page of a sweep directory; returns the path of report.html. ``smallest``:
    the smallest differences that matter, by kind, over the sweep's own and the game's.
    ``answers``, when given, gets the page's lead (the command line prints it): the turn-limit
    warning when some variant's games stopped there."""
    s = sensitivity(sweep_dir, smallest or None)
    sw = s.sweep
    spec = registry.specs().get(sw["game"])
    over_players = varies_players(sw)
    players = sw.get("players") or (None if over_players else _played_count(sweep_dir, spec))
    # a rotated line-up said where the players are named: the title (the terminal lead's first
    # line) and the first section's sentence (review s62 #2)
    rotated = ", seats rotated" if sw.get("rotate_seats") else ""
    at_players = (f" at {players} players" if players else "") + (" (seats rotated)" if rotated else "")
    title = f"{_title(sw['game'])}{f', {players} players' if players else ''}{rotated}: what each setting changes"
    figs = FigureSet()
    meta = _meta([
        ("game", _title(sw["game"])), *([("players", str(players))] if players else []),
        ("varied", "; ".join(v["text"] for v in sw["varies"])),
        ("design", sw["mode"]), ("variants", f"{len(sw['variants']) - len(s.missing)} of "
                                             f"{len(sw['variants'])} finished"),
        ("games per variant", f"{sw['games']:,} (" + (
            f"games 0 to {sw['games'] - 1:,} of the same seed in every variant: "
            if over_players else "the same games in every variant: ") + f"{short_seed(sw['seed'])})"),
        ("paired game by game", pairing_words(sw, s.source)),
        *([(DIRECTION_KEY, DIRECTION)] if s.effects.height else []),
        ("strategies", strategies_text(sw, spec)),
        ("base rules", sw["rules_name"]), ("also set", ", ".join(sw.get("settings") or []) or "nothing"),
        *([("measured on", measured)] if (measured := _measured_on(sweep_dir, sw)) else []),
    ])
    notes = []
    if s.missing:
        notes.append(f"Not finished yet: {', '.join(s.missing)} (run the same balance sweep command "
                     "again to resume)." + (
                         " Until then the comparisons that need them are not measured: the effects "
                         "at the other values of the other parameters among them (a grid's "
                         "interactions), which this page will show when they are played."
                         if sw.get("mode") == "grid" and len(sw.get("varies") or ()) > 1 else ""))
    n_params = s.effects["parameter"].n_unique() if s.effects.height else 0
    n_pairs = s.effects.select("parameter", "from", "to").unique().height if s.effects.height else 0
    k = _metrics_of_a_comparison(s.effects)
    over = (f"the {k} metrics of a comparison, Bonferroni over the {n_params} "
            f"parameter{'s' if n_params != 1 else ''}" if n_pairs == n_params else
            f"the {k} metrics of a comparison, Bonferroni over the {n_pairs} comparisons of the "
            f"{n_params} parameter{'s' if n_params != 1 else ''}")
    family = (f"The intervals of these sentences and of the tornado chart are one family: "
              f"simultaneous over {over}, so all of them hold together with 95% "
              "probability (each metric's own interval is narrower). " + effect_size_words(s.effects)
              ) if n_params else ""
    n_slice = (s.slice_effects.select("parameter", "from", "to", "at").unique().height
               if s.slice_effects.height else 0)
    elsewhere = ((f"the same comparisons at every other value of the others are in the table "
                  f"'{SLICES_TABLE}' (a family of their own: simultaneous over a comparison's "
                  f"metrics, Bonferroni over those {n_slice} comparison{'s' if n_slice != 1 else ''}), "
                  "and after each parameter's sentences one names where a verdict differs there. ")
                 if n_slice else
                 "the effect at other values of the others can differ (the curves and the table "
                 "'Every variant' show each). ")
    # the page leads with what moves what; how it is measured follows the sentences; a per-seat
    # setting is named with its seat in every sentence, heading and figure (review D #8)
    named = seat_names(sw)
    by_value = [with_seats(x, named) for x in
                value_sentences(s.value_effects, s.references, s.curves, effects=s.effects)]
    secs = [Section("findings", "What moves what",
                    f"The paired change of each setting{at_players}, game by game, worded by its "
                    "size (how it is measured: the next section)."
                    + (" The first sentences set each value tried against the base rules' value "
                       "(when the base is not tried: of numbers the lowest value tried, else the "
                       "first as listed) and "
                       "name a response that "
                       "turns; the others compare the first and last value. "
                       + value_family_words(s.value_effects) if by_value else ""),
                    sentences=by_value + [with_seats(x, named) for x in
                                          sweep_sentences(s.effects, slice_effects=s.slice_effects)]),
            Section("method", "How these sentences are measured",
                    ("The first sentences (a parameter of 3 values or more) set each value "
                     "against the base rules' value and name a response that turns, in a family "
                     "of their own (above, and the tables '" + VALUES_TABLE + "' and '"
                     + PAIRS_TABLE + "'). Every other sentence" if by_value else "Each sentence")
                    + " compares the parameter's first and last value (of numbers, the lowest "
                    "and the highest, however listed; a list of words: each value against the "
                    "first) with the other parameters held where the sentence "
                    "says: at the base rules' value when the grid has it, else at their first value; "
                    + elsewhere + (
                        "Every difference is measured game by game (game i of one variant against "
                        "game i of the other, the same random stream); variants at the same player "
                        "count play the same deals and dice, but between player counts game i is "
                        "not the same game (other seats, other hands, though some draws may "
                        "coincide), so there the pairing cancels less of the deals' noise (the "
                        "intervals stay valid: the pairs of games are independent of each other). "
                        if over_players else
                        "Because every variant plays the same games, the difference is measured "
                        "game by game. ") + "A metric that is the same number as another "
                    "(a one-seat role's win share is its seat's) or its mirror (with two roles, one "
                    "side's share is one minus the other's) is named in the other's sentence. At most "
                    "4 win shares and 2 other metrics per comparison; the rest are counted, and the "
                    f"table '{EFFECTS_TABLE}' has them all. " + family)]
    # a comparison its player count does not read measured nothing: no bar (session 62 #1)
    drawn = read_rows(s.effects)
    if drawn.height:
        held = "; ".join(f"{o} = {value_text(v)} ({why})" for o, (v, why) in anchors(sw).items()) \
            if len(sw["varies"]) > 1 else ""
        held = f", each with the other parameters held at {held}" if held else ""
        unread = s.effects.filter(~pl.col("read")) if "read" in s.effects.columns else s.effects.clear()
        left = list(dict.fromkeys(unread["parameter"].to_list()))
        left = (f" No bar for {', '.join(named.get(x, x) for x in left)}: not read at "
                f"{_counts_text(unread['players'].to_list())}, where the others are held."
                if left else "")
        repeats = tornado_caption_notes(drawn)
        turning, turned = turning_points(s, True, named)
        names = figs.add("tornado_shares", FS.tornado(drawn, True, s.score_unit, turning=turning,
                                                      names=named),
                         with_seats(f"{share_bars_words(drawn)}: the paired change from each "
                                    f"setting's first to last value, in pp{held}.{repeats}{turned}{left}",
                                    named))
        turning, turned = turning_points(s, False, named)
        names += figs.add("tornado_other", FS.tornado(drawn, False, s.score_unit, turning=turning,
                                                      names=named),
                          with_seats(f"Every other headline metric, one panel per unit{held}.{turned}{left}",
                                     named))
        secs.append(Section("tornado", "Which parameters move which metric most", figures=names))
    fair = None
    if spec is not None and spec.roles_alike and s.variants.height:
        first = s.variants.filter(pl.col("metric").str.starts_with("seat_win_share_"))
        n_seats = first.filter(pl.col("variant") == first["variant"][0]).height
        fair = 1.0 / n_seats if n_seats else None
    for i, v in enumerate(sw["varies"]):
        shown = named.get(v["name"], v["name"])
        mine = s.effects.filter(pl.col("parameter") == v["name"]) if s.effects.height else s.effects
        flat = (f" Not read at {_counts_text(mine['players'].to_list())}: every value played the same "
                "games." if not_read(mine) else "")
        secs.append(Section(f"p{i}", shown, figures=figs.add(
            f"curve_{i}", FS.curves(s.curves, v["name"], fair, s.score_unit, label=shown),
            f"Every headline metric against {shown}"
            + (f" (with {at})." if (at := condition_text(sw, v["name"])) else ".") + flat)))
    if s.effects.height:
        secs.append(Section("effects", EFFECTS_TABLE,
                            "Every comparison's paired change of every metric, with the page's "
                            "simultaneous 95% intervals (the sentences' family) and its words; "
                            "'others at': where the other parameters were held; 'repeats': a metric "
                            "that is the same number as another, or its mirror, or why a split gap's "
                            "interval is centred on 0 whatever its change. "
                            + family_size_words(s.effects, sw, sweep_dir),
                            tables=[(EFFECTS_TABLE, _seat_column(effects_table(s.effects), named))]))
    if s.value_effects.height:
        from analysis.sweep.metrics import against_reference, as_page_reads

        # every row read from the earlier value to the later, the base value's too (session 55
        # review #2), and a pair the first-vs-last family states with that family's row and a
        # column saying so (review #1)
        vs = [as_page_reads(r) for name, (ref, _) in s.references.items()
              for r in against_reference(s.value_effects, name, ref)]
        why = "; ".join(f"{name}: {ref} ({w})" for name, (ref, w) in s.references.items())
        secs.append(Section("values", VALUES_TABLE,
                            "Each value of a parameter of 3 values or more against the value it is "
                            f"compared with ({why}), every metric, game by game, from the earlier "
                            "value to the later (the base value is 'from' or 'to'). "
                            + value_family_words(s.value_effects) + _stated_rows_words(vs)
                            + (" " + family_size_words(s.value_effects, sw, sweep_dir)
                               if s.effects.height else ""),
                            tables=[(VALUES_TABLE, _seat_column(_pairs_table(pl.DataFrame(vs)), named))]))
        # the pairs the table above does not hold (review V #6: it repeated the base value's rows
        # word for word)
        refs = {name: str(ref) for name, (ref, _) in s.references.items()}
        others = s.value_effects.filter(~pl.struct("parameter", "from", "to").map_elements(
            lambda r: refs.get(r["parameter"]) in (str(r["from"]), str(r["to"])), return_dtype=pl.Boolean))
        if others.height:
            secs.append(Section("pairs", PAIRS_TABLE,
                                "Every two values of those parameters (from → to) but the base value's "
                                "(in the table above), every metric, with the same family's intervals: "
                                "where a response turns." + _stated_rows_words(list(others.iter_rows(named=True))),
                                tables=[(PAIRS_TABLE, _seat_column(_pairs_table(others), named))]))
    if n_slice:
        secs.append(Section("slices", SLICES_TABLE,
                            "In a grid, each parameter's same comparisons at every other combination "
                            "of the other parameters' values ('others at'), game by game, with "
                            "simultaneous 95% intervals over a comparison's metrics and Bonferroni over "
                            f"these {n_slice} comparisons (a family of their own: the sentences' family "
                            "above is unchanged); beside each, the change and words where the "
                            "sentences hold the others ('where held').",
                            tables=[(SLICES_TABLE, _seat_column(slice_table(s.effects, s.slice_effects), named))]))
    table = variant_table(s.variants)
    secs.append(Section("variants", "Every variant",
                        "Intervals: win shares, Wilson score intervals (inside 0 to 100%, never of "
                        "zero width); every other metric, normal intervals of its mean over games; "
                        "differences are means of "
                        "per-game differences (common random numbers); the seat imbalance's interval is the "
                        "Balance interval's construction: simultaneous intervals on the seat shares, then "
                        "the interval of the largest distance from the fair share."
                        + (" The largest gap of a seat from an equal split of its role's wins (in pp "
                           "of the role's wins): Bonferroni intervals over the role's seats of each "
                           "seat's share of the role's wins, then the interval of the largest gap."
                           if s.variants.height and s.variants["metric"].str.starts_with("role_split_").any()
                           else "") + " See docs/sweep.md.",
                        tables=[("Every variant and metric", table)]))
    # the page's tables as files a designer can load (values.csv, effects.csv), listed on the page
    files, listing = sweep_files(s, Path(sweep_dir))
    if listing:
        secs.append(Section("files", TABLES_AS_FILES,
                            "The tables of this page, with every number at full precision, written "
                            "beside report.html:", sentences=listing))
    # variants whose games mostly stopped at the turn limit: their shares and every change to or
    # from them describe unfinished games; the page says so first (simcore.turn_limit)
    lead = [w] if (w := variant_turn_limit_warning(Path(sweep_dir), sw, s.missing)) else []
    # which value to pick, per parameter, from the page's own numbers and paired intervals
    # (the matchup in the sentence only where every variant played the same one)
    same = len({t for _, t in _measured_texts(sweep_dir, sw)}) <= 1
    lead += [with_seats(x, named) for x in idle_sentences(s, _measured_on(sweep_dir, sw) if same else "",
                                                          sweep_dir)]
    # a setting held at a player count that does not read it: measured nowhere there (session 62 #1)
    lead += [with_seats(x, named) for x in not_read_sentences(s)]
    picked = which_value_sentences(s, Path(sweep_dir))
    lead += [with_seats(x, named) for x in picked]
    # the line-up and player count that answer holds for, and the same sweep over a panel for others
    # (ARCHITECTURE: a balance answer names the players it holds for; session 64 review #1)
    lead += [h] if picked and (h := sweep_holds_for(sw, Path(sweep_dir))) else []
    # values that give some seats other start coins, played with heuristic bots: which value is
    # fairest measures the bots' openings as much as the coins (analysis.start_coins)
    lead += [c] if (c := dir_caution([sweep_dir], "sweep")) else []
    if answers is not None and lead:
        answers += [f"{title}:"] + [f"  {x}" for x in lead]
    if answers is not None and s.missing:
        # the page says it in its notes; the terminal's answers read as a whole sweep's without it
        # (review s62 rv267 #1: "Fairest value …: 2" of a sweep stopped after 2 of its 9 values)
        more = " …" if len(s.missing) > 3 else ""
        answers.insert(0, f"Not finished: {len(sw['variants']) - len(s.missing)} of "
                          f"{len(sw['variants'])} variants played ({', '.join(s.missing[:3])}{more} not "
                          "yet): what follows reads only the values played; run the same balance "
                          "sweep command again to resume.")
    return _publish(Path(out), force, title, meta, secs, figs, pdf, notes, lead=lead, svg=svg,
                    files=files)


def varies_players(sw: dict) -> bool:
    """Whether sweep ``sw`` (sweep.json) varies the player count."""
    from analysis.sweep.grammar import PLAYERS

    return any(v.get("name") == PLAYERS for v in sw.get("varies") or ())


def pairing_words(sw: dict, source: str) -> str:
    """The header row "paired game by game": what the common random numbers make the same between
    two variants. Every variant plays games 0 … N−1 of one seed (game i from the stream (seed, i)),
    which at one player count are the same deals and dice; a sweep over ``players`` compares game i
    at 2 players with game i at 5, not the same game (review s46 #9: the page said every variant
    played the same deals and dice), so there the pairing cancels less of the deals' noise, though
    the intervals stay valid (independent pairs). ``source``: "stats" (the sweep's exact sums) or "rows"."""
    where = ("here from exact sums kept as the variants played together (paired_stats.json, no "
             "player rows): the same numbers the rows give" if source == "stats"
             else "taken from the variants' player rows")
    if not varies_players(sw):
        return ("every variant played the same deals and dice, so a change is the mean of "
                f"per-game differences; {where}" if source == "stats" else
                f"every variant played the same deals and dice, so a change is the mean of "
                f"per-game differences, {where}")
    same = ("variants at the same player count played the same deals and dice; "
            if len(sw.get("varies") or ()) > 1 else "")
    return (f"every variant played games 0 to {sw['games'] - 1:,} of the same seed (game i from the "
            f"same random stream), and a change is the mean of per-game differences, {where}; "
            f"{same}between player counts game i is not the same game (other seats, other hands, "
            "though some draws may coincide), so the pairing cancels less of the deals' noise there "
            "(the intervals stay valid: the pairs of games are independent of each other)")


TABLES_AS_FILES = "Tables as files"
VALUES_FILE = "values.csv"
EFFECTS_FILE = "effects.csv"


def which_value_sentences(s, sweep_dir: Path) -> list[str]:
    """The lead answers per varied parameter of 2 values or more: which value to pick
    (:func:`analysis.sweep.tables.which_values`, worded by :func:`which_value_sentence`): by the
    seat imbalance or the first role's share, then, in a game with a role of several seats, by how
    evenly that role's seats split its wins."""
    from analysis.sweep.tables import which_values

    answers = [w for v in s.sweep["varies"] for w in which_values(s, v["name"], sweep_dir)]
    out = [which_value_sentence(w) for w in answers]
    sides = next((w for w in answers if w["kind"] == "sides"), None)
    if sides is not None:
        # what the side's win share counts, with its outcomes per variant, where the game words
        # them (Fief: a mutual wipe-out counts half to each side; review 247 #1)
        note = side_share_note(s.sweep, sweep_dir, sides["metric"].removeprefix("role_win_share_"),
                               (sides["parameter"], sides["reference"]))
        if note:
            i = answers.index(sides)
            out.insert(i + 1, note)
    return out


def side_share_note(sw: dict, sweep_dir: Path, role: str, first: tuple[str, str] | None = None) -> str:
    """The game's note on what ``role``'s win share counts, with its outcomes in every finished
    variant (the report hook's ``side_share_note``: Fief's attacker takes the fief in … and both
    armies are wiped out in …, review 247 #1), each variant named by its label, those where
    parameter ``first[0]`` has the value ``first[1]`` first (the sides sentence's reference, which
    it names first); '' for a game without that hook."""
    from reports.games import hook_for

    said = getattr(hook_for(str(sw.get("game"))), "side_share_note", None)
    if said is None:
        return ""
    runs = []
    for v in sw.get("variants") or []:
        if not isinstance(v, dict):
            continue
        try:
            meta = json.loads((Path(sweep_dir) / "variants" / str(v.get("id")) / "run.json").read_text(encoding="utf-8"))
        except (OSError, ValueError, TypeError):
            continue
        ref = first is not None and str((v.get("values") or {}).get(first[0], object())) == first[1]
        runs.append((not ref, len(runs), f"at {v.get('label') or v.get('id')}", meta))
    return said(role, [(where, meta) for *_, where, meta in sorted(runs, key=lambda r: r[:2])]) if runs else ""


def sweep_files(s, sweep_dir: Path) -> tuple[dict[str, str], list[str]]:
    """The page's tables as CSV texts (:data:`VALUES_FILE`: every variant and metric,
    :func:`analysis.sweep.tables.values_rows`; :data:`EFFECTS_FILE`: every comparison and metric of
    every family, :func:`analysis.sweep.tables.effect_rows`), written with the report (atomically,
    as ``comparison.csv`` is) with the export's conventions (:func:`analysis.export.table_csv`:
    verdicts in the page's words, missing values empty), and the page's sentences listing them."""
    from analysis.export import table_csv
    from analysis.sweep.tables import effect_rows, values_rows

    files, listing = {}, []
    names = ", ".join(f"'{v['name']}'" for v in s.sweep["varies"])
    vals = values_rows(s, sweep_dir)
    if vals.height:
        files[VALUES_FILE] = table_csv(vals)
        limit = (" and, where the game can stop a game at the turn limit, each variant's share of "
                 "games stopped there (metric 'turn_limit_share')"
                 if (vals["metric"] == "turn_limit_share").any() else "")
        listing.append(
            f"{VALUES_FILE}: one row per variant and headline metric, as the table 'Every variant': "
            f"the variant, its settings, the value of each varied parameter (column{'s' if len(s.sweep['varies']) > 1 else ''} "
            f"{names}), the metric (key and label), its unit, estimate, 95% interval (low, high) and "
            f"which interval it is (Wilson's for a win share, the Balance interval for the seat "
            f"imbalance, normal for any other mean), and the games{limit}. Win shares and the seat "
            "imbalance are fractions (0.25 = 25%; an imbalance of 0.05 = 5 pp from fair).")
    eff = effect_rows(s)
    if eff.height:
        files[EFFECTS_FILE] = table_csv(eff)
        fams = list(dict.fromkeys(eff["family"].to_list()))
        listing.append(
            f"{EFFECTS_FILE}: one row per comparison and metric the page makes ({len(eff):,} rows): "
            f"the family it is adjusted in ({'; '.join(fams)}), the family's number of comparisons "
            "and the level each comparison's intervals are read at (1 − 0.05/m, simultaneous over its "
            "metrics; each comparison is in one family only), whether it is a value against the "
            f"base value (the table '{VALUES_TABLE}'), the parameter, from and to (the lower value "
            "and the higher, or of words the earlier and the later in the order tried: the base "
            "value may be either), where the others "
            "were held, the metric, its unit, the change (to − from, game by game), its adjusted "
            "interval (low, high) and its own unadjusted one (low_unadjusted, high_unadjusted: the "
            "same paired interval without the family's adjustment, never wider; for the seat "
            "imbalance and a role's split gap, simultaneous over only the seats they are built "
            "from), the smallest difference that matters, "
            "the verdict in the page's words, whether the player count compared at reads the "
            "setting (read: false where both variants played the same games, at the count in "
            "'players', empty for a comparison of player counts) and whether it repeats another "
            "metric. Shares and their changes are fractions (0.01 = 1 pp).")
    return files, listing


def variant_turn_limit_warning(sweep_dir: Path, sw: dict, missing=()) -> str:
    """The warning a sweep page leads with when 5% or more of some played variant's games ended
    at the turn limit (:func:`simcore.turn_limit.warning_over`, each variant read by
    :func:`analysis.length.run_turn_limit`), else ''."""
    from analysis.length import run_turn_limit
    from simcore.turn_limit import warning_over

    return warning_over([(str(v.get("label") or v.get("id")), run_turn_limit(sweep_dir / "variants" / str(v.get("id"))))
                         for v in sw.get("variants") or []
                         if v.get("id") not in missing and v.get("label") not in missing], "variants")


_OUTCOME_WORDS = {"met": "yes", "missed": "no", "unclear": "unclear"}


def _outcome(d: dict) -> str:
    """A judged cell's or target's "met" column: yes (every interval inside the tolerance), no
    (some interval wholly outside it) or unclear (an interval straddles the edge); a result written
    before the outcome was recorded: yes/no."""
    if d.get("met"):
        return "yes"
    if "outcome" in d:
        return _OUTCOME_WORDS.get(d["outcome"], "no")
    parts = d.get("targets") if "targets" in d else [d]
    missed = [p.get("missed", True) for p in parts if not p.get("met")]
    return "no" if any(missed) or not missed else "unclear"


def cells_section(cells: list[dict], game: str = "", not_read: list[dict] = ()) -> Section:
    """The tune page's "Every cell of the panel" (``result.json`` ``confirm.cells``, a panel of at
    least 2 cells): the cell × target table (:func:`cell_target_table`), its intervals labelled as
    what they are: each cell's own family (:func:`analysis.tune.targets.evaluate`: simultaneous over
    every column of every target of the cell), not a lone 95% interval and not adjusted over the
    cells (review G, panel #5: the page said "its 95% interval"). ``not_read``: result.json's cells
    that read none of the settings tuned, not played (session 63): a row each, "not read"."""
    fams = list(dict.fromkeys(t.get("intervals") for c in cells for t in c.get("targets") or []
                              if t.get("intervals")))
    fam = fams[0] if len(fams) == 1 else "95%"
    return Section(
        "cells", "Every cell of the panel",
        "One row per cell (player count and line-up), one column per target metric: the estimate "
        f"and its interval on the cell's own fresh confirmation games, {fam} of that cell (one "
        f"family per cell: the intervals are not adjusted over the {len(cells)} cells). A cell "
        "is met when every interval of the cell lies inside the tolerance, not met when one lies "
        "wholly outside it, unclear otherwise (more games would tell). 'Target met' needs every "
        "cell met, which needs no adjustment over the cells (an intersection-union test: every "
        "cell's own family must say so); a cell's 'not met' is read on that cell's family alone."
        + (f" A cell whose player count reads none of the settings tuned ({len(not_read)} here) "
           "plays the same games for every candidate: the tune left it out, and the table says "
           "'not read' (the target is judged on the other cells)." if not_read else ""),
        tables=[(f"Every cell of the panel (intervals: {fam}, per cell)",
                 cell_target_table(cells, game, not_read))])


def cell_target_table(cells: list[dict], game: str = "", not_read: list[dict] = ()) -> pl.DataFrame:
    """The cell × target table of a panel tune's confirmation (``result.json`` ``confirm.cells``):
    one row per cell, a column per target metric in words (estimate and interval, in % for shares:
    the interval result.json gives, simultaneous 95% over every column of every target of that
    cell, one family per cell; a seat the cell does not have is empty), then whether the cell meets
    the targets; then a row per cell of ``not_read`` (result.json's cells that read none of the
    settings tuned, not played: session 63), its metrics empty and "not read" where "yes" would be."""
    cols: dict[str, None] = {}
    rows = []
    for c in cells:
        row = {"cell": c["label"], "players": c["players"]}
        for t in c["targets"]:
            for m in t["metrics"]:
                share = "share" in m["metric"]
                # more decimals while the interval's ends print alike (review s52 tune #4: "0.0%
                # (0.0 to 0.0)" for 0.00 to 0.04%)
                from reports.text import ci_digits

                k = (ci_digits(100 * m["low"], 100 * m["high"], 1) if share
                     else ci_digits(m["low"], m["high"], 2))
                # halves away from zero, as every other table of the page (review s61 #1: an
                # exact 7.15% printed "7.1%" here, "7.2%" elsewhere)
                sc = 100.0 if share else 1.0
                f = lambda x, k=k, sc=sc: f"{_half_away(sc * x, k):.{k}f}"  # noqa: E731
                name = _metric_name(m["metric"], game) if game else m["metric"]
                key = f"{t['target']}: {name}" if len(c["targets"]) > 1 else name
                cols.setdefault(key)
                row[key] = (f"{f(m['estimate'])}{'%' if share else ''} "
                            f"({f(m['low'])} to {f(m['high'])})")
        row["target met"] = _outcome(c)
        rows.append(row)
    for c in not_read or ():
        rows.append({"cell": c["label"], "players": c["players"],
                     "target met": "not read (not played: the same games for every candidate)"})
    order = ["cell", "players", *cols, "target met"]
    return pl.DataFrame([{k: r.get(k) for k in order} for r in rows])


# ---------------------------------------------------------------------------------------------
# The tune page
# ---------------------------------------------------------------------------------------------

def _metric_name(col: str, game: str) -> str:
    """A trial metric column in words: "Seigneur side", "seat 1", "mean length"."""
    spec = registry.specs().get(game)
    if col.startswith("role_win_share_"):
        r = col.removeprefix("role_win_share_")
        disp = spec.role_display(r) if spec else r
        return f"{disp} side win share (%)"
    if col.startswith("seat_win_share_"):
        return f"seat {col.removeprefix('seat_win_share_')} win share (%)"
    if col.startswith("strategy_win_share_"):
        return f"{col.removeprefix('strategy_win_share_')} win share (%)"
    if col == "game_length":      # in the game's unit: Médiévallons' player turns (review K #1)
        return f"mean length ({length_unit(game)})"
    return col


def _is_share(col: str) -> bool:
    return "win_share" in col


def target_metric(targets: list[dict]) -> str | None:
    """The trial column a tune of one role or length target aims at (None otherwise)."""
    if len(targets) != 1:
        return None
    t = targets[0]
    return f"role_win_share_{t['role']}" if t["kind"] == "role" else (
        "game_length" if t["kind"] == "length" else None)


def _change_size(before, after, vary: dict | None = None) -> float:
    """How large a change of one setting is, on a scale every setting shares: the change as a
    fraction of the range searched (``vary``: tune.json's, its ``lo``..``hi``, or the spread of a
    list of numbers), 1 for a change of a word or of a setting without a range. (Review s46 #11: it
    was the change over the base value, or the change itself where the base was 0, so start coins
    0 → 6 counted 6 and a base income 3 → 4 counted 0.33, on two scales.)"""
    try:
        b, a = float(before), float(after)
    except (TypeError, ValueError):
        return 0.0 if before == after else 1.0
    lo, hi = (vary or {}).get("lo"), (vary or {}).get("hi")
    if lo is None or hi is None:
        nums = [x for x in (vary or {}).get("values") or ()
                if isinstance(x, (int, float)) and not isinstance(x, bool)]
        lo, hi = (min(nums), max(nums)) if len(nums) > 1 else (None, None)
    try:
        width = float(hi) - float(lo)
    except (TypeError, ValueError):
        width = 0.0
    if not width > 0:
        return 0.0 if a == b else 1.0
    return abs(a - b) / width


def best_changes(tune: dict, result: dict) -> str:
    """The tuned settings as changes from the base rules: "setup.start_coins[0]: 0 → 8" (a setting
    the search left at its base value says so)."""
    base = start_settings(tune)
    bits = []
    for name, after in (result.get("values") or {}).items():
        before = start_value(base, name)
        if name == "players":
            # no rule holds a player count: the one searched and chosen (review s50 today, an
            # opinion: "players: ? → 3")
            searched = next((v.get("values") or [] for v in tune.get("varies") or []
                             if v.get("name") == "players"), [])
            words = [value_text(x) for x in searched]
            among = (" and ".join(words) if len(words) <= 2 else
                     f"{', '.join(words[:-1])} and {words[-1]}" if len(words) <= 4 else
                     f"{value_text(min(searched))} to {value_text(max(searched))}")
            # one value given (--vary players=4..4) is held, not searched
            bits.append(f"players: {value_text(after)}" + (
                " (the one count given)" if len(words) == 1 else
                f" (of {among} searched)" if among else ""))
            continue
        if before is None:
            bits.append(f"{name}: ? → {value_text(after)}")
            continue
        same = same_value(before, after)
        k = seat_of(name, base.get(re.sub(r"\[\d+\]$", "", name)), tune.get("game"))
        who = f"{name} (seat {k + 1}'s)" if k is not None else name
        bits.append(f"{who}: {value_text(before)} (unchanged)" if same
                    else f"{who}: {value_text(before)} → {value_text(after)}")
    if not bits:
        return ", ".join(settings_named(result.get("settings"), tune)) or "(players only)"
    return "; ".join(bits) + " (base rules → tuned)"


def fixed_words(tune: dict) -> str:
    """The ``--set`` settings the tune was run with, as every name of its fix carries them (s37 #2,
    :meth:`analysis.tune.search.TunePlan.fixed_words`): " (with --set censitaires.pawns=1)", ''."""
    sets = tune.get("settings") or []
    return f" (with --set {', '.join(sets)})" if sets else ""


def held_words(tune: dict) -> str:
    """", every candidate with --set censitaires.pawns=1" after a candidate's settings (s37 #2: the
    tune's own ``--set`` is part of every candidate); '' without any."""
    sets = tune.get("settings") or []
    return f", every candidate with --set {', '.join(sets)}" if sets else ""


def turn_limit_text(limits: list[dict]) -> str:
    """The header row of the confirmation games ended at the turn limit: the share of each run
    (each cell's over a panel), and whether it reaches the warning's threshold."""
    def one(t: dict) -> str:
        cell = f"{t['cell']}: " if len(limits) > 1 and t.get("cell") else ""
        return f"{cell}{_half_away(100 * t['share'], 1):.1f}% of {t['total']:,} ({t['games']:,})"

    warn = (f"; WARNING: {TURN_LIMIT_WARN:.0%} or more, the win shares describe unfinished games"
            if flagged(limits) else f" (below the {TURN_LIMIT_WARN:.0%} that warns)")
    return "; ".join(one(t) for t in limits) + warn


def _confirm_run(tune_dir: Path, result: dict) -> dict:
    d = ((result or {}).get("confirm") or {}).get("dir")
    try:
        return json.loads((Path(tune_dir) / d / "run.json").read_text(encoding="utf-8")) if d else {}
    except (OSError, json.JSONDecodeError):
        return {}


def played_with(tune_dir: Path, tune: dict, result: dict) -> str:
    """For which player count and line-up the tune's verdict holds: the confirmation's own (a panel:
    its cells), and only those; a panel's cells that read none of the settings tuned (result.json
    ``not_read``, session 63) named as left out."""
    cells = ((result or {}).get("confirm") or {}).get("cells") or []
    unread = [c for c in (result or {}).get("not_read") or [] if isinstance(c, dict)]
    left = ""
    if unread:
        left = (f"; {len(unread)} cell{'s' if len(unread) != 1 else ''} of the panel left out, not "
                f"read at {_counts_text([c.get('players') for c in unread])} (every candidate "
                "plays the same games there)")
    if len(cells) > 1:
        counts = sorted({int(c["players"]) for c in cells})
        return (f"{len(cells)} cells of the panel ({', '.join(map(str, counts))} players; every cell "
                f"below){left}; other line-ups and player counts were not played")
    run = _confirm_run(tune_dir, result)
    from simcore import games as registry

    spec = registry.get(str(tune.get("game"))) if tune.get("game") in registry.names() else None
    played = spec.extra.get("played_as") if spec is not None and "players" not in spec.takes else None
    if callable(played) and (words := played(run)):
        # a game without line-ups (a Fief combat): what it played, not "2 players, seats 1
        # attacker, 2 defender; other line-ups and player counts"
        return (f"{words}; only {spec.extra.get('played_as_scope') or 'this run'} was confirmed "
                "(another: tune again with its options)")
    players = run.get("players") or tune.get("players")
    bots = run.get("strategies") or tune.get("strategies")
    if isinstance(bots, str):
        bots = bots.split(",")
    if bots and len(set(bots)) == 1:
        who = f"{bots[0]} in every seat"
    elif bots:
        who = "seats " + ", ".join(f"{i + 1} {b}" for i, b in enumerate(bots))
    else:
        who = "the game's default bots"
    rot = " (rotated over the seats)" if run.get("rotate_seats") or tune.get("rotate_seats") else ""
    # ("not confirmed": a --vary players search played other counts, the confirmation one)
    return (f"{players or 'the default number of'} players, {who}{rot}{left}; other line-ups and "
            "player counts were not confirmed")


def confirm_table(result: dict, tune_dir: Path, game: str) -> pl.DataFrame:
    """The confirmation, one row per metric of every target: estimate, interval (with more decimals
    where an end would round onto the band's edge: :func:`analysis.tune.targets.edge_digits`), the
    band the target asks for, where this metric's interval lies against it (:func:`_interval_place`:
    inside, straddling an edge, wholly outside), and whether its estimate lies inside the band or
    how far outside (the size of the miss). Every cell is the row's own: the whole target's verdict
    is stated once, in the table's title (:func:`confirm_verdicts`; review fx04 #1: a 'Target met'
    column repeated "unclear" on a seat whose interval lay inside the band)."""
    return pl.DataFrame([row for _, _, rows in _confirmation(result, tune_dir, game) for row, _ in rows])


def _interval_place(low: float, high: float, lo: float, hi: float) -> str:
    """Where an interval [low, high] lies against the band [lo, hi] (lo may be −inf), in the
    judgement's own terms (:func:`analysis.tune.targets._within`, ``_outside``): "inside" (both ends
    in the band), "above" / "below" (wholly outside it: the target is then not met), "upper" /
    "lower" (straddling that edge) or "both" (wider than the band: across both edges)."""
    if lo <= low and high <= hi:
        return "inside"
    if low > hi:
        return "above"
    if high < lo:
        return "below"
    if low < lo and high > hi:
        return "both"
    return "upper" if high > hi else "lower"


#: the confirmation table's 'Interval inside the band', per :func:`_interval_place`
_PLACE_WORDS = {"inside": "yes", "above": "no: wholly above it", "below": "no: wholly below it",
                "upper": "partly: straddles its upper edge", "lower": "partly: straddles its lower edge",
                "both": "partly: wider than the band, across both its edges"}


def _confirmation(result: dict, tune_dir: Path, game: str) -> list[tuple[dict, dict | None, list]]:
    """Per judged target of the confirmation: the target's part of result.json, its row of
    tune.json (None when unreadable) and its table rows, each with where its interval lies
    against the band (:func:`_interval_place`; None without a band)."""
    run = _confirm_run(tune_dir, result)
    players = run.get("players")
    confirm = (result or {}).get("confirm") or {}
    cells = confirm.get("cells") or []
    cell = None
    if len(cells) > 1:           # a panel: the targets shown are its binding cell's; name it
        cell = next((c for c in cells if c["label"] == (confirm.get("binding") or [None])[0]), None)
        players = cell["players"] if cell is not None else None
    specs = {}
    try:
        tune = read_json(Path(tune_dir), "tune.json", "tune")
        specs = {t["text"]: t for t in tune.get("targets") or []}
    except Exception:       # noqa: BLE001 - a table without bands is still the confirmation
        pass
    out = []
    for p in (result.get("confirm") or {}).get("targets") or []:
        rows = []
        t = specs.get(p["target"]) or {}
        n = len(p["metrics"])
        fair = (1.0 / players) if players else (1.0 / n if t.get("kind") == "seat-balance" else None)
        band = None
        if t.get("kind") == "seat-balance" and fair:
            band = (fair - t["tol"], fair + t["tol"])
        elif t.get("kind") == "role":
            band = (t["aim"] - t["tol"], t["aim"] + t["tol"])
        elif t.get("kind") == "length":
            band = (t["lo"], t["hi"])
        elif t.get("kind") == "no-dominant-strategy" and fair:
            band = (float("-inf"), fair + t["tol"])
        for m in p["metrics"]:
            share = _is_share(m["metric"])
            sc, unit = (100.0, "pp") if share else (1.0, length_unit(game))
            # an interval end that rounds onto the band's edge gets more decimals until its side
            # shows (revF #2: "25.48 to 27.02" against 23.0 to 27.0, not "25.5 to 27.0")
            d = edge_digits([sc * m[k] for k in ("estimate", "low", "high")],
                            [sc * e for e in band] if band is not None else [])
            row = {"Cell": cell["label"]} if cell is not None else {}
            row |= {"Target": p["target"], "Metric": _metric_name(m["metric"], game),
                   "Estimate": f"{_half_away(sc * m['estimate'], d):.{d}f}{'%' if share else ''}",
                   confirm_interval_header(confirm): f"{_half_away(sc * m['low'], d):.{d}f} to "
                                     f"{_half_away(sc * m['high'], d):.{d}f}"}
            place = None
            if band is not None:
                lo, hi = band
                # the band the target is judged on, printed whole (review s46 #7: seat-balance:1.25
                # printed "23.8 to 26.2" for 23.75 to 26.25)
                ends = [sc * x for x in (lo, hi) if x != float("-inf")]
                b = band_digits(ends, d)
                row["Band"] = (f"up to {sc * hi:.{b}f}" if lo == float("-inf")
                               else f"{sc * lo:.{b}f} to {sc * hi:.{b}f}")
                place = _interval_place(m["low"], m["high"], lo, hi)
                row["Interval inside the band"] = _PLACE_WORDS[place]
                e = m["estimate"]
                row["Estimate: inside or outside the band"] = (
                    f"{amount(f'{_half_away(sc * (e - hi), d):.{d}f}', unit)} above" if e > hi else
                    f"{amount(f'{_half_away(sc * (lo - e), d):.{d}f}', unit)} below" if e < lo else "inside")
            rows.append((row, place))
        out.append((p, t or None, rows))
    return out


def _row_subject(cols: list[str], game: str) -> str:
    """The rows ``cols`` (trial metric columns) as a sentence's subject: "seat 2", "seats 2, 3 and
    4", "the Seigneur side", "balanced and greedy", "the mean length"."""
    seats = [c.removeprefix("seat_win_share_") for c in cols if c.startswith("seat_win_share_")]
    names = [f"seat{'s' if len(seats) > 1 else ''} {_and_list(seats)}"] if seats else []
    for c in cols:
        if c == "game_length":
            names.append("the mean length")
        elif not c.startswith("seat_win_share_"):
            name = _metric_name(c, game).rsplit(" win share", 1)[0]
            names.append(f"the {name}" if c.startswith("role_win_share_") else name)
    return _and_list(names)


def _and_list(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _intervals_of(cols: list[str], game: str) -> str:
    """ "seat 2's interval" / "the intervals of seats 3 and 4" (the grammatical number follows)."""
    who = _row_subject(cols, game)
    if len(cols) == 1:
        return f"{who}'s interval" if not who.startswith("the ") else f"the interval of {who}"
    return f"the intervals of {who}"


def confirm_verdicts(result: dict, tune_dir: Path, game: str) -> list[str]:
    """Each judged target's verdict on the confirmation, once, with the rows of the confirmation
    table that decide it (review fx04 #1): "seat-balance: unclear (the intervals of seats 2, 3 and
    4 straddle the band's edge; seat 1's lies inside it)", "seat-balance: not met (seat 3's
    interval lies wholly outside the band; …)", "seat-balance: met (every interval lies inside the
    band)". The word is the recorded outcome (:func:`analysis.tune.targets.outcome`: met when every
    interval lies inside the band, not met when one lies wholly outside it, unclear otherwise); the
    reason is given only when the rows' places agree with it (a target without a readable band:
    the word alone)."""
    out = []
    for p, _, rows in _confirmation(result, tune_dir, game):
        word = {"yes": "met", "no": "not met"}.get(_outcome(p), _outcome(p))
        places = [place for _, place in rows]
        cols = [m["metric"] for m in p["metrics"]]
        by = {k: [c for c, x in zip(cols, places) if x in ks] for k, ks in
              (("in", ("inside",)), ("out", ("above", "below")), ("across", ("upper", "lower", "both")))}
        why = ""
        if None not in places and places:
            n_in, n_out, n_across = (len(by[k]) for k in ("in", "out", "across"))
            straddle = (f"{_intervals_of(by['across'], game)} "
                        f"{'straddles' if n_across == 1 else 'straddle'} the band's edge") if n_across else ""
            inside = (f"{_intervals_of(by['in'], game) if n_in == 1 else 'those of ' + _row_subject(by['in'], game)} "
                      f"{'lies' if n_in == 1 else 'lie'} inside it") if n_in else ""
            if word == "met" and n_in == len(places):
                why = "every interval lies inside the band" if n_in > 1 else "its interval lies inside the band"
            elif word == "not met" and n_out:
                why = "; ".join(x for x in (f"{_intervals_of(by['out'], game)} "
                                            f"{'lies' if n_out == 1 else 'lie'} wholly outside the band",
                                            straddle.replace("the band's edge", "its edge")) if x)
            elif word == "unclear" and n_across and not n_out:
                why = "; ".join(x for x in (straddle, inside) if x)
        out.append(f"{p['target']}: {word}" + (f" ({why})" if why else ""))
    return out


#: the confirmation table's interval column: simultaneous over every row of every target (review
#: s46 #11: headed "95% interval", as if each row's own)
CONFIRM_INTERVAL = "Simultaneous 95% interval"


def confirm_interval_header(confirm: dict) -> str:
    """The confirmation table's interval column at the level the confirmation was read at
    (result.json ``confirm.level``: 99% for an attempt of a tune that may make five, review s62 #3;
    a confirmation recorded without it, 95%)."""
    from analysis.tune.targets import level_text

    level = (confirm or {}).get("level")
    return CONFIRM_INTERVAL if not level else f"Simultaneous {level_text(level)} interval"


def band_digits(ends, digits: int = 1, most: int = 4) -> int:
    """The decimals a band's ``ends`` (in the unit shown) print at, so that the band printed is the
    band the target is judged on (review s46 #7: seat-balance:1.25 printed "23.8 to 26.2" for 23.75
    to 26.25): the fewest, at least 1, that write every end exactly (23.75 needs 2); an end no
    decimal writes exactly within ``most`` (1/3 ± 2 pp: 31.333…) gets the row's interval decimals
    ``digits``, which :func:`analysis.tune.targets.edge_digits` chose so that no printed end lands
    on the band's edge on the wrong side."""
    for d in range(1, most + 1):
        if all(abs(round(x, d) - x) < 1e-9 * max(1.0, abs(x)) for x in ends):
            return d
    return max(1, digits)


def met_candidates(trials: pl.DataFrame, tune: dict) -> pl.DataFrame:
    """The trials that met every target on the full search budget, ordered by fewest settings
    changed from the base rules, then by the smallest relative change (each change as a fraction of
    its range searched, :func:`_change_size`), then by the objective."""
    if trials.height == 0 or "met" not in trials.columns:
        return pl.DataFrame()
    full = trials["games"].cast(pl.Int64, strict=False).max()
    ok = trials.filter((pl.col("met").cast(pl.String).str.to_lowercase() == "true")
                       & (pl.col("games").cast(pl.Int64, strict=False) == full))
    if ok.height == 0:
        return pl.DataFrame()
    base = start_settings(tune)
    names = [v["name"] for v in tune["varies"]]
    by_name = {v["name"]: v for v in tune["varies"]}
    rows = []
    for r in ok.iter_rows(named=True):
        changes, size = [], 0.0
        for n in names:
            before = start_value(base, n)
            after = r[n]
            if before is None or str(value_text(before)) != str(after):
                if before is not None:
                    try:
                        if float(before) == float(after):
                            continue
                    except (TypeError, ValueError):
                        pass
                # each per-seat setting with its seat, as the verdict names the fix (helper 234 #2)
                changes.append(f"{seat_named(n, tune)}: {value_text(before) if before is not None else '?'} "
                               f"→ {after}")
                size += _change_size(before, after, by_name.get(n))
        rows.append({"Trial": r["trial"], "Settings changed": "; ".join(changes) or (
            f"(none: the base rules with --set {', '.join(tune['settings'])})" if tune.get("settings")
            else "(none: the base rules)"),
                     "Changes": len(changes), "Relative size": round(size, 3),
                     "Objective": float(r["objective"]) if r["objective"] not in (None, "") else None})
    out = pl.DataFrame(rows).sort(["Changes", "Relative size", "Objective"])
    # printed as every objective of the page (review s48 tune #6: 0.5913 here, 0.59 elsewhere)
    return out.with_columns(pl.col("Objective").map_elements(objective_text, return_dtype=pl.String,
                                                             skip_nulls=True))


#: trials a fit of "What each setting does to the target" needs beyond its coefficients (its
#: residual degrees of freedom): with 1 the t quantile of two settings' family is 25.5 (review s46
#: #5: the main lever of a tune read "within noise", −10.1 to +39.9 turns), with 3 it is 4.2
SPARE_TRIALS = 3


def _fitted_names(tune: dict) -> list[str]:
    """The settings the fit takes, one slope each: ranges of numbers, and lists whose values are
    all numbers (``recolte=[3,7,11]``: review s52 tune #2, such a list was left out of the fit
    while its trials moved it, its effect folded into the others')."""
    def numeric(v: dict) -> bool:
        if v.get("kind") in ("int", "float"):
            return True
        vals = v.get("values") or []
        return (v.get("kind") == "list" and bool(vals)
                and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in vals))
    return [v["name"] for v in tune["varies"] if numeric(v)]


def _unfittable(trials: pl.DataFrame, tune: dict, names: list[str]) -> list[str]:
    """The listed settings of words or tables that change among ``trials``: a straight line cannot
    take them, and leaving them out would fold their effect into the others'."""
    return [v["name"] for v in tune["varies"] if v["name"] not in names and v["name"] in trials.columns
            and v.get("kind") == "list" and trials[v["name"]].cast(pl.String).n_unique() > 1]


def setting_effects(trials: pl.DataFrame, tune: dict, metric: str, smallest: dict | None = None
                    ) -> pl.DataFrame:
    """What each setting does to ``metric`` across the values its fitted trials played: a linear
    fit over the trials that played the full budget. Those trials play the same games (the search's
    seed, games 0 … N-1), so their differences are paired: noise from the deal cancels, and the
    fit's residuals measure what is left (noise of the bots' play and curvature). The intervals are
    the fit's t intervals, one family over the settings (Bonferroni: each at 1 − 0.05/k for k
    settings, so all hold together at 95 %); ``smallest`` (by kind, over the game's own) is the
    smallest difference that matters, and ``verdict`` words each effect by it on its simultaneous
    interval (:func:`analysis.stats.practical`). Each effect is the slope times the span of the
    setting's values among the fitted trials (``from``, ``to``: their lowest and highest), never
    over the range searched beyond them (review s46 #5: "from 2 to 4" where no fitted trial had 2).
    No fit (an empty frame) with fewer than :data:`SPARE_TRIALS` trials beyond the coefficients
    (:func:`why_not_fitted` says so). Rows in reading order: large enough to matter first, then
    may matter, then clear but small, then not shown; by size within."""
    names = _fitted_names(tune)
    if metric not in trials.columns or not names:
        return pl.DataFrame()
    full = trials["games"].cast(pl.Int64, strict=False).max()
    d = trials.filter(pl.col("games").cast(pl.Int64, strict=False) == full).drop_nulls(metric)
    if _unfittable(d, tune, names):
        return pl.DataFrame()
    import numpy as np

    X = np.column_stack([np.ones(d.height)] + [d[n].cast(pl.Float64).to_numpy() for n in names])
    y = d[metric].cast(pl.Float64).to_numpy() * (100.0 if _is_share(metric) else 1.0)
    dof = d.height - X.shape[1]
    if dof < SPARE_TRIALS:
        return pl.DataFrame()
    coef, *_ = np.linalg.lstsq(X, y, rcond=None)
    resid = y - X @ coef
    s2 = float(resid @ resid) / dof
    try:
        cov = s2 * np.linalg.inv(X.T @ X)
    except np.linalg.LinAlgError:
        return pl.DataFrame()
    tq = stats.t_quantile(float(dof), 1 - 0.05 / len(names))
    unit = "pp" if _is_share(metric) else length_unit(tune.get("game"))
    small = smallest_difference(tune.get("game"), "share" if _is_share(metric) else "length", smallest)
    small_shown = 100 * small if _is_share(metric) else small
    rows = []
    for i, v in enumerate([v for v in tune["varies"] if v["name"] in names], start=1):
        played = d[v["name"]].cast(pl.Float64)
        lo, hi = played.min(), played.max()
        whole = v.get("kind") == "int" or all(float(x).is_integer() for x in (lo, hi))
        lo, hi = (int(lo), int(hi)) if whole else (float(f"{lo:.4g}"), float(f"{hi:.4g}"))
        span = float(hi) - float(lo)
        eff, se = coef[i] * span, float(np.sqrt(max(cov[i, i], 0.0))) * span
        low, high = eff - tq * se, eff + tq * se
        # a share moves by at most 100 pp: an interval past it is cut there, and an effect past it
        # says the straight line does not fit (review s48 tune #1: −111.0 to −27.9 pp)
        beyond = bool(_is_share(metric) and abs(float(eff)) > 100.0)
        if _is_share(metric):
            low, high = max(low, -100.0), min(high, 100.0)
        rows.append({"parameter": v["name"], "from": lo, "to": hi, "effect": eff,
                     "low": low, "high": high, "unit": unit, "trials": d.height,
                     "smallest": small_shown, "beyond": beyond,
                     "verdict": stats.practical(eff, low, high, small_shown)})
    out = pl.DataFrame(rows)
    order = stats.practical_order(out["verdict"].to_list(), out["effect"].to_numpy(), small_shown)
    return out[[int(i) for i in order]]


def why_not_fitted(trials: pl.DataFrame, tune: dict, metric: str | None) -> str | None:
    """Why :func:`setting_effects` has no fit for this tune, in a sentence the page prints in place
    of its section ("Not fitted: 3 trials played the full budget for 3 settings (a fit needs at
    least 5) …"); None when it has one or the page says why elsewhere (a panel's mixed cells)."""
    if metric is None:
        if [t.get("kind") for t in tune.get("targets") or []] == ["seat-balance"]:
            return ("Not fitted as one line: a seat-balance target is every seat's win share at once, "
                    "and each seat responds to the settings in its own way (often not in a straight "
                    "line). How each seat moves from the start rules to the tuned ones is in 'How "
                    "each seat responds'; the trials as good as the best, with every seat's share, "
                    "in 'Settings as good as the best'; every trial's shares in 'Every trial'.")
        return ("Not fitted: the tune's targets are not one metric (a fit is made for a tune of one "
                "role or length target).")
    names = _fitted_names(tune)
    if not names:
        return "Not fitted: no setting of this tune is a number (a fit needs settings with a range)."
    if metric not in trials.columns:
        return f"Not fitted: the trials do not record {_metric_name(metric, tune.get('game', ''))}."
    full = trials["games"].cast(pl.Int64, strict=False).max()
    played = trials.filter(pl.col("games").cast(pl.Int64, strict=False) == full).drop_nulls(metric)
    n = played.height
    if odd := _unfittable(played, tune, names):
        return (f"Not fitted: {', '.join(odd)} (a list of words or tables) changes among the trials "
                "that played the full budget, and a straight line per setting cannot take it (left "
                "out, its effect would be folded into the other settings'); the trials' own numbers "
                "are in 'Every trial'.")
    need = len(names) + 1 + SPARE_TRIALS   # an intercept, one slope per setting, the noise's dof
    k = len(names)
    if n < need:
        return (f"Not fitted: {n} trial{'s' if n != 1 else ''} played the full budget for {k} "
                f"setting{'s' if k != 1 else ''} (a fit needs at least {need}: {SPARE_TRIALS} more "
                "than the settings and the intercept, to measure the noise by; with fewer, its "
                "intervals are too wide to tell anything); the "
                "trials' own numbers are in 'Every trial'. Run more --trials, or --keep-going.")
    return ("Not fitted: the trials that played the full budget do not move the settings "
            "independently (one setting never changes among them, or two change together).")


def _tune_result(tune_dir: Path) -> dict | None:
    """result.json of a finished tune (None while it runs), checked before the page says anything
    of it: what the verdict reads (its sentence, best trial, confirmation) must be there, and the
    confirmation's games must still be on disk (the page says "confirmed on N fresh games"). One
    :class:`UsageError` line otherwise."""
    f = tune_dir / "result.json"
    if not f.is_file():
        return None
    try:
        result = json.loads(f.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise UsageError(f"{f}: not valid JSON ({exc}); run the same balance tune again to confirm "
                         "anew, after moving result.json away") from None
    confirm = result.get("confirm") if isinstance(result, dict) else None
    missing = [k for k in ("sentence", "best_trial", "confirm") if not isinstance(result, dict) or k not in result]
    missing += [f"confirm.{k}" for k in ("games", "seed") if isinstance(confirm, dict) and k not in confirm]
    if missing or not isinstance(confirm, dict):
        raise UsageError(f"{f}: damaged (no {', '.join(missing) or 'confirm'}); run the same balance "
                         "tune again to confirm anew, after moving result.json away")
    # (a tune keeps its confirmations' runs under confirmations/: one missing there was deleted)
    played = tune_dir / str(confirm.get("dir", ""))     # a run, or a panel's runs (cell-K/)
    if "dir" in confirm and (tune_dir / "confirmations").is_dir() and not (
            (played / "run.json").is_file() or any((d / "run.json").is_file() for d in played.glob("cell-*"))):
        raise UsageError(f"{f}: its confirmation {confirm['dir']}/ is missing; run the same balance "
                         "tune again to confirm anew, after moving result.json away")
    return result


def tune_side_share_note(tune_dir: Path, tune: dict, result: dict) -> str:
    """The game's note on what a role target's win share counts, beside the verdict, with the
    side's outcomes in the confirmation of the best rules and in the start rules' (the report
    hook's ``side_share_note``: Fief's "the attacker takes the fief in 76.7% … both armies are
    wiped out in 16.7% …", where the verdict said "85.0%": review 247 #1); '' for a game without
    that hook, a tune without a role target, or confirmations without their run.json."""
    from reports.games import hook_for

    said = getattr(hook_for(str(tune.get("game"))), "side_share_note", None)
    role = next((t.get("role") for t in tune.get("targets") or [] if t.get("kind") == "role"), None)
    if said is None or not role:
        return ""
    runs = []
    for where, part in ((f"with the best rules ({', '.join(result.get('settings') or []) or 'unchanged'})",
                         result.get("confirm")), ("with the start rules", result.get("start"))):
        try:
            runs.append((where, json.loads((Path(tune_dir) / str(part["dir"]) / "run.json").read_text(encoding="utf-8"))))
        except (OSError, ValueError, TypeError, KeyError):
            continue
    return said(role, runs) if runs else ""


def build_tune_report(tune_dir: str | Path, out: str | Path, force: bool = False,
                      pdf: bool = False, smallest: dict | None = None, svg: bool = False) -> Path:
    """The page of a tune's search; returns the path of report.html. ``smallest``: the smallest
    differences that matter, by kind, over the game's: the page's one comparison, what each
    setting does to the target, is worded by it (the verdict and confirmation are about the
    target's tolerance, not a difference)."""
    tune_dir = Path(tune_dir)
    tune = read_json(tune_dir, "tune.json", "tune")
    trials = pl.read_csv(tune_dir / "trials.csv", infer_schema_length=None) \
        if (tune_dir / "trials.csv").is_file() else pl.DataFrame()
    result = _tune_result(tune_dir)
    game = tune["game"]
    title = f"{_title(game)}: tuning " + ", ".join(v["name"] for v in tune["varies"]) + fixed_words(tune)
    figs = FigureSet()
    secs: list[Section] = []
    metric = target_metric(tune["targets"])
    # over a panel a trial's shares are its worst cell's: one metric across trials compares like
    # with like only when every full-budget trial has the same worst cell
    mixed, only_cell = worst_cells(trials)
    if metric and mixed:
        metric = None
    aim = _aim(tune["targets"][0]) if metric else None
    verdict = []
    if result is None:
        verdict.append("The tune has not finished: no confirmation yet (run the same balance tune "
                       "command again to resume).")
    else:
        said = _clean_sentence(result["sentence"])
        # how the search reached its confirmation, as this page prints it (a result written
        # before the sentence said it has none; one written before review M #12 printed its
        # objective with another rounding than the page's tables)
        path = search_path(result, aggregate=tune.get("aggregate") if tune.get("panel") else None)
        if path and not (result.get("search") or {}).get("met"):
            if "No candidate was shown to meet" in said:
                said = said[:said.index("No candidate was shown to meet")].rstrip()
            said += " " + path
        # many confirmation games at the turn limit: the verdict leads with the warning (s37 #1;
        # a result written before it said none, the page reads the confirmation's end reasons)
        limits = confirmation_turn_limits(tune_dir, result)
        said = qualified_verdict(said, limits)
        verdict.append(said + tied_with_best(tune, result, trials))
        verdict += [n for n in (tune_side_share_note(tune_dir, tune, result),) if n]
        verdict += adopt_advice(tune, result)
    rows = [("game", _title(game)), ("ranges", "; ".join(v["text"] for v in tune["varies"])),
            ("targets", "; ".join(t["text"] for t in tune["targets"])),
            ("games per candidate", " → ".join(f"{n:,}" for n in tune["games"]["rungs"])),
            ("racing rule", tune["racing"]), ("base rules", tune["rules_name"]),
            # the --set the whole tune was run with: part of the fix (s37 #2)
            ("also set (every candidate)", ", ".join(tune.get("settings") or []) or "nothing")]
    if measured := _tune_measured_on(tune_dir, game):
        rows.append(("measured on", measured))
    if result is not None:
        rows[:0] = [
            ("best settings", best_changes(tune, result) + (
                f"; with --set {', '.join(tune['settings'])} (held for the whole tune)"
                if tune.get("settings") else "")),
            ("played with", played_with(tune_dir, tune, result)),
            # a missed target: the file holds the closest candidate's rules, no fix (review M #12)
            ("closest candidate's rules file (not a fix)" if confirmed_outcome(result) == "missed"
             else "best rules file", str(tune_dir / "best_rules.toml")),
            ("confirmation", f"{result['confirm']['games']:,} fresh games "
                             f"({short_seed(result['confirm']['seed'])}; the search used "
                             f"{short_seed(tune['seed'])})"),
            ("trials", f"{result['trials']} ({result['games_played_in_search']:,} games in the search)"),
        ]
        if limits:
            rows.insert(4, ("confirmation games at the turn limit", turn_limit_text(limits)))
    conf = confirm_table(result, tune_dir, game) if result is not None else pl.DataFrame()
    conf_rows = conf.height > 0
    attempts = (result or {}).get("confirmations") or []
    family = next((p.get("intervals") for p in ((result or {}).get("confirm") or {}).get("targets") or []
                   if p.get("intervals")), None)
    binding = ((result or {}).get("confirm") or {}).get("binding") or []
    whose = (f" of the cell furthest from the target, {binding[0]} (every cell: the next table)"
             if len(((result or {}).get("confirm") or {}).get("cells") or []) > 1 and binding else "")
    # the target's verdict once, above the rows that decide it (review fx04 #1)
    said = "; ".join(f"target {v}" for v in confirm_verdicts(result, tune_dir, game)) if conf_rows else ""
    conf_tables = [(f"Confirmation{whose}" + (f" — {said}" if said else ""), conf)] if conf_rows else []
    if len(attempts) > 1:        # a candidate not confirmed on fresh games was set aside
        conf_tables.append(attempts_table(attempts))
    secs.append(Section("verdict", "Verdict", "The best candidate of the search, played again on fresh "
                        f"games ({family or '95% intervals'}). Each row is one metric's own: 'Interval inside "
                        "the band' says yes, partly (it straddles an edge of the band) or no (wholly "
                        "outside it). A target is met when every one of its intervals lies inside the "
                        "band, not met when one lies wholly outside it, unclear when none does but one "
                        "straddles its edge (these games cannot tell; more would): the table's title "
                        "states each target's verdict once, with the rows that decide it.",
                        sentences=verdict,
                        tables=conf_tables))
    cells = ((result or {}).get("confirm") or {}).get("cells") or []
    not_read = [c for c in (result or {}).get("not_read") or [] if isinstance(c, dict)]
    if len(cells) + len(not_read) > 1:
        secs.append(cells_section(cells, game, not_read))
    secs += seat_sections(tune, result, trials, game, smallest)
    cands = met_candidates(trials, tune)
    if cands.height:
        secs.append(Section(
            "candidates", "Every candidate that met the targets",
            "The trials that met every target on the full search budget, fewest setting changes from "
            "the base rules first, then the smallest change ('Relative size': the sum of each change "
            "as a fraction of its range searched, so that settings of different scales add up), "
            "then the objective. Only the best was confirmed on fresh games: confirm "
            "another with simulate --set … before adopting it.",
            sentences=[f"{cands.height} candidate{'s' if cands.height != 1 else ''} met the targets; the "
                       f"smallest change: {cands['Settings changed'][0]} (trial {cands['Trial'][0]})"
                       f"{'' if cands['Settings changed'][0].startswith('(none') else held_words(tune)}."],
            tables=[("Candidates that met the targets", cands)]))
    elif trials.height:
        none = "No trial met every target on the full search budget."
        if result is not None and not (result.get("search") or {}).get("met"):
            none += (f" The verdict's candidate, trial {result['best_trial']}, is the best trial, "
                     "confirmed on fresh games all the same (the verdict; docs/sweep.md).")
        secs.append(Section("candidates", "Every candidate that met the targets",
                            sentences=[none]))
    if trials.height:
        cap = (f"{_metric_name(metric, game)} of every trial; the band is the target" if metric else
               "The objective of every trial (0 = on target, 1 = at the tolerance)")
        secs.append(Section("search", "The search", search_caption(trials, metric, tune),
                            figs.add("search", FS.search(trials, metric, _metric_name(metric, game)
                                                         if metric else "", aim), cap)))
        eff = setting_effects(trials, tune, metric, smallest) if metric else pl.DataFrame()
        if mixed:
            secs.append(Section(
                "effects", "What each setting does to the target",
                sentences=[f"Not fitted over a panel: each trial's shares are those of its worst cell, "
                           f"and the trials that played the full budget have {len(mixed)} different "
                           f"worst cells ({', '.join(mixed)}), so a fit across trials would mix line-ups "
                           "and player counts. balance sweep --panel measures what each setting does "
                           "in every cell."]))
        elif not eff.height:
            secs.append(Section("effects", "What each setting does to the target",
                                sentences=[why_not_fitted(trials, tune, metric)]))
        if eff.height:
            in_cell = f" in {only_cell}" if only_cell else ""
            lines = [f"Moving {r['parameter']} from {r['from']} to {r['to']} moves "
                     f"{_metric_name(metric, game).rsplit(' (', 1)[0]}{in_cell} by {_signed1(r['effect'])} {r['unit']} "
                     f"({_signed1(r['low'])} to {_signed1(r['high'])}): {verdict_words(r['verdict'])}"
                     for r in eff.iter_rows(named=True)]
            lines.append(f"Intervals simultaneous over the {eff.height} setting(s) (Bonferroni); "
                         f"{eff['smallest'][0]:g} {eff['unit'][0]} is the smallest difference that "
                         "matters (--smallest-difference).")
            if eff.height > 1:
                # (review s48 tune #1: "+61.8 pp" for a start square whose effect was +44 pp at one
                # goal and +1.3 pp at another: settings that act together)
                lines.append("Each line is one straight line per setting, the others' effects "
                             "added: where settings act together (one's effect depends on "
                             "another's value) an effect here is an average over the trials' "
                             "other values and can be far from what the game does with the others "
                             "held fixed; simulate a change before relying on its size.")
            if "beyond" in eff.columns and eff["beyond"].cast(pl.Boolean).any():
                far = ", ".join(eff.filter(pl.col("beyond"))["parameter"].to_list())
                lines.append(f"The line for {far} moves the share by more than 100 pp, more than "
                             "any share can move: it does not fit these trials, so read its "
                             "size as the direction alone.")
            secs.append(Section(
                "effects", "What each setting does to the target",
                "A linear fit of the target metric on the settings over the trials that played the full "
                "budget, each effect over the values those trials played (from their lowest to their "
                "highest, not the range searched beyond them): those trials play the same games (the "
                "search's seed), so their differences "
                "are paired and the deal's noise cancels; intervals from the fit, simultaneous over the "
                "settings; each effect worded by the smallest difference that matters. This replaces "
                "Optuna's importance ranking, which a dozen trials cannot estimate (importance.csv "
                "keeps it).",
                figs.add("effects", FS.effects(eff, _metric_name(metric, game)),
                         "What moving each setting across the values its fitted trials played does "
                         "to the target metric."),
                sentences=lines))
        secs.append(Section("trials", "Every trial",
                            f"Win shares in %, game length in {length_unit(game)}; the objective is the "
                            "distance from "
                            "the target in units of its tolerance (0 = on target, 1 = at the "
                            "tolerance); 'Target on the search's games': met (every interval inside "
                            "the tolerance), not met (one wholly outside it) or unclear (one straddles "
                            "its edge: these games cannot tell), for a trial played to the last rung"
                            + ("; over a panel, the objective and the shares are the "
                               "trial's worst cell's (named in its column), and " + worst_interval_words(tune)
                               if "worst_cell" in trials.columns else "") + ".", tables=[("Trials", _trial_table(trials, tune, game))],
                            sentences=_trial_notes(trials)))
    return _publish(Path(out), force, title, _meta(rows), secs, figs, pdf, lead=verdict, svg=svg)


def search_caption(trials: pl.DataFrame, metric: str | None, tune: dict | None = None) -> str:
    """What the search figure draws (:func:`reports.figures.sweep.search_points`), true of it
    (review D #6: "hollow: dropped early" beside a figure that drew no dropped trial): where a
    dropped trial is drawn, and which trials are not drawn."""
    drawn = FS.search_points(trials, metric)
    shown = set(drawn["trial"].to_list()) if drawn.height else set()
    pruned = trials.filter(pl.col("state") == "pruned")["trial"].to_list()
    text = "Filled: played to the last rung"
    if pruned:
        text += ("; hollow: dropped early by the racing rule, "
                 + ("at the low end of its objective's interval when it was dropped (its objective is at least that, at "
                    + ("less than 95% over the cells: the trials' table says why" if tune and old_panel_intervals(tune)
                       else "95%") + "; the arrow points up)" if drawn.height and drawn["at_least"].any() else
                    "at its value on the games it played before it was dropped"))
    text += "; marker size: games played."
    missing = [t for t in trials.filter(pl.col("state") != "duplicate")["trial"].to_list() if t not in shown]
    if missing:
        text += (f" Not drawn (nothing known of {'it' if len(missing) == 1 else 'them'} on this axis): "
                 f"trial{'s' if len(missing) > 1 else ''} {', '.join(str(t) for t in missing)}.")
    dups = trials.filter(pl.col("state") == "duplicate")["trial"].to_list()
    if dups:
        text += (f" A duplicate (the same settings as an earlier trial, no games of its own) is not "
                 f"drawn: trial{'s' if len(dups) > 1 else ''} {', '.join(str(t) for t in dups)}.")
    return text


def adopt_advice(tune: dict, result: dict) -> list[str]:
    """The sentence after the verdict that says whom the fix was tuned with and what to run before
    adopting it (revE #8: a fix tuned on the line-up's own bots can fail once play is stronger):
    the balance skill commands balance tune printed, for a game with a search bot; when the target
    was missed, that there is no fix to adopt (:func:`analysis.tune.advice.adopt_advice`)."""
    from analysis.tune.advice import adopt_advice as advice

    spec = registry.specs().get(tune.get("game", ""))
    bots = spec is not None and spec.strategies is not None and spec.default_strategy is not None
    # a missed target: no fix to adopt, the closest candidate and how far (review L #7)
    return advice(result, has_search_bot=bots, targets=tune.get("targets"), varies=tune.get("varies"),
                  tune=tune)


def seat_sections(tune: dict, result: dict | None, trials: pl.DataFrame, game: str,
                  smallest: dict | None = None) -> list[Section]:
    """Two sections for a seat-balance tune (revE #7): 'How each seat responds' (every seat's win
    share under the start rules and the tuned ones on the confirmation's fresh games, paired, with
    the change worded by size) and 'Settings as good as the best' (:func:`as_good_section`: a range
    of settings that work, not one point). ``smallest`` (by kind: the report's
    ``--smallest-difference``) re-words the changes, on result.json's intervals, against the amounts
    it gives instead of those the tune wrote them with (session 56 review #1)."""
    out = []
    kinds = [t.get("kind") for t in tune.get("targets") or []]
    start = (result or {}).get("start")
    cells = (result or {}).get("start_cells")
    if smallest and "share" in smallest and start and start.get("seats"):
        start = reworded_seats(start, smallest["share"])
    if smallest and cells and cells.get("cells"):
        cells = reworded_cells(cells, smallest)
    if is_start_rules(tune, result):
        # the start rules against themselves, on the same games, is no response: every change 0
        # with an interval of zero width (review M #12)
        panel = len(((result or {}).get("confirm") or {}).get("cells") or []) > 1
        words = (start or {}).get("rules") or ("the base rules" + (
            f" with {', '.join(tune['settings'])}" if tune.get("settings") else ""))
        settings = ", ".join(settings_named(result.get("settings"), tune))
        out.append(Section(
            "cell-response" if panel else "seats", "How each cell responds" if panel else "How each seat responds",
            sentences=[f"The best candidate, trial {result.get('best_trial')} ({settings}), is the "
                       f"start rules ({words}): every setting it tunes is at the value the tune "
                       "started from, so there is no change from the start rules to show; the "
                       "confirmation above gives the start rules' own "
                       + ("figures in every cell." if panel else "win shares.")]))
        start = cells = None
    if start and start.get("seats"):
        rows, lines = [], []
        small = 100 * float(start.get("smallest", 0.01))
        # printed as the before/after prints a change (revF #1): with the decimals at which tuned −
        # start as printed is the change rounded (26.25 − 20.1 is not "+6.2"), one precision for
        # every seat (one sentence, one table column: 20.372% beside 24.7% read as two kinds)
        ms = [{"metric": "seat_win_share", "kind": "proportion", "base": r["start"],
               "variant": r["tuned"], "diff": r["change"]} for r in start["seats"]]
        d = common_digits(ms)
        # each seat with its role in a game of roles (review Y #13: "seat 1 0.57% → 32.18%" without
        # a word that seat 1 is the Seigneur, the one seat the target was about)
        from reports.games import spec_for

        spec = spec_for(str(tune.get("game")))
        players = len(start["seats"])
        role_of = ({i + 1: spec.role_display(n) for i, n in enumerate(spec.seat_roles(players))}
                   if spec is not None and not spec.roles_alike else {})

        def seat_words(k) -> str:
            return f"seat {k}" + (f" ({role_of[int(k)]})" if int(k) in role_of else "")

        for r, m in zip(start["seats"], ms):
            before, after = (metric_value(r[k], "seat_win_share", "proportion", d) for k in ("start", "tuned"))
            # the ends with the decimals at which each shows its side of 0 and of the smallest
            # difference that matters, as the before/after prints them (review s51: "+1.2 pp (+1.0
            # to +1.3): clear, may matter" for a low end of +0.9897, "(−1.5 to 0.0): clear")
            di = interval_digits({**m, "smallest": small / 100}, r["low"], r["high"], d)
            change = _minus(f"{100 * shown_change(m, d):+.{d}f} pp ({100 * r['low']:+.{di}f} to "
                            f"{100 * r['high']:+.{di}f})")
            rows.append({"Seat": seat_words(r["seat"])[5:] if role_of else r["seat"], "Start rules": before,
                         "Tuned rules": after, "Change (95%, simultaneous)": change,
                         "Words": verdict_words(r["verdict"])})
            # a seat no game moves: its interval is the games' bound, said as the before/after says it
            unmoved = (f" (no game of the {int(r['same_games']):,} differs for it: the games bound its "
                       f"change at {bound_pp(max(abs(r['low']), abs(r['high'])))} pp either way)"
                       if r.get("same_games") else "")
            lines.append(f"{seat_words(r['seat'])} {before} → {after}, {change}{unmoved}: "
                         f"{verdict_words(r['verdict'])}")
        out.append(Section(
            "seats", "How each seat responds",
            f"Every seat's win share under {start.get('rules', 'the start rules')} and under the tuned "
            f"rules, both on the confirmation's {start['games']:,} fresh games (the same deals, so the "
            "change is measured game by game); the changes' intervals hold together over the seats "
            f"at 95%, worded against the {small:g} pp that matters.",
            sentences=["From the start rules to the tuned ones: " + "; ".join(lines) + "."],
            tables=[("Each seat, start rules → tuned rules", pl.DataFrame(rows))]))
    if cells and cells.get("cells"):
        # the candidate that missed is not a fix (review s48 tune #8: "The fix moved …" under a
        # header that said "not a fix")
        fix = result is None or confirmed_outcome(result) != "missed"
        out.append(cell_response_section(cells, game, "The fix" if fix else "The closest candidate"))
    if "seat-balance" in kinds and result is not None and trials.height and "low" in trials.columns:
        out += as_good_section(tune, result, trials, game)
    return out


def _response_words(col: str, game: str) -> str:
    """A target metric as a sentence names it: "the Seigneur side's win share", "seat 2's win
    share", "balanced's win share", "the mean game length"."""
    name = _metric_name(col, game).rsplit(" (", 1)[0]
    if col.startswith("role_win_share_"):
        return "the " + name.replace(" side win share", " side's win share")
    if col.startswith("seat_win_share_"):
        return name.replace(" win share", "'s win share")
    if col.startswith("strategy_win_share_"):
        return name.replace(" win share", "'s win share")
    return "the mean game length" if col == "game_length" else name


def response_row(m: dict, label: str = "", games: int | None = None) -> dict:
    """A metric of result.json ``start_cells`` (:func:`analysis.tune.advice.cell_response`) as a row
    of a panel before/after (:mod:`analysis.panel_compare`): start → before, tuned → after, Holm's
    ``clear`` → ``significant``, and no verdict for a metric the same in every game (not tested),
    so that :mod:`reports.panel_rows` prints it as ``balance report START_PANEL TUNED_PANEL`` does."""
    tested = m.get("size_low") is not None and m.get("size_high") is not None
    return {"cell": label, "metric": "seat_win_share", "before": m["start"], "after": m["tuned"],
            "diff": m["change"], "size_low": m.get("size_low"), "size_high": m.get("size_high"),
            "significant": bool(m.get("clear")), "verdict": m.get("verdict") if tested else None,
            "games_before": games, "games_after": games}


def _response_texts(start_cells: dict, game: str | None = None) -> dict:
    """Per (cell index, metric): the start and tuned values, the change and its interval over the
    family as the page prints them. A share prints as the panel before/after of the same runs
    prints it (``balance report TUNE/confirmations/start-rules TUNE/confirmations/trial-N``, whose
    figures docs/sweep.md says these are), by the same functions (:mod:`reports.panel_rows`): the
    levels and the change at the row's decimals, the interval at those at which no end prints on the
    wrong side of 0 or of the smallest difference, and a clear change's interval cut at 0 where Holm
    shows its sign but that wider (Bonferroni) interval still holds 0 (review s59 fx229 #1: "+1.38
    pp (−0.14 to +2.90), clear" here beside "+1.38 pp (0.0 to +2.9 pp)" there). A length (which that
    page compares in its own family) prints at one precision for every length, the decimals at
    which tuned − start as printed is the change rounded, its interval cut at 0 by the same rule."""
    rows = [(c["cell"], c.get("label", ""), m) for c in start_cells["cells"] for m in c["metrics"]]
    games = start_cells.get("games")

    def as_metric(m):
        return {"metric": "mean_turns", "kind": "mean", "base": m["start"], "variant": m["tuned"],
                "diff": m["change"]}

    d = common_digits([as_metric(m) for _, _, m in rows if not _is_share(m["metric"])]) \
        if any(not _is_share(m["metric"]) for _, _, m in rows) else 1
    own = start_cells.get("smallest")
    share_small = float(own.get("share", 0.01) if isinstance(own, dict) else own if own is not None else 0.01)
    out = {}
    for k, label, m in rows:
        row = response_row(m, label, int(games) if games else None)
        if _is_share(m["metric"]):
            # (a metric stored without its own smallest difference: the tune's for shares)
            small = float(m["smallest"]) if m.get("smallest") is not None else share_small
            level, _, change = panel_rows.row_print(row, small)
            before, after = (panel_rows.share_at(row[x], level, panel_rows.games_of(row, row[x]))
                             for x in ("before", "after"))
            if row["verdict"] is None:
                interval = "(the same in every game)" if not m.get("se") else "(no interval)"
            else:
                interval = "(" + panel_rows.change_with_interval(row, small).split(" (", 1)[1]
        else:
            unit = length_unit(game)
            before, after = (f"{rounded_value(m[x], d):.{d}f} turns" for x in ("start", "tuned"))
            change = f"{signed(shown_change(as_metric(m), d), d)} {unit}"      # 0.0, never "+0.0"
            if row["verdict"] is None:
                interval = "(the same in every game)" if not m.get("se") else "(no interval)"
            else:
                lo, hi = panel_rows.shown_range(row)
                di = verdict_digits(lo, hi, m["smallest"], 1.0, digits=d)
                interval = _minus(f"({lo:+.{di}f} to {hi:+.{di}f} {unit})")
        out[(k, m["metric"])] = {"before": before, "after": after, "change": change,
                                 "interval": interval, "words": verdict_words(m["verdict"]),
                                 "cut": row["verdict"] is not None
                                 and panel_rows.shown_range(row) != (row["size_low"], row["size_high"])}
    return out


def cell_response_sentences(start_cells: dict, game: str, subject: str = "The fix") -> list[str]:
    """The lead of 'How each cell responds' (review L #7): per target metric, in how many cells
    the fix moved it up or down (clear after the family's correction: result.json
    ``start_cells``, :func:`analysis.tune.advice.cell_response`), each such cell with start →
    tuned, the change, its interval over the family and its size in words, and the cells where it
    stayed within noise: "The fix moved the Seigneur side's win share up in 3 of 4 cells (…),
    within noise in the other (…)". A metric only some cells have (a seat of the larger tables)
    is counted over the cells that have it."""
    texts = _response_texts(start_cells, game)
    cells = start_cells["cells"]
    metrics = list(dict.fromkeys(m["metric"] for c in cells for m in c["metrics"]))
    out = []
    for col in metrics:
        have = [(c, m) for c in cells for m in c["metrics"] if m["metric"] == col]
        n = len(have)
        of = f"{n} cells" + (" that have it" if n < len(cells) else "")
        name = _response_words(col, game)

        def bit(c, m, full=True):
            t = texts[(c["cell"], col)]
            return (f"{c['label']}: {t['before']} → {t['after']}, {t['change']} {t['interval']}, "
                    f"{t['words']}") if full else c["label"]

        up = [(c, m) for c, m in have if m.get("clear") and m["change"] > 0]
        down = [(c, m) for c, m in have if m.get("clear") and m["change"] < 0]
        still = [(c, m) for c, m in have if not m.get("clear")]
        if not up and not down:
            c, m = max(have, key=lambda x: abs(x[1]["change"]))
            t = texts[(c["cell"], col)]
            out.append(f"{subject} did not move {name} beyond noise in any of the {of} (the largest "
                       f"change: {c['label']}, {t['before']} → {t['after']}, {t['change']} "
                       f"{t['interval']}).")
            continue
        parts = []
        if up and down:
            parts.append(f"up in {len(up)} and down in {len(down)} of the {of}, not one way "
                         f"(up: {'; '.join(bit(c, m) for c, m in up)}; down: "
                         f"{'; '.join(bit(c, m) for c, m in down)})")
        else:
            moved = up or down
            way = "up" if up else "down"
            k = f"all {of}" if len(moved) == n and n > 1 else f"{len(moved)} of {of}"
            parts.append(f"{way} in {k} ({'; '.join(bit(c, m) for c, m in moved)})")
        if still:
            other = "the other" if len(still) == 1 else f"the other {len(still)}"
            parts.append(f"within noise in {other} ({'; '.join(bit(c, m, False) for c, m in still)})")
        out.append(f"{subject} moved {name} " + ", ".join(parts) + ".")
    return out


def cell_response_table(start_cells: dict, game: str) -> pl.DataFrame:
    """'How each cell responds', one row per cell and target metric: start rules, tuned rules, the
    paired change with its interval over the family (Bonferroni) and its size in words."""
    texts = _response_texts(start_cells, game)
    rows = []
    for c in start_cells["cells"]:
        for m in c["metrics"]:
            t = texts[(c["cell"], m["metric"])]
            rows.append({"Cell": c["label"], "Metric": _metric_name(m["metric"], game).rsplit(" (", 1)[0],
                         "Start rules": t["before"], "Tuned rules": t["after"],
                         f"Change (interval over the family of {start_cells.get('family', 0)})":
                             f"{t['change']} {t['interval']}",
                         "Words": t["words"]})
    return pl.DataFrame(rows)


def cell_response_section(start_cells: dict, game: str, subject: str = "The fix") -> Section:
    """'How each cell responds' (review L #7): over a panel, every cell's target metrics under the
    start rules and the tuned rules on the cell's own confirmation games, paired, one family over
    every cell and metric (Holm for which changes are clear, Bonferroni intervals for their sizes;
    the page says so). result.json ``start_cells``; a tune written before has none and its page has
    no such section."""
    m = int(start_cells.get("family") or 0)
    small = start_cells.get("smallest") or {}
    share = small.get("share", 0.01) if isinstance(small, dict) else float(small)
    length = small.get("length") if isinstance(small, dict) else None
    # the amounts of the kinds its changes have, as result.json kinds them (reworded_cells): a tune
    # of a length target over a panel has no share among them (session 58: "1 pp of win share, 1
    # turns of game length" beside lengths only)
    metrics = [x["metric"] for c in start_cells["cells"] for x in c["metrics"]]
    unit = length_unit(game)
    said = [f"{100 * share:g} pp of win share"] if any("share" in m for m in metrics) else []
    if length is not None and any("share" not in m for m in metrics):
        said.append(f"{length:g} {unit.removesuffix('s') if length == 1 else unit} of game length")
    against = ", ".join(said) or f"{100 * share:g} pp of win share"
    cut = any(t["cut"] for t in _response_texts(start_cells, game).values())
    return Section(
        "cell-response", "How each cell responds",
        f"Every metric the target reads, in every cell, under {start_cells.get('rules', 'the start rules')} "
        f"(the rules the tune started from) and under the tuned rules, both on the cell's own "
        f"{start_cells['games']:,} fresh confirmation games (the same deals, so each change is "
        f"measured game by game). " + _family_words(start_cells, m) + ", on which its "
        f"size is worded against the smallest difference that matters ({against}). 'Within "
        "noise': not clear after the correction."
        + (f" As on the panel before/after of the same runs, {panel_rows.CUT_AT_ZERO}." if cut else ""),
        sentences=cell_response_sentences(start_cells, game, subject),
        tables=[("Each cell, start rules → tuned rules", cell_response_table(start_cells, game))])


def _family_words(start_cells: dict, m: int) -> str:
    """How 'How each cell responds' says its changes were judged: in the panel before/after's
    families (result.json ``start_cells.family_source``, :func:`analysis.tune.search.
    before_after_family`: review s59 rv235 #1, the same games get the same verdicts on both pages),
    or, a tune written before or a panel that before/after cannot read alike, in the tune's own
    family of the changes shown."""
    if start_cells.get("family_source") == "before/after":
        other = start_cells.get("other_family")
        return (f"Each change is judged as the panel before/after of the same runs judges it (balance "
                f"report {start_cells.get('dir', 'confirmations/start-rules')} confirmations/trial-N): a "
                f"win share in one family over the {m} comparisons of every cell and seat or side (in a "
                f"game with roles, each side and each seat's share of its role's wins), "
                + (f"the game length in one over the {other} comparisons of every cell's game length "
                   f"and end-reason shares, " if other else "")
                + "clear when Holm's step-down correction over its family says so, and the interval "
                f"shown is its Bonferroni interval over the same family (the share's at 1 − 0.05/{m})")
    return (f"The {m} changes are one family over every cell and metric: a change is clear when "
            f"Holm's step-down correction over the {m} says so, and the interval shown is its "
            f"Bonferroni interval over the same {m} (each at 1 − 0.05/{m})")


def grid_share(tune: dict, good: pl.DataFrame) -> float | None:
    """The share of the searched grid (the box of every numeric --vary range) that the box spanned
    by ``good``'s settings covers: the product over the settings of (max − min) / (hi − lo), a
    whole-number range counted in values ((max − min + 1) / (hi − lo + 1)). None when a setting is
    not numeric."""
    share = 1.0
    for v in tune["varies"]:
        if v.get("kind") not in ("int", "float") or v.get("lo") is None or v.get("hi") is None:
            return None
        x = good[v["name"]].cast(pl.Float64, strict=False)
        lo, hi, a, b = float(v["lo"]), float(v["hi"]), float(x.min()), float(x.max())
        if v["kind"] == "int":
            share *= (b - a + 1) / (hi - lo + 1)
        elif hi > lo:
            share *= (b - a) / (hi - lo)
    return share


def as_good_section(tune: dict, result: dict, trials: pl.DataFrame, game: str) -> list[Section]:
    """'Settings as good as the best' (revE #7, revF #3): the full-budget trials whose own objective
    estimate meets the target (≤ 1) and whose difference from the best is not shown worse (its 95%
    interval reaches 0), paired game by game where the tune recorded it (result.json ``as_good``),
    else unpaired from the two trials' intervals, and the table says which; every seat's share
    beside them, and the span of their settings, with the share of the searched grid it covers
    (most of it: the search does not narrow the settings down)."""
    best = int(result["best_trial"])
    good = as_good_as_best(trials, best, ((result.get("as_good") or {}).get("trials")))
    if not good.height:
        return []
    best_obj = float(good["objective"].cast(pl.Float64)[0])
    if not best_obj <= 1.0:
        # which trials these games cannot tell apart from the best (review V #3: "best settings"
        # stood on 2.67 against 2.77, their intervals overlapping, and this section listed none)
        tied = tied_trials(trials, result)
        names = [v["name"] for v in tune["varies"]]

        def settings(r) -> str:
            start = is_start_rules(tune, {"values": {n: r[n] for n in names}})
            # each per-seat setting with its seat (helper 234 #2), as the verdict names them
            return (", ".join(f"{seat_named(n, tune)} = {r[n]}" for n in names)
                    + (" (the start rules)" if start else ""))

        listed = "; ".join(
            f"trial {int(r['trial'])}, {settings(r)}: {objective_text(float(r['objective']))} "
            f"({objective_text(float(r['low']))} to {objective_text(float(r['high']))})"
            for r in tied.head(5).iter_rows(named=True))
        more = f"; and {tied.height - 5} more" if tied.height > 5 else ""
        whose = "each one's" if tied.height != 1 else "its"
        besides = (f" {tied.height} other trial{'s are' if tied.height != 1 else ' is'} not shown worse than "
                   f"it (the 95% interval of {whose} difference from the "
                   f"best's objective reaches 0): {listed}{more}; these games cannot tell the best from "
                   f"{'them' if tied.height != 1 else 'it'}, and {'none of them meets' if tied.height != 1 else 'it does not meet'} "
                   f"the target either: settings that may do as well as the best, not fixes."
                   # (review X #2: read as settings to adopt beside a trial table marking them not met)
                   if tied.height else
                   " Every other full-budget trial is shown worse than it.")
        best_row = trials.filter(pl.col("trial") == best).row(0, named=True)
        return [Section("as-good", "Settings as good as the best", sentences=[
            f"No trial's own estimate meets the target on the search's games: the best, trial {best}, "
            f"has objective {objective_text(best_obj)} ({objective_text(float(best_row['low']))} to "
            f"{objective_text(float(best_row['high']))}; above 1, the tolerance), so no setting is shown "
            f"to meet it; the verdict's confirmation tells.{besides}"
            + (f" Every trial was played with --set {', '.join(tune['settings'])}." if tune.get("settings") else "")])]
    names = [v["name"] for v in tune["varies"]]
    base = start_settings(tune)
    named = {}
    for n in names:
        k = seat_of(n, base.get(re.sub(r"\[\d+\]$", "", n)), tune.get("game"))
        named[n] = f"{n} (seat {k + 1}'s)" if k is not None else n
    seats = sorted((c for c in good.columns if c.startswith("seat_win_share_")),
                   key=lambda c: int(c.rsplit("_", 1)[1]))
    n_targets = len(tune.get("targets") or ())

    def f2(x) -> str:
        return objective_text(x)

    def how(r):
        # the start rules' row said so, as the verdict says it (review s52 tune opinion)
        start = (" (the start rules)" if is_start_rules(tune, {"values": {n: r[n] for n in names}})
                 else "")
        if r["trial"] == best:
            return "the best" + start
        return ("paired" if r["paired"] else "unpaired") + start

    rows = list(good.iter_rows(named=True))
    table = good.select(
        pl.col("trial").alias("Trial"), *[pl.col(n).alias(named[n]) for n in names],
        *_trial_cells(seats, game),
    ).with_columns(
        pl.Series("Objective", [f2(r["objective"]) for r in rows]),
        pl.Series(_interval_label(tune)[:1].upper() + _interval_label(tune)[1:],
                  [f"{f2(r['low'])} to {f2(r['high'])}" for r in rows]),
        pl.Series("Objective − the best's (95%)", [
            "—" if r["trial"] == best else
            _minus(f"{r['difference']:+.2f} ({r['diff_low']:+.2f} to {r['diff_high']:+.2f})") for r in rows]),
        pl.Series("Difference", [how(r) for r in rows]),
        pl.Series("Target on the search's games",
                  [OUTCOME_WORDS.get(w, w) for w in (trial_outcome(r, n_targets) for r in rows)]))
    others = good.height - 1
    unpaired = int((~good["paired"].fill_null(False)).sum())
    if others:
        spans = "; ".join(f"{n} {good[n].min()} to {good[n].max()}" for n in names)
        said = (f"{others} other trial{'s have their' if others != 1 else ' has its'} own estimate within "
                f"the target and {'are' if others != 1 else 'is'} not shown worse than the best; with "
                f"the best, their settings span {spans}.")
        share = grid_share(tune, good)
        if share is not None and share >= 0.5:
            said += (f" That span covers {100 * share:.0f}% of the searched grid: the search's games "
                     "do not narrow these settings down much.")
    else:
        said = ("No other trial played to the last rung has its own estimate within the target and is "
                "not shown worse than the best.")
    paired_words = ("the difference from the best is paired game by game on the search's games (every "
                    "full-budget trial plays the same games), 95% per trial")
    if unpaired:
        paired_words += ("; where the column 'Difference' says unpaired (a trial the tune did not "
                         "record paired, as after a resume, or a result.json written before), it is "
                         "the difference of the two trials' own 95% intervals, wider")
    return [Section(
        "as-good", "Settings as good as the best",
        "The trials played to the last rung whose own objective estimate meets the target (1 or "
        f"less: every seat within the tolerance) and whose objective is not shown worse than the best's "
        f"(trial {best}, first): the interval of the difference reaches 0. {paired_words[0].upper()}"
        f"{paired_words[1:]}. Settings that may work as well; confirm one with simulate --set … "
        "before adopting it.",
        sentences=[said.removesuffix(".") + held_words(tune) + "."],
        tables=[("Trials as good as the best", table)])]


def worst_cells(trials: pl.DataFrame) -> tuple[list[str], str | None]:
    """The worst cells of a panel tune's full-budget trials: (the cells, when there are several;
    the one cell, when every such trial has the same). A tune of one line-up: ([], None)."""
    if trials.height == 0 or "worst_cell" not in trials.columns:
        return [], None
    full = trials["games"].cast(pl.Int64, strict=False).max()
    cells = [c for c in dict.fromkeys(trials.filter(pl.col("games").cast(pl.Int64, strict=False) == full)
                                      ["worst_cell"].to_list()) if c not in (None, "")]
    return (cells, None) if len(cells) > 1 else ([], cells[0] if cells else None)


def _aim(t: dict):
    if t["kind"] == "role":
        return (100 * (t["aim"] - t["tol"]), 100 * (t["aim"] + t["tol"]))
    if t["kind"] == "length":
        return (t["lo"], t["hi"])
    return None


def _clean_sentence(text: str) -> str:
    """A tune's verdict as a headline: no long seed, one Seigneur's share in the singular."""
    text = re.sub(r" \(seed \d{7,}\)", "", text)
    return re.sub(r"the (\w+)s' win share", lambda m: f"the {m.group(1).title()} side's win share", text)


def trial_cell(x: pl.Expr, metric: str, mirror: pl.Expr | None = None) -> pl.Expr:
    """A trial's metric as both tables of the tune page print it (review L #10: "25.9" in one,
    "26" in the other): a win share in % with one decimal (:func:`reports.text.pct`), a game
    length with one decimal, as text, so no table drops a trailing zero or rounds another way;
    a missing value stays missing (printed empty). ``mirror``: the column printed before this
    one of a pair that shares every win (two sides, two seats: :func:`mirror_columns`); in a row
    where the two add up to 1 this one prints as 100 − that one's printed share, so the pair
    reads 100.0% as printed (review D #14: 4.15% and 95.85% each rounded half up printed
    4.2 + 95.9)."""
    if _is_share(metric):
        f = pct
    else:
        def f(v):
            return f"{v:.1f}"
    if mirror is not None and _is_share(metric):
        def g(r):
            v, m = r["v"], r["m"]
            if v is None or v != v:
                return None
            if m is not None and m == m and abs(v + m - 1.0) < 1e-9:
                return f"{100.0 - float(pct(m)):.1f}"
            return pct(v)
        return pl.struct(x.cast(pl.Float64, strict=False).alias("v"),
                         mirror.cast(pl.Float64, strict=False).alias("m")).map_elements(
            g, return_dtype=pl.String)
    return x.cast(pl.Float64, strict=False).map_elements(
        lambda v: None if v != v else f(v), return_dtype=pl.String, skip_nulls=True)


def mirror_columns(cols: list[str]) -> dict[str, str]:
    """The second column → the first of each kind of win share with exactly two columns (two
    sides, two seats, two strategies), in ``cols``' order: the pairs whose shares may add up to
    1, printed by :func:`trial_cell` so they do as printed."""
    out = {}
    for prefix in ("role_win_share_", "seat_win_share_", "strategy_win_share_"):
        pair = [c for c in cols if c.startswith(prefix)]
        if len(pair) == 2:
            out[pair[1]] = pair[0]
    return out


def _trial_cells(cols: list[str], game: str) -> list[pl.Expr]:
    """The trial metrics ``cols`` as the tune page's tables print them (:func:`trial_cell`, a
    mirror pair adding up to 100.0 as printed), named in words."""
    mirrors = mirror_columns(cols)
    return [trial_cell(pl.col(c), c, pl.col(mirrors[c]) if c in mirrors else None).alias(_metric_name(c, game))
            for c in cols]


def attempts_table(attempts: list[dict]) -> tuple[str, pl.DataFrame]:
    """The tune page's "Every confirmation attempt" table and its title (review s62 #3): each
    attempt's outcome in the verdict's three words (met, unclear: its games cannot tell, missed;
    an attempt recorded before the outcome was kept reads "not met") and the level its interval was
    read at; the title says how the attempts hold together (each at 1 − 0.05/5, Bonferroni, so a
    met on the k-th holds at 95%), or that they were read at 95% each (a tune of an earlier
    version: its confirmation attempts together hold at less)."""
    from analysis.tune.targets import MAX_CONFIRMATIONS, level_text

    levels = [a.get("level") for a in attempts]
    rows = []
    for i, a in enumerate(attempts):
        said = a.get("outcome") or ("met" if a.get("met") else "not met")
        rows.append({"Attempt": i + 1, "Trial": a["trial"],
                     "Seed": short_seed(a["seed"]).removeprefix("seed "),
                     "Objective": objective_text(a["objective"]),
                     "Interval": f"{objective_text(a['low'])} to {objective_text(a['high'])}",
                     "Level": level_text(a["level"]) if a.get("level") else "95%",
                     "Outcome": said})
    if all(levels) and len(set(levels)) == 1 and levels[0] > 0.95:
        how = (f"each read at {level_text(levels[0])}, 1 − 0.05/{MAX_CONFIRMATIONS} (Bonferroni over "
               f"the {MAX_CONFIRMATIONS} attempts the search may make), so the verdict holds at 95% "
               "whichever attempt gives it")
    else:
        how = ("read at the level beside each (a tune begun before attempts were read at "
               f"1 − 0.05/{MAX_CONFIRMATIONS}: attempts at 95% each hold together at less than 95%)")
    title = (f"Every confirmation attempt (the verdict is the last of {len(attempts)}; a candidate "
             "not shown to meet the target on fresh games, unclear or missed, was set aside and the "
             f"search went on; {how})")
    return title, pl.DataFrame(rows)


def old_panel_intervals(tune: dict) -> bool:
    """Whether a panel tune's worst-cell intervals were built from its cells' own 95% intervals (a
    tune begun before session 59, whose tune.json has no ``panel_intervals``): they hold the worst
    cell's objective less often than 95% (review s59 fx229 #3: 0.90 over 4 cells, 0.73 over 12),
    so its page does not call them 95% intervals."""
    panel = tune.get("panel") or {}
    cells = panel.get("cells") if isinstance(panel, dict) else None
    return bool(cells) and len(cells) > 1 and tune.get("panel_intervals") != "bonferroni"


def worst_interval_words(tune: dict) -> str:
    """What a panel tune's objective interval is, as its trial table's intro says it."""
    if old_panel_intervals(tune):
        return ("the objective's interval runs from the largest of the cells' own 95% low ends to the "
                "largest of their high ends (a tune begun before session 59: it holds the worst "
                "cell's objective less often than 95%, about 90% of the time over 4 cells at the same "
                "distance from the target, 73% over 12; a tune run now widens each cell's to "
                "1 − 0.05/cells)")
    return ("the objective's 95% interval runs from the largest low end to the largest high end of the "
            "cells' intervals, each at 1 − 0.05/cells (Bonferroni), so that it holds the worst cell's "
            "objective at 95%")


def _interval_label(tune: dict) -> str:
    """The heading of a trial's objective interval: "95% interval", or, for a panel tune whose
    worst-cell intervals hold less than that (:func:`old_panel_intervals`), "interval (under 95%)"."""
    return "interval (under 95% over the cells)" if old_panel_intervals(tune) else "95% interval"


def _trial_table(trials: pl.DataFrame, tune: dict, game: str) -> pl.DataFrame:
    names = [v["name"] for v in tune["varies"]]
    metrics = [c for c in trials.columns if c.startswith(("role_win_share_", "seat_win_share_",
                                                          "strategy_win_share_")) or c == "game_length"]
    # a per-seat setting named with its seat, as the table above it; the racing rule's word for a
    # trial it stopped, as the prose and the figure say it (review K #9: "pruned", Optuna's)
    named = seat_names(tune)
    states = {"pruned": "dropped (racing rule)", "complete": "played to the last rung"}
    cols = [pl.col("trial").alias("Trial"),
            pl.col("state").replace(states).alias("State"),
            *[pl.col(n).alias(named.get(n, n)) for n in names], pl.col("games").alias("Games")]
    if "worst_cell" in trials.columns:       # a panel: the shares that follow are this cell's
        cols.append(pl.col("worst_cell").alias("Worst cell (its shares shown)"))
    cols += _trial_cells(metrics, game)
    n_targets = len(tune.get("targets") or ())
    said = [OUTCOME_WORDS.get(w, w) for w in (trial_outcome(r, n_targets) for r in trials.iter_rows(named=True))]
    # printed as every other objective of the page (review M #12: 4.775 read 4.78 here, 4.77 in
    # the verdict): :func:`analysis.tune.advice.objective_text`
    # (as text: a float column printed 1.70 as "1.7" and 3.00 as "3", beside "3.00 to 3.00",
    # review s48 tune #6)
    cols += [pl.col("objective").cast(pl.Float64, strict=False).map_elements(
        lambda v: None if v != v else objective_text(v), return_dtype=pl.String,
        skip_nulls=True).alias("Objective")]
    out = trials.select(cols)
    if "low" in trials.columns and "high" in trials.columns:
        # its 95% interval beside it (review V #3: "best settings 3 → 6" stood on 2.67 against 2.77,
        # whose intervals, 1.93-3.42 and 1.94-3.61, the page did not show)
        def interval(lo, hi):
            try:
                lo, hi = float(lo), float(hi)
            except (TypeError, ValueError):
                return ""
            return "" if lo != lo or hi != hi else f"{objective_text(lo)} to {objective_text(hi)}"

        out = out.with_columns(pl.Series(f"Objective's {_interval_label(tune)}",
                                         [interval(lo, hi) for lo, hi in zip(trials["low"], trials["high"])],
                                         pl.String))
    return out.with_columns(pl.Series("Target on the search's games", said, pl.String))


def _trial_notes(trials: pl.DataFrame) -> list[str]:
    if "note" not in trials.columns:
        return []
    return [f"Trial {r['trial']}: {r['note']}" for r in trials.iter_rows(named=True)
            if r["note"] not in (None, "")]
