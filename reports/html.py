"""The designer report: headline sentences, a self-contained HTML page, PNG/SVG figures, optional PDF.

:func:`build_report` analyses one or several run directories (runs of the same configuration are
pooled; each further configuration is compared with the first, the baseline), renders the figures of
:mod:`reports.figures`, and writes into ``out``: ``report.html`` (figures embedded as base64 PNG,
readable offline), ``figures/<name>.png`` and ``.svg``, and with ``pdf=True`` ``report.pdf`` (the
same sections through matplotlib's PdfPages), and for a Médiévallons baseline the balance questions
played for the report as ``questions/*.csv`` (:mod:`reports.medievallons`). Output goes to a
temporary directory renamed into place when complete; a non-empty ``out`` is refused unless
``force``. :func:`headlines` and
:func:`comparison_headlines` build the plain sentences from the metric tables, with the numbers
formatted by :func:`pct` / :func:`num` so tests can check them against the tables.

May import matplotlib (through :mod:`reports.figures`), polars, numpy, the standard library,
:mod:`analysis`, :mod:`simcore.rundir`, :mod:`simcore.errors` and, lazily, :mod:`reports.medievallons`
(the game-specific hook that plays the Médiévallons questions).
"""

from __future__ import annotations

import base64
import html
import shutil
import textwrap
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterable

import polars as pl

from analysis import analyse, group_runs, open_runs
from analysis.compare import compare_tables
from analysis.load import RunSet
from reports import figures as F
from simcore.errors import UsageError
from simcore.atomic import check_output_dir, publish_dir

# ---------------------------------------------------------------------------------------------
# Number formats shared by sentences and tables
# ---------------------------------------------------------------------------------------------


def pct(p: float, digits: int = 1) -> str:
    """A proportion as a percentage without the sign: 0.2791 → ``27.9``."""
    return f"{100 * p:.{digits}f}"


def pct_ci(p: float, low: float, high: float) -> str:
    """``27.9% (27.6–28.2)``."""
    return f"{pct(p)}% ({pct(low)}–{pct(high)})"


def num(x: float, digits: int = 2) -> str:
    """Fixed decimals, with a typographic minus: −3.80."""
    return f"{x:.{digits}f}".replace("-", "−")


def num_ci(low: float, high: float, digits: int = 2) -> str:
    """An interval of plain numbers: ``8.37–8.40``, or ``−3.86 to −3.75`` when a bound is negative."""
    sep = " to " if low < 0 or high < 0 else "–"
    return f"{num(low, digits)}{sep}{num(high, digits)}"


def signed(x: float, digits: int = 1) -> str:
    return f"{x:+.{digits}f}".replace("-", "−")


def pvalue(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


# ---------------------------------------------------------------------------------------------
# Sentences
# ---------------------------------------------------------------------------------------------


def _p(r: dict, est: str = "estimate", low: str = "ci_low", high: str = "ci_high") -> str:
    """A row's proportion with its interval: ``27.9% (27.6–28.2)``."""
    return pct_ci(r[est], r[low], r[high])


def best_and_worst(df: pl.DataFrame, col: str, key: str) -> list[dict]:
    """The row with the highest ``col`` and the one with the lowest, or only the first when both
    are the same ``key`` (one row, or all tied)."""
    best = df.sort(col, descending=True).row(0, named=True)
    worst = df.sort(col).row(0, named=True)
    return [best] if worst[key] == best[key] else [best, worst]


def _slope(r: dict) -> str:
    return (f"{signed(100 * r['slope'])} points of win share ({signed(100 * r['slope_ci_low'])} to "
            f"{signed(100 * r['slope_ci_high'])})")


def score_unit(rs: RunSet | None) -> str:
    """What a score counts in this game, from its spec (coins for Middle-Ages, guild cards for
    Médiévallons); "points" for a run of a game that is not registered."""
    from simcore import games as registry

    if rs is None:
        return registry.get("middle-ages").score_unit
    spec = registry.specs().get(rs.game)
    return spec.score_unit if spec is not None else "points"


def headlines(t: dict, rs: RunSet | None = None) -> list[str]:
    """Plain-language findings built from the metric tables (numbers rounded as shown)."""
    out: list[str] = []
    for r in t["seats"].iter_rows(named=True):
        verdict = "significant" if r["significant"] else "not significant"
        out.append(f"{r['seat_label']} wins {_p(r, 'win_share')} against a fair {pct(r['fair_share'])}%: "
                   f"{signed(100 * r['diff'])} points, {verdict}.")
    st = t["seat_tests"].row(0, named=True)
    test = f"chi-square {num(st['chi2'], 1)} with {st['dof']} degrees of freedom, {pvalue(st['p_value'])}"
    if st["seats_differ"]:
        out.append(f"The seats are not equal: {test}.")
    else:
        out.append(f"No evidence that the seats differ: {test}.")
    out.append(f"Balance is {num(st['balance'], 3)} ({num_ci(st['balance_low'], st['balance_high'], 3)}; "
               f"1 = every seat wins equally often) and AdvantageP1 is "
               f"{_p(st, 'advantage_p1', 'advantage_p1_low', 'advantage_p1_high')}.")
    o = {r["metric"]: r for r in t["outcomes"].iter_rows(named=True)}
    out.append(f"{_p(o['shared_wins'])} of games end in a shared win.")
    r = o["score_spread"]
    out.append(f"The winner finishes {num(r['estimate'])} {score_unit(rs)} ({num_ci(r['ci_low'], r['ci_high'])}) "
               f"ahead of the runner-up on average.")
    if "lead_changes" in o:
        r = o["lead_changes"]
        k = sum(1 for m in o if m.startswith("leader_wins_event_"))
        out.append(f"The lead changes {num(r['estimate'])} times per game "
                   f"({num_ci(r['ci_low'], r['ci_high'])}) across the {k} event checkpoints.")
        last = o.get(f"leader_wins_event_{k}")
        if last is not None and last["n"] > 0:
            out.append(f"The leader just before the last event (turn {4 * k}) wins {_p(last)} of the time.")
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
                       f"{_p(r, 'leader_change', 'leader_change_ci_low', 'leader_change_ci_high')} "
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
            out.append(f"The best Domain mix is {r['pair']}: its players win {_p(r, 'win_share')}, "
                       f"{num(r['lift'])}× their share of players ({pct(r['share_of_wins'])}% of wins, "
                       f"{pct(r['share_of_players'])}% of players).")
    out += length_headlines(t) + guild_headlines(t)
    if "strategies" in t and t["strategies"].height > 1:
        r = t["strategies"].sort("win_share", descending=True).row(0, named=True)
        note = " (strategies keep their seats in this run, so this includes seat advantage)" \
            if r["confounded"] else ""
        verdict = "significant" if r["significant"] else "not significant"
        out.append(f"The strongest strategy is {r['strategy']}: it wins {_p(r, 'win_share')} "
                   f"against a fair {pct(r['fair_share'])}%, {verdict}{note}.")
    if "matchups" in t and t["matchups"].height:
        m = t["matchups"].filter(pl.col("ahead_share") >= 0.5).sort("ahead_share", descending=True)
        if m.height:
            r = m.row(0, named=True)
            how = "paired by deal over rotated seats" if r["paired"] else "over the games where they meet"
            out.append(f"{r['strategy']} finishes ahead of {r['opponent']} in {_p(r, 'ahead_share')} "
                       f"of their meetings ({how}).")
    return out


def turns(x: float) -> str:
    """A number of turns: ``52`` when whole (quantiles of whole turns usually are), else ``52.5``."""
    return f"{x:.0f}" if float(x).is_integer() else num(x, 1)


def length_headlines(t: dict) -> list[str]:
    """Mean game length and quantiles; the most common end reason (tables ``length``, ``end_reasons``)."""
    out = []
    if "length" in t:
        r = t["length"].row(0, named=True)
        out.append(f"A game lasts {num(r['mean_turns'], 1)} turns on average "
                   f"({num_ci(r['ci_low'], r['ci_high'], 1)}); half of the games end within "
                   f"{turns(r['median'])} turns, 90% last {turns(r['p05'])} to {turns(r['p95'])} turns "
                   f"(longest {turns(r['max'])}).")
    if "end_reasons" in t and t["end_reasons"]["games"].sum() > 0:
        er = t["end_reasons"].sort(["share", "end_reason"], descending=[True, False])
        top = er.row(0, named=True)
        rest = [f"{r['label'].lower()} {pct(r['share'])}%" for r in er.iter_rows(named=True)][1:]
        out.append(f"The most common end is “{top['label']}”: {_p(top, 'share')} of games"
                   + (f" (then {', '.join(rest)})" if rest else "") + ".")
    return out


def guild_rows_for_headlines(t: dict) -> pl.DataFrame:
    """Guild types founded often enough to rank (≥ 0.5% of player-games and ≥ 30 founders)."""
    g = t["guild_types"]
    return g.filter(pl.col("founders_win_share").is_not_null() & (pl.col("founders") >= 30)
                    & (pl.col("founded_share") >= 0.005))


def guild_headlines(t: dict) -> list[str]:
    """Best and worst guild type for its founders (table ``guild_types``)."""
    if "guild_types" not in t:
        return []
    g = guild_rows_for_headlines(t)
    if g.height == 0:
        return []
    out = []
    for r, what in zip(best_and_worst(g, "founders_win_share", "card"), ("do best", "do worst")):
        out.append(f"Founders of {r['card_name']} guilds {what}: they win "
                   f"{_p(r, 'founders_win_share', 'founders_ci_low', 'founders_ci_high')} against a fair "
                   f"{pct(r['fair_share'])}% ({pct(r['others_win_share'])}% for the other players; "
                   f"{pct(r['founded_share'])}% of players found one).")
    return out


def comparison_headlines(cmp: pl.DataFrame, base_label: str, var_label: str, top: int = 5) -> list[str]:
    """Sentences for a before/after comparison (significance after Holm's correction)."""
    sig = cmp.filter(pl.col("significant"))
    out = [f"{var_label} against {base_label}: {sig.height} of {cmp.height} metrics differ significantly "
           f"(Holm-adjusted, 5% family-wise)."]
    for r in sig.head(top).iter_rows(named=True):
        p = pvalue(r["p_adjusted"])
        if r["kind"] == "proportion":
            out.append(f"{r['label']}: {pct(r['base'])}% → {pct(r['variant'])}%, {signed(100 * r['diff'])} "
                       f"points ({signed(100 * r['diff_low'])} to {signed(100 * r['diff_high'])}), {p}.")
        else:
            out.append(f"{r['label']}: {num(r['base'], 3)} → {num(r['variant'], 3)}, "
                       f"{signed(r['diff'], 3)} ({signed(r['diff_low'], 3)} to "
                       f"{signed(r['diff_high'], 3)}), {p}.")
    return out


# ---------------------------------------------------------------------------------------------
# Report assembly
# ---------------------------------------------------------------------------------------------

@dataclass
class Section:
    id: str
    title: str
    intro: str = ""
    figures: list[str] = field(default_factory=list)      # figure names
    tables: list[tuple[str, pl.DataFrame]] = field(default_factory=list)
    sentences: list[str] = field(default_factory=list)


_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;max-width:1200px;
margin:2em auto;padding:0 1em;color:#222;line-height:1.45}
h1{font-size:1.7em}h2{border-bottom:2px solid #0072B2;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;margin:1em 0;font-size:.9em}
th,td{border:1px solid #ccc;padding:.25em .6em;text-align:right}
th{background:#eef4fa}td:first-child,th:first-child{text-align:left}img{max-width:100%;height:auto}
ul.headlines li{margin:.3em 0}.meta td{text-align:left}.note{color:#555;font-size:.9em}
nav a{margin-right:1em}
"""


def _fmt_cell(v) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        if v != v:
            return ""
        return f"{v:.4g}" if abs(v) >= 1e-3 or v == 0 else f"{v:.2e}"
    return html.escape(str(v))


def _html_table(df: pl.DataFrame, max_rows: int = 60) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in df.columns)
    body = "".join("<tr>" + "".join(f"<td>{_fmt_cell(v)}</td>" for v in row) + "</tr>"
                   for row in df.head(max_rows).iter_rows())
    more = f'<p class="note">{df.height - max_rows} more rows not shown.</p>' if df.height > max_rows else ""
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{more}"


def _seat_rows(t: dict) -> pl.DataFrame:
    s = t["seats"]
    return pl.DataFrame({
        "Seat": s["seat_label"], "Games": s["games"],
        "Win share": [pct_ci(p, lo, hi) for p, lo, hi in zip(s["win_share"], s["ci_low"], s["ci_high"])],
        "vs fair (points)": [signed(100 * d) for d in s["diff"]], "Significant": s["significant"],
        "Mean score": [f"{num(m)} ({num_ci(lo, hi)})" for m, lo, hi in
                       zip(s["mean_score"], s["score_ci_low"], s["score_ci_high"])],
        "Mean rank": s["mean_rank"].round(3)})


def _event_rows(t: dict) -> pl.DataFrame:
    e = t["events"].filter(pl.col("slot") == 0).sort("mean_gain", descending=True)
    return pl.DataFrame({
        "Event": [f"{n} ({i})" for n, i in zip(e["event_name"], e["event"])], "Games": e["games"],
        "Coins per player": [f"{signed(m, 2)} ({num_ci(lo, hi)})" for m, lo, hi in
                             zip(e["mean_gain"], e["gain_ci_low"], e["gain_ci_high"])],
        "Spread between players": [f"{m:.2f}" for m in e["mean_spread"]],
        "Changes the leader": _pct_column(e, "leader_change"),
        "Biggest gainer wins": _pct_column(e, "top_gainer_win_share", "top_gainer_ci_low",
                                           "top_gainer_ci_high")})


def _pct_column(df: pl.DataFrame, est: str, low: str | None = None, high: str | None = None) -> list[str]:
    low, high = low or f"{est}_ci_low", high or f"{est}_ci_high"
    return ["" if v is None or v != v else pct_ci(v, lo, hi) for v, lo, hi in zip(df[est], df[low], df[high])]


def _length_rows(t: dict) -> pl.DataFrame:
    r = t["length"].row(0, named=True)
    row = {"Games": [r["games"]],
           "Mean turns": [f"{num(r['mean_turns'], 1)} ({num_ci(r['ci_low'], r['ci_high'], 1)})"],
           "SD": [num(r["turns_sd"], 1)]}
    for k in ("min", "p05", "p25", "median", "p75", "p95", "max"):
        row[k.capitalize() if k in ("min", "median", "max") else k] = [turns(r[k])]
    if r["mean_reshuffles"] is not None:
        row["Mean reshuffles"] = [f"{num(r['mean_reshuffles'], 3)} "
                                  f"({num_ci(r['reshuffles_ci_low'], r['reshuffles_ci_high'], 3)})"]
    return pl.DataFrame(row)


def _end_rows(t: dict) -> pl.DataFrame:
    e = t["end_reasons"]
    return pl.DataFrame({
        "End": e["label"], "Code": e["end_reason"], "Games": e["games"],
        "Share": [pct_ci(p, lo, hi) for p, lo, hi in zip(e["share"], e["ci_low"], e["ci_high"])],
        "Mean turns": ["" if m is None else num(m, 1) if lo is None else f"{num(m, 1)} ({num_ci(lo, hi, 1)})"
                       for m, lo, hi in zip(e["mean_turns"], e["turns_ci_low"], e["turns_ci_high"])]})


def _guild_rows(t: dict) -> pl.DataFrame:
    g = t["guild_types"]
    return pl.DataFrame({
        "Card type": g["card_name"],
        "Founded by": [pct_ci(p, lo, hi) for p, lo, hi in
                       zip(g["founded_share"], g["founded_ci_low"], g["founded_ci_high"])],
        "Guilds per player": [num(x) for x in g["mean_guilds"]],
        "Founders' win share": _pct_column(g, "founders_win_share", "founders_ci_low", "founders_ci_high"),
        "Others' win share": _pct_column(g, "others_win_share", "others_ci_low", "others_ci_high"),
        "Founders − others (points)": ["" if d is None else f"{signed(100 * d)} ({signed(100 * lo)} to "
                                       f"{signed(100 * hi)})"
                                       for d, lo, hi in zip(g["diff"], g["diff_low"], g["diff_high"])],
        "Holm p": ["" if p is None else pvalue(p) for p in g["p_adjusted"]],
        "Significant": g["significant"],
        "Powers used per player": ["" if x is None else num(x) for x in g["mean_powers"]]})


def _sections(t: dict, rs: RunSet, cmps: list[tuple[str, pl.DataFrame, dict]]) -> tuple[list[Section], dict]:
    figs: dict = {}

    def add(name, fig):
        if fig is not None:
            figs[name] = fig
            return [name]
        return []

    secs = [Section("headlines", "Headline findings", sentences=headlines(t, rs))]
    st = t["seat_tests"].row(0, named=True)
    secs.append(Section(
        "seats", "Seat advantage",
        f"Win share per seat (shared wins split 1/k) with 95% Wilson intervals. Chi-square test that all "
        f"seats win equally often: {num(st['chi2'], 1)} on {st['dof']} degrees of freedom, "
        f"{pvalue(st['p_value'])}. "
        f"Balance {num(st['balance'], 3)}, AdvantageP1 {pct(st['advantage_p1'])}%.",
        add("seat_advantage", F.seat_advantage(t, unit=score_unit(rs))), [("Seats", _seat_rows(t))]))
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
            add("event_impact", F.event_impact(t)) + add("event_slots", F.event_slots(t)),
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
            add("tile_impact", F.tile_impact(t)) + add("domain_pairs", F.domain_pairs(t)),
            [("Tile types", ts), ("Top Domain mixes", dp)]))
    if "matchups" in t:
        secs.append(Section(
            "matchups", "Strategy matchups",
            "How often the row strategy finishes ahead of the column strategy when they meet (ties "
            "count ½), with 95% intervals; paired by deal when the run rotates seats.",
            add("matchups", F.matchups(t)), [("Strategies", t["strategies"]), ("Matchups", t["matchups"])]))
    if "length" in t:
        secs.append(Section(
            "length", "Game length and end reasons",
            "Turns per game (mean with a t interval over games, quantiles), stacked by how the game ended, "
            "and the share of games ending each way with 95% Wilson intervals"
            + (" (names from run.json end_reason_names)." if "end_reasons" in t else "."),
            add("game_length", F.game_length(t)),
            [("Game length (turns)", _length_rows(t))]
            + ([("End reasons", _end_rows(t))] if "end_reasons" in t else []),
            length_headlines(t)))
    if "guild_types" in t:
        secs.append(Section(
            "guilds", "Guild types",
            "For each card type: the share of player-games that founded at least one guild of it, and the "
            "win share of those founders against everyone else and against the fair 1/n (Wilson intervals; "
            "the difference has Newcombe's interval and a two-proportion test, Holm-adjusted over the "
            "types). "
            "Founding any type goes with winning (a winner founds several guilds), so compare the types with "
            "each other rather than with the fair share alone; to test a type, remove a copy in a rules "
            "file and compare the two runs.",
            add("guild_types", F.guild_types(t)), [("Guild types", _guild_rows(t))], guild_headlines(t)))
    secs.append(Section("scores", "Score distributions", f"Final {score_unit(rs)} per seat and per strategy.",
                        add("scores", F.scores(t, unit=score_unit(rs)))))
    flow_figs = add("game_flow", F.game_flow(t))
    secs.append(Section(
        "flow", "Game flow", ("Coins just before each event by final rank, lead changes between checkpoints, "
                              "how often the leader at each checkpoint wins, shared wins and the winner's margin."
                              if "flow" in t else "Shared wins and the winner's margin."),
        flow_figs, [("Outcome metrics", t["outcomes"])]))
    for i, (vlabel, cmp, vt) in enumerate(cmps):
        name = "comparison" if len(cmps) == 1 else f"comparison_{i + 1}"
        sec = Section(
            name, f"Before / after: {vlabel} vs {rs.label}",
            "Every metric's difference (variant − baseline) with a 95% interval; a difference is flagged "
            "significant when its Holm-adjusted p-value is below 5%, so two runs of one configuration flag "
            "anything in at most ~5% of comparisons.",
            add(name, F.comparison(cmp, t, vt, rs.label, vlabel))
            + add(f"{name}_guilds", F.guild_comparison(t, vt, rs.label, vlabel)),
            [("All compared metrics (strongest evidence first)",
              cmp.select("label", "base", "variant", "diff", "diff_low", "diff_high", "p_value", "p_adjusted",
                         "significant"))],
            comparison_headlines(cmp, rs.label, vlabel))
        secs.append(sec)
    return secs, figs


def _meta_rows(groups: list[RunSet]) -> str:
    rows = []
    for i, g in enumerate(groups):
        m = g.metas[0]
        role = "baseline" if i == 0 else "variant"
        strategies = ", ".join(map(str, m.get("strategies") or [])) or "?"
        rows.append(f"<tr><td>{html.escape(g.label)} ({role})</td><td>{len(g.paths)}</td>"
                    f"<td>{g.n_games:,}</td>"
                    f"<td>{g.n_players}</td><td>{html.escape(strategies)}</td>"
                    f"<td>{html.escape(str(m.get('rules_name', '')))}</td>"
                    f"<td>{html.escape(str(m.get('rules_sha256', ''))[:12])}</td>"
                    f"<td>{html.escape(str(m.get('version', '')))}</td></tr>")
    return ("<table class='meta'><thead><tr><th>Run</th><th>Directories</th><th>Games</th><th>Players</th>"
            "<th>Strategies by seat</th><th>Rules</th><th>Rules SHA-256</th><th>Version</th></tr></thead>"
            "<tbody>"
            + "".join(rows) + "</tbody></table>")


def _html(title: str, groups: list[RunSet], secs: list[Section], png: dict[str, bytes]) -> str:
    parts = [f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
             f"<style>{_CSS}</style></head><body><h1>{html.escape(title)}</h1>",
             f"<p class='note'>Generated {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC. "
             "All intervals are 95%.</p>",
             _meta_rows(groups),
             "<nav>" + "".join(f"<a href='#{s.id}'>{html.escape(s.title)}</a>" for s in secs) + "</nav>"]
    for s in secs:
        parts.append(f"<section id='{s.id}'><h2>{html.escape(s.title)}</h2>")
        if s.intro:
            parts.append(f"<p>{html.escape(s.intro)}</p>")
        if s.sentences:
            cls = " class='headlines'" if s.id == "headlines" else ""
            parts.append(f"<ul{cls}>" + "".join(f"<li>{html.escape(x)}</li>" for x in s.sentences) + "</ul>")
        for name in s.figures:
            data = base64.b64encode(png[name]).decode("ascii")
            parts.append(f"<figure><img alt='{html.escape(name)}' "
                         f"src='data:image/png;base64,{data}'></figure>")
        for caption, df in s.tables:
            parts.append(f"<h3>{html.escape(caption)}</h3>{_html_table(df)}")
        parts.append("</section>")
    parts.append("<p class='note'>Methods: Wilson intervals for proportions, Student t for means, Newcombe "
                 "for differences of proportions, Holm's correction across compared metrics; see "
                 "docs/analysis.md."
                 "</p></body></html>")
    return "\n".join(parts)


def _text_page(title: str, lines: Iterable[str]):
    from matplotlib.figure import Figure

    fig = Figure(figsize=(8.27, 11.69))
    y = 0.95
    fig.text(0.06, y, title, fontsize=15, weight="bold", va="top")
    y -= 0.05
    for line in lines:
        for j, piece in enumerate(textwrap.wrap(line, 95) or [""]):
            if y < 0.04:
                return fig
            fig.text(0.06 if j == 0 else 0.08, y, ("• " if j == 0 else "") + piece, fontsize=9.5, va="top")
            y -= 0.022
        y -= 0.006
    return fig


def build_report(runs: Iterable[str | Path], out: str | Path, force: bool = False, pdf: bool = False,
                 pool: bool = True, questions_games: int | None = None,
                 progress: Callable[[str], None] | None = None) -> Path:
    """Analyse ``runs`` and write the report into ``out``; returns the path of report.html.

    Runs of one configuration are pooled (``pool=False`` keeps every directory separate); the first
    configuration is the baseline and every other one gets a before/after section. For a
    Médiévallons baseline the balance questions the run cannot answer are played
    (:mod:`reports.medievallons`): ``questions_games`` games per question and rules variant
    (``None``: its default, 0: skip), tables written under ``questions/``. ``progress`` receives a
    short text whenever a long step starts (the CLI shows it as a spinner on stderr).
    """
    from reports import medievallons as MV

    say = progress or (lambda _msg: None)
    runs = [Path(r) for r in runs]
    if not runs:
        raise UsageError("give at least one run directory")
    questions_games = MV.QUESTIONS_GAMES if questions_games is None else MV.check_games(questions_games)
    target = check_output_dir(out, force)
    groups = group_runs(runs) if pool else [open_runs([r]) for r in runs]
    for g in groups[1:]:
        if g.game != groups[0].game:
            raise UsageError(f"cannot compare {groups[0].game} with {g.game}: runs of different games")
    say("Analysing " + (f"{len(groups)} configurations" if len(groups) > 1 else groups[0].label))
    tables = [analyse(g) for g in groups]
    base, base_rs = tables[0], groups[0]
    labels = _unique_labels([g.label for g in groups])
    base_rs.label = labels[0]
    cmps = [(labels[i], compare_tables(base, tables[i]), tables[i]) for i in range(1, len(groups))]
    say("Drawing the figures")
    secs, figs = _sections(base, base_rs, cmps)
    files: dict = {}
    if questions_games > 0 and MV.applies(base_rs):
        played = MV.played_questions(base_rs, questions_games, say)
        at = next((i for i, s in enumerate(secs) if s.id == "scores"), len(secs))
        secs[at:at] = played.sections
        figs.update(played.figures)
        files.update(played.files)
    say("Writing the report")
    game = base_rs.game.replace("_", " ").title()
    title = f"Balance report: {game}, {base_rs.n_players} players, {labels[0]}"

    tmp = target.parent / f".{target.name}.tmp-{uuid.uuid4().hex[:8]}"
    try:
        (tmp / "figures").mkdir(parents=True)
    except OSError as exc:
        raise UsageError(f"--out {target}: cannot create {tmp.parent}: {exc.strerror}") from None
    try:
        png = {}
        for name, fig in figs.items():
            png[name] = F.render(fig, "png")
            # Freeze the constrained layout computed for the PNG: later formats skip the solver.
            fig.set_layout_engine("none")
            (tmp / "figures" / f"{name}.png").write_bytes(png[name])
            (tmp / "figures" / f"{name}.svg").write_bytes(F.render(fig, "svg"))
        for rel, content in files.items():
            path = tmp / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, pl.DataFrame):
                content.write_csv(path)
            else:
                path.write_text(content, encoding="utf-8")
        (tmp / "report.html").write_text(_html(title, groups, secs, png), encoding="utf-8")
        if pdf:
            _write_pdf(tmp / "report.pdf", title, secs, figs)
        publish_dir(tmp, target)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return target / "report.html"


def _unique_labels(labels: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for lab in labels:
        seen[lab] = seen.get(lab, 0) + 1
        out.append(lab if seen[lab] == 1 else f"{lab} #{seen[lab]}")
    return out


def _write_pdf(path: Path, title: str, secs: list[Section], figs: dict) -> None:
    import matplotlib

    from matplotlib.backends.backend_pdf import PdfPages

    with matplotlib.rc_context(F._RC), PdfPages(path) as pages:
        lines = next((s.sentences for s in secs if s.id == "headlines"), [])
        pages.savefig(_text_page(title, lines))
        for s in secs:
            if s.id == "headlines":
                continue
            if s.sentences:
                lead = [s.intro] if s.id == "questions" and s.intro else []
                pages.savefig(_text_page(s.title, lead + s.sentences))
            elif s.id == "questions" and s.intro:
                pages.savefig(_text_page(s.title, [s.intro]))
            for name in s.figures:
                pages.savefig(figs[name])
