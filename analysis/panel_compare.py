"""A before/after over a panel: the same line-ups and player counts played under two rule sets
(``simulate --panel NAME --out BASE`` and ``simulate --panel NAME --set … --out VARIANT``), compared
cell by cell, so that a rule change's effect on the win rates says which line-ups it holds for.

:func:`pair_cells` pairs the two panels' cells by player count and line-up (the cell's label, as
the panel page names it), in order when a line-up appears twice; a cell of one panel alone is
named and left out. :func:`panel_comparison` compares each pair as ``balance report BASE/cell-K
VARIANT/cell-K`` does (:func:`analysis.compare.compare_runs`: paired game by game when both
cells played the same deals) and keeps the seat win shares (in a game with roles, the sides'):
one family over every cell and seat, Holm's step-down on the comparisons' two-sided p-values,
each change worded by its size on its Bonferroni interval over that family
(:func:`analysis.stats.practical_holm`), so that "moved in 3 of 3 cells" holds for the whole
table at once, not cell by cell.
The page's words are :mod:`reports.panel`'s (:func:`reports.panel.build_panel_comparison_report`).

May import polars, numpy, the standard library, :mod:`analysis` and its modules, and
:mod:`simcore` (run directories, errors).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl

from analysis import stats
from analysis.panel import _label, cell_runs
from simcore.errors import UsageError
from simcore.rundir import read_meta

ALPHA = 0.05


@dataclass
class PanelComparison:
    """The seat (or side) win shares of every paired cell, before and after.

    ``rows``: one row per cell and seat: cell (its label: players and line-up), players, item (the
    seat's or side's label), before, after, diff (after − before), diff_low, diff_high (its own 95%
    interval, unadjusted), z, p_value, p_adjusted (Holm over the family), significant (p_adjusted
    below 0.05), size_low, size_high (the
    Bonferroni interval over the family, the verdict's), verdict (its size in words), paired
    (compared game by game). ``family``: how many comparisons the correction runs over. ``left_out``:
    the cells found in one panel only."""

    game: str
    rows: pl.DataFrame
    cells: list[str]
    what: str                       # "seat", or "side" in a game with roles
    family: int
    smallest: float
    left_out: list[str] = field(default_factory=list)
    runs: list[tuple[Path, Path]] = field(default_factory=list)     # each pair's run directories


def _cell_label(run: Path) -> str:
    meta = read_meta(run)
    names = meta.get("strategies") or []
    if isinstance(names, str):
        names = names.split(",")
    players = int(meta.get("players") or len(names))
    return _label(players, list(names)) if names else f"{players}p {run.name}"


def pair_cells(base: str | Path, variant: str | Path) -> tuple[list[tuple[str, Path, Path]], list[str]]:
    """The cells of panel directories ``base`` and ``variant`` paired by player count and line-up
    (label, base cell, variant cell), in the base panel's order, and the labels of the cells
    found in one panel only. Refused in one line when the panels are of different games or share
    no line-up."""
    b_runs, v_runs = cell_runs([base]), cell_runs([variant])
    games = {read_meta(r).get("game") for r in b_runs + v_runs}
    if len(games) != 1:
        raise UsageError(f"{base} and {variant}: panels of different games "
                         f"({', '.join(sorted(map(str, games)))}) have no before/after")
    waiting: dict[str, list[Path]] = {}
    for r in v_runs:
        waiting.setdefault(_cell_label(r), []).append(r)
    pairs, alone = [], []
    for r in b_runs:
        lab = _cell_label(r)
        if waiting.get(lab):
            pairs.append((lab, r, waiting[lab].pop(0)))
        else:
            alone.append(f"{lab} ({r.parent.name}/{r.name})")
    alone += [f"{lab} ({r.parent.name}/{r.name})" for lab, rs in waiting.items() for r in rs]
    if not pairs:
        raise UsageError(f"{base} and {variant}: no cell of one panel has the players and line-up "
                         f"of a cell of the other, so there is nothing to compare (cells: "
                         f"{'; '.join(alone)})")
    return pairs, alone


def _untested_side(tb: dict, tv: dict, dropped: list, paired: bool) -> pl.DataFrame:
    """A game of two sides whose comparison kept neither side's win share (both constant: the
    Seigneur won no game in either run): the first side's row, before and after, not tested (no
    game differs), with the comparison's reason."""
    b, v = tb["roles"].row(0, named=True), tv["roles"].row(0, named=True)
    label = f"{b['role_label']} side"
    why = next((w for lab, w in dropped if lab.startswith(label)), "the same in every game of both runs")
    return pl.DataFrame([{"label": f"{label} win share", "key": str(b["role"]), "base": float(b["win_share"]),
                          "variant": float(v["win_share"]), "diff": float(v["win_share"]) - float(b["win_share"]),
                          "diff_low": None, "diff_high": None, "z": None, "p_value": None,
                          "paired": paired, "note": why}],
                        schema={"label": pl.String, "key": pl.String, "base": pl.Float64,
                                "variant": pl.Float64, "diff": pl.Float64, "diff_low": pl.Float64,
                                "diff_high": pl.Float64, "z": pl.Float64, "p_value": pl.Float64,
                                "paired": pl.Boolean, "note": pl.String})


def panel_comparison(base: str | Path, variant: str | Path, smallest: dict | None = None,
                     progress=None) -> PanelComparison:
    """The before/after of two panels, cell by cell (module docstring). ``smallest``: the smallest
    differences that matter, by kind (``--smallest-difference``); ``progress(text)`` is told each
    cell as it is read.

    The family: Holm's step-down over the comparisons' own p-values (a paired t test when the cell
    pair played the same deals, else the tie-aware Wald test), each size interval the comparison's
    95% interval widened about the change by z(1 − α/2m) / z(0.975), each end separately (as
    :func:`analysis.compare.compare_tables` sizes its own family). A game with roles is read by
    side in every cell; a side constant in both runs of a cell (the Seigneur won no game) is kept
    as a row outside the family, not tested."""
    from analysis import analyse, open_runs
    from analysis.compare import compare_runs
    from simcore import games as registry
    from simcore.rundir import check_distinct_runs

    pairs, alone = pair_cells(base, variant)
    for lab, b, v in pairs:
        try:
            check_distinct_runs([b, v], [read_meta(b), read_meta(v)])
        except UsageError as exc:
            raise UsageError(f"{base} and {variant}: the cells {lab} of both panels are one run "
                             f"({exc}); a panel compared with itself has no before/after") from None
    game = str(read_meta(pairs[0][1]).get("game"))
    spec = registry.specs().get(game)
    what = "seat" if spec is None or spec.roles_alike else "side"
    metric = "seat_win_share" if what == "seat" else "role_win_share"
    parts, small = [], None
    for k, (lab, b, v) in enumerate(pairs):
        if progress is not None:
            progress(f"Comparing cell {k + 1} of {len(pairs)} ({lab})")
        brs, vrs = open_runs([b]), open_runs([v])
        if smallest:
            brs.smallest = vrs.smallest = dict(smallest)
        tb, tv = analyse(brs), analyse(vrs)
        comparison = compare_runs(brs, vrs, tb, tv, smallest=smallest)
        cmp = comparison.table
        rows = cmp.filter(pl.col("metric") == metric).with_columns(pl.lit(None, pl.String).alias("note"))
        if rows.height and small is None and "smallest" in rows.columns:
            small = float(rows["smallest"][0])
        if rows.height == 0 and what == "side":
            rows = _untested_side(tb, tv, comparison.dropped, bool(comparison.pairing.paired))
        parts.append(rows.select(
            pl.lit(k).alias("cell_index"), pl.lit(lab).alias("cell"),
            pl.lit(int(read_meta(b).get("players") or 0)).alias("players"),
            pl.col("label").str.replace(" win share$", "").alias("item"), pl.col("key"),
            pl.col("base").alias("before"), pl.col("variant").alias("after"), "diff", "diff_low",
            "diff_high", "z", "p_value", "paired", "note",
            pl.lit(int(read_meta(b).get("games") or 0)).alias("games_before"),
            pl.lit(int(read_meta(v).get("games") or 0)).alias("games_after"),
            pl.lit(read_meta(b).get("seed")).cast(pl.Int64).alias("seed_before"),
            pl.lit(read_meta(v).get("seed")).cast(pl.Int64).alias("seed_after"),
            pl.lit(comparison.pairing.why or "", pl.String).alias("unpaired_why")))
    small = 0.01 if small is None else small
    t = pl.concat(parts, how="vertical_relaxed").sort(["cell_index", "key"]).drop("cell_index")
    diff = t["diff"].to_numpy()
    p = t["p_value"].fill_null(np.nan).to_numpy()
    live = np.isfinite(p)
    m = int(live.sum())
    c = stats.z_quantile(1.0 - ALPHA / max(m, 1)) / stats.z_quantile()
    dlo, dhi = t["diff_low"].fill_null(np.nan).to_numpy(), t["diff_high"].fill_null(np.nan).to_numpy()
    low = np.where(live, diff - (diff - dlo) * c, np.nan)
    high = np.where(live, diff + (dhi - diff) * c, np.nan)
    padj = stats.holm(p)
    clear = np.nan_to_num(padj, nan=1.0) < ALPHA
    verdict = np.asarray(stats.practical(diff, low, high, small, clear=clear), dtype=object)
    verdict[~live] = None                    # not tested: no verdict (the note says why)
    t = t.with_columns(pl.Series("p_adjusted", padj), pl.Series("significant", clear),
                       pl.Series("size_low", low), pl.Series("size_high", high),
                       pl.Series("verdict", list(verdict), dtype=pl.String))
    return PanelComparison(game, t, [lab for lab, _, _ in pairs], what, m, small, alone,
                           [(b, v) for _, b, v in pairs])


def moved(c: PanelComparison) -> pl.DataFrame:
    """The rows clear after the family's correction (every verdict but 'not shown'; not the rows
    outside the family)."""
    return c.rows.filter(pl.col("verdict").is_not_null() & (pl.col("verdict") != stats.NOT_SHOWN))
