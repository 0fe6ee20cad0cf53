"""The runs of a panel read back: one row per cell (player count and line-up) with every seat's and
role's win share and its interval, and whether a finding holds in every cell.

The cells are run directories (``balance tune``'s ``confirmations/trial-N/cell-K/``, or any runs of
one game a designer names, e.g. one ``simulate`` per line-up and player count), each read from its
statistics (stats.json, at any number of games; players.parquet is not needed) or, for a run
written before them, its rows (:func:`analysis.sweep.metrics.cell_summary`). The *finding* is
about the seat that deviates most from a fair seat share (1/P) over the whole panel (in a game with
roles, seat 1 is the first role's seat: the Seigneur): it is above (or below) 1/P in a cell when the
cell's *adjusted* interval lies above (below) it. The family adjusted over is every seat of every
cell (m = the sum of the cells' player counts seat × cell comparisons with 1/P): Bonferroni
simultaneous intervals, each at level 1 − 0.05/m (estimate ± z·se, se from the cell's own 95%
interval, mean ± Z·sd/√n). The seat is picked from the data among the P seats, so the family holds
every seat, not only the one reported: all m intervals hold together with probability at least
95% (normal approximation), and then every call the finding makes — above, below, "in every cell" —
is right, whichever seat the data pick. So the finding's calls are wrong, together, with probability at most 5%. (The page used to
say "wrong with probability at most 2.5%": that is one one-sided intersection-union test, true only
for a seat and a side named before the data; for the seat and side picked from the data among P
seats, unadjusted, the union bound is P × 5%.) "In every cell" is said only when every
cell's adjusted interval is on the same side; otherwise the counts of cells above, below and
unclear. The cell × metric table keeps each cell's own 95% interval (not adjusted).

May import numpy, polars, the standard library, :mod:`simcore`, :mod:`analysis.load` (smallest
differences), :mod:`analysis.stats` (critical values, the wording by size) and :mod:`analysis.sweep.metrics`.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from simcore import games as registry
from simcore.errors import UsageError
from simcore.rundir import RUN_JSON, read_meta

from analysis.load import smallest_difference
from analysis.stats import LARGE, SMALL, practical, z_quantile
from analysis.sweep.metrics import Z, cell_summary


def cell_runs(paths) -> list[Path]:
    """Run directories of a panel: the ones given, or a directory's ``cell-*`` sub-directories."""
    out = []
    for p in map(Path, paths):
        if (p / RUN_JSON).is_file():
            out.append(p)
            continue
        subs = sorted((d for d in p.glob("cell-*") if (d / RUN_JSON).is_file()),
                      key=lambda d: int(d.name.split("-")[1]) if d.name.split("-")[1].isdigit() else 0)
        if not subs:
            raise UsageError(f"{p}: neither a run directory nor a directory of cell-*/ runs")
        out += subs
    return out


def is_panel_dir(path) -> bool:
    p = Path(path)
    return not (p / RUN_JSON).is_file() and any((d / RUN_JSON).is_file() for d in p.glob("cell-*"))


def _label(players: int, lineup: list[str]) -> str:
    parts = []
    for name, run in itertools.groupby(lineup):
        k = len(list(run))
        parts.append(name if k == 1 else f"{k}×{name}")
    return f"{players}p " + " + ".join(parts)


@dataclass
class PanelTable:
    game: str
    cells: pl.DataFrame          # one row per cell and metric: cell, label, players, metric, …
    labels: list[str]
    finding: str
    smallest: float = 0.01       # the smallest win-share difference that matters (the finding's)


def panel_table(paths, smallest: dict | None = None) -> PanelTable:
    """The cell × metric table of the runs of a panel and its finding sentence. ``smallest``: the
    smallest differences that matter, by kind, over the game's (:func:`analysis.load.smallest_difference`)."""
    runs = cell_runs(paths)
    games = {read_meta(r).get("game") for r in runs}
    if len(games) != 1:
        raise UsageError(f"the runs of a panel must be of one game (got {', '.join(sorted(map(str, games)))})")
    game = games.pop()
    spec = registry.get(game)
    rows, labels = [], []
    for k, r in enumerate(runs):
        meta = read_meta(r)
        v = cell_summary(r)
        names = meta.get("strategies") or meta.get("strategy_names") or []
        if isinstance(names, str):
            names = names.split(",")
        label = _label(v.n_players, list(names)) if names else f"{v.n_players}p {r.name}"
        if label in labels:
            # a panel's cells are OUT/cell-K: two panels' cell-1 name neither, so name the panel too
            where = f"{r.parent.name}/{r.name}" if r.name.startswith("cell-") else r.name
            label = f"{label} ({where})"
        labels.append(label)
        for key, (info, m, lo, hi) in v.estimates.items():
            rows.append({"cell": k, "label": label, "players": v.n_players, "games": v.n_games,
                         "run": str(r), "metric": key, "what": info.label,
                         "share": info.share, "estimate": m, "low": lo, "high": hi,
                         "fair": 1.0 / v.n_players if key.startswith("seat_") else None})
    cells = pl.DataFrame(rows)
    share = smallest_difference(game, "share", smallest)
    return PanelTable(game, cells, labels, finding(cells, spec, len(runs), share), share)


ALPHA = 0.05                 # the family-wise error of the finding's calls, over every seat × cell


def adjusted_seat_intervals(cells: pl.DataFrame, alpha: float = ALPHA) -> tuple[pl.DataFrame, int, float]:
    """The seat rows of ``cells`` with ``adj_low``/``adj_high``: Bonferroni simultaneous intervals
    over the family of every seat of every cell (m rows), each at level 1 − alpha/m, estimate ±
    z·se with se = (high − low) / (2·Z) (the cell's own 95% interval is mean ± Z·se). Returns
    (rows, m, z)."""
    seats = cells.filter(pl.col("metric").str.starts_with("seat_win_share_"))
    m = seats.height
    z = z_quantile(1.0 - alpha / max(m, 1))
    se = (seats["high"].to_numpy().astype(float) - seats["low"].to_numpy().astype(float)) / (2.0 * Z)
    est = seats["estimate"].to_numpy().astype(float)
    return (seats.with_columns(pl.Series("adj_low", est - z * se), pl.Series("adj_high", est + z * se)),
            m, z)


def finding(cells: pl.DataFrame, spec, n: int, smallest: float = 0.01) -> str:
    """The finding sentence; a cell's call (above, below or unclear) is from its adjusted interval
    (:func:`adjusted_seat_intervals`: Bonferroni over every seat of every cell, so the calls hold
    together whichever seat the data pick); the cells where the seat is clearly on its side of 1/P
    are split by size, read on that adjusted interval (:func:`analysis.stats.practical`): all of it
    at least ``smallest`` from 1/P ("clear and large enough to matter"), all of it closer ("clear but
    small"), or reaching both ("clear, may matter": these games cannot tell). Counts of 0 are left
    out (no "in 0 of those 1"): the counts printed add up to the cells they split; when no cell is
    clear, the sentence says so in words ("in none of the 3 cells")."""
    seats, m, _ = adjusted_seat_intervals(cells)
    dev = (seats.with_columns((pl.col("estimate") - pl.col("fair")).alias("d"))
           .group_by("metric").agg(pl.col("d").mean()).sort(pl.col("d").abs(), descending=True))
    key = dev["metric"][0]
    up = dev["d"][0] > 0
    s = seats.filter(pl.col("metric") == key)
    above = int((s["adj_low"] > s["fair"]).sum())
    below = int((s["adj_high"] < s["fair"]).sum())
    seat = int(key.rsplit("_", 1)[1])
    role = "" if spec.roles_alike else f" ({spec.seat_roles(int(s['players'][0]))[seat - 1]})"
    who = f"Seat {seat}{role}"
    side = "more" if up else "less"
    hits = above if up else below
    side_rows = (s.filter(pl.col("adj_low") > pl.col("fair")) if up
                 else s.filter(pl.col("adj_high") < pl.col("fair")))
    words = practical((side_rows["estimate"] - side_rows["fair"]).to_numpy(),
                      (side_rows["adj_low"] - side_rows["fair"]).to_numpy(),
                      (side_rows["adj_high"] - side_rows["fair"]).to_numpy(), smallest - 1e-12)
    large, small = int((words == LARGE).sum()), int((words == SMALL).sum())
    may = hits - large - small
    that = f"{100 * smallest:g} pp"
    size = _by_size([(f"by at least {that} (clear and large enough to matter)", large),
                    (f"perhaps by {that} or more (clear, may matter: these games cannot tell)", may),
                    (f"by less than {that} (clear but small)", small)], hits)
    lo_row = s.sort("estimate").row(0, named=True)
    hi_row = s.sort("estimate").row(-1, named=True)
    spread = (f"its win share runs from {100 * lo_row['estimate']:.1f}% ({lo_row['label']}) to "
              f"{100 * hi_row['estimate']:.1f}% ({hi_row['label']})")
    family = (f" (clear: {100 * (1 - ALPHA):g}% intervals simultaneous over the panel's {m} seat × cell "
              f"comparisons with 1/P, every seat of every cell, Bonferroni; the calls are wrong, "
              f"together, with probability at most {100 * ALPHA:g}%)")
    have = s.height
    if have < n:
        # cells at fewer players have no such seat: they are neither above, below nor unclear
        counts = sorted(set(seats["players"].to_list()) - set(s["players"].to_list()))
        none = (f"{n - have} of the {n} cells have no seat {seat} "
                f"({', '.join(map(str, counts))} player{'s' if counts != [1] else ''})")
        if hits == have:
            return (f"The finding holds in every cell that has a seat {seat}, not in every cell: {who} "
                    f"wins {side} than a fair seat share (1/P) in all {have} cells with a seat "
                    f"{seat}{size}; {none}; {spread}{family}.")
        return (f"The finding does not hold in every cell: {who} wins {side} than a fair seat share "
                f"(1/P) in {hits or 'none'} of the {have} cells with a seat {seat} "
                f"({_calls(above, below, have)}){size}; {none}; {spread}{family}.")
    if hits == n:
        return (f"The finding holds in every cell: {who} wins {side} than a fair "
                f"seat share (1/P) in all {n} cells{size}; {spread}{family}.")
    return (f"The finding does not hold in every cell: {who} wins {side} than a fair seat share (1/P) "
            f"in {f'{hits} of {n}' if hits else f'none of the {n}'} cells ({_calls(above, below, n)}){size}; "
            f"{spread}{family}.")


def _calls(above: int, below: int, cells: int) -> str:
    """The cells' calls, ``"1 above, 2 unclear"``: the counts of 0 left out (they add up to
    ``cells``, which is at least 1)."""
    parts = [(above, "above"), (below, "below"), (cells - above - below, "unclear")]
    return ", ".join(f"{k} {w}" for k, w in parts if k)


def _by_size(counts: list[tuple[str, int]], hits: int) -> str:
    """How far the seat is off 1/P in the ``hits`` cells where it is clearly on its side, in
    reading order (large enough to matter, may matter, clear but small), each wording with its
    count of cells, the counts of 0 left out (the counts shown add up to ``hits``):
    ``"; of those 3, by at least 1 pp (…) in 2, by less than 1 pp (…) in 1"``; ``"; in that cell,
    by …"`` for one cell; ``"; by … in all 3 of them"`` when one wording holds them all; ``""``
    when there is no such cell."""
    shown = [(words, k) for words, k in counts if k]
    if not hits:
        return ""
    if hits == 1:
        return f"; in that cell, {shown[0][0]}"
    if len(shown) == 1:
        return f"; {shown[0][0]} in all {hits} of them"
    return f"; of those {hits}, " + ", ".join(f"{words} in {k}" for words, k in shown)


__all__ = ["PanelTable", "panel_table", "cell_runs", "is_panel_dir", "adjusted_seat_intervals", "finding"]
