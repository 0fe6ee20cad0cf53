"""The report's figure style and the figures every game's report has, from the analysis tables.

Each figure function takes the dict of tables returned by :func:`analysis.analyse` (plus labels)
and returns a :class:`matplotlib.figure.Figure`, or ``None`` when the tables it needs are absent.
Figures are built without pyplot (no global state, Agg canvas), use the Okabe–Ito colour-blind-safe
palette and cividis / PuOr colour maps, readable font sizes, axis labels in the game's words, and
show seats as "Seat 1…n". The helpers here (:data:`RC`, :func:`styled`, :func:`new_figure`,
:func:`render`, …) are the style the per-game figure modules (:mod:`reports.figures.middle_ages`,
:mod:`reports.figures.medievallons`, :mod:`reports.figures.fief`) share.

A share is labelled as the tables and sentences print it: :func:`reports.text.pct` (rounded half
away from zero at its decimals; an f-string's ``:.1f`` printed 0.3485 as 34.8% beside the table's
34.9%, review s60 #2), a share with its interval as :func:`reports.text.pct_ci`.

May import matplotlib (Agg backend only), numpy, polars and :mod:`reports.text` (the number formats).
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
from matplotlib.ticker import MaxNLocator, PercentFormatter  # noqa: E402

from reports.text import pct, pct_ci, seat_share, seats_fair  # noqa: E402

# Okabe & Ito (2008), "Color Universal Design": distinguishable with every common colour deficiency.
OKABE_ITO = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
BASE, VARIANT, FAIR = OKABE_ITO[0], OKABE_ITO[1], "#555555"
DPI = 130                   # the PNGs' dots per inch (reports.pdf takes them at this size)
WIDE_INTERVAL = 0.20        # a before/after share whose interval is wider than 20 pp is left out of the chart

RC = {
    "font.size": 11, "axes.titlesize": 13, "axes.labelsize": 11, "xtick.labelsize": 10,
    "ytick.labelsize": 10, "legend.fontsize": 10, "axes.spines.top": False, "axes.spines.right": False,
    "axes.grid": True, "grid.alpha": 0.3, "axes.axisbelow": True, "svg.fonttype": "none",
    "font.family": "DejaVu Sans",
    # the SVG's clip-path and marker ids from a fixed salt, not a random one (review s51: every
    # .svg differed between two writes of the same figure)
    "svg.hashsalt": "balance-figures",
}

# no creation date in a vector figure: the same figure is the same bytes (review s51)
_NO_DATE = {"svg": {"Date": None}, "pdf": {"CreationDate": None}}


def styled(fn):
    """Build the figure under the report's rc settings (fonts, grid, spines are read at creation)."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with matplotlib.rc_context(RC):
            return fn(*args, **kwargs)
    return wrapper


def new_figure(w: float = 9.0, h: float = 5.0) -> Figure:
    return Figure(figsize=(w, h), layout="constrained")


def subplots(fig: Figure, *args, **kw):
    return fig.subplots(*args, **kw)


def percent_axis(ax, axis: str = "y") -> None:
    """A share axis: ticks as percentages, its limits kept within 0–100% (a bar's label or an
    interval never stretches it to 120%), marked for the figure checklist
    (:mod:`reports.figures.checklist`)."""
    from reports.figures.checklist import share_axis

    lo, hi = ax.get_ylim() if axis == "y" else ax.get_xlim()
    # On axes that share this scale (small multiples, ``sharey=True``), fixing the limits here stops
    # matplotlib from widening them for what the other panels draw later: a panel drawn after the
    # first call would run off the top. So the limits cover every sibling's data drawn so far (with
    # the usual 5% margin); called after each panel, the last call covers them all.
    siblings = (ax.get_shared_y_axes() if axis == "y" else ax.get_shared_x_axes()).get_siblings(ax)
    if len(siblings) > 1:
        name = "intervaly" if axis == "y" else "intervalx"
        values = [v for s in siblings if s.has_data() for v in getattr(s.dataLim, name)
                  if math.isfinite(v)]
        if values:
            margin = 0.05 * (max(values) - min(values))
            lo, hi = min(lo, min(values) - margin), max(hi, max(values) + margin)
    lo, hi = max(0.0, lo), min(1.0, hi)
    if hi <= lo:
        lo, hi = 0.0, 1.0
    (ax.set_ylim if axis == "y" else ax.set_xlim)(lo, hi)
    share_axis(ax, axis)
    target = ax.yaxis if axis == "y" else ax.xaxis
    # ticks at whole steps of 1, 2, 2.5 or 5 (× a power of ten) percent: 0%, 5%, 10% … rather than
    # 6.0%, 12.0%, 18.0% (MaxNLocator's default steps include 1.5, 3, 4, 6 and 8)
    target.set_major_locator(MaxNLocator(nbins=5 if axis == "x" else 7, steps=[1, 2, 2.5, 5, 10]))
    target.set_major_formatter(_PercentTicks(1.0))


def _tick_decimals(ticks) -> int:
    """Decimals that write every tick of a share axis exactly (in percent): 0 for 5% steps, 1 for
    2.5% or 0.5%, … (at most 3)."""
    for d in range(4):
        if all(abs(round(100 * t, d) - 100 * t) < 1e-9 for t in ticks):
            return d
    return 3


class _PercentTicks(PercentFormatter):
    """matplotlib's PercentFormatter with as many decimals as the ticks need: "30%", not "30.0%"
    (its own choice follows the axis range, so a 0–40% axis got one decimal on every tick). The
    decimals are chosen once per set of ticks, when matplotlib hands them over (``set_locs``)."""

    def set_locs(self, locs):
        super().set_locs(locs)
        self.decimals = _tick_decimals(locs) if len(locs) else None


def render(fig: Figure, fmt: str, dpi: int = DPI) -> bytes:
    """The figure as PNG / SVG / PDF bytes. A PNG is 8-bit RGB when the figure is opaque (every
    report figure is: drawn on a white face), so that the PDF (:mod:`reports.pdfdoc`) takes its
    compressed rows as they are; RGBA otherwise."""
    buf = io.BytesIO()
    with matplotlib.rc_context(RC):
        if fmt != "png":
            fig.savefig(buf, format=fmt, dpi=dpi, metadata=_NO_DATE.get(fmt))
            return buf.getvalue()
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from PIL import Image

        canvas = FigureCanvasAgg(fig)
        old = fig.dpi
        fig.dpi = dpi                      # as savefig(dpi=...) does, and back afterwards
        try:
            canvas.draw()
            rgba = np.asarray(canvas.buffer_rgba())
        finally:
            fig.dpi = old
        opaque = bool((rgba[..., 3] == 255).all())
        Image.fromarray(np.ascontiguousarray(rgba[..., :3]) if opaque else rgba).save(
            buf, format="png", dpi=(dpi, dpi))
    return buf.getvalue()


def bar_label(ax, x: float, value: float, top: float = 1.0, **kw) -> None:
    """The share ``value`` printed above its bar, or inside it when the bar reaches near the top of
    a 0–``top`` axis (the label then stays inside the figure)."""
    inside = value > 0.85 * top
    ax.annotate(f"{pct(value)}%", (x, value), xytext=(0, -14 if inside else 12),
                textcoords="offset points", ha="center", color="white" if inside else "black",
                fontweight="bold" if inside else "normal", **kw)


def error_bars(low, mid, high) -> np.ndarray:
    mid = np.asarray(mid, float)
    return np.vstack([np.clip(mid - np.asarray(low, float), 0, None),
                      np.clip(np.asarray(high, float) - mid, 0, None)])


# ---------------------------------------------------------------------------------------------

def seat_bots(t: dict) -> list[str] | None:
    """The bot of each seat (seat 1 first) when the seats hold different bots that keep their seats
    (table ``seat_bots``, :func:`analysis.matchups.seat_bot_table`), else None (one bot in every
    seat, or rotated seats). Then a seat's win share is mostly its bot's strength, and the seat
    figures name the bot beside the seat."""
    table = t.get("seat_bots")
    if table is None or table.height == 0:
        return None
    return table.sort("seat")["bot"].to_list()


@styled
def seat_advantage(t: dict, title: str = "", unit: str = "coins") -> Figure:
    """Win share per seat with 95 % intervals and the fair share line; mean score per seat. When the
    seats hold different bots that keep their seats (:func:`seat_bots`), each seat is labelled with
    its bot ("Seat 2 (collector)"): its share is then mostly its bot's strength."""
    seats = t["seats"]
    bots = seat_bots(t)
    names = (seats["seat_label"].to_list() if bots is None else
             [f"{lab}\n({bots[int(k)]})" for lab, k in zip(seats["seat_label"], seats["seat"])])
    fig = new_figure(10, 4.6)
    ax, ax2 = subplots(fig, 1, 2, width_ratios=[3, 2])
    x = np.arange(seats.height)
    p = seats["win_share"].to_numpy()
    ax.bar(x, p, color=[OKABE_ITO[i % 8] for i in range(len(x))], width=0.65,
           yerr=error_bars(seats["ci_low"], p, seats["ci_high"]), capsize=5, ecolor="black")
    fair = seats["fair_share"][0]
    # the fair share and each seat's share as the page's sentences and seats table print them
    # (reports.text.seats_fair, seat_share; session 62: "Fair share (25%)" and a bar's "19.0%"
    # beside "a fair 25.0%" and the headline's "18.95%")
    # (a table made by hand, without the gaps, at one decimal)
    full = {"diff", "fair_share"} <= set(seats.columns)
    ax.axhline(fair, color=FAIR, linestyle="--", linewidth=1.5,
               label=f"Fair share ({seats_fair(seats) if full else pct(fair)}%)")
    for xi, r in zip(x, seats.iter_rows(named=True)):
        ax.annotate(seat_share(r) if full else f"{pct(r['win_share'])}%", (xi, r["win_share"]),
                    xytext=(0, 12), textcoords="offset points", ha="center")
    ax.set_xticks(x, names)
    ax.set_xlabel("Seat (order of the first turn)" + (" and its bot" if bots else ""))
    ax.set_ylabel("Win share (shared wins split)")
    top = float(np.nanmax(seats["ci_high"].to_numpy())) if seats.height else fair
    ax.set_ylim(0, max(top, fair) * 1.3)
    percent_axis(ax)
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), frameon=False)
    ax.set_title("Who wins, by seat and its bot (95% intervals)" if bots else
                 "Who wins, by seat (95% intervals)", pad=24)
    m = seats["mean_score"].to_numpy()
    ax2.bar(x, m, color=[OKABE_ITO[i % 8] for i in range(len(x))], width=0.65,
            yerr=error_bars(seats["score_ci_low"], m, seats["score_ci_high"]), capsize=5, ecolor="black")
    ax2.set_xticks(x, names)
    ax2.set_ylabel(f"Mean final {unit}")
    ax2.set_xlabel("Seat and its bot" if bots else "Seat")
    ax2.set_title("Mean final score by seat", pad=24)
    if title:
        fig.suptitle(title)
    return fig



@styled
def role_advantage(t: dict) -> Figure:
    """Asymmetric games: each role's share of the games won, with 95% intervals (left); for each
    role of several seats, each seat's share of its role's wins against the equal split (right),
    each seat labelled with its bot when the seats hold different bots (:func:`seat_bots`). When
    every role has one seat (Fief's attacker and defender) there is no split: the left panel alone."""
    roles = t["roles"]
    seats = t["role_seats"]
    bots = seat_bots(t)
    multi = roles.filter(pl.col("seats") > 1)["role"].to_list()
    if not multi:           # every role one seat (Fief's attacker and defender): no split to draw
        fig = new_figure(5.5, 4.6)
        ax, ax2 = subplots(fig), None
    else:
        fig = new_figure(10, 4.6)
        ax, ax2 = subplots(fig, 1, 2, width_ratios=[2, 3])
    x = np.arange(roles.height)
    p = roles["win_share"].to_numpy()
    ax.bar(x, p, color=[OKABE_ITO[i % 8] for i in range(len(x))], width=0.6,
           yerr=error_bars(roles["ci_low"], p, roles["ci_high"]), capsize=5, ecolor="black")
    for xi, pi in zip(x, p):
        bar_label(ax, xi, pi, top=min(1.0, max(p.max() * 1.25, 0.1)))
    ax.set_xticks(x, [lab if k == 1 else f"{lab}s ({k})" for lab, k in
                      zip(roles["role_label"].to_list(), roles["seats"].to_list())])
    # where games end in shared wins (Fief's mutual wipe-outs), a side's bar is its win share, not
    # how often it wins (review AA #1: the defender's 11.3% bar where it holds 8.3%)
    shared = _has_shared_wins(t)
    ax.set_ylabel("Win share of the role\n(a shared win counts 1/k to each)" if shared
                  else "Share of games won by the role")
    ax.set_ylim(0, min(1.0, max(p.max() * 1.25, 0.1)))
    percent_axis(ax)
    ax.set_title(f"Who wins, by role ({int(roles['players'][0])} players,\n95% intervals, unadjusted)")
    if ax2 is None:
        return fig
    part = seats.filter(pl.col("role").is_in(multi))
    xs = np.arange(part.height)
    share = part["share_of_role"].to_numpy()
    colour = {r: OKABE_ITO[(i + roles["role"].to_list().index(r)) % 8] for i, r in enumerate(multi)}
    ax2.bar(xs, share, color=[colour[r] for r in part["role"].to_list()], width=0.6,
            yerr=error_bars(part["share_low"], share, part["share_high"]), capsize=5, ecolor="black")
    for xi, (lo, hi, eq) in enumerate(zip(xs - 0.4, xs + 0.4, part["equal_share"].to_list())):
        ax2.plot([lo, hi], [eq, eq], color=FAIR, linestyle="--", linewidth=1.5,
                 label="Equal split" if xi == 0 else None)
    ax2.set_xticks(xs, [f"{lab}{'' if bots is None else f' ({bots[int(k)]})'}\n{role}" for lab, k, role in
                        zip(part["seat_label"].to_list(), part["seat"].to_list(), part["role_label"].to_list())])
    ax2.set_ylabel("Share of the role's wins")
    ax2.set_ylim(0, min(1.0, max(share.max() * 1.3, 0.1)) if part.height else 1)
    percent_axis(ax2)
    if part.height:
        ax2.legend(loc="upper right")
    ax2.set_title("Seats within a role, each with its bot\n(95% intervals, unadjusted)" if bots else
                  "Seats within a role (95% intervals, unadjusted)")
    return fig


@styled
def matchups(t: dict) -> Figure | None:
    """Heat map: how often the row strategy finishes ahead of the column strategy."""
    if "matchups" not in t or t["matchups"].height == 0:
        return None
    m = t["matchups"]
    names = t["strategies"]["strategy"].to_list() if "strategies" in t else sorted(set(m["strategy"]))
    # only the bots that met (review Y #10: a whole empty row and column for the Seigneur's bot,
    # whom no Censitaire bot is matched with)
    met = set(m["strategy"].to_list()) | set(m["opponent"].to_list())
    names = [n for n in names if n in met]
    k = len(names)
    grid = np.full((k, k), np.nan)
    lo = np.full((k, k), np.nan)
    hi = np.full((k, k), np.nan)
    for r in m.iter_rows(named=True):
        i, j = names.index(r["strategy"]), names.index(r["opponent"])
        grid[i, j], lo[i, j], hi[i, j] = r["ahead_share"], r["ci_low"], r["ci_high"]
    fig = new_figure(min(10.0, max(6.0, 1.3 * k + 3)), max(4.5, 1.0 * k + 2))
    ax = subplots(fig)
    dev = np.nanmax(np.abs(grid - 0.5)) if np.isfinite(grid).any() else 0.1
    dev = max(dev, 0.02)
    im = ax.imshow(grid, cmap="PuOr", vmin=0.5 - dev, vmax=0.5 + dev)
    for i in range(k):
        for j in range(k):
            if np.isfinite(grid[i, j]):
                strong = abs(grid[i, j] - 0.5) > 0.6 * dev
                # (as the matchups table prints it: reports.sections.pct_column)
                ax.text(j, i, pct_ci(grid[i, j], lo[i, j], hi[i, j]).replace(" (", "\n("),
                        ha="center", va="center", fontsize=9, color="white" if strong else "black")
    ax.set_xticks(range(k), names)
    ax.set_yticks(range(k), names)
    ax.set_xlabel("Opponent strategy")
    ax.set_ylabel("Strategy")
    ax.grid(False)
    fig.colorbar(im, ax=ax, label="Finishes ahead of the opponent (ties ½)",
                 format=lambda v, _: f"{pct(v, 0)}%")
    title = "Strategy matchups (95% intervals, unadjusted)"
    if m["confounded"].any():
        title += "\n(strategies keep their seats: seat advantage included)"
    elif m["paired"].any():
        title += "\n(rotated seats, paired by deal)"
    ax.set_title(title)
    return fig


TAIL = 1e-4                # the share of players a score axis may leave out at each end


def _score_counts(d: pl.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Every score of ``d`` (a score histogram table) and the players on it, pooled over the groups
    (by count when the table has ``players``, else by share)."""
    col = "players" if "players" in d.columns else "share"
    g = d.group_by("score").agg(pl.col(col).sum()).sort("score")
    return g["score"].to_numpy(), g[col].to_numpy().astype(float)


def _shown_scores(d: pl.DataFrame, tail: float = TAIL) -> tuple[int, int]:
    """The scores the axis shows, ``(lo, hi)``: from the score below which fewer than ``tail`` of
    the players (pooled over the groups, by count) lie, to the one above which fewer than ``tail``
    do. A histogram of 800,000 players ran to 300 coins with nothing visible past ~250. A table
    without player counts is shown whole."""
    score, n = _score_counts(d)
    if "players" not in d.columns or n.sum() == 0:
        return int(score[0]), int(score[-1])
    below = np.cumsum(n) / n.sum()                        # share at or below each score
    above = 1.0 - np.concatenate([[0.0], below[:-1]])     # share at or above each score
    return (int(score[np.argmax(below >= tail)]),
            int(score[len(score) - 1 - np.argmax(above[::-1] >= tail)]))


#: Each group's step line its own dash pattern as well as its colour: two seats playing the same
#: bot have the same distribution, and a solid line drawn over another hid it (review Y #10); a
#: dashed line over a solid one shows both colours where they coincide.
# five patterns: the fifth seat of a five-player game no longer repeats the first's solid line in a
# colour close to it (review s48 SG #6: Seat 5 light-blue solid over Seat 1 dark-blue solid)
STEP_STYLES = ("-", (0, (5, 2)), (0, (1.5, 1.5)), (0, (6, 2, 1.5, 2)), (0, (8, 2, 1.5, 2, 1.5, 2)))


def _step_hist(ax, d: pl.DataFrame, groups: list[str], unit: str = "coins",
               tail: float = TAIL, names: dict | None = None) -> tuple[int, str]:
    """Step lines of the share of players per score bin, each bin centred on the whole scores it
    holds (a score s is drawn over [s − ½, s + ½), so a tick stands under its own score), bins of
    equal width (~60 over the scores shown), each group in its colour and dash pattern
    (:data:`STEP_STYLES`). The axis is cut to where the players are
    (:func:`_shown_scores`) and ends on a bin's edge; returns the bins' width and the note that
    says what the cut leaves out ("Not shown, of 80,000 players: 6 above 13 (up to 14) guild
    cards", empty when nothing is left out), worded by the same last whole score the axis shows,
    for the caller to put below the axes, where it hides no line."""
    lo, hi = _shown_scores(d, tail)
    width = max(1, math.ceil((hi - lo + 1) / 60))
    edges = np.arange(lo, hi + width + 1, width) - 0.5
    edges = edges[: int(np.searchsorted(edges, hi + 0.5)) + 1]     # the last edge: at or past hi + ½
    for i, g in enumerate(groups):
        s = d.filter(pl.col("group") == g)
        share, _ = np.histogram(s["score"].to_numpy(), bins=edges, weights=s["share"].to_numpy())
        # not clipped at the axis' ends: a bin ending on the last edge (Seigneurial's 100% of the
        # goal, where every winner sits) kept only half of its right side (review s48 SG #6)
        ax.stairs(share, edges, color=OKABE_ITO[i % 8], label=(names or {}).get(g, g), linewidth=1.8,
                  linestyle=STEP_STYLES[i % len(STEP_STYLES)], clip_on=False)
    ax.set_xlim(edges[0], edges[-1])
    first, last = int(round(edges[0] + 0.5)), int(round(edges[-1] - 0.5))   # whole scores shown
    score, n = _score_counts(d)
    left, right = int(n[score < first].sum()), int(n[score > last].sum())
    if "players" not in d.columns or not (left or right):
        return width, ""
    parts = ([f"{left:,} below {first} (down to {int(score[0])})"] if left else []) + \
            ([f"{right:,} above {last} (up to {int(score[-1])})"] if right else [])
    note = f"Not shown, of {int(n.sum()):,} players: " + ", ".join(parts) + f" {unit}"
    if len(note) > 55:         # one short line each, as wide as half a figure's panel
        note = f"Not shown, of {int(n.sum()):,} players:\n" + ",\n".join(parts) + f" {unit}"
    return width, note


@styled
def scores(t: dict, unit: str = "coins") -> Figure:
    """Distributions of final scores per seat and per strategy; what an axis cut to where the
    players are leaves out is said under it (:func:`_step_hist`)."""
    per_strategy = ("scores_by_strategy" in t and t["scores_by_strategy"]["group"].n_unique() > 1
                    and not _same_groups(t["scores_by_seat"], t["scores_by_strategy"]))
    fig = new_figure(10 if per_strategy else 8, 4.5)
    axes = np.atleast_1d(subplots(fig, 1, 2 if per_strategy else 1, sharey=True))
    d = t["scores_by_seat"]
    width, note = _step_hist(axes[0], d, sorted(set(d["group"]), key=lambda s: int(s.split()[-1])), unit,
                             names=seat_role_names(t))
    notes = [note]
    axes[0].set_title("Final score by seat")
    if per_strategy:
        d2 = t["scores_by_strategy"]
        order = t["strategies"]["strategy"].to_list() if "strategies" in t else sorted(set(d2["group"]))
        notes.append(_step_hist(axes[1], d2, [g for g in order if g in set(d2["group"])], unit)[1])
        axes[1].set_title("Final score by strategy")
    for ax, note in zip(axes, notes):
        ax.set_xlabel(f"Final {unit}" + (" (after end-of-game penalties)" if unit == "coins" else "")
                      + (f"\n{note}" if note else ""))
        ax.legend()
        percent_axis(ax)
    axes[0].set_ylabel("Share of players" + (f" per {width} {unit}" if width > 1 else ""))
    return fig


def _same_groups(a: pl.DataFrame, b: pl.DataFrame) -> bool:
    """Whether two score tables (group, score, players) hold the same distributions under other
    names: every strategy one seat's, as in a combat where each side is its own strategy (Fief
    review 45 #6: "Final score by seat" and "Final score by strategy" drew the same chart twice)."""
    def dists(d: pl.DataFrame) -> list:
        return sorted(tuple(zip(g.sort("score")["score"].to_list(), g.sort("score")["players"].to_list()))
                      for _, g in d.group_by("group"))
    return a["group"].n_unique() == b["group"].n_unique() and dists(a) == dists(b)


def seat_role_names(t: dict) -> dict[str, str]:
    """{"Seat 1": "Seat 1 (Seigneur)", …} for a game whose seats play roles (the ``role_seats``
    table; "Seat 3 (Censitaire, fair-share)" when the seats hold different bots), {} otherwise: a
    score figure's legend names each seat's role, since the roles' scores measure different things (review R #12: "Seat 1 … Seat 4" beside a Seigneur's squares and the
    Censitaires' resources)."""
    rs = t.get("role_seats")
    if rs is None or "seat_label" not in rs.columns:
        return {}
    # seats holding different bots name their bot too, as the role figure does (review Y #10: the
    # legend said "(Censitaire)" where the role figure said "Seat 3 (fair-share)")
    bots = seat_bots(t)
    return {r["seat_label"]: f"{r['seat_label']} ({r['role_label']}"
                             + (f", {bots[int(r['seat'])]})" if bots else ")")
            for r in rs.iter_rows(named=True)}


@styled
def game_flow(t: dict, unit: str = "coins") -> Figure | None:
    """Score at each checkpoint by final rank; lead changes; how often the leader wins.

    Generic over the checkpoints of the ``flow`` table: whatever family of score-by-time columns the
    analysis turned into that table (Middle-Ages' ``coins_turn_t``, or ``coins_before_event_k`` in
    older runs), the x axis is the table's own ``label``s, in
    ``checkpoint`` order, and the leader panel reads the turn of each ``leader_wins_*`` metric from
    the flow table's ``turn`` column. A per-turn family (consecutive turns) is labelled by turn
    number, every turn shown, "End" for the final score. ``unit``: what the checkpoints count (the
    flow table's ``mean_coins``: coins), on the y axis."""
    if "flow" not in t or t["flow"].height == 0:
        return None
    flow = t["flow"]
    fig = new_figure(10, 8.2)
    top, bottom = fig.subfigures(2, 1, height_ratios=[1.15, 1])
    ax = top.subplots()
    ax2, ax3 = bottom.subplots(1, 2)
    marks = flow.filter(pl.col("rank") == flow["rank"].min()).sort("checkpoint")
    labels, turns_at = marks["label"].to_list(), marks["turn"].to_list()
    known = [x for x in turns_at if x is not None]
    by_turn = len(known) > 6 and known == list(range(known[0], known[0] + len(known)))
    if by_turn:       # a per-turn family (coins_turn_t): the turn numbers, "End" for the final score
        labels = [str(x) if x is not None else "End" for x in turns_at]
    for i, rank in enumerate(sorted(set(flow["rank"].to_list()))):
        d = flow.filter(pl.col("rank") == rank).sort("checkpoint")
        x = d["checkpoint"].to_numpy()
        ax.errorbar(x, d["mean_coins"].to_numpy(), yerr=error_bars(d["ci_low"], d["mean_coins"], d["ci_high"]),
                    marker="o", color=OKABE_ITO[i % 8], label=f"Finished {_ordinal(rank)}", capsize=3)
    step = 1 if by_turn else max(1, math.ceil(len(labels) / 12))    # short labels: every one fits
    ticks = [i for i in range(len(labels)) if i % step == 0 or i == len(labels) - 1]
    ax.set_xticks([i + 1 for i in ticks], [labels[i] for i in ticks])
    if by_turn:
        ax.set_xlabel("End of turn (its event included); End = final score, after end-of-game penalties")
        ax.set_title("Game flow: score at the end of every turn, by final rank (95% intervals)")
    else:
        ax.set_xlabel("Checkpoint" + (" (turn 4k: just before event card k)" if any(
            "Turn" in lab for lab in labels) and len(labels) <= 6 else ""))
        ax.set_title("Game flow: score at each checkpoint, by final rank (95% intervals)")
    ax.set_ylabel(f"Mean score so far ({unit})")
    ax.legend(loc="upper left", fontsize=9)
    lc = t.get("lead_changes")
    if lc is not None and lc.height:
        ax2.bar(lc["lead_changes"].to_numpy(), lc["share"].to_numpy(), color=OKABE_ITO[0])
        ax2.set_xticks(lc["lead_changes"].to_list())
        ax2.set_xlabel("Lead changes from turn to turn" if by_turn else "Lead changes between checkpoints")
        ax2.set_ylabel("Share of games")
        ax2.set_ylim(0, float(lc["share"].max()) * 1.15)
        percent_axis(ax2)
        ax2.set_title("How often the lead changes")
    else:
        ax2.set_visible(False)
    o = t["outcomes"].filter(pl.col("metric").str.starts_with("leader_wins_"))
    if o.height:
        x = np.arange(1, o.height + 1)
        e = o["estimate"].to_numpy()
        ax3.errorbar(x, e, yerr=error_bars(o["ci_low"], e, o["ci_high"]), marker="o", color=OKABE_ITO[2], capsize=3)
        ax3.axhline(t["seats"]["fair_share"][0], color=FAIR, linestyle="--", linewidth=1, label="Fair share")
        if by_turn:
            shown = [k for k in x if k == 1 or turns_at[k - 1] % 4 == 0]
            ax3.set_xticks(shown, [str(turns_at[k - 1]) for k in shown])
            ax3.set_xlabel("Sole leader at the end of turn")
        else:
            names = [f"Turn {turns_at[k - 1]}" if k - 1 < len(turns_at) and turns_at[k - 1] is not None
                     else f"#{k}" for k in x]
            step = max(1, math.ceil(len(names) / 6))
            ax3.set_xticks(x[::step], names[::step])
            ax3.set_xlabel("Sole leader at the checkpoint")
        ax3.set_ylabel("Leader's win share")
        ax3.set_ylim(0, 1)
        percent_axis(ax3)
        ax3.legend(loc="lower right")
        ax3.set_title("Does the leader win?")
    else:
        ax3.set_visible(False)
    return fig


def _ordinal(k: int) -> str:
    return f"{k}{'st' if k == 1 else 'nd' if k == 2 else 'rd' if k == 3 else 'th'}"


def _one_bar_per_series(shares: pl.DataFrame) -> pl.DataFrame:
    """The leader-by-turn (and by-event) shares as one bar: the series' largest change, its label
    saying so ("Leader at the end of turn 10 wins (largest of 16 turns)"). Shown each,
    a change that shifts every turn's leader filled most of the chart with one story (9 of 15
    bars on a before/after of the Caserne's payment); the table and the sentences keep every turn."""
    if "metric" not in shares.columns:
        return shares
    for prefix, noun in (("leader_wins_turn_", "turns"), ("leader_wins_event_", "events")):
        series = shares.filter(pl.col("metric").str.starts_with(prefix))
        if series.height < 2:
            continue
        top = series.sort(pl.col("diff").abs(), descending=True, maintain_order=True).head(1)
        top = top.with_columns(pl.lit(f"{top['label'][0]} (largest of {series.height} {noun})")
                               .alias("label"))
        shares = pl.concat([shares.filter(~pl.col("metric").str.starts_with(prefix)), top])
    return shares


#: characters of a before/after bar's label per line (two lines at most)
LABEL_LINE = 56


def bar_label_lines(label: str) -> str:
    """A before/after bar's label on one line, or two when longer than :data:`LABEL_LINE` (cut
    with "…" only past two lines): a changed Objective card's label, "Objective card #10 (grain ≥
    4, wood ≥ 4, fish ≥ 4 → grain ≥ 4, wood ≥ 4, fish ≥ 3): its holders' win share", lost its new
    requirement when cut at 58 characters (review s46)."""
    import textwrap

    if len(label) <= LABEL_LINE:
        return label
    label = label.replace(" ≥ ", "\u00a0≥\u00a0")    # "wood ≥ 4" is not broken (textwrap splits on ASCII spaces)
    # two lines of about equal length ("…: its holders' win" over a lone "share" read badly)
    lines = textwrap.wrap(label, min(LABEL_LINE, len(label) // 2 + 6), break_on_hyphens=False)
    if len(lines) > 2:
        lines = textwrap.wrap(label, LABEL_LINE, break_on_hyphens=False)
    if len(lines) > 2:
        lines = [lines[0], " ".join(lines[1:])[: LABEL_LINE - 1].rstrip() + "…"]
    return "\n".join(lines).replace("\u00a0", " ")


@styled
def comparison(cmp: pl.DataFrame, base_t: dict, var_t: dict, base_label: str, var_label: str,
               top: int = 15, changes: dict[str, str] | None = None) -> Figure:
    """Before / after: seat (or role) win shares side by side, and the shares that changed most, in
    pp with their 95% intervals (metrics in other units are in the section's table and sentences;
    a leader-by-turn series is one bar: :func:`_one_bar_per_series`). ``changes``: each seat's
    change as the page prints it ("+0.25 pp"), written above its pair of bars (review U #7: bars
    from 0 to 30% showed changes of 0.05-0.25 pp as no change at all)."""
    shares = cmp.filter((pl.col("kind") == "proportion") & pl.col("diff").is_finite())
    # A share measured on a handful of games (a type almost nobody founds) has a huge interval that
    # would squash every other bar: such rows stay in the table, not in the chart.
    wide = shares.filter((pl.col("diff_high") - pl.col("diff_low")) > WIDE_INTERVAL)
    shares = shares.filter((pl.col("diff_high") - pl.col("diff_low")) <= WIDE_INTERVAL)
    shares = _one_bar_per_series(shares)
    # the `top` largest changes, largest first (the title says "changed most"; ranked by |z| before,
    # the most certain changes came first and a +10 pp change sat below +4 pp ones); ties by |z|
    d = shares.with_columns(pl.col("diff").abs().fill_nan(0).alias("_a"),
                            pl.col("z").abs().fill_nan(0).alias("_z")) \
        .sort(["_a", "_z"], descending=True, maintain_order=True).head(top)
    # a grey bar whose own interval misses 0 read as a contradiction (review O): the axis says why,
    # on two more lines
    missed = int((~d["significant"] & ((d["diff_low"] > 0) | (d["diff_high"] < 0))).sum()) if d.height else 0
    # a long label takes two lines (a changed card's old → new requirement was cut at its arrow)
    two_lines = sum("\n" in bar_label_lines(lab) for lab in d["label"].to_list())
    low_h = 0.34 * max(d.height, 4) + 0.16 * two_lines + 0.6 + (0.4 if missed else 0.0)
    fig = new_figure(10, 4.6 + low_h)
    upper, lower = fig.subfigures(2, 1, height_ratios=[4.6, low_h])
    ax2 = lower.subplots()
    by_role = "roles" in base_t and "roles" in var_t
    if by_role:
        _role_shares_before_after(upper, base_t["roles"], var_t["roles"], base_label, var_label,
                                  shared=_has_shared_wins(base_t) or _has_shared_wins(var_t))
    else:
        ax = upper.subplots()
        sb, sv = base_t["seats"], var_t["seats"]
        x = np.arange(sb.height)
        for off, s, color, lab in ((-0.2, sb, BASE, f"Before: {base_label}"), (0.2, sv, VARIANT, f"After: {var_label}")):
            p = s["win_share"].to_numpy()[: len(x)]
            ax.bar(x[: len(p)] + off, p, width=0.4, color=color, label=lab,
                   yerr=error_bars(s["ci_low"][: len(x)], p, s["ci_high"][: len(x)]), capsize=4, ecolor="black")
        ax.axhline(sb["fair_share"][0], color=FAIR, linestyle="--", linewidth=1.2, label="Fair share")
        ax.set_xticks(x, sb["seat_label"].to_list())
        ax.set_ylabel("Win share (95% intervals)")
        ax.set_ylim(0, float(max(sb["ci_high"].max(), sv["ci_high"].max())) * 1.3)
        percent_axis(ax)
        ax.legend(fontsize=9, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncols=3, frameon=False)
        shown = changes or {}
        for i, seat in enumerate(sb["seat_label"].to_list()[: len(x)]):
            if seat in shown and i < sv.height:
                top_i = float(max(sb["ci_high"][i], sv["ci_high"][i]))
                ax.annotate(shown[seat], (x[i], top_i), xytext=(0, 6), textcoords="offset points",
                            ha="center", fontsize=9)
        ax.set_title("Win share by seat, before / after" + (" (above each seat: its change)" if shown else ""),
                     pad=26)
    d = d.reverse()
    y = np.arange(d.height)
    diff = 100 * d["diff"].to_numpy()
    lo, hi = 100 * d["diff_low"].to_numpy(), 100 * d["diff_high"].to_numpy()
    colors = [OKABE_ITO[5] if s else "#999999" for s in d["significant"].to_list()]
    ax2.barh(y, diff, color=colors, xerr=error_bars(lo, diff, hi), capsize=3, ecolor="black")
    ax2.axvline(0, color="black", linewidth=0.8)
    ax2.set_yticks(y, [bar_label_lines(lab) for lab in d["label"].to_list()], fontsize=9)
    # Holm runs within each family of a before/after (the seats', the other metrics': analysis.compare)
    by_family = "family" in cmp.columns and cmp["family"].drop_nulls().n_unique() > 1
    ax2.set_xlabel("Change after − before (pp, 95% interval)\norange: moved, clear after Holm "
                   + ("within its family" if by_family else "over the tested metrics") + "; grey: within noise")
    if missed:
        n = int(cmp["p_adjusted"].fill_null(float("nan")).is_finite().sum())
        weighed = ("once their family is weighed (Holm's correction)" if by_family
                   else f"once all {n} tested metrics are weighed (Holm's correction)")
        ax2.set_xlabel(ax2.get_xlabel() + (f"\n{missed} grey bars miss 0 on their own 95% intervals" if missed > 1
                                           else "\n1 grey bar misses 0 on its own 95% interval")
                       + f",\nbut not {weighed}")
    ax2.set_title(f"The shares that changed most: {var_label} vs {base_label}")
    if wide.height:
        names = wide["label"].to_list()
        ax2.set_xlabel(ax2.get_xlabel() + "\nleft out (interval wider than 20 pp; in the table): "
                       + ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else ""))
    return fig


def _has_shared_wins(t: dict) -> bool:
    """Whether a run's games end in shared wins (Fief's mutual wipe-outs): a side's bar is then its
    win share, not how often it wins (review AA #1)."""
    o = t.get("outcomes")
    return o is not None and bool(o.filter((pl.col("metric") == "shared_wins") & (pl.col("estimate") > 0)).height)


def _role_shares_before_after(upper, rb: pl.DataFrame, rv: pl.DataFrame, base_label: str,
                              var_label: str, shared: bool = False) -> None:
    """Each role's share of the games won, before and after, on an axis of its own from 0 to a
    little above its larger interval: on one axis from 0 to 100% a side that wins 0.4% → 1.1% (the
    Seigneur) was a pixel high beside the Censitaires' 99% (review L #5)."""
    axes = np.atleast_1d(upper.subplots(1, rb.height))
    rv = rv.join(rb.select("role").with_row_index("_i"), on="role").sort("_i")     # rb's order
    for i, ax in enumerate(axes):
        high = float(max(rb["ci_high"][i], rv["ci_high"][i]))
        top = min(1.0, max(high * 1.3, 0.01))
        for off, s, color, lab in ((-0.2, rb, BASE, f"Before: {base_label}"), (0.2, rv, VARIANT, f"After: {var_label}")):
            p = float(s["win_share"][i])
            ax.bar([off], [p], width=0.4, color=color, label=lab,
                   yerr=error_bars(s["ci_low"][i: i + 1], np.array([p]), s["ci_high"][i: i + 1]),
                   capsize=4, ecolor="black")
            if p > 0.85 * top:
                bar_label(ax, off, p, top=top)
            else:       # above its interval, not through the error bar
                ax.annotate(f"{pct(p)}%", (off, float(s["ci_high"][i])), xytext=(0, 5),
                            textcoords="offset points", ha="center")
        ax.set_xlim(-0.6, 0.6)
        ax.set_xticks([-0.2, 0.2], ["before", "after"])
        ax.set_ylim(0, top)
        percent_axis(ax)
        ax.set_title(f"{rb['role_label'][i]} side" + ("" if top >= 1.0 else "\n(axis zoomed to its range)"),
                     fontsize=10)
        if i == 0:      # (shared wins: each side's bar is its win share, as on the run's page)
            ax.set_ylabel("Win share of the role, a shared win\ncounting 1/k to each (95% intervals)" if shared
                          else "Share of games won (95% intervals)")
    axes[0].legend(fontsize=9, loc="lower left", bbox_to_anchor=(0.0, 1.12), ncols=2, frameon=False)
    upper.suptitle("Win share by role, before / after (each role on its own axis)", fontsize=11)


@styled
def side_by_side(configs: list[tuple[str, dict]]) -> Figure | None:
    """Configurations of different player counts next to each other: each seat's win share minus its
    own configuration's fair share (pp), with the 95% interval; no before/after test."""
    if not configs or any("seats" not in t for _, t in configs):
        return None
    k = len(configs)
    seats = max(t["seats"].height for _, t in configs)
    fig = new_figure(10, 4.8)
    ax = subplots(fig)
    width = 0.8 / k
    for i, (label, t) in enumerate(configs):
        s = t["seats"]
        x = np.arange(s.height) - 0.4 + width * (i + 0.5)
        d = 100 * s["diff"].to_numpy()
        ax.bar(x, d, width=width * 0.92, color=OKABE_ITO[i % 8],
               yerr=error_bars(100 * s["diff_low"].to_numpy(), d, 100 * s["diff_high"].to_numpy()),
               capsize=3, ecolor="black",
               label=f"{label}: {int(t['seats']['games'][0]):,} games, fair {seats_fair(s)}%")
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xticks(np.arange(seats), [f"Seat {i + 1}" for i in range(seats)])
    ax.set_ylabel("Win share − fair share (pp)")
    ax.legend(fontsize=9, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncols=min(k, 2), frameon=False)
    ax.set_title("Seat advantage by player count (95% intervals)", pad=12 + 16 * math.ceil(k / 2))
    return fig


@styled
def side_by_side_roles(configs: list[tuple[str, dict]]) -> Figure | None:
    """Games with roles, configurations of different player counts next to each other: the share of
    games each role's side wins (95% intervals); no before/after test."""
    if not configs or any("roles" not in t for _, t in configs):
        return None
    roles = configs[0][1]["roles"]
    names, shown = roles["role"].to_list(), roles["role_label"].to_list()
    k = len(configs)
    fig = new_figure(10, 4.8)
    ax = subplots(fig)
    width = 0.8 / k
    for i, (label, t) in enumerate(configs):
        r = t["roles"]
        by = {x["role"]: x for x in r.iter_rows(named=True)}
        rows = [by[n] for n in names if n in by]
        x = np.arange(len(names))[[n in by for n in names]] - 0.4 + width * (i + 0.5)
        p = np.array([q["win_share"] for q in rows])
        ax.bar(x, 100 * p, width=width * 0.92, color=OKABE_ITO[i % 8],
               yerr=error_bars([100 * q["ci_low"] for q in rows], 100 * p, [100 * q["ci_high"] for q in rows]),
               capsize=3, ecolor="black",
               label=f"{label}: {int(r['players'][0])} players, {int(r['games'][0]):,} games")
        # each share written above its bar (review Y #9: the Seigneur's 0.4% and 0.0% were no bar
        # at all on the 0–100% axis), two decimals under 10%
        for xi, q in zip(x, rows):
            v = q["win_share"]
            ax.text(xi, 100 * q["ci_high"] + 1.0, f"{pct(v, 2 if 100 * v < 10 else 1)}%",
                    ha="center", va="bottom", fontsize=8)
    ax.set_xticks(np.arange(len(names)), shown)
    ax.set_ylabel("Side's win share (%)")      # (one unit on the axis: the checklist read "games" as one)
    ax.set_ylim(0, 110)
    ax.legend(fontsize=9, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncols=min(k, 2), frameon=False)
    ax.set_title("Role advantage by player count (95% intervals)", pad=12 + 16 * math.ceil(k / 2))
    return fig


# ---------------------------------------------------------------------------------------------
# Game length, end reasons and guild types (games with ``turns`` / ``founded_*`` records)
# ---------------------------------------------------------------------------------------------

def _reason_colours(labels: list[str]) -> dict[str, str]:
    return {lab: OKABE_ITO[i % 8] for i, lab in enumerate(labels)}


@styled
def game_length(t: dict, unit: str = "turns", ends: list[str] | None = None) -> Figure | None:
    """Histogram of game length stacked by end reason, each bar centred on its whole number of
    turns (a bin of several turns on its middle); share of each end reason (Wilson intervals).
    ``unit``: what a turn is called in the game (:func:`analysis.length.length_unit`: "player
    turns" where each is one player's), as the page's sentences say it. ``ends``: the end reasons'
    labels in the order to draw them (the End reasons table's by side,
    :func:`reports.sections.ends_by_side`); by code otherwise."""
    if "length_distribution" not in t or t["length_distribution"].height == 0:
        return None
    d = t["length_distribution"]
    er = t.get("end_reasons")
    # each end its colour by code, whatever order the bars are drawn in
    colours = _reason_colours(er["label"].to_list() if er is not None else sorted(set(d["label"])))
    if er is not None and ends is not None and sorted(ends) == sorted(er["label"].to_list()):
        er = er.with_columns(pl.col("label").replace_strict(ends, list(range(len(ends))),
                                                             return_dtype=pl.Int64).alias("_at")
                             ).sort("_at").drop("_at")
    order = er["label"].to_list() if er is not None else sorted(set(d["label"]))
    width = int(d["turns_to"][0] - d["turns_from"][0] + 1)
    starts = np.arange(int(d["turns_from"].min()), int(d["turns_from"].max()) + width, width)
    fig = new_figure(10 if er is not None else 8, 4.8)
    if er is not None:
        ax, ax2 = subplots(fig, 1, 2, width_ratios=[3, 2])
    else:
        ax, ax2 = subplots(fig), None
    bottom = np.zeros(len(starts))
    for lab in order:
        s = d.filter(pl.col("label") == lab)
        if s.height == 0:
            continue
        h = np.zeros(len(starts))
        h[((s["turns_from"].to_numpy() - starts[0]) // width).astype(int)] = s["share"].to_numpy()
        # a bin of whole turns [from, to] spans from − ½ to to + ½: a 7-turn bar centred on 7
        ax.bar(starts - 0.5, h, width=width, bottom=bottom, align="edge", color=colours[lab], label=lab,
               edgecolor="white", linewidth=0.4)
        bottom += h
    # room for the legend above the bars: its height grows with its entries (each end reason drawn,
    # the mean and the median): at a fixed 1.3x the five entries of a game with three ends covered
    # the tallest bars (session 41, a Seigneurial run page)
    entries = sum(1 for lab in order if d.filter(pl.col("label") == lab).height) + 2 * ("length" in t)
    room = min(0.66, 0.14 + 0.065 * entries)
    ax.set_ylim(0, float(bottom.max()) / (1.0 - room) if bottom.size else 1)
    if "length" in t:
        r = t["length"].row(0, named=True)
        # the lines stop under the room kept for the legend, which covered their tops (review s46 #13)
        top = 1.0 - min(0.6, 0.05 + 0.065 * entries)     # (the legend's own height, about)
        ax.axvline(r["mean_turns"], ymax=top, color="black", linestyle="--", linewidth=1.2,
                   label=f"Mean {r['mean_turns']:.1f} {unit}")
        ax.axvline(r["median"], ymax=top, color=FAIR, linestyle=":", linewidth=1.5,
                   label=f"Median {r['median']:g}")
    ax.set_xlabel(f"{unit[0].upper()}{unit[1:]} in the game")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))      # whole turns, under their bars
    ax.set_ylabel(f"Share of games per {width} {unit}" if width > 1 else "Share of games")
    percent_axis(ax)
    ax.legend(loc="upper right", fontsize=9)
    ax.set_title("How long games last, by how they end")
    if ax2 is not None:
        y = np.arange(er.height)[::-1]
        p = er["share"].to_numpy()
        ax2.barh(y, p, color=[colours[lab] for lab in er["label"]],
                 xerr=error_bars(er["ci_low"], p, er["ci_high"]), capsize=4, ecolor="black")
        right = min(1.0, max(float(p.max()) * 1.25, 0.05))
        for yi, pi in zip(y, p):
            # "none" for an end no game reached, a rare one at the decimals that show it (as the
            # headline: 6 games in 20,000 are 0.03%, not 0.0%; review s46 #10)
            digits = next((k for k in (1, 2, 3) if round(100 * pi, k) > 0), 3)
            # a bar reaching near the axis' end carries its label inside (the checklist's rule 4:
            # Seigneurial's 99.6% "Censitaire objective" had it past the 100% tick, at the figure's
            # edge; review s49 reports #4)
            inside = pi > 0.8 * right
            ax2.annotate("none" if pi <= 0 else f"{pct(pi, digits)}%", (pi, yi),
                         xytext=(-6 if inside else 6, 0), textcoords="offset points", va="center",
                         ha="right" if inside else "left", fontsize=9,
                         color="white" if inside else "black", fontweight="bold" if inside else "normal")
        ax2.set_yticks(y, er["label"].to_list())
        ax2.set_xlim(0, right)
        ax2.set_xlabel("Share of games (95% intervals)")
        percent_axis(ax2, "x")
        ax2.set_title("How games end")
    return fig
