"""Seigneurial report sections (the game's report hook): objective cards and the land improvements.

Found through the Seigneurial spec (``report_hooks``). The role advantage (Seigneur against
Censitaires, and the Censitaire seats) is a common section (:mod:`reports.sections`, table
``roles``); game length and end reasons, including the share of games stopped by the turn bound
(``truncated``), are common too (the End reasons table read by side, with each side's total, from
the spec's ``END_SIDES``: :func:`reports.sections.end_rows`). This hook adds: :func:`headlines` — the easiest and hardest
Objective card, with the cards that cannot be told apart from it, the share of games reaching the
land improvements and who wins before and after them, and how many of the Seigneur's wins SG-6's
tie-break gave him (:func:`tie_break_headlines`, the page's and the terminal's first finding after
the sides: :func:`lead_headlines`); :func:`sections` — "Objective cards" and
"Land improvements", from the tables of :mod:`analysis.games.seigneurial`. Every difference between
cards is worded as an association under bot play; what the rules make certain is said as a rule.

Identical Objective cards (the default deck's three "each type ≥ 4") are one card here
(:func:`analysis.games.seigneurial.distinct_cards`): a ranking never picks one copy out of them.
Whether a card is clear of the average Censitaire is decided over the family of the distinct cards
(:func:`analysis.games.seigneurial.adjusted_objectives`: each card's exact binomial test against
the average Censitaire's share, Holm over them, then worded by size against the smallest share
difference that matters on the card's own exact interval at 1 − 0.05/cards minus the average,
:func:`analysis.games.seigneurial.card_size_interval`), the same in the headlines, the table, the figure's colours and
``balance export --what objectives``. The
easiest (hardest) card is named with every card whose win share cannot be told from it
(:func:`analysis.games.seigneurial.not_told_apart`, Bonferroni over the other cards).

The Seigneur cannot win a game that ends before the land improvements (SG-1: the midpoint lies below
the goal square; SG-5.6: he advances at most one square a turn; SG-6: he wins on the goal square),
so that 0% is worded as the rule it is, not as an association.

May import polars, :mod:`analysis.stats`, :mod:`analysis.load` (the smallest difference),
:mod:`analysis.games.seigneurial` (the pooled cards and their tests), :mod:`reports.text`, :mod:`reports.sections`,
:mod:`reports.figures.seigneurial`, :mod:`simcore.numbers` (the decimals a rare share needs, and a
difference of two measured values printed as the difference of their printed values) and the game's rules loader
(:func:`start_scores`, :func:`payment_order_explains`), and :mod:`simcore.rundir` (a panel cell's
run.json, :func:`panel_payment_order_notes`).

SG-5.4's ``payment.order = "seat"`` is named as a cause of a gap between Censitaire seats only where
it can be one (:func:`payment_order_explains`: one bot in every Censitaire seat or the seats rotated,
and a later payer ahead), on the run page (:func:`payment_order_headlines`) and on the panel page
(:func:`panel_payment_order_notes`, through the spec's report hook).
"""

from __future__ import annotations

import re

import polars as pl

from analysis import stats
from analysis.games.seigneurial import (adjusted_objectives, distinct_cards, not_told_apart, seigneur_certain,
                                        track_squares)
from analysis.load import smallest_difference
from reports.figures import seigneurial as F
from reports.sections import FigureSet, Section, pct_column
from reports.text import (ablation_seat, ablation_seat_bots, difference_pp, gap_beside, num, pct, pct_ci, pct_some, pp, pp_ci, row_pct_ci, signed, turns,
                          verdict_words)
from simcore import numbers
from simcore.games.seigneurial.spec import SG6_SAME_TURN

SECTIONS_AFTER = "length"
MIN_DEALT = 30      # an Objective card dealt fewer times is not ranked in a sentence


def _smallest(rs) -> float:
    return smallest_difference(rs.game if rs is not None else None, "share",
                               rs.smallest if rs is not None else None)


NUMBERING = ("Cards are numbered from #1 in the order of objectives.cards in the rules (the "
             "objective column of players.parquet counts from 0: card #1 is objective 0).")


def _units(rs) -> int:
    return rs.games_per_unit if rs is not None else 1


def _cards(t: dict, rs=None) -> pl.DataFrame:
    """The distinct Objective cards of ``t["objectives"]`` (identical cards pooled), easiest first,
    their ``cards`` numbered from #1 as a person reads them ("#10, #11, #12"; the tables'
    ``objective`` is the 0-based index into ``objectives.cards``, as in players.parquet)."""
    o = t["objectives"]
    o = distinct_cards(o, _units(rs)) if "same_as" in o.columns else o.with_columns(
        pl.format("#{}", "objective").alias("cards"), pl.lit(1).alias("copies"))
    return o.with_columns(pl.col("cards").map_elements(
        lambda c: re.sub(r"#(\d+)", lambda m: f"#{int(m.group(1)) + 1}", c), return_dtype=pl.String))


def card_name(r: dict) -> str:
    """A card as a sentence names it: ``#7 (grain ≥ 10)``; identical cards together: ``grain ≥ 4,
    wood ≥ 4, fish ≥ 4 (3 identical cards: #10, #11, #12)``."""
    copies = int(r.get("copies") or 1)
    return (f"{r['label']} ({copies} identical cards: {r['cards']})" if copies > 1
            else f"{r['cards']} ({r['label']})")


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _average_censitaire(t: dict, share: float) -> str:
    """The average Censitaire's win share (without the %) as the lead and the Roles table print it
    ("an average of 33.20% (33.16–33.22) per Censitaire seat": :func:`reports.text.pct_ci`'s
    decimals), where table ``roles`` holds that share; else at one decimal. Session 62: the
    Objective cards' sentences said "against 33.2% for the average Censitaire" of the same 0.33197."""
    roles = t.get("roles")
    if roles is not None and {"per_seat", "per_seat_low", "per_seat_high"} <= set(roles.columns):
        for r in roles.iter_rows(named=True):
            if r["role"] == "censitaire" and r["per_seat"] is not None and abs(r["per_seat"] - share) < 1e-12:
                return pct_ci(share, r["per_seat_low"], r["per_seat_high"]).split("%")[0]
    return pct(share)


def objective_headlines(t: dict, rs=None) -> list[str]:
    """The easiest and the hardest distinct Objective card, each against the average Censitaire
    (Holm over the distinct cards), and the cards that cannot be told apart from it."""
    if "objectives" not in t:
        return []
    cards = _cards(t, rs)
    family = cards.height
    o = adjusted_objectives(cards, _smallest(rs), _units(rs)).filter(pl.col("dealt") >= MIN_DEALT)
    if o.height < 2:
        return []
    avg = _average_censitaire(t, float(o["censitaire_share"][0]))
    holm = f"Holm over the {family} distinct cards"
    out = []
    for i, what in ((0, "easiest"), (o.height - 1, "hardest")):
        r = o.row(i, named=True)
        verdict = (f"{verdict_words(r['verdict'])}: " + ("above" if r["diff"] > 0 else "below")
                   + f" the average ({holm})" if r["significant"] else
                   f"within the noise of the average ({holm})")
        one = "one of them" if int(r.get("copies") or 1) > 1 else "it"
        result = (f"a Censitaire holding {one} wins {row_pct_ci(r, 'win_share')} of its games against "
                  f"{avg}% for the average Censitaire, {verdict}")
        close = [o.row(j, named=True)["cards"] for j in not_told_apart(o, i)]
        apart = f"Newcombe intervals, Bonferroni over the {o.height - 1} other cards"
        if close:
            out.append(f"{card_name(r)[0].upper()}{card_name(r)[1:]} measures {what} of the Objective "
                       f"cards: {result}. But {_and(close)} {'are' if len(close) > 1 else 'is'} within "
                       f"noise of it ({apart}), so the {what} card is one of these {len(close) + 1}.")
        else:
            out.append(f"The {what} Objective card is {card_name(r)}: {result}; every other card "
                       f"is told apart from it ({apart}).")
    return out


def _rule_makes_before_zero(before: dict) -> bool:
    """True when the Seigneur won none of the games that ended before the land improvements, as the
    rules make certain (SG-1, SG-5.6, SG-6: module docstring); the decision the export's
    ``seigneur_certain`` column carries (:func:`analysis.games.seigneurial.seigneur_certain`)."""
    return seigneur_certain(before["period"], before["games"], before["seigneur_wins"])


RULE_BEFORE = ("he advances at most one square a turn and wins only on the goal square, which lies "
               "past the midpoint (SG-1, SG-5.6, SG-6)")


def _reached_words(after: dict) -> str:
    """How many games reach the midpoint and end on that very turn, beside the games played on with
    the improvements (SG-5.6, SG-6): "; 16.1% of games reach them, 58% of those ending on that very
    turn, before the improvements act"; '' when none ends so or the table does not say."""
    reached = after.get("reached")
    if reached is None or not reached or reached == after["games"]:
        return ""
    ended = 1 - after["games"] / reached
    # a share that is not 0 never prints as 0 (review s48 SG #4: "0% of those ending" for 46 games
    # of 19,544 read as none): then more decimals and the count
    n_ended = int(reached - after["games"])
    share = (f"{pct(ended, 0)}%" if pct(ended, 0) not in ("0", "100") else
             f"{pct_some(ended)}% ({n_ended:,} games)")
    return (f"; {pct_some(after['reached_share'])}% of games reach them, {share} of those ending "
            f"on that very turn, before the improvements act")


def improvement_headlines(t: dict) -> list[str]:
    if "improvements" not in t:
        return []
    before, after = t["improvements"].row(0, named=True), t["improvements"].row(1, named=True)
    # played on with them, not merely reached: the improvements come at the end of the turn the
    # Seigneur reaches the midpoint, and a game that ends on that turn never plays with them (review
    # s46 #2: at 5 players 58% of the games that reached them)
    out = [f"{row_pct_ci(after, 'share')} of games are played on with the land improvements"
           + (f", which came on average at the end of turn {turns(round(after['mean_improvement_turn'], 1))}"
              if after["games"] else "")
           + _reached_words(after) + "."]
    if before["games"] and after["games"]:
        reach = (f"The Seigneur wins {row_pct_ci(after, 'seigneur_share', 'seigneur_ci_low', 'seigneur_ci_high')} "
                 "of games played on with the improvements")
        if _rule_makes_before_zero(before):
            out.append(f"{reach} and none of the games that end before they act: the rules make that "
                       f"certain, as {RULE_BEFORE}.")
        else:
            out.append(f"{reach} and "
                       f"{row_pct_ci(before, 'seigneur_share', 'seigneur_ci_low', 'seigneur_ci_high')} of "
                       "games that end before they act (an association: games ending early are short games).")
    return out


TIE_BREAK = "seigneur_goal_over_objective"


def tie_break_headlines(t: dict) -> list[str]:
    """How many of the Seigneur's wins SG-6's tie-break gave him: the games ending
    ``seigneur_goal_over_objective`` (on his goal square while a Censitaire held its objective)
    among those ending on his goal square, from the ``end_reasons`` table (any run size). A run
    written before that end reason existed named only ``seigneur_goal``: nothing is said."""
    e = t.get("end_reasons")
    if e is None or TIE_BREAK not in e["end_reason_name"].to_list():
        return []
    games = dict(zip(e["end_reason_name"].to_list(), (int(x) for x in e["games"].to_list())))
    tie, wins = games.get(TIE_BREAK, 0), games.get(TIE_BREAK, 0) + games.get("seigneur_goal", 0)
    total = int(e["total"][0]) if e.height else 0
    if wins == 0 or total == 0:
        return []
    return [f"The Seigneur reached his goal square in {pct(wins / total)}% of games ({wins:,} of "
            f"{total:,}); in {tie:,} of them ({pct(tie / wins)}% of his wins) a Censitaire held "
            f"its objective on that turn too, and SG-6's tie-break (\"{SG6_SAME_TURN}\") gave him the "
            "win."]


def start_scores(rules_text: str, n_players: int) -> dict[int, float]:
    """The scores the rules fix before the first turn, by seat (0 = the Seigneur), in % of own goal
    (SG-8's score): the Seigneur's progress on his starting square, ``100 · start_square // goal``
    (SG-1; a compensation setting, ``track.start_square``). He never moves back (SG-5.6: one square
    forward a turn at most), so his final score is at least this: a rule that moves his start moves
    his mean final score by construction, which a before/after says beside that change
    (:func:`reports.text.start_note`). A Censitaire's start depends on the resource cards it is
    dealt, so the rules do not fix it: left out."""
    from simcore.games.seigneurial import rules as R

    rules = R.loads(rules_text)
    goal = rules.goal(n_players)
    return {0: float(min(100, 100 * rules.param(R.P_START_SQUARE) // goal))}


def lead_headlines(t: dict, rs) -> list[str]:
    """The page's first findings after the sides': how many of the Seigneur's wins SG-6's
    tie-break gave him (it was the 12th of 13 findings, ten after his win share). The terminal
    prints it too (:data:`LEAD_IN_TERMINAL`)."""
    return tie_break_headlines(t)


def payment_order_explains(shares: dict[int, float], bots, rotated: bool, rules_text: str | None) -> bool:
    """Whether SG-5.4's ``payment.order = "seat"`` (an **[assumption]**: the book pays in real time
    with an hourglass) can be said to make a gap between a run's Censitaire seats: the run paid in
    seat order (each Censitaire after the one before it, Seat 2 first), the Censitaire seats all
    played one bot or the seats were rotated (else a seat's share is its bot's), and a later payer
    is the one ahead (the Censitaire seat with the largest share of the Censitaires' wins, in
    ``shares``: 1-based seat → share, pays after the one with the smallest). Review s61 fix 258
    #1: said of a run whose first payer, Seat 2, took 61.6% of the Censitaires' wins with another
    bot than Seat 3. One function for the run page (:func:`payment_order_headlines`) and the
    panel page (:func:`panel_payment_order_notes`)."""
    from simcore.games.seigneurial import rules as R

    if not rules_text or R.loads(rules_text).pay_order != R.PAY_SEAT:
        return False
    seats = sorted(s for s, x in shares.items() if s >= 2 and x == x)      # (Seat 1: the Seigneur)
    if len(seats) < 2:
        return False
    names = list(bots or ())
    if not rotated and (len(names) < max(seats) or len({names[s - 1] for s in seats}) != 1):
        return False
    ahead = max(seats, key=lambda s: (shares[s], -s))
    behind = min(seats, key=lambda s: (shares[s], -s))
    return ahead > behind and shares[ahead] > shares[behind]


def payment_order_words(ahead: int, behind: int, where: str = "", cell: str = "", cells: int = 1) -> str:
    """The sentence :func:`payment_order_explains` allows, naming the seats it reads (``where``: the
    panel's ``cells`` cells it holds in, else ''; ``cell``: the panel's cell those seats are read
    in)."""
    gap = "gap follows" if cells == 1 else "gaps follow"
    return (f"{where}the Censitaire seats' {gap} in part from an assumption of the spec, not "
            f"the book: with payment.order = \"seat\" (SG-5.4, the default) the Censitaires pay the "
            f"rent one after another, each seeing what the ones before it paid, so the later ones pay "
            f"less and keep more toward their objective, as Seat {ahead}, which pays after Seat "
            f"{behind}, takes more of the Censitaires' wins {f'in {cell}' if cell else 'here'}. The book "
            f"pays in real time with an hourglass, which \"simultaneous\" plays (docs/seigneurial.md, "
            f"\"Payment order\", measures both with the default bots). Before compensating a seat, "
            f"play the {'panel' if cell else 'run'} again with --set payment.order=simultaneous.")


def _ahead_behind(shares: dict[int, float]) -> tuple[int, int]:
    seats = [s for s, x in shares.items() if s >= 2 and x == x]
    return max(seats, key=lambda s: (shares[s], -s)), min(seats, key=lambda s: (shares[s], -s))


def payment_order_headlines(t: dict, rs) -> list[str]:
    """When the Censitaire seats do not win equally often (their chi-square, as the sides'
    sentence reads it) and :func:`payment_order_explains` holds for the run (paid in seat order,
    SG-5.4 ``payment.order = "seat"``, an **[assumption]**; one bot in every Censitaire seat or the
    seats rotated; a later payer ahead), say that the order is a setting that makes such a gap,
    before a designer compensates a seat for it (review s49 reports, an opinion: "Seat 4 +1.9 pp …
    the seats do not win equally often" with no word of it). Nothing else is said: a gap measured
    on another line-up or player count is not quoted as this run's (review s61 fix 258 #1)."""
    seats = t.get("role_seats")
    if seats is None or rs is None or not rs.metas:
        return []
    part = seats.filter(pl.col("role") == "censitaire")
    if part.height < 2:
        return []
    col = "chi2_p_adjusted" if "chi2_p_adjusted" in part.columns else "p_value"
    p = part[col][0]
    if p is None or not p < 0.05:
        return []
    meta = rs.metas[0] or {}
    shares = {int(s) + 1: float(x) for s, x in zip(part["seat"].to_list(), part["share_of_role"].to_list())}
    if not payment_order_explains(shares, meta.get("strategies"), bool(meta.get("rotate_seats")),
                                  meta.get("rules_text")):
        return []
    words = payment_order_words(*_ahead_behind(shares))
    return [words[:1].upper() + words[1:]]


def panel_payment_order_notes(cells: pl.DataFrame) -> list[str]:
    """The panel page's word on the payment order (review s61 fix 258 #4: its finding called
    Censitaire seats' gaps "clear and large enough to matter" with no word that SG-5.4's
    ``payment.order = "seat"`` makes such gaps, which the run page says): the cells where some
    Censitaire seat is clearly off an equal split of the Censitaires' wins (the panel's calls,
    ``clear``, :func:`analysis.panel.role_seat_calls`) and :func:`payment_order_explains` holds for
    the cell's run, named, with the seats of the cell whose gap is largest. ``cells``: the panel's
    rows (``role_seat_share_<seat>`` with ``role``, ``seat`` 1-based, ``estimate``, ``clear``)."""
    if "role" not in cells.columns or "clear" not in cells.columns:
        return []
    from simcore.rundir import read_meta

    seats = cells.filter(pl.col("metric").str.starts_with("role_seat_share_") & (pl.col("role") == "censitaire"))
    held, largest = [], None
    for (cell,), part in seats.sort(["cell", "seat"]).group_by(["cell"], maintain_order=True):
        if not part["clear"].fill_null(False).any():
            continue
        meta = read_meta(part["run"][0])
        shares = {int(s): float(x) for s, x in zip(part["seat"].to_list(), part["estimate"].to_list())}
        if not payment_order_explains(shares, meta.get("strategies"), bool(meta.get("rotate_seats")),
                                      meta.get("rules_text")):
            continue
        held.append(part["label"][0])
        ahead, behind = _ahead_behind(shares)
        gap = shares[ahead] - shares[behind]
        if largest is None or gap > largest[0]:
            largest = (gap, ahead, behind, part["label"][0])
    if not held:
        return []
    where = f"In {held[0]}, " if len(held) == 1 else f"In {', '.join(held[:-1])} and {held[-1]}, "
    return [payment_order_words(largest[1], largest[2], where, largest[3], len(held))]


#: the panel page's word on its cells' calls (:mod:`reports.games`, read by :mod:`reports.panel`)
panel_notes = panel_payment_order_notes


#: ``balance report RUN`` prints :func:`lead_headlines` after the run's first findings, as the
#: page has it right after the sides (the designer review found the terminal without it: the
#: sides' shares, then nothing on how the Seigneur's 0.4% came about)
LEAD_IN_TERMINAL = True


def headlines(t: dict, rs) -> list[str]:
    # the payment order first: it reads the Censitaire seats' sentence just above (on the page;
    # the terminal keeps its lead lines)
    return payment_order_headlines(t, rs) + objective_headlines(t, rs) + improvement_headlines(t)


def comparison_notes(cmp: pl.DataFrame) -> list[str]:
    """A before/after's word on the tie-break, after the sides' answer: the share of the Seigneur's
    goal-square wins that SG-6's tie-break gave him, before and after, from the two end reasons'
    shares of games (the runs' values, untested: the end reasons are tested one by one in the
    lists). Nothing when either run lacks the tie-break end reason (a run written before it) or
    the Seigneur never reached his goal in one of them."""
    rows = {r["key"]: r for r in cmp.filter(pl.col("metric") == "end_reason_share").iter_rows(named=True)}
    tie, alone = rows.get(TIE_BREAK), rows.get("seigneur_goal")
    if tie is None or alone is None:
        return []
    said = []
    for k in ("base", "variant"):
        t, a = tie[k], alone[k]
        if t is None or a is None or t + a <= 0:
            return []
        said.append((t, a, t / (t + a)))
    (tb, ab, fb), (tv, av, fv) = said
    return [f"How the Seigneur's wins came (the runs' values, untested): SG-6's tie-break (\"{SG6_SAME_TURN}\") "
            f"gave him {pct(fb)}% of his goal-square wins before and {pct(fv)}% after (of all games, "
            f"{pct(tb, 2)}% → {pct(tv, 2)}% by the tie, {pct(ab, 2)}% → {pct(av, 2)}% with no Censitaire "
            "holding its objective)."]


def _objective_rows(t: dict, rs=None) -> pl.DataFrame:
    smallest = _smallest(rs)
    o = adjusted_objectives(_cards(t, rs), smallest, _units(rs))
    has_reached = "reached_share" in o.columns and o["reached_share"].null_count() < o.height
    shares = pct_column(o, "win_share", "ci_low", "ci_high")
    return pl.DataFrame({
        "Card": o["cards"],
        "Requires": [lab if int(k) == 1 else f"{lab} ({int(k)} identical cards)"
                     for lab, k in zip(o["label"], o["copies"])],
        "Dealt": o["dealt"],
        "Win share": shares,
        # the printed share minus the average Censitaire's share at its decimals (the headline's
        # "against 24.2% for the average Censitaire"; session 56: +3.2 beside 27.3% and 24.2%)
        "vs average (pp)": [gap_beside(text, p, avg).removesuffix(" pp") if text
                            else f"{100 * d:+.1f}".replace("-", "−")
                            for text, p, avg, d in zip(shares, o["win_share"], o["censitaire_share"], o["diff"])],
        f"Clear of the average (Holm over the {o.height} distinct cards; {100 * smallest:g} pp matters)":
            [verdict_words(v) for v in o["verdict"]],
        "Reached the card by the end (share of holders)":
            pct_column(o, "reached_share", "reached_ci_low", "reached_ci_high") if has_reached
            else ["needs the player rows (simulate --raw)"] * o.height,
        "Mean progress toward the card (% of its requirement, each holder's rounded down)":
            [f"{num(m, 1)}% ({num(lo, 1)}–{num(hi, 1)})" for m, lo, hi in
             zip(o["mean_progress"], o["progress_ci_low"], o["progress_ci_high"])],
    })


def _improvement_rows(t: dict) -> pl.DataFrame:
    d = t["improvements"]
    # a share the rules make certain has no interval (the table's cells are empty there)
    seig = ["0% (certain by the rules)" if _rule_makes_before_zero(r) else
            pct_column(d.slice(i, 1), "seigneur_share", "seigneur_ci_low", "seigneur_ci_high")[0]
            for i, r in enumerate(d.iter_rows(named=True))]
    return pl.DataFrame({
        "Games": d["label"], "Count": d["games"], "Share": pct_column(d, "share", "ci_low", "ci_high"),
        "Seigneur's win share": seig,
        "Mean turns": ["" if m != m else num(m, 1) for m in d["mean_turns"]],
        "Improvements at turn": ["" if m is None else num(m, 1) for m in d["mean_improvement_turn"]],
    })


def _figure_cards(t: dict, rs) -> pl.DataFrame:
    """The distinct cards for the figure, a pooled card labelled with its copies' numbers."""
    o = adjusted_objectives(_cards(t, rs), _smallest(rs), _units(rs))
    return o.with_columns(pl.when(pl.col("copies") > 1)
                          .then(pl.format("{} (also {})", "label",
                                          pl.col("cards").str.replace(r"^#\d+, ", "")))
                          .otherwise(pl.col("label")).alias("label"))


def sections(t: dict, rs, figs: FigureSet, questions=None) -> list[Section]:
    out = []
    if questions is not None and (played := _ablation_section(questions, rs)) is not None:
        out.append(played)
    if "objectives" in t:
        out.append(Section(
            "objectives", "Objective cards",
            "How often a Censitaire wins when it holds each Objective card (SG-2), with 95% Wilson "
            "intervals over the games the card was dealt, against the average Censitaire; the share of "
            "its holders that held the whole requirement at the end (a winner always has; one can "
            "reach it and still lose, SG-6); and their mean progress toward it (% of the requirement "
            "held, at most the card's amount per type, each holder's rounded down to a whole percent as "
            "the score is: a third of a 12-card requirement counts 33%; not the share that reached it). Identical cards "
            "are one row, their holders pooled (copies dealt in one game count as separate holders; at "
            "most one of them wins, so the interval is if anything wide). A card clear of the average "
            "(the exact binomial test of its holders' wins against the average Censitaire's share, a z "
            "test with that share's standard error where a win was shared or the seats rotated; "
            f"Holm over the {_cards(t, rs).height} distinct cards, so that among that many one is flagged by "
            "chance at most 5% of the time) is easier or harder than the others under these bots; "
            f"its size, against the {100 * _smallest(rs):g} pp that matters, is read on the card's own exact "
            f"(Clopper-Pearson) interval at 1 − 0.05/{_cards(t, rs).height} (Wilson's where a win was shared "
            "or the seats rotated) minus the average. "
            + NUMBERING,
            figs.add("objectives", F.objectives(
                {"objectives": _figure_cards(t, rs)},
                how=f"Holm over the {_cards(t, rs).height} distinct cards")),
            [("Objective cards (easiest first)", _objective_rows(t, rs))],
            objective_headlines(t, rs)))
    if "improvements" in t:
        out.append(Section(
            "improvements", "Land improvements",
            "Games that end before the Seigneur reaches the midpoint of the rent track, against games that "
            "reach it (the land improvements: bigger harvests, bigger rent, more forced draws; SG-5.6), and "
            "the Seigneur's win share in each, with 95% Wilson intervals. The Seigneur cannot win a game "
            f"that ends before them: {RULE_BEFORE}. So the two groups do not show what the "
            "improvements do to his chances: compare two runs with different rent tables or midpoints "
            "for that.",
            figs.add("improvements", F.improvements(
                t, certain_before=_rule_makes_before_zero(t["improvements"].row(0, named=True)))),
            [("Before and after the improvements", _improvement_rows(t))],
            improvement_headlines(t)))
    if "seigneur_squares" in t:
        sq = t["seigneur_squares"]
        marks = track_squares(rs)
        out.append(Section(
            "squares", "The Seigneur's final square", "Where the Seigneur stands on the rent track when "
            "the game ends (SG-5.6).", figs.add("seigneur_squares", F.final_squares(sq, marks)),
            [("Final square", square_rows(sq))], square_sentences(sq, marks)))
    return out


def square_rows(sq: pl.DataFrame) -> pl.DataFrame:
    """The final-square table: every share with one decimal and its % sign (5.0%, not 5)."""
    return pl.DataFrame({"Square": sq["square"], "Games": sq["games"],
                         "Share of games": [f"{pct(s)}%" for s in sq["share"]]})


def square_sentences(sq: pl.DataFrame, marks: dict[str, int] | None = None) -> list[str]:
    """Where the Seigneur usually ends, and (``marks``: the track's midpoint and goal, SG-1) the share
    of games he ends at or beyond the midpoint and on his goal square, from the ``seigneur_squares``
    table."""
    if sq.height == 0 or int(sq["games"].sum()) == 0:
        return []
    top = sq.sort(["games", "square"], descending=[True, False]).row(0, named=True)
    n = int(sq["games"].sum())
    mean = float((sq["square"] * sq["games"]).sum()) / n
    out = (f"The Seigneur most often ends on square {top['square']} ({pct(top['share'])}% of games); "
           f"on average on square {num(mean, 1)} (squares {int(sq['square'].min())} to "
           f"{int(sq['square'].max())} seen)")
    if marks:
        past = int(sq.filter(pl.col("square") >= marks["midpoint"])["games"].sum())
        goal = int(sq.filter(pl.col("square") >= marks["goal"])["games"].sum())
        out += (f". He ends at or past the midpoint (square {marks['midpoint']}, the land improvements) "
                f"in {pct(past / n)}% of games and on his goal square ({marks['goal']}) in "
                f"{pct(goal / n)}%")
    return [out + "."]


# ---- Played questions: the card ablation (balance questions; analysis.questions.seigneurial) ----

QUESTIONS = "balance questions RUN --out DIR"     # writes card_ablation.csv (the card ablation)
#: What a questions directory must share with the run it is shown for (reports.questions.check_matches)
QUESTIONS_MATCH = ("players", "seed", "strategies")
WITHIN_NOISE = "within noise"


def _ablation(q, rs=None) -> tuple[pl.DataFrame | None, float, float]:
    """The card ablation of questions ``q`` (None if it has none), worded against the smallest
    share and score differences of the report (``rs.smallest``, ``balance report
    --smallest-difference``) over those it was played with (run.json), as Middle-Ages' ablation is
    (review s52 card ablation #2: the page's 0.2 pp headline beside the table's 1 pp verdicts)."""
    ab = q.tables.get("card_ablation") if q is not None else None
    small = {**((q.meta.get("smallest_difference") or {}) if q is not None else {}),
             **((rs.smallest if rs is not None else None) or {})}
    share = smallest_difference("seigneurial", "share", small)
    score = smallest_difference("seigneurial", "score", small)
    if ab is None or ab.height == 0:
        return None, share, score
    v = stats.practical(ab["win_share_effect"].to_numpy(), ab["win_share_effect_low"].to_numpy(),
                        ab["win_share_effect_high"].to_numpy(), share)
    sv = stats.practical(ab["score_effect"].to_numpy(), ab["score_effect_low"].to_numpy(),
                         ab["score_effect_high"].to_numpy(), score)
    words = lambda xs: [WITHIN_NOISE if str(x) == stats.NOT_SHOWN else str(x) for x in xs]  # noqa: E731
    return (ab.with_columns(pl.Series("verdict", words(v)), pl.Series("score_verdict", words(sv))),
            share, score)


def _search_note(q) -> str:
    """A sentence for a line-up with a search bot (run.json ``search_seats``): its playouts play the
    rules with the card made neutral, so it plays differently from its first decision and the
    effect includes the bot adapting (review s52 card ablation #1); '' otherwise."""
    seats = [int(x) for x in (q.meta.get("search_seats") or []) if isinstance(x, int)]
    if not seats:
        return ""
    named = ", ".join(f"Seat {s + 1}" for s in seats)
    return (f"{named} {'is a search bot' if len(seats) == 1 else 'are search bots'}: "
            f"{'its' if len(seats) == 1 else 'their'} playouts play the rules with the card made "
            "neutral, so it plays differently from its first decision, and each effect includes the "
            "bot adapting to the neutral card, not only what the card does.")


def scope_note(q) -> str:
    """Which line-up and player count the ablation's answers hold for (run.json ``players``,
    ``strategies``): the effects are measured with those bots at that count only."""
    P = q.meta.get("players")
    bots = [str(b) for b in q.meta.get("strategies") or []]
    who = ("the default bots" if not bots else f"{bots[0]} at every seat" if len(set(bots)) == 1
           else ", ".join(f"Seat {i + 1} {b}" for i, b in enumerate(bots)))
    return (f"These effects hold for the line-up and player count played ({P} players, {who}; Seat 1 "
            "the Seigneur); for another, play the question on a run of it.")


def _left_out_note(q) -> str:
    left = q.meta.get("left_out") or {}
    return f"Not measured: {'; '.join(left.values())}." if left else ""


def _eff(x: float) -> str:
    return pp(x, 2)


#: The column of the Seigneur's win share without and with a card: the arrow runs from the neutral
#: card to the card as it is, so that the effect beside it (with − neutral) reads as after − before
#: (session 56 review: "0.48% → 1.75%, −1.28 pp" under "with it → neutral").
SHARES_COLUMN = "Seigneur's win share: neutral → with it"


def with_and_neutral(r: dict) -> tuple[str, str, str, int]:
    """(win share with the card, with it neutral, the effect with − neutral in pp, their decimals)
    of a card-and-seat row as the table and the sentences print them: both shares at two decimals,
    more while one that is not 0% would print as 0 or the effect as none
    (:func:`simcore.numbers.share_digits`), the effect the difference of the printed shares
    (:func:`reports.text.difference_pp`: session 56 review, "0.48% → 1.75%" beside −1.28 pp for
    0.475%, 1.752% and −1.277 pp)."""
    w, n, e = r["win_share_with"], r["win_share_neutral"], r["win_share_effect"]
    d = numbers.share_digits(100 * w, 100 * n, digits=2, most=3)
    while d < 4 and e != 0 and numbers.printed_difference(100 * w, 100 * n, d) == 0:
        d += 1
    return pct_some(w, d), pct_some(n, d), difference_pp(w, n, d), d


def _eff_ci(lo: float, hi: float) -> str:
    return pp_ci(lo, hi, 2)


def _score_eff(x: float, lo: float, hi: float) -> str:
    return f"{signed(x, 2)} ({num(lo, 2)} to {num(hi, 2)})".replace("-", "−")


def ablation_rows(ab: pl.DataFrame) -> pl.DataFrame:
    """One row per card: what making it neutral does to the Seigneur (seat 1), i.e. to the role
    balance (the Censitaires together move by the opposite)."""
    seig = ab.filter(pl.col("seat") == 0)
    shown = [with_and_neutral(r) for r in seig.iter_rows(named=True)]
    return pl.DataFrame({
        "Card": seig["name"], "Deck": seig["deck"], "Made neutral by": seig["neutral"],
        "Games whose winner changed (any seat)": [f"{pct_some(x)}%" for x in seig["games_changed"]],
        SHARES_COLUMN: [f"{n}% → {w}%" for w, n, _, _ in shown],
        "Effect of the card (95%, simultaneous)": [
            f"{e} ({pp_ci(lo, hi, d)})" for (_, _, e, d), lo, hi in zip(
                shown, seig["win_share_effect_low"], seig["win_share_effect_high"])],
        "Verdict": seig["verdict"],
        "Seigneur's score effect (points of % of own goal)": [
            _score_eff(e, lo, hi) for e, lo, hi in zip(
                seig["score_effect"], seig["score_effect_low"], seig["score_effect_high"])],
        "Score verdict": seig["score_verdict"]})


def censitaire_rows(ab: pl.DataFrame, bots: list[str] | None = None) -> pl.DataFrame:
    """Every card at every Censitaire seat: win-share and score effects with their intervals; each
    seat named with its bot when the seats hold different bots (``bots``, one per seat:
    :func:`reports.text.ablation_seat`, review s61 #1)."""
    c = ab.filter(pl.col("seat") > 0)
    return pl.DataFrame({
        "Card": c["name"], "Seat": [ablation_seat(s, bots) for s in c["seat"]],
        "Effect on win share (95%, simultaneous)": [
            f"{_eff(e)} ({_eff_ci(lo, hi)})" for e, lo, hi in zip(
                c["win_share_effect"], c["win_share_effect_low"], c["win_share_effect_high"])],
        "Verdict": c["verdict"],
        "Score effect (points)": [_score_eff(e, lo, hi) for e, lo, hi in zip(
            c["score_effect"], c["score_effect_low"], c["score_effect_high"])],
        "Score verdict": c["score_verdict"]})


def ablation_sentences(ab: pl.DataFrame, share: float, score: float, games: int | None,
                       bots: list[str] | None = None) -> list[str]:
    """The card ablation in a designer's words: which cards move the role balance (the Seigneur's
    win share) and by how much, each effect read on its simultaneous interval; which cards changed
    no game; what the Censitaire seats and the scores show, each seat named with its bot when the
    seats hold different bots (``bots``: "Seat 3 (dutiful)", review s61 #1)."""
    seig = ab.filter(pl.col("seat") == 0)
    out = []
    clear = [r for r in seig.iter_rows(named=True) if r["verdict"] != WITHIN_NOISE]
    base = float(seig["win_share_with"][0])
    head = f"With every card as it is, the Seigneur wins {pct_some(base, 2)}% of these games."
    if clear:
        said = []
        for r in clear:
            way = "raises" if r["win_share_effect"] > 0 else "lowers"
            w, n, e, d = with_and_neutral(r)
            said.append(f"{r['name']} ({r['deck']} card) {way} his win share by "
                        f"{e.lstrip('+−')} (from {n}% with it neutral to {w}% with it; "
                        f"{pp_ci(r['win_share_effect_low'], r['win_share_effect_high'], d)}): {r['verdict']}")
        out.append(head + " " + "; ".join(said) + ". The Censitaires together move by the opposite.")
    else:
        reach = float(max(seig["win_share_effect_high"].abs().max(), seig["win_share_effect_low"].abs().max()))
        room = (f"no card moves it by {f'{100 * share:g}'} pp "
                f"or more (every interval within ±{num(100 * reach, 2)} pp)" if reach < share else
                f"these games cannot rule out an effect of up to {num(100 * reach, 2)} pp")
        out.append(f"{head} No card moves his win share clearly (every interval holds 0); {room}.")
    if clear:
        quiet = [r["name"] for r in seig.iter_rows(named=True)
                 if r["verdict"] == WITHIN_NOISE and r["games_changed"] > 0]
        if quiet:
            out.append(f"{_and(quiet)} {'is' if len(quiet) == 1 else 'are'} within noise for his win share.")
    never = [r["name"] for r in seig.iter_rows(named=True) if r["games_changed"] == 0]
    if never:
        n = f"{int(games):,} " if games else ""
        out.append(f"{_and(never)} changed no game's result in these {n}games when made neutral: under "
                   "these bots and rules, " + ("it decided" if len(never) == 1 else "they decided")
                   + " no game here.")
    cens = ab.filter((pl.col("seat") > 0) & (pl.col("verdict") != WITHIN_NOISE))
    if cens.height:
        out.append("At the Censitaire seats: " + "; ".join(
            f"{r['name']} moves {ablation_seat(r['seat'], bots)}'s win share by {_eff(r['win_share_effect'])} "
            f"({_eff_ci(r['win_share_effect_low'], r['win_share_effect_high'])}): {r['verdict']}"
            for r in cens.iter_rows(named=True)) + ".")
    else:
        widest = ab.filter(pl.col("seat") > 0)
        if widest.height:
            reach = float(max(widest["win_share_effect_high"].abs().max(),
                              widest["win_share_effect_low"].abs().max()))
            out.append(f"No card moves a Censitaire seat's win share clearly (intervals reach up to "
                       f"±{num(100 * reach, 2)} pp).")
    big = ab.filter(pl.col("score_verdict") == stats.LARGE)
    if big.height:
        out.append(f"Scores (% of own goal; {f'{score:g}'} points matter): "
                   + "; ".join(f"{r['name']} {signed(r['score_effect'], 2)} points at "
                               + (f"Seat 1 (the Seigneur{f', {bots[0]}' if bots else ''}) " if r["seat"] == 0
                                  else f"{ablation_seat(r['seat'], bots)} ") +
                               f"({num(r['score_effect_low'], 2)} to {num(r['score_effect_high'], 2)})"
                               for r in big.iter_rows(named=True))   # (signed, num: typographic minus already;
                   # a .replace("-", "−") here turned a bot's "fair-share" into "fair−share")
                   + ": clear and large enough to matter.")
    return out


def ablation_intro(q, rs=None) -> str:
    games = q.meta.get("games")
    deals = q.meta.get("deals") or f"the run's first {int(games or 0):,} deals"
    _, share, score = _ablation(q, rs)
    left = q.meta.get("left_out") or {}
    search = _search_note(q)
    return (
        f"Each card's causal effect: {deals} played again (same seed, rules and bots; one deck per "
        "card) with that card made neutral — still dealt, held and played by the bots as before, "
        "asking the same choices, but doing nothing (the settings named in the table). The "
        "difference (with the card − neutral) of each seat's win share and score is the card's total "
        "effect, averaged over every game. Seat 1 is the Seigneur: his row is the role balance, and "
        "the Censitaires together move by the opposite. The bots do not know a card is neutral, so "
        "this is what the card does with the play held as it is. Intervals are simultaneous 95% in "
        "two families (win shares, scores) over every card and seat; each effect is worded by size "
        f"against the smallest difference that matters ({f'{100 * share:g}'} pp "
        f"of win share, {f'{score:g}'} points of % of own goal): "
        "\"clear and large enough to matter\", \"clear, may matter\" (the interval straddles it), "
        "\"clear but small\", or \"within noise\" (the interval holds 0). "
        + (f"{search} " if search else "")
        + (f"Not measured: {'; '.join(left.values())}. " if left else "")
        + ("Played for this report (balance report --play-questions), kept as questions/*.csv; not "
           "read from the run." if getattr(q, "played_here", False) else
           f"Read from {q.path} (written by {QUESTIONS}), not from the run."))


def _ablation_section(q, rs=None) -> Section | None:
    ab, share, score = _ablation(q, rs)
    if ab is None:
        return None
    return Section("card_ablation", "Cards: total effect on who wins (ablation)", ablation_intro(q, rs), [],
                   [("What each card does to the Seigneur's win share (the role balance)", ablation_rows(ab)),
                    ("Each card at the Censitaire seats", censitaire_rows(ab, _bots(q, ab)))],
                   [*ablation_sentences(ab, share, score, q.meta.get("games"), _bots(q, ab)), scope_note(q)])


def _bots(q, ab: pl.DataFrame) -> list[str] | None:
    """The bot at each seat of the ablation, when its seats hold different bots
    (:func:`reports.text.ablation_seat_bots`)."""
    return ablation_seat_bots(q.meta.get("strategies"), ab["seat"].n_unique())


def question_files(q, rs) -> dict:
    """The card ablation table the report shows, kept as ``questions/card_ablation.csv``, its
    verdicts worded as the page words them (the report's smallest differences)."""
    ab = q.tables.get("card_ablation")
    if ab is None:
        return {}
    worded, _, _ = _ablation(q, rs)
    return {"questions/card_ablation.csv": worded if worded is not None else ab}


def printed_summary(q) -> list[tuple[str, pl.DataFrame, list[str]]]:
    """What ``balance questions RUN --out DIR`` prints: the page's table of the role balance per
    card and its sentences."""
    ab, share, score = _ablation(q)
    if ab is None:
        return [("Card ablation: no card measured", pl.DataFrame(),
                 list((q.meta.get("left_out") or {}).values()))]
    rows = ablation_rows(ab).select("Card", "Games whose winner changed (any seat)",
                                    SHARES_COLUMN,
                                    "Effect of the card (95%, simultaneous)", "Verdict")
    notes = [x for x in (_search_note(q), _left_out_note(q)) if x]
    return [(f"Card ablation ({int(q.meta.get('games') or 0):,} games per deck): each card against the "
             "same card made neutral", rows, [*notes, *ablation_sentences(ab, share, score, q.meta.get("games"),
                                                                        _bots(q, ab)),
                                              scope_note(q)])]
