"""Middle-Ages report sections (the game's report hook): event cards (MA-8) and tiles / Domains (MA-12).

Found through the Middle-Ages spec (``report_hooks``): :func:`headlines` adds the event-card and
tile sentences, :func:`sections` the "Event-card impact" and "Tile-type impact" sections, right
after seat advantage. Everything is read from the ``events``, ``event_seats``, ``tiles``,
``tile_summary`` and ``domain_pairs`` tables of :func:`analysis.analyse`; a table that is absent
(a run without those columns) leaves its sentences and section out.

May import polars, :mod:`analysis.load` (types), :mod:`reports.text`, :mod:`reports.sections` and
:mod:`reports.figures.middle_ages`.
"""

from __future__ import annotations

import polars as pl

from analysis.load import RunSet
from reports.figures import middle_ages as F
from reports.sections import FigureSet, Section, pct_column
from reports.text import best_and_worst, num, num_ci, pct, row_pct_ci, signed

SECTIONS_AFTER = "seats"


def _slope(r: dict) -> str:
    return (f"{signed(100 * r['slope'])} points of win share ({signed(100 * r['slope_ci_low'])} to "
            f"{signed(100 * r['slope_ci_high'])})")


def headlines(t: dict, rs: RunSet) -> list[str]:
    """The most and least generous event card, the card changing the leader most often, the tile
    types that matter most and least, the best Domain mix."""
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
    if "tile_summary" in t and t["tile_summary"].height:
        ts = t["tile_summary"].filter(pl.col("slope").is_not_nan())
        if ts.height:
            r = ts.sort("slope", descending=True).row(0, named=True)
            out.append(f"{r['tile_name']} tiles matter most: each extra {r['tile_name']} tile goes with "
                       f"{_slope(r)}.")
            r = ts.sort("slope").row(0, named=True)
            out.append(f"{r['tile_name']} tiles matter least: each extra {r['tile_name']} tile goes with "
                       f"{_slope(r)}.")
    if "domain_pairs" in t:
        dp = t["domain_pairs"].filter(pl.col("share_of_players") >= 0.005)
        if dp.height:
            r = dp.row(0, named=True)
            out.append(f"The best Domain mix is {r['pair']}: its players win {row_pct_ci(r, 'win_share')}, "
                       f"{num(r['lift'])}× their share of players ({pct(r['share_of_wins'])}% of wins, "
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


def sections(t: dict, rs: RunSet, figs: FigureSet, questions=None) -> list[Section]:
    """Event-card impact and tile-type impact, when the run has those tables."""
    secs = []
    if "events" in t:
        es = t["event_seats"].filter(pl.col("significant")).select(
            "event_name", "seat_label", "win_share_with", "win_share_without", "diff", "diff_low",
            "diff_high", "p_adjusted")
        secs.append(Section(
            "events", "Event-card impact",
            "Coins each card gives per player when it fires (t intervals over games), the spread of that "
            "gain between the players of a game, how often it changes the sole leader, and the win share of "
            "the player it helped most. Cards are sorted by effect size; the heat map splits the effect by "
            "firing turn. Cards that only move tiles show no immediate coin effect here; their effect comes "
            "through later income.",
            figs.add("event_impact", F.event_impact(t)) + figs.add("event_slots", F.event_slots(t)),
            [("Event cards (all firing turns)", _event_rows(t))]
            + ([("Seats whose win share changes with the card (Holm-adjusted)", es)] if es.height else [])))
    if "tiles" in t:
        ts = t["tile_summary"].select("tile_name", "mean_tiles", "winner_mean_tiles", "slope", "slope_ci_low",
                                      "slope_ci_high", "significant")
        dp = t["domain_pairs"].filter(pl.col("share_of_players") >= 0.005).head(12)
        secs.append(Section(
            "tiles", "Tile-type impact",
            "Win share against the number of tiles of each type held at the end (Wilson intervals), the "
            "slope of win share per extra tile, and the Domain mixes (a player's two most-stocked Domains) "
            "most over-represented among winners.",
            figs.add("tile_impact", F.tile_impact(t)) + figs.add("domain_pairs", F.domain_pairs(t)),
            [("Tile types", ts), ("Top Domain mixes", dp)]))
    return secs
