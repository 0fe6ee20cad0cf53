"""Matplotlib figures of the balance report, one function per section, from the analysis tables.

Each function takes the dict of tables returned by :func:`analysis.analyse` (plus labels) and returns
a :class:`matplotlib.figure.Figure`, or ``None`` when the tables it needs are absent (a game without
event cards has no event figure). Figures are built without pyplot (no global state, Agg canvas),
use the Okabe–Ito colour-blind-safe palette and cividis / PuOr colour maps, readable font sizes,
axis labels in the game's words, and show seats as "Seat 1…n".

Figures of the played balance questions (``played_*``) take the tables of
:mod:`simcore.games.medievallons.questions`, whose rates come with standard errors: their intervals
are ±1.96 SE.

May import matplotlib, numpy, polars and :mod:`analysis.load` / :mod:`analysis.guilds` (for labels).
"""

from __future__ import annotations

import functools
import io
import math

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import polars as pl  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from analysis.guilds import card_name  # noqa: E402

# Okabe & Ito (2008), "Color Universal Design": distinguishable with every common colour deficiency.
OKABE_ITO = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
BASE, VARIANT, FAIR = OKABE_ITO[0], OKABE_ITO[1], "#555555"

_RC = {
    "font.size": 11, "axes.titlesize": 13, "axes.labelsize": 11, "xtick.labelsize": 10,
    "ytick.labelsize": 10, "legend.fontsize": 10, "axes.spines.top": False, "axes.spines.right": False,
    "axes.grid": True, "grid.alpha": 0.3, "axes.axisbelow": True, "svg.fonttype": "none",
    "font.family": "DejaVu Sans",
}


def _styled(fn):
    """Build the figure under the report's rc settings (fonts, grid, spines are read at creation)."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with matplotlib.rc_context(_RC):
            return fn(*args, **kwargs)
    return wrapper


def _figure(w: float = 9.0, h: float = 5.0) -> Figure:
    return Figure(figsize=(w, h), layout="constrained")


def _axes(fig: Figure, *args, **kw):
    return fig.subplots(*args, **kw)


def _pct(ax, axis: str = "y") -> None:
    from matplotlib.ticker import MaxNLocator, PercentFormatter

    target = ax.yaxis if axis == "y" else ax.xaxis
    target.set_major_locator(MaxNLocator(nbins=5 if axis == "x" else 7))
    target.set_major_formatter(PercentFormatter(1.0))


def render(fig: Figure, fmt: str, dpi: int = 130) -> bytes:
    """The figure as PNG / SVG / PDF bytes."""
    buf = io.BytesIO()
    with matplotlib.rc_context(_RC):
        fig.savefig(buf, format=fmt, dpi=dpi)
    return buf.getvalue()


def _err(low, mid, high) -> np.ndarray:
    mid = np.asarray(mid, float)
    return np.vstack([np.clip(mid - np.asarray(low, float), 0, None),
                      np.clip(np.asarray(high, float) - mid, 0, None)])


# ---------------------------------------------------------------------------------------------

@_styled
def seat_advantage(t: dict, title: str = "", unit: str = "coins") -> Figure:
    """Win share per seat with 95 % intervals and the fair share line; mean score per seat."""
    seats = t["seats"]
    fig = _figure(10, 4.6)
    ax, ax2 = _axes(fig, 1, 2, width_ratios=[3, 2])
    x = np.arange(seats.height)
    p = seats["win_share"].to_numpy()
    ax.bar(x, p, color=[OKABE_ITO[i % 8] for i in range(len(x))], width=0.65,
           yerr=_err(seats["ci_low"], p, seats["ci_high"]), capsize=5, ecolor="black")
    fair = seats["fair_share"][0]
    ax.axhline(fair, color=FAIR, linestyle="--", linewidth=1.5, label=f"Fair share ({100 * fair:.0f}%)")
    for xi, pi in zip(x, p):
        ax.annotate(f"{100 * pi:.1f}%", (xi, pi), xytext=(0, 12), textcoords="offset points", ha="center")
    ax.set_xticks(x, seats["seat_label"].to_list())
    ax.set_xlabel("Seat (order of the first turn)")
    ax.set_ylabel("Win share (shared wins split)")
    ax.set_ylim(0, max(p.max() * 1.25, fair * 1.4))
    _pct(ax)
    ax.legend(loc="upper right")
    ax.set_title("Who wins, by seat (95% intervals)")
    m = seats["mean_score"].to_numpy()
    ax2.bar(x, m, color=[OKABE_ITO[i % 8] for i in range(len(x))], width=0.65,
            yerr=_err(seats["score_ci_low"], m, seats["score_ci_high"]), capsize=5, ecolor="black")
    ax2.set_xticks(x, seats["seat_label"].to_list())
    ax2.set_ylabel(f"Mean final {unit}")
    ax2.set_xlabel("Seat")
    ax2.set_title("Mean final score by seat")
    if title:
        fig.suptitle(title)
    return fig


@_styled
def event_impact(t: dict) -> Figure | None:
    """Per event card (all slots): mean coin gain per player, and how often it changes the leader."""
    if "events" not in t or t["events"].height == 0:
        return None
    ev = t["events"].filter(pl.col("slot") == 0).sort("mean_gain")
    labels = [f"{n} ({e})" for n, e in zip(ev["event_name"], ev["event"])]
    y = np.arange(ev.height)
    fig = _figure(11, max(4.0, 0.42 * ev.height + 1.6))
    ax, ax2 = _axes(fig, 1, 2, sharey=True, width_ratios=[3, 2])
    g = ev["mean_gain"].to_numpy()
    colors = [OKABE_ITO[5] if v < 0 else OKABE_ITO[0] for v in g]
    ax.barh(y, g, color=colors, xerr=_err(ev["gain_ci_low"], g, ev["gain_ci_high"]), capsize=3,
            ecolor="black")
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(y, labels)
    ax.set_xlabel("Mean coins gained per player when the card fires")
    ax.set_title("Event cards, sorted by effect on coins")
    lc = ev["leader_change"].to_numpy()
    if np.isfinite(lc).any():
        ax2.barh(y, lc, color=OKABE_ITO[2],
                 xerr=_err(ev["leader_change_ci_low"], lc, ev["leader_change_ci_high"]), capsize=3,
                 ecolor="black")
        ax2.set_xlabel("Games where the leader changes")
        _pct(ax2, "x")
    else:
        tw = ev["top_gainer_win_share"].to_numpy()
        ax2.barh(y, np.nan_to_num(tw), color=OKABE_ITO[2])
        ax2.set_xlabel("Win share of the player the card helped most")
        _pct(ax2, "x")
    ax2.set_title("Does it change who leads?")
    return fig


@_styled
def event_slots(t: dict) -> Figure | None:
    """Heat map: mean coin gain per player by event card and firing turn."""
    if "events" not in t:
        return None
    ev = t["events"].filter(pl.col("slot") > 0)
    if ev.height == 0:
        return None
    events = t["events"].filter(pl.col("slot") == 0).sort("mean_gain")
    ids = events["event"].to_list()
    slots = sorted(set(ev["slot"].to_list()))
    grid = np.full((len(ids), len(slots)), np.nan)
    for r in ev.iter_rows(named=True):
        grid[ids.index(r["event"]), slots.index(r["slot"])] = r["mean_gain"]
    fig = _figure(8, max(4.0, 0.42 * len(ids) + 1.6))
    ax = _axes(fig)
    lim = np.nanmax(np.abs(grid)) if np.isfinite(grid).any() else 1.0
    im = ax.imshow(grid, aspect="auto", cmap="PuOr_r", vmin=-lim, vmax=lim)
    for i in range(len(ids)):
        for j in range(len(slots)):
            if np.isfinite(grid[i, j]):
                ax.text(j, i, f"{grid[i, j]:+.1f}", ha="center", va="center", fontsize=9,
                        color="white" if abs(grid[i, j]) > 0.6 * lim else "black")
    ax.set_xticks(range(len(slots)), [f"Turn {4 * s}" for s in slots])
    ax.set_yticks(range(len(ids)), [f"{n} ({e})" for n, e in zip(events["event_name"], events["event"])])
    ax.set_xlabel("When the card fires")
    ax.grid(False)
    fig.colorbar(im, ax=ax, label="Mean coins gained per player")
    ax.set_title("Event cards by firing turn")
    return fig


@_styled
def tile_impact(t: dict) -> Figure | None:
    """Win share against the number of tiles of each type held at the end (small multiples)."""
    if "tiles" not in t or t["tiles"].height == 0:
        return None
    tiles = t["tiles"]
    names = list(dict.fromkeys(tiles["tile_name"].to_list()))
    cols = 4
    rows = math.ceil(len(names) / cols)
    fig = _figure(12, 2.9 * rows + 0.8)
    axes = np.atleast_1d(_axes(fig, rows, cols, sharey=True)).ravel()
    total = tiles.group_by("tile_name").agg(pl.col("players").sum())
    total = dict(zip(total["tile_name"], total["players"]))
    fair = tiles["fair_share"][0]
    for i, (ax, name) in enumerate(zip(axes, names)):
        d = tiles.filter((pl.col("tile_name") == name) & (pl.col("players") >= max(30, 0.001 * total[name])))
        x = d["tiles"].to_numpy()
        ax.fill_between(x, d["ci_low"].to_numpy(), d["ci_high"].to_numpy(), color=BASE, alpha=0.3)
        ax.plot(x, d["win_share"].to_numpy(), marker="o", color=BASE)
        ax.axhline(fair, color=FAIR, linestyle="--", linewidth=1)
        ax.set_title(name)
        ax.set_xlabel(f"{name} tiles at the end")
        _pct(ax)
    for ax in axes[len(names):]:
        ax.set_visible(False)
    for ax in axes[::cols]:
        ax.set_ylabel("Win share")
    fig.suptitle("Win share by number of tiles of each type (dashed: fair share)")
    return fig


@_styled
def domain_pairs(t: dict, top: int = 12) -> Figure | None:
    """Most winning Domain mixes: share among winners against share among all players."""
    if "domain_pairs" not in t or t["domain_pairs"].height == 0:
        return None
    d = t["domain_pairs"]
    d = d.filter(pl.col("share_of_players") >= 0.005).head(top).reverse()
    if d.height == 0:
        return None
    y = np.arange(d.height)
    fig = _figure(10, 0.42 * d.height + 1.8)
    ax = _axes(fig)
    ax.barh(y - 0.2, d["share_of_players"].to_numpy(), height=0.4, color=OKABE_ITO[4],
            label="Share of all players")
    ax.barh(y + 0.2, d["share_of_wins"].to_numpy(), height=0.4, color=OKABE_ITO[0], label="Share of wins")
    for yi, lift in zip(y, d["lift"].to_numpy()):
        ax.annotate(f"×{lift:.2f}", (max(d["share_of_wins"].max(), d["share_of_players"].max()), yi),
                    xytext=(8, 0), textcoords="offset points", va="center", fontsize=9)
    ax.set_yticks(y, d["pair"].to_list())
    ax.set_xlabel("Share (a player's mix = the two Domains with the most tiles)")
    ax.set_xlim(0, 1.12 * max(d["share_of_wins"].max(), d["share_of_players"].max()))
    _pct(ax, "x")
    ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), ncols=2, frameon=False)
    fig.suptitle(f"Top {d.height} Domain mixes by win share (×: over-representation among winners)")
    return fig


@_styled
def matchups(t: dict) -> Figure | None:
    """Heat map: how often the row strategy finishes ahead of the column strategy."""
    if "matchups" not in t or t["matchups"].height == 0:
        return None
    m = t["matchups"]
    names = t["strategies"]["strategy"].to_list() if "strategies" in t else sorted(set(m["strategy"]))
    k = len(names)
    grid = np.full((k, k), np.nan)
    lo = np.full((k, k), np.nan)
    hi = np.full((k, k), np.nan)
    for r in m.iter_rows(named=True):
        i, j = names.index(r["strategy"]), names.index(r["opponent"])
        grid[i, j], lo[i, j], hi[i, j] = r["ahead_share"], r["ci_low"], r["ci_high"]
    fig = _figure(max(6.0, 1.3 * k + 3), max(4.5, 1.0 * k + 2))
    ax = _axes(fig)
    dev = np.nanmax(np.abs(grid - 0.5)) if np.isfinite(grid).any() else 0.1
    dev = max(dev, 0.02)
    im = ax.imshow(grid, cmap="PuOr", vmin=0.5 - dev, vmax=0.5 + dev)
    for i in range(k):
        for j in range(k):
            if np.isfinite(grid[i, j]):
                strong = abs(grid[i, j] - 0.5) > 0.6 * dev
                ax.text(j, i, f"{100 * grid[i, j]:.1f}%\n({100 * lo[i, j]:.1f}–{100 * hi[i, j]:.1f})",
                        ha="center", va="center", fontsize=9, color="white" if strong else "black")
    ax.set_xticks(range(k), names)
    ax.set_yticks(range(k), names)
    ax.set_xlabel("Opponent strategy")
    ax.set_ylabel("Strategy")
    ax.grid(False)
    fig.colorbar(im, ax=ax, label="Finishes ahead of the opponent (ties ½)",
                 format=lambda v, _: f"{100 * v:.0f}%")
    title = "Strategy matchups"
    if m["confounded"].any():
        title += "\n(strategies keep their seats: seat advantage included)"
    elif m["paired"].any():
        title += "\n(rotated seats, paired by deal)"
    ax.set_title(title)
    return fig


def _step_hist(ax, d: pl.DataFrame, groups: list[str]) -> int:
    """Step lines of the share of players per score bin (bins of equal width, ~60 over the range)."""
    lo, hi = int(d["score"].min()), int(d["score"].max())
    width = max(1, math.ceil((hi - lo + 1) / 60))
    edges = np.arange(lo, hi + width + 1, width)
    for i, g in enumerate(groups):
        s = d.filter(pl.col("group") == g)
        share, _ = np.histogram(s["score"].to_numpy(), bins=edges, weights=s["share"].to_numpy())
        ax.stairs(share, edges, color=OKABE_ITO[i % 8], label=g, linewidth=1.8)
    return width


@_styled
def scores(t: dict, unit: str = "coins") -> Figure:
    """Distributions of final scores per seat and per strategy."""
    per_strategy = "scores_by_strategy" in t and t["scores_by_strategy"]["group"].n_unique() > 1
    fig = _figure(12 if per_strategy else 8, 4.5)
    axes = np.atleast_1d(_axes(fig, 1, 2 if per_strategy else 1, sharey=True))
    d = t["scores_by_seat"]
    width = _step_hist(axes[0], d, sorted(set(d["group"]), key=lambda s: int(s.split()[-1])))
    axes[0].set_title("Final score by seat")
    if per_strategy:
        d2 = t["scores_by_strategy"]
        order = t["strategies"]["strategy"].to_list() if "strategies" in t else sorted(set(d2["group"]))
        _step_hist(axes[1], d2, [g for g in order if g in set(d2["group"])])
        axes[1].set_title("Final score by strategy")
    for ax in axes:
        ax.set_xlabel(f"Final {unit}" + (" (after end-of-game penalties)" if unit == "coins" else ""))
        ax.legend()
        _pct(ax)
    axes[0].set_ylabel("Share of players" + (f" per {width} {unit}" if width > 1 else ""))
    return fig


@_styled
def game_flow(t: dict) -> Figure | None:
    """Coins at each event checkpoint by final rank; lead changes; how often the leader wins."""
    if "flow" not in t or t["flow"].height == 0:
        return None
    flow = t["flow"]
    fig = _figure(13, 4.6)
    ax, ax2, ax3 = _axes(fig, 1, 3, width_ratios=[3, 2, 2])
    labels = flow.filter(pl.col("rank") == flow["rank"].min()).sort("checkpoint")["label"].to_list()
    for i, rank in enumerate(sorted(set(flow["rank"].to_list()))):
        d = flow.filter(pl.col("rank") == rank).sort("checkpoint")
        x = d["checkpoint"].to_numpy()
        ax.errorbar(x, d["mean_coins"].to_numpy(), yerr=_err(d["ci_low"], d["mean_coins"], d["ci_high"]),
                    marker="o", color=OKABE_ITO[i % 8], label=f"Finished {_ordinal(rank)}", capsize=3)
    ax.set_xticks(range(1, len(labels) + 1), [f"{lab}\n(before event)" if lab.startswith("Turn") else lab
                                             for lab in labels])
    ax.set_ylabel("Mean coins")
    ax.set_title("Game flow: coins before each event, by final rank")
    ax.legend()
    lc = t.get("lead_changes")
    if lc is not None and lc.height:
        ax2.bar(lc["lead_changes"].to_numpy(), lc["share"].to_numpy(), color=OKABE_ITO[0])
        ax2.set_xticks(lc["lead_changes"].to_list())
        ax2.set_xlabel("Lead changes between event checkpoints")
        ax2.set_ylabel("Share of games")
        _pct(ax2)
        ax2.set_title("How often the lead changes")
    o = t["outcomes"].filter(pl.col("metric").str.starts_with("leader_wins_event_"))
    if o.height:
        x = np.arange(1, o.height + 1)
        e = o["estimate"].to_numpy()
        ax3.errorbar(x, e, yerr=_err(o["ci_low"], e, o["ci_high"]), marker="o", color=OKABE_ITO[2], capsize=3)
        ax3.axhline(t["seats"]["fair_share"][0], color=FAIR, linestyle="--", linewidth=1, label="Fair share")
        ax3.set_xticks(x, [f"Turn {4 * k}" for k in x])
        ax3.set_xlabel("Sole leader just before the event at")
        ax3.set_ylabel("Leader's win share")
        ax3.set_ylim(0, 1)
        _pct(ax3)
        ax3.legend(loc="lower right")
        ax3.set_title("Does the leader win?")
    return fig


def _ordinal(k: int) -> str:
    return f"{k}{'st' if k == 1 else 'nd' if k == 2 else 'rd' if k == 3 else 'th'}"


@_styled
def comparison(cmp: pl.DataFrame, base_t: dict, var_t: dict, base_label: str, var_label: str,
               top: int = 15) -> Figure:
    """Before / after: seat win shares side by side, and the largest standardised differences."""
    fig = _figure(13, max(5.0, 0.38 * min(top, cmp.height) + 2))
    ax, ax2 = _axes(fig, 1, 2, width_ratios=[2, 3])
    sb, sv = base_t["seats"], var_t["seats"]
    x = np.arange(sb.height)
    for off, s, color, lab in ((-0.2, sb, BASE, base_label), (0.2, sv, VARIANT, var_label)):
        p = s["win_share"].to_numpy()
        ax.bar(x[: s.height] + off, p, width=0.4, color=color, label=lab,
               yerr=_err(s["ci_low"], p, s["ci_high"]), capsize=4, ecolor="black")
    ax.axhline(sb["fair_share"][0], color=FAIR, linestyle="--", linewidth=1.2, label="Fair share")
    ax.set_xticks(x, sb["seat_label"].to_list())
    ax.set_ylabel("Win share")
    _pct(ax)
    ax.legend(fontsize=9)
    ax.set_title("Win share by seat, before / after")
    d = cmp.filter(pl.col("z").is_finite()).with_columns(pl.col("z").abs().alias("_a"))
    d = d.sort("_a", descending=True)
    d = d.head(top).reverse()
    y = np.arange(d.height)
    z = d["z"].to_numpy()
    colors = [OKABE_ITO[5] if s else "#999999" for s in d["significant"].to_list()]
    ax2.barh(y, z, color=colors)
    ax2.axvline(0, color="black", linewidth=0.8)
    labels = [lab if len(lab) < 48 else lab[:46] + "…" for lab in d["label"].to_list()]
    ax2.set_yticks(y, labels, fontsize=9)
    ax2.set_xlabel("z = (after − before) / standard error\norange: significant (Holm-adjusted, 5%)")
    ax2.set_title(f"Largest changes: {var_label} vs {base_label}")
    return fig


# ---------------------------------------------------------------------------------------------
# Game length, end reasons and guild types (games with ``turns`` / ``founded_*`` records)
# ---------------------------------------------------------------------------------------------

def _reason_colours(labels: list[str]) -> dict[str, str]:
    return {lab: OKABE_ITO[i % 8] for i, lab in enumerate(labels)}


@_styled
def game_length(t: dict) -> Figure | None:
    """Histogram of game length stacked by end reason; share of each end reason (Wilson intervals)."""
    if "length_distribution" not in t or t["length_distribution"].height == 0:
        return None
    d = t["length_distribution"]
    er = t.get("end_reasons")
    order = er["label"].to_list() if er is not None else sorted(set(d["label"]))
    colours = _reason_colours(order)
    width = int(d["turns_to"][0] - d["turns_from"][0] + 1)
    starts = np.arange(int(d["turns_from"].min()), int(d["turns_from"].max()) + width, width)
    fig = _figure(12 if er is not None else 8, 4.6)
    if er is not None:
        ax, ax2 = _axes(fig, 1, 2, width_ratios=[3, 2])
    else:
        ax, ax2 = _axes(fig), None
    bottom = np.zeros(len(starts))
    for lab in order:
        s = d.filter(pl.col("label") == lab)
        if s.height == 0:
            continue
        h = np.zeros(len(starts))
        h[((s["turns_from"].to_numpy() - starts[0]) // width).astype(int)] = s["share"].to_numpy()
        ax.bar(starts, h, width=width, bottom=bottom, align="edge", color=colours[lab], label=lab,
               edgecolor="white", linewidth=0.4)
        bottom += h
    if "length" in t:
        r = t["length"].row(0, named=True)
        ax.axvline(r["mean_turns"], color="black", linestyle="--", linewidth=1.2,
                   label=f"Mean {r['mean_turns']:.1f} turns")
        ax.axvline(r["median"], color=FAIR, linestyle=":", linewidth=1.5, label=f"Median {r['median']:g}")
    ax.set_xlabel("Turns in the game")
    ax.set_ylabel(f"Share of games per {width} turns" if width > 1 else "Share of games")
    _pct(ax)
    ax.legend(loc="upper right", fontsize=9)
    ax.set_title("How long games last, by how they end")
    if ax2 is not None:
        y = np.arange(er.height)[::-1]
        p = er["share"].to_numpy()
        ax2.barh(y, p, color=[colours[lab] for lab in er["label"]],
                 xerr=_err(er["ci_low"], p, er["ci_high"]), capsize=4, ecolor="black")
        for yi, pi in zip(y, p):
            ax2.annotate(f"{100 * pi:.1f}%", (pi, yi), xytext=(6, 0), textcoords="offset points",
                         va="center", fontsize=9)
        ax2.set_yticks(y, er["label"].to_list())
        ax2.set_xlim(0, min(1.0, max(float(p.max()) * 1.25, 0.05)))
        ax2.set_xlabel("Share of games (95% intervals)")
        _pct(ax2, "x")
        ax2.set_title("How games end")
    return fig


def _guild_order(g: pl.DataFrame) -> pl.DataFrame:
    return g.with_columns(pl.col("founders_win_share").fill_null(-1.0).alias("_o")).sort("_o").drop("_o")


def _frequent_guilds(g: pl.DataFrame) -> tuple[pl.DataFrame, list[str]]:
    """(types founded by ≥ 0.5% of player-games and ≥ 30 of them, by founders' win share; names of
    the others, which would only stretch the axis with a huge interval)."""
    rare = ((pl.col("founders") < 30) | (pl.col("founded_share") < 0.005)
            | pl.col("founders_win_share").is_null())
    return _guild_order(g.filter(~rare)), g.filter(rare)["card_name"].to_list()


def _left_out_note(fig: Figure, names: list[str]) -> None:
    if names:
        fig.supxlabel(f"Left out (founded by fewer than 0.5% of players or 30 player-games): "
                      f"{', '.join(names)}", fontsize=9, color=FAIR)


@_styled
def guild_types(t: dict) -> Figure | None:
    """Founders' win share per card type (vs others' and the fair 1/n), and how often each is founded."""
    if "guild_types" not in t or t["guild_types"].height == 0:
        return None
    g, left_out = _frequent_guilds(t["guild_types"])
    if g.height == 0:
        return None
    y = np.arange(g.height)
    fig = _figure(12, max(4.5, 0.42 * g.height + 1.8))
    ax, ax2 = _axes(fig, 1, 2, sharey=True, width_ratios=[3, 2])
    p = g["founders_win_share"].fill_null(np.nan).to_numpy()
    lo = g["founders_ci_low"].fill_null(np.nan).to_numpy()
    hi = g["founders_ci_high"].fill_null(np.nan).to_numpy()
    ok = np.isfinite(p)
    ax.errorbar(p[ok], y[ok], xerr=_err(lo[ok], p[ok], hi[ok]), fmt="o", color=BASE, capsize=3,
                label="Founded ≥ 1 guild of the type")
    o = g["others_win_share"].fill_null(np.nan).to_numpy()
    ax.scatter(o, y, marker="|", s=120, color=VARIANT, label="Everyone else", zorder=3)
    fair = float(g["fair_share"][0])
    ax.axvline(fair, color=FAIR, linestyle="--", linewidth=1.2, label=f"Fair share ({100 * fair:.0f}%)")
    ax.set_yticks(y, g["card_name"].to_list())
    ax.set_xlabel("Win share (95% intervals)")
    _pct(ax, "x")
    ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), ncols=3, frameon=False, fontsize=9)
    ax.set_title("Win share of the players who founded a guild of each type", pad=26)
    f = g["founded_share"].to_numpy()
    ax2.barh(y, f, color=OKABE_ITO[4], xerr=_err(g["founded_ci_low"], f, g["founded_ci_high"]), capsize=3,
             ecolor="black")
    ax2.set_xlabel("Players who founded one (share of player-games)")
    _pct(ax2, "x")
    ax2.set_title("How often each type is founded", pad=26)
    _left_out_note(fig, left_out)
    return fig


@_styled
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
    fig = _figure(13, max(5.0, 0.45 * len(cards) + 2))
    ax, ax2 = _axes(fig, 1, 2, sharey=True)
    for off, d, colour, lab in ((0.18, b, BASE, base_label), (-0.18, v, VARIANT, var_label)):
        p = d["founders_win_share"].fill_null(np.nan).to_numpy()
        ok = np.isfinite(p)
        ax.errorbar(p[ok], y[ok] + off,
                    xerr=_err(d["founders_ci_low"].fill_null(np.nan).to_numpy()[ok], p[ok],
                              d["founders_ci_high"].fill_null(np.nan).to_numpy()[ok]),
                    fmt="o", color=colour, capsize=3, label=lab, markersize=5)
        f = d["founded_share"].fill_null(np.nan).to_numpy()
        ax2.barh(y + off, f, height=0.36, color=colour, label=lab,
                 xerr=_err(d["founded_ci_low"].fill_null(np.nan), f, d["founded_ci_high"].fill_null(np.nan)),
                 capsize=2, ecolor="black")
    ax.axvline(float(b["fair_share"][0]), color=FAIR, linestyle="--", linewidth=1.2, label="Fair share")
    ax.set_yticks(y, b["card_name"].to_list())
    ax.set_xlabel("Founders' win share (95% intervals)")
    _pct(ax, "x")
    ax.legend(fontsize=9, loc="lower right")
    ax.set_title("Founders' win share, before / after")
    ax2.set_xlabel("Players who founded one")
    _pct(ax2, "x")
    ax2.set_title("How often each type is founded")
    if "length" in base_t and "length" in var_t:
        rb, rv = base_t["length"].row(0, named=True), var_t["length"].row(0, named=True)
        fig.suptitle(f"Guild types, before / after — mean length {rb['mean_turns']:.1f} → "
                     f"{rv['mean_turns']:.1f} turns")
    _left_out_note(fig, left_out)
    return fig


# ---------------------------------------------------------------------------------------------
# Played balance questions (tables of simcore.games.medievallons.questions; 95% = ±1.96 SE)
# ---------------------------------------------------------------------------------------------

_Z95 = 1.959963984540054


@_styled
def played_first_player(fp: pl.DataFrame) -> Figure | None:
    """Win share per seat for every player count (played with identical bots) against 1/P."""
    if fp is None or fp.height == 0:
        return None
    counts = sorted(set(fp["players"].to_list()))
    fig = _figure(max(7.0, 2.4 * len(counts) + 2), 4.6)
    ax = _axes(fig)
    step = 1.0
    for k, P in enumerate(counts):
        d = fp.filter(pl.col("players") == P).sort("seat")
        w = 0.8 / P
        x = k * step - 0.4 + w / 2 + w * np.arange(P)
        p = d["win_share"].to_numpy()
        se = d["std_error"].to_numpy()
        ax.bar(x, p, width=w * 0.9, color=[OKABE_ITO[s % 8] for s in d["seat"]],
               yerr=_Z95 * se, capsize=3, ecolor="black")
        ax.hlines(1 / P, k * step - 0.45, k * step + 0.45, color=FAIR, linestyle="--", linewidth=1.3)
        ax.annotate(f"{100 * p[0]:.1f}%", (x[0], p[0] + _Z95 * se[0]), xytext=(0, 4),
                    textcoords="offset points", ha="center", fontsize=9)
    ax.set_xticks(np.arange(len(counts)) * step, [f"{P} players" for P in counts])
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles = [Patch(color=OKABE_ITO[s % 8], label=f"Seat {s + 1}") for s in range(max(counts))]
    handles.append(Line2D([], [], color=FAIR, linestyle="--", label="Fair share 1/P"))
    ax.legend(handles=handles, fontsize=9, ncols=2)
    ax.set_ylabel("Win share (95% intervals)")
    _pct(ax)
    ax.set_title("First-player advantage by player count (Seat 1 plays first)")
    return fig


@_styled
def played_ablation(ct: pl.DataFrame) -> Figure | None:
    """Card ablation: change of the founders' win share and of game length with one copy removed."""
    if ct is None or "delta_founders_win_share" not in ct.columns:
        return None
    d = ct.filter(pl.col("delta_founders_win_share").is_not_null()
                  & pl.col("delta_founders_win_share").is_not_nan()
                  & (pl.col("founders_std_error").fill_nan(None).is_not_null()))
    d = d.filter(pl.col("founded_share") >= 0.005).sort("delta_founders_win_share")
    if d.height == 0:
        return None
    names = [_card_label(c) for c in d["card"]]
    y = np.arange(d.height)
    fig = _figure(12, max(4.5, 0.42 * d.height + 1.8))
    ax, ax2 = _axes(fig, 1, 2, sharey=True)
    delta = 100 * d["delta_founders_win_share"].to_numpy()
    se = 100 * d["delta_std_error"].to_numpy()
    colours = [OKABE_ITO[5] if abs(v) > _Z95 * s else OKABE_ITO[0] for v, s in zip(delta, se)]
    ax.barh(y, delta, color=colours, xerr=_Z95 * se, capsize=3, ecolor="black")
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(y, names)
    ax.set_xlabel("Change of the founders' win share (points)\norange: 95% interval excludes 0")
    ax.set_title("Remove one copy: founders' win share")
    dt = d["delta_mean_turns"].to_numpy()
    st = d["delta_turns_std_error"].to_numpy()
    ax2.barh(y, dt, color=OKABE_ITO[2], xerr=_Z95 * st, capsize=3, ecolor="black")
    ax2.axvline(0, color="black", linewidth=0.8)
    ax2.set_xlabel("Change of the mean game length (turns)")
    ax2.set_title("Remove one copy: game length")
    return fig


def _card_label(key: str) -> str:
    return card_name(key)


@_styled
def played_best_of_three(b3: pl.DataFrame) -> Figure | None:
    """2 players: bot A's win rate over single rounds and over best-of-3 matches, per pairing."""
    if b3 is None or b3.height == 0:
        return None
    x = np.arange(b3.height)
    fig = _figure(max(7.0, 2.2 * b3.height + 2), 4.6)
    ax = _axes(fig)
    for off, col, se_col, colour, lab in ((-0.2, "single_round_win_rate", "single_std_error", BASE,
                                           "One round"),
                                          (0.2, "match_win_rate", "match_std_error", VARIANT,
                                           "Best of 3 rounds")):
        p = b3[col].to_numpy()
        half = _Z95 * np.nan_to_num(b3[se_col].to_numpy())
        ax.bar(x + off, p, width=0.4, color=colour, label=lab, yerr=half, capsize=4, ecolor="black")
        for xi, pi in zip(x + off, p):
            ax.text(xi, min(pi / 2, 0.22), f"{100 * pi:.1f}%", ha="center", va="center", fontsize=9,
                    color="white" if colour == BASE else "black")
    ax.axhline(0.5, color=FAIR, linestyle="--", linewidth=1.2, label="Even (50%)")
    ax.set_xticks(x, [f"{a}\nvs {b}" for a, b in zip(b3["bot"], b3["opponent"])])
    ax.set_ylabel("Win rate of the first-named bot (95% intervals)")
    ax.set_ylim(0, 1.12)
    _pct(ax)
    ax.legend(loc="upper left", fontsize=9)
    ax.set_title("2 players: one round vs a best-of-3 match (first player alternates)")
    return fig
