"""The report's glossary: every statistic a designer meets, explained once in plain words.

:data:`TERMS` maps a term, as the report's sentences and table headers spell it, to a plain-language
explanation. :func:`used_terms` picks the terms a report actually uses (so the "How to read this
report" section lists only those); :func:`section_rows` gives them as the glossary table that the
HTML page and the PDF both show; :func:`title_for` is the hover text of a table header or a term in
a sentence (the HTML page sets it as a ``title``). The words follow the methods of
:mod:`analysis.stats` (Wilson, t and Newcombe intervals, Holm's correction; see docs/analysis.md).

May import only the standard library.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone


INTERVALS_NOTE = ("Intervals are 95%, each on its own, unless marked as adjusted (simultaneous, "
                  "Bonferroni, or a stated level such as 97.5%): an adjusted interval holds for its "
                  "whole family of comparisons at once, so it is wider.")
"""What every page says of its intervals, at its head and in its glossary (review N #7: "All
intervals are 95%." headed pages that show intervals adjusted over a panel's cells or at 97.5%)."""

METHODS_NOTE = ("Methods: Wilson intervals for proportions, Student t for means, Newcombe for differences of "
                "proportions, Holm's correction across compared metrics; see docs/analysis.md.")
"""The closing note on methods of a page that does not name its own (:data:`reports.html.NOTES`);
the report of runs names exactly those its numbers use (:func:`methods_note`); its terms are in the
glossary like the sections' (review 45 #6)."""


def methods_note(parts) -> str:
    """The closing note on the methods a page's numbers use, from their phrases in reading order
    (:func:`reports.sections.page_methods` picks them): "Methods: Wilson intervals for proportions;
    Student t for means; …; see docs/analysis.md." (review s61 fix 260 #2: one fixed line named
    Newcombe's interval on a before/after led by paired per-game intervals, and no ablation's)."""
    return "Methods: " + "; ".join(parts) + "; see docs/analysis.md."


def generated_note(now: datetime | None = None) -> str:
    """When the page was written, as the HTML page and the PDF both head it: "Generated
    2026-11-28 11:40 UTC." (``now``: that moment, default the current time; one value for both
    files of a report, so they say the same minute)."""
    now = now or datetime.now(timezone.utc)
    return f"Generated {now.astimezone(timezone.utc):%Y-%m-%d %H:%M} UTC."


# Order = the order of the glossary section: from what every report has to the rarer statistics.
TERMS: dict[str, str] = {
    "win share": "The share of games a seat, role or strategy wins; a win shared by k players counts "
                 "1/k for each of them.",
    "fair share": "In a game whose seats are alike, the win share every seat would have if the seats "
                  "were equal: 1 / number of players (25% at 4 players). A game whose seats play "
                  "different roles (Seigneurial's Seigneur and Censitaires, a Fief combat's attacker "
                  "and defender) has none: each side's share of the games stands as it is, and a seat "
                  "of a role of several seats is compared with its role's other seats, against an "
                  "equal split of the role's wins.",
    "pp": "Percentage points: the difference between two percentages. 27% against a fair 25% is "
          "+2 pp (not +2%).",
    "95% interval": "The range the true value lies in with 95% confidence, given the number of games "
                    "played; more games give a narrower interval. Written as 27.9% (27.6–28.2).",
    "significant": "The difference is larger than chance alone would explain: for a single number, its "
                   "95% interval excludes the reference (the fair share, or no change); where many "
                   "numbers are tested together, after Holm's correction.",
    "Holm": "Holm's correction: when many numbers are tested at once, a few would look significant by "
            "chance alone, so each p-value is raised (Holm-adjusted) to keep the chance of any false "
            "alarm in the whole table at 5%. A difference whose interval excludes zero can therefore "
            "still be not significant after the correction.",
    "may matter": "\"Clear, may matter\": the difference is real (clear after the correction for "
                  "the many numbers compared), but its interval, widened for those many numbers, "
                  "reaches both below and above the smallest difference that matters (1 pp for shares unless the page says "
                  "otherwise), so these games cannot yet say whether it matters; more games would "
                  "settle it. \"Clear and large enough to matter\" needs the whole interval at least "
                  "that far from zero, \"clear but small\" the whole interval closer.",
    "at once": "An interval held to a whole family of numbers at once (all the seats, or all the "
               "compared metrics): widened so that all of them hold together with 95% confidence, so "
               "it is wider than each one's own 95% interval. A clear difference's size is read on it, "
               "on the difference's side of zero: \"clear and large enough to matter\" when all of it "
               "is at least the smallest difference that matters, \"clear, may matter\" when it "
               "reaches both sides of that, \"clear but small\" when all of it is closer to zero.",
    "verdict": "How a difference is read, by its size: \"within noise\" (not clear once the "
               "many numbers compared are allowed for: these games cannot tell it from chance), "
               "\"clear but small\" (real, and all of its interval, widened for those many numbers, "
               "lies closer to zero than the smallest difference that matters), \"clear, may "
               "matter\" (real, and that interval reaches both sides of the smallest difference "
               "that matters) and \"clear and large enough to matter\" (all of it at least that far "
               "from zero). The column's heading names the correction and the smallest difference.",
    "p": "p-value: how likely a difference at least this large would be if there were no real "
         "difference. Small (below 0.05) means chance alone is an unlikely explanation.",
    "chi-square": "A test of whether all seats win equally often; the larger the value (for its "
                  "degrees of freedom, the number of seats − 1), the smaller its p-value.",
    "Balance": "Ludii's balance index, on places rather than wins: every player earns 1 for first "
               "place, 0 for last and a share in between for the places between (at 4 players: 1, "
               "2/3, 1/3, 0); Balance is 1 − (largest − smallest seat average). 1 means every seat "
               "places equally well. The same idea on wins alone is the win-share balance.",
    "win-share balance": "1 − (largest − smallest seat win share): 1 means every seat wins equally "
                         "often; 0.9 means the best and worst seats are 10 pp apart.",
    "AdvantageP1": "Ludii's first-player advantage: Seat 1's (the player who starts) average place "
                   "credit, 1 for first place down to 0 for last (0.5 = an average seat), not its win "
                   "share.",
    "z": "How many standard errors a difference lies from zero (its size divided by its uncertainty); "
         "beyond ±1.96 the 95% interval excludes zero.",
    "Bonferroni": "A correction for k numbers read together: each one's interval is widened to "
                  "the level 1 − 5%/k, so that all k hold together with at least 95% confidence.",
    "Newcombe": "Newcombe's interval for the difference of two shares, built from each share's "
                "Wilson interval: reliable near 0% and 100%, where a plain ± interval is not.",
    "Welch": "Welch's t interval for the difference of two means, which does not assume the two "
             "runs' games spread alike.",
    "Wald": "A Wald test: a difference, or several at once, set against its standard error (their "
            "covariance, for several) and read on the normal (chi-square) distribution.",
    "event swing": "How unevenly a game's event cards treat its players: the largest minus the "
                   "smallest of the players' total event-card gains in that game (in coins), averaged "
                   "over the games.",
    "mean rank": "A seat's (or role's) average finishing place, 1 for first. Tied players share the better "
                 "place (two tied for first both get 1, the next player 3), so with ties the seats' "
                 "mean ranks average a little under the middle place (2.5 at 4 players).",
    "association": "Under bot play, a pattern that goes with winning (for example founding guilds, or "
                   "holding many tiles, of one type) is not proof that it causes winning: good "
                   "positions collect both. To test a cause, change the rule in a rules file and "
                   "compare the two runs.",
    "per extra tile": "The slope: how much the win share changes, on average, for each extra tile of "
                      "the type held at the end of the game (an association).",
    "lift": "How many times more often a group appears among winners than among all players "
            "(×1.5: half as often again).",
    "paired by deal": "The same deal is played once per rotation of the seats, so seat advantage and "
                      "the luck of the deal cancel out of the comparison of strategies.",
    "Wilson": "The Wilson score interval, a 95% interval for a share that stays reliable near 0% and "
              "100%; when only 1 to 3 games (of over 50; 1 or 2 of fewer) are successes or failures, "
              "its end on that side is the exact Poisson one (Brown, Cai & DasGupta).",
    "playouts per option": "The search bot's budget, how hard it thinks: at each of its decisions it "
                           "plays each option it has out this many times with the seat's own bot (to "
                           "the end of the game, or for the game's search horizon) and takes the "
                           "option whose playouts won most. Budget 0 is no search: every seat plays "
                           "its own bot.",
    "family": "The numbers adjusted together for a comparison (Holm's correction, Bonferroni "
              "intervals): a before/after judges the seats' (or sides') win shares as one family "
              "and every other metric it tests as another, so a seat's verdict does not depend on "
              "how many other metrics the game reports; each family keeps its own 5% chance of "
              "a false alarm between two runs of the same rules.",
    "winner's margin": "How far the winner finishes ahead of the runner-up (measured as the gap between the two highest final scores: the same wherever the winner holds the top score), in the game's score "
                       "unit, averaged over the games (a game whose top score is shared counts 0).",
    "player turns": "In a game where each turn is one player's (Médiévallons, MV-3), the game's "
                    "length counts those turns: at 4 players, 4 player turns make one round.",
    "Student t": "Student's t interval for a mean (a score, a length): the mean plus or minus a "
                 "multiple of its standard error, the multiple from Student's t distribution (about "
                 "2 for 95% once there are more than a few dozen games).",
    "ablation": "The same games played again with one thing taken out, all else alike (Middle-Ages: an "
                "event card made to do nothing, still drawn at its place, so every other card and tile "
                "is the same; Médiévallons: one copy of a card type fewer): the change is what that "
                "thing does under these bots, an effect rather than an association.",
    "R²": "How much of a curve a straight line describes, from 0 (nothing) to 1 (all of it). A tile "
          "slope (\"per extra tile\") is read as a straight line where R² is at least 0.9; below, the "
          "win share bends with the count, and its value at each count says more than its slope.",
    "clustered by game": "An interval computed with each game's players taken together rather than as "
                         "independent rows: players of one game share its cards and tiles, and when one "
                         "wins the others lose, so their results are tied; the clustered interval allows "
                         "for that and is the honest, usually wider one.",
}

# How a term shows up in text: a pattern per term (word boundaries; the first match is the one a
# hover title is attached to).
_PATTERNS: dict[str, str] = {
    "win share": r"\bwin shares?\b",
    "fair share": r"\bfair(?: share)?\b",
    "pp": r"(?<![\w])pp\b",
    "95% interval": r"\b(?:95% )?intervals?\b",
    "significant": r"\b(?:not )?significant(?:ly)?\b",
    "Holm": r"\bHolm(?:'s|-adjusted)?\b",
    "may matter": r"\bmay matter\b",
    "at once": r"\bat once\b",
    "verdict": r"(?i:\bverdicts?\b)",
    "p": r"(?<![\w-])p(?: [<=] |-value)",
    "chi-square": r"(?i:\bchi-square\b)",
    "Balance": r"(?<!win-share )\bBalance\b",
    "win-share balance": r"(?i:\bwin-share balance\b)",
    "AdvantageP1": r"\bAdvantageP1\b",
    "z": r"(?<![\w-])z(?= = |\b$)|\|z\|",
    "Bonferroni": r"\bBonferroni\b",
    "event swing": r"\bevent swing\b",
    "Newcombe": r"\bNewcombe\b",
    "Welch": r"\bWelch(?:'s)?\b",
    "Wald": r"\bWald\b",
    "mean rank": r"(?i:\bmean ranks?\b)",
    "association": r"\b(?:goes|go) with\b|\bassociation\b",
    "per extra tile": r"\bper extra\b",
    "lift": r"\blift\b|×\d",
    "paired by deal": r"\bpaired by deal\b",
    "Wilson": r"\bWilson\b",
    "playouts per option": r"\bplayouts per option\b",
    "family": r"\bfamil(?:y|ies)\b",
    "winner's margin": r"(?i:\bwinner's (?:margin|lead)\b)",
    "player turns": r"\bplayer turns?\b",
    "Student t": r"\bStudent(?:'s)? t\b",
    "ablation": r"(?i:\bablations?\b)",
    "R²": r"\bR²",
    "clustered by game": r"\bclustered by (?:game|deal)\b",
}
_COMPILED = {k: re.compile(v) for k, v in _PATTERNS.items()}


def used_terms(texts) -> list[str]:
    """The glossary terms that appear in any of ``texts``, in glossary order; the basic four (win
    share, fair share, pp, 95% interval) and "significant" are always explained."""
    blob = "\n".join(texts)
    always = {"win share", "fair share", "pp", "95% interval", "significant"}
    return [k for k in TERMS if k in always or _COMPILED[k].search(blob)]


def section_rows(terms: list[str]) -> list[tuple[str, str]]:
    """(term, plain explanation) for each of ``terms``."""
    return [(k, TERMS[k]) for k in terms]


def title_for(text: str) -> str | None:
    """The explanation of the glossary term found first in ``text`` (a table header, read from its
    start: "Verdict (Holm over the 4 seats; 1 pp matters)" is explained as a verdict, not as "pp",
    review U #10), or None."""
    found = [(m.start(), k) for k, pat in _COMPILED.items() if (m := pat.search(text))]
    return TERMS[min(found)[1]] if found else None


def spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, term) of the first occurrence of each term in ``text``, not overlapping, in order:
    where the HTML page attaches hover titles in a sentence."""
    found: list[tuple[int, int, str]] = []
    for k, pat in _COMPILED.items():
        m = pat.search(text)
        if m and m.end() > m.start() and not any(m.start() < e and s < m.end() for s, e, _ in found):
            found.append((m.start(), m.end(), k))
    return sorted(found)
