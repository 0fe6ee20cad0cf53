"""The report's sections: what every report shows, in order, with the game's own sections slotted in.

:func:`build_sections` turns the metric tables of :func:`analysis.analyse` (the baseline's, and
one comparison per further configuration) into :class:`Section` objects (title, intro, figure
names, display tables, sentences) and a :class:`FigureSet` of the figures they name. The common
sections are headline findings, seat advantage, strategy matchups, game length and end reasons,
score distributions, game flow and the before/after comparisons; the game's report hook
(:mod:`reports.games`, found through its spec) adds its sections and comparison figures. The
display-table helpers (:func:`pct_column`, …) are shared with the hooks.

May import polars, the standard library, :mod:`analysis.load` (types), :mod:`reports.text`,
:mod:`reports.figures.common` and :mod:`reports.games` (hook lookup).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

from analysis.load import RunSet
from reports.figures import common as F
from reports.games import hook_for
from reports.text import (
    comparison_headlines, headlines, length_headlines, num, num_ci, pct, pct_ci, pvalue, score_unit,
    signed, turns,
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
    """The report's figures by name; :meth:`add` keeps a figure and returns the names to cite."""

    def add(self, name: str, fig) -> list[str]:
        if fig is None:
            return []
        self[name] = fig
        return [name]


def pct_column(df: pl.DataFrame, est: str, low: str | None = None, high: str | None = None) -> list[str]:
    """A column of ``27.9% (27.6–28.2)`` cells ('' where the estimate is missing)."""
    low, high = low or f"{est}_ci_low", high or f"{est}_ci_high"
    return ["" if v is None or v != v else pct_ci(v, lo, hi) for v, lo, hi in zip(df[est], df[low], df[high])]


def seat_rows(t: dict) -> pl.DataFrame:
    s = t["seats"]
    return pl.DataFrame({
        "Seat": s["seat_label"], "Games": s["games"],
        "Win share": [pct_ci(p, lo, hi) for p, lo, hi in zip(s["win_share"], s["ci_low"], s["ci_high"])],
        "vs fair (points)": [signed(100 * d) for d in s["diff"]], "Significant": s["significant"],
        "Mean score": [f"{num(m)} ({num_ci(lo, hi)})" for m, lo, hi in
                       zip(s["mean_score"], s["score_ci_low"], s["score_ci_high"])],
        "Mean rank": s["mean_rank"].round(3)})


def role_rows(t: dict) -> pl.DataFrame:
    r = t["roles"]
    return pl.DataFrame({
        "Role": r["role_label"], "Seats": r["seats"], "Games": r["games"],
        "Side wins": pct_column(r, "win_share", "ci_low", "ci_high"),
        "Per seat": pct_column(r, "per_seat", "per_seat_low", "per_seat_high"),
        "Mean rank": r["mean_rank"].round(3)})


def role_seat_rows(t: dict) -> pl.DataFrame:
    s = t["role_seats"]
    return pl.DataFrame({
        "Role": s["role_label"], "Seat": s["seat_label"], "Games": s["games"],
        "Win share": pct_column(s, "win_share", "ci_low", "ci_high"),
        "Share of the role's wins": pct_column(s, "share_of_role", "share_low", "share_high"),
        "Equal split": [f"{pct(v)}%" for v in s["equal_share"]],
        "Seats equal? (chi-square)": ["" if p != p else pvalue(p) for p in s["p_value"]]})


def length_rows(t: dict) -> pl.DataFrame:
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


def end_rows(t: dict) -> pl.DataFrame:
    e = t["end_reasons"]
    return pl.DataFrame({
        "End": e["label"], "Code": e["end_reason"], "Games": e["games"],
        "Share": [pct_ci(p, lo, hi) for p, lo, hi in zip(e["share"], e["ci_low"], e["ci_high"])],
        "Mean turns": ["" if m is None else num(m, 1) if lo is None else f"{num(m, 1)} ({num_ci(lo, hi, 1)})"
                       for m, lo, hi in zip(e["mean_turns"], e["turns_ci_low"], e["turns_ci_high"])]})


def build_sections(t: dict, rs: RunSet, cmps: list[tuple[str, pl.DataFrame, dict]],
                   questions=None) -> tuple[list[Section], FigureSet]:
    """Every section of the report of ``rs`` (tables ``t``) and the figures they cite.

    ``cmps`` holds (label, comparison table, tables) per further configuration; ``questions`` a
    :class:`reports.questions.Questions` for the game's hook, or None."""
    figs = FigureSet()
    hook = hook_for(rs.game)
    unit = score_unit(rs)
    secs = [Section("headlines", "Headline findings", sentences=headlines(t, rs))]
    if "roles" in t:
        secs.append(Section(
            "roles", "Role advantage",
            "The seats of this game play different roles, so there is no fair share per seat: the left "
            "chart shows how often each role's side wins (its players' win shares summed per game, "
            "95% Wilson intervals over games); the right chart how a role's wins split among its "
            "seats, against an equal split, with a chi-square test per role.",
            figs.add("role_advantage", F.role_advantage(t)), [("Roles", role_rows(t)),
                                                               ("Seats within each role", role_seat_rows(t))]))
    else:
        st = t["seat_tests"].row(0, named=True)
        secs.append(Section(
            "seats", "Seat advantage",
            f"Win share per seat (shared wins split 1/k) with 95% Wilson intervals. Chi-square test that all "
            f"seats win equally often: {num(st['chi2'], 1)} on {st['dof']} degrees of freedom, "
            f"{pvalue(st['p_value'])}. "
            f"Ludii's Balance {num(st['balance'], 3)} and AdvantageP1 {num(st['advantage_p1'], 3)} (places "
            f"credited 1 for first down to 0 for last); on wins alone, win-share balance "
            f"{num(st.get('win_share_balance', float('nan')), 3)}.",
            figs.add("seat_advantage", F.seat_advantage(t, unit=unit)), [("Seats", seat_rows(t))]))
    if "matchups" in t:
        secs.append(Section(
            "matchups", "Strategy matchups",
            "How often the row strategy finishes ahead of the column strategy when they meet (ties "
            "count ½), with 95% intervals; paired by deal when the run rotates seats.",
            figs.add("matchups", F.matchups(t)), [("Strategies", t["strategies"]), ("Matchups", t["matchups"])]))
    if "length" in t:
        secs.append(Section(
            "length", "Game length and end reasons",
            "Turns per game (mean with a t interval over games, quantiles), stacked by how the game ended, "
            "and the share of games ending each way with 95% Wilson intervals"
            + (" (names from run.json end_reason_names)." if "end_reasons" in t else "."),
            figs.add("game_length", F.game_length(t)),
            [("Game length (turns)", length_rows(t))]
            + ([("End reasons", end_rows(t))] if "end_reasons" in t else []),
            length_headlines(t)))
    if hook is not None and hasattr(hook, "sections"):
        after = getattr(hook, "SECTIONS_AFTER", None)
        at = next((i + 1 for i, s in enumerate(secs) if s.id == after), len(secs))
        secs[at:at] = hook.sections(t, rs, figs, questions)
    secs.append(Section("scores", "Score distributions", f"Final {unit} per seat and per strategy.",
                        figs.add("scores", F.scores(t, unit=unit))))
    flow_figs = figs.add("game_flow", F.game_flow(t))
    secs.append(Section(
        "flow", "Game flow", ("Coins just before each event by final rank, lead changes between checkpoints, "
                              "how often the leader at each checkpoint wins, shared wins and the winner's margin."
                              if "flow" in t else "Shared wins and the winner's margin."),
        flow_figs, [("Outcome metrics", t["outcomes"])]))
    for i, (vlabel, cmp, vt) in enumerate(cmps):
        name = "comparison" if len(cmps) == 1 else f"comparison_{i + 1}"
        names = figs.add(name, F.comparison(cmp, t, vt, rs.label, vlabel))
        if hook is not None and hasattr(hook, "comparison_figures"):
            names += hook.comparison_figures(name, t, vt, rs.label, vlabel, figs)
        secs.append(Section(
            name, f"Before / after: {vlabel} vs {rs.label}",
            "Every metric's difference (variant − baseline) with a 95% interval; a difference is flagged "
            "significant when its Holm-adjusted p-value is below 5%, so two runs of one configuration flag "
            "anything in at most ~5% of comparisons.",
            names,
            [("All compared metrics (strongest evidence first)",
              cmp.select("label", "base", "variant", "diff", "diff_low", "diff_high", "p_value", "p_adjusted",
                         "significant"))],
            comparison_headlines(cmp, rs.label, vlabel)))
    return secs, figs
