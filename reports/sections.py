"""The report's sections: what every report shows, in order, with the game's own sections slotted in.

:func:`build_sections` turns the metric tables of :func:`analysis.analyse` (the baseline's, and
one comparison per further configuration) into :class:`Section` objects (title, intro, figure
names, display tables, sentences) and a :class:`FigureSet` of the figures they name, each with a
caption that states its finding. The common sections are headline findings, seat (or role)
advantage, strategy matchups, game length and end reasons, score distributions, game flow, the
before/after comparisons (or, when asked, the configurations side by side: runs of several player
counts), and "How to read this report" (the glossary of :mod:`reports.glossary`, only the terms the
report uses); the game's report hook (:mod:`reports.games`, found through its spec) adds its
sections and comparison figures. Display tables name their columns in words (never raw column
names) and hold every row: the HTML page and the PDF show the same tables. The display-table
helpers (:func:`pct_column`, …) are shared with the hooks.

A balance answer names the players it holds for (ARCHITECTURE): :func:`holds_for` for a
before/after, :func:`sweep_holds_for` for a sweep's "Fairest value" (with the same sweep over a
panel); a before/after that found a change worth acting on ends with the sweep of its changed
settings around the two values (:func:`sweep_next_step`).

May import polars, the standard library, :mod:`analysis.load` (types), :mod:`analysis.stats` (the
verdicts' names), :mod:`analysis.rules_diff` (the rules diff; whether the loader takes a value a
suggested sweep would try, whether a rules file still gives a run's rules), :mod:`analysis.panel`
(a cell's label), :mod:`reports.text`, :mod:`reports.rules_diff`,
:mod:`reports.glossary`, :mod:`reports.figures.common`, :mod:`reports.games` (hook lookup) and
:mod:`simcore` (config: a value written as a command takes it; games: a game's shipped rules file).
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass, field

import numpy as np
import polars as pl

from analysis import stats
from analysis.load import RunSet
from analysis.load import score_unit as load_score_unit
from analysis.rules_diff import goal_changes, goal_words
from reports import glossary
from reports.figures import common as F
from reports.rules_diff import (bot_file_changes, diff_sentences, diff_table, matchup_changes, origin,
                               pairing_sentence, rules_diff)
from reports.games import hook_for, spec_for
from reports.text import (PANEL_GAMES_SUGGESTED, _seat_numbers_named, bends, panel_games, panel_plan, sentence_texts, sides_named,
    amount,
    change_sentence, comparison_headlines, comparison_turn_limit_lines, flow_by_turn, flow_headlines, headlines, holm_note,
    INDEX_UNTESTED, INDEX_UNTESTED_SEATS, length_headlines, length_unit, lineup_note, metric_change, metric_digits, common_digits, NO_GAME_DIFFERS, shown_change,
    no_game_differs, no_game_differs_in,
    metric_label, metric_unit, metric_value, num, num_and_ci, num_ci, outcome_headlines, pct, pct_ci, pp, seat_vs_fair, seats_fair, seat_digits, seat_gap, seat_share, gap_beside, PAGE_DIGITS, PAGE_DIGITS_WORDS,
    one_seat_sides, player_turns, pvalue, role_headlines, seat_headlines, shared_win_words, score_unit, seat_balance_sentence, seat_gap_words, shared_role_seats,
    smallest_amounts,
    tested_count, turns, verdict_with_range, verdict_words, with_balance, families, family_noun, row_family,
)


@dataclass
class Section:
    id: str
    title: str
    intro: str = ""
    figures: list[str] = field(default_factory=list)      # figure names
    tables: list[tuple[str, pl.DataFrame]] = field(default_factory=list)
    sentences: list[str] = field(default_factory=list)
    intro_in_pdf: bool = False                             # the PDF prints the intro too


class FigureSet(dict):
    """The report's figures by name; :meth:`add` keeps a figure (with the caption stating its
    finding, in :attr:`captions`) and returns the names to cite."""

    def __init__(self) -> None:
        super().__init__()
        self.captions: dict[str, str] = {}
        # the page's closing note on its methods (:func:`page_methods`; build_sections sets it)
        self.methods: str = glossary.METHODS_NOTE

    def add(self, name: str, fig, caption: str = "") -> list[str]:
        if fig is None:
            return []
        self[name] = fig
        if caption:
            self.captions[name] = caption
        return [name]


def pct_column(df: pl.DataFrame, est: str, low: str | None = None, high: str | None = None) -> list[str]:
    """A column of ``27.9% (27.6–28.2)`` cells ('' where the estimate is missing)."""
    low, high = low or f"{est}_ci_low", high or f"{est}_ci_high"
    return ["" if v is None or v != v else pct_ci(v, lo, hi) for v, lo, hi in zip(df[est], df[low], df[high])]


def smallest_pp(df: pl.DataFrame) -> str:
    """The smallest win-share difference that matters of a table, as people read it ("1 pp")."""
    v = float(df["smallest"][0]) if "smallest" in df.columns and df.height else 0.01
    return f"{100 * v:g} pp"


def seat_rows(t: dict, unit: str = "points") -> pl.DataFrame:
    s = t["seats"]
    # each row's share and gap as the seat's headline, Figure 1 and its caption print them (the
    # seat's own decimals, where the printed share minus the fair share is the printed gap:
    # reports.text.seat_digits, seat_vs_fair), not at the decimals the table's most demanding
    # seat needs: session 62, "18.950% (17.293–20.726)" and "−6.050 pp" here beside the
    # headline's "18.95% (17.29–20.73)" and "−6.05 pp" for one seat
    shown = [seat_vs_fair(r, seat_digits(r)) for r in s.iter_rows(named=True)]
    return pl.DataFrame({
        "Seat": s["seat_label"], "Games": s["games"],
        "Win share (95% interval, unadjusted)": [x[0] for x in shown],
        "vs fair share (pp)": [x[2] for x in shown],
        **({f"Verdict (Holm over the seats; {smallest_pp(s)} matters)": [verdict_words(v) for v in s["verdict"]]} if "verdict" in s.columns
           else {"Significant (unadjusted)": ["yes (fair share outside the interval)" if x else "no"
                                              for x in s["significant"]]}),
        f"Mean final score ({unit})": [num_and_ci(m, lo, hi) for m, lo, hi in
                                       zip(s["mean_score"], s["score_ci_low"], s["score_ci_high"])],
        "Mean rank": [num(x, 3) for x in s["mean_rank"]]})


def role_rows(t: dict) -> pl.DataFrame:
    r = t["roles"]
    return pl.DataFrame({
        "Role": r["role_label"], "Seats": r["seats"], "Games": r["games"],
        "Side wins (95% interval, unadjusted)": pct_column(r, "win_share", "ci_low", "ci_high"),
        "Average per seat (the side's wins ÷ its seats, 95% interval)": pct_column(r, "per_seat", "per_seat_low", "per_seat_high"),
        "Mean rank": [num(x, 3) for x in r["mean_rank"]]})


def role_seat_rows(t: dict) -> pl.DataFrame:
    s = t["role_seats"]
    tested = int(s["seat_p_value"].is_not_nan().sum()) if "seat_p_value" in s.columns else 0
    roles = s.filter(pl.col("p_value").is_not_nan())["role"].n_unique()
    verdict = ({f"Verdict (Holm over the {shared_role_seats(s, tested)}; {smallest_pp(s)} matters)":
                ["" if p != p else verdict_words(v) for v, p in zip(s["verdict"], s["seat_p_value"])]}
               if "verdict" in s.columns else {})
    chi = "chi2_p_adjusted" if "chi2_p_adjusted" in s.columns else "p_value"
    # the roles where the chi-square says the seats differ but no seat's own test (Holm) shows
    # which: said beside it (review s48 SG #5: "no, they differ (p = 0.036)" beside every seat
    # "within noise" and a headline of no clear gap read as a contradiction)
    shown = {stats.LARGE, stats.MAY_MATTER, stats.SMALL}
    none_shown = ({r for r in s["role"].unique().to_list()
                   if not any(v in shown for v in s.filter(pl.col("role") == r)["verdict"].to_list())}
                  if "verdict" in s.columns else set())
    chi_label = (f"Seats equal? (chi-square, Holm over {roles} roles)" if chi == "chi2_p_adjusted" and roles > 1
                 else "Seats equal? (chi-square; one test)" if chi == "chi2_p_adjusted"
                 else "Seats equal? (chi-square, unadjusted)")
    return pl.DataFrame({
        "Role": s["role_label"], "Seat": s["seat_label"], "Games": s["games"],
        "Win share (95% interval, unadjusted)": pct_column(s, "win_share", "ci_low", "ci_high"),
        # a role of one seat (the Seigneur) takes all its role's wins by definition: no interval
        "Share of the role's wins (95% interval, unadjusted)": [
            "no wins to share" if share != share else "100% (its role's only seat)" if alone else cell
            for alone, cell, share in zip(
                s["role"].is_in(s.group_by("role").len().filter(pl.col("len") == 1)["role"].implode()),
                pct_column(s, "share_of_role", "share_low", "share_high"), s["share_of_role"])],
        "Equal split": [f"{pct(v)}%" for v in s["equal_share"]],
        **verdict,
        # one chi-square per role: on the role's first row, not repeated beside each seat's verdict;
        # the column's question answered in words before its p-value (designer review 44 #8: it
        # held "p < 0.001" or "p = 0.700" alone); how much they differ is the verdict's column
        chi_label: ["" if p != p or not first else
                    (f"no, they differ ({pvalue(p)})" + (", though no seat's own test (the verdicts "
                                                         "beside, Holm) shows which" if role in none_shown else ""))
                    if p < 1 - stats.LEVEL else f"no difference shown ({pvalue(p)})"
                    for p, first, role in zip(s[chi], s["role"].is_first_distinct(), s["role"])]})


def length_rows(t: dict) -> pl.DataFrame:
    r = t["length"].row(0, named=True)
    row = {"Games": [r["games"]],
           "Mean turns": [num_and_ci(r['mean_turns'], r['ci_low'], r['ci_high'], 1)],
           "SD": [num(r["turns_sd"], 1)]}
    for k in ("min", "p05", "p25", "median", "p75", "p95", "max"):
        row[k.capitalize() if k in ("min", "median", "max") else k] = [turns(r[k])]
    for key in r:         # the spec's count_per_game columns (analysis.length.length_summary)
        c = key[len("mean_"):]
        if key.startswith("mean_") and key != "mean_turns" and r[key] is not None:
            row[f"Mean {c.replace('_', ' ')}"] = [
                num_and_ci(r[key], r[f'{c}_ci_low'], r[f'{c}_ci_high'], 3)]
    return pl.DataFrame(row)


def ends_by_side(t: dict, rs: RunSet | None) -> list[str] | None:
    """The end reasons' labels in the order the End reasons table reads them by side (the spec's
    roles, then ends it gives no side: :func:`end_rows`), for the length figure's bars; None in a
    game whose spec gives no sides (the table's code order stands)."""
    spec = spec_for(rs.game) if rs is not None else None
    sides = dict(spec.extra.get("end_sides") or {}) if spec is not None and spec.roles else {}
    if not sides or "end_reasons" not in t:
        return None
    e = t["end_reasons"]
    rank = {role.name: k for k, role in enumerate(spec.roles)}
    keyed = sorted(zip(e["end_reason_name"].to_list(), e["label"].to_list(), range(e.height)),
                   key=lambda x: (rank.get(sides.get(x[0]), len(rank)), x[2]))
    return [label for _, label, _ in keyed]


def end_rows(t: dict, rs: RunSet | None = None) -> pl.DataFrame:
    """The End reasons table (table ``end_reasons``): one row per end reason, in code order.

    In a game whose spec says which side each end reason gives the win to (its
    ``extra["end_sides"]``, end reason name → role name: Seigneurial's SG-6) the table reads by
    side, in the order of the spec's roles: a first column names the side that wins, the rows of a
    side stand together, and a side that wins in several ways gets a total row after its rows
    ("Seigneur wins, all ways", the codes summed): its games summed, their share of all games with
    a Wilson interval computed as the other rows' (:func:`analysis.stats.wilson` over the games; a
    rotated run's deal weighs as one game, as :func:`analysis.length.end_reason_table` counts),
    and the mean length of those games (their rows' means weighted by games; no interval). The
    designer review read "Seigneur goal 21 games" and, two rows down, "Seigneur goal, winning a tie
    (SG-6) 61 games", and had to add them to get his 82 wins. An end reason the spec gives no
    side (a code it does not name) follows, its side empty. Other games' tables are as before."""
    e = t["end_reasons"]

    def mean_words(m, lo, hi) -> str:
        return "" if m is None else num(m, 1) if lo is None else num_and_ci(m, lo, hi, 1)

    rows = [{"End": r["label"], "Code": str(r["end_reason"]), "Games": int(r["games"]),
             "Share": pct_ci(r["share"], r["ci_low"], r["ci_high"]),
             "Mean turns": mean_words(r["mean_turns"], r["turns_ci_low"], r["turns_ci_high"])}
            for r in e.iter_rows(named=True)]
    spec = spec_for(rs.game) if rs is not None else None
    sides = dict(spec.extra.get("end_sides") or {}) if spec is not None and spec.roles else {}
    if not sides:
        return pl.DataFrame({
            "End": e["label"], "Code": e["end_reason"], "Games": e["games"],
            "Share": [r["Share"] for r in rows], "Mean turns": [r["Mean turns"] for r in rows]})
    names = e["end_reason_name"].to_list()
    total = int(e["total"][0]) if e.height else 0
    u = float(rs.games_per_unit)
    out = []
    for role in spec.roles:
        side = role.display + ("s" if role.max_count > 1 else "")
        mine = [i for i, n in enumerate(names) if sides.get(n) == role.name]
        out += [{"Side that wins": side, **rows[i]} for i in mine]
        if len(mine) < 2:
            continue
        n = sum(int(e["games"][i]) for i in mine)
        lo, hi = stats.wilson(np.array([n / u]), np.array([total / u]))
        timed = [(int(e["games"][i]), e["mean_turns"][i]) for i in mine
                 if e["mean_turns"][i] is not None and int(e["games"][i]) > 0]
        games_timed = sum(k for k, _ in timed)
        out.append({"Side that wins": side,
                    "End": f"{side} {'win' if role.max_count > 1 else 'wins'}, all ways",
                    "Code": " + ".join(rows[i]["Code"] for i in mine), "Games": n,
                    "Share": pct_ci(n / total, float(lo[0]), float(hi[0])) if total else "",
                    "Mean turns": num(sum(k * m for k, m in timed) / games_timed, 1) if games_timed else ""})
    known = {role.name for role in spec.roles}
    out += [{"Side that wins": "", **rows[i]} for i, n in enumerate(names) if sides.get(n) not in known]
    return pl.DataFrame(out, schema={"Side that wins": pl.String, "End": pl.String, "Code": pl.String,
                                     "Games": pl.Int64, "Share": pl.String, "Mean turns": pl.String})


def _player_games(s: pl.DataFrame) -> pl.Series:
    """A Strategies table's player-games: its ``players`` (``units`` counts the games of a bot on
    several seats of a game, its interval's n since review s60; a table without ``players``, made
    by hand, has its units)."""
    return s["players"] if "players" in s.columns else s["units"]


def strategy_rows(t: dict) -> pl.DataFrame:
    s = t["strategies"]
    paired = bool(s["paired"].any())
    if "role" in s.columns:         # a game with roles: each bot against its role's average seat
        tested = int(s["p_value"].is_not_nan().sum())
        shares = pct_column(s, "win_share", "ci_low", "ci_high")
        # the average seat at the decimals of the share beside it (review Y #10: "0.34% (0.27–0.43)"
        # beside "0.3%")
        places = [len(c.split("%")[0].split(".")[1]) if "." in c.split("%")[0] else 1 for c in shares]
        return pl.DataFrame({
            "Strategy": s["strategy"], "Role": s["role_label"], "Player-games": _player_games(s),
            "Win share (95% interval, unadjusted)": shares,
            "Its role's average seat": [f"{pct(x, k)}%" for x, k in zip(s["fair_share"], places)],
            # the printed share minus the printed average seat (review s55 #1)
            "Difference (pp)": [gap_beside(c, w, f) if p == p else "" for c, w, f, p in
                                zip(shares, s["win_share"], s["fair_share"], s["p_value"])],
            f"Verdict (Holm over the {tested} bots that share a role; {smallest_pp(s)} matters)": [
                verdict_words(v) if p == p else "not tested (its role's only bot)"
                for v, p in zip(s["verdict"], s["p_value"])],
            "Seat advantage included": ["yes (keeps its seats)"] * s.height})
    shares = pct_column(s, "win_share", "ci_low", "ci_high")
    return pl.DataFrame({
        "Strategy": s["strategy"], ("Deals" if paired else "Player-games"): s["units"] if paired else _player_games(s),
        "Win share (95% interval, unadjusted)": shares,
        # the printed share minus the fair share, at the share's decimals (review s55 #1: a gap
        # rounded on its own read −0.6 pp beside 24.5% for 24.45%)
        "vs fair share (pp)": [gap_beside(c, w, f) for c, w, f in zip(shares, s["win_share"], s["fair_share"])],
        **({f"Verdict (Holm over the {s.height} strategies; {smallest_pp(s)} matters)": [verdict_words(v) for v in s["verdict"]]}
           if "verdict" in s.columns else
           {"Significant (unadjusted)": ["yes (fair share outside the interval)" if x else "no"
                                         for x in s["significant"]]}),
        "Seat advantage included": ["yes (keeps its seats)" if c else "no" for c in s["confounded"]]})


def matchup_rows(t: dict) -> pl.DataFrame:
    m = t["matchups"].sort(["strategy", "opponent"])
    pairs = m.height // 2
    paired = "paired" in m.columns and bool(m["paired"].all()) and m.height > 0
    # paired by deal (rotated seats): the games the two bots met, and the deals the interval is
    # over, each holding several of those games (review T #3: "Meetings 2000" of 24,000 meetings in
    # 2,000 deals; review s61 fix 260 #3: the export's meetings said the deals)
    counts = ({"Games met": m["meetings"], "Deals (paired)": m["units"] if "units" in m.columns else m["meetings"]}
              if paired else {"Meetings": m["meetings"]})
    return pl.DataFrame({
        "Strategy": m["strategy"], "Opponent": m["opponent"], **counts,
        "Finishes ahead (95% interval, unadjusted)": pct_column(m, "ahead_share", "ci_low", "ci_high"),
        **({f"Verdict (Holm over the {pairs} pairs; {smallest_pp(m)} matters)": [verdict_words(v) for v in m["verdict"]]}
           if "verdict" in m.columns else
           {"Significant (unadjusted)": ["yes (50% outside the interval)" if x else "no"
                                         for x in m["significant"]]}),
        "Its win share in those games (95% interval, unadjusted; not tested)":
            pct_column(m, "win_share", "win_ci_low", "win_ci_high")})


def outcome_rows(t: dict, unit: str = "points", shared: str = "") -> pl.DataFrame:
    """The outcome metrics' table; ``shared``: how a shared win comes about in a game of two
    one-seat sides (Fief's mutual wipe-out), whose margin is the winning side's over the losing
    one (review AA #4: "Winner's lead over the runner-up" beside two armies)."""
    o = t["outcomes"]
    labels, values = [], []
    for r in o.iter_rows(named=True):
        if r["metric"] == "score_spread":
            # (a mutual wipe-out, nobody's win, counts as a 0 lead in this mean: review 247 #2)
            labels.append(f"Winning side's lead over the losing side, a mutual wipe-out counting as 0 ({unit})"
                          if shared else
                          f"Winner's lead: the gap between the two highest final scores ({unit})")
        elif r["metric"] == "shared_wins" and shared:
            labels.append(f"{r['label']} ({shared})")
        else:
            labels.append(r["label"])
        if r["kind"] == "proportion":
            values.append("" if r["estimate"] != r["estimate"] else pct_ci(r["estimate"], r["ci_low"], r["ci_high"]))
        else:
            values.append(num_and_ci(r['estimate'], r['ci_low'], r['ci_high']))
    return pl.DataFrame({"Outcome": labels, "Value (95% interval)": values, "Games": o["n"]})


def comparison_rows(cmp: pl.DataFrame, unit: str = "points") -> pl.DataFrame:
    """Every compared metric, in its unit, moved ones first (strongest evidence first); in a table
    with families (:func:`reports.text.families`), the family each tested row's Holm correction and
    size interval ran over ("4 seat win shares", "35 other tested metrics"; "not tested")."""
    grouped = bool(families(cmp))
    rows = {"Metric": [], "Unit": [], "Before": [], "After": [], "Change": [], "95% interval of the change": [],
            **({FAMILY_COLUMN: []} if grouped else {}), "p (Holm-adjusted)": [], "Verdict": []}
    pairs = "paired" in cmp.columns and bool(cmp["paired"].any())
    if pairs:
        rows["Compared"] = []
    order = cmp if "verdict" in cmp.columns else cmp.with_columns(
        (~pl.col("significant")).alias("_s")).sort("_s", maintain_order=True).drop("_s")
    family = tested_count(cmp)
    for r in order.iter_rows(named=True):
        u = metric_unit(r["metric"], r["kind"], unit, r.get("key"))
        d = metric_digits(r)
        change, interval = metric_change(r, u, d)
        if r["kind"] == "index" and no_game_differs_in(cmp, "seat_win_share"):
            interval = INDEX_UNTESTED_SEATS          # (not "the seat rows are tested": none is)
        # a slope whose curve the line does not describe is tagged as the run page calls it (revF #6)
        rows["Metric"].append(metric_label(r) + (" (straight-line summary: the curve bends)" if bends(r) else ""))
        rows["Unit"].append("%, change in pp" if r["kind"] == "proportion" else u)
        if r["kind"] == "index" and np.isfinite(r["base_low"]) and np.isfinite(r["variant_low"]) \
                and interval == INDEX_UNTESTED:
            # each run's interval, as the run page prints it (review O #3: the page said an index
            # has "no standard error" beside the baseline's "0.912 (0.907–0.917)")
            interval = (f"none for the change; each run's, from simultaneous intervals over its seat gaps: "
                        f"{num_ci(r['base_low'], r['base_high'], d)} before, "
                        f"{num_ci(r['variant_low'], r['variant_high'], d)} after (the seat rows are tested)")
        rows["Before"].append(metric_value(r["base"], r["metric"], r["kind"], d))
        rows["After"].append(metric_value(r["variant"], r["metric"], r["kind"], d))
        rows["Change"].append(change)
        rows["95% interval of the change"].append(interval)
        if grouped:
            own = row_family(r)
            rows[FAMILY_COLUMN].append(family_noun(*own) if own is not None else "not tested")
        rows["p (Holm-adjusted)"].append("" if r["p_adjusted"] != r["p_adjusted"] else pvalue(r["p_adjusted"]))
        # a verdict beside the interval it was read on (review O #4): a clear change's over all the
        # tested metrics at once; "within noise" beside an own interval that excludes 0 says why
        rows["Verdict"].append("not tested (an index of the seats: see their win shares)"
                               if r["kind"] == "index" else
                               NO_GAME_DIFFERS if no_game_differs(r) else
                               verdict_with_range(r, unit, family, d, say_cut=True) if r.get("verdict") else
                               "moved (significant)" if r["significant"] else
                               "no change detected (interval excludes 0, but not after Holm's correction)"
                               if holm_note(r, tested_count(cmp)) else "no change detected")
        if pairs:
            rows["Compared"].append("paired" if r["paired"] else "unpaired")
    return pl.DataFrame(rows)


FAMILY_COLUMN = "Family (adjusted together)"
"""The before/after table's column naming each row's family (:func:`comparison_rows`)."""


def _seat_caption(t: dict) -> str:
    s = t["seats"]
    best = s.sort("win_share", descending=True).row(0, named=True)
    worst = s.sort("win_share").row(0, named=True)
    st = t["seat_tests"].row(0, named=True)
    if "verdict" in s.columns:
        verdict = seat_gap_words(s)
    else:
        verdict = ("the seats do not win equally often" if st["seats_differ"] else
                   "no evidence that the seats differ") + f" ({pvalue(st['p_value'])})"
    if best["seat"] == worst["seat"]:
        return f"{best['seat_label']} wins {seat_share(best)} against a fair {seats_fair(s)}%."
    # one sentence with one colon: the verdict's own colon (seat_gap_words: "the seats do not win
    # equally often: Seat 1 (+21.8 pp) ... are clear of ...") follows a semicolon, not a second colon
    joint = "; " if ": " in verdict else ": "
    # (each seat's share and gap as its headline and the verdict words print them: one formatter,
    # reports.text.seat_gap, review s61 #2: the caption's "+0.45 pp" beside the headline's "by at
    # most 0.4 pp"; each gap the printed share minus the printed fair share: review s55 #1)
    # (the fair share as the verdict words print it, one way in the caption: reports.text.seats_fair,
    # review s61 fix 266 #2: "against a fair 25.00%" beside "the fair 25.0%")
    return (f"{best['seat_label']} wins most ({seat_share(best)}, {seat_gap(best)}) and "
            f"{worst['seat_label']} least ({seat_share(worst)}, {seat_gap(worst)}) against a fair "
            f"{seats_fair(s)}%{joint}{verdict}.")


def _score_caption(t: dict, unit: str) -> str:
    """The scores figure's caption: which seats end with the most and the fewest on average. Seats
    are said "within noise" of the top (or the bottom) only by a test of their difference: the
    paired differences of :func:`analysis.seats.score_pairs` (game by game, deal by deal on a
    rotated run), Holm's correction over every pair of seats; a clear difference is worded by its
    size against the smallest score difference that matters (review s61 fix 260 #1: "within noise
    of each other (104.52 to 105.18, 95% intervals overlapping)" of Seats 1 and 2, whose paired
    difference was +0.66 coins, p ≈ 0.001; overlapping intervals are not a test). Without the
    player rows (a run read from its statistics alone) no difference is tested, and none is
    claimed. A seat is named once: where the seat just below the top is the bottom one, "ahead of
    Seat 3, which ends with the fewest (…)" (review s61 fix 266 #3)."""
    s = t["seats"]
    roles = t.get("role_seats")
    if roles is not None and "seat_label" in roles.columns and roles["role"].n_unique() > 1:
        return _score_caption_by_role(s, roles, unit)
    best = s.sort("mean_score", descending=True).row(0, named=True)
    worst = s.sort("mean_score").row(0, named=True)
    if best["seat"] == worst["seat"]:
        return f"{best['seat_label']} ends with {amount(num(best['mean_score']), unit)} on average."
    sp = t.get("score_pairs")
    if sp is None or sp.height == 0:
        return (f"The seats end with {num(worst['mean_score'])} ({worst['seat_label']}) to "
                f"{num(best['mean_score'])} {unit} ({best['seat_label']}) on average; which seats differ "
                "is not tested here: that needs each game's scores, the player rows (players.parquet), "
                "which this report's runs did not keep.")
    pairs = {}
    for r in sp.iter_rows(named=True):
        pairs[(r["seat_a"], r["seat_b"])] = r
        pairs[(r["seat_b"], r["seat_a"])] = {**r, "diff": -r["diff"]}
    mean = dict(zip(s["seat"].to_list(), s["mean_score"].to_list()))
    label = dict(zip(s["seat"].to_list(), s["seat_label"].to_list()))
    first = sp.row(0, named=True)
    how = (f" Differences are paired {first['unit']} by {first['unit']}, with Holm's correction over the "
           f"{sp.height} pairs of seats." if sp.height > 1 else
           f" The difference is paired {first['unit']} by {first['unit']}.")     # (2 seats: one pair)
    if not sp["significant"].any():
        return (f"Every seat ends with about as many {unit} on average ({num(worst['mean_score'])} to "
                f"{num(best['mean_score'])}): no two seats differ clearly.{how}")

    def near(seat: int) -> list[int]:
        return sorted(o for o in mean if o != seat and not pairs[(seat, o)]["significant"])

    def values(seats: list[int]) -> str:
        xs = [mean[o] for o in seats]
        return num(xs[0]) if len(xs) == 1 else f"{num(min(xs))} to {num(max(xs))}"

    def within(seats: list[int]) -> str:
        return (f", {_seat_numbers_named([label[o] for o in seats])} within noise of it ({values(seats)})"
                if seats else "")

    def size(r: dict) -> str:
        least = amount(f"{r['smallest']:g}", unit)
        return {stats.SMALL: f"clear but small: under {least}",
                stats.MAY_MATTER: f"clear, may matter (its interval reaches {least})",
                stats.LARGE: f"clear and large enough to matter (at least {least})"}.get(r["verdict"], "clear")

    b, w = int(best["seat"]), int(worst["seat"])
    top = near(b)
    text = f"{best['seat_label']} ends with the most {unit} on average ({num(best['mean_score'])})"
    if w in top:               # every seat within noise of the top (some other pair differs)
        return f"{text}, every other seat within noise of it ({values(top)}).{how}"
    text += within(top)
    # who is ahead: after "Seat 3 within noise of it (…)" a bare ", ahead of Seat 1 (…) by 0.66
    # coins" read as Seat 3's lead (104.77 − 104.52 = 0.25); the top seat is named again there
    # (review s61, the lead's look at fix 260's caption)
    ahead = f"; {best['seat_label']} is ahead of" if top else ", ahead of"
    below = max((o for o in mean if o != b and o not in top), key=lambda o: mean[o])
    r = pairs[(b, below)]
    low = near(w)
    if below == w:
        # the seat just below the top is the bottom one (2 or 3 seats): named once (review s61 fix
        # 266 #3: "ahead of Seat 4 (…) by …; Seat 4 ends with the fewest (…)"); a seat within noise
        # of it is one of the top's (every other seat is), or ties it
        text += (f"{ahead} {label[w]}, which ends with the fewest ({num(mean[w])}), by "
                 f"{amount(num(r['diff']), unit)}: {size(r)}")
        both = [o for o in low if o in top]
        rest = [o for o in low if o not in top]
        if both:
            text += (f"; {_seat_numbers_named([label[o] for o in both])} "
                     f"{'is' if len(both) == 1 else 'are'} within noise of both")
        if rest:
            text += f"; {_seat_numbers_named([label[o] for o in rest])} within noise of the fewest ({values(rest)})"
        return f"{text}.{how}"
    text += (f"{ahead} {label[below]} ({num(mean[below])}) by {amount(num(r['diff']), unit)}: "
             f"{size(r)}")
    return (f"{text}; {worst['seat_label']} ends with the fewest ({num(worst['mean_score'])})"
            f"{within(low)}.{how}")


def _score_caption_by_role(s: pl.DataFrame, roles: pl.DataFrame, unit: str) -> str:
    """The score caption of a game whose seats play roles: each role's seats compared among
    themselves only (review R #12: "Seat 4 ends with the most % of own goal on average (80.62),
    Seat 1 with the fewest (36.10)" set the Seigneur's squares on the track against the
    Censitaires' resources toward their Objective cards), a role of one seat said alone."""
    mean = dict(zip(s["seat_label"], s["mean_score"]))
    parts = []
    for role in roles["role"].unique(maintain_order=True).to_list():
        mine = roles.filter(pl.col("role") == role)
        name = str(mine["role_label"][0])
        seats = [(lab, mean[lab]) for lab in mine["seat_label"] if lab in mean]
        if not seats:
            continue
        if len(seats) == 1:
            parts.append(f"the {name} ({seats[0][0]}) ends with {num(seats[0][1])} on average")
            continue
        best, worst = max(seats, key=lambda x: x[1]), min(seats, key=lambda x: x[1])
        parts.append(f"among the {name}s, {best[0]} ends with the most on average ({num(best[1])}), "
                     f"{worst[0]} the fewest ({num(worst[1])})")
    text = "; ".join(parts)
    several = any(roles.filter(pl.col("role") == r).height > 1 for r in roles["role"].unique().to_list())
    # (every role of one seat, a Fief combat's sides: nothing to compare within a role, review S #9)
    return (f"Final {unit}, role by role: {text}. "
            + ("The roles play for different ends, so their scores are not alike: compare seats within a "
               "role, and the roles by their win shares." if several else
               "Compare the roles by their win shares."))


def _seat_changes(cmp: pl.DataFrame) -> dict[str, str]:
    """Each seat's change of win share as the page's answer prints it (its decimals, from its
    printed values: :func:`reports.text.common_digits`, :func:`reports.text.shown_change`), for the
    before/after figure: {"Seat 1": "+0.25 pp", …}."""
    rows = list(cmp.filter(pl.col("metric") == "seat_win_share").iter_rows(named=True))
    if not rows:
        return {}
    d = common_digits(rows)
    return {r["key"]: pp(shown_change(r, d), d) for r in rows}


def _open_shares(cmp: pl.DataFrame) -> str:
    """The shares of a comparison that are not shown to have moved by enough to matter and whose
    95% interval still reaches their smallest difference that matters, in words ("Seat 4", "3 of
    the 60 shares compared"); "" when there is none: then every share is settled as not moving by
    enough to matter."""
    need = {"kind", "smallest", "diff_low", "diff_high", "verdict"}
    if not need <= set(cmp.columns):
        return ""
    shares = cmp.filter((pl.col("kind") == "proportion") & pl.col("smallest").is_not_null()
                        & (pl.col("smallest") > 0)
                        & ~pl.col("verdict").is_in([stats.LARGE, stats.MAY_MATTER, stats.SMALL]))
    open_ = shares.filter(pl.max_horizontal(pl.col("diff_low").abs(), pl.col("diff_high").abs())
                          >= pl.col("smallest"))
    if open_.height == 0:
        return ""
    if open_.height == 1:
        return metric_label(open_.row(0, named=True)).replace(" win share", "")
    return f"{open_.height} of the {shares.height} shares compared"


def _comparison_caption(cmp: pl.DataFrame, unit: str) -> str:
    roles = cmp.filter(pl.col("metric") == "role_win_share")
    rows = roles if roles.height else cmp.filter(pl.col("metric") == "seat_win_share")
    what = "Role" if roles.height else "Seat"
    sentence = ""
    same = rows.filter(pl.col("same_games").is_not_null()) if "same_games" in rows.columns else rows.clear()
    if same.height:
        # untested (no game differs between the runs): said apart, never ranked as a change of 0.0 pp
        rows = rows.filter(pl.col("same_games").is_null())
        names = [metric_label(r).replace(" win share", "") for r in same.iter_rows(named=True)]
        sentence = ((", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0])
                    + f": the same result in every one of the {int(same['same_games'][0]):,} games of both runs "
                    "(no game differs; untested).")
    if rows.height:
        ranked = rows.with_columns(pl.col("diff").abs().alias("_a")).sort("_a", descending=True)
        moved = ranked.filter(pl.col("significant"))
        if moved.height:
            # each with its size in words, as the page's question says it: "+0.7 pp (clear but
            # small)" is a move, not one "by enough to matter"
            d = common_digits(list(rows.iter_rows(named=True)))     # (as the page's answer prints them)
            # every move clear but small while a share under the smallest difference moved by a large
            # factor: said here too, as the page's answer says it (reports.text.factor_caveat)
            from reports.text import factor_caveat

            # all of them clear but small: the page's answer reads "Not by enough to matter", so
            # the caption says it too (review s46 #6: "Role win rates moved" under that answer)
            small = "verdict" in moved.columns and (moved["verdict"] == stats.SMALL).all()
            sentence += (f" {what} win rates moved{', though not by enough to matter' if small else ''}: "
                         + ", ".join(
                f"{metric_label(r).replace(' win share', '')} {pp(shown_change(r, d), d)}"
                + (f" ({verdict_words(r['verdict'], True)})" if r.get("verdict") else "")
                for r in moved.iter_rows(named=True)) + factor_caveat(rows, moved) + ".")
        else:
            r = ranked.row(0, named=True)
            # at the decimals and from the printed values of the page's answer (review U #4: the
            # answer read "+0.2 pp" and this caption "+0.3 pp" for one change of 0.25 pp)
            d = common_digits(list(rows.iter_rows(named=True)))
            sentence += (f" {what} win rates did not move beyond noise (largest change: "
                        f"{metric_label(r).replace(' win share', '')} {pp(shown_change(r, d), d)}).")
    # the split of a role's wins among its seats (review Y #1: the caption said "No share moved by
    # enough to matter" under a page whose answer was that Seat 4's share of the Censitaires' wins
    # moved by enough to matter)
    split = cmp.filter((pl.col("metric") == "seat_share_of_role_wins") & pl.col("significant")) \
        if roles.height else cmp.clear()
    if split.height:
        d = common_digits(list(cmp.filter(pl.col("metric") == "seat_share_of_role_wins").iter_rows(named=True)))
        sentence += (" The split of a role's wins among its seats moved: " + ", ".join(
            f"{metric_label(r)} {pp(shown_change(r, d), d)}"
            + (f" ({verdict_words(r['verdict'], True)})" if r.get("verdict") else "")
            for r in split.iter_rows(named=True)) + ".")
    shown = pl.col("verdict").is_in([stats.LARGE, stats.MAY_MATTER]) if "verdict" in cmp.columns \
        else pl.col("significant")
    # the other shares: every share but the ones the first sentence gave (in a game of roles the
    # seats' own win shares are other shares: a Censitaire seat's gap may move while the roles do not)
    headed = "role_win_share" if roles.height else "seat_win_share"
    # with the split of a role's wins compared, the seats' win shares of all games carry the roles'
    # change (review S #1): not "the other shares" that moved
    aside = [headed] + (["seat_win_share", "seat_share_of_role_wins"]
                        if (cmp["metric"] == "seat_share_of_role_wins").any() else [])
    shares = cmp.filter((pl.col("kind") == "proportion") & shown & ~pl.col("metric").is_in(aside))
    first = shares.row(0, named=True) if shares.height else {}
    if shares.height and first.get("verdict") != stats.MAY_MATTER:
        sentence += f" Largest clear change among the other shares: {change_sentence(first, unit)}"
    elif shares.height:     # (cmp is in reading order: a share that may matter only when none is large)
        sentence += (" No other share is shown to have moved by enough to matter; the largest clear change "
                     f"that may matter (these games cannot tell): {change_sentence(first, unit)}")
    elif "verdict" in cmp.columns:
        # "other" only beside a change that did matter (review L #6: "Seigneur side +0.7 pp. No
        # other share moved by enough to matter" beside the page's "clear but small")
        large = ((rows.height > 0 and bool((rows.filter(pl.col("significant"))["verdict"] == stats.LARGE).any()))
                 or (split.height > 0 and bool((split["verdict"] == stats.LARGE).any())))
        other = " No other share" if large else " No share"
        # ... only where the games rule it out (review s48 MA #1: "No share moved by enough to
        # matter" under an answer that said these games cannot rule out 1 pp at Seat 4)
        open_ = _open_shares(cmp)
        if open_:
            theirs = "their 95% intervals reach" if " of the " in open_ else "its 95% interval reaches"
            sentence += (f"{other} is shown to have moved by enough to matter, but these games cannot "
                         f"rule out that {open_} did ({theirs} the smallest difference that matters).")
        else:
            sentence += f"{other} moved by enough to matter."
    else:
        sentence += " No other share moved beyond noise."
    return sentence.strip()


_PAIRED_WORDS = (("seat_win_share", "seat win shares"), ("role_win_share", "role win shares"),
                 ("seat_mean_score", "mean scores"), ("score_spread", "the winner's lead"),
                 ("shared_wins", "shared wins"), ("mean_turns", "game length"), ("mean_length", "length"),
                 ("end_reason_share", "end reasons"), ("count_share", "reshuffles"))


def _paired_words(paired: pl.DataFrame) -> str:
    """The kinds of metric a paired comparison holds, in words, as the table has them (rev22: the
    paragraph named game length and end reasons for a game that records neither)."""
    present = set(paired["metric"].to_list())
    counts = paired.filter(pl.col("metric").is_in(["count_share", "count_mean"]))
    # a count by its name (reshuffles); one counted 0 or 1 a game (Fief's ending by mercy) has only
    # its share of games, said by its label
    named: dict[str, str] = {}
    for r in counts.iter_rows(named=True):
        label = r.get("label")
        if r["metric"] == "count_mean" or not label:
            named[r["key"]] = r["key"].replace("_", " ")
        else:
            named.setdefault(r["key"], label[:1].lower() + label[1:])
    words = [", ".join(named.values()) if m == "count_share" else w
             for m, w in _PAIRED_WORDS if m in present or (m == "count_share" and named)]
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)


def _unpaired_words(cmp: pl.DataFrame) -> str:
    """The kinds of the tested metrics a paired comparison reads unpaired, in lower case, as its
    table groups them (:func:`reports.text.change_group`): "game flow and event cards" for
    Middle-Ages, what the game has for another (Médiévallons has no event card)."""
    from reports.text import change_group

    rows = cmp.filter(~pl.col("paired") & (pl.col("kind") != "index")) if "paired" in cmp.columns else cmp.clear()
    kinds = list(dict.fromkeys(change_group(m).lower() for m in rows["metric"].to_list()))
    return ", ".join(kinds[:-1]) + " and " + kinds[-1] if len(kinds) > 1 else "".join(kinds)


def comparison_intro(cmp: pl.DataFrame, about=None, roles: bool = False, game: str | None = None) -> str:
    """A before/after's "How this is measured" paragraph, shown below its table (the section itself
    leads with what changed and what moved): how the changes were compared (``about``, the
    :class:`analysis.compare.Comparison`: "paired on the same N deals", which metrics, the paired
    t interval; or "unpaired" and why), which of the table's metrics are tested (the Balance
    indices are not), what counts as moved (Holm over the tested metrics) and
    the three verdicts of a clear change in reading order (:data:`analysis.stats.VERDICT_ORDER`:
    large enough to matter, may matter, small), each read on the change's interval held to all
    tested metrics at once; then the rows left out (how many, and why: a share of almost nobody,
    a metric the same in every game of both runs, the same number as another row) and, in a game with roles (``roles``), that no seat-balance
    index is compared. A game with no bots to deal to (``game``: Fief's combat, dice only) is
    paired on the same random streams, game by game, not on deals (review Q #6)."""
    pairing = about.pairing if about is not None else None
    spec = spec_for(game) if game is not None else None
    dice = spec is not None and spec.strategies is None
    deals = "random streams" if dice else "deals"
    by = "game by game" if dice else "deal by deal"
    if pairing is not None and pairing.paired:
        paired = cmp.filter(pl.col("paired")) if "paired" in cmp.columns else cmp.clear()
        where = ("per-game rows" if getattr(pairing, "source", "rows") == "rows" else
                 "sweep's exact paired sums (paired_stats.json: the two variants were played "
                 "together, game by game)")
        how = (f"Paired on the same {pairing.games:,} {deals}: the {paired.height} metrics "
               f"({_paired_words(paired)}) read from the {where} are compared {by}, each change the mean "
               f"of the per-{'game' if dice else 'deal'} differences after − before with its t interval "
               f"(mean ± t·sd/√n over the {'games' if dice else 'deals'}: a paired t test), which removes "
               f"the luck of the {'dice' if dice else 'deal'} both sides share"
               + ("; the others (marked \"unpaired\" in the table: read from each run's statistics, such as "
                  + _unpaired_words(cmp) + ") treat the two runs as independent. "
                  if paired.height < cmp.filter(pl.col("kind") != "index").height else ". "))
    elif pairing is not None:
        how = (f"Unpaired: {pairing.why}, so every change treats the two runs as independent samples "
               "(Newcombe's interval for shares, Welch's for means). ")
    else:
        how = ""
    fams = families(cmp)
    # the amounts the verdicts were read against, as given (--smallest-difference) or the game's
    # (session 56 review #2: "1 pp for shares" beside verdicts read against 2 pp)
    said = smallest_amounts(cmp, load_score_unit(game), game)
    amounts = (f"here {said}" if said else "1 pp for shares, 0.1 a game for lead changes, 0.01 a game "
               "for other counts per game such as reshuffles, the game's own amount for scores and lengths")
    return (how + _family_sentence(cmp) + "Each change is after − before, in its unit (pp for shares), with a "
            "95% interval; it counts as moved "
            "(significant, clear) when its Holm-adjusted p-value is below 5%: "
            + (_two_families(fams) if fams else
               "Holm's correction over all tested metrics keeps the chance that two runs of the same rules "
               "flag anything at 5%")
            + ", so a change whose interval just excludes zero may still not count. A clear change is sized "
            f"against the metric's smallest difference that matters ({amounts}) on its "
            "interval widened to hold for all tested metrics "
            + ("of its family " if fams else "")
            + "at once (Bonferroni; wider than the 95% interval shown): \"clear and large enough to "
            "matter\" when all of that interval is at least that far from 0, \"clear, may matter\" "
            "when it reaches both sides of it (the change is real, these games cannot tell whether it "
            "matters; more games would), \"clear but small\" when all of it is closer. The table's "
            "Verdict gives that interval beside each clear change ("
            + (" or ".join(f"\"all {family_noun(f, n)} at once\"" for f, n in fams if n > 1) or
               f"\"the one {family_noun(*fams[0]).split(' ', 1)[1]}\"" if fams else
               f"\"all {tested_count(cmp)} at once\"")
            + "), on the change's "
            "side of 0: where Holm shows the sign but the wider interval still holds 0, it is cut at 0; "
            "a change within noise whose own 95% interval excludes 0 says so. Changes within "
            "noise are listed by the strength of their evidence (|z|), not by their size."
            # the one rule of the page's decimals, said once (reports.text.with_page_digits)
            + (f" {PAGE_DIGITS_WORDS}" if PAGE_DIGITS in cmp.columns else "")
            + (" The first answer ends with the largest other changes, when there are any: up to 3 of the other family that "
               "are clear and large enough to matter, one per kind of metric, largest first by relative size "
               "(a mean's change against its value before, a share's change in pp as it is)." if len(fams) > 1 else "")
            + (" A founders' win share of a guild founded by under 1% of players is a share of almost "
               "nobody: never counted as moved, and left out of the table when under 1% in both runs."
               if (cmp["metric"] == "guild_founders_win_share").any() else "")
            + (" The seats play roles, so no seat-balance index is compared (a game of roles has no fair "
               "seat share); the roles' win shares "
               + ("say what the games show (no game differs in them)" if no_game_differs_in(cmp, "role_win_share")
                  else "carry the test") + "." if roles else "")
            + _left_out_sentence(about, game))


def _two_families(fams: list[tuple[str, int]]) -> str:
    """How a before/after's Holm correction runs when its tested metrics form families
    (:func:`reports.text.families`): each apart, the seats' (sides') win shares the first question
    asks about, the other tested metrics beside them, and what that keeps for two runs of the same
    rules."""
    named = " and ".join(f"the {family_noun(f, n)}" for f, n in fams)
    if len(fams) == 1:
        return (f"Holm's correction over {named} (the table's Family column) keeps the chance that two "
                "runs of the same rules flag any of them at 5%")
    first = fams[0][0]
    who = "seats'" if first == "seats" else "sides' and seats'"
    return (f"Holm's correction runs within each family apart, {named} (the table's Family column), "
            f"so that the {who} verdicts do not depend on how many other metrics the game has; each "
            "family keeps the chance that two runs of the same rules flag any of its members at 5% "
            "(one or the other: at most 10%)")


CONSTANT_WHY = "the same in every game of both runs"
"""How :func:`analysis.compare.compare_runs` says a row was left out because it cannot move (a count
that is the same in every game of both runs): the start of its reason."""


def _family_sentence(cmp: pl.DataFrame) -> str:
    """What the before/after's table holds and what of it is tested: "The table compares 77
    metrics; 75 are tested (Holm's family below), the 2 Balance indices are shown but not tested: a
    largest gap over seat pairs has no standard error, and the seat win shares carry the test."; and
    the metrics compared game by game where no game differs between the runs, shown but not tested
    either (why, and the bound the games put on a share's change: :func:`analysis.stats.
    same_games_bound`)."""
    n = tested_count(cmp)
    if n == cmp.height:
        return f"The table compares {n} metrics, all tested. "
    same = int(cmp["same_games"].is_not_null().sum()) if "same_games" in cmp.columns else 0
    rest = cmp.height - n - same
    parts = []
    if rest:
        parts.append(f"the {rest} Balance ind{'ices are' if rest > 1 else 'ex is'} shown with each run's interval "
                     "but not tested (each run's interval, as the run page prints it, comes from simultaneous "
                     "intervals over its seat gaps, not from a standard error, so the two give no test of the "
                     "change; the seat win shares "
                     + ("say what the games show: no game differs in them)" if no_game_differs_in(cmp, "seat_win_share")
                        else "carry the test, and the largest gap of a seat from the fair share, read on "
                        "every seat's intervals at once, says whether balance got better or worse)"))
    if same:
        games = int(cmp["same_games"].drop_nulls()[0])
        kinds = set(cmp.filter(pl.col("same_games").is_not_null())["kind"].to_list())
        bounds = []
        if "proportion" in kinds:
            bounds.append("for a share the games bound its change instead, by the rule of three (at most "
                          "1 − 0.05^(1/n) either way after n games with no difference, about 3/n: the 95% "
                          "bound in its row)")
        if kinds - {"proportion"}:
            bounds.append("a mean (a score, a length) gets no bound, as one game that differed could move "
                          "it by any amount")
        parts.append(
            f"{same} metric{'s' if same > 1 else ''} where no game of the {games:,} differs between the runs "
            f"(every game gives {'each' if same > 1 else 'it'} the same value in both runs) "
            f"{'are' if same > 1 else 'is'} shown but not tested: every per-game difference is 0, so a paired "
            "interval would be the point 0 to 0, saying more than the games do; " + ", while ".join(bounds))
    return f"The table compares {cmp.height} metrics; {n} {'is' if n == 1 else 'are'} tested, " + "; ".join(parts) + ". "


def _left_out_sentence(about, game: str | None = None) -> str:
    """How many rows a before/after leaves out of its table and why, grouped by reason: a share of
    almost nobody; a metric that is the same in every game of both runs (it cannot move, so it is
    not tested: not "a copy of another row"); a copy of another row's number (one copy tested). A
    seat's row named as the table names it (``game``'s roles: "Seat 1 (Seigneur) win share",
    :func:`reports.text.seat_label_named`)."""
    from reports.text import seat_label_named

    dropped = [(seat_label_named(label, game), why) for label, why in (about.dropped if about is not None else [])]
    if not dropped:
        return ""
    nobody = [label for label, why in dropped if why.startswith("a share of almost nobody")]
    constant = [(label, why) for label, why in dropped if why.startswith(CONSTANT_WHY)]
    # (a score in % of a goal the change moved: analysis.compare_runs' set-aside, one reason for all)
    apart = [(label, why) for label, why in dropped if why.startswith("not comparable: ")]
    copies = [(label, why) for label, why in dropped
              if not why.startswith("a share of almost nobody") and not why.startswith(CONSTANT_WHY)
              and (label, why) not in apart]
    parts = []
    if nobody:
        parts.append(f"{len(nobody)} founders' win share{'s' if len(nobody) > 1 else ''} of a guild founded by "
                     f"under 1% of players in both runs ({', '.join(nobody)}: a share of almost nobody, "
                     "its interval many pp wide)")
    if constant:
        def what(why: str) -> str:            # "(0 a game)" / "(in no game)" of the reason
            inner = why[len(CONSTANT_WHY):].split(":")[0].strip()
            return f" {inner}" if inner.startswith("(") else ""

        many = len(constant) > 1
        names = [f"{label}{what(why)}" for label, why in constant]
        parts.append(f"{len(constant)} metric{'s' if many else ''} the same in every game of both runs, so "
                     f"{'they' if many else 'it'} cannot move and {'are' if many else 'is'} not tested: "
                     + (", ".join(names[:-1]) + " and " + names[-1] if many else names[0]))
    if copies:
        parts.append(f"{len(copies)} row{'s' if len(copies) > 1 else ''} that repeat{'' if len(copies) > 1 else 's'} "
                     f"another row's number ({'; '.join(f'{label} ({why})' for label, why in copies)}), "
                     "kept once in the tested family")
    if apart:
        names = [label for label, _ in apart]
        parts.append(f"{len(apart)} row{'s' if len(apart) > 1 else ''} in the score's unit, not comparable "
                     f"before and after ({', '.join(names)}): {apart[0][1].removeprefix('not comparable: ')}")
    n = len(dropped)
    return f" Left out of the table ({n} row{'s' if n > 1 else ''}): " + "; ".join(parts) + "."


def _with_holds_for(lines: list[str], holds: str, balance: str = "") -> list[str]:
    """The before/after's sentences with the seat question followed, in the same item, by whether
    the seats moved toward or away from fair (``balance``: :func:`reports.text.
    seat_balance_sentence`), then the line-up it holds for."""
    first = [with_balance(lines[0], balance)] if lines else []
    return first + ([holds] if holds else []) + lines[1:]


def _holds_head(played: str, where: str) -> str:
    """The first words of every "holds for" sentence (ARCHITECTURE: a balance answer names the
    players it holds for): "This answer holds for the line-up these runs played, 4p 4×balanced"."""
    return f"This answer holds for the line-up {played} played, {where}"


def holds_for(rs: RunSet, variant: RunSet | None) -> str:
    """Which line-up and player count a two-run before/after's answer is about, and how to ask it
    of others (a panel played under both rules: :mod:`analysis.panel_compare`); "" for a game
    without bots to line up (a Fief combat) or runs that do not record their line-up."""
    from analysis.panel import lineup_label

    spec = spec_for(rs.game)
    if spec is None or spec.strategies is None:
        return ""
    ups = []
    for r in (rs, variant):
        names = (r.metas[0].get("strategies") if r is not None and r.metas else None) or []
        if not isinstance(names, list) or not names:
            return ""
        ups.append(lineup_label(r.n_players, names))
    where = ups[0] if ups[0] == ups[1] else f"{ups[0]} before, {ups[1]} after"
    # a panel that plays what the sentence says (session 56 review #4: "--panel default", 4
    # players only, was offered for other player counts)
    plan = panel_plan(rs.game, rs.n_players, list(rs.metas[0].get("strategies")))
    head = _holds_head("these runs", where)
    if plan is None:
        return f"{head}."
    return (f"{head}; for {plan['covers']}, "
            f"play them under each rule set: simulate --game {rs.game} {plan['option']} "
            f"{panel_games(rs)}--out BASE plays {plan['what']}, the same with the change --out "
            f"VARIANT; give both to balance report BASE VARIANT: it says in which of their cells "
            f"the change moved the win rates.")


def _variant_lineups(sw: dict, sweep_dir) -> list[tuple[int, tuple[str, ...]]]:
    """(player count, one bot per seat) of every finished variant of a sweep, as its run.json
    records them, each once, in the sweep's order."""
    import json
    from pathlib import Path

    out = []
    for v in sw.get("variants") or []:
        try:
            meta = json.loads((Path(sweep_dir) / "variants" / str(v.get("id")) / "run.json").read_text(encoding="utf-8"))
        except (OSError, ValueError, TypeError, AttributeError):
            continue
        names, n = meta.get("strategies"), meta.get("players")
        if isinstance(names, list) and names and isinstance(n, int) and not isinstance(n, bool):
            out.append((n, tuple(str(x) for x in names)))
    return list(dict.fromkeys(out))


def _smallest_option(small: dict | None) -> str:
    """sweep.json ``smallest_difference`` ({"share": 0.02, "score": 3.0}) as the option that gave
    it (``--smallest-difference win_share=2pp,score=3``; :func:`analysis.load.parse_smallest_difference`
    reads it back), '' when none was given."""
    names = {"share": "win_share", "score": "score", "length": "length", "count": "count"}
    parts = [f"{names[k]}={100 * v:g}pp" if k == "share" else f"{names[k]}={v:g}"
             for k, v in (small or {}).items() if k in names and isinstance(v, (int, float))]
    return f"--smallest-difference {','.join(parts)} " if parts else ""


def sweep_command(sw: dict, cells: str, games: int) -> str:
    """The ``balance sweep`` command that plays the sweep ``sw`` (sweep.json) again with its own
    values, seed, base rules (a rules file other than the game's shipped one, the ``--set``
    lines), design, seats' rotation, smallest differences and game options, over ``cells`` (the
    options naming the line-ups and player counts: ``--panel wide``, ``--players 2..5 --lineup
    greedy``) at ``games`` games per variant, into ``--out DIR``; '' when the command cannot play
    the same base rules (a rules file gone or edited since the sweep)."""
    import shlex

    from analysis.rules_diff import file_plays
    from simcore import games as registry

    spec = spec_for(sw.get("game"))
    if spec is None:
        return ""
    rules = ""
    name = str(sw.get("rules_name") or "")
    try:
        shipped = str(registry.import_hook(spec.rules_module).default_rules_path())
    except (AttributeError, ImportError, TypeError):
        shipped = ""
    from pathlib import Path

    if name and shipped and Path(name).resolve() != Path(shipped).resolve():
        if not file_plays(name, (), sw.get("rules_text")):
            return ""
        rules = f"--rules {shlex.quote(name)} "
    own = {o.name: o.flag for o in getattr(spec, "options", ())}
    options = "".join(f"{own[k]} {shlex.quote(str(v))} " for k, v in (sw.get("options") or {}).items()
                      if k in own and v is not None)
    return (f"balance sweep --game {sw['game']} {cells} "
            + "".join(f"--vary {shlex.quote(str(v['text']))} " for v in sw.get("varies") or [])
            + ("--one-at-a-time " if sw.get("mode") == "one-at-a-time" else "")
            + f"--games {games} --seed {sw.get('seed', 0)} {rules}"
            + "".join(f"--set {shlex.quote(str(x))} " for x in sw.get("settings") or [])
            + ("--rotate-seats " if sw.get("rotate_seats") else "")
            + _smallest_option(sw.get("smallest_difference")) + options + "--out DIR")


def sweep_holds_for(sw: dict, sweep_dir) -> str:
    """Which line-up and player count a sweep's answer ("Fairest value of …") holds for, in the
    words of :func:`holds_for`, and how to ask it of others: the same sweep over a panel
    (``balance sweep --panel``, :mod:`analysis.sweep.panel`) that plays the line-ups and counts
    :func:`reports.text.panel_plan` finds (session 64 review #1: "Fairest value of
    effects.caserne_payment: 1", 1.9 pp from fair with 4×balanced, was 4.86 pp with 4×greedy, and
    the page named no line-up). A sweep over player counts names each count's line-up (a panel
    sweep fixes its counts by its cells: no command); a sweep that is one cell of a panel sweep
    (``cells/cell-K``) names its cell and the panel sweep's page, which compares the cells; "" for a
    game without bots to line up (a Fief combat) or variants that do not record their line-up."""
    from pathlib import Path

    from analysis.panel import lineup_label

    spec = spec_for(sw.get("game"))
    if spec is None or spec.strategies is None:
        return ""
    played = _variant_lineups(sw, sweep_dir)
    if not played:
        return ""
    if len(played) > 1:
        where = ", ".join(lineup_label(n, list(names)) for n, names in played)
        return f"This answer holds for the line-ups this sweep played, {where}."
    (n, names), = played
    where = lineup_label(n, list(names))
    here = Path(sweep_dir)
    if here.parent.name == "cells" and (here.parent.parent / "panel_sweep.json").is_file():
        # a panel sweep's cell: its page compares the cells (reports.panel.build_panel_sweep_report)
        return (f"{_holds_head('this cell of a panel sweep', where)}; balance report "
                f"{here.parent.parent} --out DIR says what each setting changes in every cell of it.")
    head = _holds_head("this sweep", where)
    plan = panel_plan(sw["game"], n, list(names))
    low, high = PANEL_GAMES_SUGGESTED
    try:
        games = min(max(int(sw.get("games") or high), low), high)
    except (TypeError, ValueError):
        games = high
    command = sweep_command(sw, plan["option"], games) if plan is not None else ""
    if not command:
        return f"{head}."
    return (f"{head}; for {plan['covers']}, sweep them: {command} sweeps the same values for "
            f"{plan['what']}, and balance report DIR says, cell by cell, what each setting changes "
            "(each cell is also a sweep with its own page).")


#: At most this many changed settings get a suggested sweep (one at a time): more make a
#: before/after of a whole rules file, for which sweeping each setting is no next step.
NEXT_SWEEP_SETTINGS = 3


def _is_number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _worth_a_sweep(about, cmp: pl.DataFrame | None) -> bool:
    """Whether a before/after found a change of the seats' or sides' win shares worth acting on:
    the largest gap from fair moved clearly and by as much as may matter (toward or away), or some
    seat's or side's win share did (verdicts "clear and large enough to matter", "clear, may
    matter")."""
    acting = (stats.LARGE, stats.MAY_MATTER)
    bal = getattr(about, "balance", None)
    if isinstance(bal, pl.DataFrame) and bal.height and "verdict" in bal.columns \
            and bal["verdict"][0] in acting:
        return True
    if cmp is None or not {"metric", "verdict"} <= set(cmp.columns):
        return False
    shares = cmp.filter(pl.col("metric").is_in(["seat_win_share", "role_win_share"]))
    return bool(shares["verdict"].is_in(list(acting)).any())


def _values_around(game: str, rules_text: str, players: int, path: str, a, b) -> tuple[str, str] | None:
    """The ``--vary`` text of a sweep of ``path`` around the two values a before/after compared,
    and the values it plays in words: whole numbers from one below the lower to one above the
    higher, other numbers those two, their midpoint and one gap past each; a value past either end
    only where the game's loader takes it (:func:`analysis.rules_diff.loader_takes`, as a sweep's
    page checks before it suggests one: sweep.json ``beyond``)."""
    from analysis.rules_diff import loader_takes
    from simcore.config import format_value

    lo, hi = min(a, b), max(a, b)
    if isinstance(a, int) and isinstance(b, int):
        low = lo - 1 if loader_takes(game, rules_text, (), players, path, lo - 1) else lo
        high = hi + 1 if loader_takes(game, rules_text, (), players, path, hi + 1) else hi
        return f"{path}={low}..{high}", f"{low} to {high}"
    gap = hi - lo
    xs = [round(float(x), 12) for x in (lo - gap, lo, (lo + hi) / 2, hi, hi + gap)]
    xs = [x for i, x in enumerate(xs)
          if i in (1, 2, 3) or loader_takes(game, rules_text, (), players, path, x)]
    shown = [format_value(x) for x in xs]
    return f"{path}=[{', '.join(shown)}]", ", ".join(shown[:-1]) + f" and {shown[-1]}"


def sweep_next_step(rs: RunSet, variant: RunSet | None, about=None, cmp: pl.DataFrame | None = None) -> str:
    """The before/after's next step where it found a change worth acting on (:func:`_worth_a_sweep`)
    and the two runs differ by rule settings of numbers (its rules diff: ``effects.caserne_payment:
    2 → 4``): a ``balance sweep`` of those settings around the two values (one at a time when
    there are several, up to :data:`NEXT_SWEEP_SETTINGS`), with the runs' game, player count,
    line-up, seats' rotation, seed and games and the base run's rules (its rules
    file, its other ``--set``), so that the sweep compares like with like and its page says which
    value is fairest (session 64 review #2: the page offered only ``balance replay``). '' when the
    runs differ in anything else (line-up, player count, seats' rotation, a setting that is not a
    number) or only in bots or seeds (no rules diff), when a run does not record its rules, when
    the base run's rules file no longer gives its rules, or for a game with options of its own (a
    Fief combat's matchup)."""
    import shlex
    from pathlib import Path

    from analysis.rules_diff import file_plays
    from simcore import games as registry

    if variant is None or not rs.metas or not variant.metas or not _worth_a_sweep(about, cmp):
        return ""
    b, v = rs.metas[0], variant.metas[0]
    spec = spec_for(rs.game)
    # (a game with options of its own, a Fief combat's matchup: run.json records the matchup as
    # played, its Lords resolved from the rules, which a sweep of the rules would not hold; left out)
    if spec is None or spec.options or rs.n_players != variant.n_players:
        return ""
    for key in ("strategies", "rotate_seats"):
        if b.get(key) != v.get(key):
            return ""
    changes = rules_diff(b, v)
    if not changes or len(changes) > NEXT_SWEEP_SETTINGS or not all(
            _is_number(c.before) and _is_number(c.after) for c in changes):
        return ""
    paths = [c.path for c in changes]
    around = [_values_around(rs.game, b.get("rules_text") or "", rs.n_players, c.path, c.before, c.after)
              for c in changes]
    # the base run's rules: its file (named where it is not the game's shipped one) and its other
    # --set lines; a --set of a varied setting is the sweep's base value (its range holds it)
    name = str(b.get("rules_name") or "").split(" with --set")[0]
    sets = [str(x) for x in b.get("settings") or []
            if str(x).split("=", 1)[0].strip() not in paths]
    try:
        shipped = str(registry.import_hook(spec.rules_module).default_rules_path())
    except (AttributeError, ImportError, TypeError):
        return ""
    if not name or not file_plays(name, b.get("settings") or (), b.get("rules_text")):
        return ""
    rules = "" if Path(name).resolve() == Path(shipped).resolve() else f"--rules {shlex.quote(name)} "
    names = b.get("strategies") or []
    bots = ""
    if spec.strategies is not None and isinstance(names, list) and names:
        bots = f"--strategies {names[0] if len(set(names)) == 1 else ','.join(map(str, names))} "
    players = f"--players {rs.n_players} " if "players" in spec.takes else ""
    games = int(b.get("games") or rs.n_games)
    command = (f"balance sweep --game {rs.game} {players}{bots}"
               + ("--rotate-seats " if b.get("rotate_seats") else "")
               + "".join(f"--vary {shlex.quote(text)} " for text, _ in around)
               + ("--one-at-a-time " if len(around) > 1 else "")
               + f"--games {games} --seed {b.get('seed', 0)} {rules}"
               + "".join(f"--set {shlex.quote(x)} " for x in sets) + "--out DIR")
    plays = "; ".join(f"{p} at {words}" for p, (_, words) in zip(paths, around))
    what = ("which value is fairest" if spec.roles_alike else "what each value does to the sides")
    one = len(paths) == 1
    return (f"Next, to see {what} with this line-up, sweep "
            + (f"{paths[0]} around the two values" if one else
               "each changed setting around its two values, one at a time")
            + f": {command} plays {plays}, on the same "
            + ("bots, " if bots else "") + "player count, seed and games as these runs"
            + (" (each setting with the others at the base run's values)" if not one else "")
            + f", and balance report DIR leads with {what}.")


def matchups_to_show(t: dict) -> bool:
    """Whether the strategy matchups section has anything to say: a pair of strategies that met,
    or a strategy tested against its reference. Not when every bot is its role's only one (Fief's
    attacker and defender, a Seigneur's bot against one Censitaire bot): bots of two roles are not
    matched and a role's only bot is its role, which the role section shows."""
    if "matchups" not in t:
        return False
    s = t.get("strategies")
    tested = s is not None and "p_value" in s.columns and bool(s["p_value"].is_not_nan().any())
    return t["matchups"].height > 0 or tested


def matchups_intro(t: dict) -> str:
    """The strategy matchups section's introduction: the two Holm families and how a clear gap is
    sized (on its interval held to its family at once, against the smallest difference that
    matters; the three verdicts in reading order)."""
    return ("How often the row strategy finishes ahead of the column strategy when they meet (ties "
            "count ½), with 95% intervals (each pair's own, unadjusted); paired by deal when the run "
            "rotates seats. Verdicts are Holm-adjusted: over the strategies (against "
            # (review Y #5: one bot and seat read −8.9 pp against 33.2% here and −9.0 pp against
            # an equal 33.3% of its role's wins with the seats: two questions, said apart)
            + ("their role's average seat, the share of all games an average seat of the role wins; "
               "so a bot's difference here is not its seat's gap from an equal share of its role's "
               "wins, which the seats give; a bot of another role plays for another goal, so bots "
               "of two roles are not matched" if "role" in t.get("strategies", {}) else "the fair share")
            + ") and, separately, over the unordered pairs (against 50%). A clear gap is sized on its "
            "interval held to its whole family at once (wider than the one shown): \"clear and large "
            "enough to matter\" when all of it is at least "
            f"{smallest_pp(t['strategies']) if 'strategies' in t else '1 pp'} from the reference, "
            "\"clear, may matter\" when it reaches both sides of that, \"clear but small\" when all "
            "of it is closer.")


def side_by_side_rows(side: list[tuple[str, RunSet, dict]], unit: str = "points") -> pl.DataFrame:
    """One row per configuration and seat: players, win share against the fair share, mean score."""
    cols: dict[str, list] = {"Configuration": [], "Players": [], "Games": [], "Seat": [],
                             "Win share (95% interval, unadjusted)": [], "Fair share": [], "vs fair share (pp)": [],
                             "Significant (Holm over the seats)": [], f"Mean final score ({unit})": []}
    for label, rs, t in side:
        # each seat's share and gap at the decimals where they add up, as the seat table prints
        # them (reports.text.seat_vs_fair; review s55 #1)
        fair = seats_fair(t["seats"])       # (one value, as the page lead prints it: session 62)
        for r in t["seats"].iter_rows(named=True):
            # (each seat's share and gap as the side-by-side sentence prints its gap: seat_gap)
            share, _, gap = seat_vs_fair(r, seat_digits(r))
            cols["Configuration"].append(label)
            cols["Players"].append(rs.n_players)
            cols["Games"].append(rs.n_games)
            cols["Seat"].append(r["seat_label"])
            cols["Win share (95% interval, unadjusted)"].append(share)
            cols["Fair share"].append(f"{fair}%")
            cols["vs fair share (pp)"].append(gap)
            cols["Significant (Holm over the seats)"].append("yes" if r["significant"] else "no")
            cols[f"Mean final score ({unit})"].append(num(r["mean_score"]))
    return pl.DataFrame(cols)


def side_by_side_sentences(side: list[tuple[str, RunSet, dict]]) -> list[str]:
    out = []
    for label, rs, t in side:
        s = t["seats"]
        best = s.sort("diff", descending=True).row(0, named=True)
        worst = s.sort("diff").row(0, named=True)
        st = t["seat_tests"].row(0, named=True)
        verdict = (seat_gap_words(s) if "verdict" in s.columns else
                   ("the seats do not win equally often" if st["seats_differ"] else
                    "no evidence that the seats differ") + f" ({pvalue(st['p_value'])})")
        # (each gap as the seat's headline and the verdict words print it, the fair share as they
        # do: reports.text.seat_gap, seats_fair; review s61 fix 266 #2: "Seat 4 −0.8 pp" beside
        # "Seat 4 (−0.75 pp)" in one sentence)
        gap = seat_gap if "win_share" in s.columns else (lambda r: pp(r["diff"]))
        fair = seats_fair(s) if "win_share" in s.columns else pct(best["fair_share"])
        out.append(f"{rs.n_players} players ({label}, {rs.n_games:,} games): {best['seat_label']} "
                   f"{gap(best)} and {worst['seat_label']} {gap(worst)} against a fair "
                   f"{fair}%; {verdict}.")
        if "length" in t:
            r = t["length"].row(0, named=True)
            out[-1] = out[-1][:-1] + f"; games last {num(r['mean_turns'], 1)} {length_unit(rs.game)} on average."
    return out


def side_by_side_role_rows(side: list[tuple[str, RunSet, dict]]) -> pl.DataFrame:
    """Games with roles: one row per configuration and role, the share of games its side wins."""
    cols: dict[str, list] = {"Configuration": [], "Players": [], "Games": [], "Role": [], "Seats": [],
                             "Side wins (95% interval, unadjusted)": [],
                             "Average per seat (the side's wins ÷ its seats, 95% interval)": []}
    for label, rs, t in side:
        for r in t["roles"].iter_rows(named=True):
            cols["Configuration"].append(label)
            cols["Players"].append(rs.n_players)
            cols["Games"].append(rs.n_games)
            cols["Role"].append(r["role_label"])
            cols["Seats"].append(r["seats"])
            cols["Side wins (95% interval, unadjusted)"].append(pct_ci(r["win_share"], r["ci_low"], r["ci_high"]))
            cols["Average per seat (the side's wins ÷ its seats, 95% interval)"].append(pct_ci(r["per_seat"], r["per_seat_low"], r["per_seat_high"]))
    return pl.DataFrame(cols)


def side_by_side_role_sentences(side: list[tuple[str, RunSet, dict]]) -> list[str]:
    """Games with roles: how often each side wins at each player count, then, per player count,
    whether the seats of a role of several seats win alike (:func:`reports.text.role_headlines`'
    words for that configuration: a 5-player table's gap between Censitaire seats is a finding of
    its own, which the first configuration's headlines do not carry)."""
    out = []
    for label, rs, t in side:
        parts = [f"{r['role_label']} side {pct_ci(r['win_share'], r['ci_low'], r['ci_high'])}"
                 for r in t["roles"].iter_rows(named=True)]
        line = f"{rs.n_players} players ({label}, {rs.n_games:,} games): " + ", ".join(parts)
        if "length" in t:
            line += f"; games last {num(t['length']['mean_turns'][0], 1)} {length_unit(rs.game)} on average"
        out.append(line + ".")
        within = [x for x in role_headlines(t) if x.startswith(("Among the ", "No evidence that one "))]
        out += [f"At {rs.n_players} players ({label}): {x[0].lower()}{x[1:]}" for x in within]
    return out


def replay_line(rs: RunSet, t: dict) -> str | None:
    """The command that shows a game behind a seat (role) finding, turn by turn: the weakest seat's
    (role's) lost game with its highest score; when no seat is clearly off the fair share (every
    verdict "within noise"), the lowest seat is named as such and the line only says how to watch
    a game (there is no weaker seat to explain) (``balance replay``, :mod:`simcore.replay`); None when
    the run cannot be replayed (no reference engine, pooled runs). A run without players.parquet is
    replayed all the same: ``balance replay --find`` plays its games again to find the game (the
    report only reads, so it names the command and what it costs; it plays nothing)."""
    spec = spec_for(rs.game)
    if spec is None or len(rs.paths) != 1:
        return None
    # a game whose reference engine replays the kernel's recorded decisions (simcore.replay.
    # can_replay's first case) needs no import here; only a game replayed by its reference's own
    # hook has simcore.replayable look for it (that imports Numba: 0.3 s of a report's start)
    if not (spec.reference and spec.strategies is not None):
        from simcore.replayable import can_replay     # reads the game's modules; plays nothing

        if not can_replay(spec):
            return None
    rows = (rs.paths[0] / "players.parquet").is_file()
    if "roles" in t:
        r = t["roles"].sort("win_share").row(0, named=True) if "win_share" in t["roles"].columns else None
        if r is None:
            return None
        article = "the" if int(r["seats"]) == 1 else "a"
        query = f"role={r['role']} loses max score"
        what = f"a game {article} {r['role_label']} lost with its highest score"
        # what "why" is about: the side that wins least (the designer review read "To see why in
        # sg-start3, look at a game the Seigneur lost" as a sentence missing its object)
        side = (f"the {r['role_label']}" if int(r["seats"]) == 1 else f"the {r['role_label']}s")
        why = f"To see why {side} {'wins' if int(r['seats']) == 1 else 'win'} least"
        hook = hook_for(rs.game)
        if hook is not None and hasattr(hook, "replay_focus"):     # the game's own telling game
            query, what = hook.replay_focus(r["role"], r["role_label"])
    elif "seats" in t and "win_share" in t["seats"].columns:
        low = t["seats"].sort("win_share").row(0, named=True)
        seat = int(low["seat"]) + 1
        query = f"seat={seat} loses max score"
        if not _seat_flagged(low):
            # no seat is clearly weaker: nothing to explain, so no "to see why" (rev A #3)
            return (f"To watch a game turn by turn: balance replay {rs.paths[0]} --game N, or --find "
                    f"'{query}' for a game seat {seat} (lowest, within noise) lost with its highest "
                    f"score.{_replay_cost(rs, rows)}")
        what = f"a game seat {seat} (the weakest) lost with its highest score"
    else:
        return None
    step = getattr(hook_for(rs.game), "REPLAY_STEP", "turn by turn")     # (Fief: round by round)
    return (f"{why if 'roles' in t else 'To see why'}, look at {what}, {step}: balance replay "
            f"{rs.paths[0]} --find '{query}' (any game: --game N).{_replay_cost(rs, rows)}")


def _seat_flagged(r: dict) -> bool:
    """Whether a row of table ``seats`` is clearly off the fair share: its verdict is not "within
    noise" (Holm over the seats), or, in a table without verdicts, it is significant."""
    if "verdict" in r:
        return r["verdict"] != stats.NOT_SHOWN
    return bool(r.get("significant"))


def _replay_cost(rs: RunSet, rows: bool) -> str:
    """What --find costs on a run without players.parquet (it plays the run's games again)."""
    if rows:
        return ""
    took = rs.metas[0].get("kernel_time_s") if rs.metas else None
    about = (f"; about the {num(float(took), 1)} s of kernel time the run took"
             if isinstance(took, (int, float)) else "")
    return (f" The run kept no players.parquet, so --find plays its {rs.n_games:,} games again "
            f"to find it (the same games{about}); --game N plays one.")


def _paired_named(about) -> str:
    """The paired metrics a before/after's table holds, named as a designer reads them: "the seats'
    win shares, their scores, the game's length, its ends" where the game records those, and only
    those it does (review s46 export #11: Middle-Ages has no length or end-reason metric)."""
    have = set(about.table.filter(pl.col("paired"))["metric"].to_list()) \
        if about is not None and "paired" in about.table.columns else set()
    names = [w for m, w in (("seat_win_share", "the seats' win shares"), ("seat_mean_score", "their scores"),
                            ("mean_turns", "the game's length"), ("end_reason_share", "its ends"))
             if m in have]
    if not names:
        return "the seats' win shares"
    return ", ".join(names)


def what_changed(rs: RunSet, variant: RunSet | None, vlabel: str, about=None) -> list[str]:
    """The before/after's first sentence: the rule settings the variant changes (its rules diff,
    :func:`reports.rules_diff.diff_sentences`), so a comparison leads with what changed before what
    moved, then whether the two sides played the same deals: with ``about`` (the
    :class:`analysis.compare.Comparison`) paired game by game, the sentence says so; else
    :func:`reports.rules_diff.pairing_sentence`. Nothing without the variant's run set."""
    if variant is None:
        return []
    changes = rules_diff(rs.metas[0], variant.metas[0])
    pairing = about.pairing if about is not None else None
    if pairing is not None and pairing.paired:
        seeds = ", ".join(dict.fromkeys(str(m.get("seed")) for m in rs.metas))
        spec = spec_for(rs.game)
        if spec is not None and spec.strategies is None:    # Fief: dice, no deal and no bot
            fought = matchup_changes(rs.metas[0], variant.metas[0])
            deals = (f"Both sides played the same {pairing.games:,} random streams (seed {seeds}, the same "
                     "game numbers: common random numbers, game N of each starts from the same random "
                     "stream" + ("; the dice fall differently once the matchups differ" if fought else "")
                     + "), so the metrics the table marks “paired” (among them the sides' win shares, "
                     "their scores, the combat's length, its ends) are compared game by game; the others, "
                     "as independent samples.")
        else:
            bots = ("the same game numbers and bot names, the bots edited" if bot_file_changes(
                rs.metas[0], variant.metas[0]) else "the same game numbers and bots")
            deals = (f"Both sides played the same {pairing.games:,} deals (seed {seeds}, {bots}: "
                     f"common random numbers, game N of each starts from the same random stream"
                     + ("; where the new rules change what is dealt or drawn, the cards differ from there on"
                        if changes else "")
                     + f"), so the metrics the table marks “paired” (among them {_paired_named(about)}) "
                     "are compared deal by deal; the others, as independent samples.")
    else:
        deals = pairing_sentence(rs.metas, variant.metas, rs.label, vlabel, same_rules=changes == [])
    return ["What changed: " + diff_sentences(changes, rs.label, vlabel, rs.metas[0], variant.metas[0])[0]
            + " " + deals]


def rules_diff_section(name: str, rs: RunSet, variant: RunSet, vlabel: str) -> Section:
    """What differs in the rules of a before/after: every setting, ``path: before → after``."""
    changes = rules_diff(rs.metas[0], variant.metas[0])
    sentences = diff_sentences(changes, rs.label, vlabel, rs.metas[0], variant.metas[0])
    tables = [("Rule settings that differ", diff_table(changes))] if changes else []
    unit = score_unit(rs)
    moved = goal_changes(changes, rs.game, rs.n_players)
    if moved:
        # only the seats whose goal moved (review s58 #1: every seat's, for any setting named "goal…")
        one = len(moved.seats) == 1
        rest = " and the other seats' mean scores" if len(moved.seats) < rs.n_players else ""
        sentences.append(f"{goal_words(moved, unit)[0].upper()}{goal_words(moved, unit)[1:]}: "
                         f"{'its mean score' if one else 'their mean scores'} and the winner's lead "
                         f"are left out of the comparison; compare win shares{rest}.")
    return Section(
        f"{name}_rules", f"Rules diff: {vlabel} vs {rs.label}",
        "Every rule setting whose value differs between the two runs, read from the rules each run "
        "recorded in its run.json (after any --set), whether the change came from --set, an edited "
        f"rules file or a tuned candidate. Baseline rules: {origin(rs.metas[0])}.",
        tables=tables, sentences=sentences, intro_in_pdf=True)


def glossary_section(secs: list[Section], figs: FigureSet) -> Section:
    """"How to read this report": the glossary terms the report uses, in plain words."""
    texts = []
    for s in secs:
        texts += [s.title, s.intro, *sentence_texts(s.sentences)]
        for caption, df in s.tables:
            texts += [caption, *df.columns]
            texts += [str(v) for c in df.columns if df[c].dtype == pl.String for v in df[c].to_list()]
    texts += list(figs.captions.values())
    # (the page's notes too: its head's on intervals and its closing line on methods, review 45 #6)
    texts += [glossary.INTERVALS_NOTE, getattr(figs, "methods", glossary.METHODS_NOTE)]
    rows = glossary.section_rows(glossary.used_terms(texts))
    return Section(
        "glossary", "How to read this report",
        "Every statistic this report uses, in plain words (in the HTML page, hover over a term or a "
        f"column heading to read its entry). {glossary.INTERVALS_NOTE} Under bot play, what goes with "
        "winning is an association: it shows where to look, a rules change compared run against run "
        "shows the effect.",
        tables=[("Terms", pl.DataFrame({"Term": [k for k, _ in rows], "Meaning": [v for _, v in rows]}))],
        intro_in_pdf=True)


#: The run page's sections whose intervals count a rotated-seat run's deals as one game each (the
#: statistics keep per-deal sums for the seats only: the events', tiles', game flow's and length's,
#: the roles', and the games' own tables of Objective cards, land improvements and guilds), and
#: what each says of it in such a run (:func:`rotated_note`).
GAME_BY_GAME_SECTIONS = ("events", "tiles", "flow", "length", "roles", "objectives", "improvements", "guilds")


def rotated_note(games_per_deal: int) -> str:
    """What a section of a rotated-seat run's page says of its intervals: each deal counts as one
    game (:attr:`analysis.load.RunSet.games_per_unit`), a bound that covers at least what it claims
    and is at most √games_per_deal wider than an exact reading over the deals."""
    return (f"Seats rotate within deals in this run ({games_per_deal} games a deal, often the same game with "
            "its seats permuted), so this section's intervals count each deal as one game: they cover at "
            f"least what they claim, and are at most {games_per_deal ** 0.5:.3g} times wider than an exact "
            "reading over the deals, which the seat, strategy and matchup tables give.")


def build_sections(t: dict, rs: RunSet, cmps: list[tuple[str, pl.DataFrame, dict]],
                   questions=None, side: list[tuple[str, RunSet, dict]] | None = None,
                   variants: list[RunSet] | None = None,
                   comparisons: list | None = None) -> tuple[list[Section], FigureSet]:
    """Every section of the report of ``rs`` (tables ``t``) and the figures they cite.

    ``cmps`` holds (label, comparison table, tables) per further configuration; ``questions`` a
    :class:`reports.questions.Questions` for the game's hook, or None; ``side`` (label, run set,
    tables) for every configuration, baseline first, to show side by side instead of before/after
    (configurations of different player counts); ``variants`` the run sets of ``cmps`` (for the
    rules diff), ``comparisons`` their :class:`analysis.compare.Comparison` (how each was compared,
    paired or not, and the rows left out: the page says both). A report with comparisons leads with them: each before/after, then its rules diff,
    then the baseline's own sections (titled as the baseline's)."""
    figs = FigureSet()
    hook = hook_for(rs.game)
    unit = score_unit(rs)
    lines = headlines(t, rs)
    if side:    # the headlines are the first configuration's: say so, and give every count's answer
        others = side_by_side_role_sentences(side) if all("roles" in t_ for _, _, t_ in side) \
            else side_by_side_sentences(side)
        counts = [r.n_players for _, r, _ in side]
        what = (f"Player counts side by side ({', '.join(f'{c}p' for c in counts)})"
                if len(set(counts)) == len(counts) else
                f"Configurations side by side ({', '.join(lab for lab, _, _ in side)})")
        lines = [f"{what}: " + " ".join(others)] + lines
    secs = [Section("headlines", f"Baseline ({rs.label}): headline findings" if cmps else
                    f"Headline findings (the findings after the first are {rs.label}'s)"
                    if side else "Headline findings",
                    sentences=lines)]
    if "roles" in t:
        role_lines = role_headlines(t, getattr(hook_for(rs.game), "GAMES_NOUN", None), shared_win_words(rs))
        split = bool((t["roles"]["seats"] > 1).any())     # some role has several seats to compare
        secs.append(Section(
            "roles", "Role advantage",
            "".join(x + " " for x in lineup_note(t, rs)) +
            "The seats of this game play different roles, so there is no fair share per seat: the "
            + ("left chart shows" if split else "chart shows") +
            " how often each role's side wins (its players' win shares summed per game, "
            "95% Wilson intervals over games, each role's alone: unadjusted)"
            + ("; the right chart how a role's wins split among its seats, against an equal split "
               "(unadjusted intervals). Verdicts on seats are Holm-adjusted over every seat that "
               "shares its role with another (exact binomial tests of a seat's wins among its role's where "
                "the games are independent and no win is shared, else Wald tests from the seats' joint win-share "
               "covariance), the chi-square tests over the roles." if split else
               ". Every role has one seat here, so there is no split of a role's wins among its "
               "seats to test.")
            + " Which split between the sides is right is the designer's call: give it as "
              "balance report RUN --target role=NAME:SHARE:TOL (e.g. role=" + t["roles"]["role_label"][0]
            + ":25%:5) and the headline findings say whether these games meet it.",
            figs.add("role_advantage", F.role_advantage(t), " ".join(role_lines[:2])),
            [("Roles", role_rows(t))] + ([("Seats within each role", role_seat_rows(t))]
                                         if split else []),
            [x for x in [replay_line(rs, t)] if x]))
    else:
        st = t["seat_tests"].row(0, named=True)
        secs.append(Section(
            "seats", "Seat advantage",
            "".join(x + " " for x in lineup_note(t, rs)) +
            f"Win share per seat (shared wins split 1/k) with 95% Wilson intervals. Chi-square test that all "
            f"seats win equally often: {num(st['chi2'], 1)} on {st['dof']} degrees of freedom, "
            f"{pvalue(st['p_value'])}. "
            f"Ludii's Balance {num(st['balance'], 3)} and AdvantageP1 {num(st['advantage_p1'], 3)} (places "
            f"credited 1 for first down to 0 for last); on wins alone, win-share balance "
            f"{num(st.get('win_share_balance', float('nan')), 3)}.",
            figs.add("seat_advantage", F.seat_advantage(t, unit=unit), _seat_caption(t)),
            [("Seats", seat_rows(t, unit))], [x for x in [replay_line(rs, t)] if x]))
    if matchups_to_show(t):
        mu_line = next((x for x in lines if " finishes ahead of " in x), "")
        secs.append(Section(
            "matchups", "Strategy matchups", matchups_intro(t),
            figs.add("matchups", F.matchups(t), mu_line),
            [("Strategies", strategy_rows(t)), ("Matchups", matchup_rows(t))]))
    if "length" in t:
        secs.append(Section(
            "length", "Game length and end reasons",
            ("Player turns per game (each turn is one player's: a round of P players is P turns; "
             if player_turns(rs) else "Turns per game (")
            + "mean with a t interval over games, quantiles), stacked by how the game ended, "
            "and the share of games ending each way with 95% Wilson intervals"
            + (" (named as the game's rules name them)." if "end_reasons" in t else "."),
            figs.add("game_length", F.game_length(t, length_unit(rs.game), ends_by_side(t, rs)),
                     " ".join(length_headlines(t, rs))),
            [("Game length (player turns)" if player_turns(rs) else "Game length (turns)", length_rows(t))]
            + ([("End reasons", end_rows(t, rs))] if "end_reasons" in t else []),
            length_headlines(t, rs)))
    if hook is not None and hasattr(hook, "sections"):
        after = getattr(hook, "SECTIONS_AFTER", None)
        at = next((i + 1 for i, s in enumerate(secs) if s.id == after), len(secs))
        # (a hook that reads the side-by-side configurations takes them: Médiévallons' questions)
        takes_side = side and "side" in inspect.signature(hook.sections).parameters
        added = hook.sections(t, rs, figs, questions, **({"side": side} if takes_side else {}))
        secs[at:at] = added
        # a played question's answer (the hook's QUESTION_HEADLINES: the ids of its sections whose
        # first sentence answers it, e.g. Middle-Ages' event ablation) leads the headline findings
        for s in added:
            if s.id in getattr(hook, "QUESTION_HEADLINES", ()) and s.sentences:
                # (after a turn-limit warning, which stays first: the questions were played under
                # the same limit)
                first = 1 if secs[0].sentences and str(secs[0].sentences[0]).startswith("Warning: ") else 0
                # after the run's own seat (side) findings, which lead (the designer's first
                # question); a null answer ("No event card clearly moves who wins") read first
                heads = secs[0].sentences
                seat_lines = {str(x) for x in (role_headlines(t) if "roles" in t else seat_headlines(t))}
                after = max((i + 1 for i, x in enumerate(heads) if str(x) in seat_lines), default=first)
                heads.insert(max(first, after), s.sentences[0])
    secs.append(Section("scores", "Score distributions", f"Final {unit} per seat and per strategy.",
                        figs.add("scores", F.scores(t, unit=unit), _score_caption(t, unit))))
    sides = one_seat_sides(t, rs)       # (two armies: the winning side's margin, no "runner-up")
    flow_lines = [x for x in outcome_headlines(t, rs, sides=sides)
                  if ("shared win" in x and not sides) or "ahead of the runner-up" in x
                  or "ahead of the losing side" in x]
    flow_lines += flow_headlines(t, rs)
    flow_figs = figs.add("game_flow", F.game_flow(t), " ".join(flow_lines))
    if flow_by_turn(t):
        flow_intro = (f"{unit.capitalize()} at the end of every turn (its event included, before the "
                      "end-of-game penalty) by final rank, lead changes from turn to turn, how often the "
                      "sole leader at the end of each turn wins, shared wins and the winner's margin.")
    elif "flow" in t:
        flow_intro = (f"{unit.capitalize()} at each checkpoint by final rank, lead changes between "
                      "checkpoints, how often the leader at each checkpoint wins, shared wins and the "
                      "winner's margin.")
    else:
        flow_intro = ("The winning side's margin over the losing side." if sides else
                      "Shared wins and the winner's margin.")
    secs.append(Section("flow", "Game flow", flow_intro, flow_figs,
                        [("Outcome metrics", outcome_rows(t, unit, shared_win_words(rs) if sides else ""))],
                        [] if flow_figs else flow_lines))
    if side and all("roles" in t_ for _, _, t_ in side):
        lines_side = side_by_side_role_sentences(side)
        secs.append(Section(
            "side_by_side", "Player counts side by side",
            "The configurations are shown next to each other, not compared as a before/after: their player "
            "counts differ. The seats play roles, so each bar is the share of games a role's side wins at "
            "that player count, with its 95% Wilson interval.",
            figs.add("side_by_side", F.side_by_side_roles([(lab, t_) for lab, _, t_ in side]),
                     " ".join(lines_side)),
            [("Roles by configuration", side_by_side_role_rows(side))], lines_side))
    elif side:
        secs.append(Section(
            "side_by_side", "Player counts side by side",
            "The configurations are shown next to each other, not compared as a before/after: their player "
            "counts differ, so every seat's fair share differs too. Each bar is a seat's win share minus "
            "its own configuration's fair share, in pp, with its 95% interval.",
            figs.add("side_by_side", F.side_by_side([(lab, t_) for lab, _, t_ in side]),
                     " ".join(side_by_side_sentences(side))),
            [("Seats by configuration", side_by_side_rows(side, unit))],
            side_by_side_sentences(side)))
    cmp_secs: list[Section] = []
    for i, (vlabel, cmp, vt) in enumerate(cmps):
        cmp = sides_named(cmp, rs.game)
        name = "comparison" if len(cmps) == 1 else f"comparison_{i + 1}"
        about = comparisons[i] if comparisons is not None and i < len(comparisons) else None
        # (a row where no game differs has no interval to draw: its change is 0 and the table
        # says what the games bound it to; in the chart it would read as an interval wider than any)
        charted = cmp.filter(pl.col("same_games").is_null()) if "same_games" in cmp.columns else cmp
        names = figs.add(name, F.comparison(charted, t, vt, rs.label, vlabel, changes=_seat_changes(charted)),
                         _comparison_caption(cmp, unit))
        if hook is not None and hasattr(hook, "comparison_figures"):
            names += hook.comparison_figures(name, t, vt, rs.label, vlabel, figs, cmp)
        # the section leads with what changed and whether the seats' win rates moved (no intro
        # above them); how the changes were measured follows the table, in a section of its own
        cmp_secs.append(Section(
            name, f"Before / after: {vlabel} vs {rs.label}", "",
            names,
            [(f"All {cmp.height} compared metrics (clear and large, may matter, clear but small, then "
              f"within noise; clear ones by size, within noise by |z|)",
              comparison_rows(cmp, unit))],
            # many games of either side stopped at the turn limit: said first (simcore.turn_limit)
            comparison_turn_limit_lines(t, vt, rs.label, vlabel)
            + what_changed(rs, variants[i] if variants is not None and i < len(variants) else None, vlabel,
                           about)
            + _with_holds_for(comparison_headlines(cmp, rs.label, vlabel, unit, game=rs.game),
                              holds_for(rs, variants[i] if variants is not None and i < len(variants) else None),
                              seat_balance_sentence(getattr(about, "balance", None), cmp))
            # what to play next: a sweep of the changed settings around the two values
            + [x for x in [sweep_next_step(rs, variants[i] if variants is not None and i < len(variants)
                                           else None, about, cmp)] if x]))
        if variants is not None and i < len(variants):
            line = replay_line(variants[i], vt)
            if line:
                # what "why" is about (review U #15: "To see why in B, look at a game seat 1 (the
                # weakest) lost" read as why the change happened)
                said = re.sub(r"^To see why, look at a game seat (\d+) \(the weakest\) lost",
                              lambda m: f"To see why seat {m.group(1)} is the weakest in {vlabel}, look at a "
                                        "game it lost", line)
                if said == line and re.match(r"^To see why \w", line) and not line.startswith("To see why,"):
                    said = line.replace(", look at", f" in {vlabel}, look at", 1)   # (a side: "… wins least in B")
                cmp_secs[-1].sentences.append(said if said != line else line.replace("To see why", f"To see why in {vlabel}"))
        cmp_secs.append(Section(
            f"{name}_how", f"How this is measured: {vlabel} vs {rs.label}",
            comparison_intro(cmp, about, roles="roles" in t, game=rs.game), intro_in_pdf=True))
        if variants is not None and i < len(variants):
            cmp_secs.append(rules_diff_section(name, rs, variants[i], vlabel))
    if rs.games_per_unit > 1:
        # a rotated-seat run: these sections' intervals count each deal as one game (review T: read
        # game by game they were ~1.75-2x too narrow, the rotations of a deal often replaying one
        # game with its seats permuted); the seat, strategy and matchup tables read the deals
        # exactly (docs/analysis.md "Rotated seats")
        note = rotated_note(rs.games_per_unit)
        for s in secs:
            if s.id in GAME_BY_GAME_SECTIONS:
                s.intro = (s.intro + " " if s.intro else "") + note
                s.intro_in_pdf = True
            elif s.id == "seats":
                s.intro += (" Seats rotate within deals in this run: the seats' win shares, mean scores and the "
                            "chi-square read the deals; Balance (on places) and AdvantageP1 count each deal "
                            "as one game, which covers at least what it claims but may be wider than needed.")
    if cmps:
        # the baseline's own sections follow the before/after: each heading says whose numbers it
        # shows (a designer jumping to "Game length and end reasons" from the contents read the old
        # rules' 0.0% turn limit while the variant's games mostly hit it)
        for s in secs[1:]:
            s.title = f"Baseline ({rs.label}): {s.title}"
    elif side:
        # side by side, every section but the side-by-side one is the first configuration's: its
        # heading says so (designer review 44 #7: "Role advantage", "Objective cards", "Scores"
        # showed 4-player numbers under unmarked headings beside a 3-player run)
        for s in secs[1:]:
            if s.id != "side_by_side":
                s.title = f"{rs.label} only: {s.title}"
    secs = cmp_secs + secs
    for s in secs:                       # a figure without its own caption states its section's finding
        for n in s.figures:
            if n not in figs.captions:
                figs.captions[n] = s.sentences[0] if s.sentences else s.intro.split(". ")[0].rstrip(".") + "."
    figs.methods = page_methods(t, cmps, questions, secs, game=rs.game)
    secs.append(glossary_section(secs, figs))
    return secs, figs


_FACTOR = re.compile(r"times (?:less often|as often)")     # a rare share's factor (reports.text.factor_words)


def page_methods(t: dict, cmps: list, questions=None, secs: list[Section] | None = None,
                 game: str | None = None) -> str:
    """The page's closing Methods line, naming the methods its numbers use and only those (review
    s61 fix 260 #2: "Newcombe for differences of proportions" on a before/after whose seat changes
    are paired intervals on per-game differences; the played ablation's methods named only in its
    run.json): Wilson and Student t for the run's shares and means; the seats' paired score
    differences (:func:`analysis.seats.score_pairs`) where the page has them; for each
    before/after, how its tested rows were compared (:func:`analysis.compare.compare_tables`: the
    paired t interval of per-game differences for a ``paired`` row; unpaired, the tie-aware Wald
    interval for a seat's win share, Newcombe's for another share, Welch's for a mean, a normal
    interval from the half-widths for a slope); the exact conditional interval of a rare share's
    factor where a sentence gives one (:func:`reports.text.factor_words`); Holm's correction; and
    the played questions' own intervals (their run.json's ``intervals``). A game with no bots to
    deal to (``game``: Fief's combat, dice only) is paired on the same random streams, not deals
    (review Q #6, as :func:`compare_intro` says it)."""
    parts = ["Wilson intervals for proportions", "Student t for means"]
    if t.get("score_pairs") is not None:
        unit = str(t["score_pairs"]["unit"][0]) if t["score_pairs"].height else "game"
        parts.append(f"paired t tests of the seats' score differences {unit} by {unit}")
    paired = wald = newcombe = welch = normal = False
    for c in cmps or []:
        table = c[1]
        if table is None or not table.height or "p_value" not in table.columns:
            continue
        tested = table.filter(pl.col("p_value").is_not_nan() & pl.col("p_value").is_not_null())
        pair = tested["paired"].fill_null(False) if "paired" in tested.columns else pl.Series([False] * tested.height)
        own = tested.filter(~pair)
        paired |= bool(pair.any())
        wald |= own.filter((pl.col("kind") == "proportion") & (pl.col("metric") == "seat_win_share")).height > 0
        newcombe |= own.filter((pl.col("kind") == "proportion") & (pl.col("metric") != "seat_win_share")).height > 0
        welch |= own.filter(pl.col("kind") == "mean").height > 0
        normal |= own.filter(~pl.col("kind").is_in(["proportion", "mean"])).height > 0
    changes = []
    if paired:
        spec = spec_for(game) if game is not None else None
        same = "random streams" if spec is not None and spec.strategies is None else "deals"
        changes.append("paired t intervals on the per-game differences for the changes compared game "
                       f"by game (the same {same} in both runs)")
    if wald:
        changes.append("the tie-aware Wald interval for a seat's win share compared run against run")
    if newcombe:
        changes.append("Newcombe for " + ("other " if wald or paired else "") + "differences of proportions")
    if welch:
        changes.append("Welch for " + ("other " if paired else "") + "differences of means")
    if normal:
        changes.append("a normal interval from the half-widths for differences of tile slopes")
    parts += changes
    texts = [x for sec in secs or [] for x in sentence_texts(sec.sentences)]
    if any(_FACTOR.search(x) and "95% interval" in x for x in texts):
        parts.append("an exact conditional (Clopper-Pearson) interval for the factor a rare share moved by")
    parts.append("Holm's correction across compared metrics")
    intervals = (getattr(questions, "meta", None) or {}).get("intervals") if questions is not None else None
    if intervals:
        parts.append(f"the balance questions' intervals: {intervals}")
    return glossary.methods_note(parts)
