"""Matplotlib figures of the balance report, one function per section, from the analysis tables.

Each function takes the dict of tables returned by :func:`analysis.analyse` (plus labels) and returns
a :class:`matplotlib.figure.Figure`, or ``None`` when the tables it needs are absent (a game without
event cards has no event figure). Figures are built without pyplot (no global state, Agg canvas),
use the Okabe–Ito colour-blind-safe palette and cividis / PuOr colour maps, readable font sizes,
axis labels in the game's words, and show seats as "Seat 1…n".

May import matplotlib, numpy, polars and :mod:`analysis.load` (for labels).
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
def seat_advantage(t: dict, title: str = "") -> Figure:
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
    ax2.set_ylabel("Mean final coins")
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
def scores(t: dict) -> Figure:
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
        ax.set_xlabel("Final coins (after end-of-game penalties)")
        ax.legend()
        _pct(ax)
    axes[0].set_ylabel("Share of players" + (f" per {width} coins" if width > 1 else ""))
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
