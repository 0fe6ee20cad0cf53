"""Seigneurial report sections (the game's report hook): objective cards and the land improvements.

Found through the Seigneurial spec (``report_hooks``). The role advantage (Seigneur against
Censitaires, and the Censitaire seats) is a common section (:mod:`reports.sections`, table
``roles``); game length and end reasons, including the share of games stopped by the turn bound
(``truncated``), are common too. This hook adds: :func:`headlines` — the easiest and hardest
Objective card, the share of games reaching the land improvements and who wins before and after
them; :func:`sections` — "Objective cards" and "Land improvements", from the tables of
:mod:`analysis.games.seigneurial`. Every difference is worded as an association under bot play.

Whether a card is clear of the average Censitaire is decided over the family of every card in the
table (:func:`adjusted_objectives`: Holm over the cards, then worded by size against the smallest
share difference that matters), the same in the headlines, the table and the figure's colours.

May import numpy, polars, :mod:`analysis.stats`, :mod:`analysis.load` (the smallest difference),
:mod:`reports.text`, :mod:`reports.sections` and :mod:`reports.figures.seigneurial`.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from analysis import stats
from analysis.load import smallest_difference
from reports.figures import seigneurial as F
from reports.sections import FigureSet, Section, pct_column
from reports.text import num, pct, row_pct_ci, turns, verdict_words

SECTIONS_AFTER = "length"
MIN_DEALT = 30      # an Objective card dealt fewer times is not ranked in a sentence


def _smallest(rs) -> float:
    return smallest_difference(rs.game if rs is not None else None, "share",
                               rs.smallest if rs is not None else None)


def adjusted_objectives(o: pl.DataFrame, smallest: float = stats.DEFAULT_SMALLEST_SHARE) -> pl.DataFrame:
    """The ``objectives`` table with ``significant`` decided over the family of its cards: each
    card's win share against the average Censitaire's (z from the card's binomial standard error),
    clear when Holm's step-down over the cards rejects at 5%; ``verdict`` words it by size
    (:func:`analysis.stats.practical_holm`, ``smallest`` = the share difference that matters)."""
    if o.height == 0:
        return o.with_columns(pl.lit(stats.NOT_SHOWN).alias("verdict"))
    p, n, diff = (o[c].to_numpy().astype(float) for c in ("win_share", "dealt", "diff"))
    with np.errstate(invalid="ignore", divide="ignore"):
        se = np.sqrt(p * (1 - p) / n)
        z = np.where(se > 0, diff / se, np.nan)
    verdict = stats.practical_holm(diff, z, smallest)
    return o.with_columns(pl.Series("verdict", list(verdict)),
                          pl.Series("significant", [v != stats.NOT_SHOWN for v in verdict]))


def objective_headlines(t: dict, rs=None) -> list[str]:
    if "objectives" not in t:
        return []
    family = t["objectives"].height
    o = adjusted_objectives(t["objectives"], _smallest(rs)).filter(pl.col("dealt") >= MIN_DEALT)
    if o.height < 2:
        return []
    easy, hard = o.row(0, named=True), o.row(o.height - 1, named=True)
    avg = pct(easy["censitaire_share"])
    out = []
    for r, what in ((easy, "easiest"), (hard, "hardest")):
        verdict = (f"{verdict_words(r['verdict'])}: " + ("above" if r["diff"] > 0 else "below")
                   + f" the average (Holm over the {family} cards)" if r["significant"] else
                   f"within the noise of the average (Holm over the {family} cards)")
        out.append(f"The {what} Objective card is #{r['objective']} ({r['label']}): a Censitaire holding "
                   f"it wins {row_pct_ci(r, 'win_share')} of its games against {avg}% for the average "
                   f"Censitaire, {verdict}.")
    return out


def improvement_headlines(t: dict) -> list[str]:
    if "improvements" not in t:
        return []
    before, after = t["improvements"].row(0, named=True), t["improvements"].row(1, named=True)
    out = [f"{row_pct_ci(after, 'share')} of games reach the land improvements"
           + (f", on average at turn {turns(round(after['mean_improvement_turn'], 1))}."
              if after["games"] else ".")]
    if before["games"] and after["games"]:
        out.append(f"The Seigneur wins {row_pct_ci(after, 'seigneur_share', 'seigneur_ci_low', 'seigneur_ci_high')} "
                   f"of games that reach the improvements and "
                   f"{row_pct_ci(before, 'seigneur_share', 'seigneur_ci_low', 'seigneur_ci_high')} of games "
                   f"that end before them (an association: games ending early are short games).")
    return out


def headlines(t: dict, rs) -> list[str]:
    return objective_headlines(t, rs) + improvement_headlines(t)


def _objective_rows(t: dict, rs=None) -> pl.DataFrame:
    o = adjusted_objectives(t["objectives"], _smallest(rs))
    smallest = _smallest(rs)
    return pl.DataFrame({
        "Card": [f"#{i}" for i in o["objective"]], "Requires": o["label"], "Dealt": o["dealt"],
        "Win share": pct_column(o, "win_share", "ci_low", "ci_high"),
        "vs average (pp)": [f"{100 * d:+.1f}".replace("-", "−") for d in o["diff"]],
        f"Clear of the average (Holm over the {o.height} cards; {100 * smallest:g} pp matters)":
            [verdict_words(v) for v in o["verdict"]],
        "Goal reached at the end": [f"{num(m, 1)}% ({num(lo, 1)}–{num(hi, 1)})" for m, lo, hi in
                                    zip(o["mean_progress"], o["progress_ci_low"], o["progress_ci_high"])],
    })


def _improvement_rows(t: dict) -> pl.DataFrame:
    d = t["improvements"]
    return pl.DataFrame({
        "Games": d["label"], "Count": d["games"], "Share": pct_column(d, "share", "ci_low", "ci_high"),
        "Seigneur's win share": pct_column(d, "seigneur_share", "seigneur_ci_low", "seigneur_ci_high"),
        "Mean turns": ["" if m != m else num(m, 1) for m in d["mean_turns"]],
        "Improvements at turn": ["" if m is None else num(m, 1) for m in d["mean_improvement_turn"]],
    })


def sections(t: dict, rs, figs: FigureSet, questions=None) -> list[Section]:
    out = []
    if "objectives" in t:
        out.append(Section(
            "objectives", "Objective cards",
            "How often a Censitaire wins when it holds each Objective card (SG-2), with 95% Wilson "
            "intervals over the games the card was dealt, against the average Censitaire; and how much "
            "of the card's requirement it holds at the end. A card clear of the average (Holm over "
            f"the {t['objectives'].height} cards, so that among that many cards one is flagged by chance at most 5% "
            "of the time) is easier or harder than the others under these bots.",
            figs.add("objectives", F.objectives(
                {"objectives": adjusted_objectives(t["objectives"], _smallest(rs))},
                how=f"Holm over the {t['objectives'].height} cards")),
            [("Objective cards (easiest first)", _objective_rows(t, rs))],
            objective_headlines(t, rs)))
    if "improvements" in t:
        out.append(Section(
            "improvements", "Land improvements",
            "Games that end before the Seigneur reaches the midpoint of the rent track, against games that "
            "reach it (the land improvements: bigger harvests, bigger rent, more forced draws; SG-5.6), and "
            "the Seigneur's win share in each, with 95% Wilson intervals. The two groups differ in length "
            "too, so this is an association, not the effect of the improvements alone: compare two runs "
            "with different rent tables for that.",
            figs.add("improvements", F.improvements(t)), [("Before and after the improvements",
                                                           _improvement_rows(t))],
            improvement_headlines(t)))
    if "seigneur_squares" in t:
        sq = t["seigneur_squares"]
        out.append(Section(
            "squares", "The Seigneur's final square", "Where the Seigneur stands on the rent track when "
            "the game ends (SG-5.6).", figs.add("seigneur_squares", F.final_squares(sq)),
            [("Final square", square_rows(sq))], square_sentences(sq)))
    return out


def square_rows(sq: pl.DataFrame) -> pl.DataFrame:
    """The final-square table: every share with one decimal and its % sign (5.0%, not 5)."""
    return pl.DataFrame({"Square": sq["square"], "Games": sq["games"],
                         "Share of games": [f"{pct(s)}%" for s in sq["share"]]})


def square_sentences(sq: pl.DataFrame) -> list[str]:
    """Where the Seigneur usually ends, and the share of games it ends on its goal square or beyond
    the midpoint, from the ``seigneur_squares`` table."""
    if sq.height == 0 or int(sq["games"].sum()) == 0:
        return []
    top = sq.sort(["games", "square"], descending=[True, False]).row(0, named=True)
    n = int(sq["games"].sum())
    mean = float((sq["square"] * sq["games"]).sum()) / n
    return [f"The Seigneur most often ends on square {top['square']} ({pct(top['share'])}% of games); "
            f"on average on square {num(mean, 1)} (squares {int(sq['square'].min())} to "
            f"{int(sq['square'].max())} seen)."]
