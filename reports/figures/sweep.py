"""Figures of the sweep and tune pages: metric curves per parameter, the tornado chart, the search.

Each function takes the tables of :mod:`analysis.sweep.metrics` (``curves``, ``effects``) or the
rows of a tune's ``trials.csv`` / ``importance.csv`` and returns a matplotlib Figure (or None when
there is nothing to draw), in the report's style (:mod:`reports.figures.common`).

May import matplotlib (Agg), numpy, polars and :mod:`reports.figures.common`.
"""

from __future__ import annotations

import re

import numpy as np
import polars as pl
from matplotlib.figure import Figure

from reports.figures.checklist import integer_axis, zoomed_axis
from reports.figures.common import FAIR, OKABE_ITO, error_bars, new_figure, styled


def _scale(share: bool) -> float:
    return 100.0 if share else 1.0


@styled
def curves(c: pl.DataFrame, parameter: str, fair: float | None, unit: str,
           label: str | None = None) -> Figure | None:
    """Every headline metric of the variants where only ``parameter`` moves, against its value;
    ``label``: the x axis's name of it (a per-seat setting with its seat, "setup.hand_size[1]
    (seat 2's)"), else ``parameter``."""
    d = c.filter(pl.col("parameter") == parameter).sort("order")
    if d.height == 0:
        return None
    values = list(dict.fromkeys(d["value"].to_list()))
    numeric = d["x"].null_count() == 0
    xs = {v: (float(d.filter(pl.col("value") == v)["x"][0]) if numeric else i)
          for i, v in enumerate(values)}
    panels = [("seat", [m for m in dict.fromkeys(d["metric"].to_list()) if m.startswith("seat_win")],
               "win share (%)")]
    for prefix, title in (("role_win", "win share by role (%)"),
                          ("strategy_win", "win share by strategy (%)")):
        ms = [m for m in dict.fromkeys(d["metric"].to_list()) if m.startswith(prefix)]
        if prefix == "role_win" and len(ms) > 1:
            # each side on its own zoomed axis, as the before/after draws them (review s51
            # Seigneurial #2: the Seigneur's 0.2% → 0.4%, called clear, was a flat line at 0 on a
            # 0-100% axis shared with the Censitaires' 99.8%)
            for m in ms:
                lab = str(d.filter(pl.col("metric") == m)["label"][0])
                panels.append(("role_one", [m], f"{lab[:1].upper()}{lab[1:]} (%)"))
        elif ms:
            panels.append((prefix, ms, title))
    # a role of several seats: how evenly its seats split its wins (the largest gap from an equal
    # split, in pp of the role's wins), on its own zoomed axis: on the 0-100% panels above a
    # change of a point or two cannot be seen
    for m in dict.fromkeys(d["metric"].to_list()):
        if m.startswith("role_split_"):
            lab = str(d.filter(pl.col("metric") == m)["label"][0])
            role = lab.rsplit(" of ", 1)[-1].removesuffix(" wins").removesuffix("'")
            panels.append(("split", [m], f"largest gap from an equal split\nof {role}' wins (pp)"))
    # the game length in the game's own unit (turns, rounds: the curve rows carry it)
    length_unit = next(iter(d.filter(pl.col("metric") == "game_length")["unit"].to_list()), "turns")
    # the margin as its rows label it (Fief's counts a mutual wipe-out as 0 and says so: review 247 #2)
    margin = next(iter(d.filter(pl.col("metric") == "winner_margin")["label"].to_list()), "the winner's margin")
    margin = str(margin).removeprefix("the ").replace(" (", "\n(")
    for m, title in (("balance", "seat imbalance (pp from fair; lower is fairer)"),
                     ("winner_margin", f"{margin} ({unit})"),
                     ("game_length", f"game length ({length_unit})"), ("event_swing", f"event swing ({unit})")):
        if m in d["metric"].to_list():
            panels.append((m, [m], title))
    integer = numeric and all(float(x).is_integer() for x in xs.values())
    fig = new_figure(4.2 * min(len(panels), 3), 3.6 * ((len(panels) + 2) // 3))
    axes = np.atleast_1d(fig.subplots((len(panels) + 2) // 3, min(len(panels), 3))).ravel()
    for ax, (kind, metrics, title) in zip(axes, panels):
        top = 0.0
        share_panel = False
        for k, m in enumerate(metrics):
            r = d.filter(pl.col("metric") == m)
            share_panel = bool(r["share"][0])
            sc = _scale(share_panel)
            # every point sits on its setting's value (no sideways offsets): the colours tell the
            # series apart
            x = np.array([xs[v] for v in r["value"].to_list()], float)
            est, lo, hi = (r[c].to_numpy() * sc for c in ("estimate", "low", "high"))
            top = max(top, float(np.nanmax(hi)))
            ax.errorbar(x, est, yerr=error_bars(lo, est, hi), marker="o", ms=4, capsize=3,
                        color=OKABE_ITO[k % len(OKABE_ITO)],
                        label=str(r["label"][0]).removesuffix(" win share").removesuffix("'s").removesuffix("'"))
        if kind == "seat" and fair is not None:
            # 1/P at each point's own player count (the seats it has), not the first variant's
            seats = {v: d.filter((pl.col("value") == v) & pl.col("metric").str.starts_with("seat_win")).height
                     for v in values}
            if len(set(seats.values())) > 1:
                xf = [xs[v] for v in values if seats[v]]
                ax.plot(xf, [100.0 / seats[v] for v in values if seats[v]], color=FAIR, ls="--", lw=1,
                        drawstyle="steps-mid", label="fair share (1/P)")
            else:
                ax.axhline(100 * fair, color=FAIR, ls="--", lw=1)
        if kind == "seat" and fair is None:
            _equal_splits(ax, d, values, xs)
        ax.set_title(panel_title(title, fig.get_figwidth() / min(len(panels), 3)))
        ax.set_xlabel(label or parameter)
        if kind == "role_one":                 # one side's share, zoomed on its own values
            ax.set_ylabel("win share (%)")
            zoomed_axis(ax, "y")
        elif share_panel:                      # shares on 0–100%
            ax.set_ylim(0, min(100.0, max(top * 1.15, 5.0)))
            ax.set_ylabel("pp from the fair share" if kind == "balance" else
                          "pp from an equal split" if kind == "split" else "win share (%)")
        else:
            ax.set_ylabel(title[title.rfind("(") + 1:-1] if title.endswith(")") else "")
            zoomed_axis(ax, "y")
        if integer:
            integer_axis(ax, "x")
            lo_x, hi_x = min(xs.values()), max(xs.values())
            ax.set_xlim(lo_x - 0.3, hi_x + 0.3)
        if not numeric:
            ax.set_xticks(list(xs.values()), values, rotation=20)
        if len(metrics) > 1:
            ax.legend(fontsize=8)
    for ax in axes[len(panels):]:
        ax.set_visible(False)
    return fig


def _equal_splits(ax, d: pl.DataFrame, values: list, xs: dict) -> None:
    """On a game with roles' seat panel, per role of several seats, the share each of its seats
    would win if they split the role's wins equally (the role's win share / its seats, at each
    point's own count of them): the reference a seat of that role is compared with, as 1/P is
    in a game whose seats are alike (:func:`analysis.sweep.metrics.within_role`; designer review
    s57 A: between 3 and 5 players the Censitaire seats' shares fell by ~27 pp, their side's wins
    split over more seats). Seats and sides are known by their labels ("seat 2 (Censitaire)'s win
    share", "the Censitaires' win share", :func:`analysis.sweep.metrics.share_metrics`)."""
    seats = d.filter(pl.col("metric").str.starts_with("seat_win"))
    roles = [re.search(r"^seat \d+ \((.+)\)'s win share$", str(x)) for x in seats["label"].to_list()]
    for role in dict.fromkeys(m[1] for m in roles if m):
        side = d.filter(pl.col("metric").str.starts_with("role_win") & (pl.col("label") == f"the {role}s' win share"))
        pts = []
        for v in values:
            k = seats.filter((pl.col("value") == v) & pl.col("label").str.contains(f"({role})", literal=True)).height
            share = side.filter(pl.col("value") == v)["estimate"].to_list()
            if k >= 2 and share:
                pts.append((xs[v], 100.0 * float(share[0]) / k))
        if pts:
            ax.plot(*zip(*pts), color=FAIR, ls="--", lw=1, drawstyle="steps-mid" if len(pts) > 1 else "default",
                    marker="_" if len(pts) == 1 else None,
                    label=f"equal split of the {role}s' wins")


def panel_title(title: str, panel_width: float, size: float | None = None) -> str:
    """``title`` broken into lines that fit a panel ``panel_width`` inches wide at the axes' title
    size (session 55 designer review #3: "seat imbalance (pp from the fair share; lower is
    fairer)" ran past its panel into its neighbours' titles): as it is when it fits; else broken
    before its parenthesis when both parts fit; else wrapped at the words. A line fits when its
    characters at 0.6 em each (wider than the report font's average) take at most 80% of the
    panel (the rest is the y axis's labels)."""
    import textwrap

    import matplotlib

    size = size or float(matplotlib.rcParams["axes.titlesize"]
                         if not isinstance(matplotlib.rcParams["axes.titlesize"], str) else 13)
    budget = max(12, int(0.8 * panel_width * 72 / (0.6 * size)))
    lines = []
    for line in title.split("\n"):
        if len(line) <= budget:
            lines.append(line)
            continue
        head, paren, tail = line.partition(" (")
        if paren and len(head) <= budget and len(tail) + 1 <= budget:
            lines += [head, "(" + tail]
        else:
            lines += textwrap.wrap(line, budget)
    return "\n".join(lines)


TOP_BARS = 16      # bars a tornado panel draws at most


def _short_label(label: str) -> str:
    """A metric's name on a tornado bar: without its parenthesis; a role's split gap ("the largest
    gap of a Censitaire seat from an equal split of the Censitaires' wins") as "the Censitaires'
    split: largest gap" (the sentences and tables give it in full). Only the closing parenthesis
    goes: a seat's role within the name stays ("seat 2 (Censitaire)'s advantage among the
    Censitaires", where the first parenthesis cut it to "seat 2", with neither role nor metric)."""
    label = re.sub(r" \([^()]*\)$", "", label)
    if label.startswith("the largest gap of a") and " of the " in label:
        role = label.rsplit(" of ", 1)[1].removesuffix(" wins")
        return f"{role} split: largest gap"
    return label


def _tornado_groups(e: pl.DataFrame, shares: bool, top: int = TOP_BARS) -> list:
    """A tornado figure's panels: (unit, its bars smallest first, the effects of that unit)."""
    d = e.filter(pl.col("share") == shares)
    if "same_as" in d.columns:
        d = d.filter(pl.col("same_as").is_null())
    if d.height == 0:
        return []
    units = ["pp"] if shares else list(dict.fromkeys(d["unit"].to_list()))
    groups = []
    for u in units:
        g = d if shares else d.filter(pl.col("unit") == u)
        total = g.height
        g = g.with_columns(pl.col("delta").abs().alias("size")).sort("size", descending=True).head(top)
        groups.append((u, g.reverse(), total))
    return groups


def tornado_bars(e: pl.DataFrame, shares: bool, top: int = TOP_BARS) -> set[tuple]:
    """The (parameter, metric) bars :func:`tornado` draws with these arguments (its caption names
    only the turns of those: review D #10)."""
    return {(p, m) for _, g, _ in _tornado_groups(e, shares, top) if "metric" in g.columns
            for p, m in zip(g["parameter"], g["metric"])}


@styled
def _follows_label(r: dict) -> str:
    """The seat imbalance's bar label's note on the seat whose change its estimate is (column
    ``follows``, :func:`analysis.sweep.metrics.furthest_seat`): " (= seat 3's change here)" when
    that seat is clearly the furthest at both values and the interval is the same; else
    " (same estimate as seat 1's change, the other way; wider interval)"; "" for any other bar."""
    f = r.get("follows")
    if not f:
        return ""
    seat, way = f"seat {f.removeprefix('seat_win_share_')}", ", the other way," if r.get("follows_mirror") else ""
    how = r.get("follows_interval") or "same"
    if r.get("follows_clear") and how == "same":
        return f" (= {seat}'s change{way} here)"
    interval = {"wider": "wider interval", "narrower": "narrower interval", "same": "same interval"}.get(
        how, "another interval")
    lo, hi = r.get("follows_low"), r.get("follows_high")
    k = 100.0 if r.get("share", True) else 1.0
    if how != "same" and lo is not None and hi is not None and r.get("low") is not None and \
            all(f"{k * a:+.1f}" == f"{k * b:+.1f}" for a, b in ((r["low"], lo), (r["high"], hi))):
        # the two intervals print alike at one decimal (review s62 #4): say by how little
        interval += f", by under 0.1{' pp' if k == 100.0 else ''} at each end"
    return f" (same estimate as {seat}'s change{way.rstrip(',')}; {interval})"


def tornado(e: pl.DataFrame, shares: bool, unit: str, top: int = TOP_BARS,
            turning: dict | None = None, names: dict | None = None) -> Figure | None:
    """Which parameter moves which metric most: the paired effect of moving each parameter from its
    first to its last value, largest first. ``shares=True``: the win shares, in percentage points;
    otherwise every other metric, one panel per unit (the score unit, turns, …): one unit per axis.
    At most ``top`` bars a panel, and a panel that leaves some out says so ("the 16 largest of 24").
    A metric that is the same number as another, or its mirror (column ``same_as``: a one-seat
    role's share is its seat's; with two roles one side's is one minus the other's), is not drawn:
    its bar would repeat the other's, as the sentences name it once. The seat imbalance whose
    change is one seat's in these data (column ``follows``: that seat furthest from fair at both
    values) is drawn, its label saying whose ("= seat 3's change here"; "same estimate as seat 1's
    change, the other way; wider interval" where the seat is not clearly the furthest or the
    interval differs: :func:`_follows_label`). ``turning``: (parameter,
    metric) → the value where the metric's response turns (:func:`analysis.sweep.metrics.turns`),
    said on the bar's label, since a first → last bar hides a turn (review Z #5). A label keeps
    the metric's name, not its parenthesis (the sentences define it); it says "reverses", not
    "turns", on pages whose length unit is the player turn (review D #10). ``names``: a setting's
    name on its bars (a per-seat setting with its seat, "setup.hand_size[1] (seat 2's)")."""
    groups = _tornado_groups(e, shares, top)
    if not groups:
        return None
    heights = [0.42 * g.height + 1.1 for _, g, _ in groups]
    fig = new_figure(9.0, sum(heights) + 0.5)
    axes = np.atleast_1d(fig.subplots(len(groups), 1, height_ratios=heights))
    sc = _scale(shares)
    for ax, (u, g, total) in zip(axes, groups):
        if total > g.height:                    # say what is left out: no other figure shows it
            ax.set_title(f"the {g.height} largest of {total} effects", fontsize=9)
        y = np.arange(g.height)
        delta, lo, hi = (g[c].to_numpy() * sc for c in ("delta", "low", "high"))
        colours = [OKABE_ITO[0] if x >= 0 else OKABE_ITO[5] for x in delta]
        ax.barh(y, delta, color=colours, alpha=0.8)
        ax.errorbar(delta, y, xerr=error_bars(lo, delta, hi), fmt="none", ecolor="#222", capsize=3)
        turns_at = [(turning or {}).get((p, m)) for p, m in
                    zip(g["parameter"], g["metric"] if "metric" in g.columns else [None] * g.height)]
        # the seat imbalance whose change is one seat's here (that seat furthest from fair at both
        # values: analysis.sweep.metrics.furthest_seat) says so, beside that seat's equal bar
        # (designer review s57 B: two unexplained bars of +0.8 pp)
        # (review of s57 B: "= seat 1's change" beside two intervals and verdicts that differ), or,
        # where that seat is not clearly the furthest or the interval differs, that only the
        # estimate is that seat's and how the interval stands; the caption says why
        follows = [_follows_label(x) for x in (g.iter_rows(named=True) if "follows" in g.columns
                                                else [{}] * g.height)]
        labels = [f"{(names or {}).get(p, p)} {a}→{b}: {_short_label(lab)}"
                  + (f" (reverses at {t}: see text)" if t is not None else "") + f
                  for p, a, b, lab, t, f in zip(g["parameter"], g["from"], g["to"], g["label"], turns_at,
                                                follows)]
        ax.set_yticks(y, labels, fontsize=9)
        ax.axvline(0, color="#444", lw=1)
        ax.set_xlabel("change (percentage points)" if shares else f"change ({u})")
    fig.suptitle("What each setting moves most\n(first → last value, or each word of a list against the first;\n"
                 "paired games, simultaneous 95% intervals: the page's sentences' family)",
                 fontsize=12)
    return fig


def _number(col: pl.Series) -> np.ndarray:
    """A trials.csv column as floats, an empty cell as NaN."""
    return np.array([float(x) if x is not None and str(x).strip() not in ("", "nan") else np.nan
                     for x in col.cast(pl.String).to_list()], float)


def search_points(trials: pl.DataFrame, metric: str | None = None) -> pl.DataFrame:
    """The trials :func:`search` draws, with ``y`` (in the column's own scale) and ``at_least``:
    a trial played to the last rung at its objective (or ``metric``); one the racing rule dropped
    at what is known of it (review D #6): with ``metric``, its value on the games it played; on
    the objective axis, which it never reached, ``dropped_at_bound`` (its objective is at least
    that, at 95%; ``at_least`` True). A trial with neither (a duplicate of an earlier trial: no
    games of its own) is not drawn."""
    col = metric if metric and metric in trials.columns else "objective"
    if trials.height == 0 or col not in trials.columns:
        return pl.DataFrame()
    y = _number(trials[col])
    bound = (_number(trials["dropped_at_bound"]) if col == "objective" and "dropped_at_bound" in trials.columns
             else np.full(trials.height, np.nan))
    pruned = (trials["state"] == "pruned").to_numpy()
    at_least = np.isnan(y) & pruned & ~np.isnan(bound)
    y = np.where(at_least, bound, y)
    keep = ~np.isnan(y) & (trials["state"] != "duplicate").to_numpy()
    return trials.with_columns(pl.Series("y", y), pl.Series("at_least", at_least)).filter(pl.Series(keep))


@styled
def search(trials: pl.DataFrame, metric: str | None = None, label: str = "",
           band: tuple[float, float] | None = None) -> Figure | None:
    """Every trial (filled: played to the last rung; hollow: dropped early by the racing rule, at
    what is known of it, :func:`search_points`: on the objective axis at the low end of its
    interval when it was dropped, with an arrow up). With ``metric`` (the column of a single role
    or length target) the y axis is that metric in its own unit (shares in %, length in turns)
    with the target ``band``; otherwise the objective, in tolerance units, with the best
    full-budget objective so far. The legend sits beside the axes, where it covers no marker
    (review D #6), and the axis starts a little below 0, so a marker at 0 is drawn whole."""
    col = metric if metric and metric in trials.columns else "objective"
    d = search_points(trials, metric)
    if d.height == 0:
        return None
    share = col != "objective" and "win_share" in col
    y_all = d["y"].to_numpy() * (100.0 if share else 1.0)
    x_all = d["trial"].cast(pl.Int64).to_numpy()
    games = d["games"].cast(pl.Int64).to_numpy()
    fig = new_figure(9.0, 4.6)
    ax = fig.subplots()
    full = int(games.max())
    for state, style in (("complete", dict(color=OKABE_ITO[0], label="played to the last rung")),
                         ("pruned", dict(facecolors="none", edgecolors=OKABE_ITO[5],
                                         label="dropped by the racing rule"
                                         + (" (at least this)"
                                            if d["at_least"].any() else "")))):
        mask = (d["state"] == state).to_numpy()
        if mask.any():
            sizes = 20 + 60 * games[mask] / max(full, 1)
            ax.scatter(x_all[mask], y_all[mask], s=sizes, **style)
    up = d["at_least"].to_numpy()
    for x, y in zip(x_all[up], y_all[up]):      # its objective is at least this: an arrow up
        ax.annotate("", xy=(x, y), xycoords="data", xytext=(0, 16), textcoords="offset points",
                    arrowprops=dict(arrowstyle="<-", color=OKABE_ITO[5], lw=1.2, shrinkA=0, shrinkB=5))
    top = float(np.nanmax(y_all))
    if col == "objective":
        best, run = [], float("inf")
        for o, g, st in zip(y_all, games, d["state"].to_list()):
            if g == full and st == "complete":
                run = min(run, o)
            best.append(run)
        ax.step(x_all, best, where="post", color="#222", lw=1.2, label="best so far")
        ax.axhline(1.0, color=FAIR, ls="--", lw=1, label="tolerance (objective 1)")
        ax.set_ylabel("objective (tolerance units; 0 = on target)")
        top = max(top, 1.0) * 1.12
    else:
        if band is not None:
            ax.axhspan(band[0], band[1], color=FAIR, alpha=0.15, label="target")
        ax.set_ylabel(label)
        top = (min(100.0, max(top, band[1] if band else 0) * 1.15 + 1) if share
               else max(top, band[1] if band else 0) * 1.1)
    ax.set_ylim(-0.04 * top, top)
    integer_axis(ax, "x")
    ax.set_xlim(x_all.min() - 0.6, x_all.max() + 0.6)
    ax.set_xlabel("trial")
    ax.set_title("The search, trial by trial (marker size: games played)")
    ax.legend(fontsize=9, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    return fig


@styled
def effects(eff: pl.DataFrame, label: str) -> Figure | None:
    """What moving each setting across its range does to the target metric (paired trials)."""
    if eff.height == 0:
        return None
    d = eff.reverse()
    fig = new_figure(8.0, 0.55 * d.height + 1.6)
    ax = fig.subplots()
    y = np.arange(d.height)
    e, lo, hi = (d[c].to_numpy() for c in ("effect", "low", "high"))
    ax.barh(y, e, color=[OKABE_ITO[0] if x >= 0 else OKABE_ITO[5] for x in e], alpha=0.8)
    ax.errorbar(e, y, xerr=error_bars(lo, e, hi), fmt="none", ecolor="#222", capsize=3)
    ax.set_yticks(y, [f"{p} {a}→{b}" for p, a, b in zip(d["parameter"], d["from"], d["to"])])
    ax.axvline(0, color="#444", lw=1)
    ax.set_xlabel(f"change of the {label.rsplit(' (', 1)[0]} ({d['unit'][0]})")
    ax.set_title("What each setting does to the target (95% intervals)")
    return fig
