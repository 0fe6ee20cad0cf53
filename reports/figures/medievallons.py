"""Figures of the Médiévallons report sections: guild types (MV-4) and the played balance questions.

:func:`guild_types` / :func:`guild_comparison` draw the ``guild_types`` table of
:func:`analysis.analyse` (``founded_<type>`` columns). The ``played_*`` figures draw the tables of a
questions directory (:mod:`analysis.questions.medievallons`, read by
:mod:`reports.games.medievallons`), whose rates come with standard errors: their intervals are
±1.96 SE (the first player's and the best of 3's: Wilson's over their games, rounds and matches,
as their tables). Each returns ``None`` when its table is absent. A share is labelled as the tables
print it (:func:`reports.text.pct`; review s60 #2: 0.3485 read 34.8% here, 34.9% in the table).

May import matplotlib (Agg), numpy, polars, :mod:`reports.figures.common`,
:mod:`reports.figures.checklist` (marking a zoomed axis),
:mod:`analysis.guilds` (card names), :mod:`analysis.stats` (the verdict words, Wilson's interval)
and :mod:`reports.text` (the number formats).
"""

from __future__ import annotations

import numpy as np
import polars as pl
from matplotlib.figure import Figure

from analysis import stats
from analysis.guilds import ablation_tested
from analysis.load import type_name
from reports.figures.checklist import zoomed_axis
from reports.figures.common import (
    BASE, FAIR, OKABE_ITO, VARIANT, error_bars, new_figure, percent_axis, styled, subplots,
)
from reports.text import pct, pct_ci_digits, run_fair


def card_name(key: str) -> str:
    """A Médiévallons card type's name (the spec's type_names): ``pretre`` → ``Prêtre``."""
    return type_name(key, "medievallons")


def _guild_order(g: pl.DataFrame) -> pl.DataFrame:
    return g.with_columns(pl.col("founders_win_share").fill_null(-1.0).alias("_o")).sort("_o").drop("_o")


def _frequent_guilds(g: pl.DataFrame) -> tuple[pl.DataFrame, list[str]]:
    """(types founded by ≥ 0.5% of player-games and ≥ 30 of them, by founders' win share; names of
    the others, which would only stretch the axis with a huge interval)."""
    from analysis.guilds import ranked      # (the rule the tables and the export read too)

    kept = ranked(g)
    return _guild_order(kept), g.filter(~pl.col("card").is_in(kept["card"].implode()))["card_name"].to_list()


def _left_out_note(fig: Figure, names: list[str]) -> None:
    if names:
        fig.supxlabel(f"Left out (founded by fewer than 0.5% of players or 30 player-games): "
                      f"{', '.join(names)}", fontsize=9, color=FAIR)


@styled
def guild_types(t: dict) -> Figure | None:
    """Founders' win share per card type (vs others' and the fair 1/n), and how often each is founded."""
    if "guild_types" not in t or t["guild_types"].height == 0:
        return None
    g, left_out = _frequent_guilds(t["guild_types"])
    if g.height == 0:
        return None
    y = np.arange(g.height)
    fig = new_figure(10, max(4.5, 0.42 * g.height + 1.8))
    ax, ax2 = subplots(fig, 1, 2, sharey=True, width_ratios=[3, 2])
    p = g["founders_win_share"].fill_null(np.nan).to_numpy()
    lo = g["founders_ci_low"].fill_null(np.nan).to_numpy()
    hi = g["founders_ci_high"].fill_null(np.nan).to_numpy()
    ok = np.isfinite(p)
    ax.errorbar(p[ok], y[ok], xerr=error_bars(lo[ok], p[ok], hi[ok]), fmt="o", color=BASE, capsize=3,
                label="Founded ≥ 1 guild of the type")
    o = g["others_win_share"].fill_null(np.nan).to_numpy()
    ax.scatter(o, y, marker="|", s=120, color=VARIANT, label="Everyone else", zorder=3)
    fair = float(g["fair_share"][0])
    # (1/P as the page prints it, Figure 1's legend too: "Fair share (33.33%)", session 63)
    ax.axvline(fair, color=FAIR, linestyle="--", linewidth=1.2, label=f"Fair share ({run_fair(t, fair)}%)")
    ax.set_yticks(y, g["card_name"].to_list())
    ax.set_xlabel("Win share (95% intervals)")
    percent_axis(ax, "x")
    ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), ncols=3, frameon=False, fontsize=9)
    ax.set_title("Win share of the players who founded a guild of each type", pad=26)
    zoomed_axis(ax, "x")        # founders win 20-36%: the axis does not start at 0 (checklist rule 5)
    f = g["founded_share"].to_numpy()
    ax2.barh(y, f, color=OKABE_ITO[4], xerr=error_bars(g["founded_ci_low"], f, g["founded_ci_high"]), capsize=3,
             ecolor="black")
    ax2.set_xlabel("Players who founded one\n(share of player-games)")
    percent_axis(ax2, "x")
    ax2.set_title("How often each type is founded", pad=26)
    _left_out_note(fig, left_out)
    return fig


@styled
def guild_comparison(base_t: dict, var_t: dict, base_label: str, var_label: str) -> Figure | None:
    """Before / after per card type: founded share and founders' win share; game length and ends."""
    if "guild_types" not in base_t or "guild_types" not in var_t:
        return None
    b, left_out = _frequent_guilds(base_t["guild_types"])
    if b.height == 0:
        return None
    v = var_t["guild_types"]
    cards = b["card"].to_list()
    v = pl.DataFrame({"card": cards}).join(v, on="card", how="left")
    y = np.arange(len(cards))
    fig = new_figure(10, max(5.0, 0.45 * len(cards) + 2))
    ax, ax2 = subplots(fig, 1, 2, sharey=True)
    for off, d, colour, lab in ((0.18, b, BASE, base_label), (-0.18, v, VARIANT, var_label)):
        p = d["founders_win_share"].fill_null(np.nan).to_numpy()
        ok = np.isfinite(p)
        ax.errorbar(p[ok], y[ok] + off,
                    xerr=error_bars(d["founders_ci_low"].fill_null(np.nan).to_numpy()[ok], p[ok],
                              d["founders_ci_high"].fill_null(np.nan).to_numpy()[ok]),
                    fmt="o", color=colour, capsize=3, label=lab, markersize=5)
        f = d["founded_share"].fill_null(np.nan).to_numpy()
        ax2.barh(y + off, f, height=0.36, color=colour, label=lab,
                 xerr=error_bars(d["founded_ci_low"].fill_null(np.nan), f, d["founded_ci_high"].fill_null(np.nan)),
                 capsize=2, ecolor="black")
    ax.axvline(float(b["fair_share"][0]), color=FAIR, linestyle="--", linewidth=1.2, label="Fair share")
    ax.set_yticks(y, b["card_name"].to_list())
    ax.set_xlabel("Founders' win share (95% intervals)")
    percent_axis(ax, "x")
    ax.legend(fontsize=9, loc="lower right")
    ax.set_title("Founders' win share, before / after")
    zoomed_axis(ax, "x")        # 24-37%: not from 0 (checklist rule 5)
    ax2.set_xlabel("Players who founded one")
    percent_axis(ax2, "x")
    ax2.set_title("How often each type is founded")
    if "length" in base_t and "length" in var_t:
        rb, rv = base_t["length"].row(0, named=True), var_t["length"].row(0, named=True)
        fig.suptitle(f"Guild types, before / after — mean length {rb['mean_turns']:.1f} → "
                     f"{rv['mean_turns']:.1f} player turns")
    _left_out_note(fig, left_out)
    return fig



_Z95 = 1.959963984540054


def _share_interval(d: pl.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """The 95% interval of each first-player row's win share as its table prints it: its
    ``ci_low``/``ci_high`` (:func:`reports.games.medievallons.with_run_first_player`), else Wilson's
    over its games."""
    if "ci_low" in d.columns and "ci_high" in d.columns:
        return d["ci_low"].cast(float).to_numpy(), d["ci_high"].cast(float).to_numpy()
    n = d["games"].cast(float).to_numpy()
    lo, hi = stats.wilson(d["win_share"].to_numpy() * n, n)
    return np.asarray(lo, float), np.asarray(hi, float)


def _least(d: pl.DataFrame) -> int:
    """The least decimals Seat 1's label prints with: a row from a run at its Seats table's
    (column ``digits``, :func:`reports.games.medievallons.with_run_first_player`; session 63: a
    label "36.2%" beside the table's "36.20%" for one seat), else 1."""
    x = d["digits"][0] if "digits" in d.columns and d.height else None
    return int(x) if x is not None else 1


@styled
def played_first_player(fp: pl.DataFrame) -> Figure | None:
    """Win share per seat for every player count (played with identical bots) against 1/P, with
    the table's 95% interval (``ci_low``/``ci_high``, else Wilson's over the games: a share's
    interval stays within 0–100%, where ±1.96 SE reached past 100% at 5 games and had no width at
    a seat that won none), Seat 1's share labelled as the table prints it
    (:func:`reports.text.pct` at :func:`reports.text.pct_ci_digits`' decimals, at least the run's
    Seats table's for a row from a run: :func:`_least`)."""
    if fp is None or fp.height == 0:
        return None
    counts = sorted(set(fp["players"].to_list()))
    fig = new_figure(min(10.0, max(7.0, 2.4 * len(counts) + 2)), 4.6)
    ax = subplots(fig)
    step = 1.0
    for k, P in enumerate(counts):
        d = fp.filter(pl.col("players") == P).sort("seat")
        w = 0.8 / P
        x = k * step - 0.4 + w / 2 + w * np.arange(P)
        p = d["win_share"].to_numpy()
        lo, hi = _share_interval(d)
        ax.bar(x, p, width=w * 0.9, color=[OKABE_ITO[s % 8] for s in d["seat"]],
               yerr=error_bars(lo, p, hi), capsize=3, ecolor="black")
        ax.hlines(1 / P, k * step - 0.45, k * step + 0.45, color=FAIR, linestyle="--", linewidth=1.3)
        ax.annotate(f"{pct(p[0], pct_ci_digits(p[0], lo[0], hi[0], _least(d)))}%", (x[0], hi[0]), xytext=(0, 4),
                    textcoords="offset points", ha="center", fontsize=9)
    # each count's games under it: a run's own count (``from_run``) has many more than the played
    # ones, so its intervals are narrower (review Z #10: 100,000 beside 2,000 games, unmarked)
    def games_of(P: int) -> str:
        d = fp.filter(pl.col("players") == P)
        n = int(d["games"].max()) if "games" in d.columns else 0
        own = "from_run" in d.columns and bool(d["from_run"].any())
        return f"\n{n:,} games" + (" (the run)" if own else "") if n else ""

    ax.set_xticks(np.arange(len(counts)) * step, [f"{P} players{games_of(P)}" for P in counts])
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles = [Patch(color=OKABE_ITO[s % 8], label=f"Seat {s + 1}") for s in range(max(counts))]
    handles.append(Line2D([], [], color=FAIR, linestyle="--", label="Fair share 1/P"))
    ax.legend(handles=handles, fontsize=9, ncols=2)
    ax.set_ylabel("Win share (95% intervals)")
    percent_axis(ax)
    ax.set_title("First-player advantage by player count (Seat 1 plays first)")
    return fig


@styled
def played_ablation(ct: pl.DataFrame, verdicts: dict[str, str] | None = None,
                    how: str = "Holm over the types", length_verdicts: dict[str, str] | None = None
                    ) -> Figure | None:
    """Card ablation: change of the founders' win share and of game length with one copy removed.
    A bar is coloured by the verdict the page's text gives its card (``verdicts`` for the win
    share, ``length_verdicts`` for the game length: card → a verdict of
    :func:`analysis.stats.practical`, adjusted over the family as ``how`` says): vermillion when
    clear and large enough to matter, reddish purple when clear and it may matter, orange when
    clear but small, blue otherwise (one legend for both panels); the error bars are each card's
    own 95% interval (unadjusted), so a bar can cross 0 only when blue, and a blue bar's may not
    reach 0 (the axis label and the key say which interval is drawn). A type left out of the
    win-share family (founded by almost nobody, or by fewer than 30 players with the full deck or
    with one copy fewer: :func:`analysis.guilds.ablation_tested`) whose game length the page tests (a key of
    ``length_verdicts``) has a row too, at the bottom: its length bar, and no win-share bar but
    the words "too few players to say", so the length panel shows every type its test is over."""
    if ct is None or "delta_founders_win_share" not in ct.columns:
        return None
    # the family the page's sentences and verdicts are over (analysis.guilds.ablation_tested): a
    # type of 24 founders had a bar of +26.7 pp beside the table's "too few founders (24)"
    shares = ct.filter(ablation_tested(ct) & pl.col("founders_std_error").fill_nan(None).is_not_null())
    shares = shares.sort("delta_founders_win_share")
    if shares.height == 0:
        return None
    length_only = ct.filter(pl.col("card").is_in(sorted(length_verdicts or {}))
                            & ~pl.col("card").is_in(shares["card"].implode())).sort("card")
    d = pl.concat([length_only, shares])
    names = [_card_label(c) for c in d["card"]]
    y = np.arange(d.height)
    fig = new_figure(10, max(4.5, 0.42 * d.height + 1.8))
    ax, ax2 = subplots(fig, 1, 2, sharey=True)
    on = y[length_only.height:]                # the rows with a win-share bar
    delta = 100 * shares["delta_founders_win_share"].to_numpy()
    se = 100 * shares["delta_std_error"].to_numpy()
    verdicts = verdicts or {}
    fill = {stats.LARGE: OKABE_ITO[5], stats.MAY_MATTER: OKABE_ITO[3], stats.SMALL: OKABE_ITO[1]}
    colours = [fill.get(verdicts.get(c), OKABE_ITO[0]) for c in shares["card"]]
    ax.barh(on, delta, color=colours, xerr=_Z95 * se, capsize=3, ecolor="black")
    for k in range(length_only.height):
        ax.annotate("too few players to say", (0, y[k]), xytext=(4, 0), textcoords="offset points",
                    va="center", fontsize=8, color="0.35")
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(y, names)
    # the whiskers are each card's own interval, the colours the verdict after Holm's correction
    # over the types: a blue bar's whisker may clear 0, and the axis and the key say so
    ax.set_xlabel("Change of the founders' win share (pp;\nwhiskers: each card's own 95% interval, unadjusted)")
    # the colours' key as a legend of swatches under both panels, in reading order (a key spelled
    # out in the axis label, once it named four colours, ran off the figure's left edge)
    from matplotlib.patches import Patch

    key = [Patch(color=fill[v], label=v) for v in (stats.LARGE, stats.MAY_MATTER, stats.SMALL)]
    key.append(Patch(color=OKABE_ITO[0], label=f"within noise ({how}; its own whisker may miss 0)"))
    fig.legend(handles=key, loc="outside lower center", ncol=2, frameon=False)
    ax.set_title("Remove one copy: founders' win share")
    dt = d["delta_mean_turns"].to_numpy()
    st = d["delta_turns_std_error"].to_numpy()
    # coloured by their own verdicts (all one colour, the clear removals could not be picked out)
    length_colours = [fill.get((length_verdicts or {}).get(c), OKABE_ITO[0]) for c in d["card"]]
    ax2.barh(y, dt, color=length_colours, xerr=_Z95 * st, capsize=3, ecolor="black")
    ax2.axvline(0, color="black", linewidth=0.8)
    ax2.set_xlabel("Change of the mean game length (player turns)")
    ax2.set_title("Remove one copy: game length")
    return fig


def _card_label(key: str) -> str:
    return card_name(key)


@styled
def _rate_interval(p: float, se: float, n) -> tuple[float, float]:
    """A rate's 95% interval as the page's table prints it: Wilson's over ``n`` rounds or matches
    when known (a width where every match went one way), else ±1.96 SE within 0–100%."""
    if n is not None and n == n and n > 0:
        lo, hi = stats.wilson(p * n, n)
        return float(lo), float(hi)
    se = 0.0 if se is None or se != se else se
    return max(p - _Z95 * se, 0.0), min(p + _Z95 * se, 1.0)


def played_best_of_three(b3: pl.DataFrame, labels: list[tuple[str, str]] | None = None) -> Figure | None:
    """2 players: bot A's win rate over single rounds and over best-of-3 matches, per pairing,
    with the table's 95% intervals (Wilson's over the rounds and matches played). ``labels``:
    per pairing, the single round's and the match's rate as the page's table prints them, with
    its interval ("99.955% (99.746–99.999)": review D #15, a bar read "100.0%" beside the table's
    99.955%); else one decimal. Whiskers are drawn over the axis's edge, so one ending at 100% is
    seen whole, and each bar's label gives the interval a whisker too short to see."""
    if b3 is None or b3.height == 0:
        return None
    x = np.arange(b3.height)
    fig = new_figure(min(10.0, max(7.0, 2.2 * b3.height + 2)), 4.6)
    ax = subplots(fig)
    for k, (off, col, se_col, n_col, colour, lab) in enumerate((
            (-0.2, "single_round_win_rate", "single_std_error", "single_rounds", BASE, "One round"),
            (0.2, "match_win_rate", "match_std_error", "matches", VARIANT, "Best of 3 rounds"))):
        p = b3[col].to_numpy()
        se = b3[se_col].to_list()
        n = b3[n_col].to_list() if n_col in b3.columns else [None] * b3.height
        lo, hi = (np.array(v) for v in zip(*(_rate_interval(float(a), b, c) for a, b, c in zip(p, se, n))))
        ax.bar(x + off, p, width=0.4, color=colour, label=lab)
        bars = ax.errorbar(x + off, p, yerr=error_bars(lo, p, hi), fmt="none", capsize=4, ecolor="black")
        for artist in (*bars.lines[1], *bars.lines[2]):
            artist.set_clip_on(False)
        for i, (xi, pi) in enumerate(zip(x + off, p)):
            text = labels[i][k] if labels else f"{pct(pi)}%"
            ax.text(xi, min(pi / 2, 0.22), text.replace(" (", "\n("), ha="center", va="center", fontsize=8,
                    color="white" if colour == BASE else "black")
    ax.axhline(0.5, color=FAIR, linestyle="--", linewidth=1.2, label="Even (50%)")
    ax.set_xticks(x, [f"{a}\nvs {b}" for a, b in zip(b3["bot"], b3["opponent"])])
    ax.set_ylabel("Win rate of the first-named bot (95% intervals)")
    ax.set_ylim(0, 1.12)
    percent_axis(ax)
    ax.legend(loc="upper left", fontsize=9)
    ax.set_title("2 players: one round vs a best-of-3 match (first player alternates)", pad=10)
    return fig
