"""Middle-Ages report sections (the game's report hook): event cards (MA-8) and tiles / Domains (MA-12).

Found through the Middle-Ages spec (``report_hooks``): :func:`headlines` adds the event-card and
tile sentences, :func:`sections` the "Event-card impact when it fires" (association) and
"Tile-type impact" sections, right after seat advantage, and, given a questions directory written by
``balance questions`` (:data:`QUESTIONS`), the event ablation first: each card's total effect on who
wins, ranked. Everything is read from the ``events``, ``event_seats``, ``tiles``,
``tile_summary`` and ``domain_pairs`` tables of :func:`analysis.analyse`; a table that is absent
(a run without those columns) leaves its sentences and section out.

May import polars, :mod:`analysis.load` (types, smallest differences), :mod:`analysis.stats`, :mod:`reports.text`, :mod:`reports.sections` and
:mod:`reports.figures.middle_ages`.
"""

from __future__ import annotations

import polars as pl

from analysis import stats
from analysis.load import RunSet, smallest_difference
from reports.figures import middle_ages as F
from reports.sections import FigureSet, Section, pct_column
from reports.text import (best_and_worst, num, num_ci, pct, pp, pp_ci, pvalue, row_pct_ci, signed,
                          verdict_digits, verdict_words)

SECTIONS_AFTER = "seats"
GAME = "middle-ages"
QUESTIONS = "balance questions RUN --out DIR"     # writes event_ablation.csv (the event ablation)
# The ablation plays the run's own deals again: a directory played for another player count, seed or
# bots (same rules) would put another run's seats and deals on this page (reports.questions.check_matches).
QUESTIONS_MATCH = ("players", "seed", "strategies")


def _ablation_rows(ab: pl.DataFrame, share: float = 0.01, score: float = 2.0) -> pl.DataFrame:
    """One row per card, ranked by how much it moves who wins (its largest |win-share effect|).
    Each effect is printed to the decimals that put its interval's ends on the side of 0 and of the
    smallest difference that matters (``share``, ``score``) its verdict was read from
    (:func:`reports.text.verdict_digits`)."""
    cards = ab.group_by("event", "name").agg(pl.col("swing").first(), pl.col("fires").first()
                                             ).sort("swing", descending=True)
    rows = {"Event card": [], "Drawn in": [], "Moves who wins by (largest seat)": []}
    seats = sorted(ab["seat"].unique().to_list())
    for s in seats:
        rows[f"Seat {s + 1}: win share (pp)"] = []
        rows[f"Seat {s + 1}: score"] = []
    for c in cards.iter_rows(named=True):
        d = ab.filter(pl.col("event") == c["event"]).sort("seat")
        rows["Event card"].append(c["name"])
        rows["Drawn in"].append(f"{pct(c['fires'])}% of games")
        rows["Moves who wins by (largest seat)"].append(f"{100 * c['swing']:.2f} pp")
        for r in d.iter_rows(named=True):
            lo, hi = r["win_share_effect_low"], r["win_share_effect_high"]
            k = verdict_digits(lo, hi, share)
            rows[f"Seat {r['seat'] + 1}: win share (pp)"].append(
                f"{signed(100 * r['win_share_effect'], k)} ({pp_ci(lo, hi, k)}), {verdict_words(r['verdict'])}")
            lo, hi = r["score_effect_low"], r["score_effect_high"]
            k = verdict_digits(lo, hi, score, scale=1.0, digits=2)
            rows[f"Seat {r['seat'] + 1}: score"].append(
                f"{signed(r['score_effect'], max(k - 1, 1))} ({num_ci(lo, hi, k)}), "
                f"{verdict_words(r['score_verdict'])}")
    return pl.DataFrame(rows)


def worded(ab: pl.DataFrame, overrides: dict | None) -> tuple[pl.DataFrame, float, float]:
    """``ab`` with ``verdict`` and ``score_verdict`` worded again (:func:`analysis.stats.practical`
    on each effect and its simultaneous interval) against ``overrides`` (by kind, over the game's
    own): the page's smallest differences, which may differ from those the table was played with.
    Returns (table, smallest share, smallest score)."""
    share = smallest_difference(GAME, "share", overrides)
    score = smallest_difference(GAME, "score", overrides)
    v = stats.practical(ab["win_share_effect"].to_numpy(), ab["win_share_effect_low"].to_numpy(),
                        ab["win_share_effect_high"].to_numpy(), share)
    sv = stats.practical(ab["score_effect"].to_numpy(), ab["score_effect_low"].to_numpy(),
                         ab["score_effect_high"].to_numpy(), score)
    return ab.with_columns(pl.Series("verdict", [str(x) for x in v]),
                           pl.Series("score_verdict", [str(x) for x in sv])), share, score


def _ablation_section(q, rs: RunSet | None = None) -> Section | None:
    ab = q.tables.get("event_ablation")
    if ab is None or ab.height == 0:
        return None
    # the report's --smallest-difference over the one balance questions recorded, over the game's
    overrides = {**(q.meta.get("smallest_difference") or {}), **((rs.smallest if rs else None) or {})}
    ab, share, score = worded(ab, overrides)
    order = stats.practical_order(ab["verdict"].to_list(), ab["win_share_effect"].to_numpy(), share)
    top = ab.row(int(order[0]), named=True)
    large_cards = set(ab.filter(pl.col("verdict") == stats.LARGE)["event"].to_list())
    n_large = len(large_cards)
    n_may = len(set(ab.filter(pl.col("verdict") == stats.MAY_MATTER)["event"].to_list()) - large_cards)
    games = q.meta.get("games")
    return Section(
        "event_ablation", "Event cards: total effect on who wins (ablation)",
        f"Each card's causal effect: the run's deals played again ({games:,} games per deck, same seed "
        "and bots) with that card made neutral — still drawn at the same moment, so every other card "
        "and tile is the same, but doing nothing. The difference (with the card − neutral) of each "
        "seat's win share and final score is the card's total effect, including what it does through "
        "tiles destroyed or restored. Intervals are simultaneous 95% over every card and seat; "
        "cards are ranked by how much they move who wins. Each effect is worded by size, read on its "
        "interval: \"clear and large enough to matter\" (all of the interval at least "
        f"{100 * share:g} pp of win share, {score:g} coins of score from 0: the smallest differences that "
        "matter), \"clear, may matter\" (the interval reaches both sides of that difference: these "
        "games cannot tell), \"clear but small\" (all of it closer to 0), or \"within noise\" (its "
        "interval holds 0). "
        + ("Played for this report (balance report --play-questions), kept as questions/*.csv; not "
           "read from the run." if q.played_here else
           f"Read from {q.path} (written by {QUESTIONS}), not from the run."),
        [], [("Event cards by their effect on who wins", _ablation_rows(ab, share, score))],
        [_top_sentence(top, share), _count_sentence(n_large, n_may, ab["event"].n_unique(), share)])


def _count_sentence(n_large: int, n_may: int, n_cards: int, share: float) -> str:
    """How many cards clearly move some seat's win share by the smallest difference that matters
    (the whole interval), and, when any, how many more may (:data:`analysis.stats.MAY_MATTER`),
    each verb agreeing with its count: "0 of 15 event cards clearly move …; 1 clearly moves it and
    may do so by that much (clear, may matter: these games cannot tell)"."""
    head = (f"{n_large} of {n_cards} event cards clearly move{'s' if n_large == 1 else ''} some seat's "
            f"win share by {100 * share:g} pp or more (clear and large enough to matter: the whole "
            "interval)")
    if not n_may:
        return head + "."
    return (head + f"; {n_may} {'more ' if n_large else ''}clearly move{'s' if n_may == 1 else ''} it "
            "and may do so by that much (clear, may matter: these games cannot tell).")


def _top_sentence(top: dict, share: float = 0.01) -> str:
    """The first card of the reading order (:func:`analysis.stats.practical_order`: clear effects
    first, by size). The simultaneous intervals do not rank the cards, so a clear effect is called
    the largest *clear* one, never the card that moves who wins the most; when no effect is clear,
    no card is said to move who wins."""
    lo, hi = top["win_share_effect_low"], top["win_share_effect_high"]
    k = verdict_digits(lo, hi, share)
    effect = f"{signed(100 * top['win_share_effect'], k)} pp for Seat {top['seat'] + 1} ({pp_ci(lo, hi, k)}"
    if top["verdict"] == stats.NOT_SHOWN:
        return (f"No event card clearly moves who wins: every card's effect on every seat's win share "
                f"is within noise (its simultaneous interval holds 0); the largest estimate, "
                f"{top['name']}'s {effect}), could be no effect at all.")
    return (f"The largest clear effect on who wins is {top['name']}'s: {effect}, "
            f"{verdict_words(top['verdict'])}), by the same deals with the card made neutral.")


def question_files(q, rs: RunSet) -> dict:
    """The event ablation table the report shows, kept as ``questions/event_ablation.csv`` (its
    verdicts worded as the page words them)."""
    ab = q.tables.get("event_ablation")
    if ab is None:
        return {}
    if ab.height:
        ab = worded(ab, {**(q.meta.get("smallest_difference") or {}), **(rs.smallest or {})})[0]
    return {"questions/event_ablation.csv": ab}


def _slope(r: dict) -> str:
    return (f"{signed(100 * r['slope'])} pp of win share per extra tile (95% interval "
            f"{pp_ci(r['slope_ci_low'], r['slope_ci_high'])})")


def tile_headlines(t: dict) -> list[str]:
    """Tile types ranked by the size of their association with winning (|slope|), each with its sign:
    under bot play a tile count goes with winning, it is not shown to cause it."""
    if "tile_summary" not in t or t["tile_summary"].height == 0:
        return []
    ts = t["tile_summary"].filter(pl.col("slope").is_not_nan())
    if ts.height == 0:
        return []
    ranked = ts.with_columns(pl.col("slope").abs().alias("_a")).sort("_a", descending=True)
    top, weak = ranked.row(0, named=True), ranked.row(ranked.height - 1, named=True)

    def way(r):
        return "winning" if r["slope"] > 0 else "losing"

    out = [f"Under these bots, {top['tile_name']} tiles go with {way(top)} most strongly: each extra "
           f"{top['tile_name']} tile held at the end goes with {_slope(top)}; an association, not proof "
           f"that the tiles cause it."]
    if ranked.height > 1:
        out.append(f"{weak['tile_name']} tiles have the weakest association with winning either way: "
                   f"{_slope(weak)}.")
        out.append("Tile types by the size of their association with the win share, per extra tile: "
                   + ", ".join(f"{r['tile_name']} {pp(r['slope'])}" for r in ranked.iter_rows(named=True))
                   + ".")
    return out


def headlines(t: dict, rs: RunSet) -> list[str]:
    """The most and least generous event card, the card changing the leader most often, the tile
    types ranked by their association with winning, the Domain mix going with winning most."""
    out: list[str] = []
    if "events" in t and t["events"].height:
        ev = t["events"].filter(pl.col("slot") == 0)
        for r, what in zip(best_and_worst(ev, "mean_gain", "event"),
                           ("The most generous event card is", "The least generous is")):
            out.append(f"{what} {r['event_name']} (event {r['event']}): {signed(r['mean_gain'], 2)} coins "
                       f"per player ({num_ci(r['gain_ci_low'], r['gain_ci_high'])}).")
        lc = ev.filter(pl.col("leader_change").is_not_nan() & pl.col("leader_change").is_not_null())
        if lc.height:
            r = lc.sort("leader_change", descending=True).row(0, named=True)
            out.append(f"{r['event_name']} (event {r['event']}) changes the leader most often: in "
                       f"{row_pct_ci(r, 'leader_change', 'leader_change_ci_low', 'leader_change_ci_high')} "
                       f"of the games where it fires.")
    out += tile_headlines(t)
    if "domain_pairs" in t:
        dp = t["domain_pairs"].filter(pl.col("share_of_players") >= 0.005)
        if dp.height:
            r = dp.row(0, named=True)
            out.append(f"The Domain mix that goes with winning most is {r['pair']}: its players win "
                       f"{row_pct_ci(r, 'win_share')}, {num(r['lift'])}× their share of players ({pct(r['share_of_wins'])}% of wins, "
                       f"{pct(r['share_of_players'])}% of players).")
    return out


def _event_rows(t: dict) -> pl.DataFrame:
    e = t["events"].filter(pl.col("slot") == 0).sort("mean_gain", descending=True)
    return pl.DataFrame({
        "Event": [f"{n} ({i})" for n, i in zip(e["event_name"], e["event"])], "Games": e["games"],
        "Coins per player": [f"{signed(m, 2)} ({num_ci(lo, hi)})" for m, lo, hi in
                             zip(e["mean_gain"], e["gain_ci_low"], e["gain_ci_high"])],
        "Spread between players": [f"{m:.2f}" for m in e["mean_spread"]],
        "Changes the leader": pct_column(e, "leader_change"),
        "Biggest gainer wins": pct_column(e, "top_gainer_win_share", "top_gainer_ci_low",
                                          "top_gainer_ci_high")})


def _event_seat_rows(t: dict) -> pl.DataFrame:
    es = t["event_seats"].filter(pl.col("significant"))
    return pl.DataFrame({
        "Event": es["event_name"], "Seat": es["seat_label"],
        "Win share when it fires": pct_column(es, "win_share_with", "with_ci_low", "with_ci_high"),
        "Win share when it does not": pct_column(es, "win_share_without", "without_ci_low", "without_ci_high"),
        "Change (pp, 95% interval)": [f"{pp(d)} ({pp_ci(lo, hi)})" for d, lo, hi in
                                      zip(es["diff"], es["diff_low"], es["diff_high"])],
        "p (Holm-adjusted)": [pvalue(p) for p in es["p_adjusted"]]})


def _tile_rows(t: dict) -> pl.DataFrame:
    ts = t["tile_summary"].filter(pl.col("slope").is_not_nan())
    ts = ts.with_columns(pl.col("slope").abs().alias("_a")).sort("_a", descending=True)
    return pl.DataFrame({
        "Tile type": ts["tile_name"], "Mean tiles held": [num(x) for x in ts["mean_tiles"]],
        "Winners' mean tiles": [num(x) for x in ts["winner_mean_tiles"]],
        "Win share per extra tile (pp, 95% interval)": [f"{pp(v)} ({pp_ci(lo, hi)})" for v, lo, hi in
                                                        zip(ts["slope"], ts["slope_ci_low"], ts["slope_ci_high"])],
        "Significant (unadjusted)": ["yes (interval excludes 0)" if x else "no (interval includes 0)"
                                     for x in ts["significant"]]})


def _domain_rows(dp: pl.DataFrame) -> pl.DataFrame:
    return pl.DataFrame({
        "Domain mix": dp["pair"], "Share of players": [f"{pct(x)}%" for x in dp["share_of_players"]],
        "Share of wins": [f"{pct(x)}%" for x in dp["share_of_wins"]],
        "Lift (wins ÷ players)": [f"×{num(x)}" for x in dp["lift"]],
        "Win share (95% interval)": pct_column(dp, "win_share", "ci_low", "ci_high")})


def _slot_caption(t: dict) -> str:
    ev = t["events"].filter(pl.col("slot") > 0)
    if ev.height == 0:
        return ""
    r = ev.with_columns(pl.col("mean_gain").abs().alias("_a")).sort("_a", descending=True).row(0, named=True)
    return (f"The largest immediate effect by firing turn: {r['event_name']} at turn {4 * r['slot']}, "
            f"{signed(r['mean_gain'], 2)} coins per player. Cells left blank: the 95% interval includes 0 "
            f"(no measurable immediate coin effect, not necessarily no effect: tile-moving cards act "
            f"through later income).")


def sections(t: dict, rs: RunSet, figs: FigureSet, questions=None) -> list[Section]:
    """Event-card impact and tile-type impact, when the run has those tables."""
    secs = []
    if "events" in t:
        es = _event_seat_rows(t)
        ev_lines = [x for x in headlines(t, rs) if "event" in x]
        secs.append(Section(
            "events", "Event-card impact when it fires (association)",
            "What goes with a card in the games where it fires — an association, not the card's effect "
            "(for that, the ablation section of `balance questions`). Coins each card gives per player when it fires (t intervals over games), the spread of that "
            "gain between the players of a game, how often it changes the sole leader, and the win share of "
            "the player it helped most. Cards are sorted by effect size; the heat map splits the effect by "
            "firing turn. Cards that only move tiles show no immediate coin effect here; their effect comes "
            "through later income.",
            figs.add("event_impact", F.event_impact(t), " ".join(ev_lines))
            + figs.add("event_slots", F.event_slots(t), _slot_caption(t)),
            [("Event cards (all firing turns)", _event_rows(t))]
            + ([("Seats whose win share changes with the card (significant after Holm's correction over "
                 "every card and seat)", es)] if es.height else [])))
    if "tiles" in t:
        dp = t["domain_pairs"].filter(pl.col("share_of_players") >= 0.005).head(12)
        tile_lines = tile_headlines(t)
        dom_lines = [x for x in headlines(t, rs) if x.startswith("The Domain mix")]
        secs.append(Section(
            "tiles", "Tile-type impact",
            "Win share against the number of tiles of each type held at the end (Wilson intervals), the "
            "slope of win share per extra tile, and the Domain mixes (a player's two most-stocked Domains) "
            "most over-represented among winners. Under bot play these are associations: a strong position "
            "collects tiles and wins, so a tile that goes with winning is not shown to cause it (change its "
            "rule and compare two runs for that).",
            figs.add("tile_impact", F.tile_impact(t), tile_lines[0] if tile_lines else "")
            + figs.add("domain_pairs", F.domain_pairs(t), dom_lines[0] if dom_lines else ""),
            [("Tile types (strongest association first)", _tile_rows(t)),
             (f"Top {dp.height} Domain mixes (mixes of at least 0.5% of players)", _domain_rows(dp))]))
    if questions is not None:
        ab = _ablation_section(questions, rs)
        if ab is not None:
            secs.insert(0, ab)
    return secs
