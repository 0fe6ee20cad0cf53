"""Médiévallons report sections (the game's report hook): guild types and the played balance questions.

Found through the Médiévallons spec (``report_hooks``). :func:`headlines` adds the best and worst
guild type for its founders; :func:`sections` adds, after game length, the "Guild types" section
(``guild_types`` table of :func:`analysis.analyse`, MV-4) and, when the report is given a questions
directory (:mod:`reports.questions`), the "Balance questions" section (its heading says whether
they were played for this report or read from a directory, :func:`title`): what the run cannot answer
(first-player advantage at other player counts, MV-2; the card ablation, MV-1 deck; the 2-player
best of 3, MV-7), read from the tables :mod:`analysis.questions.medievallons` wrote. Rates of those
tables carry standard errors; the report shows rates with 95% Wilson intervals over their games,
matches or founders, and changes as ±1.96 SE. That section's first sentence (:func:`question_lead`)
also leads the page's headline findings (:data:`QUESTION_HEADLINES`): the first-player advantage at
the player counts the run did not play, and the rules the questions were played with (the baseline
run's only, :func:`played_rules`; a before/after plays its variant's own in a section of its own,
which the intro names, :func:`compared_words`).
:func:`question_files` is what the report directory keeps of them (``questions/*.csv`` and
``questions/settings.json``); :func:`comparison_figures` adds the guild before/after figure;
:func:`printed_summary` is what ``balance questions`` prints (:mod:`cli.questions`), in the same
words; :func:`check_questions` refuses a questions directory played for another run (player count,
run), after :func:`reports.questions.check_matches` (game, rules).
Reading only: this module never plays a game (``balance report`` plays the questions before it
builds the report, see :mod:`cli.report`).

May import numpy, polars, the standard library, :mod:`analysis` (stats, card names, types),
:mod:`simcore.errors`, :mod:`simcore.numbers` (a difference printed as the difference of its printed
values: :func:`simcore.numbers.printed_difference`), :mod:`reports.text`, :mod:`reports.sections` and
:mod:`reports.figures.medievallons`.
"""

from __future__ import annotations

import json
import unicodedata
from typing import Sequence

import numpy as np
import polars as pl

from analysis import stats
from analysis.guilds import (ABLATION_MIN_FOUNDED, MIN_COUNT, NOT_IN_DECK, RANK_FOUNDERS, RANK_SHARE,
                             ablation_tested, family_verdicts, not_in_deck, ranked)
from analysis.load import RunSet, smallest_difference
from simcore.errors import UsageError
from reports.figures import medievallons as F
from reports.sections import FigureSet, Section, pct_column
from reports.text import (best_and_worst, common_digits, difference_pp, gap_beside, metric_digits, metric_value, num,
                          pct, pct_ci, pp, pp_ci, pvalue, room_for_a_swing, row_pct_ci, shares_and_gap, shown_change,
                          run_fair, seat_digits, seats_fair, signed, size_range, verdict_digits, verdict_words)
from simcore import numbers

card_name = F.card_name          # the spec's name of a card type

SECTIONS_AFTER = "length"
QUESTIONS = "balance questions RUN --out DIR"
SECTION_ID = "questions"
TITLE = "Balance questions (played for this report)"      # the section's title when the report played them


def where_from(q) -> str:
    """Where a report's questions come from, in the words of its heading and its tables' From
    column: "played for this report" when ``balance report`` played them, else "read from mv-q"
    (the ``--questions DIR`` it was given; review D #4: the heading said "played for this report"
    beside "Read from mv-q")."""
    return "played for this report" if q.played_here else f"read from {q.path}"


def title(q) -> str:
    """The section's heading (in the page's contents too): "Balance questions (read from mv-q)"
    for questions read from a directory, :data:`TITLE` for those played for this report."""
    return f"Balance questions ({where_from(q)})"
SHOWN = ("first_player", "card_types", "best_of_three")     # the question tables a report shows
_Z = stats.z_quantile()
SMALLEST_SHARE = 0.01     # 1 pp unless --smallest-difference says otherwise
GAME = "medievallons"
# the section whose first sentence also leads the page's headline findings (reports.sections): a
# played question's clear answer at another player count than the run's (question_lead)
QUESTION_HEADLINES = (SECTION_ID,)
BOOK_PLAYERS = 2          # MV-1 (configs/medievallons/rules.toml): the rulebook names 2-player play only


# ---------------------------------------------------------------------------------------------
# Guild types (from the run)
# ---------------------------------------------------------------------------------------------

def guild_rows_for_headlines(t: dict) -> pl.DataFrame:
    """Guild types founded often enough to rank (≥ 0.5% of player-games and ≥ 30 founders)."""
    from analysis.guilds import ranked

    return ranked(t["guild_types"])


RANK_RULE = f"under {100 * RANK_SHARE:g}% of players or {RANK_FOUNDERS} founders"   # guild_rows_for_headlines, in words


def small_share(p: float) -> str:
    """A share as a percentage with the decimals it needs to be told from 0 (up to 3): 0.000338 →
    ``0.03``, where :func:`reports.text.pct` printed ``0.0`` for a type some players did found; a
    share that 3 decimals still print as 0 is ``under 0.001``."""
    digits = 1
    while digits < 3 and p > 0 and float(pct(p, digits)) == 0:
        digits += 1
    if p > 0 and float(pct(p, digits)) == 0:
        return "under 0.001"
    return pct(p, digits)


def found_words(p: float) -> str:
    """"0.03% of players found one", or "no player found one" (a share of exactly 0: "0.0% of
    players found one" read as a rounding of some)."""
    return "no player found one" if p == 0 else f"{small_share(p)}% of players found one"


def with_article(name: str) -> str:
    """A card name with its indefinite article: "a Prêtre", "an Étoile", "an Assassin"."""
    first = unicodedata.normalize("NFD", name[:1])[:1].lower()
    return f"{'an' if first in 'aeiou' else 'a'} {name}"


def left_out_words(rows: pl.DataFrame, share: str = "founded_share", after: str | None = None) -> str:
    """"Bouffon (0.03% of players found one)": the types of ``rows`` a ranking leaves out, each
    with the share of players who found one (and, with ``after``, the share with one copy fewer);
    "" when none is."""
    parts = []
    for r in rows.iter_rows(named=True):
        more = ("" if after is None or r.get(after) is None or r[after] != r[after] else
                f"; {small_share(r[after])}% with one copy fewer")
        parts.append(f"{card_name(r['card'])} ({found_words(r[share])}{more})")
    return ", ".join(parts)


def guild_headlines(t: dict) -> list[str]:
    """Best and worst guild type for its founders (table ``guild_types``), among the types founded
    often enough to rank (:func:`guild_rows_for_headlines`); the types left out are named, with the
    share of players who found one, so a reader of the table beneath (where such a type may show
    the largest gap of all) knows why it is not the headline (MV-4)."""
    if "guild_types" not in t:
        return []
    g = guild_rows_for_headlines(t)
    if g.height == 0:
        return []
    out = []
    left = t["guild_types"].filter(~pl.col("card").is_in(g["card"].implode()))
    tested = "p_value" if "p_value" in t["guild_types"].columns else "p_adjusted"
    # the types Holm adjusts over: those that rank (review s49 #3 and its follow-up: the sentence
    # said "over the 13 types" beside a table tested over the 12 that rank)
    family = int(g[tested].is_not_null().sum())
    for r, what in zip(best_and_worst(g, "founders_win_share", "card"), ("most often", "least often")):
        # the worst type's founders may still win more than the other players (review Z #6: "win
        # least often … 3.4 pp more" read as a contradiction): "yet" says it is not one
        d = r.get("diff")
        contrary = d is not None and d == d and (d < 0 if what == "most often" else d > 0)
        # the others' share at the founders' decimals, the gap their printed difference (session 56)
        founders = row_pct_ci(r, 'founders_win_share', 'founders_ci_low', 'founders_ci_high')
        k = _decimals(founders)
        than = f" than the other players ({pct(r['others_win_share'], k)}%)"
        out.append(f"Players who found {with_article(r['card_name'])} guild win {what} of the ranked "
                   f"types: {founders}, {'yet ' if contrary else ''}{_gap_words(r, family, than, k)}"
                   f" (a fair share is {run_fair(t, r['fair_share'])}%; "
                   f"{pct(r['founded_share'])}% of players found one; an association under bot play).")
    if left.height:
        out.append(f"Left out of this ranking, too few players to rank ({RANK_RULE}): "
                   f"{left_out_words(left)}.")
    return out


def _decimals(text: str) -> int:
    """The decimals of the share a printed text starts with ("26.4% (…)" → 1)."""
    number = text.split("%")[0].lstrip("<>")
    return len(number.split(".")[1]) if "." in number else 0


def _gap_words(r: dict, types: int, than: str = "", digits: int = 1) -> str:
    """The founders − others gap of a headline's type worded by its size (the table's ``verdict``),
    never by the ranking alone: "0.4 pp fewer, within noise after Holm's correction over the 13
    types", or "14.5 pp more: clear and large enough to matter"; ``than`` follows the size (" than
    the other players (49.1%)"). The gap is the two shares' difference as printed at ``digits``
    decimals (:func:`simcore.numbers.printed_difference`; session 56 review: "35.3% … 20.7%" beside "14.7 pp
    more")."""
    d, v = r.get("diff"), r.get("verdict")
    if d is None or d != d:
        return "a gap the games cannot measure"
    f, o = r.get("founders_win_share"), r.get("others_win_share")
    gap = (numbers.printed_difference(100 * f, 100 * o, digits) if f is not None and o is not None
           and np.isfinite([f, o]).all() else numbers.rounded(100 * d, digits))
    size = (f"{abs(gap):.{digits}f} pp {'more' if gap > 0 else 'fewer'}{than}" if gap
            else f"no gap at {10.0 ** -digits:g} pp" + than.replace(" than", " from", 1))
    if v is None and r.get("significant"):          # (a table without its verdict column)
        return f"{size}: clear after Holm's correction over the {types} types"
    if v is None or v == stats.NOT_SHOWN:
        return f"{size}, within noise after Holm's correction over the {types} types"
    return f"{size}: {verdict_words(v)}"


def headlines(t: dict, rs: RunSet) -> list[str]:
    return guild_headlines(t)


def _guild_rows(t: dict, smallest: float = SMALLEST_SHARE) -> pl.DataFrame:
    """The guild-type table; a type founded too rarely to rank (:func:`guild_rows_for_headlines`)
    says so in the verdict column instead of a test's verdict about almost nobody, and a type
    without a power (a Bouffon does nothing, MV-5) says so in the powers column.

    Each ranked type's founders − others difference is worded like every verdict of the report
    (:func:`_guild_verdict`: Holm over the types, its size against ``smallest``, the win-share
    difference that matters), beside the range that size was read on (all the types at once) and
    its own 95% interval (unadjusted), so the words are true of the numbers in their row: the column
    said "Significant: no" beside Noble's +1.4 pp (0.0 to +2.8 pp), worded by p alone and silent that
    1 pp was not ruled out. The verdicts and ranges are the table's own reading
    (:func:`analysis.guilds.family_verdicts`, from its z: a rotated run's deal counted as one game),
    never read again from the player-game counts (session 60 review). A type of fewer than
    :data:`MIN_FOUNDERS` founders prints their number ("too few founders (7)") for their win share
    and no difference, as the card-types table does."""
    g = t["guild_types"]
    ranked = set(guild_rows_for_headlines(t)["card"].to_list())
    # the table's reading, at the page's smallest difference (one computation: the table's verdict,
    # the export's and the headline's are the same at the run's; session 60 review)
    verdicts, low, high, family = family_verdicts(g, smallest)
    # a run that recorded powers has them for every type with one: a type without is powerless
    none = "none (no power)" if g["mean_powers"].is_not_null().any() else ""
    rows = list(g.iter_rows(named=True))
    few_founders = [_few_founders(n) for n in g["founders"]]
    # founders' and others' shares at one precision, the difference their printed one (session 56
    # review: "26.4% … 24.3%" beside "+2.2 pp")
    pairs = [None if few or any(r[k] is None or r[k] != r[k] for k in ("founders_win_share", "others_win_share"))
             else shares_and_gap((r["founders_win_share"], r["founders_ci_low"], r["founders_ci_high"]),
                                 (r["others_win_share"], r["others_ci_low"], r["others_ci_high"]))
             for r, few in zip(rows, few_founders)]
    founders = pct_column(g, "founders_win_share", "founders_ci_low", "founders_ci_high")
    others = pct_column(g, "others_win_share", "others_ci_low", "others_ci_high")
    return pl.DataFrame({
        "Card type": g["card_name"],
        "Founded by": [pct_ci(p, lo, hi) for p, lo, hi in
                       zip(g["founded_share"], g["founded_ci_low"], g["founded_ci_high"])],
        "Guilds per player": [num(x) for x in g["mean_guilds"]],
        # fewer than MIN_FOUNDERS founders: their win share and its difference are not printed,
        # their number is, as in the card-types table (review D #15: 7 Bouffon founders printed
        # "+32.2 pp (+0.1 to +59.2 pp)", an interval clear of 0, beside "too few players")
        "Founders' win share": [few or (cell if pair is None else pair[0])
                                for few, cell, pair in zip(few_founders, founders, pairs)],
        "Others' win share": [cell if pair is None else pair[1] for cell, pair in zip(others, pairs)],
        "Founders − others (pp, 95% interval, each type's alone: unadjusted)": [
            "" if d is None or few else (f"{pp(d)} ({pp_ci(lo, hi)})" if pair is None else
                                         f"{pair[2]} ({pp_ci(lo, hi, pair[3])})")
            for d, lo, hi, few, pair in zip(g["diff"], g["diff_low"], g["diff_high"], few_founders, pairs)],
        f"All {family} types at once (pp, the verdict's range)": [
            _guild_range(r["diff"], lo, hi, v, smallest) if r["card"] in ranked else ""
            for r, v, lo, hi in zip(rows, verdicts, low, high)],
        # a type too rare to rank has no test's p beside "too few players" (review U #15: "p <
        # 0.001" stood there), and its verdict is short (the rule is in the table's caption: the
        # long cell made its row 200 px tall at 1280 px, tests/reports/test_browser_layout.py)
        "p (Holm-adjusted)": ["" if p is None or r["card"] not in ranked else pvalue(p)
                              for p, r in zip(g["p_adjusted"], rows)],
        f"Verdict (Holm over the {family} types; {100 * smallest:g} pp matters)": [
            _guild_verdict(v, lo, hi, smallest) if r["card"] in ranked else
            f"too few players ({'none' if r['founded_share'] == 0 else small_share(r['founded_share']) + '%'} "
            f"found one)"
            for r, v, lo, hi in zip(rows, verdicts, low, high)],
        "Powers used per player": [none if x is None else num(x) for x in g["mean_powers"]]})


def _guild_range(diff, low: float, high: float, verdict, smallest: float) -> str:
    """The range a type's verdict was read on (:func:`analysis.guilds.family_verdicts`), on the
    difference's side of 0 for a clear one (:func:`reports.text.size_range`: Holm shows the sign
    where this wider interval still reaches 0), at the decimals that keep each end on its side of 0
    and of ``smallest`` (:func:`reports.text.verdict_digits`); '' without one."""
    if diff is None or not (np.isfinite(low) and np.isfinite(high)):
        return ""
    lo, hi = size_range(diff, float(low), float(high), verdict != stats.NOT_SHOWN)
    return pp_ci(lo, hi, verdict_digits(lo, hi, smallest))


def _guild_verdict(verdict, low: float, high: float, smallest: float) -> str:
    """A type's verdict in the report's words (:func:`reports.text.verdict_words`: "clear and large
    enough to matter", "clear, may matter", "clear but small", "within noise"), the same words for
    every row. A difference within noise says what its range (``low`` to ``high``, all the types at
    once) leaves open: whether a difference of ``smallest`` is ruled out either way or not — within
    noise is not "no difference" (Noble's +1.4 pp, its interval reaching +2.8, read "no")."""
    words = verdict_words(verdict)
    if verdict != stats.NOT_SHOWN or not (np.isfinite(low) and np.isfinite(high)):
        return words
    that = f"{100 * smallest:g} pp"
    if max(abs(low), abs(high)) >= smallest:
        return f"{words} ({that} not ruled out)"
    return f"{words} (under {that} either way)"


def _guild_section(t: dict, figs: FigureSet, smallest: float = SMALLEST_SHARE) -> Section:
    return Section(
        "guilds", "Guild types",
        "For each card type: the share of player-games that founded at least one guild of it, and the "
        "win share of those founders against everyone else and against the fair 1/n (Wilson intervals; "
        "the difference has Newcombe's interval, each type's own, and a two-proportion test, Holm-adjusted "
        f"over the types; its verdict reads its size against the {100 * smallest:g} pp that matters on its "
        "range over all the types at once). "
        "Founding any type goes with winning (a winner founds several guilds), so compare the types with "
        "each other rather than with the fair share alone; to test a type, remove a copy in a rules "
        "file and compare the two runs.",
        figs.add("guild_types", F.guild_types(t), " ".join(guild_headlines(t))),
        # (review Z #10: "Guild types (too few players to rank: …)" read as the whole table's title)
        [(f"Guild types (a type founded by {RANK_RULE} is marked too few players to rank)",
          _guild_rows(t, smallest))],
        guild_headlines(t))


def comparison_figures(name: str, base_t: dict, var_t: dict, base_label: str, var_label: str,
                       figs: FigureSet, cmp: pl.DataFrame | None = None) -> list[str]:
    return figs.add(f"{name}_guilds", F.guild_comparison(base_t, var_t, base_label, var_label),
                    _guild_comparison_caption(base_t, var_t, var_label, cmp))


def _more_clear(clear: pl.DataFrame, base_t: dict) -> str:
    """"; and 10 more (all in the figure)" for the clear founded shares past the first three, or
    which of them the figure leaves out (a type founded too rarely to draw in the before run,
    :func:`analysis.guilds.ranked`, as the figure's rule: review s47, "all in the figure" counted
    the Bouffon, which the figure left out)."""
    from analysis.guilds import ranked

    if clear.height <= 3:
        return ""
    rest = clear.slice(3)["key"].to_list()
    drawn = set(ranked(base_t["guild_types"])["card"].to_list())
    missing = [card_name(k) for k in rest if k not in drawn]
    if not missing:
        return f"; and {len(rest)} more (all in the figure)"
    shown = len(rest) - len(missing)
    return (f"; and {len(rest)} more ({f'{shown} in the figure; ' if shown else ''}"
            f"{', '.join(missing)} only in the table, founded too rarely to draw)")


def _guild_comparison_caption(base_t: dict, var_t: dict, var_label: str,
                              cmp: pl.DataFrame | None = None) -> str:
    """The founded shares (MV-4) and the mean game length before and after, each worded by the
    verdict the comparison table gives it (``cmp``, :func:`analysis.compare.compare_tables`: Holm
    over the compared metrics, sized against the smallest difference that matters): the shares
    that moved clearly, or that none did (with the largest change, within noise). A change is
    never named as "moving most" without its verdict (revA #12). Without ``cmp``, only the
    lengths, unworded."""
    if "guild_types" not in base_t or "guild_types" not in var_t:
        return ""
    out = ""
    founded = (cmp.filter(pl.col("metric") == "guild_founded_share") if cmp is not None
               and "verdict" in cmp.columns else None)
    if founded is not None and founded.height:
        def change(r: dict) -> str:
            # before, after and change at one precision where they agree (review s50 PDF follow-up:
            # "35.0% → 37.2% (+2.3 pp)", as the list and the table do)
            if "kind" not in r or "metric" not in r:      # (a table without them: as before)
                return (f"{card_name(r['key'])}, {pct(r['base'])}% → {pct(r['variant'])}% of players "
                        f"({difference_pp(r['variant'], r['base'], 1)})")
            d = metric_digits(r)
            return (f"{card_name(r['key'])}, {pct(r['base'], d)}% → {pct(r['variant'], d)}% of players "
                    f"({pp(shown_change(r, d), d)})")

        same = (founded.filter(pl.col("same_games").is_not_null()) if "same_games" in founded.columns
                else founded.clear())
        # (untested rows, paired games every one of which has the same founders: no verdict of their own)
        clear = founded.filter(pl.col("verdict") != stats.NOT_SHOWN)
        if "same_games" in founded.columns:
            clear = clear.filter(pl.col("same_games").is_null())
        if same.height == founded.height:
            out = (f"With {var_label}, every card type's founded share is the same in every game (no game "
                   f"of the {int(same['same_games'][0]):,} differs in who founds what).")
        elif clear.height:      # cmp is in reading order: verdict, then size
            out = (f"With {var_label}, the founded share moves clearly for {clear.height} of "
                   f"{founded.height} card types: " + "; ".join(
                       f"{change(r)}, {verdict_words(r['verdict'])}" for r in clear.head(3).iter_rows(named=True))
                   + _more_clear(clear, base_t) + ".")
        else:
            top = founded.with_columns(pl.col("diff").abs().alias("_a")).sort("_a", descending=True)
            out = (f"With {var_label}, no card type's founded share moved beyond noise (largest "
                   f"change: {change(top.row(0, named=True))}, within noise)"
                   + (f"; for {same.height} of the {founded.height} types no game differs in who founds them."
                      if same.height else "."))
    if "length" in base_t and "length" in var_t:
        turns = cmp.filter(pl.col("metric") == "mean_turns") if cmp is not None and "verdict" in cmp.columns else None
        verdict = ""
        if turns is not None and turns.height:
            same = turns["same_games"][0] if "same_games" in turns.columns else None
            # paired games every one of which lasted as long before as after: untested, no verdict
            verdict = (f", the same in every game (no game of the {same:,} differs)" if same is not None
                       else f", {verdict_words(turns['verdict'][0])}")
        out += (f" Mean game length {num(base_t['length']['mean_turns'][0], 1)} → "
                f"{num(var_t['length']['mean_turns'][0], 1)} player turns{verdict}.")
    return out.strip()


# ---------------------------------------------------------------------------------------------
# The played questions (from a questions directory)
# ---------------------------------------------------------------------------------------------

def _ci(p: float, se: float, n=None) -> str:
    """A rate with its 95% interval: Wilson's over ``n`` games, matches or founders when ``n`` is
    known (it keeps a width where every game went one way: ±1.96 × a standard error of 0 printed
    "100.0% (100.0–100.0)"), else ±1.96 SE clipped to 0–100%."""
    if n is not None and n == n and n > 0:
        lo, hi = (float(x) for x in stats.wilson(p * n, n))
    else:
        lo, hi = max(p - _Z * se, 0.0), min(p + _Z * se, 1.0)
    return pct_ci(p, lo, hi)


def run_measures_first_player(q, rs: RunSet) -> bool:
    """Whether the run's own seat table answers the first-player question (MV-2) at its player
    count: one run (not pooled), its seats not rotated, the questions' bot at every seat (the rules
    are the run's: :func:`reports.questions.check_matches`). The run then has more games than the
    questions play (its first N games again when the seed is the run's), and one page must not give
    two answers to one question."""
    names = list(rs.metas[0].get("strategies") or [])
    return (bool(names) and set(names) == {q.meta.get("strategy")}
            and not rs.metas[0].get("rotate_seats") and len(rs.paths) == 1)


def with_run_first_player(fp: pl.DataFrame, t: dict, rs: RunSet) -> pl.DataFrame:
    """``fp`` (table ``first_player``) with its rows at the run's player count replaced by the run's
    own seats (table ``seats``: win share, its Wilson interval, the standard error of the per-game
    win share over the run's games); column ``from_run`` marks them. The played rows get their
    Wilson interval over their games as ``ci_low``/``ci_high``, so every row is printed the same
    way. Unchanged (but for those columns) when the run's player count was not played. Column
    ``digits`` (null for the played rows) is the decimals the run's Seats table prints each of its
    seats with (:func:`reports.text.seat_digits`): a row from the run prints its share and gap as
    that table and the seat lines do (session 63: "Seat 1 wins most (36.20%, +2.87 pp)" in the seat
    lines beside "36.2% (33.3–39.2) … +2.9 pp" for the same seat here; one value for one number)."""
    lo, hi = stats.wilson(fp["win_share"].to_numpy() * fp["games"].to_numpy(), fp["games"].to_numpy())
    fp = fp.with_columns(pl.Series("ci_low", np.asarray(lo, float)), pl.Series("ci_high", np.asarray(hi, float)),
                         pl.lit(False).alias("from_run"), pl.lit(None, pl.Int64).alias("digits"))
    if "seats" not in t or rs.n_players not in set(fp["players"].to_list()):
        return fp
    s = t["seats"]
    se = s["win_share_sd"].to_numpy() / np.sqrt(s["games"].to_numpy())
    own = pl.DataFrame({
        "players": [rs.n_players] * s.height, "seat": s["seat"].cast(pl.Int64), "games": s["games"].cast(pl.Int64),
        "win_share": s["win_share"], "std_error": se, "fair": s["fair_share"], "advantage": s["diff"],
        "z": s["diff"].to_numpy() / se, "ci_low": s["ci_low"], "ci_high": s["ci_high"],
        "from_run": [True] * s.height, "digits": [seat_digits(r) for r in s.iter_rows(named=True)]})
    rest = fp.filter(pl.col("players") != rs.n_players)
    own = own.select([pl.col(c).cast(rest.schema[c]) if c in rest.schema else pl.col(c) for c in own.columns])
    # (a column of the played rows the run has no value for, the games' fingerprint: null there)
    own = own.with_columns(pl.lit(None, rest.schema[c]).alias(c) for c in rest.columns if c not in own.columns)
    return pl.concat([rest, own.select(rest.columns)]).sort(["players", "seat"])


def with_side_first_player(fp: pl.DataFrame, q, side) -> pl.DataFrame:
    """``fp`` (:func:`with_run_first_player`'s) with its played rows at another side-by-side
    configuration's player count replaced by that run's own seats, where that run answers the same
    question (the questions' rules, the questions' bot at every seat, seats not rotated:
    :func:`run_measures_first_player`); column ``run_label`` names it (null for the page's own run
    and for played rows). One page, one answer per question (designer review 45 #4: a 3- and
    4-player page gave Seat 1 at 4 players as 25.3% from the 4-player run's 50,000 games in its
    side-by-side table and as 25.2% from 10,000 replayed games in this section)."""
    fp = fp.with_columns(pl.lit(None, pl.String).alias("run_label"))
    for label, rs2, t2 in list(side or [])[1:]:
        if (rs2.game != GAME or str(rs2.metas[0].get("rules_sha256") or "") != str(q.meta.get("rules_sha256") or "")
                or not run_measures_first_player(q, rs2) or "seats" not in t2):
            continue
        at = fp.filter(pl.col("players") == rs2.n_players)
        if at.height == 0 or at["from_run"].any():
            continue
        mine = with_run_first_player(at.drop("ci_low", "ci_high", "from_run", "digits", "run_label"), t2, rs2)
        mine = mine.with_columns(pl.lit(str(label)).alias("run_label")).select(fp.columns)
        fp = pl.concat([fp.filter(pl.col("players") != rs2.n_players), mine]).sort(["players", "seat"])
    return fp


def _own_where(r: dict) -> str:
    """Where a row the run measured comes from: the page's run, or another side-by-side run."""
    label = r.get("run_label")
    return f"{label}'s own games" if label else "the run itself"


def _row_ci(r: dict) -> str:
    """A first-player row's win share with its interval (:func:`with_run_first_player`'s columns,
    else Wilson's over its games); a row from a run at the decimals its Seats table prints the seat
    with (column ``digits``, :func:`reports.text.seat_vs_fair`), so that its gap
    (:func:`_vs_fair`) is that table's too."""
    if r.get("ci_low") is not None:
        return pct_ci(r["win_share"], r["ci_low"], r["ci_high"], r.get("digits") or 1)
    return _ci(r["win_share"], r["std_error"], r.get("games"))


def fair_by_count(fp: pl.DataFrame, smallest: float = SMALLEST_SHARE, seats: pl.DataFrame | None = None,
                  players: int | None = None) -> dict[int, str]:
    """Player count → the fair share 1/P as every first-player sentence, the headline findings and
    the printed summary give it: one value per count on a page, as every other page prints the
    fair share since session 62 (:func:`reports.text.seats_fair`: 25.0% where that is 1/P exactly,
    else at the most decimals any seat's share needs, 33.33%). At the run's own count (``players``,
    its table ``seats``), the page lead's value; at another, :func:`reports.text.seats_fair` over
    that count's rows of ``fp`` (table ``first_player``; ``smallest`` no longer read there) at the
    most decimals those rows print their shares with (one decimal where 1/P is exact).
    Session 63: a 3-player page said "the fair 33.33%" in its lead and "against a fair 33.3%" for
    the same 1/3 in the first-player sentence, printed at the share's decimals."""
    out: dict[int, str] = {}
    if fp is None or fp.height == 0:
        return out
    for (n,), rows in fp.group_by(["players"], maintain_order=True):
        if seats is not None and players is not None and int(n) == int(players) and seats.height and \
                {"win_share", "fair_share"} <= set(seats.columns):
            out[int(n)] = seats_fair(seats)
            continue
        # a count the page played again has no seat headlines: its rows print their shares at
        # _row_ci's decimals, and its fair share is printed at the most of those (at one decimal
        # where 1/P is exact), not at the 3 decimals seat_digits may give a share near 1/P
        # ("32.7% (27.6–38.2) … against a fair 33.333%")
        fair = float(rows["fair"][0])
        exact = abs(round(100 * fair, 1) - 100 * fair) < 1e-9
        digits = 1 if exact else max([_decimals(_row_ci(r)) for r in rows.iter_rows(named=True)] + [1])
        out[int(n)] = pct(fair, digits)
    return out


def _vs_fair(r: dict, fair: dict[int, str] | None = None) -> tuple[str, str, str]:
    """(win share with its interval, fair share, gap in pp) of a first-player row as its table and
    sentence print them: the fair share as the page prints it for the row's player count (``fair``,
    :func:`fair_by_count`; at the share's decimals without it), the gap the printed share minus the
    fair share at the share's decimals (:func:`reports.text.gap_beside`; session 56 review: "32.7% …
    33.3%" beside "−0.7 pp"), as a seat line beside its page's one fair share (session 62)."""
    share = _row_ci(r)
    said = (fair or {}).get(int(r["players"])) if r.get("players") is not None else None
    return (share, said if said is not None else pct(r["fair"], _decimals(share)),
            gap_beside(share, r["win_share"], r["fair"]))


def too_few_games(r: dict) -> bool:
    """Whether a first-player row was played with fewer than :data:`analysis.guilds.MIN_COUNT`
    games (MV-2; review s60 #3: ``--questions-games 5`` led with an interval reaching a win share of
    121%): too few games to say, as a before/after "cannot tell" under that many."""
    n = r.get("games")
    return n is not None and n == n and int(n) < MIN_COUNT


def _tested(rows: pl.DataFrame) -> np.ndarray:
    """Which of Seat 1's rows are in the first-player family: played with enough games
    (:func:`too_few_games`)."""
    return np.array([not too_few_games(r) for r in rows.iter_rows(named=True)], dtype=bool)


def _holm_counts(family: int) -> str:
    """"Holm over the 3 player counts; " for a family of several counts; '' for one (the run's own
    count beside counts of too few games: "Holm over the 1 player counts")."""
    return f"Holm over the {family} player counts; " if family > 1 else ""


def first_player_verdicts(fp: pl.DataFrame, smallest: float = SMALLEST_SHARE) -> tuple[pl.DataFrame, np.ndarray]:
    """Seat 1's rows of ``fp`` (table ``first_player``) by player count, and the verdict on each
    one's advantage (Holm over the player counts played with enough games, sized on their
    Bonferroni interval: :func:`analysis.stats.practical_holm`), one per row: what
    :func:`first_player_sentences` words. A count of too few games (:func:`too_few_games`) is
    outside the family and not shown."""
    rows = fp.filter(pl.col("seat") == 0).sort("players")
    verdicts = np.array([stats.NOT_SHOWN] * rows.height, dtype=object)
    tested = _tested(rows)
    if tested.any():
        verdicts[tested] = np.atleast_1d(stats.practical_holm(rows["advantage"].to_numpy()[tested],
                                                              rows["z"].to_numpy()[tested], smallest,
                                                              se=_column(rows, "std_error")[tested]))
    return rows, verdicts


def first_player_sentences(fp: pl.DataFrame, smallest: float = SMALLEST_SHARE,
                           fair: dict[int, str] | None = None) -> list[str]:
    """Seat 1's advantage at each player count (MV-2), worded by size (issue 29): the player counts
    are one family, so "clear" is Holm's step-down over their two-sided p-values (5% family-wise,
    :func:`analysis.stats.practical_holm`), sized on the Bonferroni interval over the counts: a
    clear advantage whose interval lies at least ``smallest`` from 0 is "clear and large enough to
    matter", one whose interval lies closer "clear but small", one whose interval reaches both
    "clear, may matter". The interval printed beside each is the count's own (unadjusted) 95%
    interval, narrower than the one the size is read on, and says so. A row the run itself measured
    (``from_run``, :func:`with_run_first_player`) says so, with its number of games. The fair
    share is printed as the page prints it for each count (``fair``; :func:`fair_by_count` of
    ``fp`` without it)."""
    fair_at = fair if fair is not None else fair_by_count(fp, smallest)
    rows, verdicts = first_player_verdicts(fp, smallest)
    family = int(_tested(rows).sum())
    out = []
    for r, v in zip(rows.iter_rows(named=True), verdicts):
        where = ((f" in {_own_where(r)} ({r['games']:,} games; "
                  + ("the side-by-side table above)" if r.get("run_label") else "the seat advantage above)"))
                 if r.get("from_run") else "")
        share, fair, gap = _vs_fair(r, fair_at)
        said = (f"too few games to say ({int(r['games']):,} games; at least {MIN_COUNT} needed)" if too_few_games(r)
                else f"{verdict_words(v)} ({_holm_counts(family)}{100 * smallest:g} pp matters)")
        out.append(f"{r['players']} players: Seat 1 (plays first) wins {share} "
                   f"(95%, unadjusted){where} against a fair {fair}%: {gap}, {said}.")
    return out


def _ablation_rows(ct: pl.DataFrame) -> pl.DataFrame:
    """The ablation's tested family (:func:`analysis.guilds.ablation_tested`, the rule of the
    played questions' verdicts and of the figure)."""
    return ct.filter(ablation_tested(ct))


def _column(d: pl.DataFrame, name: str) -> np.ndarray:
    """``d``'s column ``name`` as floats, nan where null or where ``d`` has no such column (a table
    written before it): the standard errors the verdicts' ranges are read on (review s62 #3)."""
    if name not in d.columns:
        return np.full(d.height, np.nan)
    return d[name].cast(pl.Float64).fill_null(np.nan).to_numpy()


def _ablation_verdicts(d: pl.DataFrame, smallest: float) -> np.ndarray:
    support = np.minimum(d["founded_share"].to_numpy(), d["founded_share_after"].fill_null(0.0).to_numpy())
    return stats.practical_holm(d["delta_founders_win_share"].to_numpy(), d["z"].to_numpy(), smallest,
                                support=support, se=_column(d, "delta_std_error"))


def _ablation_metric(r: dict) -> dict:
    """A card's ablation row as a compared metric (:mod:`reports.text`'s before/after helpers):
    the founders' win share with the full deck, with one copy fewer, and the change."""
    return {"metric": "founders_win_share", "kind": "proportion", "base": r["founders_win_share"],
            "variant": r["founders_win_share_after"], "diff": r["delta_founders_win_share"]}


def ablation_change(r: dict, digits: int | None = None) -> tuple[str, str, str, str]:
    """(founders' win share with the full deck, with one copy fewer, the change, its own 95%
    interval) of a card's ablation row, printed as the before/after page prints a change
    (:func:`reports.text.common_digits`, :func:`reports.text.shown_change`): after − before as
    printed is the change as printed (25.2% instead of 26.8% is −1.6 pp, not the −1.5 pp of the
    unrounded change). ``digits``: the decimals of a table the row is one line of (default the
    row's own)."""
    m = _ablation_metric(r)
    d = common_digits([m]) if digits is None else digits
    lo = r["delta_founders_win_share"] - _Z * r["delta_std_error"]
    hi = r["delta_founders_win_share"] + _Z * r["delta_std_error"]
    return (metric_value(m["base"], m["metric"], m["kind"], d), metric_value(m["variant"], m["metric"], m["kind"], d),
            pp(shown_change(m, d), d), pp_ci(lo, hi, d))


def _excludes_zero(r: dict) -> bool:
    """Whether a card's own (unadjusted) 95% interval of its change leaves out 0."""
    d, se = r["delta_founders_win_share"], r["delta_std_error"]
    return d - _Z * se > 0 or d + _Z * se < 0


def _own_games(r: dict) -> str:
    """Where the ablation's full-deck figures come from: its own games, not the run's (the guild
    types section has the run's figure for the same founders' win share)."""
    games = r.get("games")
    return (f"each deck's own {int(games):,} games played here, not the run's" if games else
            "each deck's own games played here, not the run's")


def ablation_left_words(rows: pl.DataFrame) -> str:
    """The types the card ablation leaves out, each with what left it out on either deck: "Étoile
    (240 founders, 3.0% of players, with the full deck; 24 founders, 0.4% of players, with one copy
    fewer)", "Bouffon (no founder with the full deck; …)" (a share of exactly 0 is "no founder",
    not "0.0%"); the share alone where the table has no founder counts."""
    parts = []
    for r in rows.iter_rows(named=True):
        sides = []
        for share, count, deck in (("founded_share", "founders", "with the full deck"),
                                   ("founded_share_after", "founders_after", "with one copy fewer")):
            p, k = r.get(share), r.get(count)
            if p is None or p != p:
                continue
            if p == 0 or k == 0:
                sides.append(f"no founder {deck}")
            elif k is not None and k == k:
                sides.append(f"{int(k):,} founder{'' if k == 1 else 's'}, {small_share(p)}% of players, {deck}")
            else:
                sides.append(f"{small_share(p)}% of players found one {deck}")
        parts.append(f"{card_name(r['card'])} ({'; '.join(sides)})")
    return ", ".join(parts)


def ablation_sentences(ct: pl.DataFrame, smallest: float = SMALLEST_SHARE,
                       smallest_length: float | None = None) -> list[str]:
    """The card ablation in words, by size (issue 29): how many types' founders' win share moves by
    at least ``smallest`` ("clear and large enough to matter"), clearly and perhaps by that much
    ("clear, may matter"), clearly by less ("clear but small"), or not clearly (Holm over the types,
    sizes on the Bonferroni interval over them); the types left out (founded by almost nobody,
    :func:`_ablation_rows`) named with the share of players who found one; the types the deck holds
    no copy of, whose ablation was not played (:func:`analysis.guilds.not_in_deck`), named as such;
    the largest change in reading order (:func:`analysis.stats.practical_order`: wording, then
    size; never by z)."""
    d = _ablation_rows(ct)
    if d.height == 0:
        return []
    absent = not_in_deck(ct)
    left = ct.filter(~pl.col("card").is_in(d["card"].implode()) & ~absent)
    missing = [card_name(c) for c in ct.filter(absent)["card"]]
    v = _ablation_verdicts(d, smallest)
    large, small = int((v == stats.LARGE).sum()), int((v == stats.SMALL).sum())
    may = int((v == stats.MAY_MATTER).sum())
    out = [f"Removing one copy of a type changes its founders' win share by at least {100 * smallest:g} pp "
           f"(clear and large enough to matter) for {large} of {d.height} types, "
           + (f"clearly and perhaps by that much (clear, may matter: these games cannot tell) for {may}, "
              if may else "")
           + f"clearly but by less (clear but small) for {small}, and not clearly for the other "
           f"{d.height - large - may - small} (Holm over the types, 5% family-wise; sizes read on the "
           f"interval for all types at once)"
           + (f"; left out (founded by under {100 * ABLATION_MIN_FOUNDED:g}% of the players or by fewer "
              f"than {RANK_FOUNDERS} with either deck: too few players to say): {ablation_left_words(left)}"
              if left.height else "")
           + (f"; not played (0 copies in the deck): {_and(missing)}" if missing else "") + "."]
    # whether "not clearly" leaves room for a change that matters (review U #2: every type's
    # interval reached past 1 pp, and the page read as "removing a copy does not matter"), read on
    # the interval for all types at once the verdicts' sizes are read on: "no room" is a claim about
    # the whole family (each card's own interval made it too easy: session 50's opinion)
    lows, highs = stats.holm_size_interval(d["delta_founders_win_share"].to_numpy(), d["z"].to_numpy(),
                                           se=_column(d, "delta_std_error"))
    within = [(card_name(r["card"]), float(lo), float(hi))
              for r, verdict, lo, hi in zip(d.iter_rows(named=True), v, lows, highs)
              if verdict == stats.NOT_SHOWN]
    games = d["games"][0] if "games" in d.columns and d.height else None
    out[0] += room_for_a_swing(
        within, smallest, ("type left within noise", "types left within noise"),
        f"more games would tell ({MORE_GAMES}"
        + (f", {int(games):,} a deck here" if games else "") + "; four times as many halve an interval)",
        f" (for all {d.height} types at once)")
    order = stats.practical_order(v, d["delta_founders_win_share"].to_numpy(), smallest)
    r = d.row(int(order[0]), named=True)
    name = card_name(r["card"])
    before, after, change, interval = ablation_change(r)
    top = v[int(order[0])]
    note = f"Holm over the {d.height} types"
    if top == stats.NOT_SHOWN and _excludes_zero(r):
        note += "; the interval shown is this card's alone"
    out.append(f"The largest change{f' among those {d.height} types' if left.height or missing else ''}: with one {name} "
               f"fewer ({r['copies_after']} {'copy' if r['copies_after'] == 1 else 'copies'}), {name} founders win {after} instead of {before} with "
               f"the full deck ({_own_games(r)}), {change} (95% interval {interval}, unadjusted): "
               f"{verdict_words(top)} ({note}).")
    out += length_sentences(ct, smallest_length)
    return out


def _length_verdicts(ct: pl.DataFrame, smallest: float | None) -> tuple[pl.DataFrame, np.ndarray, float]:
    """The types whose removal has a change of mean game length with a standard error, that
    change's verdict for each (:func:`analysis.stats.practical_holm`, Holm over them; ``smallest``
    turns matter, default the game's ``length`` smallest difference) and that smallest difference:
    what :func:`length_sentences` words and the ablation figure's length bars are coloured by."""
    small = smallest if smallest is not None else smallest_difference(GAME, "length")
    if "delta_mean_turns" not in ct.columns:
        return ct.clear(), np.array([], dtype=object), small
    d = ct.filter(pl.col("delta_mean_turns").is_not_null() & pl.col("delta_mean_turns").is_not_nan()
                  & pl.col("delta_turns_std_error").is_not_null() & (pl.col("delta_turns_std_error") > 0))
    if d.height == 0:
        return d, np.array([], dtype=object), small
    delta, se = d["delta_mean_turns"].to_numpy(), d["delta_turns_std_error"].to_numpy()
    return d, np.atleast_1d(stats.practical_holm(delta, delta / se, small, se=se)), small


def length_verdict_map(ct: pl.DataFrame | None, smallest: float | None = None) -> dict[str, str]:
    """card → the verdict on the change of mean game length when one copy is removed (the one
    :func:`length_sentences` words), for the ablation figure's length bars."""
    if ct is None:
        return {}
    d, v, _ = _length_verdicts(ct, smallest)
    return dict(zip(d["card"].to_list(), v))


def length_sentences(ct: pl.DataFrame, smallest: float | None = None) -> list[str]:
    """The change of mean game length when one copy of a type is removed, worded by size like the
    win shares: the types are one family (Holm over them, :func:`analysis.stats.practical_holm`),
    ``smallest`` turns matter (default: the game's ``length`` smallest difference); the change named
    is the first in reading order, its interval the type's own (unadjusted, said so). The maximum of
    many unadjusted intervals is not a finding by itself."""
    d, v, small = _length_verdicts(ct, smallest)
    if d.height == 0:
        return []
    delta = d["delta_mean_turns"].to_numpy()
    first = int(stats.practical_order(v, delta, small)[0])
    r, top = d.row(first, named=True), v[first]
    lo = r["delta_mean_turns"] - _Z * r["delta_turns_std_error"]
    hi = r["delta_mean_turns"] + _Z * r["delta_turns_std_error"]
    # a turn is one player's (MV-3): "player turns", as the run's page says (4 make a round at 4
    # players; "−3.7 turns" read as almost four rounds)
    change = (f"{signed(r['delta_mean_turns'])} player turns ({signed(lo)} to {signed(hi)}, 95%, unadjusted) "
              f"when {with_article(card_name(r['card']))} is removed")
    family = f"Holm over the {d.height} types; {small:g} player turns matter"
    if top == stats.NOT_SHOWN:
        return [f"No removal of one card clearly changes game length ({family}): the largest change, "
                f"{change}, is within noise."]
    n_clear = int((v != stats.NOT_SHOWN).sum())
    return [f"Game length moves most clearly when {with_article(card_name(r['card']))} is removed: "
            f"{signed(r['delta_mean_turns'])} player turns ({signed(lo)} to {signed(hi)}, 95%, unadjusted), "
            f"{verdict_words(top)} ({family}); {n_clear} of {d.height} removals change it clearly."]


def best_of_three_sentences(b3: pl.DataFrame) -> list[str]:
    return [f"2 players, {r['bot']} vs {r['opponent']}: "
            f"{_ci(r['single_round_win_rate'], r['single_std_error'], r.get('single_rounds'))} of single "
            f"rounds → {_ci(r['match_win_rate'], r['match_std_error'], r.get('matches'))} of best-of-3 matches "
            f"({num(r['mean_rounds'])} rounds per match)."
            for r in b3.iter_rows(named=True)]


def _first_player_rows(fp: pl.DataFrame, source: str = "played for this report") -> pl.DataFrame:
    """The first-player table; ``source`` is where a row not from the run comes from
    (:func:`where_from`)."""
    from_run = fp["from_run"].to_list() if "from_run" in fp.columns else [False] * fp.height
    return pl.DataFrame({
        "Players": fp["players"], "Seat": [f"Seat {s + 1}" for s in fp["seat"]], "Games": fp["games"],
        "From": [_own_where(r) if x else source for x, r in zip(from_run, fp.iter_rows(named=True))],
        "Win share": [_vs_fair(r)[0] for r in fp.iter_rows(named=True)],
        "vs fair share (pp)": [_vs_fair(r)[2] for r in fp.iter_rows(named=True)],
        # (an empty z, a seat whose games all went one way, is left blank as the card table leaves it)
        "z": ["" if z is None or not np.isfinite(z) else num(z, 1) for z in fp["z"]]})


MIN_FOUNDERS = RANK_FOUNDERS      # a founders' win share of fewer founders is not printed (RANK_RULE's count)


def _founders_after(ct: pl.DataFrame) -> list:
    """Founders with one copy fewer: the column, or (a table written before it) the founded share
    times the player-games."""
    if "founders_after" in ct.columns:
        return ct["founders_after"].to_list()
    return [None if s is None or s != s else int(round(s * g * p)) for s, g, p in
            zip(ct["founded_share_after"], ct["games"], ct["players"])]


def _few_founders(n) -> str | None:
    """"too few founders (1)" for a founders' win share of fewer than :data:`MIN_FOUNDERS`
    players (one founder's win prints as 100.0%), else None."""
    if n is None or n != n or int(n) >= MIN_FOUNDERS:
        return None
    return "no founder" if int(n) == 0 else f"too few founders ({int(n)})"


def _card_rows(ct: pl.DataFrame, smallest: float = SMALLEST_SHARE) -> pl.DataFrame:
    """The card-types table of the questions: per type, who founds it and how they fare with the
    full deck, in the questions' own games (their number in the header: the guild-types section
    gives the run's figure), and with one copy fewer. A founders' win share of fewer than
    :data:`MIN_FOUNDERS` founders is not printed (their number is); the full deck's, the one copy
    fewer's and the change print at one precision (:func:`reports.text.common_digits`) so that
    after − before is the change; the change's interval is each card's own (unadjusted), the
    verdict Holm's over the types. A type the deck holds no copy of (MV-1 deck,
    :func:`analysis.guilds.not_in_deck`) has no figure of one copy fewer: its verdict says it was
    not played, its other cells of that deck are empty (review s60 #1: "nan%", "+nan ± nan")."""
    founders = ct["founders"] if "founders" in ct.columns else [None] * ct.height
    games = int(ct["games"][0]) if "games" in ct.columns and ct.height else 0
    own = f"its own {games:,} games" if games else "its own games"
    ablation = "delta_founders_win_share" in ct.columns
    rows = list(ct.iter_rows(named=True))
    keep = set(_ablation_rows(ct)["card"].to_list()) if ablation else set()
    digits = (common_digits([_ablation_metric(r) for r in rows if r["card"] in keep], more=1)
              if keep else 1)

    def before(r, n):
        p, se = r["founders_win_share"], r["founders_std_error"]
        if (few := _few_founders(n)) is not None:
            return few
        if p is None or p != p or se is None or se != se:
            return ""
        if not ablation or r["card"] not in keep:
            return _ci(p, se, n)
        lo, hi = ((float(x) for x in stats.wilson(p * n, n)) if n else (p - _Z * se, p + _Z * se))
        return f"{metric_value(p, 'founders_win_share', 'proportion', digits)} ({pct(lo, digits)}–{pct(hi, digits)})"

    cols = {
        "Card type": [card_name(c) for c in ct["card"]],
        "Founded by": [f"{small_share(s)}%" for s in ct["founded_share"]],
        f"Founders' win share, full deck ({own})": [before(r, n) for r, n in zip(rows, founders)],
        "Others' win share": [f"{pct(p)}%" for p in ct["others_win_share"]]}
    if ablation:
        after_n = _founders_after(ct)
        absent = set(ct.filter(not_in_deck(ct))["card"].to_list())

        def length(r):
            d, se = r["delta_mean_turns"], r["delta_turns_std_error"]
            if r["card"] in absent or d is None or se is None or d != d or se != se:
                return ""
            return f"{signed(d)} ± {num(_Z * se, 1)}"

        def after(r, n):
            if (few := _few_founders(n)) is not None:
                return few
            p = r["founders_win_share_after"]
            if p is None or p != p:
                return ""
            return ablation_change(r, digits)[1] if r["card"] in keep else f"{pct(p)}%"

        def change(r):
            d, se = r["delta_founders_win_share"], r["delta_std_error"]
            if r["card"] not in keep or d is None or se is None or d != d or se != se:
                return ""
            _, _, c, interval = ablation_change(r, digits)
            return f"{c} ({interval})"

        cols.update({
            "Copies after": ct["copies_after"],
            "Founded by, one copy fewer": ["" if r["card"] in absent or s is None or s != s else f"{small_share(s)}%"
                                           for r, s in zip(rows, ct["founded_share_after"])],
            "Founders' win share, one copy fewer": [after(r, n) for r, n in zip(rows, after_n)],
            "Change (pp; 95% interval, each card's alone: unadjusted)": [change(r) for r in rows],
            "z": ["" if r["card"] not in keep or z is None or z != z else num(z) for r, z in zip(rows, ct["z"])],
            f"Verdict (Holm over the types; {100 * smallest:g} pp matters)": _card_verdicts(ct, smallest),
            "Change of mean length (player turns, 95%, unadjusted)": [length(r) for r in rows]})
    return pl.DataFrame(cols)


def _ablation_verdict_map(ct: pl.DataFrame | None, smallest: float) -> dict[str, str]:
    """card → its ablation verdict (:func:`analysis.stats.practical`, Holm over the types
    :func:`_ablation_rows` keeps): the one the text and the table give, for the figure's colours."""
    if ct is None or "delta_founders_win_share" not in ct.columns:
        return {}
    keep = _ablation_rows(ct)
    return dict(zip(keep["card"].to_list(), _ablation_verdicts(keep, smallest))) if keep.height else {}


def _card_verdicts(ct: pl.DataFrame, smallest: float) -> list[str]:
    """Each type's change worded by size, Holm over the types :func:`_ablation_rows` keeps (the
    others, founded by almost nobody or without a change: "too few players to say"; a type the
    deck holds no copy of: "not played (0 copies)", :data:`analysis.guilds.NOT_IN_DECK`)."""
    keep = _ablation_rows(ct)
    words = dict(zip(keep["card"].to_list(), _ablation_verdicts(keep, smallest))) if keep.height else {}
    absent = set(ct.filter(not_in_deck(ct))["card"].to_list())
    return [verdict_words(words[c]) if c in words else NOT_IN_DECK if c in absent else "too few players to say"
            for c in ct["card"]]


def _best_of_three_rows(b3: pl.DataFrame) -> pl.DataFrame:
    return pl.DataFrame({
        "Bot": b3["bot"], "Opponent": b3["opponent"], "Matches": b3["matches"],
        "One round": [_ci(p, se, n) for p, se, n in zip(
            b3["single_round_win_rate"], b3["single_std_error"],
            b3["single_rounds"] if "single_rounds" in b3.columns else [None] * b3.height)],
        "As first player": [f"{pct(p)}%" for p in b3["as_first_player"]],
        "As second player": [f"{pct(p)}%" for p in b3["as_second_player"]],
        "Best of 3": [_ci(p, se, n) for p, se, n in zip(b3["match_win_rate"], b3["match_std_error"],
                                                         b3["matches"])],
        "Rounds per match": [num(x) for x in b3["mean_rounds"]]})


def _best_of_three_labels(b3: pl.DataFrame | None) -> list[tuple[str, str]] | None:
    """Per pairing, the one round's and the best of 3's rate with its interval as the table
    prints them (:func:`_best_of_three_rows`), for the figure's bars (review D #15: a bar read
    "100.0%" beside the table's 99.955%)."""
    if b3 is None or b3.height == 0:
        return None
    t = _best_of_three_rows(b3)
    return list(zip(t["One round"].to_list(), t["Best of 3"].to_list()))


def _bots(m: dict) -> str:
    """The bots the questions were played with, from their run.json: "balanced bots at every seat"
    (with the note the questions wrote, e.g. ", as in the run")."""
    return m.get("strategy_note") or f"{m.get('strategy')} bots at every seat"


def compared_words(compared: Sequence[tuple[str, str]] = ()) -> str:
    """What the baseline's questions section says of the other runs' rules: "no other run's rules
    were played", or, in a before/after whose variants' questions were played with their own rules
    (``compared``: each variant's label and the title of the section comparing its answers with the
    baseline's), "mv-b's own are compared with them in the section “Balance questions: mv-b vs
    mv-a”" (with several: "mv-b's and mv-c's own … in the sections “…” and “…”")."""
    if not compared:
        return "no other run's rules were played"
    labels = _and([f"{label}'s" for label, _ in compared])
    titles = _and([f"“{title}”" for _, title in compared])
    return (f"{labels} own are compared with them in the section{'s' if len(compared) > 1 else ''} "
            f"{titles}")


def _and(words: list[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else words[0]


def _intro(q, rs: RunSet, shown: dict[str, pl.DataFrame], own: bool = False,
           compared: Sequence[tuple[str, str]] = ()) -> str:
    """The section's introduction; ``own``: the first-player rows at the run's player count are the
    run's own (:func:`with_run_first_player`), and it says so; ``compared``: the variants whose own
    questions a before/after compares with these, and the titles of those sections
    (:func:`compared_words`)."""
    m, run = q.meta, rs.metas[0]
    games, strategy, seed = int(m.get("games") or 0), m.get("strategy"), m.get("seed")
    why = _bots(m)
    fp = shown.get("first_player")
    counts = list(m.get("players") or (sorted(set(fp["players"])) if fp is not None else []))
    card_players = m.get("card_players", rs.n_players)
    pairs = [tuple(p) for p in m.get("pairs") or []]
    elapsed = m.get("wall_time_s")
    took = f" ({elapsed:.1f} s)" if isinstance(elapsed, (int, float)) else ""
    names = list(run.get("strategies") or [])
    same = (bool(names) and set(names) == {strategy} and not run.get("rotate_seats")
            and len(rs.paths) == 1 and seed == run.get("seed") and rs.n_players in counts)
    replay = (f" (at {rs.n_players} players, the same seed, rules and bots replay the run's first "
              f"{min(games, rs.n_games):,} games)" if same else "")
    here = "played here" if q.played_here else f"in {q.path}"
    mine = (f" At the run's {rs.n_players} players the first-player rows are the run's own "
            f"{rs.n_games:,} games (its seat advantage above), not the {games:,} {here} (those stay "
            f"in questions/first_player.csv)." if own else "")
    where = ("Played for this report by the runner, not read from the run" if q.played_here else
             f"Read from {q.path} (written by {QUESTIONS}), not from the run")
    seed_text = f"its seed {seed}" if seed == run.get("seed") else f"seed {seed} (the run's is {run.get('seed')})"
    at_players = (f"the run's {card_players} players" if card_players == rs.n_players else
                  f"{card_players} players")
    ct = shown.get("card_types")
    ablation = ct is not None and "delta_founders_win_share" in ct.columns
    csvs = ", ".join(f"questions/{k}.csv" for k in shown)
    return (
        f"{where}: {games:,} games per question and per rules variant{took}, with {why}, and "
        f"{played_rules(q, rs, m.get('rules_name'), compared_words(compared))} and "
        f"{seed_text}{replay}. First-player advantage at "
        + (f"every player count the rules allow ({', '.join(map(str, counts))})" if m.get("for_run") else
           f"{', '.join(map(str, counts))} players")
        + (f"; the card ablation at {at_players}: for each card type the same number of games with one "
           f"copy of that type removed, and the change in its founders' win share and in game length"
           if ablation else f"; the card types at {at_players} (no ablation played)")
        + (f"; the 2-player best-of-3 match (first player alternating) next to the single round for "
           f"{', '.join(f'{a} vs {b}' for a, b in pairs)}" if "best_of_three" in shown else
           "; no best-of-3 question: the rules do not allow 2 players" if 2 not in counts else
           "; no best-of-3 question")
        + f".{mine} Win shares and match rates have 95% Wilson intervals over their games, matches or "
        f"founders; changes are ±1.96 standard errors. Tables as CSV in this report's directory: {csvs} "
        f"(settings in questions/settings.json). To measure a deck change on full runs instead, "
        f"simulate a rules file with one copy fewer and give both runs to balance report: the "
        f"before/after section compares guild and length metrics. --questions-games 0 skips this "
        f"section."
        + (f" {m['ablation_note']}" if m.get("ablation_note") else ""))


def _shown(q) -> dict[str, pl.DataFrame]:
    return {k: q.tables[k] for k in SHOWN if k in q.tables}


def _ablation_figure_note(ct: pl.DataFrame | None) -> list[str]:
    """What the ablation figure draws: each card's own interval, coloured by the verdict after
    Holm's correction over the types, so a whisker clear of 0 on a bar within noise is not read
    as a finding."""
    n = _ablation_rows(ct).height if ct is not None else 0
    if n == 0:
        return []
    d = _length_verdicts(ct, None)[0]
    only = d.filter(~pl.col("card").is_in(_ablation_rows(ct)["card"].implode()))["card"].to_list()
    family = (f"over the {n} types" if d.height in (0, n) else
              f"over the {n} types for the founders' win share and the {d.height} for game length ("
              + ", ".join(card_name(c) for c in only) + ": game length only, too few players to say for "
              f"{'its' if len(only) == 1 else 'their'} founders' win share)")
    return [f"In the figure the whiskers are each card's own 95% interval (unadjusted) and the colours "
            f"the verdicts after Holm's correction {family}: a bar within noise may have a whisker that "
            f"does not reach 0."]


#: How to play more of the questions' games, from either command that plays them (the same
#: sentences are printed by ``balance questions`` and on a report's page).
MORE_GAMES = "`balance questions --games`, or `balance report --questions-games`"


def played_rules(q, rs: RunSet, path: str | None = None, note: str = "") -> str:
    """Which rules the questions were played with, named so that a before/after page (whose
    variant has other rules) cannot lend them to the variant: "the rules of the baseline run mv-a
    only (rules SHA-256 6553921400fa, as in the table of runs)", with the rules' ``path`` first and
    a ``note`` last inside the parenthesis when given (the section's intro: whether and where the
    variant's own were played, :func:`compared_words`)."""
    sha = str(q.meta.get("rules_sha256") or rs.metas[0].get("rules_sha256") or "")
    inside = "; ".join(x for x in (path, f"rules SHA-256 {sha[:12]}, as in the table of runs" if sha else "")
                       if x)
    inside += f": {note}" if inside and note else note
    return f"the rules of the baseline run {rs.label} only" + (f" ({inside})" if inside else "")


def question_context(q, rs: RunSet) -> str:
    """Where the questions come from, for a sentence that leads the headline findings: "The balance
    questions played for this report, with the rules of the baseline run mv-a only (…) and
    balanced bots at every seat"."""
    return f"The balance questions {where_from(q)}, with {played_rules(q, rs)} and {_bots(q.meta)}"


def _reach_words(rows: pl.DataFrame, played: list[int], smallest: float) -> str:
    """", but these games cannot rule out an advantage of up to +3.7 pp at 3 players …": within
    noise is not "no advantage" when Seat 1's interval over the player counts (Bonferroni over the
    family's m counts: :func:`first_player_reach`) reaches the smallest difference that matters
    (review Z #2: "within noise" stood beside 34.9% (32.9–37.0) at 3 players). '' when every played
    count's interval lies within it."""
    low, high = first_player_reach(rows)
    far = [(max(abs(low[i]), abs(high[i])), i) for i in played
           if np.isfinite(low[i]) and np.isfinite(high[i])]
    if not far or max(far)[0] < smallest:
        return ""
    _, i = max(far)
    end = high[i] if abs(high[i]) >= abs(low[i]) else low[i]
    what = "an advantage" if end > 0 else "a disadvantage"
    return (f", but these games cannot rule out {what} of up to {pp(end)} at {int(rows['players'][i])} "
            f"players (its interval over the player counts, {pp_ci(low[i], high[i])}), against the "
            f"{100 * smallest:g} pp that matters; more games would tell ({MORE_GAMES})")


def first_player_reach(rows: pl.DataFrame, alpha: float = 0.05) -> tuple[np.ndarray, np.ndarray]:
    """Seat 1's advantage interval at each player count of ``rows`` (:func:`first_player_verdicts`'
    rows), held for the family's m counts at once (:func:`_tested`; Bonferroni, level 1 − alpha/m):
    Wilson's interval of its win share over its games at that level (:func:`analysis.stats.wilson`,
    as the seat tables give a share, shared wins as fractional wins) minus the fair share, so it
    stays within what a share can be (review s60 #3: the normal interval around 3 wins in 5 games
    reached +87.8 pp at 3 players, a win share of 121%). nan outside the family."""
    tested = _tested(rows)
    m = max(int(tested.sum()), 1)
    n = rows["games"].cast(pl.Float64).to_numpy()
    lo, hi = stats.wilson(rows["win_share"].to_numpy() * n, n, 1.0 - alpha / m)
    fair = rows["fair"].to_numpy()
    low, high = np.asarray(lo, float) - fair, np.asarray(hi, float) - fair
    return np.where(tested, low, np.nan), np.where(tested, high, np.nan)


def question_lead(q, rs: RunSet, fp: pl.DataFrame | None, ct: pl.DataFrame | None,
                  smallest: float = SMALLEST_SHARE, turns: float | None = None,
                  fair: dict[int, str] | None = None) -> tuple[str, list[str]]:
    """The played questions' answer for the page's headline findings (:data:`QUESTION_HEADLINES`)
    and the section's sentences it holds: Seat 1's advantage at every player count played here
    (not the run's own, which its seat findings give) that is clear after Holm over the player
    counts, each in the words of :func:`first_player_sentences` (its count, win share, interval,
    advantage and verdict), or that none is; and the card ablation's largest change of a founders'
    win share when it is clear and large enough to matter (:func:`ablation_sentences`). Said to
    be played with the baseline run's rules only (:func:`played_rules`); the player counts played
    with too few games (:func:`too_few_games`) named as such, with no verdict. ("", []) when no
    first-player row was played."""
    if fp is None or fp.height == 0:
        return "", []
    rows, verdicts = first_player_verdicts(fp, smallest)
    lines = first_player_sentences(fp, smallest, fair)
    played = [i for i, r in enumerate(rows.iter_rows(named=True)) if not r.get("from_run")]
    if not played:
        return "", []
    counts = [int(rows["players"][i]) for i in played]
    where = (", ".join(map(str, counts[:-1])) + " and " + str(counts[-1]) if len(counts) > 1 else str(counts[0]))
    # the run's own count named as the rulebook's or not (review U #13: "The rulebook names 2-player
    # play only" came last, in passing, and the run's 4 players, an assumed count, went unsaid)
    unbooked = rs.n_players != BOOK_PLAYERS
    # every count the rulebook does not name, the played ones too (designer review 44, questions
    # #11: "at 2, 3 and 5 players (this run plays 4, a count the rulebook does not name…)" left 3
    # and 5 as if named)
    assumed = sorted({*counts, rs.n_players} - {BOOK_PLAYERS})
    notes = ([f"this run plays {rs.n_players}, answered by its seat findings"] if rs.n_players not in counts
             else []) + ([f"the rulebook names {BOOK_PLAYERS}-player play only, MV-1: "
                          + _and([str(n) for n in assumed]) + " players are assumed counts"]
                         if assumed and (unbooked or rs.n_players not in counts) else [])
    text = (f"{question_context(q, rs)}, measure the first player's advantage at {where} players"
            + (f" ({'; '.join(notes)})." if notes else "."))
    clear = [i for i in played if verdicts[i] != stats.NOT_SHOWN]
    order = [played[j] for j in stats.practical_order(
        [verdicts[i] for i in played], [float(rows["advantage"][i]) for i in played], smallest)]
    led = [lines[i] for i in order if i in clear]       # reading order: large enough to matter first
    few = [i for i in played if too_few_games(rows.row(i, named=True))]
    told = [i for i in played if i not in few]
    if led:
        text += " " + " ".join(led)
        if any(int(rows["players"][i]) == BOOK_PLAYERS for i in clear) and not any("MV-1" in x for x in notes):
            text += f" The rulebook names {BOOK_PLAYERS}-player play only (MV-1)."
    elif told:
        at = "At each" if not few else f"At {_and([str(int(rows['players'][i])) for i in told])} players"
        text += (f" {at}, Seat 1's advantage is within noise ({_holm_counts(int(_tested(rows).sum()))}"
                 f"{100 * smallest:g} pp matters; each count in the section “{title(q)}”)"
                 + _reach_words(rows, told, smallest) + ".")
    if few:     # (review s60 #3: 5 games a count; no verdict, no interval read on them)
        games = sorted({int(rows["games"][i]) for i in few})
        text += (f" At {_and([str(int(rows['players'][i])) for i in few])} players, too few games to say "
                 f"({_and([f'{g:,}' for g in games])} games at {'each' if len(few) > 1 else 'it'}; at least "
                 f"{MIN_COUNT} needed: more with {MORE_GAMES}).")
    d = _ablation_rows(ct) if ct is not None else None
    if d is not None and d.height and (_ablation_verdicts(d, smallest) == stats.LARGE).any():
        largest = ablation_sentences(ct, smallest, turns)[1]      # in reading order: a large one
        text += f" With the same rules, {largest[0].lower()}{largest[1:]}"
        led.append(largest)
    return text, led


def _questions_section(q, rs: RunSet, figs: FigureSet, t: dict | None = None, side=None) -> Section:
    if q.not_played:
        return Section(SECTION_ID, title(q), f"Not played: {q.not_played}", intro_in_pdf=True)
    shown = _shown(q)
    fp, ct, b3 = (shown.get(k) for k in SHOWN)
    own = fp is not None and t is not None and run_measures_first_player(q, rs)
    if fp is not None:      # one answer per question on the page: the run's own at its player count
        fp = with_run_first_player(fp, t if own else {}, rs)
        own = bool(fp["from_run"].any())
        fp = with_side_first_player(fp, q, side)
    # the report's --smallest-difference over the one balance questions recorded, over 1 pp
    smallest = smallest_difference(rs.game, "share", {**(q.meta.get("smallest_difference") or {}),
                                                      **(rs.smallest or {})})
    overrides = {**(q.meta.get("smallest_difference") or {}), **(rs.smallest or {})}
    turns = smallest_difference(rs.game, "length", overrides)
    # the first sentence also leads the headline findings (QUESTION_HEADLINES): the played answer
    # the run's own seats cannot give; the sentences it holds are not said twice
    # the fair share of each count as the page prints it, the run's own as its lead (session 63)
    fair = fair_by_count(fp, smallest, (t or {}).get("seats"), rs.n_players) if fp is not None else {}
    lead, held = question_lead(q, rs, fp, ct, smallest, turns, fair)
    fp_lines = first_player_sentences(fp, smallest, fair) if fp is not None else []
    ab_lines = ablation_sentences(ct, smallest, turns) if ct is not None else []
    b3_lines = best_of_three_sentences(b3) if b3 is not None else []
    sentences = ([lead] if lead else []) + [x for x in fp_lines + ab_lines + b3_lines if x not in held]
    if not lead and sentences:      # (no first player played here: the first sentence leads, said whose)
        sentences[0] = f"{question_context(q, rs)}: {sentences[0][0].lower()}{sentences[0][1:]}"
    names = (figs.add("questions_first_player", F.played_first_player(fp), " ".join(fp_lines))
             + figs.add("questions_ablation", F.played_ablation(ct, _ablation_verdict_map(ct, smallest),
                                                                length_verdicts=length_verdict_map(ct, turns)),
                        " ".join(ab_lines[:3] + _ablation_figure_note(ct)))
             + figs.add("questions_best_of_three", F.played_best_of_three(b3, _best_of_three_labels(b3)),
                        " ".join(b3_lines)))
    tables = []
    if fp is not None:
        tables.append(("First-player advantage per player count", _first_player_rows(fp, where_from(q))))
    if ct is not None:
        n = int(ct["games"][0]) if "games" in ct.columns and ct.height else int(q.meta.get("games") or 0)
        tables.append((f"Card types at {q.meta.get('card_players', rs.n_players)} players, and with one "
                       f"copy removed (each deck's own {n:,} games "
                       f"{'played here' if q.played_here else f'in {q.path}'}"
                       + (f"; the guild types above are the run's {rs.n_games:,} games)"
                          if t is not None and "guild_types" in t else ")"), _card_rows(ct, smallest)))
    if b3 is not None:
        tables.append(("2 players: one round vs best of 3", _best_of_three_rows(b3)))
    # a before/after names the sections comparing its variants' own answers with these (set by
    # reports.build.build_report on the questions it was given, before the sections are built)
    compared = tuple(q.compared_in)
    intro = _intro(q, rs, shown, own, compared)
    if fp is not None and "run_label" in fp.columns:
        for r in fp.filter(pl.col("run_label").is_not_null() & (pl.col("seat") == 0)).iter_rows(named=True):
            intro += (f" At {r['players']} players they are {r['run_label']}'s own {r['games']:,} games (its "
                      f"seats in the side-by-side table above), not the ones played here (those stay in "
                      f"questions/first_player.csv).")
    return Section(SECTION_ID, title(q), intro, names, tables, sentences, intro_in_pdf=True)


def _games_sha256(meta: dict) -> str | None:
    """A run's games.parquet SHA-256 from its run.json ``integrity`` (None when not recorded)."""
    integrity = meta.get("integrity")
    files = integrity.get("files") if isinstance(integrity, dict) else None
    entry = files.get("games.parquet") if isinstance(files, dict) else None
    sha = entry.get("sha256") if isinstance(entry, dict) else None
    return sha if isinstance(sha, str) else None


def check_questions(q, rs: RunSet, option: str = "--questions") -> None:
    """A one-line :class:`UsageError` unless the questions directory ``q`` was played for the
    baseline ``rs`` (:func:`reports.build.build_report` calls it after
    :func:`reports.questions.check_matches`, which checks the game and the rules): the same player
    count (run.json ``for_run_players``, or ``card_players``) and the same run (``for_run_games_sha256``,
    else ``for_run_created_utc``, against the baseline runs' own; a directory written before these
    were recorded: its seed). A
    3-player directory on a 4-player page showed "Card types at 3 players" as the run's."""
    m = q.meta
    theirs = m.get("for_run") or "another run"
    fix = f"play them for this run with balance questions {rs.paths[0]} --out DIR"
    players = m.get("for_run_players", m.get("card_players"))
    if isinstance(players, (int, float)) and int(players) != rs.n_players:
        raise UsageError(f"{option} {q.path}: played for {theirs} ({int(players)} players), but the baseline "
                         f"run {rs.label} has {rs.n_players} players; {fix}")
    sha, created = m.get("for_run_games_sha256"), m.get("for_run_created_utc")
    ours = [_games_sha256(meta) for meta in rs.metas]
    if sha and any(ours) and sha not in ours:
        raise UsageError(f"{option} {q.path}: played for another run ({theirs}, games.parquet "
                         f"{str(sha)[:12]}) than the baseline run {rs.label} (games.parquet "
                         f"{', '.join(str(c)[:12] for c in ours if c)}); {fix}")
    when = [meta.get("created_utc") for meta in rs.metas]
    if not sha and created and any(when) and created not in when:
        raise UsageError(f"{option} {q.path}: played for another run ({theirs}, written {created}) than the "
                         f"baseline run {rs.label} (written {', '.join(str(c) for c in when if c)}); {fix}")
    seeds = {int(meta.get("seed") or 0) for meta in rs.metas}
    if not (sha or created) and isinstance(m.get("seed"), int) and m["seed"] not in seeds:
        raise UsageError(f"{option} {q.path}: played for another run ({theirs}, seed {m['seed']}) than the "
                         f"baseline run {rs.label} (seed {', '.join(map(str, sorted(seeds)))}); {fix}")


def printed_summary(q) -> list[tuple[str, pl.DataFrame, list[str]]]:
    """What ``balance questions RUN --out DIR`` prints of a Médiévallons questions directory, in the
    page's words and at most about 90 columns wide: (title, table of texts, sentences under it)
    per question. Seats numbered from 1, rates as percentages with their 95% intervals, the card
    ablation's before, after and change at one precision (:func:`ablation_change`) with each
    card's own interval (unadjusted) beside its verdict (Holm over the types), as the report's
    section words them."""
    if q.not_played:
        return [("Not played", pl.DataFrame(), [q.not_played])]
    shown = _shown(q)
    fp, ct, b3 = (shown.get(k) for k in SHOWN)
    overrides = q.meta.get("smallest_difference") or {}
    smallest = smallest_difference(GAME, "share", overrides)
    turns = smallest_difference(GAME, "length", overrides)
    out: list[tuple[str, pl.DataFrame, list[str]]] = []
    if fp is not None and fp.height:
        fp = with_run_first_player(fp, {}, None)       # Wilson intervals over the played games
        fair = fair_by_count(fp, smallest)              # (one value per count, as the page: session 63)
        out.append((f"First player: win share per seat (Seat 1 plays first; {int(fp['games'][0]):,} games "
                    f"per player count)", pl.DataFrame({
                        "Players": [str(x) for x in fp["players"]],
                        "Seat": [f"Seat {s + 1}" for s in fp["seat"]],
                        "Win share (95% interval)": [_vs_fair(r)[0] for r in fp.iter_rows(named=True)],
                        "Fair share": [f"{_vs_fair(r, fair)[1]}%" for r in fp.iter_rows(named=True)],
                        "vs fair": [_vs_fair(r)[2] for r in fp.iter_rows(named=True)]}),
                    first_player_sentences(fp, smallest, fair)))
    if ct is not None and ct.height:
        founders = ct["founders"].to_list() if "founders" in ct.columns else [None] * ct.height
        games = int(ct["games"][0])
        rows = list(ct.iter_rows(named=True))
        out.append((f"Card types at {int(ct['players'][0])} players, full deck ({games:,} games)",
                    pl.DataFrame({
                        "Card type": [card_name(c) for c in ct["card"]],
                        "Founded by": [f"{small_share(x)}%" for x in ct["founded_share"]],
                        "Founders' win share (95%)": [
                            _few_founders(n) or ("" if r["founders_win_share"] is None
                                                 or r["founders_win_share"] != r["founders_win_share"]
                                                 else _ci(r["founders_win_share"], r["founders_std_error"], n))
                            for r, n in zip(rows, founders)],
                        "Others' win share": [f"{pct(x)}%" for x in ct["others_win_share"]]}), []))
        keep = _ablation_rows(ct)
        if keep.height:
            digits = common_digits([_ablation_metric(r) for r in keep.iter_rows(named=True)], more=1)
            verdicts = dict(zip(ct["card"].to_list(), _card_verdicts(ct, smallest)))
            lines = []
            for r in keep.iter_rows(named=True):
                before, after, change, interval = ablation_change(r, digits)
                lines.append({
                    "Card type": card_name(r["card"]),
                    "Full\ndeck": before, "One\nfewer": after,
                    "Change, pp": f"{change.removesuffix(' pp')} ({interval.removesuffix(' pp')})",
                    "Verdict": verdicts[r["card"]],
                    "Length,\nplayer turns": f"{signed(r['delta_mean_turns'])} ± "
                                     f"{num(_Z * r['delta_turns_std_error'], 1)}"})
            out.append((f"Card ablation: founders' win share with one copy of their type removed "
                        f"({games:,} games per deck). Change with its 95% interval, this card's alone "
                        f"(unadjusted); verdict by Holm over the {keep.height} types, {100 * smallest:g} pp "
                        f"matters; change of the mean game length with its 95% interval",
                        pl.DataFrame(lines), ablation_sentences(ct, smallest, turns)))
    if b3 is not None and b3.height:
        table = _best_of_three_rows(b3)
        out.append(("2 players: one round vs a best-of-3 match (first player alternating; the first-named "
                    "bot's win rate)",
                    pl.DataFrame({"Bot vs opponent": [f"{a} vs {b}" for a, b in zip(b3["bot"], b3["opponent"])],
                                  "One round (95%)": table["One round"], "Best of 3 (95%)": table["Best of 3"],
                                  "Rounds per match": table["Rounds per match"]}), []))
    return out


def sections(t: dict, rs: RunSet, figs: FigureSet, questions=None, side=None) -> list[Section]:
    """Guild types (when the run records ``founded_<type>``) and the played questions (when given).
    ``side``: the configurations shown side by side, (label, run set, tables), the first run's
    first: another one's own seats answer the first-player question at its player count
    (:func:`with_side_first_player`)."""
    secs = [_guild_section(t, figs, rs.smallest_of("share"))] if "guild_types" in t else []
    if questions is not None:
        secs.append(_questions_section(questions, rs, figs, t, side))
    return secs


def question_files(q, rs: RunSet) -> dict[str, pl.DataFrame | str]:
    """The shown question tables as ``questions/<table>.csv`` and the settings they were played
    with as ``questions/settings.json``; nothing when nothing was played."""
    if q.not_played:
        return {}
    shown = _shown(q)
    m = q.meta
    files: dict[str, pl.DataFrame | str] = {f"questions/{k}.csv": v for k, v in shown.items()}
    files["questions/settings.json"] = json.dumps({
        "games": m.get("games"), "strategy": m.get("strategy"), "seed": m.get("seed"),
        "player_counts": m.get("players"), "card_players": m.get("card_players"),
        "pairs": m.get("pairs"), "rules_name": m.get("rules_name"), "rules_sha256": m.get("rules_sha256"),
        "run": m.get("for_run"), "questions_dir": None if q.played_here else str(q.path),
        "wall_time_s": m.get("wall_time_s")}, indent=2) + "\n"
    return files
