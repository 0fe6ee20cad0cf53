"""Middle-Ages report sections (the game's report hook): event cards (MA-8) and tiles / Domains (MA-12).

Found through the Middle-Ages spec (``report_hooks``): :func:`lead_headlines` leads the page with
the event card that goes with the largest swing of a seat's win share (:func:`card_swing_sentences`,
the card section's sentences), :func:`headlines` adds the event-card coins and leader changes and the
tile sentences, :func:`sections` the "Event-card impact when it fires" (association) and
"Tile-type impact" sections, right after seat advantage, and, given a questions directory written by
``balance questions`` (:data:`QUESTIONS`), the event ablation first: each card's total effect on who
wins, ranked. Everything is read from the ``events``, ``event_seats``, ``tiles``,
``tile_summary`` and ``domain_pairs`` tables of :func:`analysis.analyse`; a table that is absent
(a run without those columns) leaves its sentences and section out. :func:`start_scores` gives the
coins the rules start each seat with (a before/after's note on scores that move by construction).

May import numpy, polars, :mod:`analysis.load` (types, smallest differences), :mod:`analysis.stats`,
:mod:`analysis.events` (the ablation's per-drawn columns and reading order), :mod:`reports.text`, :mod:`reports.sections`,
:mod:`reports.figures.middle_ages`, :mod:`simcore.numbers` (a difference printed as the difference of
its printed values: :func:`simcore.numbers.printed_difference`) and the game's rules loader (:func:`start_scores`).
"""

from __future__ import annotations

import numpy as np
import polars as pl

from analysis import events, stats
from analysis.tiles import LINE_FITS
from analysis.load import RunSet, smallest_difference
from reports.figures import middle_ages as F
from reports.sections import FigureSet, Section, pct_column
from reports.text import (ablation_seat, ablation_seat_bots, best_and_worst, difference_pp, fair_gap_digits, metric_digits, metric_value, num, num_ci, pct, pp,
                          pp_ci, pvalue, room_for_a_swing, row_pct_ci, shares_and_gap, signed, size_range,
                          seat_share, seats_fair, verdict_digits, verdict_words)
from simcore import numbers

SECTIONS_AFTER = "seats"
GAME = "middle-ages"
QUESTIONS = "balance questions RUN --out DIR"     # writes event_ablation.csv (the event ablation)
# the sections whose first sentence also leads the page's headline findings (reports.sections):
# which card moves who wins, on both scales, when the ablation is on the page
QUESTION_HEADLINES = ("event_ablation",)
# The ablation plays the run's own deals again: a directory played for another player count, seed or
# bots (same rules) would put another run's seats and deals on this page (reports.questions.check_matches).
QUESTIONS_MATCH = ("players", "seed", "strategies")


def _cell(effect: float, lo: float, hi: float, verdict: str, smallest: float, scale: float,
          digits: int) -> str:
    """An effect with its interval and verdict, the interval always "a to b" with signed ends
    (win shares in pp: ``scale`` 100; coins: ``scale`` 1), printed to the decimals that put its ends
    on the side of 0 and of the smallest difference that matters its verdict was read from
    (:func:`reports.text.verdict_digits`)."""
    if effect != effect:
        return "never drawn"
    k = verdict_digits(lo, hi, smallest, scale=scale, digits=digits)
    unit = " pp" if scale == 100.0 else " coins"
    shown = max(k - 1, 1) if scale == 1.0 else k
    return (f"{signed(scale * effect, shown)} ({signed(scale * lo, k)} to {signed(scale * hi, k)}{unit}), "
            f"{verdict_words(verdict)}")


def _moves_by(rows: pl.DataFrame, lead: dict, share: float, drawn: bool,
              bots: list[str] | None = None) -> str:
    """How much a card moves who wins, said only for a clear effect (the card's leading seat in
    reading order): "+0.86 pp, Seat 4", with its bot when the seats hold different bots
    (``bots``, :func:`reports.text.ablation_seat`: "+6.8 pp, Seat 1 (eventwise)"); for a card clear at no seat, "within noise (≤ x pp)", x the
    farthest end from 0 of its seats' simultaneous intervals (no seat's effect is larger, at 95%
    for the whole table). ``drawn``: per game where the card is drawn (÷ the draw rate)."""
    col = "win_share_when_drawn" if drawn else "win_share_effect"
    if lead["verdict"] == events.WITHIN_NOISE:
        bound = float(np.nanmax(np.abs(rows.select(col + "_low", col + "_high").to_numpy())))
        return "never drawn" if bound != bound else f"within noise (≤ {100 * bound:.{2 if bound < 0.1 else 1}f} pp)"
    k = verdict_digits(lead[col + "_low"], lead[col + "_high"], share)
    return f"{signed(100 * lead[col], k)} pp, {ablation_seat(lead['seat'], bots)}"


def _ablation_rows(ab: pl.DataFrame, share: float = 0.01, score: float = 2.0,
                   drawn: bool = False, bots: list[str] | None = None) -> pl.DataFrame:
    """One row per card in reading order (:func:`analysis.events.ablation_card_order`: a card
    clear at some seat first, by size; the rest within noise; ties by event id), with each seat's
    win-share and score effect: averaged over all the replayed games, or (``drawn``) per game where
    the card is drawn (:func:`analysis.events.ablation_when_drawn`), each with its own verdict.
    Each seat is named with its bot when the seats hold different bots (``bots``, one per seat:
    "Seat 1 (eventwise): win share (pp)", :func:`reports.text.ablation_seat`)."""
    w, sc = ("win_share_when_drawn", "score_when_drawn") if drawn else ("win_share_effect", "score_effect")
    wv, sv = ("verdict_when_drawn", "score_verdict_when_drawn") if drawn else ("verdict", "score_verdict")
    cards = events.ablation_card_order(ab, share)
    rows: dict[str, list] = {"Event card": [], "Drawn in": []}
    if not drawn:
        rows["Moves who wins by (its clear effect, all games)"] = []
        rows["… per game where drawn"] = []
    seats = sorted(ab["seat"].unique().to_list())
    for s in seats:
        rows[f"{ablation_seat(s, bots)}: win share (pp)"] = []
        rows[f"{ablation_seat(s, bots)}: score (coins)"] = []
    for c in cards.iter_rows(named=True):
        d = ab.filter(pl.col("event") == c["event"]).sort("seat")
        rows["Event card"].append(c["name"])
        rows["Drawn in"].append(f"{pct(c['fires'])}% of games")
        if not drawn:
            rows["Moves who wins by (its clear effect, all games)"].append(_moves_by(d, c, share, False, bots))
            rows["… per game where drawn"].append(_moves_by(d, c, share, True, bots))
        for r in d.iter_rows(named=True):
            rows[f"{ablation_seat(r['seat'], bots)}: win share (pp)"].append(
                _cell(r[w], r[w + "_low"], r[w + "_high"], r[wv], share, 100.0, 1))
            rows[f"{ablation_seat(r['seat'], bots)}: score (coins)"].append(
                _cell(r[sc], r[sc + "_low"], r[sc + "_high"], r[sv], score, 1.0, 2))
    return pl.DataFrame(rows)


def worded(ab: pl.DataFrame, overrides: dict | None) -> tuple[pl.DataFrame, float, float]:
    """``ab`` with ``verdict`` and ``score_verdict`` worded again (:func:`analysis.stats.practical`
    on each effect and its simultaneous interval) against ``overrides`` (by kind, over the game's
    own): the page's smallest differences, which may differ from those the table was played with;
    in the page's words ("within noise", :func:`analysis.events.ablation_words`), with the effects
    per game where the card is drawn (:func:`analysis.events.ablation_when_drawn`, worded against the
    same differences). Returns (table, smallest share, smallest score)."""
    share = smallest_difference(GAME, "share", overrides)
    score = smallest_difference(GAME, "score", overrides)
    v = stats.practical(ab["win_share_effect"].to_numpy(), ab["win_share_effect_low"].to_numpy(),
                        ab["win_share_effect_high"].to_numpy(), share)
    sv = stats.practical(ab["score_effect"].to_numpy(), ab["score_effect_low"].to_numpy(),
                         ab["score_effect_high"].to_numpy(), score)
    ab = ab.with_columns(pl.Series("verdict", [str(x) for x in v]),
                         pl.Series("score_verdict", [str(x) for x in sv]))
    return events.ablation_words(events.ablation_when_drawn(ab, share, score)), share, score


def _ablation_deals(q, games) -> str:
    """Which games the ablation played, as its questions directory says them (``deals``:
    :func:`analysis.questions.middle_ages._deals_words`: the run's own deals, or the same seed's
    games at fixed seats for a rotated run), else the run's first ``games`` deals (a directory
    written before it)."""
    said = q.meta.get("deals")
    return str(said) if said else f"the run's first {int(games or 0):,} deals"


def _ablation_section(q, rs: RunSet | None = None) -> Section | None:
    ab = q.tables.get("event_ablation")
    if ab is None or ab.height == 0:
        return None
    # the report's --smallest-difference over the one balance questions recorded, over the game's
    overrides = {**(q.meta.get("smallest_difference") or {}), **((rs.smallest if rs else None) or {})}
    ab, share, score = worded(ab, overrides)
    top = events.ablation_card_order(ab, share).row(0, named=True)
    large_cards = set(ab.filter(pl.col("verdict") == stats.LARGE)["event"].to_list())
    n_large = len(large_cards)
    n_may = len(set(ab.filter(pl.col("verdict") == stats.MAY_MATTER)["event"].to_list()) - large_cards)
    games = q.meta.get("games")
    fires = ab.unique("event")["fires"]
    drawn = (f"{pct(fires.min(), 0)}–{pct(fires.max(), 0)}%" if pct(fires.min(), 0) != pct(fires.max(), 0)
             else f"{pct(fires.min(), 0)}%")
    # the bot at each of the ablation's fixed seats, named beside the seat where they differ; a
    # rotated run's own seats are not the ablation's (review s61 #1)
    bots = ablation_seat_bots(q.meta.get("strategies"), ab["seat"].n_unique())
    rotated = bool(getattr(rs, "metas", None) and rs.metas[0].get("rotate_seats"))
    changed = (ab.filter(~pl.col("unchanged_when_not_drawn")).unique("event", maintain_order=True)["name"].to_list()
               if "unchanged_when_not_drawn" in ab.columns else [])
    per_drawn = ("Divided by the card's draw rate, the same effect is the effect per game where the card "
                 "is drawn (\"does it swing the games it appears in?\"), the scale of the association section "
                 "below; its interval is divided the same way (the draw rate is counted on these very "
                 "deals, and the all-games interval already carries its variation: conservative). "
                 + (f"For {_and(changed)}, games without the card came out differently too (bots that "
                    "look ahead at the deck), so that figure also holds those changes. " if changed else ""))
    return Section(
        "event_ablation", "Event cards: total effect on who wins (ablation)",
        f"Each card's causal effect: {_ablation_deals(q, games)} played again (same seed, rules and "
        "bots; one deck per card) with that card made neutral — still drawn at the same moment, so every "
        "other card and tile is the same, but doing nothing. The difference (with the card − neutral) of "
        "each seat's win share and final score (coins) is the card's total effect, including what it "
        "does through tiles destroyed or restored. It is averaged over all the games: each card is drawn "
        f"in only {drawn} of them, and a game without it is the same game in both decks (a difference of "
        "0), so this answers \"what does the card do to the game as a whole?\". " + per_drawn
        + "Intervals are simultaneous in two families, one for the win shares of every card and "
        "seat and one for their scores, each built to hold together at 95%. "
        # the coin family's measured shortfall below 20,000 games (helper 234 #1)
        + (f"{words} " if (words := events.score_coverage_words(games)) else "")
        + "Cards are in reading order (a card clear at some seat first, "
        "by size; \"Moves who wins by\" is said only for a clear effect). Each effect is worded by size, "
        "read on its interval: \"clear and large enough to matter\" (all of the interval at least "
        f"{100 * share:g} pp of win share, {score:g} coins of score from 0: the smallest differences that "
        "matter), \"clear, may matter\" (the interval reaches both sides of that difference: these "
        "games cannot tell), \"clear but small\" (all of it closer to 0), or \"within noise\" (its "
        "interval holds 0). "
        + ("Played for this report (balance report --play-questions), kept as questions/*.csv; not "
           "read from the run." if q.played_here else
           f"Read from {q.path} (written by {QUESTIONS}), not from the run."),
        [], [("Event cards by their effect on who wins, averaged over all games",
              _ablation_rows(ab, share, score, bots=bots)),
             ("The same effects per game where the card is drawn (effect ÷ draw rate, interval likewise)",
              _ablation_rows(ab, share, score, drawn=True, bots=bots))],
        [_top_sentence(top, share, ab, games, bots, rotated),
         _count_sentence(n_large, n_may, ab["event"].n_unique(), share)])


def _count_sentence(n_large: int, n_may: int, n_cards: int, share: float) -> str:
    """How many cards clearly move some seat's win share by the smallest difference that matters
    (the whole interval), averaged over all games, and, when any, how many more may
    (:data:`analysis.stats.MAY_MATTER`), each verb agreeing with its count: "0 of 15 event cards
    clearly move …; 1 clearly moves it and may do so by that much (clear, may matter: these games
    cannot tell)"."""
    head = (f"{n_large} of {n_cards} event cards clearly move{'s' if n_large == 1 else ''} some seat's "
            f"win share by {100 * share:g} pp or more averaged over all games (clear and large enough to "
            "matter: the whole interval)")
    if not n_may:
        return head + "."
    return (head + f"; {n_may} {'more ' if n_large else ''}clearly move{'s' if n_may == 1 else ''} it "
            "and may do so by that much (clear, may matter: these games cannot tell).")


def _top_sentence(top: dict, share: float = 0.01, ab: pl.DataFrame | None = None,
                  games: int | None = None, bots: list[str] | None = None, rotated: bool = False) -> str:
    """The first card of the reading order (:func:`analysis.events.ablation_card_order`: clear
    effects first, by size), worded on both scales: averaged over all games and per game where the
    card is drawn. The simultaneous intervals do not rank the cards, so a clear effect is called
    the largest *clear* one, never the card that moves who wins the most; when no effect is clear,
    no card is said to move who wins, and whether these games leave room for an effect of ``share``
    is said too (:func:`_room_for_a_card`, over every card and seat of ``ab``, the ablation's
    ``games`` deals). A seat is named with its bot when the seats hold different bots (``bots``,
    one per seat: "for the eventwise bot at Seat 1"), and on a ``rotated`` run the sentence says
    that the effect is that bot's at that seat of the ablation's fixed seating, not the run's own
    seat's, which every bot held in turn (review s61 #1)."""
    lo, hi = top["win_share_effect_low"], top["win_share_effect_high"]
    k = verdict_digits(lo, hi, share)
    seat = top["seat"]
    where = " of the ablation's fixed seating" if bots and rotated else ""
    who = f"the {bots[seat]} bot at Seat {seat + 1}{where}" if bots else f"Seat {seat + 1}"
    rotation = (f" The run rotated its seats and the ablation does not: this is the {bots[seat]} bot's "
                f"effect at Seat {seat + 1}, not the effect on the run's own Seat {seat + 1}, which every "
                "bot held in turn." if bots and rotated else "")
    effect = f"{signed(100 * top['win_share_effect'], k)} pp for {who} ({pp_ci(lo, hi, k)}"
    dlo, dhi = top.get("win_share_when_drawn_low"), top.get("win_share_when_drawn_high")
    kd = verdict_digits(dlo, dhi, share)
    when = (f"{signed(100 * top['win_share_when_drawn'], kd)} pp ({pp_ci(dlo, dhi, kd)}"
            if dlo is not None and dlo == dlo else None)
    if top["verdict"] == events.WITHIN_NOISE:
        return (f"No event card clearly moves who wins: every card's effect on every seat's win share "
                f"is within noise (its simultaneous interval holds 0), averaged over all games and so "
                f"per game where it is drawn; the largest estimate, {top['name']}'s {effect}), "
                + (f"{when}) per game where it is drawn, " if when else "")
                + "could be no effect at all." + _room_for_a_card(top, share, ab, games, bots) + rotation)
    return (f"The largest clear effect on who wins is {top['name']}'s: {effect}, "
            f"{verdict_words(top['verdict'])}) averaged over all games, by the same deals with the card "
            "made neutral"
            + (f"; when drawn (in {pct(top['fires'])}% of games), {top['name']} moves "
               f"{f'the {bots[seat]} bot' if bots else f'Seat {seat + 1}'} by {when}, "
               f"{verdict_words(top['verdict_when_drawn'])})." if when else ".") + rotation)


def _room_for_a_card(top: dict, share: float, ab: pl.DataFrame | None, games: int | None,
                     bots: list[str] | None = None) -> str:
    """After "no event card clearly moves who wins": whether these games leave room for a card to
    move a seat's win share by ``share`` (designer review, session 41: "could be no effect at all"
    beside an interval reaching +9.0 pp per game where the card is drawn, nine times the 1 pp that
    matters, read as "the cards do not matter"). Read on every card-and-seat interval of ``ab``
    (``top`` alone without it), the page's simultaneous ones (:func:`reports.text.room_for_a_swing`):
    averaged over all games first; when all of those lie within ± ``share``, per game where the card
    is drawn (wider: ÷ the draw rate), which alone then decides. Names the option that plays more
    (the ablation played ``games`` deals). Seats are named with their bots when they differ
    (``bots``, :func:`reports.text.ablation_seat`)."""
    rows = list(ab.iter_rows(named=True)) if ab is not None and ab.height else [top]
    more = ("more games (balance questions RUN --games N"
            + (f", more than these {int(games):,}" if games else "") + ") would tell")

    def within(col: str) -> list[tuple[str, float, float]]:
        return [(f"{r['name']} for {ablation_seat(r['seat'], bots)}", r.get(col + "_low"), r.get(col + "_high"))
                for r in rows]

    def reaches(col: str) -> bool:       # some interval reaches ± share: room for an effect
        ends = np.array([(lo, hi) for _, lo, hi in within(col) if lo is not None and hi is not None],
                        float).reshape(-1, 2)
        ends = ends[np.isfinite(ends).all(axis=1)]
        return bool(ends.size) and bool((np.abs(ends).max(axis=1) >= share).any())

    at_once = f" (for all {len(rows)} at once)" if ab is not None and ab.height > 1 else ""
    said = room_for_a_swing(within("win_share_effect"), share,
                            ("card-and-seat effect averaged over all games",
                             "card-and-seat effects averaged over all games"), more, at_once)
    if reaches("win_share_effect") or "win_share_when_drawn_low" not in rows[0]:
        return said
    return room_for_a_swing(within("win_share_when_drawn"), share,
                            ("card-and-seat effect per game where the card is drawn",
                             "card-and-seat effects per game where the card is drawn"), more, at_once) or said


def question_files(q, rs: RunSet) -> dict:
    """The event ablation table the report shows, kept as ``questions/event_ablation.csv``: its
    verdicts worded as the page words them, with the per-drawn columns, its rows in the page's
    order (cards in reading order, seats within)."""
    ab = q.tables.get("event_ablation")
    if ab is None:
        return {}
    if ab.height:
        ab, share, _ = worded(ab, {**(q.meta.get("smallest_difference") or {}), **(rs.smallest or {})})
        rank = {e: i for i, e in enumerate(events.ablation_card_order(ab, share)["event"].to_list())}
        ab = (ab.with_columns(pl.col("event").replace_strict(rank, return_dtype=pl.Int64).alias("_rank"))
              .sort(["_rank", "seat"]).drop("_rank"))
    return {"questions/event_ablation.csv": ab}


"""A straight line describes a tile's curve when it explains at least this share of the
between-count variation of win share (``linear_fit``, :func:`analysis.tiles.tile_summary`)."""

NBSP = "\u00a0"


def _nb(text: str) -> str:
    """Keep a unit on the line of its number (the PDF's narrow columns broke "pp)" onto its own
    line, revD #15)."""
    return text.replace(" pp", NBSP + "pp").replace(" to ", NBSP + "to ")


def _slope(r: dict) -> str:
    return (f"{signed(100 * r['slope'])} pp of win share per extra tile (95% interval "
            f"{pp_ci(r['slope_ci_low'], r['slope_ci_high'])})")


def _range(r: dict) -> str:
    """The lowest and the highest win share over a tile's common counts, in count order."""
    ends = sorted([(r["low_tiles"], r["low_share"]), (r["high_tiles"], r["high_share"])])
    return " to ".join(f"{pct(y)}% at {x} tile{'' if x == 1 else 's'}" for x, y in ends)


def _spread(r: dict, d: int = 1) -> str:
    """A tile type's range of win share beside its lowest and highest printed at ``d`` decimals:
    the printed highest minus the printed lowest (:func:`simcore.numbers.printed_difference`; session 56
    review: "17.0% … 47.6%" beside a range of 30.5 for 17.049% and 47.551%)."""
    return num(numbers.printed_difference(100 * r["high_share"], 100 * r["low_share"], d), d)


def _shaped(ts: pl.DataFrame) -> pl.DataFrame:
    return ts.filter(pl.col("spread").is_not_nan()).sort(["spread", "tile"], descending=[True, False])


def tile_headlines(t: dict) -> list[str]:
    """Tile types ranked by the range of win share over the counts held by at least 1% of players
    (a size that holds for curves, revD #1), the widest first, each with its lowest and highest
    point; the straight-line slope only where a line describes the curve. Under bot play a tile
    count goes with winning, it is not shown to cause it."""
    if "tile_summary" not in t or t["tile_summary"].height == 0 or "spread" not in t["tile_summary"].columns:
        return []
    ranked = _shaped(t["tile_summary"])
    if ranked.height == 0:
        return []
    top = ranked.row(0, named=True)
    line = (f"; each extra tile goes with {_slope(top)}" if top["linear_fit"] >= LINE_FITS else
            " (not a straight line)")
    out = [f"Under these bots, the number of {top['tile_name']} tiles held at the end goes with the "
           f"widest range of win share: {_range(top)}{line}, over the counts held by at least 1% of "
           "players; an association, not proof that the tiles cause it."]
    if ranked.height > 1:
        out.append("Tile types by the range of their win share over the counts held by at least 1% of "
                   "players: " + ", ".join(f"{r['tile_name']} {_spread(r)} pp ({_range(r)})"
                                           for r in ranked.iter_rows(named=True)) + ".")
        bent = ranked.filter(pl.col("linear_fit") < LINE_FITS)["tile_name"].to_list()
        if bent:
            straight = ranked.filter(pl.col("linear_fit") >= LINE_FITS)["tile_name"].to_list()
            out.append("The straight-line slope per extra tile in the table describes "
                       + (f"only {_and(straight)}'s curve{'s' if len(straight) > 1 else ''}" if straight
                          else "none of the curves")
                       + f"; {_and(bent)} bend (not linear: read their win share at each count in the figure).")
    return out


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _domain_leaders(dp: pl.DataFrame) -> pl.DataFrame:
    """The first mix and the mixes not clearly different from it: their difference's 95% interval
    (Newcombe, unadjusted) holds 0 (revD #3)."""
    first = dp.row(0, named=True)
    lo, hi = stats.newcombe(first["win_share"], first["ci_low"], first["ci_high"],
                            dp["win_share"].to_numpy(), dp["ci_low"].to_numpy(), dp["ci_high"].to_numpy())
    tied = (lo <= 0) & (hi >= 0)
    tied[0] = True
    return dp.filter(pl.Series(tied))


def domain_headline(dp: pl.DataFrame) -> str:
    """The Domain mix going with winning most, or the mixes these games cannot tell apart from it."""
    lead = _domain_leaders(dp)
    r = dp.row(0, named=True)
    picked = "intervals unadjusted, the mixes picked by their win share"
    if lead.height == 1:
        return (f"The Domain mix that goes with winning most is {r['pair']}: its players win "
                f"{row_pct_ci(r, 'win_share')}, {num(r['lift'])}× their share of players ({pct(r['share_of_wins'])}% "
                f"of wins, {pct(r['share_of_players'])}% of players; {picked}).")
    return ("The Domain mixes that go with winning most, not clearly different from each other (the 95% "
            "interval of each one's difference from the first holds 0), are "
            + _and([f"{x['pair']} at {row_pct_ci(x, 'win_share')}" for x in lead.iter_rows(named=True)])
            + f"; {picked}.")


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
            out.append(domain_headline(dp))
    return out


def _event_rows(t: dict) -> pl.DataFrame:
    e = F.event_order(t["events"].filter(pl.col("slot") == 0))
    return pl.DataFrame({
        "Event": [f"{n} ({i})" for n, i in zip(e["event_name"], e["event"])], "Games": e["games"],
        "Coins per player": [f"{signed(m, 2)} ({num_ci(lo, hi)})" for m, lo, hi in
                             zip(e["mean_gain"], e["gain_ci_low"], e["gain_ci_high"])],
        "Spread between players (coins)": ["" if m != m else f"{num(m)} ({num_ci(lo, hi)})" for m, lo, hi in
                                           zip(e["mean_spread"], e["spread_ci_low"], e["spread_ci_high"])],
        "Changes the leader": pct_column(e, "leader_change"),
        "Biggest gainer wins": pct_column(e, "top_gainer_win_share", "top_gainer_ci_low",
                                          "top_gainer_ci_high"),
        "Games with a single biggest gainer": [f"{n:,}" if n else "" for n in e["top_gainer_games"]]})


def _event_note(t: dict) -> str:
    """What the event table's columns mean, and why some of its cells are blank (revD #5)."""
    e = t["events"].filter(pl.col("slot") == 0)
    blank = F.event_order(e.filter(pl.col("top_gainer_games") == 0))
    note = ("Spread between players: in each game where the card fires, the largest minus the smallest "
            "coin gain among its players, averaged over those games (coins, 95% t interval). Biggest "
            "gainer wins: the win share of the player who gained the most, over the games with a single "
            "biggest gainer (the last column; games where two or more players tie for the most are left "
            "out).")
    if blank.height:
        names = _and([f"{n} ({i})" for n, i in zip(blank["event_name"], blank["event"])])
        note += (f" Blank cells: {names} give no player coins when "
                 f"{'they fire' if blank.height > 1 else 'it fires'} (they move tiles), so no one gains "
                 "most and the leader cannot change at that moment.")
    return note


def card_swings(t: dict, smallest: float = 0.01) -> pl.DataFrame:
    """The rows of table ``event_seats`` (a seat's win share in the games where a card fires
    against the games where it does not) that are clear after Holm's correction over every card
    and seat, in reading order (:func:`analysis.stats.practical_order`: large enough to matter
    first, then may matter, then clear but small; by size within each): the card table's rows."""
    es = t["event_seats"].filter(pl.col("significant"))
    if "verdict" in es.columns:
        order = stats.practical_order(es["verdict"].to_list(), es["diff"].to_numpy(), smallest)
        es = es[order]
    return es


def swing_digits(r: dict) -> int:
    """The decimals at which a card-and-seat row's two win shares and their change print so that
    the shares as printed differ by the change as printed (:func:`reports.text.fair_gap_digits`;
    review s51: "18.1% … against 20.5% …, −2.5 pp" for 18.054%, 20.512% and −2.458)."""
    return fair_gap_digits(r["win_share_with"], r["win_share_without"], r["diff"])


def swing_change(r: dict, note: str = "", digits: int | None = None) -> str:
    """A card's change of a seat's win share (a row of ``event_seats``) with its own 95% interval
    (unadjusted), as the card table and the card sentences print it: "+2.7 pp (+2.0 to +3.3 pp)";
    ``note`` goes inside the parenthesis, after the interval; ``digits``: the shares' (default the
    row's own, :func:`swing_digits`). The change is the two shares' difference as printed at those
    decimals (:func:`reports.text.difference_pp`; session 56 review: "27.37% … 24.15%" beside "+3.21
    pp" in a table at two decimals, the row's own agreeing at one)."""
    d = swing_digits(r) if digits is None else digits
    w, wo = r.get("win_share_with"), r.get("win_share_without")
    shown = (difference_pp(w, wo, d) if w is not None and wo is not None and np.isfinite([w, wo]).all()
             else pp(r["diff"], d))
    return f"{shown} ({pp_ci(r['diff_low'], r['diff_high'], d)}{'; ' + note if note else ''})"


def family_range(r: dict, smallest: float = 0.01) -> str:
    """The interval a card-and-seat swing's verdict was read on: Bonferroni over every card and
    seat (``family_low``/``family_high``), on the change's side of 0 for a clear row
    (:func:`reports.text.size_range`: Holm shows the sign where this wider interval still reaches
    0, so the end past 0 is printed as 0), with the decimals that keep every end on its side of 0
    and of ``smallest`` (:func:`reports.text.verdict_digits`: "−3.0 to −1.0 pp" beside "may matter"
    was −0.978 at its low end, review Q #4); '' for a table written before the columns."""
    if r.get("family_low") is None or r.get("family_high") is None or r.get("family_size") is None:
        return ""
    lo, hi = size_range(r["diff"], r["family_low"], r["family_high"], bool(r.get("significant", True)))
    return pp_ci(lo, hi, verdict_digits(lo, hi, smallest))


def family_note(t: dict, r: dict, smallest: float = 0.01) -> str:
    """``all 132 card-and-seat swings at once: +1.2 to +4.1 pp``, the range a verdict of table
    ``event_seats`` was read on (review O #4: the verdict stood beside the row's own interval
    only, so two swings with the same own interval wore different verdicts); '' without it."""
    shown = family_range(r, smallest)
    if not shown:
        return ""
    return f"all {int(r['family_size'])} card-and-seat swings at once: {shown}"


def _swing_words(r: dict, note: str = "") -> str:
    """Seat k's win share in the games where the card fires against those where it does not, and
    the change with its interval (the card table's columns, in a sentence)."""
    w, wo, _, d = _swing_shares(r, swing_digits(r))
    return (f"{r['seat_label']} wins {w} of the games where {r['event_name']} fires against {wo} where it "
            f"does not, {swing_change(r, note, d)}")


def _swing_shares(r: dict, least: int) -> tuple[str, str, str, int]:
    """A card-and-seat row's win shares where the card fires and where it does not, each with its
    interval, at one precision of at least ``least`` decimals, their printed difference and those
    decimals (:func:`reports.text.shares_and_gap`)."""
    return shares_and_gap((r["win_share_with"], r["with_ci_low"], r["with_ci_high"]),
                          (r["win_share_without"], r["without_ci_low"], r["without_ci_high"]), least)


def _verdict_of(r: dict) -> str:
    """A clear row's verdict in the page's words ("clear" for a table without its verdicts)."""
    return verdict_words(r["verdict"]) if r.get("verdict") else "clear"


def card_swing_sentences(t: dict, smallest: float = 0.01) -> list[str]:
    """Which event card goes with the largest swing of a seat's win share (table ``event_seats``,
    the card table's first row: clear after Holm over every card and seat, the largest of the best
    verdict), how many swings are clear and large enough to matter, and, when the seat that wins
    least is clearly under its fair share, that seat's largest swing when it is another row.
    Worded with the card table's numbers (:func:`swing_change`); an association under bot play
    (the games where a card fires against the others), not the card's effect. [] without the
    table."""
    if "event_seats" not in t or t["event_seats"].height == 0:
        return []
    holm = f"Holm over every card and seat, {100 * smallest:g} pp matters"
    es = card_swings(t, smallest)
    if es.height == 0:
        # and whether that leaves room for a swing that matters (review U #1: on a rotated run of
        # 12,500 deals it read as "the cards do not move the seats", every interval reaching 1 pp)
        # read on the intervals for the whole family (family_low/high: Bonferroni over every card
        # and seat, as the verdicts' sizes), not each swing's own: "no room" is said of all of them
        rows = t["event_seats"]
        lo_col, hi_col = (("family_low", "family_high") if "family_low" in rows.columns
                          else ("diff_low", "diff_high"))
        within = [(f"{r['event_name']}, {r['seat_label']}", r[lo_col], r[hi_col])
                  for r in rows.iter_rows(named=True)]
        # an association in the run's own games, said so: beside the ablation's "when drawn, Alliance
        # moves Seat 4 by +2.8 pp" it read as a contradiction (designer review 44, questions #2)
        return [f"In this run's games, no event card clearly goes with a change of any seat's win share "
                f"where it fires (an association under bot play, not the card's effect; {holm})."
                + room_for_a_swing(within, smallest, ("card-and-seat swing", "card-and-seat swings"),
                                   at_once=f" (for all {rows.height} at once)" if lo_col == "family_low" else "")]
    top = es.row(0, named=True)
    large = int((es["verdict"] == stats.LARGE).sum()) if "verdict" in es.columns else 0
    why = "an association under bot play (the games where a card fires against the others), not the card's effect."
    tail = (f" {large} card-and-seat swings are clear and large enough to matter (the table under “Event-card "
            f"impact when it fires”); each is {why}" if large > 1 else f" It is {why}")
    family = family_note(t, top, smallest)
    out = [f"The event card that goes with the largest swing of a seat's win share, among the swings "
           f"{_verdict_of(top)}, is {top['event_name']}: "
           f"{_swing_words(top, 'its own interval, unadjusted; ' + (family + '; ' if family else '') + holm)}"
           f".{tail}"]
    seats = t.get("seats")
    if seats is None or "verdict" not in seats.columns or seats.height == 0:
        return out
    weakest = seats.sort("win_share").row(0, named=True)
    if weakest["verdict"] == stats.NOT_SHOWN or weakest["diff"] >= 0:
        return out                       # no seat clearly under its fair share to speak of
    own = es.filter(pl.col("seat") == weakest["seat"])
    if own.height and not (own["event"][0] == top["event"] and own["seat"][0] == top["seat"]):
        r = own.row(0, named=True)
        # (its share and the fair share as its seat line prints them: seat_share, seats_fair;
        # session 62)
        out.append(f"For {weakest['seat_label']}, the seat that wins least ({seat_share(weakest)} "
                   f"against a fair {seats_fair(seats)}%), the largest of its clear swings "
                   f"({_verdict_of(r)}) goes with {r['event_name']}: "
                   f"{_swing_words(r, family_note(t, r, smallest))}.")
    return out


TILE_CURVES_SHOWN = 4          # the tile types whose curves the before/after draws, at most


def comparison_figures(name: str, base_t: dict, var_t: dict, base_label: str, var_label: str,
                       figs: FigureSet, cmp: pl.DataFrame | None = None) -> list[str]:
    """The before/after's figure of the tile curves (MA-12): the win share by number of tiles held
    before and after, for the tile types whose straight-line slope moved clearly (the comparison's
    reading order: verdict, then size; at most :data:`TILE_CURVES_SHOWN`), so that a rule that
    changes a tile's worth is seen on its curve, not only on a slope (review U #6). None when no
    slope moved clearly."""
    if cmp is None or "verdict" not in cmp.columns:
        return []
    moved = cmp.filter((pl.col("metric") == "tile_slope") & (pl.col("verdict") != stats.NOT_SHOWN)
                       & pl.col("significant"))
    if moved.height == 0:
        return []
    shown = moved.head(TILE_CURVES_SHOWN)
    names = shown["key"].to_list()
    # each slope at the decimals its table row prints (reports.text.metric_digits: the page's,
    # review s55 #3: "−1.7 → +1.8" here beside "−1.68 → +1.83" in the table)
    parts = [f"{r['key']}, {metric_value(r['base'], r['metric'], r['kind'], metric_digits(r))} → "
             f"{metric_value(r['variant'], r['metric'], r['kind'], metric_digits(r))} pp per tile "
             f"({verdict_words(r['verdict'])})"
             for r in shown.iter_rows(named=True)]
    rest = moved.height - shown.height
    caption = (f"With {var_label}, the straight-line slope of the win share per extra tile moved clearly "
               f"for {moved.height} tile type{'s' if moved.height > 1 else ''}: " + "; ".join(parts)
               + (f"; and {rest} more (in the table)" if rest else "")
               + ". Each curve is the win share of the players ending with that many tiles "
               "(an association under bot play); where a curve bends, read the curve, not the slope.")
    return figs.add(f"{name}_tiles", F.tile_comparison(base_t, var_t, names, base_label, var_label), caption)


def start_scores(rules_text: str, n_players: int) -> dict[int, float]:
    """The scores the rules fix before the first turn, by seat (0 = the first player), in coins
    (MA-9's score is a seat's final coins): the coins each seat starts with (MA-1,
    ``setup.start_coins``, one number or one per seat). A rule that changes a seat's start purse
    moves its final coins partly by construction, which a before/after says beside that change
    (:func:`reports.text.start_note`)."""
    from simcore.games.middle_ages import rules as R

    rules = R.loads(rules_text)
    return {s: float(rules.start_coins(s)) for s in range(n_players)}


def lead_headlines(t: dict, rs: RunSet) -> list[str]:
    """The page's first findings: the event card that goes with the largest swing of a seat's win
    share (:func:`card_swing_sentences`, as the card section words it). The coins and leader
    changes follow among the game's own headlines (:func:`headlines`)."""
    return card_swing_sentences(t, smallest_difference(GAME, "share", getattr(rs, "smallest", None)))


def _event_seat_rows(t: dict, smallest: float = 0.01) -> pl.DataFrame:
    es = card_swings(t, smallest)
    rows = list(es.iter_rows(named=True))

    def missing(r):
        return any(r[k] is None or r[k] != r[k] for k in ("win_share_with", "win_share_without"))

    # each row's two shares and change at one precision, the change their printed difference: the
    # row's own, as the card sentences above print that row (:func:`_swing_words`), not the most
    # any row of the table needs (session 62: "Seat 4 wins 27.8% (26.7–29.1) … +3.8 pp" in the
    # headline beside "27.84% (26.65–29.06) … +3.81 pp" in its row)
    shown = [None if missing(r) else _swing_shares(r, swing_digits(r)) for r in rows]
    return pl.DataFrame({
        "Event": es["event_name"], "Seat": es["seat_label"],
        "Win share when it fires": ["" if s is None else s[0] for s in shown],
        "Win share when it does not": ["" if s is None else s[1] for s in shown],
        "Change (pp, 95% interval, unadjusted)": [_nb(swing_change(r, digits=None if s is None else s[3]))
                                                  for r, s in zip(rows, shown)],
        **({f"All {int(es['family_size'][0])} at once (pp, the verdict's range)":
            [_nb(family_range(r, smallest)) for r in es.iter_rows(named=True)]}
           if "family_size" in es.columns and es.height else {}),
        "p (Holm-adjusted)": [pvalue(p) for p in es["p_adjusted"]],
        **({f"Verdict (Holm over every card and seat; {100 * smallest:g} pp matters)":
            [verdict_words(v) for v in es["verdict"]]} if "verdict" in es.columns else {})})


def _slope_by_rows(t: dict) -> bool:
    """The tile slopes' intervals treat player rows as independent (statistics written before
    version 2 of a run without its player rows), not clustered by game."""
    ts = t.get("tile_summary")
    return ts is not None and "slope_se_by" in ts.columns and bool((ts["slope_se_by"] == "player rows").any())


def tile_section_text(t: dict) -> str:
    """What the tile section shows; the slope interval as this run's is (revF #8: "clustered by
    game" was said of a run whose intervals treat the player rows as independent)."""
    how = ("its interval treats the player rows as independent, a little too narrow: the statistics "
           "were written before version 2 and the run kept no player rows to cluster them by game"
           if _slope_by_rows(t) else "its interval clustered by game: a game's players are not independent")
    return ("Win share against the number of tiles of each type held at the end (Wilson intervals); each "
            "type's lowest and highest win share over the counts held by at least 1% of players, and "
            "their range (the types are ranked by it: it holds for curves, which a slope does not); the "
            f"straight-line slope of win share per extra tile ({how}) and whether that line fits; and the "
            "Domain mixes (a player's two most-stocked Domains) most over-represented among winners. Under "
            "bot play these are associations: a strong position collects tiles and wins, so a tile that "
            "goes with winning is not shown to cause it (change its rule and compare two runs for that).")


def _tile_rows(t: dict) -> pl.DataFrame:
    ts = _shaped(t["tile_summary"].filter(pl.col("slope").is_not_nan()))
    rows_only = _slope_by_rows(t)
    # each type's lowest and highest at one precision, its range their printed difference
    # (reports.text.shares_and_gap; session 56 review: "17.0% … 47.6%" beside "30.5")
    ends = [shares_and_gap((r["low_share"], r["low_ci_low"], r["low_ci_high"]),
                           (r["high_share"], r["high_ci_low"], r["high_ci_high"]))
            for r in ts.iter_rows(named=True)]
    slope = ("Straight line: win share per extra tile (pp, 95% interval"
             + (", player rows as if independent: statistics written before version 2)" if rows_only
                else " clustered by game)"))
    return pl.DataFrame({
        "Tile type": ts["tile_name"], "Mean tiles held": [num(x) for x in ts["mean_tiles"]],
        "Winners' mean tiles": [num(x) for x in ts["winner_mean_tiles"]],
        "Lowest win share (at tiles)": [f"{low} at {x}" for x, (low, _, _, _) in zip(ts["low_tiles"], ends)],
        "Highest win share (at tiles)": [f"{high} at {x}" for x, (_, high, _, _) in zip(ts["high_tiles"], ends)],
        "Range (pp)": [_spread(r, d) for r, (_, _, _, d) in zip(ts.iter_rows(named=True), ends)],
        slope: [_nb(f"{pp(v)} ({pp_ci(lo, hi)})") for v, lo, hi in
                zip(ts["slope"], ts["slope_ci_low"], ts["slope_ci_high"])],
        "Does the line fit?": [f"yes (R² {f:.2f})" if f >= LINE_FITS else f"no, not linear (R² {f:.2f})"
                               for f in ts["linear_fit"]]})


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
        es = _event_seat_rows(t, rs.smallest_of("share"))
        ev_lines = [x for x in headlines(t, rs) if "event" in x]
        ab = questions.tables.get("event_ablation") if questions is not None else None
        ablation = ab is not None and ab.height > 0 and bool((ab["fires"] > 0).all())
        times = ""
        if ablation:
            lo, hi = 1 / ab["fires"].max(), 1 / ab["fires"].min()
            times = f"{lo:.1f}×" if f"{lo:.1f}" == f"{hi:.1f}" else f"{lo:.1f}× to {hi:.1f}×"
        secs.append(Section(
            "events", "Event-card impact when it fires (association)",
            "What goes with a card in the games where it fires — an association, not the card's effect "
            + ("(for that, the ablation section above). Its numbers are about 1 ÷ the draw rate "
               f"({times} here) larger than the ablation's all-games effects because they are measured only "
               "in the games where the card fires; compare them with the ablation's per-game-where-drawn "
               "table. "
               if ablation else
               "(for that, the ablation section that `balance questions` adds). Its numbers are measured "
               "only in the games where the card fires, so they are about 1 ÷ the draw rate larger than an "
               "effect averaged over all games. ")
            + "Coins each card gives per player when it fires (t intervals over games), the spread of that "
            "gain between the players of a game, how often it changes the sole leader, and the win share of "
            "the player it helped most. Cards are sorted by effect size; the heat map splits the effect by "
            "firing turn. Cards that only move tiles show no immediate coin effect here; their effect comes "
            "through later income.",
            figs.add("event_impact", F.event_impact(t), " ".join(ev_lines))
            + figs.add("event_slots", F.event_slots(t), _slot_caption(t)),
            [("Event cards (all firing turns)", _event_rows(t))]
            + ([("Seats whose win share changes with the card (clear after Holm's correction over every "
                 "card and seat; each change's own interval is unadjusted, and its verdict is read on the "
                 "interval of every card and seat at once beside it, shown on the change's side of 0: where "
                 "that wider interval still reaches past 0, Holm's step-down shows the sign and the end is "
                 "printed as 0.0; largest first by verdict)", es)]
               if es.height else []),
            card_swing_sentences(t, rs.smallest_of("share"))))
    if "tiles" in t:
        dp = t["domain_pairs"].filter(pl.col("share_of_players") >= 0.005).head(12)
        tile_lines = tile_headlines(t)
        dom_lines = [domain_headline(dp)] if dp.height else []
        secs.append(Section(
            "tiles", "Tile-type impact",
            tile_section_text(t),
            figs.add("tile_impact", F.tile_impact(t), tile_lines[0] if tile_lines else "")
            + figs.add("domain_pairs", F.domain_pairs(t), dom_lines[0] if dom_lines else ""),
            [("Tile types (widest range of win share first)", _tile_rows(t)),
             (f"Top {dp.height} Domain mixes (mixes of at least 0.5% of players; intervals unadjusted: the "
              f"{dp.height} are picked from the data by their win share)", _domain_rows(dp))]))
    if questions is not None:
        ab = _ablation_section(questions, rs)
        if ab is not None:
            secs.insert(0, ab)
    return secs
